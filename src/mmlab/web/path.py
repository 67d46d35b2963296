"""The path of a codemaker game through its strategy's decision tree: the nodes visited so far.

A deterministic strategy's tree has one node per history, holding the guess the strategy plays
there and the codes still possible; the path is read off the game's knowledge, so it never needs
the whole tree built (which takes seconds at 5x6 and far longer at 2^16 codes). After an earlier
answer is corrected, later guesses may not be the strategy's moves any more: each node says so.

>>> from mmlab.game import Game, Feedback
>>> from mmlab.knowledge import Knowledge
>>> game = Game.parse_size("4x6")
>>> start = Knowledge.initial(game)
>>> chain = [start, start.update(game.parse("1122"), Feedback(1, 0))]
>>> tracer = PathTracer(game, "knuth")
>>> [(n["guess"], n["remaining"], n["answer"]) for n in tracer.nodes(chain, game.parse("1344"))]
[('1122', 1296, (1, 0)), ('1344', 256, None)]
"""

from __future__ import annotations

import numpy as np

from mmlab.errors import BadTree, MastermindError
from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import make_strategy
from mmlab.strategies.scoring import PARTS, partition_stats


class PathTracer:
    """Follows a game of the deterministic strategy ``spec`` through its decision tree (one tracer
    per game: it remembers the strategy's moves, and is used under the game's lock)."""

    def __init__(self, game: Game, spec: str) -> None:
        self.game = game
        self.strategy = make_strategy(spec)
        if not self.strategy.deterministic:
            raise BadTree(f"{self.strategy.spec} draws at random, so it has no single decision tree to follow; "
                          "choose a deterministic strategy (e.g. knuth, or ties=first) to see the path")
        self.strategy.start(game, np.random.default_rng(0))
        self._moves: dict[tuple, int | None] = {}  # history -> the strategy's guess there

    def move_at(self, knowledge: Knowledge) -> int | None:
        """The strategy's guess after ``knowledge.history``; ``None`` where it cannot play."""
        key = knowledge.history
        if key not in self._moves:
            try:
                self._moves[key] = self.strategy.guess(knowledge)
            except MastermindError:
                self._moves[key] = None
        return self._moves[key]

    def nodes(self, chain: list[Knowledge], pending: int | None) -> list[dict]:
        """The nodes visited: ``chain`` is the knowledge before each answered guess and after the
        last; ``pending`` the guess now awaiting an answer (``None`` once the game is won). Each node
        gives its depth, guess, the codes remaining there, how many parts the guess splits them
        into, its answer (``None`` if pending) and whether the guess is the strategy's move there."""
        game = self.game
        steps = [(k, chain[i + 1].history[-1]) for i, k in enumerate(chain[:-1])]
        if pending is not None:
            steps.append((chain[-1], (pending, None)))
        out = []
        for depth, (knowledge, (guess, answer)) in enumerate(steps, 1):
            parts = int(partition_stats(knowledge, np.array([guess]))[0, PARTS])
            out.append({
                "depth": depth,
                "guess": game.format(guess),
                "remaining": knowledge.n_consistent,
                "parts": parts,
                "answer": None if answer is None else tuple(answer),
                "strategy_move": self.move_at(knowledge) == guess,
            })
        return out
