"""The static-Mastermind kernels called directly, against plain-Python references: ``feedback_row``,
``dense``, ``answer_keys_table`` (exact keys, through the renumbering past 62 bits), ``largest_class``,
``crowded``, ``class_pairs``, and the exhaustive check's last levels ``find_splitter`` and ``last_two``
(the first separating guess, or pair of guesses, in the order searched), each with and without the
feedback table, with and without repeats, with and without white pegs."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from mmlab.game import Game
from mmlab.variants import static_kernels as K
from tests.references import answer_code

# (size, repeats, feedback)
GAMES = [("2x3", True, "black-white"), ("3x3", True, "black-white"), ("2x5", True, "black-white"),
         ("3x4", False, "black-white"), ("3x3", True, "black"), ("4x3", True, "black-white")]
EMPTY = np.empty((0, 0), dtype=np.uint8)


# ----------------------------------------------------------------- pure-Python references
def reference_table(game):
    codes = [list(game.digits(i)) for i in range(game.n_codes)]
    return [[answer_code(s, g, game.with_white) for s in codes] for g in codes]


def reference_dense(keys):
    """Each key's rank among the distinct keys."""
    rank = {v: i for i, v in enumerate(sorted(set(keys)))}
    return [rank[k] for k in keys], len(rank)


def reference_crowded(labels, at_least):
    """The secrets in classes of ``at_least`` or more: larger classes first, then by label (the
    kernel's tie rule), each class's secrets in index order."""
    size = Counter(labels)
    members = [s for s in range(len(labels)) if size[labels[s]] >= at_least]
    return sorted(members, key=lambda s: (-size[labels[s]], labels[s], s))


def separates(labels, rows):
    """Whether the answers to the guesses whose feedback rows are ``rows`` split every class."""
    return len({(labels[s],) + tuple(r[s] for r in rows) for s in range(len(labels))}) == len(labels)


def setup(size, repeats, feedback):
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    return game, reference_table(game), (game.table(), EMPTY)


def random_labels(rng, table, n, most):
    """Dense labels (in order of the answer vectors) of the classes left by up to ``most`` random guesses."""
    guesses = rng.choice(n, size=int(rng.integers(0, most + 1)), replace=False)
    vectors = [tuple(table[g][s] for g in guesses) for s in range(n)]
    labels, k = reference_dense(vectors)
    return np.array(labels, dtype=np.int64), k


# ----------------------------------------------------------------- feedback_row, dense
@pytest.mark.parametrize("size, repeats, feedback", GAMES)
def test_feedback_row_matches_reference_with_and_without_the_table(size, repeats, feedback):
    game, ref, tables = setup(size, repeats, feedback)
    for table in tables:
        out = np.empty(game.n_codes, dtype=np.uint8)
        for g in range(game.n_codes):
            K.feedback_row(g, game.all_digits, game.all_counts, game.with_white, table, out)
            assert out.tolist() == ref[g]


