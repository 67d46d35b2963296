"""Numba kernels of the knowledge layer: equivalent guesses (see ``mmlab.knowledge.symmetry``)
the search for a random consistent code without enumerating the space (``sample_consistent``), and
the uniform draw of consistent codes by rejection (``draw_consistent``).

A symmetry is a peg permutation ``perm`` together with a colour map ``cmap`` on the colours
played so far (``-1`` for a colour never played). Colours never played form one block of
interchangeable colours ("free"); colours absent from every consistent code form another.
"""

from __future__ import annotations

import numba
import numpy as np

from mmlab.game.kernels import fits_history


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
def _pick(weights, n):
    """Index of a random positive entry of ``weights[:n]``, drawn in proportion to its weight;
    -1 when none is left."""
    total = 0.0
    for i in range(n):
        total += weights[i]
    if total <= 0.0:
        return -1
    u = np.random.random() * total
    last = -1
    for i in range(n):
        if weights[i] > 0.0:
            last = i
            u -= weights[i]
            if u < 0.0:
                return i
    return last  # rounding left u at about 0


@numba.njit(cache=True)
def _binomial(n, k):
    if k < 0 or k > n:
        return 0.0
    out = 1.0
    for i in range(min(k, n - k)):
        out = out * (n - i) / (i + 1)
    return out


@numba.njit(cache=True)
def _count_weights(weights, stones, colours_left, repeats):
    """``weights[n]``: how many codes give ``n`` of the ``stones`` still to place to the next of
    ``colours_left`` colours, ignoring the answers (so unconstrained draws are uniform)."""
    weights[:] = 0.0
    if repeats:
        for n in range(stones + 1):
            weights[n] = _binomial(stones, n) * float(colours_left - 1) ** (stones - n)
    else:
        weights[0] = _binomial(colours_left - 1, stones)
        weights[1] = _binomial(colours_left - 1, stones - 1)


@numba.njit(cache=True)
def arrange(counts, hist_digits, hist_counts, hist_blacks, peg_order, code, max_nodes):
    """Place the colours counted by ``counts`` (one colour per peg) so that every answer gets its
    black count, by a randomised depth-first search over the pegs taken in ``peg_order``; writes
    ``code``.

    Each peg takes a colour drawn in proportion to how many stones of it are left (so an
    unconstrained draw is a uniform arrangement). A partial code is abandoned when some answer's
    blacks exceed its count or can no longer reach it: the pegs left can add at most
    ``sum over colours of min(stones left, pegs left where the guess has that colour)``.
    Returns ``(status, nodes)``: 1 found, 0 no arrangement exists, -1 ``max_nodes`` ran out.

    >>> code = np.empty(3, dtype=np.int64)  # place 0 0 1 so that 0 1 0 gets 3 blacks
    >>> status, nodes = arrange(np.array([2, 1]), np.array([[0, 1, 0]]), np.array([[2, 1]]), np.array([3]),
    ...                         np.array([2, 0, 1]), code, 100)
    >>> status, code.tolist()
    (1, [0, 1, 0])
    """
    return _arrange(counts, hist_digits, hist_counts, hist_blacks, peg_order, code, max_nodes,
                    np.empty((0, peg_order.shape[0]), dtype=np.uint8), np.zeros(1, dtype=np.int64))


