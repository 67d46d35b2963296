"""Two-step information of first guesses on a large game: a steadier way than playing games to
compare first guesses whose means differ by less than their standard errors.

For each first guess, ``H1`` is the entropy (bits) of its answers over a uniform sample of every
code; ``H2`` is the mean, over those answers, of the entropy of the codebreaker's own second guess
on the sample codes that gave the answer (answers given by fewer than ``--min-codes`` sample codes
are left out; "covered" is the share kept). ``H1 + H2`` is what the first two guesses reveal of the
secret, in bits (each of them reveals 3.5-3.9 bits at 8x12). The second guesses are the
codebreaker's own random picks: run two ``--seed`` values to see how much the figures move.

    python benchmarks/bench_first_guess.py                               # every colour pattern at 8x12 (80 s)
    python benchmarks/bench_first_guess.py --size 6x9 --codes 112233,112234,123456
"""

from __future__ import annotations

# first: a Ctrl-C while the rest loads ends in one line
from _script import at_least, game_size, position_spec, position_strategies, run_script

import argparse
import os

import numpy as np

from mmlab.errors import MastermindError
from mmlab.experiments.workers import WorkerPool
from mmlab.game import Feedback, Game, colour_counts, kernels
from mmlab.knowledge import Knowledge
from mmlab.strategies import make_strategy
from mmlab.strategies.sample_scoring import colour_patterns


def entropy(answers: np.ndarray) -> float:
    """Entropy in bits of the answers' distribution."""
    _, counts = np.unique(answers, return_counts=True)
    p = counts / counts.sum()
    return float(-(p * np.log2(p)).sum()) + 0.0  # (+ 0.0: a single answer gives 0.0, not -0.0)


def two_step(size: str, first: tuple[int, ...], spec: str, n_codes: int, min_codes: int, seed: int) -> tuple[float, float, float]:
    """(H1, H2, covered) of the first guess ``first`` (colour digits)."""
    game = Game.parse_size(size)
    rng = np.random.default_rng(seed)
    codes = rng.integers(game.colours, size=(n_codes, game.pegs)).astype(np.uint8)
    counts = colour_counts(codes, game.colours)

    def answers(digits, rows):
        d = np.asarray(digits, dtype=np.uint8)
        return kernels.feedback_against(d, colour_counts(d[None, :], game.colours)[0], codes, counts, rows,
                                        game.with_white)

    everyone = np.arange(n_codes, dtype=np.int64)
    first_answers = answers(first, everyone)
    strategy = make_strategy(spec)
    strategy.start(game, np.random.default_rng(seed + 1))
    start, guess = Knowledge.initial(game, explicit=False), game.index_of(np.array(first, dtype=np.uint8))
    h2 = covered = 0.0
    for answer, count in zip(*np.unique(first_answers, return_counts=True)):
        if count < min_codes:
            continue
        second = strategy.guess(start.update(guess, Feedback.from_code(int(answer), game.pegs)))
        h2 += count / n_codes * entropy(answers(game.digits(second), everyone[first_answers == answer]))
        covered += count / n_codes
    return entropy(first_answers), h2, covered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=game_size, default="8x12", help="game size (default 8x12)")
    parser.add_argument("--codes", default="", help="first guesses, comma-separated (default: every colour pattern)")
    parser.add_argument("--strategy", type=position_spec(own_game=False), default="sample",
                        help="the codebreaker that picks the second guess (default sample), after a first guess "
                             "not its own and with no list of the consistent codes: "
                             f"{', '.join(position_strategies(own_game=False))} can (not the exhaustive "
                             "strategies such as knuth, nor Singley's scripted methods or shc)")
    parser.add_argument("--sample", type=at_least(1), default=1_000_000,
                        help="uniform sample of every code (default 1000000)")
    parser.add_argument("--min-codes", type=at_least(1), default=200,
                        help="fewest sample codes an answer needs to count in H2 (default 200)")
    parser.add_argument("--seed", type=at_least(0), default=7,
                        help="seed of the sample and the second guesses (default 7)")
    parser.add_argument("--jobs", type=at_least(1), default=os.cpu_count(),
                        help="worker processes (default: one per core)")
    args = parser.parse_args()
    if args.min_codes > args.sample:
        parser.error(f"--min-codes {args.min_codes} is more than --sample {args.sample}: no answer could count in H2")
    game = Game.parse_size(args.size)
    try:
        firsts = ([tuple(game.digits(game.parse(c))) for c in args.codes.split(",")] if args.codes
                  else colour_patterns(game.pegs, game.colours, game.repeats))
    except MastermindError as e:
        parser.error(f"--codes: {e}")
    tasks = [(args.size, f, args.strategy, args.sample, args.min_codes, args.seed) for f in firsts]
    with WorkerPool(args.jobs) as pool:
        rows = list(pool.map(two_step, *zip(*tasks)))
    width = max(12, 2 * game.pegs)
    print(f"{'first':>{width}} {'H1':>7} {'H2':>7} {'H1+H2':>7} {'covered':>8}")
    for first, (h1, h2, covered) in sorted(zip(firsts, rows), key=lambda r: -(r[1][0] + r[1][1])):
        code = game.format(game.index_of(np.array(first, dtype=np.uint8)))
        print(f"{code:>{width}} {h1:7.4f} {h2:7.4f} {h1 + h2:7.4f} {covered:8.4f}", flush=True)


if __name__ == "__main__":
    run_script(main)
