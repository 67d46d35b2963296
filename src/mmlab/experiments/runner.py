"""Run a study: split it into chunks, play them on local processes or a Dask cluster, and write
each finished chunk to the store from this process alone. Games already stored are skipped, so
a study that was stopped (even killed) continues where it stopped.

>>> import tempfile, os
>>> from mmlab.experiments.study import Study
>>> study = Study("demo", ("3x3",), ("knuth", "random"), runs=2, seed=1)
>>> store = Store(os.path.join(tempfile.mkdtemp(), "r.duckdb"))
>>> run_study(study, store, jobs=1).played   # random twice per secret, knuth once
81
>>> run_study(study, store, jobs=1).played   # already done: nothing to play
0
"""

from __future__ import annotations

import os
import platform
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

import numpy as np

import mmlab
from mmlab.errors import BadArgument, StoreError, shown
from mmlab.experiments.chunk import Chunk, PlayedChunk, play_chunk, read_off_a_tree
from mmlab.experiments.cluster import cluster_threads, connected, on_dask
from mmlab.experiments.store import Store, as_store
from mmlab.experiments.study import Study
from mmlab.experiments.workers import (POOL_WORTH_SECONDS, PROBE_SECONDS, WorkerPool, refuse_while_a_worker_starts,
                                       single_threaded)
from mmlab.strategies import make_strategy
from mmlab.strategies.greedy_kernels import kernel_parameters
from mmlab.strategies.registry import BUILT_IN

FLUSH_SECONDS = 2.0  # write finished games at least this often, also while no chunk finishes
TICK_SECONDS = 0.5  # (how often the runner looks at the games waiting to be written, then)
FLUSH_GAMES = 16384  # ... and once this many wait: a Ctrl-C then writes a batch of a few seconds, not all of them
TREE_GAMES = 16  # compile a deterministic strategy's whole tree once its games cover 1/16 of the codes
KERNEL_CHUNK = 8192  # games a chunk of a strategy that the Singley kernels play (no tree to share)


@dataclass(frozen=True)
class Waiting:
    """What ``_execute`` yields when no chunk may finish for up to ``seconds``: none has for a while
    (the workers or the cluster play), or this process is about to play one. The games waiting
    to be written are written then if they would otherwise wait longer than ``FLUSH_SECONDS``."""

    seconds: float


@dataclass
class RunSummary:
    """What one call of ``run_study`` did."""

    study: str
    run_id: str
    played: int
    skipped: int
    written: int  # of the games played, those new to the store (another run may have stored the rest)
    seconds: float
    scheduler: str


