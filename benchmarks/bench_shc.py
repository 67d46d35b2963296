"""Guesses, evaluations, seconds and memory of the stochastic hill climber ``shc`` (001), beside the paper.

    python benchmarks/bench_shc.py                     # 4x6, 5x8, 6x8 (1000 games), 6x9, 8x12 (100), 10x20 (20):
                                                       # 10x20 about 10 minutes (a minute a game), the others one
    python benchmarks/bench_shc.py --sizes 6x8 --games 10000 --reading per-peg
    python benchmarks/bench_shc.py --table2            # 001 Table 2: tracker on/off x random/FPS, 4x6, 100 000 games (minutes)

Game ``i`` draws its secret and every random choice from ``numpy.random.default_rng([seed, i])``,
so each row is reproducible whatever the number of worker processes. "evals" are 001's
"combinations evaluated" (candidates checked for consistency; the tracker's skips do not count).
"s/game" is wall time, "cpu s" CPU time per game (the same on an idle machine); "tracker MiB" is
the largest code tracker of a game; "peak RSS" the largest worker process; "wall s" the row's time.
``--reading`` selects a reading of the paper's open points (docs/notes/shc-reading.md):
``literal`` (the default), ``per-peg`` (O8: FPS weights recomputed after each mutated peg) or
``avoid-same`` (O5b: a moved peg prefers a position where the CFG has another colour).
"""

from __future__ import annotations

# first: a Ctrl-C while the rest loads ends in one line
from _script import at_least, game_size, run_script, spread_text

import argparse
import math
import os
import resource
import time

import numpy as np

from mmlab.errors import MastermindError, SearchFailed
from mmlab.experiments.playout import play_game
from mmlab.game import Game
from mmlab.strategies.hill_climb import StochasticHillClimber
from mmlab.experiments.workers import WorkerPool, single_threaded
from mmlab.strategies.registry import parse_spec

DEFAULT_GAMES = {"4x6": 1000, "5x8": 1000, "6x8": 1000, "6x9": 100, "8x12": 100, "10x20": 20}

# 001 Tables 3 and 4 (1000 games, AABB first guess): (guesses, sd, evaluations, sd) per size and tracker.
PAPER_T34 = {
    ("4x6", "on"): (4.64, 0.857, 41.2, 49.0),
    ("5x8", "on"): (5.834, 0.934, 480.1, 826.6),
    ("6x8", "on"): (6.289, 0.878, 2759, 4728),
    ("4x6", "off"): (4.661, 0.841, 76.3, 136.9),
    ("5x8", "off"): (5.888, 0.949, 835, 1934),
    ("6x8", "off"): (6.308, 0.953, 2800, 5373),
}
# 001 Table 2 (4x6, 100 000 games): (guesses, sd, evaluations, sd, max evaluations).
PAPER_T2 = {
    ("off", "random"): (4.621, 0.854, 85, 441.4, 67672),
    ("off", "fps"): (4.623, 0.852, 83.4, 319, 29041),
    ("on", "random"): (4.64, 0.867, 66.6, 86.3, 1021),
    ("on", "fps"): (4.625, 0.854, 41.9, 50.5, 528),
}
READINGS = {"literal": {}, "per-peg": {"fps_per_peg": True}, "avoid-same": {"shift_avoid_same": True}}


def build(raw: dict[str, str], reading: str) -> StochasticHillClimber:
    strategy = StochasticHillClimber.from_raw(raw)
    for key, value in READINGS[reading].items():
        setattr(strategy, key, value)
    return strategy


def warm_up() -> None:
    """Each worker: numba on one thread, and the compiled kernels loaded before any game is timed."""
    single_threaded()
    game = Game.parse_size("4x6")
    play_game(game, StochasticHillClimber(), 0, np.random.default_rng(0))


def run_chunk(size: str, raw: dict[str, str], reading: str, seed: int, games: range) -> tuple[np.ndarray, int]:
    """Rows (guesses, evaluations, seconds, CPU seconds, tracker bytes) of the games ``games``, and
    the peak RSS."""
    game = Game.parse_size(size)
    strategy = build(raw, reading)
    rows = np.zeros((len(games), 5))
    for row, i in enumerate(games):
        rng = np.random.default_rng([seed, i])
        secret = int(rng.integers(game.n_codes))
        start, cpu = time.perf_counter(), time.process_time()
        try:
            guesses = play_game(game, strategy, secret, rng).n_guesses
        except SearchFailed:
            guesses = -1  # counted as a failure, left out of the statistics
        rows[row] = (guesses, strategy.evaluations, time.perf_counter() - start, time.process_time() - cpu,
                     strategy.tracker_bytes)
    return rows, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run(pool: WorkerPool, size: str, raw: dict[str, str], reading: str, seed: int, games: int,
        jobs: int) -> tuple[np.ndarray, int, float]:
    chunk = max(1, min(1000, math.ceil(games / (16 * jobs))))
    start = time.perf_counter()
    futures = [pool.submit(run_chunk, size, raw, reading, seed, range(a, min(a + chunk, games)))
               for a in range(0, games, chunk)]
    results = [f.result() for f in futures]
    return np.concatenate([r for r, _ in results]), max(m for _, m in results), time.perf_counter() - start


def mean_se(x: np.ndarray) -> tuple[float, float | None]:
    """The mean and its standard error (``None`` for a single game)."""
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else None


