"""`mmlab play` driven through stdin, as a person at a terminal or a script would."""

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

import pytest

from mmlab.errors import InconsistentFeedback
from mmlab.experiments import play_game
from mmlab.game import Game
from mmlab.play import CodemakerSession
from mmlab.strategies import make_strategy

GAME = Game.parse_size("4x6")


def play(*args: str, lines: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mmlab", "play", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120, check=False)


def at_a_terminal(*args: str, lines: list[bytes]) -> str:
    """What ``mmlab play`` (a codebreaker's game) shows on a pseudo-terminal, typing each of
    ``lines`` (keys, ending with Enter) at its next prompt, then the end of the input (Ctrl-D)."""
    main, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "mmlab", "play", *args], stdin=terminal, stdout=terminal,
                               stderr=terminal, env={**os.environ, "TERM": "xterm", "NO_COLOR": "1"})
    os.close(terminal)
    screen, deadline = b"", time.monotonic() + 120  # (a bound on a game that hangs, not a timing)
    try:
        for prompts, typed in enumerate([*lines, b"\x04"], 1):
            while len(re.findall(rb"guess \d+> ", screen)) < prompts:
                screen += read_some(main, deadline)
            os.write(main, typed)
        while chunk := read_some(main, deadline):
            screen += chunk
    finally:
        process.kill()
        process.wait()
        os.close(main)
    return screen.decode(errors="replace")


def read_some(fd: int, deadline: float) -> bytes:
    """The next output of a pseudo-terminal; nothing once its program has ended."""
    ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
    assert ready, "mmlab play stopped answering"
    try:
        return os.read(fd, 65536)
    except OSError:  # (EIO: the program ended)
        return b""


def test_codemaker_wins_a_whole_game_within_the_worst_case():
    """Knuth's strategy never needs more than 5 guesses on 4x6 (Knuth 1976)."""
    secret = GAME.parse("3632")
    record = play_game(GAME, make_strategy("knuth"), secret)
    answers = [f"{fb.black} {fb.white}" for fb in record.feedbacks]
    answers[1] = "".join("B" * record.feedbacks[1].black + "W" * record.feedbacks[1].white)  # pegs notation
    done = play("--role", "codemaker", "--strategy", "knuth", lines=answers)
    assert done.returncode == 0, done.stderr
    assert "Reply with the number of exact, and then inexact matches" in done.stdout
    assert "Aha! Your secret is 3632" in done.stdout and len(record.guesses) <= 5
    assert [f"({GAME.format(g)})?" in done.stdout for g in record.guesses] == [True] * len(record.guesses)


def test_codemaker_shows_contradictory_answers_and_recovers():
    secret = GAME.parse("3632")
    session, lines = CodemakerSession(GAME, "knuth"), ["0 0"]  # wrong: 1122 gets 1,0
    session.answer((0, 0))
    while True:  # answer truly until the answers contradict each other
        answer = GAME.score(secret, session.next_guess())
        lines.append(f"{answer.black},{answer.white}")
        try:
            session.answer(answer)
        except InconsistentFeedback:
            break
    lines.append("fix 1 1 0")
    session.correct(1, (1, 0))
    while not session.won:
        answer = GAME.score(secret, session.next_guess())
        lines.append(f"{answer.black} {answer.white}")
        session.answer(answer)
    done = play("--role", "codemaker", lines=lines)
    assert done.returncode == 0, done.stderr
    assert "No code fits all of these answers, so one of them is wrong: guess 1: 1122 -> 0,0" in done.stdout
    assert "Corrected guess 1" in done.stdout and "Aha! Your secret is 3632" in done.stdout


def test_codebreaker_session_through_a_pipe():
    done = play("--secret", "3632", lines=["hint", "1122", "hint most-parts", "history", "undo", "12", "3632"])
    assert done.returncode == 0, done.stderr
    assert "1296 codes fit your answers. knuth would play 1122" in done.stdout
    assert "256 codes fit your answers. most-parts would play" in done.stdout
    assert "has 2 pegs, the 4x6 game needs 4" in done.stdout
    assert "You found it in 1 guess!" in done.stdout


def test_input_ending_early_leaves_the_game_cleanly():
    done = play("--role", "codemaker", lines=["0 1"])
    assert done.returncode == 1 and "Game left unfinished" in done.stdout and not done.stderr
    done = play("--secret", "1234", lines=["give-up"])
    assert done.returncode == 1 and "The secret was 1234" in done.stdout


