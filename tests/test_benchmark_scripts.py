"""The benchmark scripts (benchmarks/) refuse what they cannot run with one ``error:`` line and
status 2, before any game is played. Each test runs a script in a subprocess (the scripts install
their own Ctrl-C handler when imported) with options refused at parse time, so none of them plays."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def run(cwd: Path, script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def assert_refused(done: subprocess.CompletedProcess, *words: str) -> str:
    """The run ended with status 2 and one ``error:`` line holding ``words``, no traceback; that line."""
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(errors) == 1, done.stderr
    assert done.stdout == ""
    for word in words:
        assert word in errors[0]
    return errors[0]


@pytest.mark.parametrize("script, args, words", [
    ("bench_endgame.py", ["--size", "4x6", "--strategy", "knuth"], ["knuth scores the list", "sample"]),
    ("bench_endgame.py", ["--size", "4x6", "--strategy", "tabu"], ["tabu draws at random"]),
    ("bench_endgame.py", ["--size", "4x6", "--strategy", "shc"], ["shc learns"]),
    ("bench_lookahead.py", ["--size", "4x6", "--strategies", "sample;knuth"], ["knuth scores the list"]),
    ("bench_lookahead.py", ["--size", "4x6", "--strategies", "sample;greedy1"], ["greedy1 follows a script"]),
    ("bench_first_guess.py", ["--size", "4x6", "--strategy", "knuth"], ["knuth scores the list"]),
    ("bench_first_guess.py", ["--size", "4x6", "--strategy", "local-search"], ["local-search follows a script"]),
])
def test_a_strategy_that_cannot_play_from_the_benchmarks_positions_is_refused(tmp_path, script, args, words):
    assert_refused(run(tmp_path, script, *args), "argument --strateg", *words)


def test_the_help_names_the_strategies_that_play_there(tmp_path):
    done = run(tmp_path, "bench_endgame.py", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "random, greedy1, greedy2, greedy3, local-search, sample, evo, ga can do" in text


def test_an_mmlab_error_while_running_is_one_line(tmp_path):
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from _script import run_script; "
            "from mmlab.errors import BadArgument\n"
            "def main():\n    raise BadArgument('no such thing')\n"
            "run_script(main)")
    done = subprocess.run([sys.executable, "-c", code, str(BENCHMARKS)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 2 and done.stderr.strip().endswith("error: no such thing")
    assert len(done.stderr.splitlines()) == 1


def test_bench_two_d_checks_its_json_file_before_the_run(tmp_path):
    assert_refused(run(tmp_path, "bench_two_d.py", "--json", str(tmp_path / "no such folder" / "rows.json")),
                   "argument --json", "No such file or directory")
    assert_refused(run(tmp_path, "bench_two_d.py", "--json", str(tmp_path)), "argument --json", "Is a directory")


def test_bench_ga_refuses_a_bad_extra_before_its_header(tmp_path):
    assert_refused(run(tmp_path, "bench_ga.py", "--extra", "nosuch=1"), "nosuch")


@pytest.mark.parametrize("sizes, words", [
    ("", ["argument --sizes", "name at least one size"]),
    ("5x8,zz", ["argument --sizes", "'zz'"]),
    ("5x8, 4X6", ["no exact Entropy figure for 4x6;"]),  # read as game_sizes reads them
])
def test_bench_vs_entropy_reads_its_sizes_as_the_other_scripts_do(tmp_path, sizes, words):
    assert_refused(run(tmp_path, "bench_vs_entropy.py", "--sizes", sizes), *words)


def test_bench_shc_table2_refuses_sizes_it_would_not_play(tmp_path):
    assert_refused(run(tmp_path, "bench_shc.py", "--table2", "--sizes", "5x8"), "--table2", "--sizes")


@pytest.mark.parametrize("script, args, words", [
    ("bench_selection.py", ["--size", "3x2", "--games", "1"], ["--size 3x2", "never chooses on a sample"]),
    ("bench_first_guess.py", ["--size", "4x6", "--sample", "50", "--min-codes", "100"],
     ["--min-codes 100 is more than --sample 50"]),
])
def test_a_setting_with_nothing_to_measure_is_refused(tmp_path, script, args, words):
    assert_refused(run(tmp_path, script, *args), *words)


def test_a_script_whose_reader_leaves_ends_quietly(tmp_path):
    """`python benchmarks/bench_optimal.py 3x5 3x6 | head -1`: the header is printed before 3x5 is
    solved, so the rows meet a closed pipe (a BrokenPipeError traceback and status 1 before)."""
    script = subprocess.Popen([sys.executable, str(BENCHMARKS / "bench_optimal.py"), "3x5", "3x6"], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert script.stdout.readline().startswith("size")
    script.stdout.close()
    errors = script.stderr.read()
    assert script.wait(timeout=300) == 0 and "Traceback" not in errors, errors


@pytest.mark.parametrize("command, words", [
    ("no-such-program-here --flag", ["'no-such-program-here' is not a program that can be run"]),
    ("python -c 'unclosed", ["cannot split", "No closing quotation"]),
    ("", ["give a command"]),
])
def test_bench_commands_refuses_an_mmlab_it_cannot_run_before_timing(tmp_path, command, words):
    """A FileNotFoundError or ValueError traceback before, from the first timed run or shlex."""
    assert_refused(run(tmp_path, "bench_commands.py", "--runs", "1", "--mmlab", command), "argument --mmlab", *words)


@pytest.mark.parametrize("size, words", [
    ("zz", ["argument --size", "cannot read the size 'zz'"]),
    ("9x9", ["--size 9x9", "needs every code of the game"]),
])
def test_bench_compare_refuses_a_size_compare_cannot_play_before_running_it(tmp_path, size, words):
    """Before, mmlab compare ran and failed: 'mmlab compare zz failed (status 2):' and its error, status 1."""
    assert_refused(run(tmp_path, "bench_compare.py", "--repeat", "1", "--size", size), *words)


@pytest.mark.parametrize("script, args, words", [
    ("bench_endgame.py", ["--size", "4x6", "--games", "2"], ["with <= 100 consistent codes", "optimum", "gap "]),
    ("bench_lookahead.py", ["--size", "4x6", "--games", "2"], ["with 100 < codes <= 5000", "saves "]),
    ("bench_first_guess.py", ["--size", "4x6", "--codes", "1234,1123", "--sample", "200", "--min-codes", "10"],
     ["H1+H2", "1234", "1123"]),
    ("bench_two_step.py", ["--size", "5x8", "--positions", "1", "--finalists", "2", "--reference", "200",
                           "--part", "50"], ["after 1 guess", "two-step gain over the top scorer"]),
    ("bench_selection.py", ["--size", "5x8", "--games", "1", "--truth", "1000", "--seed", "1"],
     ["exact entropy lost by the choice", "per game:"]),
])
def test_the_scripts_that_reach_into_mmlab_run_on_a_small_setting(tmp_path, script, args, words):
    """These scripts call mmlab's inner functions (endgame pools, sample's candidate search,
    feedback kernels) that the rest of the suite does not call as they do: a change there that
    breaks a script shows here, not the next time someone runs the benchmark."""
    done = run(tmp_path, script, *args, "--jobs", "1")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in done.stdout, done.stdout


@pytest.mark.parametrize("script, args, words", [
    ("bench_large.py", ["--sizes", "4x6,8x12", "--strategies", "random;knuth", "--games", "1"],
     ["knuth needs every code of the game, and 8x12", "sample"]),
    ("bench_vs_entropy.py", ["--sizes", "5x8,7x11", "--strategy", "knuth", "--games", "1"],
     ["knuth needs every code of the game, and 7x11"]),
    ("bench_shc.py", ["--sizes", "4x6", "5x8", "--games", "1", "--spec", "shc:first=1122"],
     ["first=1122 is not a first guess of 5x8"]),
    ("bench_shc.py", ["--table2", "--games", "1", "--spec", "shc:first=11223"], ["first=11223 is not a first guess of 4x6"]),
])
def test_a_strategy_that_cannot_play_a_later_size_is_refused_before_the_first_row(tmp_path, script, args, words):
    """Before, the rows of the sizes before it were played and printed (knuth's at 4x6, and at 5x8
    for minutes), and then the run ended with the error."""
    assert_refused(run(tmp_path, script, *args), *words)


def test_bench_vs_entropy_heads_its_column_for_any_codebreaker(tmp_path):
    """The mean column was headed 'sample' whatever --strategy played (here random)."""
    done = run(tmp_path, "bench_vs_entropy.py", "--sizes", "5x8", "--strategy", "random", "--games", "2",
               "--jobs", "1")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    header, row = done.stdout.splitlines()[:2]
    assert header.split()[:4] == ["size", "games", "mean", "s.e."] and "(random, seed 31)" in header
    assert row.split()[:2] == ["5x8", "2"] and row.split()[4] == "5.4856"
