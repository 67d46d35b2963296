"""``Knowledge.draw_uniform`` (rejection: random codes kept when they fit) and ``random_code``
against brute force: the codes fit, cover the set, and are uniform, which the constraint search's
draws are not."""

import numpy as np
import pytest
from scipy.stats import chisquare

from mmlab.game import Game
from mmlab.knowledge import Knowledge

from test_sample import knowledge_of, reference_consistent
from tests.references import answer

KINDS = [("4x5", True, "black-white"), ("4x6", False, "black-white"), ("4x5", True, "black")]


def random_answers(game: Game, rng: np.random.Generator) -> list:
    """The answers a random secret gives two random guesses, as ``(guess digits, (black, white))``."""
    secret, *guesses = (tuple(game.digits(int(i))) for i in rng.integers(game.n_codes, size=3))
    return [(g, answer(secret, g, game.with_white)) for g in guesses]


@pytest.mark.parametrize("size, repeats, feedback", KINDS)
def test_asking_for_every_code_gives_the_whole_set_once(size, repeats, feedback):
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    rng = np.random.default_rng(2)
    for _ in range(10):
        answers = random_answers(game, rng)
        expected = reference_consistent(game, answers)
        codes, draws = knowledge_of(game, answers).draw_uniform(rng, len(expected), max_draws=10**7)
        assert sorted(map(tuple, codes.tolist())) == sorted(expected)
        assert draws >= len(expected)


@pytest.mark.parametrize("size, repeats, feedback", KINDS)
def test_draws_are_uniform_where_the_constraint_search_is_not(size, repeats, feedback):
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    rng = np.random.default_rng(7)
    # a position whose consistent set the constraint search draws unevenly (it weights each
    # choice by the codes it would leave without the answers)
    for _ in range(50):
        answers = random_answers(game, rng)
        expected = sorted(reference_consistent(game, answers))
        if 10 <= len(expected) <= 40:
            k = knowledge_of(game, answers)
            index = {code: i for i, code in enumerate(expected)}
            searched = np.bincount([index[tuple(game.digits(k.sample(rng)[0]))] for _ in range(300 * len(expected))],
                                   minlength=len(expected))
            if chisquare(searched).pvalue < 1e-6:
                break
    else:
        pytest.skip("no position where the constraint search is visibly uneven")
    drawn = np.bincount([index[tuple(k.draw_uniform(rng, 1)[0][0].tolist())] for _ in range(300 * len(expected))],
                        minlength=len(expected))
    assert chisquare(drawn).pvalue > 1e-4


def test_a_short_budget_gives_fewer_codes():
    game = Game.parse_size("8x12")
    k = Knowledge.initial(game, explicit=False)
    for guess in ("1 1 2 2 3 3 4 4", "5 5 6 6 7 7 8 8", "9 9 10 10 11 11 12 12"):
        k = k.update(game.parse(guess), game.score(game.parse("1 2 3 4 5 6 7 8"), game.parse(guess)))
    codes, draws = k.draw_uniform(np.random.default_rng(0), 1000, max_draws=800)
    assert draws == 100 and codes.shape[0] < 1000 // 8  # stopped at an eighth of the budget
    assert all(k.fits(row) for row in codes)


@pytest.mark.parametrize("budget", [1, 7])
def test_a_budget_under_eight_draws_still_draws(budget):
    """(An eighth of it, the point where the rate is judged, is then under one draw.)"""
    k = Knowledge.initial(Game.parse_size("4x6"), explicit=False)  # every code fits
    codes, draws = k.draw_uniform(np.random.default_rng(0), 1, max_draws=budget)
    assert (codes.shape, draws) == ((1, 4), 1)


def test_random_code_draws_then_lists_then_searches():
    game = Game.parse_size("8x12")
    secret = game.parse("1 2 3 4 5 6 7 8")
    k = Knowledge.initial(game, explicit=False)
    for guess in ("1 1 2 2 3 3 4 4", "5 5 6 6 7 7 8 8", "1 2 3 4 9 9 10 10"):
        k = k.update(game.parse(guess), game.score(secret, game.parse(guess)))
    rng = np.random.default_rng(1)
    code, _, uniform = k.random_code(rng)  # about 2e5 of 4e8 codes fit: rejection finds one
    assert k.is_consistent(code) and uniform
    listed = k.list_consistent(10**6, 10**8)
    code, work, uniform = k.random_code(rng, max_draws=0)  # listed instead
    assert uniform and work == listed.shape[0] and k.is_consistent(code)
    code, _, uniform = k.random_code(rng, max_draws=0, list_limit=10)  # too many to list: searched
    assert not uniform and k.is_consistent(code)


def test_random_code_of_contradictory_answers_says_so():
    """No code fits: the draws find none, the listing lists none, and that is the contradiction
    (not a draw from an empty list)."""
    from mmlab.errors import InconsistentFeedback

    game = Game.parse_size("4x6")
    k = Knowledge.initial(game, explicit=False).update("1111", (0, 0)).update("1112", (2, 0))  # one 2 at most
    with pytest.raises(InconsistentFeedback, match="no code of 4x6 fits these 2 answers"):
        k.random_code(np.random.default_rng(0), max_draws=1000)


def test_random_code_counts_the_placements_of_a_search_that_ran_out(monkeypatch):
    """When neither the draws, the listing nor the search finds a code, the work returned counts the
    placements the search spent (its whole budget, ``SAMPLE_NODES``), as for a search that finds one."""
    from mmlab.knowledge import knowledge as module

    monkeypatch.setattr(module, "SAMPLE_NODES", 5)  # too few placements for 8 pegs
    game = Game.parse_size("8x12")
    k = Knowledge.initial(game, explicit=False).update("1 2 3 4 5 6 7 8", (1, 5))
    assert k.random_code(np.random.default_rng(0), max_draws=0, list_limit=10) == (None, 5, False)
