"""Guesses and seconds per game of the sampling and evolutionary codebreakers at 5x8, 6x9 and 8x12,
beside the published anchors and the issue's targets (``mmlab reproduce large`` prints the same rows).

    python benchmarks/bench_large.py                       # sample, evo, ga:variant=berghman; 500 games per size (5 1/2 min)
    python benchmarks/bench_large.py --sizes 8x12 --games 100 --strategies "sample:sample=2000"

"s/game" is the time one game takes in its worker process (one core); "wall s" is the row's time on
every core, so ``wall s / games`` is the throughput of the whole machine.
"""

from __future__ import annotations

# first: a Ctrl-C while the rest loads ends in one line
from _script import at_least, game_sizes, run_script, spread_text, strategy_specs, unplayable

import argparse
import os

from mmlab.cli.arguments import split_specs
from mmlab.experiments.large_tables import ANCHORS, SIZES, STRATEGIES, TARGETS, run_large


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=game_sizes, default=",".join(SIZES),
                        help=f"comma-separated sizes (default {','.join(SIZES)})")
    parser.add_argument("--strategies", type=strategy_specs, default=";".join(STRATEGIES),
                        help=f"semicolon-separated strategy specs (default {';'.join(STRATEGIES)})")
    parser.add_argument("--games", type=at_least(1), default=500, help="random secrets per size (default 500)")
    parser.add_argument("--seed", type=at_least(0), default=2005, help="seed of the secrets and games (default 2005)")
    parser.add_argument("--jobs", type=at_least(1), default=os.cpu_count(),
                        help="worker processes (default: one per core)")
    args = parser.parse_args()
    sizes = args.sizes
    problem = unplayable(split_specs(args.strategies), sizes)
    if problem:
        parser.error(problem)
    print(f"{'size':5} {'strategy':28} {'games':>5} {'mean':>7} {'s.e.':>6} {'max':>3} {'s/game':>7} "
          f"{'wall s':>7} {'evals':>9} {'fallbk':>6}  target / published")
    for row in run_large(sizes, split_specs(args.strategies), games=args.games, seed=args.seed, workers=args.jobs):
        target, target_s = TARGETS.get(row.size, (None, None))
        verdict = ""
        if target is not None:  # judged only on the 500 games (``LargeRow.target_met``)
            met = row.target_met
            verdict = f"target ≤ {target:g}" + (f" at ≤ {target_s:g} s" if target_s else "")
            verdict += "" if met is None else (": met" if met else ": NOT met")
        se = spread_text(row.stderr if row.games > 1 else None)  # n/a for one game (LargeRow.stderr: 0.0)
        anchors = "; ".join(f"{a} {m:g}" for a, m, _ in ANCHORS.get(row.size, ()))
        print(f"{row.size:5} {row.spec:28} {row.games:5d} {row.mean:7.4f} {se:>6} {row.max:3d} "
              f"{row.seconds_per_game:7.3f} {row.wall:7.1f} {row.evaluations.mean():9.0f} {row.fallbacks:6d}  "
              f"{'; '.join(part for part in (verdict, anchors) if part)}", flush=True)


if __name__ == "__main__":
    run_script(main)
