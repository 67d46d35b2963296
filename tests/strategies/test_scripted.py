"""Scripted strategies: replaying a history, continuing a game, refusing foreign histories."""

import numpy as np
import pytest

from mmlab.errors import BadArgument, InconsistentFeedback
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies.greedy import Greedy2
from mmlab.strategies.local_search import TabuSearch
from mmlab.trees import DecisionTree


def test_guess_is_a_function_of_the_history(game46):
    """Asking again, or asking a fresh strategy with the same history, gives the same move."""
    s = Greedy2()
    s.start(game46)
    k = Knowledge.initial(game46).update(game46.parse("1111"), Feedback(1, 0))
    k = k.update(game46.parse("2111"), Feedback(1, 0))
    first = s.guess(k)
    assert s.guess(k) == first
    fresh = Greedy2()
    fresh.start(game46)
    assert fresh.guess(k) == first == game46.parse("3111")


def test_tree_of_a_script_matches_its_games(game46):
    """The tree walks histories out of order (depth first), so the script is replayed often."""
    from mmlab.experiments import play_game

    tree = DecisionTree.build(game46, Greedy2())
    for secret in (0, 17, 555, 1295):
        record = play_game(game46, Greedy2(), secret)
        assert record.n_guesses == tree.depths()[secret]
        assert record.known_after == tree.known_depths()[secret]


def test_a_history_the_script_did_not_play_is_refused(game46):
    s = Greedy2()
    s.start(game46)
    k = Knowledge.initial(game46).update(game46.parse("1234"), Feedback(0, 1))
    with pytest.raises(BadArgument, match="would have played 1111 as move 1, not 1234"):
        s.guess(k)


def test_a_random_script_only_continues_its_own_game(game46):
    s = TabuSearch()
    s.start(game46, np.random.default_rng(0))
    k = Knowledge.initial(game46, explicit=False).update(game46.parse("1111"), Feedback(0, 0))
    with pytest.raises(BadArgument, match="draws at random"):
        s.guess(k)


def test_answers_that_contradict_the_deduction_are_reported():
    """Greedy 2 deduces the last stone; when that code is then denied, the answers were wrong."""
    game = Game.parse_size("2x3")
    s = Greedy2()
    s.start(game)
    k = Knowledge.initial(game, explicit=False)
    for guess, fb in (("11", Feedback(0, 0)), ("21", Feedback(0, 0))):  # no 1s, stone 1 not 2: so 3
        assert game.format(s.guess(k)) == guess
        k = k.update(game.parse(guess), fb)
    assert game.format(s.guess(k)) == "32"  # stone 2: colour 2 tested beside the known 3
    k = k.update(game.parse("32"), Feedback(1, 0))
    assert game.format(s.guess(k)) == "33" and s.certain(k, game.parse("33"))
    k = k.update(game.parse("33"), Feedback(1, 0))
    with pytest.raises(InconsistentFeedback, match="cannot all be true"):
        s.guess(k)


def test_a_last_move_the_script_did_not_play_is_refused_midgame(game46):
    """Continuing a game, the last guess of the history must be the move the script made: with
    1111 answered and 1234 (not its 2111) played next, it refuses instead of reading 1234's
    answer as 2111's."""
    s = Greedy2()
    s.start(game46)
    k = Knowledge.initial(game46)
    assert game46.format(s.guess(k)) == "1111"
    k = k.update(game46.parse("1111"), Feedback(1, 0))
    assert game46.format(s.guess(k)) == "2111"
    with pytest.raises(BadArgument, match="would have played 2111 as move 2, not 1234"):
        s.guess(k.update(game46.parse("1234"), Feedback(0, 1)))


def test_a_random_script_asked_again_before_the_answer_repeats_its_move(game46):
    """Asked twice for the same history, a script that draws at random gives the move it made
    (it cannot replay the game to find it)."""
    s = TabuSearch()
    s.start(game46, np.random.default_rng(0))
    k = Knowledge.initial(game46, explicit=False)
    for answer in (Feedback(1, 0), Feedback(0, 1), Feedback(1, 1)):
        move = s.guess(k)
        assert s.guess(k) == move
        k = k.update(move, answer)
