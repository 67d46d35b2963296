"""Running strategies and experiments: single games, exact and simulated evaluation, studies
stored in DuckDB, their statistics, plots and reports.

Each name below is imported when first used (``mmlab._lazy``): a game loop, and the workers of
``evaluate``, load no DuckDB or pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mmlab._lazy import lazy_names

#: Each public name, and the module it comes from.
_HOMES = {
    "Evaluation": "mmlab.experiments.evaluation",
    "EvaluationInterrupted": "mmlab.experiments.evaluation",
    "GameRecord": "mmlab.experiments.playout",
    "Report": "mmlab.experiments.report",
    "Store": "mmlab.experiments.store",
    "Study": "mmlab.experiments.study",
    "build_report": "mmlab.experiments.report",
    "evaluate": "mmlab.experiments.evaluation",
    "play_against": "mmlab.experiments.playout",
    "play_game": "mmlab.experiments.playout",
    "results": "mmlab.experiments.store",
    "run_study": "mmlab.experiments.runner",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_names(__name__, _HOMES)

if TYPE_CHECKING:
    from mmlab.experiments.evaluation import Evaluation, EvaluationInterrupted, evaluate
    from mmlab.experiments.playout import GameRecord, play_against, play_game
    from mmlab.experiments.report import Report, build_report
    from mmlab.experiments.runner import run_study
    from mmlab.experiments.store import Store, results
    from mmlab.experiments.study import Study
