"""Singley's 2-D codebreaker (003, 5.1-5.2): count the colours row by row, rearrange rows by a tabu walk.

Every guess is fully consistent: each row and each column is in the set of 1-D codes that fit
its own answers. The first guess is all colour 1. The test of colour c holds in every row the
colours counted so far and fills the rest with c; the tabu walk swaps stones within rows until
all rows and columns are consistent, and that matrix is played. Once every stone is counted
(colour m is never tested: it fills what is left), the walk rearranges the rows again before
each guess until the secret is hit. ``docs/notes/singley-2d-reading.md`` gives the readings and
the figures they reproduce.

>>> import numpy as np
>>> from mmlab.variants.two_d import Game2D, play_2d
>>> game = Game2D.parse_size("3x4")
>>> record = play_2d(game, Tabu2D(), game.parse("121/344/213"), np.random.default_rng(5))
>>> [game.format(g) for g in record.guesses]   # colours 1, 2 and 3 tested, then the secret
['111/111/111', '112/222/221', '121/333/213', '121/344/213']
"""

from __future__ import annotations

import numpy as np

from mmlab.errors import BadArgument, InconsistentFeedback, shown, shown_number, whole_number
from mmlab.strategies.base import MACHINE_MAXIMUM, Param
from mmlab.variants.two_d import (
    SINGLEY_2D,
    Game2D,
    Knowledge2D,
    Strategy2D,
    line_tables,
)
from mmlab.variants.two_d_kernels import (
    filter_counts,
    find_consistent,
    line_bitmaps,
    tabu_walk_2d,
)

#: Draws the walk may make for one guess before the exact search finds the matrix instead (the
#: default of the ``steps`` parameter).
MAX_STEPS = 2_000_000
#: Largest count the numba kernels take (int64).
MAX_COUNT = MACHINE_MAXIMUM


def _setting(owner: str, name: str, text: str, default_text: str, default: int, lowest: int, highest: int,
             hint: str) -> int:
    """A whole-number parameter given as a number in ``lowest..highest`` or as Singley's formula ``default_text``."""
    text = str(text).strip().replace(" ", "")
    if text == default_text:
        return default
    value = whole_number(text)
    span = f"{lowest}..{highest}" if highest < MACHINE_MAXIMUM else f"{lowest} or more"
    if value is None:
        raise BadArgument(f"{owner}: {name}={shown(text)} should be a whole number {span}, "
                          f"or {default_text} ({hint})")
    if not lowest <= value <= highest:
        raise BadArgument(f"{owner}: {name}={shown_number(text)} is out of range; give a whole number "
                          f"{span}, or {default_text} ({hint})")
    return value


