"""The knowledge kernels called directly, against plain-Python references: ``canonical_mask`` and
``block_canonical`` against their docstrings read literally over random symmetries and blocks,
``enumerate_consistent`` (exactly), ``sample_distinct`` and ``draw_consistent`` (every code, the
stopping rules, the draw's uniformity) against the brute-force consistent set of small games."""

from collections import Counter
from itertools import permutations, product

import numpy as np
import pytest
from scipy.stats import chisquare

from mmlab.game import Game
from mmlab.knowledge import kernels
from tests.references import answer

# (pegs, colours, repeats, with_white)
KINDS = [(3, 4, True, True), (4, 5, True, True), (4, 6, False, True), (3, 4, True, False), (4, 5, False, False)]
WHITE_KINDS = [k for k in KINDS if k[3]] + [(5, 4, True, True), (4, 6, True, True)]


# ----------------------------------------------------------------- pure-Python references
def every_code(pegs, colours, repeats):
    return list(product(range(colours), repeat=pegs) if repeats else permutations(range(colours), pegs))


def reference_consistent(codes, answers, with_white):
    """The codes that give every ``(guess, (black, white))`` its answer."""
    return {c for c in codes if all(answer(c, g, with_white) == a for g, a in answers)}


def random_answers(rng, codes, with_white, k, lie=False):
    """``k`` random guesses answered by one random secret (``lie``: each by its own, so that the
    answers often contradict each other)."""
    secret = codes[rng.integers(len(codes))]
    out = []
    for _ in range(k):
        guess = codes[rng.integers(len(codes))]
        answerer = codes[rng.integers(len(codes))] if lie else secret
        out.append((guess, answer(answerer, guess, with_white)))
    return out


def contradiction(pegs):
    """Colour 0 is absent, yet a guess with one peg of another colour gets two blacks."""
    return [((0,) * pegs, (0, 0)), ((0,) * (pegs - 1) + (1,), (2, 0))]


def search_arrays(answers, colours):
    """The history as the constraint-search kernels take it: guesses, colour counts, blacks, totals."""
    digits = np.array([g for g, _ in answers], dtype=np.int64)
    counts = np.array([np.bincount(g, minlength=colours) for g, _ in answers], dtype=np.int64)
    blacks = np.array([b for _, (b, _) in answers], dtype=np.int64)
    totals = np.array([b + w for _, (b, w) in answers], dtype=np.int64)
    return digits, counts, blacks, totals


def history_arrays(answers, pegs, colours):
    """The history as ``fits_history`` takes it: uint8 guesses and counts, the answers' codes."""
    digits = np.array([g for g, _ in answers], dtype=np.uint8).reshape(len(answers), pegs)
    counts = np.array([np.bincount(g, minlength=colours) for g, _ in answers], dtype=np.uint8)
    codes = np.array([b * (pegs + 1) + w for _, (b, w) in answers], dtype=np.int64)
    return digits, counts.reshape(len(answers), colours), codes


def rows(digits):
    return [tuple(int(c) for c in row) for row in digits]


# ----------------------------------------------------------------- canonical_mask, block_canonical
def reference_image(code, perm, cmap, free):
    """The image of ``code`` under the peg permutation and colour map, free colours relabelled to
    the smallest free colours in order of first appearance (the best relabelling)."""
    relabel = {}
    image = []
    for i in range(len(code)):
        c = code[perm[i]]
        if c in free:
            if c not in relabel:
                relabel[c] = free[len(relabel)]
            image.append(relabel[c])
        else:
            image.append(cmap[c])
    return tuple(image)


def random_symmetries(rng, pegs, colours):
    """1-6 symmetries (the identity first): random peg permutations, each with a random bijection
    of a random set of played colours onto itself; the other colours are free (-1 in the map)."""
    played = sorted(rng.choice(colours, size=int(rng.integers(1, colours + 1)), replace=False).tolist())
    free = [c for c in range(colours) if c not in played]
    perms, cmaps = [list(range(pegs))], [[c if c in played else -1 for c in range(colours)]]
    for _ in range(int(rng.integers(0, 6))):
        perms.append(rng.permutation(pegs).tolist())
        image = dict(zip(played, rng.permutation(played).tolist()))
        cmaps.append([image.get(c, -1) for c in range(colours)])
    return perms, cmaps, free


@pytest.mark.parametrize("pegs, colours, repeats", [(3, 3, True), (4, 4, True), (3, 5, True), (4, 6, False),
                                                    (5, 3, True)])
