"""The terminal dialogue: Norvig's codemaker dialogue (002) and a codebreaking coach.

Reads one line per answer or guess from ``stdin`` (a terminal or a pipe), writes with rich: pegs
in colour on a terminal, the digits always shown, plain text through pipes and screen readers.
"""

from __future__ import annotations

import contextlib
import difflib
import re
import string
import sys
from collections.abc import Iterator
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from mmlab.errors import (
    BadCode,
    InconsistentFeedback,
    MastermindError,
    SearchFailed,
    as_typed,
    counted_guesses,
)
from mmlab.game import Feedback, Game
from mmlab.game.feedback import NUMBER_DIGITS
from mmlab.play.session import NOT_COUNTED, CodebreakerSession, CodemakerSession
from mmlab.play.stopping import Stopped, stoppable

PEG_COLOURS = ("red", "green", "yellow", "blue", "magenta", "cyan", "white", "bright_red", "bright_green",
               "bright_blue", "bright_magenta", "bright_cyan", "orange3", "purple", "grey70", "gold1")

CODEMAKER_HELP = ("Reply with the number of exact, and then inexact matches: '1 2', '1,2' or pegs 'BWW' "
                  "('0 0', 'none' or '-' for nothing). Other commands: 'fix N B W' corrects the answer to guess N, "
                  "'undo' takes back the last answer, 'history', 'quit'.")
CODEMAKER_HELP_BLACK = ("Reply with the number of exact matches: '2' or pegs 'BB' ('0', 'none' or '-' for nothing). "
                        "Other commands: 'fix N B' corrects the answer to guess N, 'undo' takes back the last "
                        "answer, 'history', 'quit'.")
CODEBREAKER_HELP = ("Type a guess (e.g. {examples}). Commands: 'hint [STRATEGY]' (codes "
                    "left and the best next guesses), 'candidates' (list the codes left when few), 'undo', "
                    "'history', 'give-up', 'help', 'quit'. Ctrl-C stops a hint that takes long.")
#: What the spinner says while mmlab works out its next guess (as the web page says it).
CHOOSING = "mmlab is choosing its next guess…"
LETTERS = string.ascii_uppercase  # colour 1 is A, as codes may be written
QUIT_WORDS = ("quit", "q", "exit")
COMMAND_WORDS = ("hint", "candidates", "undo", "history", "give-up", "giveup", "help", "?")
BARE_COMMANDS = ("candidates", "undo", "history", "give-up", "giveup", "help", "?")  # (they take no words after them)
CODEMAKER_BARE_COMMANDS = ("undo", "history", "help", "?")


#: An escape sequence that styles terminal text: readline must not count it in the prompt's width.
STYLE = re.compile(r"(\x1b\[[0-9;]*m)")


