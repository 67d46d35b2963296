"""The terminal dialogue, driven in this process: what it says to a person's slips."""

import collections
import contextlib
import io
import re

import pytest
from rich.console import Console

from mmlab.experiments import play_game
from mmlab.game import Game
from mmlab.play import CodebreakerSession, CodemakerSession
from mmlab.play.terminal import Dialogue, play_codebreaker, play_codemaker
from mmlab.strategies import make_strategy

GAME = Game.parse_size("4x6")


def codebreaker(lines: list[str], game: Game = GAME, secret: str = "3632") -> str:
    """What the codebreaker dialogue says to ``lines`` (mmlab keeping ``secret``)."""
    console = Console(file=io.StringIO(), width=400)
    session = CodebreakerSession(game, secret=secret)
    play_codebreaker(game, session, Dialogue(game, io.StringIO("\n".join(lines) + "\n"), console), "knuth", True)
    return console.file.getvalue()


def codemaker(lines: list[str], session: CodemakerSession | None = None) -> tuple[str, CodemakerSession]:
    """What the codemaker dialogue says to ``lines`` (Knuth guessing on 4x6 unless ``session`` is
    given), and its session."""
    console = Console(file=io.StringIO(), width=400)
    session = session or CodemakerSession(GAME, "knuth")
    play_codemaker(session.game, session, Dialogue(session.game, io.StringIO("\n".join(lines) + "\n"), console))
    return console.file.getvalue(), session


def test_a_mistyped_command_is_not_read_as_a_code():
    said = codebreaker(["give up", "quit now", "hello", "11 22", "undo 2", "history x", "1234", "quit"])
    assert "'give up' is neither a guess nor a command (did you mean 'give-up'?): type a guess, or 'help'." in said
    assert "'quit now' is neither a guess nor a command (did you mean 'quit'?)" in said
    assert "'hello' is neither a guess nor a command (did you mean 'help'?)" in said
    assert "code '11 22' has 2 pegs, the 4x6 game needs 4 (spaces or commas part one peg from the next)" in said
    assert "Write 'undo' alone." in said and "Write 'history' alone." in said
    assert "guess 2>" in said and "guess 3>" not in said  # only 1234 was played
    assert "ABCD" not in said and "1,1 (BW)" in codebreaker(["ABCD", "quit"])  # colour letters are a code


def test_a_repeated_guess_is_said_to_count():
    said = codebreaker(["1234", "1234", "quit"])
    assert "You guessed 1234 as guess 1 already: it counts as guess 2, with the same answer." in said


def test_a_black_only_game_says_that_its_answers_count_black_pegs_only():
    game = Game.parse_size("4x6", feedback="black")
    said = codebreaker(["1234", "quit"], game)
    assert "Each answer counts only the pegs of the right colour in the right place (black)" in said
    assert "1234  1 black (B)" in said and "1,0" not in said


def test_an_answer_corrected_to_the_win_drops_the_later_answers_and_says_so():
    secret = GAME.parse("3632")
    answers = [f"{fb.black} {fb.white}" for fb in play_game(GAME, make_strategy("knuth"), secret).feedbacks]
    said, session = codemaker([*answers[:3], "fix 1 4 0"])  # 1344 and 3526 answered as 3632 would
    assert "No code fits all of these answers, so one of them is wrong: guess 1: 1122 -> 4,0" in said
    assert not session.won and len(session.answers) == 3
    # as if the secret were 1344, the answer to 3526 fits it: the game ends at guess 2
    fitting = f"{GAME.score(GAME.parse('1344'), GAME.parse('3526')).black} " \
              f"{GAME.score(GAME.parse('1344'), GAME.parse('3526')).white}"
    said, session = codemaker(["1 0", "0 1", fitting, "fix 2 4 0", "fix 1 0 0", ""])
    assert "Corrected guess 2: it is your secret, so the game ends there and the answers to guess 3, which fit it, " \
           "are dropped." in said
    assert "The answers stay as they were: correct another with 'fix N B W', or 'undo'" in said  # 1122 -> 0,0
    assert "Answer guess 3 again" not in said and session.won and len(session.answers) == 2


def test_text_typed_with_brackets_is_shown_as_typed():
    said = codebreaker(["hello[/x]", "[bold]", "quit"])
    assert "'hello[/x]' is neither a guess nor a command" in said and "'[bold]' is neither" in said


def test_a_mistyped_command_is_named_in_games_whose_letters_are_all_colours():
    game = Game.parse_size("2x30")
    said = codebreaker(["give up", "quit"], game, secret="3 5")
    assert "(did you mean 'give-up'?)" in said and "guess 2>" not in said


