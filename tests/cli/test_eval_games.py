"""``mmlab eval --games FILE``: one row per game, the same for any number of workers."""

import csv
import json
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
    assert list(rows[0]) == ["run", "secret", "guesses", "known", "evaluations", "seconds"]
    assert [r["secret"] for r in rows[:2]] == ["1111", "1112"] and {r["run"] for r in rows} == {0}
    assert sum(r["guesses"] for r in rows) == 5801 and rows[[r["secret"] for r in rows].index("3632")]["guesses"] == 5
    assert all(r["seconds"] is None for r in rows)  # (read off the tree: not timed)
    run(capsys, "tree", "4x6", "--strategy", "knuth", "-o", str(tmp_path / "knuth.json"))
    code, _, _ = run(capsys, "eval", "--tree", str(tmp_path / "knuth.json"), "--games", str(tmp_path / "g.jsonl"))
    saved = read_rows(tmp_path / "g.jsonl")
    assert code == 0 and all(r["evaluations"] is None for r in saved)  # (a tree from a file counts none)
    assert [r["guesses"] for r in saved] == [r["guesses"] for r in rows]


def test_games_file_of_a_simulation_is_the_same_with_workers(capsys, tmp_path):
    args = ["eval", "3x4", "--strategy", "random", "--runs", "2", "--seed", "5"]
    code, out, _ = run(capsys, *args, "--json", "--games", str(tmp_path / "one.jsonl"))
    assert run(capsys, *args, "--jobs", "2", "--games", str(tmp_path / "two.csv"))[0] == code == 0
    one, two = read_rows(tmp_path / "one.jsonl"), read_rows(tmp_path / "two.csv")
    assert len(one) == 128 and without_seconds(one) == without_seconds(two)
    assert [r["run"] for r in one] == [0] * 64 + [1] * 64 and all(r["seconds"] > 0 for r in one + two)
    assert sum(r["guesses"] for r in one) == json.loads(out)["total_guesses"]


@pytest.mark.parametrize("args, message", [
    (["--games", "g.json"], "--games 'g.json': cannot tell the format; name it .csv, or .jsonl"),
    (["--games", "/nonexistent/g.csv"], "cannot write /nonexistent/g.csv: no such folder"),
    (["--codemaker", "adversary", "--games", "g.csv"], "--codemaker adversary chooses them as it plays: give --json instead"),
])
def test_games_file_refusals(capsys, args, message):
    code, out, err = run(capsys, "eval", "3x4", *args)
    assert (code, out) == (2, "") and message in err

