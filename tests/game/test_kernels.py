"""The numba kernels against pure-Python references, and the rules' invariants."""

from collections import Counter
from math import log2

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mmlab.game import Feedback, Game
from mmlab.game import kernels
from tests.references import answer


@st.composite
def game_and_codes(draw, k=2):
    pegs = draw(st.integers(1, 10))
    colours = draw(st.integers(2, 36))
    codes = [tuple(draw(st.lists(st.integers(0, colours - 1), min_size=pegs, max_size=pegs))) for _ in range(k)]
    return Game(pegs, colours), codes


@settings(max_examples=300, deadline=None)
@given(game_and_codes())
def test_score_matches_reference_on_every_size(gc):
    game, (secret, guess) = gc
    fb = game.score(game.index_of(secret), game.index_of(guess))
    assert tuple(fb) == answer(secret, guess)


@settings(max_examples=300, deadline=None)
@given(game_and_codes())
def test_feedback_is_symmetric_and_bounded(gc):
    game, (a, b) = gc
    ia, ib = game.index_of(a), game.index_of(b)
    fb = game.score(ia, ib)
    assert fb == game.score(ib, ia)
    assert fb.black + fb.white <= game.pegs
    assert not (fb.black == game.pegs - 1 and fb.white == 1)
    assert game.score(ia, ia) == Feedback(game.pegs, 0)


@st.composite
def small_game(draw):
    pegs = draw(st.integers(1, 5))
    colours = draw(st.integers(2, 7))
    repeats = draw(st.booleans()) or colours < pegs
    feedback = draw(st.sampled_from(["black-white", "black"]))
    return Game(pegs, colours, repeats=repeats, feedback=feedback)


@settings(max_examples=60, deadline=None)
@given(small_game(), st.data())
def test_vector_kernels_match_reference_on_random_games(game, data):
    """``feedback_against``, ``feedback_rows`` and ``feedback_table`` (what every strategy and tree
    uses) against the reference, with and without repeats, with and without white pegs."""
    digits, counts = game.all_digits, game.all_counts
    g = data.draw(st.integers(0, game.n_codes - 1))
    cand = np.arange(game.n_codes, dtype=np.int64)
    row = kernels.feedback_against(digits[g], counts[g], digits, counts, cand, game.with_white)
    table = kernels.feedback_table(digits, counts, game.with_white)
    assert np.array_equal(row, table[g])
    some = [g, 0, game.n_codes - 1]
    assert np.array_equal(kernels.feedback_rows(digits[some], counts[some], digits, counts, game.with_white),
                          table[some])
    for s in range(0, game.n_codes, max(1, game.n_codes // 50)):
        b, w = answer(tuple(digits[s]), tuple(digits[g]))
        expected = b * (game.pegs + 1) + (w if game.with_white else 0)
        assert row[s] == expected


def test_table_only_within_the_memory_budget():
    assert Game(4, 6).table() is not None
    assert Game(5, 8).table() is None  # 1 GiB > the 64 MiB default budget
    assert Game(4, 6).table(budget=1000) is None
    assert Game(4, 6).table(budget=1296**2) is not None  # a table of exactly the budget fits it
    assert Game(4, 6).table(budget=1296**2 - 1) is None


def test_feedback_against_and_table_match_reference():
    game = Game(3, 4)
    digits, counts = game.all_digits, game.all_counts
    table = kernels.feedback_table(digits, counts, True)
    everyone = np.arange(game.n_codes)
    for g in range(game.n_codes):
        row = kernels.feedback_against(digits[g], counts[g], digits, counts, everyone, True)
        assert np.array_equal(row, table[g])
        for s in range(game.n_codes):
            b, w = answer(tuple(digits[s]), tuple(digits[g]))
            assert row[s] == b * 4 + w


def test_black_only_feedback_drops_whites():
    game = Game(4, 6, feedback="black")
    assert game.score(game.parse("1234"), game.parse("4321")) == Feedback(0, 0)
    assert game.score(game.parse("1234"), game.parse("1243")) == Feedback(2, 0)


def reference_stats(game: Game, guess: int, cands) -> tuple[float, float, float, float]:
    parts = Counter(game.score(s, guess) for s in cands)
    sizes = list(parts.values())
    k = len(cands)
    entropy = -sum(n / k * log2(n / k) for n in sizes)
    return max(sizes), sum(n * n for n in sizes), len(sizes), entropy


#: The statistics kernels on the three kinds of game (each kernel passes ``with_white`` on to the feedback).
KINDS_3X5 = [Game(3, 5), Game(3, 5, feedback="black"), Game(3, 5, repeats=False)]


@pytest.mark.parametrize("game", KINDS_3X5, ids=str)
def test_partition_stats_kernels_match_reference(game):
    rng = np.random.default_rng(1)
    cands = np.sort(rng.choice(game.n_codes, 40, replace=False)).astype(np.int64)
    guesses = np.arange(game.n_codes, dtype=np.int64)
    direct = kernels.partition_stats(guesses, cands, game.all_digits, game.all_counts, game.with_white)
    table = kernels.feedback_table(game.all_digits, game.all_counts, game.with_white)
    via_table = kernels.partition_stats_table(guesses, cands, table, game.n_responses)
    assert np.allclose(direct, via_table)
    for g in range(0, game.n_codes, 7):
        assert np.allclose(direct[g], reference_stats(game, g, cands))


@pytest.mark.parametrize("game", KINDS_3X5, ids=str)
def test_serial_twins_histograms_grouping_and_history_checks_match_reference(game):
    """The kernels the test above leaves out: the serial twins of the partition statistics, the
    histograms, the counting sort by answer, and the check of a code against a history."""
    digits, counts = game.all_digits, game.all_counts
    rng = np.random.default_rng(2)
    cands = np.sort(rng.choice(game.n_codes, 50, replace=False)).astype(np.int64)
    guesses = rng.choice(game.n_codes, 20, replace=False).astype(np.int64)
    table = kernels.feedback_table(digits, counts, game.with_white)
    expected = np.array([reference_stats(game, int(g), cands) for g in guesses])
    assert np.allclose(kernels.partition_stats_serial(guesses, cands, digits, counts, game.with_white), expected)
    assert np.allclose(kernels.partition_stats_table_serial(guesses, cands, table, game.n_responses), expected)
    width = (game.pegs + 1) ** 2
    for histograms in (kernels.partition_histograms(guesses, cands, digits, counts, game.with_white),
                       kernels.partition_histograms_serial(guesses, cands, digits, counts, game.with_white)):
        for g, row in zip(guesses, histograms):
            parts = Counter(b * (game.pegs + 1) + w for b, w in (game.score(int(s), int(g)) for s in cands))
            assert row.tolist() == [parts.get(r, 0) for r in range(width)]
    fb = table[guesses[0], cands]
    order, sizes = kernels.group_by_response(fb, game.n_responses)
    assert sizes.tolist() == [int((fb == r).sum()) for r in range(game.n_responses)]
    assert order.tolist() == sorted(range(len(fb)), key=lambda j: fb[j])  # stable: positions ascending within a code
    secret, history = int(cands[0]), [int(g) for g in guesses[:3]]
    answers = np.array([table[g, secret] for g in history], dtype=np.int64)
    fits = [all(table[g, c] == a for g, a in zip(history, answers)) for c in range(game.n_codes)]
    hd, hc = digits[history], counts[history]
    assert [kernels.fits_history(digits[c], counts[c], hd, hc, answers, game.with_white)
            for c in range(game.n_codes)] == fits
    assert kernels.rows_fit_history(digits, game.colours, hd, hc, answers, game.with_white).tolist() == fits