def line_editor() -> bool:
    """Whether lines are typed at a terminal where readline can edit them (arrow keys, history),
    as ``input`` does when both standard input and output are terminals and readline loads."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        import readline  # noqa: F401  (loading it is what gives input() its line editing)
    except ImportError:  # (a Python built without it)
        return False
    return True


class Dialogue:
    """Prompts and answers over ``stdin``/``console``; at a terminal, lines are read with
    readline, so that the arrow keys edit them (without it they typed escape codes into the line)."""

    def __init__(self, game: Game, stdin: TextIO | None = None, console: Console | None = None) -> None:
        self.game = game
        self.stdin = stdin or sys.stdin
        self.console = console or Console(highlight=False)
        self.edited = stdin is None and self.console.is_terminal and line_editor()

    def ask(self, prompt: str | Text) -> str | None:
        """One line of input after ``prompt``, its digits and full-width forms (as an input method
        types them) in ASCII (``as_typed``: 'ｆｉｘ　１ １ ０' is 'fix 1 1 0'); ``None`` at the end of
        the input."""
        line = self._line(prompt)
        return None if line is None else as_typed(line)

    def _line(self, prompt: str | Text) -> str | None:
        if self.edited:
            return self._edited_line(prompt)
        self.console.print(prompt, end="")
        line = self.stdin.readline()
        if not line:
            self.console.print()
            return None
        if not self.stdin.isatty():
            self.console.print(line.rstrip("\n"), markup=False)  # echo piped input: the transcript reads as a dialogue
        return line.strip()

    def _edited_line(self, prompt: str | Text) -> str | None:
        """``ask`` through ``input`` and readline, the prompt's styles marked as taking no room."""
        with self.console.capture() as captured:
            self.console.print(prompt, end="")
        try:
            line = input(STYLE.sub("\x01\\1\x02", captured.get()))
        except EOFError:
            self.console.print()
            return None
        return line.strip()

    @contextlib.contextmanager
    def working(self, what: str) -> Iterator[None]:
        """A spinner saying ``what`` mmlab works out meanwhile (a hint, its next guess: seconds, up to
        a minute in large games), on a terminal only; it is gone once done."""
        if not self.console.is_terminal:
            yield
            return
        with self.console.status(what):
            yield

    def code(self, index: int) -> Text:
        """A code as coloured pegs with its digits (digits alone when not on a terminal)."""
        text = self.game.format(index)
        if not self.console.is_terminal or self.console.no_color:
            return Text(text)
        out = Text()
        for i, d in enumerate(self.game.digits(index)):
            out.append(f" {d + 1} ", style=f"bold black on {PEG_COLOURS[d % len(PEG_COLOURS)]}")
            if i + 1 < self.game.pegs:
                out.append(" ")
        return out

    def answer(self, fb: Feedback) -> str:
        """``1,2 (BWW)``, or in a game that counts black pegs only, ``1 black (B)``."""
        pegs = "B" * fb.black + "W" * fb.white or "-"
        if not self.game.with_white:
            return f"{fb.black} black ({pegs})"
        return f"{fb.black},{fb.white} ({pegs})"

    def history(self, moves: list[tuple[int, Feedback]]) -> None:
        if not moves:
            self.console.print("no guesses yet")
            return
        white = self.game.with_white
        table = Table("move", "guess", "black", *(("white",) if white else ()))
        for i, (guess, fb) in enumerate(moves, 1):
            table.add_row(str(i), self.code(guess), str(fb.black), *((str(fb.white),) if white else ()))
        self.console.print(table)


