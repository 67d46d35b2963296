"""Evaluate a strategy over many secrets: exactly through its decision tree when it is
deterministic, by reproducible simulation when it draws at random.

>>> from mmlab.game import Game
>>> result = evaluate(Game.parse_size("4x6"), "knuth")
>>> result.total_guesses, result.max, result.exact   # Knuth 1976: 5801, worst 5
(5801, 5, True)
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import numbers
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from mmlab.errors import BadArgument, SearchFailed, ctrl_c_in_kernels
from mmlab.experiments.figures import GuessFigures
from mmlab.experiments.playout import GameRecord, moves_text, play_game
from mmlab.experiments.secret_sets import SecretSet
from mmlab.experiments.workers import POOL_WORTH_SECONDS, PROBE_SECONDS, WorkerPool, first_time
from mmlab.game import Game
from mmlab.strategies import Strategy, make_strategy
from mmlab.strategies.registry import BUILT_IN
from mmlab.trees import DecisionTree, strategy_of

if TYPE_CHECKING:
    import pandas as pd

#: Games of up to this many codes get one untimed game before an evaluation is timed (loading
#: the kernels, about 0.4 s, is most of the time of small games, and one game is cheap there).
WARM_UP_MAX_CODES = 2**16
#: Simulated games run in worker processes (``jobs``) only in games of more codes than this: in
#: smaller ones a game takes less time than starting a worker.
PARALLEL_MIN_CODES = 10_000
#: Games one evaluation of a random strategy may play (runs x secrets): its task list and results
#: stay within a few GB, and at a thousand games a second it already takes more than a day.
MAX_GAMES = 10**8
#: Games a worker plays per task.
CHUNK = 16
#: A simulated game: guesses, codes evaluated, guesses until the code was known, guesses played
#: without a consistent code, seconds.
Played = tuple[int, int, int, int, float]
PROGRESS_SECONDS = 0.25  # report progress at least this often (and every 64 games)


# (its repr is its figures: the dataclass's listed every field, arrays too, 2,700 characters for 200 games)
@dataclass(eq=False, repr=False)  # compared field by field it would compare arrays (and the seconds always differ)
class Evaluation(GuessFigures):
    """Guesses needed per game, with the figures the papers print; ``codes[i]`` is the secret of
    game ``i`` (the games run by run: ``guesses.reshape(runs, -1)`` puts one run per row, unless
    it was ``interrupted``); ``per_game`` lists them."""

    game: Game
    strategy: str
    guesses: np.ndarray
    seconds: float
    exact: bool
    evaluations: np.ndarray | None = None  # codes checked or scored per game
    runs: int = 1
    seed: int | None = None
    secrets: str = "all"
    tree: DecisionTree | None = field(default=None, repr=False)  # for a sample, the branches it reaches
    # (of Singley's methods over every secret, read off their kernels, compiled when first read)
    known: np.ndarray | None = None  # guesses until the code was known (a deduced last guess not counted)
    fallbacks: int = 0  # guesses played when a search found no consistent code (GameRecord.fallbacks)
    codes: np.ndarray | None = field(default=None, repr=False)  # the secret of each game
    game_seconds: np.ndarray | None = field(default=None, repr=False)  # each simulated game's time, on one core
    game_fallbacks: np.ndarray | None = field(default=None, repr=False)  # each simulated game's fallbacks
    planned: int | None = None  # the games it was to play, when a Ctrl-C stopped it first (EvaluationInterrupted)

    def __repr__(self) -> str:
        """The evaluation in one line, as a notebook shows it.

        >>> evaluate("4x6", "knuth")
        <Evaluation 4x6 knuth: 1296 games (all secrets, exact), total 5801, mean 4.4761, worst 5>
        >>> evaluate("3x3", "random", runs=2, seed=1)
        <Evaluation 3x3 random: 54 games (all secrets, 2 runs, seed 1), total 151, mean 2.7963 ± 0.1102, worst 4>
        """
        how = [self.secrets if self.secrets != "all" else "all secrets"]
        how += ["exact"] if self.exact else []
        how += [f"{self.runs} runs"] if self.runs != 1 else []
        how += [f"seed {self.seed}"] if self.seed is not None else []
        how += [f"stopped at {self.games} of {self.planned}"] if self.interrupted else []
        mean = f"{self.mean:.4f}" if self.exact else f"{self.mean:.4f} ± {self.stderr:.4f}"
        return (f"<Evaluation {self.game} {self.strategy}: {self.games} games ({', '.join(how)}), "
                f"total {self.total_guesses}, mean {mean}, worst {int(self.guesses.max()) if self.games else '-'}>")

    @property
    def interrupted(self) -> bool:
        """Whether a Ctrl-C stopped it after ``games`` of its ``planned`` games (the first ones, in order)."""
        return self.planned is not None

    @property
    def games(self) -> int:
        return int(self.guesses.shape[0])

    @property
    def stderr(self) -> float:
        """Standard error of the mean: 0 for an exact evaluation (every secret, one deterministic
        game each), whose mean is no estimate."""
        return 0.0 if self.exact else super().stderr

    @property
    def total_guesses(self) -> int:
        return int(self.guesses.sum())

    @property
    def seconds_per_game(self) -> float | None:
        """The mean time a simulated game took, on one core (as the large-game tables give it);
        ``None`` for games read off a decision tree."""
        return None if self.game_seconds is None else float(self.game_seconds.mean())

    @property
    def method(self) -> str:
        """How its games were had: read off the strategy's ``"decision tree"``, or ``"simulated"``
        one by one (``"numba kernels"``: Singley's methods over every secret)."""
        return "simulated" if self.tree is None else "decision tree"

    @property
    def histogram(self) -> dict[int, int]:
        values, counts = np.unique(self.guesses, return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts)}

    def to_dict(self) -> dict:
        return {
            "game": self.game.size,
            "repeats": self.game.repeats,
            "feedback": self.game.feedback,
            "strategy": self.strategy,
            "exact": self.exact,
            "method": self.method,
            "secrets": self.secrets,
            "runs": self.runs,
            "seed": self.seed,
            "games": self.games,
            "total_guesses": self.total_guesses,
            "mean": self.mean,
            "stderr": None if self.games == 1 and not self.exact else self.stderr,  # (one game: none to give)
            "max": self.max,
            "median": self.median,
            "std": self.std,
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "seconds": self.seconds,
            "seconds_per_game": self.seconds_per_game,
            "fallback_guesses": self.fallbacks,
            **self.evaluation_figures(),
            **self.known_figures(),
            **({"interrupted": True, "games_planned": self.planned} if self.interrupted else {}),
        }

    def per_game(self) -> list[dict]:
        """One row per game, in the order of ``guesses``: its ``run`` (from 0, as the games are
        seeded), ``secret`` (written out), ``guesses``, ``known`` (guesses until the code was
        known), ``evaluations`` (codes checked or scored), ``seconds`` (on one core; ``None``
        for games read off a decision tree) and ``fallbacks`` (guesses played when a search found no
        consistent code, ``GameRecord.fallbacks``). ``iter_games`` gives them one at a time,
        ``to_frame`` as a pandas frame for ``stats`` and ``plots``.

        >>> evaluate("3x3", "knuth").per_game()[1]
        {'run': 0, 'secret': '112', 'guesses': 1, 'known': 1, 'evaluations': 0, 'seconds': None, 'fallbacks': 0}
        >>> [(row["run"], row["secret"]) for row in evaluate("3x3", "random", runs=2, seed=1).per_game()[26:28]]
        [(0, '333'), (1, '111')]
        """
        return list(self.iter_games())

    def to_frame(self) -> pd.DataFrame:
        """The games as a pandas frame with the columns of the store's games table that an
        evaluation has: ``strategy`` (its spec), ``size``, ``run``, ``slot`` (the secret's place in
        the run, so that games of two evaluations over the same secrets pair up, as a study's do),
        ``secret`` (written out), ``guesses``, ``won`` (true: an evaluation plays every game to
        the win), ``known``, ``evaluations`` and ``seconds`` (NaN for games read off a decision
        tree); so ``stats.summary``, ``stats.wilcoxon`` and ``plots`` take it as they take
        ``Store.games(study)``, and ``pandas.concat`` joins evaluations. It has no ``study`` or
        ``run_id`` (it was stored by no study's run), nor ``seed``: a study's game ``(run, slot)``
        draws from ``[seed, run, slot]``, an evaluation's from ``[seed, run, secret]``.

        >>> from mmlab.experiments import stats
        >>> frame = evaluate("3x3", "knuth").to_frame()
        >>> frame.iloc[1].to_dict()
        {'strategy': 'knuth', 'size': '3x3', 'run': 0, 'slot': 1, 'secret': '112', 'guesses': 1, 'won': True, 'known': 1, 'evaluations': 0, 'seconds': nan}
        >>> stats.summary(frame)[["strategy", "games", "mean", "max"]].to_dict("records")
        [{'strategy': 'knuth', 'games': 27, 'mean': 2.740740740740741, 'max': 4}]
        """
        import pandas as pd

        n = self.games
        per_run = (self.planned or n) // self.runs
        index = np.arange(n)
        codes, where = np.unique(self.codes[:n], return_inverse=True)
        texts = np.array([self.game.format(int(code)) for code in codes], dtype=object)

        def column(values: np.ndarray | None, dtype: type) -> np.ndarray:
            return np.full(n, np.nan) if values is None else np.asarray(values, dtype=dtype)

        return pd.DataFrame({
            "strategy": self.strategy, "size": self.game.size, "run": index // per_run, "slot": index % per_run,
            "secret": texts[where.reshape(-1)], "guesses": np.asarray(self.guesses, dtype=np.int64),
            "won": np.ones(n, dtype=bool), "known": column(self.known, np.int64),
            "evaluations": column(self.evaluations, np.int64), "seconds": column(self.game_seconds, np.float64),
        }, index=pd.RangeIndex(n))

    def iter_games(self, block: int = 1 << 16) -> Iterator[dict]:
        """The rows of ``per_game``, one at a time, converted ``block`` games at a time: millions of
        games are written out without holding their rows.

        >>> e = evaluate("3x3", "random", runs=2, seed=1)
        >>> list(e.iter_games(block=5)) == e.per_game() and len(e.per_game()) == 54
        True
        """
        per_run = (self.planned or self.games) // self.runs
        names: dict[int, str] = {}
        fallbacks = np.zeros(self.games, dtype=np.int64) if self.game_fallbacks is None else self.game_fallbacks
        columns = {"guesses": self.guesses, "known": self.known, "evaluations": self.evaluations,
                   "seconds": self.game_seconds, "fallbacks": fallbacks}
        for start in range(0, self.games, block):
            stop = min(start + block, self.games)
            lists = {key: [None] * (stop - start) if values is None else values[start:stop].tolist()
                     for key, values in columns.items()}
            for offset, code in enumerate(self.codes[start:stop].tolist()):
                secret = names.get(code) or names.setdefault(code, self.game.format(code))
                yield {"run": (start + offset) // per_run, "secret": secret,
                       **{key: lists[key][offset] for key in lists}}

    def known_figures(self) -> dict:
        """Guesses until the code was known to the strategy, the count of Singley's tables (003)."""
        if self.known is None:
            return {}
        k = self.known
        return {
            "known_mean": float(k.mean()),
            "known_median": float(np.median(k)),
            "known_std": float(k.std(ddof=1)) if k.shape[0] > 1 else 0.0,
            "known_max": int(k.max()),
        }

    def evaluation_figures(self) -> dict:
        """Mean, standard deviation and maximum of the codes evaluated per game (001's metric)."""
        if self.evaluations is None:
            return {}
        e = self.evaluations
        return {
            "evaluations_mean": float(e.mean()),
            "evaluations_std": float(e.std(ddof=1)) if e.shape[0] > 1 else 0.0,
            "evaluations_max": int(e.max()),
        }


