"""Statistics of stored games, checked against direct computations on the same rows."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from mmlab.errors import BadArgument
from mmlab.experiments import stats
from mmlab.experiments.runner import run_study
from mmlab.experiments.store import Store
from mmlab.experiments.study import Study


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("stats") / "r.duckdb")
    study = Study("s", ("4x4",), ("entropy:pool=consistent,ties=random,first=1123",
                                  "most-parts:pool=consistent,ties=random,first=1123"), runs=3, seed=4)
    run_study(study, store, jobs=1)
    return store.games("s"), store.moves("s")


def test_summary_matches_numpy(stored):
    games, _ = stored
    table = stats.summary(games)
    for row in table.itertuples():
        g = games.loc[games["strategy"] == row.strategy, "guesses"].to_numpy()
        assert row.games == g.size == 3 * 256 and row.total == g.sum() and row.max == g.max()
        assert math.isclose(row.mean, g.mean()) and math.isclose(row.stderr, g.std(ddof=1) / math.sqrt(g.size))


def test_two_games_have_a_spread_and_one_has_none():
    """The spreads need two games (ddof=1): guesses 3 and 5 have standard deviation sqrt(2) and
    standard error 1; one game has 0 for both."""
    games = pd.DataFrame({"size": "3x3", "strategy": ["a", "a", "b"], "guesses": [3, 5, 4], "won": True,
                          "known": [3, 5, 4], "evaluations": [10, 20, 7], "seconds": 0.0})
    two, one = stats.summary(games).itertuples()
    assert math.isclose(two.std, math.sqrt(2)) and math.isclose(two.stderr, 1.0)
    assert math.isclose(two.evaluations_std, math.sqrt(50))
    assert (one.std, one.stderr, one.evaluations_std) == (0.0, 0.0, 0.0)


def test_every_figure_of_the_summary_is_numpys_of_the_strategys_games(stored):
    """The median, spread, evaluations and seconds the report prints beside the mean: each the
    direct computation over the strategy's games (the spreads with ddof=1, as the stderr)."""
    games, _ = stored
    table = stats.summary(games)
    for row in table.itertuples():
        part = games[games["strategy"] == row.strategy]
        g, e, s = (part[c].to_numpy() for c in ("guesses", "evaluations", "seconds"))
        assert np.median(g) != g.mean() and e.min() < e.max()  # (figures that tell the mutants apart)
        assert row.median == np.median(g) and row.lost == 0 and math.isclose(row.known_mean, part["known"].mean())
        assert math.isclose(row.std, g.std(ddof=1)) and math.isclose(row.evaluations_std, e.std(ddof=1))
        assert math.isclose(row.evaluations_mean, e.mean()) and row.evaluations_max == e.max()
        assert math.isclose(row.seconds_per_game, s.mean())


def test_wilcoxon_pairs_games_by_run_and_secret(stored):
    games, _ = stored
    a, b = list(dict.fromkeys(games["strategy"]))
    test = stats.wilcoxon(games.sample(frac=1, random_state=0), a, b)  # rows in any order
    # Pair by hand: the same (run, slot).
    x = games[games["strategy"] == a].sort_values(["run", "slot"])["guesses"].to_numpy()
    y = games[games["strategy"] == b].sort_values(["run", "slot"])["guesses"].to_numpy()
    expected = sps.wilcoxon(x, y, correction=True, method="approx")
    assert test.games == x.size and math.isclose(test.p_value, expected.pvalue)
    assert math.isclose(test.mean_difference, (x - y).mean())
    with pytest.raises(BadArgument, match="no games of 'knuth'"):
        stats.wilcoxon(games, a, "knuth")


