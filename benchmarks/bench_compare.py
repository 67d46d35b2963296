"""Wall and CPU time of the README's main command, ``mmlab compare 4x6``, and of reading it back.

    python benchmarks/bench_compare.py              # best of 3 of each (under a minute a repeat)
    python benchmarks/bench_compare.py --repeat 5 --size 4x6 --jobs 1
    python benchmarks/bench_compare.py --src /tmp/old/src   # another checkout's mmlab (before/after)

Three commands, each run ``--repeat`` times as a user would type them, in a fresh temporary folder
(its own results store): ``compare`` into an empty folder (plays and stores every game), ``compare``
again (the stored comparison, read back), and ``report`` of the stored comparison. Each line gives
the best wall time, the median, and the CPU time (user + system, over the command's processes, worker
processes included) of the best run, with the machine's load average before the command ran: on a busy
machine the wall times say more about the machine than about mmlab.
"""

from __future__ import annotations

from _script import at_least, game_size, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mmlab.errors import MastermindError
from mmlab.game import Game


#: The ``mmlab`` command: the one on PATH, or (--src) the package in another source folder.
MMLAB = ["mmlab"]
ENVIRONMENT = dict(os.environ)


def timed(command: list[str], folder: Path) -> tuple[float, float, str]:
    """Run ``mmlab`` with the arguments ``command`` in ``folder``: wall seconds, CPU seconds (user +
    system of it and its children) and what it printed; an mmlab that fails stops the benchmark
    with its message."""
    command = MMLAB + command
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, env=ENVIRONMENT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"{' '.join(command)} failed (status {done.returncode}):\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def study_name(folder: Path) -> str:
    """The study a compare stored in ``folder`` (its only one)."""
    done = subprocess.run([*MMLAB, "studies", "--json"], cwd=folder, capture_output=True, text=True, check=True,
                          env=ENVIRONMENT)
    return json.loads(done.stdout)[0]["study"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=at_least(1), default=3, help="runs of each command (default 3)")
    parser.add_argument("--size", type=game_size, default="4x6", help="the size compared (default 4x6)")
    parser.add_argument("--jobs", type=at_least(1), help="--jobs for compare (default: as mmlab chooses)")
    parser.add_argument("--src", type=Path, help="run the mmlab package in this folder (e.g. an older checkout's "
                                                 "src, from 'git archive REV src | tar -x -C DIR')")
    args = parser.parse_args()
    try:  # compare plays every secret of the size
        Game.parse_size(args.size).require_enumerable(f"mmlab compare {args.size} (every secret)")
    except MastermindError as e:
        parser.error(f"--size {args.size}: {e}")
    if args.src is not None:
        if not (args.src / "mmlab" / "cli" / "entry.py").is_file():
            parser.error(f"--src {args.src}: no mmlab package there (expected mmlab/cli/entry.py)")
        MMLAB[:] = [sys.executable, "-c", "from mmlab.cli.entry import run; run()"]
        ENVIRONMENT["PYTHONPATH"] = str(args.src.resolve())
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    rows: dict[str, list[tuple[float, float, float]]] = {"compare (fresh)": [], "compare (stored)": [],
                                                         "report": []}
    outputs: set[str] = set()
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            compare = ["compare", args.size, *jobs]
            load = os.getloadavg()[0]
            wall, cpu, text = timed(compare, folder)
            rows["compare (fresh)"].append((wall, cpu, load))
            outputs.add(re.sub(r"│ +[0-9]+\.[0-9]{3} │", "│ │", text))  # (the seconds column left out)
            load = os.getloadavg()[0]
            wall, cpu, _ = timed(compare, folder)
            rows["compare (stored)"].append((wall, cpu, load))
            name = study_name(folder)
            load = os.getloadavg()[0]
            wall, cpu, _ = timed(["report", name], folder)
            rows["report"].append((wall, cpu, load))
    where = f", mmlab from {args.src}" if args.src else ""
    print(f"{' '.join(['mmlab', 'compare', args.size, *jobs])}: best of {args.repeat}, {os.cpu_count()} cores{where}")
    print(f"{'command':<18} {'best s':>7} {'median s':>9} {'cpu s':>6} {'load':>5}")
    for command, runs in rows.items():
        wall, cpu, load = min(runs)
        median = statistics.median(w for w, _, _ in runs)
        print(f"{command:<18} {wall:>7.2f} {median:>9.2f} {cpu:>6.2f} {load:>5.2f}")
    if len(outputs) > 1:
        print("warning: the runs printed different tables")


if __name__ == "__main__":
    run_script(main)
