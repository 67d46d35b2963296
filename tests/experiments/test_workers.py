"""The worker pool: results in order, and a failed task stops the other workers at once."""

import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from concurrent.futures import Future

import pytest

from mmlab.experiments.workers import WorkerPool

BUSY = 120  # seconds a busy task would keep its worker


def _square_or_fail(x: int) -> int:
    if x < 0:
        raise ValueError(f"negative: {x}")
    if x == BUSY:
        time.sleep(x)
    return x * x


def test_map_gives_the_results_in_the_order_of_the_arguments():
    with WorkerPool(2) as pool:
        assert list(pool.map(_square_or_fail, [3, 1, 2, 0])) == [9, 1, 4, 0]


class _Games:
    """A chunk's result that a test can watch (``weakref``)."""


def test_as_completed_with_a_tick_lets_go_of_each_result_once_it_is_passed_on():
    """It kept every future, so every chunk's games, until the study's last chunk: mmlab compare 6x9
    --strategies greedy3 peaked at 2.0-2.2 GB instead of 1.2-1.3 GB."""
    def started() -> tuple:
        futures = [Future() for _ in range(3)]
        for future in futures:
            future.set_result(_Games())
        return WorkerPool.as_completed(futures, tick=0.01), [weakref.ref(f.result()) for f in futures]

    results, watched = started()
    next(results), next(results)
    gc.collect()
    assert [ref() is None for ref in watched] == [True, False, False]  # (the second is still being passed on)
    assert isinstance(next(results), _Games) and next(results, "done") == "done"


