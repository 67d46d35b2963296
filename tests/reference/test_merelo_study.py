"""Merelo et al. (004) Tables 3-6 and 9-12, run as the study files in studies/ run them.

Stochastic checks: ours within three combined standard errors of the published mean (the paper
prints mean ± standard error over the same number of games); per-move figures that do not depend
on the random draw are checked exactly. Readings: docs/notes/merelo-methodology.md.
"""

import math
from pathlib import Path

import pytest

from mmlab.experiments import stats
from mmlab.experiments.runner import run_study
from mmlab.experiments.store import Store
from mmlab.experiments.study import Study

STUDIES = Path(__file__).parents[2] / "studies"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("merelo") / "merelo.duckdb")
    for name in ("merelo-4x6", "merelo-4x8"):
        run_study(Study.load(STUDIES / f"{name}.toml"), store, jobs=2)
    return store


def means(store: Store, study: str) -> dict[str, tuple[float, float, int]]:
    table = stats.summary(store.games(study))
    return {(r.strategy.split(":")[0], r.strategy.rsplit("first=", 1)[-1]): (r.mean, r.stderr, r.max)
            for r in table.itertuples()}


def within_three_standard_errors(ours: tuple[float, float, int], published: float, published_se: float) -> bool:
    mean, se, _ = ours
    return abs(mean - published) <= 3 * math.hypot(se, published_se)


@pytest.mark.parametrize("strategy, published, se, worst", [
    ("entropy", 4.413, 0.006, 6),      # 004 Table 3 (and Table 9)
    ("most-parts", 4.406, 0.007, 7),   # 004 Table 3
    ("plus", 4.404, 0.007, 6),         # 004 Table 9
    ("plus2", 4.41, 0.007, 6),         # 004 Table 9
])
def test_4x6_tables_3_and_9(store, strategy, published, se, worst):
    ours = means(store, "merelo-4x6")[(strategy, "1231")]
    assert within_three_standard_errors(ours, published, se), ours
    assert ours[2] == worst


@pytest.mark.parametrize("strategy, first, published", [
    ("entropy", "1234", 5.132),     # 004 Tables 6, 11
    ("most-parts", "1234", 5.167),  # 004 Tables 6, 11
    ("plus", "1234", 5.154),        # 004 Table 11
    ("plus2", "1234", 5.139),       # 004 Table 11
    ("entropy", "1231", 5.124),     # 004 Table 12
    ("plus2", "1231", 5.116),       # 004 Table 12
])
def test_4x8_tables_6_11_12(store, strategy, first, published):
    ours = means(store, "merelo-4x8")[(strategy, first)]
    assert within_three_standard_errors(ours, published, 0.012), ours
    # Maxima are not compared: the paper's are 8 for all; ours differ by one game in 5000 for
    # Most Parts (9), see docs/reproductions.md.


def test_4x6_per_move_tables_4_and_5(store):
    """Table 5, move 2: Most Parts' top scorers after 1231 hold the secret in 472 of the 1295 games
    not won at once (deterministic, so exact); Table 4: the consistent set before move 3 is 23 ± 14
    (Entropy) and 24 ± 15 (Most Parts) to the printed precision."""
    table = stats.per_move(store.moves("merelo-4x6"))
    row = {(r.strategy.split(":")[0], r.move): r for r in table.itertuples()}
    assert row[("most-parts", 2)].secret_seen == pytest.approx(472 / 1295, abs=1e-12)
    assert row[("most-parts", 2)].scored == 12950
    for strategy, mean, sd in (("entropy", 23, 14), ("most-parts", 24, 15)):
        r = row[(strategy, 3)]
        assert (round(r.consistent), round(r.consistent_sd)) == (mean, sd)
    # Table 5, moves 3-5 for Most Parts, within three binomial standard errors of the cumulative reading.
    for move, published in ((3, 0.5270987), (4, 0.8242563), (5, 0.9810066)):
        r = row[("most-parts", move)]
        se = math.sqrt(published * (1 - published) / r.scored)
        assert abs(r.secret_seen - published) <= 3 * se, (move, r.secret_seen)


def test_4x8_table_13_first_row(store):
    """Table 13, before move 2: 666 ± 310 after 1234, 706 ± 327 after 1231 (over the instance set)."""
    table = stats.per_move(store.moves("merelo-4x8"))
    row = {(r.strategy, r.move): r for r in table.itertuples()}
    for first, mean, sd in (("1234", 666, 310), ("1231", 706, 327)):
        r = row[(f"entropy:pool=consistent,ties=random,first={first}", 2)]
        assert abs(r.consistent - mean) <= 3 * r.consistent_sd / math.sqrt(r.games), (first, r.consistent)
        assert abs(r.consistent_sd - sd) <= 0.03 * sd
