"""Singley 2005 (003), appendix table "Tabu Search 2-D" (10 000 random secrets per size, 1 000 at 7x8).

The thesis reseeded its generator from the clock, so its figures are samples too: our mean must
lie within three combined standard errors of its mean (its S.D. over its number of games, ours
likewise), with enough secrets here that three standard errors stay under the 0.05 of issue 7.
Its maximum (m + 1 at every size) must not be exceeded and its median must be met. The full
table, every size with the thesis's numbers of games, is ``benchmarks/bench_two_d.py``.
"""

import numpy as np
import pytest

from mmlab.experiments.two_d_tables import THESIS_2D, margin, run_2d

#: (n, m) and random secrets: about 12 s of play on 2 cores.
SIZES = {(4, 6): 3000, (3, 8): 4000, (4, 10): 4000, (5, 8): 600}


@pytest.fixture(scope="module")
def tabu_rows():
    games = {f"{n}x{m}": count for (n, m), count in SIZES.items()}
    return {row.size: row for row in run_2d(["tabu"], sizes=list(SIZES), games=games.__getitem__, seed=2005)}


@pytest.fixture(scope="module")
def paired_rows():
    rows = run_2d(["tabu", "propagate"], sizes=list(SIZES), games=200, seed=7)
    return {(row.method, row.size): row for row in rows}


@pytest.mark.parametrize("size", [f"{n}x{m}" for n, m in SIZES])
def test_tabu_2d_means(tabu_rows, size):
    """003 appendix, "Tabu Search 2-D": mean within 3 combined standard errors, median equal,
    maximum no larger."""
    row, thesis = tabu_rows[size], THESIS_2D[size]
    tolerance = 3 * np.hypot(row.stderr, thesis.stderr)
    assert tolerance < 0.05
    assert abs(row.mean - thesis.mean) < tolerance
    assert row.median == thesis.median
    assert row.max <= thesis.max
    assert row.std == pytest.approx(thesis.std, abs=0.05)


@pytest.mark.parametrize("size", [f"{n}x{m}" for n, m in SIZES])
def test_propagate_beats_tabu(paired_rows, size):
    """Our own 2-D method against the tabu search on the same 200 secrets: fewer guesses on
    average by more than three standard errors of the paired difference."""
    diff, se = margin(paired_rows[("propagate", size)], paired_rows[("tabu", size)])
    assert diff > 3 * se and diff > 1.0
