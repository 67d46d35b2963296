"""Game sessions with a person, in both roles."""

import pytest

from mmlab.errors import BadArgument, InconsistentFeedback, SearchFailed, SpaceTooLarge
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
    session.answer(Feedback(0, 2))
    answered = list(session.answers)
    with pytest.raises(BadArgument, match=r"no answered guess number 0 \(answered so far: 1\)"):
        session.correct(0, Feedback(0, 1))  # (moves count from 1: 0 would have taken the last)
    assert session.answers == answered and answered[0][1] == Feedback(0, 2)


def test_a_game_won_cannot_be_undone():
    session = CodebreakerSession("3x3", secret="321")
    session.guess("112")
    session.guess("321")
    with pytest.raises(BadArgument, match="the game is over: start a new one"):
        session.undo()
    assert session.won and len(session.moves) == 2


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


@pytest.mark.parametrize("strategy", ["knuth", "entropy", "most-parts"])
def test_a_black_only_hint_gives_three_guesses_that_split_the_codes_differently(strategy):
    """With black pegs only, a dozen guesses at the top of a score split the codes alike: the hint
    looked at the 4 best only, and kept the suggestion alone."""
    game = Game.parse_size("4x6", feedback="black")
    session = CodebreakerSession(game, secret=game.parse("1256"))
    session.guess(game.parse("1234"))
    options = session.hint(strategy).options
    splits = [(tuple(option["classes"].items()), option["consistent"]) for option in options]
    assert len(options) == 3 and len(set(splits)) == 3 and options[0]["guess"] == session.hint(strategy).suggestion


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


# ----------------------------------------------------------------- games too large to enumerate
BIG = Game.parse_size("8x12")


def test_a_search_strategy_plays_a_person_at_8x12_and_wins():
    secret = BIG.parse("3 1 4 1 5 9 2 6")
    session = CodemakerSession(BIG, "sample", rng=1)
    assert not session.knowledge.explicit and session.count() == (12**8, True)
    while not session.won:
        session.answer(BIG.score(secret, session.next_guess()))
        assert session.checked
        if len(session.answers) == 1:
            assert session.count() == (1000, False) and session.remaining is None  # at least 1000
    assert session.answers[-1][0] == secret and len(session.answers) <= 15


def test_strategies_that_need_every_code_are_refused_at_8x12_naming_those_that_can_play():
    for strategy in ("knuth", "entropy"):
        with pytest.raises(SpaceTooLarge, match=f"{strategy}, playing against a person's answers, needs every code "
                                                "of the game, and 8x12 has 4.3e\\+08 codes.*: evo, ga, .*sample"):
            CodemakerSession(BIG, strategy)


def test_a_contradiction_at_8x12_is_refused_naming_the_answers_and_changes_nothing():
    session = CodemakerSession(BIG, "sample", rng=1)
    session.answer((0, 0))  # to 1 1 2 2 3 3 4 5
    session.answer((0, 0))  # to 11 10 10 7 9 9 11 7: colours 6, 8 and 12 are left
    pending = session.next_guess()
    assert BIG.format(pending) == "8 6 12 8 6 6 6 6"
    named = ("no code fits all of these answers, so one of them is wrong: guess 1: 1 1 2 2 3 3 4 5 -> 0,0; "
             "guess 2: 11 10 10 7 9 9 11 7 -> 0,0; guess 3: 8 6 12 8 6 6 6 6 -> 0,0")
    with pytest.raises(InconsistentFeedback, match=f"^{named}$"):
        session.answer((0, 0))
    assert len(session.answers) == 2 and session.next_guess() == pending
    session.answer((1, 2))
    kept, following = list(session.answers), session.next_guess()
    with pytest.raises(InconsistentFeedback, match=f"^{named}$"):
        session.correct(3, (0, 0))
    assert session.answers == kept and session.next_guess() == following
    assert session.count() == (115, True) and session.remaining == 115
    with pytest.raises(BadArgument, match="^115 codes remain, too many to list \\(at most 50\\)$"):
        session.candidates()
    codes = session.candidates(200)
    assert len(codes) == 115 and codes == sorted(codes) and all(session.knowledge.is_consistent(c) for c in codes)


def test_a_correction_to_the_win_at_8x12_is_refused_when_a_later_answer_does_not_fit_that_secret():
    """As in an enumerable game: the later answers are dropped only when they fit the secret."""
    session = CodemakerSession(BIG, "sample", rng=1)
    session.answer((0, 2))  # to 1 1 2 2 3 3 4 5
    assert BIG.format(session.next_guess()) == "11 7 7 8 8 4 5 11"  # 0,2 from 1 1 2 2 3 3 4 5
    session.answer((1, 1))
    kept = list(session.answers)
    with pytest.raises(InconsistentFeedback, match="^no code fits all of these answers, so one of them is wrong: "
                                                   "guess 1: 1 1 2 2 3 3 4 5 -> 8,0; guess 2: "):
        session.correct(1, (8, 0))
    assert session.answers == kept and not session.won


