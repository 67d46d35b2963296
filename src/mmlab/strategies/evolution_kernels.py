"""Numba kernels of the evolutionary search for consistent codes (``mmlab.strategies.evolution``):
the distance of codes to consistency with the answers so far, and whole GA generations.

Codes are rows of 0-based colours (``uint8[k, pegs]``); the history is the arrays of
``Knowledge.history_arrays`` with the answers split into ``blacks`` and ``whites`` (``int64``).
A distance is 0 exactly when the code fits every answer; fitness is minimised. The three forms:

- ``DIST_MERELO`` (Bernier et al. 1996 / Merelo et al. 1999): sum over the answers of
  ``w_black * |b' - b| + w_white * |w' - w|`` where ``[b', w']`` is the answer the code would have
  given to that guess; Merelo's weights are 1 and 1.
- ``DIST_BERGHMAN`` (Berghman, Goossens and Leus 2009): ``a * sum |X' - X| + sum |Y' - Y|`` with
  ``a = 1`` (the ``b * P * (i - 1)`` term of their fitness is the same for every code of a turn;
  ``population_fitness`` adds it as ``offset``).
- ``DIST_BENTO``: an approximation of Bento, Pereira and Rosa (1999), whose formula we could not
  read (001 says only that it has one sub-function until all colours are identified and another
  after): ``2 |Δ(b+w)| + |Δb|`` per answer while no answer has ``b + w = pegs``, then
  ``|Δ(b+w)| + 2 |Δb|``.

A code that scores the win against a guess already played is that guess; it is never taken as
the best (fallback) code. Randomness is a SplitMix64 generator seeded by the caller. The
pure-Python reference of the distance is in ``tests/strategies/test_genetic.py``.

>>> h_digits = np.array([[0, 0, 1, 1]], dtype=np.uint8)        # 4x6: 1122 scored [1,1]
>>> h_counts = np.array([[2, 2, 0, 0, 0, 0]], dtype=np.uint8)
>>> codes = np.array([[0, 1, 2, 3], [0, 0, 1, 1]], dtype=np.uint8)
>>> population_fitness(codes, h_digits, h_counts, np.array([1]), np.array([1]), True,
...                    DIST_MERELO, 1, 1, 0, 0).tolist()     # 1234 fits, 1122 scores [4,0]
[0, 4]
"""

from __future__ import annotations

import numba
import numpy as np

from mmlab.game.kernels import feedback_pair
from mmlab.strategies.rng_kernels import below as _below
from mmlab.strategies.rng_kernels import new_rng
from mmlab.strategies.rng_kernels import unit as _unit

DIST_MERELO = 0
DIST_BERGHMAN = 1
DIST_BENTO = 2

SCHEME_MERELO = 0  # steady state: the worse half replaced by offspring of the better half
SCHEME_BERGHMAN = 1  # generational: a whole new population from parents of the better half
SCHEME_BENTO = 2  # steady state with Berghman's operator set (our approximation)

# Merelo et al. 1999: operator priorities 2 (crossover), 1 (circular mutation), 2 (transposition)
# "normalised" to 40% / 40% / 20% in the text; we take the percentages as printed.
MERELO_CROSSOVER = 0.4
MERELO_MUTATION = 0.4  # the rest (0.2) is transposition
# Berghman et al. 2009: one- or two-point crossover (0.5 each), then mutation 0.03,
# permutation 0.03, inversion 0.02.
BERGHMAN_ONE_POINT = 0.5
BERGHMAN_MUTATION = 0.03
BERGHMAN_PERMUTATION = 0.03
BERGHMAN_INVERSION = 0.02

# Slots of the ``state`` array shared by the kernels.
S_EVALS = 0  # fitness computations so far
S_FOUND = 1  # distinct consistent codes collected in ``found``
S_BEST = 2  # distance of ``best`` (the fittest code not yet played); large when none
N_STATE = 3
NO_BEST = 2**62


