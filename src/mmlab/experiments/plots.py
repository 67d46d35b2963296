"""Figures of a study's results: Merelo et al.'s (004) per-game and per-move plots, Singley's (003) sweeps.

Each function takes the frames of ``Store.games(study)`` / ``Store.moves(study)`` and returns a
``matplotlib.figure.Figure`` drawn on its own Agg canvas, never through pyplot, so figures can be
made from threads and without a display. A study with several sizes gets one panel per size.

>>> games = pd.DataFrame({"strategy": ["knuth"] * 3 + ["random"] * 3, "size": "4x6",
...                       "run": 0, "slot": [0, 1, 2] * 2, "guesses": [4, 5, 5, 4, 6, 6], "won": True})
>>> figure = guesses_histogram(games)
>>> [line.get_ydata().tolist() for line in figure.axes[0].lines]   # games per number of guesses 4..6
[[1, 2, 0], [1, 0, 2]]
>>> sorted(figures_for(games))
['guesses', 'wins-difference']
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd
from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from mmlab.errors import BadArgument, MastermindError
from mmlab.experiments import stats
from mmlab.experiments.labels import label
from mmlab.game import Game

__all__ = [
    "consistent_per_move",
    "draw_chance_per_move",
    "figures_for",
    "guesses_histogram",
    "label",
    "save",
    "secret_in_top_per_move",
    "sweep",
    "wins_difference",
    "write_svg",
]

_LINESTYLES = ("-", "--", ":", "-.")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
_PER_MOVE_X = "move (mean over the games still playing)"
_SCORED_X = "move (scored games: 2+ codes left)"


# ---------------------------------------------------------------------- labels and layout
def _pegs_colours(size: str) -> tuple[int, int]:
    try:
        game = Game.parse_size(str(size))
    except MastermindError:
        raise BadArgument(f"cannot read the size {size!r} in the results: expected PEGSxCOLOURS such as 4x6") from None
    return game.pegs, game.colours


def _check(frame: pd.DataFrame | None, columns: Sequence[str], what: str, source: str | None = None) -> pd.DataFrame:
    """``frame``, refused when empty, else as ``stats.checked`` refuses it (not a frame, or without
    ``columns``; ``source`` says what gives the right frame)."""
    if frame is None or isinstance(frame, pd.DataFrame) and frame.empty:
        raise BadArgument(f"there are no {what} to plot: run the study first (mmlab run)")
    return stats.checked(frame, columns, what, source)


PANELS_PER_ROW = 3


def _new_figure(panels: int, width: float = 5.0, height: float = 3.8) -> tuple[Figure, list[Axes]]:
    """A figure on its own Agg canvas (no pyplot) with ``panels`` axes, up to three to a row."""
    columns = min(panels, PANELS_PER_ROW)
    rows = -(-panels // columns)
    figure = Figure(figsize=(width * columns, height * rows), layout="constrained")
    FigureCanvasAgg(figure)
    grid = figure.subplots(rows, columns, squeeze=False).ravel()
    for spare in grid[panels:]:
        spare.remove()
    return figure, list(grid[:panels])


def _styles(specs: Iterable[str]) -> dict[str, dict]:
    """A fixed colour, line style and marker per strategy, in the order given (a study's), so the
    same in every figure of a study."""
    styles = {}
    for i, spec in enumerate(dict.fromkeys(specs)):
        styles[spec] = {"color": f"C{i % 10}", "linestyle": _LINESTYLES[i % len(_LINESTYLES)],
                        "marker": _MARKERS[i % len(_MARKERS)]}
    return styles


def _sizes(frame: pd.DataFrame) -> list[str]:
    """The sizes of ``frame`` in the order they first appear (a report's frames: the study's)."""
    return list(pd.unique(frame["size"]))


def _numeric(series: pd.Series) -> pd.Series:
    """Numbers with missing values as NaN, whatever dtype the store gave (Int64, boolean, object)."""
    if pd.api.types.is_bool_dtype(series.dtype):
        series = series.astype("Float64")
    return pd.to_numeric(series, errors="coerce").astype("float64")


# ---------------------------------------------------------------------- 004: games
def guesses_histogram(games: pd.DataFrame, labels: Mapping[str, str] | None = None) -> Figure:
    """Games won per number of guesses, one line per strategy, one panel per size (004 Fig. 1).

    Lost games (a study's ``max_guesses`` reached) are left out and counted in the legend. Where
    the strategies of a panel played different numbers of runs (a deterministic one plays each
    secret once, a random one once per run), the lines show each strategy's share of its games.
    ``labels`` names the strategies in the legend (default: ``label``, the short names).
    """
    games = _check(games, ["strategy", "size", "guesses", "won"], "games")
    specs = list(pd.unique(games["strategy"]))
    labels = labels or {spec: label(spec, specs) for spec in specs}
    styles = _styles(specs)
    sizes = _sizes(games)
    figure, axes = _new_figure(len(sizes))
    for ax, size in zip(axes, sizes):
        here = games[games["size"] == size]
        won = here[here["won"].astype(bool)]
        if won.empty:
            ax.set_title(f"{size}: no game won")
            continue
        ks = np.arange(int(won["guesses"].min()), int(won["guesses"].max()) + 1)
        shares = "run" in here and here.groupby("strategy", sort=False)["run"].nunique().nunique() > 1
        for spec in pd.unique(here["strategy"]):
            mine = here[here["strategy"] == spec]
            counts = mine.loc[mine["won"].astype(bool), "guesses"].value_counts().reindex(ks, fill_value=0)
            lost = int((~mine["won"].astype(bool)).sum())
            text = labels.get(spec, spec) + (f" ({lost} lost)" if lost else "")
            values = counts.to_numpy() * (100 / len(mine) if shares else 1)
            ax.plot(ks, values, label=text, **styles[spec])
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if not shares:  # a count of games
            ax.yaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
        ax.set_xlabel("guesses to find the secret")
        ax.set_ylabel("share of its games (%)" if shares else "games")
        ax.set_title(f"{size}: games per number of guesses")
        ax.legend(fontsize="small")
    return figure


def wins_difference(games: pd.DataFrame, first: str, second: str, score: bool = False,
                    runs: Mapping[str, int] | None = None) -> Figure:
    """Per move k, games ``first`` finished at move k minus games ``second`` finished at k (004 Fig. 2).

    Only games both strategies played (same size, run and slot) count, so the bars sum to the
    difference in games won. A strategy that played one run against the other's several (a
    deterministic one plays each secret once) is paired with every run, its games counted once
    per run. With ``score=True`` each bar is multiplied by k: the difference in total guesses
    contributed by games finishing at that move (004 Fig. 3). ``runs`` gives the runs each strategy
    plays in its study (``Study.runs_of``); without it they are read from the games, which in a
    study not played to the end may hold only the first run of a strategy that plays several.
    """
    games = _check(games, ["strategy", "size", "run", "slot", "guesses", "won"], "games")
    specs = list(pd.unique(games["strategy"]))
    for spec in (first, second):
        if spec not in specs:
            raise BadArgument(f"no games of {spec!r} in the results; they hold {', '.join(specs)}")
    if first == second:
        raise BadArgument(f"wins_difference needs two different strategies, got {first!r} twice")
    key = ["size", "run", "slot"]
    mine, theirs = games[games["strategy"] == first], games[games["strategy"] == second]
    planned = runs or {}
    a = _over_runs(mine, theirs, planned.get(first), planned.get(second)).set_index(key)
    b = _over_runs(theirs, mine, planned.get(second), planned.get(first)).set_index(key)
    common = a.index.intersection(b.index)
    a, b = a.loc[common], b.loc[common]
    stats.require_same_secrets(first, second, common, *(f.get("secret") for f in (a, b)))
    sizes = [size for size in _sizes(games) if size in set(common.get_level_values("size"))]
    if not sizes:
        raise BadArgument(f"{first!r} and {second!r} played no game in common (same size, run and slot)")
    one, two = label(first, specs), label(second, specs)
    figure, axes = _new_figure(len(sizes))
    for ax, size in zip(axes, sizes):
        ga, gb = a.xs(size, level="size"), b.xs(size, level="size")
        fa = ga.loc[ga["won"].astype(bool), "guesses"].value_counts()
        fb = gb.loc[gb["won"].astype(bool), "guesses"].value_counts()
        ks = np.arange(1, int(max(fa.index.max() if len(fa) else 1, fb.index.max() if len(fb) else 1)) + 1)
        diff = fa.reindex(ks, fill_value=0) - fb.reindex(ks, fill_value=0)
        if score:
            diff = diff * ks
        values = diff.to_numpy()
        ax.bar(ks, values, color=np.where(values >= 0, "C0", "C3"), edgecolor="black", linewidth=0.5)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("move")
        what = "guesses (games x move)" if score else "games finished at this move"
        ax.set_ylabel(f"{what}:\n{one} minus {two}")
        ax.set_title(f"{size}: {'score' if score else 'wins'} difference ({len(ga)} paired games)")
    return figure


def _over_runs(mine: pd.DataFrame, other: pd.DataFrame, my_runs: int | None = None,
               other_runs: int | None = None) -> pd.DataFrame:
    """``mine``'s games, where on a size it plays one run and ``other`` several, copied to each
    of ``other``'s runs (a study's secret slots hold the same secrets in every run). ``my_runs``
    and ``other_runs``: the runs each plays in the study; by default, those its games hold.

    >>> one = pd.DataFrame({"size": "4x6", "run": 0, "slot": [0, 1], "guesses": [4, 5]})
    >>> three = pd.DataFrame({"size": "4x6", "run": [0, 1, 2] * 2, "slot": [0, 0, 0, 1, 1, 1]})
    >>> _over_runs(one, three)["run"].tolist()
    [0, 0, 1, 1, 2, 2]
    """
    parts = []
    for size, here in mine.groupby("size", sort=False):
        runs = pd.unique(other.loc[other["size"] == size, "run"])
        if (my_runs or here["run"].nunique()) == 1 and (other_runs or len(runs)) > 1:
            parts.extend(here.assign(run=run) for run in sorted(runs))
        else:
            parts.append(here)
    return pd.concat(parts, ignore_index=True) if parts else mine


# ---------------------------------------------------------------------- 004: moves
def _per_move_table(moves: pd.DataFrame | None, table: pd.DataFrame | None,
                    column: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``stats.per_move`` table of ``moves``, or ``table`` when given (theirs, made already) with
    the figure ``column``, and the frame whose order of sizes and strategies a figure follows: the
    moves', else the table's (a report's is in its study's order; ``stats.per_move`` sorts by name)."""
    if table is None:
        moves = _check(moves, stats.PER_MOVE_COLUMNS, "moves")
        return stats.per_move(moves), moves
    table = _check(table, ["size", "strategy", "move", column], "per-move figures",
                   "Report.per_move or stats.per_move(moves)")
    return table, table if moves is None else moves


