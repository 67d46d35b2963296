"""Numba kernels of the exact solver (``mmlab.planners.optimal``): lower bounds on the total
guesses a set of candidates needs, and a complete branch and bound for small sets.

``table[g, s]`` is the feedback code of guess ``g`` against secret ``s`` (``uint8``); ``win`` is the
code of the winning answer; ``depth`` caps the guesses (``-1``: no cap). Costs are total guesses
summed over the candidates; ``INFINITY`` stands for "impossible within the depth".

>>> import numpy as np
>>> full_tree_bound(20, 13, -1)  # 1 at the first guess, 13 at the second, 6 at the third
45
"""

from __future__ import annotations

import numba
import numpy as np

INFINITY = 1 << 40


@numba.njit(cache=True, nogil=True)
def full_tree_bound(k, answers, depth):
    """Fewest guesses, summed over ``k`` secrets, when no guess has more than ``answers``
    non-winning answers: one secret found at the first guess, ``answers`` at the second,
    ``answers**2`` at the third, ... (``INFINITY`` if that needs more than ``depth`` guesses)."""
    total = 0
    level = 1
    width = 1
    left = k
    while left > 0:
        if depth >= 0 and level > depth:
            return INFINITY
        take = min(width, left)
        total += take * level
        left -= take
        level += 1
        width *= max(answers, 1)
    return total


@numba.njit(cache=True, nogil=True)
def histograms(cands, table, n_resp):
    """``hist[g, r]``: how many of ``cands`` give answer ``r`` to guess ``g``, for every guess."""
    out = np.zeros((table.shape[0], n_resp), dtype=np.int32)
    for g in range(table.shape[0]):
        row = table[g]
        for j in range(cands.shape[0]):
            out[g, row[cands[j]]] += 1
    return out


@numba.njit(cache=True, nogil=True)
def max_parts(hist, win):
    """The most non-winning answers any guess (a row of ``hist``) can get from the set: no
    guess, on this set or any subset of it, splits it into more classes (besides the win)."""
    best = 0
    for g in range(hist.shape[0]):
        parts = 0
        for r in range(hist.shape[1]):
            if r != win and hist[g, r] > 0:
                parts += 1
        best = max(best, parts)
    return best


@numba.njit(cache=True, nogil=True)
def _mix(x):
    """splitmix64's finaliser: a well-spread 64-bit image of ``x``."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@numba.njit(cache=True, nogil=True)
def _partition_hash(row, cands, keys, win, n_resp):
    """A hash of the partition of ``cands`` by ``row`` (labels forgotten, the winning class marked)."""
    sums = np.zeros(n_resp, dtype=np.uint64)
    for j in range(cands.shape[0]):
        sums[row[cands[j]]] += keys[cands[j]]
    h = np.uint64(0)
    for r in range(n_resp):
        if sums[r] != 0:
            h += _mix(sums[r] + (np.uint64(1) if r == win else np.uint64(0)))
    return h


@numba.njit(cache=True, nogil=True)
def same_partition(row_a, row_b, cands, win, n_resp):
    """Whether two guesses (their table rows) split ``cands`` into the same classes, with the
    same winning class: then they need the same total guesses."""
    fwd = np.full(n_resp, -1, dtype=np.int64)
    bwd = np.full(n_resp, -1, dtype=np.int64)
    for j in range(cands.shape[0]):
        a = row_a[cands[j]]
        b = row_b[cands[j]]
        if (a == win) != (b == win):
            return False
        if fwd[a] < 0 and bwd[b] < 0:
            fwd[a] = b
            bwd[b] = a
        elif fwd[a] != b or bwd[b] != a:
            return False
    return True


@numba.njit(cache=True, nogil=True)
def guess_bounds(hist, n, win, answers, depth):
    """``lower[g]``: ``n`` plus the full-tree bound (``answers`` answers, ``depth - 1`` guesses)
    of every non-winning class of guess ``g`` (``INFINITY`` for a guess that splits nothing)."""
    child_depth = depth - 1 if depth > 0 else -1
    bound = np.empty(n + 1, dtype=np.int64)
    for k in range(n + 1):
        bound[k] = full_tree_bound(k, answers, child_depth)
    lower = np.empty(hist.shape[0], dtype=np.int64)
    for g in range(hist.shape[0]):
        total = n
        useful = hist[g, win] > 0
        for r in range(hist.shape[1]):
            if r != win:
                c = hist[g, r]
                total += bound[c]
                if 0 < c < n:
                    useful = True
        lower[g] = min(total, INFINITY) if useful else INFINITY
    return lower


@numba.njit(cache=True, nogil=True)
def solve_small(cands, table, n_resp, win, depth, limit, keys):
    """``(cost, guess)``: the least total guesses for ``cands`` and a first guess achieving it,
    if below ``limit``; otherwise ``(bound, -1)`` with ``bound >= limit`` a proven lower bound.

    Complete branch and bound over every guess of the table, without symmetry: guesses are
    tried best full-tree bound first (consistent ones first among equals), guesses splitting
    the set exactly like one already tried are skipped, and children are solved largest first
    within what is left of ``limit``. ``keys`` are random 64-bit keys of the codes, for hashing
    partitions (a hash match is confirmed exactly before a guess is skipped).
    """
    n = cands.shape[0]
    if depth == 0:
        return INFINITY, -1
    if n == 1:
        return 1, cands[0]
    if n == 2 and depth != 1:
        return 3, cands[0]
    hist = histograms(cands, table, n_resp)
    answers = max_parts(hist, win)
    lower = guess_bounds(hist, n, win, answers, depth)
    key = np.empty(lower.shape[0], dtype=np.int64)
    for g in range(lower.shape[0]):
        key[g] = 2 * lower[g] + (0 if hist[g, win] > 0 else 1)
    order = np.argsort(key, kind="mergesort")
    floor = lower[order[0]]
    if floor >= limit:
        return floor, -1
    child_depth = depth - 1 if depth > 0 else -1
    best = limit
    best_guess = -1
    tried = np.empty(order.shape[0], dtype=np.int64)
    tried_hash = np.empty(order.shape[0], dtype=np.uint64)
    n_tried = 0
    fb = np.empty(n, dtype=np.int64)
    for i in range(order.shape[0]):
        g = order[i]
        if lower[g] >= best:
            break
        row = table[g]
        h = _partition_hash(row, cands, keys, win, n_resp)
        duplicate = False
        for t in range(n_tried):
            if tried_hash[t] == h and same_partition(table[tried[t]], row, cands, win, n_resp):
                duplicate = True
                break
        if duplicate:
            continue
        tried[n_tried] = g
        tried_hash[n_tried] = h
        n_tried += 1
        # the children, largest first
        sizes = hist[g]
        for j in range(n):
            fb[j] = row[cands[j]]
        total = lower[g]
        labels = np.argsort(-sizes.astype(np.int64), kind="mergesort")
        for li in range(n_resp):
            r = labels[li]
            size = sizes[r]
            if size < 2:
                break
            if r == win:
                continue
            child = np.empty(size, dtype=np.int64)
            m = 0
            for j in range(n):
                if fb[j] == r:
                    child[m] = cands[j]
                    m += 1
            optimistic = full_tree_bound(size, answers, child_depth)
            cost, _ = solve_small(child, table, n_resp, win, child_depth, best - (total - optimistic), keys)
            total = min(total + cost - optimistic, INFINITY)
            if total >= best:
                break
        if total < best:
            best = total
            best_guess = g
            if best == floor:
                break
    if best < limit:
        return best, best_guess
    return max(best, floor), -1