def finished(rows: np.ndarray, label: str) -> np.ndarray:
    """The rows of the games that ended; says how many raised SearchFailed (left out of the row)."""
    failed = int((rows[:, 0] < 0).sum())
    if failed:
        print(f"{label}: {failed} of {len(rows)} games raised SearchFailed (left out below)", flush=True)
    return rows[rows[:, 0] >= 0]


def sizes_table(pool, args, raw: dict[str, str]) -> None:
    tracker = build(raw, args.reading).values["tracker"]
    print(f"shc {','.join(f'{k}={v}' for k, v in raw.items()) or '(defaults)'}, reading {args.reading}, "
          f"seed {args.seed}")
    print(f"{'size':5} {'games':>6} {'guesses':>14} {'sd':>5} {'max':>3} {'evals':>19} {'sd':>9} {'max evals':>10} "
          f"{'s/game':>7} {'cpu s':>6} {'max s':>6} {'tracker MiB':>11} {'peak RSS MiB':>12} {'wall s':>7} | "
          "paper guesses, evals")
    for size in dict.fromkeys(args.sizes or DEFAULT_GAMES):  # (a size named twice is played once)
        games = args.games or DEFAULT_GAMES.get(size, 100)
        rows, rss, wall = run(pool, size, raw, args.reading, args.seed, games, args.jobs)
        rows = finished(rows, size)
        if not len(rows):
            continue
        g, e, s, cpu, mem = rows.T
        gm, gse = mean_se(g)
        em, ese = mean_se(e)
        paper = PAPER_T34.get((size, tracker))
        same_setting = set(raw) <= {"tracker"}  # the paper's rows play shc's defaults
        ref = f"{paper[0]} ± {paper[1]}, {paper[2]} ± {paper[3]}" if paper and same_setting else ""
        tracker_mib = f"{mem.max() / 2**20:.1f}" if tracker == "on" else "-"
        print(f"{size:5} {games:>6} {gm:>7.3f} ± {spread_text(gse, 3):>5} {g.std():>5.3f} {int(g.max()):>3} "
              f"{em:>10.1f} ± {spread_text(ese, 1):>6} {e.std():>9.1f} {int(e.max()):>10} {s.mean():>7.4f} "
              f"{cpu.mean():>6.4f} {s.max():>6.2f} "
              f"{tracker_mib:>11} {rss / 2**20:>12.0f} {wall:>7.0f} | {ref}", flush=True)


def table2(pool, args, raw: dict[str, str]) -> None:
    games = args.games or 100_000
    print(f"001 Table 2: shc on 4x6, {games} games, first guess {raw.get('first', 'aabb')}, "
          f"reading {args.reading}, seed {args.seed}")
    print(f"{'tracker':7} {'selection':9} {'guesses':>14} {'sd':>5} {'evals':>16} {'sd':>7} {'max':>6} | "
          f"{'paper: guesses':>14} {'sd':>5} {'evals':>6} {'sd':>6} {'max':>6}")
    for tracker in ("off", "on"):
        for selection in ("random", "fps"):
            spec = {**raw, "tracker": tracker, "selection": selection}
            rows, _, _ = run(pool, "4x6", spec, args.reading, args.seed, games, args.jobs)
            rows = finished(rows, f"tracker {tracker}, selection {selection}")
            if not len(rows):
                continue
            g, e = rows[:, 0], rows[:, 1]
            (gm, gse), (em, ese) = mean_se(g), mean_se(e)
            p = PAPER_T2[(tracker, selection)]
            print(f"{tracker:7} {selection:9} {gm:>7.3f} ± {spread_text(gse, 3):>5} {g.std():>5.3f} "
                  f"{em:>7.1f} ± {spread_text(ese, 1):>5} "
                  f"{e.std():>7.1f} {int(e.max()):>6} | {p[0]:>14} {p[1]:>5} {p[2]:>6} {p[3]:>6} {p[4]:>6}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table2", action="store_true", help="001 Table 2 on 4x6 instead of the sizes table")
    parser.add_argument("--games", type=at_least(1),
                        help="games per row (default: 1000/100/20 by size; 100 000 for --table2)")
    parser.add_argument("--seed", type=at_least(0), default=2003, help="seed of the games (default 2003)")
    parser.add_argument("--sizes", nargs="+", type=game_size,
                        help=f"game sizes (default {' '.join(DEFAULT_GAMES)}; not with --table2, which plays 4x6)")
    parser.add_argument("--spec", default="shc", help="shc parameters, e.g. shc:replace=equal,fps=60 (default shc)")
    parser.add_argument("--reading", choices=list(READINGS), default="literal",
                        help="reading of the paper's open points (default literal; see above)")
    parser.add_argument("--jobs", type=at_least(1), default=min(2, os.cpu_count() or 1),
                        help="worker processes (default: 2, or 1 on one core)")
    args = parser.parse_args()
    if args.table2 and args.sizes:
        parser.error("--table2 plays 001 Table 2's size, 4x6, only: leave out --sizes")
    try:
        name, raw = parse_spec(args.spec)
        if name != "shc":
            parser.error(f"--spec {args.spec!r}: this benchmark plays shc only, e.g. shc:replace=equal,fps=60")
        for size in ["4x6"] if args.table2 else dict.fromkeys(args.sizes or DEFAULT_GAMES):
            # refuse a bad spec, or a first guess that does not fit a size, before any row
            build(raw, args.reading).start(Game.parse_size(size), np.random.default_rng(0))
    except MastermindError as e:
        parser.error(str(e))
    with WorkerPool(args.jobs, initializer=warm_up) as pool:
        (table2 if args.table2 else sizes_table)(pool, args, raw)


if __name__ == "__main__":
    run_script(main)