class EvaluationInterrupted(KeyboardInterrupt):
    """A Ctrl-C during the simulated games of ``evaluate``: ``evaluation`` holds the games finished
    by then (the first ``evaluation.games`` of ``planned``; ``None`` if none was), so that they are
    not lost. A ``KeyboardInterrupt``, so that whatever stops at a Ctrl-C stops at it too."""

    def __init__(self, evaluation: Evaluation | None, planned: int) -> None:
        super().__init__(f"interrupted after {0 if evaluation is None else evaluation.games} of {planned} games")
        self.evaluation, self.planned = evaluation, planned

    def __reduce__(self):  # (pickled with its own arguments, e.g. to pass it between processes)
        return (EvaluationInterrupted, (self.evaluation, self.planned))


def draw_seed() -> int:
    """A fresh seed for a run given none, small enough to print and type back.

    >>> 0 <= draw_seed() < 2**32
    True
    """
    return int(np.random.SeedSequence().entropy % 2**32)


def choose_secrets(game: Game, secrets: str | int | np.ndarray, seed: int) -> tuple[np.ndarray, str]:
    """``"all"`` codes, a sample of ``N`` distinct codes drawn with ``seed``, or the code indices given."""
    if isinstance(secrets, np.ndarray):
        return secrets, f"{secrets.shape[0]} chosen secret{'s' if secrets.shape[0] != 1 else ''}"
    if secrets == "all" or (isinstance(secrets, int) and game.enumerable and secrets >= game.n_codes):
        return SecretSet("all").draw(game, seed), "all"
    return SecretSet.parse(int(secrets)).draw(game, seed), f"sample of {int(secrets)}"


