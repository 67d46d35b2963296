"""End-to-end: the page in headless Chromium (Debian's), played by clicking and typing.

Each test saves a screenshot of the finished game in its pytest output folder (``tmp_path``).
"""

import re
import threading
import unicodedata

import pytest

from mmlab.game import Game
from mmlab.game.rules import split_code
from mmlab.web import views
from mmlab.web.app import needs_engine_lock
from mmlab.web.errors import GameNotFound

GAME = Game.parse_size("4x6")
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed (pip install -e '.[test]')")
from playwright.sync_api import expect  # noqa: E402


class Gate:
    """Holds the test server's answers about one game until ``open``: a slow request, made slow on
    purpose (the server runs in this process). It holds what ``views.<function>`` works out for
    that game when ``when(live, *args)`` (by default: once the game has a move)."""

    def __init__(self, monkeypatch, function: str = "state", when=lambda live, *args: bool(live.moves)) -> None:
        self.game_id: str | None = None
        self.held = threading.Event()  # a request is being held
        self._open = threading.Event()
        work = getattr(views, function)

        def held_work(live, *args):
            if live.id == self.game_id and when(live, *args):
                self.held.set()
                assert self._open.wait(timeout=60), "the test never let the request through"
            return work(live, *args)

        monkeypatch.setattr(views, function, held_work)

    def hold(self, page) -> None:
        """Hold the requests about the game on screen."""
        self.game_id = page.evaluate("state.id")

    def open(self) -> None:
        self._open.set()


@pytest.fixture
def gate(monkeypatch):
    gate = Gate(monkeypatch)
    yield gate
    gate.open()


def start(page, role: str, secret: str | None = None, strategy: str = "knuth", size: str = "4x6",
          codes: str = "1,296") -> None:
    page.get_by_label("Codebreaker" if role == "codebreaker" else "Codemaker").check()
    page.get_by_label("Size (pegs x colours)").fill(size)
    page.get_by_label("Strategy", exact=True).fill(strategy)
    if secret:
        page.get_by_label("Secret to practise with (optional)").fill(secret)
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("#remaining-count")).to_have_text(codes)
    expect(page.locator("#game-title")).to_contain_text(size)


def pegs_box(page, colour: str):
    """The answer form's box of black or white pegs (the setup form has a checkbox of black pegs too)."""
    return page.locator("#answer-form").get_by_label(colour)


def answer(page, black: int, white: int, moves: int) -> None:
    pegs_box(page, "Black").fill(str(black))
    pegs_box(page, "White").fill(str(white))
    pegs_box(page, "White").press("Enter")
    expect(page.locator("#board-body tr:not(.pending-row)")).to_have_count(moves)


def test_codebreaker_wins_a_4x6_game(page, tmp_path):
    secret = "3632"
    start(page, "codebreaker", secret=secret)
    guess_box = page.get_by_label("Your guess", exact=True)
    for colour in "11233":  # the first guess by clicking the colour buttons, one too many
        page.get_by_role("button", name=f"Add colour {colour}").click()
    erase = page.get_by_role("button", name="Erase the last colour", exact=True)  # (read without its "⌫")
    erase.click()
    erase.click()
    page.get_by_role("button", name="Add colour 2").click()
    expect(guess_box).to_have_value("1122")
    expect(page.locator("#split-body")).to_contain_text("splits 1,296 codes into 13 parts")
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page.locator("#message")).to_contain_text("1122: 1 black, 0 white.")
    expect(page.locator("#remaining-count")).to_have_text("256")
    for move in range(2, 6):  # then the strategy's suggestions, typed with the keyboard
        if page.locator("#message").inner_text().startswith("You found it"):
            break
        page.get_by_role("button", name="Hint").click()
        expect(page.locator("#hint-body")).to_contain_text("would play")
        suggestion = page.locator("#hint-body .code").first.get_attribute("data-code")
        guess_box.fill(suggestion)
        guess_box.press("Enter")
        expect(page.locator("#board-body tr")).to_have_count(move)
    expect(page.locator("#message")).to_contain_text("You found it in")
    expect(page.locator("#message")).to_contain_text(f"The secret was {secret}")
    rows = page.locator("#board-body tr")
    assert rows.count() <= 5  # Knuth never needs more than five guesses
    assert rows.last.locator(".code").get_attribute("data-code") == secret
    assert rows.last.locator(".peg").all_inner_texts() == list(secret)  # digits shown on the pegs
    expect(guess_box).to_be_hidden()
    shot = tmp_path / "codebreaker-4x6.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_codemaker_a_4x6_game_answered_truly(page, tmp_path):
    secret = GAME.parse("3632")
    start(page, "codemaker")
    expect(page.get_by_label("Secret to practise with (optional)")).to_be_hidden()
    moves = 0
    while moves < 6:
        guess = page.locator("#pending .code").get_attribute("data-code")
        fb = GAME.score(secret, GAME.parse(guess))
        moves += 1
        answer(page, fb.black, fb.white, moves)
        if fb.black == 4:
            break
        expect(page.locator("#split-body")).to_contain_text("splits")
    expect(page.locator("#message")).to_contain_text("Aha! Your secret is 3632")
    assert moves <= 5
    path = page.locator("#path-body ol.path li")
    expect(path).to_have_count(moves)
    expect(path.first).to_contain_text("1,296 codes")
    expect(path.first).to_contain_text("knuth plays")
    expect(page.locator("#answer-form")).to_be_hidden()
    shot = tmp_path / "codemaker-4x6.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_codemaker_contradiction_shown_and_corrected(page, tmp_path):
    secret = GAME.parse("3632")
    start(page, "codemaker")
    answer(page, 0, 0, 1)  # wrong: 1122 gets 1 black from 3632
    moves = 1
    while not page.locator("#error").inner_text():
        guess = page.locator("#pending .code").get_attribute("data-code")
        fb = GAME.score(secret, GAME.parse(guess))
        pegs_box(page, "Black").fill(str(fb.black))
        pegs_box(page, "White").fill(str(fb.white))
        page.get_by_role("button", name="Answer", exact=True).click()
        page.wait_for_function("() => document.querySelector('#error').textContent || "
                               f"document.querySelectorAll('#board-body tr:not(.pending-row)').length > {moves}")
        moves = page.locator("#board-body tr:not(.pending-row)").count()
    expect(page.locator("#error")).to_contain_text("guess 1: 1122 -> 0,0")
    expect(page.locator("#error")).to_contain_text("correct an earlier answer")
    page.get_by_role("button", name="Correct the answer to guess 1").click()
    page.get_by_label("Black for guess 1").fill("1")
    page.get_by_label("White for guess 1").fill("0")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#message")).to_contain_text("Corrected the answer to guess 1")
    expect(page.locator("#error")).to_be_empty()
    while "Aha!" not in page.locator("#message").inner_text():
        guess = page.locator("#pending .code").get_attribute("data-code")
        fb = GAME.score(secret, GAME.parse(guess))
        answer(page, fb.black, fb.white, page.locator("#board-body tr:not(.pending-row)").count() + 1)
    expect(page.locator("#message")).to_contain_text("Aha! Your secret is 3632")
    page.screenshot(path=str(tmp_path / "codemaker-corrected.png"), full_page=True)


def test_an_answer_corrected_to_the_win_says_that_the_later_answers_are_dropped(page):
    """As the terminal's 'fix': the page says why the later guesses left the board."""
    start(page, "codemaker")
    answer(page, 0, 0, 1)  # to 1122
    answer(page, 0, 0, 2)  # to 3345
    page.get_by_role("button", name="Correct the answer to guess 1").click()
    page.get_by_label("Black for guess 1").fill("4")
    page.get_by_label("White for guess 1").fill("0")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#board-body tr")).to_have_count(1)
    expect(page.locator("#message")).to_have_text(
        "Corrected the answer to guess 1: it is your secret, found in 1 guess, so the game ends there, and the "
        "answers to the later guesses, which fit it, are dropped.")
    expect(page.locator("#answer-form")).to_be_hidden()


