"""Numba kernels of the knowledge layer: equivalent guesses (see ``mmlab.knowledge.symmetry``)
and the search for a random consistent code without enumerating the space (``sample_consistent``).

A symmetry is a peg permutation ``perm`` together with a colour map ``cmap`` on the colours
played so far (``-1`` for a colour never played). Colours never played form one block of
interchangeable colours ("free"); colours absent from every consistent code form another.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def _image_is_smaller(code, perm, cmap, free_rank, free_sorted, pegs):
    """Whether the image of ``code`` under (perm, cmap, best relabelling of free colours) is
    lexicographically smaller than ``code``."""
    relabel = np.full(cmap.shape[0], -1, dtype=np.int64)
    next_free = 0
    for i in range(pegs):
        c = code[perm[i]]
        if free_rank[c] >= 0:
            if relabel[c] < 0:
                relabel[c] = free_sorted[next_free]
                next_free += 1
            img = relabel[c]
        else:
            img = cmap[c]
        if img < code[i]:
            return True
        if img > code[i]:
            return False
    return False


@numba.njit(cache=True)
def canonical_mask(digits, perms, cmaps, free_rank, free_sorted):
    """``mask[i]`` is True when code ``i`` is the smallest of its images under every symmetry.

    ``perms`` (``int64[P, pegs]``) and ``cmaps`` (``int64[P, colours]``) list the symmetries;
    ``free_rank[c]`` is ``c``'s rank among the free colours or -1, ``free_sorted`` the free
    colours in increasing order.
    """
    n = digits.shape[0]
    pegs = digits.shape[1]
    mask = np.ones(n, dtype=np.bool_)
    for i in range(n):
        code = digits[i]
        for k in range(perms.shape[0]):
            if _image_is_smaller(code, perms[k], cmaps[k], free_rank, free_sorted, pegs):
                mask[i] = False
                break
    return mask


@numba.njit(cache=True)
def block_canonical(digits, codes, block_rank, block_sorted):
    """Keep the codes in which the colours of one interchangeable block appear in first-occurrence
    order, relabelled to the block's smallest colours (the lowest-index member of their class)."""
    pegs = digits.shape[1]
    keep = np.ones(codes.shape[0], dtype=np.bool_)
    seen = np.empty(block_sorted.shape[0] + 1, dtype=np.int64)
    for j in range(codes.shape[0]):
        row = digits[codes[j]]
        n_seen = 0
        for i in range(pegs):
            c = row[i]
            if block_rank[c] < 0:
                continue
            known = False
            for t in range(n_seen):
                if seen[t] == c:
                    known = True
                    break
            if not known:
                if c != block_sorted[n_seen]:
                    keep[j] = False
                    break
                seen[n_seen] = c
                n_seen += 1
    return keep


@numba.njit(cache=True)
def sample_consistent(hist_digits, hist_counts, hist_blacks, hist_totals, pegs, colours, with_white, repeats, seed,
                      max_nodes):
    """A random code that fits every answer, found without enumerating the space.

    Depth-first over the pegs, trying colours in a random order at each peg, and abandoning a
    partial code as soon as some answer's black count or total matches (black + white) can no
    longer be reached: each further peg adds at most one to either. Returns ``(digits, nodes)``,
    ``digits[0] == -1`` if none was found within ``max_nodes`` placements.
    """
    np.random.seed(seed)
    k_hist = hist_digits.shape[0]
    code = np.full(pegs, -1, dtype=np.int64)
    order = np.empty((pegs, colours), dtype=np.int64)
    tried = np.zeros(pegs, dtype=np.int64)
    partial_counts = np.zeros(colours, dtype=np.int64)
    blacks = np.zeros(k_hist, dtype=np.int64)
    totals = np.zeros(k_hist, dtype=np.int64)
    order[0] = np.random.permutation(colours)
    pos = 0
    nodes = 0
    while nodes < max_nodes:
        if tried[pos] == colours:  # every colour failed here: undo the previous peg
            if pos == 0:
                break
            pos -= 1
            c = code[pos]
            partial_counts[c] -= 1
            for k in range(k_hist):
                if hist_digits[k, pos] == c:
                    blacks[k] -= 1
                if partial_counts[c] < hist_counts[k, c]:
                    totals[k] -= 1
            code[pos] = -1
            continue
        c = order[pos, tried[pos]]
        tried[pos] += 1
        if not repeats and partial_counts[c] > 0:
            continue
        nodes += 1
        left = pegs - pos - 1
        ok = True
        for k in range(k_hist):
            b = blacks[k] + (1 if hist_digits[k, pos] == c else 0)
            if b > hist_blacks[k] or b + left < hist_blacks[k]:
                ok = False
                break
            if with_white:
                t = totals[k] + (1 if partial_counts[c] < hist_counts[k, c] else 0)
                if t > hist_totals[k] or t + left < hist_totals[k]:
                    ok = False
                    break
        if not ok:
            continue
        for k in range(k_hist):
            if hist_digits[k, pos] == c:
                blacks[k] += 1
            if partial_counts[c] < hist_counts[k, c]:
                totals[k] += 1
        partial_counts[c] += 1
        code[pos] = c
        pos += 1
        if pos == pegs:
            return code, nodes
        tried[pos] = 0
        order[pos] = np.random.permutation(colours)
    code[0] = -1
    return code, nodes
