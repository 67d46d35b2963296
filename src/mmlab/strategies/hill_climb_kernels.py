"""Numba kernels of the stochastic hill climber (``mmlab.strategies.hill_climb``, 001): induce a
code from the current favourite guess (CFG), draw a random code from the colour pool, and keep
the code tracker, an open-addressing hash set of the codes already examined.

Codes are rows of 0-based colours. Randomness comes from a SplitMix64 generator seeded by the
caller (``seed``), so a game is reproducible from the Generator that drew the seeds. The
pure-Python reference of ``induce`` is in ``tests/strategies/test_hill_climb.py``.

>>> import numpy as np
>>> cfg = np.array([2, 0, 4, 4])                 # 3155 of 001 Figure 2, answer [2,1]
>>> codes = induce_many(cfg, 2, 1, np.arange(6), SEL_FPS, 45, False, False, 1000, 7)
>>> bool(all(((row == cfg).sum() >= 2) for row in codes))   # the two kept pegs stay in place
True
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from mmlab.game.kernels import fits_history
from mmlab.strategies.rng_kernels import below as _below
from mmlab.strategies.rng_kernels import new_rng

SEL_RANDOM = 0  # a mutated peg's colour: uniform over the pool
SEL_FPS = 1  # a mutated peg's colour: fitness proportionate selection (001 section 3.4)

FOUND = 0  # search: a consistent code was found
NEED_SPACE = 1  # search: the tracker is half full; grow it (or freeze it) and call again
EXHAUSTED = 2  # search: ``max_attempts`` candidates drawn without finding a consistent code

EMPTY = -1  # a free slot of the tracker table (keys are >= 0)
BATCH = 16  # candidates drawn ahead in ``search``


@numba.njit(cache=True, nogil=True)
def code_key(digits, colours):
    """The code read as a base-``colours`` number: the tracker's key (the code's index when
    colours may repeat).

    >>> int(code_key(np.array([0, 0, 1, 1]), 6))   # 1122 on 4x6
    7
    """
    key = 0
    for d in digits:
        key = key * colours + d
    return key


@numba.njit(cache=True, nogil=True)
def _slot(key, mask):
    x = np.uint64(key)
    x = (x ^ (x >> np.uint64(33))) * np.uint64(0xFF51AFD7ED558CCD)
    x = x ^ (x >> np.uint64(33))
    return np.int64(x & np.uint64(mask))


_PREFETCH = "llvm.prefetch.p0" if llvm.llvm_version_info >= (15,) else "llvm.prefetch.p0i8"


@intrinsic
def _prefetch(typingctx, array, index):
    """Ask the CPU to bring ``array[index]`` into its cache (LLVM's prefetch, for a read)."""

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, [args[1]])
        pointer = builder.bitcast(pointer, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]), _PREFETCH
        )
        builder.call(function, [pointer, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


@numba.njit(cache=True, nogil=True)
def tracker_add(table, key):
    """Add ``key`` to the hash set ``table`` (length a power of two); True if it was new.

    >>> table = np.full(8, EMPTY, dtype=np.int64)
    >>> bool(tracker_add(table, 7)), bool(tracker_add(table, 7)), int((tracker_grow(table) == 7).sum())
    (True, False, 1)
    """
    mask = table.shape[0] - 1
    i = _slot(key, mask)
    while True:
        v = table[i]
        if v == EMPTY:
            table[i] = key
            return True
        if v == key:
            return False
        i = (i + 1) & mask


@numba.njit(cache=True, nogil=True)
def tracker_has(table, key):
    """Whether ``key`` is in the hash set ``table``."""
    mask = table.shape[0] - 1
    i = _slot(key, mask)
    while True:
        v = table[i]
        if v == key:
            return True
        if v == EMPTY:
            return False
        i = (i + 1) & mask


@numba.njit(cache=True, nogil=True)
def tracker_grow(table):
    """The same set in a table twice as long."""
    out = np.full(2 * table.shape[0], EMPTY, dtype=np.int64)
    for v in table:
        if v != EMPTY:
            tracker_add(out, v)
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def _draw(rng, cum, n):
    """Roulette wheel over cumulative weights ``cum[:n]``: index ``i`` with probability
    proportional to ``cum[i] - cum[i - 1]`` ("a random number between 1 and 366", 001 3.4)."""
    r = _below(rng, cum[n - 1])
    i = 0
    for j in range(n):  # branch-free count: several times faster than stopping at the first
        i += cum[j] <= r
    return i


@numba.njit(cache=True, nogil=True, inline="always")
def _fps_weight(k, p, fps):
    """001 section 3.4, steps 1-5: a colour counted ``k`` times in the CFG and ``p`` times in the
    partial guess weighs 100 - (100 k - 100 p + F p), and at least 1."""
    weight = 100 - (100 * k - 100 * p + fps * p)
    return weight if weight > 0 else 1


@numba.njit(cache=True, nogil=True)
def fps_weights(pool, cfg_counts, partial_counts, fps):
    """The FPS weights of the ``pool`` colours. 001's example: CFG 3155, partial guess 515x, F=45:

    >>> import numpy as np
    >>> fps_weights(np.arange(6), np.array([1, 0, 1, 0, 2, 0]), np.array([1, 0, 0, 0, 2, 0]), 45).tolist()
    [55, 100, 1, 100, 10, 100]
    """
    out = np.empty(pool.shape[0], dtype=np.int64)
    for i in range(pool.shape[0]):
        out[i] = _fps_weight(cfg_counts[pool[i]], partial_counts[pool[i]], fps)
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def _fps_cumulative(pool, cfg_counts, partial_counts, fps, cum):
    """Cumulative FPS weights of the pool colours, in colour order."""
    total = 0
    for i in range(pool.shape[0]):
        total += _fps_weight(cfg_counts[pool[i]], partial_counts[pool[i]], fps)
        cum[i] = total


@numba.njit(cache=True, nogil=True, inline="always")
def _move(rng, cfg, b, w, perm, free, new):
    """Move the pegs ``perm[b:b + w]`` of ``cfg``, in that order, each to a uniform position of
    ``new`` that is free and not its own. False at a dead end (only its own place is free).
    ``free`` is scratch for the free positions, kept in any order."""
    pegs = cfg.shape[0]
    n_free = pegs - b
    for k in range(n_free):
        free[k] = perm[b + k]
    for k in range(b, b + w):
        src = perm[k]
        if n_free == 1 and free[0] == src:
            return False
        while True:  # uniform over the free positions other than src
            r = _below(rng, n_free)
            if free[r] != src:
                break
        new[free[r]] = cfg[src]
        n_free -= 1
        free[r] = free[n_free]
    return True


@numba.njit(cache=True, nogil=True)
def _move_avoiding_same(rng, cfg, b, w, perm, new):
    """``_move``, preferring positions where the CFG has another colour than the moved peg
    (reading O5b of docs/notes/shc-reading.md)."""
    pegs = cfg.shape[0]
    for k in range(b, b + w):
        src = perm[k]
        colour = cfg[src]
        n_free = 0
        n_pref = 0
        for j in range(pegs):
            if new[j] < 0 and j != src:
                n_free += 1
                if cfg[j] != colour:
                    n_pref += 1
        if n_free == 0:
            return False
        use_pref = n_pref > 0
        r = _below(rng, n_pref if use_pref else n_free)
        for j in range(pegs):
            if new[j] < 0 and j != src and (not use_pref or cfg[j] != colour):
                if r == 0:
                    new[j] = colour
                    break
                r -= 1
    return True


@numba.njit(cache=True, nogil=True, inline="always")
def induce(rng, cfg, b, w, pool, selection, fps, per_peg, avoid_same, new, work):
    """001 section 3.1: fill ``new`` with a code induced from ``cfg``, whose answer was [b, w].

    Keep ``b`` random pegs in place; move ``w`` other random pegs, one by one in random order,
    each to a uniform position that is neither its own nor already filled (``avoid_same``: prefer
    positions where the CFG has another colour); start again if a moved peg finds no position.
    The free positions left get colours from ``pool``: uniform (``SEL_RANDOM``) or by FPS weights
    computed once from the kept and moved pegs (``per_peg``: again after each mutated peg).
    ``work`` is scratch of ``2 * pegs + 3 * colours`` int64.
    """
    pegs = cfg.shape[0]
    colours = (work.shape[0] - 2 * pegs) // 3
    perm = work[:pegs]
    while True:
        for i in range(pegs):
            perm[i] = i
            new[i] = -1
        for i in range(b + w):  # a uniform ordered sample of b + w positions: b kept, then w moved
            j = i + _below(rng, pegs - i)
            perm[i], perm[j] = perm[j], perm[i]
        for k in range(b):
            new[perm[k]] = cfg[perm[k]]
        if avoid_same:
            ok = _move_avoiding_same(rng, cfg, b, w, perm, new)
        else:
            ok = _move(rng, cfg, b, w, perm, work[pegs:2 * pegs], new)
        if ok:
            break
    n_pool = pool.shape[0]
    if b + w == pegs:
        return
    if selection == SEL_RANDOM:
        for j in range(pegs):
            if new[j] < 0:
                new[j] = pool[_below(rng, n_pool)]
        return
    cfg_counts = work[2 * pegs:2 * pegs + colours]
    partial = work[2 * pegs + colours:2 * pegs + 2 * colours]
    cum = work[2 * pegs + 2 * colours:2 * pegs + 3 * colours]
    for c in range(colours):
        cfg_counts[c] = 0
        partial[c] = 0
    for j in range(pegs):
        cfg_counts[cfg[j]] += 1
        if new[j] >= 0:
            partial[new[j]] += 1
    _fps_cumulative(pool, cfg_counts, partial, fps, cum)
    for j in range(pegs):
        if new[j] < 0:
            c = pool[_draw(rng, cum, n_pool)]
            new[j] = c
            if per_peg:
                partial[c] += 1
                _fps_cumulative(pool, cfg_counts, partial, fps, cum)


@numba.njit(cache=True, nogil=True)
def induce_many(cfg, b, w, pool, selection, fps, per_peg, avoid_same, n, seed):
    """``n`` codes induced independently by ``induce`` (for tests and for sampling its law)."""
    rng = new_rng(seed)
    pegs = cfg.shape[0]
    colours = max(cfg.max(), pool.max()) + 1
    out = np.empty((n, pegs), dtype=np.int64)
    new = np.empty(pegs, dtype=np.int64)
    work = np.empty(2 * pegs + 3 * colours, dtype=np.int64)
    for i in range(n):
        induce(rng, cfg, b, w, pool, selection, fps, per_peg, avoid_same, new, work)
        out[i] = new
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def _repeats_a_colour(code, counts):
    counts[:] = 0
    for c in code:
        if counts[c] > 0:
            return True
        counts[c] += 1
    return False


@numba.njit(cache=True, nogil=True)
def search(random_code, cfg, b, w, pool, selection, fps, per_peg, avoid_same,
           hist_digits, hist_counts, hist_codes, with_white, repeats, table, filled, recent, tracker, frozen,
           rng, max_attempts):
    """Draw candidates until one fits every answer so far (001 steps 2-3, or step 4 when
    ``random_code``: uniform over ``pool`` ** pegs). With ``tracker``, a candidate already in
    ``table`` is skipped unchecked; every other candidate counts as one evaluation. ``recent``
    (length a power of two) caches keys found in ``table``, so that the codes an induction draws
    again and again are recognised without a cache miss in a large table. A ``frozen`` tracker
    takes no new codes: a candidate not in it is checked and counted each time it is drawn. In a
    game without repeats (``repeats`` false) a candidate that repeats a colour is not a code: it is
    skipped, and counts as an attempt only.

    Returns ``(status, code, evaluations, attempts, filled)``: ``status`` is ``FOUND``,
    ``NEED_SPACE`` (``table`` holds ``filled`` keys and is half full: grow it, or freeze it, and call again) or
    ``EXHAUSTED`` (``max_attempts`` candidates drawn); ``attempts`` counts every candidate drawn.
    The candidates are drawn from the generator state ``rng`` (``rng_kernels.new_rng``), which the
    call moves on: calls that go on with it draw what one longer call would.

    >>> h_digits = np.array([[0, 0, 1, 1]], dtype=np.uint8)       # 4x6: 1122 scored [1,1] (code 6)
    >>> h_counts = np.array([[2, 2, 0, 0, 0, 0]], dtype=np.uint8)
    >>> table, recent = np.full(64, EMPTY, dtype=np.int64), np.full(64, EMPTY, dtype=np.int64)
    >>> tracker_add(table, 7)                                      # the first guess was examined
    True
    >>> status, code, evaluations, attempts, filled = search(
    ...     False, np.array([0, 0, 1, 1]), 1, 1, np.arange(6), SEL_FPS, 45, False, False,
    ...     h_digits, h_counts, np.array([6]), True, True, table, 1, recent, True, False, new_rng(5), 1000)
    >>> status == FOUND, evaluations <= attempts, filled == 1 + evaluations
    (True, True, True)
    """
    pegs = hist_digits.shape[1]
    colours = hist_counts.shape[1]
    batch = np.empty((BATCH, pegs), dtype=np.int64)
    keys = np.empty(BATCH, dtype=np.int64)
    work = np.empty(2 * pegs + 3 * colours, dtype=np.int64)
    code = np.empty(pegs, dtype=np.uint8)
    counts = np.zeros(colours, dtype=np.uint8)
    limit = table.shape[0] // 2
    mask = table.shape[0] - 1
    recent_mask = recent.shape[0] - 1
    evaluations = 0
    attempts = 0
    while attempts < max_attempts:
        if tracker and not frozen and filled >= limit:
            return NEED_SPACE, code, evaluations, attempts, filled
        # Draw a batch first (candidates do not depend on the tracker) and touch their table slots,
        # so that the cache misses of a large tracker overlap instead of queueing one by one.
        n = min(BATCH, max_attempts - attempts)
        if tracker and not frozen:
            n = min(n, limit - filled)
        for t in range(n):
            new = batch[t]
            if random_code:
                for j in range(pegs):
                    new[j] = pool[_below(rng, pool.shape[0])]
            else:
                induce(rng, cfg, b, w, pool, selection, fps, per_peg, avoid_same, new, work)
            keys[t] = code_key(new, colours)
            if tracker:
                _prefetch(table, _slot(keys[t], mask))
        for t in range(n):
            attempts += 1
            new = batch[t]
            if not repeats and _repeats_a_colour(new, counts):
                continue  # not a code of this game
            if tracker:
                key = keys[t]
                i = _slot(key, recent_mask)
                if recent[i] == key:
                    continue
                if frozen:
                    if tracker_has(table, key):
                        recent[i] = key
                        continue
                elif tracker_add(table, key):
                    filled += 1
                else:
                    recent[i] = key
                    continue
            evaluations += 1
            counts[:] = 0
            for j in range(pegs):
                code[j] = new[j]
                counts[new[j]] += 1
            if fits_history(code, counts, hist_digits, hist_counts, hist_codes, with_white):
                return FOUND, code, evaluations, attempts, filled
    return EXHAUSTED, code, evaluations, attempts, filled
