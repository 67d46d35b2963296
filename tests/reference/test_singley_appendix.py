"""Singley 2005 (003), appendix tables of the 1-D methods, n=4 m=6..10 and m=8 n=3..7.

The deterministic methods are played against every secret, as in the thesis, and must match
its mean and median to the printed precision and its maximum exactly. The tabu search draws at
random (the thesis reseeded from the clock), so its mean is checked within three combined
standard errors of ours and the thesis's own (5 runs over every secret)."""

import numpy as np
import pytest

from mmlab.experiments.singley_tables import SIZES, THESIS, run_singley

ALL = [f"{n}x{m}" for n, m in SIZES]


def test_tabu_without_a_number_of_games_plays_the_thesis_protocol():
    """No ``tabu_games``: 5 runs over every secret, as the appendix (3x8: 5 x 512 games)."""
    assert next(run_singley(["tabu"], sizes=[(3, 8)], tabu_games=None)).games == 5 * 512


@pytest.fixture(scope="module")
def deterministic_rows():
    return {(r.method, r.size): r for r in run_singley(["greedy1", "greedy2"])}


@pytest.mark.parametrize("size", ALL)
@pytest.mark.parametrize("method", ["greedy1", "greedy2"])
def test_greedy_tables(deterministic_rows, method, size):
    """003 appendix, tables "Greedy 1" and "Greedy 2" (mean, median, max)."""
    row, thesis = deterministic_rows[(method, size)], THESIS[method][size]
    assert row.exact and row.games == int(size.split("x")[1]) ** int(size.split("x")[0])
    digits = len(str(thesis.mean).split(".")[1])
    assert round(row.mean, digits) == pytest.approx(thesis.mean, abs=0.6 * 10**-digits)
    assert row.median == thesis.median
    assert row.max == thesis.max


@pytest.mark.parametrize("size", ALL)
def test_greedy1_standard_deviation(deterministic_rows, size):
    """003 appendix, "Greedy 1": the sample S.D. too (the Greedy 2 S.D.s do not all fit
    integer data; see docs/notes/singley-1d-reading.md, section 2)."""
    assert deterministic_rows[("greedy1", size)].std == pytest.approx(THESIS["greedy1"][size].std, abs=1e-6)


@pytest.mark.parametrize("size, games", [("4x6", 1296), ("3x8", 512), ("5x8", 1000)])
def test_tabu_means(size, games):
    """003 appendix, "Tabu Search 1-D" (5 runs x every secret): mean within 3 combined standard
    errors, and the worst case no worse than the thesis's."""
    n, m = map(int, size.split("x"))
    row = next(run_singley(["tabu"], sizes=[(n, m)], tabu_games=games, seed=3))
    thesis = THESIS["tabu"][size]
    thesis_stderr = thesis.std / np.sqrt(5 * m**n)
    assert abs(row.mean - thesis.mean) < 3 * np.hypot(row.stderr, thesis_stderr)
    assert row.max <= thesis.max


@pytest.fixture(scope="module")
def search_rows():
    return {(r.method, r.size): r for r in run_singley(["greedy3", "local-search"], sizes=SIZES[:6])}


@pytest.mark.parametrize("size", ALL[:6])
@pytest.mark.parametrize("method", ["greedy3", "local-search"])
def test_greedy3_and_local_search_worst_cases(search_rows, method, size):
    """003 appendix, "Greedy 3" and "Local Search 1": the maxima, which are the thesis's worst-case
    formulas. The means are not reproduced exactly (docs/notes/singley-1d-reading.md, 3.4-3.5):
    ours are within 0.25 guess of the thesis's at these sizes."""
    row, thesis = search_rows[(method, size)], THESIS[method][size]
    assert row.max == thesis.max
    assert abs(row.mean - thesis.mean) < 0.25
