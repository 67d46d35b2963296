"""Running strategies and experiments: single games, exact and simulated evaluation, studies
stored in DuckDB, their statistics, plots and reports."""

from mmlab.experiments.evaluation import Evaluation, evaluate
from mmlab.experiments.playout import GameRecord, play_against, play_game
from mmlab.experiments.runner import run_study
from mmlab.experiments.store import Store, results
from mmlab.experiments.study import Study

__all__ = ["Evaluation", "GameRecord", "Store", "Study", "evaluate", "play_against", "play_game", "results",
           "run_study"]