def test_undo_and_fix_at_8x12_rebuild_the_answers_and_play_on_as_before():
    secret = BIG.parse("3 1 4 1 5 9 2 6")
    session = CodemakerSession(BIG, "sample", rng=2)
    for _ in range(3):
        session.answer(BIG.score(secret, session.next_guess()))
    third, fourth = session.answers[2][0], session.next_guess()
    session.undo()
    assert len(session.answers) == 2 and session.next_guess() == third and session.checked
    session.answer(BIG.score(secret, third))
    assert session.next_guess() == fourth  # the same draws: it plays on as before
    session.correct(3, (7, 0))  # to 2 1 1 1 6 4 2 4 (3,2 before): 4 codes fit
    assert session.answers[2][1] == Feedback(7, 0) and session.checked and session.count() == (4, True)
    assert session.knowledge.is_consistent(session.next_guess())
    assert [BIG.score(BIG.parse("1 1 2 2 3 3 4 5"), c) for c in session.candidates()] == [Feedback(1, 5)] * 4


def test_an_answer_the_search_cannot_check_in_time_is_taken_and_said_so(monkeypatch):
    from mmlab.play import session as module

    monkeypatch.setattr(module, "CHECK_NODES", 1)  # the search decides nothing within one placement
    session = CodemakerSession(BIG, "sample", rng=1)
    session.answer((1, 2))
    assert not session.checked and session.count() == (0, False)
    with pytest.raises(BadArgument, match="too many codes remain to list \\(at most 50\\); how many is unknown"):
        session.candidates()
    monkeypatch.setattr(module, "CHECK_NODES", 10**7)
    session.answer((1, 2))
    assert session.checked


def test_a_contradiction_the_strategy_finds_after_an_unchecked_answer_is_refused(monkeypatch):
    from mmlab.play import session as module

    session = CodemakerSession(BIG, "tabu", rng=3)
    session.answer((0, 0))  # to 1 1 1 1 1 1 1 1
    assert BIG.format(session.next_guess()) == "2 2 2 2 2 2 2 2"
    monkeypatch.setattr(module, "CHECK_NODES", 1000)  # too few to decide: tabu's own search shows it
    with pytest.raises(InconsistentFeedback, match="so one of them is wrong: guess 1: 1 1 1 1 1 1 1 1 -> 0,0; "
                                                   "guess 2: 2 2 2 2 2 2 2 2 -> 1,1$"):
        session.answer((1, 1))  # a single colour gives no white peg
    assert len(session.answers) == 1 and BIG.format(session.next_guess()) == "2 2 2 2 2 2 2 2"
    with pytest.raises(InconsistentFeedback):  # given again, it is refused again (the strategy had kept it)
        session.answer((1, 1))
    session.answer((1, 0))
    assert len(session.answers) == 2 and BIG.format(session.next_guess()) != "2 2 2 2 2 2 2 2"


def test_an_undo_at_8x12_restores_the_strategy_instead_of_replaying_its_searches(monkeypatch):
    secret = BIG.parse("3 1 4 1 5 9 2 6")
    session = CodemakerSession(BIG, "sample", rng=2)
    for _ in range(4):
        session.answer(BIG.score(secret, session.next_guess()))
    played = [guess for guess, _ in session.answers] + [session.next_guess()]
    asked, guess = [], type(session.strategy).guess
    monkeypatch.setattr(type(session.strategy), "guess",
                        lambda self, knowledge: asked.append(len(knowledge.history)) or guess(self, knowledge))
    session.undo()
    session.undo()
    assert asked == [3, 2]  # each undo asks for the next guess alone: the earlier ones are not played again
    assert len(session.answers) == 2 and session.next_guess() == played[2]
    session.answer(BIG.score(secret, played[2]))
    session.answer(BIG.score(secret, played[3]))
    assert session.next_guess() == played[4]  # the same draws: it plays on as before


def test_candidates_in_a_large_black_only_game_say_they_are_not_counted():
    """They said 'at least 1 codes remain, too many to list' with a few codes left."""
    game = Game.parse_size("8x12", feedback="black")
    session = CodebreakerSession(game, secret="1 2 3 4 5 6 7 8")
    session.guess("1 1 2 2 3 3 4 4")
    with pytest.raises(BadArgument, match="not counted in a game this large with answers of black pegs only"):
        session.candidates()


