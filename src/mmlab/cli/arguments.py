"""Argument types of the command line: lists of strategy specs, numbers with bounds; the options
that give a game."""

from __future__ import annotations

import argparse
import math
import re
import sys
import textwrap
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from mmlab.errors import BadArgument, shown

if TYPE_CHECKING:
    from mmlab.game import Game


def split_specs(text: str) -> list[str]:
    """Strategy specs separated by commas or semicolons; a ``key=value`` piece belongs to the spec
    before it.

    >>> split_specs("knuth,entropy:pool=consistent,ties=random;random")
    ['knuth', 'entropy:pool=consistent,ties=random', 'random']
    >>> split_specs("entropy:ties=first,most-parts:ties=first")   # (a spec with its own name starts anew)
    ['entropy:ties=first', 'most-parts:ties=first']
    """
    specs: list[str] = []
    for part in (p.strip() for p in re.split(r"[,;]", text)):
        if not part:
            continue
        if "=" in part and ":" not in part and specs and ":" in specs[-1]:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def listed(text: str | None, what: str, default: list[str], split: Callable[[str], list[str]] | None = None
           ) -> list[str]:
    """The comma-separated names of an option (``default`` when it is not given), each once; an
    option given with nothing in it is refused.

    >>> listed("5x8, 6x9,5x8", "--sizes", ["8x12"]), listed(None, "--sizes", ["8x12"])
    (['5x8', '6x9'], ['8x12'])
    """
    if text is None:
        return list(default)
    names = split(text) if split is not None else [name.strip() for name in text.split(",")]
    names = list(dict.fromkeys(name for name in names if name))
    if not names:
        raise BadArgument(f"{what} is empty: name at least one, or leave {what} out for the defaults")
    return names


