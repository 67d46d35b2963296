import numpy as np
import pytest

from mmlab.errors import BadCode, InconsistentFeedback, SpaceTooLarge
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge


def test_first_answer_leaves_the_table_1_class_sizes(game46):
    """000 Table 1, row 0012 (our 1123): the 14 classes after the first guess."""
    k = Knowledge.initial(game46)
    guess = game46.parse("1123")
    sizes = [k.update(guess, fb).n_consistent for fb in
             [(4, 0), (3, 0), (2, 2), (2, 1), (2, 0), (1, 3), (1, 2), (1, 1), (1, 0), (0, 4), (0, 3), (0, 2), (0, 1), (0, 0)]]
    assert sizes == [1, 20, 5, 40, 105, 4, 84, 230, 182, 2, 44, 222, 276, 81]


def test_consistent_set_is_exactly_the_codes_fitting_every_answer(game46):
    k = Knowledge.initial(game46)
    history = [(game46.parse("1122"), Feedback(1, 1)), (game46.parse("1344"), Feedback(0, 2))]
    for g, fb in history:
        k = k.update(g, fb)
    brute = [c for c in range(game46.n_codes) if all(game46.score(c, g) == fb for g, fb in history)]
    assert k.consistent.tolist() == brute
    assert all(k.is_consistent(c) for c in brute)


def test_contradiction_names_the_answers_that_clash(game46):
    k = Knowledge.initial(game46).update(game46.parse("1122"), Feedback(0, 0))
    k = k.update(game46.parse("3456"), Feedback(0, 2))
    with pytest.raises(InconsistentFeedback) as err:
        k.update(game46.parse("1111"), Feedback(1, 0))
    message = str(err.value)
    assert message.startswith("no code fits all of these answers, so one of them is wrong: ")  # (two of them)
    assert "guess 1: 1122 -> 0,0" in message and "guess 3: 1111 -> 1,0" in message
    assert "move 2" not in message


@pytest.mark.parametrize("size", ["3x3", "4x4"])
def test_the_answers_named_clash_and_each_is_needed(size):
    """``minimal_contradiction`` on random histories no code fits: no code fits the answers it
    keeps, and without any one of them some code does (so the first answer too is named only when
    it takes part), checked code by code."""
    from mmlab.knowledge.knowledge import minimal_contradiction

    game = Game.parse_size(size)
    rng = np.random.default_rng(5)
    fits = lambda answers: any(all(game.score(c, g) == fb for g, fb in answers) for c in range(game.n_codes))
    tried = first_left_out = 0
    while tried < 40:
        secret = int(rng.integers(game.n_codes))
        answers = [(g, game.score(secret, g)) for g in rng.integers(game.n_codes, size=4).tolist()]
        k = int(rng.integers(4))
        answers[k] = (answers[k][0], Feedback(int(rng.integers(game.pegs)), 0))  # (one answer changed at random)
        if fits(answers):
            continue
        tried += 1
        kept = minimal_contradiction(game, answers)
        assert not fits([answers[i] for i in kept])
        assert all(fits([answers[i] for i in kept if i != j]) for j in kept), (answers, kept)
        first_left_out += 0 not in kept
    assert first_left_out > 0


def test_a_black_only_contradiction_names_black_pegs_only():
    game = Game.parse_size("4x6", feedback="black")
    k = Knowledge.initial(game).update(game.parse("1111"), Feedback(0, 0))
    with pytest.raises(InconsistentFeedback, match="guess 1: 1111 -> 0 black; guess 2: 1122 -> 3 black$"):
        k.update(game.parse("1122"), Feedback(3, 0))


@pytest.mark.parametrize("guess", [-1, 1296])
def test_a_guess_outside_the_game_is_refused(game46, guess):
    """(numpy would have read -1 as the last code, 6666, and filtered by it.)"""
    for explicit in (True, False):
        with pytest.raises(BadCode, match="outside 0..1295"):
            Knowledge.initial(game46, explicit=explicit).update(guess, Feedback(0, 0))


def test_huge_games_keep_the_set_implicit_and_refuse_to_count_it():
    k = Knowledge.initial(Game.parse_size("8x12"))
    assert not k.explicit
    with pytest.raises(SpaceTooLarge, match="8x12"):
        _ = k.n_consistent


def _plain_answer(secret, guess, with_white):
    black = sum(s == g for s, g in zip(secret, guess))
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return (black, common - black) if with_white else (black, 0)


