"""docs/python.md is run as written: its examples are doctests."""

import doctest
from pathlib import Path

from mmlab.strategies import REGISTRY

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "python.md"


def test_the_python_guide_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # it saves a tree and a store in the working folder
    try:
        result = doctest.testfile(str(GUIDE), module_relative=False, optionflags=doctest.ELLIPSIS)
    finally:
        for name in ("first-consistent", "expected-size", "expected-size-drawn"):
            REGISTRY.pop(name, None)
    assert result.attempted > 30 and result.failed == 0
