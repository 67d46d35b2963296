"""mmlab: a toolkit for Mastermind — every codebreaking strategy of the literature in one fast engine.

>>> import mmlab
>>> game = mmlab.Game.parse_size("4x6")
>>> result = mmlab.evaluate(game, "knuth")
>>> result.total_guesses, round(result.mean, 3), result.max
(5801, 4.476, 5)
"""

from mmlab.experiments import Evaluation, GameRecord, evaluate, play_game
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import make_strategy
from mmlab.trees import DecisionTree

__version__ = "0.1.0"

__all__ = [
    "DecisionTree",
    "Evaluation",
    "Feedback",
    "Game",
    "GameRecord",
    "Knowledge",
    "evaluate",
    "make_strategy",
    "play_game",
]
