"""Per-move records of a game: consistent-set sizes and the top scorers each guess came from."""

import math

import numpy as np
import pytest

from mmlab.errors import BadArgument
from mmlab.game import Game
from mmlab.experiments import play_game
from mmlab.strategies import make_strategy


def consistent_count(game: Game, history) -> int:
    """Pure-Python reference: codes that give every answer of ``history``."""
    return sum(all(game.score(c, g) == fb for g, fb in history) for c in range(game.n_codes))


@pytest.mark.parametrize("spec", ["entropy:pool=consistent,ties=random,first=1231", "most-parts:ties=random",
                                  "random", "knuth"])
def test_consistent_sizes_match_a_recount(spec):
    game = Game.parse_size("4x4")
    for secret in (0, 77, 200):
        record = play_game(game, make_strategy(spec), secret, np.random.default_rng(secret))
        history = list(zip(record.guesses, record.feedbacks))
        assert record.consistent == tuple(consistent_count(game, history[:k]) for k in range(record.n_guesses))


def test_top_scorers_of_a_random_tie_strategy():
    game = Game.parse_size("4x6")
    strategy = make_strategy("most-parts:pool=consistent,ties=random,first=1231")
    for secret in range(0, 1296, 97):
        record = play_game(game, strategy, secret, np.random.default_rng(secret))
        # The fixed first guess is a choice of one code.
        assert record.top_sizes[0] == 1 and record.chances[0] == float(record.guesses[0] == secret)
        # The winning guess came from top scorers holding the secret, drawn with chance 1/size.
        assert record.secret_in_top[-1] and math.isclose(record.chances[-1], 1 / record.top_sizes[-1])
        for size, inside, chance, n in zip(record.top_sizes, record.secret_in_top, record.chances, record.consistent):
            assert 1 <= size <= n  # consistent pool: the top scorers are consistent codes
            assert chance == (1 / size if inside else 0.0)


def test_random_draws_from_the_whole_consistent_set():
    game = Game.parse_size("3x4")
    record = play_game(game, make_strategy("random"), 5, np.random.default_rng(0))
    assert record.top_sizes[0] == game.n_codes
    assert record.top_sizes[1:] == record.consistent[1:]
    assert all(record.secret_in_top)  # the secret is always consistent


def test_search_strategies_leave_the_set_figures_unknown():
    game = Game.parse_size("4x6")
    record = play_game(game, make_strategy("shc"), 100, np.random.default_rng(1))
    assert set(record.consistent) == {-1} and set(record.top_sizes) == {-1}
    assert all(math.isnan(c) for c in record.chances)


def test_play_game_takes_a_spec_and_a_written_secret():
    game = Game.parse_size("4x6")
    record = play_game(game, "knuth", "3632")
    assert record.secret == game.parse("3632") and record.n_guesses == 5
    assert record.guesses == play_game(game, make_strategy("knuth"), game.parse("3632")).guesses


def test_a_record_prints_black_only_answers_and_wide_codes_apart():
    """A black-only record printed '111 1,0'; past 9 colours '1 2 3 2,0, 1 3 4 1,0' ran codes and answers together."""
    black = Game.parse_size("3x3", feedback="black")
    assert str(play_game(black, "knuth", "123")).startswith("secret 123: 111 1 black, ")
    wide = str(play_game(Game.parse_size("3x12"), "knuth", "1 1 3"))
    assert wide == "secret 1 1 3: 1 2 3: 2,0; 1 3 4: 1,1; 5 1 6: 1,0; 1 1 3: 3,0"
    assert str(play_game("3x3", "knuth", "321")) == "secret 321: 112 0,2, 231 1,2, 321 3,0"  # (unchanged)


def test_a_guess_that_is_no_code_names_the_strategy_wherever_it_plays():
    """A strategy that returned 99999 in 3x3 ended in 'code index 99999 is outside 0..26 for 3x3',
    whose guess it did not say: in a game, a decision tree (evaluate), against a codemaker or
    simulated, the error now names the strategy, the move and what guess must return."""
    from mmlab.errors import BadCode
    from mmlab.experiments import evaluate, play_against
    from mmlab.strategies import Strategy

    class Out(Strategy):
        name = "out-test"

        def guess(self, knowledge):
            return 99999 if knowledge.history else 0

    class Drawn(Out):
        name = "drawn-test"
        deterministic = False

    out = r"^out-test guessed 99999 at move 2, which is no code of 3x3: guess must return a code index from 0 to 26$"
    for play in (lambda: play_game("3x3", Out(), "123"), lambda: evaluate("3x3", Out()),
                 lambda: play_against("3x3", Out(), "adversary")):
        with pytest.raises(BadCode, match=out):
            play()
    with pytest.raises(BadCode, match=r"^drawn-test guessed 99999 at move 2, which is no code of 3x3"):
        evaluate("3x3", Drawn(), secrets=3, seed=1)

    class Written(Out):
        name = "written-test"

        def guess(self, knowledge):
            return "112"

    with pytest.raises(BadCode, match=r"written-test guessed '112' at move 1, .* \(game\.parse\(text\) gives the index"):
        play_game("3x3", Written(), "123")


def test_a_game_stops_at_max_guesses():
    """Two guesses of Knuth's 1122, 1344 do not find 3632: the game is lost after exactly 2."""
    record = play_game("4x6", "knuth", "3632", max_guesses=2)
    assert record.n_guesses == 2 and not record.won
    assert play_game("4x6", "knuth", "3632", max_guesses=np.int64(5)).won


@pytest.mark.parametrize("limit", [0, -1, 2.5, True, "3"])
def test_a_limit_of_no_guess_is_refused(limit):
    """max_guesses=0 or -1 gave an empty record (helper-115), as play_2d did: a Study refuses them."""
    from mmlab.experiments.playout import play_against
    from mmlab.variants import play_2d

    message = rf"max_guesses must be a whole number of 1 or more \(or None: no limit\), got {limit!r}"
    for play in (lambda: play_game("4x6", "knuth", "3632", max_guesses=limit),
                 lambda: play_against("4x6", "knuth", "fixed:3632", max_guesses=limit),
                 lambda: play_2d("3x4", "tabu", rng=1, max_guesses=limit)):
        with pytest.raises(BadArgument, match=message):
            play()


def test_a_game_lost_against_the_adversary_records_the_first_code_still_consistent():
    """One guess, 111 -> 2,0: the adversary holds no secret, so the record's is the first code
    that fits (111 itself is out: it would have won)."""
    from mmlab.experiments.playout import play_against
    from mmlab.knowledge import Knowledge

    game = Game.parse_size("3x3")
    record = play_against(game, "knuth", "adversary", max_guesses=1)
    assert not record.won and record.n_guesses == 1
    fits = Knowledge.initial(game).update(record.guesses[0], record.feedbacks[0]).consistent
    assert record.secret == fits[0] and fits.size > 1


def test_the_adversary_plays_a_strategy_that_keeps_no_list_of_codes():
    """``sample`` keeps no list of the consistent codes; the adversary still gets one to choose
    its answers from, and the game is won."""
    from mmlab.experiments.playout import play_against

    record = play_against("4x6", "sample", "adversary", rng=0)
    assert record.won and record.n_guesses >= 4
