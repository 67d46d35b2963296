"""The planner interface: ``plan(game)`` searches offline and returns a decision tree with the
figures of the search (seconds, nodes expanded, whether optimality was proved).

>>> from mmlab.game import Game
>>> from mmlab.planners import make_planner
>>> result = make_planner("tpoa:k=1,d=1,hash=e").plan(Game.parse_size("3x3"))
>>> result.tree.n_secrets
27
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from mmlab.errors import BadArgument
from mmlab.game import Game
from mmlab.strategies.base import Configurable
from mmlab.trees import DecisionTree


@dataclass
class PlanResult:
    """A planned tree and how the search went."""

    tree: DecisionTree
    seconds: float
    nodes: int
    #: the planner's spec (the tree's label adds a note when the time limit stopped it, which
    #: ``figures["stopped_by_time_limit"]`` says here)
    planner: str
    proved: bool = False
    figures: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        t = self.tree
        return {
            "game": t.game.size,
            "repeats": t.game.repeats,
            "feedback": t.game.feedback,
            "planner": self.planner,
            "total_guesses": t.total_guesses,
            "mean": t.mean,
            "worst": t.worst,
            "histogram": {str(k): v for k, v in t.histogram.items()},
            "seconds": self.seconds,
            "nodes": self.nodes,
            "proved_optimal": self.proved,
            **self.figures,
        }


class Timeout(Exception):
    """Raised inside a search when its time limit has passed."""


class Deadline:
    """A time limit in seconds from now (``None``: no limit); ``check`` raises ``Timeout``."""

    def __init__(self, seconds: float | None) -> None:
        number = isinstance(seconds, numbers.Real) and not isinstance(seconds, bool)  # (True is not 1 s)
        if seconds is not None and not (number and seconds >= 0):
            raise BadArgument(f"time_limit must be a number of seconds, 0 or more (or None: no limit), got "
                              f"{seconds!r}")
        self.at = None if seconds is None else time.perf_counter() + seconds

    def check(self) -> None:
        if self.at is not None and time.perf_counter() > self.at:
            raise Timeout


def least_depth(game: Game) -> int:
    """The fewest guesses that could tell every code apart: a guess splits a set into at most as
    many parts as there are answers that do not win, and finds one code itself (000 section 5's
    full tree).

    >>> least_depth(Game.parse_size("4x6")), least_depth(Game.parse_size("4x6", feedback="black"))
    (4, 6)
    """
    answers = max(len(game.feedbacks()) - 1, 1)
    depth, told, width = 0, 0, 1
    while told < game.n_codes:
        depth, told, width = depth + 1, told + width, width * answers
    return depth


class Planner(Configurable):
    """An offline search that produces a ``DecisionTree``.

    >>> from mmlab.game import Game
    >>> from mmlab.planners import make_planner
    >>> result = make_planner("optimal").plan(Game.parse_size("3x3"))
    >>> result.proved, result.to_dict()["histogram"]
    (True, {'1': 1, '2': 7, '3': 18, '4': 1})
    """

    def plan(
        self,
        game: Game,
        on_progress: Callable[[int, int], None] | None = None,
        time_limit: float | None = None,
    ) -> PlanResult:
        """Search for a tree; past ``time_limit`` seconds, return the best tree found so far
        (``proved`` is then False and ``figures`` say what is known)."""
        raise NotImplementedError

    def check(self, game: Game) -> None:
        """Refuse a game this planner cannot plan (``plan`` checks it too)."""
        game.require_enumerable(self.name)

    def estimate_seconds(self, game: Game) -> float | None:
        """A rough idea of how long ``plan`` takes on this machine, for warnings; ``None`` if unknown."""
        return None

    def unstoppable_seconds(self, game: Game) -> float | None:
        """A rough idea of the part of ``plan`` that runs to its end whatever ``time_limit`` says
        (``None``: none, or unknown)."""
        return None
