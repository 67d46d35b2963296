"""The command line as a user meets it: tables, JSON, one-line errors with a non-zero exit."""

import io
import json
import subprocess
import sys

import pytest

from mmlab.cli.main import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_eval_json_has_the_documented_keys(capsys):
    """Figures: Knuth 1976 (L = 5801, worst 5, and his histogram)."""
    code, out, _ = run(capsys, "eval", "4x6", "--strategy", "knuth", "--json")
    data = json.loads(out)
    assert code == 0
    assert {"game", "strategy", "games", "total_guesses", "mean", "max", "histogram", "seconds",
            "seconds_per_game"} <= set(data)
    assert data["seconds_per_game"] is None  # (read off the decision tree: no game is timed)
    assert (data["game"], data["total_guesses"], data["max"]) == ("4x6", 5801, 5)
    assert data["histogram"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}


def test_eval_table_and_random_runs(capsys):
    code, out, _ = run(capsys, "eval", "3x4", "--strategy", "random", "--runs", "2", "--seed", "5")
    assert code == 0 and "simulated" in out and "seed 5" in out and "s/game" in out
    code, out, _ = run(capsys, "eval", "3x4", "--strategy", "random", "--runs", "2", "--seed", "5", "--json")
    data = json.loads(out)
    assert 0 < data["seconds_per_game"] and data["seconds_per_game"] * data["games"] <= data["seconds"]


def test_partition_prints_table_1_row_0012(capsys):
    """000 Table 1, row 0012 (colours from 0 there): our 1123."""
    code, out, _ = run(capsys, "partition", "4x6", "1123", "--json")
    data = json.loads(out)
    assert list(data["classes"].values()) == [1, 20, 5, 40, 105, 4, 84, 230, 182, 2, 44, 222, 276, 81]
    assert data["parts"] == 14
    code, out, _ = run(capsys, "partition", "4x6", "1123")
    assert "276" in out and "│ 3,0 " in out


def test_partition_after_earlier_answers(capsys):
    code, out, _ = run(capsys, "partition", "4x6", "1344", "--after", "1122:1,1", "--json")
    data = json.loads(out)
    assert data["candidates"] == 208 and sum(data["classes"].values()) == 208
    assert data["after"] == [{"guess": "1122", "black": 1, "white": 1}] and data["feedback"] == "black-white"


def test_partition_after_reads_full_width_typing_as_codes_and_answers_are_read(capsys):
    """An input method types '１１２２：１，１'; the colon, unlike the code and the answer, was refused."""
    typed = run(capsys, "partition", "4x6", "1344", "--after", "１１２２：１，１", "--json")
    assert typed == run(capsys, "partition", "4x6", "1344", "--after", "1122:1,1", "--json")


def test_a_number_of_secrets_reads_full_width_and_other_scripts_digits_as_codes_are_read(capsys):
    """--secrets １０ was refused ("expected 'all', N or sample:N") while --seed １ and codes were read."""
    wanted = json.loads(run(capsys, "eval", "3x4", "--strategy", "random", "--secrets", "10", "--seed", "1",
                            "--json")[1])
    for typed in ("１０", "sample:１０", "١٠"):
        code, out, err = run(capsys, "eval", "3x4", "--strategy", "random", "--secrets", typed, "--seed", "1",
                             "--json")
        assert (code, err) == (0, "")
        assert {**json.loads(out), "seconds": 0, "seconds_per_game": 0} == {**wanted, "seconds": 0,
                                                                            "seconds_per_game": 0}


def test_compare_prints_every_exhaustive_strategy_with_literature(capsys, tmp_path):
    """Figures: Knuth 1976 (5801), Kooi 2005 (most parts 5668); the games go to the store."""
    store = str(tmp_path / "r.duckdb")
    code, out, _ = run(capsys, "compare", "4x6", "--json", "--store", store)
    data = json.loads(out)
    rows = {r["strategy"]: r for r in data["strategies"]}
    assert rows["knuth"]["total_guesses"] == 5801 and "Knuth 1976" in rows["knuth"]["literature"]
    assert rows["most-parts"]["total_guesses"] == 5668
    assert {"irving", "entropy", "plus", "plus2", "norvig", "random"} <= set(rows)
    assert rows["knuth"]["exact"] and not rows["random"]["exact"] and rows["knuth"]["first"] == "1122"
    code, out, _ = run(capsys, "report", data["study"], "--store", store, "--json")
    assert json.loads(out)["games_stored"] == 8 * 1296


def test_compare_prints_singley_appendix_beside_his_methods(capsys, tmp_path):
    """003 appendix at 3x8: Greedy 1 13.591797 (played to the win, as ours), Greedy 2 11.357422
    (counted until the code was known, which the literature column says); none for a sample."""
    store = str(tmp_path / "r.duckdb")
    args = ["compare", "3x8", "--strategies", "greedy1,greedy2,greedy3:lost_bull=use", "--store", store]
    rows = {r["strategy"]: r for r in json.loads(run(capsys, *args, "--json")[1])["strategies"]}
    assert round(rows["greedy1"]["mean"], 6) == 13.591797
    assert "mean 13.5918, worst 24 (Singley" in rows["greedy1"]["literature"]
    assert "mean 11.3574, worst 19" in rows["greedy2"]["literature"]
    assert "until the code was known" in rows["greedy2"]["literature"]
    assert rows["greedy3:lost_bull=use"]["literature"] is None  # the thesis's Greedy 3 is the default one
    sample = json.loads(run(capsys, *args, "--secrets", "50", "--json")[1])["strategies"]
    assert all(r["literature"] is None for r in sample)
    # the published figures are of the game with repeats and white pegs (greedy1 needs repeats: knuth at 4x6)
    for size, strategy, rules in (("3x8", "greedy1", "--black-only"), ("4x6", "knuth", "--no-repeats")):
        other = json.loads(run(capsys, "compare", size, "--strategies", strategy, "--store", store, rules,
                               "--json")[1])["strategies"]
        assert [r["literature"] for r in other] == [None], rules


def test_compare_gives_l_per_run_for_random_strategies(capsys, tmp_path):
    """Knuth plays each secret once, random three times: L is one pass over the secrets for both."""
    store = str(tmp_path / "r.duckdb")
    args = ["compare", "3x3", "--strategies", "knuth,random", "--runs", "3", "--store", store]
    rows = {r["strategy"]: r for r in json.loads(run(capsys, *args, "--json")[1])["strategies"]}
    assert (rows["knuth"]["runs"], rows["knuth"]["games"], rows["knuth"]["total_guesses"]) == (1, 27, 74)
    assert (rows["random"]["runs"], rows["random"]["games"]) == (3, 81)
    out = run(capsys, *args)[1]
    assert f" {rows['random']['total_guesses'] / 3:.1f} │" in out and " 74 │" in out
    assert "L per run" in out and "tie rule" not in out
    assert "seconds: spent playing the games" in out  # the column was headed 'game s', read as a typo


@pytest.mark.parametrize("fmt, marker", [("knuth", "1296(1122:"), ("dot", "digraph"), ("python", "def master_mind"),
                                         ("json", '"mmlab-tree"')])
def test_tree_formats(capsys, fmt, marker):
    code, out, _ = run(capsys, "tree", "4x6", "--strategy", "knuth", "--format", fmt)
    assert code == 0 and marker in out


@pytest.mark.parametrize("name, marker", [("t.dot", "digraph"), ("t.gv", "digraph"), ("t.py", "def master_mind"),
                                          ("t.txt", "64(123:"), ("t.json", '"mmlab-tree"'), ("t", '"mmlab-tree"')])
def test_tree_format_follows_the_file_extension(capsys, tmp_path, name, marker):
    code, _, err = run(capsys, "tree", "3x4", "-o", str(tmp_path / name))
    assert code == 0 and marker in (tmp_path / name).read_text() and f"{name} (" in " ".join(err.split())
    assert run(capsys, "tree", "3x4", "-o", str(tmp_path / "x.dot"), "--format", "json")[0] == 0
    assert '"mmlab-tree"' in (tmp_path / "x.dot").read_text()  # --format, when given, wins


def test_tree_saved_then_evaluated(capsys, tmp_path):
    path = tmp_path / "mp.json"
    assert run(capsys, "tree", "4x6", "--strategy", "most-parts", "-o", str(path))[0] == 0
    code, out, _ = run(capsys, "eval", "--tree", str(path), "--json")
    assert json.loads(out)["total_guesses"] == 5668
    assert json.loads(out)["evaluations_mean"] is None  # (a tree from a file counts no evaluations)