def _per_move(moves: pd.DataFrame | None, column: str, ylabel: str, title: str, xlabel: str, log: bool = False,
              table: pd.DataFrame | None = None) -> Figure:
    """One figure of ``stats.per_move`` per move number, a line per strategy that recorded it, a
    panel per size: the plots show the report's tables (``table``, when given, is that of ``moves``)."""
    table, order = _per_move_table(moves, table, column)
    specs = list(pd.unique(order["strategy"]))
    styles = _styles(specs)
    data = table.assign(_value=_numeric(table[column])).dropna(subset=["_value"])
    if data.empty:
        raise BadArgument(f"no strategy of these results recorded {column!r} (search strategies leave it unknown)")
    sizes = [size for size in _sizes(order) if size in set(data["size"])]  # (stats.per_move sorts by size)
    figure, axes = _new_figure(len(sizes))
    for ax, size in zip(axes, sizes):
        here = data[data["size"] == size]
        for spec in (s for s in specs if s in set(here["strategy"])):
            line = here[here["strategy"] == spec].sort_values("move")
            ax.plot(line["move"].to_numpy(), line["_value"].to_numpy(), label=label(spec, specs), **styles[spec])
        if log:
            ax.set_yscale("log")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(f"{size}: {title}")
        ax.legend(fontsize="small")
    return figure


