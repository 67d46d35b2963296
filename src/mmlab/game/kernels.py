"""Numba kernels: feedback and partitions on plain arrays.

Codes are rows of a ``digits`` array (``uint8``, colours ``0..m-1``) with a matching ``counts``
array (``uint8``, how often each colour occurs). A feedback is the small integer
``black * (pegs + 1) + white``. Every kernel is checked against a pure-Python reference in
``tests/game/test_kernels.py`` (the kernels of the other layers in their ``*_reference.py`` tests).

>>> import numpy as np
>>> d = np.array([[0, 0, 1, 1], [0, 1, 2, 3]], dtype=np.uint8)
>>> c = np.array([[2, 2, 0, 0, 0, 0], [1, 1, 1, 1, 0, 0]], dtype=np.uint8)
>>> int(feedback_pair(d[0], c[0], d[1], c[1], True))   # 1122 vs 1234: black 1, white 1
6
"""

from __future__ import annotations

import numba
import numpy as np

# Columns of the statistics returned by ``partition_stats``.
STAT_LARGEST = 0  # size of the largest part (Knuth: minimise)
STAT_SUM_SQUARES = 1  # sum of squared part sizes (Irving: minimise sum/K, the expected part size)
STAT_PARTS = 2  # number of non-empty parts (Kooi's most parts: maximise)
STAT_ENTROPY = 3  # entropy of the partition in bits (Neuwirth: maximise)
N_STATS = 4


@numba.njit(cache=True, nogil=True)
def feedback_pair(g_digits, g_counts, s_digits, s_counts, with_white):
    """Feedback code of guess ``g`` against secret ``s`` (Knuth's definition)."""
    pegs = g_digits.shape[0]
    black = 0
    for p in range(pegs):
        if g_digits[p] == s_digits[p]:
            black += 1
    if not with_white:
        return black * (pegs + 1)
    total = 0
    for c in range(g_counts.shape[0]):
        a = g_counts[c]
        b = s_counts[c]
        total += a if a < b else b
    return black * (pegs + 1) + (total - black)


@numba.njit(cache=True, nogil=True)
def _present_colours(g_counts):
    """The colours present in a guess and their multiplicities, as two small arrays."""
    k = 0
    for c in range(g_counts.shape[0]):
        if g_counts[c] > 0:
            k += 1
    cols = np.empty(k, dtype=np.int64)
    mult = np.empty(k, dtype=np.int64)
    k = 0
    for c in range(g_counts.shape[0]):
        if g_counts[c] > 0:
            cols[k] = c
            mult[k] = g_counts[c]
            k += 1
    return cols, mult


@numba.njit(cache=True, nogil=True)
def _feedback_row(g_digits, g_counts, digits, counts, cand, with_white, out):
    """Write the feedback of one guess against the codes ``cand`` (row indices) into ``out``."""
    pegs = g_digits.shape[0]
    cols, mult = _present_colours(g_counts)
    for j in range(cand.shape[0]):
        s = cand[j]
        black = 0
        for p in range(pegs):
            if g_digits[p] == digits[s, p]:
                black += 1
        if with_white:
            total = 0
            for k in range(cols.shape[0]):
                b = counts[s, cols[k]]
                a = mult[k]
                total += a if a < b else b
            out[j] = black * (pegs + 1) + (total - black)
        else:
            out[j] = black * (pegs + 1)


@numba.njit(cache=True, nogil=True)
def feedback_against(g_digits, g_counts, digits, counts, cand, with_white):
    """Feedback codes (``uint8``) of one guess against the codes ``cand``."""
    out = np.empty(cand.shape[0], dtype=np.uint8)
    _feedback_row(g_digits, g_counts, digits, counts, cand, with_white, out)
    return out


@numba.njit(cache=True, nogil=True)
def feedback_rows(g_digits, g_counts, digits, counts, with_white):
    """``uint8[len(g_digits), len(digits)]``: the feedback of each guess row against each code row."""
    out = np.empty((g_digits.shape[0], digits.shape[0]), dtype=np.uint8)
    everyone = np.arange(digits.shape[0])
    for g in range(g_digits.shape[0]):
        _feedback_row(g_digits[g], g_counts[g], digits, counts, everyone, with_white, out[g])
    return out


@numba.njit(cache=True, nogil=True)
def _stats_of_histogram(hist, total, out_row):
    largest = 0
    sum_sq = 0.0
    parts = 0
    klogk = 0.0
    for r in range(hist.shape[0]):
        h = hist[r]
        if h > 0:
            parts += 1
            if h > largest:
                largest = h
            sum_sq += h * h
            klogk += h * np.log2(h)
    out_row[STAT_LARGEST] = largest
    out_row[STAT_SUM_SQUARES] = sum_sq
    out_row[STAT_PARTS] = parts
    out_row[STAT_ENTROPY] = np.log2(total) - klogk / total if total > 0 else 0.0


@numba.njit(cache=True, nogil=True)
def _stats_direct(g, cand, digits, counts, with_white, out_row):
    pegs = digits.shape[1]
    fb = np.empty(cand.shape[0], dtype=np.uint8)
    _feedback_row(digits[g], counts[g], digits, counts, cand, with_white, fb)
    hist = np.zeros((pegs + 1) * (pegs + 1), dtype=np.int64)
    for j in range(fb.shape[0]):
        hist[fb[j]] += 1
    _stats_of_histogram(hist, cand.shape[0], out_row)


