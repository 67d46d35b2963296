"""Decision trees: a deterministic strategy compiled over every secret at once.

Secrets that received the same answers so far share the next guess, so one walk that follows
every response evaluates the strategy exactly over all secrets.

>>> from mmlab.game import Game
>>> from mmlab.strategies import make_strategy
>>> tree = DecisionTree.build(Game.parse_size("4x6"), make_strategy("knuth"))
>>> tree.total_guesses, tree.worst, tree.histogram
(5801, 5, {1: 1, 2: 6, 3: 62, 4: 533, 5: 694})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from mmlab.errors import BadArgument, BadTree, shown
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import Strategy, make_strategy


@dataclass(eq=False)
class Node:
    """One guess of the tree, reached by ``size`` secrets; ``children`` maps each non-winning
    feedback code to the node played next."""

    guess: int
    size: int
    children: dict[int, "Node"] = field(default_factory=dict)
    evaluations: int = 0  # codes the strategy checked or scored to choose this guess
    certain: bool = False  # the strategy knew the guess was the secret (it had deduced it)
    codes_left: int | None = None  # codes still possible before the guess, where a tree over some secrets has more

    @property
    def consistent(self) -> int:
        """How many codes were still possible before this guess."""
        return self.size if self.codes_left is None else self.codes_left

    @property
    def wins(self) -> bool:
        """Whether the guess is one of the secrets that reach this node (then it ends one game)."""
        return self.size - sum(c.size for c in self.children.values()) == 1

    def __repr__(self) -> str:  # the default would print the whole subtree
        return f"Node(guess={self.guess}, size={self.size}, children={len(self.children)})"

    def walk(self, depth: int = 1) -> Iterator[tuple["Node", int]]:
        """Every node of the subtree with its depth (the root's guess is guess number ``depth``)."""
        yield self, depth
        for child in self.children.values():
            yield from child.walk(depth + 1)


@dataclass(eq=False)
class DecisionTree:
    """A complete strategy for ``game``: the guess to play after every possible history (or, built
    over some secrets, after every history they give: ``over_some_secrets``).

    >>> tree = DecisionTree.build(Game.parse_size("3x3"), "knuth")
    >>> tree
    DecisionTree(3x3, 'knuth', secrets=27, nodes=27, root=112)
    >>> tree.game.format(tree.path([("112", (1, 0))]).guess)
    '133'
    """

    game: Game
    root: Node
    strategy: str = ""

    def __repr__(self) -> str:  # the default would print every node
        return (f"DecisionTree({self.game}, {self.strategy!r}, secrets={self.n_secrets}, nodes={self.n_nodes}, "
                f"root={self.game.format(self.root.guess)})")

    # ----------------------------------------------------------------- building
    @staticmethod
    def build(
        game: Game | str,
        strategy: Strategy | str,
        rng: np.random.Generator | None = None,
        on_progress: Callable[[int], None] | None = None,
        secrets: Iterable[int | str] | np.ndarray | None = None,
    ) -> "DecisionTree":
        """Compile a deterministic strategy (or its spec string) by exploring every response to every
        guess. ``game`` may be a size such as ``"4x6"``.

        With ``secrets`` (codes: indices or written out), only the answers that some of them get are explored: the
        tree of the strategy's games against those secrets, each node's ``size`` counting the ones
        that reach it, at the cost of their paths rather than of every game.
        ``on_progress(k)`` is called as ``k`` more secrets are solved.

        >>> from mmlab.strategies import make_strategy
        >>> game = Game.parse_size("4x6")
        >>> part = DecisionTree.build(game, make_strategy("knuth"), secrets=np.array([0, 7, 1295]))
        >>> part.n_secrets, part.depths()[[0, 7, 1295]].tolist(), part.n_nodes
        (3, [4, 1, 3], 6)
        >>> DecisionTree.build("4x6", "knuth", secrets=["1122", "3632"]).n_secrets
        2
        """
        game = Game.of(game)
        if isinstance(strategy, str):
            strategy = make_strategy(strategy)
        if isinstance(strategy, DecisionTree):
            raise BadArgument("DecisionTree.build takes a strategy; this is a tree already (evaluate takes either)")
        if not isinstance(strategy, Strategy):
            raise BadArgument(f"DecisionTree.build takes a strategy or its spec, e.g. 'knuth', got {shown(strategy)}")
        if not strategy.deterministic:
            ties = strategy.values.get("ties")
            hint = "; use ties=first" if ties not in (None, "first") and _first_tie(strategy).deterministic else ""
            raise BadTree(f"{strategy.spec} draws at random, so it has no single decision tree{hint}")
        game.require_enumerable(f"compiling {strategy.spec} into a decision tree")
        strategy.start(game, rng)
        targets = None if secrets is None else np.unique(game.codes(secrets))
        if targets is not None and targets.size == 0:
            raise BadArgument(f"secrets must be some of the {game.n_codes} codes of {game}, not none")
        root = _expand(strategy, Knowledge.initial(game), 1, on_progress, targets)
        return DecisionTree(game, root, strategy.spec)

    # ----------------------------------------------------------------- statistics
    @property
    def n_secrets(self) -> int:
        """The secrets the tree solves (every code, unless built over some secrets)."""
        return self.root.size

    @property
    def over_some_secrets(self) -> bool:
        """Whether the tree follows only the answers some secrets give (``build(secrets=...)``)."""
        return self.root.consistent != self.root.size

    @property
    def histogram(self) -> dict[int, int]:
        """How many secrets are found with each number of guesses."""
        hist: dict[int, int] = {}
        for node, depth in self.root.walk():
            if node.wins:
                hist[depth] = hist.get(depth, 0) + 1
        return dict(sorted(hist.items()))

    @property
    def total_guesses(self) -> int:
        """External path length L: the guesses summed over every secret."""
        return sum(d * k for d, k in self.histogram.items())

    @property
    def mean(self) -> float:
        """Guesses per secret solved."""
        return self.total_guesses / self.n_secrets

    @property
    def worst(self) -> int:
        """The most guesses any secret needs."""
        return max(self.histogram)

    @property
    def n_nodes(self) -> int:
        return sum(1 for _ in self.root.walk())

    def evaluations(self) -> np.ndarray:
        """``evaluations[code]``: codes checked or scored over the game against each secret."""
        out = np.zeros(self.game.n_codes, dtype=np.int64)

        def walk(node: Node, spent: int) -> None:
            spent += node.evaluations
            if node.wins:
                out[node.guess] = spent
            for child in node.children.values():
                walk(child, spent)

        walk(self.root, 0)
        return out

    def depths(self) -> np.ndarray:
        """``depths[code]``: guesses needed for each secret (0 for codes the tree never meets)."""
        out = np.zeros(self.game.n_codes, dtype=np.int64)
        for node, depth in self.root.walk():
            if node.wins:
                out[node.guess] = depth
        return out

    def known_depths(self) -> np.ndarray:
        """``known_depths[code]``: guesses until each secret was known to the strategy, a deduced
        last guess not counted (Singley's count, 003)."""
        out = np.zeros(self.game.n_codes, dtype=np.int64)
        for node, depth in self.root.walk():
            if node.wins:
                out[node.guess] = depth - int(node.certain)
        return out

    def path(self, history: list[tuple[int | str, Feedback | tuple[int, int] | str]]) -> Node:
        """The node reached after ``history`` (guesses as indices or written out, answers as
        ``Game.answer`` reads them); raises ``BadTree`` if the tree never goes there.

        >>> tree = DecisionTree.build("3x3", "knuth")
        >>> tree.path([("112", "0,2")]).size
        3
        """
        node = self.root
        if not isinstance(history, (list, np.ndarray)) or any(not isinstance(move, (tuple, list)) or len(move) != 2
                                                              for move in history):
            raise BadArgument(f"history must be a list of (guess, answer) pairs, e.g. [('1122', '1,1')], got "
                              f"{shown(history)}")
        for guess, fb in history:
            guess = self.game.code(guess)
            fb = self.game.answer(fb)
            code = fb.code(self.game.pegs)
            if guess != node.guess:
                raise BadTree(f"the tree plays {self.game.format(node.guess)} here, not {self.game.format(guess)}")
            if code not in node.children:
                raise BadTree(f"the tree has no move after {self.game.format(guess)} -> {fb}: it does not "
                              "cover the secrets that give this answer")
            node = node.children[code]
        return node


def _expand(strategy: Strategy, knowledge: Knowledge, depth: int, on_progress,
            targets: np.ndarray | None = None) -> Node:
    """The subtree from ``knowledge``; with ``targets`` (sorted codes, all consistent here), only
    the answers some of them get."""
    game = knowledge.game
    before = strategy.evaluations
    guess = strategy.guess(knowledge)
    spent = strategy.evaluations - before
    cands = knowledge.consistent
    n = int(cands.shape[0])
    certain = strategy.certain(knowledge, guess)
    if n == 1 and guess == cands[0]:
        if on_progress is not None:
            on_progress(1)
        return Node(guess, 1, evaluations=spent, certain=certain)
    size = n if targets is None else int(targets.shape[0])
    node = Node(guess, size, evaluations=spent, certain=certain, codes_left=None if targets is None else n)
    if targets is None:
        children = [(code, child, None) for code, child in knowledge.split(guess)]
        below = sum(child.n_consistent for _, child, _ in children)
    else:  # the answers the targets give, each followed by the targets that give it
        answers = knowledge.responses_of(guess, targets)
        children = [(code, child, targets[gives]) for code, child in knowledge.split(guess)
                    if (gives := answers == code).any()]
        below = sum(reached.size for _, _, reached in children)
    if on_progress is not None and below < size:
        on_progress(1)  # the guess itself was one of the secrets
    for code, child, reached in children:
        # a guess that teaches nothing is allowed (Singley's greedy methods repeat guesses),
        # but a strategy stuck in such moves is stopped
        if child.n_consistent == n and depth > game.pegs * game.colours + 16:
            raise BadTree(
                f"{strategy.spec} made no progress: after {depth} guesses it played "
                f"{game.format(guess)}, which does not split the {n} remaining codes"
            )
        node.children[code] = _expand(strategy, child, depth + 1, on_progress, reached)
    return node


def _first_tie(strategy: Strategy) -> Strategy:
    """``strategy`` with ``ties=first`` (deterministic for the partition strategies, not for sampling ones)."""
    return type(strategy)(**{**strategy.values, "ties": "first"})
