"""Tabu search: its kernels against brute force, its rules, and games far beyond enumeration."""

from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mmlab.errors import BadArgument, UnknownStrategy
from mmlab.experiments import play_game
from mmlab.game import Game
from mmlab.strategies import make_strategy
from mmlab.strategies.local_search import TabuSearch
from mmlab.strategies.local_search_kernels import count_arrangements, fits_blacks, tabu_walk


def _fitting(counts, hist, blacks):
    """Pure-Python reference: every distinct arrangement of the multiset that fits the blacks."""
    stones = [c for c, k in enumerate(counts) for _ in range(k)]
    out = set()
    for perm in permutations(stones):
        if all(sum(a == b for a, b in zip(perm, g)) == k for g, k in zip(hist, blacks)):
            out.add(perm)
    return sorted(out)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_count_arrangements_matches_brute_force(data):
    pegs = data.draw(st.integers(1, 5))
    colours = data.draw(st.integers(1, 4))
    secret = data.draw(st.lists(st.integers(0, colours - 1), min_size=pegs, max_size=pegs))
    hist = data.draw(st.lists(st.lists(st.integers(0, colours - 1), min_size=pegs, max_size=pegs), max_size=4))
    counts = np.bincount(secret, minlength=colours).astype(np.int64)
    blacks = [sum(a == b for a, b in zip(secret, g)) for g in hist]
    if data.draw(st.booleans()) and hist:  # sometimes answers no arrangement can give
        blacks[0] = (blacks[0] + 1) % (pegs + 1)
    expected = _fitting(counts, hist, blacks)
    h = np.array(hist, dtype=np.int64).reshape(len(hist), pegs)
    found, first, _ = count_arrangements(counts, h, np.array(blacks, dtype=np.int64), 10**6)
    assert found == len(expected)
    if expected:
        assert tuple(first) == expected[0]


def test_tabu_walk_reaches_a_fitting_arrangement_and_keeps_the_multiset():
    rng = np.random.default_rng(3)
    secret = np.array([0, 1, 2, 2, 3, 4], dtype=np.int64)
    hist = np.array([rng.permutation(secret) for _ in range(4)], dtype=np.int64)
    blacks = np.array([(g == secret).sum() for g in hist], dtype=np.int64)
    code = np.sort(secret)
    tabu, state = np.zeros((4, 2), dtype=np.int64), np.zeros(2, dtype=np.int64)
    reached, checks = tabu_walk(code, hist, blacks, tabu, state, 11, 10**6)
    assert reached and checks >= 1
    assert fits_blacks(code, hist, blacks)
    assert sorted(code) == sorted(secret)
    assert 1 <= state[1] <= 4 and all(t[0] < t[1] for t in tabu[: state[1]])


def test_a_tabu_pair_is_swapped_when_the_swap_fits():
    """Aspiration (003, 4.4): the only pair is tabu, but swapping it gives 10, which fits."""
    code = np.array([0, 1], dtype=np.int64)
    hist, blacks = np.array([[1, 0]], dtype=np.int64), np.array([2], dtype=np.int64)
    tabu, state = np.array([[0, 1]], dtype=np.int64), np.array([0, 1], dtype=np.int64)
    assert tabu_walk(code, hist, blacks, tabu, state, 1, 1000) == (True, 1) and list(code) == [1, 0]


@pytest.mark.parametrize("tenure", [1, 2, 3])
def test_the_tabu_list_fills_to_its_tenure(tenure):
    """Nothing fits (5 blacks on 4 pegs), so every swap is a free pair's, and joins the list: after
    50 draws the list holds ``tenure`` pairs."""
    code = np.array([0, 1, 2, 3], dtype=np.int64)
    hist, blacks = np.array([[0, 1, 2, 3]], dtype=np.int64), np.array([5], dtype=np.int64)
    tabu, state = np.zeros((tenure, 2), dtype=np.int64), np.zeros(2, dtype=np.int64)
    reached, checks = tabu_walk(code, hist, blacks, tabu, state, 7, 50)
    assert not reached and checks > tenure and state[1] == tenure


def test_tabu_walk_gives_up_at_once_when_no_pair_can_move():
    # One colour only: no pair of different colours to swap.
    hist, blacks = np.array([[0, 1, 0]], dtype=np.int64), np.array([0], dtype=np.int64)
    code = np.zeros(3, dtype=np.int64)
    tabu, state = np.zeros((1, 2), dtype=np.int64), np.zeros(2, dtype=np.int64)
    assert tabu_walk(code, hist, blacks, tabu, state, 1, 10**12) == (False, 0)
    # Two stones, their only pair tabu and its swap does not fit: stuck for good, no checks counted
    # beyond the draws that tried the swap.
    code = np.array([0, 1], dtype=np.int64)
    hist, blacks = np.array([[0, 1]], dtype=np.int64), np.array([2], dtype=np.int64)
    tabu, state = np.array([[0, 1]], dtype=np.int64), np.array([0, 1], dtype=np.int64)
    reached, checks = tabu_walk(code, hist, blacks, tabu, state, 1, 10**12)
    assert not reached and checks <= 2 and list(code) == [0, 1]