def test_ctrl_c_is_ignored_only_while_workers_start():
    """Submitting thousands of tasks takes seconds; a Ctrl-C then was ignored and the run went on
    to its end. The submits that start the two workers ignore it (so that the workers inherit the
    ignoring); the later ones do not. Here the handler in force at each submit is recorded."""
    handlers = []
    with WorkerPool(2) as pool:
        submit = pool._pool.submit

        def recording(*args, **kwargs):
            handlers.append(signal.getsignal(signal.SIGINT))
            return submit(*args, **kwargs)

        pool._pool.submit = recording
        futures = pool.submit_all(_square_or_fail, [(x,) for x in range(40)])
        assert [future.result() for future in futures] == [x * x for x in range(40)]
    ignored = handlers.count(signal.SIG_IGN)  # (2, unless a worker was idle before the second had started)
    assert ignored >= 2 and set(handlers[:ignored]) == {signal.SIG_IGN}
    assert set(handlers[ignored:]) == {signal.default_int_handler} and len(handlers) - ignored > 30
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_failed_task_stops_the_workers_without_waiting_for_the_others():
    """(A plain ``with ProcessPoolExecutor`` would wait the two minutes of the busy tasks.)"""
    before = {p.pid for p in multiprocessing.active_children()}
    start = time.monotonic()
    with pytest.raises(ValueError, match="negative: -1"):
        with WorkerPool(2) as pool:
            futures = pool.submit_all(_square_or_fail, [(BUSY,), (-1,), (BUSY,)])
            workers = {p.pid for p in multiprocessing.active_children()} - before
            list(pool.as_completed(futures))
    assert time.monotonic() - start < BUSY / 2  # stopped, not left to finish
    assert workers and all(gone(pid) for pid in workers)


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended and been reaped, waiting up to 30 s."""
    for _ in range(300):
        multiprocessing.active_children()  # reaps this process's finished children
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_as_completed_gives_every_result():
    with WorkerPool(2) as pool:
        assert sorted(pool.as_completed(pool.submit_all(_square_or_fail, [(2,), (3,), (4,)]))) == [4, 9, 16]


def _sleep_then(seconds: float) -> str:
    time.sleep(seconds)
    return "done"


def test_a_failed_pool_stops_its_own_workers_only():
    """(Another pool's worker, started after this pool was made, is not this pool's to stop.)"""
    with WorkerPool(1) as other:
        pool = WorkerPool(1)
        running = other.submit(_sleep_then, 3.0)
        with pytest.raises(ValueError, match="negative"):
            with pool:
                list(pool.map(_square_or_fail, [-1]))
        assert running.result(timeout=BUSY) == "done"


def test_stop_closes_its_end_of_the_result_pipe_once_the_workers_are_gone():
    """A worker ended while it sent a large result (a Ctrl-C during 'mmlab compare 5x8 --jobs 2')
    left the pool's reading thread waiting for the rest of it for ever, the pipe's other end held
    open by this process, and the interpreter waited for that thread at exit: 'interrupted', then
    a hang. With this end closed the thread reads the end of the pipe."""
    pool = WorkerPool(1)
    busy = pool.submit(_square_or_fail, BUSY)
    while not busy.running():
        time.sleep(0.01)
    writer = pool._pool._result_queue._writer
    pool.stop()
    assert writer.closed


def test_stop_returns_once_the_pools_thread_has_closed_its_pipes():
    """At exit the interpreter wakes that thread through one of its pipes, without checking that
    the thread is closing it at that moment (Python 3.11): a Ctrl-C ended in 'interrupted' and
    then "OSError: [Errno 9] Bad file descriptor" (once in CI, 'reproduce large'). Stop waits for
    the thread; before, it had not ended in about half the stops, so here are five."""
    for _ in range(5):
        pool = WorkerPool(2)
        busy = [pool.submit(_square_or_fail, BUSY) for _ in range(2)]
        while not all(future.running() for future in busy):
            time.sleep(0.01)
        thread = pool._pool._executor_manager_thread
        pool.stop()
        assert not thread.is_alive()


def _ignores_ctrl_c(_: object) -> bool:
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_workers_ignore_ctrl_c_also_when_started_outside_the_main_thread():
    answers = []

    def start() -> None:
        with WorkerPool(1) as pool:
            answers.extend(pool.map(_ignores_ctrl_c, [None]))

    thread = threading.Thread(target=start)
    thread.start()
    thread.join(timeout=BUSY)
    assert answers == [True]


def _ignores(signum: int) -> bool:
    return signal.getsignal(signum) == signal.SIG_IGN


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="SIGTERM held by blocking it")
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_worker_sent_sigterm_plays_on_and_stop_still_ends_it(signame):
    """A batch system sends its SIGTERM to every process of the job (a terminal closing, SIGHUP): a
    worker ended by it, even while it started, left the pool broken ("a worker process ended before
    its work was done") where the run was to stop in order. Workers ignore it, and ``stop`` kills them."""
    signum = getattr(signal, signame)
    pool = WorkerPool(1)
    try:
        first = pool.submit(_ignores, signum)
        (worker,) = pool._pool._processes
        os.kill(worker, signum)  # (while it starts: it imports for a second)
        assert first.result(timeout=BUSY) is True
        os.kill(worker, signum)  # (while it waits for work)
        assert pool.submit(_square_or_fail, 3).result(timeout=BUSY) == 9
        pool.submit(_square_or_fail, BUSY)
    finally:
        pool.stop()
    assert gone(worker)


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="SIGTERM held by blocking it")
def test_a_sigterm_while_workers_start_waits_for_them_and_is_not_lost():
    """The workers inherit SIGTERM blocked until they ignore it; this process gets it after the block."""
    from mmlab.experiments.workers import starting_workers

    raised = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: raised.append(signum))
    try:
        with starting_workers():
            signal.raise_signal(signal.SIGTERM)
            assert raised == [] and signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        assert raised == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_script_without_a_main_guard_is_told_to_add_one(tmp_path):
    """Spawned workers import the main script again; one running mmlab at its top level started
    the study in every worker (BrokenProcessPool, a RuntimeError from multiprocessing)."""
    import subprocess
    import sys

    script = tmp_path / "unguarded.py"
    script.write_text("from mmlab.experiments import Store, Study, run_study\n"
                      "run_study(Study('s1', ['3x4'], ['random'], runs=4), Store('s1.duckdb'), jobs=2)\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1 and last.startswith("mmlab.errors.MastermindError: a worker process ended")
    assert 'under `if __name__ == "__main__":`' in last and "or pass jobs=1" in last
    assert "ran the main script, which starts mmlab's work again" in done.stderr  # said in each worker
    assert "BrokenProcessPool" not in done.stderr and "RuntimeError" not in done.stderr


def test_a_script_read_from_standard_input_plays_on_workers(tmp_path):
    """Spawned workers ran the main script again from its path, '<stdin>' here, and failed before
    any work ('No such file or directory'); the message then asked for a main guard, which cannot help."""
    import subprocess
    import sys

    script = ("from mmlab.experiments.workers import WorkerPool\n"
              "with WorkerPool(2) as pool:\n"
              "    print(sorted(pool.map(pow, [2, 3], [5, 2])))\n")
    done = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True, cwd=tmp_path,
                          check=False, timeout=300)
    assert (done.returncode, done.stdout, done.stderr) == (0, "[9, 32]\n", "")


