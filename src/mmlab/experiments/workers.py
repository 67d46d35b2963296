"""Worker processes for long runs. Each worker starts ignoring Ctrl-C, SIGTERM and SIGHUP: a
terminal sends Ctrl-C to every process of the job (and SIGHUP when it closes), a batch system its
SIGTERM to every process of the job step, and a worker interrupted while it imports prints a
traceback (or, ended by SIGTERM, leaves its pool broken). The parent answers for them: when a run
is interrupted or fails, the work not started is cancelled and the workers are stopped at once
(killed), so Ctrl-C ends a run in a moment with one line. A parent ended without that chance
(SIGKILL) takes its workers with it: each ends itself when it sees its end.

>>> with WorkerPool(2) as pool:
...     list(pool.map(pow, [2, 3, 4], [5, 2, 0]))
[32, 9, 1]
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from mmlab.errors import STOP_SIGNALS, MastermindError

#: What to do when worker processes run the script that starts them again.
MAIN_GUARD = ('put the script\'s code that runs mmlab under `if __name__ == "__main__":` (each worker process '
              "imports the main script again), or pass jobs=1")


#: Play this long here (``evaluate``, ``run_study``) before deciding whether worker processes pay
#: off...
PROBE_SECONDS = 1.0
#: ... which they do when the rest would take longer than this here (each costs about a second to
#: start: importing mmlab and loading the kernels).
POOL_WORTH_SECONDS = 5.0

_MET: set[Hashable] = set()


def first_time(key: Hashable) -> bool:
    """Whether this process meets ``key`` for the first time (then it is remembered): a worker
    plays one untimed game of each strategy first, so its start-up is charged to none of them.

    >>> first_time(("doctest", 1)), first_time(("doctest", 1))
    (True, False)
    """
    if key in _MET:
        return False
    _MET.add(key)
    return True


def refuse_while_a_worker_starts() -> None:
    """Refuse to start work in a worker process that is still importing the main script: the script
    runs mmlab at its top level, so every worker would start the study (and workers) again."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise MastermindError(f"a worker process that mmlab started ran the main script, which starts mmlab's "
                              f"work again: {MAIN_GUARD}")


def _result(future: Future) -> Any:
    """``future.result()``; a worker that died (a script without a main guard, the system stopping
    it) is told in one message saying what to do."""
    try:
        return future.result()
    except BrokenProcessPool:
        raise MastermindError(f"a worker process ended before its work was done. If a script started it, "
                              f"{MAIN_GUARD}; otherwise the system may have stopped it (out of memory?): try "
                              "fewer jobs") from None


