"""Seconds to compile exact decision trees, after JIT warm-up, and the peak memory of each.

    python benchmarks/bench_trees.py            # 4x6 knuth, 4x8 entropy, 5x8 knuth, CLI process (about 30 s)
    python benchmarks/bench_trees.py --quick    # without 5x8

Each tree is built in a fresh subprocess that first warms the JIT on a small game, so the
time is the compile of the tree alone and the peak resident memory is that tree's.
Targets (issue 2, this 2-core machine): 4x6 < 0.05 s, 4x8 < 1 s, 5x8 < 30 s and < 4 GiB.
"""

from __future__ import annotations

from _script import run_child, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import json
import shutil
import sys
import time

CASES = [
    ("4x6", "knuth", 0.05),
    ("4x8", "entropy:first=1234", 1.0),
    ("5x8", "knuth:first=11223", 30.0),
]

CHILD = """
import json, resource, sys, time
from mmlab.game import Game
from mmlab.strategies import make_strategy
from mmlab.trees import DecisionTree
size, spec, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
warm = Game.parse_size("3x4")
for name in ("knuth", "entropy"):
    DecisionTree.build(warm, make_strategy(name))
game = Game.parse_size(size)
times = []
for _ in range(repeat):
    t = time.perf_counter()
    tree = DecisionTree.build(game, make_strategy(spec))
    times.append(time.perf_counter() - t)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
print(json.dumps({"seconds": min(times), "L": tree.total_guesses, "mean": tree.mean,
                  "worst": tree.worst, "nodes": tree.n_nodes, "peak_gib": peak}))
"""


def run_case(size: str, spec: str, repeat: int) -> dict:
    done = run_child([sys.executable, "-c", CHILD, size, spec, str(repeat)], f"{size} {spec}")
    return json.loads(done.stdout)


def cli_process_seconds(repeat: int = 3) -> float:
    command = [shutil.which("mmlab")] if shutil.which("mmlab") else [sys.executable, "-m", "mmlab"]
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        run_child([*command, "eval", "4x6", "--strategy", "knuth"], "mmlab eval 4x6 --strategy knuth")
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="skip 5x8")
    args = parser.parse_args()
    print(f"{'size':5} {'strategy':22} {'L':>8} {'mean':>7} {'worst':>5} {'nodes':>7} {'seconds':>8} {'target':>7} {'peak GiB':>8}")
    for size, spec, target in CASES:
        if args.quick and size == "5x8":
            continue
        r = run_case(size, spec, 1 if size == "5x8" else 5)
        print(
            f"{size:5} {spec:22} {r['L']:>8} {r['mean']:>7.4f} {r['worst']:>5} {r['nodes']:>7} "
            f"{r['seconds']:>8.3f} {target:>7g} {r['peak_gib']:>8.2f}",
            flush=True,
        )
    print(f"whole process 'mmlab eval 4x6 --strategy knuth': {cli_process_seconds():.2f} s (best of 3)")


if __name__ == "__main__":
    run_script(main)