class Tabu2D(Strategy2D):
    """Singley's 2-D tabu search (003, 5.1-5.2), playing fully consistent matrices only.

    Walk: a random row, a random pair of its stones of different colours, swapped; a pair not
    on the tabu list (2n entries) is always swapped, a tabu pair only if that raises the number
    of consistent rows plus columns; every 10(n-2) swaps the walk restarts from the best matrix
    seen since the last guess. The tabu list lives for the whole game.
    """

    name = "tabu"
    summary = "Singley's 2-D tabu search: colour counting, then random swaps within rows (tenure 2n)"
    source = SINGLEY_2D
    params = (
        Param("tenure", "2n", "entries of the tabu list: a number, or 2n (Singley's 2r)"),
        Param("restart", "10(n-2)", "swaps between restarts from the best matrix: a number (0: never), "
                                    "or 10(n-2) (Singley's setting)"),
        Param("steps", MAX_STEPS, "draws the walk may make for one guess; then an exact search over the same "
                                  "row colours finds the matrix (0: no limit)", kind=int, minimum=0,
              maximum=MAX_COUNT),
    )

    def settings(self, game: Game2D) -> tuple[int, int]:
        """(tenure, restart period) for ``game``; the tabu list never holds more than the
        ``n·n(n-1)/2`` pairs of stones within a row, so a longer one is refused."""
        n = game.n
        pairs = n * n * (n - 1) // 2
        tenure = _setting(self.name, "tenure", self.values["tenure"], "2n", 2 * n, 0, pairs,
                          f"Singley's 2r; a {n}x{n} matrix has {pairs} pairs of stones in a row")
        restart = _setting(self.name, "restart", self.values["restart"], "10(n-2)", 10 * max(n - 2, 0), 0,
                           MAX_COUNT, "Singley's setting")
        return tenure, restart

    def check(self, game: Game2D) -> None:
        """Refuse a ``tenure`` or ``restart`` out of range for ``game``."""
        self.settings(game)

    def start(self, game: Game2D, rng: np.random.Generator | None = None) -> None:
        """Prepare for a new game: an empty tabu list, no colour counted yet."""
        super().start(game, rng)
        self.tenure, self.period = self.settings(game)
        n, m = game.n, game.colours
        self.tabu = np.zeros((max(self.tenure, 1), 2), dtype=np.int64)[: self.tenure]
        self.tabu_state = np.zeros(2, dtype=np.int64)
        self.code = np.zeros((n, n), dtype=np.int64)  # the first test: colour 1 everywhere
        self.counts = np.zeros((n, m), dtype=np.int64)  # per row, the stones of each counted colour
        self.testing = 0  # the colour the last guess tested; None once every colour is known
        #: draws and swaps the walk made, and how often the exact search had to step in
        self.walk_draws = self.walk_moves = self.fallbacks = 0

    def guess(self, knowledge: Knowledge2D) -> np.ndarray:
        """The next matrix: all colour 1 first; then the next colour's test (once every colour is
        counted, the last guess), its stones swapped within rows by the tabu walk until every row
        and column is consistent."""
        if not knowledge.history:
            return self.code.copy()
        n, m = self.game.n, self.game.colours
        last, answers = knowledge.history[-1]
        if self.testing is not None:
            self._count(last, answers)
        sets, offsets = knowledge.sets()
        seed = int(self.rng.integers(2**63))
        bits = line_bitmaps(sets, offsets, m**n)
        steps = self.values["steps"] or 2**62
        reached, checks, moves, draws = tabu_walk_2d(self.code, bits, m, self.tabu, self.tabu_state,
                                                     seed, steps, self.period)
        self.evaluations += int(checks)
        self.walk_moves += int(moves)
        self.walk_draws += int(draws)
        if not reached:  # stuck (e.g. rows of one colour): an exact search over the same rows
            self.fallbacks += 1
            self._exact(sets, offsets)
        return self.code.copy()

    def _count(self, last: np.ndarray, answers: np.ndarray) -> None:
        """Read the tested colour's count in each row, and fill the uncounted stones with the next colour."""
        n, m = self.game.n, self.game.colours
        c = self.testing
        for i in range(n):
            counted = int(self.counts[i].sum())
            found = int(answers[i, 0] + answers[i, 1]) - counted
            if not 0 <= found <= n - counted:
                raise InconsistentFeedback(f"row {i + 1} answered {answers[i, 0]},{answers[i, 1]} to a test of "
                                           f"colour {c + 1}, but {counted} of its stones hold colours already "
                                           "counted: the answers cannot all be true")
            self.counts[i, c] = found
            surplus = np.flatnonzero(last[i] == c)[found:]
            self.code[i] = last[i]
            self.code[i, surplus] = c + 1  # stones not of colour c take the next colour to test
        if self.counts.sum() == n * n or c + 1 == m - 1:  # colour m is never tested
            self.counts[:, m - 1] = n - self.counts.sum(axis=1)
            self.testing = None
        else:
            self.testing = c + 1

    def row_counts(self) -> np.ndarray:
        """``int64[n, m]``: the colours each row of the next guess holds."""
        out = np.zeros_like(self.counts)
        for i in range(self.game.n):
            out[i] = np.bincount(self.code[i], minlength=self.game.colours)
        return out

    def _exact(self, sets: np.ndarray, offsets: np.ndarray) -> None:
        """Find a fully consistent matrix whose rows hold the same colours as the current one."""
        n, m = self.game.n, self.game.colours
        counts = self.row_counts()
        table = line_tables(n, m)[1]
        parts = [filter_counts(sets[offsets[i]:offsets[i + 1]], counts[i], table) for i in range(n)]
        parts += [sets[offsets[k]:offsets[k + 1]] for k in range(n, 2 * n)]
        flat = np.concatenate(parts).astype(np.int32)
        offs = np.concatenate([[0], np.cumsum([p.shape[0] for p in parts])]).astype(np.int64)
        found, looked = find_consistent(flat, offs, m, int(self.rng.integers(2**63)), 0, self.code)
        self.evaluations += int(looked)
        if not found:
            raise InconsistentFeedback("no matrix with the colours counted in each row fits every answer: "
                                       "the answers cannot all be true")