@numba.njit(cache=True)
def _arrange(counts, hist_digits, hist_counts, hist_blacks, peg_order, code, max_nodes, out, found):
    """``arrange``; when ``out`` has rows, every arrangement is written to ``out[found[0]:]`` (status
    0 once all are listed, -2 when ``out`` is full) instead of returning the first."""
    k_hist = hist_digits.shape[0]
    colours = counts.shape[0]
    pegs = peg_order.shape[0]
    present = np.flatnonzero(counts)
    n_present = present.shape[0]
    rem = counts.copy()
    pos = hist_counts.copy()  # guess colours on the pegs not placed yet
    blacks = np.zeros((pegs + 1, k_hist), dtype=np.int64)
    room = np.zeros((pegs + 1, k_hist), dtype=np.int64)  # most blacks the pegs not placed yet can add
    for k in range(k_hist):
        for c in range(colours):
            room[0, k] += min(rem[c], pos[k, c])
        if room[0, k] < hist_blacks[k]:
            return 0, 0
    weights = np.zeros((pegs, n_present))
    for j in range(n_present):
        weights[0, j] = rem[present[j]]
    p = 0
    nodes = 0
    while nodes < max_nodes:
        j = _pick(weights[p], n_present)
        if j < 0:  # every colour failed here: undo the previous peg
            if p == 0:
                return 0, nodes
            p -= 1
            rem[code[peg_order[p]]] += 1
            for k in range(k_hist):
                pos[k, hist_digits[k, peg_order[p]]] += 1
            continue
        weights[p, j] = 0.0
        nodes += 1
        c = present[j]
        peg = peg_order[p]
        ok = True
        for k in range(k_hist):
            g = hist_digits[k, peg]
            if g == c:
                b = blacks[p, k] + 1
                r = room[p, k] - 1
            else:
                b = blacks[p, k]
                r = room[p, k] - (1 if rem[c] <= pos[k, c] else 0) - (1 if pos[k, g] <= rem[g] else 0)
            if b > hist_blacks[k] or b + r < hist_blacks[k]:
                ok = False
                break
            blacks[p + 1, k] = b
            room[p + 1, k] = r
        if not ok:
            continue
        code[peg] = c
        rem[c] -= 1
        for k in range(k_hist):
            pos[k, hist_digits[k, peg]] -= 1
        p += 1
        if p == pegs:
            if out.shape[0] == 0:
                return 1, nodes
            if found[0] == out.shape[0]:
                return -2, nodes
            for q in range(pegs):
                out[found[0], q] = code[q]
            found[0] += 1
            p -= 1  # take the last peg back and try its next colour
            rem[code[peg_order[p]]] += 1
            for k in range(k_hist):
                pos[k, hist_digits[k, peg_order[p]]] += 1
            continue
        for j in range(n_present):
            weights[p, j] = rem[present[j]]
    return -1, nodes


@numba.njit(cache=True)
def _colour_order(hist_counts):
    """The colours in a random order, those played in some guess first: the others add nothing to
    any total, so once the played ones are counted the totals are settled."""
    colours = hist_counts.shape[1]
    order = np.random.permutation(colours)
    played = np.zeros(colours, dtype=np.int64)
    for k in range(hist_counts.shape[0]):
        for c in range(colours):
            if hist_counts[k, c] > 0:
                played[c] = 1
    out = np.empty(colours, dtype=np.int64)
    n = 0
    for first in (1, 0):
        for c in order:
            if played[c] == first:
                out[n] = c
                n += 1
    return out


