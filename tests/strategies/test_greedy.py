"""Singley's greedy methods: worst cases, bad games, large games. (The scripts against the whole-space
kernels: tests/experiments/test_evaluation_kernels.py, where ``evaluate`` reads the kernels.)"""

import pytest

from mmlab.errors import BadArgument
from mmlab.experiments import evaluate, play_game
from mmlab.game import Feedback, Game
from mmlab.strategies import make_strategy


def test_greedy1_worst_case_is_mn(game46):
    """003, 4.1: "the worst-case is mn"."""
    assert evaluate(game46, "greedy1").max == 4 * 6


def test_greedy1_reads_black_pegs_only():
    game = Game.parse_size("4x6", feedback="black")
    assert evaluate(game, "greedy1").total_guesses == evaluate(Game.parse_size("4x6"), "greedy1").total_guesses


@pytest.mark.parametrize("spec, game, message", [
    ("greedy2", Game.parse_size("4x2"), "at least 3 colours"),
    ("greedy1", Game.parse_size("4x6", repeats=False), "needs repeated colours"),
    ("tabu", Game.parse_size("4x6", feedback="black"), "answers blacks only"),
])
def test_games_a_method_cannot_play_are_refused(spec, game, message):
    with pytest.raises(BadArgument, match=message):
        make_strategy(spec).start(game)


def test_worst_cases_of_greedy3_and_local_search(game46):
    """003, 4.2 and 4.3: Greedy 3 needs at most (m - 1) + n(n + 1)/2 - 1 guesses here, as its last
    stone is deduced and at most the remaining colours of a stone are tried; the local search
    at most (m - 1) + 1 + n(n - 1)/2 (the initial solution, then each pair once)."""
    assert evaluate(game46, "greedy3").known.max() == 5 + 10 - 1
    assert evaluate(game46, "greedy3:lost_bull=use").known.max() < 5 + 10 - 1
    assert evaluate(game46, "local-search").max == 5 + 1 + 6


@pytest.mark.parametrize("spec", ["greedy1", "greedy2", "greedy3", "local-search"])
def test_plays_10x20_without_enumerating(spec):
    game = Game.parse_size("10x20")
    secret = game.index_of([19, 0, 5, 5, 7, 12, 3, 19, 1, 0])
    record = play_game(game, make_strategy(spec), secret)
    assert record.won and record.guesses[-1] == secret
    assert record.n_guesses <= 10 * 20


def test_colour_counting_keeps_the_colours_found_on_the_right_in_descending_order(game46):
    """003, 4.2 (Singley's preprocessing), by hand for secret 3616: 1111 finds one 1, 2221 no 2,
    3331 one 3, then 4431 and 5531 (the 3 and the 1 found, descending, on the right); 6 is what is
    left. The local search then starts from the colours in descending order, 6631."""
    moves = ["1111", "2221", "3331", "4431", "5531"]
    for spec, then in (("greedy3", None), ("local-search", "6631")):
        record = play_game(game46, make_strategy(spec), game46.parse("3616"))
        guesses = [game46.format(g) for g in record.guesses]
        assert guesses[:5] == moves and (then is None or guesses[5] == then)


@pytest.mark.parametrize("spec", ["greedy3", "local-search"])
def test_a_colour_count_the_answers_cannot_give_is_refused(game46, spec):
    """After 1111 scored 2,0 two stones are 1s, so 2211 (the two 1s kept on the right) scores at
    least two pegs: an answer 0,0 cannot be, and counting on would give -2 twos."""
    from mmlab.errors import InconsistentFeedback
    from mmlab.knowledge import Knowledge

    strategy = make_strategy(spec)
    strategy.start(game46)
    k = Knowledge.initial(game46, explicit=False)
    assert game46.format(strategy.guess(k)) == "1111"
    k = k.update(game46.parse("1111"), Feedback(2, 0))
    assert game46.format(strategy.guess(k)) == "2211"
    with pytest.raises(InconsistentFeedback, match="cannot be: 2 of its stones hold colours already counted"):
        strategy.guess(k.update(game46.parse("2211"), Feedback(0, 0)))


def test_greedy2_stops_testing_once_the_remaining_stones_must_be_colour_1(game46):
    """003, 4.1, by hand for 6111: 1111 scores 3 bulls; 2111..5111 keep 3, so stone 1 is 6 (by
    elimination) and 4 bulls are then accounted for: the other stones are 1s, tested no more, and
    6111 is played as known (5 guesses until known, as the thesis counts)."""
    record = play_game(game46, make_strategy("greedy2"), game46.parse("6111"))
    assert [game46.format(g) for g in record.guesses] == ["1111", "2111", "3111", "4111", "5111", "6111"]
    assert record.known_after == 5
