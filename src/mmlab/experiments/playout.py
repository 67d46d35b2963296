"""One game: a strategy guesses, a secret or a codemaker answers, the knowledge narrows, until the win.

>>> from mmlab.game import Game
>>> from mmlab.strategies import make_strategy
>>> game = Game.parse_size("4x6")
>>> record = play_game(game, make_strategy("knuth"), game.parse("1234"))
>>> record.n_guesses, record.won, record.known_after
(3, True, 3)
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from mmlab.codemakers.base import Adversary, Codemaker, make_codemaker
from mmlab.errors import BadArgument, checked_max_guesses, shown
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import Strategy, rng_of
from mmlab.trees import DecisionTree, strategy_of


@dataclass(frozen=True)
class GameRecord:
    """The guesses played and the answers they got.

    >>> record = play_game(Game.parse_size("3x3"), "knuth", "321")
    >>> print(record)
    secret 321: 112 0,2, 231 1,2, 321 3,0
    >>> record.consistent, record.known_after   # codes left before each guess; 321 was deduced
    ((27, 3, 1), 2)
    """

    game: Game
    secret: int
    guesses: tuple[int, ...]
    feedbacks: tuple[Feedback, ...]
    evaluations: tuple[int, ...] = ()  # codes checked or scored before each guess
    last_certain: bool = False  # the strategy knew its winning guess was the secret
    consistent: tuple[int, ...] = ()  # codes consistent before each guess (-1: not enumerated)
    top_sizes: tuple[int, ...] = ()  # top scorers each guess was picked from (-1: not known)
    secret_in_top: tuple[bool, ...] = ()  # whether the secret was among them
    chances: tuple[float, ...] = ()  # the probability that each guess was the secret (nan: not known)
    fallbacks: tuple[tuple[int, str], ...] = ()  # (move, reason) of guesses played when no consistent code was found

    @property
    def known_after(self) -> int:
        """Guesses until the code was known to the strategy: a last guess the strategy had
        deduced is not counted (Singley's count, 003)."""
        return self.n_guesses - int(self.won and self.last_certain)

    @property
    def total_evaluations(self) -> int:
        return sum(self.evaluations)

    @property
    def n_guesses(self) -> int:
        return len(self.guesses)

    @property
    def won(self) -> bool:
        return bool(self.feedbacks) and self.feedbacks[-1] == self.game.win

    def __str__(self) -> str:
        return f"secret {self.game.format(self.secret)}: {moves_text(self.game, self.guesses, self.feedbacks)}"


def moves_text(game: Game, guesses: tuple[int, ...] | list[int], feedbacks: tuple[Feedback, ...] | list[Feedback]) -> str:
    """Guesses and their answers on one line: ``1122 1,0, 1344 0,1``; a black-only game's answers
    as black pegs alone (``1122 1 black``), and codes written with spaces (more than 9 colours) as
    ``1 2 10: 2,0; 1 3 4: 1,0``.

    >>> moves_text(Game.parse_size("3x3", feedback="black"), [0, 1], [Feedback(1, 0), Feedback(3, 0)])
    '111 1 black, 112 3 black'
    >>> moves_text(Game.parse_size("3x12"), [1, 2], [Feedback(2, 0), Feedback(3, 0)])
    '1 1 2: 2,0; 1 1 3: 3,0'
    """
    answers = [game.answer_text(f, black_word=True) for f in feedbacks]
    codes = [game.format(g) for g in guesses]
    if game.colours <= 9:
        return ", ".join(f"{c} {a}" for c, a in zip(codes, answers, strict=True))
    return "; ".join(f"{c}: {a}" for c, a in zip(codes, answers, strict=True))


def play_game(
    game: Game | str,
    strategy: Strategy | str | DecisionTree,
    secret: int | str,
    rng: np.random.Generator | int | None = None,
    max_guesses: int | None = None,
) -> GameRecord:
    """Play ``strategy`` (or a spec string, or a decision tree) against a fixed ``secret`` (an
    index, or a code written out) until it wins (or ``max_guesses`` run out). ``game`` may be a
    size such as ``"4x6"``, ``rng`` a seed.

    >>> play_game("4x6", "knuth", "3632").n_guesses
    5
    """
    game, strategy, rng = Game.of(game), strategy_of(strategy), rng_of(rng)
    secret = game.code(secret)
    strategy.start(game, rng)
    knowledge = Knowledge.initial(game, explicit=strategy.tracks_consistent_set)
    return _play(game, strategy, knowledge, lambda _, guess: game.score(secret, guess), secret, max_guesses)[0]


def play_against(game: Game | str, strategy: Strategy | str | DecisionTree, codemaker: Codemaker | str,
                 rng: np.random.Generator | int | None = None, max_guesses: int | None = None) -> GameRecord:
    """Play ``strategy`` against any ``codemaker`` (or its spec, e.g. ``"adversary:mode=worst"``)
    until it answers a win (the secret may be decided only at the end, as the adversary's is). The
    record's secret is the code found; for a lost game the codemaker's secret if it holds one, else
    the first code still consistent.

    >>> play_against("4x6", "knuth", "adversary").n_guesses
    5
    >>> play_against("4x6", "knuth", "adversary:mode=worst").n_guesses   # Knuth's worst case
    5
    """
    game, strategy, rng = Game.of(game), strategy_of(strategy), rng_of(rng)
    if isinstance(codemaker, str):
        codemaker = make_codemaker(codemaker, strategy)
    elif isinstance(codemaker, Adversary) and codemaker.strategy is None:
        codemaker = copy.copy(codemaker)  # (for this game: mode=worst answers along the strategy's tree)
        codemaker.strategy = strategy
    elif not isinstance(codemaker, Codemaker):
        raise BadArgument(f"expected a codemaker or its spec, e.g. 'random', 'fixed:3632' or 'adversary', got "
                          f"{shown(codemaker)}")
    rng = rng if rng is not None else np.random.default_rng()
    strategy.start(game, rng)
    codemaker.start(game, rng)
    held = getattr(codemaker, "secret", None)
    secret = int(held) if isinstance(held, (int, np.integer)) else None
    # as play_game keeps it, and always for a codemaker with no secret yet (the adversary answers from the
    # consistent set, and a lost game's secret is taken from it)
    explicit = strategy.tracks_consistent_set or secret is None
    record, knowledge = _play(game, strategy, Knowledge.initial(game, explicit=explicit), codemaker.answer, secret,
                              max_guesses)
    if record.won:
        return replace(record, secret=record.guesses[-1])
    return replace(record, secret=secret if secret is not None else int(knowledge.consistent[0]))


def _play(game: Game, strategy: Strategy, knowledge: Knowledge, answer: Callable[[Knowledge, int], Feedback],
          secret: int | None, max_guesses: int | None) -> tuple[GameRecord, Knowledge]:
    """The game loop of a started ``strategy``: guess, ``answer``, narrow the knowledge, until the
    win or ``max_guesses`` (default: every code); the record and the last knowledge. Whether the
    top scorers held the secret is recorded only when the ``secret`` is known from the start (else
    the record's secret is -1, for the caller to set)."""
    limit = checked_max_guesses(max_guesses) or game.n_codes
    guesses: list[int] = []
    feedbacks: list[Feedback] = []
    evaluations: list[int] = []
    consistent: list[int] = []
    tops: list[tuple[int, bool, float]] = []
    fallbacks: list[tuple[int, str]] = []
    certain = False
    while len(guesses) < limit:
        before = strategy.evaluations
        consistent.append(knowledge.n_consistent if knowledge.explicit else -1)
        strategy.last_choice = None
        strategy.last_fallback = None
        guess = strategy.guess(knowledge)
        evaluations.append(strategy.evaluations - before)
        if strategy.last_fallback is not None:
            fallbacks.append((len(guesses), strategy.last_fallback))
        choice = strategy.last_choice
        if choice is None or secret is None:
            tops.append((-1, False, float("nan")))
        else:
            tops.append((choice.size, choice.contains(secret), choice.chance(secret, guess)))
        fb = answer(knowledge, guess)
        guesses.append(guess)
        feedbacks.append(fb)
        if fb == game.win:
            certain = strategy.certain(knowledge, guess)
            break
        knowledge = knowledge.update(guess, fb)
    sizes, inside, chances = zip(*tops) if tops else ((), (), ())
    record = GameRecord(game, -1 if secret is None else secret, tuple(guesses), tuple(feedbacks), tuple(evaluations),
                        certain, tuple(consistent), sizes, inside, chances, tuple(fallbacks))
    return record, knowledge