def test_per_move_figures_match_a_game_by_game_count(stored):
    _, moves = stored
    table = stats.per_move(moves)
    for strategy, group in moves.groupby("strategy"):
        seen: dict[tuple[int, int], bool] = {}
        by_move: dict[int, list] = {}
        for row in group.sort_values(["run", "slot", "move"]).itertuples():
            scored = row.move >= 2 and row.consistent >= 2
            key = (row.run, row.slot)
            seen[key] = seen.get(key, False) or (scored and bool(row.secret_in_top))
            entry = by_move.setdefault(row.move, [])
            entry.append((row.consistent, scored, bool(row.secret_in_top) if scored else None,
                          seen[key] if scored else None, row.chance if scored else None))
        for move, entries in by_move.items():
            got = table[(table["strategy"] == strategy) & (table["move"] == move)].iloc[0]
            sizes = np.array([e[0] for e in entries], dtype=float)
            assert got["games"] == len(entries) and math.isclose(got["consistent"], sizes.mean())
            scored = [e for e in entries if e[1]]
            assert got["scored"] == len(scored)
            if scored:
                assert math.isclose(got["secret_in_top"], np.mean([e[2] for e in scored]))
                assert math.isclose(got["secret_seen"], np.mean([e[3] for e in scored]))
                assert math.isclose(got["chance"], np.mean([e[4] for e in scored]))
            else:
                assert pd.isna(got["secret_seen"])


def reference_per_move(moves: pd.DataFrame) -> pd.DataFrame:
    """The per-move table as pandas computed it before ``stats.PER_MOVE_SQL`` (in the store) took
    over: the reference its figures must equal to the last bit."""
    keys = ["size", "strategy", "run", "slot"]
    m = moves.sort_values([*keys, "move"], kind="stable")
    scored = (m["move"] >= 2) & (m["consistent"].fillna(0) >= 2) & m["top_size"].notna()
    hit = (scored & m["secret_in_top"].fillna(False).astype(bool)).astype(int)
    m = m.assign(_scored=scored, _seen=hit.groupby([m[k] for k in keys]).cummax().astype(float))
    for column in ("top_size", "secret_in_top", "chance", "_seen"):
        m[column] = m[column].astype("Float64").where(m["_scored"])
    table = m.groupby(["size", "strategy", "move"], sort=False).agg(
        games=("move", "size"), consistent=("consistent", "mean"), consistent_sd=("consistent", "std"),
        scored=("_scored", "sum"), top_size=("top_size", "mean"), secret_in_top=("secret_in_top", "mean"),
        secret_seen=("_seen", "mean"), chance=("chance", "mean")).reset_index()
    return table.sort_values(["size", "move"], kind="stable").reset_index(drop=True)


def assert_same_figures(table: pd.DataFrame, expected: pd.DataFrame) -> None:
    """``table`` has the rows of ``expected`` and its figures to the last bit (``assert_frame_equal``
    compares Float64 columns within a tolerance, whatever ``check_exact`` says)."""
    assert list(table.columns) == list(expected.columns)
    for column in table.columns:
        if column in ("size", "strategy"):
            assert table[column].astype(str).tolist() == expected[column].astype(str).tolist()
            continue
        bits = [frame[column].to_numpy("float64", na_value=np.nan) for frame in (table, expected)]
        assert np.array_equal(*bits, equal_nan=True), (column, table[column].compare(expected[column]))


#: Every case of the per-move figures: two sizes, several runs, games lost at the cap, moves not
#: scored (one code left, or none known: tabu and sample do not count the consistent set, sample
#: records its top scorers all the same), secrets seen at one move and not at a later one.
TRICKY = Study("t", ("3x4", "2x5"), ("random", "most-parts:ties=random", "knuth", "tabu", "sample"), runs=3,
               seed=8, max_guesses=4)


@pytest.fixture(scope="module")
def tricky(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("tricky") / "t.duckdb")
    run_study(TRICKY, store, jobs=1)
    return store


