"""The interface every codebreaker shares: parameters in the constructor, ``start`` and ``guess``.

>>> import numpy as np
>>> from mmlab.game import Game
>>> from mmlab.knowledge import Knowledge
>>> from mmlab.strategies import make_strategy
>>> game = Game.parse_size("4x6")
>>> s = make_strategy("knuth")
>>> s.start(game, np.random.default_rng(0))
>>> game.format(s.guess(Knowledge.initial(game)))
'1122'
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from mmlab.errors import (INT64_MAX, BadArgument, BadCode, UnknownStrategy, did_you_mean, shown, shown_number,
                          whole_number)
from mmlab.game import Game
from mmlab.knowledge import Knowledge

#: A maximum from here on is the kernels' limit (int64), not a setting: messages and listings do
#: not show it (``steps``: "at least 0", not "from 0 to 4611686018427387904").
MACHINE_MAXIMUM = 2**62


@dataclass(frozen=True)
class Param:
    """One parameter of a strategy spec: its name, default, allowed values and meaning."""

    name: str
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    kind: type = str
    minimum: int | None = None  # smallest allowed value of a numeric parameter
    maximum: int | None = None  # largest allowed value of a numeric parameter
    effort: bool = False  # sets how much the strategy searches (a public server keeps the default)

    def check(self, owner: str, value: Any) -> None:
        """Refuse a numeric value outside ``minimum``..``maximum``, naming the parameter and its range."""
        low = self.minimum is not None and value < self.minimum
        high = self.maximum is not None and value > self.maximum
        if low or high:
            shown_maximum = self.maximum if self.maximum is None or self.maximum < MACHINE_MAXIMUM else None
            bound = (f"from {self.minimum} to {shown_maximum}" if None not in (self.minimum, shown_maximum)
                     else f"at least {self.minimum}" if low else f"at most {self.maximum}")
            raise UnknownStrategy(f"{owner}: {self.name}={value} is out of range; it must be {bound}")

    def accept(self, owner: str, value: Any) -> Any:
        """A value given in Python: a text or a whole number is read as its text in a spec would be,
        anything else is refused; then its range is checked.

        >>> Param("k", 5, "beam width", kind=int, minimum=1).accept("tpoa", "7")
        7
        >>> Param("ties", "first", "tie rule", choices=("first", "random")).accept("knuth", "firts")
        Traceback (most recent call last):
        ...
        mmlab.errors.UnknownStrategy: knuth: ties='firts' is not allowed; choose one of first, random
        """
        if isinstance(value, str):
            value = self.convert(owner, value)
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):  # sample=200 too
            value = self.convert(owner, str(int(value)))
        elif isinstance(value, float) and self.kind is str:  # (sample=1.5: its words for the text "1.5")
            value = self.convert(owner, repr(value))
        elif self.kind not in (str, int) and isinstance(value, self.kind):  # a kind of a strategy of one's own
            pass
        else:
            what = {int: "a whole number", str: "a text"}.get(self.kind, f"a {self.kind.__name__}")
            raise UnknownStrategy(f"{owner}: {self.name}={value!r} should be {what}")
        self.check(owner, value)
        return value

    def convert(self, strategy: str, text: str) -> Any:
        """Read the text of a spec's ``name=text`` as this parameter's kind, refusing what it cannot be."""
        if self.choices is not None and text not in self.choices:
            raise UnknownStrategy(
                f"{strategy}: {self.name}={shown(text)} is not allowed; choose one of {', '.join(self.choices)}"
            )
        if self.kind is str:
            return text
        value = whole_number(text) if self.kind is int else None
        if value is not None:
            if abs(value) > INT64_MAX:  # the kernels take int64
                bound = (f"at most {INT64_MAX if self.maximum is None else self.maximum}" if value > 0
                         else f"at least {-INT64_MAX if self.minimum is None else self.minimum}")
                raise UnknownStrategy(f"{strategy}: {self.name}={shown_number(text)} is out of range; it must be {bound}")
            return value
        what = "a whole number" if self.kind is int else f"a {self.kind.__name__}"
        raise UnknownStrategy(f"{strategy}: {self.name}={shown(text)} should be {what}")


@dataclass(frozen=True)
class Choice:
    """The codes a guess was picked from, its top scorers: 004 follows how many there are and
    whether the secret is among them.

    ``codes`` is ascending, or ``None`` for every code of the game (``size`` of them); ``uniform``
    says the guess was drawn uniformly from them, otherwise the first was taken.
    """

    codes: np.ndarray | None
    size: int
    uniform: bool

    @staticmethod
    def of(codes: np.ndarray, uniform: bool) -> "Choice":
        return Choice(codes, int(codes.shape[0]), uniform)

    def contains(self, code: int) -> bool:
        if self.codes is None:
            return True
        i = int(np.searchsorted(self.codes, code))
        return i < self.size and int(self.codes[i]) == code

    def chance(self, secret: int, guess: int) -> float:
        """The probability that the guess picked from these codes was ``secret``."""
        if not self.uniform:
            return float(guess == secret)
        return 1.0 / self.size if self.contains(secret) else 0.0


class Configurable:
    """Something built from a spec string: a ``name`` and typed ``params`` with defaults.

    Subclasses set ``name``, ``summary``, ``source`` and ``params``.
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    source: ClassVar[str] = ""
    params: ClassVar[tuple[Param, ...]] = ()

    def __init__(self, **values: Any) -> None:
        known = {p.name: p for p in self.params}
        for key in values:
            if key not in known:
                names = ", ".join(known) or "none"
                raise UnknownStrategy(f"{self.name} has no parameter {shown(key)}{did_you_mean(key, known)} "
                                      f"(its parameters: {names})")
        self.values = {p.name: p.accept(self.name, values[p.name]) if p.name in values else p.default
                       for p in self.params}

    @property
    def spec(self) -> str:
        """The spec string that rebuilds this object, listing the parameters that differ from defaults."""
        changed = [f"{p.name}={self.values[p.name]}" for p in self.params if self.values[p.name] != p.default]
        return self.name + (":" + ",".join(changed) if changed else "")

    @property
    def raised_effort(self) -> list[str]:
        """``name=value`` of the parameters that set how much it searches and differ from their defaults.

        >>> from mmlab.strategies import make_strategy
        >>> make_strategy("evo:pop=400,score=most-parts").raised_effort
        ['pop=400']
        """
        return [f"{p.name}={self.values[p.name]}" for p in self.params if p.effort and self.values[p.name] != p.default]

    @classmethod
    def from_raw(cls, raw: dict[str, str]):
        """Build from the raw ``key=value`` texts of a spec (each read by its ``Param``, as any text is)."""
        return cls(**raw)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


