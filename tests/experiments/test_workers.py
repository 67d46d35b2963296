"""The worker pool: results in order, and a failed task stops the other workers at once."""

import multiprocessing
import time

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


def test_a_failed_task_stops_the_workers_without_waiting_for_the_others():
    """(A plain ``with ProcessPoolExecutor`` would wait the two minutes of the busy task.)"""
    before = set(multiprocessing.active_children())
    start = time.monotonic()
    with pytest.raises(ValueError, match="negative: -1"):
        with WorkerPool(2) as pool:
            list(pool.as_completed(pool.submit_all(_square_or_fail, [(BUSY,), (-1,), (BUSY,)])))
    workers = set(multiprocessing.active_children()) - before
    for worker in workers:
        worker.join(timeout=BUSY)
    assert not any(worker.is_alive() for worker in workers)
    assert time.monotonic() - start < BUSY / 2  # stopped, not left to finish


def test_as_completed_gives_every_result():
    with WorkerPool(2) as pool:
        assert sorted(pool.as_completed(pool.submit_all(_square_or_fail, [(2,), (3,), (4,)]))) == [4, 9, 16]
