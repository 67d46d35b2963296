"""Singley's local and tabu searches (003, sections 4.3 and 4.4): rearrange the known colours.

Both count the colours first, so every later guess is an arrangement of the secret's colour
multiset. The tabu search swaps random pairs of stones, with recently swapped pairs tabu, until
the arrangement fits every answer, and plays only such consistent codes.

>>> import numpy as np
>>> from mmlab.game import Game
>>> from mmlab.experiments import play_game
>>> game = Game.parse_size("4x6")
>>> record = play_game(game, TabuSearch(), game.parse("3632"), np.random.default_rng(1))
>>> record.won, all(record.guesses[-1] != g for g in record.guesses[:-1])
(True, True)
"""

from __future__ import annotations

import numpy as np

from mmlab.errors import BadArgument, InconsistentFeedback, UnknownStrategy, shown, shown_number, whole_number
from mmlab.game import Game
from mmlab.strategies.base import Param
from mmlab.strategies.greedy import SINGLEY, count_colours, require_black_white
from mmlab.strategies.local_search_kernels import count_arrangements, tabu_walk
from mmlab.strategies.scripted import Move, Script, ScriptedStrategy

#: Swaps the tabu walk may try for one guess before it plays the arrangement the exact search found.
MAX_STEPS = 200_000


class LocalSearch(ScriptedStrategy):
    """Local search by 2-swaps (003, 4.3, Fig. 4-3): count the colours, play them sorted, then try
    each pair of stones once, in order, keeping a swap when it scores more (2 points a black, 1 a
    white: with the colours right, more blacks); pairs of one colour are never swapped."""

    name = "local-search"
    summary = ("Singley's local search: count the colours, then keep the 2-swaps that score more; the "
               "thesis's steps may repeat a guess")
    source = SINGLEY

    def start(self, game: Game, rng=None) -> None:
        require_black_white(self, game, whites=True)
        super().start(game, rng)

    def script(self, game: Game) -> Script:
        n = game.pegs
        counts = yield from count_colours(game)
        code = [c for c in range(game.colours - 1, -1, -1) for _ in range(counts[c])]  # the initial solution
        answer = yield Move(tuple(code))
        value = 2 * answer.black + answer.white
        for i in range(n - 1):
            for j in range(i + 1, n):
                if code[i] == code[j]:
                    continue
                code[i], code[j] = code[j], code[i]
                answer = yield Move(tuple(code))
                if 2 * answer.black + answer.white > value:
                    value = 2 * answer.black + answer.white
                else:
                    code[i], code[j] = code[j], code[i]