def consistent_per_move(moves: pd.DataFrame | None = None, table: pd.DataFrame | None = None) -> Figure:
    """Mean size of the consistent set before each move, per strategy, log scale (004 Fig. 4).

    Means are over the games still playing at that move; strategies that do not enumerate the
    set (NA) are left out. ``table``: the ``stats.per_move`` table of the moves, given with them or
    instead of them (a report's, ``Report.per_move``).
    """
    return _per_move(moves, "consistent", "mean consistent codes before the move", "consistent set", _PER_MOVE_X,
                     log=True, table=table)


def secret_in_top_per_move(moves: pd.DataFrame | None = None, table: pd.DataFrame | None = None) -> Figure:
    """Share of games whose secret has been among the top scorers by each move (004 Fig. 5, the
    cumulative reading of Tables 5, 8, 10), over the games whose move was scored; ``table`` as for
    ``consistent_per_move``."""
    return _per_move(moves, "secret_seen", "share of games with the secret\namong the top scorers so far",
                     "secret among the top scorers", _SCORED_X, table=table)


def draw_chance_per_move(moves: pd.DataFrame | None = None, table: pd.DataFrame | None = None) -> Figure:
    """Mean chance that the move drew the secret (1/top scorers, or 0) over the games whose move was
    scored, per move and strategy (004 Fig. 6); ``table`` as for ``consistent_per_move``."""
    return _per_move(moves, "chance", "mean chance of drawing the secret", "chance of drawing the secret",
                     _SCORED_X, table=table)