def test_canonical_mask_matches_reference_on_random_symmetries(pegs, colours, repeats):
    game = Game(pegs, colours, repeats=repeats)
    codes = rows(game.all_digits)
    rng = np.random.default_rng(pegs * 100 + colours)
    kept = 0
    for _ in range(12):
        perms, cmaps, free = random_symmetries(rng, pegs, colours)
        rank = np.full(colours, -1, dtype=np.int64)
        rank[free] = np.arange(len(free))
        mask = kernels.canonical_mask(game.all_digits, np.array(perms, dtype=np.int64),
                                      np.array(cmaps, dtype=np.int64), rank, np.array(free, dtype=np.int64))
        expected = [all(reference_image(code, p, m, free) >= code for p, m in zip(perms, cmaps)) for code in codes]
        assert mask.tolist() == expected
        kept += sum(expected)
    assert 0 < kept < 12 * len(codes)  # both outcomes occurred


def test_canonical_mask_of_the_identity_alone_keeps_every_code_without_free_colours():
    game = Game(3, 4)
    identity = np.arange(3, dtype=np.int64)[np.newaxis]
    mask = kernels.canonical_mask(game.all_digits, identity, np.arange(4, dtype=np.int64)[np.newaxis],
                                  np.full(4, -1, dtype=np.int64), np.empty(0, dtype=np.int64))
    assert mask.all()
    # with colours 2 and 3 free, a code is kept when its free colours first appear as 2, then 3
    mask = kernels.canonical_mask(game.all_digits, identity, np.array([[0, 1, -1, -1]], dtype=np.int64),
                                  np.array([-1, -1, 0, 1], dtype=np.int64), np.array([2, 3], dtype=np.int64))
    assert mask.tolist() == [[c for c in code if c >= 2][:2] in ([], [2], [2, 2], [2, 3]) for code in
                             rows(game.all_digits)]


def reference_block_canonical(code, block):
    """The block's colours, in order of first appearance in ``code``, are its smallest ones in order."""
    firsts = []
    for c in code:
        if c in block and c not in firsts:
            firsts.append(c)
    return firsts == sorted(block)[:len(firsts)]


@pytest.mark.parametrize("pegs, colours, repeats", [(3, 4, True), (4, 5, True), (4, 6, False), (2, 6, True)])
def test_block_canonical_matches_reference_on_random_blocks(pegs, colours, repeats):
    game = Game(pegs, colours, repeats=repeats)
    all_rows = rows(game.all_digits)
    rng = np.random.default_rng(pegs * 100 + colours)
    kept = total = 0
    for _ in range(15):
        block = sorted(rng.choice(colours, size=int(rng.integers(0, colours + 1)), replace=False).tolist())
        rank = np.full(colours, -1, dtype=np.int64)
        rank[block] = np.arange(len(block))
        codes = rng.choice(game.n_codes, size=int(rng.integers(1, game.n_codes + 1)))  # any order, repeats
        keep = kernels.block_canonical(game.all_digits, codes.astype(np.int64), rank,
                                       np.array(block, dtype=np.int64))
        expected = [reference_block_canonical(all_rows[i], block) for i in codes]
        assert keep.tolist() == expected
        kept, total = kept + sum(expected), total + len(expected)
    assert 0 < kept < total


# ----------------------------------------------------------------- enumerate_consistent
@pytest.mark.parametrize("pegs, colours, repeats, with_white", WHITE_KINDS)
def test_enumerate_consistent_lists_exactly_the_brute_force_set(pegs, colours, repeats, with_white):
    codes = every_code(pegs, colours, repeats)
    rng = np.random.default_rng(pegs * 100 + colours + repeats)
    sizes = []
    for trial in range(12):
        answers = random_answers(rng, codes, True, int(rng.integers(1, 4)), lie=trial % 4 == 3)
        if trial == 0:
            answers = contradiction(pegs)
        expected = reference_consistent(codes, answers, True)
        sizes.append(len(expected))
        arrays = search_arrays(answers, colours)
        listed, complete = kernels.enumerate_consistent(*arrays, pegs, colours, repeats, len(expected), 10**8)
        assert listed.dtype == np.uint8 and listed.shape == (len(expected), pegs)
        assert complete and sorted(rows(listed)) == sorted(expected)  # each code once
        again, _ = kernels.enumerate_consistent(*arrays, pegs, colours, repeats, len(expected) + 5, 10**8)
        assert np.array_equal(again, listed)  # the search order is fixed (seed 0)
        if expected:  # one more code than the limit: abandoned, with as many codes as the limit
            short, complete = kernels.enumerate_consistent(*arrays, pegs, colours, repeats, len(expected) - 1,
                                                           10**8)
            assert not complete and short.shape[0] == len(expected) - 1 and set(rows(short)) <= expected
    assert 0 in sizes and max(sizes) > 1


