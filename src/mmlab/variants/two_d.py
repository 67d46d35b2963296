"""Two-dimensional Mastermind MM2(n, m) (Singley 2005, 003 chapter 5): the game, what a codebreaker knows, the play loop.

The secret is an n x n matrix of m colours; every guess is such a matrix, and the answer is a
(black, white) pair for each row and each column, as if each line were a 1-D game of n pegs.
The game is won when every row scores n blacks. A codebreaker (``Strategy2D``) proposes
matrices from a ``Knowledge2D``: the history and, for each of the 2n lines, the set of 1-D codes
consistent with that line's own answers (Singley's memory layout, 2·n·m^n entries at most,
never the m^(n·n) matrices). ``play_2d`` runs one game and records every guess and answer.

>>> game = Game2D.parse_size("3x4")
>>> secret = game.parse("123/234/341")
>>> fb = game.score(secret, game.parse("111/222/333"))
>>> fb.rows[1], fb.columns[0], fb.won        # row 234 against 222; column 123 against 123
(Feedback(black=1, white=0), Feedback(black=3, white=0), False)
>>> game.format(secret)
'123/234/341'
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

import numpy as np

from mmlab.errors import (
    BadArgument,
    BadCode,
    BadSize,
    InconsistentFeedback,
    SpaceTooLarge,
    checked_max_guesses,
    shown,
)
from mmlab.game import ENUMERATION_LIMIT, Feedback, Game
from mmlab.game.kernels import group_by_response
from mmlab.strategies.base import Configurable, rng_of
from mmlab.variants.two_d_kernels import (
    filter_line,
    line_feedbacks,
    line_indices,
    score_2d,
)

SINGLEY_2D = "Singley 2005 (003), chapter 5"
#: Guesses after which ``play_2d`` gives a game up (the tabu search's colour counting alone takes up to
#: m - 1: 35 at 36 colours).
MAX_GUESSES = 200

_ROW_SEPARATORS = re.compile(r"\s*[/|;\n]\s*")


class Feedback2D(NamedTuple):
    """The answer to a 2-D guess: a ``Feedback`` for every row (top to bottom) and every column (left to right)."""

    rows: tuple[Feedback, ...]
    columns: tuple[Feedback, ...]

    @property
    def won(self) -> bool:
        return all(f.black == len(self.rows) for f in self.rows)

    @staticmethod
    def from_array(answers: np.ndarray) -> Feedback2D:
        """From the kernels' ``int64[2n, 2]`` (rows first, then columns)."""
        n = answers.shape[0] // 2
        fbs = tuple(Feedback(int(b), int(w)) for b, w in answers)
        return Feedback2D(fbs[:n], fbs[n:])

    def to_array(self) -> np.ndarray:
        return np.array([tuple(f) for f in self.rows + self.columns], dtype=np.int64)

    def __str__(self) -> str:
        return f"rows {' '.join(map(str, self.rows))} | columns {' '.join(map(str, self.columns))}"


