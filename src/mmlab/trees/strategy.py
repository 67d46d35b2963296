"""``TreeStrategy``: play a stored decision tree, for instance one loaded from a file.

>>> from mmlab.game import Game
>>> from mmlab.strategies import make_strategy
>>> from mmlab.trees import DecisionTree
>>> game = Game.parse_size("3x2")
>>> tree = DecisionTree.build(game, make_strategy("norvig:first=211"))
>>> replay = DecisionTree.build(game, TreeStrategy(tree))
>>> replay.strategy, replay.total_guesses
('tree:norvig:first=211', 18)
"""

from __future__ import annotations

import numpy as np

from mmlab.errors import BadArgument, BadTree, shown
from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import Strategy, make_strategy
from mmlab.trees.tree import DecisionTree


class TreeStrategy(Strategy):
    """Plays the guesses of ``tree``; raises ``BadTree`` once the game leaves the tree.

    >>> from mmlab.game import Feedback
    >>> game = Game.parse_size("3x3")
    >>> player = TreeStrategy(DecisionTree.build(game, "knuth"))
    >>> player.start(game)
    >>> game.format(player.guess(Knowledge.initial(game).update(game.parse("112"), Feedback(1, 0))))
    '133'
    """

    name = "tree"
    summary = "play a stored decision tree"
    source = "mmlab tree files"

    def __init__(self, tree: DecisionTree) -> None:
        super().__init__()
        self.tree = tree

    @property
    def spec(self) -> str:
        return f"{self.name}:{self.tree.strategy}" if self.tree.strategy else self.name

    @property
    def deterministic(self) -> bool:
        return True

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        """Prepare for a new game; raises ``BadTree`` if ``game`` is not the tree's game."""
        if game != self.tree.game:
            raise BadTree(f"the tree plays {self.tree.game}, not {game}")
        super().start(game, rng)

    def guess(self, knowledge: Knowledge) -> int:
        """The tree's guess after the answers in ``knowledge``; ``BadTree`` if the tree never gets there."""
        if knowledge.game != self.tree.game:
            raise BadTree(f"the tree plays {self.tree.game}, not {knowledge.game}")
        return self.tree.path(list(knowledge.history)).guess

    def certain(self, knowledge: Knowledge, guess: int) -> bool:
        """Whether the tree's strategy had deduced that ``guess`` is the secret (kept in the tree)."""
        node = self.tree.path(list(knowledge.history))
        return node.certain and node.guess == guess


def strategy_of(strategy: Strategy | str | DecisionTree) -> Strategy:
    """A strategy given as itself, its spec string or a decision tree (played as its ``TreeStrategy``).

    >>> strategy_of("knuth"), strategy_of(DecisionTree.build("3x3", "knuth")).spec
    (<Knuth knuth>, 'tree:knuth')
    """
    if isinstance(strategy, Strategy):
        return strategy
    if isinstance(strategy, str):
        return make_strategy(strategy)
    if isinstance(strategy, DecisionTree):  # a tree built here or loaded from a file
        return TreeStrategy(strategy)
    hint = ""  # a plan's result or a planner (of mmlab.planners, a layer above this one) plays as its tree
    if isinstance(getattr(strategy, "tree", None), DecisionTree):
        hint = "; a plan's result plays as its tree: pass result.tree"
    elif callable(getattr(strategy, "plan", None)):
        hint = "; a planner plays as the tree it plans: pass planner.plan(game).tree"
    raise BadArgument(f"expected a strategy spec such as 'knuth', a Strategy or a DecisionTree, got "
                      f"{shown(strategy)} ({type(strategy).__name__}){hint}")