def test_tabu_plays_consistent_codes_only(game46):
    """003, 4.4: the tabu search submits a guess only once it is consistent; the colour tests
    of the first phase are consistent too, the untested stones filled with the colour under test."""
    from mmlab.knowledge import Knowledge

    rng = np.random.default_rng(5)
    deduced = 0
    for secret in rng.choice(game46.n_codes, 40, replace=False):
        record = play_game(game46, make_strategy("tabu"), int(secret), np.random.default_rng(int(secret)))
        k = Knowledge.initial(game46)
        for guess, fb in zip(record.guesses, record.feedbacks):
            assert k.is_consistent(guess)
            k = k.update(guess, fb)
        # A last guess is known (not counted by 003) when the exact search left one arrangement.
        before = Knowledge.initial(game46)
        for guess, fb in zip(record.guesses[:-1], record.feedbacks[:-1]):
            before = before.update(guess, fb)
        assert not record.last_certain or before.n_consistent == 1
        deduced += record.last_certain
    assert deduced > 0


def test_tabu_is_reproducible_from_its_seed(game46):
    games = [play_game(game46, make_strategy("tabu"), 777, np.random.default_rng(9)) for _ in range(2)]
    assert games[0].guesses == games[1].guesses and games[0].evaluations == games[1].evaluations


@pytest.mark.parametrize("size", ["8x12", "10x20"])
def test_tabu_plays_games_too_large_to_enumerate(size):
    game = Game.parse_size(size)
    rng = np.random.default_rng(1)
    secret = game.index_of(rng.integers(game.colours, size=game.pegs))
    record = play_game(game, make_strategy("tabu"), secret, rng)
    assert record.won and record.total_evaluations > 0


@pytest.mark.parametrize("tenure, message", [("7", "tenure=7 is out of range; a 4-stone code has 6 pairs"),
                                             ("9" * 5000, "tenure=9999.*9999 is out of range")])
def test_tenure_out_of_range_is_refused(game46, tenure, message):
    """Too many pairs for the game: refused when the game starts (the pairs depend on the pegs)."""
    with pytest.raises(BadArgument, match=message):
        make_strategy(f"tabu:tenure={tenure}").start(game46)
    with pytest.raises(BadArgument, match="a 2-stone code has 1 pair, so choose 0..1"):
        make_strategy("tabu:tenure=5").start(Game.parse_size("2x2"))


@pytest.mark.parametrize("tenure, message", [("-2", "tenure=-2 is out of range; it must be at least 0"),
                                             ("-1", "tenure=-1 is out of range; it must be at least 0"),
                                             ("many", "tenure='many' should be a whole number .* or n-2"),
                                             ("+3", "tenure='\\+3' should be a whole number"),
                                             ("", "tenure='' should be a whole number")])
def test_tenure_that_no_game_takes_is_refused_when_made(tenure, message):
    """A negative tenure, or one that is no number, is refused when the strategy is made, from a
    spec or from Python, as other parameters out of range are, not only when a game starts."""
    with pytest.raises(UnknownStrategy, match=message):
        make_strategy(f"tabu:tenure={tenure}")
    with pytest.raises(UnknownStrategy, match=message):
        TabuSearch(tenure=tenure)
    if tenure.startswith("-"):
        with pytest.raises(UnknownStrategy, match=message):
            TabuSearch(tenure=int(tenure))


def test_a_stuck_walk_is_recorded_as_a_fallback(game46):
    """With every pair tabu (tenure 6 of 4 stones) the walk gets stuck, and the arrangement the
    exact search found is played: the record says so, as other strategies' fallbacks. A walk that
    cannot move from a code that already fits (2222 after 1111 scored 0) is no fallback."""
    record = play_game(game46, make_strategy("tabu:tenure=6"), "1155", np.random.default_rng(7))
    assert record.won and len(record.fallbacks) == 1
    assert "the tabu walk reached no arrangement fitting the 4 answers" in record.fallbacks[0][1]
    assert "played one an exact search found" in record.fallbacks[0][1]
    record = play_game(game46, make_strategy("tabu"), "2345", np.random.default_rng(0))
    assert [game46.format(g) for g in record.guesses[:2]] == ["1111", "2222"] and record.fallbacks == ()


def test_tenure_zero_and_all_pairs_still_win(game46):
    for tenure in (0, 6):
        record = play_game(game46, make_strategy(f"tabu:tenure={tenure}"), 1000, np.random.default_rng(0))
        assert record.won


@pytest.mark.parametrize("spec, pegs, tenure", [("tabu", 4, 2), ("tabu", 6, 4), ("tabu:tenure=5", 4, 5),
                                                ("tabu:tenure=0", 4, 0)])
def test_the_walk_keeps_tenure_pairs_tabu(monkeypatch, spec, pegs, tenure):
    """003, 4.4: the tabu list holds the n - 2 pairs swapped last (Singley's setting), or the
    tenure given; the walk gets a list of that length."""
    from mmlab.strategies import local_search

    lengths = []
    walk = local_search.tabu_walk
    monkeypatch.setattr(local_search, "tabu_walk", lambda code, digits, blacks, tabu, *rest: lengths.append(
        tabu.shape[0]) or walk(code, digits, blacks, tabu, *rest))
    game = Game.parse_size(f"{pegs}x6")
    secret = game.index_of([c % 6 for c in range(2, 2 + pegs)])
    assert play_game(game, make_strategy(spec), secret, np.random.default_rng(0)).won
    assert lengths and set(lengths) == {tenure}
