"""Codebreakers written as scripts: a generator that yields moves and is sent each answer.

Singley's methods (003, chapter 4) are procedures (count the colours, then settle one stone
after another), not searches over the consistent set, so they read best as straight-line
code. ``ScriptedStrategy`` turns such a script into a ``Strategy``: ``guess`` replays the
history through a fresh script when needed, so a deterministic script still compiles into a
decision tree.

>>> from mmlab.game import Game
>>> from mmlab.experiments import play_game
>>> class Sweep(ScriptedStrategy):
...     name = "sweep"
...     def script(self, game):
...         for colour in range(game.colours):   # 1111, 2222, ... until the answer is a win
...             yield Move((colour,) * game.pegs)
>>> game = Game.parse_size("1x6")
>>> [game.format(g) for g in play_game(game, Sweep(), game.parse("3")).guesses]
['1', '2', '3']
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from mmlab.errors import BadArgument, InconsistentFeedback
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies.base import Strategy


@dataclass(frozen=True)
class Move:
    """A code to play (0-based colours), and whether the script has deduced it is the secret."""

    digits: tuple[int, ...]
    certain: bool = False


Script = Generator[Move, Feedback, None]


class ScriptedStrategy(Strategy):
    """A strategy whose moves come from ``script(game)``, a generator sent each answer."""

    needs_enumeration: ClassVar[bool] = False
    tracks_consistent_set: ClassVar[bool] = False

    def script(self, game: Game) -> Script:
        """Yield ``Move``s; each ``yield`` evaluates to the answer the move received."""
        raise NotImplementedError

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        super().start(game, rng)
        self._script: Script | None = None
        #: the moves made so far and their answers; a script may read it between its moves
        self.played: list[tuple[int, Feedback]] = []
        self._move: Move | None = None

    def guess(self, knowledge: Knowledge) -> int:
        game = knowledge.game
        history = list(knowledge.history)
        if self._script is not None and self._move is not None:
            pending = game.index_of(self._move.digits)
            if history == self.played:  # asked again before answering
                return pending
            if history[:-1] == self.played and history[-1][0] == pending:
                self.played.append(history[-1])
                return self._advance(game, history[-1][1])
        self._replay(game, history)
        return game.index_of(self._move.digits)

    def certain(self, knowledge: Knowledge, guess: int) -> bool:
        return self._move is not None and self._move.certain and knowledge.game.index_of(self._move.digits) == guess

    # ----------------------------------------------------------------- driving the script
    def _replay(self, game: Game, history: list[tuple[int, Feedback]]) -> None:
        """Start the script afresh and feed it ``history``, which must be its own moves."""
        if history and not self.deterministic:
            raise BadArgument(f"{self.spec} draws at random, so it can only continue the game it is playing")
        self._script, self.played = self.script(game), []
        self._advance(game, None)
        for k, (guess, fb) in enumerate(history):
            own = game.index_of(self._move.digits)
            if guess != own:
                raise BadArgument(
                    f"{self.spec} would have played {game.format(own)} as move {k + 1}, not {game.format(guess)}; "
                    "it can only continue games it played itself"
                )
            self.played.append((guess, fb))
            self._advance(game, fb)

    def _advance(self, game: Game, answer: Feedback | None) -> int:
        try:
            self._move = next(self._script) if answer is None else self._script.send(answer)
        except StopIteration:
            self._script = None
            raise InconsistentFeedback(
                f"{self.spec} had deduced the secret from the answers, and it was wrong: "
                "the answers cannot all be true"
            ) from None
        if len(self._move.digits) != game.pegs:
            raise AssertionError(f"{self.name} script yielded {self._move.digits} for {game}")
        return game.index_of(self._move.digits)
