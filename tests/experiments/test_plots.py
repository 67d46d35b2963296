"""Figures of a study: each plots what an independent pandas computation gives, and saves as PNG and SVG."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure

from mmlab.errors import BadArgument
from mmlab.experiments import stats
from mmlab.experiments.plots import (
    consistent_per_move,
    draw_chance_per_move,
    figures_for,
    guesses_histogram,
    label,
    save,
    secret_in_top_per_move,
    sweep,
    wins_difference,
)

A = "entropy:pool=consistent,ties=random,first=1231"
B = "most-parts:pool=consistent,ties=random,first=1231"
C = "tabu"


def make_games(rows):
    """Rows ``(strategy, size, run, slot, guesses, won)`` as a games frame."""
    return pd.DataFrame(rows, columns=["strategy", "size", "run", "slot", "guesses", "won"]).assign(study="t")


@pytest.fixture
def games():
    rng = np.random.default_rng(5)
    rows = []
    for size, top in (("4x6", 7), ("3x3", 5)):
        for spec in (A, B):
            for slot in range(40):
                rows.append((spec, size, 0, slot, int(rng.integers(1, top + 1)), True))
    rows.append((B, "4x6", 0, 40, 9, False))  # lost, and unpaired: A has no slot 40
    return make_games(rows)


@pytest.fixture
def moves():
    """Two enumerating strategies with per-move figures, one search strategy with NA, games of 1 to 4 moves."""
    rng = np.random.default_rng(9)
    rows = []
    for spec in (A, B, C):
        for slot in range(30):
            for move in range(1, int(rng.integers(1, 5)) + 1):
                if spec == C:
                    rows.append((spec, "4x6", 0, slot, move, pd.NA, pd.NA, pd.NA, np.nan))
                else:
                    top = int(rng.integers(1, 6))
                    inside = bool(rng.integers(0, 2))
                    rows.append((spec, "4x6", 0, slot, move, int(rng.integers(1, 1297)), top, inside,
                                 1 / top if inside else 0.0))
    frame = pd.DataFrame(rows, columns=["strategy", "size", "run", "slot", "move", "consistent", "top_size",
                                        "secret_in_top", "chance"])
    return frame.astype({"consistent": "Int64", "top_size": "Int64", "secret_in_top": "boolean", "chance": "float64"})


def lines_by_label(ax):
    return {line.get_label(): line for line in ax.lines if not line.get_label().startswith("_")}


# ---------------------------------------------------------------------- labels
def test_label_is_the_name_unless_two_strategies_share_it():
    specs = [A, B, C, "entropy:pool=consistent,ties=random,first=1234"]
    assert label(A, [A, B, C]) == "entropy"
    assert label(C, specs) == "tabu"
    assert label(A, specs) == "entropy (first=1231)"
    assert label(specs[3], specs) == "entropy (first=1234)"
    assert label("entropy", ["entropy", "entropy:ties=random"]) == "entropy"
    assert label("entropy:ties=random", ["entropy", "entropy:ties=random"]) == "entropy (ties=random)"
    assert label("knuth:a=1,b=2", ["knuth:a=1,b=2", "knuth:b=2,a=1"]) == "knuth (a=1,b=2)"  # same parameters


# ---------------------------------------------------------------------- 004 Fig. 1 and 2
def test_histogram_counts_won_games_per_guess_one_panel_per_size(games):
    figure = guesses_histogram(games)
    assert isinstance(figure, Figure) and len(figure.axes) == 2
    assert [ax.get_title().split(":")[0] for ax in figure.axes] == ["4x6", "3x3"]  # in the games' (a study's) order
    for ax in figure.axes:
        size = ax.get_title().split(":")[0]
        assert ax.get_xlabel() == "guesses to find the secret" and ax.get_ylabel() == "games"
        here = games[(games["size"] == size) & games["won"]]
        expected = pd.crosstab(here["guesses"], here["strategy"])
        lines = lines_by_label(ax)
        assert len(lines) == 2
        for spec, text in ((A, "entropy"), (B, "most-parts")):
            line = lines[text + (" (1 lost)" if size == "4x6" and spec == B else "")]
            assert line.get_xdata().tolist() == expected.index.tolist()
            assert line.get_ydata().tolist() == expected[spec].tolist()


def test_wins_difference_counts_paired_games_finished_at_each_move(games):
    figure = wins_difference(games, A, B)
    assert len(figure.axes) == 2
    for ax in figure.axes:
        size = ax.get_title().split(":")[0]
        (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
        here = games[(games["size"] == size) & games["won"] & (games["slot"] < 40)]  # slot 40 is unpaired
        per_move = pd.crosstab(here["guesses"], here["strategy"]).reindex(range(1, 8), fill_value=0)
        diff = (per_move[A] - per_move[B]).loc[: len(bars)]
        assert [p.get_x() + p.get_width() / 2 for p in bars] == diff.index.tolist()
        assert [p.get_height() for p in bars] == diff.tolist()
        assert ax.get_xlabel() == "move" and "entropy minus most-parts" in ax.get_ylabel()
    scored = wins_difference(games, A, B, score=True).axes[0]
    plain = figure.axes[0]
    heights = [p.get_height() for p in plain.containers[0]]
    assert [p.get_height() for p in scored.containers[0]] == [h * k for k, h in enumerate(heights, 1)]
    with pytest.raises(BadArgument, match="no games of 'knuth'"):
        wins_difference(games, A, "knuth")


def test_a_strategy_that_has_played_only_its_first_run_so_far_is_paired_game_by_game():
    """Both strategies play three runs; B was stopped in its first (a study not played to the end):
    told the runs each plays, its games pair with A's of run 0 alone, not with every run of A's."""
    rng = np.random.default_rng(4)
    rows = [(A, "4x6", run, slot, int(rng.integers(3, 7)), True) for run in range(3) for slot in range(40)]
    rows += [(B, "4x6", 0, slot, int(rng.integers(3, 7)), True) for slot in range(40)]
    games = make_games(rows)
    for figure in (wins_difference(games, A, B, runs={A: 3, B: 3}),
                   figures_for(games, strategies=[A, B], runs={A: 3, B: 3})["wins-difference"]):
        ax = figure.axes[0]
        assert "(40 paired games)" in ax.get_title()
        first = games[games["run"] == 0]
        counts = pd.crosstab(first["guesses"], first["strategy"]).reindex(range(1, 7), fill_value=0)
        assert [p.get_height() for p in ax.containers[0]] == (counts[A] - counts[B]).tolist()


def test_a_deterministic_strategy_is_paired_with_every_run_and_drawn_as_shares():
    """Knuth plays each secret once (run 0), a random strategy three times: the difference counts
    Knuth's games once per run, and the histogram compares shares, not 40 games against 120."""
    rng = np.random.default_rng(3)
    rows = [("knuth", "4x6", 0, slot, int(rng.integers(3, 6)), True) for slot in range(40)]
    rows += [(A, "4x6", run, slot, int(rng.integers(3, 7)), True) for run in range(3) for slot in range(40)]
    games = make_games(rows)
    ax = wins_difference(games, "knuth", A).axes[0]
    assert "(120 paired games)" in ax.get_title()
    knuth = games[games["strategy"] == "knuth"]["guesses"].value_counts() * 3
    other = games[games["strategy"] == A]["guesses"].value_counts()
    expected = knuth.reindex(range(1, 7), fill_value=0) - other.reindex(range(1, 7), fill_value=0)
    assert [p.get_height() for p in ax.containers[0]] == expected.tolist()
    ax = guesses_histogram(games).axes[0]
    assert ax.get_ylabel() == "share of its games (%)"
    for line in lines_by_label(ax).values():
        assert sum(line.get_ydata()) == pytest.approx(100)