def test_the_codemaker_dialogue_takes_only_its_own_commands():
    said, _ = codemaker(["candidates x", "undo x", "quit"])
    assert "Write 'candidates' alone." not in said and "cannot read the answer 'candidates x'" in said
    assert "Write 'undo' alone." in said


def test_a_correction_of_a_guess_not_answered_says_so_before_reading_the_answer():
    """It said 'the answer '2' is one number' to 'fix 1 2' before any answer."""
    said, _ = codemaker(["fix 1 2", "fix 1 5 5", "1 0", "fix 2 1 0", "fix 1 1", "quit"])
    assert said.count("there is no answered guess number 1 (answered so far: 0)") == 2, said
    assert "there is no answered guess number 2 (answered so far: 1)" in said
    assert "the answer '1' is one number" in said  # (a guess answered: its answer is read)


def test_a_refused_correction_before_the_win_asks_for_the_pending_answer():
    said, session = codemaker(["1 0", "0 1", "fix 1 4 0", "quit"])
    assert "The answers stay as they were: answer guess 3, or correct another with 'fix N B W'" in said
    assert "Answer guess 3 again" not in said and len(session.answers) == 2


def test_a_black_only_hint_table_gives_black_pegs_alone():
    said = codebreaker(["hint", "quit"], Game.parse_size("3x4", feedback="black"), secret="123")
    assert "3:1 " in said and ",0:" not in said


def test_an_answer_that_could_not_be_checked_in_time_is_said_so(monkeypatch):
    from mmlab.play import session as module

    monkeypatch.setattr(module, "CHECK_NODES", 1)  # the search decides nothing within one placement
    said, _ = codemaker(["1 2", "1 2", "undo", "undo", "quit"], CodemakerSession("8x12", "sample", rng=1))
    assert "(A short search found no code that fits every answer, nor showed that none does: if one of them is " \
           "wrong, 'fix N B W' corrects it.)" in said
    assert "Took back the last answer; an unknown number of codes fit the answers so far." in said
    assert "Took back the last answer; 429981696 codes fit the answers so far." in said  # (no answers left)


def test_candidates_of_more_than_nine_colours_are_told_apart():
    """Codes whose colours are separated by spaces ran together: '1 2 8 4 1 2 9 4'."""
    said = codebreaker(["1 2 3 4", "candidates", "quit"], Game.parse_size("4x10"), secret="1 2 3 5")
    assert "1 2 8 4, 1 2 9 4," in said


def test_undo_and_fix_in_a_large_black_only_game_say_the_codes_left_are_not_counted():
    """They said 'at least 1 code fits', the one code the check had found."""
    game = Game.parse_size("8x12", feedback="black")
    said, _ = codemaker(["1", "1", "undo", "fix 1 2", "quit"], CodemakerSession(game, "sample", rng=1))
    assert "Took back the last answer; the codes left are not counted in a game this large with answers of black " \
           "pegs only." in said
    assert "Corrected guess 1; the codes left are not counted in a game this large with answers of black pegs " \
           "only." in said
    assert "code fits" not in said


def test_a_hint_in_a_large_black_only_game_says_the_codes_left_are_not_counted():
    """It said 'at least 1 code fits your answers'; a count that is a lower bound starts with a capital."""
    said = codebreaker(["1 1 2 2 3 3 4 4", "hint sample", "quit"], Game.parse_size("8x12", feedback="black"),
                       secret="3 1 4 1 5 9 2 6")
    assert "The codes left are not counted in a game this large with answers of black pegs only. sample would " \
           "play" in said and "code fits" not in said
    said = codebreaker(["1 1 2 2 3 3 4 4", "hint sample", "quit"], Game.parse_size("8x12"), secret="3 1 4 1 5 9 2 6")
    assert "At least 1000 codes fit your answers. sample would play" in said


def test_a_hint_says_when_its_suggestion_cannot_win_now():
    """In a large game the hint has no table with its 'consistent' column: sample's suggestion after
    1 1 2 2 3 3 4 4 (1 black) got 3 black against it, and nothing said it could not be the secret
    (helper-119)."""
    game = Game.parse_size("8x12", feedback="black")
    session = CodebreakerSession(game, secret="1 2 3 4 5 6 7 8", rng=1)
    session.guess("1 1 2 2 3 3 4 4")
    hint = session.hint("sample")
    assert hint.consistent == session.knowledge.is_consistent(hint.suggestion)
    for guesses, fits in ((["1122"], True), (["1122", "1344", "3526"], False)):  # (knuth: 1344, then 1462)
        session = CodebreakerSession(GAME, secret="3632")
        for code in guesses:
            session.guess(code)
        assert session.hint("knuth").consistent is fits
        said = codebreaker([*guesses, "hint", "quit"])
        assert ("it does not fit every answer, so it cannot win now" in said) is not fits


