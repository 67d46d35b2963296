"""Errors a user can act on; the CLI prints their message on one line, never a traceback.

>>> from mmlab.errors import BadCode
>>> str(BadCode("code '12x4': 'x' is not a colour of the 4x6 game (expected 1-6 or A-F)"))
"code '12x4': 'x' is not a colour of the 4x6 game (expected 1-6 or A-F)"
"""

from __future__ import annotations

import functools
import math
import numbers
import re
import reprlib
import signal
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

#: Echoes of a user's input keep at most about this many characters.
ECHO_CHARS = 60
_ECHO = reprlib.Repr()
_ECHO.maxstring = _ECHO.maxother = ECHO_CHARS


#: The signals besides Ctrl-C that stop a command as Ctrl-C does (``cli.entry``) and that worker
#: processes ignore (``experiments.workers``), so that the two agree: SIGTERM, and SIGHUP where
#: there is one (not on Windows).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def is_ctrl_c(error: BaseException) -> bool:
    """Whether ``error`` is a Ctrl-C: a ``KeyboardInterrupt``, or the ``SystemError`` that numba makes
    of one landing in a kernel ("returned a result with an exception set"), at one remove or more.

    >>> is_ctrl_c(KeyboardInterrupt()), is_ctrl_c(SystemError("returned NULL"))
    (True, False)
    """
    while isinstance(error, SystemError):
        error = error.__cause__
    return isinstance(error, KeyboardInterrupt)


