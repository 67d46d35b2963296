import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mmlab.errors import BadCode, BadFeedback, BadSize
from mmlab.game import Feedback, Game, parse_feedback, possible_feedbacks
from mmlab.game.kernels import feedback_table


def test_codes_parse_in_every_notation(game46):
    index = game46.parse("1122")
    assert game46.parse("1 1 2 2") == game46.parse("1,1,2,2") == game46.parse("AABB") == game46.parse("aabb") == index
    assert game46.format(index) == "1122"


def test_index_order_is_lexicographic_colour_one_first(game46):
    assert game46.parse("1111") == 0
    assert game46.parse("1112") == 1
    assert game46.parse("6666") == 1295
    assert [game46.format(i) for i in (6, 7)] == ["1121", "1122"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("112", "has 3 pegs, the 4x6 game needs 4"),
        ("11223", "has 5 pegs"),
        ("1172", "'7' is not a colour of the 4x6 game (expected 1-6 or A-F)"),
        ("11x2", "'x' is not a colour"),
        ("0123", "'0' is not a colour"),
        ("-1 2 3 4", "'-1' is not a colour"),
        ("-1122", "'-' is not a colour"),  # a sign or a point, not a fifth peg
        ("1.122", "'.' is not a colour"),
        ("7" * 10_000, "is 10,000 characters long, too long for a code of 4 pegs"),
        ("1 2 3 " + "7" * 5000, "is 5,006 characters long"),  # too long for int() to read
        ("1 2 3 " + "7" * 50, "is not a colour of the 4x6 game"),
    ],
)
def test_bad_codes_say_what_is_wrong(game46, text, message):
    with pytest.raises(BadCode, match=message.replace("(", r"\(").replace(")", r"\)")):
        game46.parse(text)


@pytest.mark.parametrize("size", ["0x6", "4x1", "11x6", "4x37", "-1x6", "4by6", ""])
def test_bad_sizes_are_refused(size):
    with pytest.raises(BadSize):
        Game.parse_size(size)


@pytest.mark.parametrize("size", ["1" * 5000 + "x6", "4x" + "6" * 5000])
def test_numbers_too_long_to_read_are_refused_briefly(size):
    with pytest.raises(BadSize, match="far too large: at most 10 pegs and 36 colours") as refused:
        Game.parse_size(size)
    assert len(str(refused.value)) < 200


def test_huge_game_constructs_parses_and_scores_without_enumerating():
    game = Game.parse_size("10x36")
    assert not game.enumerable
    secret = game.parse("1 2 3 4 5 6 7 8 9 36")
    guess = game.parse("36 2 3 4 5 6 7 8 9 1")
    assert game.score(secret, guess) == Feedback(8, 2)
    assert game.format(secret) == "1 2 3 4 5 6 7 8 9 36"
    assert game.n_codes == 36**10


@given(st.integers(2, 8), st.integers(1, 4), st.data())
def test_index_round_trip_with_and_without_repeats(colours, pegs, data):
    for repeats in (True, False):
        if not repeats and colours < pegs:
            continue
        game = Game(pegs, colours, repeats=repeats)
        i = data.draw(st.integers(0, game.n_codes - 1))
        assert game.index_of(game.digits(i)) == i
        assert game.parse(game.format(i)) == i


def test_no_repeat_codes_enumerate_in_order():
    game = Game(4, 10, repeats=False)
    assert game.n_codes == 5040
    assert game.format(0) == "1 2 3 4"
    assert game.digits(0) == (0, 1, 2, 3)
    assert game.digits(5039) == (9, 8, 7, 6)
    assert [game.index_of(d) for d in game.all_digits[:50]] == list(range(50))
    with pytest.raises(BadCode, match="repeats a colour"):
        game.parse("1 1 2 3")


def test_possible_feedbacks_follow_table_1_order():
    assert [tuple(f) for f in possible_feedbacks(4)] == [
        (4, 0), (3, 0), (2, 2), (2, 1), (2, 0), (1, 3), (1, 2), (1, 1), (1, 0), (0, 4), (0, 3), (0, 2), (0, 1), (0, 0)
    ]


@pytest.mark.parametrize(
    "text, fb", [("1 2", (1, 2)), ("1,2", (1, 2)), ("BWW", (1, 2)), ("bw", (1, 1)), ("0", (0, 0)), ("none", (0, 0)),
                 ("1 black", (1, 0)), ("3 blacks", (3, 0)), ("1 black 2 white", (1, 2)), ("1 Black, 1 White", (1, 1))]
)
def test_feedback_parses(text, fb):
    assert parse_feedback(text) == Feedback(*fb)


