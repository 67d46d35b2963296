"""Exact endgames of games too large to enumerate: for a small set of codes (the consistent set
late in an 8x12 game), the decision tree with the fewest guesses in total over them, every guess
drawn from a given pool (the codes themselves and some others). The sampling codebreaker plays its
endgames so (``sample:endgame=100``); ``benchmarks/bench_endgame.py`` measures how far a
codebreaker's endgame is from it.

``solve_endgame`` is a depth-first branch and bound over the pool (a numba kernel,
``mmlab.strategies.endgame_kernels``). A part of ``m`` codes needs at
least ``2m - 1`` guesses in total (one code guessed first, every other one second), which orders
the guesses (most parts first, a consistent code ahead of an inconsistent one) and prunes them.
With the whole game as both set and pool the result is the optimum of ``mmlab.planners.Optimal``.

``lookahead_totals`` looks one guess further up: the guesses in total when a candidate is played
first and every part it leaves is then solved exactly, guessing its own codes only (a valuation, so
it is cheaper and a little more pessimistic than the endgame's pool). The sampling
codebreaker uses it to pick among its best-scoring candidates on sets of a few hundred to a few
thousand codes (``sample:lookahead=10``).

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
from mmlab.strategies.endgame_kernels import best_tree

#: Sets searched (memo entries) before ``solve_endgame`` gives up and returns ``None``.
MAX_NODES = 200_000
#: Sets searched for one part of ``lookahead_totals`` before the part is valued by the fit instead.
LOOKAHEAD_NODES = 20_000


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
    (the consistent codes), the rows after them are other codes. Every row stays a guess at every
    node, so deeper in the tree a code of the set that the answers have ruled out may be guessed
    too. ``win`` is the winning feedback code. ``None`` when more than ``max_nodes`` sets would be
    searched."""
    n_codes = table.shape[1]
    if n_codes == 0 or table.shape[0] < n_codes:
        raise ValueError("the table needs a row for each of its columns' codes")
    total, guess = best_tree(table, win, max_nodes)
    if total < 0:
        return None
    return Endgame(total, guess)


def lookahead_totals(guesses: np.ndarray, codes: np.ndarray, colours: int, with_white: bool, win: int,
                     limit: int = 100, max_nodes: int = LOOKAHEAD_NODES) -> np.ndarray:
    """For each colour row of ``guesses``, the guesses in total over the colour rows ``codes`` when
    it is played first and each part it leaves is played by its exact endgame over its own codes
    (``solve_endgame``). Parts of more than ``limit`` codes, and parts whose search passes
    ``max_nodes``, are valued ``m (a + b ln m)`` with ``a`` and ``b`` fitted to the parts solved.

    >>> import numpy as np
    >>> from mmlab.game import Game
    >>> game = Game.parse_size("3x3")
    >>> codes = game.all_digits.astype(np.uint8)
    >>> lookahead_totals(codes[[0, 5]], codes, 3, True, game.win.code(3)).tolist()  # 000 and 012
    [86.0, 80.0]
    """
    n = codes.shape[0]
    answers = feedback_matrix(guesses, codes, colours, with_white)
    solved: list[tuple[int, int]] = []  # (part size, total) of every part solved exactly
    pending: list[tuple[int, int]] = []  # (guess row, part size) of the parts to estimate
    totals = np.full(guesses.shape[0], float(n))
    for g in range(guesses.shape[0]):
        for answer in np.unique(answers[g]):
            if answer == win:
                continue
            part = np.flatnonzero(answers[g] == answer)
            m = part.shape[0]
            if m <= 2:
                totals[g] += 2 * m - 1
                continue
            found = None
            if m <= limit:
                found = solve_endgame(feedback_matrix(codes[part], codes[part], colours, with_white), win, max_nodes)
            if found is None:
                pending.append((g, m))
            else:
                totals[g] += found.total
                solved.append((m, found.total))
    if pending:
        a, b = _per_code_fit(solved)
        for g, m in pending:
            totals[g] += m * (a + b * np.log(m))
    return totals


def _per_code_fit(solved: list[tuple[int, int]]) -> tuple[float, float]:
    """Least-squares ``a, b`` of total / m = a + b ln m over the (m, total) pairs; a plain guess
    (every code found with one guess more per e-fold of the part) with fewer than two sizes."""
    sizes = np.array([m for m, _ in solved], dtype=float)
    if np.unique(sizes).shape[0] < 2:
        return 1.0, 1.0
    per_code = np.array([t for _, t in solved], dtype=float) / sizes
    design = np.column_stack([np.ones_like(sizes), np.log(sizes)])
    (a, b), *_ = np.linalg.lstsq(design, per_code, rcond=None)
    return float(a), float(b)