@numba.njit(cache=True)
def _sample_by_counts(hist_digits, hist_counts, hist_blacks, hist_totals, pegs, colours, repeats, max_nodes, out,
                      found):
    """Two-level search: colour counts fitting every answer's total first, then their arrangement
    (``arrange``, pegs in a random order); see ``sample_consistent``. When ``out`` has rows every
    consistent code is listed into it instead (see ``enumerate_consistent``)."""
    k_hist = hist_digits.shape[0]
    cap = pegs if repeats else 1
    order = _colour_order(hist_counts)
    peg_order = np.random.permutation(pegs)
    # What the colours order[d:] can still add to an answer's total with ``stones`` left: at most
    # min(stones, sum of their counts in the guess); at least min(stones, their smallest count in
    # the guess) with repeats (all stones on that colour), stones - (those absent from the guess)
    # without. Both bounds are tight for one answer at a time.
    suf_sum = np.zeros((colours + 1, k_hist), dtype=np.int64)
    suf_min = np.full((colours + 1, k_hist), pegs + 1, dtype=np.int64)
    suf_zero = np.zeros((colours + 1, k_hist), dtype=np.int64)
    for d in range(colours - 1, -1, -1):
        for k in range(k_hist):
            g = hist_counts[k, order[d]]
            suf_sum[d, k] = suf_sum[d + 1, k] + g
            suf_min[d, k] = min(suf_min[d + 1, k], g)
            suf_zero[d, k] = suf_zero[d + 1, k] + (1 if g == 0 else 0)
    counts = np.zeros(colours, dtype=np.int64)
    sums = np.zeros((colours + 1, k_hist), dtype=np.int64)  # each total over the colours order[:d]
    left = np.zeros(colours + 1, dtype=np.int64)
    weights = np.zeros((colours, cap + 1))
    code = np.full(pegs, -1, dtype=np.int64)
    left[0] = pegs
    _count_weights(weights[0], pegs, colours, repeats)
    d = 0
    nodes = 0
    while nodes < max_nodes:
        n = _pick(weights[d], cap + 1)
        c = order[d]
        if n < 0:  # every count failed here: undo the previous colour
            if d == 0:
                break
            d -= 1
            counts[order[d]] = 0
            continue
        weights[d, n] = 0.0
        nodes += 1
        stones = left[d] - n
        ok = True
        for k in range(k_hist):
            s = sums[d, k] + min(hist_counts[k, c], n)
            most = min(stones, suf_sum[d + 1, k])
            least = min(stones, suf_min[d + 1, k]) if repeats else max(0, stones - suf_zero[d + 1, k])
            if s + least > hist_totals[k] or s + most < hist_totals[k]:
                ok = False
                break
            sums[d + 1, k] = s
        if not ok:
            continue
        counts[c] = n
        if stones == 0:  # the other colours are absent: arrange this multiset
            status, used = _arrange(counts, hist_digits, hist_counts, hist_blacks, peg_order, code, max_nodes - nodes,
                                    out, found)
            nodes += used
            if status == 1:
                return code, nodes
            if status < 0 and out.shape[0] > 0:  # out full or budget spent: the listing is incomplete
                code[0] = -1
                return code, max_nodes
            counts[c] = 0
            continue
        d += 1
        left[d] = stones
        _count_weights(weights[d], stones, colours - d, repeats)
    code[0] = -1
    return code, nodes


@numba.njit(cache=True)
def _sample_by_pegs(hist_digits, hist_counts, hist_blacks, hist_totals, pegs, colours, with_white, repeats,
                    max_nodes):
    """One-level search over the pegs, each trying the colours in a random order; see
    ``sample_consistent``."""
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


@numba.njit(cache=True)
def sample_consistent(hist_digits, hist_counts, hist_blacks, hist_totals, pegs, colours, with_white, repeats, seed,
                      max_nodes, by_counts=True):
    """A random code that fits every answer, found without enumerating the space.

    With black and white feedback (and ``by_counts``), a randomised depth-first search first
    over the colours (those played in some guess first), choosing how many stones each gets so
    that every answer's total (black + white, which depends only on the counts) stays reachable,
    then over the pegs placing that multiset so that every answer's black count stays reachable
    (``arrange``); a multiset with no arrangement sends the search back to the counts. Counts
    and colours are drawn in proportion to the number of codes they would leave if the answers
    were ignored, so with no answers the draw is uniform. With black-only feedback (or not
    ``by_counts``) the search runs over the pegs alone, each peg trying the colours in a random
    order, pruned by the blacks and totals that can still be reached.

    Arrays are ``int64``. Returns ``(digits, nodes)``, ``nodes`` the colour counts and peg
    colours tried; ``digits[0] == -1`` if none was found within ``max_nodes`` of them (fewer
    than ``max_nodes`` then means the whole search space held none).
    """
    np.random.seed(seed)
    if with_white and by_counts:
        return _sample_by_counts(hist_digits, hist_counts, hist_blacks, hist_totals, pegs, colours, repeats,
                                 max_nodes, np.empty((0, pegs), dtype=np.uint8), np.zeros(1, dtype=np.int64))
    return _sample_by_pegs(hist_digits, hist_counts, hist_blacks, hist_totals, pegs, colours, with_white, repeats,
                           max_nodes)


@numba.njit(cache=True)
def _code_key(code, colours):
    """The code's index among all codes of its length (its colours as base-``colours`` digits)."""
    key = np.int64(0)
    for p in range(code.shape[0]):
        key = key * colours + code[p]
    return key