def test_score_and_strategies(capsys):
    assert run(capsys, "score", "3632", "1122")[1].strip() == "1,0"
    code, out, _ = run(capsys, "strategies", "--json")
    names = {s["name"] for s in json.loads(out)}
    assert {"knuth", "irving", "most-parts", "entropy", "plus", "plus2", "norvig", "random"} <= names


@pytest.mark.parametrize(
    "args, message",
    [
        (["eval", "4x6", "--strategy", "knuht"], "unknown strategy 'knuht'"),
        (["eval", "4x6", "--strategy", "knuth:depth=2"], "knuth has no parameter 'depth'"),
        (["eval", "4x6", "--strategy", "knuth:first=1127"], "'7' is not a colour of the 4x6 game"),
        (["eval", "0x6"], "pegs must be a whole number from 1 to 10"),
        (["eval", "4x6", "--codemaker", "fixed:9999"], "--codemaker fixed:9999: code '9999': '9' is not a colour of"),
        (["eval", "4x6", "--jobs", "0"], "argument --jobs: must be 1 or more, got 0"),
        (["eval", "8x12", "--strategy", "knuth"], "knuth needs every code"),
        (["partition", "4x6", "112"], "has 3 pegs, the 4x6 game needs 4"),
        (["partition", "4x6", "1123", "--after", "1122:3,1"], "cannot occur"),
        (["partition", "4x6", "1123", "--after", "1122:2"], "give both, e.g. '2 0'"),
        (["eval", "--tree", "/nonexistent/tree.json"], "tree.json"),
        (["eval", "4x6", "--secrets", "many"], "expected 'all', N or sample:N (a random sample of N secrets)"),
        (["eval", "4x6", "--secrets", "instance:700"], "instance sets are for 'mmlab compare' and study files"),
        (["eval", "3x3", "--strategy", "random", "--runs", "0"], "a count must be 1 or more"),
        (["compare", "3x3", "--runs", "-2"], "a count must be 1 or more"),
        (["eval", "3x3", "--strategy", "random", "--seed", "-1"], "a seed must be 0 or more"),
        (["eval", "3x3", "--secrets", "0"], "expected a number of secrets from 1 to 10,000,000"),
        (["eval", "3x3", "--secrets", "1" + "0" * 20], "expected a number of secrets from 1 to 10,000,000"),
        (["eval", "3x3", "--secrets", "\u00b2"], "expected 'all', N or sample:N"),
        (["compare", "3x3", "--secrets", "\u00b2"], "--secrets '\u00b2': expected 'all', N or sample:N (a sample of N "
                                                   "secrets), or instance:N"),
        (["compare", "3x3", "--secrets", "123,132"], "--secrets '123,132': expected 'all', N"),  # no list of codes
        (["compare", "3x3", "--strategies", "knuth,knuth"], "--strategies: a strategy is listed twice: knuth"),
        (["compare", "3x3", "--strategies", "random,knuth,knuth:ties=first"],
         "--strategies: a strategy is listed twice: 'knuth' and 'knuth:ties=first' are both knuth"),
        (["compare", "3x3", "--strategies", "knuth:first=12"], "--strategies: knuth:first=12 cannot play 3x3"),
        (["compare", "3x3", "--strategy", "knuth"], "unrecognized arguments: --strategy knuth; did you mean "
                                                   "--strategies?"),
        (["tree", "3x3", "--json"], "unrecognized arguments: --json; did you mean --format json?"),
        (["score", "4x6", "1122"], "4x6 reads as a game size, not a code"),
        (["compare", "3x3", "--secrets", "1" + "0" * 20], "must be at most 10,000,000, got 1000"),
        (["eval", "-1x6"], "size -1x6: pegs must be a whole number"),
        (["compare", "-1x6"], "mmlab compare: error: size -1x6: pegs must be"),  # not 'SIZE is required'
        (["mm2", "play", "-1X6"], "mmlab mm2 play: error: size -1X6: pegs must be"),
        (["compare", "3x3", "--jobs", "2", "--scheduler", "tcp://x:1"], "--scheduler: not allowed with argument --jobs"),
        (["eval", "4x6", "--runs", "x"], "expected a whole number"),
        (["tree", "3x3", "-o", "/nonexistent/dir/t.json"], "cannot write /nonexistent/dir/t.json"),
        (["plan", "4x6", "--planner", "optimal", "-o", "/nonexistent/dir/t.json"],  # before minutes of planning
         "cannot write /nonexistent/dir/t.json: no such folder"),
        (["plan", "3x3", "--planner", "optimal", "-o", ""], "give a file to write"),
        (["score", "10 11 12", "1 2"], "the secret has 3 pegs and the guess 2"),
        (["score", "1\u00b234", "1234"], "is not a colour"),
        (["score", " ", ""], "the secret and the guess are empty: give both as codes"),  # (was: 'pegs ... got 0')
        (["score", "", "1122"], "the secret is empty: give both as codes, e.g. mmlab score 3632 1122"),
        (["partition", "4x6", "1123", "--after", "1122:"], "cannot read the answer"),
        (["eval", "4x6", "--tree", "x.json"], "--tree brings its own game"),
        (["nonsense"], "invalid choice"),
        (["eval", "4x6", "--strategy", ""], "unknown strategy ''"),
        (["partition", "8x12", "11223344"], "partition (it counts the answer classes over every code) needs every"),
        (["tree", "8x12", "--strategy", "greedy1"], "compiling greedy1 into a decision tree needs every code"),
        (["tree", "3x4", "--strategy", "entropy:ties=random"], "no single decision tree; use ties=first"),
        (["plan", "4x5", "--planner", "optimal:max_depth=3", "--time-limit", "0.1"],
         "no strategy for 4x5 finds every secret within 3 guesses"),
        (["plan", "4x6", "--planner", "optimal:max_depth=4", "--time-limit", "0.3"],  # proved, or stopped
         "no strategy for 4x6 finds every secret within 4 guesses"),                   # once it is proved
        (["plan", "3x3", "--planner", "optimal:max_depth=99999999999999999999999"], "it must be at most 1000"),
        (["mm2", "reproduce", "--sizes", "4x6", "--games", "99999999999999999999"], "argument --games: must be at most"),
        (["mm2", "play", "4x6", "--no-repeats"],  # blamed on the command that was given it
         "mmlab mm2 play: error: unrecognized arguments: --no-repeats (see mmlab mm2 play --help)"),
        (["score", "3632", "1122", "--strategy", "knuth"], "mmlab score: error: unrecognized arguments: --strategy"),
        (["score", "12A", "121", "--size", "3x10"], "mixes digits and letters"),  # A is colour 1, not 10
        (["mm2", "reproduce", "--full", "--games", "5"], "give --games or --full, not both"),
        (["reproduce", "singley", "--quick"], "--quick is not an option of 'reproduce singley', which takes --methods"),
        (["reproduce", "tpoa", "--games", "3", "--sizes", "4x6"],
         "--games, --sizes are not options of 'reproduce tpoa'"),
    ],
)
def test_bad_input_is_one_clear_line(capsys, args, message):
    try:
        code, out, err = run(capsys, *args)
    except SystemExit as exit:  # argparse's own errors
        code, captured = exit.code, capsys.readouterr()
        err = captured.err
    assert code != 0
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_random_strategy_is_not_told_to_use_the_ties_it_has(capsys):
    code, _, err = run(capsys, "tree", "3x4", "--strategy", "sample:ties=first")
    assert code != 0 and "draws at random, so it has no single decision tree" in err and "use ties" not in err


def test_a_sample_of_secrets_is_not_exact_even_through_the_tree(capsys):
    code, out, _ = run(capsys, "eval", "4x6", "--strategy", "knuth", "--secrets", "10", "--seed", "3")
    assert code == 0 and "(decision tree)" in out and "exact" not in out
    assert " ± " in out and "secrets sample of 10, runs 1, seed 3" in out
    data = json.loads(run(capsys, "eval", "4x6", "--strategy", "knuth", "--secrets", "10", "--seed", "3", "--json")[1])
    assert data["exact"] is False and data["seed"] == 3 and data["games"] == 10
    assert json.loads(run(capsys, "eval", "3x4", "--strategy", "knuth", "--json")[1])["exact"] is True
    every = json.loads(run(capsys, "eval", "3x4", "--strategy", "knuth", "--secrets", "64", "--json")[1])
    assert (every["secrets"], every["seed"]) == ("all", None)  # a sample of every code: no seed drew it
    data = json.loads(run(capsys, "eval", "3x4", "--strategy", "random", "--secrets", "64", "--json")[1])
    assert data["secrets"] == "all" and data["seed"] is not None  # the games' draws need it