@pytest.mark.parametrize("text", ["7" * 5000 + ",0", "1 " + "7" * 5000, "7" * 5000])
def test_an_answer_with_a_number_too_long_to_read_is_refused(text):
    with pytest.raises(BadFeedback, match="holds a number too large to count pegs"):
        parse_feedback(text, with_white=False)


def test_black_only_answers_read_as_mmlab_writes_them_and_refusals_say_what_to_give():
    """mmlab writes an answer of black pegs only as '1 black' (eval --codemaker); it was refused,
    with advice to give white pegs too, which such a game has not."""
    black_only = Game.parse_size("4x6", feedback="black")
    for fb in (Feedback(0, 0), Feedback(1, 0), Feedback(4, 0)):
        for words in (False, True):
            assert black_only.answer(black_only.answer_text(fb, words)) == fb
    with pytest.raises(BadFeedback, match=r"give the black pegs as a number \('2' or '2 black'\) or as pegs"):
        parse_feedback("1 white", with_white=False)


def test_one_number_is_black_pegs_only_where_the_game_has_no_white():
    assert parse_feedback("2", with_white=False) == Feedback(2, 0)
    with pytest.raises(BadFeedback, match="give both, e.g. '2 0'"):
        parse_feedback("2", with_white=True)
    assert parse_feedback("2 0", with_white=True) == Feedback(2, 0)


@pytest.mark.parametrize("text", ["", "  ", "1\u00b2", "-1 2", "BX"])
def test_unreadable_feedback_is_refused(text):
    with pytest.raises(BadFeedback, match="cannot read the answer"):
        parse_feedback(text)


def test_feedbacks_list_only_answers_the_game_can_give():
    assert len(Game(4, 6).feedbacks()) == 14
    assert [tuple(f) for f in Game(3, 3, repeats=False).feedbacks()] == [(3, 0), (1, 2), (0, 3)]
    assert [tuple(f) for f in Game(3, 3, repeats=False, feedback="black").feedbacks()] == [(3, 0), (1, 0), (0, 0)]
    for size in ("3x3", "1x2", "2x2", "4x2", "5x2", "3x4", "2x5", "4x3"):
        for repeats in (True, False):
            for feedback in ("black-white", "black"):
                try:
                    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
                except BadSize:
                    continue  # no codes without repeats
                table = feedback_table(game.all_digits, game.all_counts, game.with_white)
                seen = {Feedback.from_code(int(c), game.pegs) for c in np.unique(table)}
                assert seen == set(game.feedbacks()), (size, repeats, feedback)


def test_codes_print_one_digit_a_peg_up_to_nine_colours_and_spaced_from_ten():
    """Every colour of 4x9 is one digit, so its codes print without separators, as 4x6's do; from
    10 colours a peg may take two digits, and spaces part the pegs (commas the codes of a list)."""
    nine, ten = Game(4, 9), Game(4, 10)
    assert (nine.format(nine.n_codes - 1), nine.format_all([0, 8])) == ("9999", "1111 1119")
    assert (ten.format(ten.n_codes - 1), ten.format_all([0, 9])) == ("10 10 10 10", "1 1 1 1, 1 1 1 10")


def test_one_peg_games_write_and_read_two_digit_colours():
    game = Game(1, 12)
    assert [game.parse(game.format(i)) for i in range(game.n_codes)] == list(range(game.n_codes))
    assert game.format(game.parse("10")) == "10"


def test_non_ascii_digits_are_not_colours(game46):
    with pytest.raises(BadCode, match="is not a colour"):
        game46.parse("1\u00b234")


@pytest.mark.parametrize("text", ["12\u00b2 3", "1 \u00b2\u00b2", "3\u00b2\nx"])
def test_a_superscript_in_a_code_of_the_wrong_length_is_refused_as_a_bad_code(game46, text):
    """'²' is a digit to str.isdigit and no number to int: '12² 3' raised ValueError (a traceback from
    'mmlab partition 4x6 "12² 3"') while the message on the pegs was being worded."""
    with pytest.raises(BadCode, match="has 2 pegs, the 4x6 game needs 4"):
        game46.parse(text)


@pytest.mark.parametrize("text", ["１１２２", "ＡＡＢＢ", "ａａｂｂ", "１，１，２，２", "１\u3000１\u3000２\u3000２", "١١٢٢", "११२२"])
def test_digits_of_any_script_and_full_width_forms_are_read_as_they_look(game46, text):
    """What an input method types in full-width mode (Japanese, Chinese), or a keyboard of another
    script: it was refused ("'１' is not a colour"), not naming the game."""
    assert game46.parse(text) == game46.parse("1122")