def plan_chunks(study: Study, done: set[tuple[str, str, int, int]], run_id: str,
                chunk_games: int | None = None, workers: int = 1) -> list[Chunk]:
    """The games of ``study`` not in ``done``, as chunks of one strategy and size each.

    Chunks are small enough to spread over ``workers`` and to checkpoint often, large enough that
    a worker spends its time playing. A deterministic strategy's games are read off its decision
    tree (``chunk.read_off_a_tree``): when they cover ``1 / TREE_GAMES`` of the codes its whole tree
    is compiled, in one chunk (a chunk on each process would build the tree on each), and read in a
    moment; otherwise each chunk builds the branches its secrets reach, a chunk a worker, since the
    branches of a chunk's games share their first nodes (200 secrets of 5x8 for knuth: 4.2 s in one
    chunk, 10.6 s in chunks of 12). Singley's deterministic methods need no tree (the kernels of
    ``greedy_kernels`` play them, ``chunk.play_chunk``): chunks of at most ``KERNEL_CHUNK`` games.

    A size's slots are planned in one shuffled order (drawn from the study's seed), the same for every
    strategy: the games of a study stopped part way are a random sample of its secrets, paired across
    strategies, not its lowest codes (the easiest: sampled secrets are kept sorted). A game's result
    does not depend on the order: it draws from its own ``(seed, run, slot)``.

    >>> from mmlab.experiments.study import Study
    >>> study = Study("demo", ("4x6",), ("knuth", "random"))
    >>> [(c.strategy, len(c.games)) for c in plan_chunks(study, set(), "r1", workers=2)][:3]
    [('knuth', 1296), ('random', 81), ('random', 81)]
    """
    chunks = []
    for size in study.sizes:
        game = study.game(size)
        secrets = study.secrets.draw(game, study.seed).tolist()
        order = np.random.default_rng(study.seed).permutation(len(secrets)).tolist()
        for spec in study.strategies:
            todo = [(run, slot, secrets[slot]) for run in range(study.runs_of(spec))
                    for slot in order if (spec, size, run, slot) not in done]
            if not todo:
                continue
            planned = study.runs_of(spec) * len(secrets)
            strategy = make_strategy(spec)
            readable = read_off_a_tree(strategy, game, study.max_guesses)
            by_kernel = readable and kernel_parameters(strategy) is not None
            whole_tree = readable and not by_kernel and planned * TREE_GAMES >= game.n_codes
            if by_kernel and chunk_games is None:
                step = min(KERNEL_CHUNK, -(-len(todo) // workers))
            elif whole_tree and chunk_games is None:  # one chunk: the tree is compiled in one process, not in each
                step = len(todo)
            elif readable and chunk_games is None:  # a chunk a worker: its games' branches share their first nodes
                step = -(-len(todo) // workers)
            else:
                step = chunk_games or max(8, min(256, len(todo) // (8 * workers) or 1))
            for i in range(0, len(todo), step):
                chunks.append(Chunk(study.name, size, study.repeats, study.feedback, spec, study.seed,
                                    study.max_guesses, tuple(todo[i:i + step]), run_id, whole_tree))
    return _interleave(chunks)


def _interleave(chunks: list[Chunk]) -> list[Chunk]:
    """Round-robin over strategies and sizes, so early chunks show the whole study's pace."""
    groups: dict[tuple[str, str], list[Chunk]] = {}
    for chunk in chunks:
        groups.setdefault((chunk.size, chunk.strategy), []).append(chunk)
    lanes = list(groups.values())
    return [lane[k] for k in range(max((len(lane) for lane in lanes), default=0)) for lane in lanes if k < len(lane)]


def run_study(
    study: Study,
    store: Store | str | Path,
    jobs: int | None = None,
    scheduler: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    chunk_games: int | None = None,
) -> RunSummary:
    """Play every game of ``study`` not yet in ``store`` (a ``Store``, or the path of one) and store it.

    ``jobs`` local worker processes (default: every core when the study is long enough to pay for
    starting them, this process otherwise; 1 plays in this process), or the Dask
    cluster whose scheduler listens at ``scheduler`` (``tcp://HOST:PORT``). A strategy registered in
    this process only (``strategies.register``) plays here whatever ``jobs`` says. ``on_progress(done,
    total)`` counts the games left to play: first ``(0, total)`` once they are known, before any is played.

    >>> import tempfile, os
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "r.duckdb"))
    >>> summary = run_study(Study("demo", ("3x3",), ("knuth",)), store, jobs=1)
    >>> summary.played, summary.written, summary.scheduler
    (27, 27, 'this process')
    """
    refuse_while_a_worker_starts()  # a script without a main guard, imported by a worker: before writing anything
    if not isinstance(study, Study):
        raise BadArgument(f"run_study plays a Study (Study(...) or Study.load(PATH)), not {shown(study)}")
    if jobs is not None and jobs < 1:
        raise BadArgument(f"jobs must be at least 1, got {jobs}")
    if jobs is not None and scheduler is not None:
        raise BadArgument("give jobs or a scheduler, not both: a Dask cluster's workers are its own")
    local = sorted({make_strategy(spec).name for spec in study.strategies} - BUILT_IN)
    if local and scheduler is not None:
        raise BadArgument(f"{', '.join(local)} is registered in this process only, so a Dask cluster cannot play it; "
                          "run the study without a scheduler")
    if local:
        jobs = 1  # worker processes start afresh and would not know it
    # (an unreachable scheduler is refused here, before the store is touched)
    with connected(scheduler) if scheduler is not None else nullcontext() as client:
        return _run_study(study, as_store(store), jobs, scheduler, client, on_progress, chunk_games)


def _run_study(study: Study, store: Store, jobs: int | None, scheduler: str | None, client,
               on_progress: Callable[[int, int], None] | None, chunk_games: int | None) -> RunSummary:
    """``run_study`` once its arguments are checked, on the Dask cluster of ``client`` (connected to
    ``scheduler``) when it is not ``None``."""
    threads = cluster_threads(client) if client is not None else None  # (chunks planned for them, not this machine)
    with store.reading():  # (one connection for both)
        stored = store.fingerprint(study.name) == study.fingerprint
        done = store.done(study.name) if stored else set()
    registered = False  # by this run: withdrawn if the run fails (or is stopped) before storing any game
    run_id = uuid.uuid4().hex[:12]
    workers = jobs or threads or os.cpu_count() or 1
    planned = scheduler or (f"up to {workers} local processes" if workers > 1 else "this process")
    where: list[str] = []
    played = written = 0
    pending: list[PlayedChunk] = []
    last_flush = time.monotonic()
    failed = True

    def flush() -> None:
        nonlocal pending, last_flush, written
        if pending:
            try:
                written += store.write(run_id, _joined([p.games for p in pending]), _joined([p.moves for p in pending]))
            except StoreError:  # (refused, say for a full disk: not written again on the way out, a second error)
                pending = []
                raise
            pending = []
        last_flush = time.monotonic()

    try:
        if not stored:  # (a study played to the end is only read, so a read-only store serves it too)
            registered = store.register(study)
            done = store.done(study.name)
        chunks = plan_chunks(study, done, run_id, chunk_games, workers)  # (a Ctrl-C meanwhile leaves no empty study)
        total = sum(len(c.games) for c in chunks)
        start = time.perf_counter()
        if not chunks:
            failed = False
            return RunSummary(study.name, run_id, 0, len(done), 0, 0.0, "")
        store.start_run(run_id, study, run_metadata(planned))
        if on_progress is not None:
            on_progress(0, total)
        for chunk in _execute(chunks, workers, scheduler, client, jobs is None, where):
            if isinstance(chunk, Waiting):
                if pending and time.monotonic() - last_flush + chunk.seconds >= FLUSH_SECONDS:
                    flush()
                continue
            pending.append(chunk)
            played += len(chunk)
            if (time.monotonic() - last_flush >= FLUSH_SECONDS
                    or sum(len(p) for p in pending) >= FLUSH_GAMES):
                flush()
            if on_progress is not None:
                on_progress(played, total)
        failed = False
    finally:
        flush()  # keep every finished game, also when stopped by Ctrl-C or an error
        if failed and registered and not written:  # (stopped while planning, say): leave no empty study behind
            _withdraw(store, study.name, run_id)
    store.finish_run(run_id, scheduler or " then ".join(where))
    return RunSummary(study.name, run_id, played, len(done), written, time.perf_counter() - start, " then ".join(where))


def _withdraw(store: Store, study: str, run_id: str) -> None:
    """``store.withdraw``, at the end of a failed run: the error that stopped the run is the one to
    tell, not one of the store's here (it stays as it was, the study recorded without games)."""
    try:
        store.withdraw(study, run_id)
    except StoreError:
        pass


def _joined(parts: list[dict[str, list]]) -> dict[str, list]:
    """Columns of several chunks, one after the other."""
    return {column: list(chain.from_iterable(part[column] for part in parts)) for column in parts[0]}


def _execute(chunks: list[Chunk], workers: int, scheduler: str | None, client, adaptive: bool,
             where: list[str]) -> Iterator[PlayedChunk | Waiting]:
    """Finished chunks, in the order they finish, and ``Waiting`` between them; ``where`` gets where
    they were played: on the Dask cluster of ``client`` (at ``scheduler``) when it is not ``None``.

    ``adaptive``: play here first and start worker processes only when the rest would take longer
    than starting them (a few seconds each).
    """
    if client is not None:
        where.append(f"the Dask cluster at {scheduler}")
        for played in on_dask(chunks, client, scheduler, single_threaded, TICK_SECONDS):
            yield Waiting(TICK_SECONDS) if played is None else played
        return
    start, i = time.perf_counter(), 0
    if adaptive or workers == 1:
        pace = Pace()
        while i < len(chunks):
            if (workers > 1 and time.perf_counter() - start >= PROBE_SECONDS and pace.sure
                    and pace.rest_seconds(chunks[i:]) > POOL_WORTH_SECONDS):
                break
            if i == 0:
                where.append("this process")
            yield Waiting(pace.seconds_of(chunks[i]))  # (nothing is written while it plays)
            began = time.perf_counter()
            played = play_chunk(chunks[i])
            pace.played(chunks[i], time.perf_counter() - began)
            yield played
            i += 1
    if i == len(chunks):
        return
    workers = min(workers, len(chunks) - i)  # a process a chunk at most: more would start and wait
    where.append(f"{workers} local processes" if workers > 1 else "1 local process")
    with WorkerPool(workers) as pool:  # on Ctrl-C or a failed chunk, the chunks not stored are played next run
        # (the futures are not kept here: each holds its chunk's games until it is let go)
        for played in pool.as_completed(pool.submit_all(play_chunk, [(chunk,) for chunk in chunks[i:]]),
                                        tick=TICK_SECONDS):
            yield Waiting(TICK_SECONDS) if played is None else played


class Pace:
    """How long the chunks not played yet would take in this process, from those played here.

    The first chunk of a strategy and size carries what a process does once for it (loading the
    kernels, building a whole decision tree); the others cost their games at the rate of the chunks
    that did not start anything. So a chunk of a strategy not started yet is counted as the mean
    first chunk, and any other at that rate (at the first chunks' rate while no other was played).
    The process's very first chunk also loads what every strategy uses (numba and the engine's
    kernels): it is left out of both once another chunk is known, and until then the estimate is
    not ``sure``.

    >>> from mmlab.experiments.chunk import Chunk
    >>> def chunk(strategy, n):
    ...     return Chunk("s", "4x6", True, "black-white", strategy, 0, None, ((0, 0, 0),) * n, "r")
    >>> pace = Pace()
    >>> pace.played(chunk("knuth", 1296), 0.6)    # loads numba and the kernels, builds the whole tree
    >>> pace.sure
    False
    >>> pace.played(chunk("random", 81), 0.2)     # loads random's
    >>> pace.played(chunk("random", 81), 0.02)
    >>> pace.sure, round(pace.rest_seconds([chunk("irving", 1296), chunk("random", 81), chunk("random", 81)]), 3)
    (True, 0.24)
    """

    def __init__(self) -> None:
        self.started: set[tuple[str, str]] = set()
        self.firsts: list[tuple[float, int]] = []  # (seconds, games) of each strategy's first chunk
        self.steady_seconds = 0.0
        self.steady_games = 0
        self.lane_rates: dict[tuple[str, str], float] = {}  # seconds a game of each strategy and size's last chunk

    @property
    def sure(self) -> bool:
        """Whether the estimate rests on more than the process's first chunk."""
        return len(self.firsts) > 1 or self.steady_games > 0

    def played(self, chunk: Chunk, seconds: float) -> None:
        """Count ``chunk``, played here in ``seconds``."""
        lane = (chunk.size, chunk.strategy)
        self.lane_rates[lane] = seconds / max(len(chunk.games), 1)
        if lane in self.started:
            self.steady_seconds += seconds
            self.steady_games += len(chunk.games)
        else:
            self.started.add(lane)
            self.firsts.append((seconds, len(chunk.games)))

    def seconds_of(self, chunk: Chunk) -> float:
        """The estimated seconds ``chunk`` would take here, at the pace of the last chunk of its
        strategy and size (not the study's: a 4x6 game takes a millisecond, an 8x12 one a second);
        the first of a strategy and size as long as the first chunks so far (as ``rest_seconds``
        counts it: taken as endless, each would cost a write, 8 writes and 0.3 s more for
        ``mmlab compare 4x6``), infinite before any chunk was played."""
        rate = self.lane_rates.get((chunk.size, chunk.strategy))
        if rate is not None:
            return rate * len(chunk.games)
        firsts = self._firsts()
        return sum(s for s, _ in firsts) / len(firsts) if firsts else float("inf")

    def _firsts(self) -> list[tuple[float, int]]:
        """``(seconds, games)`` of each strategy and size's first chunk, without the process's very
        first once another is known: it also loaded numba and the kernels."""
        return self.firsts[1:] or self.firsts

    def rest_seconds(self, chunks: list[Chunk]) -> float:
        """The estimated seconds ``chunks`` would take here (infinite before any chunk was played)."""
        if not self.firsts:
            return float("inf")
        firsts = self._firsts()
        first = sum(s for s, _ in firsts) / len(firsts)
        rate = (self.steady_seconds / self.steady_games if self.steady_games
                else sum(s for s, _ in firsts) / max(sum(g for _, g in firsts), 1))
        starting: set[tuple[str, str]] = set()
        seconds = 0.0
        for chunk in chunks:
            lane = (chunk.size, chunk.strategy)
            if lane in self.started or lane in starting:
                seconds += rate * len(chunk.games)
            else:
                starting.add(lane)
                seconds += first
        return seconds


def run_metadata(scheduler: str) -> dict:
    """Who ran the study, and where: mmlab version, git revision, machine."""
    return {
        "mmlab_version": mmlab.__version__,
        "git_revision": _git_revision(),
        "machine": {"node": platform.node(), "system": platform.platform(), "python": platform.python_version(),
                    "processor": platform.processor() or platform.machine(), "cores": os.cpu_count()},
        "scheduler": scheduler,
    }


def _git_revision() -> str | None:
    """The checkout's ``git describe`` when mmlab runs from its source tree (an editable install);
    ``None`` for an installed wheel, whose folders may sit in some other repository."""
    package = Path(mmlab.__file__).resolve().parent
    root = package.parents[1]
    if package.parent.name != "src" or not (root / "pyproject.toml").is_file():
        return None
    try:
        done = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty"], capture_output=True,
                              text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None
