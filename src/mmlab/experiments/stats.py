"""Statistics of stored games: the papers' summary figures, paired Wilcoxon tests between
strategies on the same games, and the per-move figures of 004 (Tables 4, 5, 8, 10, 13).

>>> import pandas as pd
>>> games = pd.DataFrame({"size": ["3x3"] * 4, "strategy": ["a", "a", "b", "b"], "run": 0,
...                       "slot": [0, 1, 0, 1], "guesses": [3, 4, 3, 5], "evaluations": 0,
...                       "seconds": 0.0, "known": [3, 4, 3, 5], "won": True})
>>> summary(games)[["strategy", "games", "mean", "max"]].to_dict("records")
[{'strategy': 'a', 'games': 2, 'mean': 3.5, 'max': 4}, {'strategy': 'b', 'games': 2, 'mean': 4.0, 'max': 5}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import duckdb
import numpy as np
import pandas as pd

from mmlab.errors import BadArgument, shown

KEY = ["size", "run", "slot"]  # one game of a study, played by every strategy
GAME_FIGURE_COLUMNS = ["strategy", "size", "run", "slot", "guesses", "won", "known", "evaluations",
                       "seconds"]  # the columns of the games table that the report's tables and plots read
PER_MOVE_COLUMNS = ["strategy", "size", "run", "slot", "move", "consistent", "top_size", "secret_in_top",
                    "chance"]  # the columns of the moves table that ``per_move`` reads
SUMMARY_COLUMNS = ["size", "strategy", "guesses", "won", "known", "evaluations", "seconds"]  # what ``summary`` reads
PAIRED_COLUMNS = ["strategy", *KEY, "guesses"]  # what ``wilcoxon`` and ``pairwise`` read
#: Where a frame of each kind comes from, for the message of ``checked``.
SOURCES = {"games": "Store.games(study), results(study) or an Evaluation's to_frame()",
           "moves": "Store.moves(study) or results(study, 'moves')"}


def checked(frame: pd.DataFrame, columns: Sequence[str], what: str = "games", source: str | None = None) -> pd.DataFrame:
    """``frame``, refused unless it is a pandas frame with ``columns``; ``what`` names its rows and
    ``source`` what gives the right frame (default: ``SOURCES[what]``). The statistics here and the
    plots check what they are given with it.

    >>> checked(pd.DataFrame({"guesses": [4]}), ["size", "guesses"])
    Traceback (most recent call last):
    ...
    mmlab.errors.BadArgument: the games frame lacks the column(s) size; pass Store.games(study), results(study) or an Evaluation's to_frame()
    """
    source = source or SOURCES.get(what, f"Store.{what}(study)")
    if not isinstance(frame, pd.DataFrame):
        raise BadArgument(f"expected a pandas frame of {what}, got {shown(frame)}; pass {source}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise BadArgument(f"the {what} frame lacks the column(s) {', '.join(missing)}; pass {source}")
    return frame


def summary(games: pd.DataFrame) -> pd.DataFrame:
    """Per size and strategy (in the order they appear): games, games lost (stopped at a study's
    ``max_guesses``: the figures count their guesses, so ``lost`` stands beside the mean), mean ±
    standard error, standard deviation, median, max, total guesses, the mean guesses until the code
    was known (``known_mean``, over the games won: a lost game's code never became known; NaN when
    none was won), evaluations and seconds per game."""
    rows = []
    for (size, strategy), g in checked(games, SUMMARY_COLUMNS).groupby(["size", "strategy"], sort=False):
        guesses = g["guesses"].to_numpy()
        n = guesses.shape[0]
        std = float(guesses.std(ddof=1)) if n > 1 else 0.0
        evaluations = g["evaluations"].to_numpy()
        won = g["won"].astype(bool)
        rows.append({
            "size": size,
            "strategy": strategy,
            "games": n,
            "lost": int((~won).sum()),
            "mean": float(guesses.mean()),
            "stderr": std / np.sqrt(n) if n > 1 else 0.0,
            "std": std,
            "median": float(np.median(guesses)),
            "max": int(guesses.max()),
            "total": int(guesses.sum()),
            "known_mean": float(g.loc[won, "known"].mean()) if won.any() else float("nan"),
            "evaluations_mean": float(evaluations.mean()),
            "evaluations_std": float(evaluations.std(ddof=1)) if n > 1 else 0.0,
            "evaluations_max": int(evaluations.max()),
            "seconds_per_game": float(g["seconds"].mean()),
        })
    return pd.DataFrame(rows)


def histogram(games: pd.DataFrame) -> pd.DataFrame:
    """Games won per number of guesses: one row per (size, strategy), in the order they appear, one
    column per count from the fewest to the most any game took (a count no game took, 0 throughout);
    when some game was lost (stopped at a study's ``max_guesses``), a last column ``lost`` counts
    them, as the plots' legends do (a lost game found no secret in any number of guesses).

    >>> games = pd.DataFrame({"size": "3x3", "strategy": ["a", "a", "b"], "guesses": [2, 3, 4],
    ...                       "won": [True, False, True]})
    >>> histogram(games).to_dict("index")
    {('3x3', 'a'): {2: 1, 3: 0, 4: 0, 'lost': 1}, ('3x3', 'b'): {2: 0, 3: 0, 4: 1, 'lost': 0}}
    """
    won = checked(games, ["size", "strategy", "guesses", "won"])["won"].astype(bool)
    rows = pd.MultiIndex.from_frame(games[["size", "strategy"]].drop_duplicates())
    counts = games[won].groupby(["size", "strategy", "guesses"], sort=False).size()
    table = counts.unstack(fill_value=0) if not counts.empty else pd.DataFrame(index=rows)
    taken = range(min(table.columns), max(table.columns) + 1) if len(table.columns) else []
    table = table.reindex(index=rows, columns=taken, fill_value=0)
    if not won.all():
        table["lost"] = (~won).groupby([games["size"], games["strategy"]], sort=False).sum().reindex(rows)
    return table.rename_axis(columns="guesses")


@dataclass(frozen=True)
class PairedTest:
    """A paired Wilcoxon signed-rank test of guesses between two strategies on the same games."""

    size: str
    first: str
    second: str
    games: int
    mean_difference: float  # first minus second
    statistic: float | None  # scipy's: the smaller of the two rank sums (R prints V, the positive one)
    p_value: float | None  # None when every pair is equal: there is no difference to test


def wilcoxon(games: pd.DataFrame, first: str, second: str, size: str | None = None,
             runs: Mapping[str, int] | None = None) -> PairedTest:
    """Compare ``first`` and ``second`` game by game: the same size, run and secret slot (004's
    pairing; a game without its pair, in a study not played to the end, is left out). When one of
    them plays one run and the other more (a deterministic strategy plays each secret once), each
    secret is one pair: its mean guesses over the runs. ``runs`` gives the runs each strategy plays
    in its study (``Study.runs_of``); without it they are read from the games, which in a study not
    played to the end may hold only the first run of a strategy that plays several.

    Pairs with equal values are dropped and the normal approximation is used with a continuity
    correction, as R's ``wilcox.test(paired = TRUE)`` does with ties. When every pair is equal
    nothing is left to test: the statistic and p-value are ``None``.
    """
    checked(games, PAIRED_COLUMNS)
    sizes = [size] if size is not None else list(pd.unique(games["size"]))
    if len(sizes) != 1:
        raise BadArgument(f"the study has several sizes ({', '.join(sizes)}): name one")
    g = games[games["size"] == sizes[0]]
    parts = [g[g["strategy"] == name] for name in (first, second)]
    for name, part in zip((first, second), parts, strict=True):
        if part.empty:
            known = ", ".join(dict.fromkeys(g["strategy"]))
            raise BadArgument(f"no games of {name!r} on {sizes[0]} (strategies: {known})")
    return _paired(sizes[0], first, second, _Played(parts[0]), _Played(parts[1]), runs=runs)


class _Played:
    """One strategy's games on one size, keyed as the tests pair them (each key made once)."""

    def __init__(self, games: pd.DataFrame) -> None:
        self.games = games
        self.runs = games["run"].nunique()

    @cached_property
    def by_game(self) -> pd.Series:
        return self.games.set_index(KEY)["guesses"]

    @cached_property
    def by_secret(self) -> pd.Series:  # the mean over the runs
        return self.games.groupby("slot")["guesses"].mean()

    def secrets(self, by_secret: bool) -> pd.Series | None:
        """The secret of each game (or slot) as ``by_game`` (``by_secret``) keys it; None for games
        without their secrets."""
        if "secret" not in self.games.columns:
            return None
        return self._slot_secrets if by_secret else self._game_secrets

    @cached_property
    def _game_secrets(self) -> pd.Series:
        return self.games.set_index(KEY)["secret"]

    @cached_property
    def _slot_secrets(self) -> pd.Series:
        return self.games.groupby("slot")["secret"].first()


def _paired(size: str, first: str, second: str, *played: _Played, runs: Mapping[str, int] | None = None) -> PairedTest:
    """``wilcoxon`` of the games ``played`` by ``first`` and ``second`` on ``size``; ``runs``, the
    runs each plays in its study, else those of its games."""
    fewer, more = sorted((runs or {}).get(name, p.runs) for name, p in zip((first, second), played, strict=True))
    by_secret = fewer == 1 < more
    a, b = (p.by_secret if by_secret else p.by_game for p in played)
    joined = pd.concat([a.rename("a"), b.rename("b")], axis=1, join="inner")
    require_same_secrets(first, second, joined.index, *(p.secrets(by_secret) for p in played), size=size)
    diff = (joined["a"] - joined["b"]).to_numpy()
    if not diff.any():
        return PairedTest(size, first, second, len(diff), 0.0, None, None)
    statistic, p_value = signed_rank(joined["a"].to_numpy(dtype=float) - joined["b"].to_numpy(dtype=float))
    return PairedTest(size, first, second, len(diff), float(diff.mean()), statistic, p_value)


def require_same_secrets(first: str, second: str, pairs: pd.Index, *secrets: pd.Series | None,
                         size: str | None = None) -> None:
    """Refuse pairs of games of ``first`` and ``second`` (``pairs``: keys of both, (size, run, slot)
    or slots of ``size``) whose ``secrets`` differ: two evaluations that each drew a sample of their
    own pair up slot by slot, but are no pairs of the same secret. Frames without their secrets
    (``secrets`` None) are not checked."""
    if any(s is None for s in secrets):
        return
    a, b = (s.reindex(pairs).to_numpy() for s in secrets)
    differ = np.flatnonzero(a != b)
    if differ.size:
        key = pairs[differ[0]]
        where = f"{key[0]}, run {key[1]}, slot {key[2]}" if isinstance(key, tuple) else f"{size}, slot {key}"
        raise BadArgument(f"{first} and {second} played other secrets in {differ.size:,} of their {len(pairs):,} "
                          f"pairs of games (at {where}: {a[differ[0]]} and {b[differ[0]]}), so pairing them "
                          f"would compare unlike games: evaluate both over the same secrets, e.g. "
                          f"evaluate(game, {second!r}, secrets=evaluation_of_{first.split(':')[0]}.codes)")


def signed_rank(d: np.ndarray) -> tuple[float, float]:
    """The two-sided Wilcoxon signed-rank test of the differences ``d`` (not all zero), as R's
    ``wilcox.test(paired = TRUE)`` does with ties and zeros, and as ``scipy.stats.wilcoxon(x, y,
    zero_method="wilcox", correction=True, method="approx")`` computes it, step for step, so that
    the statistic and p-value are scipy's to the last bit (a test checks this): zero differences
    dropped, average ranks, the variance corrected for ties, the normal approximation with a
    continuity correction. Returns the smaller rank sum and the p-value. (scipy.stats takes most of a
    second to load, scipy.special, for the normal tail, a fifth of that.)

    >>> signed_rank(np.array([1.0, 2.0, -1.0, 3.0, 0.0, 2.0, 1.0, 4.0]))
    (2.0, 0.04982694960050394)
    """
    from scipy.special import ndtr  # (the normal distribution function scipy.stats uses)

    if np.isnan(d).any():  # (as scipy: no test of differences that are not numbers)
        return float("nan"), float("nan")
    d = d[d != 0]
    n = float(d.shape[0])
    magnitude = np.abs(d)
    order = np.argsort(magnitude, kind="stable")
    ordered = magnitude[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[:-1] != ordered[1:])))
    counts = np.diff(starts, append=ordered.shape[0])
    ranks = np.empty(d.shape[0])
    ranks[order] = np.repeat((starts + 1.0) + (counts.astype(float) - 1) / 2, counts)  # average ranks
    r_plus = np.sum((d > 0).astype(float) * ranks)
    r_minus = np.sum((d < 0).astype(float) * ranks)
    ties = counts.astype(float)
    mean = n * (n + 1.0) * 0.25
    se = np.sqrt((n * (n + 1.0) * (2.0 * n + 1.0) - np.sum(ties**3 - ties) / 2) / 24)
    z = (r_plus - mean) / se
    z = z - np.sign(z) * 0.5 / se
    return float(min(r_plus, r_minus)), float(2 * ndtr(-np.abs(z)))


