"""How far ``sample`` plays below exact one-step Entropy, at the sizes nearest 8x12 where exact
Entropy is known: a public GPU solver (the repository mikemag/Mastermind, results/README.md) played
Entropy over every code and every secret from its best first guess. ``sample`` scores a sample of
the consistent set instead, and adds an exact endgame and a one-guess look-ahead; the gap is what
that buys, or loses, at each size, and so what one may expect of it at 8x12, where exact Entropy is
out of reach (docs/reproductions.md).

    python benchmarks/bench_vs_entropy.py                            # 2000 games per size, seed 31: about 30 min
    python benchmarks/bench_vs_entropy.py --sizes 8x8 --games 200 --strategy "sample:part=200"

Secrets and games are those of ``mmlab reproduce large --sizes SIZES --games N --seed S``.
"""

from __future__ import annotations

from _script import at_least, game_sizes, run_script, spread_text, strategy_spec, unplayable  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import os

from mmlab.experiments.large_tables import run_large

#: Mean guesses of exact one-step Entropy over every secret (mikemag/Mastermind, results/README.md).
EXACT_ENTROPY = {"5x8": 5.4856, "6x9": 6.2847, "6x10": 6.5971, "6x11": 6.8904, "6x12": 7.1669, "7x9": 6.8075,
                 "7x10": 7.1291, "7x11": 7.4309, "8x7": 6.6301, "8x8": 7.0270}
SIZES = ("5x8", "6x9", "8x8", "7x10", "7x11")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=game_sizes, default=",".join(SIZES),
                        help=f"comma-separated sizes, of {', '.join(EXACT_ENTROPY)} (default {','.join(SIZES)})")
    parser.add_argument("--strategy", type=strategy_spec, default="sample", help="the codebreaker (default sample)")
    parser.add_argument("--games", type=at_least(1), default=2000, help="random secrets per size (default 2000)")
    parser.add_argument("--seed", type=at_least(0), default=31, help="seed of the secrets and games (default 31)")
    parser.add_argument("--jobs", type=at_least(1), default=os.cpu_count(),
                        help="worker processes (default: one per core)")
    args = parser.parse_args()
    sizes = args.sizes
    unknown = [s for s in sizes if s not in EXACT_ENTROPY]
    if unknown:
        parser.error(f"no exact Entropy figure for {', '.join(unknown)}; sizes with one: {', '.join(EXACT_ENTROPY)}")
    problem = unplayable([args.strategy], sizes)
    if problem:
        parser.error(problem)
    print(f"{'size':5} {'games':>5} {'mean':>7} {'s.e.':>6} {'exact Entropy':>13} {'gap':>7} {'s/game':>7} "
          f"{'wall s':>7}   ({args.strategy}, seed {args.seed})")
    for row in run_large(sizes, [args.strategy], games=args.games, seed=args.seed, workers=args.jobs):
        exact = EXACT_ENTROPY[row.size]
        se = spread_text(row.stderr if row.games > 1 else None)  # n/a for one game (LargeRow.stderr: 0.0)
        print(f"{row.size:5} {row.games:5d} {row.mean:7.4f} {se:>6} {exact:13.4f} {row.mean - exact:+7.4f} "
              f"{row.seconds_per_game:7.3f} {row.wall:7.1f}", flush=True)


if __name__ == "__main__":
    run_script(main)
