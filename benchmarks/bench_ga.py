"""Guesses, evaluations and seconds of the GA codebreakers ``ga`` beside the published figures.

    python benchmarks/bench_ga.py                          # merelo, bento: 4x6, 5x8 (1000 games);
                                                           # berghman: 4x6, 5x8 (200), 6x9 (100), 8x12 (30): 35 s
    python benchmarks/bench_ga.py --only berghman --sizes 6x9 --games 50 --extra extend=900,reset=15

Game ``i`` of a row draws its secret and every random choice from
``numpy.random.default_rng([seed, i])``, so a row is reproducible whatever the number of worker
processes (2 by default). "evals" are fitness computations (001's "combinations evaluated");
"s/game" is CPU time per game in the worker, whose kernels were loaded before the first game;
"wall s" the row's wall time. Published figures (left out where ``--extra`` changes the setting):
Merelo and Bento from 001 Tables 3-4 (1000 games, AABB first guess); Berghman, Goossens and Leus
(2009) as quoted in the issue (mean guesses; seconds per game on their machine).
"""

from __future__ import annotations

from _script import at_least, game_sizes, mean_pm, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import functools
import os
import time

import numpy as np

from mmlab.errors import MastermindError
from mmlab.experiments.playout import play_game
from mmlab.game import Game
from mmlab.strategies.genetic import GeneticAlgorithm
from mmlab.experiments.workers import WorkerPool, single_threaded
from mmlab.strategies import make_strategy
from mmlab.strategies.registry import parse_spec

ROWS = [("merelo", "4x6", 1000), ("merelo", "5x8", 1000), ("bento", "4x6", 1000), ("bento", "5x8", 1000),
        ("berghman", "4x6", 200), ("berghman", "5x8", 200), ("berghman", "6x9", 100), ("berghman", "8x12", 30)]

# (guesses, sd, evaluations, sd, seconds per game); None where not published.
PAPER = {
    ("merelo", "4x6"): (4.132, 1.00, 279, 188, None),
    ("merelo", "5x8"): (5.904, 0.975, 2171, 1268, None),
    ("bento", "5x8"): (6.86, None, 1029.9, None, None),
    ("berghman", "4x6"): (4.39, None, None, None, None),
    ("berghman", "5x8"): (5.618, None, None, None, None),
    ("berghman", "6x9"): (6.475, None, None, None, 1.28),
    ("berghman", "8x12"): (8.366, None, None, None, 20.6),
}


def warm_up(variants: tuple[str, ...]) -> None:
    """Each worker: numba on one thread, and the kernels of every variant loaded (one 4x6 game
    each) before any game is timed."""
    single_threaded()
    game = Game.parse_size("4x6")
    for variant in variants:
        play_game(game, make_strategy(f"ga:variant={variant}"), 0, np.random.default_rng(0), max_guesses=200)


def play_chunk(args):
    spec, size, seed, indices = args
    name, raw = parse_spec(spec)
    strategy = GeneticAlgorithm.from_raw(raw)
    game = Game.parse_size(size)
    out = []
    for i in indices:
        rng = np.random.default_rng([seed, i])
        secret = int(rng.integers(game.n_codes))
        start = time.process_time()
        record = play_game(game, strategy, secret, rng, max_guesses=200)
        out.append((record.n_guesses, record.total_evaluations, time.process_time() - start, len(record.fallbacks),
                    record.won))
    return out


def fmt(value, sd=None, digits=3):
    if value is None:
        return "-"
    text = f"{value:.{digits}f}"
    return text + (f"±{sd:.{digits}f}" if sd is not None else "")


def fmt_sample(values, digits=3):
    """The mean and s.d. of a row's games as ``fmt`` prints a published pair; ``±n/a`` for one game."""
    return mean_pm(values, digits, sd=True, sep="±")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=at_least(0), default=2024, help="seed of the secrets and the GAs (default 2024)")
    ap.add_argument("--jobs", "--workers", dest="workers", type=at_least(1), default=2,
                    help="worker processes (default 2)")
    ap.add_argument("--only", choices=("merelo", "bento", "berghman"), help="one variant (default: all three)")
    ap.add_argument("--sizes", type=game_sizes,
                    help="comma-separated sizes (default: the rows above; 100 games at a size not among them)")
    ap.add_argument("--games", type=at_least(1), help="games per row (default: the rows above)")
    ap.add_argument("--extra", default="",
                    help="extra spec parameters, e.g. pop=50 or extend=900,reset=15 (default: none)")
    args = ap.parse_args()
    rows = [r for r in ROWS if (args.only is None or r[0] == args.only)]
    if args.sizes:
        sizes = args.sizes
        variants = [args.only] if args.only else sorted({v for v, _, _ in rows}, key=["merelo", "bento",
                                                                                       "berghman"].index)
        rows = [(v, s, dict((sz, n) for vv, sz, n in ROWS if vv == v).get(s, 100)) for v in variants for s in sizes]
    specs = {v: f"ga:variant={v}" + (f",{args.extra}" if args.extra else "") for v, _, _ in rows}
    published = {}  # whether the spec is the published setting (--extra may change it)
    for variant in sorted(specs):  # refuse a bad --extra before printing or starting workers
        try:
            published[variant] = make_strategy(specs[variant]).values == make_strategy(f"ga:variant={variant}").values
        except MastermindError as e:
            ap.error(str(e))
    print(f"seed {args.seed}, {args.workers} worker process{'es' if args.workers != 1 else ''}, "
          f"cpu count {os.cpu_count()}")
    if not all(published.values()):
        print(f"--extra {args.extra} changes the published setting: its rows leave the paper columns empty")
    width = max(38, *map(len, specs.values()))
    header = (f"{'spec':{width}} {'size':5} {'games':>5}  {'guesses':>13} {'paper':>13}  {'evals':>16} "
              f"{'paper':>14}  {'s/game':>7} {'paper':>6} {'fallbk':>6} {'wall s':>7}")
    print(header)
    print("-" * len(header))
    with WorkerPool(args.workers, initializer=functools.partial(warm_up, tuple(sorted(specs)))) as pool:
        for variant, size, games in rows:
            games = args.games or games
            spec = specs[variant]
            t0 = time.time()
            chunks = [(spec, size, args.seed, range(k, games, args.workers * 4)) for k in range(args.workers * 4)]
            results = [r for part in pool.map(play_chunk, chunks) for r in part]
            wall = time.time() - t0
            n, e, s, f, won = (np.array(col) for col in zip(*results))
            assert won.all()
            paper = PAPER.get((variant, size), (None,) * 5) if published[variant] else (None,) * 5
            print(f"{spec:{width}} {size:5} {games:5d}  {fmt_sample(n):>13} "
                  f"{fmt(paper[0], paper[1]):>13}  {fmt_sample(e, 0):>16} "
                  f"{fmt(paper[2], paper[3], 1 if paper[3] is None else 0):>14}  {s.mean():7.3f} "
                  f"{fmt(paper[4], None, 2):>6} {int(f.sum()):6d} {wall:7.1f}", flush=True)


if __name__ == "__main__":
    run_script(main)
