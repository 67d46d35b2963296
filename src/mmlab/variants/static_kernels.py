"""Numba kernels of static Mastermind: answer vectors as integers, class counts, the exhaustive check.

A set of guesses sorts the secrets into *answer classes*: secrets that get the same answer to
every guess of the set. Each secret's answer vector ``(r_1, ..., r_k)`` (``r = black*(pegs+1)+white``)
is kept as one ``int64`` key: the mixed-radix number ``r_1 r_2 ... r_k`` in base ``(pegs+1)**2``
while that fits in 62 bits, renumbered densely (``0..classes-1``, keeping the order) whenever
the next guess would overflow it. Two secrets have equal keys exactly when their vectors are
equal, so the keys are a collision-free hash. Codes are row indices into the game's
``all_digits``/``all_counts``; ``table`` is the game's N x N feedback table or an empty
``(0, 0)`` array (feedback is then computed on the fly). Pure-Python references are in
``tests/variants/test_static.py``.

>>> import numpy as np
>>> from mmlab.game import Game
>>> g = Game.parse_size("2x3")
>>> keys = answer_keys(np.array([g.parse("12")]), g.all_digits, g.all_counts, True, 9)
>>> [int(k) for k in keys]   # 11 12 13 21 22 23 31 32 33 answered 1,0 2,0 1,0 0,2 1,0 0,1 0,1 1,0 0,0
[3, 6, 3, 2, 3, 1, 1, 3, 0]
"""

from __future__ import annotations

import numba
import numpy as np

from mmlab.game.kernels import _feedback_row, feedback_pair

#: Keys stay below this bound; past it they are renumbered densely before the next guess.
KEY_LIMIT = 1 << 62
#: Dense renumbering uses a lookup table up to this many possible keys, sorting beyond.
LOOKUP_LIMIT = 1 << 24


@numba.njit(cache=True, nogil=True)
def feedback_row(g, digits, counts, with_white, table, out):
    """Feedback of code ``g`` against every code, into ``out`` (from ``table`` when it is not empty)."""
    if table.shape[0] > 0:
        row = table[g]
        for s in range(out.shape[0]):
            out[s] = row[s]
    else:
        everyone = np.arange(digits.shape[0])
        _feedback_row(digits[g], counts[g], digits, counts, everyone, with_white, out)


@numba.njit(cache=True, nogil=True)
def dense(keys, span):
    """Renumber ``keys`` (all ``< span``) to ``0..K-1`` keeping their order; returns ``(labels, K)``."""
    n = keys.shape[0]
    out = np.empty(n, dtype=np.int64)
    if span <= LOOKUP_LIMIT:
        seen = np.zeros(span, dtype=np.int64)
        for i in range(n):
            seen[keys[i]] = 1
        k = 0
        for v in range(span):
            if seen[v]:
                seen[v] = k
                k += 1
        for i in range(n):
            out[i] = seen[keys[i]]
        return out, k
    order = np.argsort(keys, kind="mergesort")
    k = -1
    last = -1
    for j in range(n):
        i = order[j]
        if k < 0 or keys[i] != last:
            k += 1
            last = keys[i]
        out[i] = k
    return out, k + 1


@numba.njit(cache=True, nogil=True)
def answer_keys_table(rows, digits, counts, with_white, n_resp, table):
    """``answer_keys`` reading feedback from ``table`` when it is not empty."""
    n = digits.shape[0]
    keys = np.zeros(n, dtype=np.int64)
    span = 1
    fb = np.empty(n, dtype=np.uint8)
    for j in range(rows.shape[0]):
        if span > KEY_LIMIT // n_resp:
            keys, span = dense(keys, span)
        feedback_row(rows[j], digits, counts, with_white, table, fb)
        for s in range(n):
            keys[s] = keys[s] * n_resp + fb[s]
        span *= n_resp
    return keys