@pytest.mark.parametrize("span", [1, 7, 1000, K.LOOKUP_LIMIT, K.LOOKUP_LIMIT + 1, 2**40, 2**62])
def test_dense_matches_reference_on_both_branches(span):
    """Spans up to ``LOOKUP_LIMIT`` use a lookup table, larger ones a sort."""
    rng = np.random.default_rng(span % 1000)
    for n in (0, 1, 5, 200):
        keys = rng.integers(0, span, size=n, dtype=np.int64)
        if n > 2:
            keys[: n // 3] = keys[-1]  # repeated keys
            keys[0] = span - 1  # the largest possible key
        labels, k = K.dense(keys, span)
        want, want_k = reference_dense(keys.tolist())
        assert labels.tolist() == want and k == want_k


# ----------------------------------------------------------------- answer_keys_table
def reference_answer_keys(vectors, n_resp):
    """The module docstring: each secret's answers as a mixed-radix number in base ``n_resp``,
    renumbered densely (keeping the order) before a guess that could push it past ``KEY_LIMIT``."""
    keys, span = [0] * len(vectors), 1
    for j in range(len(vectors[0]) if vectors else 0):
        if span > K.KEY_LIMIT // n_resp:
            keys, span = reference_dense(keys)
        keys = [key * n_resp + v[j] for key, v in zip(keys, vectors)]
        span *= n_resp
    return keys


@pytest.mark.parametrize("size, repeats, feedback", GAMES + [("2x6", True, "black-white")])
def test_answer_keys_table_matches_reference_past_the_renumbering(size, repeats, feedback):
    game, ref, tables = setup(size, repeats, feedback)
    rng = np.random.default_rng(len(size) + game.n_codes)
    renumbered = False
    for k in (0, 1, 3, 8, 22, 30):
        rows = rng.choice(game.n_codes, size=k, replace=k > game.n_codes)
        vectors = [[ref[g][s] for g in rows] for s in range(game.n_codes)]
        want = reference_answer_keys(vectors, game.n_responses)
        for table in tables:
            keys = K.answer_keys_table(rows.astype(np.int64), game.all_digits, game.all_counts, game.with_white,
                                       game.n_responses, table)
            assert keys.tolist() == want
        # equal keys for equal answer vectors, ordered as the vectors are
        assert sorted(range(game.n_codes), key=lambda s: (want[s], s)) == sorted(range(game.n_codes),
                                                                                 key=lambda s: (vectors[s], s))
        assert len(set(want)) == len(set(map(tuple, vectors)))
        renumbered |= game.n_responses ** max(k - 1, 0) > K.KEY_LIMIT // game.n_responses
    assert renumbered


# ----------------------------------------------------------------- largest_class, crowded, class_pairs
def random_partitions(seed):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        n = int(rng.integers(0, 40))
        raw = rng.integers(0, int(rng.integers(1, 12)), size=n).tolist()
        labels, k = reference_dense(raw)
        yield np.array(labels, dtype=np.int64), k + int(rng.integers(0, 3))  # (some labels may be unused)


def test_largest_class_matches_reference():
    for labels, n_labels in random_partitions(1):
        want = max(Counter(labels.tolist()).values(), default=0)
        assert K.largest_class(labels, n_labels) == want


def test_crowded_matches_reference():
    for labels, n_labels in random_partitions(2):
        for at_least in (1, 2, 3, 5, 41):
            got = K.crowded(labels, n_labels, at_least)
            assert got.tolist() == reference_crowded(labels.tolist(), at_least)


def test_class_pairs_matches_reference():
    for labels, n_labels in random_partitions(3):
        a, b = K.class_pairs(labels, n_labels)
        members = reference_crowded(labels.tolist(), 2)
        want = []
        for label in dict.fromkeys(labels[s] for s in members):  # the classes in that order
            want += combinations(sorted(s for s in members if labels[s] == label), 2)
        assert list(zip(a.tolist(), b.tolist())) == want
        assert len(want) == sum(m * (m - 1) // 2 for m in Counter(labels.tolist()).values())


# ----------------------------------------------------------------- find_splitter, last_two
@pytest.mark.parametrize("size, repeats, feedback", GAMES)
def test_find_splitter_returns_the_first_candidate_that_separates_every_class(size, repeats, feedback):
    game, ref, tables = setup(size, repeats, feedback)
    rng = np.random.default_rng(game.n_codes)
    found = 0
    for _ in range(25):
        labels, n_labels = random_labels(rng, ref, game.n_codes, 5)
        cands = rng.choice(game.n_codes, size=int(rng.integers(0, game.n_codes + 5)))  # any order, repeats
        want = next((int(c) for c in cands if separates(labels.tolist(), [ref[c]])), -1)
        for table in tables:
            got = K.find_splitter(cands.astype(np.int64), labels, n_labels, game.all_digits, game.all_counts,
                                  game.with_white, table, game.n_responses)
            assert got == want
        found += want >= 0
    assert 0 < found < 25


@pytest.mark.parametrize("size, repeats, feedback", GAMES)
def test_last_two_returns_the_first_pair_that_separates_every_class(size, repeats, feedback):
    """``g`` from ``first_cands`` in order, then ``h`` from ``g + 1`` up: the first pair that splits
    every class, from ``last_two`` (pairs of secrets at these sizes) and from ``last_two_scan``."""
    game, ref, tables = setup(size, repeats, feedback)
    n = game.n_codes
    rng = np.random.default_rng(n + 1)
    max_parts = len(game.feedbacks())
    found = 0
    for _ in range(12):
        labels, n_labels = random_labels(rng, ref, n, 3)
        start = int(rng.integers(0, n))  # first guesses late in the order leave few pairs
        first = np.sort(rng.choice(np.arange(start, n), size=int(rng.integers(1, n - start + 1)), replace=False))
        want = next(((int(g), h) for g in first for h in range(g + 1, n)
                     if separates(labels.tolist(), [ref[g], ref[h]])), (-1, -1))
        for table in tables:
            args = (first.astype(np.int64), labels, n_labels, game.all_digits, game.all_counts, game.with_white,
                    table)
            g, h, nodes = K.last_two(*args, game.n_responses, max_parts)
            assert (g, h) == want and nodes >= 1
            g, h, _ = K.last_two_scan(*args, game.n_responses, max_parts)
            assert (g, h) == want
        found += want[0] >= 0
    assert 0 < found < 12
    none = K.last_two(np.empty(0, dtype=np.int64), labels, n_labels, game.all_digits, game.all_counts,
                      game.with_white, EMPTY, game.n_responses, max_parts)
    assert none == (-1, -1, 0)