# ---------------------------------------------------------------------- 004 Figs. 4-6
@pytest.mark.parametrize("plot, column, log, population", [
    (consistent_per_move, "consistent", True, "still playing"),
    (secret_in_top_per_move, "secret_seen", False, "scored"),
    (draw_chance_per_move, "chance", False, "scored")])
def test_per_move_figures_show_the_report_tables(moves, plot, column, log, population):
    """The lines are the per-move tables of the report (stats.per_move, checked game by game in
    test_stats.py)."""
    figure = plot(moves)
    (ax,) = figure.axes
    assert ax.get_yscale() == ("log" if log else "linear")
    assert population in ax.get_xlabel() and ax.get_ylabel()
    lines = lines_by_label(ax)
    assert sorted(lines) == ["entropy", "most-parts"]  # tabu recorded nothing: no line
    table = stats.per_move(moves)
    for spec, text in ((A, "entropy"), (B, "most-parts")):
        expected = table[(table["strategy"] == spec)].set_index("move")[column].astype("float64").dropna()
        assert lines[text].get_xdata().tolist() == expected.index.tolist()
        np.testing.assert_allclose(lines[text].get_ydata(), expected.to_numpy())


def _drawn(figure):
    """What a figure shows: per panel, its title and each line's label, style and points."""
    return [(ax.get_title(), [(line.get_label(), line.get_color(), line.get_linestyle(), line.get_marker(),
                               list(line.get_xdata()), list(line.get_ydata())) for line in ax.lines])
            for ax in figure.axes]


