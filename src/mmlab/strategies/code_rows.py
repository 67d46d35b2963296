"""Codes as colour rows (``uint8[n, pegs]``, one digit per peg) for games too large to index:
random draws, one-peg neighbours, distinct rows, and partition statistics against a sample. The
sampling codebreaker (``mmlab.strategies.sample_scoring``) and the exact endgame's pool
(``mmlab.strategies.endgame``) build their candidate guesses from these.

>>> import numpy as np
>>> from mmlab.game import Game
>>> game = Game.parse_size("8x12")
>>> codes = random_codes(game, np.random.default_rng(0), 3)
>>> codes.shape, distinct_rows(np.vstack([codes, codes])).shape
((3, 8), (3, 8))
"""

from __future__ import annotations

import numpy as np

from mmlab.game import Game, colour_counts, kernels
from mmlab.strategies.scoring import PARALLEL_WORK


def random_codes(game: Game, rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` uniformly random codes of ``game`` (colour rows; consistent or not)."""
    if game.repeats:
        return rng.integers(game.colours, size=(n, game.pegs)).astype(np.uint8)
    return np.argsort(rng.random((n, game.colours)), axis=1)[:, :game.pegs].astype(np.uint8)


def one_peg_changes(codes: np.ndarray, game: Game) -> np.ndarray:
    """Every code that differs from one of ``codes`` on exactly one peg (no repeated colour where
    the game forbids it).

    >>> one_peg_changes(np.array([[0, 1]], dtype=np.uint8), Game.parse_size("2x3")).tolist()
    [[1, 1], [2, 1], [0, 0], [0, 2]]
    """
    pegs, colours = game.pegs, game.colours
    out = np.repeat(codes, pegs * colours, axis=0).reshape(-1, pegs, colours, pegs)
    for peg in range(pegs):
        out[:, peg, :, peg] = np.arange(colours, dtype=np.uint8)
    out = out.reshape(-1, pegs)
    keep = (out != np.repeat(codes, pegs * colours, axis=0)).any(axis=1)
    if not game.repeats:
        keep &= (np.diff(np.sort(out, axis=1), axis=1) != 0).all(axis=1)  # no colour twice
    return out[keep]


def sample_stats(candidates: np.ndarray, sample: np.ndarray, colours: int, with_white: bool) -> np.ndarray:
    """Partition statistics (``mmlab.game.kernels.partition_stats`` columns) of each code row of
    ``candidates`` against the code rows of ``sample``."""
    digits = np.vstack([sample, candidates])
    counts = colour_counts(digits, colours)
    cand = np.arange(sample.shape[0], dtype=np.int64)
    guesses = np.arange(sample.shape[0], digits.shape[0], dtype=np.int64)
    parallel = guesses.shape[0] * cand.shape[0] >= PARALLEL_WORK
    kernel = kernels.partition_stats if parallel else kernels.partition_stats_serial
    return kernel(guesses, cand, digits, counts, with_white)


def row_keys(codes: np.ndarray, base: int) -> np.ndarray | None:
    """Each row of ``codes`` (digits below ``base``) as one integer, or ``None`` when they would
    not fit in 62 bits; equal rows, equal keys.

    >>> row_keys(np.array([[1, 2], [0, 1]], dtype=np.uint8), 3).tolist()
    [7, 3]
    """
    if base ** codes.shape[1] >= 2**62:
        return None
    return codes.astype(np.int64) @ base ** np.arange(codes.shape[1], dtype=np.int64)


def rows_in(rows: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Whether each of ``rows`` is one of the rows of ``others``.

    >>> rows_in(np.array([[1, 2], [0, 1]], dtype=np.uint8), np.array([[0, 1]], dtype=np.uint8)).tolist()
    [False, True]
    """
    base = int(max(rows.max(initial=0), others.max(initial=0))) + 1
    keys = row_keys(rows, base)
    if keys is not None:
        return np.isin(keys, row_keys(others, base))
    seen = {row.tobytes() for row in others}
    return np.array([row.tobytes() in seen for row in rows], dtype=bool)


def distinct_rows(codes: np.ndarray) -> np.ndarray:
    """The rows of ``codes`` without repeats, in order of first appearance.

    >>> distinct_rows(np.array([[1, 2], [0, 1], [1, 2]], dtype=np.uint8)).tolist()
    [[1, 2], [0, 1]]
    """
    keys = row_keys(codes, int(codes.max(initial=0)) + 1)
    if keys is not None:  # a 1-D unique is far faster
        _, first = np.unique(keys, return_index=True)
    else:
        _, first = np.unique(codes, axis=0, return_index=True)
    return codes[np.sort(first)]