def test_strategies_explains_the_parameters_of_one(capsys):
    code, out, _ = run(capsys, "strategies", "sample", "--json")
    entry, = json.loads(out)
    assert code == 0 and entry["name"] == "sample" and all(p["help"] for p in entry["params"])
    code, out, _ = run(capsys, "strategies", "tpoa")
    assert code == 0 and "tpoa (planner)" in out and "branching factor" in " ".join(out.split())
    code, _, err = run(capsys, "strategies", "knuht")
    assert code == 2 and "no strategy or planner is called 'knuht'" in err
    code, out, _ = run(capsys, "strategies", "propagate")  # the 2-D strategies of 'mmlab mm2' too
    assert code == 0 and "propagate (mm2 strategy)" in out and "whole, 1-10000" in out  # a number's range
    code, out, _ = run(capsys, "strategies", "propagate", "--json")
    assert json.loads(out)[0]["params"][0] | {"help": ""} == {
        "name": "samples", "default": 12, "choices": None, "help": "", "effort": False, "minimum": 1,
        "maximum": 10000, "allowed": "whole, 1-10000"}
    code, out, _ = run(capsys, "strategies")
    assert "2-D strategies (mmlab mm2 play --strategy)" in " ".join(out.split())
    code, out, _ = run(capsys, "strategies", "tabu", "--json")  # 1-D and 2-D: both
    assert [e["kind"] for e in json.loads(out)] == ["strategy", "mm2 strategy"]


def test_tree_prints_a_saved_tree_in_another_format(capsys, tmp_path):
    path = str(tmp_path / "t.json")
    assert run(capsys, "tree", "3x3", "-o", path)[0] == 0
    code, out, _ = run(capsys, "tree", "--tree", path, "--format", "knuth")
    assert code == 0 and out == run(capsys, "tree", "3x3", "--format", "knuth")[1] and out.startswith("27(112:")
    code, _, err = run(capsys, "tree", "3x3", "--tree", path)
    assert code == 2 and "--tree brings its own game and strategy" in err
    code, _, err = run(capsys, "tree")
    assert code == 2 and "give a size" in err


def test_a_tree_piped_in_with_tree_dash(capsys, monkeypatch):
    """``mmlab tree 4x6 --strategy most-parts | mmlab eval --tree -``, and its refusals."""
    code, text, _ = run(capsys, "tree", "4x6", "--strategy", "most-parts")
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code, out, _ = run(capsys, "eval", "--tree", "-", "--json")
    assert code == 0 and json.loads(out)["total_guesses"] == 5668
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code, out, _ = run(capsys, "tree", "--tree", "-", "--format", "knuth")
    assert code == 0 and out.startswith("1296(1123:")
    for given, message in [("", "standard input is empty"), ("{", "standard input: not valid JSON")]:
        monkeypatch.setattr("sys.stdin", io.StringIO(given))
        code, _, err = run(capsys, "eval", "--tree", "-")
        assert code == 2 and message in err
    code, _, err = run(capsys, "play", "--role", "codemaker", "--tree", "-")
    assert code == 2 and "play reads your answers from standard input" in " ".join(err.split())


def test_eval_says_a_deterministic_strategy_plays_one_run(capsys):
    code, out, err = run(capsys, "eval", "3x4", "--strategy", "knuth", "--runs", "3", "--json")
    assert code == 0 and json.loads(out)["runs"] == 1 and "(--runs 3 read as 1)" in " ".join(err.split())
    code, out, err = run(capsys, "eval", "3x4", "--strategy", "random", "--runs", "3", "--json")
    assert code == 0 and json.loads(out)["runs"] == 3 and "deterministic" not in err


def test_eval_says_a_sample_larger_than_the_game_plays_every_secret(capsys):
    code, out, err = run(capsys, "eval", "3x4", "--strategy", "random", "--secrets", "100", "--json")
    assert code == 0 and json.loads(out)["games"] == 64 and "3x4 has only 64 codes, so every secret" in err
    assert "only" not in run(capsys, "eval", "3x4", "--strategy", "random", "--secrets", "64")[2]


def test_games_against_a_codemaker(capsys):
    """Knuth against the adversary of dynamic Mastermind needs his worst case, 5 guesses (Knuth 1976)."""
    code, out, err = run(capsys, "eval", "4x6", "--codemaker", "adversary", "--json", "--runs", "3")
    data = json.loads(out)
    assert data["guesses"] == [5] and len(data["games"][0]) == len(data["answers"][0]) == 5
    assert data["seed"] is None and "(--runs 3 read as 1)" in err  # a deterministic game, said so
    assert data["answers"][0][-1] == [4, 0] and data["games"][0][0] == "1122"
    code, out, _ = run(capsys, "eval", "3x4", "--strategy", "random", "--codemaker", "adversary", "--runs", "12",
                       "--seed", "1")
    assert code == 0 and "... and 2 more (--json lists every game)" in out and "over 12 games" in out
    assert run(capsys, "eval", "3x4", "--codemaker", "fixed:123")[1].startswith("1 guess: 123 3,0\n")


def test_score_takes_the_size_from_the_codes(capsys):
    assert run(capsys, "score", "10 11 12", "12 10 1")[1].strip() == "0,2"
    assert run(capsys, "score", "1234", "4321", "--black-only")[1].strip() == "0"  # black pegs only
    assert run(capsys, "score", "36 1 2", "2 1 36")[1] == "1,2\n"  # any colour up to 36 (--size's help)
    code, _, err = run(capsys, "score", "37 1 2", "2 1 36")
    assert code == 2 and "'37' is not a colour (expected 1-36" in err
    for args in (["4x6", "1122"], ["4x6", "3632", "1122"]):  # a size first, as partition takes it
        code, _, err = run(capsys, "score", *args)
        assert code == 2 and "4x6 reads as a game size, not a code: give the size with --size" in err, err


def test_plan_refuses_a_plan_of_months_and_says_what_to_do(capsys):
    code, _, err = run(capsys, "plan", "8x8")
    assert code == 2 and "tpoa on 8x8 would take about 582 days" in err and "plan a smaller game" in err
    code, _, err = run(capsys, "plan", "4x6", "--planner", "tpoa:k=100000,d=10")
    assert code == 2 and "years on this machine" in err and "give --time-limit SECONDS" in err
    # ... which it then takes: the best tree found by then (its greedy one; the plan would take years)
    code, out, _ = run(capsys, "plan", "4x6", "--planner", "tpoa:k=100000,d=10", "--time-limit", "0.2", "--json")
    assert code == 0 and json.loads(out)["stopped_by_time_limit"] is True


def test_output_into_a_closed_pipe_is_quiet():
    done = subprocess.run(f"{sys.executable} -m mmlab.cli.main tree 4x6 --format knuth | head -1",
                          shell=True, capture_output=True, text=True)
    assert done.stdout.startswith("1296(1122:") and "Traceback" not in done.stderr


