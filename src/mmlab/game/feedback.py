"""Feedback: ``Feedback(black, white)`` at the edges, ``black * (pegs + 1) + white`` inside kernels.

>>> Feedback(1, 2).code(4)
7
>>> Feedback.from_code(7, 4)
Feedback(black=1, white=2)
>>> parse_feedback("BWW")
Feedback(black=1, white=2)
>>> parse_feedback("1,2")
Feedback(black=1, white=2)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from mmlab.errors import BadFeedback, as_typed, shown


class Feedback(NamedTuple):
    """The codemaker's answer: pegs right in colour and place, and right in colour only.

    >>> fb = Feedback(1, 2)
    >>> fb.black, str(fb), fb == (1, 2)
    (1, '1,2', True)
    """

    black: int
    white: int

    def code(self, pegs: int) -> int:
        """The small integer used inside kernels."""
        return self.black * (pegs + 1) + self.white

    @staticmethod
    def from_code(code: int, pegs: int) -> "Feedback":
        black, white = divmod(int(code), pegs + 1)
        return Feedback(black, white)

    def __str__(self) -> str:
        return f"{self.black},{self.white}"


def feedback_of(secret: Sequence[int], guess: Sequence[int], with_white: bool = True) -> Feedback:
    """Knuth's feedback of ``guess`` against ``secret``, both given as colours (0-based): black counts
    the pegs right in colour and place, white the other pegs right in colour (0 where the game
    answers black pegs only). ``mmlab.game.kernels.feedback_pair`` gives the same, as an integer,
    for the kernels; this one scores a single pair without loading them.

    >>> feedback_of((0, 1, 2, 3), (0, 0, 1, 1)), feedback_of((0, 1, 2, 3), (0, 0, 1, 1), with_white=False)
    (Feedback(black=1, white=1), Feedback(black=1, white=0))
    """
    black = sum(s == g for s, g in zip(secret, guess, strict=True))
    if not with_white:
        return Feedback(black, 0)
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return Feedback(black, common - black)


def possible_feedbacks(pegs: int, with_white: bool = True) -> list[Feedback]:
    """Every answer that can occur, from the winning one down, in the order of 000's Table 1.

    >>> len(possible_feedbacks(4))
    14
    """
    out = []
    for black in range(pegs, -1, -1):
        whites = range(pegs - black, -1, -1) if with_white else [0]
        for white in whites:
            if black == pegs - 1 and white == 1:
                continue  # all pegs right in colour, all but one in place: impossible
            out.append(Feedback(black, white))
    return out


_NUMBERS = re.compile(r"^\s*([0-9]+)\s*[,;/ ]\s*([0-9]+)\s*$")
#: ``1 black`` (how mmlab prints an answer of black pegs only) or ``1 black 2 white``.
_WORDS = re.compile(r"^\s*([0-9]+)\s*blacks?(?:\s*[,;/ ]\s*([0-9]+)\s*whites?)?\s*$", re.IGNORECASE)
#: Digits a count (of pegs, colours) may have before it is refused unread: Python reads at most 4300.
NUMBER_DIGITS = 6
_LONG_NUMBER = re.compile(rf"[0-9]{{{NUMBER_DIGITS + 1}}}")


def parse_feedback(text: str, with_white: bool | None = None, pegs: int | None = None) -> Feedback:
    """Parse ``1 2``, ``1,2``, ``1 black 2 white``, ``BWW`` (B = black, W = white, ``-``/``.``
    ignored), ``none`` or ``-``, or the black pegs alone (``0``, or ``1 black`` as mmlab prints
    answers of black pegs only). A single number is refused when ``with_white`` says the game
    answers black and white too, where it would be ambiguous; the refusal's example fits ``pegs``.

    Whether the feedback can occur in a given game is checked by ``Game.check_feedback``.

    >>> parse_feedback("2", with_white=False), parse_feedback("1 black", with_white=False)
    (Feedback(black=2, white=0), Feedback(black=1, white=0))
    >>> parse_feedback("5", with_white=True, pegs=4)
    Traceback (most recent call last):
    mmlab.errors.BadFeedback: the answer '5' is one number, and this game answers black and white: give both, e.g. '1 0' or '1,0', or as pegs 'BW'
    """
    s = as_typed(text).strip()
    if _LONG_NUMBER.search(s):
        raise BadFeedback(f"the answer {shown(text)} holds a number too large to count pegs")
    m = _NUMBERS.match(s) or _WORDS.match(s)
    if m:
        return Feedback(int(m.group(1)), int(m.group(2) or 0))
    if s.isascii() and s.isdigit():
        if with_white:
            fits = pegs is None or sum(map(int, s)) <= pegs  # (an example the game cannot answer would mislead)
            if len(s) == 1 and fits:
                both = f"'{s} 0' or '{s},0'"
            elif len(s) == 2 and fits:
                both = f"'{s[0]} {s[1]}' ({s[0]} black, {s[1]} white)" + (" or '10 0'" if s == "10" else "")
            else:  # (too many pegs for the game, or a code, perhaps)
                both = "'1 0' or '1,0', or as pegs 'BW'"
            raise BadFeedback(f"the answer {shown(text)} is one number, and this game answers black and white: "
                              f"give both, e.g. {both}")
        return Feedback(int(s), 0)
    letters = s.upper().replace(" ", "").replace("-", "").replace(".", "").replace("_", "")
    if letters == "NONE" or (s and not letters):  # '-' is how mmlab shows no pegs
        return Feedback(0, 0)
    if letters and set(letters) <= {"B", "W"}:
        return Feedback(letters.count("B"), letters.count("W"))
    if with_white is False:
        raise BadFeedback(f"cannot read the answer {shown(text)}: give the black pegs as a number ('2' or "
                          "'2 black') or as pegs ('BB')")
    raise BadFeedback(
        f"cannot read the answer {shown(text)}: give black and white as two numbers ('1 2' or '1,2') "
        "or as pegs ('BWW')"
    )
