"""Game sessions with a person, in both roles."""

import pytest

from mmlab.errors import BadArgument, InconsistentFeedback
from mmlab.experiments import play_game
from mmlab.game import Feedback, Game
from mmlab.play import CodebreakerSession, CodemakerSession
from mmlab.strategies import make_strategy
from mmlab.trees import DecisionTree

GAME = Game.parse_size("4x6")


def test_codemaker_plays_the_strategys_game():
    secret = GAME.parse("3632")
    expected = play_game(GAME, make_strategy("knuth"), secret)
    session = CodemakerSession(GAME, "knuth")
    guesses = []
    while not session.won:
        guess = session.next_guess()
        guesses.append(guess)
        session.answer(GAME.score(secret, guess))
    assert tuple(guesses) == expected.guesses


def test_a_contradiction_changes_nothing_and_a_correction_recovers():
    secret = GAME.parse("3632")
    session = CodemakerSession(GAME, "knuth")
    session.answer(Feedback(0, 0))  # wrong: 1122 gets 1,0 from 3632
    with pytest.raises(InconsistentFeedback, match="guess 1: 1122 -> 0,0"):
        while True:
            session.answer(GAME.score(secret, session.next_guess()))
    kept = list(session.answers)
    pending = session.next_guess()
    with pytest.raises(InconsistentFeedback):
        session.answer(GAME.score(secret, pending))
    assert session.answers == kept  # nothing lost, nothing added
    session.correct(1, Feedback(1, 0))
    while not session.won:
        session.answer(GAME.score(secret, session.next_guess()))
    assert session.answers[-1][0] == secret and session.answers[0] == (GAME.parse("1122"), Feedback(1, 0))


def test_a_tree_that_cannot_follow_a_correction_falls_back_to_consistent_codes():
    tree = DecisionTree.build(GAME, make_strategy("knuth"))
    secret = GAME.parse("3632")
    session = CodemakerSession(GAME, tree)
    session.answer(Feedback(0, 0))  # wrong on purpose: 1122 against 3632 is 1,0
    session.answer(GAME.score(secret, session.next_guess()))  # true, on the 0,0 branch's guess
    session.correct(1, Feedback(1, 0))
    assert session.next_guess() in session.knowledge.consistent and session.improvised  # off the tree now
    session.undo()  # back to 1122 -> 1,0 alone: the tree follows again
    assert not session.improvised and GAME.format(session.next_guess()) == "1344"
    while not session.won:
        session.answer(GAME.score(secret, session.next_guess()))
    assert session.answers[-1][0] == secret and not session.improvised


@pytest.mark.parametrize("spec", ["tabu", "shc", "random"])
def test_undo_takes_a_random_strategy_back_with_the_answer(spec):
    """A strategy that draws at random and keeps a state of its own guesses again as it did."""
    import numpy as np

    secret = GAME.parse("3632")
    session = CodemakerSession(GAME, spec, np.random.default_rng(5))
    first = session.next_guess()
    for _ in range(2):
        session.answer(GAME.score(secret, session.next_guess()))
    third = session.next_guess()
    session.answer(GAME.score(secret, third))
    session.undo()
    assert not session.improvised and session.next_guess() == third
    session.undo()
    session.undo()  # back to the start: the same first guess, from the same draws
    assert not session.improvised and session.next_guess() == first
    while not session.won:
        session.answer(GAME.score(secret, session.next_guess()))
    assert not session.improvised and session.answers[-1][0] == secret


def test_correcting_an_answer_to_the_win_ends_the_game_there():
    session = CodemakerSession(GAME, "knuth")
    session.answer(Feedback(1, 0))
    session.answer(Feedback(1, 0))
    session.correct(1, Feedback(4, 0))
    assert session.won and session.answers == [(GAME.parse("1122"), Feedback(4, 0))]
    with pytest.raises(BadArgument, match="the game is over"):
        session.next_guess()


def test_a_hint_strategy_that_only_follows_its_own_game_is_refused():
    from mmlab.play.session import check_coach

    for spec in ("tabu", "greedy1", "greedy3", "local-search"):  # random or not, a script replays only its own moves
        with pytest.raises(BadArgument, match=f"{spec} follows a script of its own and can only continue the game"):
            check_coach(GAME, spec)
    assert check_coach(GAME, "most-parts").spec == "most-parts"


def test_codemaker_refuses_impossible_answers_and_undoes():
    session = CodemakerSession(GAME, "knuth")
    with pytest.raises(Exception, match="3,1 cannot occur"):
        session.answer(Feedback(3, 1))
    session.answer(Feedback(1, 1))
    session.undo()
    assert session.answers == [] and session.remaining == 1296
    with pytest.raises(BadArgument, match="no answered guess number 3"):
        session.correct(3, Feedback(0, 0))


def test_codebreaker_hint_candidates_undo_give_up():
    session = CodebreakerSession(GAME, secret=GAME.parse("3632"))
    assert session.guess(GAME.parse("1122")) == Feedback(1, 0)
    hint = session.hint("knuth")
    assert hint.remaining == 256 and hint.suggestion == GAME.parse("1344")
    assert hint.options[0]["guess"] == hint.suggestion and sum(hint.options[0]["classes"].values()) == 256
    with pytest.raises(BadArgument, match="256 codes remain"):
        session.candidates()
    for code in ("1344", "3526", "1462"):
        session.guess(GAME.parse(code))
    assert GAME.parse("3632") in session.candidates()
    session.undo()
    assert len(session.moves) == 3
    assert session.give_up() == GAME.parse("3632") and session.over
    with pytest.raises(BadArgument, match="game is over"):
        session.guess(0)


def test_a_random_secret_comes_from_the_seed():
    import numpy as np

    a = CodebreakerSession(GAME, rng=np.random.default_rng(5)).secret
    assert a == CodebreakerSession(GAME, rng=np.random.default_rng(5)).secret


def test_a_strategy_that_fails_on_the_next_guess_leaves_the_answer_untaken():
    session = CodemakerSession(GAME, "knuth")
    session.answer(Feedback(1, 0))
    before = (list(session.answers), session.remaining, session.next_guess())

    def broken(knowledge):
        raise RuntimeError("out of memory, say")

    session.strategy.guess = broken
    with pytest.raises(RuntimeError, match="out of memory"):
        session.answer(Feedback(0, 0))
    assert (list(session.answers), session.remaining, session.next_guess()) == before


def test_the_codebreakers_count_follows_each_guess_as_a_recount_would():
    secret = GAME.parse("3632")
    session = CodebreakerSession(GAME, secret=secret)
    counts = [session.remaining]
    for code in ("1122", "1344", "3526", "1462"):
        session.guess(GAME.parse(code))
        counts.append(session.remaining)  # the knowledge is updated move by move
    fresh = CodebreakerSession(GAME, secret=secret)
    for code in ("1122", "1344", "3526", "1462"):
        fresh.guess(GAME.parse(code))
    assert counts[-1] == fresh.remaining  # counted from scratch, never asked before
    assert counts[:2] == [1296, 256] and counts == sorted(counts, reverse=True)


def test_the_codebreaker_session_reads_written_codes_as_codes():
    session = CodebreakerSession(GAME, secret="1122")  # 1122 is also an index of 4x6 (the code 6221)
    assert session.secret == GAME.parse("1122")
    assert session.guess("1122") == Feedback(4, 0) and session.moves == [(GAME.parse("1122"), Feedback(4, 0))]
