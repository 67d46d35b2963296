"""Numba kernels of MathMind (Reddi 2002, in 003 section 2.3): answers, and the partitions they make.

Codes are rows of a ``digits`` array (``uint8``, colours ``0..m-1``). An answer is a small integer:

- ``HIGHER_LOWER``: ``black * (pegs + 1) + higher``, where ``higher`` counts the pegs whose
  colour must go up to match the secret (the rest, ``pegs - black - higher``, must go down);
- ``EUCLIDEAN``: the squared Euclidean distance between the two rows of colour values;
- ``MANHATTAN``: the sum of the pegs' absolute differences;
- ``BLACK_WHITE``: Knuth's ``black * (pegs + 1) + white``, the standard game, for comparison.

Every kernel is checked against the pure-Python ``mathmind.answer_of`` in
``tests/variants/test_mathmind.py``.

>>> import numpy as np
>>> g, s = np.array([0, 1, 2, 3], np.uint8), np.array([0, 3, 1, 3], np.uint8)
>>> int(answer(g, s, HIGHER_LOWER)), int(answer(g, s, EUCLIDEAN)), int(answer(g, s, MANHATTAN))
(11, 5, 3)
"""

from __future__ import annotations

import numba
import numpy as np

from mmlab.game.kernels import N_STATS, _stats_of_histogram

HIGHER_LOWER, EUCLIDEAN, MANHATTAN, BLACK_WHITE = 0, 1, 2, 3


@numba.njit(cache=True, nogil=True)
def answer(g, s, kind):
    """The answer secret ``s`` gives to guess ``g`` (two rows of 0-based colours) under ``kind``."""
    pegs = g.shape[0]
    if kind == HIGHER_LOWER or kind == BLACK_WHITE:
        black = 0
        higher = 0
        for p in range(pegs):
            if s[p] == g[p]:
                black += 1
            elif s[p] > g[p]:
                higher += 1
        if kind == HIGHER_LOWER:
            return black * (pegs + 1) + higher
        common = 0  # pegs right in colour, placed or not: each peg of s matched once (bit q of used)
        used = 0
        for p in range(pegs):
            for q in range(pegs):
                if not (used >> q) & 1 and s[q] == g[p]:
                    used |= 1 << q
                    common += 1
                    break
        return black * (pegs + 1) + common - black
    total = 0
    for p in range(pegs):
        d = np.int64(s[p]) - np.int64(g[p])
        total += d * d if kind == EUCLIDEAN else abs(d)
    return total


@numba.njit(cache=True, nogil=True)
def answers_against(g, digits, cand, kind):
    """``int64[len(cand)]``: the answer each code ``cand[j]`` (a row of ``digits``) gives to guess row ``g``."""
    out = np.empty(cand.shape[0], dtype=np.int64)
    for j in range(cand.shape[0]):
        out[j] = answer(g, digits[cand[j]], kind)
    return out


@numba.njit(cache=True, nogil=True)
def _stats_row(i, digits, cand, kind, n_answers, out_row):
    hist = np.zeros(n_answers, dtype=np.int64)
    for j in range(cand.shape[0]):
        hist[answer(digits[i], digits[cand[j]], kind)] += 1
    _stats_of_histogram(hist, cand.shape[0], out_row)


@numba.njit(cache=True, parallel=True)
def partition_stats(digits, cand, kind, n_answers):
    """For every code of ``digits`` as a guess, the statistics of the partition of ``cand`` it makes:
    ``float64[len(digits), N_STATS]`` (largest part, sum of squared sizes, parts, entropy in bits, the
    columns of ``mmlab.game.kernels``). Runs on every core; ``partition_stats_serial`` is the same on
    one, cheaper for little work (the threads cost more than they save, and far more on a busy machine)."""
    out = np.empty((digits.shape[0], N_STATS), dtype=np.float64)
    for i in numba.prange(digits.shape[0]):
        _stats_row(i, digits, cand, kind, n_answers, out[i])
    return out


@numba.njit(cache=True, parallel=True)
def partition_stats_of(guesses, digits, cand, kind, n_answers):
    """``partition_stats`` of the guesses ``guesses`` alone (rows of colours, not rows of ``digits``):
    ``float64[len(guesses), N_STATS]``, each row worked out as ``partition_stats`` works out its own."""
    out = np.empty((guesses.shape[0], N_STATS), dtype=np.float64)
    for i in numba.prange(guesses.shape[0]):
        hist = np.zeros(n_answers, dtype=np.int64)
        for j in range(cand.shape[0]):
            hist[answer(guesses[i], digits[cand[j]], kind)] += 1
        _stats_of_histogram(hist, cand.shape[0], out[i])
    return out


@numba.njit(cache=True, nogil=True)
def partition_stats_serial(digits, cand, kind, n_answers):
    out = np.empty((digits.shape[0], N_STATS), dtype=np.float64)
    for i in range(digits.shape[0]):
        _stats_row(i, digits, cand, kind, n_answers, out[i])
    return out


@numba.njit(cache=True, parallel=True)
def choose_many(digits, cands, offsets, kind, n_answers, column, minimise, tolerance):
    """The guess an exhaustive rule plays at each of many nodes, node ``k``'s codes left being
    ``cands[offsets[k]:offsets[k + 1]]`` (ascending): the lowest code whose statistic ``column`` is
    within ``tolerance`` of the best (the least if ``minimise``, else the most), a consistent one if
    any is. Each node is scored on one thread, the nodes on every core: one parallel step for many
    small nodes, where one each would cost more than their work."""
    n = digits.shape[0]
    out = np.empty(offsets.shape[0] - 1, dtype=np.int64)
    for k in numba.prange(offsets.shape[0] - 1):
        cand = cands[offsets[k]:offsets[k + 1]]
        values = np.empty(n, dtype=np.float64)
        row = np.empty(N_STATS, dtype=np.float64)
        for i in range(n):
            _stats_row(i, digits, cand, kind, n_answers, row)
            values[i] = row[column] if minimise else -row[column]
        top = values.min() + tolerance
        chosen = -1
        for i in range(n):
            if values[i] <= top:
                j = np.searchsorted(cand, i)
                if j < cand.shape[0] and cand[j] == i:
                    chosen = i
                    break
        if chosen < 0:
            for i in range(n):
                if values[i] <= top:
                    chosen = i
                    break
        out[k] = chosen
    return out


@numba.njit(cache=True, nogil=True)
def _separates(i, digits, cand, kind, n_answers):
    seen = np.zeros(n_answers, dtype=np.bool_)
    for j in range(cand.shape[0]):
        a = answer(digits[i], digits[cand[j]], kind)
        if seen[a]:
            return False
        seen[a] = True
    return True


@numba.njit(cache=True, parallel=True)
def separators(digits, cand, kind, n_answers):
    """``bool[len(digits)]``: which codes, as a guess, give every code of ``cand`` its own answer."""
    out = np.zeros(digits.shape[0], dtype=np.bool_)
    for i in numba.prange(digits.shape[0]):
        out[i] = _separates(i, digits, cand, kind, n_answers)
    return out