def evaluate(
    game: Game | str,
    strategy: str | Strategy | DecisionTree,
    secrets: str | int | Iterable[int | str] = "all",
    runs: int = 1,
    seed: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    jobs: int | None = 1,
) -> Evaluation:
    """Guesses needed by ``strategy`` against each chosen secret.

    Deterministic strategies on enumerable games are compiled into their decision tree once
    (``runs`` is 1; exact over all secrets; for a sample, only the tree's branches its secrets
    reach, and the sample's mean), except Singley's ``greedy1``, ``greedy2``, ``greedy3`` and
    ``local-search`` over every secret, whose games the numba kernels of ``greedy_kernels`` play
    at once, the same games as the tree's (on ``jobs`` threads; ``tree`` is compiled when read);
    others play ``runs`` games
    per secret, game ``(run, secret)`` drawing from ``numpy.random.default_rng([seed, run, secret])``,
    in ``jobs`` worker processes (``None``: one per core in games of more than ``PARALLEL_MIN_CODES``
    codes, once the games played here for ``PROBE_SECONDS`` show that the rest would take more
    than ``POOL_WORTH_SECONDS``; else one); the games, and so the figures, are the same for any
    ``jobs``. A
    ``DecisionTree`` (built, or loaded from a file) is played as its ``TreeStrategy``. ``seconds``
    is the wall time of the work, not of loading the kernels in this process: its first evaluation
    of a strategy on a game of up to ``WARM_UP_MAX_CODES`` codes plays one untimed game first (in
    larger games one game can cost more than the loading; worker processes, when ``jobs`` starts
    them, load theirs within the time).
    ``on_progress(done, total)`` reports the games done. ``game`` may be a size such as ``"4x6"``;
    ``secrets`` is ``"all"``, a number of secrets to draw, or the secrets themselves (codes). A
    Ctrl-C during simulated games stops the workers and raises ``EvaluationInterrupted``, which
    holds the games finished by then.

    >>> e = evaluate("3x3", "knuth")
    >>> e.total_guesses, round(e.mean, 3), e.exact
    (74, 2.741, True)
    >>> e = evaluate("4x6", "random", secrets=5, seed=1)
    >>> e.guesses.tolist(), round(e.mean, 2), e.exact
    ([5, 4, 6, 4, 5], 4.8, False)
    >>> evaluate("4x6", "knuth", secrets=["1122", "3632"]).guesses.tolist()
    [1, 5]
    """
    game, strategy = Game.of(game), strategy_of(strategy)
    runs = _whole(runs, "runs")
    if runs < 1:
        raise BadArgument(f"runs must be at least 1, got {runs}")
    if isinstance(secrets, numbers.Real) and not isinstance(secrets, numbers.Integral):
        raise BadArgument(f"secrets must be 'all', a whole number of secrets or some codes, got {secrets!r}")
    if not isinstance(secrets, (str, numbers.Integral)):  # the secrets themselves
        secrets = game.codes(secrets)
        if secrets.size == 0:
            raise BadArgument("secrets must not be empty: give 'all', a number of secrets or some codes")
        values, counts = np.unique(secrets, return_counts=True)
        if (counts > 1).any():
            raise BadArgument(f"secrets holds {game.format(int(values[counts > 1][0]))} more than once: each "
                              "game is seeded by its secret, so it would play the same game again; give "
                              "runs for more games a secret")
    elif secrets != "all":
        secrets = _whole(secrets, "secrets", "'all', a whole number of secrets or some codes (e.g. ['1122', '3632'])")
        if secrets < 1:
            raise BadArgument(f"secrets must be 'all', a positive number of secrets or some codes, got {secrets!r}")
    if seed is not None:
        seed = _whole(seed, "a seed", "a whole number, 0 or more")
        if seed < 0:
            raise BadArgument(f"a seed must be 0 or more, got {seed}")
    strategy.start(game)  # refuses unsuitable games before any work
    drawn = seed is None and (not strategy.deterministic or not isinstance(secrets, str))
    if drawn:
        seed = draw_seed()
    codes, description = choose_secrets(game, secrets, seed or 0)
    if drawn and strategy.deterministic and description == "all":  # (a sample of every code: the seed drew nothing)
        seed = None
    _covered(strategy, game, codes)
    by_tree = strategy.deterministic and game.enumerable
    if on_progress is not None:
        on_progress(0, codes.shape[0] * (1 if by_tree else runs))
    # Singley's methods against every secret: their kernels play the tree's games
    kernel = _singley_kernel(strategy) if by_tree and description == "all" else None
    if kernel is not None and _as_built(strategy, game):
        return _by_kernel(game, strategy, kernel, codes, seed, jobs, on_progress)
    if game.n_codes <= WARM_UP_MAX_CODES and first_time(("evaluate", strategy.spec, game)):
        # one untimed game (of a copy, whose caches stay out of the timed work) loads the kernels
        play_game(game, copy.deepcopy(strategy), int(codes[0]), np.random.default_rng(0))
    start = time.perf_counter()
    if by_tree:
        done, everyone = 0, description == "all"

        def progress(k: int) -> None:
            nonlocal done
            done += k
            if on_progress is not None:
                on_progress(done, codes.shape[0])

        # a sample of secrets explores only the branches its secrets reach
        tree = DecisionTree.build(game, strategy, on_progress=progress, secrets=None if everyone else codes)
        guesses = tree.depths()[codes]
        return Evaluation(game, strategy.spec, guesses, time.perf_counter() - start, everyone,
                          tree.evaluations()[codes], 1, seed, description, tree, tree.known_depths()[codes],
                          codes=codes)
    if runs * codes.shape[0] > MAX_GAMES:  # the games are played one by one from here
        raise BadArgument(f"{runs:,} runs over {codes.shape[0]:,} secrets are {runs * codes.shape[0]:,} games, more "
                          f"than one evaluation plays (at most {MAX_GAMES:,}); use fewer runs or a sample of secrets")
    tasks = [(run, int(secret)) for run in range(runs) for secret in codes]
    played: list[Played] = []  # (filled as the games end: what a Ctrl-C leaves)
    try:
        _simulate(game, strategy, seed, tasks, jobs, on_progress, played)
    except KeyboardInterrupt:  # (also one that landed in a numba kernel: ``_simulate`` raises it as such)
        so_far = _simulated(game, strategy.spec, seed, description, runs, tasks, played, start) if played else None
        raise EvaluationInterrupted(so_far, len(tasks)) from None
    if on_progress is not None:
        on_progress(len(tasks), len(tasks))
    return _simulated(game, strategy.spec, seed, description, runs, tasks, played, start)


