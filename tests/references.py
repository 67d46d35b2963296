"""Pure-Python references the kernel tests share: Knuth's answer and the kernels' SplitMix64.

>>> answer([0, 0, 1, 1], [0, 1, 2, 3]), answer([0, 0, 1, 1], [0, 1, 2, 3], with_white=False)
((1, 1), (1, 0))
>>> answer_code([0, 0, 1, 1], [0, 1, 2, 3])   # black * (pegs + 1) + white
6
"""

from __future__ import annotations

from collections.abc import Sequence

MASK = (1 << 64) - 1


def answer(secret: Sequence[int], guess: Sequence[int], with_white: bool = True) -> tuple[int, int]:
    """Knuth's (black, white), written as plainly as possible; white is 0 without white pegs."""
    secret, guess = list(secret), list(guess)
    black = sum(s == g for s, g in zip(secret, guess))
    if not with_white:
        return black, 0
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, common - black


def answer_code(secret: Sequence[int], guess: Sequence[int], with_white: bool = True) -> int:
    """``answer`` as the kernels encode it: ``black * (pegs + 1) + white``."""
    black, white = answer(secret, guess, with_white)
    return black * (len(guess) + 1) + white


class SplitMix:
    """SplitMix64 (Steele, Lea and Flood 2014) on Python integers, with the kernels' ``unit`` and
    ``below`` (``mmlab.strategies.rng_kernels``)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self) -> float:
        return (self.next() >> 11) / 2.0**53

    def below(self, n: int) -> int:
        return int(self.unit() * n)
