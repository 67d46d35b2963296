"""Wall time of the experiment platform on 004's protocols, against the authors' 90 minutes.

    python benchmarks/bench_study.py            # 4x8 four methods x 5000 games, then 4x6 four methods x 10 runs (30 s)
    python benchmarks/bench_study.py --jobs 1   # on one core

Each study runs from scratch into a fresh store in a temporary folder, exactly as
``mmlab run studies/NAME.toml`` would (local worker processes when they pay off), and the time
includes starting the workers and writing every game and move to DuckDB. Target (issue 5): the 4x8
four-method comparison over the 5000-game instance set in under 2 minutes on 2 cores; Merelo et
al. (004, section 5) took about 90 minutes.
"""

from __future__ import annotations

from _script import at_least, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path

from mmlab.experiments import stats
from mmlab.experiments.runner import run_study
from mmlab.experiments.store import Store
from mmlab.experiments.study import Study

STUDIES = Path(__file__).parents[1] / "studies"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=at_least(1), help="worker processes (default: as mmlab run chooses)")
    args = parser.parse_args()
    four_4x8 = Study.load(STUDIES / "merelo-4x8.toml")
    four_4x8 = dataclasses.replace(four_4x8, strategies=four_4x8.strategies[:4])  # the four methods, first 1234
    rows = [("4x8, 4 methods x 5000 (004 Table 11)", four_4x8, "about 90 minutes (004 section 5)"),
            ("4x6, 4 methods x 10 x 1296 (004 Table 9)", Study.load(STUDIES / "merelo-4x6.toml"), "")]
    published_width = max(len(published) for _, _, published in rows)
    print(f"{'study':<42} {'games':>7} {'moves':>8} {'seconds':>8} {'games/s':>8} {'published':<{published_width}} "
          "where")  # (where last: its width depends on the worker processes)
    for title, study, published in rows:
        with tempfile.TemporaryDirectory() as folder:
            store = Store(Path(folder) / "bench.duckdb")
            start = time.perf_counter()
            summary = run_study(study, store, jobs=args.jobs)
            seconds = time.perf_counter() - start
            moves = len(store.moves(study.name))
            table = stats.summary(store.games(study.name))
        print(f"{title:<42} {summary.played:>7} {moves:>8} {seconds:>8.1f} {summary.played / seconds:>8.0f} "
              f"{published:<{published_width}} {summary.scheduler}", flush=True)
        for r in table.itertuples():
            print(f"    {r.strategy:<52} {r.mean:.4f} ± {r.stderr:.4f}  max {r.max}")


if __name__ == "__main__":
    run_script(main)
