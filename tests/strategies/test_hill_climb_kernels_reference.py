"""The hill climber's kernels against plain-Python references: ``code_key`` (base-``colours``
digits), the code tracker (``tracker_add``, ``tracker_has``, ``tracker_grow``: open addressing with
linear probing, slot for slot, and a Python set), and ``search``, replayed on the same candidates.

``search`` draws its candidates from a SplitMix64 generator (its state from ``new_rng(seed)``):
uniform pool colours (``random_code``, reproduced here in Python) or ``induce`` (whose law is
checked in ``test_hill_climb.py``; ``induce_many`` with the same seed draws the same candidates). The
reference then takes them one by one: skip codes that repeat a colour in a game without repeats,
skip codes the tracker holds, check the others against the answers."""

from __future__ import annotations

from collections import Counter
from itertools import product

import numpy as np
import pytest

from mmlab.game import Game
from mmlab.strategies import hill_climb_kernels as hk
from tests.references import MASK, SplitMix, answer


# ----------------------------------------------------------------- pure-Python references
def ref_key(code, colours):
    return sum(int(d) * colours ** (len(code) - 1 - p) for p, d in enumerate(code))


def ref_slot(key, mask):
    """The tracker's hash: half of MurmurHash3's finaliser, then the low bits."""
    x = key & MASK
    x = ((x ^ (x >> 33)) * 0xFF51AFD7ED558CCD) & MASK
    x ^= x >> 33
    return x & mask


def ref_add(table: list, key: int) -> bool:
    """Linear probing from the key's slot: the first free slot takes it, unless the key comes first."""
    i = ref_slot(key, len(table) - 1)
    while table[i] != hk.EMPTY:
        if table[i] == key:
            return False
        i = (i + 1) % len(table)
    table[i] = key
    return True


def ref_search(candidates, history, with_white, repeats, colours, keys, filled, tracker, frozen, limit,
               max_attempts):
    """``search``'s docstring over a list of candidates; ``keys`` (the tracker, a set) is updated."""
    evaluations = attempts = 0
    for cand in candidates:
        if attempts >= max_attempts:
            break
        if tracker and not frozen and filled >= limit:
            return hk.NEED_SPACE, None, evaluations, attempts, filled
        attempts += 1
        if not repeats and len(set(cand)) < len(cand):
            continue  # not a code of this game: not counted
        if tracker:
            key = ref_key(cand, colours)
            if key in keys:
                continue  # examined before: skipped unchecked
            if not frozen:
                keys.add(key)
                filled += 1
        evaluations += 1
        if all(answer(list(cand), list(g), with_white) == a for g, a in history):
            return hk.FOUND, list(cand), evaluations, attempts, filled
    assert attempts == max_attempts, "too few candidates for the reference"
    return hk.EXHAUSTED, None, evaluations, attempts, filled


def random_candidates(seed, pool, pegs, n):
    rng = SplitMix(seed)
    return [[int(pool[rng.below(len(pool))]) for _ in range(pegs)] for _ in range(n)]


# ----------------------------------------------------------------- code_key
@pytest.mark.parametrize("pegs, colours", [(1, 2), (4, 6), (5, 8), (8, 12), (10, 20)])
def test_code_key_matches_reference_and_the_code_index(pegs, colours):
    rng = np.random.default_rng(pegs * colours)
    codes = rng.integers(colours, size=(200, pegs))
    codes[0], codes[1] = 0, colours - 1  # the smallest and largest keys
    game = Game(pegs, colours)
    for code in codes:
        want = ref_key(code.tolist(), colours)
        assert hk.code_key(code.astype(np.int64), colours) == want
        assert hk.code_key(code.astype(np.uint8), colours) == want
        assert want == game.index_of(code.tolist())  # the code's index when colours may repeat


# ----------------------------------------------------------------- the tracker
@pytest.mark.parametrize("size", [8, 16, 64, 1024])
def test_tracker_add_and_has_match_linear_probing_slot_for_slot(size):
    rng = np.random.default_rng(size)
    for trial in range(10):
        table = np.full(size, hk.EMPTY, dtype=np.int64)
        ref = [hk.EMPTY] * size
        # keys from a small range repeat; a few large keys; up to one free slot left (probes wrap around)
        keys = rng.integers(0, 3 * size, size=2 * size).tolist() + [2**40 + 7, 20**10 - 1, 0]
        members = set()
        for key in keys:
            if len(members) == size - 1:
                break
            assert hk.tracker_add(table, key) == ref_add(ref, key) == (key not in members)
            members.add(key)
            assert table.tolist() == ref
        for key in list(members) + rng.integers(0, 6 * size, size=50).tolist():
            assert hk.tracker_has(table, key) == (key in members)


