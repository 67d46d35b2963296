"""A report reads what it is asked for: the study, its games and runs at once, in one connection;
moves, per-move figures and paired tests when first used (``mmlab compare`` and ``mmlab run`` print
neither), from the games it read."""

import pytest

from mmlab.cli.studies import write_figures
from mmlab.experiments import stats
from mmlab.experiments.report import Report, build_report, to_html
from mmlab.experiments.runner import run_study
from mmlab.experiments.store import Store
from mmlab.experiments.study import Study
from tests.experiments.test_stats import assert_same_figures, reference_per_move

STUDY = Study("r", ("3x3",), ("knuth", "random", "most-parts:ties=random"), runs=2, seed=3)


@pytest.fixture
def stored(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    run_study(STUDY, store, jobs=1)
    return store


def _opened(store, monkeypatch) -> list[bool]:
    """The connections ``store`` opens from now on (read only or not)."""
    opened: list[bool] = []
    real = Store._open

    def counted(self, read_only):
        opened.append(read_only)
        return real(self, read_only)

    monkeypatch.setattr(Store, "_open", counted)
    return opened


def test_a_report_reads_the_study_games_and_runs_in_one_connection_and_the_rest_when_asked(stored, monkeypatch):
    opened = _opened(stored, monkeypatch)
    computed = []
    real_pairwise, real_per_move = stats.pairwise, stats.per_move_figures
    monkeypatch.setattr(stats, "pairwise", lambda games, runs=None: computed.append("tests") or real_pairwise(games, runs))
    monkeypatch.setattr(stats, "per_move_figures", lambda *sums: computed.append("per_move") or real_per_move(*sums))
    report = build_report(stored, "r")
    assert list(report.summary["total"]) and len(report.games) == STUDY.n_games and len(report.runs) == 1
    assert opened == [True] and computed == []  # (what compare and run print)
    assert report.first_guesses() == {("3x3", "knuth"): "112", ("3x3", "random"): None,
                                      ("3x3", "most-parts:ties=random"): None}
    assert opened == [True, True]
    assert len(report.tests) == 3 and len(report.per_move) and computed == ["tests", "per_move"]
    assert opened == [True, True, True]
    assert len(report.moves) == report.games["guesses"].sum() and opened == [True, True, True, True]


def test_the_per_move_figures_are_computed_in_the_store_and_equal_those_of_the_moves(stored, monkeypatch, tmp_path):
    """(The report read every move into pandas for them: 17 s and 3.3 GB for a study of 9.9 million
    moves.) The moves stay in the store, for the tables, the page and the plots alike; the figures
    are those of the moves, in the study's order."""
    report = build_report(stored, "r")
    moves = report.moves
    monkeypatch.setattr(Store, "moves", lambda *args, **kwargs: pytest.fail("the report read every move"))
    fresh = build_report(stored, "r")
    expected = fresh._ordered(reference_per_move(moves), ["move"])
    assert_same_figures(fresh.per_move, expected)
    assert list(dict.fromkeys(fresh.per_move["strategy"])) == list(STUDY.strategies)
    assert "consistent set before the move" in to_html(fresh)
    write_figures(fresh, str(tmp_path / "plots"), None)
    assert len(list((tmp_path / "plots").glob("*.png"))) == 5


def test_the_first_guesses_are_those_of_the_moves(stored):
    report = build_report(stored, "r")
    first = report.first_guesses()
    moves = stored.moves("r")
    for (size, strategy), guess in first.items():
        played = moves[(moves["size"] == size) & (moves["strategy"] == strategy) & (moves["move"] == 1)]["guess"]
        assert guess == (played.iloc[0] if played.nunique() == 1 else None)


def test_the_first_guesses_are_computed_in_the_store_in_the_order_it_holds_them(stored, monkeypatch):
    """(Every first move came into pandas: 531 441 rows and 0.9 s at 6x9.) Their order is the
    store's, as a scan of the first moves gives it: knuth's, stored again, come last."""
    with stored.connect() as con:
        con.execute("DELETE FROM moves WHERE strategy = 'knuth'")
        con.execute("DELETE FROM games WHERE strategy = 'knuth'")
    assert run_study(STUDY, stored, jobs=1).played == 27
    report = build_report(stored, "r")
    read = []
    real = Store.query
    monkeypatch.setattr(Store, "query", lambda self, *args: read.append(len(frame := real(self, *args))) or frame)
    first = report.first_guesses()
    assert first == {("3x3", "random"): None, ("3x3", "most-parts:ties=random"): None, ("3x3", "knuth"): "112"}
    assert list(first) == [("3x3", "random"), ("3x3", "most-parts:ties=random"), ("3x3", "knuth")]
    assert max(read) <= 1  # (whether the study is stored)


def test_a_report_keeps_to_the_games_it_read_while_a_run_adds_more(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    run_study(STUDY, store, jobs=1)
    with store.connect() as con:  # a study stopped part way: random's second run is missing
        con.execute("DELETE FROM moves WHERE strategy = 'random' AND run = 1")
        con.execute("DELETE FROM games WHERE strategy = 'random' AND run = 1")
    report = build_report(store, "r")
    assert run_study(STUDY, store, jobs=1).played == 27  # another run stores them meanwhile
    assert len(report.games) == STUDY.n_games - 27
    assert len(report.moves) == report.games["guesses"].sum()
    assert set(report.moves.loc[report.moves["strategy"] == "random", "run"]) == {0}
    assert report.first_guesses() == {("3x3", "knuth"): "112", ("3x3", "random"): None,
                                      ("3x3", "most-parts:ties=random"): None}
    assert_same_figures(report.per_move, report._ordered(reference_per_move(report.moves), ["move"]))
    fresh = build_report(store, "r")
    assert len(fresh.moves) == fresh.games["guesses"].sum() > len(report.moves)
    assert fresh.per_move["games"].sum() == len(fresh.moves) > report.per_move["games"].sum()


def test_the_first_guesses_keep_to_the_games_a_report_read(tmp_path):
    """random's one game stored when the report was read opened with one guess: its first guess,
    until a run stores the others (a fresh report says random opened with several)."""
    store = Store(tmp_path / "r.duckdb")
    run_study(STUDY, store, jobs=1)
    with store.connect() as con:
        for table in ("moves", "games"):
            con.execute(f"DELETE FROM {table} WHERE strategy = 'random' AND (run, slot) <> (0, 4)")
    report = build_report(store, "r")
    opened = store.moves("r").query("strategy == 'random' and move == 1")["guess"].tolist()
    assert run_study(STUDY, store, jobs=1).played == 53
    assert report.first_guesses()[("3x3", "random")] == opened[0] and len(opened) == 1
    assert build_report(store, "r").first_guesses()[("3x3", "random")] is None


def test_a_report_reads_the_figures_of_the_games_alone_in_the_studys_order(stored):
    """(It read every column: the secrets and the runs' ids, texts, took most of the time and memory
    of reading a big study's games, 1.6 s and 440 MB at 6x9.) What it reads is the games' own, in the
    study's order as the report sorted them."""
    report = build_report(stored, "r")
    assert list(report.games.columns) == stats.GAME_FIGURE_COLUMNS
    everything = stored.games("r")  # (in the order of its key, sizes and strategies by name)
    full = Report(STUDY, everything, report.runs, stored).games
    assert report.games.equals(full[stats.GAME_FIGURE_COLUMNS])
    assert list(dict.fromkeys(report.games["strategy"])) == list(STUDY.strategies)
    assert Report(STUDY, everything.sample(frac=1, random_state=1), report.runs, stored).games.equals(full)
    for table in (stats.summary, stats.histogram):
        assert table(report.games).equals(table(full))
    assert stats.pairwise(report.games, report.runs_of) == stats.pairwise(full, report.runs_of)
    # within a strategy, by run, then slot: the order the store gives a study's games
    assert report.games.equals(stored.games("r", order=STUDY, columns=stats.GAME_FIGURE_COLUMNS))
    random = report.games[report.games["strategy"] == "random"]
    assert random["run"].tolist() == [0] * 27 + [1] * 27 and random["slot"].tolist() == [*range(27)] * 2


def test_a_strategy_stopped_in_its_first_run_is_paired_with_the_same_games_of_the_others(tmp_path):
    """random and most-parts play two runs each; most-parts was stopped in its first, so its games
    pair with random's of run 0 (not with random's mean over both runs, a deterministic strategy's
    pairing)."""
    store = Store(tmp_path / "r.duckdb")
    run_study(STUDY, store, jobs=1)
    spec = "most-parts:ties=random"
    with store.connect() as con:
        con.execute("DELETE FROM moves WHERE strategy = ? AND run = 1", [spec])
        con.execute("DELETE FROM games WHERE strategy = ? AND run = 1", [spec])
    report = build_report(store, "r")
    games = report.games[report.games["run"] == 0]
    (test,) = [t for t in report.tests if (t.first, t.second) == ("random", spec)]
    assert test == stats.wilcoxon(games, "random", spec)
    assert test.games == 27 and test.mean_difference == (
        games[games["strategy"] == "random"]["guesses"].to_numpy() - games[games["strategy"] == spec]["guesses"].to_numpy()).mean()


def test_a_study_stored_to_the_end_is_checked_in_one_connection(stored, monkeypatch):
    opened = _opened(stored, monkeypatch)
    assert run_study(STUDY, stored, jobs=1).played == 0
    assert opened == [True]


def test_a_write_inside_a_reading_block_closes_its_connection_and_reading_goes_on(stored, monkeypatch):
    opened = _opened(stored, monkeypatch)
    with stored.reading():
        assert stored.fingerprint("r") == STUDY.fingerprint
        stored.forget("r")  # (DuckDB opens a file read-only or to write in one process, not both)
        assert stored.fingerprint("r") is None and stored.studies().empty
    assert opened == [True, False, True]
    assert stored._reader is None


def test_moves_come_in_the_studys_order_of_sizes_and_strategies(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    study = Study("o", ("3x3", "2x4"), ("random", "knuth"), runs=2, seed=1)
    run_study(study, store, jobs=1)
    keyed = store.moves("o")
    assert list(dict.fromkeys(zip(keyed["size"], keyed["strategy"], strict=True))) == [
        ("2x4", "knuth"), ("2x4", "random"), ("3x3", "knuth"), ("3x3", "random")]
    ordered = store.moves("o", order=study)
    assert list(dict.fromkeys(zip(ordered["size"], ordered["strategy"], strict=True))) == [
        ("3x3", "random"), ("3x3", "knuth"), ("2x4", "random"), ("2x4", "knuth")]
    by_hand = keyed.assign(_s=keyed["size"].map({"3x3": 0, "2x4": 1}), _t=keyed["strategy"].map({"random": 0, "knuth": 1}))
    by_hand = by_hand.sort_values(["_s", "_t", "run", "slot", "move"]).drop(columns=["_s", "_t"]).reset_index(drop=True)
    assert ordered.equals(by_hand)
    assert build_report(store, "o").moves.equals(by_hand[stats.PER_MOVE_COLUMNS])  # (the columns it reads)


def test_the_note_on_plus_and_plus2_top_scorers_comes_only_with_their_figures(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    note = "for Plus and Plus2, 004 logged Most Parts&#x27; top scorers"
    run_study(Study("p", ("3x3",), ("plus:ties=random", "random"), seed=3), store, jobs=1)
    assert note in to_html(build_report(store, "p"))
    run_study(Study("q", ("3x3",), ("plus", "random"), seed=3), store, jobs=1)  # plus, deterministic: no top scorers
    report = build_report(store, "q")
    assert report.has_per_move("secret_seen") and note not in to_html(report)


def test_the_same_report_gives_the_same_page(stored):
    """(Its figures' SVG carried the time they were drawn and ids salted with a random uuid.)"""
    from mmlab.experiments.plots import figures_for

    report = build_report(stored, "r")
    pages = [to_html(report, figures_for(report.games, per_move=report.per_move, strategies=STUDY.strategies))
             for _ in range(2)]  # (figures drawn afresh: a figure saved again is laid out anew)
    assert "<svg" in pages[0] and "<dc:date>" not in pages[0] and pages[1] == pages[0]


def test_an_exact_mean_has_no_standard_error(stored):
    """As eval and compare give it: knuth's summary row gave 0.126 here (its games' spread over sqrt(n))."""
    summary = build_report(stored, "r").summary.set_index("strategy")
    assert summary.loc["knuth", "exact"] and summary.loc["knuth", "stderr"] == 0.0
    assert not summary.loc["random", "exact"] and summary.loc["random", "stderr"] > 0
    with stored.connect() as con:  # knuth stopped part way: its mean over 20 of the 27 secrets is an estimate
        for table in ("moves", "games"):
            con.execute(f"DELETE FROM {table} WHERE strategy = 'knuth' AND slot >= 20")
    summary = build_report(stored, "r").summary.set_index("strategy")
    assert summary.loc["knuth", "games"] == 20 and not summary.loc["knuth", "exact"]
    assert summary.loc["knuth", "stderr"] > 0


def test_a_per_move_table_ends_at_the_last_move_asked_for(stored):
    """``per_move_table(size, column, last_move)``: the moves up to and with ``last_move``, as printed;
    a figure or size it does not have refused (a KeyError from pandas, and an empty table, before)."""
    from mmlab.errors import BadArgument

    report = build_report(stored, "r")
    whole = report.per_move_table("3x3", "consistent")
    assert whole.index.max() > 2 and list(whole.columns) == list(STUDY.strategies)
    assert report.per_move_table("3x3", "consistent", last_move=2).equals(whole.loc[[1, 2]])
    with pytest.raises(BadArgument, match="no per-move figure 'nope': choose one of games, consistent, consistent_sd, "):
        report.per_move_table("3x3", "nope")
    with pytest.raises(BadArgument, match="the study has no size '4x6': choose one of 3x3"):
        report.per_move_table("4x6", "consistent")


def test_games_of_a_strategy_their_study_does_not_list_are_refused_in_one_line(tmp_path):
    """A store edited by hand: the report ended in a KeyError (and before 03968d2 in pandas' 'Cannot
    convert non-finite values (NA or inf) to integer')."""
    from mmlab.errors import StoreError

    store = Store(tmp_path / "r.duckdb")
    run_study(Study("o", ("3x3",), ("random", "knuth"), seed=1), store, jobs=1)
    with store.connect() as con:
        con.execute("UPDATE games SET strategy = 'entropy' WHERE strategy = 'knuth' AND slot = 0")
    with pytest.raises(StoreError, match=r"^the games of study 'o' hold the strategy 'entropy', which the study does "
                                         r"not list \(random, knuth\): was the store edited\? 'mmlab forget o'"):
        build_report(store, "o")


def test_the_plots_of_a_report_draw_its_exact_means_without_an_error_bar(tmp_path, monkeypatch):
    """(helper-118: the sweep drew a standard-error bar on a mean the table gives as exact.)"""
    from mmlab.experiments import plots

    store = Store(tmp_path / "r.duckdb")
    study = Study("sweep", ("3x3", "3x4"), ("knuth", "random"), secrets=30, seed=1)
    run_study(study, store, jobs=1)
    given = {}
    real = plots.figures_for
    monkeypatch.setattr(plots, "figures_for", lambda *args, **kwargs: given.update(kwargs) or real(*args, **kwargs))
    write_figures(build_report(store, "sweep"), str(tmp_path / "plots"), None)
    assert given["exact"] == {("knuth", "3x3")}  # (27 codes, all among the 30 secrets asked for; 3x4 has 64)
    assert (tmp_path / "plots" / "sweep-sweep-colours-mean.png").exists()
