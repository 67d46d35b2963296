"""The daemon threads that run the API's requests: a call takes an idle thread, or starts one up to
the pool's size, and never waits behind a busy one while the pool may grow."""

import threading
import time

from mmlab.web.workers import DaemonPool


def idle_threads(pool: DaemonPool, n: int) -> None:
    """Wait until ``n`` of the pool's threads are idle (a thread says so just after its result)."""
    deadline = time.monotonic() + 10
    while pool._idle != n:
        assert time.monotonic() < deadline, f"{pool._idle} idle threads, expected {n}"
        time.sleep(0.001)


def test_a_call_takes_an_idle_thread_or_a_new_one_never_a_busy_one():
    """Two calls that wait for each other both run: the idle thread takes one and a new thread the
    other (counted as idle for both, they shared one thread and waited for ever)."""
    pool = DaemonPool(size=3)
    assert pool.submit(lambda: 6 * 7).result(timeout=10) == 42
    idle_threads(pool, 1)
    both = threading.Barrier(2, timeout=10)
    for call in [pool.submit(both.wait) for _ in range(2)]:
        call.result(timeout=20)  # (BrokenBarrierError if one thread had both)
    assert pool._threads == 2  # the idle thread reused, one started: not three
    idle_threads(pool, 2)


def test_calls_beyond_the_pools_size_wait_their_turn():
    gate = threading.Event()
    pool = DaemonPool(size=2)
    calls = [pool.submit(lambda: gate.wait(10)) for _ in range(3)]
    assert pool._threads == 2
    gate.set()
    assert [call.result(timeout=20) for call in calls] == [True] * 3
    assert pool._threads == 2
