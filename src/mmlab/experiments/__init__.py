"""Running strategies: single games, exact and simulated evaluation."""

from mmlab.experiments.playout import GameRecord, play_game

__all__ = ["GameRecord", "play_game"]
