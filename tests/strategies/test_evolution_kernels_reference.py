"""The evolution kernels against plain-Python references: ``code_distance`` directly (with the
played flag), and the randomised kernels (``random_code``, ``crossover``, ``mutate_circular``,
``random_population``, ``evaluate_population``, ``generation``, ``evolve``) replayed draw for draw.

The kernels draw from a SplitMix64 generator that a few lines of Python reproduce (its own
reference is in ``test_rng_kernels.py``), so each reference below follows the docstrings with
the same random numbers, taken in the kernel's order, and must give the same codes, fitness,
counters and generator state. Tests that do not depend on the order of the draws check what the
docstrings promise (the children's pegs come from the parents, one peg moves to the next colour,
survivors stay, the population is uniform)."""

from __future__ import annotations

from collections import Counter
from itertools import product

import numpy as np
import pytest
from scipy.stats import chisquare

from mmlab.strategies import evolution_kernels as ek
from tests.references import SplitMix, answer

# (pegs, colours, repeats, with_white)
GAMES = [(4, 6, True, True), (5, 8, True, True), (4, 8, False, True), (4, 6, True, False), (3, 5, False, True)]


# ----------------------------------------------------------------- pure-Python references
def ref_distance(code, history, kind, w_black, w_white, phase, with_white):
    """The module docstring's distance, and whether ``code`` is one of the guesses (it wins against one)."""
    total = 0
    played = False
    for guess, b, w in history:
        b2, w2 = answer(list(guess), list(code), with_white)
        played = played or b2 == len(code)
        if kind == ek.DIST_BENTO:
            dc, db = abs(b2 + w2 - b - w), abs(b2 - b)
            total += 2 * dc + db if phase == 0 else dc + 2 * db
        else:
            total += w_black * abs(b2 - b) + w_white * abs(w2 - w)
    return total, played


def ref_random_code(rng, pegs, colours, repeats):
    """Uniform colours; without repeats each peg redraws a colour already used."""
    out = []
    for _ in range(pegs):
        c = rng.below(colours)
        while not repeats and c in out:
            c = rng.below(colours)
        out.append(c)
    return out


def ref_two_cuts(rng, pegs):
    if pegs < 2:
        return 0, pegs
    while True:
        i, j = sorted((rng.below(pegs + 1), rng.below(pegs + 1)))
        if 1 <= j - i <= pegs - 1:
            return i, j


def ref_crossover(rng, p1, p2, two_point):
    pegs = len(p1)
    if pegs < 2:
        return list(p1)
    if two_point:
        i, j = ref_two_cuts(rng, pegs)
        return list(p1[:i]) + list(p2[i:j]) + list(p1[j:])
    cut = 1 + rng.below(pegs - 1)
    return list(p1[:cut]) + list(p2[cut:])


def ref_mutate(rng, code, colours):
    """One random peg takes another colour, uniform over the others."""
    j = rng.below(len(code))
    others = [c for c in range(colours) if c != code[j]]
    code[j] = others[rng.below(colours - 1)]


def ref_mutate_circular(rng, code, colours):
    j = rng.below(len(code))
    code[j] = (code[j] + 1) % colours


def ref_permute(rng, code):
    if len(code) < 2:
        return
    i = rng.below(len(code))
    j = [p for p in range(len(code)) if p != i][rng.below(len(code) - 1)]
    code[i], code[j] = code[j], code[i]


def ref_invert(rng, code):
    i, j = ref_two_cuts(rng, len(code))
    code[i:j] = code[i:j][::-1]


def ref_repair(rng, code, colours):
    """A colour already on an earlier peg becomes a random colour the code does not use."""
    if len(set(code)) == len(code):
        return
    present = set(code)
    seen = set()
    for j, c in enumerate(code):
        if c in seen:
            r = rng.below(colours)
            while r in present:
                r = rng.below(colours)
            present.add(r)
            code[j] = r
            c = r
        seen.add(c)


