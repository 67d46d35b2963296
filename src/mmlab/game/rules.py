"""The rules of one game: pegs, colours, repeats, feedback kind; codes and their indices.

A code is an ``int``: its index in lexicographic order (colour 1 first, first peg most
significant). Indices fit in 64 bits for every supported size, so even a 10x36 game
parses and scores codes without enumerating anything.

>>> game = Game.parse_size("4x6")
>>> game.format(game.parse("ABBC"))
'1223'
>>> game.score(game.parse("1234"), game.parse("1122"))
Feedback(black=1, white=1)
>>> game.n_codes
1296
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from mmlab.errors import BadCode, BadFeedback, BadSize, SpaceTooLarge, as_typed, shown
from mmlab.game.feedback import NUMBER_DIGITS, Feedback, feedback_of, parse_feedback, possible_feedbacks

MIN_PEGS, MAX_PEGS = 1, 10
MIN_COLOURS, MAX_COLOURS = 2, 36
FEEDBACK_KINDS = ("black-white", "black")
#: Largest code space that is enumerated (digits and colour counts of every code in memory).
ENUMERATION_LIMIT = 2**24
#: Largest N x N feedback table built by default, in bytes.
TABLE_BUDGET = 64 * 2**20

#: A written code longer than this many characters a peg is refused unread (colours and separators take far fewer).
CODE_CHARS_PER_PEG = 16
_SEPARATORS = re.compile(r"[\s,;]+")
_SIZE = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def colour_counts(digits: np.ndarray, colours: int) -> np.ndarray:
    """``uint8[k, colours]``: how often each colour occurs in each code row of ``digits``.

    >>> colour_counts(np.array([[0, 0, 1, 1], [0, 1, 2, 3]], dtype=np.uint8), 4).tolist()
    [[2, 2, 0, 0], [1, 1, 1, 1]]
    """
    counts = np.empty((digits.shape[0], colours), dtype=np.uint8)
    for c in range(colours):
        counts[:, c] = (digits == c).sum(axis=1)
    return counts


def split_code(text: str) -> list[str]:
    """The colour tokens of a written code: ``"1122"`` -> 4 tokens, ``"10 11 2"`` -> 3; digits and
    full-width forms as ASCII (``as_typed``).

    >>> split_code("1 12, 3"), split_code("ABBC"), split_code("１０　２")
    (['1', '12', '3'], ['A', 'B', 'B', 'C'], ['10', '2'])
    """
    raw = as_typed(str(text)).strip()
    if _SEPARATORS.search(raw):
        return [t for t in _SEPARATORS.split(raw) if t]
    return list(raw)


@dataclass(frozen=True)
class Game:
    """A Mastermind game: ``pegs`` positions, ``colours`` colours (1..colours).

    >>> Game(4, 6, repeats=False).n_codes, str(Game(3, 4, feedback="black"))
    (360, '3x4 (black feedback)')
    """

    pegs: int
    colours: int
    repeats: bool = True
    feedback: str = "black-white"

    def __post_init__(self) -> None:
        for name in ("pegs", "colours"):  # numpy's integers (a size computed with numpy) as Python's
            if isinstance(getattr(self, name), np.integer):
                object.__setattr__(self, name, int(getattr(self, name)))
        if not isinstance(self.pegs, int) or isinstance(self.pegs, bool) or not MIN_PEGS <= self.pegs <= MAX_PEGS:
            raise BadSize(f"pegs must be a whole number from {MIN_PEGS} to {MAX_PEGS}, got {self.pegs!r}")
        if (not isinstance(self.colours, int) or isinstance(self.colours, bool)
                or not MIN_COLOURS <= self.colours <= MAX_COLOURS):
            raise BadSize(
                f"colours must be a whole number from {MIN_COLOURS} to {MAX_COLOURS}, got {self.colours!r}"
            )
        if not isinstance(self.repeats, (bool, np.bool_)):
            raise BadSize(f"repeats must be True or False, got {self.repeats!r}")
        if self.feedback not in FEEDBACK_KINDS:
            raise BadSize(f"feedback must be one of {', '.join(FEEDBACK_KINDS)}, got {self.feedback!r}")
        if not self.repeats and self.colours < self.pegs:
            raise BadSize(
                f"without repeated colours a {self.pegs}-peg code needs at least {self.pegs} colours, "
                f"got {self.colours}"
            )

    # ----------------------------------------------------------------- construction
    @staticmethod
    def parse_size(text: str, repeats: bool = True, feedback: str = "black-white") -> "Game":
        """``"4x6"`` -> 4 pegs, 6 colours."""
        m = _SIZE.match(str(text))
        if not m:
            raise BadSize(f"cannot read the size {shown(text)}: write PEGSxCOLOURS, for example 4x6 or 5x8")
        if max(len(m.group(1)), len(m.group(2))) > NUMBER_DIGITS:
            raise BadSize(f"the size {shown(text)} is far too large: at most {MAX_PEGS} pegs and {MAX_COLOURS} colours")
        return Game(int(m.group(1)), int(m.group(2)), repeats=repeats, feedback=feedback)

    @staticmethod
    def of(game: "Game | str") -> "Game":
        """``game`` itself, or the game of a size written ``"4x6"``: what every function taking a
        game accepts.

        >>> Game.of("5x8") == Game(5, 8), Game.of(Game(4, 6)).size
        (True, '4x6')
        """
        if isinstance(game, Game):
            return game
        if isinstance(game, str):
            return Game.parse_size(game)
        raise BadSize(f"expected a Game or a size such as '4x6', got {shown(game)} ({type(game).__name__})")

    def __reduce__(self):
        return (Game, (self.pegs, self.colours, self.repeats, self.feedback))

    @property
    def size(self) -> str:
        return f"{self.pegs}x{self.colours}"

    def __str__(self) -> str:
        extra = []
        if not self.repeats:
            extra.append("no repeats")
        if self.feedback != "black-white":
            extra.append(f"{self.feedback} feedback")
        return self.size + (f" ({', '.join(extra)})" if extra else "")

    # ----------------------------------------------------------------- sizes
    @property
    def n_codes(self) -> int:
        """How many codes there are (m**n, or m!/(m-n)! without repeats)."""
        if self.repeats:
            return self.colours**self.pegs
        return math.perm(self.colours, self.pegs)

    @property
    def enumerable(self) -> bool:
        return self.n_codes <= ENUMERATION_LIMIT

    @property
    def with_white(self) -> bool:
        return self.feedback == "black-white"

    @property
    def n_responses(self) -> int:
        """Range of the feedback codes used inside kernels: ``(pegs + 1) ** 2``."""
        return (self.pegs + 1) ** 2

    @property
    def win(self) -> Feedback:
        return Feedback(self.pegs, 0)

    def require_enumerable(self, who: str, alternatives: str = "") -> None:
        """Raise ``SpaceTooLarge`` naming ``who`` if the code space cannot be enumerated."""
        if not self.enumerable:
            hint = f" Strategies that play without enumerating: {alternatives}." if alternatives else ""
            raise SpaceTooLarge(
                f"{who} needs every code of the game, and {self} has {self.n_codes:.3g} codes "
                f"(limit {ENUMERATION_LIMIT:.3g}).{hint}"
            )

    # ----------------------------------------------------------------- codes
    def parse(self, text: str) -> int:
        """Index of a code written ``1122``, ``1 1 2 2``, ``1,1,2,2`` or ``AABB``."""
        if not isinstance(text, str):
            raise BadCode(f"parse reads a code written out, like '{'1' * self.pegs}', got {shown(text)} "
                          f"({type(text).__name__}); Game.code takes an index too")
        if len(str(text)) > CODE_CHARS_PER_PEG * self.pegs:  # refused before it is split into a list
            raise BadCode(f"code {shown(text)} is {len(str(text)):,} characters long, too long for a code of "
                          f"{self.pegs} pegs")
        typed = as_typed(text).strip()
        tokens = split_code(typed)
        if self.pegs == 1 and len(tokens) > 1 and typed.isalnum():
            tokens = [typed]  # one peg: "10" is colour 10, not two pegs
        stray = next((t for t in tokens if not t.isalnum()), None)
        if stray is not None:  # "-1122", "1.122": a sign or a point, not a peg too many
            self._parse_colour(stray, text)
        if len(tokens) != self.pegs:
            split = len(tokens) > 1 and any(len(t) > 1 and not (t.isdecimal() and 1 <= int(t) <= self.colours)
                                            for t in tokens)  # '11 22' in 4x6: spaces part pegs ('²' is no decimal)
            raise BadCode(
                f"code {shown(text)} has {len(tokens)} peg{'s' if len(tokens) != 1 else ''}, "
                f"the {self.size} game needs {self.pegs}" + (" (spaces or commas part one peg from the next)"
                                                             if split else "")
            )
        digits = [self._parse_colour(t, text) for t in tokens]
        if any(t.isdigit() for t in tokens) and any(t.isalpha() for t in tokens):
            raise BadCode(f"code {shown(text)} mixes digits and letters: write every colour as a digit (1-"
                          f"{self.colours}) or every colour as a letter")
        if not self.repeats and len(set(digits)) != len(digits):
            raise BadCode(f"code {shown(text)} repeats a colour, and this {self.size} game allows no repeats")
        return self.index_of(digits)

    @property
    def colour_range(self) -> str:
        """How this game's colours are written, for messages.

        >>> Game(4, 6).colour_range
        '1-6 or A-F'
        """
        return f"1-{self.colours} or A-{_LETTERS[min(self.colours, 26) - 1]}"

    def stray_letter(self, text: str) -> str | None:
        """The first letter of ``text`` that is no colour of this game (A is colour 1), if any: such
        a text is a word, not a code.

        >>> Game(4, 6).stray_letter("hello"), Game(4, 6).stray_letter("ABBA")
        ('h', None)
        """
        colours = _LETTERS[:self.colours]
        return next((c for c in as_typed(text) if c.isalpha() and not (c.isascii() and c.upper() in colours)), None)

    def _parse_colour(self, token: str, text: str) -> int:
        expected = f"expected {self.colour_range}"
        if token.isascii() and token.isdigit():
            value = int(token) if len(token) <= NUMBER_DIGITS else 0  # 0, like any long number, is no colour
        elif len(token) == 1 and token.isascii() and token.isalpha():  # ('ﬆ'.upper() is 'ST', 'ı'.upper() 'I')
            value = _LETTERS.index(token.upper()) + 1
        else:
            raise BadCode(f"code {shown(text)}: {shown(token)} is not a colour ({expected})")
        if not 1 <= value <= self.colours:
            raise BadCode(f"code {shown(text)}: {shown(token)} is not a colour of the {self.size} game ({expected})")
        return value - 1

    def format(self, index: int) -> str:
        """``1122`` (colours 1..m); space-separated when there are more than 9 colours."""
        digits = self.digits(index)
        if self.colours <= 9:
            return "".join(str(d + 1) for d in digits)
        return " ".join(str(d + 1) for d in digits)

    def format_all(self, codes: Iterable[int]) -> str:
        """Codes written out one after another: ``1122 1123``, or ``1 2 10 3, 1 2 11 3`` when
        their colours are separated by spaces (more than 9 colours).

        >>> Game.parse_size("4x6").format_all([7, 8]), Game.parse_size("2x12").format_all([1, 12])
        ('1122 1123', '1 2, 2 1')
        """
        return (" " if self.colours <= 9 else ", ").join(self.format(int(c)) for c in codes)

    def code(self, code: int | str) -> int:
        """The index of a code given by its index or written out (as ``parse`` reads it).

        >>> game = Game.parse_size("4x6")
        >>> game.code("1122"), game.code(7), game.code("AABB")
        (7, 7, 7)
        """
        if isinstance(code, str):
            return self.parse(code)
        try:
            if isinstance(code, (bool, np.bool_)):
                raise TypeError
            index = operator.index(code)  # int, numpy integers and 0-d integer arrays; not floats
        except TypeError:
            raise BadCode(f"code {shown(code)} is neither a code index (a whole number) nor a written code "
                          f"like '{'1' * self.pegs}'") from None
        if not 0 <= index < self.n_codes:
            raise BadCode(f"code index {index} is outside 0..{self.n_codes - 1} for {self}")
        return index

    def codes(self, codes: Iterable[int | str] | np.ndarray) -> np.ndarray:
        """``int64[]``: the indices of several codes, each given by its index or written out.

        >>> Game.parse_size("4x6").codes(["1122", 7, "6666"]).tolist()
        [7, 7, 1295]
        """
        if isinstance(codes, (str, bytes)) or not isinstance(codes, Iterable):
            raise BadCode(f"expected several codes (a list of indices or written codes), got {shown(codes)}")
        array = np.asarray(codes) if isinstance(codes, np.ndarray) else None
        if array is not None and array.ndim != 1:
            raise BadCode(f"expected a list of codes, got an array of shape {array.shape}")
        if array is not None and array.dtype.kind in "iu":  # (checked at once, not code by code)
            if array.size and (array.min() < 0 or array.max() >= self.n_codes):
                raise BadCode(f"code indices must be in 0..{self.n_codes - 1} for {self}")
            return array.astype(np.int64)
        return np.array([self.code(c) for c in codes], dtype=np.int64)

    def digits(self, index: int | str) -> tuple[int, ...]:
        """The colours (0-based) of the code with this index (or of a code written out)."""
        index = self.code(index)
        if self.repeats:
            out = []
            for _ in range(self.pegs):
                index, d = divmod(index, self.colours)
                out.append(d)
            return tuple(reversed(out))
        unused = list(range(self.colours))
        out = []
        for i in range(self.pegs):
            block = math.perm(self.colours - i - 1, self.pegs - i - 1)
            k, index = divmod(index, block)
            out.append(unused.pop(k))
        return tuple(out)

    def index_of(self, digits: Iterable[int]) -> int:
        """Index of a code given as 0-based colours.

        >>> Game.parse_size("4x6").index_of((0, 0, 1, 1))
        7
        """
        colours = [int(d) for d in digits]
        if len(colours) != self.pegs or not all(0 <= d < self.colours for d in colours):
            raise BadCode(f"{shown(tuple(colours))} is not a code of {self}: it needs {self.pegs} colours "
                          f"numbered 0..{self.colours - 1} (0-based)")
        if self.repeats:
            index = 0
            for d in colours:
                index = index * self.colours + d
            return index
        if len(set(colours)) != self.pegs:
            raise BadCode(f"{shown(tuple(colours))} repeats a colour, and {self} allows no repeats")
        unused = list(range(self.colours))
        index = 0
        for i, d in enumerate(colours):
            k = unused.index(d)
            unused.pop(k)
            index += k * math.perm(self.colours - i - 1, self.pegs - i - 1)
        return index

    def counts_of(self, digits: Sequence[int] | np.ndarray) -> np.ndarray:
        """``uint8[colours]``: how often each colour occurs in a code given as 0-based colours.

        >>> Game.parse_size("4x6").counts_of((0, 0, 1, 1)).tolist()
        [2, 2, 0, 0, 0, 0]
        """
        return np.bincount(np.asarray(digits, dtype=np.int64), minlength=self.colours).astype(np.uint8)

    # ----------------------------------------------------------------- feedback
    def score(self, secret: int, guess: int) -> Feedback:
        """Knuth's feedback of ``guess`` against ``secret`` (symmetric in the two), in plain Python:
        one answer costs microseconds, and no kernel is loaded for it."""
        return feedback_of(self.digits(secret), self.digits(guess), self.with_white)

    def answer(self, answer: Feedback | tuple[int, int] | str) -> Feedback:
        """An answer of this game given as ``Feedback``, a pair ``(black, white)`` or written
        (``"1,2"``, ``"BWW"``, ``"2"`` or ``"2 black"`` where answers count black pegs only), checked to
        occur.

        >>> game = Game.parse_size("4x6")
        >>> game.answer("1,2"), game.answer((1, 2)), game.answer("BWW")
        (Feedback(black=1, white=2), Feedback(black=1, white=2), Feedback(black=1, white=2))
        """
        if isinstance(answer, str):
            return self.check_feedback(parse_feedback(answer, with_white=self.with_white, pegs=self.pegs))
        try:
            black, white = answer
            if isinstance(black, (bool, np.bool_)) or isinstance(white, (bool, np.bool_)):
                raise TypeError
            black, white = operator.index(black), operator.index(white)
        except (TypeError, ValueError):
            raise BadFeedback(f"expected an answer (black, white) or one written like '1,2', got "
                              f"{shown(answer)}") from None
        return self.check_feedback(Feedback(black, white))

    def answer_text(self, fb: Feedback, black_word: bool = False) -> str:
        """An answer as mmlab writes it: ``1,2``; where answers count black pegs only, ``1`` (or
        ``1 black``, with ``black_word``).

        >>> Game(4, 6).answer_text(Feedback(1, 2)), Game(4, 6, feedback="black").answer_text(Feedback(1, 0), True)
        ('1,2', '1 black')
        """
        if self.with_white:
            return str(fb)
        return f"{fb.black} black" if black_word else str(fb.black)

    def check_feedback(self, fb: Feedback) -> Feedback:
        """Return ``fb`` if it can occur in this game, else raise ``BadFeedback`` saying why."""
        b, w = fb
        if not self.with_white and w:
            raise BadFeedback(f"answer {shown(b)},{shown(w)}: this game answers black pegs only")
        if b < 0 or w < 0:
            if not self.with_white:
                raise BadFeedback(f"answer {shown(b)}: black cannot be negative")
            raise BadFeedback(f"answer {shown(b)},{shown(w)}: black and white cannot be negative")
        if b + w > self.pegs:
            if not self.with_white:
                raise BadFeedback(f"answer {shown(b)}: black cannot exceed the {self.pegs} pegs")
            raise BadFeedback(f"answer {shown(b)},{shown(w)}: black + white cannot exceed the {self.pegs} pegs")
        if b == self.pegs - 1 and w == 1:
            raise BadFeedback(
                f"answer {b},{w} cannot occur: " + ("with one peg, a right colour is in the right place"
                                                   if self.pegs == 1 else "if all but one peg are right and every "
                                                   "colour is, the last peg is right too")
            )
        if not self.repeats and not self.with_white and b == self.pegs - 1 and self.colours == self.pegs:
            raise BadFeedback(
                f"answer {b} cannot occur: with {self.pegs} distinct colours of {self.colours}, "
                "all but one peg right means the last is right too"
            )
        if self.colours == 2 and w % 2:
            raise BadFeedback(
                f"answer {b},{w} cannot occur with 2 colours: the misplaced pegs pair up (a 1 where the "
                "secret has 2 and a 2 where it has 1), so white is even"
            )
        if not self.repeats and b + w < 2 * self.pegs - self.colours and self.with_white:
            raise BadFeedback(
                f"answer {b},{w} cannot occur without repeats: {self.pegs} distinct colours of "
                f"{self.colours} share at least {2 * self.pegs - self.colours} with the secret"
            )
        return Feedback(b, w)

    def feedbacks(self) -> list[Feedback]:
        """Every answer this game can give, winning answer first (the order of 000's Table 1).

        >>> len(Game.parse_size("4x6").feedbacks())
        14
        """
        out = []
        for fb in possible_feedbacks(self.pegs, self.with_white):
            try:
                out.append(self.check_feedback(fb))
            except BadFeedback:
                continue
        return out

    # ----------------------------------------------------------------- enumeration
    @cached_property
    def all_digits(self) -> np.ndarray:
        """``uint8[N, pegs]``: the colours of every code, in index order."""
        self.require_enumerable("enumerating the code space")
        if self.repeats:  # peg p cycles through the colours in blocks of colours**(pegs - 1 - p) codes
            out = np.empty((self.n_codes, self.pegs), dtype=np.uint8)  # (no int64 temporaries: 8x8 is 134 MB)
            colours = np.arange(self.colours, dtype=np.uint8)
            for p in range(self.pegs):
                out.reshape(self.colours**p, self.colours, -1, self.pegs)[:, :, :, p] = colours[None, :, None]
            return out
        codes = np.arange(self.colours, dtype=np.uint8)[:, None]
        for _ in range(1, self.pegs):  # extend every prefix by each unused colour, in order
            used = (codes[:, :, None] == np.arange(self.colours, dtype=np.uint8)).any(axis=1)
            rows, colours = np.nonzero(~used)
            codes = np.column_stack([codes[rows], colours.astype(np.uint8)])
        return codes

    @cached_property
    def all_counts(self) -> np.ndarray:
        """``uint8[N, colours]``: how often each colour occurs in every code."""
        if self.repeats:  # the counts of a code's first pegs plus its last peg, level by level
            self.require_enumerable("enumerating the code space")
            one = np.eye(self.colours, dtype=np.uint8)
            counts = np.zeros((1, self.colours), dtype=np.uint8)
            for _ in range(self.pegs):
                counts = (counts[:, None, :] + one[None, :, :]).reshape(-1, self.colours)
            return counts
        return colour_counts(self.all_digits, self.colours)

    def table(self, budget: int = TABLE_BUDGET) -> np.ndarray | None:
        """The full N x N feedback table if it fits ``budget`` bytes, else ``None``."""
        if not self.enumerable or self.n_codes**2 > budget:
            return None
        return self._table

    @cached_property
    def _table(self) -> np.ndarray:
        from mmlab.game import kernels  # (here: numba loads only where a kernel runs)

        return kernels.feedback_table(self.all_digits, self.all_counts, self.with_white)

    def forget_tables(self) -> None:
        """Free the code and feedback tables built so far; they are built again when next needed (a
        long-lived server does this once no game of its size is left).

        >>> game = Game.parse_size("3x4")
        >>> game.all_digits.shape, game.forget_tables(), "all_digits" in vars(game)
        ((64, 3), None, False)
        """
        for name in ("all_digits", "all_counts", "_table"):
            self.__dict__.pop(name, None)