@pytest.mark.parametrize("text", ["ﬆﬆﬆﬆ", "ﬅﬅﬅﬅ", "ıııı", "ſſſſ"])
def test_letters_that_are_other_letters_in_upper_case_are_no_colours(text):
    """'ﬆ'.upper() is 'ST', found in 'A..Z': 4x20 read 'ﬆﬆﬆﬆ' as 19 19 19 19 (S), 'ıııı' as I."""
    game = Game(4, 20)
    with pytest.raises(BadCode, match=f"'{text[0]}' is not a colour"):
        game.parse(text)
    assert game.stray_letter(text) == text[0] and game.stray_letter("AbCt") is None


def test_full_width_answers_and_colours_out_of_range():
    game = Game(4, 6)
    assert [game.answer(text) for text in ("１ ２", "１，２", "ＢＷＷ", "ｎｏｎｅ")] == [(1, 2), (1, 2), (1, 2), (0, 0)]
    assert parse_feedback("２", with_white=False) == (2, 0) and Game(1, 12).parse("１０") == 9
    with pytest.raises(BadCode, match=r"code '１１２７': '7' is not a colour of the 4x6 game \(expected 1-6 or A-F\)"):
        game.parse("１１２７")


@pytest.mark.parametrize("fb, message", [((3, 1), "cannot occur"), ((3, 2), "cannot exceed"), ((-1, 0), "negative")])
def test_impossible_feedback_is_refused(game46, fb, message):
    with pytest.raises(BadFeedback, match=message):
        game46.check_feedback(Feedback(*fb))


def test_the_impossible_answer_of_one_peg_is_told_in_its_own_words():
    """(helper-117: "if all but one peg are right and every colour is" read oddly of one peg.)"""
    with pytest.raises(BadFeedback, match="^answer 0,1 cannot occur: with one peg, a right colour is in the right "
                                          "place$"):
        Game(1, 5).check_feedback(Feedback(0, 1))
    with pytest.raises(BadFeedback, match="if all but one peg are right"):
        Game(2, 5).check_feedback(Feedback(1, 1))


def test_numpy_integers_are_sizes_as_python_integers_are():
    """Game(np.int64(4), 6) was refused: 'pegs must be a whole number from 1 to 10, got np.int64(4)'."""
    game = Game(np.int64(4), np.int32(6))
    assert game == Game(4, 6) and type(game.pegs) is int and type(game.colours) is int
    assert game.n_codes == 1296 and game.format(game.parse("1122")) == "1122" and str(game) == "4x6"
    with pytest.raises(BadSize, match="from 1 to 10, got 11$"):
        Game(np.int64(11), 6)
    with pytest.raises(BadSize, match="got np.True_"):  # (a bool is no size, numpy's either)
        Game(np.True_, 6)


def test_a_bool_is_not_a_size_and_ten_black_pegs_are_an_answer():
    with pytest.raises(BadSize, match="pegs must be a whole number"):
        Game(True, 6)
    assert parse_feedback("10", with_white=False) == Feedback(10, 0)


def test_a_code_far_too_long_is_refused_by_its_length_and_echoed_short():
    game = Game.parse_size("4x6")
    with pytest.raises(BadCode, match=r"is 1,000,000 characters long, too long for a code of 4 pegs") as caught:
        game.parse("1" * 10**6)
    assert len(str(caught.value)) < 200
    assert game.parse(" 1,  1 ;2   2 ") == game.parse("1122")  # separators and spaces still read


def test_an_answer_with_a_huge_number_is_echoed_short():
    game = Game.parse_size("4x6")
    for answer in (Feedback(10**5000, 0), Feedback(-(10**5000), 0)):
        with pytest.raises(BadFeedback) as caught:
            game.check_feedback(answer)
        assert len(str(caught.value)) < 200


def test_a_code_is_an_index_or_written_out_and_nothing_else():
    game = Game.parse_size("5x8")
    assert game.code("12321") == game.parse("12321") == game.code(np.int64(game.parse("12321")))
    assert game.code(np.array(5)) == game.code(np.uint8(5)) == 5
    # a written code is read as a code, never as an index (12321 is also an index of 5x8)
    assert game.score("12321", "11223") == game.score(game.parse("12321"), game.parse("11223")) == Feedback(2, 3)
    assert game.digits("11223") == (0, 0, 1, 1, 2)
    for bad in (3.0, True, None, (0, 0, 1, 1, 2)):
        with pytest.raises(BadCode, match="neither a code index"):
            game.code(bad)
    with pytest.raises(BadCode, match="outside 0..32767"):
        game.code(32768)
    assert game.codes(np.array([0, 32767])).tolist() == [0, 32767]  # an array of indices is checked at once
    for bad in ([0, 32768], [-1, 5]):
        with pytest.raises(BadCode, match=r"code indices must be in 0..32767 for 5x8"):
            game.codes(np.array(bad))