class Strategy(Configurable):
    """A codebreaker: ``start`` a game, then ``guess`` from the knowledge gathered.

    >>> from mmlab.game import Feedback
    >>> from mmlab.strategies import make_strategy
    >>> game, s = Game.parse_size("3x3"), make_strategy("knuth")
    >>> s.start(game)
    >>> game.format(s.guess(Knowledge.initial(game).update(game.parse("112"), Feedback(1, 0)))), s.deterministic
    ('133', True)
    """

    #: Whether the strategy needs every code of the game in memory.
    needs_enumeration: ClassVar[bool] = True
    #: Whether play keeps the consistent set explicitly for this strategy when the game can be
    #: enumerated; search-based strategies check codes against the history instead.
    tracks_consistent_set: ClassVar[bool] = True

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        self.game: Game | None = None
        self.rng = np.random.default_rng()
        #: Codes checked for consistency or scored so far ("combinations evaluated", 001).
        self.evaluations = 0
        #: The codes the last guess was picked from, when the strategy knows them.
        self.last_choice: Choice | None = None
        #: Why the last guess was not found by the strategy's own search (its budget ran out: the
        #: fittest code found was played, which may not fit every answer, or a consistent code
        #: found by the constraint search); ``None`` otherwise.
        self.last_fallback: str | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass's own ``guess`` is wrapped by ``started``: it refuses to guess before ``start``
        or from the knowledge of another game than the one started, instead of failing inside, and
        refuses a guess that is no code of the game, naming the strategy."""
        super().__init_subclass__(**kwargs)
        if "guess" in cls.__dict__:
            cls.guess = started(cls.__dict__["guess"])

    @property
    def deterministic(self) -> bool:
        """Whether ``guess`` depends on the knowledge alone (then the strategy compiles to a tree)."""
        return True

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        """Prepare for a new game; raises if the strategy cannot play ``game`` (one too large to
        enumerate, unless the class sets ``needs_enumeration = False``)."""
        if self.needs_enumeration:
            self.require_enumerable(game)
        self.game = game
        self.evaluations = 0
        if rng is not None:
            self.rng = rng

    def require_enumerable(self, game: Game) -> None:
        """Refuse a game too large to enumerate, naming the strategies that can play it."""
        from mmlab.strategies.registry import REGISTRY  # the registry imports this module

        others = sorted(name for name, cls in REGISTRY.items() if not cls.needs_enumeration)
        game.require_enumerable(self.name, ", ".join(others))

    def fixed_first(self, game: Game) -> int | None:
        """The code given as ``first=CODE``, parsed for ``game``; ``None`` when not given."""
        text = self.values.get("first", "")
        if not text:
            return None
        try:
            return game.parse(text)
        except BadCode as e:
            if text == "random":  # offered by shc and ga, whose specs readers compare with this one's
                raise BadCode(f"{self.name}: first=random is not a first guess of {game.size}: {self.name} takes a "
                              "code, or first empty for its own (shc and ga draw a random one)") from None
            raise BadCode(f"{self.name}: first={text} is not a first guess of {game.size}: {e}") from None

    def guess(self, knowledge: Knowledge) -> int:
        """The index of the next code to play."""
        raise NotImplementedError(f"{type(self).__name__} must define guess(self, knowledge) -> int, the index "
                                  "of its next guess")

    def certain(self, knowledge: Knowledge, guess: int) -> bool:
        """Whether the strategy knew that ``guess``, just chosen from ``knowledge``, is the secret.

        Singley (003) counts guesses "until the code is known", so such a last guess is not
        counted there. By default a strategy knows it when one consistent code is left.
        """
        return knowledge.explicit and knowledge.n_consistent == 1 and int(knowledge.consistent[0]) == guess


def started(guess: Callable[[Strategy, Knowledge], int]) -> Callable[[Strategy, Knowledge], int]:
    """``guess``, refusing a knowledge that is none, a strategy not started (what ``start`` sets up
    for a game, its first guess, random generator or search, is not there) and a knowledge of
    another game than the one started, and a guess that is no code index of the game, naming the
    strategy (wherever it plays: a game, a decision tree, a session). Not a start from the
    knowledge's game: a generator drawn then would not be the seeded one, and a second game would
    go on from the first one's state.

    >>> from mmlab.strategies import make_strategy
    >>> make_strategy("knuth").guess(Knowledge.initial(Game.parse_size("4x6")))
    Traceback (most recent call last):
    ...
    mmlab.errors.BadArgument: knuth: call start(game) before guess, once a game before its first guess
    """
    @functools.wraps(guess)
    def checked(self: Strategy, knowledge: Knowledge) -> int:
        if not isinstance(knowledge, Knowledge):
            raise BadArgument(f"{self.spec}: guess takes a Knowledge (Knowledge.initial(game), then its "
                              f"update(guess, answer)), got {shown(knowledge)}")
        if self.game is None:
            raise BadArgument(f"{self.spec}: call start(game) before guess, once a game before its first guess")
        if knowledge.game is not self.game and knowledge.game != self.game:
            raise BadArgument(f"{self.spec} was started on {self.game}, and the knowledge is of {knowledge.game}: "
                              "call start(game) with the knowledge's game, once a game before its first guess")
        code = guess(self, knowledge)
        if not isinstance(code, numbers.Integral) or isinstance(code, (bool, np.bool_)) \
                or not 0 <= code < self.game.n_codes:
            hint = " (game.parse(text) gives the index of a written code)" if isinstance(code, str) else ""
            raise BadCode(f"{self.spec} guessed {shown(code)} at move {len(knowledge.history) + 1}, which is no code "
                          f"of {self.game}: guess must return a code index from 0 to {self.game.n_codes - 1}{hint}")
        return code

    return checked


def rng_of(rng: np.random.Generator | int | None) -> np.random.Generator | None:
    """A random generator given as itself or by its seed (``None`` stays ``None``: the callee draws one).

    >>> int(rng_of(7).integers(100)) == int(np.random.default_rng(7).integers(100))
    True
    """
    if rng is None or isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool) and rng >= 0:
        return np.random.default_rng(int(rng))
    raise BadArgument(f"rng must be a numpy Generator or a seed (a whole number, 0 or more), got {shown(rng)}")