def ctrl_c_in_kernels(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, whose Ctrl-C reaches its caller as a ``KeyboardInterrupt`` even when it lands in
    a numba kernel (``is_ctrl_c``), so that the caller keeps what was found so far."""
    @functools.wraps(function)
    def interruptible(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except SystemError as error:
            if is_ctrl_c(error):
                raise KeyboardInterrupt from None
            raise
    return interruptible


def counted_guesses(n: int) -> str:
    """``n`` guesses in words, for a message.

    >>> counted_guesses(1), counted_guesses(3)
    ('1 guess', '3 guesses')
    """
    return f"{n} guess" if n == 1 else f"{n} guesses"


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` for the choice closest to a mistyped ``word`` (``difflib``'s ratio
    of at least 0.6), else nothing: for the end of an "unknown ..." message.

    >>> did_you_mean("knuht", ["knuth", "irving"]), did_you_mean("comapre", ["compare"]), did_you_mean("x", ["knuth"])
    (" (did you mean 'knuth'?)", " (did you mean 'compare'?)", '')
    """
    import difflib  # (here: most commands never need it)

    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def shown(value: object) -> str:
    """``repr(value)`` for a message, its middle elided past ``ECHO_CHARS`` characters, so a long
    input echoed back stays readable.

    >>> shown("1122"), len(shown("7" * 1000))
    ("'1122'", 60)
    >>> shown(10**5000)
    '<a number of 5001 digits>'
    """
    try:
        return _ECHO.repr(value)
    except ValueError:  # an int past Python's limit of digits to print
        return f"<a number of {_digits(value)} digits>"


def _digits(number: int) -> int:
    """The decimal digits of a whole number too long to print (from its bit length, then checked)."""
    n = abs(number)
    digits = max(1, int(n.bit_length() * math.log10(2)))
    return digits + (n >= 10**digits)


#: The full-width forms of ASCII's printable characters (U+FF01-U+FF5E, '！' to '～'), and how far
#: they are from them: what an input method for Japanese, Chinese or Korean types in full-width mode.
_FULL_WIDTH, _FROM_ASCII = range(0xFF01, 0xFF5F), 0xFEE0


def as_typed(text: str) -> str:
    """``text`` with each digit of any script written as its ASCII digit (a digit is what ``int``
    reads, ``str.isdecimal``: not '²'), and the full-width letters, punctuation and space that an
    input method types as their ASCII selves, so that codes and answers read as they look.

    >>> as_typed("１１２２"), as_typed("ＡＢ，Ｃ　Ｄ"), as_typed("١٢"), as_typed("1²")
    ('1122', 'AB,C D', '12', '1²')
    """
    if text.isascii():
        return text
    return "".join(_as_typed(char) for char in text)


def _as_typed(char: str) -> str:
    if ord(char) in _FULL_WIDTH:
        return chr(ord(char) - _FROM_ASCII)
    if char == "\u3000":  # (the ideographic space)
        return " "
    return str(unicodedata.decimal(char)) if char.isdecimal() else char


#: Whole numbers as users type them (after ``as_typed``): digits with an optional minus, spaces
#: around allowed ("+3", "1_000" and "²" are not whole numbers here).
_WHOLE = re.compile(r"\s*(-?)0*([0-9]+)\s*")
#: The largest whole number read: the kernels take int64.
INT64_MAX = 2**63 - 1


def whole_number(text: str) -> int | None:
    """``text`` as an int when it is a whole number as users type it, else None. A value past
    int64 comes back as ±(INT64_MAX + 1), so that any range check refuses it, without Python
    reading thousands of digits.

    >>> whole_number("42"), whole_number(" -007 "), whole_number("+3"), whole_number("²"), whole_number("1_0")
    (42, -7, None, None, None)
    >>> whole_number("４２"), whole_number("－١٢")  # full-width, Arabic-Indic: as ``as_typed`` reads them
    (42, -12)
    >>> whole_number("9" * 5000) == INT64_MAX + 1
    True
    """
    match = _WHOLE.fullmatch(as_typed(text))
    if match is None:
        return None
    sign, digits = -1 if match.group(1) else 1, match.group(2)
    return sign * min(int(digits) if len(digits) <= 19 else INT64_MAX + 1, INT64_MAX + 1)


def shown_number(text: str) -> str:
    """A number as the user typed it, for a message: unquoted, its middle elided when long.

    >>> shown_number("25"), len(shown_number("9" * 5000))
    ('25', 58)
    """
    return shown(text)[1:-1]


class MastermindError(Exception):
    """Base class of every error mmlab raises for a user's input."""


class BadSize(MastermindError):
    """A game size that is malformed or outside the supported range."""


class BadCode(MastermindError):
    """A code of the wrong length, with an unknown character, or a colour out of range."""


class BadFeedback(MastermindError):
    """A feedback that cannot occur in this game, or is malformed."""


class InconsistentFeedback(MastermindError):
    """No code fits every answer given so far."""


class SpaceTooLarge(MastermindError):
    """A strategy needs the whole code space, and the game is too large to enumerate."""


class UnknownStrategy(MastermindError):
    """A strategy spec names no registered strategy, or a parameter it does not have."""


class BadArgument(MastermindError):
    """A number of runs, secrets, a seed or another argument outside its range."""


class SearchFailed(MastermindError):
    """A search gave up within its budget: for a consistent code, or for an exact tree."""


class BadTree(MastermindError):
    """A decision tree file that cannot be read, or does not fit the game."""


class BadStudy(MastermindError):
    """A study file that cannot be read, or a key in it with a wrong value (then ``key`` names it
    and ``problem`` says what is wrong, for a command line to say in its own words)."""

    def __init__(self, message: str, key: str | None = None, problem: str | None = None) -> None:
        super().__init__(message)
        self.key, self.problem = key, problem


class StoreError(MastermindError):
    """A results store that is busy, damaged, or holds a different study under the same name."""


def checked_max_guesses(max_guesses: object) -> int | None:
    """``max_guesses`` as an int of 1 or more, or None (no limit); a bad value refused.

    >>> checked_max_guesses(10), checked_max_guesses(None)
    (10, None)
    >>> checked_max_guesses(0)
    Traceback (most recent call last):
    ...
    mmlab.errors.BadArgument: max_guesses must be a whole number of 1 or more (or None: no limit), got 0
    """
    if max_guesses is None:
        return None
    if isinstance(max_guesses, bool) or not isinstance(max_guesses, numbers.Integral) or max_guesses < 1:
        raise BadArgument("max_guesses must be a whole number of 1 or more (or None: no limit), got "
                          f"{shown(max_guesses)}")
    return int(max_guesses)
