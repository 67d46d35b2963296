"""Singley's 2-D table (003 appendix, "Tabu Search 2-D"; Table 6-2), and our methods played over random secrets beside it.

The thesis played 10 000 random secrets per size (1 000 at MM2(7,8)) with its 2-D tabu search,
at n = 4 with m = 6..10 and at m = 8 with n = 3..7. ``run_2d`` plays each method over N random
secrets per size, drawn from a seed; every method meets the same secrets, so the margin between
two methods is paired. Games run on worker processes (``jobs``), in chunks whose seeds do not
depend on the number of workers, so a run is reproduced from its seed alone.

>>> row = next(run_2d(["tabu"], sizes=[(3, 8)], games=20, seed=1, jobs=1))
>>> row.method, row.size, row.games, row.thesis.mean
('tabu', '3x8', 20, 7.6136)
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from mmlab.errors import BadArgument, shown
from mmlab.experiments.figures import GuessFigures
from mmlab.experiments.workers import WorkerPool
from mmlab.variants.two_d import Game2D, Strategy2D, line_tables, play_2d

SOURCE = "003 appendix, table \"Tabu Search 2-D\" (copy B lines 3271-3287); times: Table 6-2 (lines 2947-2956)"


@dataclass(frozen=True)
class ThesisFigure2D:
    """One column of the appendix's 2-D table."""

    mean: float
    median: float
    std: float
    max: int
    min: int
    ms: float  # "Time Per (ms)": Singley's run time per game
    games: int  # random secrets the thesis played (section 6.1)

    @property
    def stderr(self) -> float:
        return self.std / float(np.sqrt(self.games))


#: The sizes of the appendix, as (n, m): n = 4 with m = 6..10, then m = 8 with n = 3..7 (4x8 is printed in both halves).
SIZES_2D = ((4, 6), (4, 7), (4, 8), (4, 9), (4, 10), (3, 8), (5, 8), (6, 8), (7, 8))

_COLUMNS = ("4x6", "4x7", "4x8", "4x9", "4x10", "3x8", "4x8", "5x8", "6x8", "7x8")
_MEAN = (5.9724, 6.9261, 7.8809, 8.8322, 9.7814, 7.6136, 7.8809, 7.9912, 8.03627451, 8.095)
_MEDIAN = (6, 7, 8, 9, 10, 8, 8, 8, 8, 8)
_SD = (0.27936722, 0.3216351, 0.3783246, 0.43984373, 0.497231097,
       0.67907375, 0.3783246, 0.2431635, 0.237871332, 0.299094348)
_MAX = (7, 8, 9, 10, 11, 9, 9, 9, 9, 9)
_MIN = (4, 5, 5, 5, 6, 4, 5, 5, 7, 7)
_MS = (218.4, 300.5, 377.5, 524.9, 773.8, 9.1, 377.5, 5885.4, 43264, 395330.1)

#: 003 appendix "Tabu Search 2-D", transcribed column by column (the 4x8 column appears in both halves,
#: identical). Games: 10 000 per size and 1 000 at 7x8 (section 6.1, lines 2583-2587).
THESIS_2D: dict[str, ThesisFigure2D] = {
    size: ThesisFigure2D(mean, median, sd, mx, mn, ms, 1000 if size == "7x8" else 10_000)
    for size, mean, median, sd, mx, mn, ms in zip(_COLUMNS, _MEAN, _MEDIAN, _SD, _MAX, _MIN, _MS)
}

#: Table 6-2, run times per game in ms: the 1-D tabu search (= Table 6-1) and the 2-D one. The 2-D
#: row repeats the appendix's "Time Per (ms)" (6x8 is printed 43264.039 here, 43264 there).
TABLE_6_2: dict[str, tuple[float, float]] = {
    "4x6": (2.266, 218.4), "4x7": (4.493, 300.5), "4x8": (6.857, 377.5), "4x9": (13.778, 524.900),
    "4x10": (22.340, 773.800), "3x8": (0.892, 9.100), "5x8": (59.662, 5885.400), "6x8": (521.835, 43264.039),
    "7x8": (4382.850, 395330.100),
}


#: The only method the thesis measured in 2-D: its tabu search (rows of other methods get no thesis figure).
THESIS_METHOD = "tabu"


def thesis_games(size: str) -> int:
    """The number of random secrets the thesis played at ``size`` (10 000; 1 000 at 7x8)."""
    return THESIS_2D[size].games


