"""What mmlab prints in a terminal of ordinary width (80 columns): nothing wider than the terminal,
no figure or name broken across lines, titles on one line."""

from __future__ import annotations

import re

import pytest

from mmlab.cli import output
from mmlab.cli.commands import COMMANDS
from mmlab.cli.main import main

#: mmlab's consoles, made now, not while a help test says stdout is a terminal.
CONSOLES = (output.out, output.err)


def help_text(capsys, *words: str) -> str:
    """``mmlab WORDS --help`` on a terminal as wide as ``COLUMNS`` says (piped, its examples stay whole)."""
    import sys

    with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit):
        patch.setattr(sys.stdout, "isatty", lambda: True)
        main([*words, "--help"])
    return capsys.readouterr().out


def test_every_help_fits_an_80_column_terminal_and_keeps_every_word(capsys, monkeypatch):
    """An example or a description wider than the terminal was left to the terminal, which broke it
    wherever the line ran out (the 'mmlab --help' examples at column 80 of a 112-column line)."""
    for words in [(), *((name,) for name in COMMANDS), ("static", "verify"), ("mm2", "play")]:
        monkeypatch.setenv("COLUMNS", "200")
        wide = help_text(capsys, *words)
        monkeypatch.setenv("COLUMNS", "80")
        narrow = help_text(capsys, *words)
        assert max(map(len, narrow.splitlines())) <= 80, words
        assert narrow.split() == wide.split(), words  # the same words in the same order, only laid out anew


def test_an_example_too_long_for_the_terminal_keeps_what_it_does_in_the_column_of_the_others(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    text = help_text(capsys)
    assert re.search(r"\n  mmlab compare 4x6 {26}every exhaustive strategy, exact,\n {45}and random, beside the literature\n",
                     text)
    # a command too long for a line goes on 4 columns further in, an option with its value
    assert "\n  mmlab compare 3x4 4x6 --strategies knuth,entropy,random --secrets 300\n      --seed 1 --plots figs\n" \
           f"{' ' * 45}two sizes, plots\n" in text
    monkeypatch.setenv("COLUMNS", "200")
    assert "\n  mmlab compare 4x6                          every exhaustive strategy, exact, and random, beside the " \
           "literature\n" in help_text(capsys)


def printed(capsys, monkeypatch, width: int, *args: str) -> str:
    """What ``mmlab ARGS`` prints on a terminal ``width`` columns wide."""
    monkeypatch.setattr(output.out, "_width", width)
    assert main(list(args)) == 0
    text = capsys.readouterr().out
    assert max(map(len, text.splitlines())) <= width
    return text


def test_the_partition_title_stays_on_one_line(capsys, monkeypatch):
    """It wrapped over the three narrow columns: 'answers to 1344 among 208' / 'candidates'."""
    text = printed(capsys, monkeypatch, 80, "partition", "4x6", "1344", "--after", "1122:1,1")
    assert re.search(r"^ *4x6: answers to 1344 among 208 candidates *$", text, re.MULTILINE)
    assert re.search(r"1,1 +│ +34 │ +0\.163 │", text)  # the figures as before


def test_the_literature_of_a_comparison_goes_beneath_the_table_on_an_80_column_terminal(capsys, monkeypatch, tmp_path):
    """It wrapped in a squeezed column over up to four lines ('mean 4.47, worst 6' / '(Norvig 1984, 002;' / ...)."""
    store = str(tmp_path / "r.duckdb")
    args = ("compare", "4x6", "--strategies", "knuth,norvig,plus", "--store", store, "--jobs", "1")
    text = printed(capsys, monkeypatch, 80, *args)
    assert re.search(r"^\W*knuth\W+1122\W+5801\W+4\.4761\W+5\W+[\d.]+\W+\[1\]\W*$", text, re.MULTILINE)
    assert re.search(r"^\W*norvig\W+1122\W+5828\W+4\.4969\W+6\W+[\d.]+\W+\[2\]\W*$", text, re.MULTILINE)
    assert re.search(r"^\W*plus\W+1234\W+5738\W+4\.4275\W+6\W+[\d.]+\W*$", text, re.MULTILINE)
    assert re.search(r"^\[1\] L=5801, mean 4\.476, worst 5 \(Knuth 1976\) *$", text, re.MULTILINE)
    assert re.search(r"^\[2\] mean 4\.47, worst 6 \(Norvig 1984, 002; ties=lisp is his tie rule\) *$", text, re.MULTILINE)
    wide = printed(capsys, monkeypatch, 160, *args)  # (as piped): in the table, as before
    assert re.search(r"knuth\W+1122\W+5801\W+4\.4761\W+5\W+[\d.]+\W+L=5801, mean 4\.476, worst 5 \(Knuth 1976\)", wide)
    assert "[1]" not in wide


def test_study_names_and_series_are_never_broken_on_an_80_column_terminal(capsys, monkeypatch, tmp_path):
    """'mmlab studies' broke a study's name ('compare-4x6-d75423b' / '7'), 'reproduce' a series
    ('TPOA*' / 'Hash_w'), both to let a wrapping column have the width."""
    from mmlab.experiments import tpoa_tables
    from mmlab.experiments.tpoa_tables import TABLES

    store = str(tmp_path / "r.duckdb")
    printed(capsys, monkeypatch, 80, "compare", "3x3", "--strategies", "knuth,irving,most-parts,entropy,plus,random",
            "--store", store, "--jobs", "1")
    text = printed(capsys, monkeypatch, 80, "studies", "--store", store)
    assert re.search(r"^compare-3x3-[0-9a-f]{8} +\d+ +6 ", text, re.MULTILINE), text
    monkeypatch.setattr(tpoa_tables, "TABLES", [TABLES[0], TABLES[6]])
    text = printed(capsys, monkeypatch, 80, "reproduce")
    assert re.search(r"^TPOA\* Hash_w +\(1, 1\) +460 +460 +3\.6800 +5 +5 +0\.01 ", text, re.MULTILINE), text
    assert re.search(r"^\(1\) TPOA\+ Hash_w +\(1, 1\) +5776 +5773 +4\.4545 +5 +5 +2\.12 ", text, re.MULTILINE), text


def test_the_tpoa_tables_have_headers_of_two_lines_at_most_on_an_80_column_terminal(capsys, monkeypatch):
    """'s paper (P4 1.6 GHz)' took five lines of header ('s' / 'paper' / '(P4' / '1.6' / 'GHz)'); the
    machine is now said under the table."""
    from mmlab.experiments import tpoa_tables
    from mmlab.experiments.tpoa_tables import TABLES

    monkeypatch.setattr(tpoa_tables, "TABLES", [TABLES[0]])
    lines = printed(capsys, monkeypatch, 80, "reproduce").splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("─"))
    assert lines[0].strip().startswith("000 Table 2, 3x5: published beside mmlab") and rule <= 3 and lines[rule - 1].startswith("series ")
    assert re.search(r"^TPOA\* Hash_w +\(1, 1\) +460 +460 +3\.6800 +5 +5 +0\.01 +\d+\.\d\d$", lines[rule + 1])
    assert lines[rule + 2].strip() == "s paper: the paper's seconds, on a P4 at 1.6 GHz"


