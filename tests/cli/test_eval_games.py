"""``mmlab eval --games FILE``: one row per game, the same for any number of workers; and a Ctrl-C
during a simulated evaluation, which prints the figures of the games played so far (marked as
interrupted), writes their rows, and ends as any interrupted command does."""

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mmlab.cli.main import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def read_rows(path: Path) -> list[dict]:
    """The rows of a --games file, CSV or JSON lines, with the values as JSON lines give them."""
    if path.suffix == ".csv":
        with path.open(newline="") as f:
            return [{k: (None if v == "" else v if k == "secret" else float(v) if k == "seconds" else int(v))
                     for k, v in row.items()} for row in csv.DictReader(f)]
    return [json.loads(line) for line in path.read_text().splitlines()]


def without_seconds(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


def test_games_file_of_a_decision_tree(capsys, tmp_path):
    """Knuth 1976: 5801 guesses over the 1296 secrets, each secret's count in the file."""
    code, out, err = run(capsys, "eval", "4x6", "--strategy", "knuth", "--json", "--games", str(tmp_path / "g.csv"))
    rows = read_rows(tmp_path / "g.csv")
    assert code == 0 and json.loads(out)["games"] == 1296 and "wrote 1,296 games" in err
    assert list(rows[0]) == ["run", "secret", "guesses", "known", "evaluations", "seconds", "fallbacks"]
    assert all(r["fallbacks"] == 0 for r in rows)
    assert [r["secret"] for r in rows[:2]] == ["1111", "1112"] and {r["run"] for r in rows} == {0}
    assert sum(r["guesses"] for r in rows) == 5801 and rows[[r["secret"] for r in rows].index("3632")]["guesses"] == 5
    assert all(r["seconds"] is None for r in rows)  # (read off the tree: not timed)
    run(capsys, "tree", "4x6", "--strategy", "knuth", "-o", str(tmp_path / "knuth.json"))
    code, _, _ = run(capsys, "eval", "--tree", str(tmp_path / "knuth.json"), "--games", str(tmp_path / "g.jsonl"))
    saved = read_rows(tmp_path / "g.jsonl")
    assert code == 0 and all(r["evaluations"] is None for r in saved)  # (a tree from a file counts none)
    assert [r["guesses"] for r in saved] == [r["guesses"] for r in rows]


def test_games_file_of_a_simulation_is_the_same_with_workers(capsys, tmp_path, pools_started):
    from mmlab.experiments import evaluation

    args = ["eval", "3x4", "--strategy", "random", "--runs", "2", "--seed", "5"]
    code, out, _ = run(capsys, *args, "--json", "--games", str(tmp_path / "one.jsonl"))
    pools = pools_started(evaluation)
    assert run(capsys, *args, "--jobs", "2", "--games", str(tmp_path / "two.csv"))[0] == code == 0
    assert pools == [2]  # (played by two worker processes)
    one, two = read_rows(tmp_path / "one.jsonl"), read_rows(tmp_path / "two.csv")
    assert len(one) == 128 and without_seconds(one) == without_seconds(two)
    assert [r["run"] for r in one] == [0] * 64 + [1] * 64 and all(r["seconds"] > 0 for r in one + two)
    assert sum(r["guesses"] for r in one) == json.loads(out)["total_guesses"]


def test_games_file_counts_each_games_fallbacks(capsys, tmp_path):
    """A GA of 2 codes for 1 generation finds no consistent 6x9 code in most turns: each guess it
    then plays (the fittest code, or the constraint search's after ``rescue`` in a row) is counted in
    its game's row, and the rows add up to the total that ``--json`` gives."""
    code, out, _ = run(capsys, "eval", "6x9", "--strategy", "ga:variant=berghman,pop=2,generations=1,rescue=2",
                       "--secrets", "4", "--seed", "3", "--jobs", "1", "--json", "--games", str(tmp_path / "g.csv"))
    rows = read_rows(tmp_path / "g.csv")
    total = json.loads(out)["fallback_guesses"]
    assert code == 0 and sum(r["fallbacks"] for r in rows) == total > 0
    assert all(r["fallbacks"] <= r["guesses"] - 1 for r in rows)  # (never the first guess)


@pytest.mark.parametrize("args, message", [
    (["--games", "g.json"], "--games 'g.json': cannot tell the format; name it .csv, or .jsonl"),
    (["--games", "/nonexistent/g.csv"], "cannot write /nonexistent/g.csv: no such folder"),
    (["--codemaker", "adversary", "--games", "g.csv"],
     "--codemaker adversary chooses the secret itself as it answers: give --json instead"),
    # (it said 'fixed:123 chooses them as it plays', the adversary's reason)
    (["--codemaker", "fixed:123", "--games", "g.csv"], "--codemaker fixed:123 answers for its one secret: give --json"),
])
def test_games_file_refusals(capsys, args, message):
    code, out, err = run(capsys, "eval", "3x4", *args)
    assert (code, out) == (2, "") and message in err


@pytest.fixture
def ctrl_c_after_40_games(monkeypatch):
    """A Ctrl-C as the 41st game starts."""
    from mmlab.experiments import evaluation

    played, real = [], evaluation.play_seeded

    def play(*args):
        if len(played) == 40:
            raise KeyboardInterrupt
        played.append(args)
        return real(*args)

    monkeypatch.setattr(evaluation, "play_seeded", play)


def test_ctrl_c_prints_the_games_played_so_far(capsys, ctrl_c_after_40_games):
    code, out, err = run(capsys, "eval", "3x4", "--strategy", "random", "--seed", "1")
    assert (code, err) == (130, "interrupted\n")
    assert "3x4: random (simulated, interrupted after 40 of 64 games)" in out and "seed 1" in out
    assert "(the first 40 games in the order played, each run's secrets in code order: not a random sample" \
        in " ".join(out.split())


def test_ctrl_c_with_json_and_a_games_file(capsys, ctrl_c_after_40_games, tmp_path):
    code, out, err = run(capsys, "eval", "3x4", "--strategy", "random", "--seed", "1", "--runs", "2", "--json",
                         "--games", str(tmp_path / "g.csv"))
    data, rows = json.loads(out), read_rows(tmp_path / "g.csv")
    assert code == 130 and err.endswith("interrupted\n")
    assert (data["interrupted"], data["games"], data["games_planned"]) == (True, 40, 128)
    assert len(rows) == 40 and sum(r["guesses"] for r in rows) == data["total_guesses"]


def test_a_games_file_that_cannot_be_written_after_a_ctrl_c_still_ends_as_interrupted(
        capsys, ctrl_c_after_40_games, tmp_path, monkeypatch):
    """The figures come first, then the file; a file that cannot be written is said so, and the
    run still ends with 'interrupted' and 130 (it ended with that error and status 2, no figures)."""
    from mmlab.cli import engine

    monkeypatch.setattr(engine, "_check_games_file", lambda path: None)  # (the folder vanishes meanwhile)
    code, out, err = run(capsys, "eval", "3x4", "--strategy", "random", "--seed", "1", "--json",
                         "--games", str(tmp_path / "gone" / "g.csv"))
    assert code == 130 and json.loads(out)["games"] == 40
    assert err.startswith("mmlab eval: error: cannot write ") and err.endswith("No such file or directory\ninterrupted\n")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table in /proc")
def test_a_real_ctrl_c_with_workers_keeps_their_games(tmp_path):
    """Ctrl-C sent to the job (as a terminal sends it) while two workers play: the games they
    returned are printed and written, and no process of the job is left."""
    proc = subprocess.Popen([sys.executable, "-m", "mmlab", "eval", "5x8", "--strategy", "random", "--runs", "3",
                             "--seed", "1", "--jobs", "2", "--json", "--games", "g.csv"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:  # (the 98,304 games take a minute or more: never over before the Ctrl-C)
        for _ in range(1200):  # until the workers (besides the parent and its resource tracker) have
            if _children_seconds(proc.pid) >= 6 or proc.poll() is not None:  # loaded and played a while
                break
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    data = json.loads(out)
    assert (proc.returncode, err) == (-signal.SIGINT, f"wrote {data['games']:,} games to g.csv\ninterrupted\n")
    assert data["interrupted"] and 0 < data["games"] < data["games_planned"] == 3 * 8**5
    assert len(read_rows(tmp_path / "g.csv")) == data["games"]
    for _ in range(200):  # (the workers end within a moment)
        if not _job(proc.pid):
            break
        time.sleep(0.05)
    assert _job(proc.pid) == []


def _children_seconds(pid: int) -> float:
    """The processor seconds used so far by the processes of the group ``pid`` other than ``pid``."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pid and int(stat.parent.name) != pid:
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def _job(pid: int) -> list[int]:
    """The live processes of the process group ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found
