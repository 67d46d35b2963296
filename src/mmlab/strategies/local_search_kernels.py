"""Numba kernels of the local and tabu searches: arrangements of a known colour multiset.

Once the colour counts are known (Singley's preprocessing), every candidate is an arrangement
of one multiset, and its black-plus-white total against any guess is fixed, so a candidate fits
the history exactly when it gives each guess its recorded number of blacks.

>>> import numpy as np
>>> history = np.array([[0, 0, 1, 1]], dtype=np.int64)   # 1122 scored two blacks, and the
>>> found, first, leaves = count_arrangements(np.array([2, 2]), history, np.array([2]), 9)
>>> int(found), first.tolist()                          # secret has two 1s and two 2s
(4, [0, 1, 0, 1])
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def fits_blacks(code, hist_digits, hist_blacks):
    """Whether ``code`` gives every guess of the history its recorded number of blacks."""
    for k in range(hist_digits.shape[0]):
        b = 0
        for p in range(code.shape[0]):
            if code[p] == hist_digits[k, p]:
                b += 1
        if b != hist_blacks[k]:
            return False
    return True


@numba.njit(cache=True)
def count_arrangements(counts, hist_digits, hist_blacks, limit):
    """How many arrangements of the colour multiset ``counts`` fit the history (stopping at
    ``limit``), the first one found (in lexicographic order), and the complete arrangements checked.

    A depth-first search over positions, pruned as soon as a guess has more blacks than
    recorded, or too few positions left to reach its count.
    """
    n = hist_digits.shape[1]
    h = hist_digits.shape[0]
    m = counts.shape[0]
    remaining = counts.copy()
    code = np.zeros(n, dtype=np.int64)
    first = np.full(n, -1, dtype=np.int64)
    blacks = np.zeros((n + 1, h), dtype=np.int64)  # blacks of the prefix of length p against each guess
    choice = np.full(n, -1, dtype=np.int64)
    found = 0
    leaves = 0
    p = 0
    while p >= 0:
        # next colour to try at position p
        c = choice[p] + 1
        if choice[p] >= 0:
            remaining[choice[p]] += 1
        while c < m and remaining[c] == 0:
            c += 1
        if c == m:
            choice[p] = -1
            p -= 1
            continue
        choice[p] = c
        remaining[c] -= 1
        code[p] = c
        ok = True
        left = n - p - 1
        for k in range(h):
            b = blacks[p, k] + (1 if hist_digits[k, p] == c else 0)
            blacks[p + 1, k] = b
            if b > hist_blacks[k] or b + left < hist_blacks[k]:
                ok = False
        if not ok:
            continue
        if p == n - 1:
            leaves += 1
            if found == 0:
                first[:] = code
            found += 1
            if found >= limit:
                break
            continue
        p += 1
    return found, first, leaves


@numba.njit(cache=True)
def _is_tabu(tabu, tabu_state, i, j):
    for t in range(tabu_state[1]):
        if tabu[t, 0] == i and tabu[t, 1] == j:
            return True
    return False


@numba.njit(cache=True)
def _can_move(code, hist_digits, hist_blacks, tabu, tabu_state):
    """Whether some pair can still be swapped: a free pair of different colours, or a tabu one
    whose swap fits (aspiration). A shortcut of the walk: its checks are not counted."""
    n = code.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            if code[i] == code[j]:
                continue
            if not _is_tabu(tabu, tabu_state, i, j):
                return True
            code[i], code[j] = code[j], code[i]
            fits = fits_blacks(code, hist_digits, hist_blacks)
            code[i], code[j] = code[j], code[i]
            if fits:
                return True
    return False


@numba.njit(cache=True)
def tabu_walk(code, hist_digits, hist_blacks, tabu, tabu_state, seed, max_steps):
    """Singley's 1-D tabu search (003, 4.4) from ``code`` (changed in place) until it fits.

    Each step swaps a random pair of stones of different colours. A pair not on the tabu list is
    always swapped and joins the list (first in, first out; ``tabu`` holds up to ``len(tabu)`` pairs,
    ``tabu_state`` is [next slot, pairs held]). A tabu pair is swapped only when the result fits
    the history (aspiration: a consistent code beats every code played so far). Returns whether a
    consistent code was reached and the codes checked.
    """
    np.random.seed(seed)
    n = code.shape[0]
    tenure = tabu.shape[0]
    checks = 0
    looked = False  # whether this state was checked for a way out (no swap since)
    for _ in range(max_steps):
        i = np.random.randint(n)
        j = np.random.randint(n)
        if i > j:
            i, j = j, i
        if code[i] == code[j] or _is_tabu(tabu, tabu_state, i, j):
            if not looked:
                # A draw that changes nothing leaves the state as it was, so every later draw
                # comes from the same state: when no pair can move, the walk is stuck for good.
                looked = True
                if not _can_move(code, hist_digits, hist_blacks, tabu, tabu_state):
                    return False, checks
            if code[i] == code[j]:
                continue
            code[i], code[j] = code[j], code[i]
            checks += 1
            if fits_blacks(code, hist_digits, hist_blacks):
                return True, checks
            code[i], code[j] = code[j], code[i]
            continue
        looked = False
        code[i], code[j] = code[j], code[i]
        checks += 1
        fits = fits_blacks(code, hist_digits, hist_blacks)
        if tenure > 0:
            tabu[tabu_state[0], 0] = i
            tabu[tabu_state[0], 1] = j
            tabu_state[0] = (tabu_state[0] + 1) % tenure
            tabu_state[1] = min(tabu_state[1] + 1, tenure)
        if fits:
            return True, checks
    return False, checks
