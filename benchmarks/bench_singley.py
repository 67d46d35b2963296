"""Speed and memory of Singley's methods (issue 3): the tabu search per game up to 10x20, and the
deterministic methods over the whole 4x6 space.

    python benchmarks/bench_singley.py            # tabu: 4x6, 5x8, 6x8, 7x8 (1000 games), 6x9, 8x12, 10x20 (100): 30 s
    python benchmarks/bench_singley.py --quick    # 200 / 20 games

Each size runs in a fresh subprocess that first warms the JIT on 4x6, so the times are play
alone and the peak resident memory is that size's. Targets: 7x8 tabu at least 10x faster than
Singley's 4383 ms per game (003 Table 6-1); 4x6 greedy methods under 0.5 s for every secret.
"""

from __future__ import annotations

from _script import pm, run_child, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import json
import sys

SIZES = [("4x6", 1000), ("5x8", 1000), ("6x8", 1000), ("7x8", 1000), ("6x9", 100), ("8x12", 100), ("10x20", 100)]
SINGLEY_MS = {"4x6": 2.266, "5x8": 59.662, "6x8": 521.835, "7x8": 4382.850}

TABU = """
import json, resource, sys, time
import numpy as np
from mmlab.game import Game
from mmlab.experiments import play_game
from mmlab.strategies import make_strategy
size, games = sys.argv[1], int(sys.argv[2])
warm = Game.parse_size("4x6")
for w in range(0, warm.n_codes, 13):  # every code path of the kernels, so no compile time is timed
    play_game(warm, make_strategy("tabu"), w, np.random.default_rng(w))
game = Game.parse_size(size)
rng = np.random.default_rng(2005)
secrets = [game.index_of(rng.integers(game.colours, size=game.pegs)) for _ in range(games)]
guesses, evaluations = [], []
t = time.perf_counter()
for i, secret in enumerate(secrets):
    record = play_game(game, make_strategy("tabu"), secret, np.random.default_rng([2005, i]))
    guesses.append(record.n_guesses)
    evaluations.append(record.total_evaluations)
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
g, e = np.array(guesses), np.array(evaluations)
se = g.std(ddof=1) / np.sqrt(games) if games > 1 else None
print(json.dumps({"games": games, "mean": g.mean(), "se": se, "max": int(g.max()),
                  "evals": e.mean(), "evals_max": int(e.max()), "ms": 1000 * seconds / games, "peak_mib": peak}))
"""

WHOLE_SPACE = """
import json, sys, time
from mmlab.game import Game
from mmlab.experiments import evaluate
game = Game.parse_size("4x6")
out = {}
for spec in sys.argv[1:]:
    evaluate(Game.parse_size("3x4"), spec)  # warm the JIT
    t = time.perf_counter()
    result = evaluate(game, spec)
    out[spec] = {"seconds": time.perf_counter() - t, "mean": result.mean}
print(json.dumps(out))
"""


def child(code: str, what: str, *args: str) -> dict:
    done = run_child([sys.executable, "-c", code, *args], what)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="200 games up to 7x8, 20 above")
    args = parser.parse_args()

    print("tabu (Singley 1-D), per game; guesses counted until n blacks")
    print(f"{'size':>6} {'games':>6} {'mean ± se':>17} {'max':>4} {'evals':>9} {'max evals':>10} "
          f"{'ms/game':>9} {'Singley ms':>11} {'speed-up':>9} {'peak MiB':>9}")
    for size, games in SIZES:
        games = min(games, 200 if games >= 1000 else 20) if args.quick else games
        r = child(TABU, f"tabu at {size}", size, str(games))
        singley = SINGLEY_MS.get(size)
        speedup = f"{singley / r['ms']:.0f}x" if singley else ""
        singley_ms = f"{singley:.3f}" if singley else ""
        print(f"{size:>6} {games:>6} {pm(r['mean'], r['se'], 3):>17} {r['max']:>4} {r['evals']:>9.1f} "
              f"{r['evals_max']:>10} {r['ms']:>9.2f} {singley_ms:>11} {speedup:>9} {r['peak_mib']:>9.0f}", flush=True)

    print("\nwhole 4x6 space, exact (evaluate: all 1296 secrets at once in Singley's kernels, no decision tree), "
          "seconds after JIT warm-up;\nmean guesses until n blacks (Singley's Greedy 2 table counts until the code "
          "is known: 10.8002)")
    for spec, r in child(WHOLE_SPACE, "the whole 4x6 space", "greedy1", "greedy2", "greedy3", "local-search").items():
        print(f"{spec:>14} {r['seconds']:>7.3f} s  mean {r['mean']:.4f}")


if __name__ == "__main__":
    run_script(main)
