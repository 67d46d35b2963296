"""Numba kernels for equivalent guesses (see ``mmlab.knowledge.symmetry``).

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