def test_the_strategies_list_keeps_each_parameter_whole_on_an_80_column_terminal(capsys, monkeypatch):
    """Five columns squeezed the parameters to 15 columns: 'pool=all' / '(all|consistent' / ')'. At 80 the
    source goes after what a strategy does, as 'mmlab strategies NAME' says it; wider, as before."""
    text = printed(capsys, monkeypatch, 80, "strategies")
    assert re.search(r"^knuth +strategy +minimise the size of the +pool=all \(all\|consistent\) *$", text, re.MULTILINE)
    assert re.search(r"^ +(\S.*\S) +\(first\|random\|lisp\) *$", text, re.MULTILINE)
    assert "Source:" in text and "Knuth 1976" in text and "\n)" not in text and not re.search(r"\(all\|consistent *\n", text)
    wide = printed(capsys, monkeypatch, 160, "strategies")
    assert re.search(r"^knuth +strategy +minimise the size of the largest part +pool=all \(all\|consistent\) +Knuth 1976",
                     wide, re.MULTILINE)


def test_a_planned_trees_histogram_goes_beneath_its_table_on_an_80_column_terminal(capsys, monkeypatch):
    """The table, squeezed without its frame, wrapped the histogram and the verdict over two lines each
    ('1:1 2:12 3:67 4:635' / '5:578 6:3', 'not proved' / '(heuristic)'); it is now said beneath, as eval says it."""
    text = printed(capsys, monkeypatch, 80, "plan", "4x6", "--planner", "tpoa")
    assert re.search(r"│ 5674 │ 4\.3781 │ +6 │ +380 │ +[\d.]+ │ not proved \(heuristic\) │", text)
    assert "\nhistogram (guesses:games) 1:1 2:12 3:67 4:635 5:578 6:3\n" in text
    wide = printed(capsys, monkeypatch, 160, "plan", "4x6", "--planner", "tpoa")  # (as piped): as before
    assert re.search(r"│ 5674 │ 4\.3781 │ +6 │ 1:1 2:12 3:67 4:635 5:578 6:3 │ +380 │", wide) and "guesses:games" not in wide