class TabuSearch(ScriptedStrategy):
    """Tabu search over arrangements of the colours (003, 4.4), playing consistent codes only.

    The colours are counted as in Singley's 2-D preprocessing (003, 5.2): the test of colour c
    keeps the colours counted so far and fills the other stones with c, arranged by the tabu walk
    until the code fits every answer. Once all colours are counted, the walk rearranges them until
    the code fits again, and that code is played.

    A walk step swaps a random pair of stones of different colours. A pair not on the tabu list
    (tenure n-2, first in first out) is always swapped and joins the list; a tabu pair only if the
    result fits every answer (the aspiration criterion: such a code beats every code played, each
    of which scored below n blacks). Before each guess of the last phase an exact search counts
    the fitting arrangements (up to two): when one is left it is played as known. A walk that
    cannot reach a fitting code (stuck, or out of ``MAX_STEPS`` swaps) plays the arrangement the
    exact search found, and ``last_fallback`` says so (``GameRecord.fallbacks``).
    """

    name = "tabu"
    summary = "Singley's tabu search: random pair swaps, tabu tenure n-2, consistent guesses only"
    source = SINGLEY
    params = (
        Param("tenure", "n-2", "pairs kept on the tabu list: a number from 0 to the code's pairs of stones, or n-2 "
              "(Singley's setting)"),
    )

    def __init__(self, **values) -> None:
        super().__init__(**values)
        text = str(self.values["tenure"]).strip()
        if text != "n-2":  # its upper bound, the pairs of stones, waits for the game
            value = whole_number(text)
            if value is None:
                raise UnknownStrategy(f"tabu: tenure={shown(text)} should be a whole number (0 to the code's pairs "
                                      "of stones) or n-2")
            if value < 0:
                raise UnknownStrategy(f"tabu: tenure={shown_number(text)} is out of range; it must be at least 0 "
                                      "(and at most the code's pairs of stones), or n-2")

    @property
    def deterministic(self) -> bool:
        return False

    def tenure(self, game: Game) -> int:
        """The tabu tenure for ``game``, checked against the number of stone pairs."""
        pairs = game.pegs * (game.pegs - 1) // 2
        text = str(self.values["tenure"]).strip()
        value = max(game.pegs - 2, 0) if text == "n-2" else None
        if value is None:
            value = whole_number(text)
            if value is None:
                raise BadArgument(f"tabu: tenure={shown(text)} should be a whole number 0..{pairs} or n-2")
        if not 0 <= value <= pairs:
            raise BadArgument(f"tabu: tenure={shown_number(text)} is out of range; a {game.pegs}-stone code has "
                              f"{pairs} pair{'s' * (pairs != 1)}, so choose 0..{pairs} or n-2")
        return value

    def start(self, game: Game, rng=None) -> None:
        require_black_white(self, game, whites=True)
        self.tenure(game)
        super().start(game, rng)

    def script(self, game: Game) -> Script:
        n, m = game.pegs, game.colours
        walk = _TabuWalk(self, n, self.tenure(game))
        counts = np.zeros(m, dtype=np.int64)
        counted = 0
        code = np.zeros(n, dtype=np.int64)  # the first test: every stone colour 1
        for colour in range(m - 1):  # colour m is never tested: its count is what is left
            if counted == n:
                break
            if walk.history:
                walk.arrange(code, counts + np.eye(1, m, colour, dtype=np.int64)[0] * (n - counted))
            answer = yield Move(tuple(int(c) for c in code))
            walk.record(code, answer.black)
            counts[colour] = answer.black + answer.white - counted
            if not 0 <= counts[colour] <= n - counted:
                raise InconsistentFeedback(f"the answer {answer} to {game.format(game.index_of(code))} cannot be: "
                                           f"{counted} of its stones hold colours already counted")
            counted += int(counts[colour])
            surplus = np.flatnonzero(code == colour)[counts[colour]:]
            code[surplus] = colour + 1  # stones not of this colour take the next one to test
        counts[m - 1] = n - counted
        while True:
            found, only = walk.count(counts)
            if found == 1:
                yield Move(tuple(int(c) for c in only), certain=True)
                return
            walk.arrange(code, counts, fallback=only)
            answer = yield Move(tuple(int(c) for c in code))
            walk.record(code, answer.black)


class _TabuWalk:
    """The tabu list, the answers seen, and the walk between guesses of one game."""

    def __init__(self, strategy: TabuSearch, pegs: int, tenure: int) -> None:
        self.strategy = strategy
        self.pegs = pegs
        self.history: list[tuple[np.ndarray, int]] = []
        self.tabu = np.zeros((tenure, 2), dtype=np.int64)
        self.tabu_state = np.zeros(2, dtype=np.int64)  # next slot, pairs held

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        digits = np.array([d for d, _ in self.history], dtype=np.int64).reshape(len(self.history), self.pegs)
        return digits, np.array([b for _, b in self.history], dtype=np.int64)

    def count(self, counts: np.ndarray) -> tuple[int, np.ndarray]:
        """How many arrangements of ``counts`` fit the answers (0, 1 or 2 for more), and the first."""
        found, first, leaves = count_arrangements(counts, *self.arrays(), 2)
        self.strategy.evaluations += int(leaves)
        if found == 0:
            raise InconsistentFeedback("no arrangement of the colours counted fits the answers: "
                                       "they cannot all be true")
        return int(found), first

    def arrange(self, code: np.ndarray, counts: np.ndarray, fallback: np.ndarray | None = None) -> None:
        """Walk ``code`` (an arrangement of ``counts``) until it fits every answer."""
        seed = int(self.strategy.rng.integers(2**63))
        reached, checks = tabu_walk(code, *self.arrays(), self.tabu, self.tabu_state, seed, MAX_STEPS)
        self.strategy.evaluations += int(checks)
        if not reached:  # the walk is stuck (e.g. every pair tabu): take an arrangement found exactly
            walked = code.copy()
            code[:] = fallback if fallback is not None else self.count(counts)[1]
            # (a walk that cannot move from a code that fits already, such as 2222 after 1111 scored 0, is no fallback)
            if not np.array_equal(code, walked):
                n = len(self.history)
                told = "the answer" if n == 1 else f"the {n} answers"
                self.strategy.last_fallback = (f"the tabu walk reached no arrangement fitting {told} (stuck, or out of "
                                               f"its {MAX_STEPS:,} swaps); played one an exact search found")

    def record(self, code: np.ndarray, blacks: int) -> None:
        self.history.append((code.copy(), blacks))
