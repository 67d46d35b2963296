"""Running strategies: single games, exact and simulated evaluation."""

from mmlab.experiments.evaluation import Evaluation, evaluate
from mmlab.experiments.playout import GameRecord, play_game

__all__ = ["Evaluation", "GameRecord", "evaluate", "play_game"]