# ---------------------------------------------------------------------- 003: sweeps
def sweep(games: pd.DataFrame, by: str = "colours", stat: str = "mean",
          exact: Collection[tuple[str, str]] = ()) -> Figure:
    """Mean (± standard error) or max guesses against colours or pegs, a line per strategy (003 Figs. 6-1..6-8).

    The other dimension stays fixed along a line; when the sizes hold several values of it (say
    4x6..4x10 and 3x8..7x8), each value with two sizes or more gets its own line, labelled ``n=4``,
    in the strategy's colour with a line style and marker of its value. ``exact``: the ``(strategy,
    size)`` pairs whose mean is exact (``Study.exact_mean``: a deterministic strategy over every
    code), drawn without an error bar, as the report's table gives them without a standard error.
    """
    if by not in ("colours", "pegs"):
        raise BadArgument(f"sweep by {by!r}: choose 'colours' or 'pegs'")
    if stat not in ("mean", "max"):
        raise BadArgument(f"sweep statistic {stat!r}: choose 'mean' or 'max'")
    games = _check(games, ["strategy", "size", "guesses"], "games")
    fixed = "pegs" if by == "colours" else "colours"
    symbol = {"pegs": "n", "colours": "m"}
    parsed = pd.DataFrame([_pegs_colours(s) for s in games["size"]], columns=["pegs", "colours"], index=games.index)
    data = pd.concat([games[["strategy", "guesses"]], parsed], axis=1)
    spans = data.groupby(fixed)[by].nunique()
    keep = spans[spans >= 2].index if (spans >= 2).any() else spans.index
    data = data[data[fixed].isin(keep)]
    specs = list(pd.unique(games["strategy"]))
    styles = _styles(specs)
    exact_points = {(spec, _pegs_colours(size)) for spec, size in exact}
    figure, (ax,) = _new_figure(1, width=6.0, height=4.2)
    for spec in pd.unique(data["strategy"]):
        for value in sorted(pd.unique(data.loc[data["strategy"] == spec, fixed])):
            mine = data[(data["strategy"] == spec) & (data[fixed] == value)]
            grouped = mine.groupby(by)["guesses"]
            text = label(spec, specs) + (f" ({symbol[fixed]}={value})" if len(keep) > 1 else "")
            style = styles[spec] if len(keep) == 1 else {**styles[spec], **_value_style(list(keep).index(value))}
            if stat == "mean":
                means = grouped.mean()
                sem = (grouped.std(ddof=1) / np.sqrt(grouped.count())).fillna(0)
                points = [(spec, (value, x) if fixed == "pegs" else (x, value)) for x in sem.index]
                sem = sem.where([point not in exact_points for point in points], 0.0)
                ax.errorbar(means.index.to_numpy(), means.to_numpy(), yerr=sem.to_numpy(),
                            capsize=3, label=text, **style)
            else:
                peaks = grouped.max()
                ax.plot(peaks.index.to_numpy(), peaks.to_numpy(), label=text, **style)
    values = sorted(pd.unique(data[by]))
    ax.set_xticks(values)
    ax.set_xlabel("number of colours (m)" if by == "colours" else "number of pegs (n)")
    ax.set_ylabel("mean guesses (± standard error)" if stat == "mean" else "maximum guesses")
    held = ", ".join(f"{symbol[fixed]} = {v}" for v in keep)
    ax.set_title(f"{stat} guesses against {by} ({held})")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)  # beside the lines
    return figure


def _value_style(i: int) -> dict:
    """The line style and marker of the ``i``-th value of a sweep's fixed dimension."""
    return {"linestyle": _LINESTYLES[i % len(_LINESTYLES)], "marker": _MARKERS[i % len(_MARKERS)]}