def int_at_least(minimum: int, what: str, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (and at most ``maximum``); errors
    name ``what``, unless it is the option, which argparse names already ("argument --jobs: must be
    1 or more, got 0").

    >>> int_at_least(1, "--games")("3")
    3
    """
    subject = _subject(what)

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {shown(text)}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{subject}must be {minimum} or more, got {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{subject}must be at most {maximum:,}, got {shown(value)}")
        return value

    return convert


def positive(kind: type, what: str, most: float | None = None) -> Callable[[str], float | int]:
    """An argparse type: a number of ``kind`` above 0 (and at most ``most``); errors name ``what``
    (as ``int_at_least``'s do), and say a whole number, and 1 or more, when ``kind`` is ``int``.

    >>> positive(float, "--time-limit")("2.5")
    2.5
    """
    whole = int_at_least(1, what, None if most is None else int(most)) if kind is int else None
    subject = _subject(what)

    def convert(text: str) -> float | int:
        try:
            value = kind(text)
        except ValueError:
            number = "a whole number" if whole is not None else "a number"
            raise argparse.ArgumentTypeError(f"{subject}must be {number}, got {text!r}") from None
        if whole is not None:
            return whole(text)
        if not 0 < value < math.inf or (most is not None and value > most):
            limit = f" and at most {most:,}" if most is not None else " and finite"
            raise argparse.ArgumentTypeError(f"{subject}must be more than 0{limit}, got {text}")
        return value

    return convert


def _subject(what: str) -> str:
    """``what`` and a space to begin an error with, or nothing for an option: argparse names it.

    >>> _subject("a seed"), _subject("--jobs")
    ('a seed ', '')
    """
    return "" if what.startswith("-") else f"{what} "


#: An argparse type for seeds: numpy's generators take whole numbers from 0.
seed_arg = int_at_least(0, "a seed")

#: An argparse type for counts of games and runs: whole numbers from 1.
count = int_at_least(1, "a count")


def add_game_args(p: argparse.ArgumentParser, optional: bool = False) -> None:
    """The game's size and rules as options of ``p``; ``game_of`` reads them."""
    if optional:
        p.add_argument("size", nargs="?", help="game size PEGSxCOLOURS, e.g. 4x6 (not needed with --tree)")
    else:
        p.add_argument("size", help="game size PEGSxCOLOURS, e.g. 4x6")
    p.add_argument("--no-repeats", action="store_true", help="codes may not repeat a colour (Bulls and Cows)")
    p.add_argument("--black-only", action="store_true", help="answers count black pegs only")


def game_of(args: argparse.Namespace) -> Game:
    """The game that the options of ``add_game_args`` give.

    >>> str(game_of(argparse.Namespace(size="4x10", no_repeats=True, black_only=False)))
    '4x10 (no repeats)'
    """
    from mmlab.game import Game  # (here: 'mmlab --help' loads no numpy)

    return Game.parse_size(args.size, repeats=not args.no_repeats, feedback="black" if args.black_only else "black-white")


def reads_as_size(text: str) -> bool:
    """Whether ``text`` is written as a game size (``4x6``), as a code given in its place may be.

    >>> reads_as_size(" 4x6"), reads_as_size("1122")
    (True, False)
    """
    return re.fullmatch(r"\s*\d+\s*[xX]\s*\d+\s*", text) is not None


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help, with descriptions and epilogs laid out as written (examples in two columns:
    a command, then what it does) where they fit the terminal, and otherwise wrapped as argparse wraps
    an option's help: what a command does in the column of the others (on the next line when the
    command reaches it), a command too long for a line continued 4 columns further in, prose refilled.
    Without it an 80-column terminal broke each long example wherever the line ran out. Piped, they
    stay as written, one example a line, as tables stay whole there (``mmlab.cli.output``)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not sys.stdout.isatty():
            return super()._fill_text(text, width, indent)
        lines = fold_help(text.splitlines(), max(width - len(indent), 20))
        return "\n".join(f"{indent}{line}" for line in lines) + ("\n" if text.endswith("\n") else "")


_ENTRY = re.compile(r"( +)(\S.*?\S|\S)( {2,})(\S.*)")


def fold_help(lines: list[str], width: int) -> list[str]:
    """``lines`` of help text as they are where they fit in ``width`` columns, else wrapped (see
    ``HelpFormatter``).

    >>> text = ["examples:", "  mmlab eval 4x6     Knuth's strategy over all 1296 secrets",
    ...         "  mmlab partition 4x6 1344 --after 1122:1,1   ... after an answer"]
    >>> print("\\n".join(fold_help(text, 50)))
    examples:
      mmlab eval 4x6     Knuth's strategy over all
                         1296 secrets
      mmlab partition 4x6 1344 --after 1122:1,1
                         ... after an answer
    >>> fold_help(text, 80) == text
    True
    """
    # Each entry: its lines as written, its indent, its head (a command, or prose), the column of the
    # text beside the head (None: nothing beside it) and that text, continuation lines included.
    entries: list[tuple[list[str], str, str, int | None, str]] = []
    for line in lines:
        last = entries[-1] if entries else None
        match = _ENTRY.fullmatch(line)
        if last and last[3] is not None and len(line) > last[3] and not line[:last[3]].strip() \
                and line[last[3]] != " ":  # the text beside the head goes on
            entries[-1] = (last[0] + [line], last[1], last[2], last[3], f"{last[4]} {line.strip()}")
        elif match:
            indent, head, gap, body = match.groups()
            entries.append(([line], indent, head, len(indent) + len(head) + len(gap), body))
        elif last and last[3] is None and not last[1] and last[2] and line and not line.startswith(" "):
            entries[-1] = (last[0] + [line], "", f"{last[2]} {line}", None, "")  # prose: one paragraph
        else:
            entries.append(([line], line[:len(line) - len(line.lstrip())], line.strip(), None, ""))
    usual = Counter(column for *_, column, _ in entries if column is not None).most_common(1)

    def wrap(text: str, first: str, rest: str) -> list[str]:
        """``text`` wrapped at its spaces, but not between an option and its value (``--seed 1``)."""
        text = re.sub(r"(?<= )(--?[\w-]+) (?=[^-\s])", "\\1\0", text)
        return [line.replace("\0", " ") for line in textwrap.wrap(
            text, width, initial_indent=first, subsequent_indent=rest, break_long_words=False,
            break_on_hyphens=False)] or [""]

    out: list[str] = []
    for written, indent, head, column, body in entries:
        if all(len(line) <= width for line in written):
            out += written
        elif column is None:
            out += wrap(head, indent, indent + ("    " if indent else ""))
        else:
            where = min(column, usual[0][0]) if usual[0][0] <= width - 24 else len(indent) + 4
            if len(indent) + len(head) + 2 <= where:
                beside = textwrap.wrap(body, width - where, break_long_words=False, break_on_hyphens=False)
                out.append(f"{indent}{head}{' ' * (where - len(indent) - len(head))}{beside[0]}")
                out += [" " * where + line for line in beside[1:]]
            else:
                out += wrap(head, indent, indent + "    ") + wrap(body, " " * where, " " * where)
    return out
