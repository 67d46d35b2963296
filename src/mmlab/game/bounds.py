"""Bounds from the literature on the guesses that break any code in the worst case, as Singley's
thesis quotes them (003, section 3.5): Chvátal's (1983) lower and upper bounds, and Chen et al.'s
(1996) upper bound by binary search.

>>> from mmlab.game import Game
>>> low, high = chvatal_bounds(Game(4, 6))   # 003: "between 2.65 and 36.68"
>>> round(low, 2), round(high, 2), chen_upper_bound(Game(4, 6))
(2.65, 36.68, 28)
"""

from __future__ import annotations

import math

from mmlab.errors import BadSize
from mmlab.game.rules import Game


def chvatal_bounds(game: Game) -> tuple[float, float]:
    """Chvátal's bounds on the worst case f(n, m), for n <= m <= n**2: the counting bound
    n log2(m) / log2(C(n + 2, 2)) (each answer, one of C(n + 2, 2) pairs of black and white, tells
    at most that many bits of the n log2(m) needed) and 2n log2(m) + 4n.

    >>> chvatal_bounds(Game(8, 16))[1]   # 003: MM(8,16) "is bounded from above by 96"
    96.0
    """
    n, m = game.pegs, game.colours
    if not n <= m <= n * n:
        raise BadSize(f"Chvátal's bounds hold for n <= m <= n², and {game.size} has n = {n}, m = {m}")
    bits = n * math.log2(m)
    return bits / math.log2(math.comb(n + 2, 2)), 2 * bits + 4 * n


def chen_upper_bound(game: Game) -> int:
    """Chen et al.'s upper bound, for any n and m: ceil(m/n) + 2n ceil(log2 n) + 2n + 2.

    >>> chen_upper_bound(Game(8, 16))   # 003 prints "68 for MM(8,6)": 8x16, its MM(8,16) example
    68
    """
    n, m = game.pegs, game.colours
    return math.ceil(m / n) + 2 * n * math.ceil(math.log2(n)) + 2 * n + 2
