"""MathMind (Reddi 2002, in 003 section 2.3): how hard each answer rule makes the game, size by size.

    python benchmarks/bench_mathmind.py            # 3x6 to 5x8 (about 8 minutes on 2 cores, most of it 5x8)
    python benchmarks/bench_mathmind.py --quick    # up to 4x8 (about 10 s)

Three parts:
1. every secret of each size under each answer rule (higher-lower, euclidean, manhattan, and the
   standard black-white for reference), played by Knuth's and Neuwirth's (entropy) rules: the mean,
   the worst case and the seconds, and the mean minus the standard game's. 003 surmises that the
   higher/lower pegs make the game "much easier ... as the number of dimensions increased";
2. Reddi's remark that two guesses suffice for MM(4,6) under the Euclidean distance: for each small
   size, how many first guesses let two answers name every secret;
3. the exact optimum (the least total of guesses of any strategy) of the games of at most 256
   codes under each answer rule, beside the best of the four exhaustive rules.
"""

from __future__ import annotations

from _script import run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import time

from mmlab.game import Game
from mmlab.variants.mathmind import MathMind

QUICK = ["3x6", "4x6", "5x5", "4x8"]
FULL = [*QUICK, "5x6", "4x10", "5x8"]
RULES = ["knuth", "entropy"]
ANSWERS = ["black-white", "higher-lower", "euclidean", "manhattan"]
TWO_ANSWER_SIZES = ["2x4", "2x6", "3x4", "3x6", "4x4", "4x6"]
OPTIMUM_QUICK = ["2x8", "4x3", "3x5"]
OPTIMUM_FULL = [*OPTIMUM_QUICK, "3x6", "4x4"]  # (2x16 under the standard answers: 1862, in 675 s)
ALL_RULES = ["knuth", "irving", "most-parts", "entropy"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="sizes up to 4x8 only (about 10 s)")
    args = parser.parse_args()
    for answers in ANSWERS:  # (load the kernels first: the seconds are the evaluations')
        MathMind(Game(2, 3), answers).evaluate("knuth")

    print("every secret, exactly: mean (worst) per rule; gap = mean - the standard game's mean; seconds")
    print(f"{'size':5} {'answers':13} " + "  ".join(f"{r:>30}" for r in RULES))
    for size in QUICK if args.quick else FULL:
        game = Game.parse_size(size)
        standard = {}
        for answers in ANSWERS:
            mm = MathMind(game, answers)
            cells = []
            for rule in RULES:
                r = mm.evaluate(rule)
                standard.setdefault(rule, r.mean)
                gap = r.mean - standard[rule]
                cells.append(f"{r.mean:.4f} ({r.worst}) {gap:+.4f} {r.seconds:6.2f} s")
            print(f"{size:5} {answers:13} " + "  ".join(f"{c:>30}" for c in cells), flush=True)

    print("\ntwo answers: the first guesses after which some second guess names every secret")
    for size in TWO_ANSWER_SIZES:
        for answers in ANSWERS[1:]:
            mm = MathMind(Game.parse_size(size), answers)
            start = time.perf_counter()
            firsts = mm.two_answer_firsts()
            shown = " ".join(mm.game.format(c) for c in firsts[:6]) + (" …" if firsts.size > 6 else "")
            print(f"{size:5} {answers:13} {firsts.size:5} of {mm.game.n_codes:5}  {time.perf_counter() - start:6.2f} s"
                  f"  {shown}", flush=True)

    print("\nthe exact optimum: least L (mean, worst of the tree found) beside the best exhaustive rule's L; seconds")
    for size in OPTIMUM_QUICK if args.quick else OPTIMUM_FULL:
        for answers in ANSWERS:
            mm = MathMind(Game.parse_size(size), answers)
            best = min((mm.evaluate(rule) for rule in ALL_RULES), key=lambda r: r.total)
            opt = mm.optimum(max_nodes=15_000_000)
            found = (f"{opt.total:6} ({opt.mean:.4f}, {opt.worst})  {opt.seconds:6.2f} s" if opt is not None else
                     "not found within 15,000,000 sets")
            print(f"{size:5} {answers:13} optimum {found}   best rule {best.rule} {best.total}", flush=True)


if __name__ == "__main__":
    run_script(main)