def pairwise(games: pd.DataFrame, runs: Mapping[str, int] | None = None) -> list[PairedTest]:
    """Every pair of strategies, size by size; ``runs`` as for ``wilcoxon``."""
    tests = []
    checked(games, PAIRED_COLUMNS)
    for size in pd.unique(games["size"]):  # (dict.fromkeys took 0.7 s of a study's 531 441 games)
        parts = {name: _Played(part) for name, part in games[games["size"] == size].groupby("strategy", sort=False)}
        names = list(parts)
        for i, first in enumerate(names):
            for second in names[i + 1:]:
                tests.append(_paired(size, first, second, parts[first], parts[second], runs=runs))
    return tests


#: The moves of ``{moves}`` (a relation with ``PER_MOVE_COLUMNS``: a study's in the store, or a
#: frame) marked ``scored`` where ``per_move`` counts them: at k >= 2, with two codes or more left
#: and the top scorers known. Not materialized: ``PER_MOVE_SQL`` reads it twice, and DuckDB would
#: otherwise copy every move of the study into memory first (0.53 GB more at 6x9, 9.9 million moves).
_MARKED = """
WITH marked AS NOT MATERIALIZED (
    SELECT size, strategy, run, slot, move, consistent, top_size, secret_in_top, chance,
           move >= 2 AND coalesce(consistent, 0) >= 2 AND top_size IS NOT NULL AS scored
    FROM {moves}
)"""