def test_a_game_of_one_peg_is_told_in_the_singular(page):
    start(page, "codebreaker", size="1x6", codes="6")
    expect(page.locator("#message")).to_have_text("I have chosen a secret of 1 peg from the colours 1-6, repeats "
                                                  "allowed.")
    expect(page.locator("#split-body")).to_contain_text("Type a guess of 1 colour to see")
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page.locator("#error")).to_have_text("Type a guess of 1 colour first, e.g. 1.")
    page.get_by_role("button", name="New game").click()
    start(page, "codemaker", size="1x6", codes="6")
    expect(page.locator("#message")).to_contain_text("Choose a secret of 1 peg from the colours 1-6 and keep it")


def test_a_black_only_game_in_both_roles_shows_black_pegs_alone(page, tmp_path):
    """As 'mmlab play --black-only': the answers, the hint's tables and the answer form count black
    pegs only."""
    black_game, secret = Game.parse_size("4x6", feedback="black"), GAME.parse("3632")
    page.get_by_label("Answers count black pegs only").check()
    start(page, "codebreaker", secret="3632")
    expect(page.locator("#game-title")).to_contain_text("4x6 (black pegs only)")
    expect(page.locator("#message")).to_contain_text("a wrong place are not counted")
    guess_box = page.get_by_label("Your guess", exact=True)
    guess_box.fill("1122")
    guess_box.press("Enter")
    expect(page.locator("#message")).to_have_text("Guess 1, 1122: 1 black.")
    expect(page.locator("#remaining-count")).to_have_text("500")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#hint-body")).to_contain_text("500 codes left")
    classes = page.locator("#hint-body table.split tbody td:first-child").all_text_contents()
    assert classes and all(re.fullmatch("[0-4] black", c) for c in classes), classes
    for shown in ("#board-body", "#hint-body", "#split-body"):
        assert "white" not in page.locator(shown).text_content()
    page.screenshot(path=str(tmp_path / "codebreaker-black-only.png"), full_page=True)
    page.get_by_role("button", name="New game").click()
    start(page, "codemaker")  # (the box stays checked)
    expect(page.locator("#message")).to_contain_text("Answer each guess with its black pegs only")
    expect(pegs_box(page, "White")).to_be_hidden()
    pegs_box(page, "Black").press("Enter")
    expect(page.locator("#error")).to_have_text("Give the number of black pegs (0 if none).")
    moves = 0
    while "Aha!" not in page.locator("#message").inner_text():
        guess = black_game.parse(page.locator("#pending .code").get_attribute("data-code"))
        moves += 1
        pegs_box(page, "Black").fill(str(black_game.score(secret, guess).black))
        pegs_box(page, "Black").press("Enter")
        expect(page.locator("#board-body tr:not(.pending-row)")).to_have_count(moves)
    expect(page.locator("#message")).to_contain_text("Aha! Your secret is 3632")
    answers = page.locator("#board-body .answer-cell").all_text_contents()
    assert answers[-1] == "4 black" and all(re.fullmatch("[0-4] black", a) for a in answers), answers
    expect(page.locator("#path-body ol.path li")).to_have_count(moves)
    assert "white" not in page.locator("#path-body").text_content()
    page.get_by_role("button", name="Correct the answer to guess 1").click()
    expect(page.get_by_label("Black for guess 1")).to_be_visible()
    expect(page.get_by_label("White for guess 1")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "codemaker-black-only.png"), full_page=True)


def test_mistakes_are_shown_on_the_page(page):
    start(page, "codebreaker", secret="1234")
    guess_box = page.get_by_label("Your guess", exact=True)
    guess_box.fill("1129")
    guess_box.press("Enter")
    expect(page.get_by_role("alert").filter(has_text="not a colour")).to_contain_text(
        "code '1129': '9' is not a colour of the 4x6 game (expected 1-6 or A-F)")
    page.get_by_label("Size (pegs x colours)").fill("6x8")
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("#setup-error")).to_contain_text("the 6x8 game has 262,144 codes")


def test_full_width_digits_are_previewed_and_played_as_the_digits_they_are(page):
    """What an input method types in full-width mode: the preview showed pegs of no colour labelled
    '１', and the server refused the guess."""
    start(page, "codebreaker", secret="3632")
    guess_box = page.get_by_label("Your guess", exact=True)
    guess_box.fill("１１２２")
    expect(page.locator("#guess-preview .peg")).to_have_text(["1", "1", "2", "2"])
    guess_box.press("Enter")
    expect(page.locator("#board-body tr")).to_have_count(1)
    expect(page.locator("#board-body tr")).to_contain_text("1122")


@pytest.mark.parametrize("typed", ["١١٢٢", "𝟏𝟏𝟐𝟐"], ids=["arabic-indic", "mathematical-bold"])
def test_other_scripts_digits_are_previewed_as_the_pegs_the_server_reads(page, typed):
    """The server reads the digits of any script as ASCII (c2934b0), and played '١١٢٢' as 1122, but
    the preview showed pegs of no colour labelled '١'."""
    start(page, "codebreaker", secret="3632")
    guess_box = page.get_by_label("Your guess", exact=True)
    guess_box.fill(typed)
    preview = page.locator("#guess-preview .peg")
    expect(preview).to_have_text(["1", "1", "2", "2"])
    background = "pegs => pegs.map((peg) => peg.style.background)"
    one, two = page.locator("#legend .peg").evaluate_all(background)[:2]
    assert preview.evaluate_all(background) == [one, one, two, two]
    expect(page.locator("#split-body")).to_contain_text("splits 1,296 codes into 13 parts")
    guess_box.press("Enter")
    expect(page.locator("#board-body .code")).to_have_attribute("data-code", "1122")


def test_the_page_reads_a_typed_guess_as_the_server_does(page):
    """Every character alone, and a few guesses: the colours the page reads in a typed guess (its
    preview, and whether it asks for the split) are those the server reads (split_code). It read
    the digits of other scripts as themselves, and its spaces were JavaScript's (U+FEFF, not U+0085)."""
    read = page.evaluate("""() => {
        const read = {};
        for (let code = 0; code < 0x110000; code++) {
            const typed = String.fromCodePoint(code), tokens = guessTokens(typed);
            if (tokens.length !== 1 || tokens[0] !== typed) read[code] = tokens;
        }
        return read;
    }""")
    on_page = {int(code): tokens for code, tokens in read.items()}
    on_server = {code: tokens for code in range(0x110000) if (tokens := split_code(chr(code))) != [chr(code)]}
    if unicodedata.unidata_version != "14.0.0":  # a later Python's, with the digits of scripts encoded since,
        on_server = {code: tokens for code, tokens in on_server.items()  # which the page shows as typed (app.js)
                     if code in on_page or not chr(code).isdecimal()}
    differ = {f"U+{code:04X}": (on_page.get(code), on_server.get(code))
              for code in sorted(on_page.keys() | on_server.keys()) if on_page.get(code) != on_server.get(code)}
    assert not differ, f"read differently (page, server): {differ}"
    for typed in ["١ ٢,٣;٤", "١٠ ٢", "１　２　３　４", "\ufeff1122", "1122\x85", "1\x1c2", " 10\u2003 2 ", "ＡＢ，Ｃ"]:
        assert page.evaluate("guessTokens", typed) == split_code(typed), typed


def test_a_game_the_server_no_longer_holds_is_said_so_in_the_pages_words(page):
    """Not the API's "start a new game (POST /api/games)"."""
    start(page, "codebreaker", secret="3632")
    page.evaluate("async () => { await fetch(`/api/games/${state.id}`, { method: 'DELETE' }); }")  # (or expired)
    guess_box = page.get_by_label("Your guess", exact=True)
    guess_box.fill("1122")
    guess_box.press("Enter")
    gone = ("This game is no longer on the server: it was left, it expired after 30 minutes unused, or the server "
            "was restarted. Start a new game.")
    expect(page.locator("#error")).to_have_text(gone)
    expect(page.locator("#split-body")).to_have_text(gone)
    page.reload()
    expect(page.locator("#setup-error")).to_contain_text("This game is no longer on the server")
    assert "/api" not in page.locator("#setup-error").inner_text()