@numba.njit(cache=True, nogil=True)
def answer_keys(rows, digits, counts, with_white, n_resp):
    """Key of every secret's answer vector to the guesses ``rows`` (equal keys = equal vectors)."""
    return answer_keys_table(rows, digits, counts, with_white, n_resp, np.empty((0, 0), dtype=np.uint8))


@numba.njit(cache=True, nogil=True)
def refine(labels, n_labels, fb, n_resp):
    """Classes after one more guess: dense labels of the pairs ``(labels[s], fb[s])``; ``(labels, K)``."""
    span = n_labels * n_resp
    keys = np.empty(labels.shape[0], dtype=np.int64)
    for s in range(labels.shape[0]):
        keys[s] = labels[s] * n_resp + fb[s]
    return dense(keys, span)


@numba.njit(cache=True, nogil=True)
def _score_chunk(lo, hi, cands, labels, n_labels, digits, counts, with_white, table, n_resp, classes, pairs):
    n = labels.shape[0]
    tally = np.zeros(n_labels * n_resp, dtype=np.int32)
    touched = np.empty(n, dtype=np.int64)
    fb = np.empty(n, dtype=np.uint8)
    for c in range(lo, hi):
        feedback_row(cands[c], digits, counts, with_white, table, fb)
        k = 0
        p = 0
        for s in range(n):
            key = labels[s] * n_resp + fb[s]
            t = tally[key]
            if t == 0:
                touched[k] = key
                k += 1
            p += t
            tally[key] = t + 1
        classes[c] = k
        pairs[c] = p
        for j in range(k):
            tally[touched[j]] = 0


@numba.njit(cache=True, parallel=True)
def score_candidates(cands, labels, n_labels, digits, counts, with_white, table, n_resp, chunks):
    """For each candidate guess added to the classes ``labels``: ``(classes, pairs)``, the number of
    answer classes and of pairs of secrets still answered alike. ``chunks`` pieces of work (each with
    its own scratch arrays) are shared among the cores."""
    m = cands.shape[0]
    classes = np.empty(m, dtype=np.int64)
    pairs = np.empty(m, dtype=np.int64)
    chunks = max(1, min(m, chunks))
    for t in numba.prange(chunks):
        lo = t * m // chunks
        hi = (t + 1) * m // chunks
        _score_chunk(lo, hi, cands, labels, n_labels, digits, counts, with_white, table, n_resp, classes, pairs)
    return classes, pairs


@numba.njit(cache=True, nogil=True)
def largest_class(labels, n_labels):
    sizes = np.zeros(n_labels, dtype=np.int64)
    big = 0
    for s in range(labels.shape[0]):
        sizes[labels[s]] += 1
        big = max(big, sizes[labels[s]])
    return big


@numba.njit(cache=True, nogil=True)
def _fb(g, s, digits, counts, with_white, table):
    """Feedback of code ``g`` against code ``s``."""
    if table.shape[0] > 0:
        return table[g, s]
    return feedback_pair(digits[g], counts[g], digits[s], counts[s], with_white)


@numba.njit(cache=True, nogil=True)
def crowded(labels, n_labels, at_least):
    """The secrets in classes of ``at_least`` or more, the largest classes first, a class together."""
    sizes = np.bincount(labels, minlength=n_labels)
    keys = np.empty(labels.shape[0], dtype=np.int64)
    m = 0
    for s in range(labels.shape[0]):
        if sizes[labels[s]] >= at_least:
            keys[m] = (labels.shape[0] - sizes[labels[s]]) * n_labels + labels[s]
            m += 1
    members = np.empty(m, dtype=np.int64)
    m = 0
    for s in range(labels.shape[0]):
        if sizes[labels[s]] >= at_least:
            members[m] = s
            m += 1
    return members[np.argsort(keys[:m], kind="mergesort")]