@dataclass(frozen=True)
class Row2D(GuessFigures):
    """One method's games at one size, beside the thesis's column."""

    method: str
    size: str
    seed: int
    # (the arrays, one value a game, are left out of the repr: 50 games printed 2,100 characters)
    guesses: np.ndarray = field(repr=False)  # guesses per game, in the order of the secrets
    seconds: np.ndarray = field(repr=False)  # play time per game (wall clock)
    cpu_seconds: np.ndarray = field(repr=False)  # processor time per game (the worker's own, whatever else runs)
    evaluations: np.ndarray = field(repr=False)  # line checks per game
    memory_entries: np.ndarray = field(repr=False)  # largest number of set entries the knowledge held, per game
    peak_rss_mib: float  # the largest resident size of the processes that played
    thesis: ThesisFigure2D | None  # None for a method or a size the thesis did not play

    @property
    def games(self) -> int:
        return int(self.guesses.shape[0])

    @property
    def ms_per_game(self) -> float:
        """Processor time per game in ms: what one core spends on a game, unaffected by other load."""
        return 1000 * float(self.cpu_seconds.mean())

    @property
    def wall_ms_per_game(self) -> float:
        return 1000 * float(self.seconds.mean())

    def z_vs_thesis(self) -> float | None:
        """How many combined standard errors our mean lies from the thesis's; ``None`` under two
        games, whose standard error cannot be estimated, and without a thesis figure."""
        if self.games < 2 or self.thesis is None:
            return None
        return (self.mean - self.thesis.mean) / float(np.hypot(self.stderr, self.thesis.stderr))

    def to_dict(self) -> dict:
        return {
            "method": self.method, "size": self.size, "games": self.games, "seed": self.seed,
            "mean": self.mean, "stderr": self.stderr, "median": self.median, "std": self.std, "max": self.max,
            "min": self.min, "histogram": {int(k): int(v) for k, v in zip(*np.unique(self.guesses, return_counts=True))},
            "ms_per_game": self.ms_per_game, "wall_ms_per_game": self.wall_ms_per_game,
            "evaluations_mean": float(self.evaluations.mean()),
            "memory_entries_max": int(self.memory_entries.max()), "peak_rss_mib": self.peak_rss_mib,
            "thesis": None if self.thesis is None else {**vars(self.thesis), "stderr": self.thesis.stderr},
        }


def margin(ours: Row2D, other: Row2D) -> tuple[float, float]:
    """``other``'s mean minus ``ours`` on the same secrets, and the standard error of that paired difference."""
    if ours.games != other.games or ours.seed != other.seed:
        raise BadArgument("a margin needs both methods played on the same secrets (same games and seed)")
    diff = other.guesses.astype(np.float64) - ours.guesses
    se = float(diff.std(ddof=1) / np.sqrt(diff.shape[0])) if diff.shape[0] > 1 else 0.0
    return float(diff.mean()), se


# --------------------------------------------------------------------------------- playing
def secrets_for(n: int, m: int, games: int, seed: int) -> np.ndarray:
    """``int64[games, n, n]``: the random secrets of a run, the same for every method."""
    rng = np.random.default_rng([seed, n, m])
    return rng.integers(m, size=(games, n, n)).astype(np.int64)


def _play_chunk(spec: str, n: int, m: int, seed: int, first: int, secrets: np.ndarray,
                track_memory: bool) -> tuple[np.ndarray, ...]:
    """Play ``spec`` against each secret (game numbers ``first``, ``first + 1``, ...) in this process."""
    from mmlab.variants import make_strategy_2d

    game = Game2D(n, m)
    warm(spec, n, m)
    method = zlib.crc32(spec.encode())
    out = np.zeros((5, secrets.shape[0]), dtype=np.float64)
    for k, secret in enumerate(secrets):
        cpu = time.process_time()
        record = play_2d(game, make_strategy_2d(spec), secret, np.random.default_rng([seed, n, m, method, first + k]),
                         track_memory=track_memory)
        cpu = time.process_time() - cpu
        if not record.won:
            raise RuntimeError(f"{spec} gave up game {first + k} of {game} after {record.n_guesses} guesses")
        out[:, k] = (record.n_guesses, record.seconds, record.evaluations, record.memory_entries, cpu)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out, np.array([peak])


_WARMED: set[str] = set()


