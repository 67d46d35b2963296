"""Two-dimensional Mastermind (issue 7): Singley's 2-D table reproduced in full, with time and memory per game.

    python benchmarks/bench_two_d.py                  # 10 000 secrets per size, 1 000 at 7x8 (the thesis's counts): 23 min
    python benchmarks/bench_two_d.py --quick          # 1 000 per size, 100 at 7x8: a few minutes;
                                                      # 33 min with the load average at 6-10 (its workers yield)
    python benchmarks/bench_two_d.py --json out.json  # also every row as JSON

Both methods (Singley's ``tabu`` and mmlab's ``propagate``) play the same random secrets (seed
2005) on worker processes, one per core, at a lower priority. A game's time is measured inside
its worker (play only: kernels are loaded and the line tables built before the first game is
timed); the figure printed is the worker's processor time per game, which other programs on the
machine do not inflate (the JSON also has the wall-clock time). Memory per game is the largest
number of consistent-set entries the game's knowledge held (Singley's bound: 2·n·m^n, the
Boolean vectors of 003 section 5.3) and the peak resident size of the worker processes.

Acceptance (issue 7): tabu mean within 0.05 of the thesis at every size; propagate's mean below
tabu's at every size; tabu at least 20x faster than Singley's Table 6-2 at 6x8 and 7x8. The script
exits with status 0 when every acceptance figure is met, 1 when one is not (its row says NO).
"""

from __future__ import annotations

from _script import at_least, output_file, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import json
import sys
import time

from mmlab.experiments.two_d_tables import (
    SIZES_2D,
    TABLE_6_2,
    margin,
    run_2d,
    thesis_games,
)

METHODS = ("tabu", "propagate")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="1 000 secrets per size, 100 at 7x8 (default: 10 000, 1 000 at 7x8)")
    parser.add_argument("--seed", type=at_least(0), default=2005, help="seed of the secrets (default 2005)")
    parser.add_argument("--jobs", type=at_least(1), default=None, help="worker processes (default: one per core)")
    parser.add_argument("--json", metavar="PATH", type=output_file,
                        help="write every row as JSON to PATH at the end, checked before the run (default: no JSON)")
    args = parser.parse_args()

    def games(size: str) -> int:
        full = thesis_games(size)
        return full // 10 if args.quick else full

    started = time.time()
    rows = {}
    for row in run_2d(METHODS, SIZES_2D, games, seed=args.seed, jobs=args.jobs, track_memory=True):
        rows[(row.method, row.size)] = row
        print(f"  {row.method:<9} {row.size:<5} {row.games:>6} games  mean {row.mean:.4f}  "
              f"{row.ms_per_game:9.2f} ms/game  [{time.time() - started:.0f} s]", file=sys.stderr, flush=True)
    sizes = [f"{n}x{m}" for n, m in SIZES_2D]
    ok = True

    print(f"\n003 appendix 'Tabu Search 2-D' beside mmlab tabu (seed {args.seed}); accept |ours - thesis| < 0.05")
    print(f"{'size':>5} {'games':>6} {'thesis':>8} {'± s.e.':>7} {'ours':>8} {'± s.e.':>7} {'diff':>8} {'z':>5} "
          f"{'median':>7} {'S.D. th/ours':>14} {'max':>6} {'min':>6}  ok")
    for size in sizes:
        r = rows[("tabu", size)]
        t = r.thesis
        good = abs(r.mean - t.mean) < 0.05
        ok &= good
        print(f"{size:>5} {r.games:>6} {t.mean:8.4f} {t.stderr:7.4f} {r.mean:8.4f} {r.stderr:7.4f} "
              f"{r.mean - t.mean:+8.4f} {r.z_vs_thesis():+5.1f} {t.median:>3g}|{r.median:<3g} "
              f"{t.std:6.3f}|{r.std:<6.3f} {t.max:>2}|{r.max:<3} {t.min:>2}|{r.min:<3} {'yes' if good else 'NO'}")

    print("\ntime and memory per game (ours: processor time on one core of this machine, wall clock in the JSON; "
          "Singley: 003 Table 6-2, 2005 hardware)")
    print(f"{'size':>5} {'Singley ms':>11} {'tabu ms':>9} {'speed-up':>9} {'propagate ms':>13} "
          f"{'set entries tabu':>17} {'propagate':>10} {'2·n·m^n':>10} {'peak RSS MiB':>13}")
    for size in sizes:
        tabu, prop = rows[("tabu", size)], rows[("propagate", size)]
        n, m = map(int, size.split("x"))
        singley = TABLE_6_2[size][1]
        speedup = singley / tabu.ms_per_game
        if size in ("6x8", "7x8"):
            ok &= speedup >= 20
        print(f"{size:>5} {singley:11.1f} {tabu.ms_per_game:9.2f} {speedup:8.0f}x {prop.ms_per_game:13.2f} "
              f"{int(tabu.memory_entries.max()):17,d} {int(prop.memory_entries.max()):10,d} {2 * n * m**n:10,d} "
              f"{max(tabu.peak_rss_mib, prop.peak_rss_mib):13.0f}")

    print("\nmmlab propagate beside tabu on the same secrets (margin = tabu mean - propagate mean, paired)")
    print(f"{'size':>5} {'games':>6} {'tabu':>8} {'propagate':>10} {'± s.e.':>7} {'margin':>8} {'± s.e.':>7} "
          f"{'max t|p':>8} {'median p':>9}  beats")
    for size in sizes:
        tabu, prop = rows[("tabu", size)], rows[("propagate", size)]
        diff, se = margin(prop, tabu)
        good = prop.mean < tabu.mean
        ok &= good
        print(f"{size:>5} {prop.games:>6} {tabu.mean:8.4f} {prop.mean:10.4f} {prop.stderr:7.4f} {diff:8.4f} "
              f"{se:7.4f} {tabu.max:>4}|{prop.max:<3} {prop.median:9g}  {'yes' if good else 'NO'}")
    print(f"\nall acceptance figures met: {'yes' if ok else 'NO'}; {time.time() - started:.0f} s in all")
    if args.json:
        with open(args.json, "w") as f:
            json.dump([r.to_dict() for r in rows.values()], f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    run_script(main)