def test_a_bare_number_or_a_misspelt_hint_strategy_is_refused_clearly():
    """One number is ambiguous where answers have white pegs; a hint strategy is checked before play."""
    done = play("--role", "codemaker", lines=["2", "1 0", "quit"])
    assert "give both, e.g. '2 0'" in done.stdout and "(" in done.stdout and not done.stderr
    done = play("--hint-strategy", "knuht", lines=["quit"])
    assert done.returncode == 2 and "unknown strategy 'knuht'" in done.stderr and "I have chosen" not in done.stdout


def test_a_negative_seed_is_refused_without_a_traceback():
    done = play("--seed", "-1", lines=["quit"])
    assert done.returncode == 2 and "a seed must be 0 or more, got -1" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_tree_brings_its_own_game(tmp_path):
    tree = tmp_path / "k34.json"
    assert subprocess.run([sys.executable, "-m", "mmlab", "tree", "3x4", "-o", str(tree)],
                          capture_output=True, check=False).returncode == 0
    done = play("5x8", "--role", "codemaker", "--tree", str(tree), lines=["quit"])
    assert done.returncode == 2 and "--tree brings its own game" in done.stderr
    done = play("--role", "codemaker", "--tree", str(tree), lines=["quit"])
    assert done.returncode != 2 and "length 3 from the colours: 1 2 3 4" in done.stdout
    done = play("--role", "codemaker", "--tree", str(tree), "--strategy", "entropy", lines=["quit"])
    assert done.returncode == 2 and "give --strategy or --tree, not both" in done.stderr


def test_an_option_of_the_other_role_is_refused_not_ignored():
    done = play("--strategy", "entropy", lines=["quit"])
    assert done.returncode == 2 and "--strategy is for --role codemaker" in done.stderr
    done = play("--role", "codemaker", "--hint-strategy", "entropy", lines=["quit"])
    assert done.returncode == 2 and "--hint-strategy is for --role codebreaker" in done.stderr


def test_black_only_answers_are_asked_for_and_shown_without_white():
    done = play("3x4", "--role", "codemaker", "--black-only", lines=["1", "0", "history", "quit"])
    assert "Reply with the number of exact matches: '2' or pegs 'BB'" in done.stdout
    assert "inexact" not in done.stdout and "white" not in done.stdout
    assert "│ 1    │ 111   │ 1     │" in done.stdout


def test_fix_needs_a_plain_guess_number():
    done = play("--role", "codemaker", lines=["1 0", "fix ² 1 0", "fix 9999999 1 0", "quit"])
    assert "Traceback" not in done.stderr
    assert done.stdout.count("Write 'fix N B W'") == 2


def test_a_game_too_large_to_enumerate_gives_samples_hints_and_lists_few_candidates():
    lines = ["hint", "12345678", "candidates", "hint knuth", "3 1 4 1 5 9 12 12", "hint", "6 6 6 6 6 6 2 6",
             "candidates", "quit"]
    done = play("8x12", "--secret", "3 1 4 1 5 9 2 6", lines=lines)
    assert "'hint' gives sample's next guess" in done.stdout and "Traceback" not in done.stderr
    assert "429981696 codes fit your answers. sample would play 1 1 2 2 3 3 4 5." in done.stdout
    assert "at least 1000 codes remain, too many to list (at most 50); ask for a hint" in done.stdout
    assert "knuth needs every code of the game, and 8x12 has 4.3e+08 codes" in done.stdout
    assert "69 codes fit your answers. sample would play" in done.stdout
    assert "3 codes fit: 3 1 4 1 5 9 2 6, 3 1 4 6 5 9 2 12, 3 6 4 1 5 9 2 12" in done.stdout  # 6 6 6 6 6 6 2 6 -> 2,0
    done = play("8x12", "--hint-strategy", "entropy", lines=["quit"])
    assert done.returncode == 2 and "entropy needs every code of the game" in done.stderr
    assert "Strategies that play without enumerating: evo, ga, random, sample, shc." in done.stderr


def test_a_codemaker_game_too_large_to_enumerate_has_sample_guess_by_default():
    """knuth, the default, was refused at 8x12, though the codebreaker's hints default to sample there
    (helper-119)."""
    done = play("8x12", "--role", "codemaker", lines=["quit"])
    assert done.returncode == 1 and "(1 1 2 2 3 3 4 5)?" in done.stdout and "Traceback" not in done.stderr


