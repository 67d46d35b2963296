"""Numba kernels of two-dimensional Mastermind: lines of a matrix, their consistent sets, walks and searches.

A 2-D code is an ``int64[n, n]`` matrix of colours ``0..m-1``. Its ``2n`` lines are the rows
``0..n-1`` and the columns ``n..2n-1``; a line read first position first is a 1-D code of
``Game(n, m)`` with the same index (``line_index``). A line's consistent set is a sorted
``int32`` array of such indices; the sets of all lines travel as one flat array with offsets
(``sets[offsets[k]:offsets[k+1]]`` is line k's). Feedback codes are ``black * (n + 1) + white``,
as in ``mmlab.game.kernels``, whose ``feedback_pair`` scores every line. Each kernel has a
pure-Python reference in ``tests/variants/test_two_d.py``.

>>> import numpy as np
>>> secret = np.array([[0, 1], [1, 1]]); guess = np.array([[0, 0], [0, 0]])
>>> score_2d(secret, guess, 2).tolist()    # rows then columns, (black, white) each
[[1, 0], [0, 0], [1, 0], [0, 0]]
"""

from __future__ import annotations

import numba
import numpy as np

from mmlab.game.kernels import feedback_against, feedback_pair
from mmlab.strategies.local_search_kernels import _is_tabu


# ----------------------------------------------------------------------------- lines and answers
@numba.njit(cache=True, nogil=True)
def _line_digits(code, line, out):
    """Write line ``line`` of ``code`` (a row, or a column when ``line >= n``) into ``out``."""
    n = code.shape[0]
    if line < n:
        for p in range(n):
            out[p] = code[line, p]
    else:
        for p in range(n):
            out[p] = code[p, line - n]


@numba.njit(cache=True, nogil=True)
def line_index(code, line, m):
    """The 1-D index (first position most significant) of line ``line`` of ``code``."""
    n = code.shape[0]
    idx = 0
    if line < n:
        for p in range(n):
            idx = idx * m + code[line, p]
    else:
        for p in range(n):
            idx = idx * m + code[p, line - n]
    return idx


@numba.njit(cache=True, nogil=True)
def line_indices(code, m):
    """``int64[2n]``: the index of every line, rows first."""
    n = code.shape[0]
    out = np.empty(2 * n, dtype=np.int64)
    for k in range(2 * n):
        out[k] = line_index(code, k, m)
    return out


@numba.njit(cache=True, nogil=True)
def score_2d(secret, guess, m):
    """``int64[2n, 2]``: the (black, white) of every row, then every column, of ``guess`` against ``secret``."""
    n = secret.shape[0]
    out = np.empty((2 * n, 2), dtype=np.int64)
    s = np.empty(n, dtype=np.uint8)
    g = np.empty(n, dtype=np.uint8)
    sc = np.zeros(m, dtype=np.uint8)
    gc = np.zeros(m, dtype=np.uint8)
    for k in range(2 * n):
        _line_digits(secret, k, s)
        _line_digits(guess, k, g)
        sc[:] = 0
        gc[:] = 0
        for p in range(n):
            sc[s[p]] += 1
            gc[g[p]] += 1
        f = feedback_pair(g, gc, s, sc, True)
        out[k, 0] = f // (n + 1)
        out[k, 1] = f % (n + 1)
    return out


# ----------------------------------------------------------------------------- consistent sets
@numba.njit(cache=True, nogil=True)
def line_feedbacks(guess_line, cand, digits, counts):
    """``uint8`` feedback codes of the 1-D guess ``guess_line`` against each index of ``cand``;
    ``digits`` and ``counts`` are the line game's tables (``Game.all_digits``, ``Game.all_counts``)."""
    n = guess_line.shape[0]
    g = np.empty(n, dtype=np.uint8)
    gc = np.zeros(counts.shape[1], dtype=np.uint8)
    for p in range(n):
        g[p] = guess_line[p]
        gc[g[p]] += 1
    return feedback_against(g, gc, digits, counts, cand, True)


@numba.njit(cache=True, nogil=True)
def filter_line(cand, guess_line, answer, digits, counts):
    """The members of ``cand`` (sorted ``int32``) that give ``guess_line`` the feedback code ``answer``."""
    fb = line_feedbacks(guess_line, cand, digits, counts)
    k = 0
    for j in range(fb.shape[0]):
        if fb[j] == answer:
            k += 1
    out = np.empty(k, dtype=np.int32)
    k = 0
    for j in range(fb.shape[0]):
        if fb[j] == answer:
            out[k] = cand[j]
            k += 1
    return out