def test_the_per_move_table_draws_what_its_moves_draw(games, moves):
    """A report gives its per-move table (computed in the store) instead of its moves."""
    table = stats.per_move(moves)
    for plot in (consistent_per_move, secret_in_top_per_move, draw_chance_per_move):
        assert _drawn(plot(table=table)) == _drawn(plot(moves)) == _drawn(plot(moves, table=table))
    by_moves, by_table = figures_for(games, moves), figures_for(games, per_move=table)
    assert list(by_table) == list(by_moves) and all(_drawn(by_table[k]) == _drawn(by_moves[k]) for k in by_moves)
    with pytest.raises(BadArgument, match=r"lacks the column\(s\) chance; pass Report.per_move or stats.per_move"):
        draw_chance_per_move(table=table.drop(columns="chance"))


def test_per_move_refuses_a_column_nobody_recorded(moves):
    with pytest.raises(BadArgument, match="recorded 'chance'"):
        draw_chance_per_move(moves[moves["strategy"] == C])


# ---------------------------------------------------------------------- 003 sweeps
@pytest.fixture
def sweep_games():
    rng = np.random.default_rng(3)
    rows = [(spec, size, 0, slot, int(rng.integers(3, 12)), True)
            for spec in ("greedy1", "tabu") for size in ("4x6", "4x7", "4x8", "3x8", "5x8") for slot in range(25)]
    return make_games(rows)


@pytest.mark.parametrize("by, held, axis", [("colours", "4x", "number of colours (m)"),
                                            ("pegs", "x8", "number of pegs (n)")])
def test_sweep_mean_with_standard_errors(sweep_games, by, held, axis):
    (ax,) = sweep(sweep_games, by=by, stat="mean").axes
    assert ax.get_xlabel() == axis and ax.get_ylabel() == "mean guesses (± standard error)"
    line_of = {c.get_label(): c for c in ax.containers if isinstance(c, ErrorbarContainer)}
    assert sorted(line_of) == ["greedy1", "tabu"]
    data = sweep_games[sweep_games["size"].str.startswith(held) if held.endswith("x")
                       else sweep_games["size"].str.endswith(held)]
    position = 1 if by == "colours" else 0
    for spec, container in line_of.items():
        mine = data[data["strategy"] == spec]
        x = mine["size"].str.split("x").str[position].astype(int)
        grouped = mine["guesses"].groupby(x)
        line = container.lines[0]
        assert line.get_xdata().tolist() == sorted(x.unique().tolist())
        np.testing.assert_allclose(line.get_ydata(), grouped.mean().to_numpy())
        segments = container.lines[2][0].get_segments()  # one vertical bar per point: mean ± s.e.
        half = [(seg[1][1] - seg[0][1]) / 2 for seg in segments]
        np.testing.assert_allclose(half, (grouped.std() / np.sqrt(grouped.count())).to_numpy())