def test_the_codemaker_game_says_when_its_tree_has_no_move():
    import io

    from rich.console import Console

    from mmlab.game import Feedback
    from mmlab.play.terminal import Dialogue, play_codemaker
    from mmlab.trees import DecisionTree

    game = Game.parse_size("3x3")
    tree = DecisionTree.build(game, make_strategy("knuth"))
    del tree.root.children[Feedback(2, 0).code(game.pegs)]  # a missing branch, as in a hand-edited file
    console = Console(file=io.StringIO(), width=200)
    session = CodemakerSession(game, tree)
    play_codemaker(game, session, Dialogue(game, io.StringIO("2 0\nquit\n"), console))
    said = console.file.getvalue()
    assert said.count("My strategy has no move after these answers") == 1 and session.improvised


def test_a_secret_given_on_the_command_line_is_not_said_to_be_chosen_by_mmlab():
    given = play("--secret", "1234", lines=["give-up"]).stdout
    drawn = play("--seed", "1", lines=["give-up"]).stdout
    assert "You gave the secret: 4 pegs" in given and "I have chosen" not in given
    assert "I have chosen a secret of 4 pegs" in drawn


def test_codemaker_takes_back_a_mistaken_winning_answer():
    record = play_game(GAME, make_strategy("knuth"), GAME.parse("3632"))
    answers = [f"{fb.black} {fb.white}" for fb in record.feedbacks]
    # '4 0' to the first guess by mistake, then undo, blank lines and a fix with no answer on the way
    done = play("--role", "codemaker", lines=["4 0", "undo", "", "fix 1", "-" if answers[0] == "0 0" else answers[0],
                                              f"fix 1 {answers[0]}", *answers[1:], ""])
    assert done.returncode == 0, done.stderr
    assert "Found 1122: press Enter to end the game, or 'undo'" in done.stdout
    assert "Took back the last answer" in done.stdout and "Write 'fix N B W'" in done.stdout
    assert "Guess 1 already has that answer." in done.stdout
    assert "Aha! Your secret is 3632" in done.stdout and "cannot read the answer ''" not in done.stdout


def test_codebreaker_words_that_are_codes_too():
    done = play("1x20", "--secret", "5", lines=["q", "hint knuth extra", "5"])
    assert done.returncode == 0, done.stderr
    assert "'q' is also the code 17 of this game; to guess that code, type it in digits." in done.stdout
    assert "Write 'hint' or 'hint STRATEGY'" in done.stdout and "You found it in 1 guess!" in done.stdout
    done = play("4x16", "--secret", "1234", lines=["help", "1122", "1122", "1234"])
    assert "'help' is also the code 8 5 12 16" in done.stdout and "e.g. '1 1 2 3' or AABC" in done.stdout
    assert "You guessed 1 1 2 2 as guess 1 already" in done.stdout and "You found it in 3 guesses!" in done.stdout


class CtrlC:
    """Standard input at which the player presses Ctrl-C."""

    def readline(self):
        raise KeyboardInterrupt

    def isatty(self):
        return False


def test_ctrl_c_leaves_a_codebreaker_game_saying_the_secret(capsys, monkeypatch):
    """As 'quit' and the end of the input do."""
    from mmlab.cli.main import main

    monkeypatch.setattr(sys, "stdin", CtrlC())
    code = main(["play", "--secret", "3632"])
    captured = capsys.readouterr()
    assert code == 130 and "Game left unfinished. The secret was 3632." in captured.out
    assert "interrupted" in captured.err


def test_ctrl_c_leaves_a_codemaker_game_on_a_line_of_its_own(capsys, monkeypatch):
    """As 'quit' does, on a line of its own (not "interrupted" on the prompt's line, saying nothing of the game)."""
    from mmlab.cli.main import main

    monkeypatch.setattr(sys, "stdin", CtrlC())
    code = main(["play", "--role", "codemaker"])
    captured = capsys.readouterr()
    assert code == 130 and captured.out.endswith("(1122)? \nGame left unfinished.\n")
    assert "interrupted" in captured.err