#: The sums and counts behind ``per_move``'s figures, per size, strategy and move, in DuckDB SQL: a
#: big study's millions of moves never come into Python. A game's secret is seen from its first
#: scored move whose top scorers held it on (a join: a window over each game took 3 to 5 times as
#: long). The spread is DuckDB's Welford update in game order (``ORDER BY run, slot``), pandas' own
#: step for step, so the same bits as when pandas computed the table; the other figures but the
#: chance are sums of whole numbers, exact in any order.
PER_MOVE_SQL = _MARKED + """, first_seen AS (
    SELECT size, strategy, run, slot, min(move) AS first_seen
    FROM marked WHERE scored AND secret_in_top GROUP BY size, strategy, run, slot
)
SELECT size, strategy, move, count(*) AS games,
       sum(consistent) AS consistent_sum, count(consistent) AS consistent_n,
       stddev_samp(consistent::DOUBLE ORDER BY run, slot) FILTER (WHERE consistent IS NOT NULL) AS consistent_sd,
       count(*) FILTER (WHERE scored) AS scored,
       sum(top_size) FILTER (WHERE scored) AS top_size_sum,
       count(top_size) FILTER (WHERE scored) AS top_size_n,
       sum(secret_in_top::INTEGER) FILTER (WHERE scored) AS secret_in_top_sum,
       count(secret_in_top) FILTER (WHERE scored) AS secret_in_top_n,
       count(*) FILTER (WHERE scored AND first_seen <= move) AS secret_seen_sum,
       count(*) FILTER (WHERE scored) AS secret_seen_n,
       count(chance) FILTER (WHERE scored) AS chance_n
FROM marked LEFT JOIN first_seen USING (size, strategy, run, slot)
GROUP BY size, strategy, move
ORDER BY size, move, strategy
"""

