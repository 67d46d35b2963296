"""What the sampling codebreaker's one-guess look-ahead saves, measured without the noise of play.

Each game is played by ``sample`` until its consistent set can be listed and holds more than 100
and at most ``--limit`` codes. From that position each codebreaker is valued exactly over every
code of the set as the secret: its guess splits the set, every part of more than 100 codes is
split again by its next guess, and every part of at most 100 codes costs its exact endgame
(``solve_endgame`` with the pool of ``endgame.endgame_pool``, which ``sample`` plays).
Random draws are seeded by the set, so both codebreakers see the same candidates at the same
position. The saving is the difference of the mean further guesses, averaged over the positions.

    python benchmarks/bench_lookahead.py                        # sample:lookahead=0 against sample at 8x12 (3-6 min)
    python benchmarks/bench_lookahead.py --size 6x9 --games 100
    python benchmarks/bench_lookahead.py --strategies "sample;sample:lookahead=40,part=200"
"""

from __future__ import annotations

# first: a Ctrl-C while the rest loads ends in one line
from _script import at_least, game_size, mean_pm, position_specs, position_strategies, run_script

import argparse
import hashlib
import os
import sys
import time

import numpy as np

from mmlab.cli.arguments import split_specs
from mmlab.experiments.workers import WorkerPool
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import make_strategy
from mmlab.strategies.endgame import feedback_matrix, solve_endgame
from mmlab.strategies.endgame import ENDGAME_OTHERS, endgame_pool

from bench_endgame import endgame_position  # the same play to a listed set

ENDGAME_SIZE = 100


def seeded(codes: np.ndarray) -> np.random.Generator:
    """A generator seeded by the code rows, so every codebreaker draws the same at a position."""
    return np.random.default_rng(int.from_bytes(hashlib.blake2b(codes.tobytes(), digest_size=8).digest(), "little"))


def tree_total(strategy, knowledge: Knowledge, codes: np.ndarray) -> int:
    """Guesses in total over ``codes`` (the consistent set of ``knowledge``) when ``strategy``
    guesses while more than ``ENDGAME_SIZE`` codes are left and the exact endgame plays the rest."""
    game, n = knowledge.game, codes.shape[0]
    win = game.win.code(game.pegs)
    if n <= 2:
        return 2 * n - 1
    if n <= ENDGAME_SIZE:
        pool, _ = endgame_pool(knowledge, codes, ENDGAME_OTHERS, seeded(codes))
        return solve_endgame(feedback_matrix(pool, codes, game.colours, game.with_white), win, max_nodes=10**7).total
    strategy.rng = seeded(codes)
    guess = strategy.guess(knowledge)
    answers = feedback_matrix(np.array([game.digits(guess)], dtype=np.uint8), codes, game.colours, game.with_white)[0]
    total = n
    for answer in np.unique(answers):
        if answer != win:
            child = knowledge.update(guess, Feedback.from_code(int(answer), game.pegs))
            total += tree_total(strategy, child, codes[answers == answer])
    return total


def measure(size: str, specs: tuple[str, ...], seed: int, index: int, limit: int) -> list[float] | None:
    """(set size, then mean further guesses and seconds of each codebreaker) of game ``index``."""
    game = Game.parse_size(size)
    rng = np.random.default_rng([seed, index])
    secret = game.index_of(rng.integers(game.colours, size=game.pegs))
    player = make_strategy("sample")
    player.start(game, rng)
    found = endgame_position(game, player, secret, limit)
    if found is None or found[1].shape[0] <= ENDGAME_SIZE:
        return None
    knowledge, codes, _ = found
    row = [float(codes.shape[0])]
    for spec in specs:
        strategy = make_strategy(spec)
        strategy.start(game, rng)
        start = time.perf_counter()
        row += [tree_total(strategy, knowledge, codes) / codes.shape[0], time.perf_counter() - start]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=game_size, default="8x12", help="game size (default 8x12)")
    parser.add_argument("--strategies", type=position_specs(own_game=False), default="sample:lookahead=0,sample",
                        help="codebreakers, the first is the baseline (default sample:lookahead=0,sample); "
                             "they guess at positions of sample's games, which keep no list of the consistent "
                             f"codes: {', '.join(position_strategies(own_game=False))} can (not the exhaustive "
                             "strategies such as knuth, nor Singley's scripted methods or shc)")
    parser.add_argument("--games", type=at_least(1), default=100, help="games played to a position (default 100)")
    parser.add_argument("--limit", type=at_least(ENDGAME_SIZE + 1), default=5000,
                        help=f"largest consistent set a position may hold (more than {ENDGAME_SIZE}; default 5000)")
    parser.add_argument("--seed", type=at_least(0), default=2026, help="seed of the games (default 2026)")
    parser.add_argument("--jobs", type=at_least(1), default=os.cpu_count(),
                        help="worker processes (default: one per core)")
    args = parser.parse_args()
    specs = tuple(split_specs(args.strategies))
    start = time.time()
    tasks = [(args.size, specs, args.seed, i, args.limit) for i in range(args.games)]
    with WorkerPool(args.jobs) as pool:
        rows = [r for r in pool.map(measure, *zip(*tasks)) if r is not None]
    if not rows:
        sys.exit(f"{args.size}: no game reached a position with {ENDGAME_SIZE} < codes <= {args.limit}; "
                 "play more games or widen --limit")
    a = np.array(rows)
    print(f"{args.size}: {len(a)} position{'s' if len(a) != 1 else ''} with {ENDGAME_SIZE} < codes <= {args.limit} "
          f"(mean {a[:, 0].mean():.0f}, median {np.median(a[:, 0]):.0f}); wall {time.time() - start:.0f} s")
    for j, spec in enumerate(specs):
        further, seconds = a[:, 1 + 2 * j], a[:, 2 + 2 * j]
        line = f"  {spec}: further guesses {further.mean():.4f} (valued in {seconds.mean():.2f} s per position)"
        if j:
            saving = a[:, 1] - further
            line += f", saves {mean_pm(saving, sign=True)} per game"
        print(line)


if __name__ == "__main__":
    run_script(main)