def test_on_a_phone_the_page_never_scrolls_sideways(page):
    """The hint's table scrolls within its card, and a long code of mmlab's wraps, as the board does."""
    page.set_viewport_size({"width": 375, "height": 800})
    width = "document.documentElement.scrollWidth"
    start(page, "codebreaker", secret="3632")
    guess_box = page.get_by_label("Your guess", exact=True)
    guess_box.fill("1122")
    guess_box.press("Enter")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#hint-body")).to_contain_text("knuth would play")
    assert page.evaluate(width) == 375
    # the codebreaker's board fits the screen: its narrow rules (smaller pegs, answers that wrap) came
    # before the rules they narrow, which overrode them (the board was 375 px wide in 301)
    board = page.locator(".table-wrap").first
    assert board.evaluate("w => w.scrollWidth <= w.clientWidth"), board.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert page.locator("#board-body .answer").first.evaluate("a => getComputedStyle(a).whiteSpace") == "normal"
    page.get_by_role("button", name="New game").click()
    start(page, "codemaker", size="8x4", codes="65,536")
    answer(page, 1, 2, 1)
    expect(page.locator("#path-body ol.path li")).to_have_count(2)
    assert page.evaluate(width) == 375


@pytest.mark.parametrize("size,codes", [("4x6", "1,296"), ("5x8", "32,768")])
def test_on_a_phone_the_codemakers_board_fits_with_its_correct_buttons(page, size, codes):
    """At 375 px the board of a 4- or 5-peg game shows every column, the Correct buttons within the
    screen and 24 px high at least (the board was 344 px wide in 301, its buttons past the edge), and
    so does the form of a correction."""
    page.set_viewport_size({"width": 375, "height": 800})
    start(page, "codemaker", size=size, codes=codes)
    answer(page, 1, 2, 1)
    board = page.locator(".table-wrap").filter(has=page.locator("#board-body"))
    assert board.evaluate("w => w.scrollWidth <= w.clientWidth"), board.evaluate("w => [w.scrollWidth, w.clientWidth]")
    box = page.get_by_role("button", name="Correct the answer to guess 1").bounding_box()
    assert box["x"] + box["width"] <= 375 and box["height"] >= 24, box
    # and while an answer is corrected: its Save and Cancel go below its boxes (the board was 492 px
    # wide in 318, Cancel cut off; helper-116)
    page.get_by_role("button", name="Correct the answer to guess 1").click()
    assert board.evaluate("w => w.scrollWidth <= w.clientWidth"), board.evaluate("w => [w.scrollWidth, w.clientWidth]")
    box = page.get_by_role("button", name="Cancel").bounding_box()
    assert box["x"] + box["width"] <= 375, box


def test_giving_up_leaves_no_hint_or_code_to_use(page):
    start(page, "codebreaker", secret="321", size="3x3", codes="27")
    guess_box = page.get_by_label("Your guess", exact=True)
    guess_box.fill("112")
    guess_box.press("Enter")
    page.get_by_role("button", name="Hint").click()
    page.get_by_role("button", name="Candidates").click()
    expect(page.locator("#candidates")).to_contain_text("fit the answers")
    expect(page.locator("#hint-body")).to_contain_text("would play")
    page.get_by_role("button", name="Give up").click()
    expect(page.locator("#message")).to_contain_text("The secret was")
    expect(page.locator("#hint-body")).to_have_text("The game is over: start a new one.")
    expect(page.get_by_role("button", name=re.compile("^Use "))).to_have_count(0)


def play_two_guesses(page) -> None:
    start(page, "codebreaker", secret="3632")
    guess_box = page.get_by_label("Your guess", exact=True)
    for code, said in (("1122", "1122: 1 black, 0 white."), ("1344", "1344: 0 black, 1 white.")):
        guess_box.fill(code)
        guess_box.press("Enter")
        expect(page.locator("#message")).to_contain_text(said)
    expect(page.locator("#board-body tr")).to_have_count(2)


def one_guess_taken_back(page) -> None:
    page.wait_for_function("busyGame === null")  # (a second request, if made, has been answered)
    on_server = page.evaluate("async () => (await (await fetch(`/api/games/${state.id}`)).json()).moves.length")
    assert on_server == 1  # one guess taken back, not both
    expect(page.locator("#board-body .code")).to_have_count(1)
    expect(page.locator("#error")).to_be_empty()


def test_a_double_click_moves_once(page):
    play_two_guesses(page)
    page.get_by_role("button", name="Undo").dblclick()
    expect(page.locator("#message")).to_contain_text("Took back the last guess")
    one_guess_taken_back(page)


def test_the_second_click_of_a_double_click_is_dropped_after_the_first_has_moved(page):
    """A person's double click can take long enough for the first click's move to come back, and
    then the page's seen_moves is up to date: the second click took back a second guess."""
    play_two_guesses(page)
    undo = page.get_by_role("button", name="Undo")
    undo.click()
    expect(page.locator("#message")).to_contain_text("Took back the last guess")
    page.wait_for_function("busyGame === null")
    undo.dispatch_event("click", {"detail": 2})  # (a click's detail counts the clicks in a row)
    one_guess_taken_back(page)


def count_games_asked(page) -> None:
    """Count the games the page asks for from now on in ``gamesAsked`` (as it asks: synchronously,
    on the click or the key)."""
    page.evaluate("""() => {
        window.gamesAsked = 0;
        const fetchAsked = window.fetch;
        window.fetch = (url, options) => {
            if (url === "/api/games" && options.method === "POST") window.gamesAsked++;
            return fetchAsked(url, options);
        };
    }""")


def stop_the_clock(page) -> None:
    """Stop the page's clock (Playwright's, in place of the browser's), so that two presses of a key
    are at once however long the test takes between them; page.clock.fast_forward moves it on."""
    page.clock.install(time=1_000_000)
    page.clock.pause_at(1_001_000)


def test_a_slow_double_click_on_start_game_starts_one_game(page):
    """The button is disabled while its game is on its way, but a person's double click can take
    longer than that: the second click started a second game in place of the first."""
    start(page, "codebreaker", secret="3632")  # (the first click, whose game has come back)
    first = page.evaluate("state.id")
    count_games_asked(page)
    start_button = page.get_by_role("button", name="Start game")
    start_button.dispatch_event("click", {"detail": 2})  # (a click's detail counts the clicks in a row)
    assert page.evaluate("gamesAsked") == 0
    start_button.click()  # a click of its own starts another game, as before
    expect(page.locator("#remaining-count")).to_have_text("1,296")
    page.wait_for_function(f"state.id !== {first!r}")
    assert page.evaluate("gamesAsked") == 1


def enter_held_and_pressed_again(page, shows, text: str) -> None:
    """Press Enter where the focus is and hold it until ``shows`` contains ``text`` (what the press
    did has come back), and on (its repeats), then press it again at once (a bounce: the page's
    clock is stopped)."""
    page.keyboard.down("Enter")
    expect(shows).to_contain_text(text)
    page.keyboard.down("Enter")  # (Playwright's presses of a key already down are its repeats)
    page.keyboard.down("Enter")
    page.keyboard.up("Enter")
    page.keyboard.press("Enter")


def test_enter_held_or_pressed_again_at_once_in_the_setup_form_only_starts_the_game(page):
    """Start game is disabled while its game is on its way, which stops Enter too, but the page gives
    the new game's guess box the focus as it comes, and the key's repeats went on there: an empty
    guess played ('Type a guess of 4 colours first'), each repeat. A press of its own, a moment later
    or after a click, acts as before."""
    stop_the_clock(page)
    count_games_asked(page)
    page.get_by_label("Size (pegs x colours)").focus()
    enter_held_and_pressed_again(page, page.locator("#remaining-count"), "1,296")
    first = page.evaluate("state.id")
    assert page.evaluate("[gamesAsked, state.id, document.activeElement.id]") == [1, first, "guess"]
    expect(page.locator("#error")).to_be_empty()
    page.clock.fast_forward(1000)
    page.keyboard.press("Enter")  # a moment later: the person's own press
    expect(page.locator("#error")).to_have_text("Type a guess of 4 colours first, e.g. 1234.")
    page.get_by_role("button", name="New game").click()
    page.keyboard.press("Enter")  # (in the setup form again, right after the click)
    page.wait_for_function(f"state.id !== {first!r}")
    assert page.evaluate("gamesAsked") == 2