#: The chances of the scored moves, row by row in the order of ``PER_MOVE_SQL``'s rows, then of the
#: games: their means are pandas' (a Kahan sum in that order, over Float64 as the table had them).
#: DuckDB's compensated sum (``fsum``) differs in the last bit of one sum in ten or twenty, and a
#: Kahan sum in SQL (``list_reduce``) took 4 s for a million chances.
PER_MOVE_CHANCES_SQL = _MARKED + """
SELECT chance FROM marked WHERE scored AND chance IS NOT NULL ORDER BY size, move, strategy, run, slot
"""

#: The figures of ``per_move`` that are means of a sum and count in ``PER_MOVE_SQL``.
PER_MOVE_MEANS = ("consistent", "top_size", "secret_in_top", "secret_seen")


def per_move(moves: pd.DataFrame) -> pd.DataFrame:
    """Per size, strategy and move number k, the figures of 004 (docs/notes/merelo-methodology.md):

    - ``games``: games that play a k-th guess; ``consistent`` and ``consistent_sd``: mean and
      standard deviation of the consistent set before move k over them (Tables 4, 7, 13);
    - over the games whose move k was *scored* (k >= 2 and at least two codes left), ``scored``
      games: ``top_size`` (mean top scorers), ``secret_in_top`` (share whose top scorers held the
      secret at move k), ``secret_seen`` (share whose secret has been among the top scorers at
      some scored move up to k: the cumulative reading that reproduces Tables 5, 8, 10) and
      ``chance`` (mean probability that move k was the secret).

    Rows by size, move and strategy. ``moves`` is a frame with ``PER_MOVE_COLUMNS`` (``Store.moves``),
    read in DuckDB as a report reads a study's moves in the store (``per_move_in``).

    >>> moves = pd.DataFrame({"strategy": "a", "size": "3x3", "run": 0, "slot": [0, 0, 1, 1, 1],
    ...                       "move": [1, 2, 1, 2, 3], "consistent": [27, 4, 27, 6, 1],
    ...                       "top_size": [None, 2, None, 3, None], "secret_in_top": [None, True, None, False, None],
    ...                       "chance": [None, 0.5, None, 0.0, None]})
    >>> per_move(moves)[["move", "games", "consistent", "scored", "secret_seen", "chance"]].to_dict("records")[1]
    {'move': 2, 'games': 2, 'consistent': 5.0, 'scored': 2, 'secret_seen': 0.5, 'chance': 0.25}
    """
    checked(moves, PER_MOVE_COLUMNS, "moves")
    typed = moves[PER_MOVE_COLUMNS].astype({"consistent": "Float64", "top_size": "Float64",  # (NaN missing too)
                                            "secret_in_top": "boolean", "chance": "Float64"})
    with duckdb.connect() as con:
        con.register("frame_moves", typed)
        return per_move_in(con, "frame_moves")