@dataclass(frozen=True)
class Game2D:
    """MM2(n, m): an ``n`` x ``n`` secret of ``colours`` colours, answered line by line."""

    n: int
    colours: int

    def __post_init__(self) -> None:
        for name in ("n", "colours"):
            value = getattr(self, name)
            if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
                raise BadSize(f"MM2 needs whole numbers of rows and colours, got {self.n!r} and {self.colours!r}")
            object.__setattr__(self, name, int(value))  # (numpy's integers too: Game2D(np.int64(3), 4))
        if self.n < 2:
            raise BadSize(f"a two-dimensional game needs at least 2 rows and columns, got {self.n}")
        try:
            line = Game(self.n, self.colours)
        except BadSize as e:
            raise BadSize(f"MM2({self.n},{self.colours}): each row and column is a 1-D code, and {e}") from None
        if not line.enumerable:
            raise SpaceTooLarge(
                f"MM2({self.n},{self.colours}) is too large: its rows and columns keep their consistent 1-D codes, "
                f"and a line of {self.n} stones in {self.colours} colours has {line.n_codes:.3g} codes "
                f"(limit {ENUMERATION_LIMIT:.3g}); choose fewer rows or colours (7x8 and 6x10 fit)")

    @staticmethod
    def of(game: Game2D | str) -> Game2D:
        """``game`` itself, or the game of a size written ``"3x4"``: what every function taking a
        2-D game accepts (as ``Game.of`` for 1-D games).

        >>> Game2D.of("3x4") == Game2D(3, 4), Game2D.of(Game2D(4, 6)).size
        (True, '4x6')
        """
        if isinstance(game, Game2D):
            return game
        if isinstance(game, str):
            return Game2D.parse_size(game)
        raise BadArgument(f"expected a 2-D game, a Game2D or its size such as '4x6', got {shown(game)} "
                          f"({type(game).__name__})")

    @staticmethod
    def parse_size(text: str) -> Game2D:
        """``"4x6"``: a 4 x 4 matrix of 6 colours (MM2(4,6)); each line is a 1-D ``4x6`` code."""
        match = re.match(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$", str(text))
        if not match:
            raise BadSize(f"cannot read the size {text!r}: write NxM for an N x N secret of M colours, e.g. 4x6")
        return Game2D(int(match.group(1)), int(match.group(2)))

    @property
    def line(self) -> Game:
        """The 1-D game every row and column is a code of."""
        return Game(self.n, self.colours)

    @property
    def size(self) -> str:
        return f"{self.n}x{self.colours}"

    def __str__(self) -> str:
        return f"MM2({self.n},{self.colours})"

    # ----------------------------------------------------------------- codes
    def parse(self, text: str) -> np.ndarray:
        """The matrix written row by row: ``"123/234/341"`` (also newlines, ``;`` or ``|`` between rows,
        or rows separated by spaces when each is written without spaces)."""
        raw = str(text).strip()
        rows = [r for r in _ROW_SEPARATORS.split(raw) if r]
        if len(rows) == 1 and len(raw.split()) == self.n and all(len(t) == self.n for t in raw.split()):
            rows = raw.split()
        if len(rows) != self.n:
            raise BadCode(
                f"code {text!r} has {len(rows)} row{'s' if len(rows) != 1 else ''}, and an {self} code is "
                f"{self.n} rows of {self.n} pegs (colours 1-{self.colours}), written row by row with '/' between rows, "
                f"e.g. {self.format(self.example())}"
            )
        line = self.line
        out = np.empty((self.n, self.n), dtype=np.int64)
        for i, row in enumerate(rows):
            try:
                out[i] = line.digits(line.parse(row))
            except BadCode as e:
                raise BadCode(f"row {i + 1} of {self} code {text!r}: {e}") from None
        return out

    def check(self, code: Any) -> np.ndarray:
        """``code`` as an ``int64[n, n]`` matrix of colours 0..m-1, or written out as ``parse`` reads it
        (``"123/234/341"``); refuses anything else, saying why."""
        if isinstance(code, str):
            return self.parse(code)
        arr = np.asarray(code)
        if arr.ndim != 2 or arr.shape != (self.n, self.n):
            shape = " x ".join(map(str, arr.shape)) or f"scalar {arr.item()!r}"
            raise BadCode(f"an {self} code must be a matrix of {self.n} rows of {self.n} pegs (or written out, "
                          f"e.g. {self.format(self.example())!r}), got shape {shape}")
        if arr.dtype.kind not in "iu":
            raise BadCode(f"an {self} code holds whole-number colours 0..{self.colours - 1}, got {arr.dtype} values")
        if arr.size and (arr.min() < 0 or arr.max() >= self.colours):
            raise BadCode(f"an {self} code holds colours 0..{self.colours - 1} (written 1-{self.colours}), "
                          f"got {int(arr.min())}..{int(arr.max())}")
        return arr.astype(np.int64)

    def format(self, code: np.ndarray, separator: str = "/") -> str:
        """Rows written as 1-D codes (colours 1..m), joined by ``separator``."""
        line = self.line
        return separator.join(line.format(line.index_of(row)) for row in self.check(code))

    def example(self) -> np.ndarray:
        """A sample code: cell (i, j) holds colour (i + j) mod m."""
        i = np.arange(self.n)
        return (i[:, None] + i[None, :]) % self.colours

    def random_code(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random secret."""
        return rng.integers(self.colours, size=(self.n, self.n)).astype(np.int64)

    # ----------------------------------------------------------------- answers
    def answers(self, secret: np.ndarray, guess: np.ndarray) -> np.ndarray:
        """The kernels' form of the answer: ``int64[2n, 2]``, (black, white) of rows then columns."""
        return score_2d(self.check(secret), self.check(guess), self.colours)

    def score(self, secret: np.ndarray, guess: np.ndarray) -> Feedback2D:
        """The answer to ``guess`` when the secret is ``secret``."""
        return Feedback2D.from_array(self.answers(secret, guess))


# --------------------------------------------------------------------------------- knowledge
@lru_cache(maxsize=4)
def line_tables(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """The colours (``uint8[m^n, n]``) and colour counts (``uint8[m^n, m]``) of every 1-D code of a
    line, shared by all games of a process: the kernels read codes from them instead of dividing."""
    line = Game(n, m)
    return line.all_digits, line.all_counts


@lru_cache(maxsize=16)
def _first_split(n: int, m: int, line_code: int) -> tuple[np.ndarray, np.ndarray]:
    """Every 1-D code of ``Game(n, m)`` grouped by its answer to the code ``line_code``: the
    indices (ascending within each group) and where each answer's group starts. Shared by all
    games of a process, so the first guess of a game costs no pass over the m^n codes."""
    line = Game(n, m)
    everyone = np.arange(line.n_codes, dtype=np.int32)
    fb = line_feedbacks(np.array(line.digits(line_code), dtype=np.int64), everyone, *line_tables(n, m))
    order, sizes = group_by_response(fb, (n + 1) ** 2)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    return everyone[order], starts


class Knowledge2D:
    """The guesses and answers of one 2-D game, and each line's consistent set (computed when asked).

    A line's set holds the 1-D codes that give every guess's line the answer that line got;
    lines with the same guesses and answers share one array. ``sets()`` returns them all as one
    flat sorted-per-line ``int32`` array with offsets, the form the kernels take.

    >>> game = Game2D.parse_size("3x4")
    >>> k = Knowledge2D(game)
    >>> guess = game.parse("111/111/111")
    >>> k.record(guess, game.answers(game.parse("123/234/341"), guess))
    >>> k.sizes().tolist()   # rows and columns with one 1 among 3 stones: 3 * 3**2 codes each
    [27, 27, 27, 27, 27, 27]
    """

    def __init__(self, game: Game2D | str) -> None:
        self.game = game = Game2D.of(game)  # (a size such as "3x4" too, as play_2d takes it)
        #: (guess ``int64[n, n]``, answers ``int64[2n, 2]``) in the order played
        self.history: list[tuple[np.ndarray, np.ndarray]] = []
        self._keys: list[tuple] = [() for _ in range(2 * game.n)]
        self._sets: list[np.ndarray | None] = [None] * (2 * game.n)  # None: every code
        self._applied = [0] * (2 * game.n)
        self._flat: tuple[np.ndarray, np.ndarray] | None = None

    def record(self, guess: np.ndarray, answers: np.ndarray) -> None:
        """Add a guess and its answer (``int64[2n, 2]``, or a ``Feedback2D``)."""
        n = self.game.n
        if isinstance(answers, Feedback2D):
            answers = answers.to_array()
        answers = np.asarray(answers, dtype=np.int64)
        if answers.shape != (2 * n, 2):
            raise BadArgument(f"an answer to a {self.game} guess has {2 * n} (black, white) pairs, "
                              f"one per row and column; got shape {answers.shape}")
        line = self.game.line
        for b, w in answers:
            line.check_feedback(Feedback(int(b), int(w)))
        self.history.append((self.game.check(guess).copy(), answers.copy()))
        self._flat = None

    @property
    def n_guesses(self) -> int:
        return len(self.history)

    def _bring_up_to_date(self) -> None:
        n, m = self.game.n, self.game.colours
        shared: dict[tuple, np.ndarray] = {}
        for step, (guess, answers) in enumerate(self.history):
            codes = line_indices(guess, m)
            for k in range(2 * n):
                if self._applied[k] > step:
                    continue
                key = self._keys[k] + ((int(codes[k]), int(answers[k, 0] * (n + 1) + answers[k, 1])),)
                if key not in shared:
                    shared[key] = self._filter(self._sets[k], int(codes[k]), key[-1][1])
                self._sets[k], self._keys[k], self._applied[k] = shared[key], key, step + 1
        for k in range(2 * n):
            if self._sets[k] is not None and self._sets[k].shape[0] == 0:
                kind, i = ("row", k + 1) if k < n else ("column", k - n + 1)
                raise InconsistentFeedback(f"no code fits every answer given to {kind} {i}: "
                                           "the answers cannot all be true")

    def _filter(self, cand: np.ndarray | None, code: int, answer: int) -> np.ndarray:
        n, m = self.game.n, self.game.colours
        if cand is None:
            everyone, starts = _first_split(n, m, code)
            return everyone[starts[answer]:starts[answer + 1]]
        digits, counts = line_tables(n, m)
        return filter_line(cand, digits[code].astype(np.int64), answer, digits, counts)

    def line_set(self, k: int) -> np.ndarray:
        """Line ``k``'s consistent set (rows 0..n-1, columns n..2n-1) as sorted 1-D code indices."""
        if not self.history:
            return np.arange(self.game.line.n_codes, dtype=np.int32)
        self._bring_up_to_date()
        return self._sets[k]

    def sets(self) -> tuple[np.ndarray, np.ndarray]:
        """Every line's set, rows first, as (flat ``int32`` array, ``int64`` offsets of length 2n+1)."""
        if self._flat is None:
            parts = [self.line_set(k) for k in range(2 * self.game.n)]
            offsets = np.concatenate([[0], np.cumsum([p.shape[0] for p in parts])]).astype(np.int64)
            self._flat = (np.concatenate(parts).astype(np.int32, copy=False), offsets)
        return self._flat

    def sizes(self) -> np.ndarray:
        """``int64[2n]``: how many codes each line's set holds."""
        return np.diff(self.sets()[1])

    def memory_entries(self) -> int:
        """Entries held by the distinct line sets (Singley's bound is 2·n·m^n)."""
        self.sets()
        return sum(s.shape[0] for s in {id(s): s for s in self._sets if s is not None}.values())


# --------------------------------------------------------------------------------- codebreakers and play
class Strategy2D(Configurable):
    """A 2-D codebreaker: ``start`` a game, then ``guess`` a matrix from the knowledge gathered.

    Subclasses set ``name``, ``summary``, ``source`` and ``params`` (as 1-D strategies do) and
    count the line checks they make in ``evaluations``.
    """

    deterministic: ClassVar[bool] = False

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        self.game: Game2D | None = None
        self.rng = np.random.default_rng()
        self.evaluations = 0

    def check(self, game: Game2D) -> None:
        """Refuse settings that do not fit ``game`` (``start`` checks them too)."""

    def start(self, game: Game2D, rng: np.random.Generator | None = None) -> None:
        """Prepare for a new game of ``game``."""
        self.game = game
        self.evaluations = 0
        if rng is not None:
            self.rng = rng

    def guess(self, knowledge: Knowledge2D) -> np.ndarray:
        """The next matrix to play (``int64[n, n]``, colours 0..m-1)."""
        raise NotImplementedError


@dataclass
class GameRecord2D:
    """One 2-D game: the guesses in order and the answer each row and column gave to each."""

    game: Game2D
    strategy: str
    secret: np.ndarray
    guesses: list[np.ndarray] = field(default_factory=list)
    answers: list[np.ndarray] = field(default_factory=list)  # int64[2n, 2] per guess: rows, then columns
    won: bool = False
    seconds: float = 0.0
    evaluations: int = 0
    #: the largest number of set entries the knowledge held (Singley's bound: 2·n·m^n)
    memory_entries: int = 0

    @property
    def n_guesses(self) -> int:
        return len(self.guesses)

    def feedback(self, k: int) -> Feedback2D:
        """The answer to guess ``k`` (0-based)."""
        return Feedback2D.from_array(self.answers[k])

    def to_dict(self) -> dict:
        g = self.game
        return {
            "game": g.size, "strategy": self.strategy, "secret": g.format(self.secret), "won": self.won,
            "guesses": [{"guess": g.format(x), "rows": [list(map(int, a)) for a in fb[:g.n]],
                         "columns": [list(map(int, a)) for a in fb[g.n:]]} for x, fb in zip(self.guesses, self.answers)],
            "n_guesses": self.n_guesses, "seconds": self.seconds, "evaluations": self.evaluations,
            "memory_entries": self.memory_entries,
        }


def play_2d(game: Game2D | str, strategy: Strategy2D | str, secret: np.ndarray | str | None = None,
            rng: np.random.Generator | int | None = None, max_guesses: int = MAX_GUESSES,
            track_memory: bool = False,
            on_guess: Callable[[int, np.ndarray, np.ndarray], None] | None = None) -> GameRecord2D:
    """Play one game of ``strategy`` against ``secret`` (a matrix, or written out as ``Game2D.parse``
    reads it; drawn from ``rng`` when not given). ``rng`` is a generator or its seed, and the
    strategy draws from it too. ``on_guess(k, guess, answers)`` is called after each guess (k from
    1), so a caller can show the game as it goes. ``game`` may be a size such as ``"3x4"`` and
    ``strategy`` a spec such as ``"tabu"``, as ``play_game`` takes them in one row.

    >>> from mmlab.variants import make_strategy_2d
    >>> game = Game2D.parse_size("3x4")
    >>> record = play_2d(game, make_strategy_2d("tabu"), game.parse("123/234/341"), np.random.default_rng(1))
    >>> record.won, game.format(record.guesses[0]), record.n_guesses <= 5
    (True, '111/111/111', True)
    >>> play_2d("3x4", "tabu", "123/234/341", rng=1).n_guesses == record.n_guesses
    True
    """
    game, strategy = _game_and_strategy(game, strategy)
    max_guesses = checked_max_guesses(max_guesses) or MAX_GUESSES
    rng = rng_of(rng) or np.random.default_rng()  # (a generator is used as it is)
    secret = game.random_code(rng) if secret is None else game.check(secret)
    knowledge = Knowledge2D(game)
    strategy.start(game, rng)
    record = GameRecord2D(game, strategy.spec, secret.copy())
    start = time.perf_counter()
    for _ in range(max_guesses):
        guess = game.check(strategy.guess(knowledge))
        answers = score_2d(secret, guess, game.colours)
        knowledge.record(guess, answers)
        record.guesses.append(guess.copy())
        record.answers.append(answers)
        if on_guess is not None:
            shown = time.perf_counter()
            on_guess(len(record.guesses), guess, answers)
            start += time.perf_counter() - shown  # (the caller's time is not the game's)
        if track_memory:
            record.memory_entries = max(record.memory_entries, knowledge.memory_entries())
        if (answers[: game.n, 0] == game.n).all():
            record.won = True
            break
    record.seconds = time.perf_counter() - start
    record.evaluations = strategy.evaluations
    return record


def _game_and_strategy(game: Game2D | str, strategy: Strategy2D | str) -> tuple[Game2D, Strategy2D]:
    """``play_2d``'s game and strategy, each given as itself or as its text (size, spec)."""
    game = Game2D.of(game)
    if isinstance(strategy, str):
        # (the registry of 2-D strategies is in the package above this module)
        from mmlab.variants import make_strategy_2d

        strategy = make_strategy_2d(strategy)
    elif not isinstance(strategy, Strategy2D):
        raise BadArgument(f"expected a 2-D strategy, a Strategy2D or its spec such as 'tabu' or 'propagate', got "
                          f"{shown(strategy)} ({type(strategy).__name__})")
    return game, strategy