def single_threaded() -> None:
    """Each worker process plays on one core: the processes share the machine."""
    import numba

    numba.set_num_threads(1)


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C (SIGINT) in this process for the block, so that the processes it starts
    inherit the ignoring; outside the main thread, do nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def stop_signals_held() -> Iterator[None]:
    """Block SIGTERM and SIGHUP in this thread for the block, so that the processes it starts
    inherit the blocking until they ignore it (``_start_worker``): a signal arriving meanwhile
    waits, and is not lost to this process, as an ignored one would be. (The multiprocessing
    resource tracker is started so too.) Where threads cannot block signals (Windows), do nothing."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


@contextlib.contextmanager
def main_file_unless_on_disk() -> Iterator[None]:
    """Hide the main script's ``__file__`` for the block when it names no file, as for a script read
    from standard input (``python - < script.py``: ``'<stdin>'``): a spawned worker runs the main
    script again from that path, and failed there before any work ('No such file or directory:
    <stdin>'). Without it, a worker runs nothing of the main script, as under ``python -c``."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if path is None or os.path.isfile(os.path.join(multiprocessing.process.ORIGINAL_DIR or "", path)):
        yield  # (the path a worker runs: relative to where this process started, as spawn has it)
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = path


@contextlib.contextmanager
def starting_workers() -> Iterator[None]:
    """The block starts worker processes: Ctrl-C ignored and SIGTERM and SIGHUP held, so that they
    start without them, and the main script's path hidden when it names no file."""
    with sigint_ignored(), stop_signals_held(), main_file_unless_on_disk():
        yield


def _start_worker(initializer: Callable[[], None]) -> None:
    """A worker's first step: ignore Ctrl-C, SIGTERM and SIGHUP (also when the pool was started
    outside the main thread, where the parent cannot ignore Ctrl-C for its children; a SIGTERM held since the
    worker started is dropped), watch for the end of the process that started it, then
    ``initializer``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()
    initializer()


def _end_with(parent_sentinel: int) -> None:
    """End this process once the process that started it has gone (its sentinel is ready): a
    parent killed outright cannot stop its workers, which would finish their task and then wait
    for work for ever."""
    multiprocessing.connection.wait([parent_sentinel])
    os._exit(1)


def _ticking(futures: list[Future], tick: float) -> Iterator[Any]:
    """``WorkerPool.as_completed`` with a ``tick``. It keeps no future it has yielded the result
    of, as ``concurrent.futures.as_completed`` does not: a study's results would stay in memory
    until its last chunk (``mmlab compare 6x9 --strategies greedy3`` peaked at 2.1 GB, not 1.5)."""
    finished: queue.SimpleQueue[Future] = queue.SimpleQueue()
    left = len(futures)
    for future in futures:
        future.add_done_callback(finished.put)  # (called at once for a future done already)
    futures = future = None  # (nor the last one)
    for _ in range(left):
        while True:
            try:
                future = finished.get(timeout=tick)
                break
            except queue.Empty:
                yield None
        yield _result(future)


class WorkerPool:
    """``workers`` spawned processes, used as a context manager: leaving the block normally waits
    for the work submitted, leaving it by an exception (Ctrl-C, a failed task) stops the workers at
    once. ``initializer`` runs in each worker first (default: numba on one thread).

    Spawned, not forked: numba's thread pools, and the threads of a progress bar, do not survive a
    fork. Submit every task through the pool's own ``submit``, ``map`` or ``submit_all``, which
    start new workers ignoring Ctrl-C, SIGTERM and SIGHUP.
    """

    def __init__(self, workers: int, initializer: Callable[[], None] = single_threaded) -> None:
        refuse_while_a_worker_starts()
        # (The pool's queues start multiprocessing's resource tracker, a process that ignores Ctrl-C
        # and SIGTERM but not SIGHUP: started with it held, it keeps it held, and outlives a hang-up.)
        with stop_signals_held():
            self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker, initargs=(initializer,))

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future:
        """Run ``fn(*args)`` on a worker."""
        with starting_workers():
            return self._pool.submit(fn, *args)

    def submit_all(self, fn: Callable[..., Any], calls: Iterable[tuple]) -> list[Future]:
        """Run ``fn(*args)`` on the workers for every ``args`` of ``calls``; their futures, in order.
        Ctrl-C is ignored (and SIGTERM held) only while a submit may start a worker: submitting
        thousands of tasks takes seconds, and a Ctrl-C then was lost."""
        return [self.submit(fn, *args) if self._may_start_worker else self._pool.submit(fn, *args)
                for args in calls]

    @property
    def _may_start_worker(self) -> bool:
        """Whether the pool still has workers to start (it starts them as work is submitted)."""
        return len(self._pool._processes or {}) < self._pool._max_workers

    def map(self, fn: Callable[..., Any], *iterables: Iterable[Any]) -> Iterator[Any]:
        """``fn`` over the arguments, as the built-in ``map``, every call submitted at once; the
        results in the order of the arguments."""
        futures = self.submit_all(fn, zip(*iterables))
        return (_result(future) for future in futures)

    @staticmethod
    def as_completed(futures: Iterable[Future], tick: float | None = None) -> Iterator[Any]:
        """The results of ``futures`` in the order they finish; with ``tick``, also ``None`` each
        time none has finished for ``tick`` seconds, so that the caller does its own work while it
        waits (``run_study`` writes the games finished).

        >>> with WorkerPool(1) as pool:
        ...     [r for r in pool.as_completed([pool.submit(pow, 2, 5)], tick=0.1) if r is not None]
        [32]
        """
        if tick is None:
            return (_result(future) for future in as_completed(futures))
        return _ticking(list(futures), tick)

    def stop(self) -> None:
        """Cancel the work not started and end this pool's workers now (killed: they ignore SIGTERM);
        the work they were doing is lost.

        A worker ended while it sends a result leaves the pool's reading thread waiting for the rest
        of it, and the interpreter waits for that thread at exit: so once the workers are ended, this
        process closes its own end of their result pipe, and the thread reads the end of it instead.
        That thread then closes the pool's pipes, and this waits for it: at exit the interpreter
        writes to one of them, and in Python 3.11 it does not check that the pipe is being closed
        at that moment ("OSError: [Errno 9] Bad file descriptor" after "interrupted")."""
        workers = list((self._pool._processes or {}).values())  # (shutdown forgets them and the thread)
        thread = getattr(self._pool, "_executor_manager_thread", None)
        writer = getattr(getattr(self._pool, "_result_queue", None), "_writer", None)
        self._pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.kill()
        for worker in workers:
            worker.join(timeout=5)
        if writer is not None:  # (not on is_alive: the pool's own thread may be reaping a worker, and then it reads True)
            writer.close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self._pool.shutdown()
        else:
            self.stop()
