"""Codemakers: ``start`` a game, then ``answer`` each guess from what has been answered so far.

A fixed or random codemaker holds a secret from the start. The adversary of dynamic Mastermind
holds none: it answers so that as many codes as possible stay consistent (``mode=largest``), or,
given the strategy's decision tree, so that the strategy needs as many guesses as it can
(``mode=worst``); the secret is whatever code is left at the end.

>>> from mmlab.game import Game
>>> from mmlab.knowledge import Knowledge
>>> game = Game.parse_size("4x6")
>>> maker = make_codemaker("adversary")
>>> maker.start(game)
>>> maker.answer(Knowledge.initial(game), game.parse("1122"))   # the largest class of 1122: 256 codes
Feedback(black=1, white=0)
"""

from __future__ import annotations

import numpy as np

from mmlab.errors import BadArgument, UnknownStrategy, did_you_mean, shown
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import Strategy
from mmlab.strategies.registry import parse_spec
from mmlab.trees import DecisionTree, Node


class Codemaker:
    """Answers guesses; ``secret`` is known once the game is won (or from the start).

    >>> game = Game.parse_size("3x3")
    >>> maker = make_codemaker("random")
    >>> maker.start(game, np.random.default_rng(0))
    >>> game.format(maker.secret), maker.answer(Knowledge.initial(game), game.parse("112"))
    ('322', Feedback(black=1, white=0))
    """

    name = ""

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        """Prepare to answer a new game of ``game`` (drawing from ``rng`` if it draws)."""
        self.game = game

    def answer(self, knowledge: Knowledge, guess: int) -> Feedback:
        """The answer to ``guess``, given what was answered before it (``knowledge``)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class FixedSecret(Codemaker):
    """Answers for one given secret (an index, or a code written out).

    >>> game = Game.parse_size("3x3")
    >>> maker = FixedSecret("321")
    >>> maker.start(game)
    >>> maker.secret, maker.answer(Knowledge.initial(game), game.parse("112"))
    (21, Feedback(black=0, white=2))
    """

    name = "fixed"

    def __init__(self, secret: int | str) -> None:
        self.text = secret

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        """Read the secret for ``game``."""
        super().start(game, rng)
        self.secret = game.parse(self.text) if isinstance(self.text, str) else int(self.text)

    def answer(self, knowledge: Knowledge, guess: int) -> Feedback:
        """The score of ``guess`` against the secret."""
        return self.game.score(self.secret, guess)


class RandomSecret(FixedSecret):
    """Draws the secret uniformly at ``start``."""

    name = "random"

    def __init__(self) -> None:
        super().__init__(0)

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        """Draw the secret from ``rng`` (a fresh generator if ``None``)."""
        rng = rng if rng is not None else np.random.default_rng()
        self.text = int(rng.integers(game.n_codes))
        super().start(game, rng)


class Adversary(Codemaker):
    """Dynamic Mastermind's codemaker: commits to no secret, and answers each guess with the
    answer class that keeps the game longest.

    ``mode=largest``: the class holding the most consistent codes (ties: the first non-winning
    answer in ``Game.feedbacks`` order). ``mode=worst``: the branch of ``strategy``'s decision
    tree that takes the most further guesses (ties: the larger class), so a deterministic strategy
    needs exactly its tree's worst case.

    >>> from mmlab.strategies import make_strategy
    >>> game = Game.parse_size("3x3")
    >>> adversary = Adversary("worst", make_strategy("knuth"))
    >>> adversary.start(game)
    >>> adversary.answer(Knowledge.initial(game), game.parse("112"))
    Feedback(black=2, white=0)
    """

    name = "adversary"

    def __init__(self, mode: str = "largest", strategy: Strategy | None = None) -> None:
        if mode not in ("largest", "worst"):
            raise UnknownStrategy(f"adversary: mode={mode!r} is not allowed; choose largest or worst")
        self.mode = mode
        self.strategy = strategy

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        """Prepare a new game; ``mode=worst`` builds the strategy's decision tree here."""
        super().start(game, rng)
        game.require_enumerable("the adversary (it follows every consistent code)")
        self.node: Node | None = None
        if self.mode == "worst":
            if self.strategy is None or not self.strategy.deterministic:
                raise BadArgument("adversary:mode=worst needs a deterministic strategy: it answers along the "
                                  "strategy's decision tree (use ties=first, or mode=largest)")
            self.node = DecisionTree.build(game, self.strategy).root
            self.heights = _heights(self.node)

    def answer(self, knowledge: Knowledge, guess: int) -> Feedback:
        """The answer that keeps the game longest (see the class docstring); needs explicit ``knowledge``."""
        game = self.game
        codes = knowledge.responses_of(guess)
        sizes = np.bincount(codes, minlength=game.n_responses)
        win = game.win.code(game.pegs)
        if self.mode == "worst":
            node = self.node
            if node is None or node.guess != guess:
                raise BadArgument("adversary:mode=worst was given a guess its strategy's tree does not play")
            if not node.children:
                return game.win
            code = max(node.children, key=lambda c: (self.heights[id(node.children[c])], sizes[c], -c))
            self.node = node.children[code]
            return Feedback.from_code(code, game.pegs)
        candidates = [c for c in np.flatnonzero(sizes) if c != win]
        if not candidates:
            return game.win
        order = {fb.code(game.pegs): i for i, fb in enumerate(game.feedbacks())}
        code = max(candidates, key=lambda c: (sizes[c], -order[int(c)]))
        return Feedback.from_code(int(code), game.pegs)


def _heights(root: Node) -> dict[int, int]:
    """Guesses still needed in the worst case from each node (1 at a node with no children)."""
    heights: dict[int, int] = {}

    def walk(node: Node) -> int:
        h = 1 + max((walk(c) for c in node.children.values()), default=0)
        heights[id(node)] = h
        return h

    walk(root)
    return heights


def make_codemaker(spec: str, strategy: Strategy | None = None) -> Codemaker:
    """``random``, ``fixed:CODE``, ``adversary`` or ``adversary:mode=worst`` (which needs ``strategy``).

    >>> make_codemaker("adversary:mode=worst,x=1")
    Traceback (most recent call last):
    ...
    mmlab.errors.UnknownStrategy: adversary has no parameter 'x' (its parameter: mode=largest|worst)
    """
    name, _, rest = spec.strip().partition(":")
    name, rest = name.strip(), rest.strip()
    if name == "random":
        if rest:
            raise UnknownStrategy(f"the random codemaker takes no parameters (got {shown(rest)})")
        return RandomSecret()
    if name == "fixed":
        if not rest:
            raise UnknownStrategy("fixed needs its secret after a colon, e.g. fixed:1234")
        return FixedSecret(rest)
    if name == "adversary":
        _, values = parse_spec(spec)  # the one spec parser: key=value items, each once
        for key in values:
            if key != "mode":
                raise UnknownStrategy(f"adversary has no parameter {shown(key)} (its parameter: mode=largest|worst)")
        return Adversary(values.get("mode", "largest"), strategy)
    raise UnknownStrategy(f"unknown codemaker {shown(name)}{did_you_mean(name, ['random', 'fixed', 'adversary'])}: "
                          "use random, fixed:CODE, adversary or adversary:mode=worst")