@numba.njit(cache=True, nogil=True)
def _separates_members(h, members, labels, digits, counts, with_white, table, n_resp, stamp, mark):
    """Whether guess ``h`` answers every two of ``members`` that share a class differently (early exit)."""
    for j in range(members.shape[0]):
        s = members[j]
        key = labels[s] * n_resp + _fb(h, s, digits, counts, with_white, table)
        if stamp[key] == mark:
            return False
        stamp[key] = mark
    return True


#: ``last_two`` filters pairs of guesses on bitsets of this many "hard" pairs of secrets ...
HARD_PAIRS = 512
#: ... sampled with this many codes, when at most this many pairs of secrets share a class.
HARD_SAMPLE = 64
PAIR_LIMIT = 1 << 22


@numba.njit(cache=True, nogil=True)
def class_pairs(labels, n_labels):
    """The pairs of secrets that share a class: two arrays ``(a, b)``."""
    members = crowded(labels, n_labels, 2)
    m = members.shape[0]
    total = 0
    i = 0
    while i < m:
        j = i
        while j < m and labels[members[j]] == labels[members[i]]:
            j += 1
        total += (j - i) * (j - i - 1) // 2
        i = j
    a = np.empty(total, dtype=np.int64)
    b = np.empty(total, dtype=np.int64)
    t = 0
    i = 0
    while i < m:
        j = i
        while j < m and labels[members[j]] == labels[members[i]]:
            j += 1
        for x in range(i, j):
            for y in range(x + 1, j):
                a[t] = members[x]
                b[t] = members[y]
                t += 1
        i = j
    return a, b