def play_codemaker(game: Game, session: CodemakerSession, dialogue: Dialogue) -> int:
    """Norvig's dialogue: mmlab guesses, the person answers. Returns 0 when mmlab wins (a winning
    answer can still be taken back before the game ends)."""
    say = dialogue.console.print
    colours = " ".join(str(c) for c in range(1, game.colours + 1))
    say(f"Select a sequence of length {game.pegs} from the colours: {colours}"
        + ("" if game.repeats else " (no colour twice)"))
    help_text = CODEMAKER_HELP if game.with_white else CODEMAKER_HELP_BLACK
    fix = "'fix N B W'" if game.with_white else "'fix N B'"
    fix_usage = ("Write 'fix N B W', e.g. 'fix 2 1 0' to say that guess 2 got 1 black and 0 white." if game.with_white
                 else "Write 'fix N B', e.g. 'fix 2 1' to say that guess 2 got 1 black peg.")
    say(help_text)
    if not game.enumerable:
        say(f"The {game} game has {game.n_codes:.3g} codes, too many to list: a short search checks that some code "
            "still fits your answers.")
    told = False  # that the strategy could not follow these answers
    while True:
        if session.won:
            prompt = Text(f"Found {game.format(session.answers[-1][0])}: press Enter to end the game, or 'undo' "
                          f"or {fix} if an answer was wrong. ")
        else:
            with dialogue.working(CHOOSING):
                guess = session.next_guess()
            if session.improvised and not told:
                say("My strategy has no move after these answers (a tree without this branch, or a corrected "
                    "answer); from here I guess codes that fit every answer.")
            told = session.improvised
            prompt = Text("(").append(dialogue.code(guess)).append(")? ")
        line = dialogue.ask(prompt)
        if line is None or line.lower() in QUIT_WORDS or (session.won and not line):
            break
        if not line:
            continue
        command, *rest = line.split()
        if rest and command.lower() in CODEMAKER_BARE_COMMANDS:
            say(f"Write '{command.lower()}' alone.")
            continue
        try:
            if command.lower() == "history":
                dialogue.history(session.answers)
            elif command.lower() == "undo":
                with dialogue.working(CHOOSING):
                    session.undo()
                say(f"Took back the last answer; {codes_left(session, 'the answers so far')}.")
            elif command.lower() == "fix":
                if len(rest) < 2 or not (rest[0].isascii() and rest[0].isdigit() and len(rest[0]) <= NUMBER_DIGITS):
                    say(fix_usage)
                    continue
                move, written = int(rest[0]), " ".join(rest[1:])
                if 1 <= move <= len(session.answers) and session.answers[move - 1][1] == game.answer(written):
                    say(f"Guess {move} already has that answer.")
                    continue
                answered = len(session.answers)
                with dialogue.working(CHOOSING):
                    session.correct(move, written)  # (a guess not answered is refused before its answer is read)
                if session.won and answered > move:
                    later = f"guess {answered}" if answered == move + 1 else f"guesses {move + 1}-{answered}"
                    say(f"Corrected guess {move}: it is your secret, so the game ends there and the answers to "
                        f"{later}, which fit it, are dropped.")
                else:
                    say(f"Corrected guess {move}; {codes_left(session, 'the answers')}.")
                unchecked(session, say, fix)
            elif command.lower() in ("help", "?"):
                say(help_text)
            elif session.won:
                say(f"The game is over: press Enter to end it, or give 'undo' or {fix}.")
            else:
                feedback = game.answer(line)
                with dialogue.working(CHOOSING):
                    session.answer(feedback)
                unchecked(session, say, fix)
        except (InconsistentFeedback, SearchFailed) as e:  # answers refused: no code fits, or none was found
            message = str(e)
            say(Text(f"{message[0].upper()}{message[1:]}.", style="bold"))
            if command.lower() != "fix":
                say(f"Answer guess {len(session.answers) + 1} again, or correct an earlier answer with {fix} "
                    "('history' lists them).")
            elif session.won:
                say(f"The answers stay as they were: correct another with {fix}, or 'undo' ('history' lists them).")
            else:
                say(f"The answers stay as they were: answer guess {len(session.answers) + 1}, or correct another "
                    f"with {fix} ('history' lists them).")
        except MastermindError as e:
            say(Text(str(e)))
    if not session.won:
        say("Game left unfinished.")
        return 1
    say(f"Aha! Your secret is {game.format(session.answers[-1][0])}: found in {counted_guesses(len(session.answers))}.")
    return 0