def warm(spec: str, n: int | None = None, m: int | None = None) -> None:
    """Load the compiled kernels of ``spec`` in this process (a few small games, not timed), and
    build the line tables of the ``n x n`` game of ``m`` colours when given, so that no game timed
    afterwards pays for either. Settings that do not fit the small game warm with the defaults."""
    from mmlab.variants import make_strategy_2d

    if n is not None and m is not None:
        line_tables(n, m)
    if spec in _WARMED:
        return
    small = Game2D(3, 4)
    strategy = make_strategy_2d(spec)
    played = spec
    try:
        strategy.check(small)
    except BadArgument:  # (e.g. tabu:tenure=20, longer than a 3x3 matrix allows: the same kernels)
        played = strategy.name
    for k in range(8):
        play_2d(small, make_strategy_2d(played), None, np.random.default_rng(k))
    _WARMED.add(spec)


def _quiet_worker() -> None:
    """Worker processes run at a lower priority, so the machine stays responsive during long runs."""
    try:
        os.nice(10)
    except OSError:
        pass


def _chunks(games: int, size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size, games)) for a in range(0, games, size)]


def run_2d(
    methods: Iterable[str],
    sizes: Iterable[Game2D | str | tuple[int, int]] = SIZES_2D,
    games: int | Callable[[str], int] = 1000,
    seed: int = 2005,
    jobs: int | None = None,
    track_memory: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
) -> Iterator[Row2D]:
    """Play each method (a 2-D strategy spec) over random secrets at each size, yielding a row per
    (size, method). ``sizes`` are 2-D games, their sizes (``"3x4"``, as ``Game2D.of`` reads them)
    or ``(n, m)`` pairs; ``games`` is a number, or a function of the size (``thesis_games`` follows
    the thesis at its sizes). ``jobs`` worker processes (default: every core; 1 plays here). Any
    size plays; rows carry the thesis's figure only for its method (the tabu search, any settings)
    at its sizes. The methods, sizes and numbers of games are checked when it is called, before
    any game is played; the rows come as they are played.

    >>> [row.size for row in run_2d(["tabu"], sizes=["3x4", (3, 5)], games=2, jobs=1)]
    ['3x4', '3x5']
    """
    from mmlab.variants import make_strategy_2d

    if isinstance(sizes, (str, Game2D)):
        raise BadArgument(f"sizes must list the sizes to play, e.g. ['3x4'] or [(3, 4)], got {shown(sizes)}")
    methods = list(methods)
    strategies = [make_strategy_2d(spec) for spec in methods]  # refuse an unknown spec before anything runs
    plan = []
    for given in sizes:
        game = Game2D(*given) if isinstance(given, (tuple, list)) and len(given) == 2 else Game2D.of(given)
        for strategy in strategies:
            strategy.check(game)  # and settings that do not fit a size
        count = games(game.size) if callable(games) else games
        if count < 1:
            raise BadArgument(f"games must be at least 1, got {count}")
        plan.append((game.n, game.colours, game.size, count))
    return _played(methods, strategies, plan, seed, jobs, track_memory, on_progress)


def _played(methods: list[str], strategies: list[Strategy2D], plan: list[tuple[int, int, str, int]], seed: int,
            jobs: int | None, track_memory: bool, on_progress: Callable[[int, int], None] | None) -> Iterator[Row2D]:
    """The rows of ``run_2d``, played size by size (``plan``: n, m, size and games of each)."""
    total = sum(count for *_, count in plan) * len(methods)
    jobs = min(jobs or os.cpu_count() or 1, max(count for *_, count in plan))  # no idle workers
    done = 0
    pool = WorkerPool(jobs, initializer=_quiet_worker) if jobs > 1 else None
    with pool if pool is not None else contextlib.nullcontext():
        for n, m, size, count in plan:
            secrets = secrets_for(n, m, count, seed)
            chunk = max(1, min(200, count // (4 * jobs) or 1))
            for spec, strategy in zip(methods, strategies):
                parts = _chunks(count, chunk)
                calls = [(spec, n, m, seed, a, secrets[a:b], track_memory) for a, b in parts]
                results = (pool.map(_play_chunk, *zip(*calls)) if pool is not None
                           else (_play_chunk(*call) for call in calls))
                tables, peaks = [], []
                for (a, b), (table, peak) in zip(parts, results):
                    tables.append(table)
                    peaks.append(float(peak[0]))
                    done += b - a
                    if on_progress:
                        on_progress(done, total)
                table = np.concatenate(tables, axis=1)
                yield Row2D(spec, size, seed, table[0].astype(np.int64), table[1], table[4],
                            table[2].astype(np.int64), table[3].astype(np.int64), max(peaks),
                            THESIS_2D.get(size) if strategy.name == THESIS_METHOD else None)