def test_index_of_checks_the_colours_it_is_given():
    game = Game.parse_size("4x6")
    assert game.index_of((0, 0, 1, 1)) == game.parse("1122")
    for bad in ((3, 6, 3, 2), (0, 1, 2), (0, 0, 0, -1)):
        with pytest.raises(BadCode, match="is not a code of 4x6"):
            game.index_of(bad)
    with pytest.raises(BadCode, match="repeats a colour"):
        Game.parse_size("4x6", repeats=False).index_of((0, 0, 1, 2))


def test_answers_as_mmlab_shows_them_and_the_hints_for_one_number():
    assert parse_feedback("-", with_white=True) == parse_feedback("none") == Feedback(0, 0)
    with pytest.raises(BadFeedback, match="give both, e.g. '1 2' \\(1 black, 2 white\\)$"):
        parse_feedback("12", with_white=True)  # (no game has 12 pegs)
    with pytest.raises(BadFeedback, match="'1 0' \\(1 black, 0 white\\) or '10 0'$"):
        parse_feedback("10", with_white=True)
    with pytest.raises(BadFeedback, match="give both, e.g. '1 0' or '1,0', or as pegs 'BW'$"):
        parse_feedback("1122", with_white=True)  # a code, perhaps
    with pytest.raises(BadFeedback, match="answer 5: black cannot exceed the 4 pegs"):
        Game.parse_size("4x6", feedback="black").check_feedback(Feedback(5, 0))



def test_the_hint_for_one_number_fits_the_games_pegs():
    """'5' at 4 pegs suggested giving '5 0', which the game then refused as too many pegs."""
    game = Game.parse_size("4x6")
    with pytest.raises(BadFeedback, match="give both, e.g. '1 0' or '1,0', or as pegs 'BW'$"):
        game.answer("5")
    with pytest.raises(BadFeedback, match="give both, e.g. '1 0' or '1,0', or as pegs 'BW'$"):
        game.answer("32")
    with pytest.raises(BadFeedback, match="give both, e.g. '4 0' or '4,0'$"):
        game.answer("4")
    with pytest.raises(BadFeedback, match="give both, e.g. '2 2' \\(2 black, 2 white\\)$"):
        game.answer("22")


def test_a_negative_answer_of_black_pegs_only_names_no_white():
    black_only = Game.parse_size("4x6", feedback="black")
    with pytest.raises(BadFeedback, match="^answer -1: black cannot be negative$"):
        black_only.answer((-1, 0))
    with pytest.raises(BadFeedback, match="^answer 1,-1: this game answers black pegs only$"):
        black_only.answer((1, -1))

def test_a_code_of_too_few_pegs_says_how_pegs_are_parted_only_when_it_may_help():
    with pytest.raises(BadCode, match=r"has 2 pegs, the 4x6 game needs 4 \(spaces or commas part one peg"):
        Game.parse_size("4x6").parse("11 22")
    with pytest.raises(BadCode, match=r"has 3 pegs, the 4x12 game needs 4$"):
        Game.parse_size("4x12").parse("10 11 12")  # parted as it should be: one peg short


@pytest.mark.parametrize("game", [Game(4, 6), Game(5, 8), Game(4, 10, repeats=False), Game(3, 4, feedback="black"),
                                  Game(6, 12), Game(6, 12, repeats=False, feedback="black"), Game(10, 36), Game(2, 2),
                                  Game(1, 3), Game(7, 7, repeats=False)], ids=str)
def test_score_gives_the_kernels_answer(game):
    """``Game.score`` answers in plain Python (it loaded numba for one answer: 0.5 s for 'mmlab score');
    the kernel is the reference, over random pairs and a code against itself."""
    from mmlab.game.kernels import feedback_pair

    rng = np.random.default_rng(7)
    for secret, guess in [*rng.integers(0, game.n_codes, size=(500, 2)), (0, 0), (game.n_codes - 1, 0)]:
        s, g = (np.array(game.digits(int(c)), dtype=np.uint8) for c in (secret, guess))
        kernel = feedback_pair(g, game.counts_of(g), s, game.counts_of(s), game.with_white)
        assert game.score(int(secret), int(guess)) == Feedback.from_code(kernel, game.pegs)


def test_scoring_loads_no_kernel():
    code = ("import sys; from mmlab.game import Game; game = Game.parse_size('6x12');"
            "print(game.score(game.parse('1 2 3 10 11 12'), game.parse('12 2 3 4 5 10')), 'numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.stdout, done.stderr) == ("2,2 False\n", "")
