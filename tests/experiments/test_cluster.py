"""A study on a real Dask cluster (LocalCluster on loopback) gives exactly the local pool's games."""

import json
import logging
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from mmlab.errors import BadArgument, MastermindError
from mmlab.experiments import cluster as dask_path
from mmlab.experiments.chunk import play_chunk
from mmlab.experiments.runner import plan_chunks, run_study
from mmlab.experiments.store import Store
from mmlab.experiments.study import Study

distributed = pytest.importorskip("distributed")

COLUMNS = ["strategy", "size", "run", "slot", "secret", "seed", "guesses", "won", "known", "evaluations"]


def frames(store: Store, name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    games = store.games(name)[COLUMNS].reset_index(drop=True)
    moves = store.moves(name).drop(columns=["study"]).reset_index(drop=True)
    return games, moves


def test_cluster_and_local_pool_give_identical_games(tmp_path, pools_started):
    from mmlab.experiments import runner

    study = Study("paired", ("3x4", "4x4"), ("random", "most-parts:pool=consistent,ties=random", "knuth"),
                  runs=2, seed=11)
    local, remote = Store(tmp_path / "local.duckdb"), Store(tmp_path / "cluster.duckdb")
    pools = pools_started(runner)
    run_study(study, local, jobs=2, chunk_games=40)
    assert pools == [2]  # (the local pool played them, not this process)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        summary = run_study(study, remote, scheduler=cluster.scheduler_address, chunk_games=40)
    assert summary.played == study.n_games and "Dask" in summary.scheduler
    (games_a, moves_a), (games_b, moves_b) = frames(local, "paired"), frames(remote, "paired")
    pd.testing.assert_frame_equal(games_a, games_b)
    pd.testing.assert_frame_equal(moves_a, moves_b)
    assert remote.runs("paired")["scheduler"].iloc[0].startswith("tcp://127.0.0.1")


def test_an_unreachable_scheduler_is_reported(tmp_path, monkeypatch):
    monkeypatch.setattr("mmlab.experiments.cluster.CONNECT_TIMEOUT", "1s")
    study = Study("lonely", ("3x3",), ("random",), seed=1)
    store = Store(tmp_path / "r.duckdb")
    with pytest.raises(BadArgument, match="cannot reach a Dask scheduler at 'tcp://127.0.0.1:9'"):
        run_study(study, store, scheduler="tcp://127.0.0.1:9")
    assert not store.path.exists()  # refused before the store is touched: no empty study left behind
    run_study(study, store, jobs=1)
    with store.connect() as con:  # a study stored before, not played to the end, stays with its games
        con.execute("DELETE FROM games WHERE slot >= 20")
    with pytest.raises(BadArgument, match="cannot reach"):
        run_study(study, store, scheduler="tcp://127.0.0.1:9")
    assert list(store.studies()["study"]) == ["lonely"] and len(store.games("lonely")) == 20
    with pytest.raises(BadArgument, match="give jobs or a scheduler, not both"):  # (jobs were ignored)
        run_study(study, Store(tmp_path / "r.duckdb"), jobs=2, scheduler="tcp://127.0.0.1:9")


def test_a_scheduler_lost_while_the_study_plays_is_reported_and_the_finished_games_are_kept(tmp_path, monkeypatch):
    """The scheduler goes away after the first chunks: one line saying so, not the cluster's
    traceback, and the games finished before are in the store for the next run."""
    monkeypatch.setattr("mmlab.experiments.cluster.CONNECT_TIMEOUT", "1s")  # (also how long it tries to reconnect)
    study = Study("orphan", ("4x4",), ("random",), runs=4, seed=3)
    store = Store(tmp_path / "r.duckdb")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None)

    def progress(done: int, total: int) -> None:
        if done and cluster.status.name == "running":
            cluster.close()

    try:
        with pytest.raises(MastermindError, match="the connection to its scheduler was lost; the games finished "
                                                  "so far are stored, and the same command plays the rest"):
            run_study(study, store, scheduler=cluster.scheduler_address, chunk_games=8, on_progress=progress)
    finally:
        cluster.close()
    kept = len(store.games("orphan"))
    assert 0 < kept < study.n_games
    assert run_study(study, store, jobs=1).played == study.n_games - kept


