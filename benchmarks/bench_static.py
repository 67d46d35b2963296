"""Static Mastermind: verifying Greenwell's set, searching for separating sets, proving minimality.

    python benchmarks/bench_static.py                 # everything (about 9 minutes here, 4x6 proof included)
    python benchmarks/bench_static.py --quick         # without the 4x6 proof and the larger games (under a minute)
    python benchmarks/bench_static.py --seeds 20      # more seeds for the 4x6 search

Three parts:
1. the time to verify Greenwell's 1221 2354 3311 4524 5656 6643 on 4x6 (003 section 3.5);
2. the time ``search`` takes to reach a separating set of 6 codes on 4x6, over several seeds;
3. for small games: the counting bound, the smallest separating set ``search`` reaches within
   ``--time-limit`` (and when it got there), and whether ``exhaustive`` proves that one guess
   fewer cannot separate (then the size found is the minimum). The 2-peg rows stand beside the
   table of the "Static-Mastermind" page (February 2002), where C(8,2), C(9,2), C(10,2) are open.
"""

from __future__ import annotations

from _script import at_least, positive_float, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import statistics
import time

from mmlab.game import Game
from mmlab.variants.static import exhaustive, lower_bound, search, separates

GREENWELL = ["1221", "2354", "3311", "4524", "5656", "6643"]
#: C(m, 2) on the "Static-Mastermind" page (February 2002); "?" = a set known, minimality open.
TWO_PEG_PAGE = {2: "2", 3: "2", 4: "3", 5: "4", 6: "4", 7: "5", 8: "6?", 9: "6?", 10: "7?"}
QUICK = ["2x2", "2x3", "2x4", "2x5", "2x6", "2x7", "2x8", "3x2", "3x3", "3x4", "3x5", "4x2", "4x3", "4x4",
         "4x5", "5x2", "5x3", "5x4"]
FULL = QUICK[:7] + ["2x9", "2x10"] + QUICK[7:11] + ["3x6", "3x7"] + QUICK[11:15] + ["4x6"] + QUICK[15:] + ["6x3"]
#: Larger games: search only (no proof), ``--time-limit`` seconds each.
LARGER = ["4x7", "4x8", "5x5", "5x6", "6x4"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="the small sizes only, no larger games (under a minute)")
    parser.add_argument("--seeds", type=at_least(1), default=10, help="searches per size, one per seed (default 10)")
    parser.add_argument("--time-limit", type=positive_float, default=10.0,
                        help="seconds of search per game (default 10)")
    parser.add_argument("--proof-limit", type=positive_float, default=900.0,
                        help="seconds of exhaustive check per game (default 900)")
    args = parser.parse_args()
    game = Game.parse_size("4x6")
    separates(game, GREENWELL)
    search(Game.parse_size("3x3"), time_limit=1)
    exhaustive(Game.parse_size("3x3"), 3)  # JIT warm-up

    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        ok, details = separates(game, GREENWELL)
        times.append(time.perf_counter() - t0)
    print(f"verify Greenwell's set on 4x6: separates={ok}, {details.n_classes} classes, "
          f"median {statistics.median(times) * 1e3:.2f} ms over 20 runs")

    print(f"\nsearch for 6 codes on 4x6 (time limit 60 s each), seeds 0..{args.seeds - 1}:")
    seconds = []
    for seed in range(args.seeds):
        r = search(game, 6, seed=seed, time_limit=60)
        seconds.append(r.seconds)
        print(f"  seed {seed:2}: {'found' if r.separates else 'NOT found'} in {r.seconds:6.3f} s, "
              f"{r.restarts} restart(s): {' '.join(game.format(c) for c in r.codes)}", flush=True)
    print(f"  median {statistics.median(seconds):.3f} s, max {max(seconds):.3f} s")

    print(f"\nsmallest separating sets (search: seed 0, {args.time_limit:g} s; proof: up to "
          f"{args.proof_limit:g} s)")
    print(f"{'game':5} {'codes':>6} {'bound':>5} {'found':>5} {'at s':>6} {'minimal?':36} {'page':>4}  set")
    for size in QUICK if args.quick else FULL:
        g = Game.parse_size(size)
        r = search(g, seed=0, time_limit=args.time_limit)
        if not r.separates:  # the time ran out while the first set was chosen
            print(f"{size:5} {g.n_codes:>6} {lower_bound(g):>5} {'-':>5} {r.seconds:>6.2f} "
                  f"{'no set within --time-limit':36}", flush=True)
            continue
        last = max(i for i, (_, found, _) in enumerate(r.tried) if found)
        at = sum(s for _, _, s in r.tried[:last + 1])  # seconds until the size found was reached
        proof = exhaustive(g, r.size - 1, time_limit=args.proof_limit)
        if proof.proves_none:
            verdict = f"yes, proved in {proof.seconds:.2f} s"
        elif proof.found is not None:
            verdict = f"no: {proof.size} codes found exhaustively"
        else:
            verdict = f"undecided after {proof.seconds:.0f} s"
        page = TWO_PEG_PAGE.get(g.colours, "") if g.pegs == 2 else ""
        print(f"{size:5} {g.n_codes:>6} {lower_bound(g):>5} {r.size:>5} {at:>6.2f} {verdict:36} {page:>4}  "
              f"{' '.join(g.format(c) for c in r.codes)}", flush=True)

    if args.quick:
        return
    print(f"\nlarger games, search only (seed 0, {args.time_limit:g} s): sizes tried, found or not, seconds")
    for size in LARGER:
        g = Game.parse_size(size)
        r = search(g, seed=0, time_limit=args.time_limit)
        tried = ", ".join(f"{k} {'yes' if f else 'no'} {s:.2f}" for k, f, s in r.tried)
        smallest = r.size if r.separates else "none in time"
        print(f"{size:5} {g.n_codes:>6} bound {lower_bound(g)}  smallest found {smallest}  ({tried})  "
              f"{' '.join(g.format(c) for c in r.codes)}", flush=True)


if __name__ == "__main__":
    run_script(main)