def test_enter_held_on_the_winning_guess_starts_no_game(page):
    """The page gives New game the focus after the winning guess, and a held Enter's repeats pressed
    it, then Start game in the form it opens: the game just won was replaced by a new one."""
    stop_the_clock(page)
    start(page, "codebreaker", secret="1122")
    count_games_asked(page)
    page.get_by_label("Your guess", exact=True).fill("1122")
    enter_held_and_pressed_again(page, page.locator("#message"), "You found it in 1 guess!")
    assert page.evaluate("[gamesAsked, document.activeElement.id]") == [0, "new-btn"]
    expect(page.locator("#message")).to_contain_text("You found it in 1 guess!")


def test_enter_held_on_the_winning_answer_takes_nothing_back(page):
    """The page gives Undo the focus after the winning answer, and a held Enter's repeats pressed
    it: the win was taken back, then every answer before it, one at each repeat."""
    stop_the_clock(page)
    start(page, "codemaker")
    answer(page, 1, 0, 1)
    pegs_box(page, "Black").fill("4")
    pegs_box(page, "White").fill("0")
    enter_held_and_pressed_again(page, page.locator("#message"), "Aha! Your secret is")
    page.wait_for_function("busyGame === null")  # (an undo, if asked, has been answered)
    on_server = page.evaluate("async () => (await (await fetch(`/api/games/${state.id}`)).json()).moves.length")
    assert on_server == 2
    assert page.evaluate("document.activeElement.id") == "maker-undo-btn"
    expect(page.locator("#message")).to_contain_text("Aha! Your secret is")
    page.clock.fast_forward(1000)
    page.keyboard.press("Enter")  # a moment later: the person's own press of Undo
    expect(page.locator("#message")).to_have_text(re.compile(r"^Took back the last answer, 4 black, 0 white to \d{4}\.$"))
    expect(page.locator("#board-body tr:not(.pending-row)")).to_have_count(1)


@pytest.mark.skipif(needs_engine_lock(), reason="numba's workqueue layer: one request computes at a time, so the "
                    "new game waits for the old game's move (docs/web.md)")
def test_a_late_answer_for_a_game_no_longer_on_screen_is_ignored(page, gate):
    """The player starts a new game while mmlab still works out its move in the old one: the new
    game plays at once, and the old game's answer, when it comes, changes nothing on screen."""
    start(page, "codemaker")
    gate.hold(page)
    pegs_box(page, "Black").fill("0")
    pegs_box(page, "White").fill("1")
    with page.expect_response(lambda r: r.url.endswith("/answer")) as late:
        page.get_by_role("button", name="Answer", exact=True).click()
        assert gate.held.wait(timeout=30)
        page.get_by_role("button", name="New game").click()
        start(page, "codebreaker", secret="341", size="3x4", codes="64")
        guess_box = page.get_by_label("Your guess", exact=True)
        guess_box.fill("112")
        guess_box.press("Enter")  # not held up by the old game's move
        expect(page.locator("#message")).to_contain_text("112: 0 black, 1 white.")
        gate.open()
    assert late.value.ok and late.value.finished() is None  # (its body has reached the page too)
    page.wait_for_timeout(200)  # (the page has handled the late answer by now)
    expect(page.locator("#game-title")).to_contain_text("You guess · 3x4")
    expect(page.locator("#board-body tr")).to_have_count(1)
    guess_box.fill("323")
    guess_box.press("Enter")
    expect(page.locator("#board-body tr")).to_have_count(2)
    expect(page.locator("#error")).to_be_empty()


def test_a_new_game_on_a_server_at_its_limit_takes_the_place_of_the_old_one(page, server_app, monkeypatch):
    games = server_app.state.games
    start(page, "codebreaker", secret="3632")
    old = page.evaluate("state.id")
    monkeypatch.setattr(games, "max_games", len(games))  # the server is full, this page's game counted
    page.get_by_role("button", name="New game").click()
    page.get_by_label("Size (pegs x colours)").fill("6x8")  # refused for its size: the old game stays
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("#setup-error")).to_contain_text("the 6x8 game has 262,144 codes")
    assert games.get(old) and page.evaluate("state.id") == old
    start(page, "codemaker", size="3x4", codes="64")
    expect(page.locator("#setup-error")).to_be_empty()
    assert page.evaluate("state.id") != old and len(games) == games.max_games
    with pytest.raises(GameNotFound):
        games.get(old)
    monkeypatch.setattr(games, "max_games", len(games) - 1)  # other players' games fill it
    page.get_by_role("button", name="New game").click()
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("#setup-error")).to_contain_text("already playing as many games as it may")
    expect(page.locator("#setup-error")).not_to_contain_text("DELETE")
    expect(page.locator("#game")).to_be_hidden()  # its game was left to make room, in vain


@pytest.mark.parametrize("size, repeats, example", [("4x5", False, "Type digits (1234) or letters (ABCD)"),
                                                     ("4x10", False, "separated by spaces (1 2 3 4) or letters (ABCD)"),
                                                     ("5x3", True, "Type digits (12312) or letters (ABCAB)")])
def test_the_guess_help_shows_a_code_of_the_game(page, size, repeats, example):
    page.get_by_label("Colours may repeat").set_checked(repeats)
    start(page, "codebreaker", size=size, codes=f"{Game.parse_size(size, repeats=repeats).n_codes:,}")
    expect(page.locator("#guess-help")).to_contain_text(example)
    code = example.split("(")[1].split(")")[0]
    page.get_by_label("Your guess", exact=True).fill(code)  # a code the game takes
    page.get_by_label("Your guess", exact=True).press("Enter")
    expect(page.locator("#board-body tr")).to_have_count(1)
    expect(page.locator("#error")).to_be_empty()