def dask(*args: str) -> subprocess.Popen:
    """``dask scheduler ...`` or ``dask worker ...`` in a process of its own, its log discarded."""
    return subprocess.Popen([sys.executable, "-m", f"distributed.cli.dask_{args[0]}", *args[1:]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def worker(address: str) -> subprocess.Popen:
    return dask("worker", address, "--no-nanny", "--nthreads", "1", "--no-dashboard")


def stop(*processes: subprocess.Popen) -> None:
    for process in processes:
        process.kill()
        process.wait()


def test_a_cluster_left_without_workers_says_so_and_plays_on_when_one_joins(tmp_path, monkeypatch, capsys):
    """Its only worker killed, the study waits for another (Dask keeps the chunks for it), saying
    so on stderr, and how to start one; a worker that joins plays the rest."""
    monkeypatch.setattr(dask_path, "NO_WORKERS_SECONDS", 0.5)
    study = Study("stranded", ("4x6",), ("random",), runs=8, seed=5)  # (about 3 s of games: the worker dies mid-way)
    store = Store(tmp_path / "r.duckdb")
    started: list[subprocess.Popen] = []
    stderr = sys.stderr

    def another_worker() -> None:
        if len(started) == 1:
            started.append(worker(cluster.scheduler_address))

    class Reader:  # the user, who starts the worker that stderr asks for
        def write(self, text: str) -> int:
            if "has no workers" in text:
                another_worker()
            return stderr.write(text)

        def flush(self) -> None:
            stderr.flush()

    def progress(done: int, total: int) -> None:
        if done and started[0].poll() is None:
            time.sleep(0.2)  # the worker finishes more chunks meanwhile: they die with it, some maybe as they are fetched
            started[0].kill()

    monkeypatch.setattr(sys, "stderr", Reader())
    rescue = threading.Timer(60, another_worker)  # (told nothing, the study would wait for ever)
    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None) as cluster:
        started.append(worker(cluster.scheduler_address))
        rescue.start()
        try:
            summary = run_study(study, store, scheduler=cluster.scheduler_address, chunk_games=8,
                                on_progress=progress)
        finally:
            rescue.cancel()
            stop(*started)
    assert summary.played == study.n_games == len(store.games("stranded")) and len(started) == 2
    said = capsys.readouterr().err
    assert f"the Dask cluster at {cluster.scheduler_address} has no workers to play the " in said
    assert f"start one with 'dask worker {cluster.scheduler_address}', or press Ctrl-C to stop" in said
    assert "has 1 worker again; the study plays on" in said


SET_UP = threading.local()
PLAYED_AFTER_SETUP: list[bool] = []


def set_up() -> None:
    SET_UP.done = True


def spy_play(chunk):
    PLAYED_AFTER_SETUP.append(getattr(SET_UP, "done", False))
    return play_chunk(chunk)


def test_every_chunk_plays_after_the_setup_in_its_own_thread(monkeypatch):
    """The setup (one numba thread a worker: ``single_threaded``) holds in the thread that plays,
    as numba's thread count is a thread's own."""
    monkeypatch.setattr(dask_path, "play_chunk", spy_play)
    PLAYED_AFTER_SETUP.clear()
    chunks = plan_chunks(Study("threads", ("3x4",), ("random",), seed=2), set(), "r", chunk_games=16)
    with (distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as c,
          dask_path.connected(c.scheduler_address) as client):
        assert len(list(dask_path.on_dask(chunks, client, c.scheduler_address, set_up))) == len(chunks)
    assert PLAYED_AFTER_SETUP == [True] * len(chunks)


def test_the_cluster_keeps_no_chunk_the_coordinator_has(tmp_path):
    """A finished chunk is forgotten by the cluster once its games are here: workers do not hold
    the study's games in memory to its end, nor play them again when their worker dies."""
    study = Study("forgotten", ("3x4",), ("random",), runs=2, seed=4)
    held: list[int] = []
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c:

        def progress(done: int, total: int) -> None:
            if done == total:  # every chunk is here: wait (10 s at most) for the cluster to let them go
                deadline = time.monotonic() + 10
                while c.scheduler.tasks and time.monotonic() < deadline:
                    time.sleep(0.05)
                held.append(len(c.scheduler.tasks))

        run_study(study, Store(tmp_path / "r.duckdb"), scheduler=c.scheduler_address, chunk_games=8,
                  on_progress=progress)
    assert held == [0]


def test_distributed_s_client_says_nothing_while_the_study_plays(tmp_path):
    """Its warnings (the games of a dead worker 'rescheduling', as it is fetched) are mmlab's to
    tell in its own words; its logging is as it was afterwards."""
    client_log = logging.getLogger("distributed.client")
    level, heard = client_log.level, []

    def progress(done: int, total: int) -> None:
        if done:  # (a chunk played: the cluster is at work)
            heard.append(client_log.isEnabledFor(logging.WARNING))

    study = Study("hushed", ("3x4",), ("random",), seed=7)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        run_study(study, Store(tmp_path / "r.duckdb"), scheduler=c.scheduler_address, chunk_games=16,
                  on_progress=progress)
    assert heard and not any(heard) and client_log.level == level


def test_a_scheduler_killed_while_the_study_plays_gives_mmlab_line_alone(tmp_path):
    """No traceback of distributed's (its client logs one as it gives up reconnecting) beside the
    line that says what happened."""
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = dask("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(scheduler_file))
    processes = [scheduler]
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = records.append
    loggers = [logging.getLogger("distributed"), logging.getLogger("distributed.client")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(Path(scheduler_file).read_text())["address"]
        processes.append(worker(address))
        study = Study("beheaded", ("4x6",), ("random",), runs=2, seed=6)
        store = Store(tmp_path / "r.duckdb")

        def progress(done: int, total: int) -> None:
            if done and scheduler.poll() is None:
                scheduler.kill()
                scheduler.wait()

        with pytest.raises(MastermindError, match="the connection to its scheduler was lost"):
            run_study(study, store, scheduler=address, chunk_games=8, on_progress=progress)
        time.sleep(0.5)  # (a record logged as the client closes would come now)
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
        stop(*processes)
    logged = [(r.name, r.levelname, r.exc_info and r.exc_info[0]) for r in records if r.levelno >= logging.WARNING]
    assert logged == []
    assert 0 < len(store.games("beheaded")) < study.n_games


def test_a_clusters_chunks_are_planned_for_its_threads_not_this_machines_cores(tmp_path, monkeypatch):
    """knuth on a sample is read off its tree's branches a chunk a worker: planned for this
    machine's cores, a cluster of more threads played it on as many of them only."""
    from mmlab.experiments import runner

    planned = []
    real = runner.plan_chunks
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 1)
    monkeypatch.setattr(runner, "plan_chunks", lambda *args: planned.append(real(*args)) or planned[-1])
    study = Study("spread", ("4x6",), ("knuth",), secrets=30, seed=3)
    with distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        with dask_path.connected(c.scheduler_address) as client:
            assert dask_path.cluster_threads(client) == 3
        summary = run_study(study, Store(tmp_path / "r.duckdb"), scheduler=c.scheduler_address)
    assert summary.played == 30 and [len(chunk.games) for chunk in planned[0]] == [10, 10, 10]


GO = threading.Event()


def play_when_told(chunk):
    if not GO.wait(30):
        raise RuntimeError("not told to play")
    return play_chunk(chunk)


def test_on_dask_ticks_while_no_chunk_finishes(monkeypatch):
    """So that the runner writes the games finished while a long chunk plays: they waited for the
    next chunk to finish, minutes at 8x12."""
    monkeypatch.setattr(dask_path, "play_chunk", play_when_told)
    GO.clear()
    chunks = plan_chunks(Study("ticks", ("3x3",), ("random",)), set(), "r", chunk_games=27)
    with (distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c,
          dask_path.connected(c.scheduler_address) as client):
        results = dask_path.on_dask(chunks, client, c.scheduler_address, set_up, tick=0.05)
        assert next(results) is None  # (the chunk can finish only once told)
        GO.set()
        assert [len(played) for played in results if played is not None] == [27]


def test_a_run_connects_to_the_scheduler_once(tmp_path, monkeypatch):
    """Its chunks were planned on one connection (for the cluster's threads) and played on another."""
    clients = []
    real = dask_path._client
    monkeypatch.setattr(dask_path, "_client", lambda scheduler: clients.append(real(scheduler)) or clients[-1])
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        summary = run_study(Study("once", ("3x3",), ("random",)), Store(tmp_path / "r.duckdb"),
                            scheduler=c.scheduler_address)
    assert summary.played == 27 and len(clients) == 1 and clients[0].status == "closed"


class _FakeClient:
    """A Dask client whose scheduler reports ``n`` workers."""

    def __init__(self, n: int) -> None:
        self.n = n

    def scheduler_info(self, n_workers: int = 0) -> dict:
        return {"n_workers": self.n}


@pytest.mark.parametrize("workers, back", [(0, False), (1, True), (3, True)])
def test_a_cluster_with_one_worker_or_more_is_back(capsys, workers, back):
    from mmlab.experiments import cluster

    assert cluster._back(_FakeClient(workers), "tcp://h:8786") is back
    said = capsys.readouterr().err
    assert (f"has {workers} worker{'s' * (workers != 1)} again" in said) is back