def test_python_dash_m_mmlab_is_the_command_line():
    done = subprocess.run([sys.executable, "-m", "mmlab", "score", "1234", "1243"], capture_output=True, text=True)
    assert (done.returncode, done.stdout.strip()) == (0, "2,2")
    done = subprocess.run([sys.executable, "-m", "mmlab", "score", "1234"], capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_console_script_exits_non_zero_without_traceback():
    done = subprocess.run([sys.executable, "-m", "mmlab", "eval", "4x6", "--strategy", "nope"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "unknown strategy" in done.stderr and "Traceback" not in done.stderr


def test_reproduce_singley_names_the_games_of_each_size(capsys):
    """The tabu tables count their games per size: 3x8 has only 512 codes, so every one is played."""
    code, out, _ = run(capsys, "reproduce", "singley", "--methods", "tabu", "--tabu-games", "600")
    assert code == 0 and out.count("games, mmlab") == 2
    row = [line for line in out.splitlines() if "games, mmlab" in line][1]
    assert [cell.strip() for cell in row.split("│")[2:-1]] == ["512", "600", "600", "600"]
    code, out, _ = run(capsys, "reproduce", "singley", "--methods", "greedy1", "--seed", "7", "--json")
    assert code == 0 and {row["seed"] for row in json.loads(out)} == {7}


def test_reproduce_singley_json_has_the_thesis_times_the_table_shows(capsys):
    """The tabu tables print the thesis's milliseconds a game (003 Table 6-1); the JSON lacked them."""
    code, out, _ = run(capsys, "reproduce", "singley", "--methods", "tabu,greedy1", "--tabu-games", "3", "--json")
    rows = {(r["method"], r["size"]): r for r in json.loads(out)}
    assert code == 0 and rows[("tabu", "4x6")]["thesis"]["ms"] == 2.266
    assert rows[("tabu", "7x8")]["thesis"]["ms"] == 4382.85 and "ms" not in rows[("greedy1", "4x6")]["thesis"]


def test_reproduce_one_game_has_no_standard_error(capsys):
    """After one game a size, reproduce singley and reproduce large printed '6.0000 ± 0.0000' and
    their JSON stderr 0.0; the mean is now shown alone and stderr is null, as in mm2 reproduce."""
    code, out, _ = run(capsys, "reproduce", "singley", "--methods", "tabu", "--tabu-games", "1")
    assert code == 0 and "± 0.0000" not in out and out.count("games, mmlab") == 2
    code, out, _ = run(capsys, "reproduce", "singley", "--methods", "tabu", "--tabu-games", "1", "--json")
    assert code == 0 and all(r["games"] == 1 and r["stderr"] is None for r in json.loads(out))
    large = ["reproduce", "large", "--sizes", "4x6", "--strategies", "evo", "--jobs", "1", "--games"]
    code, out, _ = run(capsys, *large, "1")
    assert code == 0 and "± 0.0000" not in out and "evo" in out
    assert json.loads(run(capsys, *large, "1", "--json")[1])[0]["stderr"] is None
    assert json.loads(run(capsys, *large, "3", "--json")[1])[0]["stderr"] is not None


def test_reproduce_singley_refuses_tabu_games_with_full(capsys, monkeypatch):
    """--full plays the thesis's numbers of secrets: a --tabu-games beside it was ignored (minutes of play)."""
    from mmlab.experiments import singley_tables

    played = []
    monkeypatch.setattr(singley_tables, "run_singley", lambda *a, **k: played.append(k) or iter(()))
    code, _, err = run(capsys, "reproduce", "singley", "--methods", "tabu", "--full", "--tabu-games", "5")
    assert code == 2 and played == []
    assert "give --tabu-games or --full, not both" in err and len(err.strip().splitlines()) == 1
    run(capsys, "reproduce", "singley", "--methods", "tabu", "--json")  # the default stays 2000 secrets a size
    assert played[-1]["tabu_games"] == 2000


def test_compare_stores_the_command_that_made_it(capsys, tmp_path):
    """The study's description is a command that recreates the same study (runs, seed and rules included)."""
    import shlex

    from mmlab.experiments.store import Store

    store = str(tmp_path / "r.duckdb")
    code, out, _ = run(capsys, "compare", "3x4", "--strategies", "knuth,random", "--secrets", "20", "--runs", "2",
                       "--seed", "7", "--no-repeats", "--json", "--store", store)
    assert code == 0
    studies = Store(store).studies()
    command = shlex.split(studies.iloc[0]["description"])
    assert command[:2] == ["mmlab", "compare"] and {"--runs", "--seed", "--no-repeats"} <= set(command)
    code, again, _ = run(capsys, *command[1:], "--json", "--store", store)
    assert code == 0 and json.loads(again)["study"] == json.loads(out)["study"] and len(Store(store).studies()) == 1


def test_eval_refuses_options_a_codemaker_would_ignore_and_runs_past_any_memory(capsys):
    code, _, err = run(capsys, "eval", "4x6", "--codemaker", "fixed:1122", "--secrets", "5")
    assert code == 2 and "give no --secrets or --jobs with it" in err
    code, _, err = run(capsys, "eval", "3x3", "--strategy", "random", "--runs", "1000000000000", "--seed", "1")
    assert code == 2 and "27,000,000,000,000 games, more than one evaluation plays" in err


@pytest.mark.parametrize("args", [["mm2", "reproduce", "--methods", "", "--sizes", "3x8"],
                                  ["reproduce", "large", "--sizes", ""],
                                  ["reproduce", "large", "--strategies", ",", "--sizes", "4x6"],
                                  ["reproduce", "large", "--plots", "", "--sizes", "4x6"]])
def test_an_empty_list_option_is_refused_not_read_as_the_defaults(capsys, args):
    code, _, err = run(capsys, *args)
    assert code == 2 and "is empty" in err


def test_whole_trees_of_large_games_warn_before_they_start(capsys):
    from mmlab.cli.engine import _warn_long_tree
    from mmlab.game import Game
    from mmlab.strategies import make_strategy

    _warn_long_tree(Game.parse_size("6x9"), make_strategy("knuth"), sample_hint=True)
    err = capsys.readouterr().err
    assert "warning: this compiles the whole decision tree of knuth over 531,441 codes" in err and "--secrets N" in err
    # Singley's methods too, when their trees are compiled (mmlab tree 6x9 --strategy greedy3 took
    # 1294 s without a word); not when eval plays them by their kernels.
    _warn_long_tree(Game.parse_size("6x9"), make_strategy("greedy3"), sample_hint=False)
    assert "the whole decision tree of greedy3 over 531,441 codes" in capsys.readouterr().err
    for game, spec in (("5x8", "knuth"), ("6x9", "entropy:ties=random"), ("8x12", "knuth")):
        _warn_long_tree(Game.parse_size(game), make_strategy(spec), sample_hint=True)
    _warn_long_tree(Game.parse_size("6x9"), make_strategy("greedy1"), sample_hint=True, by_kernels=True)
    assert capsys.readouterr().err == ""


def test_running_out_of_memory_is_one_line(capsys, monkeypatch):
    import numpy as np

    import mmlab.cli.score as cli

    def greedy(args):
        return np.zeros(2**62, dtype=np.uint8)  # numpy refuses it: "Unable to allocate 4.00 EiB ..."

    monkeypatch.setattr(cli, "cmd_score", greedy)
    code, _, err = run(capsys, "score", "1234", "4321")
    assert code == 2 and err.startswith("mmlab score: error: not enough memory (Unable to allocate")
    assert len(err.strip().splitlines()) == 1


def test_a_sample_of_a_large_game_played_by_an_exhaustive_strategy_warns(capsys, monkeypatch):
    from mmlab.cli import engine

    monkeypatch.setattr(engine, "SLOW_GAME_CODES", 50)  # (3x4's 64 codes stand for 6x8's 262,144)
    code, _, err = run(capsys, "eval", "3x4", "--strategy", "knuth", "--secrets", "5")
    assert code == 0 and "warning: knuth scores the codes against those left at every guess; on 64 codes" in err
    assert "a game can take seconds" in err  # (as at 5x8, whose 32,768 codes now warn; minutes past them)
    assert "warning" not in run(capsys, "eval", "3x4", "--strategy", "sample", "--secrets", "5")[2]
    assert "warning: most-parts:ties=random scores" in run(capsys, "eval", "3x4", "--strategy", "most-parts:ties=random")[2]
    monkeypatch.setattr(engine, "SLOW_SHC_CODES", 64)  # (3x4 stands for 10x10)
    err = run(capsys, "eval", "3x4", "--strategy", "shc", "--secrets", "5", "--seed", "1")[2]
    assert "warning: shc draws codes until one fits the answers, and late in a game of 64 codes few do" in err
    assert "warning" not in run(capsys, "eval", "3x3", "--strategy", "shc", "--secrets", "5", "--seed", "1")[2]


@pytest.mark.parametrize("args", [["strategies"], ["strategies", "--json"], ["tree", "3x3", "--format", "knuth"]])
def test_a_reader_that_stops_early_ends_the_command_quietly(args):
    """As 'mmlab strategies | head -1': the pipe is closed before mmlab writes."""
    import os

    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run([sys.executable, "-m", "mmlab", *args], stdout=writer, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (0, "")


def test_a_message_to_a_piped_stderr_stays_on_one_line(tmp_path):
    """Scripts read stderr line by line: rich would wrap it at 80 columns."""
    store = tmp_path / ("a-folder-whose-name-is-long-enough-to-pass-eighty-columns-" * 2) / "results.duckdb"
    store.parent.mkdir()
    done = subprocess.run([sys.executable, "-m", "mmlab", "compare", "3x3", "--strategies", "knuth", "--store",
                           str(store)], capture_output=True, text=True, timeout=120)
    played = [line for line in done.stderr.splitlines() if "played" in line]
    assert done.returncode == 0 and len(played) == 1 and played[0].endswith(str(store))


def test_eval_takes_a_sample_written_as_compare_writes_it(capsys):
    plain = json.loads(run(capsys, "eval", "3x4", "--strategy", "random", "--secrets", "10", "--seed", "2",
                           "--json")[1])
    written = json.loads(run(capsys, "eval", "3x4", "--strategy", "random", "--secrets", "sample:10", "--seed", "2",
                             "--json")[1])
    assert written["games"] == 10 and written["total_guesses"] == plain["total_guesses"]


def test_compare_makes_no_plot_folder_for_options_it_refuses(capsys, tmp_path):
    code, _, err = run(capsys, "compare", "3x3", "--strategies", "knut", "--plots", str(tmp_path / "figs"),
                       "--store", str(tmp_path / "r.duckdb"))
    assert code == 2 and "knut" in err and not (tmp_path / "figs").exists()


def test_a_tree_of_a_game_too_large_to_enumerate_suggests_no_strategy(capsys):
    """No strategy compiles to a tree there (the strategies that play 8x12 draw at random or need every code)."""
    for spec in ("knuth", "sample"):
        code, _, err = run(capsys, "tree", "8x12", "--strategy", spec)
        assert code == 2 and f"compiling {spec} into a decision tree needs every code" in err
        assert "Strategies that play without enumerating" not in err


#: Libraries that only some commands need: numpy (codes), rich (tables), numba (the engine's
#: kernels; importing it imports scipy), and DuckDB, pyarrow and pandas (the results store and its
#: reports). No command's help needs any.
LIBRARIES = ("numpy", "rich", "numba", "scipy", "duckdb", "pyarrow", "pandas")


def loaded_by(*args: str) -> list[str]:
    """Which of ``LIBRARIES`` ``mmlab ARGS`` imported, run in a fresh process (as the installed command)."""
    code = (f"import atexit, sys; atexit.register(lambda: print('loaded:', *[m for m in {LIBRARIES!r} if m in "
            "sys.modules])); from mmlab.cli.entry import run; run()")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.rpartition("loaded:")[2].split()


@pytest.mark.parametrize("args, loaded", [
    (["--help"], []),
    (["score", "1122", "1234"], ["numpy"]),
    (["score", "--help"], []),
    (["studies", "--help"], []),
    (["run", "--help"], []),
    (["report", "--help"], []),
    (["export", "--help"], []),
    (["forget", "--help"], []),
    (["eval", "--help"], []),
    (["tree", "--help"], []),
    (["plan", "--help"], []),
    (["partition", "--help"], []),
    (["compare", "--help"], []),
    (["reproduce", "--help"], []),
    (["strategies", "--help"], []),
    (["static", "--help"], []),
    (["static", "search", "--help"], []),
    (["serve", "--help"], ["numpy"]),
    (["mm2", "--help"], []),
    (["mm2", "reproduce", "--help"], []),
    (["strategies"], ["numpy", "rich", "numba", "scipy"]),
    (["tree", "2x2", "--format", "knuth"], ["numpy", "rich", "numba", "scipy"]),
    (["eval", "2x2"], ["numpy", "rich", "numba", "scipy"]),
])
def test_a_command_loads_only_what_it_needs(args, loaded):
    """Every command loaded them all (a second and more before doing anything; 'mmlab --help' 1.1 s)."""
    assert loaded_by(*args) == loaded


def test_listing_the_studies_of_a_store_loads_no_engine(tmp_path):
    """Reading a store needs DuckDB and pandas, not numba: 'mmlab studies' with a store loaded
    numba and scipy (through the study's strategies) for a second of its start-up."""
    from mmlab.experiments import Store, Study

    store = tmp_path / "r.duckdb"
    Store(store).register(Study("listed", ("3x3",), ("knuth",)))
    assert loaded_by("studies", "--store", str(store)) == ["numpy", "rich", "duckdb", "pyarrow", "pandas"]


def test_the_options_name_the_engine_s_figures_as_the_engine_does():
    """The options copy them, so that their help loads no numba."""
    from mmlab.cli import engine
    from mmlab.experiments import evaluation

    assert engine.PARALLEL_MIN_CODES == evaluation.PARALLEL_MIN_CODES


def test_the_options_of_mm2_name_its_sizes_and_strategies_as_the_engine_does():
    """The options copy them, so that their help loads no numba: a 2-D strategy added to
    mmlab.variants is named in cli/variants.py's STRATEGY_NAMES_2D too."""
    from mmlab.cli import variants as cli_variants
    from mmlab.experiments.two_d_tables import SIZES_2D
    from mmlab.variants import STRATEGIES_2D

    assert cli_variants.SIZES_2D == SIZES_2D and cli_variants.STRATEGY_NAMES_2D == tuple(STRATEGIES_2D)


def test_the_options_of_serve_default_to_the_server_s_limits():
    """The options copy them, so that their help loads no numba."""
    from mmlab.cli import serve
    from mmlab.web import games

    for name in ("DEFAULT_MAX_GAMES", "DEFAULT_MAX_CODES", "DEFAULT_IDLE_MINUTES"):
        assert getattr(serve, name) == getattr(games, name), name


def test_every_command_is_listed_and_gets_its_options_from_its_module():
    from mmlab.cli.commands import COMMANDS
    from mmlab.cli.main import _subcommands, build_parser

    parser = build_parser()
    commands = _subcommands(parser)[1]
    assert list(commands) == list(COMMANDS)
    for name, command in commands.items():
        assert command.format_usage().startswith(f"usage: mmlab {name} ")
        assert command.options is None and command.get_default("func") is not None, name


def test_every_command_prints_its_help(capsys):
    """'mmlab mm2 reproduce --help' printed a traceback (argparse read the '%' of '85% of it')."""
    from mmlab.cli.main import _subcommands, build_parser

    def helps(parser, words):
        yield words
        for name, command in _subcommands(parser)[1].items():
            yield from helps(command, [*words, name])

    printed = {}
    for words in helps(build_parser(), []):
        with pytest.raises(SystemExit) as done:
            main([*words, "--help"])
        printed[" ".join(words)] = out = capsys.readouterr().out
        assert done.value.code == 0 and out.startswith(f"usage: {' '.join(['mmlab', *words])} "), words
    assert "85% of it at 7x8" in " ".join(printed["mm2 reproduce"].split())


# ----------------------------------------------------------------- wording of options and answers
@pytest.mark.parametrize("size, message", [
    ("1.5", "argument --size: must be a whole number, got '1.5'"),  # (was 'must be a number')
    ("0", "argument --size: must be 1 or more, got 0"),  # (was 'must be more than 0 and finite')
])
def test_a_whole_number_option_says_a_whole_number(capsys, size, message):
    with pytest.raises(SystemExit) as done:  # (argparse's own error)
        main(["static", "search", "4x6", "--size", size])
    assert done.value.code == 2 and message in capsys.readouterr().err


def test_black_only_static_collisions_give_black_pegs_only(capsys):
    """The answers the two secrets share read '1122 -> 0,0' (black,white) in a black-only game."""
    code, out, _ = run(capsys, "static", "verify", "4x6", "1122", "3344", "--black-only")
    assert code == 1 and "2211 and 2213 get the same answers: 1122 -> 0; 3344 -> 0\n" in out
    code, out, _ = run(capsys, "static", "verify", "4x6", "1122", "3344")
    assert code == 1 and "3455 and 3456 get the same answers: 1122 -> 0,0; 3344 -> 1,1\n" in out


@pytest.mark.parametrize("args, message", [
    (["3632", "1123", "--no-repeats"], "code '3632' repeats a colour, and --no-repeats allows none"),  # (was 'this 4x36 game')
    (["0123", "1234"], "code '0123': '0' is not a colour (expected 1-36 or A-Z)"),
    (["1233", "4321", "--no-repeats", "--size", "4x6"], "code '1233' repeats a colour, and this 4x6 game allows no"),
    (["1.1.2.2", "1122"], "code '1.1.2.2': '.' is not a colour (expected 1-36 or A-Z)"),  # (was: 7 pegs and 4)
    (["1122", "1.1.2.2"], "code '1.1.2.2': '.' is not a colour (expected 1-36 or A-Z)"),
    (["112", "1122"], "the secret has 3 pegs and the guess 4: they must match"),
])
def test_score_names_no_game_size_it_made_up(capsys, args, message):
    code, _, err = run(capsys, "score", *args)
    assert code == 2 and message in err and "4x36" not in err


def test_score_without_a_size_still_reads_games_without_repeats(capsys):
    assert run(capsys, "score", "1234", "4321", "--no-repeats")[1] == "0,4\n"
    assert run(capsys, "score", "10 11 12", "12 10 1", "--no-repeats", "--black-only")[1] == "0\n"


def test_strategies_shows_no_maximum_of_the_kernels_own(capsys):
    """The 2-D tabu's steps read 'whole, 0-4611686018427387904' (2**62, the kernels' int64 limit)."""
    code, out, _ = run(capsys, "strategies", "tabu", "--json")
    (steps,) = [p for e in json.loads(out) for p in e["params"] if p["name"] == "steps"]
    assert code == 0 and steps["allowed"] == "whole, ≥ 0"


def test_strategies_says_a_strategy_takes_no_parameters_and_what_randoms_first_is(capsys):
    """greedy1 printed an empty table; random's first claimed 'the strategy's own best first guess',
    but without one random draws its first code uniformly."""
    code, out, _ = run(capsys, "strategies", "greedy1")
    assert code == 0 and "greedy1 takes no parameters." in out and "meaning" not in out  # no table
    code, out, _ = run(capsys, "strategies", "random", "--json")
    ((first,),) = [e["params"] for e in json.loads(out)]
    assert first["help"] == "fixed first guess, e.g. 1123; empty = a code drawn uniformly at random"


def test_eval_of_a_huge_game_without_secrets_says_to_give_a_sample(capsys):
    """'eval 8x12 --strategy tabu' said only that playing every secret needs every code."""
    code, _, err = run(capsys, "eval", "8x12", "--strategy", "tabu")
    assert code == 2 and "--secrets all (the default) plays every secret, and 8x12 has 4.3e+08 codes: give " \
                         "--secrets N to play a sample of N secrets" in err
    code, _, err = run(capsys, "eval", "8x12", "--strategy", "knuth")  # the strategy cannot play it at all
    assert code == 2 and "knuth needs every code of the game" in err


def test_a_codemaker_game_takes_jobs_1(capsys):
    """--jobs 1 says what such a game does anyway; it was refused with --jobs 2."""
    code, out, _ = run(capsys, "eval", "4x6", "--strategy", "knuth", "--codemaker", "fixed:3632", "--jobs", "1",
                       "--json")
    assert code == 0 and json.loads(out)["guesses"] == [5]
    code, _, err = run(capsys, "eval", "4x6", "--strategy", "knuth", "--codemaker", "fixed:3632", "--jobs", "2")
    assert code == 2 and "give no --secrets or --jobs with it" in err


def test_a_tree_label_in_brackets_is_printed_as_written(capsys, tmp_path):
    """A saved tree labelled '[/bold] x' ended eval --tree and tree --tree in a traceback (rich read
    it as markup), and '[bold red]knuth' was shown as 'tree:knuth'."""
    saved = tmp_path / "t.json"
    assert run(capsys, "tree", "3x4", "--strategy", "knuth", "-o", str(saved))[0] == 0
    for label in ("[/bold] x", "[bold red]knuth"):
        tree = json.loads(saved.read_text()) | {"strategy": label}
        (tmp_path / "m.json").write_text(json.dumps(tree))
        code, out, _ = run(capsys, "eval", "--tree", str(tmp_path / "m.json"))
        assert code == 0 and f"tree:{label} (exact, decision tree)" in out
        code, out, _ = run(capsys, "eval", "--tree", str(tmp_path / "m.json"), "--codemaker", "fixed:123")
        assert code == 0 and f"tree:{label} against fixed:123" in out
        code, _, err = run(capsys, "tree", "--tree", str(tmp_path / "m.json"), "-o", str(tmp_path / "x.txt"))
        assert code == 0 and f"3x4 {label}, L=216" in err


def test_plan_and_games_against_a_codemaker_give_the_rules_in_json(capsys):
    """As eval --json does: plan --json and eval --codemaker --json gave the size only."""
    code, out, _ = run(capsys, "plan", "3x4", "--no-repeats", "--planner", "optimal", "--json")
    data = json.loads(out)
    assert code == 0 and (data["game"], data["repeats"], data["feedback"]) == ("3x4", False, "black-white")
    code, out, _ = run(capsys, "eval", "4x6", "--codemaker", "adversary", "--black-only", "--json")
    data = json.loads(out)
    assert code == 0 and (data["game"], data["repeats"], data["feedback"]) == ("4x6", True, "black")
    assert len(data["games"][0]) == len(data["answers"][0])  # (each guess's answer, by the same index)
    evaluated = json.loads(run(capsys, "eval", "4x6", "--black-only", "--json")[1])
    assert {k: evaluated[k] for k in ("game", "repeats", "feedback")} == {k: data[k] for k in ("game", "repeats", "feedback")}


# ---- outputs, exact figures and messages as the options say them (review of tree/plan/eval/compare) ----


def test_tree_dash_o_writes_standard_output(capsys, tmp_path, monkeypatch):
    """'tree 3x3 -o -' wrote a file named '-' ("wrote - (json)"), while --tree - reads standard input."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "tree", "3x3", "-o", "-")
    assert code == 0 and json.loads(out)["format"] == "mmlab-tree" and "wrote" not in err
    assert not (tmp_path / "-").exists()
    assert run(capsys, "tree", "3x3", "-o", "-", "--format", "knuth")[1].startswith("27(112:")


def test_plan_refuses_dash_o_since_its_table_is_on_standard_output(capsys, tmp_path, monkeypatch):
    """'plan 3x3 -o -' wrote a file '-' and said 'play it: mmlab eval --tree -', which reads standard input."""
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "plan", "3x3", "-o", "-")
    assert code == 2 and "standard output" in err and "-o tree.json" in err
    assert not (tmp_path / "-").exists()


def test_plan_o_writes_the_format_of_the_extension_as_tree_o(capsys, tmp_path):
    """'plan 3x3 -o x.dot' wrote JSON into x.dot; tree -o picks the format by the extension."""
    code, out, _ = run(capsys, "plan", "3x3", "-o", str(tmp_path / "x.dot"))
    assert code == 0 and (tmp_path / "x.dot").read_text().startswith("digraph")
    assert "only a JSON tree plays back" in out and "eval --tree" in out
    code, out, _ = run(capsys, "plan", "3x3", "-o", str(tmp_path / "x.json"))
    assert code == 0 and "evaluate it: mmlab eval --tree" in out and "only a JSON" not in out
    assert "play against it: mmlab play --role codemaker --tree" in out  # 'play it' named eval, not play
    assert run(capsys, "eval", "--tree", str(tmp_path / "x.json"), "--json")[0] == 0


def test_compare_json_gives_exact_strategies_no_standard_error(capsys, tmp_path):
    """As eval --json: compare 4x6 --json gave knuth "exact": true, "stderr": 0.01717."""
    store = str(tmp_path / "s.duckdb")
    code, out, _ = run(capsys, "compare", "3x4", "--strategies", "knuth,random", "--store", store, "--json")
    rows = {r["strategy"]: r for r in json.loads(out)["strategies"]}
    assert code == 0 and rows["knuth"]["exact"] and rows["knuth"]["stderr"] == 0.0
    assert not rows["random"]["exact"] and rows["random"]["stderr"] > 0
    evaluated = json.loads(run(capsys, "eval", "3x4", "--strategy", "knuth", "--json")[1])
    assert (evaluated["stderr"], evaluated["total_guesses"]) == (0.0, rows["knuth"]["total_guesses"])


def test_compare_says_which_default_cannot_play(capsys, tmp_path):
    """'compare 8x12' blamed --secrets and 'compare 8x12 --secrets 100' --strategies, neither given."""
    store = str(tmp_path / "s.duckdb")
    code, _, err = run(capsys, "compare", "8x12", "--store", store)
    assert code == 2 and "error: the default --secrets all: playing every secret needs" in err
    assert "Give --secrets N" in err
    code, _, err = run(capsys, "compare", "8x12", "--secrets", "100", "--store", store)
    assert code == 2 and "error: the default strategies (every exhaustive one and random; --strategies was not " \
                         "given) cannot all play here: knuth cannot play 8x12" in err
    assert "--strategies random" in err
    code, _, err = run(capsys, "compare", "8x12", "--secrets", "all", "--store", store)  # (given: named as such)
    assert code == 2 and "error: --secrets: playing every secret needs" in err
    code, _, err = run(capsys, "compare", "8x12", "--secrets", "100", "--strategies", "knuth", "--store", store)
    assert code == 2 and "error: --strategies: knuth cannot play 8x12" in err


def test_an_instance_set_below_the_number_of_codes_is_titled_a_sample(capsys, tmp_path):
    """docs/experiments.md: below the number of codes, instance:N is a sample; the title read 'secrets instance:20'."""
    code, out, _ = run(capsys, "compare", "3x4", "--strategies", "knuth", "--secrets", "instance:20",
                       "--store", str(tmp_path / "s.duckdb"))
    assert code == 0 and "3x4: secrets sample:20 (instance:20 holds fewer than the 64 codes)" in out
    assert "secrets instance:20" not in out


def test_games_against_a_codemaker_print_black_only_answers_and_wide_codes_apart(capsys, tmp_path):
    """They printed '111 1,0, 112 1,0, 123 3,0' in a black-only game and '1 2 3 3,0' past 9 colours."""
    path = str(tmp_path / "bo.json")
    assert run(capsys, "tree", "3x3", "--black-only", "-o", path)[0] == 0
    code, out, _ = run(capsys, "eval", "--tree", path, "--codemaker", "fixed:123")
    assert code == 0 and out.startswith("3 guesses: 111 1 black, 112 1 black, 123 3 black\n")
    code, out, _ = run(capsys, "eval", "3x12", "--codemaker", "fixed:1 1 3")
    assert code == 0 and out.startswith("4 guesses: 1 2 3: 2,0; 1 3 4: 1,1; 5 1 6: 1,0; 1 1 3: 3,0\n")


def test_plan_json_says_where_the_tree_was_saved(capsys, tmp_path):
    code, out, _ = run(capsys, "plan", "3x3", "--json", "-o", str(tmp_path / "t.dot"))
    data = json.loads(out)
    assert code == 0 and (data["saved_to"], data["saved_format"]) == (str(tmp_path / "t.dot"), "dot")
    assert "saved_to" not in json.loads(run(capsys, "plan", "3x3", "--json")[1])


def test_compare_json_gives_each_strategys_histogram_as_eval_does(capsys, tmp_path):
    code, out, _ = run(capsys, "compare", "3x3", "--strategies", "knuth,random", "--json",
                       "--store", str(tmp_path / "r.duckdb"))
    rows = {row["strategy"]: row for row in json.loads(out)["strategies"]}
    assert code == 0 and rows["knuth"]["histogram"] == json.loads(run(capsys, "eval", "3x3", "--json")[1])["histogram"]
    assert sum(rows["random"]["histogram"].values()) == rows["random"]["games"] == 27


def test_one_simulated_game_shows_its_mean_without_a_standard_error(capsys):
    """'4.0000 ± 0.0000' claimed a standard error that one game cannot give."""
    code, out, _ = run(capsys, "eval", "4x6", "--strategy", "random", "--secrets", "1", "--seed", "1")
    assert code == 0 and "│     1 │             4 │ 4.0000 │" in out and "±" not in out
    code, out, _ = run(capsys, "eval", "4x6", "--strategy", "random", "--secrets", "1", "--seed", "1", "--json")
    assert json.loads(out)["stderr"] is None
    code, out, _ = run(capsys, "eval", "4x6", "--strategy", "random", "--secrets", "2", "--seed", "1", "--json")
    assert json.loads(out)["stderr"] == 0.5


def test_the_adversary_building_a_tree_shows_a_spinner(capsys, monkeypatch):
    """adversary:mode=worst builds the strategy's whole tree first (31 s at 5x8 without a sign of
    life); the spinner turns only on a terminal, so here its being asked for is checked."""
    from contextlib import contextmanager

    from mmlab.cli import engine

    asked = []

    @contextmanager
    def spy(text, enabled=True):
        asked.append((text, enabled))
        yield lambda *args, **kwargs: None

    monkeypatch.setattr(engine, "spinner", spy)
    assert run(capsys, "eval", "3x4", "--strategy", "knuth", "--codemaker", "adversary:mode=worst")[0] == 0
    assert run(capsys, "eval", "3x4", "--strategy", "knuth", "--codemaker", "adversary")[0] == 0
    assert asked == [("adversary:mode=worst builds the decision tree of knuth on 3x4", True),
                     ("adversary builds the decision tree of knuth on 3x4", False)]


def test_a_mistyped_name_is_answered_with_the_closest_one(capsys):
    """A command, option value, strategy, parameter, planner or codemaker one typo away was only
    refused, with the list of every name to look through."""
    cases = [(["comapre", "4x6"], "invalid choice: 'comapre' (did you mean 'compare'?) (choose from 'compare'"),
             (["eval", "4x6", "--strategy", "knuht"], "unknown strategy 'knuht' (did you mean 'knuth'?); known: knuth"),
             (["eval", "4x6", "--strategy", "knuth:tie=random"], "no parameter 'tie' (did you mean 'ties'?)"),
             (["eval", "4x6", "--codemaker", "adversery"], "unknown codemaker 'adversery' (did you mean 'adversary'?)"),
             (["plan", "4x6", "--planner", "optiml"], "unknown planner 'optiml' (did you mean 'optimal'?)"),
             (["tree", "4x6", "--format", "knth"], "invalid choice: 'knth' (did you mean 'knuth'?)")]
    for args, said in cases:
        try:
            code, _, err = run(capsys, *args)
        except SystemExit as exit:  # argparse's own errors
            code, err = exit.code, capsys.readouterr().err
        assert code == 2 and said in err, (args, err)
    code, _, err = run(capsys, "eval", "4x6", "--strategy", "zzz")
    assert code == 2 and "unknown strategy 'zzz'; known:" in err and "did you mean" not in err


def test_each_game_against_a_codemaker_is_its_runs_and_the_figures_are_theirs(capsys):
    """eval --codemaker plays run r from default_rng([seed, r]) (as _eval_against draws it); replayed
    here with play_against, each run's guesses are the command's, and the mean and max in its JSON are
    those of the runs' guesses."""
    import numpy as np

    from mmlab.codemakers import make_codemaker
    from mmlab.experiments import play_against
    from mmlab.game import Game
    from mmlab.strategies import make_strategy

    game = Game.parse_size("3x4")
    code, out, _ = run(capsys, "eval", "3x4", "--strategy", "random", "--codemaker", "adversary", "--runs", "8",
                       "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["runs"] == len(data["games"]) == 8 and data["seed"] == 3
    for r, played in enumerate(data["games"]):
        strategy = make_strategy("random")
        record = play_against(game, strategy, make_codemaker("adversary", strategy), np.random.default_rng([3, r]))
        assert [game.format(g) for g in record.guesses] == played, r
    assert len({tuple(g) for g in data["games"]}) > 1  # (the runs are not one game played 8 times)
    assert data["max"] == max(data["guesses"]) and data["mean"] == sum(data["guesses"]) / 8
    assert max(data["guesses"]) > min(data["guesses"])  # (so that max and min differ here)


def test_mm2_reproduce_measures_its_speedup_against_singleys_2d_time(capsys):
    """003 Table 6-2 gives 3x8's tabu search 0.892 ms a game in 1-D and 9.100 ms in 2-D: the speedup
    that mm2 reproduce prints for its (2-D) tabu search is against the 2-D time. Two games have a
    standard error (only one game has none)."""
    code, out, _ = run(capsys, "mm2", "reproduce", "--sizes", "3x8", "--methods", "tabu", "--games", "2", "--jobs",
                       "1", "--json")
    [row] = json.loads(out)
    assert code == 0 and row["method"] == "tabu" and row["games"] == 2 and row["stderr"] is not None
    assert row["speedup_vs_singley"] == pytest.approx(9.1 / row["ms_per_game"])


def test_the_figures_of_compare_json_are_those_of_the_games_it_stored(capsys, tmp_path):
    """Each row of compare --json against the games stored (read back with build_report): their
    count, total, mean, max and seconds summed, and the runs the strategy played (knuth one of the
    study's 2: it is deterministic)."""
    from mmlab.experiments.report import build_report
    from mmlab.experiments.store import Store

    store = str(tmp_path / "r.duckdb")
    code, out, _ = run(capsys, "compare", "3x3", "--strategies", "knuth,random", "--runs", "2", "--store", store,
                       "--json")
    data = json.loads(out)
    games = build_report(Store(store), data["study"]).games
    assert code == 0 and [r["strategy"] for r in data["strategies"]] == ["knuth", "random"]
    for row in data["strategies"]:
        own = games[games["strategy"] == row["strategy"]]
        assert (row["games"], row["total_guesses"], row["max"]) == (len(own), own["guesses"].sum(), own["guesses"].max())
        assert row["mean"] == pytest.approx(own["guesses"].mean())
        assert row["seconds"] == pytest.approx(own["seconds"].sum())
        assert row["runs"] == own["run"].nunique() == {"knuth": 1, "random": 2}[row["strategy"]]


def test_plan_refuses_a_plan_whose_unstoppable_part_is_too_long_whatever_its_time_limit(capsys, monkeypatch):
    """optimal first completes its greedy tree whatever --time-limit says: a plan whose greedy part
    would pass LONGEST_PLAN is refused even with a --time-limit (here LONGEST_PLAN is set to 0, so
    that 3x3's fraction of a second stands for 8x8's 582 days and a mutant that let it in ends at once)."""
    from mmlab.cli import engine

    monkeypatch.setattr(engine, "LONGEST_PLAN", 0)
    code, _, err = run(capsys, "plan", "3x3", "--planner", "optimal", "--time-limit", "5")
    assert code == 2 and "before --time-limit could stop it: plan a smaller game" in err


@pytest.mark.parametrize("limit, warned", [("5", True), ("600", False)])
def test_plan_warns_when_its_greedy_tree_will_run_past_the_time_limit(capsys, monkeypatch, limit, warned):
    """TPOA completes its greedy tree whatever --time-limit says; at 5x7 that takes about 20 s (an
    estimate of 50 s), and --time-limit 5 gave no warning, as the estimate was under a minute."""
    from mmlab.planners.tpoa import TPOA

    monkeypatch.setattr(TPOA, "plan", lambda self, game, **kw: (_ for _ in ()).throw(KeyboardInterrupt))
    _, _, err = run(capsys, "plan", "5x7", "--planner", "tpoa:variant=star,k=30,d=2", "--time-limit", limit)
    err = " ".join(err.split())
    assert ("first completes its greedy tree whatever --time-limit says, which may take about 50 s" in err) == warned


def test_reproduce_tpoa_calls_worse_only_a_total_above_the_papers(capsys, monkeypatch):
    """000 Table 2's first row, TPOA* Hash_w (1, 1) on 3x5, has L = 460, as ours: not worse. The same
    row with a published L of 459 (a stand-in, not the paper's) makes ours worse."""
    from dataclasses import replace

    from mmlab.experiments import tpoa_tables

    row = tpoa_tables.TABLES[0]
    assert (row.size, row.spec, row.published) == ("3x5", "tpoa:variant=star,k=1,d=1,hash=w", 460)
    monkeypatch.setattr(tpoa_tables, "TABLES", [row, replace(row, series="lower", published=459)])
    code, out, _ = run(capsys, "reproduce", "tpoa")
    lines = {line.split()[1]: line for line in out.splitlines() if "460" in line and len(line.split()) > 1}
    assert code == 0 and "(worse)" not in lines["TPOA*"] and "460 (worse)" in lines["lower"], out


@pytest.mark.parametrize("option", ["--version", "-V"])
def test_version_prints_the_installed_packages_version(capsys, option):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as done:
        main([option])
    assert done.value.code == 0 and capsys.readouterr().out == f"mmlab {version('mmlab')}\n"


def test_eval_takes_the_largest_number_of_secrets_and_refuses_one_more(capsys):
    code, out, err = run(capsys, "eval", "3x3", "--strategy", "random", "--secrets", "10000000", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["games"] == 27 and "3x3 has only 27 codes" in err
    code, _, err = run(capsys, "eval", "3x3", "--strategy", "random", "--secrets", "10000001", "--seed", "1")
    assert code == 2 and "10,000,000" in err


def test_a_games_file_named_in_capitals_is_written_in_its_format(capsys, tmp_path):
    target = tmp_path / "G.CSV"
    code, _, _ = run(capsys, "eval", "3x3", "--strategy", "knuth", "--games", str(target))
    assert code == 0 and target.read_text().splitlines()[0] == "run,secret,guesses,known,evaluations,seconds,fallbacks"


def test_plan_warns_of_a_plan_estimated_at_over_a_minute(capsys, monkeypatch):
    from mmlab.planners.tpoa import TPOA

    monkeypatch.setattr(TPOA, "estimate_seconds", lambda self, game: 100.0)
    code, _, err = run(capsys, "plan", "3x3", "--planner", "tpoa:k=1,d=1,hash=e")
    assert code == 0 and "mmlab plan: warning: tpoa on 3x3 may take about 100 s" in " ".join(err.split())


def test_mm2_without_a_subcommand_or_with_a_size_the_thesis_lacks_exits_2(capsys):
    code, _, err = run(capsys, "mm2")
    assert code == 2 and "choose 'reproduce' or 'play'" in err
    code, _, err = run(capsys, "mm2", "reproduce", "--sizes", "4x5", "--games", "1")
    assert code == 2 and "size 4x5 is not in Singley's 2-D table" in err and "Traceback" not in err


def test_static_without_a_subcommand_names_them_as_mm2_and_mathmind_do(capsys):
    """It gave argparse's 'the following arguments are required: SUBCOMMAND'."""
    code, _, err = run(capsys, "static")
    assert code == 2 and err.strip() == "mmlab static: choose 'verify' or 'search' (see mmlab static --help)"


def test_static_verify_exits_1_for_a_set_that_does_not_separate_and_search_takes_the_counting_bound(capsys):
    code, out, _ = run(capsys, "static", "verify", "4x6", "1122", "3344", "--json")
    assert code == 1 and json.loads(out)
    code, out, _ = run(capsys, "static", "search", "3x2", "--size", "2", "--time-limit", "2")
    assert code == 0 and "3x2: 2 guesses separate all 8 secrets" in " ".join(out.split())


def test_a_progress_bar_counts_to_the_total_it_is_told(monkeypatch):
    """The engine may say the total on the way (a sample smaller than the game): 100/100, not
    100/1296."""
    from rich.console import Console

    from mmlab.cli import output

    screen = io.StringIO()
    monkeypatch.setattr(output, "err", Console(file=screen, force_terminal=True, width=100), raising=False)
    with output.progress("x", 1296) as update:
        update(0, 100)
        update(100, 100)
    assert "100/100" in screen.getvalue() and "100/1296" not in screen.getvalue()


def test_the_progress_rate_and_eta_are_averages_since_the_start():
    """Two workers' batches of 200 a few microseconds apart, 2 s in: rich's windowed speed made that
    millions a second and an eta of a second (mm2 reproduce's first seconds); the average is 200/s
    and 28 s for the 5600 left."""
    from rich.progress import ProgressSample, Task, TaskID

    from mmlab.cli.output import _rate_columns

    now = [0.0]
    task = Task(TaskID(0), "playing", 6000, 0, _get_time=lambda: now[0])
    task.start_time = 0.0
    rate, eta = (column() for column in _rate_columns())
    assert rate.render(task).plain == "" and eta.render(task).plain == "-:--:--"
    for t in (2.0, 2.00001):
        now[0] = t
        task.completed += 200
        task._progress.append(ProgressSample(t, 200))  # (as Progress.update records it)
    assert task.speed > 10**6  # (what rich's own column showed)
    assert rate.render(task).plain == "200/s" and eta.render(task).plain == "0:00:28"


def test_the_static_proofs_bar_gives_its_share_and_limit_but_no_eta(capsys, monkeypatch):
    """The share is of the first guesses tried, whose subtrees differ by orders of magnitude: its
    eta said 41 s at 14 s of a check that then ran out its 110 s (helper-124)."""
    import rich.progress

    from mmlab.cli import output

    bars = []

    class Watched(rich.progress.Progress):
        def __init__(self, *columns, **kwargs):
            super().__init__(*columns, **kwargs)
            bars.append([type(c).__name__ for c in columns])

    monkeypatch.setattr(rich.progress, "Progress", Watched)
    with output.progress("playing", 10):
        pass
    with output.progress("exhaustive check", 1000, percent=True, eta=False):
        pass
    assert "EtaColumn" in bars[0] and "RateColumn" in bars[0]
    assert "EtaColumn" not in bars[1] and "TaskProgressColumn" in bars[1]
    code, _, _ = run(capsys, "static", "search", "3x3", "--size", "4", "--prove", "--time-limit", "5")
    assert code == 0 and ["TextColumn", "BarColumn", "TaskProgressColumn", "TimeElapsedColumn"] in bars[2:]