def test_enumerate_consistent_without_answers_lists_every_code():
    for pegs, colours, repeats in [(3, 4, True), (4, 5, False)]:
        codes = every_code(pegs, colours, repeats)
        empty = (np.zeros((0, pegs), np.int64), np.zeros((0, colours), np.int64), np.zeros(0, np.int64),
                 np.zeros(0, np.int64))
        listed, complete = kernels.enumerate_consistent(*empty, pegs, colours, repeats, len(codes), 10**8)
        assert complete and sorted(rows(listed)) == sorted(codes)


def test_enumerate_consistent_abandons_a_listing_past_its_budget():
    pegs, colours = 4, 6
    codes = every_code(pegs, colours, True)
    rng = np.random.default_rng(8)
    answers = random_answers(rng, codes, True, 1)
    expected = reference_consistent(codes, answers, True)
    arrays = search_arrays(answers, colours)
    for budget in (1, 10, 100):
        listed, complete = kernels.enumerate_consistent(*arrays, pegs, colours, True, 10**4, budget)
        assert not complete and set(rows(listed)) <= expected and len(set(rows(listed))) == listed.shape[0]
    # a limit of 0 holds only the empty set
    assert not kernels.enumerate_consistent(*arrays, pegs, colours, True, 0, 10**8)[1]


# ----------------------------------------------------------------- sample_distinct
@pytest.mark.parametrize("pegs, colours, repeats, with_white", KINDS)
def test_sample_distinct_finds_distinct_consistent_codes_and_all_of_a_small_set(pegs, colours, repeats, with_white):
    codes = every_code(pegs, colours, repeats)
    rng = np.random.default_rng(pegs * 100 + colours + 10 * repeats + with_white)
    whole = 0
    for trial in range(16):
        answers = random_answers(rng, codes, with_white, int(rng.integers(1, 4)), lie=trial % 4 == 3)
        if trial == 0:
            answers = contradiction(pegs)
        expected = reference_consistent(codes, answers, with_white)
        arrays = search_arrays(answers, colours)
        seed = int(rng.integers(2**31))
        n = len(expected) + 3 if len(expected) <= 30 else 20  # more than there are, or a few of many
        args = (*arrays, pegs, colours, with_white, repeats, seed, n, 100 * n + 500, 10**8)
        digits, found, nodes, exhausted = kernels.sample_distinct(*args)
        got = rows(digits)
        assert digits.dtype == np.uint8 and len(got) == found == len(set(got))
        assert set(got) <= expected
        assert exhausted == (not expected)
        if len(expected) <= 30:
            assert set(got) == expected  # every code of a small set comes out (each search can find it)
            whole += 1
        else:
            assert found == n
        again = kernels.sample_distinct(*args)
        assert np.array_equal(again[0], digits) and again[2] == nodes  # the seed fixes every search
    assert whole >= 3


def test_sample_distinct_keeps_to_its_budgets():
    pegs, colours = 4, 6
    codes = every_code(pegs, colours, True)
    rng = np.random.default_rng(3)
    answers = random_answers(rng, codes, True, 2)
    expected = reference_consistent(codes, answers, True)
    arrays = search_arrays(answers, colours)
    for seed in range(5):
        digits, found, nodes, exhausted = kernels.sample_distinct(*arrays, pegs, colours, True, True, seed, 50, 1,
                                                                  10**8)
        assert found == 1 and set(rows(digits)) <= expected  # one search, one code
        for max_nodes in (1, 7, 40):
            digits, found, nodes, exhausted = kernels.sample_distinct(*arrays, pegs, colours, True, True, seed, 50,
                                                                      10**4, max_nodes)
            assert nodes <= max_nodes and not exhausted and set(rows(digits)) <= expected


# ----------------------------------------------------------------- draw_consistent
@pytest.mark.parametrize("pegs, colours, repeats, with_white", KINDS)
def test_draw_consistent_draws_distinct_consistent_codes_of_the_game(pegs, colours, repeats, with_white):
    codes = every_code(pegs, colours, repeats)
    rng = np.random.default_rng(pegs * 100 + colours + 10 * repeats + with_white)
    for trial in range(12):
        answers = random_answers(rng, codes, with_white, int(rng.integers(0, 3)))
        expected = reference_consistent(codes, answers, with_white)
        hist = history_arrays(answers, pegs, colours)
        seed = int(rng.integers(2**31))
        n = min(len(expected), 25)
        args = (*hist, pegs, colours, with_white, repeats, seed, n, 10**6)
        digits, draws = kernels.draw_consistent(*args)
        got = rows(digits)
        assert digits.dtype == np.uint8 and len(got) == len(set(got)) == n  # 8 n draws suffice here
        assert set(got) <= expected and n <= draws <= 10**6
        again, again_draws = kernels.draw_consistent(*args)
        assert np.array_equal(again, digits) and again_draws == draws
        # asking for every code gives the whole set
        every, _ = kernels.draw_consistent(*hist, pegs, colours, with_white, repeats, seed, len(expected), 10**6)
        assert sorted(rows(every)) == sorted(expected)