def ref_berghman_child(rng, p1, p2, colours, repeats):
    child = ref_crossover(rng, p1, p2, rng.unit() >= 0.5)  # one- or two-point, 0.5 each
    if rng.unit() < 0.03:
        ref_mutate(rng, child, colours)
    if rng.unit() < 0.03:
        ref_permute(rng, child)
    if rng.unit() < 0.02:
        ref_invert(rng, child)
    if not repeats:
        ref_repair(rng, child, colours)
    return child


class Search:
    """The history, the distance's parameters, and what the kernels collect (``state``, ``found``, ``best``)."""

    def __init__(self, history, kind, w_black, w_white, phase, with_white, capacity):
        self.history, self.kind, self.w_black, self.w_white = history, kind, w_black, w_white
        self.phase, self.with_white, self.capacity = phase, with_white, capacity
        self.evals, self.found, self.best_d, self.best = 0, [], ek.NO_BEST, None

    def evaluate(self, code):
        d, played = ref_distance(code, self.history, self.kind, self.w_black, self.w_white, self.phase,
                                 self.with_white)
        self.evals += 1
        if d == 0 and list(code) not in self.found and len(self.found) < self.capacity:
            self.found.append(list(code))
        if not played and d < self.best_d:
            self.best_d, self.best = d, list(code)
        return d


def ref_evaluate_population(pop, fit, search, target):
    for i in range(len(pop)):
        fit[i] = search.evaluate(pop[i])
        if len(search.found) >= target:
            return True
    return False


