"""000's Tables 2 and 3 (Chen, Lin, Huang 2007): the published TPOA rows, run again.

>>> rows = [r for r in TABLES if r.table == 2]
>>> rows[0].spec, rows[0].published
('tpoa:variant=star,k=1,d=1,hash=w', 460)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from mmlab.game import Game
from mmlab.planners import PlanResult, make_planner


@dataclass(frozen=True)
class Row:
    table: int
    series: str
    size: str
    spec: str
    published: int  # L
    published_worst: int
    published_seconds: float | None  # on a Pentium IV 1.6 GHz


def _series(table: int, series: str, size: str, variant: str, hash_: str, rows) -> list[Row]:
    return [Row(table, series, size, f"tpoa:variant={variant},k={k},d={d},hash={hash_}", L, worst, secs)
            for (k, d, L, worst, secs) in rows]


TABLES: list[Row] = (
    # Table 2's run-time column was set above the table in the text we have ("125.34 0.01 0.02 /
    # 0.04 0.09 0.15 0.23"): the A* row (L = 451, our optimal planner), then the six TPOA* rows.
    _series(2, "TPOA* Hash_w", "3x5", "star", "w",
            [(1, 1, 460, 5, 0.01), (5, 2, 460, 5, 0.02), (10, 2, 460, 5, 0.04), (20, 2, 452, 5, 0.09),
             (30, 2, 452, 5, 0.15), (40, 2, 451, 5, 0.23)])
    + _series(3, "(1) TPOA+ Hash_w", "4x6", "plus", "w",
              [(1, 1, 5776, 5, 2.12), (5, 2, 5749, 5, 20.58), (10, 2, 5711, 5, 71.24), (20, 2, 5669, 5, 263.29),
               (30, 2, 5659, 5, 589.63)])
    + _series(3, "(2) TPOA* Hash_w", "4x6", "star", "w",
              [(1, 1, 5776, 5, 2.12), (5, 2, 5760, 5, 14.37), (10, 2, 5716, 5, 40.06), (20, 2, 5676, 5, 137.32),
               (30, 2, 5665, 5, 297.56)])
    + _series(3, "(3) TPOA+ Hash_e", "4x6", "plus", "e",
              [(1, 1, 5674, 6, 2.08), (5, 2, 5643, 6, 17.29), (10, 2, 5640, 6, 59.81), (20, 2, 5634, 6, 226.59),
               (30, 2, 5632, 6, 504.71)])
    + _series(3, "(4) TPOA* Hash_e", "4x6", "star", "e",
              [(1, 1, 5674, 6, 2.06), (5, 2, 5647, 6, 12.24), (10, 2, 5641, 6, 34.10), (20, 2, 5637, 6, 119.59),
               (30, 2, 5632, 6, 255.18)])
)


def run_tables(
    rows: list[Row], on_row: Callable[[Row, PlanResult], None] | None = None
) -> Iterator[tuple[Row, PlanResult]]:
    """Plan every row, yielding it with our result as it finishes."""
    for row in rows:
        result = make_planner(row.spec).plan(Game.parse_size(row.size))
        if on_row is not None:
            on_row(row, result)
        yield row, result