class _KernelEvaluation(Evaluation):
    """An exact evaluation read off Singley's kernels (``_by_kernel``): the figures need no decision
    tree, so ``tree`` is compiled only when first read."""

    @property
    def tree(self) -> DecisionTree:
        if self._tree is None:
            self._tree = DecisionTree.build(self.game, make_strategy(self.strategy))
        return self._tree

    @tree.setter
    def tree(self, value: DecisionTree | None) -> None:
        self._tree = value

    @property
    def method(self) -> str:
        return "numba kernels"


def _singley_kernel(strategy: Strategy) -> Callable[[int, int], tuple[np.ndarray, np.ndarray]] | None:
    """The kernel of ``greedy_kernels.ALL_SECRETS`` that plays ``strategy`` against every secret at
    once, move for move as its script (``tests/experiments/test_evaluation_kernels.py`` checks it),
    with its parameters (greedy3's ``lost_bull``), or ``None`` when there is none
    (``greedy_kernels.kernel_parameters``; ``evaluate`` also asks that the strategy be as its spec
    builds it, ``_as_built``: its tree is built so)."""
    from mmlab.strategies.greedy_kernels import ALL_SECRETS, kernel_parameters

    parameters = kernel_parameters(strategy)
    return None if parameters is None else functools.partial(ALL_SECRETS[strategy.name], **parameters)


