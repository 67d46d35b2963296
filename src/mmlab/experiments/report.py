"""The report of a stored study: its tables (summary, histogram, paired tests, per-move figures)
as frames, and as one self-contained HTML page with the plots inlined.

>>> import tempfile, os
>>> from mmlab.experiments.study import Study
>>> from mmlab.experiments.runner import run_study
>>> store = Store(os.path.join(tempfile.mkdtemp(), "r.duckdb"))
>>> _ = run_study(Study("demo", ("3x3",), ("knuth", "random"), seed=1), store, jobs=1)
>>> report = build_report(store, "demo")
>>> list(report.summary["strategy"]), int(report.summary["total"].iloc[0])
(['knuth', 'random'], 74)
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from mmlab.errors import BadArgument, StoreError, counted_guesses, shown
from mmlab.experiments import stats
from mmlab.experiments.store import Store, as_store, study_name
from mmlab.experiments.study import Study
from mmlab.strategies.registry import parse_spec

#: What the lost games of a summary are, and how its figures count them.
LOST = ("lost: games stopped at max_guesses without finding the secret; the mean, median, max and total "
        "count each with the guesses it played, the games per number of guesses and the guesses until known "
        "count only the games won")

#: What a p-value of n/a means.
NO_TEST = ("p-value n/a: the two strategies took as many guesses in every paired game, so there is no "
           "difference to test")

PER_MOVE = {
    "consistent": "consistent set before the move, mean ± s.d. over the games that play it (004 Tables 4, 7, 13)",
    "secret_seen": "share of games whose secret has been among the top scorers by this move, over the games "
                   "whose move was scored (004 Tables 5, 8, 10)",
    "secret_in_top": "share of scored moves whose top scorers held the secret",
    "chance": "mean probability that the move was the secret, over scored moves (004 Figs. 6, 12, 17)",
    "top_size": "mean number of top scorers a scored move was drawn from (004 Fig. 13)",
}

#: Each strategy's first guess in ``{moves}`` (``Store.study_moves``): one row per size and strategy,
#: the guess when all its games opened with it, else NULL, in the order the store first holds them
#: (the rows' order there, as a scan of the moves gives them).
FIRST_GUESSES_SQL = """
SELECT size, strategy, CASE WHEN min(guess) = max(guess) THEN min(guess) END AS guess
FROM {moves} WHERE move = 1 GROUP BY size, strategy ORDER BY min(written)
"""

#: Added to the title of ``secret_seen`` where a study plays Plus or Plus2.
PLUS_TOP_SCORERS = "for Plus and Plus2, 004 logged Most Parts' top scorers instead: docs/reproductions.md"


class Report:
    """Everything ``mmlab report`` prints, as frames in the study's strategy order.

    The study, its games (their ``stats.GAME_FIGURE_COLUMNS``: not the secrets nor the runs' ids,
    whose texts took most of the time and memory of reading a big study's games) and runs are read
    when the report is made; the paired tests, the per-move figures and the moves when first asked
    for (a comparison prints none of them). The per-move figures and the first guesses are computed
    in the store, and the moves read, in a connection of their own (the store is not held in between)
    and over the report's games only (a run writing the study meanwhile adds games the report does
    not hold): ``moves`` (every move, as a frame) is for the Python user alone.
    """

    def __init__(self, study: Study, games: pd.DataFrame, runs: pd.DataFrame, store: Store) -> None:
        self.study = study
        self.games = self._ordered(games, ["run", "slot"])
        self.runs = runs
        self._store = store

    def _ordered(self, frame: pd.DataFrame, extra: list[str]) -> pd.DataFrame:
        """``frame`` in the study's order of sizes and strategies, then by ``extra`` (a stable sort)."""
        if frame.empty:
            return frame
        keys = [frame[column].to_numpy() for column in reversed(extra)]
        name = self.study.name
        keys += [_places(frame["strategy"], self.study.strategies, name), _places(frame["size"], self.study.sizes, name)]
        order = np.lexsort(keys)
        if (order == np.arange(len(order))).all():  # (as the store gives a report its games)
            return frame.reset_index(drop=True)
        return frame.take(order).reset_index(drop=True)

    @cached_property
    def moves(self) -> pd.DataFrame:
        """One row per move of the report's games, with the columns its tables and plots read
        (``stats.PER_MOVE_COLUMNS``: not the guesses, whose text took most of a big report's time)."""
        return _of_games(self._store.moves(self.study.name, order=self.study, columns=stats.PER_MOVE_COLUMNS),
                         self.games)

    @cached_property
    def summary(self) -> pd.DataFrame:
        summary = stats.summary(self.games)
        if not summary.empty:  # an exact mean has no sampling error (Study.exact_mean)
            summary.insert(summary.columns.get_loc("mean") - 1, "exact",
                           [self.study.exact_mean(strategy, size, n) for size, strategy, n
                            in zip(summary["size"], summary["strategy"], summary["games"], strict=True)])
            summary["stderr"] = summary["stderr"].where(~summary["exact"], 0.0)  # (as eval and compare give it)
        return summary

    @cached_property
    def histogram(self) -> pd.DataFrame:
        return stats.histogram(self.games) if not self.games.empty else pd.DataFrame()

    @cached_property
    def tests(self) -> list[stats.PairedTest]:
        return stats.pairwise(self.games, self.runs_of) if not self.games.empty else []

    @cached_property
    def per_move(self) -> pd.DataFrame:
        """``stats.per_move`` of the report's games, computed in the store (``stats.per_move_in``):
        the moves never come into Python, which took a study of 9.9 million moves 17 s and 3.3 GB."""
        with self._store.study_moves(self.study.name, held=self.games) as con:
            return self._ordered(stats.per_move_in(con, "study_moves"), ["move"])

    def first_guesses(self) -> dict[tuple[str, str], str | None]:
        """Each strategy's first guess by ``(size, strategy)``, ``None`` when its games opened with
        several (a random strategy's), in the order the store first holds them; computed in the store
        over the report's games (``FIRST_GUESSES_SQL``: reading every first move, 531 441 at 6x9, took 0.9 s).

        >>> import tempfile, os
        >>> from mmlab.experiments.runner import run_study
        >>> store = Store(os.path.join(tempfile.mkdtemp(), "r.duckdb"))
        >>> _ = run_study(Study("demo", ("3x3",), ("knuth", "random"), seed=1), store, jobs=1)
        >>> build_report(store, "demo").first_guesses()
        {('3x3', 'knuth'): '112', ('3x3', 'random'): None}
        """
        with self._store.study_moves(self.study.name, held=self.games) as con:
            rows = con.execute(FIRST_GUESSES_SQL.replace("{moves}", "study_moves")).fetchall()
        return {(size, strategy): guess for size, strategy, guess in rows}

    @property
    def runs_of(self) -> dict[str, int]:
        """The runs each strategy plays in the study (its games may not hold them all yet): how the
        tests and plots pair a strategy of one run with one of several."""
        return {spec: self.study.runs_of(spec) for spec in self.study.strategies}

    @property
    def expected_games(self) -> int:
        return self.study.n_games

    def per_move_table(self, size: str, column: str, last_move: int | None = None) -> pd.DataFrame:
        """One per-move figure (a column of ``per_move``) as the papers print it: a row per move, a
        column per strategy, for one of the study's sizes."""
        figures = [c for c in self.per_move.columns if c not in ("size", "strategy", "move")]
        if column not in figures:
            raise BadArgument(f"no per-move figure {shown(column)}: choose one of {', '.join(figures)}")
        if size not in self.study.sizes:
            raise BadArgument(f"the study has no size {shown(size)}: choose one of {', '.join(self.study.sizes)}")
        part = self.per_move[self.per_move["size"] == size]
        table = part.pivot(index="move", columns="strategy", values=column)
        table = table.reindex(columns=[s for s in self.study.strategies if s in table.columns])
        if last_move is not None:
            table = table.loc[table.index <= last_move]
        return table

    def per_move_title(self, column: str) -> str:
        """The title of the per-move figure ``column`` (``PER_MOVE``); the secret among the top scorers
        says how 004 logged them for Plus and Plus2 when the table shows Plus's or Plus2's."""
        title = PER_MOVE[column]
        if column != "secret_seen":
            return title
        plus = [spec for spec in self.study.strategies if parse_spec(spec)[0] in ("plus", "plus2")]
        shown = self.per_move.loc[self.per_move["strategy"].isin(plus), column].notna().any() if plus else False
        return f"{title[:-1]}; {PLUS_TOP_SCORERS})" if shown else title

    def has_per_move(self, column: str) -> bool:
        return bool(self.per_move[column].notna().any()) if column in self.per_move else False

    def per_move_text(self, size: str, column: str, last_move: int | None = None) -> pd.DataFrame:
        """``per_move_table`` written out as printed: 4 significant digits, the consistent set's
        mean with its s.d. (``mean ± s.d.``; none over one game), blanks for moves not played."""
        frame = self.per_move_table(size, column, last_move).dropna(how="all")
        spread = self.per_move_table(size, "consistent_sd", last_move) if column == "consistent" else None
        cells = frame.astype(object)
        for move, row in frame.iterrows():
            for strategy, value in row.items():
                if pd.isna(value):
                    text = ""
                elif spread is not None and not pd.isna(spread.loc[move, strategy]):
                    text = f"{figure_text(value, 4)} ± {figure_text(spread.loc[move, strategy], 3)}"
                else:
                    text = figure_text(value, 4)
                cells.loc[move, strategy] = text
        return cells