def play_codebreaker(game: Game, session: CodebreakerSession, dialogue: Dialogue, hint_strategy: str | None,
                     secret_given: bool = False) -> int:
    """The person guesses mmlab's secret (``secret_given``: one they chose, to practise);
    ``hint_strategy`` gives the hints (``None``: no hints in a game too large to enumerate, where
    only a strategy that plays without the list of codes, such as sample, gives them). Returns 0
    on a win, 1 otherwise."""
    say = dialogue.console.print
    say(("You gave the secret: " if secret_given else "I have chosen a secret of ")
        + f"{game.pegs} peg{'s' if game.pegs > 1 else ''} from the colours 1-{game.colours}"
        + (", repeats allowed." if game.repeats else ", no colour twice.")
        + ("" if game.with_white else " Each answer counts only the pegs of the right colour in the right place "
           "(black); pegs of a right colour in a wrong place are not counted."))
    help_text = codebreaker_help(game)
    say(help_text)
    if hint_strategy is None and not game.enumerable:
        say(f"The {game} game has {game.n_codes:.3g} codes, too many to count those left: no hints or "
            "candidates in this game.")
    elif not game.enumerable and not game.with_white:
        say(f"The {game} game has {game.n_codes:.3g} codes, too many to count those left with answers of black "
            f"pegs only: 'hint' gives {hint_strategy}'s next guess.")
    elif not game.enumerable:
        say(f"The {game} game has {game.n_codes:.3g} codes, too many to list: 'candidates' lists the codes left "
            f"when a short search finds few, and 'hint' gives {hint_strategy}'s next guess.")
    while not session.over:
        line = dialogue.ask(f"guess {len(session.moves) + 1}> ")
        command, *rest = (line or "").split() or [""]
        also_a_code = _code_or_none(game, line or "") if command.lower() in QUIT_WORDS + COMMAND_WORDS else None
        if also_a_code is not None:  # e.g. 'q' in a game of 17 colours or more, 'help' in 4x16
            say(f"'{line}' is also the code {game.format(also_a_code)} of this game; to guess that code, "
                "type it in digits.")
            if command.lower() in QUIT_WORDS:
                say("To leave the game, end the input (Ctrl-D) or type another of 'quit', 'q', 'exit'.")
                continue
        if line is None or line.lower() in QUIT_WORDS:
            say(f"Game left unfinished. The secret was {game.format(session.give_up())}.")
            return 1
        if rest and command.lower() in BARE_COMMANDS:
            say(f"Write '{command.lower()}' alone.")
            continue
        try:
            if command.lower() == "hint":
                if len(rest) > 1:
                    say("Write 'hint' or 'hint STRATEGY', e.g. 'hint entropy'.")
                    continue
                show_hint(session, dialogue, rest[0] if rest else hint_strategy or "knuth")
            elif command.lower() == "candidates":
                stoppable(session.candidates, dialogue.working("Listing the codes that fit…"),
                          lambda codes: say(f"{fitting(len(codes))}: " + game.format_all(codes)))
            elif command.lower() == "undo":
                last = session.moves[-1][0] if session.moves else None  # (none: undo says there is nothing to undo)
                session.undo()
                say(f"Took back the last guess, {game.format(last)}.")  # (as the web page says it)
            elif command.lower() == "history":
                dialogue.history(session.moves)
            elif command.lower() in ("give-up", "giveup"):
                say(f"The secret was {game.format(session.give_up())}.")
                return 1
            elif command.lower() in ("help", "?"):
                say(help_text)
            elif word := not_a_guess(game, line):
                say(Text(word))
            elif line:
                try:
                    guess = game.parse(line)
                except BadCode as e:  # (with 26 colours or more, every letter is a colour)
                    meant = _did_you_mean(line) if any(c.isalpha() for c in line) else ""
                    raise BadCode(f"{e}{meant}") from None
                earlier = next((i for i, (g, _) in enumerate(session.moves, 1) if g == guess), None)
                if earlier is not None:
                    say(f"You guessed {game.format(guess)} as guess {earlier} already: it counts as guess "
                        f"{len(session.moves) + 1}, with the same answer.")
                fb = session.guess(guess)
                say(Text("  ").append(dialogue.code(guess)).append(f"  {dialogue.answer(fb)}"))
        except Stopped:
            say(stopped_text(command.lower()))
        except MastermindError as e:
            say(Text(str(e)))
    say(f"You found it in {counted_guesses(len(session.moves))}!")
    return 0


def codebreaker_help(game: Game) -> str:
    """The codebreaker's help, its examples written for ``game``.

    >>> codebreaker_help(Game.parse_size("4x6")).split(" Commands")[0]
    "Type a guess (e.g. 1123, '1 1 2 3' or AABC)."
    """
    colours = [min(c, game.colours - 1) for c in ([0, 0] + list(range(1, game.pegs - 1)))[:game.pegs]]
    if not game.repeats:
        colours = list(range(game.pegs))
    spaced = " ".join(str(c + 1) for c in colours)
    examples = [game.format(game.index_of(colours))] if game.colours <= 9 else []
    examples += [f"'{spaced}'"] if game.pegs > 1 or game.colours > 9 else []
    if game.colours <= 26:
        examples.append("".join(LETTERS[c] for c in colours))
    return CODEBREAKER_HELP.format(examples=", ".join(examples[:-1]) + " or " + examples[-1] if len(examples) > 1
                                   else examples[0])


def _code_or_none(game: Game, line: str) -> int | None:
    try:
        return game.parse(line)
    except MastermindError:
        return None