def test_the_page_says_it_is_working_during_a_slow_move(page, gate, tmp_path):
    start(page, "codemaker")
    answer(page, 1, 0, 1)
    gate.hold(page)
    pegs_box(page, "Black").fill("0")
    pegs_box(page, "White").fill("1")
    pegs_box(page, "White").press("Enter")
    assert gate.held.wait(timeout=30)
    expect(page.locator("#busy")).to_have_text("mmlab is choosing its next guess…")
    expect(page.locator("#game")).to_have_attribute("aria-busy", "true")
    for name in ("Answer", "Undo last answer", "Codes that fit", "Correct the answer to guess 1"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_disabled()  # its click would be ignored
    expect(page.get_by_role("button", name="New game")).to_be_enabled()
    page.screenshot(path=str(tmp_path / "codemaker-busy.png"), full_page=True)
    gate.open()
    expect(page.locator("#busy")).to_be_hidden()
    expect(page.locator("#board-body tr:not(.pending-row)")).to_have_count(2)
    for name in ("Answer", "Undo last answer", "Codes that fit", "Correct the answer to guess 1"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_enabled()
    expect(pegs_box(page, "Black")).to_be_focused()


def test_a_split_that_comes_after_the_guess_changed_is_dropped(page, monkeypatch):
    gate = Gate(monkeypatch, "partition", when=lambda live, guess: True)
    start(page, "codebreaker", secret="3632")
    gate.hold(page)
    guess_box = page.get_by_label("Your guess", exact=True)
    try:
        with page.expect_response(lambda r: "/partition" in r.url) as late:
            guess_box.fill("1122")
            assert gate.held.wait(timeout=30)
            guess_box.fill("11")
            expect(page.locator("#split-body")).to_contain_text("Type a guess of 4 colours")
            gate.open()
        assert late.value.ok
    finally:
        gate.open()
    assert late.value.finished() is None  # (its body has reached the page too)
    page.wait_for_timeout(200)  # (the page has handled the late split by now)
    expect(page.locator("#split-body")).to_contain_text("Type a guess of 4 colours")


def test_answers_that_are_not_whole_numbers_and_rejected_corrections(page):
    start(page, "codemaker")
    pegs_box(page, "Black").fill("1.5")
    pegs_box(page, "White").press("Enter")
    expect(page.locator("#error")).to_have_text("Black: give a whole number of pegs, from 0 to 4, not 1.5.")
    expect(page.locator("#board-body tr:not(.pending-row)")).to_have_count(0)
    answer(page, 1, 0, 1)
    expect(page.locator("#error")).to_be_empty()
    for black, said in (("0", "Corrected the answer to guess 1"), ("5", "")):
        page.get_by_role("button", name="Correct the answer to guess 1").click()
        page.get_by_label("Black for guess 1").fill(black)
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#message")).to_have_text(re.compile(f"^{said}"))
    expect(page.locator("#error")).to_contain_text("black + white cannot exceed the 4 pegs")
    expect(page.locator("#message")).to_be_empty()  # not the earlier correction's message beside it
    page.get_by_label("Black for guess 1").fill("1")  # the form stays open to try again
    page.get_by_label("White for guess 1").fill("0.5")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#error")).to_have_text("White: give a whole number of pegs, from 0 to 4, not 0.5.")


def type_in(page, box, text: str) -> None:
    """Type ``text`` in ``box`` in place of what it holds, as a keyboard layout or an input method
    types it (Playwright's fill refuses text that a number box would not take)."""
    box.fill("")
    box.focus()
    page.keyboard.insert_text(text)


def in_script(n: int, zero: str) -> str:
    """``n`` written with the digits whose zero is ``zero``."""
    return "".join(chr(ord(zero) + int(d)) for d in str(n))


def test_answers_typed_in_the_digits_of_other_scripts_are_read_as_the_server_reads_them(page):
    """The answer boxes were <input type=number>, whose value Chromium leaves empty when '١' is typed
    (it takes '１'): the page said "Give the number of black pegs", though the server reads such
    digits in a typed answer ('١ ٠', errors.as_typed) and the guess box reads them too."""
    secret = GAME.parse("3632")
    start(page, "codemaker")
    type_in(page, pegs_box(page, "Black"), "١")  # 1122 gets 1 black from 3632
    type_in(page, pegs_box(page, "White"), "٠")
    pegs_box(page, "White").press("Enter")
    expect(page.locator("#board-body .answer-cell")).to_have_text(["1 black, 0 white"])
    expect(page.locator("#error")).to_be_empty()
    page.get_by_role("button", name="Correct the answer to guess 1").click()
    type_in(page, page.get_by_label("Black for guess 1"), "१")  # (Devanagari) the same answer again
    type_in(page, page.get_by_label("White for guess 1"), "０")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#message")).to_have_text("Corrected the answer to guess 1; 256 codes fit the answers.")
    type_in(page, pegs_box(page, "Black"), "abc")
    pegs_box(page, "Black").press("Enter")
    expect(page.locator("#error")).to_have_text("Black: give a whole number of pegs, from 0 to 4, not abc.")
    type_in(page, pegs_box(page, "Black"), "١.٥")
    pegs_box(page, "Black").press("Enter")
    expect(page.locator("#error")).to_have_text("Black: give a whole number of pegs, from 0 to 4, not ١.٥.")
    zeros = iter(["\u0660", "\U0001D7CE", "\u09E6", "\u0E50"] * 2)  # Arabic-Indic, mathematical bold, Bengali, Thai
    while "Aha!" not in page.locator("#message").inner_text():
        fb = GAME.score(secret, GAME.parse(page.locator("#pending .code").get_attribute("data-code")))
        moves = page.locator("#board-body tr:not(.pending-row)").count() + 1
        zero = next(zeros)
        type_in(page, pegs_box(page, "Black"), in_script(fb.black, zero))
        type_in(page, pegs_box(page, "White"), f" {in_script(fb.white, zero)}\u3000")  # (spaces around)
        pegs_box(page, "White").press("Enter")
        expect(page.locator("#board-body tr:not(.pending-row)")).to_have_count(moves)
    expect(page.locator("#message")).to_contain_text("Aha! Your secret is 3632")
    expect(page.locator("#error")).to_be_empty()


def test_the_answer_boxes_step_with_the_arrow_keys_as_number_boxes_do(page):
    """They are text boxes now (above), which ArrowUp and ArrowDown leave as they are: they step as
    the number boxes did, within 0 and the pegs, from a number in any script, and are spin buttons to
    assistive technology. (A number box read '٣' as nothing, and stepped from 0.)"""
    start(page, "codemaker")
    black = page.get_by_role("spinbutton", name="Black")
    white = page.get_by_role("spinbutton", name="White")
    type_in(page, black, "٣")
    black.press("ArrowDown")
    expect(black).to_have_value("2")
    expect(black).to_have_attribute("inputmode", "numeric")  # (a number pad on a phone)
    expect(black).to_have_attribute("aria-valuemax", "4")
    expect(black).to_have_attribute("aria-valuenow", "2")
    for key, value in (("ArrowUp", "3"), ("ArrowUp", "4"), ("ArrowUp", "4"), ("ArrowDown", "3"), ("ArrowDown", "2")):
        black.press(key)
        expect(black).to_have_value(value)
        expect(black).to_have_attribute("aria-valuenow", value)
    for typed, key, value in (("", "ArrowUp", "1"), ("", "ArrowDown", "0"), ("abc", "ArrowUp", "1"),
                              ("1.5", "ArrowUp", "2"), ("1.5", "ArrowDown", "1"), ("7", "ArrowUp", "7"),
                              ("7", "ArrowDown", "4"), ("-2", "ArrowDown", "-2"), ("-2", "ArrowUp", "0")):
        type_in(page, white, typed)
        white.press(key)
        expect(white).to_have_value(value)
    white.press("ArrowDown")  # to 0; then Enter answers 2 black, 0 white
    white.press("Enter")
    expect(page.locator("#board-body .answer-cell")).to_have_text(["2 black, 0 white"])
    expect(black).to_have_value("")
    expect(black).not_to_have_attribute("aria-valuenow", re.compile(".*"))
    expect(black).to_be_focused()
    page.get_by_role("button", name="Correct the answer to guess 1").click()
    fix = page.get_by_role("spinbutton", name="Black for guess 1")
    expect(fix).to_have_attribute("aria-valuenow", "2")
    fix.press("ArrowDown")
    expect(fix).to_have_value("1")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#message")).to_contain_text("Corrected the answer to guess 1")
    expect(page.locator("#board-body .answer-cell")).to_have_text(["1 black, 0 white"])


# ------------------------------------------------------------------ without a mouse, or with a screen reader

def focused(page) -> str:
    """What has the focus: its id, else its accessible name as aria-label gives it, else its text."""
    return page.evaluate("""() => { const a = document.activeElement;
        return a.id || a.getAttribute("aria-label") || a.textContent.trim() || a.tagName; }""")


def tab_to(page, name: str, back: bool = False) -> None:
    """Press Tab (Shift-Tab when ``back``) until ``name`` (as ``focused`` says) has the focus."""
    passed = []
    for _ in range(40):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        passed.append(focused(page))
        if passed[-1] == name:
            return
    raise AssertionError(f"Tab never reached {name!r}; it went through {passed}")


def test_a_codebreaker_game_played_with_the_keyboard_alone_says_each_result(page):
    """Guesses typed, a hint asked for and used, the win, a new game: with Tab, Enter and Space only.
    The hint's answer was said nowhere (its table came beside the board, and the focus stays on
    Hint), so a screen reader user heard nothing; it is said now, as a move's answer is."""
    page.keyboard.press("Tab")  # (the API link, then the role: Codebreaker, checked)
    tab_to(page, "secret")
    page.keyboard.type("3632")
    page.keyboard.press("Enter")
    expect(page.locator("#remaining-count")).to_have_text("1,296")
    assert focused(page) == "guess"
    page.keyboard.type("1122")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status").filter(has_text="1122: 1 black, 0 white.")).to_have_count(1)
    assert focused(page) == "guess"
    tab_to(page, "hint-btn")
    page.keyboard.press("Enter")
    said = page.get_by_role("status").filter(has_text="knuth would play 1344; 256 codes left.")
    expect(said).to_have_count(1)
    expect(said).to_have_attribute("id", "hint-said")  # (not the move's answer, which stays on screen)
    page.wait_for_function("busyGame === null")
    assert focused(page) == "hint-btn"
    tab_to(page, "Use 1344")
    page.keyboard.press("Space")
    assert focused(page) == "guess"
    expect(page.get_by_label("Your guess", exact=True)).to_have_value("1344")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status").filter(has_text="1344: 0 black, 1 white.")).to_have_count(1)
    expect(page.locator("#hint-said")).to_be_empty()  # (the hint of the position before)
    tab_to(page, "Add colour 3")  # a colour of the palette, with Space
    page.keyboard.press("Space")
    assert focused(page) == "guess"
    page.keyboard.type("632")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status").filter(has_text="You found it in 3 guesses!")).to_have_count(1)
    assert focused(page) == "new-btn"
    page.keyboard.press("Space")
    assert focused(page) == "size"


@pytest.mark.parametrize("feedback", ["black-white", "black"])
def test_a_codemaker_game_played_with_the_keyboard_alone_keeps_the_focus_and_says_each_guess(page, feedback):
    """Answers typed, a contradiction, a correction cancelled (Cancel, Escape) and one saved that
    wins, the win taken back: with Tab, arrow keys, Enter and Escape only. Cancel and the winning
    correction took the focus away with the form (to the page's top, where the next Tab started),
    Escape did not cancel, and mmlab's guess was said nowhere ('Next guess below.'): now it is, and
    the black box, where the focus goes, is described by it."""
    stop_the_clock(page)
    black_only = feedback == "black"
    page.keyboard.press("Tab")  # (the API link, then the role)
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")  # (Codemaker)
    assert page.evaluate("document.activeElement.value") == "codemaker"
    if black_only:
        tab_to(page, "black-only")
        page.keyboard.press("Space")
    tab_to(page, "start-btn")
    page.keyboard.press("Enter")
    expect(page.locator("#remaining-count")).to_have_text("1,296")
    assert focused(page) == "black"
    black = page.locator("#black")
    first = page.evaluate("state.next_guess")
    expect(black).to_have_accessible_description(re.compile(f"^mmlab guesses {' ?'.join(first)} ?$"))
    moves = 0
    while not page.locator("#error").inner_text():  # "0" to every guess, until no code fits
        page.keyboard.press("ArrowDown" if moves % 2 else "ArrowUp")  # (0: up to 1 and down, or down twice)
        page.keyboard.press("ArrowDown")
        if not black_only:
            page.keyboard.press("Tab")
            page.keyboard.type("0")
        page.keyboard.press("Enter")
        moves += 1
        page.wait_for_function("busyGame === null")
        if page.locator("#error").inner_text():
            break
        expect(page.locator("#board-body tr:not(.pending-row)")).to_have_count(moves)
        guess = page.evaluate("state.next_guess")
        remaining = page.evaluate("state.remaining")
        fit = "code fits" if remaining == 1 else "codes fit"
        expect(page.get_by_role("status").filter(has_text=f"{remaining:,} {fit} your answers. mmlab guesses "
                                                          f"{guess}.")).to_have_count(1)
        assert focused(page) == "black"
        expect(black).to_have_accessible_description(re.compile(f"^mmlab guesses {' ?'.join(guess)} ?$"))
        assert moves < 12
    expect(page.get_by_role("alert").filter(has_text="No code fits all of these answers")).to_have_count(1)
    assert focused(page) == ("black" if black_only else "white")  # (where it was)
    tab_to(page, "Correct the answer to guess 1", back=True)
    page.keyboard.press("Enter")
    assert focused(page) == "Black for guess 1"
    page.keyboard.press("Escape")
    expect(page.get_by_label("Black for guess 1")).to_have_count(0)
    assert focused(page) == "Correct the answer to guess 1"
    page.keyboard.press("Enter")
    tab_to(page, "Cancel")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Black for guess 1")).to_have_count(0)
    assert focused(page) == "Correct the answer to guess 1"
    page.keyboard.press("Space")
    page.keyboard.type("4")  # guess 1 was the secret (the box's old answer is selected: "4" replaces it)
    if not black_only:
        page.keyboard.press("Tab")
        page.keyboard.press("Control+a")
        page.keyboard.type("0")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Corrected the answer to guess 1: it is your secret")) \
        .to_have_count(1)
    assert focused(page) == "maker-undo-btn"
    page.clock.fast_forward(1000)  # (Enter a moment later: the person's own press)
    page.keyboard.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Took back the last answer, 4 black")).to_have_count(1)
    expect(page.locator("#board-body tr:not(.pending-row)")).to_have_count(0)


# Colours of the computed styles, for the contrast checks: ratio (WCAG 2's relative luminance), and
# what is behind an element (the first opaque background of it or its ancestors, semi-transparent ones
# laid over it).
COLOURS = r"""
  const rgba = (s) => { const p = s.match(/[\d.]+/g).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const lum = (c) => [0, 1, 2].map((i) => { const v = c[i] / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = (node) => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] === 1) break;
    }
    return layers.reverse().reduce((under, layer) => over(layer, under), [255, 255, 255, 1]);
  };"""
# The contrast of what is on screen: each text against what is behind it (the text's opacity too), as
# [ratio, text, its element]; and the focus ring's and a text box's border's against the card.
CONTRAST = "() => {" + COLOURS + r"""
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const e = t.parentElement;
    if (!t.textContent.trim() || !e.checkVisibility() || e.closest(".visually-hidden, :disabled")) continue;
    let opacity = 1;
    for (let n = e; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
    const bg = behind(e), fg = rgba(getComputedStyle(e).color);
    texts.push([ratio(over([fg[0], fg[1], fg[2], fg[3] * opacity], bg), bg), t.textContent.trim(), e.className]);
  }
  const card = behind(document.querySelector(".card"));
  const guess = document.getElementById("guess");
  return { texts, ringShown: guess.matches(":focus-visible"), ring: ratio(rgba(getComputedStyle(guess).outlineColor), card),
           border: ratio(rgba(getComputedStyle(guess).borderTopColor), card),
           button: ratio(rgba(getComputedStyle(document.getElementById("hint-btn")).borderTopColor), card) };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_focus_ring_and_boxes_contrast_enough_with_what_is_behind_them(page, scheme):
    """Every text 4.5 times as light as its background or more (WCAG AA), the focus ring and a text
    box's and a button's border 3 times (non-text contrast). The white digits of colours 2 (green)
    and 13 (orange) had 3.5 to 1, the orange focus ring 2.1 to 1 on the white card, the boxes' border
    2.2, and the buttons' 2.15 (2.0 dark; helper-102's review)."""
    page.emulate_media(color_scheme=scheme)
    start(page, "codebreaker", size="2x36", codes="1,296")  # (all 36 colours in the legend and the palette)
    page.get_by_label("Your guess", exact=True).fill("2 13")
    page.get_by_label("Your guess", exact=True).press("Enter")
    expect(page.locator("#board-body .code")).to_have_count(1)
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#hint-body")).to_contain_text("would play")
    page.get_by_label("Your guess", exact=True).fill("13 2")  # (its split table)
    expect(page.locator("#split-body")).to_contain_text("splits")
    page.get_by_label("Your guess", exact=True).focus()
    seen = page.evaluate(CONTRAST)
    low = [(round(r, 2), text, where) for r, text, where in seen["texts"] if r < 4.5]
    assert low == []
    assert len(seen["texts"]) > 100
    assert seen["ringShown"] and seen["ring"] >= 3 and seen["border"] >= 3 and seen["button"] >= 3, seen
    start(page, "codemaker", codes="1,296")
    answer(page, 1, 0, 1)
    expect(page.locator("#path-body li")).to_have_count(2)
    low = [(round(r, 2), text, where) for r, text, where in page.evaluate(CONTRAST)["texts"] if r < 4.5]
    assert low == []


def test_a_game_refused_leaves_the_focus_on_start_game(page):
    """Start game is disabled while its game is on its way, which took the focus from it: a game
    refused (a size out of range) left the focus nowhere, and the next Tab started over at the top."""
    page.get_by_label("Size (pegs x colours)").fill("4x99")
    page.get_by_label("Size (pegs x colours)").focus()
    tab_to(page, "start-btn")
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert").filter(has_text="colours must be a whole number from 2 to 36, got 99")) \
        .to_have_count(1)
    assert focused(page) == "start-btn"
    page.keyboard.press("Shift+Tab")  # (back to the form's fields, from where it was)
    assert focused(page) == "black-only"


def test_the_pages_live_regions_are_there_while_they_have_nothing_to_say(page):
    """What the page says of a move (#message), of a mistake (#error, #setup-error) and of a wait
    (#busy) was display: none, or hidden, while empty, so out of the accessibility tree: each came
    into it with its text at once, which a screen reader does not always read (a live region is read
    as what comes into it changes). They are there now, empty and taking no room."""
    expect(page.get_by_role("alert")).to_have_count(1)  # (the setup form's)
    start(page, "codebreaker", secret="3632")
    page.reload()  # (the game resumed: nothing said yet)
    expect(page.locator("#remaining-count")).to_have_text("1,296")
    for region in ("#message", "#error", "#busy", "#hint-said", "#candidates-said", "#setup-error"):
        expect(page.locator(region)).to_be_empty()
    statuses = page.locator("#game").get_by_role("status")
    expect(statuses).to_have_count(4)  # #message, #busy, #hint-said, #candidates-said
    expect(page.get_by_role("alert")).to_have_count(2)
    for region in ("#message", "#error", "#busy", "#setup-error"):
        assert page.locator(region).bounding_box()["height"] == 0
    page.get_by_label("Your guess", exact=True).fill("1122")
    page.get_by_label("Your guess", exact=True).press("Enter")
    expect(page.get_by_role("status").filter(has_text="1122: 1 black, 0 white.")).to_have_count(1)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_codes_left_are_said_whole_and_new_game_scrolls_as_motion_is_wished(page, motion):
    """The codes left were a live region that said only what changed in it ('256', not '256 codes fit
    the answers so far'); and New game scrolled smoothly to the form even when the system asks for
    less motion, which the page's spinner heeds."""
    page.emulate_media(reduced_motion=motion)
    start(page, "codebreaker", secret="3632")
    remaining = page.locator("#remaining-count").locator("..")
    expect(remaining).to_have_attribute("aria-live", "polite")
    expect(remaining).to_have_attribute("aria-atomic", "true")
    page.evaluate("""() => { window.scrolled = [];
        Element.prototype.scrollIntoView = function (options) { scrolled.push(options && options.behavior); }; }""")
    page.get_by_role("button", name="New game").press("Enter")
    assert focused(page) == "size"
    assert page.evaluate("scrolled") == ["auto" if motion == "reduce" else "smooth"]


def test_two_undos_in_a_row_say_two_things(page):
    """Each undo said 'Took back the last guess.' (or answer): the second said the same again, which
    a status does not read again, so a screen reader user heard nothing of it. Each names what it
    took back now."""
    play_two_guesses(page)
    undo = page.get_by_role("button", name="Undo")
    undo.click()
    expect(page.locator("#message")).to_have_text("Took back the last guess, 1344.")
    undo.click()
    expect(page.locator("#message")).to_have_text("Took back the last guess, 1122.")
    expect(page.locator("#board-body .code")).to_have_count(0)
    start(page, "codemaker")
    answer(page, 1, 0, 1)
    page.get_by_role("button", name="Undo last answer").click()
    expect(page.locator("#message")).to_have_text("Took back the last answer, 1 black, 0 white to 1122.")


def test_a_mathmind_game_answers_in_words_hints_by_its_rule_and_ends_with_the_rules_count(page, tmp_path):
    """MathMind (Reddi's answers) as codebreaker: the answer menu takes the codemaker role and black
    pegs only off the form, the board and the tables say each answer in words (no pegs), the
    preview's winning answer is marked, and the end says how many guesses the hints' rule needs."""
    from mmlab.variants.mathmind import MathMind

    mm = MathMind(GAME, "euclidean")
    page.get_by_label("Codemaker").check()
    page.get_by_label("Answers count black pegs only").check()
    page.get_by_label("MathMind answers").select_option("euclidean")
    expect(page.get_by_label("Codebreaker")).to_be_checked()
    expect(page.get_by_label("Answers count black pegs only")).to_be_disabled()
    expect(page.get_by_label("Answers count black pegs only")).not_to_be_checked()
    suggested = page.locator("#strategy-list option")
    expect(suggested).to_have_count(4)
    assert [o.get_attribute("value") for o in suggested.all()] == ["knuth", "irving", "most-parts", "entropy"]
    start(page, "codebreaker", secret="3632")
    expect(page.locator("#game-title")).to_contain_text("4x6 (MathMind: Euclidean distance)")
    expect(page.locator("#message")).to_contain_text("each answer is the squared distance between your guess")
    guess_box = page.get_by_label("Your guess", exact=True)
    guess_box.fill("1111")
    guess_box.press("Enter")
    expect(page.locator("#message")).to_have_text("Guess 1, 1111: squared distance 34.")  # (as a screen reader says it)
    expect(page.locator("#remaining-count")).to_have_text("42")
    expect(page.locator("#board-body .answer-cell [aria-hidden=true]")).to_have_text(["distance² 34"])
    expect(page.locator("#board-body .answer-cell .visually-hidden")).to_have_text(["squared distance 34"])
    assert page.locator("#board-body .key").count() == 0  # (no pegs drawn)
    guess_box.fill("3632")
    win_row = page.locator("#split-body table.split tr.win")
    expect(win_row).to_have_count(1)
    expect(win_row.locator("td [aria-hidden=true]").first).to_have_text("distance² 0")
    guess_box.fill("")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#hint-body")).to_contain_text("knuth would play 1356")
    classes = page.locator("#hint-body table.split tbody td:first-child [aria-hidden=true]").all_text_contents()
    assert classes and all(re.fullmatch(r"distance² \d+", c) for c in classes), classes
    moves = 1
    while page.locator("#guess-form").is_visible():  # Knuth's hints to the win: Knuth's own game
        page.get_by_role("button", name="Hint").click()
        suggestion = page.locator("#hint-body p strong + .nowrap .code").get_attribute("data-code")
        guess_box.fill(suggestion)
        guess_box.press("Enter")
        moves += 1
        expect(page.locator("#board-body .answer-cell")).to_have_count(moves)
    needs = len(mm.play("knuth", "3632"))
    expect(page.locator("#message")).to_have_text(
        f"You found it in {needs} guesses! The secret was 3632. knuth finds it in {needs} guesses.")
    page.screenshot(path=str(tmp_path / "codebreaker-mathmind.png"), full_page=True)
    page.get_by_role("button", name="New game").click()
    page.get_by_label("Codemaker").check()  # (MathMind is played as codebreaker: the menu goes back to pegs)
    expect(page.get_by_label("MathMind answers")).to_have_value("")
    expect(page.get_by_label("Answers count black pegs only")).to_be_enabled()
    expect(suggested).not_to_have_count(4)  # (the server's strategies again)


def test_a_mathmind_game_says_what_its_answers_tell_again_after_a_reload(page):
    page.get_by_label("MathMind answers").select_option("manhattan")
    start(page, "codebreaker", secret="3632")
    page.get_by_label("Your guess", exact=True).fill("1111")
    page.get_by_label("Your guess", exact=True).press("Enter")
    expect(page.locator("#message")).to_have_text("Guess 1, 1111: distance 10.")
    page.reload()
    expect(page.locator("#board-body .answer-cell")).to_have_text(["distance 10"])
    expect(page.locator("#message")).to_have_text(re.compile("^The colours are values: each answer is the distance "
                                                              "between your guess and the secret, the sum of"))


def test_the_size_help_gives_mathminds_own_limit_when_the_server_plays_larger_games(page):
    expect(page.locator("#size-help")).to_have_text("4x6 is the classic game, 5x8 Super Mastermind. This server "
                                                    "plays games of up to 65,536 codes.")

    def larger(route):  # (as 'mmlab serve --max-codes 1048576' answers)
        route.fulfill(json=route.fetch().json() | {"max_codes": 2**20})

    page.route("**/api/info", larger)
    page.reload()
    expect(page.locator("#size-help")).to_have_text("4x6 is the classic game, 5x8 Super Mastermind. This server "
                                                    "plays games of up to 1,048,576 codes (MathMind games: up to "
                                                    "65,536).")


def test_a_reload_while_the_game_is_busy_waits_for_it_rather_than_dropping_it(page, monkeypatch):
    """A reload while a hint is worked out: the game's state is refused as busy (503 GameBusy) until
    the hint is done. The page dropped the game from its address at once (helper-111); it now asks
    again each second and shows the game once it answers."""
    monkeypatch.setattr("mmlab.web.app.BUSY_SECONDS", 0.3)
    gate = Gate(monkeypatch, "hint", when=lambda live, *args: True)
    start(page, "codebreaker", secret="3632")
    gate.hold(page)
    try:
        page.get_by_role("button", name="Hint").click()
        assert gate.held.wait(timeout=30)
        page.reload()
        expect(page.locator("#setup-error")).to_contain_text("still busy with a request made before the reload")
        page.wait_for_timeout(1500)  # (asked again meanwhile, and still busy)
        assert "#game=" in page.url and page.locator("#game").is_hidden()
        gate.open()
        expect(page.locator("#remaining-count")).to_have_text("1,296")
    finally:
        gate.open()
    expect(page.locator("#setup-error")).to_be_empty()
    expect(page.locator("#game-title")).to_contain_text("4x6")


def test_a_move_refused_as_made_on_an_old_view_brings_the_page_up_to_date(page):
    """A move from a tab that had not seen another tab's move was refused in the API's words ("reload
    the game (GET /api/games/ID) and try again"), and so was every move after it until the player
    reloaded the page (helper-116). The page fetches the game now, shows it, and says so."""
    start(page, "codebreaker", secret="3632")
    other = page.context.new_page()
    other.goto(page.url)
    expect(other.locator("#remaining-count")).to_have_text("1,296")
    other.get_by_label("Your guess", exact=True).fill("1122")
    other.get_by_label("Your guess", exact=True).press("Enter")
    expect(other.locator("#board-body .code")).to_have_count(1)
    guess_box = page.get_by_label("Your guess", exact=True)
    guess_box.fill("1344")
    guess_box.press("Enter")
    expect(page.locator("#error")).to_have_text("This game moved on in another tab or window, so that move was not "
                                                "made: the board now shows its 1 move. Play on from here.")
    expect(page.locator('#board-body [data-code="1122"]')).to_have_count(1)
    expect(page.locator("#remaining-count")).to_have_text("256")
    guess_box.fill("1344")  # (as it was: the move refused keeps it)
    guess_box.press("Enter")
    expect(page.locator("#board-body .code")).to_have_count(2)
    expect(page.locator("#error")).to_be_empty()


def test_a_guess_played_again_is_said_again_and_a_codemaker_hears_that_colours_do_not_repeat(page):
    """The same guess twice was said in the same words twice, which a status does not read again; and
    a codemaker's game without repeats did not say so (helper-116)."""
    start(page, "codebreaker", secret="3632")
    guess_box = page.get_by_label("Your guess", exact=True)
    for move in (1, 2):
        guess_box.fill("1122")
        guess_box.press("Enter")
        expect(page.get_by_role("status").filter(has_text=f"Guess {move}, 1122: 1 black, 0 white.")).to_have_count(1)
    page.get_by_label("Colours may repeat").uncheck()
    start(page, "codemaker", size="4x10", codes="5,040")
    expect(page.locator("#message")).to_have_text("Choose a secret of 4 pegs from the colours 1-10, no colour twice, "
                                                  "and keep it to yourself. Answer each guess with its black and "
                                                  "white pegs.")


def test_the_codes_that_fit_are_said_in_a_sentence_not_read_out_as_one_long_word(page):
    """The list of codes was a live region: a screen reader read its codes run together
    ("44 codes fit the answers:35233525…"; helper-116). A status of its own says how many are listed."""
    start(page, "codebreaker", secret="321", size="3x3", codes="27")
    guess_box = page.get_by_label("Your guess", exact=True)
    guess_box.fill("112")
    guess_box.press("Enter")
    page.get_by_role("button", name="Candidates").click()
    expect(page.locator("#candidates li")).to_have_count(3)
    expect(page.get_by_role("status").filter(has_text="3 codes fit the answers; they are listed after the "
                                                      "buttons.")).to_have_count(1)
    assert page.locator("#candidates").get_attribute("aria-live") is None
    guess_box.fill("321")
    guess_box.press("Enter")
    expect(page.locator("#candidates-said")).to_be_empty()


def test_the_button_pressed_keeps_the_focus_while_its_answer_is_on_its_way(page, monkeypatch):
    """Disabled while the hint was worked out, the Hint button dropped the focus to the page's top
    (helper-116). It keeps it now, marked unavailable, and a second press asks for nothing."""
    gate = Gate(monkeypatch, "hint", when=lambda live, *args: True)
    start(page, "codebreaker", secret="3632")
    gate.hold(page)
    asked = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/hint") else None)
    hint = page.get_by_role("button", name="Hint")
    try:
        hint.focus()
        page.keyboard.press("Enter")
        assert gate.held.wait(timeout=30)
        expect(hint).to_have_attribute("aria-disabled", "true")
        assert focused(page) == "hint-btn"
        expect(page.get_by_role("button", name="Undo")).to_be_disabled()
        hint.dispatch_event("click")
        page.wait_for_timeout(300)
        assert len(asked) == 1  # (the second press asked for nothing)
    finally:
        gate.open()
    expect(page.locator("#hint-body")).to_contain_text("would play")
    expect(hint).not_to_have_attribute("aria-disabled", "true")
    assert focused(page) == "hint-btn"


def test_what_is_typed_while_a_guess_is_on_its_way_stays_in_the_box(page, gate):
    """Typed after Enter, before the answer came, it was added to the guess sent ("11221344") and then
    cleared with it (helper-116)."""
    start(page, "codebreaker", secret="3632")
    gate.hold(page)
    guess_box = page.get_by_label("Your guess", exact=True)
    try:
        guess_box.fill("1122")
        guess_box.press("Enter")
        assert gate.held.wait(timeout=30)
        page.keyboard.type("13")
    finally:
        gate.open()
    expect(page.locator("#board-body .code")).to_have_count(1)
    expect(guess_box).to_have_value("13")


def test_on_a_desktop_the_hint_table_of_6_peg_codes_fits_its_column_and_longer_codes_take_the_width(page):
    """At 1366 px the Use buttons of a 5x8 or 6x9 hint were past the side column's edge (its table 546 px
    in 461; helper-116): its pegs and cells are smaller, and the column wider. Codes of 7 pegs and more
    have the page's width, board and side cards in one column."""
    page.set_viewport_size({"width": 1366, "height": 768})
    start(page, "codebreaker", secret="123456", size="6x6", codes="46,656")
    page.get_by_label("Your guess", exact=True).fill("112233")
    page.get_by_label("Your guess", exact=True).press("Enter")
    page.get_by_role("button", name="Hint").click()
    options = page.locator("#hint-body .table-wrap")
    expect(options).to_contain_text("May win")
    widths = options.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert widths[0] <= widths[1], widths
    columns = "g => getComputedStyle(g).gridTemplateColumns.split(' ').length"
    assert page.locator("#game").evaluate(columns) == 2
    start(page, "codebreaker", size="8x4", codes="65,536")
    assert page.locator("#game").evaluate(columns) == 1


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_black_key_is_a_dark_dot_and_a_white_key_a_light_one_in_either_scheme(page, scheme):
    """In the dark scheme a black key (#111) on the dark card showed only its light rim, a ring, and a
    white key a filled dot: three black looked like ○○○ (helper-116). The keys sit on a light strip there."""
    page.emulate_media(color_scheme=scheme)
    play_two_guesses(page)  # (1 black, then 1 white)
    keys = page.evaluate("() => {" + COLOURS + """
      return [...document.querySelectorAll("#board-body .key")].map((k) => {
        const fill = rgba(getComputedStyle(k).backgroundColor), back = behind(k.parentElement);
        return [k.classList.contains("black") ? "black" : "white", ratio(fill, back), lum(fill) < lum(back)];
      }); }""")
    assert sorted(colour for colour, _, _ in keys) == ["black", "white"]
    for colour, contrast, darker in keys:
        assert (darker and contrast >= 3) if colour == "black" else not darker, (colour, contrast)
