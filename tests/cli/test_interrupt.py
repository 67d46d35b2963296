"""Ctrl-C ends every long command with one line, ``interrupted``, and the process as Ctrl-C's
default action would (killed by SIGINT, which a shell reports as status 130): while the command
loads, while its worker processes start (a terminal sends Ctrl-C to every process of the job, and
a worker interrupted while importing prints a traceback), and while they play (the run does not
wait for their games). SIGTERM does the same, the process then killed by SIGTERM (143)."""

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table in /proc")

LONG = {  # each runs for minutes on two workers
    "eval": ["eval", "5x8", "--strategy", "sample", "--secrets", "400", "--jobs", "2"],
    "reproduce large": ["reproduce", "large", "--sizes", "5x8", "--strategies", "sample", "--games", "400",
                        "--jobs", "2"],
    "mm2 reproduce": ["mm2", "reproduce", "--sizes", "7x8", "--games", "2000", "--jobs", "2"],
}


def workers_of(pid: int) -> list[int]:
    """The spawned worker processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid and b"spawn_main" in command:
            found.append(int(stat.parent.name))
    return found


CTRL_C = -signal.SIGINT  # a subprocess's status when SIGINT killed it
MMLAB = {"python -m mmlab": [sys.executable, "-m", "mmlab"],
         "script": [sys.executable, "-c", "from mmlab.cli.entry import run; run()"]}  # (as the installed 'mmlab')


def interrupt(args: list[str], when: str | float, folder: Path, mmlab: list[str] = MMLAB["python -m mmlab"],
              signum: int = signal.SIGINT) -> tuple[int, str]:
    """Run ``mmlab ARGS`` in ``folder`` (where a store would go), in a job of its own, and Ctrl-C the
    job (or send it ``signum``) at ``when`` (seconds after the start, or "starting" or "playing", or
    "storing": once the store ``s.duckdb`` holds games); status and stderr."""
    proc = subprocess.Popen([*mmlab, *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=folder)
    try:
        if isinstance(when, float):
            time.sleep(when)
        elif when == "storing":
            until_games_are_stored(folder / "s.duckdb", proc)
        else:
            for _ in range(1200):  # until the first worker process exists
                if workers_of(proc.pid) or proc.poll() is not None:
                    break
                time.sleep(0.05)
            time.sleep(0.3 if when == "starting" else 4.0)  # importing, or playing
        os.killpg(proc.pid, signum)
        err = proc.communicate(timeout=60)[1]  # (the old pools waited minutes for their workers' games)
        return proc.returncode, err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def until_games_are_stored(store: Path, proc: subprocess.Popen) -> None:
    """Wait until ``store`` holds games (while ``proc`` runs), reading it between the run's writes."""
    import duckdb

    for _ in range(2400):
        try:
            with duckdb.connect(str(store), read_only=True) as con:
                if con.execute("SELECT count(*) FROM games").fetchone()[0]:
                    return
        except duckdb.Error:  # (no store yet, or its tables not made, or the run writing)
            pass
        if proc.poll() is not None:
            return
        time.sleep(0.05)


@pytest.mark.parametrize("mmlab", sorted(MMLAB))
@pytest.mark.parametrize("seconds", [0.2, 0.9])  # importing numba; DuckDB, whose import a KeyboardInterrupt can abort
def test_ctrl_c_while_the_command_loads(tmp_path, seconds, mmlab):
    status, err = interrupt(["compare", "4x6"], seconds, tmp_path, MMLAB[mmlab])  # a fresh store: seconds of games
    assert (status, err.strip()) == (CTRL_C, "interrupted")