def test_a_worker_importing_the_main_script_refuses_to_start_work(monkeypatch):
    from mmlab.errors import MastermindError

    monkeypatch.setattr(multiprocessing.current_process(), "_inheriting", True, raising=False)
    with pytest.raises(MastermindError, match="if __name__"):
        WorkerPool(2)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (which a container's init may never reap)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads process states from /proc")
def test_workers_end_with_a_parent_killed_outright(tmp_path):
    """A parent ended by SIGKILL (or a SIGTERM's default action) cannot stop its workers; they
    finished their task and waited for work for ever. Now each ends itself at once."""
    import subprocess
    import sys

    script = tmp_path / "parent.py"
    script.write_text("import os, time\n"
                      "from mmlab.experiments.workers import WorkerPool\n"
                      "if __name__ == '__main__':\n"
                      "    with WorkerPool(1) as pool:\n"
                      "        print(pool.submit(os.getpid).result(), flush=True)\n"
                      "        pool.submit(time.sleep, 120).result()\n")
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    worker = None
    try:
        worker = int(parent.stdout.readline())
        time.sleep(0.5)  # (the worker is sleeping in its second task)
        assert _running(worker)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 20
        while _running(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(worker), "the worker outlived its parent"
    finally:
        parent.kill()
        if worker is not None and _running(worker):
            os.kill(worker, signal.SIGKILL)


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script as the workers' interpreter")
def test_workers_started_through_a_wrapper_of_python_keep_working(tmp_path):
    """A worker run by a wrapper script (which starts Python as its child rather than becoming it)
    has the wrapper as its parent: watching for a change of parent process ended every worker at
    once. It watches the process that started it."""
    wrapper = tmp_path / "python-wrapper"
    wrapper.write_text(f'#!/bin/sh\n"{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    import multiprocessing.spawn

    before = multiprocessing.spawn.get_executable()
    multiprocessing.set_executable(str(wrapper))
    try:
        with WorkerPool(1) as pool:
            assert list(pool.map(pow, [2, 3], [5, 2])) == [32, 9]
    finally:
        multiprocessing.set_executable(before)


def _until_exists(path: str) -> str:
    while not os.path.exists(path):
        time.sleep(0.01)
    return "done"


def test_as_completed_ticks_while_nothing_finishes(tmp_path):
    """So that its caller (run_study) writes the games finished while a long chunk plays: they
    waited for the next chunk to finish, minutes at 8x12."""
    flag = tmp_path / "flag"
    with WorkerPool(1) as pool:
        results = pool.as_completed([pool.submit(pow, 2, 5), pool.submit(_until_exists, str(flag))], tick=0.05)
        assert next(result for result in results if result is not None) == 32  # (after ticks as the worker starts)
        assert next(results) is None  # (the other task can finish only once told)
        flag.touch()
        assert [result for result in results if result is not None] == ["done"]
