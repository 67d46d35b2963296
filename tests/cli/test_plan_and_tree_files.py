"""The planners and decision trees from the command line, where a user meets their limits: 'mmlab
plan' (time estimates, stopped plans), 'mmlab tree' in every format, and 'mmlab eval --tree' on
what they write (files it cannot read back, damaged files)."""

import io
import json

import pytest

from mmlab.cli.main import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("form, name", [("knuth", "Knuth's notation"), ("dot", "Graphviz DOT"), ("python", "Python")])
def test_eval_tree_names_a_tree_written_in_another_format(capsys, monkeypatch, form, name):
    """'mmlab tree 3x2 --format knuth | mmlab eval --tree -' said "not valid JSON: Extra data: line
    1 column 2 (char 1)"; it now says what it was given and that only a JSON tree plays back."""
    code, text, _ = run(capsys, "tree", "3x2", "--format", form)
    assert code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code, out, err = run(capsys, "eval", "--tree", "-")
    err = " ".join(err.split())
    assert code == 2 and out == "" and "Traceback" not in err
    assert f"standard input: this is a tree written as {name} (--format {form})" in err
    assert "only a JSON tree loads" in err


def test_eval_tree_refuses_a_number_too_long_to_read(capsys, tmp_path):
    """A tree file with a number of 5000 digits ended 'mmlab eval --tree' in a traceback (ValueError)."""
    path = tmp_path / "tree.json"
    assert run(capsys, "tree", "3x2", "-o", str(path))[0] == 0
    doc = json.loads(path.read_text())
    path.write_text(path.read_text().replace(f'"worst": {doc["worst"]}', '"worst": ' + "9" * 5000))
    code, _, err = run(capsys, "eval", "--tree", str(path))
    assert code == 2 and "not a usable tree file: it holds a number too long to read" in " ".join(err.split())


def test_plan_says_a_stopped_tpoa_returned_its_greedy_tree(capsys):
    """'mmlab plan 4x6 --planner tpoa:k=30,d=2 --time-limit 1' printed the greedy tree's L = 5674
    as the stopped plan's, with no word that none of its own search was kept; the optimal planner
    says 'tree from: ...' in that case, and now TPOA does too (text and JSON)."""
    code, out, _ = run(capsys, "plan", "3x5", "--planner", "tpoa:k=20,d=2", "--time-limit", "1e-9", "--json")
    assert code == 0 and json.loads(out)["tree_from"].startswith("tpoa (the greedy tree")
    code, out, _ = run(capsys, "plan", "3x5", "--planner", "tpoa:k=20,d=2", "--time-limit", "1e-9")
    assert code == 0 and "tree from: tpoa (the greedy tree: no first guess was explored in time)" in " ".join(out.split())


def test_plan_does_not_refuse_a_deep_tpoa_that_runs_in_a_second(capsys):
    """'mmlab plan 3x4 --planner tpoa:k=2,d=1000000' was refused ("may take about 26 years ...:
    give --time-limit") and plans in under a second."""
    code, out, err = run(capsys, "plan", "3x4", "--planner", "tpoa:k=2,d=1000000", "--json")
    assert code == 0 and err == "" and json.loads(out)["total_guesses"] == 206
