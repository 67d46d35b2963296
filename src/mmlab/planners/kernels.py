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
def histograms(cands, table, n_resp, guesses):
    """``hist[i, r]``: how many of ``cands`` give answer ``r`` to guess ``guesses[i]``.

    Reads the table by secret (``table[s, g]``), which is the same as by guess since feedback
    is symmetric: one contiguous row per candidate instead of a scattered read per pair."""
    out = np.zeros((guesses.shape[0], n_resp), dtype=np.int32)
    for j in range(cands.shape[0]):
        row = table[cands[j]]
        for i in range(guesses.shape[0]):
            out[i, row[guesses[i]]] += 1
    return out


@numba.njit(cache=True, nogil=True)
def all_histograms(cands, table, n_resp):
    """``histograms`` for every guess of the table."""
    out = np.zeros((table.shape[1], n_resp), dtype=np.int32)
    for j in range(cands.shape[0]):
        row = table[cands[j]]
        for g in range(row.shape[0]):
            out[g, row[g]] += 1
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
def child_bounds(n, answers, depth):
    """``bound[k]`` for ``k <= n``: the full-tree bound of a child class of ``k`` codes, when the
    parent may still use ``depth`` guesses (``-1``: no cap; never 0, a set that cannot be solved)."""
    child_depth = depth - 1 if depth > 0 else -1
    bound = np.empty(n + 1, dtype=np.int64)
    for k in range(n + 1):
        bound[k] = full_tree_bound(k, answers, child_depth)
    return bound


@numba.njit(cache=True, nogil=True)
def guess_bounds(hist, n, win, bound):
    """``lower[g]``: ``n`` plus ``bound`` of the size of every non-winning class of guess ``g``
    (``INFINITY`` for a guess that splits nothing)."""
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
def set_floor(cands, table, n_resp, win, depth, guesses):
    """The least ``guess_bounds`` over ``guesses`` (every guess, or one per class of equivalent
    guesses): a lower bound on the set's total guesses."""
    n = cands.shape[0]
    hist = histograms(cands, table, n_resp, guesses)
    bound = child_bounds(n, max_parts(hist, win), depth)
    return guess_bounds(hist, n, win, bound).min()


@numba.njit(cache=True, nogil=True)
def candidate_floor(cands, table, n_resp, win, depth, answers_cap):
    """``set_floor`` when the candidates alone settle it, else -1.

    No guess beats the full-tree bound of the whole set, so when a candidate reaches it the
    floor is known without looking at the other guesses, provided the bound's number of answers
    is the set's: a candidate splits the set into ``answers_cap`` classes (no subset of the set
    whose answers were at most ``answers_cap`` gets more), or splits it completely."""
    n = cands.shape[0]
    hist = histograms(cands, table, n_resp, cands)
    answers = max_parts(hist, win)
    if answers < answers_cap and answers < n - 1:
        return -1
    best = guess_bounds(hist, n, win, child_bounds(n, answers, depth)).min()
    if best == full_tree_bound(n, answers, depth):
        return best
    return -1


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
    hist = all_histograms(cands, table, n_resp)
    answers = max_parts(hist, win)
    lower = guess_bounds(hist, n, win, child_bounds(n, answers, depth))
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