def test_ctrl_c_stops_a_shell_loop_running_mmlab(tmp_path):
    """bash goes on with a loop when the command it waits for exits by itself after a Ctrl-C."""
    command = " ".join(shlex.quote(word) for word in [*MMLAB["python -m mmlab"], "compare", "4x6"])
    proc = subprocess.Popen(["bash", "-c", f"for size in 1 2; do {command}; echo next; done"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=tmp_path)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert (out, err.strip(), proc.returncode) == ("", "interrupted", CTRL_C)


def test_ctrl_c_stops_mathmind_compare_with_one_line(tmp_path):
    """Its work is numba's threads in this process (no workers): the Ctrl-C lands in a kernel and is
    raised as the kernel returns (5x8's first step, the longest, takes a few seconds)."""
    status, err = interrupt(["mathmind", "compare", "5x8", "--rules", "knuth"], 4.0, tmp_path)
    assert (status, err.strip()) == (CTRL_C, "interrupted")


def test_ctrl_c_stops_the_optimums_search_with_one_line(tmp_path):
    """4x4's Manhattan optimum searches for minutes in one kernel, which cannot take a Ctrl-C: it
    went on to the end. The search now returns to Python every few thousand sets and goes on."""
    status, err = interrupt(["mathmind", "compare", "4x4", "--optimum", "--feedback", "manhattan", "--rules", "knuth",
                             "--max-nodes", "12000000"], 6.0, tmp_path)
    assert (status, err.strip()) == (CTRL_C, "interrupted")


@pytest.mark.parametrize("strategy, signum", [("evo", signal.SIGINT), ("ga:variant=berghman", signal.SIGTERM)])
def test_a_ga_with_a_huge_budget_stops_at_ctrl_c_or_sigterm(strategy, signum, tmp_path):
    """With fewer consistent codes than it looks for (3x4 has 64 codes), the GA spends its whole
    budget each turn: 10**14 generations ran in one kernel, which neither a Ctrl-C nor a SIGTERM could
    stop. It now returns to Python every million or so fitness computations."""
    spec = f"{strategy}{',' if ':' in strategy else ':'}generations=100000000000000"
    status, err = interrupt(["eval", "3x4", "--strategy", spec, "--secrets", "5", "--jobs", "1"], 4.0, tmp_path,
                            signum=signum)
    assert (status, err.strip()) == (-signum, "interrupted")


@pytest.mark.parametrize("when", ["starting", "playing"])
@pytest.mark.parametrize("command", sorted(LONG))
def test_ctrl_c_stops_the_workers_with_one_line(command, when, tmp_path):
    status, err = interrupt(LONG[command], when, tmp_path)
    assert (status, err.strip()) == (CTRL_C, "interrupted")


@pytest.mark.parametrize("seconds", [0.2, 0.9])
def test_sigterm_while_the_command_loads(tmp_path, seconds):
    status, err = interrupt(["compare", "4x6"], seconds, tmp_path, signum=signal.SIGTERM)
    assert (status, err.strip()) == (-signal.SIGTERM, "interrupted")


@pytest.mark.parametrize("signame, when", [("SIGTERM", "starting"), ("SIGTERM", "storing"), ("SIGHUP", "storing")])
def test_sigterm_or_sighup_to_the_job_keeps_the_finished_games_and_stops_the_workers_with_one_line(
        tmp_path, signame, when):
    """What a batch system does at a job's time limit (Slurm signals every process of the step), or
    a terminal closing (SIGHUP): the process died at once, without a word, the games finished since
    the last write lost and a study registered by the run left behind without games (or with fewer
    games than played)."""
    import duckdb

    signum = getattr(signal, signame, None)
    if signum is None:
        pytest.skip(f"no {signame} here")
    status, err = interrupt(["compare", "5x8", "--strategies", "random", "--jobs", "2", "--store", "s.duckdb"],
                            when, tmp_path, signum=signum)
    assert (status, err.strip()) == (-signum, "interrupted")
    with duckdb.connect(str(tmp_path / "s.duckdb"), read_only=True) as con:
        studies, games = con.execute("SELECT (SELECT count(*) FROM studies), (SELECT count(*) FROM games)").fetchone()
        written = con.execute("SELECT coalesce(sum(games_written), 0) FROM runs").fetchone()[0]
    assert games == written and studies == (games > 0)  # (no study left without games)
    if when == "storing":
        assert games > 0
