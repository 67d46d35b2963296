"""A game of MathMind with a person: mmlab keeps the secret, the person guesses and is told Reddi's
answer (higher/lower pegs, or a distance; ``mmlab.variants.mathmind``). ``mmlab mathmind guess``
and the web page play it.

>>> from mmlab.game import Game
>>> session = MathMindSession(MathMind(Game.parse_size("4x6"), "euclidean"), secret="3632")
>>> session.describe(session.guess("1111")), session.remaining
('distance² 34', 42)
>>> session.game.format(session.hint("knuth").suggestion)
'1356'
"""

from __future__ import annotations

import numpy as np

from mmlab.errors import BadArgument, shown
from mmlab.game import Game
from mmlab.play.session import HINT_CANDIDATES, Hint, SecretKept, split_options
from mmlab.strategies.base import rng_of
from mmlab.variants import mathmind_kernels as K
from mmlab.variants.mathmind import RULES, MathMind

#: The rule that gives hints when none is named: Knuth's, as in the standard game.
DEFAULT_RULE = "knuth"


def check_rule(rule: str) -> str:
    """``rule`` if MathMind's hints can follow it (one of ``RULES``); refused otherwise.

    >>> check_rule("kunth")
    Traceback (most recent call last):
    mmlab.errors.BadArgument: MathMind's hints follow one of the exhaustive rules knuth, irving, most-parts, entropy; got 'kunth'
    """
    if rule not in RULES:
        why = " (the optimum's tree has no move off its own paths)" if rule == "optimum" else ""
        raise BadArgument(f"MathMind's hints follow one of the exhaustive rules {', '.join(RULES)}; got "
                          f"{shown(rule)}{why}")
    return rule


class MathMindSession(SecretKept):
    """mmlab keeps ``secret`` (drawn at random when not given); the person guesses, and each guess
    is answered by ``mathmind``'s rule. ``moves`` are the guesses with their answers (integers:
    ``describe`` words them)."""

    def __init__(self, mathmind: MathMind, secret: int | str | None = None,
                 rng: np.random.Generator | int | None = None) -> None:
        self.mathmind = mathmind
        rng = rng_of(rng) or np.random.default_rng()
        self.secret = int(rng.integers(self.game.n_codes)) if secret is None else self.game.code(secret)
        self.moves: list[tuple[int, int]] = []
        self.gave_up = False
        self._counts = [self.game.n_codes]  # the codes that fit, before the first move and after each
        self._left = np.arange(self.game.n_codes)  # (only the last: a game of many moves keeps no more)
        self._needs: dict[str, int] = {}  # rule_guesses, by rule

    @property
    def game(self) -> Game:
        return self.mathmind.game

    @property
    def winning(self) -> int:
        return self.mathmind.win

    @property
    def left(self) -> np.ndarray:
        """The codes (ascending indices) that fit every answer so far."""
        return self._left

    @property
    def remaining(self) -> int:
        return int(self._left.size)

    def counts(self) -> list[int]:
        """The codes that fit before the first move and after each move."""
        return list(self._counts)

    def describe(self, answer: int) -> str:
        return self.mathmind.describe(answer)

    def guess(self, code: int | str) -> int:
        """Answer ``code`` (an index, or a code written out) and record the move; returns the answer."""
        self.require_playing()
        code = self.game.code(code)
        answer = self.mathmind.answer(code, self.secret)
        self._left = self._fitting(self._left, code, answer)
        self.moves.append((code, answer))
        self._counts.append(self.remaining)
        return answer

    def _fitting(self, codes: np.ndarray, guess: int, answer: int) -> np.ndarray:
        """Those of ``codes`` that give ``answer`` to ``guess``."""
        mm = self.mathmind
        return codes[K.answers_against(mm.digits[guess], mm.digits, codes, mm.kind) == answer]

    def undo(self) -> None:
        """Take back the last guess (refused once the game is over)."""
        self._take_back()
        self._counts.pop()
        self._left = np.arange(self.game.n_codes)  # (the answers again: cheaper than keeping every move's codes)
        for guess, answer in self.moves:
            self._left = self._fitting(self._left, guess, answer)

    def candidates(self, limit: int = 50) -> list[int]:
        """The codes that still fit, if there are at most ``limit``; raises otherwise."""
        if self.remaining > limit:
            raise BadArgument(f"{self.remaining:,} codes fit the answers, too many to list (at most {limit}); "
                              "ask for a hint")
        return [int(c) for c in self.left]

    def partition(self, guess: int | str) -> dict:
        """How ``guess`` would split the codes left (``MathMind.summary``)."""
        return self.mathmind.summary(guess, self.left)

    def hint(self, rule: str = DEFAULT_RULE, options: int = 3) -> Hint:
        """``rule``'s next guess, and the partition tables of it and of the rule's next best guesses
        that split the codes otherwise, ``options`` in all (their ``classes`` keyed by the answer's
        integer), as ``CodebreakerSession.hint`` gives them."""
        self.require_playing()
        guesses = self.mathmind.ranked(check_rule(rule), self.left, HINT_CANDIDATES * options)
        tables = split_options(guesses, self.partition, options)
        return Hint(self.remaining, rule, tables[0]["guess"], tables)

    def rule_guesses(self, rule: str = DEFAULT_RULE) -> int:
        """The guesses ``rule`` (any rule of ``MathMind.play``, 'optimum' too) needs to find this secret
        (played once, then kept)."""
        if rule not in self._needs:
            self._needs[rule] = len(self.mathmind.play(rule, self.secret))
        return self._needs[rule]
