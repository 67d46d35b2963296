"""How many bits does ``sample`` lose by choosing its guess on a sample? At every position of a game
from the second guess on whose consistent set is too large to score whole (more than the 5000
reference codes: guesses 2-6 at 8x12), the exact entropy of the guess ``sample`` would choose is
compared with the best exact entropy among its finalists and among all its candidates, and with the
guess it would choose if it rescored every candidate, not only its 40 finalists, against the reference.

``sample``'s own search picks the position's candidates (``SampleScoring.candidate_pool``, scored
against 1000 consistent codes) and finalists (``finalists_of``, rescored against 5000), and its
choice is the top-scoring finalist. "Exact" entropy is over the whole consistent set when the
constraint search lists it (at most 500 000 codes), else over ``--truth`` codes drawn uniformly.
The finalists' loss is what a larger reference sample could win back; the candidates' loss is what
scoring every candidate exactly could. Either, divided by the bits a guess reveals (about 4 at 8x12,
``bench_two_step.py``), is an upper bound on the guesses per game the sampling costs.

    python benchmarks/bench_selection.py                   # 20 games at 8x12 (about 10 minutes)
    python benchmarks/bench_selection.py --size 6x9 --games 40
"""

from __future__ import annotations

from _script import at_least, game_size, mean_pm, run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import os
import sys
import time

import numpy as np

from mmlab.experiments.workers import WorkerPool
from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import make_strategy
from mmlab.strategies.code_rows import distinct_rows, sample_stats
from mmlab.strategies.sample_scoring import LIST_FACTOR, LIST_NODES, REFERENCE_FACTOR, auto_sample_size, ranking
from mmlab.strategies.scoring import ENTROPY


def exact_entropy(codes: np.ndarray, truth: np.ndarray, game: Game) -> np.ndarray:
    """Entropy in bits of each row of ``codes`` over the consistent codes ``truth``."""
    return sample_stats(codes, truth, game.colours, game.with_white)[:, ENTROPY]


def losses(strategy, knowledge: Knowledge, rng: np.random.Generator,
           truth_size: int) -> tuple[float, float, float] | None:
    """(best finalist's minus the choice's exact entropy, best candidate's minus the choice's, best
    candidate's minus that of the top candidate rescored on the reference), or ``None`` where
    ``sample`` scores the whole consistent set (nothing is sampled)."""
    game = knowledge.game
    reference, whole = strategy.consistent_sample(knowledge, REFERENCE_FACTOR * strategy.sample_size)
    if whole:
        return None
    candidates, stats = strategy.candidate_pool(reference[:strategy.sample_size])
    finalists, stats = strategy.finalists_of(candidates, stats, reference)
    chosen = ranking(stats, "entropy")[0]
    listed = knowledge.list_consistent(LIST_FACTOR * strategy.sample_size, LIST_NODES)
    truth = listed if listed is not None else knowledge.draw_uniform(rng, truth_size, max_draws=10**10)[0]
    distinct = distinct_rows(candidates)
    rescored = int(np.argmax(exact_entropy(distinct, reference, game)))
    final = exact_entropy(finalists, truth, game)
    every = exact_entropy(distinct, truth, game)
    return float(final.max() - final[chosen]), float(every.max() - final[chosen]), float(every.max() - every[rescored])


def play(size: str, seed: int, index: int, truth_size: int) -> list[tuple[int, float, float, float]]:
    """(guess number, finalists' loss, candidates' loss, all rescored's loss) at each sampled
    position of one game of ``sample`` against a random secret."""
    game = Game.parse_size(size)
    rng = np.random.default_rng([seed, index])
    secret = game.index_of(rng.integers(game.colours, size=game.pegs))
    strategy, measurer = make_strategy("sample"), make_strategy("sample")
    strategy.start(game, rng)
    measurer.start(game, np.random.default_rng([seed, index, 1]))
    knowledge, rows = Knowledge.initial(game, explicit=False), []
    while True:
        if knowledge.history:
            found = losses(measurer, knowledge, measurer.rng, truth_size)
            if found is None:
                return rows
            rows.append((len(knowledge.history) + 1, *found))
        guess = strategy.guess(knowledge)
        answer = game.score(secret, guess)
        if answer == game.win:
            return rows
        knowledge = knowledge.update(guess, answer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=game_size, default="8x12", help="game size (default 8x12)")
    parser.add_argument("--games", type=at_least(1), default=20, help="games of sample played (default 20)")
    parser.add_argument("--truth", type=at_least(1), default=200_000,
                        help="uniformly drawn codes that stand for a consistent set too large to list (default 200000)")
    parser.add_argument("--seed", type=at_least(0), default=41, help="seed of the games (default 41)")
    parser.add_argument("--jobs", type=at_least(1), default=os.cpu_count(),
                        help="worker processes (default: one per core)")
    args = parser.parse_args()
    game = Game.parse_size(args.size)
    reference = REFERENCE_FACTOR * auto_sample_size(game)  # sample scores every consistent code up to this
    if game.n_codes <= reference:
        parser.error(f"--size {args.size}: sample scores the whole consistent set wherever it holds at most "
                     f"{reference} codes, and {args.size} has {game.n_codes} in all, so sample never chooses on a "
                     "sample there; choose a larger size, e.g. 6x9")
    start = time.time()
    tasks = [(args.size, args.seed, i, args.truth) for i in range(args.games)]
    with WorkerPool(args.jobs) as pool:
        games = list(pool.map(play, *zip(*tasks)))
    rows = np.array([row for game in games for row in game]).reshape(-1, 4)
    games_text = f"{args.games} game{'s' if args.games != 1 else ''}"
    if not len(rows):
        sys.exit(f"{args.size}: no position of the {games_text} had more than {reference} consistent codes, "
                 "so sample never chose on a sample; play more games or a larger size")
    print(f"{args.size}, {games_text} of sample, seed {args.seed}: exact entropy lost by the choice, in bits")
    print("guess  positions  vs best finalist   vs best candidate   all rescored vs best candidate")
    for move in np.unique(rows[:, 0]).astype(int):
        at = rows[rows[:, 0] == move]
        cells = [mean_pm(at[:, c]) for c in (1, 2, 3)]
        print(f"{move:5d}  {len(at):9d}  {cells[0]:>16}   {cells[1]:>17}   {cells[2]:>30}")
    per_game = np.array([[sum(r[c] for r in game) for c in (1, 2, 3)] for game in games])
    gain = per_game[:, 1] - per_game[:, 2]
    print(f"per game: {mean_pm(per_game[:, 0])} bits vs the best finalists, {mean_pm(per_game[:, 1])} vs the best "
          f"candidates; rescoring every candidate wins back {mean_pm(gain)} (wall {time.time() - start:.0f} s)")


if __name__ == "__main__":
    run_script(main)