@pytest.mark.parametrize("role", ["codebreaker", "codemaker"])
def test_a_large_black_only_game_counts_every_code_until_an_answer_then_at_least_the_one_found(role):
    """Before any answer every code of 8x12 fits, counted exactly; after one, the codes are not
    counted (``counted`` is false) and the count is a lower bound: the code the check found, 1, never
    'at least 0'."""
    game = Game.parse_size("8x12", feedback="black")
    if role == "codebreaker":
        session = CodebreakerSession(game, secret="1 2 3 4 5 6 7 8")
        answer = lambda: session.guess("1 1 2 2 3 3 4 4")
    else:
        session = CodemakerSession(game, "sample", rng=1)
        answer = lambda: session.answer((2, 0))
    assert session.counted and session.count() == (12**8, True) and session.remaining == 12**8
    answer()
    assert not session.counted and session.count() == (1, False) and session.remaining is None


def test_candidates_lists_exactly_as_many_codes_as_its_limit():
    """A limit is the most codes listed: after 112 scored 0,2 in 3x3 three codes fit (by hand: no 1
    in the first two pegs, no 2 in the last, and one 1 and one 2 in common: 221, 231 and 321), listed
    with limit 3 and refused with 2."""
    session = CodebreakerSession(Game.parse_size("3x3"), secret="321")
    session.guess("112")
    assert sorted(session.game.format(c) for c in session.candidates(limit=3)) == ["221", "231", "321"]
    with pytest.raises(BadArgument, match="3 codes remain, too many to list"):
        session.candidates(limit=2)


def _improvising(rng: int = 2) -> tuple[CodemakerSession, int]:
    """A sample session at 8x12 improvising after a fix (its first answer was wrong), and the secret."""
    secret = BIG.parse("3 1 4 1 5 9 2 6")
    session = CodemakerSession(BIG, "sample", rng=rng)
    session.answer((1, 4))  # wrong: 1 1 2 2 3 3 4 5 gets 1,5
    session.answer(BIG.score(secret, session.next_guess()))
    session.correct(1, (1, 5))  # sample would have played otherwise after 1,5
    assert session.improvised and session.checked
    return session, secret


def test_an_improvising_session_takes_an_answer_the_check_cannot_decide(monkeypatch):
    """It was refused with the bare 'no code fitting the 3 answers found within 1 placements'."""
    from mmlab.play import session as module

    session, secret = _improvising()
    monkeypatch.setattr(module, "CHECK_NODES", 1)  # the check decides nothing within one placement
    session.answer(BIG.score(secret, session.next_guess()))
    assert len(session.answers) == 3 and not session.checked and session.improvised
    assert session.knowledge.is_consistent(session.next_guess())  # found by the patient search
    session.correct(1, (1, 5))  # (unchanged) a fix the check cannot decide is taken too
    assert not session.checked and session.knowledge.is_consistent(session.next_guess())


def test_an_improvising_session_says_when_no_code_to_play_was_found(monkeypatch):
    from mmlab.play import session as module

    session, secret = _improvising()
    kept, pending = list(session.answers), session.next_guess()
    monkeypatch.setattr(module, "CHECK_NODES", 1)
    monkeypatch.setattr(module, "PATIENT_NODES", 1)
    with pytest.raises(SearchFailed, match="^a long search found no code that fits every answer so far, nor showed "
                                           "that none does: one of them may be wrong, and mmlab has no guess"):
        session.answer(BIG.score(secret, pending))
    assert session.answers == kept and session.next_guess() == pending and session.checked


@pytest.mark.parametrize("spec,rng", [("shc", 3), ("random", 3)])
def test_a_contradiction_shc_or_random_shows_is_refused_naming_the_answers(monkeypatch, spec, rng):
    """They say so with a SearchFailed of their own; the session answered with its bare 'no code
    fitting the 3 answers found within 1 placements'."""
    from mmlab.play import session as module

    session = CodemakerSession(BIG, spec, rng=rng)
    session.answer((0, 0))
    session.answer((0, 0))  # two colours left for shc, one for random, and the next guess uses them alone
    kept, pending = list(session.answers), session.next_guess()
    monkeypatch.setattr(module, "CHECK_NODES", 1)  # the check decides nothing: the strategy shows it
    with pytest.raises(InconsistentFeedback, match="^no code fits all of these answers, so one of them is wrong: "
                                                   f"guess 1: .*; guess 3: {BIG.format(pending)} -> 0,0$"):
        session.answer((0, 0))
    assert session.answers == kept and session.next_guess() == pending