def not_a_guess(game: Game, line: str) -> str | None:
    """What to say of ``line`` when it holds a letter that is no colour of ``game`` (A for colour 1,
    ...): a word, such as a mistyped command, rather than a code. None for anything else.

    >>> not_a_guess(Game.parse_size("4x6"), "hitn")
    "'hitn' is neither a guess nor a command (did you mean 'hint'?): type a guess, or 'help'."
    >>> not_a_guess(Game.parse_size("4x6"), "ABC"), not_a_guess(Game.parse_size("4x6"), "1129")
    (None, None)
    """
    if game.stray_letter(line) is None:
        return None
    return f"'{line}' is neither a guess nor a command{_did_you_mean(line)}: type a guess, or 'help'."


def _did_you_mean(line: str) -> str:
    """``" (did you mean 'give-up'?)"`` for a line close to a command, else nothing."""
    words = QUIT_WORDS + COMMAND_WORDS
    close = difflib.get_close_matches("-".join(line.lower().split()), words, n=1) or \
        difflib.get_close_matches(line.lower().split()[0], words, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def fitting(n: int, exact: bool = True) -> str:
    """``"1 code fits"`` or ``"3 codes fit"``; when the count is only a lower bound (a game too
    large to count them), ``"at least 1000 codes fit"``.

    >>> fitting(1), fitting(3), fitting(1000, exact=False), fitting(1, exact=False), fitting(0, exact=False)
    ('1 code fits', '3 codes fit', 'at least 1000 codes fit', 'at least 1 code fits', 'an unknown number of codes fit')
    """
    if not exact:
        return f"at least {fitting(n)}" if n else "an unknown number of codes fit"
    return f"{n} code fits" if n == 1 else f"{n} codes fit"


def codes_left(session: CodemakerSession | CodebreakerSession, answers: str) -> str:
    """``"3 codes fit the answers"`` (``answers`` ends it), or that the codes left are not counted
    (a game too large to enumerate with answers of black pegs only, as 'candidates' says there)."""
    return f"{fitting(*session.count())} {answers}" if session.counted else NOT_COUNTED


def unchecked(session: CodemakerSession, say, fix: str) -> None:
    """Tell the player when the search could not check in time that some code still fits."""
    if not session.checked and not session.won:
        say(f"(A short search found no code that fits every answer, nor showed that none does: if one of them "
            f"is wrong, {fix} corrects it.)")


def stopped_text(command: str) -> str:
    """What a game says of its 'hint' or 'candidates' stopped by Ctrl-C (``Stopped``)."""
    return (f"Stopped the {'hint' if command == 'hint' else 'listing'} (Ctrl-C); the game goes on. Ctrl-C at the "
            "prompt leaves it.")


def show_hint(session: CodebreakerSession, dialogue: Dialogue, strategy: str) -> None:
    """Work out ``strategy``'s hint, a spinner showing (Ctrl-C stops it, see ``stoppable``), and
    show it: a Ctrl-C as it is shown is dropped, not left to end the game."""
    stoppable(lambda: (session.hint(strategy), codes_left(session, "your answers")),
              dialogue.working(f"{strategy} is choosing its suggestion…"),
              lambda found: _print_hint(session.game, dialogue, *found))


def _print_hint(game: Game, dialogue: Dialogue, hint, left: str) -> None:
    fits = "" if hint.consistent else " (it does not fit every answer, so it cannot win now)"
    dialogue.console.print(f"{left[0].upper()}{left[1:]}. {hint.strategy} would play {game.format(hint.suggestion)}"
                           f"{fits}.")
    if not hint.options:  # (a game too large to split the codes left)
        return
    table = Table(title="how each guess splits the codes left (answer: codes)")
    for column in ("guess", "consistent", "parts", "largest", "expected size", "classes"):
        table.add_column(column, no_wrap=column == "guess")  # (a code's pegs on one line)
    for option in hint.options:
        classes = " ".join(f"{game.answer_text(fb)}:{n}" for fb, n in option["classes"].items() if n)
        table.add_row(dialogue.code(option["guess"]), "yes" if option["consistent"] else "no", str(option["parts"]),
                      str(option["largest"]), f"{option['expected_size']:.2f}", classes)
    dialogue.console.print(table)
