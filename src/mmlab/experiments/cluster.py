"""Playing a study's chunks on a Dask distributed cluster through its futures interface.

The coordinator (the process that called ``run_study``) submits the chunks and alone writes the
store; workers only play. A cluster left without workers keeps the chunks for the next worker
that joins (as Dask does): the coordinator waits for one, and says so on stderr.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mmlab.errors import BadArgument, MastermindError
from mmlab.experiments.chunk import Chunk, PlayedChunk, play_chunk

CONNECT_TIMEOUT = "10s"  # how long to try reaching the scheduler
NO_WORKERS_SECONDS = 5.0  # count the cluster's workers when no chunk has finished for this long
POLL_SECONDS = 0.1  # how often to look for finished chunks (as distributed's own as_completed does)


@contextmanager
def connected(scheduler: str) -> Iterator[Any]:
    """A ``distributed.Client`` of the scheduler at ``scheduler`` for the block, one connection for
    a whole run; one that cannot be reached is refused here, in one line (before a study touches
    the store)."""
    client = _client(scheduler)
    try:
        yield client
    finally:
        with _quiet("distributed"):  # closing a client whose scheduler is gone logs a traceback of the reconnection
            client.close()


def cluster_threads(client) -> int | None:
    """The threads of the cluster's workers now, to plan a study's chunks for (``None`` while it
    has none)."""
    with _quiet("distributed.client"):
        return client.scheduler_info(n_workers=0).get("total_threads") or None


def _client(scheduler: str):
    """A ``distributed.Client`` of ``scheduler``; one that cannot be reached is told in one line."""
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - distributed is a dependency
        raise BadArgument("running on a Dask cluster needs the 'distributed' package") from None
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        raise BadArgument(f"cannot reach a Dask scheduler at {scheduler!r}: {e}") from None


def on_dask(chunks: list[Chunk], client, scheduler: str, setup: Callable[[], None],
            tick: float | None = None) -> Iterator[PlayedChunk | None]:
    """Finished chunks in the order the cluster (``client``'s, whose scheduler is at ``scheduler``)
    finishes them; ``setup`` runs before each chunk, in the thread of the worker that plays it. With
    ``tick``, also ``None`` each time no chunk has finished for ``tick`` seconds (the caller writes
    the games finished meanwhile)."""
    with _quiet("distributed.client"):  # (its warnings, e.g. of a dead worker's games: mmlab tells what matters)
        futures = client.map(_play, chunks, setup=setup, pure=False)
        waiting = set(futures)
        try:
            for future, played in _finished(client, futures, scheduler, tick):
                if future is None:  # (a tick)
                    yield None
                    continue
                waiting.discard(future)
                future.release()  # the workers need not keep the chunk (nor play it again if one dies)
                yield played
        except BaseException as e:
            client.cancel(list(waiting))
            why = _stopped(e)
            if why is None:
                raise
            raise MastermindError(f"the Dask cluster at {scheduler!r} stopped playing the study: {why}; the "
                                  "games finished so far are stored, and the same command plays the rest") from None


def _play(chunk: Chunk, setup: Callable[[], None]) -> PlayedChunk:
    """``play_chunk`` after ``setup``, in the worker's thread that plays: numba's number of threads
    is a thread's own (``client.run`` would set it in the worker's event loop, not where chunks
    play), and a worker that joins during the run is set up as well."""
    setup()
    return play_chunk(chunk)


def _finished(client, futures: list, scheduler: str, tick: float | None = None) -> Iterator[tuple]:
    """``(future, result)`` of ``futures`` as they finish, and ``(None, None)`` each ``tick`` seconds
    without one; the error of one that failed or was cancelled. When none has finished for
    ``NO_WORKERS_SECONDS`` and the cluster has no worker, say so on stderr, and how to start one;
    and again once workers are back. (The results are fetched
    in the background: a result lost with its worker as it was fetched waits for a worker to play
    its chunk again, and ``future.result()`` would wait without a word.)"""
    from distributed import as_completed

    finished = as_completed(futures, with_results=True)  # (raises the error of a chunk that failed)
    last_look = last_yield = time.monotonic()
    told = False  # that the cluster has no workers
    while not finished.is_empty():
        if finished.has_ready():
            told = told and not _back(client, scheduler)
            future, result = next(finished)
            if isinstance(result, BaseException):  # (a cancelled chunk's: as_completed hands it over)
                raise result
            yield future, result
            last_look = last_yield = time.monotonic()
            continue
        time.sleep(POLL_SECONDS)
        if tick is not None and time.monotonic() - last_yield >= tick:
            yield None, None
            last_yield = time.monotonic()
        if time.monotonic() - last_look < NO_WORKERS_SECONDS or client.status != "running":
            continue  # (a lost scheduler cancels the futures: the loop ends on their error)
        last_look = time.monotonic()
        if told:
            told = not _back(client, scheduler)
        elif not _workers(client):
            told = True
            left = finished.count()
            _tell(f"the Dask cluster at {scheduler} has no workers to play the {left} chunk{'s' * (left != 1)} left, "
                  f"and the study waits for one: start one with 'dask worker {scheduler}', or press Ctrl-C to stop "
                  "(the games finished so far are stored, and the same command plays the rest)")


def _workers(client) -> int:
    """How many workers the cluster has now."""
    return client.scheduler_info(n_workers=0).get("n_workers", 1)


def _back(client, scheduler: str) -> bool:
    """Whether the cluster has workers again, which is then told."""
    workers = _workers(client)
    if workers:
        _tell(f"the Dask cluster at {scheduler} has {workers} worker{'s' * (workers != 1)} again; the study plays on")
    return workers > 0


def _tell(message: str) -> None:
    """Tell the user ``message`` on stderr (above the progress bar of ``mmlab run``, which captures it)."""
    print(f"mmlab: {message}", file=sys.stderr, flush=True)


@contextmanager
def _quiet(root: str) -> Iterator[None]:
    """distributed's logger ``root``, and those below it, silent for the time: mmlab says itself, in
    one line, what went wrong."""
    loggers = [logging.getLogger(root)] + [  # (the others take the level of one of these)
        logger for name, logger in list(logging.root.manager.loggerDict.items())
        if name.startswith(f"{root}.") and isinstance(logger, logging.Logger) and logger.level]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def _stopped(error: BaseException) -> str | None:
    """Why the cluster stopped playing, when ``error`` is the cluster's doing rather than the
    study's: its scheduler gone, a chunk cancelled, the workers of a chunk dead; else ``None``."""
    from concurrent.futures import CancelledError

    from distributed.scheduler import KilledWorker

    if isinstance(error, KilledWorker):
        return "the workers that played one of its chunks died (out of memory? see the workers' logs)"
    if isinstance(error, CancelledError):
        reason = getattr(error, "reason", "")
        if reason == "scheduler-connection-lost":
            return "the connection to its scheduler was lost"
        return f"a chunk was cancelled ({reason or 'by the cluster'})"
    return None