@numba.njit(cache=True, nogil=True)
def _lower_bound(sets, lo, hi, x):
    """The first position in ``sets[lo:hi]`` (sorted) holding a value >= ``x`` (``hi`` if none)."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if sets[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@numba.njit(cache=True, nogil=True)
def _contains(sets, lo, hi, x):
    p = _lower_bound(sets, lo, hi, x)
    return p < hi and sets[p] == x


@numba.njit(cache=True, nogil=True)
def consistent_lines(code, sets, offsets, m):
    """``bool[2n]``: whether each line of ``code`` is in its consistent set."""
    n = code.shape[0]
    out = np.empty(2 * n, dtype=np.bool_)
    for k in range(2 * n):
        out[k] = _contains(sets, offsets[k], offsets[k + 1], line_index(code, k, m))
    return out


@numba.njit(cache=True, nogil=True)
def filter_counts(cand, want, counts):
    """The members of ``cand`` whose colours occur exactly ``want[c]`` times each (``counts``: the
    line game's colour counts of every code)."""
    m = counts.shape[1]
    keep = np.zeros(cand.shape[0], dtype=np.bool_)
    k = 0
    for j in range(cand.shape[0]):
        ok = True
        for c in range(m):
            if counts[cand[j], c] != want[c]:
                ok = False
                break
        keep[j] = ok
        if ok:
            k += 1
    out = np.empty(k, dtype=np.int32)
    k = 0
    for j in range(cand.shape[0]):
        if keep[j]:
            out[k] = cand[j]
            k += 1
    return out


# ----------------------------------------------------------------------------- Singley's 2-D tabu walk
@numba.njit(cache=True, nogil=True)
def line_bitmaps(sets, offsets, n_codes):
    """``uint64[2n, ceil(m^n / 64)]``: line k's set as a bitmap over the m^n codes (Singley's
    Boolean vectors, 003 5.3, one bit per code), for constant-time membership in the walk."""
    lines = offsets.shape[0] - 1
    words = (n_codes + 63) // 64
    bits = np.zeros((lines, words), dtype=np.uint64)
    for k in range(lines):
        for pos in range(offsets[k], offsets[k + 1]):
            x = sets[pos]
            bits[k, x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    return bits


@numba.njit(cache=True, nogil=True)
def _member(bits, k, x):
    return (bits[k, x >> 6] >> np.uint64(x & 63)) & np.uint64(1) == np.uint64(1)


@numba.njit(cache=True, nogil=True)
def _swap_in_row(code, idx, power, r, i, j):
    """Swap stones i < j of row r, updating the indices of the row and of columns i and j."""
    n = code.shape[0]
    a = code[r, i]
    b = code[r, j]
    code[r, i] = b
    code[r, j] = a
    idx[r] += (b - a) * power[n - 1 - i] + (a - b) * power[n - 1 - j]
    idx[n + i] += (b - a) * power[n - 1 - r]
    idx[n + j] += (a - b) * power[n - 1 - r]


@numba.njit(cache=True, nogil=True)
def _can_move_2d(code, idx, power, ok, bits, tabu, tabu_state):
    """Whether some swap can still be made: a pair of different colours in a row that is not
    tabu, or a tabu one whose swap raises the value. A shortcut of the walk: not counted."""
    n = code.shape[0]
    for r in range(n):
        for i in range(n):
            for j in range(i + 1, n):
                if code[r, i] == code[r, j]:
                    continue
                if not _is_tabu(tabu, tabu_state, r * n + i, r * n + j):
                    return True
                _swap_in_row(code, idx, power, r, i, j)
                gain = (_member(bits, r, idx[r]) - ok[r] + _member(bits, n + i, idx[n + i]) - ok[n + i]
                        + _member(bits, n + j, idx[n + j]) - ok[n + j])
                _swap_in_row(code, idx, power, r, i, j)
                if gain > 0:
                    return True
    return False


@numba.njit(cache=True, nogil=True)
def tabu_walk_2d(code, bits, m, tabu, tabu_state, seed, max_steps, period):
    """Singley's 2-D tabu search (003, 5.2) from ``code`` (changed in place) until every line is consistent.

    ``bits`` holds each line's consistent set (``line_bitmaps``). A step draws a random row and
    a random pair of its stones; a pair of one colour is drawn again. A pair not on the tabu
    list is always swapped and joins the list (first in, first out, ``len(tabu)`` entries of two
    cell numbers ``row * n + position``; ``tabu_state`` is [next slot, entries held]); a tabu
    pair is swapped only if that raises the value, the number of consistent rows plus columns.
    Every ``period`` swaps made (0: never) the walk restarts from the best matrix it has seen.
    Returns (reached, line checks, swaps made, draws). A walk that cannot move returns at once:
    every row of one colour, or every pair it could swap tabu and none of them raising the
    value (the tabu list only changes by a swap, so such a walk would draw for ever).
    """
    np.random.seed(seed)
    n = code.shape[0]
    lines = 2 * n
    tenure = tabu.shape[0]
    power = np.ones(n + 1, dtype=np.int64)
    for k in range(1, n + 1):
        power[k] = power[k - 1] * m
    idx = line_indices(code, m)
    ok = np.empty(lines, dtype=np.int64)
    value = 0
    for k in range(lines):
        ok[k] = _member(bits, k, idx[k])
        value += ok[k]
    checks = lines
    if value == lines:
        return True, checks, 0, 0
    movable = False
    for r in range(n):
        for p in range(1, n):
            if code[r, p] != code[r, 0]:
                movable = True
    if not movable:
        return False, checks, 0, 0
    best = code.copy()
    best_value = value
    moves = 0
    looked = False  # whether this state was checked for a way out (no swap since)
    for step in range(max_steps):
        r = np.random.randint(n)
        i = np.random.randint(n)
        j = np.random.randint(n)
        if code[r, i] == code[r, j]:
            if not looked:
                looked = True
                if not _can_move_2d(code, idx, power, ok, bits, tabu, tabu_state):
                    return False, checks, moves, step + 1
            continue
        if i > j:
            i, j = j, i
        a = r * n + i
        b = r * n + j
        is_tabu = _is_tabu(tabu, tabu_state, a, b)
        _swap_in_row(code, idx, power, r, i, j)
        new_r = np.int64(_member(bits, r, idx[r]))
        new_i = np.int64(_member(bits, n + i, idx[n + i]))
        new_j = np.int64(_member(bits, n + j, idx[n + j]))
        checks += 3
        new_value = value - ok[r] - ok[n + i] - ok[n + j] + new_r + new_i + new_j
        if is_tabu and new_value <= value:
            _swap_in_row(code, idx, power, r, i, j)
            if not looked:
                looked = True
                if not _can_move_2d(code, idx, power, ok, bits, tabu, tabu_state):
                    return False, checks, moves, step + 1
            continue
        looked = False
        ok[r] = new_r
        ok[n + i] = new_i
        ok[n + j] = new_j
        value = new_value
        moves += 1
        if not is_tabu and tenure > 0:
            tabu[tabu_state[0], 0] = a
            tabu[tabu_state[0], 1] = b
            tabu_state[0] = (tabu_state[0] + 1) % tenure
            tabu_state[1] = min(tabu_state[1] + 1, tenure)
        if value == lines:
            return True, checks, moves, step + 1
        if value > best_value:
            best[:, :] = code
            best_value = value
        if period > 0 and moves % period == 0:
            code[:, :] = best
            idx = line_indices(code, m)
            value = 0
            for k in range(lines):
                ok[k] = _member(bits, k, idx[k])
                value += ok[k]
            checks += lines
    return False, checks, moves, max_steps


# ----------------------------------------------------------------------------- exact search for a consistent matrix
@numba.njit(cache=True, nogil=True)
def _has_range(sets, lo, hi, first, last):
    """Whether sorted ``sets[lo:hi]`` holds a value in ``[first, last)``."""
    p = _lower_bound(sets, lo, hi, first)
    return p < hi and sets[p] < last


@numba.njit(cache=True, nogil=True)
def _row_exists(sets, lo, hi, allowed, n, m, power):
    """Whether ``sets[lo:hi]`` (sorted codes) holds a code whose digit at each position p is
    allowed by ``allowed[p]``: a depth-first walk over the codes' common beginnings."""
    if lo >= hi:
        return False
    colour = np.zeros(n + 1, dtype=np.int64)  # colour[p]: next colour to try at position p
    start = np.zeros(n + 1, dtype=np.int64)  # the range of codes beginning with the chosen digits
    stop = np.zeros(n + 1, dtype=np.int64)
    prefix = np.zeros(n + 1, dtype=np.int64)
    start[0] = lo
    stop[0] = hi
    p = 0
    while p >= 0:
        if p == n:
            return True
        advanced = False
        while colour[p] < m:
            c = colour[p]
            colour[p] += 1
            if not allowed[p, c]:
                continue
            a = (prefix[p] * m + c) * power[n - 1 - p]
            s0 = _lower_bound(sets, start[p], stop[p], a)
            if s0 >= stop[p] or sets[s0] >= a + power[n - 1 - p]:
                continue
            s1 = _lower_bound(sets, s0, stop[p], a + power[n - 1 - p])
            prefix[p + 1] = prefix[p] * m + c
            start[p + 1] = s0
            stop[p + 1] = s1
            colour[p + 1] = 0
            p += 1
            advanced = True
            break
        if not advanced:
            p -= 1
    return False


@numba.njit(cache=True, nogil=True)
def _rows_below_possible(sets, offsets, out, r, m, power, allowed):
    """After rows 0..r are placed: whether every row below can still be completed, each from its
    own set, with stones its columns' sets allow under what is placed above (forward checking)."""
    n = out.shape[0]
    for k in range(r + 1, n):
        allowed[k, :, :] = False
    for j in range(n):
        cp = 0
        for p in range(r + 1):
            cp = cp * m + out[p, j]
        span = power[n - 1 - r]
        lo = _lower_bound(sets, offsets[n + j], offsets[n + j + 1], cp * span)
        hi = _lower_bound(sets, lo, offsets[n + j + 1], (cp + 1) * span)
        if lo >= hi:
            return False
        for q in range(lo, hi):
            code = sets[q]
            for k in range(r + 1, n):
                allowed[k, j, (code // power[n - 1 - k]) % m] = True
    for k in range(r + 1, n):
        if not _row_exists(sets, offsets[k], offsets[k + 1], allowed[k], n, m, power):
            return False
    return True


@numba.njit(cache=True, nogil=True)
def find_consistent(sets, offsets, m, seed, budget, out):
    """Search for a matrix whose every line is in its set; write it to ``out`` (``int64[n, n]``).

    The cells are filled in reading order. A colour is tried only if the row so far and the
    column so far still begin some member of their sets (the sets are sorted, so the codes with a
    given beginning form a range), and a row is kept only if every row below can still be
    completed from its set with stones the columns allow (forward checking). Each cell tries
    its colours in a random order weighted by how many codes of the row's set each leads to, so
    rows come about roughly uniformly from their sets. Stops after ``budget`` colours tried
    (0: no limit). Returns (found, colours tried). Without a limit the search is complete: it
    finds a matrix whenever one exists.
    """
    np.random.seed(seed)
    n = out.shape[0]
    cells = n * n
    power = np.ones(n + 1, dtype=np.int64)  # power[k] = m ** k
    for k in range(1, n + 1):
        power[k] = power[k - 1] * m
    for k in range(2 * n):
        if offsets[k + 1] == offsets[k]:
            return False, 0
    order = np.empty((cells, m), dtype=np.int64)  # the colours of each cell, in the order tried
    tried = np.zeros(cells, dtype=np.int64)
    keys = np.empty(m, dtype=np.float64)
    allowed = np.zeros((n, n, m), dtype=np.bool_)
    looked = 0
    t = 0
    fresh = True
    while t >= 0:
        r = t // n
        j = t - r * n
        rp = 0  # the row's stones left of (r, j), and the column's above it, as indices
        for p in range(j):
            rp = rp * m + out[r, p]
        cp = 0
        for p in range(r):
            cp = cp * m + out[p, j]
        row_span = power[n - 1 - j]
        col_span = power[n - 1 - r]
        if fresh:
            for c in range(m):
                order[t, c] = c
                a = (rp * m + c) * row_span
                lo = _lower_bound(sets, offsets[r], offsets[r + 1], a)
                w = _lower_bound(sets, lo, offsets[r + 1], a + row_span) - lo
                keys[c] = -np.log(np.random.random()) / w if w > 0 else np.inf
            for c in range(1, m):  # insertion sort by key, smallest first: a weighted random order
                x = order[t, c]
                k = c - 1
                while k >= 0 and keys[order[t, k]] > keys[x]:
                    order[t, k + 1] = order[t, k]
                    k -= 1
                order[t, k + 1] = x
            tried[t] = 0
            fresh = False
        placed = False
        while tried[t] < m:
            c = order[t, tried[t]]
            tried[t] += 1
            looked += 1
            a = (rp * m + c) * row_span
            if not _has_range(sets, offsets[r], offsets[r + 1], a, a + row_span):
                continue
            b = (cp * m + c) * col_span
            if not _has_range(sets, offsets[n + j], offsets[n + j + 1], b, b + col_span):
                continue
            out[r, j] = c
            if j == n - 1 and r < n - 1 and not _rows_below_possible(sets, offsets, out, r, m, power, allowed):
                continue
            placed = True
            break
        if placed and t == cells - 1:
            return True, looked
        if budget > 0 and looked >= budget:
            return False, looked
        if placed:
            t += 1
            fresh = True
        else:
            t -= 1
    return False, looked


# ----------------------------------------------------------------------------- propagation between rows and columns
@numba.njit(cache=True, nogil=True)
def propagate(sets, offsets, digits, m):
    """Prune every line's set to the codes whose stones the crossing lines can all still take.

    Cell (i, j) may hold colour c only if some member of row i's set has c at position j and
    some member of column j's set has c at position i; members using a colour a cell may not
    hold are dropped, and this repeats until nothing changes (arc consistency between the
    lines through their shared cells; a line is scanned again only when a cell of it lost a
    colour). ``digits`` is the line game's table of every code's colours. Returns the new
    (sets, offsets) and ``bool[n, n, m]``, the colours each cell may hold. A line left with no
    member means the answers contradict each other.
    """
    lines = offsets.shape[0] - 1
    n = lines // 2
    allowed = np.ones((n, n, m), dtype=np.bool_)
    keep = np.ones(sets.shape[0], dtype=np.bool_)
    support = np.zeros((n, m), dtype=np.bool_)
    dirty = np.ones(lines, dtype=np.bool_)
    pending = lines
    while pending > 0:
        for k in range(lines):
            if not dirty[k]:
                continue
            dirty[k] = False
            pending -= 1
            support[:, :] = False
            for pos in range(offsets[k], offsets[k + 1]):
                if not keep[pos]:
                    continue
                code = sets[pos]
                fits = True
                for p in range(n):
                    c = digits[code, p]
                    free = allowed[k, p, c] if k < n else allowed[p, k - n, c]
                    if not free:
                        fits = False
                        break
                if not fits:
                    keep[pos] = False
                    continue
                for p in range(n):
                    support[p, digits[code, p]] = True
            for p in range(n):
                for c in range(m):
                    if support[p, c]:
                        continue
                    i, j = (k, p) if k < n else (p, k - n)
                    if allowed[i, j, c]:
                        allowed[i, j, c] = False
                        crossing = n + j if k < n else i  # the other line through cell (i, j)
                        if not dirty[crossing]:
                            dirty[crossing] = True
                            pending += 1
    new_offsets = np.zeros(lines + 1, dtype=np.int64)
    for k in range(lines):
        count = 0
        for pos in range(offsets[k], offsets[k + 1]):
            if keep[pos]:
                count += 1
        new_offsets[k + 1] = new_offsets[k] + count
    new_sets = np.empty(new_offsets[lines], dtype=np.int32)
    q = 0
    for pos in range(sets.shape[0]):
        if keep[pos]:
            new_sets[q] = sets[pos]
            q += 1
    return new_sets, new_offsets, allowed


# ----------------------------------------------------------------------------- how a guess splits a line's set
@numba.njit(cache=True, nogil=True)
def line_split_scores(code, sets, offsets, digits, counts, sample):
    """``float64[2n, 2]``: for each line of ``code``, the entropy in bits of the partition of its
    set by that line's answers, and the expected share of the set left after the answer.

    A set larger than ``sample`` is scored on ``sample`` members spread evenly over it.
    """
    n = code.shape[0]
    lines = 2 * n
    out = np.zeros((lines, 2), dtype=np.float64)
    g = np.empty(n, dtype=np.int64)
    hist = np.zeros((n + 1) * (n + 1), dtype=np.int64)
    for k in range(lines):
        size = offsets[k + 1] - offsets[k]
        if size <= 1:
            continue
        _line_digits(code, k, g)
        take = size if size <= sample else sample
        cand = np.empty(take, dtype=np.int32)
        for t in range(take):
            cand[t] = sets[offsets[k] + (t * size) // take]
        fb = line_feedbacks(g, cand, digits, counts)
        hist[:] = 0
        for t in range(take):
            hist[fb[t]] += 1
        entropy = 0.0
        share = 0.0
        for h in range(hist.shape[0]):
            if hist[h] > 0:
                q = hist[h] / take
                entropy -= q * np.log2(q)
                share += q * q
        out[k, 0] = entropy
        out[k, 1] = share
    return out