@pytest.mark.parametrize("size,feedback", [("4x6", "black-white"), ("4x6", "black"), ("8x12", "black-white")])
def test_rows_fit_agrees_with_a_plain_reading_of_the_answers(size, feedback):
    game = Game.parse_size(size, feedback=feedback)
    rng = np.random.default_rng(5)
    secret = tuple(int(c) for c in rng.integers(game.colours, size=game.pegs))
    k = Knowledge.initial(game, explicit=False)
    history = []
    for _ in range(2):
        guess = tuple(int(c) for c in rng.integers(game.colours, size=game.pegs))
        answer = _plain_answer(secret, guess, game.with_white)
        history.append((guess, answer))
        k = k.update(game.index_of(guess), Feedback(*answer))
    rows = rng.integers(game.colours, size=(3000, game.pegs)).astype(np.uint8)
    rows[0] = secret
    expected = [all(_plain_answer(tuple(int(c) for c in row), g, game.with_white) == a for g, a in history)
                for row in rows]
    got = k.rows_fit(rows)
    assert got.tolist() == expected and got[0] and 0 < sum(expected) < len(expected)
    assert [k.fits(row) for row in rows[:50]] == expected[:50]


def test_black_only_games_are_listed_by_checking_every_code():
    game = Game.parse_size("4x6", feedback="black")
    implicit, explicit = Knowledge.initial(game, explicit=False), Knowledge.initial(game)
    for guess, answer in [("1122", Feedback(1, 0)), ("3456", Feedback(0, 0))]:
        implicit, explicit = (k.update(game.parse(guess), answer) for k in (implicit, explicit))
    listed = implicit.list_consistent(10**4, 10**7)
    assert sorted(game.index_of(row) for row in listed) == explicit.consistent.tolist()
    assert implicit.list_consistent(listed.shape[0] - 1, 10**7) is None  # more than the limit
    huge = Knowledge.initial(Game.parse_size("8x12", feedback="black"), explicit=False)
    assert huge.list_consistent(10**4, 10**7) is None  # too many codes to check one by one


def test_implicit_knowledge_of_a_small_game_says_what_it_cannot_do():
    from mmlab.errors import BadArgument
    from mmlab.knowledge.symmetry import representatives

    knowledge = Knowledge.initial(Game.parse_size("4x6"), explicit=False)
    with pytest.raises(BadArgument, match="keeps no list of consistent codes"):
        _ = knowledge.n_consistent
    with pytest.raises(BadArgument, match="explicit consistent set"):
        representatives(knowledge)


def test_implicit_knowledge_refuses_to_split_or_score_against_a_set_it_does_not_keep():
    """split and responses_of raised numba's TypingError ("Unknown attribute 'shape' of type none")."""
    from mmlab.errors import BadArgument

    knowledge = Knowledge.initial(Game.parse_size("4x6"), explicit=False).update("1122", (1, 0))
    with pytest.raises(BadArgument, match="splitting the consistent codes needs the list of consistent codes"):
        knowledge.split("1344")
    with pytest.raises(BadArgument, match="scoring a guess against the consistent codes needs the list"):
        knowledge.responses_of("1344")
    assert knowledge.responses_of("1344", np.array([0, 1295])).tolist() == [5, 0]  # codes given: no list needed
    with pytest.raises(SpaceTooLarge, match="splitting the consistent codes needs every code of the game"):
        Knowledge.initial(Game.parse_size("8x12")).split(0)


def test_codes_may_be_written_out_wherever_an_index_is_taken():
    game = Game.parse_size("5x8")  # 12321 is also an index here: it must be read as the code
    k = Knowledge.initial(game)
    by_text = k.update("11223", Feedback(2, 3))
    by_index = k.update(game.parse("11223"), Feedback(2, 3))
    assert np.array_equal(by_text.consistent, by_index.consistent)
    assert by_text.is_consistent("12321") and by_text.is_consistent(game.parse("12321"))
    assert np.array_equal(k.responses_of("12321"), k.responses_of(game.parse("12321")))
    assert [c for c, _ in k.split("12321")] == [c for c, _ in k.split(game.parse("12321"))]
    with pytest.raises(BadCode, match="neither a code index"):
        k.is_consistent(1.5)


@pytest.mark.parametrize("size,repeats,feedback", [("4x6", True, "black-white"), ("5x5", False, "black-white"),
                                                   ("4x6", True, "black")])
def test_count_consistent_agrees_with_a_brute_force_count(size, repeats, feedback):
    """Exact when the search lists every code; otherwise the codes listed, a lower bound."""
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    rng = np.random.default_rng(3)
    secret = int(rng.integers(game.n_codes))
    implicit, explicit = Knowledge.initial(game, explicit=False), Knowledge.initial(game)
    assert implicit.count_consistent(10, 10**7) == explicit.count_consistent(10, 10**7) == (game.n_codes, True)
    history = []
    for guess in rng.integers(game.n_codes, size=3).tolist():
        history.append((guess, game.score(secret, guess)))
        implicit, explicit = (k.update(guess, history[-1][1]) for k in (implicit, explicit))
        brute = sum(all(game.score(code, g) == fb for g, fb in history) for code in range(game.n_codes))
        assert implicit.count_consistent(10**4, 10**7) == explicit.count_consistent(1, 1) == (brute, True)
        if brute > 1 and game.with_white:
            assert implicit.count_consistent(brute - 1, 10**7) == (brute - 1, False)  # stopped at the limit
            n, exact = implicit.count_consistent(10**4, 10)
            assert n < brute and not exact  # stopped by the budget