def build_report(store: Store | str | Path, name: str | Study) -> Report:
    """Read study ``name`` (or the ``Study``) from ``store`` (a ``Store``, or the path of one) and
    compute its tables.

    >>> import tempfile, os
    >>> from mmlab.experiments.runner import run_study
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "r.duckdb"))
    >>> _ = run_study(Study("demo", ("3x3",), ("knuth",)), store, jobs=1)
    >>> build_report(store, "demo").histogram.values.tolist()   # games won in 1, 2, 3, 4 guesses
    [[1, 7, 17, 2]]
    """
    store = as_store(store)
    name = study_name(name)
    with store.reading():  # one connection for the three
        study = store.study(name)
        games, runs = store.games(name, order=study, columns=stats.GAME_FIGURE_COLUMNS), store.runs(name)
    return Report(study, games, runs, store)


def _places(column: pd.Series, levels: Sequence[str], study: str = "?") -> np.ndarray:
    """The place of each value of ``column`` in ``levels`` (each distinct value looked up once); a
    value that is not one of them (a store edited by hand) is refused in one line naming ``study``.

    >>> _places(pd.Series(["b", "a", "b"]), ["a", "b"]).tolist()
    [1, 0, 1]
    """
    codes, values = pd.factorize(column)
    where = {level: i for i, level in enumerate(levels)}
    stray = next((value for value in values if value not in where), None)
    if stray is not None:
        raise StoreError(f"the games of study {shown(study)} hold the {column.name} {shown(stray)}, which the study "
                         f"does not list ({', '.join(levels)}): was the store edited? 'mmlab forget {study}' deletes "
                         "the study")
    return np.array([where[value] for value in values], dtype=np.int64)[codes]