def test_per_move_is_the_pandas_computation_to_the_last_bit(tricky):
    moves = tricky.moves("t", columns=stats.PER_MOVE_COLUMNS)
    scored = (moves["move"] >= 2) & (moves["consistent"] >= 2)
    assert moves["consistent"].isna().any() and moves["top_size"].notna().any() and not tricky.games("t")["won"].all()
    assert (moves["consistent"].isna() & moves["top_size"].notna()).any()  # (sample: not scored)
    assert ((moves["move"] >= 2) & (moves["consistent"] < 2)).any() and (scored & ~moves["secret_in_top"]).any()
    table, expected = stats.per_move(moves), reference_per_move(moves)
    assert_same_figures(table, expected)
    assert table.dtypes.equals(expected.dtypes)
    assert (table["secret_seen"] > table["secret_in_top"]).any() and table["chance"].isna().any()
    assert table["consistent_sd"].isna().any() and (table["consistent_sd"] > 0).any()
    assert_same_figures(stats.per_move(moves.sample(frac=1, random_state=2)), table)  # in any order
    loose = moves.astype({"move": "int64", "consistent": "float64", "top_size": "float64", "secret_in_top": "object"})
    assert_same_figures(stats.per_move(loose), reference_per_move(loose))  # of any numeric types


def test_per_move_reads_the_moves_where_they_are(tricky):
    """DuckDB materialized the moves marked scored, read twice (the games' first secrets seen, and the
    figures), as a copy of every move of the study in memory: 0.53 GB of a report's 0.84 GB at 6x9."""
    with tricky.study_moves("t") as con:
        plan = "".join(row[1] for row in con.execute("EXPLAIN " + stats.PER_MOVE_SQL.replace("{moves}", "study_moves"))
                       .fetchall())
    assert "Seq Scan" in plan and "CTE Name" not in plan


def test_per_move_sums_in_the_order_of_the_games_as_pandas_did():
    """The spread (Welford's update) and the chance (Kahan's sum) take their last bits from the order
    of the values and the steps of the sum: DuckDB's stddev_samp in the order given differed in 8 of
    these 10 groups, its fsum (another compensated sum) in game order in 1."""
    rng = np.random.default_rng(3)
    n = 40_000
    top = rng.integers(1, 32768, n)
    moves = pd.DataFrame({"strategy": "a", "size": "5x8", "run": rng.integers(0, 4, n), "slot": np.arange(n),
                          "move": rng.integers(2, 12, n), "consistent": rng.integers(2, 32768, n), "top_size": top,
                          "secret_in_top": rng.random(n) < 0.3})
    moves["chance"] = np.where(moves["secret_in_top"], 1 / top, 0.0)
    moves = moves.sample(frac=1, random_state=4)
    assert_same_figures(stats.per_move(moves), reference_per_move(moves))


def test_histogram_counts_games(stored):
    games, _ = stored
    table = stats.histogram(games)
    assert table.to_numpy().sum() == len(games)
    assert list(table.columns) == sorted(table.columns)


def test_lost_games_are_counted_apart_from_the_histogram_and_the_guesses_until_known():
    """A game stopped at max_guesses found no secret: it is no game won at the cap, and its code never became known."""
    games = pd.DataFrame({"size": "3x3", "strategy": ["a"] * 4 + ["b"] * 2, "run": 0, "slot": [0, 1, 2, 3, 0, 1],
                          "guesses": [2, 3, 3, 3, 3, 3], "known": [1, 3, 3, 3, 3, 3],
                          "won": [True, True, False, False, False, False], "evaluations": 0, "seconds": 0.0})
    table = stats.histogram(games)
    assert table.to_dict("index") == {("3x3", "a"): {2: 1, 3: 1, "lost": 2}, ("3x3", "b"): {2: 0, 3: 0, "lost": 2}}
    summary = stats.summary(games).set_index("strategy")
    assert summary.loc["a", "known_mean"] == 2.0 and math.isnan(summary.loc["b", "known_mean"])
    assert summary.loc["a", "mean"] == 2.75 and summary.loc["a", "lost"] == 2  # (lost games counted at the cap)
    assert "lost" not in stats.histogram(games[games["won"]]).columns