def test_ctrl_c_during_a_hint_stops_the_hint_and_the_game_goes_on():
    """A real SIGINT to the job on a pseudo-terminal while knuth works out a hint at 7x8 (seconds):
    it stopped the whole game; now the hint stops, saying so, and the game goes on from its prompt,
    where Ctrl-C still leaves it as before (saying the secret, ending by SIGINT)."""
    main, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "mmlab", "play", "7x8", "--secret", "3141526"],
                               stdin=terminal, stdout=terminal, stderr=terminal, start_new_session=True,
                               env={**os.environ, "TERM": "xterm", "NO_COLOR": "1"})
    os.close(terminal)
    screen, deadline = b"", time.monotonic() + 300  # (a bound on a game that hangs, not a timing)

    def until(shown: bytes, times: int = 1) -> None:
        """Read the screen until it shows ``shown`` ``times`` (a prompt: then keys typed are read)."""
        nonlocal screen
        while screen.count(shown) < times:
            ready, _, _ = select.select([main], [], [], max(0.0, deadline - time.monotonic()))
            chunk = read_some(main, deadline) if ready else b""
            assert chunk, f"waiting for {shown!r}: " + screen.decode(errors="replace")
            screen += chunk

    try:
        until(b"guess 1> ")
        os.write(main, b"1234567\r")
        until(b"guess 2> ")
        os.write(main, b"hint\r")
        until(b"knuth is choosing its suggestion")
        os.killpg(process.pid, signal.SIGINT)
        until(b"Stopped the hint (Ctrl-C); the game goes on.")
        until(b"guess 2> ", times=2)
        os.write(main, b"1122334\r")
        until(b"guess 3> ")
        while b"interrupted" not in screen:  # (again after a second: see ctrl_c_at_the_prompt)
            os.killpg(process.pid, signal.SIGINT)
            screen += ctrl_c_at_the_prompt(main, deadline)
        status = process.wait(timeout=60)
    finally:
        process.kill()
        process.wait()
        os.close(main)
    said = screen.decode(errors="replace")
    assert "  1122334  1,4 (BWWWW)" in said and "Game left unfinished. The secret was 3141526." in said
    assert status == -signal.SIGINT and "Traceback" not in said


def ctrl_c_at_the_prompt(fd: int, deadline: float) -> bytes:
    """What a pseudo-terminal shows within a second of a Ctrl-C sent at a prompt. A Ctrl-C that
    arrives as Python's readline starts to wait for a key (between its prompt and its select) is
    only seen at the next key or signal (a race in CPython's readline module, which a person, who
    presses Ctrl-C later than a test does, never meets): so the test sends another after a second."""
    shown, second = b"", min(deadline, time.monotonic() + 1.0)
    while select.select([fd], [], [], max(0.0, second - time.monotonic()))[0]:
        chunk = read_some(fd, deadline)
        if not chunk:
            break
        shown += chunk
    assert time.monotonic() < deadline, "mmlab play stopped answering"
    return shown


def test_the_arrow_keys_edit_a_line_at_a_terminal():
    """They typed escape codes into the guess ('124<Left>3' was refused: '\\x1b' is not a colour)."""
    pytest.importorskip("readline", reason="this Python has no readline: lines are read without editing")
    screen = at_a_terminal("--secret", "3632", lines=[b"124\x1b[D3\r", b"\x1b[A\r"])  # Left; Up: the last line
    assert "  1234  1,1 (BW)" in screen and "not a colour" not in screen, screen
    assert "You guessed 1234 as guess 1 already" in screen and "Game left unfinished" in screen


def test_the_help_teaches_what_to_type_in_the_game():
    done = subprocess.run([sys.executable, "-m", "mmlab", "play", "--help"], capture_output=True, text=True,
                          timeout=60, check=True)
    for taught in ("'hint [STRATEGY]'", "'give-up'", "'1 2', '1,2' or BWW", "'fix N B W'", "'undo'"):
        assert taught in done.stdout


def test_a_person_keeps_a_secret_at_8x12_and_sample_finds_it():
    game = Game.parse_size("8x12")
    secret = game.parse("3 1 4 1 5 9 2 6")
    session, answers = CodemakerSession(game, "sample", 1), []
    while not session.won:
        answer = game.score(secret, session.next_guess())
        answers.append(f"{answer.black} {answer.white}")
        session.answer(answer)
    # a wrong answer to guess 3 first, then the true ones; an undo and the answer again
    done = play("8x12", "--role", "codemaker", "--strategy", "sample", "--seed", "1",
                lines=[*answers[:2], "8 0", "undo", answers[1], *answers[2:]])
    assert done.returncode == 0, done.stderr
    assert "The 8x12 game has 4.3e+08 codes, too many to list: a short search checks" in done.stdout
    assert "No code fits all of these answers, so one of them is wrong: guess 1: 1 1 2 2 3 3 4 5 -> " in done.stdout
    assert "Took back the last answer; at least 1000 codes fit the answers so far." in done.stdout
    assert f"Aha! Your secret is 3 1 4 1 5 9 2 6: found in {len(answers)} guesses." in done.stdout


def test_a_strategy_that_needs_every_code_is_refused_at_8x12():
    done = play("8x12", "--role", "codemaker", "--strategy", "knuth", lines=["quit"])
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "knuth, playing against a person's answers, needs every code of the game" in done.stderr
    assert "Strategies that play without enumerating: evo, ga" in done.stderr
