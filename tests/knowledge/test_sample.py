"""``Knowledge.sample`` and its kernels against brute force: the two-level search (colour counts,
then their arrangement), the one-level search over the pegs, and `random` on 10x20."""

from itertools import permutations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mmlab.experiments import play_game
from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.knowledge import kernels
from mmlab.strategies import make_strategy
from tests.references import answer

KINDS = [("3x4", True, "black-white"), ("4x5", True, "black-white"), ("4x6", False, "black-white"),
         ("3x4", True, "black"), ("4x5", True, "black"), ("4x5", False, "black")]


def reference_consistent(game: Game, answers) -> set[tuple[int, ...]]:
    """Every code of ``game`` that gives each ``(guess digits, (black, white))`` its answer."""
    codes = (product(range(game.colours), repeat=game.pegs) if game.repeats
             else permutations(range(game.colours), game.pegs))
    return {code for code in codes if all(answer(code, g, game.with_white) == fb for g, fb in answers)}


def knowledge_of(game: Game, answers) -> Knowledge:
    """Implicit knowledge (no consistent set kept), so ``sample`` is the only way to a code."""
    k = Knowledge.initial(game, explicit=False)
    for g, fb in answers:
        k = k.update(game.index_of(g), fb)
    return k


def kernel_sample(k: Knowledge, seed: int, by_counts: bool) -> tuple[tuple[int, ...] | None, int]:
    """One search of the kernel with an ample budget: a code, or ``None`` once it proved there is none."""
    game = k.game
    h_digits, h_counts, h_codes = k.history_arrays
    blacks, whites = np.divmod(h_codes, game.pegs + 1)
    code, nodes = kernels.sample_consistent(h_digits.astype(np.int64), h_counts.astype(np.int64), blacks,
                                            blacks + whites, game.pegs, game.colours, game.with_white, game.repeats,
                                            seed, 10**8, by_counts)
    return (None if code[0] < 0 else tuple(int(c) for c in code)), int(nodes)


@st.composite
def histories(draw):
    """A small game and 1-4 answers, each from the secret or (to make contradictions) from another code."""
    size, repeats, feedback = draw(st.sampled_from(KINDS))
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    codes = st.integers(0, game.n_codes - 1).map(lambda i: tuple(game.digits(i)))
    secret = draw(codes)
    answers = []
    for _ in range(draw(st.integers(1, 4))):
        guess = draw(codes)
        answerer = secret if draw(st.booleans()) else draw(codes)
        answers.append((guess, answer(answerer, guess, game.with_white)))
    return game, answers


@settings(max_examples=150, deadline=None)
@given(histories(), st.integers(0, 2**31 - 1))
def test_samples_fit_and_none_when_nothing_fits(case, seed):
    game, answers = case
    expected = reference_consistent(game, answers)
    k = knowledge_of(game, answers)
    for by_counts in (True, False):
        for s in range(seed, seed + 5):
            code, nodes = kernel_sample(k, s, by_counts)
            if expected:
                assert code in expected
            else:
                assert code is None
    code, placements = k.sample(np.random.default_rng(seed))
    assert (code is None) == (not expected) and placements >= 1
    if code is not None:
        assert tuple(game.digits(code)) in expected


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_arrange_finds_an_arrangement_when_one_exists(data):
    pegs, colours = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 4))
    code_st = st.lists(st.integers(0, colours - 1), min_size=pegs, max_size=pegs).map(tuple)
    multiset = data.draw(code_st)
    guesses = data.draw(st.lists(code_st, min_size=1, max_size=4))
    blacks = [data.draw(st.integers(0, pegs)) for _ in guesses]
    counts = np.bincount(multiset, minlength=colours).astype(np.int64)
    h_digits = np.array(guesses, dtype=np.int64)
    h_counts = np.array([np.bincount(g, minlength=colours) for g in guesses], dtype=np.int64)
    peg_order = np.array(data.draw(st.permutations(range(pegs))), dtype=np.int64)
    out = np.full(pegs, -1, dtype=np.int64)
    status, nodes = kernels.arrange(counts, h_digits, h_counts, np.array(blacks, dtype=np.int64), peg_order, out,
                                    10**7)

    def fits(code):
        return all(sum(a == b for a, b in zip(code, g)) == n for g, n in zip(guesses, blacks))

    exists = any(fits(p) for p in set(permutations(multiset)))
    assert status == (1 if exists else 0)
    if exists:
        assert sorted(out.tolist()) == sorted(multiset) and fits(tuple(out.tolist()))


@pytest.mark.parametrize("size, repeats, feedback", [("3x3", True, "black-white"), ("3x4", False, "black-white"),
                                                     ("3x3", True, "black")])
def test_every_consistent_code_comes_out(size, repeats, feedback):
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(30):
        secret, guess = (tuple(game.digits(int(i))) for i in rng.integers(game.n_codes, size=2))
        answers = [(guess, answer(secret, guess, game.with_white))]
        expected = reference_consistent(game, answers)
        if not 2 <= len(expected) <= 12:
            continue
        k = knowledge_of(game, answers)
        seen = {tuple(game.digits(k.sample(rng)[0])) for _ in range(300)}
        assert seen == expected
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("size, repeats, feedback", [("3x3", True, "black-white"), ("3x4", False, "black-white"),
                                                     ("3x3", True, "black")])
def test_without_answers_every_code_is_equally_likely(size, repeats, feedback):
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    k = Knowledge.initial(game, explicit=False)
    rng = np.random.default_rng(11)
    draws = 200 * game.n_codes
    freq = np.bincount([k.sample(rng)[0] for _ in range(draws)], minlength=game.n_codes)
    sd = np.sqrt(200 * (1 - 1 / game.n_codes))
    assert np.all(np.abs(freq - 200) < 5 * sd)


def test_contradiction_on_a_large_game_is_proved_quickly():
    game = Game.parse_size("10x20")
    k = knowledge_of(game, [((0,) * 10, (0, 0)), ((0,) * 9 + (1,), (2, 0))])  # colour 1 is absent: one match at most
    code, placements = k.sample(np.random.default_rng(0))
    assert code is None and placements < 1000


def test_random_plays_10x20_to_the_win():
    game = Game.parse_size("10x20")
    rng = np.random.default_rng(5)
    for _ in range(3):
        secret = game.index_of(rng.integers(game.colours, size=game.pegs))
        record = play_game(game, make_strategy("random"), secret, np.random.default_rng(1))
        assert record.won and record.n_guesses < 20
        k = Knowledge.initial(game, explicit=False)
        for guess, fb in zip(record.guesses, record.feedbacks):
            assert k.is_consistent(guess)  # every guess fitted the answers before it
            k = k.update(guess, fb)
