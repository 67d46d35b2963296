"""The figures the papers print for a list of games: mean, median, standard deviation and error,
best and worst, from ``self.guesses`` (guesses per game).

>>> import numpy as np
>>> from dataclasses import dataclass
>>> @dataclass
... class Row(GuessFigures):
...     guesses: np.ndarray
>>> row = Row(np.array([4, 5, 5, 6]))
>>> row.mean, row.median, row.max, row.min, round(row.stderr, 4)
(5.0, 5.0, 6, 4, 0.4082)
>>> row.games_by_guesses
{4: 1, 5: 2, 6: 1}
"""

from __future__ import annotations

import numpy as np


class GuessFigures:
    """Mixed into results that hold ``guesses``, a numpy array of guesses per game."""

    guesses: np.ndarray

    @property
    def mean(self) -> float:
        return float(self.guesses.mean())

    @property
    def median(self) -> float:
        return float(np.median(self.guesses))

    @property
    def std(self) -> float:
        """Sample standard deviation (0 for a single game)."""
        return float(self.guesses.std(ddof=1)) if self.guesses.shape[0] > 1 else 0.0

    @property
    def stderr(self) -> float:
        """Standard error of the mean."""
        n = self.guesses.shape[0]
        return self.std / float(np.sqrt(n)) if n > 1 else 0.0

    @property
    def max(self) -> int:
        return int(self.guesses.max())

    @property
    def min(self) -> int:
        return int(self.guesses.min())

    @property
    def games_by_guesses(self) -> dict[int, int]:
        """How many games took each number of guesses, from the fewest to the most."""
        counts = np.bincount(self.guesses)
        return {int(k): int(counts[k]) for k in np.flatnonzero(counts)}
