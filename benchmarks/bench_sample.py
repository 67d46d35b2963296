"""The `random` strategy on games too large to list (issue 3): guesses, evaluations, time, failures.

    python benchmarks/bench_sample.py            # 6x8, 6x9, 8x12 (100 games), 10x20 (20 games): 40 s
    python benchmarks/bench_sample.py --quick    # 20 / 5 games
    python benchmarks/bench_sample.py --sizes 8x12 --games 30

Every game keeps the knowledge implicit (no consistent set in memory), even on 6x8 and 6x9 where
`random` would otherwise draw uniformly from the enumerated set. Two methods are played on the
same secrets: ``drawn``, `random` itself, whose guesses come from ``Knowledge.random_code``
(uniform by rejection while random codes fit often enough, then uniform from the listed set, the
constraint search only where neither is affordable), and ``searched``, every guess from
``Knowledge.sample``, the constraint search, which is not exactly uniform. On 6x8 and 6x9 the
``uniform`` row (the enumerated set) is the yardstick both are judged against. Literature anchor:
random consistent at 8x12 needs about 9.0 guesses on average (issue 8).

Each size runs in a fresh subprocess that first warms the JIT on 4x6, so the times are play alone
and the peak resident memory is that size's.
"""

from __future__ import annotations

from _script import at_least, pm, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import json
import subprocess
import sys

SIZES = [("6x8", 100), ("6x9", 100), ("8x12", 100), ("10x20", 20)]

PLAY = """
import json, resource, sys, time
import numpy as np
from mmlab.errors import SearchFailed
from mmlab.experiments import play_game
from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import make_strategy

def play_implicit(game, secret, rng, searched=False):
    strategy = make_strategy("random")
    strategy.start(game, rng)
    knowledge = Knowledge.initial(game, explicit=False)
    guesses = 0
    while True:
        if searched and knowledge.history:
            guess, placements = knowledge.sample(rng)
            if guess is None:
                raise SearchFailed("no code found")
            strategy.evaluations += placements
        else:
            guess = strategy.guess(knowledge)
        guesses += 1
        fb = game.score(secret, guess)
        if fb == game.win:
            return guesses, strategy.evaluations
        knowledge = knowledge.update(guess, fb)

def run(game, secrets, method):
    guesses, evaluations, failures = [], [], 0
    t = time.perf_counter()
    for i, secret in enumerate(secrets):
        rng = np.random.default_rng([2024, i])
        try:
            if method == "uniform":
                record = play_game(game, make_strategy("random"), secret, rng)
                n, e = record.n_guesses, record.total_evaluations
            else:
                n, e = play_implicit(game, secret, rng, searched=method == "searched")
        except SearchFailed:
            failures += 1
            continue
        guesses.append(n)
        evaluations.append(e)
    seconds = time.perf_counter() - t
    g, e = np.array(guesses or [0], dtype=float), np.array(evaluations or [0], dtype=float)
    se = g.std(ddof=1) / np.sqrt(len(g)) if len(g) > 1 else None
    return {"games": len(secrets), "mean": g.mean(), "se": se, "max": int(g.max()),
            "evals": e.mean(), "s_per_game": seconds / len(secrets), "failures": failures}

size, games = sys.argv[1], int(sys.argv[2])
warm = Game.parse_size("4x6")
play_implicit(warm, 100, np.random.default_rng(0))
game = Game.parse_size(size)
rng = np.random.default_rng(2024)
secrets = [game.index_of(rng.integers(game.colours, size=game.pegs)) for _ in range(games)]
out = {"drawn": run(game, secrets, "drawn")}
out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
out["searched"] = run(game, secrets, "searched")
if game.enumerable:
    out["uniform"] = run(game, secrets, "uniform")
print(json.dumps(out))
"""


def _line(size: str, label: str, r: dict) -> str:
    return (f"{size:>6} {label:<8} {r['games']:>5} {pm(r['mean'], r['se'], 3):>14} {r['max']:>4} "
            f"{r['evals']:>12.4g} {r['s_per_game']:>9.4f} {r['failures']:>4}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="20 games per size, 5 at 10x20")
    parser.add_argument("--sizes", nargs="*", choices=[size for size, _ in SIZES], metavar="SIZE",
                        help=f"sizes to run: {' '.join(size for size, _ in SIZES)} (default: all)")
    parser.add_argument("--games", type=at_least(1),
                        help="games per size (default: 100, 20 at 10x20; with --quick 20, 5 at 10x20)")
    args = parser.parse_args()
    print(f"{'size':>6} {'method':<8} {'games':>5} {'guesses ± s.e.':>14} {'max':>4} {'evaluations':>12} "
          f"{'s/game':>9} {'fail':>4}  peak MiB")
    failed = False
    for size, games in SIZES:
        if args.sizes and size not in args.sizes:
            continue
        if args.games:
            games = args.games
        elif args.quick:
            games = 5 if size == "10x20" else 20
        done = subprocess.run([sys.executable, "-c", PLAY, size, str(games)], capture_output=True, text=True)
        if done.returncode:
            print(f"{size:>6} failed:\n{done.stderr}")
            failed = True
            continue
        out = json.loads(done.stdout)
        print(_line(size, "drawn", out["drawn"]) + f"  {out['peak_mib']:.0f}")
        print(_line(size, "searched", out["searched"]))
        if "uniform" in out:
            print(_line(size, "uniform", out["uniform"]))
    return 1 if failed else 0


if __name__ == "__main__":
    run_script(main)