def test_an_answer_after_which_no_code_to_play_was_found_is_refused_saying_what_to_do(monkeypatch):
    from mmlab.play import session as module

    game = Game.parse_size("8x12")
    secret = game.parse("3 1 4 1 5 9 2 6")
    session = CodemakerSession(game, "sample", rng=2)
    session.answer((1, 4))  # wrong: 1 1 2 2 3 3 4 5 gets 1,5
    session.answer(game.score(secret, session.next_guess()))
    session.correct(1, (1, 5))  # sample cannot follow: the session improvises
    answer = game.score(secret, session.next_guess())
    monkeypatch.setattr(module, "CHECK_NODES", 1)
    monkeypatch.setattr(module, "PATIENT_NODES", 1)
    said, _ = codemaker([f"{answer.black} {answer.white}", "quit"], session)
    assert "A long search found no code that fits every answer so far, nor showed that none does: one of them may " \
           "be wrong, and mmlab has no guess to play after them.\nAnswer guess 3 again, or correct an earlier " \
           "answer with 'fix N B W' ('history' lists them)." in said
    assert len(session.answers) == 2


def test_a_terminal_shows_what_mmlab_works_out_while_it_does(monkeypatch):
    """A hint or mmlab's move takes seconds in large games (18 s at 7x8), up to a minute after a
    correction at 8x12: a spinner says what mmlab does meanwhile, where the terminal was silent."""
    console = Console(file=io.StringIO(), width=200, force_terminal=True)
    showing: list[str] = []

    @contextlib.contextmanager
    def status(text: str, **options):
        showing.append(text)
        try:
            yield
        finally:
            showing.pop()

    monkeypatch.setattr(console, "status", status)
    seen = []

    def seeing(session, method: str) -> None:
        real = getattr(session, method)
        monkeypatch.setattr(session, method, lambda *args: (seen.append((method, *showing)), real(*args))[1])

    maker = CodemakerSession(GAME, "knuth")
    for method in ("next_guess", "answer", "correct", "undo"):
        seeing(maker, method)
    play_codemaker(GAME, maker, Dialogue(GAME, io.StringIO("1 0\nfix 1 0 1\nundo\n"), console))
    breaker = CodebreakerSession(GAME, secret="3632")
    seeing(breaker, "hint")
    play_codebreaker(GAME, breaker, Dialogue(GAME, io.StringIO("hint\n"), console), "knuth", True)
    choosing = "mmlab is choosing its next guess…"
    assert {(method, choosing) for method in ("next_guess", "answer", "correct", "undo")} <= set(seen), seen
    assert ("hint", "knuth is choosing its suggestion…") in seen and not showing


def test_what_an_input_method_types_in_full_width_mode_reads_as_it_looks():
    """'１１２２' was refused ("'１' is not a colour", not naming the game), and so were 'ｈｉｎｔ'
    and the number of 'ｆｉｘ　１ １ ０'."""
    said = codebreaker(["１１２２", "ｈｉｓｔｏｒｙ", "３６３２"])
    assert "  1122  1,0 (B)" in said and "not a colour" not in said and "You found it in 2 guesses!" in said
    said, session = codemaker(["１ ０", "ｆｉｘ　１ ０ ０", "quit"])
    assert "Corrected guess 1" in said and session.answers[0][1] == (0, 0)


def test_a_ctrl_c_as_a_hint_or_the_codes_left_are_shown_leaves_the_game_going_on():
    """A Ctrl-C pressed as the hint ends, landing while its table prints, ended the game (the
    command's watch saw it, the table cut short); now it is dropped and the game goes on."""
    import _thread

    from mmlab.cli.entry import watching_ctrl_c

    class PressedAsItPrints(io.StringIO):
        def write(self, text: str) -> int:
            if "would play" in text or "codes fit:" in text:
                _thread.interrupt_main()
                for _ in range(10**5):  # (where the watch's Ctrl-C would land)
                    pass
            return super().write(text)

    console = Console(file=PressedAsItPrints(), width=400)
    session = CodebreakerSession(GAME, secret="3632")
    lines = "1122\n1344\nhint\ncandidates\n3632\n"
    with watching_ctrl_c() as ctrl_c:
        try:
            won = play_codebreaker(GAME, session, Dialogue(GAME, io.StringIO(lines), console), "knuth", True)
        except KeyboardInterrupt:
            pytest.fail("the Ctrl-C ended the game")
    assert won == 0
    said = console.file.getvalue()
    assert "knuth would play" in said and "how each guess splits" in said and "codes fit: " in said
    assert "You found it in 3 guesses!" in said and not ctrl_c.pressed