@numba.njit(cache=True)
def sample_distinct(hist_digits, hist_counts, hist_blacks, hist_totals, pegs, colours, with_white, repeats, seed,
                    n, max_draws, max_nodes):
    """Up to ``n`` distinct codes that fit every answer, from up to ``max_draws`` searches of
    ``sample_consistent`` (each with budgets doubling from 4096 placements on failure, at most
    ``max_nodes`` placements in all).

    Returns ``(digits, found, nodes, exhausted)``: ``digits[:found]`` (``uint8``) are the codes in
    the order found, ``nodes`` the placements checked, and ``exhausted`` is true when a search
    finished its whole tree without a code (no code fits the answers).
    """
    np.random.seed(seed)
    out = np.empty((n, pegs), dtype=np.uint8)
    seen = set()
    seen.add(np.int64(-1))
    found = 0
    nodes = 0
    draws = 0
    budget = 4096
    while found < n and draws < max_draws and nodes < max_nodes:
        draws += 1
        inner = np.int64(np.random.randint(0, 2**31 - 1))
        code, used = sample_consistent(hist_digits, hist_counts, hist_blacks, hist_totals, pegs, colours, with_white,
                                       repeats, inner, min(budget, max_nodes - nodes))
        nodes += used
        if code[0] < 0:
            if used < min(budget, max_nodes - nodes + used):
                return out[:found], found, nodes, True
            budget *= 2
            continue
        key = _code_key(code, colours)
        if key in seen:
            continue
        seen.add(key)
        for p in range(pegs):
            out[found, p] = code[p]
        found += 1
    return out[:found], found, nodes, False


@numba.njit(cache=True)
def enumerate_consistent(hist_digits, hist_counts, hist_blacks, hist_totals, pegs, colours, repeats, limit,
                         max_nodes):
    """Every code that fits the answers (black and white feedback), by the two-level search of
    ``sample_consistent`` run to the end, if there are at most ``limit`` of them and the search
    checks at most ``max_nodes`` placements.

    Returns ``(digits, complete)``: ``digits`` (``uint8``, in search order) is the whole consistent
    set when ``complete``; otherwise the listing was abandoned (too many codes, or the budget).
    """
    np.random.seed(0)
    out = np.empty((limit, pegs), dtype=np.uint8)
    found = np.zeros(1, dtype=np.int64)
    code, nodes = _sample_by_counts(hist_digits, hist_counts, hist_blacks, hist_totals, pegs, colours, repeats,
                                    max_nodes, out, found)
    complete = code[0] == -1 and nodes < max_nodes
    return out[:found[0]], complete


@numba.njit(cache=True)
def draw_consistent(hist_digits, hist_counts, hist_codes, pegs, colours, with_white, repeats, seed, n, max_draws):
    """Up to ``n`` distinct codes that fit every answer, drawn uniformly: uniformly random codes of
    the game are checked against the history (``hist_digits``, ``hist_counts`` as ``uint8``,
    ``hist_codes`` the answers' feedback codes) and the first ``n`` distinct ones that fit are
    kept, a uniformly random subset of the consistent set in random order.

    The draws stop after ``max_draws``, or after an eighth of them when fewer than an eighth of
    ``n`` codes were found (the rate then says the budget would not be enough). Returns
    ``(digits, draws)``, ``digits`` ``uint8`` rows.
    """
    np.random.seed(seed)
    out = np.empty((n, pegs), dtype=np.uint8)
    code = np.empty(pegs, dtype=np.uint8)
    counts = np.zeros(colours, dtype=np.uint8)
    perm = np.arange(colours)
    seen = set()
    seen.add(np.int64(-1))
    found = 0
    draws = 0
    checkpoint = max(1, max_draws // 8)  # (at least one draw before judging the rate)
    while found < n and draws < max_draws:
        if draws == checkpoint and 8 * found < n:
            break
        draws += 1
        counts[:] = 0
        for p in range(pegs):
            if repeats:
                c = np.random.randint(0, colours)
            else:  # a partial Fisher-Yates shuffle: the first pegs of a random permutation
                j = np.random.randint(p, colours)
                c = perm[j]
                perm[j] = perm[p]
                perm[p] = c
            code[p] = c
            counts[c] += 1
        if not fits_history(code, counts, hist_digits, hist_counts, hist_codes, with_white):
            continue
        key = _code_key(code, colours)
        if key in seen:
            continue
        seen.add(key)
        out[found] = code
        found += 1
    return out[:found], draws
