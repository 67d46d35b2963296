"""How far a codebreaker's endgame is from the best possible, on games too large to enumerate.

Each game is played by the codebreaker until its consistent set can be listed and holds at most
``--limit`` codes. From that position two figures are measured over every code of the set as the
secret: the codebreaker's mean number of further guesses (one game per code, its own random draws)
and the exact optimum (``mmlab.strategies.endgame.solve_endgame``), whose guesses are the consistent
codes and the ``--others`` inconsistent codes that split the set best, found by climbing from random
codes and one-peg changes of the set (``endgame.endgame_pool``). The gap is their difference, averaged over
the positions. The default codebreaker is ``sample`` with its exact endgame and look-ahead turned
off, i.e. one-step Entropy to the end; ``--strategy sample`` checks the endgame ``sample`` plays by
default.

The optimum is exact over one pool of guesses, built once at the position. ``sample`` builds a
fresh pool at every step of its own endgame, so it may guess codes outside that pool: against it
the gap can be negative (10 positions at 8x12, ``--games 10 --jobs 1 --strategy sample``: sample
2.4674, optimum 2.5157). The optimum bounds one-step Entropy's endgame only as far as the pool
holds the guesses worth playing.

    python benchmarks/bench_endgame.py                          # sample:endgame=0,lookahead=0 at 8x12, sets of <= 100 codes (85 s)
    python benchmarks/bench_endgame.py --size 6x9 --games 100 --limit 200
    python benchmarks/bench_endgame.py --size 5x8 --games 200               # 14 s
"""

from __future__ import annotations

# first: a Ctrl-C while the rest loads ends in one line
from _script import at_least, game_size, mean_pm, position_spec, position_strategies, run_script

import argparse
import os
import sys
import time

import numpy as np

from mmlab.experiments.workers import WorkerPool
from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.strategies.endgame import feedback_matrix, solve_endgame
from mmlab.strategies.endgame_kernels import MAX_CODES
from mmlab.strategies import make_strategy
from mmlab.strategies.endgame import ENDGAME_OTHERS, endgame_pool
from mmlab.strategies.sample_scoring import LIST_NODES


def endgame_position(game: Game, strategy, secret: int, limit: int) -> tuple[Knowledge, np.ndarray, int] | None:
    """Play until the consistent set is listed with at most ``limit`` codes: (knowledge, set, moves)."""
    knowledge, moves = Knowledge.initial(game, explicit=False), 0
    while True:
        if knowledge.history:
            listed = knowledge.list_consistent(limit, LIST_NODES)
            if listed is not None:
                return knowledge, listed, moves
        guess = strategy.guess(knowledge)
        feedback, moves = game.score(secret, guess), moves + 1
        if feedback == game.win:
            return None
        knowledge = knowledge.update(guess, feedback)


def strategy_guesses(game: Game, strategy, knowledge: Knowledge, secret: int) -> int:
    """Further guesses the codebreaker needs from ``knowledge`` to find ``secret``."""
    guesses = 0
    while True:
        guess = strategy.guess(knowledge)
        guesses += 1
        feedback = game.score(secret, guess)
        if feedback == game.win:
            return guesses
        knowledge = knowledge.update(guess, feedback)


def measure(size: str, spec: str, seed: int, index: int, limit: int, others: int) -> tuple[int, int, float, float, float] | None:
    """(set size, moves before, codebreaker's mean further guesses, optimum's, solve seconds) of game ``index``."""
    game = Game.parse_size(size)
    rng = np.random.default_rng([seed, index])
    secret = game.index_of(rng.integers(game.colours, size=game.pegs))
    strategy = make_strategy(spec)
    strategy.start(game, rng)
    position = endgame_position(game, strategy, secret, limit)
    if position is None:
        return None
    knowledge, codes, moves = position
    played = np.mean([strategy_guesses(game, strategy, knowledge, game.index_of(row)) for row in codes])
    start = time.perf_counter()
    pool, _ = endgame_pool(knowledge, codes, others, rng)
    found = solve_endgame(feedback_matrix(pool, codes, game.colours, game.with_white), game.win.code(game.pegs),
                          max_nodes=10**7)
    return codes.shape[0], moves, float(played), found.total / codes.shape[0], time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=game_size, default="8x12", help="game size (default 8x12)")
    parser.add_argument("--strategy", type=position_spec(own_game=True), default="sample:endgame=0,lookahead=0",
                        help="the codebreaker played to the position and valued to the end "
                             "(default sample:endgame=0,lookahead=0, one-step Entropy); its games keep no list "
                             "of the consistent codes and it guesses at each position again, which "
                             f"{', '.join(position_strategies(own_game=True))} can do (not the exhaustive "
                             "strategies such as knuth, nor tabu or shc)")
    parser.add_argument("--games", type=at_least(1), default=200, help="games played to a position (default 200)")
    parser.add_argument("--limit", type=at_least(1), default=100,
                        help=f"largest consistent set solved exactly (default 100, at most {MAX_CODES})")
    parser.add_argument("--others", type=at_least(0), default=ENDGAME_OTHERS,
                        help=f"inconsistent codes the optimum may guess (default {ENDGAME_OTHERS})")
    parser.add_argument("--seed", type=at_least(0), default=2026, help="seed of the games (default 2026)")
    parser.add_argument("--jobs", type=at_least(1), default=os.cpu_count(),
                        help="worker processes (default: one per core)")
    args = parser.parse_args()
    if not 0 < args.limit <= MAX_CODES:
        parser.error(f"--limit must be 1 to {MAX_CODES}: the exact endgame handles at most {MAX_CODES} codes")
    start = time.time()
    tasks = [(args.size, args.strategy, args.seed, i, args.limit, args.others) for i in range(args.games)]
    with WorkerPool(args.jobs) as pool:
        rows = [r for r in pool.map(measure, *zip(*tasks)) if r is not None]
    if not rows:
        sys.exit(f"{args.size}: no game reached a position with at most {args.limit} codes; "
                 "play more games or widen --limit")
    a = np.array(rows)
    gap = a[:, 2] - a[:, 3]
    print(f"{args.size} {args.strategy}: {len(a)} position{'s' if len(a) != 1 else ''} with <= {args.limit} consistent codes "
          f"(mean {a[:, 0].mean():.1f}) after {a[:, 1].mean():.2f} guesses")
    print(f"  further guesses: {args.strategy} {a[:, 2].mean():.4f}, optimum {a[:, 3].mean():.4f}, "
          f"gap {mean_pm(gap, sign=True)} per game")
    print(f"  optimum solved in {a[:, 4].mean():.3f} s on average (max {a[:, 4].max():.2f}); wall {time.time() - start:.0f} s")


if __name__ == "__main__":
    run_script(main)