@numba.njit(cache=True, nogil=True)
def last_two_pairs(first_cands, labels, n_labels, digits, counts, with_white, table):
    """``last_two`` on the pairs of secrets that share a class. ``g`` and ``h`` separate every class
    when no pair gets alike answers from both. A filter first: for the ``HARD_PAIRS`` pairs that
    most of a sample of codes answer alike, a bitset per code of those it answers alike; a pair
    ``(g, h)`` whose bitsets share a bit fails at once, and only the others are checked on every pair."""
    n = labels.shape[0]
    if first_cands.shape[0] == 0:
        return -1, -1, 0
    a, b = class_pairs(labels, n_labels)
    n_pairs = a.shape[0]
    if n_pairs == 0:  # every secret is alone already: any two later codes do
        for i in range(first_cands.shape[0]):
            if first_cands[i] + 1 < n:
                return first_cands[i], first_cands[i] + 1, 1
        return -1, -1, 1
    lo = first_cands[0]
    rows = n - lo
    row = np.empty(n, dtype=np.uint8)
    fails = np.zeros(n_pairs, dtype=np.int64)
    step = max(1, rows // HARD_SAMPLE)
    for x in range(lo, n, step):
        feedback_row(x, digits, counts, with_white, table, row)
        for p in range(n_pairs):
            if row[a[p]] == row[b[p]]:
                fails[p] += 1
    hard = np.argsort(-fails, kind="mergesort")[:HARD_PAIRS]
    words = (hard.shape[0] + 63) // 64
    bits = np.zeros((rows, words), dtype=np.uint64)
    for x in range(lo, n):
        feedback_row(x, digits, counts, with_white, table, row)
        for q in range(hard.shape[0]):
            p = hard[q]
            if row[a[p]] == row[b[p]]:
                bits[x - lo, q >> 6] |= np.uint64(1) << np.uint64(q & 63)
    g_row = np.empty(n, dtype=np.uint8)
    nodes = 0
    for i in range(first_cands.shape[0]):
        g = first_cands[i]
        nodes += 1
        bg = bits[g - lo]
        feedback_row(g, digits, counts, with_white, table, g_row)
        for h in range(g + 1, n):
            nodes += 1
            bh = bits[h - lo]
            ok = True
            for w in range(words):
                if bg[w] & bh[w]:
                    ok = False
                    break
            if not ok:
                continue
            feedback_row(h, digits, counts, with_white, table, row)
            for p in range(n_pairs):
                if g_row[a[p]] == g_row[b[p]] and row[a[p]] == row[b[p]]:
                    ok = False
                    break
            if ok:
                return g, h, nodes
    return -1, -1, nodes


@numba.njit(cache=True, nogil=True)
def last_two(first_cands, labels, n_labels, digits, counts, with_white, table, n_resp, max_parts):
    """The exhaustive check's last two levels: guesses ``g < h``, ``g`` from ``first_cands``
    (ascending) and ``h`` any code after ``g``, that together separate every class of ``labels``.
    Returns ``(g, h, nodes)``, with ``g = h = -1`` when there are none. Works on the pairs of
    secrets sharing a class (``last_two_pairs``) when there are at most ``PAIR_LIMIT`` of them,
    on the secrets (``last_two_scan``) beyond.
    """
    if first_cands.shape[0] == 0:
        return -1, -1, 0
    n_pairs = 0
    sizes = np.bincount(labels, minlength=n_labels)
    for c in range(n_labels):
        n_pairs += sizes[c] * (sizes[c] - 1) // 2
    if n_pairs <= PAIR_LIMIT:
        return last_two_pairs(first_cands, labels, n_labels, digits, counts, with_white, table)
    return last_two_scan(first_cands, labels, n_labels, digits, counts, with_white, table, n_resp, max_parts)


@numba.njit(cache=True, nogil=True)
def last_two_scan(first_cands, labels, n_labels, digits, counts, with_white, table, n_resp, max_parts):
    """``last_two`` on the secrets. The last guess gives at most ``max_parts`` answers, so ``g`` must
    leave no class larger than that; this is checked first on the secrets of the classes that are
    larger now. Then only secrets sharing a class are looked at, the largest classes first, so
    most ``h`` fail in a few steps.
    """
    n = labels.shape[0]
    if first_cands.shape[0] == 0:
        return -1, -1, 0
    big = crowded(labels, n_labels, max_parts + 1)
    tally = np.zeros(n_labels * n_resp, dtype=np.int64)
    touched = np.empty(big.shape[0], dtype=np.int64)
    fb = np.empty(n, dtype=np.uint8)
    stamp = np.zeros(1, dtype=np.int64)
    mark = 0
    nodes = 0
    for i in range(first_cands.shape[0]):
        g = first_cands[i]
        nodes += 1
        ok = True
        t = 0
        for j in range(big.shape[0]):
            s = big[j]
            key = labels[s] * n_resp + _fb(g, s, digits, counts, with_white, table)
            if tally[key] == 0:
                touched[t] = key
                t += 1
            tally[key] += 1
            if tally[key] > max_parts:
                ok = False
                break
        for j in range(t):
            tally[touched[j]] = 0
        if not ok:
            continue
        feedback_row(g, digits, counts, with_white, table, fb)
        lab2, k2 = refine(labels, n_labels, fb, n_resp)
        members = crowded(lab2, k2, 2)
        if stamp.shape[0] < k2 * n_resp:
            stamp = np.zeros(k2 * n_resp, dtype=np.int64)
            mark = 0
        for h in range(g + 1, n):
            nodes += 1
            mark += 1
            if _separates_members(h, members, lab2, digits, counts, with_white, table, n_resp, stamp, mark):
                return g, h, nodes
    return -1, -1, nodes


@numba.njit(cache=True, nogil=True)
def find_splitter(cands, labels, n_labels, digits, counts, with_white, table, n_resp):
    """The first guess of ``cands`` that separates every class of ``labels``, or -1."""
    members = crowded(labels, n_labels, 2)
    stamp = np.zeros(n_labels * n_resp, dtype=np.int64)
    for i in range(cands.shape[0]):
        if _separates_members(cands[i], members, labels, digits, counts, with_white, table, n_resp, stamp, i + 1):
            return cands[i]
    return -1