def test_tracker_grow_rebuilds_the_set_in_a_table_twice_as_long():
    rng = np.random.default_rng(5)
    for size in (2, 8, 64, 512):
        table = np.full(size, hk.EMPTY, dtype=np.int64)
        members = set(rng.integers(0, 10**9, size=size // 2).tolist())
        for key in members:
            hk.tracker_add(table, key)
        grown = hk.tracker_grow(table)
        ref = [hk.EMPTY] * (2 * size)
        for key in table.tolist():  # the old slots in order, each added anew
            if key != hk.EMPTY:
                ref_add(ref, key)
        assert grown.dtype == np.int64 and grown.tolist() == ref
        assert sorted(k for k in grown.tolist() if k != hk.EMPTY) == sorted(members)
        assert all(hk.tracker_has(grown, k) for k in members)
        assert table.shape == (size,)  # the old table is left as it was


# ----------------------------------------------------------------- induce, search
def test_induce_called_directly_draws_what_induce_many_draws():
    """``induce_many`` (whose law ``test_hill_climb.py`` checks) is ``induce`` run on one generator,
    whatever the scratch's colour count (``search`` passes the game's)."""
    rng = np.random.default_rng(3)
    for _ in range(40):
        pegs, colours = int(rng.integers(2, 7)), int(rng.integers(3, 10))
        cfg = rng.integers(colours, size=pegs)
        b = int(rng.integers(pegs + 1))
        w = int(rng.integers(pegs - b + 1))
        if (b, w) == (pegs - 1, 1):
            continue
        pool = np.arange(colours)
        args = (cfg, b, w, pool, int(rng.integers(2)), 45, bool(rng.integers(2)), bool(rng.integers(2)))
        seed = int(rng.integers(2**62))
        many = hk.induce_many(*args, 20, seed)
        state = hk.new_rng(seed)
        new = np.empty(pegs, dtype=np.int64)
        work = np.empty(2 * pegs + 3 * (colours + 4), dtype=np.int64)
        for row in many:
            hk.induce(state, *args, new, work)
            assert new.tolist() == row.tolist()


def history_arrays(history, pegs, colours):
    digits = np.array([g for g, _ in history], dtype=np.uint8).reshape(len(history), pegs)
    counts = np.array([np.bincount(g, minlength=colours) for g in digits], dtype=np.uint8)
    codes = np.array([b * (pegs + 1) + w for _, (b, w) in history], dtype=np.int64)
    return digits, counts.reshape(len(history), colours), codes


# (pegs, colours, repeats, with_white)
GAMES = [(4, 6, True, True), (5, 8, True, True), (4, 6, False, True), (4, 6, True, False), (3, 4, True, True)]
SETTINGS = [  # (tracker, frozen, table slots)
    (False, False, 16), (True, False, 4096), (True, False, 16), (True, True, 64)]


def search_case(rng, pegs, colours, repeats, with_white):
    """A history of 1-4 answers from a random secret (sometimes a contradictory one), a pool, a CFG."""
    codes = [c for c in product(range(colours), repeat=pegs) if repeats or len(set(c)) == pegs]
    secret = list(codes[rng.integers(len(codes))])
    history = []
    for _ in range(int(rng.integers(1, 5))):
        g = list(codes[rng.integers(len(codes))])
        history.append((g, answer(secret, g, with_white)))
    if rng.random() < 0.15:  # colour 0 absent, yet two blacks from a guess with one peg of colour 1
        history = [([0] * pegs, (0, 0)), ([0] * (pegs - 1) + [1], (2, 0))]
    pool = np.flatnonzero(rng.random(colours) < 0.8)
    if pool.shape[0] == 0:
        pool = np.arange(colours)
    cfg, (b, w) = history[int(rng.integers(len(history)))]
    return history, pool.astype(np.int64), np.array(cfg, dtype=np.int64), b, w


@pytest.mark.parametrize("random_code", [True, False])
@pytest.mark.parametrize("tracker, frozen, slots", SETTINGS)
def test_search_replays_the_reference_on_random_games(random_code, tracker, frozen, slots):
    rng = np.random.default_rng([random_code, tracker, frozen, slots])
    statuses = Counter()
    for t in range(40):
        pegs, colours, repeats, with_white = GAMES[t % len(GAMES)]
        history, pool, cfg, b, w = search_case(rng, pegs, colours, repeats, with_white)
        h_digits, h_counts, h_codes = history_arrays(history, pegs, colours)
        table = np.full(slots, hk.EMPTY, dtype=np.int64)
        keys = set()
        for code in rng.integers(colours, size=(int(rng.integers(0, slots // 2 - 1)), pegs)):  # examined before
            key = hk.code_key(code, colours)
            hk.tracker_add(table, key)
            keys.add(int(key))
        filled = len(keys)
        frozen_before = table.copy()
        recent = np.full(16, hk.EMPTY, dtype=np.int64)
        selection, per_peg, avoid_same = int(rng.integers(2)), bool(rng.integers(2)), bool(rng.integers(2))
        seed, max_attempts = int(rng.integers(2**63)), int(rng.integers(1, 3000))
        status, code, evaluations, attempts, new_filled = hk.search(
            random_code, cfg, b, w, pool, selection, 45, per_peg, avoid_same, h_digits, h_counts, h_codes,
            with_white, repeats, table, filled, recent, tracker, frozen, hk.new_rng(seed), max_attempts)
        if random_code:
            candidates = random_candidates(seed, pool, pegs, max_attempts)
        else:
            candidates = hk.induce_many(cfg, b, w, pool, selection, 45, per_peg, avoid_same, max_attempts,
                                        seed).tolist()
        want = ref_search(candidates, history, with_white, repeats, colours, keys, filled, tracker, frozen,
                          slots // 2, max_attempts)
        assert (status, evaluations, attempts, new_filled) == (want[0], *want[2:])
        if status == hk.FOUND:
            assert code.dtype == np.uint8 and code.tolist() == want[1]
        assert sorted(k for k in table.tolist() if k != hk.EMPTY) == sorted(keys)
        if frozen:
            assert np.array_equal(table, frozen_before)
        assert all(k == hk.EMPTY or hk.tracker_has(table, k) for k in recent.tolist())  # caches tracked keys only
        statuses[status] += 1
    assert statuses[hk.FOUND]
    if tracker and not frozen and slots == 16:  # the table is half full after 8 codes
        assert statuses[hk.NEED_SPACE]
    else:
        assert statuses[hk.EXHAUSTED]


def test_search_continues_after_the_tracker_grows():
    """The caller's loop: on ``NEED_SPACE`` grow the table and call again with a fresh seed; every
    code examined is counted once across the calls, as the reference counts on the joined candidates."""
    pegs, colours = 5, 8
    secret = [3, 1, 4, 1, 5]
    history = [(g, answer(secret, g, True)) for g in ([0, 0, 1, 1, 2], [3, 3, 4, 4, 5], [6, 7, 0, 1, 2])]
    h = history_arrays(history, pegs, colours)
    pool = np.arange(colours)
    cfg = np.array(history[1][0], dtype=np.int64)
    b, w = history[1][1]
    table = np.full(8, hk.EMPTY, dtype=np.int64)
    recent = np.full(8, hk.EMPTY, dtype=np.int64)
    keys, filled, grown = set(), 0, 0
    for call in range(200):
        seed = 1000 + call
        status, code, evaluations, attempts, new_filled = hk.search(
            False, cfg, b, w, pool, hk.SEL_FPS, 45, False, False, *h, True, True, table, filled, recent, True,
            False, hk.new_rng(seed), 10**6)
        candidates = hk.induce_many(cfg, b, w, pool, hk.SEL_FPS, 45, False, False, attempts + 16, seed).tolist()
        want = ref_search(candidates, history, True, True, colours, keys, filled, True, False, table.shape[0] // 2,
                          attempts + 16)
        assert (status, evaluations, attempts, new_filled) == (want[0], *want[2:])
        if status == hk.FOUND:
            assert code.tolist() == want[1] and all(answer(code.tolist(), g, True) == a for g, a in history)
            break
        assert status == hk.NEED_SPACE and new_filled == table.shape[0] // 2 == len(keys)
        filled = new_filled
        table = hk.tracker_grow(table)
        grown += 1
    else:
        pytest.fail("no consistent code in 200 calls")
    assert grown >= 3 and sorted(k for k in table.tolist() if k != hk.EMPTY) == sorted(keys)
