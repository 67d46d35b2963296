"""Offline searches that produce decision trees: TPOA and the exact optimal solver."""

from typing import Any

from mmlab.planners.base import Planner, PlanResult
from mmlab.planners.optimal import Optimal
from mmlab.planners.tpoa import TPOA
from mmlab.strategies.registry import build

PLANNERS: dict[str, type[Planner]] = {cls.name: cls for cls in (TPOA, Optimal)}


def make_planner(spec: str, **params: Any) -> Planner:
    """Build a planner from its spec string, e.g. ``tpoa:variant=star,k=5,d=2,hash=e``; ``params``
    are further parameters, as the spec's ``key=value`` are (``make_planner("tpoa", k=5)``).

    >>> make_planner("tpoa:variant=star,k=5,d=2,hash=e")
    <TPOA tpoa:variant=star,k=5,d=2>
    >>> make_planner("optimal:objective=worst").values
    {'objective': 'worst', 'max_depth': 0}
    """
    return build(spec, PLANNERS, "planner", params)


__all__ = ["PLANNERS", "Optimal", "PlanResult", "Planner", "TPOA", "make_planner"]
