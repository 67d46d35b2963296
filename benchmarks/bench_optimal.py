"""Seconds and search nodes of the exact optimal solver (each run in a fresh process after JIT
warm-up, with its peak memory).

    python benchmarks/bench_optimal.py                      # every case: 3x5 to 4x6, then 4x10 (about 5 minutes)
    python benchmarks/bench_optimal.py 3x5 3x6 4x5 4x6      # only these sizes: about 20 s

Issue 4 targets on this 2-core machine: 3x5 under 10 s; 4x6 under 15 minutes; memory under 8 GiB.
Bulls and Cows (4x10 without repeated colours) took 281 s for its proved optimum, 26274; the
other cases take about 20 s together, process starts and JIT warm-ups included.
"""

from __future__ import annotations

from _script import run_child, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import json
import sys

CASES = [
    ("3x5", "optimal"),
    ("3x6", "optimal"),
    ("4x5", "optimal"),
    ("4x6", "optimal"),
    ("4x6", "optimal:max_depth=5"),
    ("4x6", "optimal:objective=worst"),
    ("4x10", "optimal"),  # Bulls and Cows: no repeated colours
]
NO_REPEATS = {"4x10"}

CHILD = """
import json, resource, sys
from mmlab.game import Game
from mmlab.planners import make_planner
make_planner("optimal").plan(Game.parse_size("3x3"))  # JIT warm-up
r = make_planner(sys.argv[2]).plan(Game.parse_size(sys.argv[1], repeats=sys.argv[3] == "1"))
print(json.dumps({"L": r.tree.total_guesses, "mean": r.tree.mean, "worst": r.tree.worst, "nodes": r.nodes,
                  "seconds": r.seconds, "depth": r.figures.get("proved_depth"),
                  "peak_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sizes = sorted({size for size, _ in CASES})
    parser.add_argument("sizes", nargs="*", metavar="SIZE", help=f"only these sizes, of {', '.join(sizes)} (default: every case, 4x10 included, which "
                             "takes about 281 s)")
    args = parser.parse_args()
    unknown = sorted(set(args.sizes) - set(sizes))
    if unknown:
        parser.error(f"no case of size {', '.join(unknown)}; choose from {', '.join(sizes)}")
    print(f"{'size':5} {'planner':24} {'L':>6} {'mean':>7} {'worst':>5} {'proved depth':>12} {'nodes':>7} "
          f"{'seconds':>8} {'peak GiB':>8}")
    wanted = set(args.sizes)
    for size, spec in CASES:
        if wanted and size not in wanted:
            continue
        repeats = "0" if size in NO_REPEATS else "1"
        out = run_child([sys.executable, "-c", CHILD, size, spec, repeats], f"{size} {spec}")
        r = json.loads(out.stdout)
        print(f"{size:5} {spec:24} {r['L']:>6} {r['mean']:>7.4f} {r['worst']:>5} {str(r['depth'] or ''):>12} "
              f"{r['nodes']:>7} {r['seconds']:>8.2f} {r['peak_gib']:>8.2f}", flush=True)


if __name__ == "__main__":
    run_script(main)
