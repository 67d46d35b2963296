"""Exact endgames of games too large to enumerate: for a small set of codes (the consistent set
late in an 8x12 game), the decision tree with the fewest guesses in total over them, every guess
drawn from a given pool (the codes themselves and some others). The sampling codebreaker plays its
endgames so (``sample:endgame=100``); ``benchmarks/bench_endgame.py`` measures how far a
codebreaker's endgame is from it.

``solve_endgame`` is a depth-first branch and bound over the pool. A part of ``m`` codes needs at
least ``2m - 1`` guesses in total (one code guessed first, every other one second), which orders
the guesses (most parts first, a consistent code ahead of an inconsistent one) and prunes them.
With the whole game as both set and pool the result is the optimum of ``mmlab.planners.Optimal``.

>>> import numpy as np
>>> from mmlab.game import Game
>>> game = Game.parse_size("3x3")
>>> codes = game.all_digits.astype(np.uint8)
>>> table = feedback_matrix(codes, codes, game.colours, game.with_white)
>>> solve_endgame(table, game.win.code(game.pegs)).total
73
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mmlab.game import colour_counts, kernels

#: Sets searched (memo entries) before ``solve_endgame`` gives up and returns ``None``.
MAX_NODES = 200_000


@dataclass(frozen=True)
class Endgame:
    """The fewest guesses in total over the set (``total``) and the pool row to guess first."""

    total: int
    guess: int


def feedback_matrix(guesses: np.ndarray, codes: np.ndarray, colours: int, with_white: bool) -> np.ndarray:
    """Feedback codes (``uint8``, row = guess, column = code) of the colour rows ``guesses`` against
    the colour rows ``codes``.

    >>> rows = np.array([[0, 0], [0, 1]], dtype=np.uint8)
    >>> feedback_matrix(rows, rows, 2, True).tolist()  # (2 pegs: black * 3 + white)
    [[6, 3], [3, 6]]
    """
    digits = np.vstack([codes, guesses])
    counts = colour_counts(digits, colours)
    columns = np.arange(codes.shape[0], dtype=np.int64)
    out = np.empty((guesses.shape[0], codes.shape[0]), dtype=np.uint8)
    for i in range(guesses.shape[0]):
        row = codes.shape[0] + i
        out[i] = kernels.feedback_against(digits[row], counts[row], digits, counts, columns, with_white)
    return out


def solve_endgame(table: np.ndarray, win: int, max_nodes: int = MAX_NODES) -> Endgame | None:
    """The tree with the fewest guesses in total over the codes of ``table``'s columns, guessing
    only its rows; row ``i`` must be the code of column ``i`` for the first ``table.shape[1]`` rows
    (the consistent codes), the rows after them are other codes. ``win`` is the winning feedback
    code. ``None`` when more than ``max_nodes`` sets would be searched."""
    n_codes = table.shape[1]
    if n_codes == 0 or table.shape[0] < n_codes:
        raise ValueError("the table needs a row for each of its columns' codes")
    memo: dict[bytes, tuple[int, int]] = {}

    def best(subset: np.ndarray) -> tuple[int, int]:
        n = subset.shape[0]
        if n <= 2:  # guess the first code; the second, if any, comes next
            return 2 * n - 1, int(subset[0])
        key = subset.tobytes()
        if key in memo:
            return memo[key]
        if len(memo) >= max_nodes:
            raise _OutOfNodes
        block = np.sort(table[:, subset], axis=1)
        parts = 1 + np.count_nonzero(np.diff(block, axis=1), axis=1)
        inside = np.zeros(table.shape[0], dtype=bool)
        inside[subset] = True
        # n for this guess, plus at least 2m - 1 for each part of m codes other than the win
        bounds = 3 * n - inside - parts
        bounds[(parts == 1) & ~inside] = np.iinfo(np.int64).max  # learns nothing
        found, guess = np.iinfo(np.int64).max, -1
        for g in np.argsort(bounds, kind="stable"):
            if bounds[g] >= found:
                break
            answers = table[g, subset]
            total, rest = n, int(bounds[g]) - n
            for answer in np.unique(answers):
                if answer == win:
                    continue
                part = subset[answers == answer]
                total += best(part)[0]
                rest -= 2 * part.shape[0] - 1
                if total + rest >= found:
                    break
            else:
                found, guess = total, int(g)
        memo[key] = (found, guess)
        return found, guess

    try:
        total, guess = best(np.arange(n_codes, dtype=np.int64))
    except _OutOfNodes:
        return None
    return Endgame(total, guess)


class _OutOfNodes(Exception):
    """The node budget of ``solve_endgame`` ran out."""
