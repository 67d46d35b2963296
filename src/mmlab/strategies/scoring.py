"""Partition statistics of candidate guesses, and the tie rule shared by every scoring strategy.

>>> import numpy as np
>>> from mmlab.game import Game
>>> from mmlab.knowledge import Knowledge
>>> game = Game.parse_size("4x6")
>>> stats = partition_stats(Knowledge.initial(game), np.array([game.parse("1122")]))
>>> int(stats[0, LARGEST]), int(stats[0, PARTS])
(256, 13)
"""

from __future__ import annotations

import numpy as np

from mmlab.game import kernels
from mmlab.knowledge import Knowledge

LARGEST = kernels.STAT_LARGEST
SUM_SQUARES = kernels.STAT_SUM_SQUARES
PARTS = kernels.STAT_PARTS
ENTROPY = kernels.STAT_ENTROPY
#: Scores closer than this are ties.
TOLERANCE = 1e-9
#: Below this many feedback computations one core is faster than starting threads.
PARALLEL_WORK = 200_000


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
        return kernel(guesses, cand, table, game.n_responses)
    kernel = kernels.partition_stats if parallel else kernels.partition_stats_serial
    return kernel(guesses, cand, game.all_digits, game.all_counts, game.with_white)


def best(values: np.ndarray) -> np.ndarray:
    """Mask of the values within ``TOLERANCE`` of the minimum."""
    return values <= values.min() + TOLERANCE


def is_member(codes: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """Mask of ``codes`` that belong to the ascending array ``sorted_set``."""
    pos = np.searchsorted(sorted_set, codes)
    pos[pos >= sorted_set.shape[0]] = 0
    return sorted_set[pos] == codes


def break_tie(top: np.ndarray, consistent: np.ndarray, ties: str, rng: np.random.Generator) -> int:
    """Pick from the ascending top scorers ``top``: consistent ones first, then the lowest index
    (``ties=first``) or a uniformly random one (``ties=random``)."""
    if top is not consistent:
        inside = is_member(top, consistent)
        if inside.any():
            top = top[inside]
    if ties == "first":
        return int(top[0])
    return int(top[rng.integers(top.shape[0])])
