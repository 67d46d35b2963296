"""Is one-step Entropy short-sighted in the middle of a large game? Two-step information of the
Entropy finalists against the top scorer's, at positions where the consistent set is too large to
list (guesses 2-4 at 8x12).

Each position is reached by playing ``sample`` against a random secret for ``--depth`` guesses. There
``sample``'s own search (``SampleScoring.scored_finalists``) ranks its candidates by Entropy over
``--reference`` consistent codes; each of the ``--finalists`` best is valued by the bits its answers
reveal plus the mean entropy of the best next guess within each answer (found by the search of
``--next``, ``sample`` with a sample of 200 codes, over a fresh sample of
``--part`` codes of that answer's consistent set; answers given by less than ``--min-share`` of the
reference are left out, the same for every finalist). The finalist with the most two-step bits is
then valued again, with the top scorer, on fresh samples, so that picking the largest of noisy
values does not inflate the gain. The gain is what a two-step look-ahead adds over one-step Entropy.

    python benchmarks/bench_two_step.py                    # 12 positions after 1 guess at 8x12 (30 s)
    python benchmarks/bench_two_step.py --depth 3 --positions 32
"""

from __future__ import annotations

# first: a Ctrl-C while the rest loads ends in one line
from _script import at_least, fraction, game_size, mean_pm, run_script, strategy_spec

import argparse
import os
import sys
import time

import numpy as np

from bench_first_guess import entropy
from mmlab.experiments.workers import WorkerPool
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import make_strategy
from mmlab.strategies.endgame import feedback_matrix
from mmlab.strategies.sample_scoring import ranking
from mmlab.strategies.scoring import ENTROPY


def two_step_bits(strategy, knowledge: Knowledge, guess: np.ndarray, reference: np.ndarray, part: int,
                  min_share: float) -> float:
    """Bits that ``guess`` (colour row) reveals over ``reference``, plus the mean over its answers of
    the best entropy that the codebreaker's search finds over a fresh sample of that answer's codes."""
    game = knowledge.game
    answers = feedback_matrix(guess[None, :], reference, game.colours, game.with_white)[0]
    bits = entropy(answers)
    index = game.index_of(guess)
    for answer, count in zip(*np.unique(answers, return_counts=True)):
        share = count / reference.shape[0]
        if share < min_share or answer == game.win.code(game.pegs):
            continue
        after = knowledge.update(index, Feedback.from_code(int(answer), game.pegs))
        codes, _ = after.sample_distinct(strategy.rng, part)
        if codes.shape[0] < 2:
            continue
        _, stats = strategy.scored_finalists(codes)
        bits += share * stats[:, ENTROPY].max()
    return bits


def measure(size: str, depth: int, index: int, seed: int, finalists: int, reference: int, part: int,
            min_share: float, inner_spec: str) -> tuple[float, int, float] | None:
    """(gain in bits of the best two-step finalist over the top scorer, its rank, the top scorer's
    entropy) at the position of game ``index``; ``None`` when the game was won within ``depth`` guesses."""
    game = Game.parse_size(size)
    rng = np.random.default_rng([seed, index])
    secret = game.index_of(rng.integers(game.colours, size=game.pegs))
    strategy, inner = make_strategy("sample:lookahead=0,endgame=0"), make_strategy(inner_spec)
    strategy.start(game, rng)
    inner.start(game, rng)
    knowledge = Knowledge.initial(game, explicit=False)
    for _ in range(depth):
        guess = strategy.guess(knowledge)
        answer = game.score(secret, guess)
        if answer == game.win:
            return None
        knowledge = knowledge.update(guess, answer)
    codes, _ = knowledge.sample_distinct(rng, reference)
    candidates, stats = strategy.scored_finalists(codes)
    order = ranking(stats, "entropy")
    best = candidates[order[:finalists]]
    values = [two_step_bits(inner, knowledge, g, codes, part, min_share) for g in best]
    pick = int(np.argmax(values))
    top_entropy = float(stats[order[0], ENTROPY])
    if pick == 0:
        return 0.0, 0, top_entropy
    fresh, _ = knowledge.sample_distinct(rng, reference)
    gain = (two_step_bits(inner, knowledge, best[pick], fresh, part, min_share)
            - two_step_bits(inner, knowledge, best[0], fresh, part, min_share))
    return gain, pick, top_entropy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=game_size, default="8x12", help="game size (default 8x12)")
    parser.add_argument("--depth", type=at_least(1), default=1,
                        help="guesses played before the position, at least 1: the first guess is a fixed colour "
                             "pattern (default 1)")
    parser.add_argument("--positions", type=at_least(1), default=12, help="positions, one game each (default 12)")
    parser.add_argument("--finalists", type=at_least(1), default=6,
                        help="best Entropy finalists valued by two-step bits (default 6)")
    parser.add_argument("--reference", type=at_least(1), default=5000,
                        help="consistent codes the finalists are valued over (default 5000)")
    parser.add_argument("--part", type=at_least(1), default=500,
                        help="sample of each answer's codes for the next guess (default 500)")
    parser.add_argument("--min-share", type=fraction, default=0.004,
                        help="smallest share of the reference an answer needs to count, 0 to 1 (default 0.004)")
    parser.add_argument("--next", type=strategy_spec, default="sample:sample=200,lookahead=0,endgame=0",
                        help="the codebreaker that picks the next guess within each answer, a sample spec "
                             "(default sample:sample=200,lookahead=0,endgame=0)")
    parser.add_argument("--seed", type=at_least(0), default=99, help="seed of the games (default 99)")
    parser.add_argument("--jobs", type=at_least(1), default=os.cpu_count(),
                        help="worker processes (default: one per core)")
    args = parser.parse_args()
    if not hasattr(make_strategy(args.next), "scored_finalists"):
        parser.error(f"--next {args.next!r}: the next guess is found by a sample search; give a sample spec, "
                     "e.g. sample:sample=200")
    start = time.time()
    tasks = [(args.size, args.depth, i, args.seed, args.finalists, args.reference, args.part, args.min_share,
              args.next) for i in range(args.positions)]
    with WorkerPool(args.jobs) as pool:
        found = list(pool.map(measure, *zip(*tasks)))
    guesses = f"{args.depth} guess{'es' if args.depth != 1 else ''}"
    rows = np.array([row for row in found if row is not None])
    if not len(rows):
        sys.exit(f"{args.size}: every one of the {args.positions} games was won within {guesses}, so no position "
                 "was reached; lower --depth")
    won = len(found) - len(rows)
    ended = f" ({won} game{'s' if won != 1 else ''} won sooner, left out)" if won else ""
    gain = rows[:, 0]
    print(f"{args.size}, {len(rows)} position{'s' if len(rows) != 1 else ''} after {guesses}{ended}: "
          f"top scorer's entropy "
          f"{rows[:, 2].mean():.3f} bits; best of {args.finalists} finalists by two-step bits is not the top "
          f"scorer at {int((rows[:, 1] > 0).sum())}")
    print(f"  two-step gain over the top scorer: {mean_pm(gain, sign=True)} bits per position "
          f"(wall {time.time() - start:.0f} s)")


if __name__ == "__main__":
    run_script(main)
