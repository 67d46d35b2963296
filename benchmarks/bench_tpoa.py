"""Seconds and search nodes for every TPOA row of 000's Tables 2 and 3, beside the paper.

    python benchmarks/bench_tpoa.py           # all 26 rows (about 1 minute here)
    python benchmarks/bench_tpoa.py --quick   # the rows the paper ran in under 30 s

The same rows as 'mmlab reproduce'; the paper's seconds are from a Pentium IV 1.6 GHz.
"""

from __future__ import annotations

from _script import run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import resource

from mmlab.experiments.tpoa_tables import TABLES, run_tables
from mmlab.game import Game
from mmlab.planners import make_planner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="the fast rows only")
    args = parser.parse_args()
    make_planner("tpoa:k=2,d=2").plan(Game.parse_size("3x3"))  # JIT warm-up
    rows = [r for r in TABLES if not args.quick or r.published_seconds is None or r.published_seconds < 30]
    print(f"{'table':5} {'series':18} {'size':4} {'spec':38} {'L paper':>7} {'L ours':>6} {'worst':>5} "
          f"{'nodes':>7} {'s paper':>8} {'s ours':>7}")
    for row, result in run_tables(rows):
        t = result.tree
        paper = "" if row.published_seconds is None else f"{row.published_seconds:g}"
        print(f"{row.table:<5} {row.series:18} {row.size:4} {row.spec:38} {row.published:>7} {t.total_guesses:>6} "
              f"{t.worst:>5} {result.nodes:>7} {paper:>8} {result.seconds:>7.2f}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"peak memory {peak:.2f} GiB")


if __name__ == "__main__":
    run_script(main)