def test_a_study_not_played_to_the_end_is_still_paired_by_run_and_secret(stored):
    games, _ = stored
    a, b = list(dict.fromkeys(games["strategy"]))
    part = games[(games["strategy"] == a) | (games["run"] < 2)]  # b's last run missing, as a killed study leaves it
    test = stats.wilcoxon(part, a, b)
    x = part[(part["strategy"] == a) & (part["run"] < 2)].sort_values(["run", "slot"])["guesses"].to_numpy()
    y = part[part["strategy"] == b].sort_values(["run", "slot"])["guesses"].to_numpy()
    assert test.games == x.size == 2 * 256 and math.isclose(test.mean_difference, (x - y).mean())


def test_a_strategy_that_has_played_only_its_first_run_so_far_is_still_paired_by_run_and_secret(stored):
    """Both strategies play 3 runs; b was stopped in its first: its games pair with a's games of run 0,
    not with a's mean over the runs (the pairing of a deterministic strategy, which plays one run)."""
    games, _ = stored
    a, b = list(dict.fromkeys(games["strategy"]))
    part = games[(games["strategy"] == a) | (games["run"] == 0)]
    test = stats.wilcoxon(part, a, b, runs={a: 3, b: 3})
    x = part[(part["strategy"] == a) & (part["run"] == 0)].sort_values("slot")["guesses"].to_numpy()
    y = part[part["strategy"] == b].sort_values("slot")["guesses"].to_numpy()
    expected = sps.wilcoxon(x, y, zero_method="wilcox", correction=True, method="approx")
    assert test.games == x.size == 256 and math.isclose(test.mean_difference, (x - y).mean())
    assert (test.statistic, test.p_value) == (float(expected.statistic), float(expected.pvalue))
    assert stats.pairwise(part, {a: 3, b: 3}) == [test]


@pytest.mark.parametrize("runs", [2, 4])
def test_a_deterministic_strategy_plays_once_and_is_paired_by_secret(tmp_path, runs):
    store = Store(tmp_path / "r.duckdb")
    study = Study("d", ("3x4",), ("knuth", "random"), runs=runs, seed=2)
    run_study(study, store, jobs=1)
    games = store.games("d")
    assert games.groupby("strategy")["run"].nunique().to_dict() == {"knuth": 1, "random": runs}
    assert study.n_games == 64 + runs * 64 == len(games)
    test = stats.wilcoxon(games, "knuth", "random")
    assert test.games == 64  # one pair per secret: knuth's guesses against random's mean over the runs
    knuth = games[games["strategy"] == "knuth"].set_index("slot")["guesses"]
    mean = games[games["strategy"] == "random"].groupby("slot")["guesses"].mean()
    assert math.isclose(test.mean_difference, (knuth - mean).mean())


def _scipy(d: np.ndarray) -> tuple[float, float]:
    result = sps.wilcoxon(d, zero_method="wilcox", correction=True, method="approx")
    return float(result.statistic), float(result.pvalue)


@pytest.mark.parametrize("seed", range(40))
def test_the_signed_rank_test_gives_scipys_statistic_and_p_value_to_the_last_bit(seed):
    """On whole differences (ties and zeros galore, as guesses give) and on differences of means
    over runs, from 2 pairs to 20 000."""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([2, 3, 7, 30, 500, 1296, 12960, 20000]))
    whole = rng.integers(-3, 4, n).astype(float)
    means = rng.integers(3, 8, n) - rng.integers(3, 8, (n, 10)).mean(axis=1)
    skewed = rng.integers(-1, 3, n).astype(float)
    for d in (whole, means, skewed):
        if d.any():
            assert stats.signed_rank(d) == _scipy(d)


def test_differences_that_are_not_numbers_give_no_test_as_in_scipy():
    d = np.array([1.0, 2.0, np.nan, 4.0])
    assert all(np.isnan(stats.signed_rank(d))) and all(np.isnan(_scipy(d)))