def ref_generation(rng, scheme, pop, fit, colours, repeats, search, target, elite, pool):
    """``generation``'s docstring, on lists changed in place."""
    n = len(pop)
    order = sorted(range(n), key=lambda i: fit[i])  # (a stable sort)
    if scheme == ek.SCHEME_BERGHMAN:
        half = max(1, min(n, pool)) if pool > 0 else max(1, n // 2)
        elite = min(elite, n)
        new = [list(pop[order[k]]) for k in range(elite)]
        new_fit = [fit[order[k]] for k in range(elite)]
        for _ in range(elite, n):
            p1 = pop[order[rng.below(half)]]
            p2 = pop[order[rng.below(half)]]
            child = ref_berghman_child(rng, p1, p2, colours, repeats)
            if child in new:
                child = ref_random_code(rng, len(child), colours, repeats)
            new.append(child)
            new_fit.append(search.evaluate(child))
            if len(search.found) >= target:
                return True  # (the old population stays)
        pop[:] = new
        fit[:] = new_fit
        return False
    keep = n - n // 2
    for s in range(keep, n):
        slot = order[s]
        p1 = pop[order[min(rng.below(keep), rng.below(keep))]]  # binary tournament among the survivors
        if scheme == ek.SCHEME_MERELO:
            r = rng.unit()
            if r < 0.4:
                p2 = pop[order[min(rng.below(keep), rng.below(keep))]]
                child = ref_crossover(rng, p1, p2, True)
            elif r < 0.8:
                child = list(p1)
                ref_mutate_circular(rng, child, colours)
            else:
                child = list(p1)
                ref_permute(rng, child)
            if not repeats:
                ref_repair(rng, child, colours)
        else:
            p2 = pop[order[min(rng.below(keep), rng.below(keep))]]
            child = ref_berghman_child(rng, p1, p2, colours, repeats)
        pop[slot] = child
        fit[slot] = search.evaluate(child)
        if len(search.found) >= target:
            return True
    return False


def ref_evolve(seed, scheme, pop, fit, evaluate_first, max_generations, reset_after, colours, repeats, search,
               target, elite, pool, extend):
    rng = SplitMix(seed)
    if evaluate_first and ref_evaluate_population(pop, fit, search, target):
        return 0
    g = barren = 0
    while g < max_generations or (not search.found and g < max_generations + extend):
        before = len(search.found)
        stop = ref_generation(rng, scheme, pop, fit, colours, repeats, search, target, elite, pool)
        g += 1
        if stop:
            return g
        barren = 0 if len(search.found) > before else barren + 1
        if reset_after > 0 and barren >= reset_after and not search.found:
            for i in range(len(pop)):
                pop[i] = ref_random_code(rng, len(pop[i]), colours, repeats)
            barren = 0
            if ref_evaluate_population(pop, fit, search, target):
                return g
    return g


# ----------------------------------------------------------------- helpers
def random_history(rng, pegs, colours, repeats, with_white, k):
    secret = (rng.permutation(colours)[:pegs] if not repeats else rng.integers(colours, size=pegs)).tolist()
    out = []
    for _ in range(k):
        guess = rng.integers(colours, size=pegs).tolist()
        out.append((guess, *answer(guess, secret, with_white)))
    return out, secret


def kernel_history(history, pegs, colours):
    digits = np.array([g for g, _, _ in history], dtype=np.uint8).reshape(len(history), pegs)
    counts = np.array([np.bincount(g, minlength=colours) for g in digits], dtype=np.uint8)
    blacks = np.array([b for _, b, _ in history], dtype=np.int64)
    whites = np.array([w for _, _, w in history], dtype=np.int64)
    return digits, counts.reshape(len(history), colours), blacks, whites


def fresh_state(capacity, pegs):
    state = np.zeros(ek.N_STATE, dtype=np.int64)
    state[ek.S_BEST] = ek.NO_BEST
    return np.zeros((capacity, pegs), dtype=np.uint8), state, np.zeros(pegs, dtype=np.uint8)


def assert_collected(found, state, best, search):
    assert state[ek.S_EVALS] == search.evals
    assert state[ek.S_FOUND] == len(search.found)
    assert found[:len(search.found)].tolist() == search.found
    assert state[ek.S_BEST] == search.best_d
    if search.best is not None:
        assert best.tolist() == search.best


def cases(seed, n_cases):
    """Games, histories and distance settings, the same in every run."""
    rng = np.random.default_rng(seed)
    for t in range(n_cases):
        pegs, colours, repeats, with_white = GAMES[t % len(GAMES)]
        history, secret = random_history(rng, pegs, colours, repeats, with_white, int(rng.integers(1, 4)))
        kind = [ek.DIST_MERELO, ek.DIST_BERGHMAN, ek.DIST_BENTO][t % 3]
        phase = int(any(b + w == pegs for _, b, w in history))
        w_black = int(rng.integers(1, 3))
        yield rng, (pegs, colours, repeats, with_white), history, kind, w_black, phase, secret


# ----------------------------------------------------------------- code_distance
def test_code_distance_matches_reference_with_the_played_flag():
    hits = Counter()
    for rng, (pegs, colours, repeats, with_white), history, kind, w_black, phase, secret in cases(1, 60):
        digits, counts, blacks, whites = kernel_history(history, pegs, colours)
        codes = [g for g, _, _ in history] + rng.integers(colours, size=(30, pegs)).tolist()
        for phase_given in (0, 1):  # the kernel takes the phase as given, whatever the history
            for code in codes:
                arr = np.array(code, dtype=np.uint8)
                d, played = ek.code_distance(arr, np.bincount(arr, minlength=colours).astype(np.uint8), digits,
                                             counts, blacks, whites, with_white, kind, w_black, 1, phase_given)
                assert (d, played) == ref_distance(code, history, kind, w_black, 1, phase_given, with_white)
                hits[played, d == 0] += 1
    assert hits[True, False] and hits[False, True] and hits[False, False]


# ----------------------------------------------------------------- random_code, random_population
@pytest.mark.parametrize("pegs, colours, repeats", [(4, 6, True), (4, 6, False), (6, 6, False), (1, 3, True),
                                                    (8, 12, False)])
def test_random_code_replays_the_reference(pegs, colours, repeats):
    for seed in range(50):
        rng, ref = ek.new_rng(seed), SplitMix(seed)
        out = np.empty(pegs, dtype=np.uint8)
        used = np.zeros(2 * colours, dtype=np.bool_)
        for _ in range(5):
            ek.random_code(rng, out, colours, repeats, used)
            code = out.tolist()
            assert code == ref_random_code(ref, pegs, colours, repeats) and int(rng[0]) == ref.state
            assert all(0 <= c < colours for c in code) and (repeats or len(set(code)) == pegs)


@pytest.mark.parametrize("pegs, colours, repeats", [(4, 6, True), (4, 8, False), (3, 3, False)])
def test_random_population_replays_the_reference(pegs, colours, repeats):
    for seed in (0, 1, 2**40 + 3, 2**63 - 1):
        pop = ek.random_population(seed, 40, pegs, colours, repeats)
        ref = SplitMix(seed)
        assert pop.dtype == np.uint8 and pop.tolist() == [ref_random_code(ref, pegs, colours, repeats)
                                                          for _ in range(40)]


@pytest.mark.parametrize("pegs, colours, repeats", [(2, 3, True), (3, 4, False), (2, 5, True)])
def test_random_population_is_uniform_over_the_codes(pegs, colours, repeats):
    codes = [c for c in product(range(colours), repeat=pegs) if repeats or len(set(c)) == pegs]
    pop = ek.random_population(12345, 300 * len(codes), pegs, colours, repeats)
    seen = Counter(map(tuple, pop.tolist()))
    assert set(seen) == set(codes)
    assert chisquare([seen[c] for c in codes]).pvalue > 1e-4


# ----------------------------------------------------------------- crossover, mutate_circular
@pytest.mark.parametrize("pegs", [1, 2, 3, 5, 8])
def test_crossover_replays_the_reference(pegs):
    data = np.random.default_rng(pegs)
    for seed in range(60):
        rng, ref = ek.new_rng(seed), SplitMix(seed)
        for two_point in (False, True, True, False):
            p1 = data.integers(9, size=pegs).astype(np.uint8)
            p2 = data.integers(9, size=pegs).astype(np.uint8)
            child = np.empty(pegs, dtype=np.uint8)
            ek.crossover(rng, p1, p2, child, two_point)
            assert child.tolist() == ref_crossover(ref, p1.tolist(), p2.tolist(), two_point)
            assert int(rng[0]) == ref.state


@pytest.mark.parametrize("pegs", [2, 3, 4, 6])
def test_crossover_children_are_the_docstrings_splices(pegs):
    """With parents 00..0 and 11..1 a child shows its cuts: one-point ``p1[:cut] + p2[cut:]`` with
    both parents present, two-point ``p1`` with ``p2``'s segment of 1 to pegs - 1 pegs; every cut occurs."""
    p1, p2 = np.zeros(pegs, dtype=np.uint8), np.ones(pegs, dtype=np.uint8)
    child = np.empty(pegs, dtype=np.uint8)
    rng = ek.new_rng(99)
    one_point = {tuple([0] * cut + [1] * (pegs - cut)) for cut in range(1, pegs)}
    two_point = {tuple([0] * i + [1] * (j - i) + [0] * (pegs - j))
                 for i in range(pegs + 1) for j in range(i + 1, pegs + 1) if j - i <= pegs - 1}
    for two, allowed in ((False, one_point), (True, two_point)):
        seen = set()
        for _ in range(400):
            ek.crossover(rng, p1, p2, child, two)
            seen.add(tuple(child.tolist()))
        assert seen == allowed


@pytest.mark.parametrize("pegs, colours", [(1, 2), (4, 6), (5, 8), (3, 3)])
def test_mutate_circular_replays_the_reference_and_moves_one_peg_to_the_next_colour(pegs, colours):
    data = np.random.default_rng(colours)
    moved, wrapped = set(), 0
    for seed in range(100):
        rng, ref = ek.new_rng(seed), SplitMix(seed)
        code = data.integers(colours, size=pegs).astype(np.uint8)
        code[data.integers(pegs)] = colours - 1  # a peg on the last colour: its next is the first
        for _ in range(3):
            before = code.tolist()
            ek.mutate_circular(rng, code, colours)
            expected = list(before)
            ref_mutate_circular(ref, expected, colours)
            assert code.tolist() == expected and int(rng[0]) == ref.state
            changed = [j for j in range(pegs) if code[j] != before[j]]
            assert len(changed) == 1 and code[changed[0]] == (before[changed[0]] + 1) % colours
            moved.add(changed[0])
            wrapped += int(before[changed[0]] == colours - 1)
    assert moved == set(range(pegs)) and wrapped > 0


# ----------------------------------------------------------------- evaluate_population
def test_evaluate_population_matches_reference_and_stops_at_the_target():
    stops = Counter()
    for rng, (pegs, colours, repeats, with_white), history, kind, w_black, phase, secret in cases(2, 45):
        digits, counts, blacks, whites = kernel_history(history, pegs, colours)
        tries = [secret] + rng.integers(colours, size=(1000, pegs)).tolist()
        consistent = [c for c in tries if ref_distance(c, history, kind, 1, 1, 0, with_white)[0] == 0][:6]
        pop = rng.integers(colours, size=(24, pegs)).tolist() + consistent * 2 + [g for g, _, _ in history]
        order = rng.permutation(len(pop))
        pop = [pop[i] for i in order]
        capacity = int(rng.integers(1, 8))
        target = int(rng.integers(1, capacity + 2))  # sometimes more than can be collected
        arr = np.array(pop, dtype=np.uint8)
        fit = np.full(len(pop), -7, dtype=np.int64)
        found, state, best = fresh_state(capacity, pegs)
        stop = ek.evaluate_population(arr, fit, digits, counts, blacks, whites, with_white, kind, w_black, 1, phase,
                                      found, state, best, target)
        search = Search(history, kind, w_black, 1, phase, with_white, capacity)
        ref_fit = [-7] * len(pop)
        assert stop == ref_evaluate_population(pop, ref_fit, search, target)
        assert fit.tolist() == ref_fit  # members after the stop keep their old fitness
        assert_collected(found, state, best, search)
        assert arr.tolist() == pop
        stops[stop] += 1
    assert stops[True] and stops[False]


# ----------------------------------------------------------------- generation, evolve
SCHEMES = [ek.SCHEME_MERELO, ek.SCHEME_BERGHMAN, ek.SCHEME_BENTO]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_generation_replays_the_reference(scheme):
    outcomes = Counter()
    for rng, (pegs, colours, repeats, with_white), history, kind, w_black, phase, secret in cases(10 + scheme, 30):
        digits, counts, blacks, whites = kernel_history(history, pegs, colours)
        n = int(rng.integers(2, 21))
        pop = ek.random_population(int(rng.integers(2**62)), n, pegs, colours, repeats)
        pop[: n // 3] = pop[0]  # duplicates, as a converging population has
        fit = ek.population_fitness(pop, digits, counts, blacks, whites, with_white, kind, w_black, 1, phase, 0)
        capacity = int(rng.integers(1, 6))
        target = int(rng.integers(1, capacity + 1))
        elite, pool = int(rng.integers(0, 4)), int(rng.integers(0, n + 3))
        ref_pop, ref_fit = pop.tolist(), fit.tolist()
        found, state, best = fresh_state(capacity, pegs)
        search = Search(history, kind, w_black, 1, phase, with_white, capacity)
        seed = int(rng.integers(2**63))
        krng, ref = ek.new_rng(seed), SplitMix(seed)
        scratch, scratch_fit = np.empty_like(pop), np.empty_like(fit)
        for _ in range(4):
            stop = ek.generation(krng, scheme, pop, fit, scratch, scratch_fit, colours, repeats, digits, counts,
                                 blacks, whites, with_white, kind, w_black, 1, phase, found, state, best, target,
                                 elite, pool)
            assert stop == ref_generation(ref, scheme, ref_pop, ref_fit, colours, repeats, search, target, elite,
                                          pool)
            assert pop.tolist() == ref_pop and fit.tolist() == ref_fit and int(krng[0]) == ref.state
            assert_collected(found, state, best, search)
            outcomes[stop] += 1
            if stop:
                break
    assert outcomes[True] and outcomes[False]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_evolve_replays_the_reference_in_calls_of_a_few_generations(scheme):
    generations, steps = Counter(), Counter()
    for rng, (pegs, colours, repeats, with_white), history, kind, w_black, phase, secret in cases(20 + scheme, 24):
        digits, counts, blacks, whites = kernel_history(history, pegs, colours)
        n = int(rng.integers(2, 16))
        pop = ek.random_population(int(rng.integers(2**62)), n, pegs, colours, repeats)
        fit = np.zeros(n, dtype=np.int64)
        evaluate_first = bool(rng.integers(2))
        if not evaluate_first:
            fit[:] = ek.population_fitness(pop, digits, counts, blacks, whites, with_white, kind, w_black, 1, phase,
                                           0)
        capacity = int(rng.integers(1, 6))
        target = int(rng.integers(1, capacity + 1))
        max_generations, reset_after = int(rng.integers(0, 12)), int(rng.integers(0, 4))
        elite, pool, extend = int(rng.integers(0, 3)), int(rng.integers(0, n + 1)), int(rng.integers(0, 6))
        ref_pop, ref_fit = pop.tolist(), fit.tolist()
        found, state, best = fresh_state(capacity, pegs)
        search = Search(history, kind, w_black, 1, phase, with_white, capacity)
        seed = int(rng.integers(2**63))
        krng, progress, step, calls = ek.new_rng(seed), np.zeros(2, dtype=np.int64), int(rng.integers(1, 4)), 0
        while not ek.evolve(krng, scheme, pop, fit, evaluate_first and calls == 0, max_generations, reset_after,
                            colours, repeats, digits, counts, blacks, whites, with_white, kind, w_black, 1, phase,
                            found, state, best, target, elite, pool, extend, progress, step):
            calls += 1
            assert progress[0] == calls * step  # a call that is not the last runs its whole step
        steps[calls > 0] += 1
        ran = int(progress[0])
        assert ran == ref_evolve(seed, scheme, ref_pop, ref_fit, evaluate_first, max_generations, reset_after,
                                 colours, repeats, search, target, elite, pool, extend)
        assert pop.tolist() == ref_pop and fit.tolist() == ref_fit
        assert_collected(found, state, best, search)
        assert ran <= max_generations + extend
        generations[ran == max_generations + extend, len(search.found) >= target] += 1
    assert generations[False, True] and generations[True, False]  # stopped by the target, and by the budget
    assert steps[True] and steps[False]  # searches of several calls, and of one


@pytest.mark.parametrize("scheme", SCHEMES)
def test_generation_keeps_survivors_and_scores_every_child(scheme):
    """Independent of the order of draws: the steady-state schemes keep the better half in place
    (ranks by fitness, ties by position); Berghman's keeps the elite first; every fitness is the
    distance of its code; only children are counted; children of games without repeats repair."""
    for rng, (pegs, colours, repeats, with_white), history, kind, w_black, phase, secret in cases(30 + scheme, 30):
        digits, counts, blacks, whites = kernel_history(history, pegs, colours)
        n = int(rng.integers(2, 21))
        pop = ek.random_population(int(rng.integers(2**62)), n, pegs, colours, repeats)
        fit = ek.population_fitness(pop, digits, counts, blacks, whites, with_white, kind, w_black, 1, phase, 0)
        before, before_fit = pop.copy(), fit.copy()
        order = sorted(range(n), key=lambda i: before_fit[i])
        found, state, best = fresh_state(n, pegs)
        elite = int(rng.integers(0, 4))
        stop = ek.generation(ek.new_rng(int(rng.integers(2**62))), scheme, pop, fit, np.empty_like(pop),
                             np.empty_like(fit), colours, repeats, digits, counts, blacks, whites, with_white, kind,
                             w_black, 1, phase, found, state, best, n + 1, elite, 0)
        assert not stop  # the target n + 1 cannot be reached by n children
        want = [ref_distance(code, history, kind, w_black, 1, phase, with_white)[0] for code in pop.tolist()]
        assert fit.tolist() == want
        if scheme == ek.SCHEME_BERGHMAN:
            k = min(elite, n)
            assert pop[:k].tolist() == before[order[:k]].tolist() and state[ek.S_EVALS] == n - k
        else:
            keep = order[: n - n // 2]
            assert pop[keep].tolist() == before[keep].tolist() and state[ek.S_EVALS] == n // 2
        assert (pop < colours).all() and (repeats or all(len(set(c)) == pegs for c in pop.tolist()))
