"""Exact endgames of games too large to enumerate: for a small set of codes (the consistent set
late in an 8x12 game), the decision tree with the fewest guesses in total over them, every guess
drawn from a given pool (the codes themselves and some others). The sampling codebreaker plays its
endgames so (``sample:endgame=100``); ``benchmarks/bench_endgame.py`` measures how far a
codebreaker's endgame is from it.

``solve_endgame`` is a depth-first branch and bound over the pool (a numba kernel,
``mmlab.strategies.endgame_kernels``). A part of ``m`` codes needs at
least ``2m - 1`` guesses in total (one code guessed first, every other one second), which orders
the guesses (most parts first, a consistent code ahead of an inconsistent one); they are pruned by
a bound that is more where the answers are few (with one peg, ``m (m + 1) / 2``: every code in
turn). With the whole game as both set and pool the result is the optimum of
``mmlab.planners.Optimal``. The search gives up after ``MAX_NODES`` sets; the sampling codebreaker
then plays its look-ahead. Few pegs and many colours leave sets whose codes mostly give one
answer to each other (2x36: ``Xc`` for 30 colours ``c``, with other codes that tell two apart),
where the search often runs out.
``endgame_pool`` chooses the pool: the set's codes and the inconsistent codes that split it best,
found by climbing from random codes and one-peg changes, ranked by ``splitter_order``.

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
from mmlab.knowledge import Knowledge
from mmlab.strategies.code_rows import distinct_rows, one_peg_changes, random_codes, rows_in, sample_stats
from mmlab.strategies.endgame_kernels import best_tree
from mmlab.strategies.scoring import ENTROPY, PARTS

#: Sets searched (memo entries) before ``solve_endgame`` gives up and returns ``None``. ``sample``'s
#: endgames needed 9030 at most in 550 games at 3x8 to 6x9; at 2x36 and 3x36 many run out, each in
#: about 0.5 s (about 2 s with the 200 000 it was).
MAX_NODES = 50_000
#: Sets searched for one part of ``lookahead_totals`` before the part is valued by the fit instead.
LOOKAHEAD_NODES = 20_000

#: The exact endgame's inconsistent codes (``endgame_pool``'s ``others``) are the best splitters
#: (most parts, then entropy) found by ``ENDGAME_CLIMB`` rounds of one-peg changes of the
#: ``ENDGAME_PARENTS`` best codes not changed yet, from ``ENDGAME_RANDOM`` random codes and one-peg
#: changes of the consistent ones, keeping the ``ENDGAME_KEEP`` best.
ENDGAME_OTHERS = 60
ENDGAME_RANDOM = 2000
ENDGAME_CLIMB = 4
ENDGAME_PARENTS = 30
ENDGAME_KEEP = 200


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
    return kernels.feedback_rows(guesses, colour_counts(guesses, colours), codes, colour_counts(codes, colours),
                                 with_white)


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
    (``solve_endgame``). Parts of more than ``limit`` codes, parts whose search passes
    ``max_nodes``, and (unsearched) parts of as many codes or more met after one did, are valued
    ``m (a + b ln m)`` with ``a`` and ``b`` fitted to the parts solved.

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
    searched: dict[bytes, Endgame | None] = {}  # part -> its endgame: guesses often leave the same part
    too_large = limit + 1  # parts of this many codes or more are not searched: one of this many ran out
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
                key = part.tobytes()
                if key not in searched and m < too_large:
                    rows = codes[part]
                    searched[key] = solve_endgame(feedback_matrix(rows, rows, colours, with_white), win, max_nodes)
                    if searched[key] is None:
                        too_large = m
                found = searched.get(key)
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


def endgame_pool(knowledge: Knowledge, consistent: np.ndarray, others: int,
                 rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """The ``consistent`` code rows, then the ``others`` inconsistent codes that split them best
    (most parts, then entropy) found by climbing from ``ENDGAME_RANDOM`` random codes and one-peg
    changes of the set: the guesses an exact endgame may play. Also the number of distinct codes
    scored on the way (evaluations).

    >>> from mmlab.game import Feedback, Game
    >>> game = Game.parse_size("8x12")
    >>> k = Knowledge.initial(game, explicit=False).update(game.parse("11223345"), Feedback(3, 2))
    >>> codes = k.sample_distinct(np.random.default_rng(0), 30)[0]
    >>> pool, scored = endgame_pool(k, codes, 10, np.random.default_rng(1))
    >>> pool.shape, any(k.fits(row) for row in pool[30:]), scored > 2000
    ((40, 8), False, True)
    """
    game = knowledge.game
    if others == 0:
        return consistent, 0
    seen = kept = consistent[:0]
    kept_stats = np.empty((0, kernels.N_STATS))

    def keep_best(new: np.ndarray) -> np.ndarray:
        """Score the codes of ``new`` not scored yet; keep the best of them and of those kept. (A
        code scored before and not kept ranks behind all those kept, so it is not scored again.)"""
        nonlocal seen, kept, kept_stats
        new = distinct_rows(new)
        new = new[~rows_in(new, seen)]
        seen = np.vstack([seen, new])
        stats = sample_stats(new, consistent, game.colours, game.with_white)
        rows, stats = np.vstack([kept, new]), np.vstack([kept_stats, stats])
        order = splitter_order(stats)
        kept, kept_stats = rows[order], stats[order]
        return kept

    candidates = keep_best(np.vstack([one_peg_changes(consistent, game), random_codes(game, rng, ENDGAME_RANDOM)]))
    changed = candidates[:0]  # each parent is changed once
    for _ in range(ENDGAME_CLIMB):
        parents = candidates[~rows_in(candidates, changed)][:ENDGAME_PARENTS]
        changed = np.vstack([changed, parents])
        candidates = keep_best(one_peg_changes(parents, game))
    return np.vstack([consistent, candidates[~knowledge.rows_fit(candidates)][:others]]), seen.shape[0]


def splitter_order(stats: np.ndarray, keep: int = ENDGAME_KEEP) -> np.ndarray:
    """The indices of the ``keep`` rows of partition ``stats`` with the most parts, then the
    highest entropy, best first; ties keep their order.

    >>> stats = np.zeros((3, kernels.N_STATS)); stats[:, PARTS] = [2, 3, 3]; stats[:, ENTROPY] = [9, 1, 2]
    >>> splitter_order(stats, 2).tolist()
    [2, 1]
    """
    return np.lexsort((-stats[:, ENTROPY], -stats[:, PARTS]))[:keep]


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