def test_count_consistent_lists_nothing_in_a_large_black_only_game():
    game = Game.parse_size("8x12", feedback="black")
    k = Knowledge.initial(game).update(game.parse("1 1 2 2 3 3 4 4"), Feedback(1, 0))
    assert k.count_consistent(1000, 10**7) == (0, False)


def test_n_consistent_without_a_list_points_to_count_consistent():
    """On 8x12 it said only that counting needs every code (helper-93's walkthrough): what counts them is named."""
    from mmlab.errors import BadArgument

    large = Knowledge.initial(Game.parse_size("8x12")).update("11223344", "1,1")
    with pytest.raises(SpaceTooLarge, match=r"4.3e\+08 codes .* Instead, count_consistent\(limit, max_nodes\) counts"):
        _ = large.n_consistent
    implicit = Knowledge.initial(Game.parse_size("4x6"), explicit=False).update("1122", "1,0")
    with pytest.raises(BadArgument, match=r"\(explicit=False\): count_consistent\(limit, max_nodes\) counts them"):
        _ = implicit.n_consistent
    assert implicit.count_consistent(10**4, 10**6) == (256, True)


@pytest.mark.parametrize("feedback", ["black-white", "black"])
def test_a_listing_of_exactly_limit_codes_is_kept(feedback):
    """``limit`` is the most codes ``list_consistent`` gives: a set of exactly that many comes back
    whole (from the constraint search, or with black pegs only from checking every code), one more
    than the limit does not. The codes are the explicit set's."""
    game = Game.parse_size("4x6", feedback=feedback)
    answers = [("1122", Feedback(1, 0)), ("1344", Feedback(1, 0) if feedback == "black" else Feedback(0, 1))]
    explicit, implicit = Knowledge.initial(game), Knowledge.initial(game, explicit=False)
    for guess, fb in answers:
        explicit, implicit = explicit.update(guess, fb), implicit.update(guess, fb)
    n = explicit.n_consistent
    listed = implicit.list_consistent(n, 10**7)
    assert listed is not None and sorted(game.index_of(row) for row in listed) == explicit.consistent.tolist()
    assert implicit.list_consistent(n - 1, 10**7) is None


def test_a_black_only_listing_checks_no_more_codes_than_its_budget():
    """With black pegs only every code is checked, so a game of more codes than ``max_nodes`` is not
    listed (nor counted), as the docstrings say; at the budget it is."""
    game = Game.parse_size("4x6", feedback="black")
    k = Knowledge.initial(game, explicit=False).update("1122", Feedback(1, 0))
    n = Knowledge.initial(game).update("1122", Feedback(1, 0)).n_consistent
    assert k.list_consistent(10**4, game.n_codes - 1) is None
    assert k.count_consistent(10**4, game.n_codes - 1) == (0, False)
    assert k.list_consistent(10**4, game.n_codes).shape == (n, 4)
    assert k.count_consistent(10**4, game.n_codes) == (n, True)


def test_a_search_stopped_by_its_budget_proves_no_contradiction():
    """find_consistent raises InconsistentFeedback only when the search tree was exhausted: a search
    that spent its whole budget (5 placements cannot place 8 pegs) raises SearchFailed, though many
    codes fit the answer."""
    from mmlab.errors import SearchFailed

    game = Game.parse_size("8x12")
    k = Knowledge.initial(game).update("1 2 3 4 5 6 7 8", Feedback(1, 5))
    with pytest.raises(SearchFailed, match="within 5 placements"):
        k.find_consistent(np.random.default_rng(0), 5)
    assert k.is_consistent(k.find_consistent(np.random.default_rng(0), 10**6)[0])


def test_sample_distinct_makes_three_searches_a_code_unless_told(monkeypatch):
    """The default ``max_draws`` is ``3 n`` searches, as the docstring says (the kernel receives it)."""
    from mmlab.knowledge import kernels

    seen = []
    real = kernels.sample_distinct

    def spy(*args):
        seen.append(args[-2])
        return real(*args)

    monkeypatch.setattr(kernels, "sample_distinct", spy)
    k = Knowledge.initial(Game.parse_size("8x12")).update("1 2 3 4 5 6 7 8", Feedback(1, 5))
    codes, _ = k.sample_distinct(np.random.default_rng(0), 7)
    assert seen == [21] and codes.shape == (7, 8)
    k.sample_distinct(np.random.default_rng(0), 7, max_draws=4)
    assert seen == [21, 4]
