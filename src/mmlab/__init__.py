"""mmlab: a toolkit for Mastermind — every codebreaking strategy of the literature in one fast engine.

>>> import mmlab
>>> game = mmlab.Game.parse_size("4x6")
>>> result = mmlab.evaluate(game, "knuth")
>>> result.total_guesses, round(result.mean, 3), result.max
(5801, 4.476, 5)

The names below are imported when first used, so that ``import mmlab.cli.entry`` (the
``mmlab`` command) starts at once and can answer a Ctrl-C while the engine loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mmlab._lazy import lazy_names

__version__ = "0.1.0"

#: Each public name, and the module it comes from.
_HOMES = {
    "DecisionTree": "mmlab.trees",
    "Evaluation": "mmlab.experiments",
    "Feedback": "mmlab.game",
    "Game": "mmlab.game",
    "GameRecord": "mmlab.experiments",
    "Knowledge": "mmlab.knowledge",
    "evaluate": "mmlab.experiments",
    "make_strategy": "mmlab.strategies",
    "play_game": "mmlab.experiments",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_names(__name__, _HOMES)

if TYPE_CHECKING:
    from mmlab.experiments import Evaluation, GameRecord, evaluate, play_game
    from mmlab.game import Feedback, Game
    from mmlab.knowledge import Knowledge
    from mmlab.strategies import make_strategy
    from mmlab.trees import DecisionTree