def test_the_last_answer_corrected_to_the_win_drops_no_answer():
    """Only the answers after the corrected guess are dropped: correcting the last one drops none
    (with 'answered > move' as '>=', it told of 'the answers to guesses 2-1')."""
    said, session = codemaker(["1 0", "fix 1 4 0", ""])
    assert "Corrected guess 1; 1 code fits the answers." in said  # (1122 itself, scored 4,0)
    assert "dropped" not in said and session.won and len(session.answers) == 1


def rows(said: str) -> list[list[str]]:
    """The cells of the rows of the tables in ``said``."""
    return [[cell.strip() for cell in line.strip("│ ").split("│")] for line in said.splitlines() if line.startswith("│")]


def test_the_hint_table_and_the_history_give_the_brute_force_figures():
    """After 1234 and 3456 played against 3632, each row of knuth's table (1153 and 1351, which may
    be the secret, and 1531, which cannot) against a brute force over every code: whether the
    guess fits, its non-empty classes, the largest and the expected size; the history numbers its
    moves from 1."""
    secret, played = GAME.parse("3632"), [GAME.parse("1234"), GAME.parse("3456")]
    said = codebreaker(["1234", "3456", "hint", "history", "quit"])
    fits = [c for c in range(GAME.n_codes) if all(GAME.score(c, g) == GAME.score(secret, g) for g in played)]
    table, history = rows(said)[:-2], rows(said)[-2:]
    assert len(table) == 3
    for guess, consistent, parts, largest, expected, classes in table:
        split = collections.Counter(GAME.score(GAME.parse(guess), c) for c in fits)
        assert consistent == ("yes" if GAME.parse(guess) in fits else "no"), guess
        assert classes.split() == [f"{fb.black},{fb.white}:{n}" for fb, n in sorted(split.items(), reverse=True)]
        assert (int(parts), int(largest)) == (len(split), max(split.values()))
        assert expected == f"{sum(n * n for n in split.values()) / len(fits):.2f}"
    assert {row[1] for row in table} == {"yes", "no"}
    assert history == [[str(i), GAME.format(g), *map(str, GAME.score(secret, g))] for i, g in enumerate(played, 1)]


@pytest.mark.parametrize("size, repeats", [("4x2", True), ("3x3", True), ("4x9", True), ("4x10", True),
                                           ("2x26", True), ("2x27", True), ("4x6", False), ("1x12", True)])
def test_the_help_gives_examples_that_are_codes_of_the_game(size, repeats):
    """Each way of writing a code that the help shows is one code of the game (no colour past its
    last, none twice where repeats are not allowed); digits run together up to 9 colours, and
    letters are shown up to 26 colours, as the codes are read."""
    from mmlab.play.terminal import codebreaker_help

    game = Game.parse_size(size, repeats=repeats)
    listed = re.search(r"\(e\.g\. (.*)\)\.", codebreaker_help(game))[1]
    examples = re.split(r", | or ", listed)
    assert len({game.parse(e.strip("'")) for e in examples}) == 1, examples
    assert any(e.isdigit() for e in examples) == (game.colours <= 9), examples  # (unquoted: 1123)
    assert any(e.isalpha() for e in examples) == (game.colours <= 26), examples


def test_an_empty_line_asks_again_until_the_game_is_won():
    """Enter alone is no answer: before the win the guess is asked again, whatever was answered
    before (only after the win does it end the game, as 'quit' does)."""
    secret = GAME.parse("3632")
    ahead = CodemakerSession(GAME, "knuth")
    answers = []
    while not ahead.won:
        answers.append(GAME.answer_text(GAME.score(secret, ahead.next_guess())))
        ahead.answer(GAME.score(secret, ahead.next_guess()))
    assert len(answers) > 2
    _, session = codemaker([line for answer in answers for line in ("", answer)] + [""])
    assert session.won and session.answers == ahead.answers


def test_a_fix_without_its_answer_gives_the_usage():
    said, session = codemaker(["1 0", "fix 1", "quit"])
    assert "Write 'fix N B W', e.g. 'fix 2 1 0'" in said and len(session.answers) == 1


def test_the_last_answer_fixed_to_what_it_was_changes_nothing():
    said, _ = codemaker(["1 0", "0 1", "fix 2 0 1", "quit"])
    assert "Guess 2 already has that answer." in said and "Corrected guess 2" not in said


def test_an_answer_of_no_pegs_is_shown_as_a_dash():
    assert "5555  0,0 (-)" in codebreaker(["5555", "quit"])


def test_an_undo_names_the_guess_it_took_back_as_the_web_page_does():
    said = codebreaker(["1122", "1344", "undo", "undo", "undo", "quit"])
    assert "Took back the last guess, 1344." in said and "Took back the last guess, 1122." in said
    assert "nothing to undo: no guess yet" in said
