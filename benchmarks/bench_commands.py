"""The fixed cost of starting ``mmlab``: a few short commands, each run in fresh processes, best of N.

    python benchmarks/bench_commands.py              # best of 5 runs of each command (about 40 s)
    python benchmarks/bench_commands.py --runs 10
    python benchmarks/bench_commands.py --mmlab "python -m mmlab"
    git worktree add /tmp/old HEAD~3                 # then old and new code, alternated:
    python benchmarks/bench_commands.py --mmlab "env PYTHONPATH=/tmp/old/src python -m mmlab" --mmlab "python -m mmlab"

Each command is run ``--runs`` times in turn (the commands interleaved, and each ``--mmlab`` given
run one after the other, so that a burst of load from elsewhere falls on all of them alike), its
output thrown away; the table gives the best and the median wall time, and the processor time
(user + system, of the process and its children) of the best run, a table for each ``--mmlab``.
The load average before and after is printed too: the figures are only as quiet as the machine.
A command that fails ends the script with its error. (Code in another folder, as a worktree, has
its own numba cache: run it once before timing it.)
"""

from __future__ import annotations

from _script import at_least, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = [
    ["--help"],
    ["eval", "--help"],
    ["studies", "--help"],
    ["strategies"],
    ["score", "1122", "1234"],
    ["partition", "4x6", "1123"],
    ["eval", "3x4", "--strategy", "knuth"],
    ["eval", "4x6", "--strategy", "knuth"],
    ["tree", "3x4"],
]


def program(text: str) -> list[str]:
    """An argparse type: a command line, split as a shell splits it, whose first word is a program
    that can be run (a path, or a name on the path); its words."""
    try:
        words = shlex.split(text)
    except ValueError as e:  # e.g. "No closing quotation"
        raise argparse.ArgumentTypeError(f"cannot split {text!r}: {e}") from None
    if not words:
        raise argparse.ArgumentTypeError("give a command, e.g. 'python -m mmlab'")
    found = shutil.which(words[0])
    if found is None:
        raise argparse.ArgumentTypeError(f"{words[0]!r} is not a program that can be run "
                                         "(not found, or not executable)")
    return words


def timed(command: list[str], folder: str) -> tuple[float, float]:
    """Wall and processor seconds of one run of ``command`` in ``folder``."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=folder)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"error: {shlex.join(command)} failed (status {proc.returncode}):\n{err}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=at_least(1), default=5, help="runs of each command (default 5)")
    parser.add_argument("--mmlab", type=program, action="append",
                        help="how to run mmlab (default: the 'mmlab' script beside this interpreter, which a pyenv "
                             "shim on the path runs, else the one on the path, else 'python -m mmlab'); give it "
                             "twice or more to time each, alternated")
    args = parser.parse_args()
    if args.mmlab:
        mmlabs = args.mmlab
    else:
        beside = Path(sys.executable).with_name("mmlab")
        found = str(beside) if beside.is_file() else shutil.which("mmlab")
        mmlabs = [[found] if found else [sys.executable, "-m", "mmlab"]]
    load = os.getloadavg()
    runs: dict[tuple[int, int], list[tuple[float, float]]] = {
        (m, i): [] for m in range(len(mmlabs)) for i in range(len(COMMANDS))}
    with tempfile.TemporaryDirectory() as folder:  # (no command here writes a file; none lands in the checkout)
        for r in range(args.runs):
            for i, command in enumerate(COMMANDS):
                order = range(len(mmlabs)) if r % 2 == 0 else reversed(range(len(mmlabs)))  # (none always first)
                for m in order:
                    runs[m, i].append(timed([*mmlabs[m], *command], folder))
    after = os.getloadavg()
    width = max(len(shlex.join(["mmlab", *c])) for c in COMMANDS)
    for m, mmlab in enumerate(mmlabs):
        print(f"{shlex.join(mmlab)}, best of {args.runs} fresh processes; {os.cpu_count()} cores, load average "
              f"{load[0]:.2f} before, {after[0]:.2f} after")
        print(f"{'command':<{width}}  {'best s':>7}  {'median s':>8}  {'CPU s':>6}")
        for i, command in enumerate(COMMANDS):
            best = min(runs[m, i])
            median = statistics.median(wall for wall, _ in runs[m, i])
            print(f"{shlex.join(['mmlab', *command]):<{width}}  {best[0]:7.2f}  {median:8.2f}  {best[1]:6.2f}")


if __name__ == "__main__":
    run_script(main)
