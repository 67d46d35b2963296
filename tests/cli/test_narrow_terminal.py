"""What mmlab prints in a terminal of ordinary width (80 columns): nothing wider than the terminal,
no figure or name broken across lines, titles on one line."""

from __future__ import annotations

import re

import pytest

from mmlab.cli import output  # (its consoles made now, not while a help test says stdout is a terminal)
from mmlab.cli.commands import COMMANDS
from mmlab.cli.main import main


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