def _by_kernel(game: Game, strategy: Strategy, kernel: Callable[[int, int], tuple[np.ndarray, np.ndarray]],
               codes: np.ndarray, seed: int | None, jobs: int | None,
               on_progress: Callable[[int, int], None] | None) -> Evaluation:
    """The exact evaluation of one of Singley's methods over every secret (``codes``), played by its
    numba ``kernel`` on ``jobs`` threads (``None``: numba's, one per core) instead of compiling its
    decision tree: the same guesses and guesses until known per secret, and no code evaluated (the
    methods score none), in a fraction of a second where the tree takes minutes (6x9)."""
    import numba

    if jobs is not None and jobs < 1:
        raise BadArgument(f"jobs must be at least 1, got {jobs}")
    if first_time(("evaluate", "singley kernels")):
        kernel(2, 3)  # untimed: loads the kernels (numba's cache), compiling them if missing
    threads = numba.get_num_threads()
    numba.set_num_threads(threads if jobs is None else min(jobs, numba.config.NUMBA_NUM_THREADS))
    start = time.perf_counter()
    try:
        known, played = kernel(game.pegs, game.colours)
    finally:
        numba.set_num_threads(threads)
    seconds = time.perf_counter() - start
    if on_progress is not None:
        on_progress(codes.shape[0], codes.shape[0])
    return _KernelEvaluation(game, strategy.spec, played[codes], seconds, True, np.zeros(codes.shape[0], np.int64),
                             1, seed, "all", None, known[codes], codes=codes)