def test_the_signed_rank_test_of_a_stored_study_is_scipys(stored):
    games, _ = stored
    a, b = list(dict.fromkeys(games["strategy"]))
    test = stats.wilcoxon(games, a, b)
    x = games[games["strategy"] == a].sort_values(["run", "slot"])["guesses"]
    y = games[games["strategy"] == b].sort_values(["run", "slot"])["guesses"]
    result = sps.wilcoxon(x.to_numpy(), y.to_numpy(), zero_method="wilcox", correction=True, method="approx")
    assert (test.statistic, test.p_value) == (float(result.statistic), float(result.pvalue))


def test_pairwise_tests_every_pair_as_wilcoxon_does(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    run_study(Study("p", ("3x4", "2x5"), ("knuth", "random", "entropy:ties=random"), runs=3, seed=5), store, jobs=1)
    games = store.games("p")
    tests = stats.pairwise(games)
    assert [(t.size, t.first, t.second) for t in tests] == [
        (size, a, b) for size in ("2x5", "3x4") for a, b in (("entropy:ties=random", "knuth"),
                                                              ("entropy:ties=random", "random"), ("knuth", "random"))]
    assert tests == [stats.wilcoxon(games, t.first, t.second, t.size) for t in tests]


def test_games_of_other_secrets_are_not_paired():
    """Two evaluations of samples drawn apart pair up slot by slot; they were tested as pairs
    (helper-115: p = 0.83 where the same secrets give 0.60). Refused, saying where they differ;
    the same secrets pair, by game and (one run against three) by secret."""
    from mmlab.experiments import evaluate

    knuth = evaluate("3x4", "knuth", secrets=20, seed=1)
    apart = evaluate("3x4", "entropy", secrets=20, seed=2)
    first = next(i for i in range(20) if knuth.codes[i] != apart.codes[i])
    differ = int((knuth.codes != apart.codes).sum())
    with pytest.raises(BadArgument, match=rf"entropy and knuth played other secrets in {differ} of their 20 pairs of "
                                          rf"games \(at 3x4, run 0, slot {first}: "):
        stats.wilcoxon(pd.concat([knuth.to_frame(), apart.to_frame()]), "entropy", "knuth")
    random = evaluate("3x4", "random", secrets=20, seed=2, runs=3)  # (paired by secret: one run against three)
    with pytest.raises(BadArgument, match=rf"played other secrets in {differ} of their 20 pairs of games \(at 3x4, "
                                          rf"slot {first}: "):
        stats.pairwise(pd.concat([knuth.to_frame(), random.to_frame()]))
    from mmlab.experiments import plots  # (its bars pair the games alike)

    with pytest.raises(BadArgument, match=rf"knuth and random played other secrets in {3 * differ} of their 60 pairs"):
        plots.wins_difference(pd.concat([knuth.to_frame(), random.to_frame()]), "knuth", "random")
    same = evaluate("3x4", "entropy", secrets=knuth.codes)
    test = stats.wilcoxon(pd.concat([knuth.to_frame(), same.to_frame()]), "entropy", "knuth")
    assert test.games == 20 and test.mean_difference == float((same.guesses - knuth.guesses).mean())
    again = evaluate("3x4", "random", secrets=knuth.codes, seed=2, runs=3)
    assert stats.pairwise(pd.concat([knuth.to_frame(), again.to_frame()]))[0].games == 20


@pytest.mark.parametrize("call", [stats.summary, stats.histogram, stats.pairwise,
                                  lambda g: stats.wilcoxon(g, "knuth", "entropy"), stats.per_move])
def test_a_frame_without_the_columns_read_is_refused_saying_what_to_pass(call):
    """A frame of per_game rows (no size, strategy or slot) is refused in one line naming the
    missing columns and the frames that have them, as the plots refuse it, not with a KeyError."""
    rows = pd.DataFrame([{"run": 0, "secret": "1122", "guesses": 1, "known": 1, "evaluations": 0,
                          "seconds": None}])
    with pytest.raises(BadArgument, match=r"frame lacks the column\(s\) (strategy, )?size.*; pass Store\."):
        call(rows)
    with pytest.raises(BadArgument, match=r"expected a pandas frame of (games|moves), got \[\{'"):
        call(rows.to_dict("records"))
