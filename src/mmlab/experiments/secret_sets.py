"""Which secrets an experiment plays: every code, a random sample, an instance set, or a list.

An instance set (004, section 4.2) has ``N`` codes where each code of the game appears at least
once and none more than twice (``N`` between the number of codes and twice that); when ``N`` is
below the number of codes it is a sample without repeats.

>>> from mmlab.game import Game
>>> game = Game.parse_size("2x3")
>>> SecretSet.parse("instance:12").draw(game, seed=1).shape
(12,)
>>> str(SecretSet.parse("all"))
'all'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mmlab.errors import BadArgument, shown, shown_number, whole_number
from mmlab.game import Game

#: The most secrets an experiment draws (80 MB of code indices).
MAX_SECRETS = 10**7


@dataclass(frozen=True)
class SecretSet:
    """``kind`` is ``all``, ``sample`` (N distinct codes, or every code when the game has no
    more), ``instance`` (N codes, each once or twice) or ``list`` (the given codes)."""

    kind: str
    n: int = 0
    codes: tuple[str, ...] = ()

    @staticmethod
    def parse(value: str | int | list) -> "SecretSet":
        """``"all"``, ``N`` or ``"sample:N"``, ``"instance:N"``, or a list of codes."""
        if isinstance(value, list):
            if not value or not all(isinstance(c, str) for c in value):
                raise BadArgument("a list of secrets must hold codes as strings, e.g. [\"1234\", \"5566\"]")
            return SecretSet("list", len(value), tuple(value))
        if isinstance(value, bool):
            raise BadArgument(f"secrets must be 'all', N, 'sample:N', 'instance:N' or a list of codes, got {value!r}")
        if isinstance(value, int):
            return SecretSet._count("sample", value)
        text = str(value).strip()
        if text == "all":
            return SecretSet("all")
        kind, _, number = text.partition(":")
        if not number and whole_number(kind) is not None:
            kind, number = "sample", kind
        n = whole_number(number) if kind in ("sample", "instance") else None
        if n is None:
            raise BadArgument(f"secrets must be 'all', N, 'sample:N', 'instance:N' or a list of codes, got {shown(value)}")
        return SecretSet._count(kind, n, shown_number(number))

    @staticmethod
    def _count(kind: str, n: int, typed: str | None = None) -> "SecretSet":
        if n < 1:
            raise BadArgument(f"the number of secrets must be at least 1, got {typed or n}")
        if n > MAX_SECRETS:
            raise BadArgument(f"the number of secrets must be at most {MAX_SECRETS:,}, got {typed or shown(n)}")
        return SecretSet(kind, n)

    def __str__(self) -> str:
        if self.kind == "all":
            return "all"
        if self.kind == "list":
            return "list of " + str(self.n)
        return f"{self.kind}:{self.n}"

    def label(self, game: Game) -> str:
        """The set as it plays on ``game``: its spec, except an instance set below the number of
        codes, which ``draw`` plays as a sample, and a sample of at least every code, which it plays
        as every code once.

        >>> SecretSet.parse("instance:100").label(Game.parse_size("4x6")), SecretSet.parse(100).label(Game.parse_size("4x6"))
        ('sample:100 (instance:100 holds fewer than the 1,296 codes)', 'sample:100')
        >>> SecretSet.parse(300).label(Game.parse_size("3x4"))
        'all 64 codes (sample:300 asks for at least as many)'
        """
        if self.kind == "instance" and game.enumerable and self.n < game.n_codes:
            return f"sample:{self.n} ({self} holds fewer than the {game.n_codes:,} codes)"
        if self.kind == "sample" and self.every_code(game):
            return f"all {game.n_codes:,} codes ({self} asks for at least as many)"
        return str(self)

    def every_code(self, game: Game) -> bool:
        """Whether the set is every code of ``game`` once: ``all``, a sample of at least as many, or an
        instance set of exactly as many.

        >>> SecretSet.parse("sample:2000").every_code(Game.parse_size("4x4")), SecretSet.parse(500).every_code(Game.parse_size("4x6"))
        (True, False)
        """
        if self.kind == "all":
            return True
        return game.enumerable and ((self.kind == "sample" and self.n >= game.n_codes)
                                    or (self.kind == "instance" and self.n == game.n_codes))

    def draw(self, game: Game, seed: int) -> np.ndarray:
        """The secrets' code indices, in playing order; the same for every strategy of a study."""
        rng = np.random.default_rng([seed, 0x5EC])
        if self.kind == "list":
            return np.array([game.parse(c) for c in self.codes], dtype=np.int64)
        if self.kind == "all":
            game.require_enumerable("playing every secret")
            return np.arange(game.n_codes, dtype=np.int64)
        if not game.enumerable:
            if self.kind == "instance":
                raise BadArgument(f"an instance set holds every code of the game; {game} has {game.n_codes:.3g}: "
                                  "use a sample instead")
            chosen = np.unique(rng.integers(0, game.n_codes, size=self.n, dtype=np.int64))
            while chosen.shape[0] < self.n:  # distinct codes, as on enumerable games
                more = rng.integers(0, game.n_codes, size=self.n - chosen.shape[0], dtype=np.int64)
                chosen = np.unique(np.concatenate([chosen, more]))
            return chosen
        if self.every_code(game):
            return np.arange(game.n_codes, dtype=np.int64)  # a sweep's small sizes play every code
        if self.kind == "sample" or self.n < game.n_codes:
            return np.sort(rng.choice(game.n_codes, size=self.n, replace=False)).astype(np.int64)
        if self.n > 2 * game.n_codes:
            raise BadArgument(f"an instance set of {game} holds {game.n_codes} to {2 * game.n_codes} codes "
                              f"(each at least once, none more than twice), got {self.n}")
        twice = rng.choice(game.n_codes, size=self.n - game.n_codes, replace=False)
        return np.sort(np.concatenate([np.arange(game.n_codes), twice])).astype(np.int64)