# ----------------------------------------------------------------- fitness
@numba.njit(cache=True, nogil=True)
def code_distance(code, counts, h_digits, h_counts, h_black, h_white, with_white, kind, w_black, w_white, phase):
    """Distance of one code (colours and colour counts) to consistency with every answer, and
    whether the code is one of the guesses played (it scores the win against one of them).

    ``phase`` matters for ``DIST_BENTO`` only: 1 once some answer had ``b + w = pegs``."""
    pegs = code.shape[0]
    total = 0
    played = False
    for k in range(h_digits.shape[0]):
        fb = feedback_pair(h_digits[k], h_counts[k], code, counts, with_white)
        b = fb // (pegs + 1)
        w = fb - b * (pegs + 1)
        if b == pegs:
            played = True
        db = abs(b - h_black[k])
        dw = abs(w - h_white[k])
        if kind == DIST_BENTO:
            dc = abs(b + w - h_black[k] - h_white[k])
            if phase == 0:
                total += 2 * dc + db
            else:
                total += dc + 2 * db
        else:
            total += w_black * db + w_white * dw
    return total, played


@numba.njit(cache=True, nogil=True)
def population_fitness(codes, h_digits, h_counts, h_black, h_white, with_white, kind, w_black, w_white, phase,
                       offset):
    """Fitness (``offset`` + distance, minimised) of every row of ``codes``."""
    n, pegs = codes.shape
    colours = h_counts.shape[1]
    counts = np.zeros(colours, dtype=np.uint8)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        counts[:] = 0
        for j in range(pegs):
            counts[codes[i, j]] += 1
        d, _ = code_distance(codes[i], counts, h_digits, h_counts, h_black, h_white, with_white, kind, w_black,
                             w_white, phase)
        out[i] = offset + d
    return out


# ----------------------------------------------------------------- codes
@numba.njit(cache=True, nogil=True)
def random_code(rng, out, colours, repeats, used):
    """Fill ``out`` with a uniform code (distinct colours when not ``repeats``); ``used`` is
    ``bool[colours]`` (or longer) scratch."""
    pegs = out.shape[0]
    if repeats:
        for j in range(pegs):
            out[j] = _below(rng, colours)
        return
    used[:] = False
    for j in range(pegs):
        c = _unused_colour(rng, colours, used)
        used[c] = True
        out[j] = c


@numba.njit(cache=True, nogil=True, inline="always")
def _unused_colour(rng, colours, used):
    """A uniform colour ``c`` with ``used[c]`` False (at least one must be)."""
    while True:
        c = _below(rng, colours)
        if not used[c]:
            return c


@numba.njit(cache=True, nogil=True)
def repair(rng, code, colours, used):
    """Make the colours of ``code`` distinct: a colour already on an earlier peg is replaced by a
    random colour the code does not use (for games without repeated colours). ``used`` is
    ``bool[2 * colours]`` scratch."""
    pegs = code.shape[0]
    present = used[:colours]
    seen = used[colours:]
    present[:] = False
    dup = False
    for j in range(pegs):
        if present[code[j]]:
            dup = True
        present[code[j]] = True
    if not dup:
        return
    seen[:] = False
    for j in range(pegs):
        c = code[j]
        if seen[c]:
            r = _unused_colour(rng, colours, present)
            present[r] = True
            code[j] = r
            seen[r] = True
        else:
            seen[c] = True


@numba.njit(cache=True, nogil=True, inline="always")
def _same(a, b):
    for j in range(a.shape[0]):
        if a[j] != b[j]:
            return False
    return True


@numba.njit(cache=True, nogil=True)
def _slot_of(code, mask):
    """The first slot of ``code`` in a hash table of ``mask + 1`` slots (FNV-1a over its colours)."""
    h = np.uint64(14695981039346656037)
    for j in range(code.shape[0]):
        h = (h ^ np.uint64(code[j])) * np.uint64(1099511628211)
    return np.int64(h & np.uint64(mask))


@numba.njit(cache=True, nogil=True)
def _held(table, mask, codes, code):
    """Whether ``code`` is one of the rows of ``codes`` that ``table`` holds (their row numbers,
    -1 for a free slot, linear probing)."""
    i = _slot_of(code, mask)
    while table[i] >= 0:
        if _same(codes[table[i]], code):
            return True
        i = (i + 1) & mask
    return False


