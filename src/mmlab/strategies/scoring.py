"""Partition statistics of candidate guesses, and the tie rule shared by every scoring strategy.

>>> import numpy as np
>>> from mmlab.game import Game
>>> from mmlab.knowledge import Knowledge, is_member
>>> game = Game.parse_size("4x6")
>>> stats = partition_stats(Knowledge.initial(game), np.array([game.parse("1122")]))
>>> int(stats[0, LARGEST]), int(stats[0, PARTS])
(256, 13)
"""

from __future__ import annotations

import numpy as np

from mmlab.errors import BadArgument
from mmlab.game import Game, kernels
from mmlab.knowledge import Knowledge, is_member

LARGEST = kernels.STAT_LARGEST
SUM_SQUARES = kernels.STAT_SUM_SQUARES
PARTS = kernels.STAT_PARTS
ENTROPY = kernels.STAT_ENTROPY
#: Scores closer than this are ties.
TOLERANCE = 1e-9
#: Below this many feedback computations one core is faster than starting threads.
PARALLEL_WORK = 200_000
#: Feedback computations of one kernel call at most (about 0.15 s on this machine's 2 cores): longer
#: work is cut into calls of this many, so that a Ctrl-C, which Python handles between them, stops a
#: hint of a large game (norvig's first hint at 6x9 ran 15.6 s in one call; helper-119).
BLOCK_WORK = 100_000_000


def partition_stats(knowledge: Knowledge, guesses: np.ndarray) -> np.ndarray:
    """``float64[len(guesses), 4]``: largest part, sum of squared sizes, parts, entropy (bits),
    of the partition of the consistent set by each guess."""
    game = knowledge.game
    guesses = np.ascontiguousarray(guesses, dtype=np.int64)
    cand = knowledge.consistent
    parallel = guesses.shape[0] * cand.shape[0] >= PARALLEL_WORK
    table = game.table()
    if table is not None:
        kernel = kernels.partition_stats_table if parallel else kernels.partition_stats_table_serial
        return _in_blocks(lambda rows: kernel(rows, cand, table, game.n_responses), guesses, cand.shape[0])
    kernel = kernels.partition_stats if parallel else kernels.partition_stats_serial
    return _in_blocks(lambda rows: kernel(rows, cand, game.all_digits, game.all_counts, game.with_white), guesses,
                      cand.shape[0])


def partition_histograms(knowledge: Knowledge, guesses: np.ndarray) -> np.ndarray:
    """``int32[len(guesses), (pegs+1)**2]``: the size of every answer class of each guess."""
    game = knowledge.game
    guesses = np.ascontiguousarray(guesses, dtype=np.int64)
    cand = knowledge.consistent
    parallel = guesses.shape[0] * cand.shape[0] >= PARALLEL_WORK
    kernel = kernels.partition_histograms if parallel else kernels.partition_histograms_serial
    return _in_blocks(lambda rows: kernel(rows, cand, game.all_digits, game.all_counts, game.with_white), guesses,
                      cand.shape[0])


def _in_blocks(kernel, guesses: np.ndarray, candidates: int) -> np.ndarray:
    """``kernel(guesses)``, called on blocks of ``guesses`` of at most ``BLOCK_WORK`` feedback
    computations against the ``candidates`` each, its rows stacked."""
    rows = max(1, BLOCK_WORK // max(candidates, 1))
    if guesses.shape[0] <= rows:
        return kernel(guesses)
    return np.concatenate([kernel(guesses[i:i + rows]) for i in range(0, guesses.shape[0], rows)])


def best(values: np.ndarray) -> np.ndarray:
    """Mask of the values within ``TOLERANCE`` of the minimum."""
    return values <= values.min() + TOLERANCE


def partition_summary(knowledge: Knowledge | Game | str, guess: int | str) -> dict:
    """How ``guess`` (an index, or a code written out) splits the candidates: class sizes per answer (``Game.feedbacks`` order),
    number of parts, largest part, expected size, entropy, and whether it is consistent. Needs the
    candidates listed (explicit knowledge of an enumerable game); a game, or its size, stands for
    its start, every code a candidate.

    >>> from mmlab.game import Game
    >>> partition_summary(Knowledge.initial(Game.parse_size("4x6")), "1122")["parts"]
    13
    >>> partition_summary("4x6", "1123")["parts"]
    14
    """
    if not isinstance(knowledge, Knowledge):
        knowledge = Knowledge.initial(Game.of(knowledge))
    game = knowledge.game
    guess = game.code(guess)
    if not knowledge.explicit:
        game.require_enumerable("a partition summary (it scores every candidate)")
        raise BadArgument("a partition summary needs the candidates listed: use Knowledge.initial(game) "
                          "(explicit=True)")
    hist = partition_histograms(knowledge, np.array([guess]))[0]
    stats = partition_stats(knowledge, np.array([guess]))[0]
    return {
        "candidates": knowledge.n_consistent,
        "classes": {fb: int(hist[fb.code(game.pegs)]) for fb in game.feedbacks()},
        "parts": int(stats[PARTS]),
        "largest": int(stats[LARGEST]),
        "expected_size": float(stats[SUM_SQUARES] / knowledge.n_consistent),
        "entropy_bits": float(stats[ENTROPY]),
        "consistent": knowledge.is_consistent(guess),
    }


def tie_pool(top: np.ndarray, consistent: np.ndarray) -> np.ndarray:
    """The ascending top scorers ``top`` a guess is picked from: the consistent ones when there are
    any (they may win at once); with ``pool=consistent`` every top scorer is consistent."""
    if top is not consistent:
        inside = is_member(top, consistent)
        if inside.any():
            return top[inside]
    return top

