"""Singley's greedy codebreakers (003, sections 4.1 and 4.2): settle one stone at a time.

Greedy 1 rotates each stone through the colours, the others held at colour 1, until the bull
count moves. Greedy 2 skips the tests it can deduce: colour 1 (known from the first guess) and
the last colour. Greedy 3 first counts each colour (``count_colours``), then tries only the
colours present. They use no search at all; their guesses count toward "until the code is
known", the count of Singley's tables (``GameRecord.known_after``); ``docs/notes/singley-1d-reading.md``
gives the reading of each method and the figures it reproduces.

>>> from mmlab.game import Game
>>> from mmlab.experiments import play_game
>>> game = Game.parse_size("4x6")
>>> record = play_game(game, Greedy2(), game.parse("3616"))   # colour 6 is deduced, never tested
>>> [game.format(g) for g in record.guesses]
['1111', '2111', '3111', '3211', '3311', '3411', '3511', '3621', '3612', '3613', '3614', '3615', '3616']
>>> record.n_guesses, record.known_after     # the last guess was deduced: the thesis counts 12
(13, 12)
"""

from __future__ import annotations

from collections.abc import Generator

from mmlab.errors import BadArgument, InconsistentFeedback
from mmlab.game import Feedback, Game
from mmlab.strategies.base import Param
from mmlab.strategies.scripted import Move, Script, ScriptedStrategy

SINGLEY = "Singley 2005 (003), chapter 4"


def require_black_white(strategy: ScriptedStrategy, game: Game, whites: bool) -> None:
    """Singley's methods play codes with repeated colours, and some read the white pegs."""
    if not game.repeats:
        raise BadArgument(f"{strategy.name} tests stones against a background of one colour, so it needs "
                          f"repeated colours; {game} has none")
    if whites and not game.with_white:
        raise BadArgument(f"{strategy.name} counts colours from the white pegs, and {game} answers blacks only")


class Greedy1(ScriptedStrategy):
    """Greedy 1 (003, 4.1, Fig. 4-1): stone by stone, colours 1, 2, ... until the bulls change."""

    name = "greedy1"
    summary = ("Singley's Greedy 1: each stone rotates through the colours until a bull appears; the thesis's "
               "steps may repeat a guess")
    source = SINGLEY

    def start(self, game: Game, rng=None) -> None:
        require_black_white(self, game, whites=False)
        super().start(game, rng)

    def script(self, game: Game) -> Script:
        n, m = game.pegs, game.colours
        code = [0] * n  # untested stones hold colour 1
        for i in range(n):
            code[i] = 0
            base = (yield Move(tuple(code))).black  # colour 1 is tested too, even when that repeats a guess
            found = 0
            for colour in range(1, m):
                code[i] = colour
                bulls = (yield Move(tuple(code))).black
                if bulls != base:  # a new bull: this colour; a lost bull: colour 1 was right
                    found = colour if bulls > base else 0
                    break
            code[i] = found


class Greedy2(ScriptedStrategy):
    """Greedy 2 (003, 4.1): Greedy 1 without the tests it can deduce.

    The first guess (all colour 1) gives the number of 1s; a stone is settled by a new bull
    (that colour), a lost bull (colour 1) or, after colours 2..m-1, by elimination (colour m).
    The game stops as soon as the code is determined; its deduced last guess is marked certain.
    """

    name = "greedy2"
    summary = "Singley's Greedy 2: Greedy 1 skipping colour 1 and the last colour, which it deduces"
    source = SINGLEY

    def start(self, game: Game, rng=None) -> None:
        require_black_white(self, game, whites=False)
        if game.colours < 3:
            raise BadArgument(f"greedy2 deduces colour 1 from a lost bull in a test of colours 2..m-1, so it needs "
                              f"at least 3 colours; {game} has {game.colours} (use greedy1)")
        super().start(game, rng)

    def script(self, game: Game) -> Script:
        n, m = game.pegs, game.colours
        known: list[int] = []
        base = (yield Move((0,) * n)).black  # bulls of the known prefix followed by 1s
        for i in range(n):
            if base == n:  # every remaining stone must be colour 1
                break
            found = m - 1  # colour m unless a test says otherwise
            for colour in range(1, m - 1):
                bulls = (yield Move(tuple(known + [colour] + [0] * (n - i - 1)))).black
                if bulls != base:
                    found = colour if bulls > base else 0
                    break
            known.append(found)
            if found != 0:
                base += 1
        yield Move(tuple(known + [0] * (n - len(known))), certain=True)