def test_an_exact_mean_has_no_error_bar_as_it_has_no_standard_error_in_the_table(sweep_games):
    """A deterministic strategy over every code has an exact mean: the report gives it without a
    standard error, and the sweep drew it with one (helper-118)."""
    (ax,) = sweep(sweep_games, by="colours", stat="mean", exact={("greedy1", "4x7")}).axes
    line_of = {c.get_label(): c for c in ax.containers if isinstance(c, ErrorbarContainer)}
    half = {spec: [(seg[1][1] - seg[0][1]) / 2 for seg in container.lines[2][0].get_segments()]
            for spec, container in line_of.items()}
    assert half["greedy1"][1] == 0 and half["greedy1"][0] > 0 and half["greedy1"][2] > 0  # (4x6, 4x7, 4x8)
    assert all(h > 0 for h in half["tabu"])


def test_sweep_max_and_one_line_per_fixed_size(sweep_games):
    (ax,) = sweep(sweep_games, by="pegs", stat="max").axes
    assert ax.get_ylabel() == "maximum guesses"
    mine = sweep_games[(sweep_games["strategy"] == "tabu") & sweep_games["size"].str.endswith("x8")]
    assert lines_by_label(ax)["tabu"].get_ydata().tolist() == mine.groupby("size")["guesses"].max().tolist()
    grid = make_games([(s, z, 0, 0, 5, True) for s in ("a", "b") for z in ("4x6", "4x7", "5x6", "5x7")])
    (ax,) = sweep(grid, by="colours", stat="max").axes
    assert sorted(lines_by_label(ax)) == ["a (n=4)", "a (n=5)", "b (n=4)", "b (n=5)"]
    with pytest.raises(BadArgument, match="choose 'colours' or 'pegs'"):
        sweep(grid, by="stones")


def test_each_fixed_value_of_a_sweep_has_its_own_style_and_the_legend_stands_beside_the_lines():
    grid = make_games([(s, z, 0, 0, 5, True) for s in ("a", "b") for z in ("4x6", "4x7", "5x6", "5x7")])
    (ax,) = sweep(grid, by="colours", stat="max").axes
    lines = lines_by_label(ax)
    looks = {text: (line.get_color(), line.get_linestyle(), line.get_marker()) for text, line in lines.items()}
    assert looks["a (n=4)"][0] == looks["a (n=5)"][0] != looks["b (n=4)"][0]  # a colour per strategy
    assert looks["a (n=4)"][1:] != looks["a (n=5)"][1:] and looks["a (n=4)"][1:] == looks["b (n=4)"][1:]
    figure = ax.figure
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    assert ax.get_legend().get_window_extent(renderer).x0 >= ax.get_window_extent(renderer).x1


def test_panels_lines_and_styles_follow_the_order_of_the_study(moves):
    """A report's frames come in the study's order of sizes and strategies; every figure keeps it."""
    study_order = pd.concat([moves.assign(size="4x6"), moves.assign(size="3x3")])
    study_order = pd.concat([study_order[study_order["strategy"] == s] for s in (B, A, C)])
    study_order = pd.concat([study_order[study_order["size"] == z] for z in ("4x6", "3x3")])
    games = study_order[study_order["move"] == 1].assign(guesses=3, won=True)
    table = stats.per_move(study_order)  # (by name) as a report orders it: by the study
    table = table.sort_values("strategy", key=lambda s: s.map({B: 0, A: 1, C: 2}), kind="stable")
    table = table.sort_values("size", key=lambda s: s.map({"4x6": 0, "3x3": 1}), kind="stable")
    for figure in (consistent_per_move(study_order), consistent_per_move(table=table), guesses_histogram(games)):
        assert [ax.get_title().split(":")[0] for ax in figure.axes] == ["4x6", "3x3"]
        legend = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
        assert legend[:2] == ["most-parts", "entropy"]
        assert lines_by_label(figure.axes[0])["most-parts"].get_color() == "C0"


def test_counts_of_games_get_whole_ticks_and_legends_the_names_given():
    games = make_games([("ga:variant=berghman", "5x8", 0, slot, 4 + slot % 3, True) for slot in range(25)])
    (ax,) = guesses_histogram(games, labels={"ga:variant=berghman": "ga:variant=berghman"}).axes
    assert all(float(tick).is_integer() for tick in ax.get_yticks())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["ga:variant=berghman"]