@numba.njit(cache=True, nogil=True)
def _stats_table(row, cand, n_resp, out_row):
    hist = np.zeros(n_resp, dtype=np.int64)
    for j in range(cand.shape[0]):
        hist[row[cand[j]]] += 1
    _stats_of_histogram(hist, cand.shape[0], out_row)


@numba.njit(cache=True, parallel=True)
def partition_stats(guesses, cand, digits, counts, with_white):
    """For each guess (row index), statistics of the partition of ``cand`` it induces.

    Returns a ``float64`` array of shape ``(len(guesses), N_STATS)``: largest part, sum of
    squared part sizes, number of parts, entropy in bits. No N x N table is built. Runs on
    every core; ``partition_stats_serial`` is the same on one (cheaper for small batches).
    """
    out = np.empty((guesses.shape[0], N_STATS), dtype=np.float64)
    for i in numba.prange(guesses.shape[0]):
        _stats_direct(guesses[i], cand, digits, counts, with_white, out[i])
    return out


@numba.njit(cache=True, nogil=True)
def partition_stats_serial(guesses, cand, digits, counts, with_white):
    out = np.empty((guesses.shape[0], N_STATS), dtype=np.float64)
    for i in range(guesses.shape[0]):
        _stats_direct(guesses[i], cand, digits, counts, with_white, out[i])
    return out


@numba.njit(cache=True, parallel=True)
def partition_stats_table(guesses, cand, table, n_resp):
    """``partition_stats`` reading feedback from a precomputed N x N ``uint8`` table."""
    out = np.empty((guesses.shape[0], N_STATS), dtype=np.float64)
    for i in numba.prange(guesses.shape[0]):
        _stats_table(table[guesses[i]], cand, n_resp, out[i])
    return out


@numba.njit(cache=True, nogil=True)
def partition_stats_table_serial(guesses, cand, table, n_resp):
    out = np.empty((guesses.shape[0], N_STATS), dtype=np.float64)
    for i in range(guesses.shape[0]):
        _stats_table(table[guesses[i]], cand, n_resp, out[i])
    return out


@numba.njit(cache=True, parallel=True)
def feedback_table(digits, counts, with_white):
    """The full N x N ``uint8`` feedback table (row = guess, column = secret)."""
    n = digits.shape[0]
    table = np.empty((n, n), dtype=np.uint8)
    everyone = np.arange(n)
    for g in numba.prange(n):
        _feedback_row(digits[g], counts[g], digits, counts, everyone, with_white, table[g])
    return table


@numba.njit(cache=True, nogil=True)
def group_by_response(fb, n_resp):
    """Counting sort of positions by feedback code: ``(order, sizes)`` where ``order`` lists the
    positions of code 0 first, then code 1, … (stable), and ``sizes[r]`` counts code ``r``."""
    sizes = np.zeros(n_resp, dtype=np.int64)
    for j in range(fb.shape[0]):
        sizes[fb[j]] += 1
    start = np.empty(n_resp, dtype=np.int64)
    acc = 0
    for r in range(n_resp):
        start[r] = acc
        acc += sizes[r]
    order = np.empty(fb.shape[0], dtype=np.int64)
    for j in range(fb.shape[0]):
        order[start[fb[j]]] = j
        start[fb[j]] += 1
    return order, sizes


@numba.njit(cache=True, nogil=True)
def _histogram_row(g, cand, digits, counts, with_white, out_row):
    fb = np.empty(cand.shape[0], dtype=np.uint8)
    _feedback_row(digits[g], counts[g], digits, counts, cand, with_white, fb)
    for j in range(fb.shape[0]):
        out_row[fb[j]] += 1


@numba.njit(cache=True, parallel=True)
def partition_histograms(guesses, cand, digits, counts, with_white):
    """``int32[len(guesses), (pegs+1)**2]``: how many of ``cand`` give each feedback to each guess."""
    pegs = digits.shape[1]
    out = np.zeros((guesses.shape[0], (pegs + 1) * (pegs + 1)), dtype=np.int32)
    for i in numba.prange(guesses.shape[0]):
        _histogram_row(guesses[i], cand, digits, counts, with_white, out[i])
    return out


@numba.njit(cache=True, nogil=True)
def partition_histograms_serial(guesses, cand, digits, counts, with_white):
    pegs = digits.shape[1]
    out = np.zeros((guesses.shape[0], (pegs + 1) * (pegs + 1)), dtype=np.int32)
    for i in range(guesses.shape[0]):
        _histogram_row(guesses[i], cand, digits, counts, with_white, out[i])
    return out


@numba.njit(cache=True, nogil=True)
def fits_history(c_digits, c_counts, hist_digits, hist_counts, hist_codes, with_white):
    """Whether a code gives every recorded answer: ``hist_codes[k]`` to guess ``hist_digits[k]``.
    Works on codes of any game, enumerable or not."""
    for k in range(hist_digits.shape[0]):
        if feedback_pair(hist_digits[k], hist_counts[k], c_digits, c_counts, with_white) != hist_codes[k]:
            return False
    return True


@numba.njit(cache=True, nogil=True)
def rows_fit_history(rows, colours, hist_digits, hist_counts, hist_codes, with_white):
    """``bool[len(rows)]``: ``fits_history`` for each code row (0-based colours) of ``rows``."""
    out = np.empty(rows.shape[0], dtype=np.bool_)
    counts = np.zeros(colours, dtype=np.uint8)
    for i in range(rows.shape[0]):
        counts[:] = 0
        for p in range(rows.shape[1]):
            counts[rows[i, p]] += 1
        out[i] = fits_history(rows[i], counts, hist_digits, hist_counts, hist_codes, with_white)
    return out
