"""A 2-D codebreaker of mmlab's own: propagate between row and column candidate sets, then play the best-splitting consistent matrix.

Singley's tabu search (003, chapter 5) spends m-1 guesses counting colours and lets rows and
columns meet only in the walk's value. This method uses the crossing lines from the first
answer on: cell (i, j) may hold a colour only if row i's set and column j's set both still
allow it there, and every line's set is pruned to the codes all its cells allow, until nothing
changes (``two_d_kernels.propagate``). It then draws several fully consistent matrices (an
exact search, rows top to bottom, columns kept to prefixes of their sets) and plays the one
whose lines split their pruned sets best: the largest sum of the answer entropies over the 2n
lines (003 section 7.2 asks for such methods). The first guess is the Latin square
(i + j) mod m, so every line starts with distinct colours when there are at least n of them.

>>> import numpy as np
>>> from mmlab.variants.two_d import Game2D, play_2d
>>> game = Game2D.parse_size("3x4")
>>> record = play_2d(game, Propagate2D(), game.parse("121/344/213"), np.random.default_rng(5))
>>> game.format(record.guesses[0]), record.won, record.n_guesses < 5
('123/234/341', True, True)
"""

from __future__ import annotations

import numpy as np

from mmlab.errors import InconsistentFeedback
from mmlab.strategies.base import Param
from mmlab.variants.two_d import Game2D, Knowledge2D, Strategy2D, line_tables
from mmlab.variants.two_d_kernels import find_consistent, line_split_scores, propagate

#: Colours the search tries before its first restart in another order (later budgets follow Luby).
BUDGET = 3_000
#: Most consistent matrices drawn per guess (each is an exact search).
MAX_SAMPLES = 10_000


class Propagate2D(Strategy2D):
    """Arc consistency between rows and columns, then the consistent matrix that splits the lines best."""

    name = "propagate"
    summary = "mmlab's 2-D method: row/column propagation, then the best-splitting of several consistent matrices"
    source = "mmlab (issue 7); 003 section 7.2 asks for new 2-D methods"
    params = (
        Param("samples", 12, "fully consistent matrices drawn per guess; the best-splitting one is played",
              kind=int, minimum=1, maximum=MAX_SAMPLES),
        Param("sample", 800, "members of a line's set used to score its split (larger sets are thinned evenly)",
              kind=int, minimum=1),
    )

    def start(self, game: Game2D, rng: np.random.Generator | None = None) -> None:
        """Prepare for a new game of ``game``, with ``search_restarts`` at 0."""
        super().start(game, rng)
        #: how often a search ran out of its budget and started again in another order
        self.search_restarts = 0

    def guess(self, knowledge: Knowledge2D) -> np.ndarray:
        game = self.game
        n, m = game.n, game.colours
        if not knowledge.history:
            return game.example()
        sets, offsets = knowledge.sets()
        digits, counts = line_tables(n, m)
        sets, offsets, allowed = propagate(sets, offsets, digits, m)
        self.evaluations += int(sets.shape[0])
        if (np.diff(offsets) == 0).any() or not allowed.any(axis=2).all():
            raise InconsistentFeedback("no matrix fits every answer given: the answers cannot all be true")
        best, best_score = None, -1.0
        seen: set[tuple[int, ...]] = set()
        for _ in range(self.values["samples"]):
            code = self._draw(sets, offsets)
            key = tuple(code.ravel())
            if key in seen:
                continue
            seen.add(key)
            score = float(line_split_scores(code, sets, offsets, digits, counts, self.values["sample"])[:, 0].sum())
            self.evaluations += 2 * n
            if score > best_score:
                best, best_score = code, score
            if np.diff(offsets).max() == 1:  # every line known: the one matrix left
                break
        return best

    def _draw(self, sets: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """A fully consistent matrix, found by the exact search in a random order.

        The search restarts in a new order after a budget of colours tried that follows Luby's
        sequence (1, 1, 2, 1, 1, 2, 4, ... times ``BUDGET``): the time a search needs is heavy-tailed,
        and restarts cut the tail while the growing budgets keep the search complete."""
        n = self.game.n
        out = np.zeros((n, n), dtype=np.int64)
        attempt = 1
        while True:
            budget = BUDGET * _luby(attempt)
            found, looked = find_consistent(sets, offsets, self.game.colours, int(self.rng.integers(2**63)),
                                            budget, out)
            self.evaluations += int(looked)
            if found:
                return out
            if looked < budget:
                raise InconsistentFeedback("no matrix fits every answer given: the answers cannot all be true")
            self.search_restarts += 1
            attempt += 1


def _luby(i: int) -> int:
    """The i-th term (from 1) of Luby's restart sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...

    >>> [_luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)