# ---------------------------------------------------------------------- files and choice
def test_save_writes_png_and_svg(tmp_path, games):
    paths = save(guesses_histogram(games), tmp_path / "figs" / "guesses")
    assert paths == [tmp_path / "figs" / "guesses.png", tmp_path / "figs" / "guesses.svg"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in paths[1].read_text()
    with pytest.raises(BadArgument, match="cannot write a figure as 'docx'"):
        save(guesses_histogram(games), tmp_path / "x", formats=("docx",))


def test_the_same_figure_gives_the_same_svg_file(tmp_path, games):
    """(The files differed in their ids, which matplotlib salts with a random uuid.)"""
    first, again = (save(guesses_histogram(games), tmp_path / name, formats=("svg",))[0].read_bytes()
                    for name in ("a", "b"))
    assert first == again and b"<dc:date>" not in first


def test_figures_for_chooses_by_the_data(games, moves, sweep_games):
    figures = figures_for(games, moves)
    assert list(figures) == ["guesses", "wins-difference", "consistent", "secret-in-top", "draw-chance"]
    assert all(isinstance(f, Figure) for f in figures.values())
    assert "entropy minus most-parts" in figures["wins-difference"].axes[0].get_ylabel()
    swapped = figures_for(games, strategies=[B, A])
    assert list(swapped) == ["guesses", "wins-difference"]
    assert "most-parts minus entropy" in swapped["wins-difference"].axes[0].get_ylabel()
    # A search strategy records no per-move figures: none is drawn.
    searching = moves[moves["strategy"] == C]
    assert list(figures_for(games, searching)) == ["guesses", "wins-difference"]
    # Sampling strategies record their top scorers but not the consistent set: the report leaves
    # their moves out of the shares, so no per-move figure is drawn for them either.
    sampling = moves[moves["strategy"] == A].assign(consistent=pd.NA).astype({"consistent": "Int64"})
    assert sampling["top_size"].notna().any()
    assert list(figures_for(games, sampling)) == ["guesses", "wins-difference"]
    assert list(figures_for(sweep_games)) == ["guesses", "wins-difference", "sweep-colours-mean",
                                              "sweep-colours-max", "sweep-pegs-mean", "sweep-pegs-max"]
    one = sweep_games[sweep_games["strategy"] == "tabu"]
    assert list(figures_for(one[one["size"].isin(["4x6", "5x8"])])) == ["guesses"]  # differ in both


def test_a_real_study_end_to_end(tmp_path):
    from mmlab.experiments.runner import run_study
    from mmlab.experiments.store import Store
    from mmlab.experiments.study import Study

    study = Study("plots", ("3x3",), (A.replace("1231", "123"), B.replace("1231", "123"), "random"), seed=1)
    store = Store(tmp_path / "results.duckdb")
    run_study(study, store, jobs=1)
    games, moves = store.games("plots"), store.moves("plots")
    figures = figures_for(games, moves, strategies=study.strategies)
    assert list(figures) == ["guesses", "wins-difference", "consistent", "secret-in-top", "draw-chance"]
    lines = lines_by_label(figures["draw-chance"].axes[0])
    assert sorted(lines) == ["entropy", "most-parts", "random"]
    table = stats.per_move(moves)
    expected = table[table["strategy"] == "random"]["chance"].astype("float64").dropna()
    np.testing.assert_allclose(lines["random"].get_ydata(), expected.to_numpy())
    for name, figure in figures.items():
        assert all(p.stat().st_size > 0 for p in save(figure, tmp_path / name))


def test_figures_are_drawn_without_pyplot():
    """No pyplot global state: the figure has its own Agg canvas, and pyplot is never imported."""
    code = ("import sys, pandas as pd; from mmlab.experiments.plots import guesses_histogram; "
            "f = guesses_histogram(pd.DataFrame({'strategy': ['a'], 'size': ['4x6'], 'guesses': [3], 'won': [True]})); "
            "f.canvas.draw(); print(type(f.canvas).__name__, 'matplotlib.pyplot' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["FigureCanvasAgg", "False"]