def _of_games(moves: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``moves`` that belong to ``games``: a run that stored more games of the study
    since ``games`` were read adds moves of games the report does not hold."""
    key = ["strategy", "size", "run", "slot"]
    if moves.drop_duplicates(key).shape[0] == len(games):  # (games are only added: the same ones)
        return moves
    held = pd.MultiIndex.from_frame(games[key])
    return moves[pd.MultiIndex.from_frame(moves[key]).isin(held)].reset_index(drop=True)


def to_html(report: Report, figures: dict | None = None) -> str:
    """One self-contained page: the tables, and the figures inlined as SVG."""
    study = report.study
    parts = [f"<h1>{html.escape(study.name)}</h1>"]
    if study.description:
        parts.append(f"<p>{html.escape(study.description)}</p>")
    cap = f"at most {counted_guesses(study.max_guesses)}; " if study.max_guesses is not None else ""
    parts.append("<p>" + html.escape(
        f"sizes {', '.join(str(study.game(size)) for size in study.sizes)}; {cap}secrets "
        f"{' / '.join(dict.fromkeys(study.secrets.label(study.game(size)) for size in study.sizes))}; "
        f"runs {study.runs}; seed {study.seed}; {len(report.games)} of {report.expected_games} games stored") + "</p>")
    summary = report.summary.round(4)
    if not summary.empty:
        summary["stderr"] = summary["stderr"].mask(summary["exact"])
        summary["seconds_per_game"] = [figure_text(v, 3) for v in report.summary["seconds_per_game"]]  # (0.0000)
    parts.append("<h2>Guesses</h2>" + _table(summary))
    if not summary.empty and summary["exact"].any():
        parts.append("<p>An exact mean has no stderr: a deterministic strategy played every secret once.</p>")
    if not summary.empty and summary["lost"].any():
        parts.append(f"<p>{html.escape(LOST)}</p>")
    if not report.histogram.empty:
        parts.append(f"<h2>{histogram_title(report).capitalize()}</h2>" + _table(report.histogram.reset_index()))
    if report.tests:
        rows = pd.DataFrame([{"size": t.size, "first": t.first, "second": t.second, "games": t.games,
                              "mean difference": round(t.mean_difference, 4), "p (Wilcoxon, paired)":
                              p_value_text(t.p_value)} for t in report.tests])
        parts.append("<h2>Paired Wilcoxon signed-rank tests</h2>" + _table(rows))
        if any(t.p_value is None for t in report.tests):
            parts.append(f"<p>{html.escape(NO_TEST)}</p>")
    for column in PER_MOVE:
        title = report.per_move_title(column)
        if report.has_per_move(column):
            for size in study.sizes:
                table = report.per_move_text(size, column)
                parts.append(f"<h2>{html.escape(title)}, {size}</h2>" + _table(table.reset_index()))
    if figures:  # (drawn, so matplotlib is loaded)
        from mmlab.experiments.plots import write_svg
    for name, figure in (figures or {}).items():
        buffer = io.StringIO()
        write_svg(figure, buffer, bbox_inches="tight")  # (the same page for the same results)
        svg = buffer.getvalue()
        svg = svg[svg.index("<svg"):]
        parts.append(f"<h2>{html.escape(name)}</h2><figure>{svg}</figure>")
    if not report.runs.empty:
        runs = report.runs[["run_id", "started", "finished", "mmlab_version", "git_revision", "scheduler",
                            "games_written"]]
        parts.append("<h2>Runs</h2>" + _table(runs))
    style = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
             "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .5em;"
             "text-align:right}th{background:#eee}figure{margin:1em 0}svg{max-width:100%;height:auto}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(study.name)} - mmlab"
            f"</title><style>{style}</style></head><body>{''.join(parts)}</body></html>")


def game_title(study: Study, size: str) -> str:
    """The game ``study`` played at ``size`` as the report's titles name it: its rules as ``str(Game)``
    writes them (``mmlab compare`` and ``mmlab eval`` title theirs so), and the cap on guesses.

    >>> game_title(Study("d", ("4x6",), ("knuth",), feedback="black", max_guesses=9), "4x6")
    '4x6 (black feedback), at most 9 guesses'
    """
    cap = f", at most {counted_guesses(study.max_guesses)}" if study.max_guesses is not None else ""
    return f"{study.game(size)}{cap}"


def histogram_title(report: Report) -> str:
    """The title of the games per number of guesses: of the games won, beside those lost, when a
    study's ``max_guesses`` stopped some (``stats.histogram``)."""
    if "lost" in report.histogram.columns:
        return "games won per number of guesses, and games lost"
    return "games per number of guesses"


def games_by_guesses(counts: pd.Series) -> dict[str, int]:
    """One row of ``Report.histogram`` as the JSON outputs give it: the games won per number of
    guesses, by text, without the counts of 0 (and without ``lost``, which they give apart).

    >>> games_by_guesses(pd.Series({3: 5, 4: 0, "lost": 95}))
    {'3': 5}
    """
    return {str(k): int(v) for k, v in counts.items() if v and k != "lost"}


def p_value_text(p_value: float | None) -> str:
    """A test's p-value as the tables print it, to 4 significant digits (trailing zeros kept, so that
    a column reads alike): ``n/a`` where there was nothing to test.

    >>> p_value_text(0.012345), p_value_text(0.17), p_value_text(None)
    ('0.01235', '0.1700', 'n/a')
    """
    return "n/a" if p_value is None else f"{p_value:#.4g}"


def figure_text(value: float, digits: int) -> str:
    """``value`` to ``digits`` significant digits, whole numbers past them written out, not as 1.681e+04.

    >>> figure_text(16807.0, 4), figure_text(243.53, 4), figure_text(0.12345, 3)
    ('16807', '243.5', '0.123')
    >>> figure_text(10000.0, 4), figure_text(9999.0, 4)   # (4x10's 10 000 codes consistent at move 1)
    ('10000', '9999')
    """
    return f"{value:.0f}" if abs(value) >= 10**digits else f"{value:.{digits}g}"


def _table(frame: pd.DataFrame) -> str:
    """A frame as an HTML table, one header row (a pivot's column name would add a second)."""
    return frame.rename_axis(columns=None).to_html(index=False, border=0, na_rep="", escape=True)