@ctrl_c_in_kernels
def _simulate(game: Game, strategy: Strategy, seed: int | None, tasks: list[tuple[int, int]], jobs: int | None,
              on_progress: Callable[[int, int], None] | None, played: list[Played]) -> None:
    """Play the games of ``tasks`` as ``evaluate`` says, appending each to ``played`` in their order."""
    workers = simulation_workers(game, strategy, jobs, len(tasks))
    if workers == 1:
        _play_all(game, strategy, seed, tasks, on_progress, played)
        return
    if jobs is None:
        _play_while_cheap(game, strategy, seed, tasks, on_progress, played)
    if len(played) < len(tasks):
        here = len(played)

        def progress_after(done: int, total: int) -> None:
            on_progress(here + done, len(tasks))

        _play_in_workers(game, strategy.spec, seed, tasks[here:], workers,
                         None if on_progress is None else progress_after, played)


def _simulated(game: Game, spec: str, seed: int | None, description: str, runs: int,
               tasks: list[tuple[int, int]], played: list[Played], start: float) -> Evaluation:
    """The ``Evaluation`` of the games ``played`` since ``start``: every one of ``tasks``, or (after
    a Ctrl-C) the first ones, marked as ``planned`` to be ``len(tasks)``."""
    columns = list(zip(*played, strict=True))
    guesses, evaluations, known, fallback_counts = (np.array(column, dtype=np.int64) for column in columns[:4])
    return Evaluation(game, spec, guesses, time.perf_counter() - start, False, evaluations, runs, seed, description,
                      known=known, fallbacks=int(fallback_counts.sum()),
                      codes=np.array([secret for _, secret in tasks[:len(played)]], dtype=np.int64),
                      game_seconds=np.array(columns[4], dtype=np.float64), game_fallbacks=fallback_counts,
                      planned=None if len(played) == len(tasks) else len(tasks))