def per_move_in(con: duckdb.DuckDBPyConnection, moves: str) -> pd.DataFrame:
    """``per_move`` of the relation ``moves`` of connection ``con`` (``Store.study_moves``), computed
    there: only the figures and the chances of the scored moves come out.

    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE m AS SELECT 'a' AS strategy, '3x3' AS size, 0 AS run, slot, move, "
    ...                 "27 AS consistent, 3 AS top_size, slot = 0 AS secret_in_top, 0.25 AS chance "
    ...                 "FROM range(2) s(slot), range(1, 3) t(move)")
    >>> per_move_in(con, "m")[["move", "games", "scored", "secret_seen", "chance"]].to_dict("records")
    [{'move': 1, 'games': 2, 'scored': 0, 'secret_seen': None, 'chance': None}, {'move': 2, 'games': 2, 'scored': 2, 'secret_seen': 0.5, 'chance': 0.25}]
    """
    sums = con.execute(PER_MOVE_SQL.replace("{moves}", moves)).df()
    chances = con.execute(PER_MOVE_CHANCES_SQL.replace("{moves}", moves)).fetchnumpy()["chance"]
    return per_move_figures(sums, np.asarray(chances, dtype=float))


def per_move_figures(sums: pd.DataFrame, chances: np.ndarray) -> pd.DataFrame:
    """The table of ``per_move`` from the rows of ``PER_MOVE_SQL`` and ``PER_MOVE_CHANCES_SQL``:
    each mean its sum over its count (as pandas' mean divides them; ``NA`` over no value), the chance
    pandas' mean of the chances of each row, the counts whole numbers."""
    means = {column: (sums[f"{column}_sum"].astype("Float64") / sums[f"{column}_n"]).where(sums[f"{column}_n"] > 0)
             for column in PER_MOVE_MEANS}
    rows = np.repeat(np.arange(len(sums)), sums["chance_n"].to_numpy())
    chance = pd.Series(chances, dtype="Float64").groupby(rows).mean()  # (a float64 mean sums otherwise)
    chance = chance.reindex(range(len(sums))).astype("Float64")
    table = sums[["size", "strategy", "move", "games"]].assign(
        consistent=means.pop("consistent"), consistent_sd=sums["consistent_sd"].astype("Float64"),
        scored=sums["scored"].astype("Int64"), **means, chance=chance.set_axis(sums.index))
    return table.reset_index(drop=True)