def test_draw_consistent_stops_at_an_eighth_of_the_budget_when_the_rate_is_too_low():
    pegs, colours = 4, 6
    codes = every_code(pegs, colours, True)
    assert not reference_consistent(codes, contradiction(pegs), True)
    hist = history_arrays(contradiction(pegs), pegs, colours)
    for max_draws in (1, 7, 8, 9, 80, 1001):
        digits, draws = kernels.draw_consistent(*hist, pegs, colours, True, True, 3, 5, max_draws)
        assert digits.shape == (0, pegs) and draws == max(1, max_draws // 8)
    # a set of 4 codes, 33 asked: even all 4 are fewer than an eighth, so it stops at the checkpoint
    answers = [((0, 0, 1, 1), (2, 2))]
    expected = reference_consistent(codes, answers, True)
    assert len(expected) == 4
    digits, draws = kernels.draw_consistent(*history_arrays(answers, pegs, colours), pegs, colours, True, True, 1,
                                            33, 80_000)
    assert draws == 10_000 and sorted(rows(digits)) == sorted(expected)
    # one code fits and 8 are asked: at the checkpoint (draw 10,000 of 80,000) it has been found, an
    # eighth of 8, which is not fewer than an eighth, so the draws go on to the end of the budget
    answers = [((0, 0, 1, 1), (4, 0))]
    assert reference_consistent(codes, answers, True) == {(0, 0, 1, 1)}
    digits, draws = kernels.draw_consistent(*history_arrays(answers, pegs, colours), pegs, colours, True, True, 1,
                                            8, 80_000)
    assert rows(digits) == [(0, 0, 1, 1)] and draws == 80_000
    # every code fits: at the checkpoint (draw 8) more than an eighth of 16 were found, so it goes on
    empty = history_arrays([], pegs, colours)
    digits, draws = kernels.draw_consistent(*empty, pegs, colours, True, True, 2, 16, 64)
    assert digits.shape == (16, pegs) and 16 <= draws <= 64


@pytest.mark.parametrize("pegs, colours, repeats, with_white", [(4, 6, True, True), (4, 6, False, True),
                                                                (4, 5, True, False)])
def test_draw_consistent_gives_a_uniform_subset_in_uniform_order(pegs, colours, repeats, with_white):
    """The docstring's claim: the first two codes drawn are a uniform ordered pair of the set."""
    codes = every_code(pegs, colours, repeats)
    rng = np.random.default_rng(17)
    for _ in range(200):
        answers = random_answers(rng, codes, with_white, 2)
        expected = sorted(reference_consistent(codes, answers, with_white))
        if 4 <= len(expected) <= 7:
            break
    else:
        pytest.fail("no history with 4-7 consistent codes")
    hist = history_arrays(answers, pegs, colours)
    pairs = Counter()
    runs = 150 * len(expected) * (len(expected) - 1)
    for seed in range(runs):
        digits, _ = kernels.draw_consistent(*hist, pegs, colours, with_white, repeats, seed, 2, 10**6)
        pairs[tuple(rows(digits))] += 1
    assert set(pairs) == set(permutations(expected, 2))
    assert chisquare(list(pairs.values())).pvalue > 1e-4


@pytest.mark.parametrize("repeats", [True, False])
@pytest.mark.parametrize("stones, colours_left", [(1, 3), (2, 4), (3, 5), (4, 4), (2, 6)])
def test_count_weights_share_the_codes_by_the_stones_of_the_next_colour(stones, colours_left, repeats):
    """``_count_weights``: of the codes of ``stones`` pegs over ``colours_left`` colours, the share
    that gives the next colour (here colour 0) ``n`` stones, counted code by code; 0 past what
    the codes allow (one stone a colour without repeats)."""  # (every size here has a code without repeats)
    weights = np.zeros(stones + 1)
    kernels._count_weights(weights, stones, colours_left, repeats)
    codes = every_code(stones, colours_left, repeats)
    counted = np.bincount([code.count(0) for code in codes], minlength=stones + 1)
    assert np.allclose(weights / weights.sum(), counted / counted.sum())