@numba.njit(cache=True, nogil=True)
def _hold(table, mask, code, row):
    """Put row number ``row``, whose code is ``code``, into ``table``."""
    i = _slot_of(code, mask)
    while table[i] >= 0:
        i = (i + 1) & mask
    table[i] = row


@numba.njit(cache=True, nogil=True)
def _evaluate(code, counts, h_digits, h_counts, h_black, h_white, with_white, kind, w_black, w_white, phase,
              found, state, best):
    """One fitness computation: count it, collect the code if it is consistent and new, keep the
    fittest code not yet played in ``best``. Returns the distance."""
    pegs = code.shape[0]
    counts[:] = 0
    for j in range(pegs):
        counts[code[j]] += 1
    d, played = code_distance(code, counts, h_digits, h_counts, h_black, h_white, with_white, kind, w_black,
                              w_white, phase)
    state[S_EVALS] += 1
    if d == 0:
        n = state[S_FOUND]
        new = True
        for i in range(n):
            if _same(found[i], code):
                new = False
                break
        if new and n < found.shape[0]:
            found[n] = code
            state[S_FOUND] = n + 1
    if not played and d < state[S_BEST]:
        state[S_BEST] = d
        best[:] = code
    return d


# ----------------------------------------------------------------- operators
@numba.njit(cache=True, nogil=True, inline="always")
def _two_cuts(rng, pegs):
    """Two cut points ``0 <= i < j <= pegs`` with ``j - i`` between 1 and ``pegs - 1`` when possible."""
    if pegs < 2:
        return 0, pegs
    while True:
        i = _below(rng, pegs + 1)
        j = _below(rng, pegs + 1)
        if i > j:
            i, j = j, i
        if j - i >= 1 and j - i <= pegs - 1:
            return i, j


@numba.njit(cache=True, nogil=True)
def crossover(rng, p1, p2, child, two_point):
    """One-point (``child = p1[:cut] + p2[cut:]``) or two-point crossover (``p1`` with the segment
    between the cuts taken from ``p2``)."""
    pegs = p1.shape[0]
    child[:] = p1
    if pegs < 2:
        return
    if two_point:
        i, j = _two_cuts(rng, pegs)
        for k in range(i, j):
            child[k] = p2[k]
    else:
        cut = 1 + _below(rng, pegs - 1)
        for k in range(cut, pegs):
            child[k] = p2[k]


@numba.njit(cache=True, nogil=True)
def mutate(rng, code, colours):
    """Replace the colour of one random peg by another colour."""
    j = _below(rng, code.shape[0])
    c = _below(rng, colours - 1)
    code[j] = c if c < code[j] else c + 1


@numba.njit(cache=True, nogil=True)
def mutate_circular(rng, code, colours):
    """Merelo's mutation: the colour of one random peg becomes the next colour (the last wraps)."""
    j = _below(rng, code.shape[0])
    code[j] = (code[j] + 1) % colours


@numba.njit(cache=True, nogil=True)
def permute(rng, code):
    """Swap the colours of two random distinct pegs."""
    pegs = code.shape[0]
    if pegs < 2:
        return
    i = _below(rng, pegs)
    j = _below(rng, pegs - 1)
    if j >= i:
        j += 1
    code[i], code[j] = code[j], code[i]


@numba.njit(cache=True, nogil=True)
def invert(rng, code):
    """Reverse the colours between two random cut points."""
    i, j = _two_cuts(rng, code.shape[0])
    j -= 1
    while i < j:
        code[i], code[j] = code[j], code[i]
        i += 1
        j -= 1


@numba.njit(cache=True, nogil=True)
def _berghman_child(rng, p1, p2, child, colours, repeats, used):
    crossover(rng, p1, p2, child, _unit(rng) >= BERGHMAN_ONE_POINT)
    if _unit(rng) < BERGHMAN_MUTATION:
        mutate(rng, child, colours)
    if _unit(rng) < BERGHMAN_PERMUTATION:
        permute(rng, child)
    if _unit(rng) < BERGHMAN_INVERSION:
        invert(rng, child)
    if not repeats:
        repair(rng, child, colours, used)