def simulation_workers(game: Game, strategy: Strategy, jobs: int | None, games: int) -> int:
    """Worker processes for ``games`` simulated games: ``jobs`` (``None``: one per core in games of
    more than ``PARALLEL_MIN_CODES`` codes, else one), no more than there are tasks of ``CHUNK``
    games, and one for a strategy that its spec does not rebuild (a worker makes its own from it:
    ``_as_built``).

    >>> simulation_workers(Game.parse_size("4x6"), make_strategy("random"), None, 1296)
    1
    >>> simulation_workers(Game.parse_size("8x12"), make_strategy("tabu"), 2, 100)
    2
    """
    if jobs is None:
        jobs = (os.cpu_count() or 1) if not game.enumerable or game.n_codes > PARALLEL_MIN_CODES else 1
    if jobs < 1:
        raise BadArgument(f"jobs must be at least 1, got {jobs}")
    workers = min(jobs, -(-games // CHUNK))
    if workers > 1 and not _as_built(strategy, game):
        return 1
    return max(workers, 1)


#: What every strategy keeps while it plays (set by ``Strategy.__init__``, ``start`` or ``guess``):
#: never a setting, so ``_as_built`` does not compare it.
PLAY_STATE = frozenset({"game", "rng", "evaluations", "last_choice", "last_fallback"})


def _as_built(strategy: Strategy, game: Game) -> bool:
    """Whether ``make_strategy(strategy.spec)`` makes the same strategy, as a worker process does
    (true of a strategy mmlab defines, as built; not of one registered in this process only, nor
    of one whose settings were changed in Python after it was built, e.g. ``s.fps_per_peg = True``,
    which its spec does not name).

    A copy of ``strategy`` and a fresh build, each started on ``game`` with the same random
    generator, must be of one type and hold the same attributes, but for what it keeps while it
    plays: ``PLAY_STATE``, what ``start`` sets (equal in both once started alike), and what its
    guesses set that a fresh build does not hold yet, or holds empty (a cache such as the exhaustive
    strategies' ``_first_cache``). An attribute set on the object that shadows one of its class (a
    class-level default or a method) is a setting, compared with the class's.

    >>> s = make_strategy("shc")
    >>> _as_built(s, Game.parse_size("6x8")), play_game("6x8", s, 5).won, _as_built(s, Game.parse_size("6x8"))
    (True, True, True)
    >>> s.fps_per_peg = True
    >>> _as_built(s, Game.parse_size("6x8"))
    False
    """
    if strategy.name not in BUILT_IN:
        return False
    try:
        fresh = make_strategy(strategy.spec)
        if type(fresh) is not type(strategy):
            return False
        ours = copy.deepcopy(strategy)
        for built in (ours, fresh):
            built.start(game, np.random.default_rng(0))
    except Exception:  # a strategy made in Python, outside the registry, or one its spec cannot rebuild
        return False
    mine, theirs = vars(ours), vars(fresh)
    for key in (mine.keys() | theirs.keys()) - PLAY_STATE:
        if key in theirs:
            cache = isinstance(theirs[key], (dict, list, set)) and not theirs[key]  # filled while playing
            if key not in mine or not (cache or _same(mine[key], theirs[key])):
                return False
        elif hasattr(type(strategy), key) and not _same(mine[key], getattr(type(strategy), key)):
            return False
    return True


def _same(a: object, b: object, seen: set[tuple[int, int]] | None = None) -> bool:
    """Whether ``a`` and ``b`` hold the same values: arrays element by element, containers item by
    item, objects of classes that do not define equality (or dataclasses) attribute by attribute,
    random generators by state, functions by identity."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    seen = set() if seen is None else seen
    if (id(a), id(b)) in seen:  # (an object that refers back to its owner)
        return True
    seen.add((id(a), id(b)))
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a, b))
    if isinstance(a, np.random.Generator):
        return a.bit_generator.state == b.bit_generator.state
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k], seen) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y, seen) for x, y in zip(a, b))
    plain = type(a).__eq__ is object.__eq__ or dataclasses.is_dataclass(a)  # (whose == would compare arrays)
    if plain and hasattr(a, "__dict__") and type(a).__module__ != "builtins":
        return _same(vars(a), vars(b), seen)  # (an object of a class, not a function, compared as itself)
    try:
        return bool(a == b)
    except Exception:  # (an equality that gives no single truth value)
        return False


def _whole(value: object, what: str, expected: str = "a whole number") -> int:
    """``value`` as a Python int (numpy integers too), refusing booleans, floats and texts."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise BadArgument(f"{what} must be {expected}, got {value!r}")


def _covered(strategy: Strategy, game: Game, codes: np.ndarray) -> None:
    """Refuse secrets a tree built over some secrets does not cover (it has no move for their
    answers), saying which it covers: a game of such a secret ended in 'the tree has no move'."""
    tree = getattr(strategy, "tree", None)
    if not isinstance(tree, DecisionTree) or not tree.over_some_secrets:
        return
    missed = codes[tree.depths()[codes] == 0]
    if missed.size:
        raise BadArgument(f"the tree covers only the {tree.n_secrets:,} secrets it was built over "
                          f"(DecisionTree.build(..., secrets=...)), and {missed.size:,} of the secrets asked are "
                          f"others (e.g. {game.format(int(missed[0]))}): evaluate it over its own, "
                          "secrets=np.flatnonzero(tree.depths())")


def play_seeded(game: Game, strategy: Strategy, seed: int | None, run: int, secret: int) -> GameRecord:
    """Game ``(run, secret)`` of an evaluation with ``seed``: the strategy draws from
    ``numpy.random.default_rng([seed, run, secret])``. Raises if the strategy gives up."""
    record = play_game(game, strategy, secret, np.random.default_rng([seed, run, secret]))
    if not record.won:  # (play_game stops after as many guesses as codes)
        shown_moves = moves_text(game, record.guesses[:5], record.feedbacks[:5])
        raise SearchFailed(f"{strategy.spec} did not find the secret {game.format(secret)} (run {run}) in "
                           f"{record.n_guesses:,} guesses, as many as {game} has codes: it makes no progress. Its "
                           f"first moves: {shown_moves}{', ...' if record.n_guesses > 5 else ''}")
    return record


def _play_one(game: Game, strategy: Strategy, seed: int | None, run: int, secret: int) -> Played:
    """(guesses, evaluations, guesses until known, fallbacks, seconds) of game ``(run, secret)``."""
    began = time.perf_counter()
    record = play_seeded(game, strategy, seed, run, secret)
    return (record.n_guesses, record.total_evaluations, record.known_after, len(record.fallbacks),
            time.perf_counter() - began)


def _play_all(game: Game, strategy: Strategy, seed: int | None, tasks: list[tuple[int, int]],
              on_progress: Callable[[int, int], None] | None = None, out: list[Played] | None = None
              ) -> list[Played]:
    """``_play_one`` of each task, appended to ``out`` (by default a new list), which it returns."""
    out = [] if out is None else out
    first, reported = len(out), time.perf_counter()
    for run, secret in tasks:
        out.append(_play_one(game, strategy, seed, run, secret))
        done = len(out) - first
        if on_progress is not None and (done % 64 == 0 or time.perf_counter() - reported > PROGRESS_SECONDS):
            on_progress(done, len(tasks))
            reported = time.perf_counter()
    return out


def _play_while_cheap(game: Game, strategy: Strategy, seed: int | None, tasks: list[tuple[int, int]],
                      on_progress: Callable[[int, int], None] | None, out: list[Played]) -> None:
    """``_play_all`` of the first tasks into the empty ``out``, stopping once the games after the
    first (which may load the kernels) have run ``PROBE_SECONDS`` and show that the rest would take
    more than ``POOL_WORTH_SECONDS`` here. Its first game also compiles any kernel missing from
    numba's cache, once, before the workers would each compile it."""
    since = reported = 0.0  # when the first game ended; when progress was last reported
    for run, secret in tasks:
        now = time.perf_counter()
        if len(out) > 1:
            elapsed = now - since
            if elapsed >= PROBE_SECONDS and elapsed / (len(out) - 1) * (len(tasks) - len(out)) > POOL_WORTH_SECONDS:
                break
        if on_progress is not None and out and (len(out) % 64 == 0 or now - reported > PROGRESS_SECONDS):
            on_progress(len(out), len(tasks))
            reported = now
        out.append(_play_one(game, strategy, seed, run, secret))
        if len(out) == 1:
            since = time.perf_counter()


def _play_chunk(game: Game, spec: str, seed: int | None,
                tasks: list[tuple[int, int]]) -> list[Played]:
    return _play_all(game, make_strategy(spec), seed, tasks)


def _play_in_workers(game: Game, spec: str, seed: int | None, tasks: list[tuple[int, int]], workers: int,
                     on_progress: Callable[[int, int], None] | None, out: list[Played]) -> None:
    """``_play_all`` over ``workers`` processes (each on one core), appended to ``out`` in the order
    of ``tasks``; leaving by an exception (a Ctrl-C) stops the workers."""
    chunks = [tasks[i:i + CHUNK] for i in range(0, len(tasks), CHUNK)]
    first = len(out)
    with WorkerPool(workers) as pool:
        for played in pool.map(_play_chunk, *zip(*[(game, spec, seed, chunk) for chunk in chunks])):
            out.extend(played)
            if on_progress is not None:
                on_progress(len(out) - first, len(tasks))