# ---------------------------------------------------------------------- output
def save(figure: Figure, path_stem: str | Path, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
    """Write ``figure`` as ``path_stem.png``, ``path_stem.svg``, ... and return the paths written.

    The same results give the same SVG file (``write_svg``).
    """
    stem = Path(path_stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    if figure.canvas is None or not isinstance(figure.canvas, FigureCanvasAgg):
        FigureCanvasAgg(figure)
    supported = figure.canvas.get_supported_filetypes()
    written = []
    for fmt in formats:
        fmt = fmt.lower().lstrip(".")
        if fmt not in supported:
            raise BadArgument(f"cannot write a figure as {fmt!r}: choose among {', '.join(sorted(supported))}")
        path = stem.parent / f"{stem.name}.{fmt}"
        if fmt == "svg":
            write_svg(figure, path, dpi="figure")
        else:
            figure.savefig(path, format=fmt, dpi=150 if fmt == "png" else "figure")
        written.append(path)
    return written


def write_svg(figure: Figure, target: str | Path | IO[str], **options) -> None:
    """Write ``figure`` as SVG to ``target`` (a path or a text file; ``options`` for ``savefig``),
    the same bytes for the same figure: no date, and ids made from the content with a fixed salt
    (matplotlib dates an SVG and salts its ids with a random uuid, so two files of one figure differed).

    >>> import io
    >>> figure = guesses_histogram(pd.DataFrame({"strategy": "a", "size": "3x3", "guesses": [2, 3], "won": True}))
    >>> texts = [io.StringIO(), io.StringIO()]
    >>> for text in texts:
    ...     write_svg(figure, text)
    >>> texts[0].getvalue() == texts[1].getvalue() and "<dc:date>" not in texts[0].getvalue()
    True
    """
    with rc_context({"svg.hashsalt": "mmlab"}):
        figure.savefig(target, format="svg", metadata={"Date": None}, **options)


def _recorded(per_move: pd.DataFrame | None, column: str) -> bool:
    """Whether some strategy has a figure in ``column`` of the ``stats.per_move`` table: moves of
    strategies that do not know their consistent set (``sample``, ``evo``) are not scored there."""
    return per_move is not None and column in per_move and _numeric(per_move[column]).notna().any()


def _varies_alone(games: pd.DataFrame, by: str) -> bool:
    """Whether two sizes or more differ only in ``by`` (pegs or colours)."""
    sizes = pd.DataFrame([_pegs_colours(s) for s in pd.unique(games["size"])], columns=["pegs", "colours"])
    fixed = "pegs" if by == "colours" else "colours"
    return bool((sizes.groupby(fixed)[by].nunique() >= 2).any())


def figures_for(games: pd.DataFrame, moves: pd.DataFrame | None = None,
                strategies: Sequence[str] | None = None, runs: Mapping[str, int] | None = None,
                per_move: pd.DataFrame | None = None,
                exact: Collection[tuple[str, str]] = ()) -> dict[str, Figure]:
    """The figures that make sense for a study, by name (a file stem for ``save``).

    ``guesses`` always; ``wins-difference`` between the first two ``strategies`` (default: in the
    order of ``games``); ``consistent``, ``secret-in-top`` and ``draw-chance`` when some strategy
    recorded them; ``sweep-colours-mean`` / ``-max`` and ``sweep-pegs-mean`` / ``-max`` when two
    sizes or more differ in that dimension alone. ``runs``: the runs each strategy plays in its
    study, as for ``wins_difference``. ``per_move``: the ``stats.per_move`` table of the moves,
    given instead of them (``Report.per_move``, computed in the store: a big study's moves would
    fill gigabytes). ``exact``: as for ``sweep``.
    """
    games = _check(games, ["strategy", "size", "guesses", "won"], "games")
    present = list(pd.unique(games["strategy"]))
    order = [s for s in (strategies or present) if s in present]
    makers: dict[str, Callable[[], Figure]] = {"guesses": lambda: guesses_histogram(games)}
    if len(order) >= 2:
        makers["wins-difference"] = lambda: wins_difference(games, order[0], order[1], runs=runs)
    table = per_move if per_move is not None else stats.per_move(moves) if moves is not None and not moves.empty else None
    for name, column, make in (("consistent", "consistent", consistent_per_move),
                               ("secret-in-top", "secret_seen", secret_in_top_per_move),
                               ("draw-chance", "chance", draw_chance_per_move)):
        if _recorded(table, column):
            makers[name] = lambda make=make: make(moves, table=table)
    for by in ("colours", "pegs"):
        if _varies_alone(games, by):
            for stat in ("mean", "max"):
                makers[f"sweep-{by}-{stat}"] = lambda by=by, stat=stat: sweep(games, by, stat, exact)
    return {name: make() for name, make in makers.items()}