class Greedy3(ScriptedStrategy):
    """Greedy 3 (003, 4.2, Fig. 4-2): count the colours, then settle the stones left to right,
    trying the colours still unplaced in ascending order, the other stones filled with the most
    frequent of them (ties to the highest colour); the last stone is deduced, and the code is then
    known (Singley's count).

    A test of colour c at stone i is a hit when it scores one bull more than the prefix and the
    filler stones can. The filler is the most frequent colour other than c, so every test can hit.
    With ``lost_bull=ignore`` (the thesis's worst case, m + n(n+1)/2 - 2) each present colour is
    tried until the hit; ``lost_bull=use`` also reads a bull lost from the filler (the stone is the
    filler colour) and never tests the filler, which saves about 1.5 guesses.
    """

    name = "greedy3"
    summary = ("Singley's Greedy 3: count the colours, then try only those present, stone by stone; the "
               "thesis's steps may repeat a guess")
    source = SINGLEY
    params = (
        Param("lost_bull", "ignore", "ignore: try each present colour until a hit (the thesis); use: a lost bull "
              "means the stone has the filler colour, which is never tested", ("ignore", "use")),
    )

    def start(self, game: Game, rng=None) -> None:
        require_black_white(self, game, whites=True)
        super().start(game, rng)

    def script(self, game: Game) -> Script:
        n, m = game.pegs, game.colours
        use_lost = self.values["lost_bull"] == "use"
        left = yield from count_colours(game)
        known: list[int] = []
        for i in range(n - 1):
            main = _most_frequent(left, exclude=-1)
            found = main
            for colour in (c for c in range(m) if left[c] and not (use_lost and c == main)):
                filler = main if colour != main else _most_frequent(left, exclude=colour)
                bulls = (yield Move(tuple(known + [colour] + [filler] * (n - i - 1)))).black
                expected = i + (left[filler] if filler != colour else 0)  # bulls if the stone is neither
                if bulls > expected:
                    found = colour
                    break
                if use_lost and bulls < expected:
                    break  # a bull lost from the filler: the stone is the filler colour
            known.append(found)
            left[found] -= 1
        last = next(c for c in range(m) if left[c])
        yield Move(tuple(known + [last]), certain=True)


def _most_frequent(counts: list[int], exclude: int) -> int:
    """The most frequent colour other than ``exclude`` (ties to the highest); ``exclude`` if none."""
    best = max((c for c in range(len(counts)) if counts[c] and c != exclude), key=lambda c: (counts[c], c),
               default=exclude)
    return best


def count_colours(game: Game) -> Generator[Move, Feedback, list[int]]:
    """Singley's preprocessing (003, 4.2): learn how many stones of each colour the secret has.

    The test for colour c fills the stones not yet accounted for with c and keeps the colours
    already found, in descending order on the right ("2221" instead of "2222"), so a test can
    win. Colour m is never tested: its count is what is left. The tests go on once all stones
    are accounted for (the same code, the colours found, each time): so counted, Greedy 1
    reproduces the thesis's table exactly. Returns the counts (a ``yield from`` of this script).
    """
    n, m = game.pegs, game.colours
    counts = [0] * m
    found: list[int] = []  # colours found so far, descending
    for colour in range(m - 1):
        k = len(found)
        answer = yield Move(tuple([colour] * (n - k) + found))
        counts[colour] = answer.black + answer.white - k
        if not 0 <= counts[colour] <= n - k:
            raise InconsistentFeedback(f"the answer {answer} to {game.format(game.index_of([colour] * (n - k) + found))}"
                                       f" cannot be: {k} of its stones hold colours already counted")
        found = sorted(found + [colour] * counts[colour], reverse=True)
    counts[m - 1] = n - len(found)
    return counts