# ----------------------------------------------------------------- generations
@numba.njit(cache=True, nogil=True)
def evaluate_population(pop, fit, h_digits, h_counts, h_black, h_white, with_white, kind, w_black, w_white,
                        phase, found, state, best, target):
    """Distances of every member, in order, stopping once ``target`` consistent codes are found.
    Returns whether the search should stop."""
    counts = np.zeros(h_counts.shape[1], dtype=np.uint8)
    for i in range(pop.shape[0]):
        fit[i] = _evaluate(pop[i], counts, h_digits, h_counts, h_black, h_white, with_white, kind, w_black,
                           w_white, phase, found, state, best)
        if state[S_FOUND] >= target:
            return True
    return False


@numba.njit(cache=True, nogil=True)
def generation(rng, scheme, pop, fit, scratch, scratch_fit, colours, repeats, h_digits, h_counts, h_black,
               h_white, with_white, kind, w_black, w_white, phase, found, state, best, target, elite, pool):
    """One whole generation: selection, offspring by the scheme's operators, their fitness.

    ``SCHEME_MERELO``: rank the population; the worse half is replaced by offspring of the better
    half, each made by two-point crossover (40%), circular mutation (40%) or transposition (20%);
    parents are drawn by binary tournament among the survivors (a linear-ranking selection).
    ``SCHEME_BERGHMAN``: a whole new population; parents drawn uniformly from the better half;
    each child by one- or two-point crossover (0.5 each), then mutation (0.03), permutation (0.03)
    and inversion (0.02); a child already in the new population is replaced by a random code.
    ``SCHEME_BENTO``: Merelo's steady state with Berghman's child operators.
    Children of games without repeated colours are repaired. Stops as soon as ``target``
    consistent codes are collected; returns whether it stopped so.
    """
    n, pegs = pop.shape
    counts = np.zeros(colours, dtype=np.uint8)
    used = np.zeros(2 * colours, dtype=np.bool_)
    order = np.argsort(fit, kind="mergesort")
    if scheme == SCHEME_BERGHMAN:
        half = max(1, min(n, pool)) if pool > 0 else max(1, n // 2)
        elite = min(elite, n)
        slots = 1
        while slots < 2 * n:
            slots *= 2
        table = np.full(slots, -1, dtype=np.int64)  # the new population so far, by hash (not a scan: pop=10**6)
        for k in range(elite):  # the fittest codes pass unchanged (fitness known, not counted)
            scratch[k] = pop[order[k]]
            scratch_fit[k] = fit[order[k]]
            _hold(table, slots - 1, scratch[k], k)
        for k in range(elite, n):
            p1 = pop[order[_below(rng, half)]]
            p2 = pop[order[_below(rng, half)]]
            child = scratch[k]
            _berghman_child(rng, p1, p2, child, colours, repeats, used)
            if _held(table, slots - 1, scratch, child):  # already in the new population: a random code instead
                random_code(rng, child, colours, repeats, used)
            _hold(table, slots - 1, child, k)
            scratch_fit[k] = _evaluate(child, counts, h_digits, h_counts, h_black, h_white, with_white, kind,
                                       w_black, w_white, phase, found, state, best)
            if state[S_FOUND] >= target:
                return True
        pop[:] = scratch
        fit[:] = scratch_fit
        return False
    keep = n - n // 2  # survivors: the better half (ranks 0..keep-1)
    for s in range(keep, n):
        slot = order[s]
        child = pop[slot]
        a = _below(rng, keep)
        b = _below(rng, keep)
        p1 = pop[order[min(a, b)]]
        if scheme == SCHEME_MERELO:
            r = _unit(rng)
            if r < MERELO_CROSSOVER:
                c = _below(rng, keep)
                d = _below(rng, keep)
                crossover(rng, p1, pop[order[min(c, d)]], child, True)
            elif r < MERELO_CROSSOVER + MERELO_MUTATION:
                child[:] = p1
                mutate_circular(rng, child, colours)
            else:
                child[:] = p1
                permute(rng, child)
            if not repeats:
                repair(rng, child, colours, used)
        else:
            c = _below(rng, keep)
            d = _below(rng, keep)
            p2 = pop[order[min(c, d)]]
            _berghman_child(rng, p1, p2, child, colours, repeats, used)  # slots of the worse half
        fit[slot] = _evaluate(child, counts, h_digits, h_counts, h_black, h_white, with_white, kind, w_black,
                              w_white, phase, found, state, best)
        if state[S_FOUND] >= target:
            return True
    return False


@numba.njit(cache=True, nogil=True)
def evolve(rng, scheme, pop, fit, evaluate_first, max_generations, reset_after, colours, repeats, h_digits,
           h_counts, h_black, h_white, with_white, kind, w_black, w_white, phase, found, state, best, target,
           elite, pool, extend, progress, step):
    """Run generations until ``target`` consistent codes are collected or ``max_generations`` have
    run, at most ``step`` of them in this call. ``rng``: the generator's state (``new_rng``).
    ``evaluate_first``: compute the fitness of the starting population (counted). With
    ``reset_after > 0`` the population is drawn anew after that many generations without any
    consistent code (Merelo: 15). ``progress``: ``int64[2]``, the generations run so far and the
    barren ones among the last, zeros at the start and kept between calls, so that calls of a few
    generations each run the same search as one call. Returns whether the search is over."""
    n, pegs = pop.shape
    scratch = np.empty((n, pegs), dtype=np.uint8)
    scratch_fit = np.empty(n, dtype=np.int64)
    used = np.zeros(2 * colours, dtype=np.bool_)
    if evaluate_first:
        if evaluate_population(pop, fit, h_digits, h_counts, h_black, h_white, with_white, kind, w_black, w_white,
                               phase, found, state, best, target):
            return True
    g = progress[0]
    stop_at = g + step
    while g < max_generations or (state[S_FOUND] == 0 and g < max_generations + extend):
        if g >= stop_at:
            return False
        before = state[S_FOUND]
        stop = generation(rng, scheme, pop, fit, scratch, scratch_fit, colours, repeats, h_digits, h_counts,
                          h_black, h_white, with_white, kind, w_black, w_white, phase, found, state, best, target,
                          elite, pool)
        g += 1
        progress[0] = g
        if stop:
            return True
        progress[1] = 0 if state[S_FOUND] > before else progress[1] + 1
        if reset_after > 0 and progress[1] >= reset_after and state[S_FOUND] == 0:
            for i in range(n):
                random_code(rng, pop[i], colours, repeats, used)
            progress[1] = 0
            if evaluate_population(pop, fit, h_digits, h_counts, h_black, h_white, with_white, kind, w_black,
                                   w_white, phase, found, state, best, target):
                return True
    return True


@numba.njit(cache=True, nogil=True)
def random_population(seed, n, pegs, colours, repeats):
    """``n`` uniform codes (distinct colours when not ``repeats``)."""
    rng = new_rng(seed)
    out = np.empty((n, pegs), dtype=np.uint8)
    used = np.zeros(2 * colours, dtype=np.bool_)
    for i in range(n):
        random_code(rng, out[i], colours, repeats, used)
    return out


@numba.njit(cache=True, nogil=True)
def partition_scores(codes, colours, with_white):
    """Berghman's score of each of the ``codes`` (consistent codes, distinct): for code ``c``, the
    sum over the other codes ``c'`` of how many of the codes other than ``c`` would give ``c`` the
    answer ``c'`` gives, i.e. the sum of squared class sizes of the partition of the others by
    their answer to ``c``. Smaller is better."""
    n, pegs = codes.shape
    counts = np.zeros((n, colours), dtype=np.uint8)
    for i in range(n):
        for j in range(pegs):
            counts[i, codes[i, j]] += 1
    hist = np.zeros((pegs + 1) * (pegs + 1), dtype=np.int64)
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        hist[:] = 0
        for t in range(n):
            if t != i:
                hist[feedback_pair(codes[i], counts[i], codes[t], counts[t], with_white)] += 1
        s = 0
        for r in range(hist.shape[0]):
            s += hist[r] * hist[r]
        out[i] = s
    return out
