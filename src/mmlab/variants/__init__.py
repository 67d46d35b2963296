"""Games that are not the standard one: static Mastermind (``mmlab.variants.static``), two-dimensional
Mastermind MM2(n, m) (Singley 2005, 003 chapter 5) and MathMind, answered by higher/lower pegs or a
distance (Reddi 2002, in 003 section 2.3; ``mmlab.variants.mathmind``). Exported here: static
Mastermind's ``separates``, ``search``, ``exhaustive`` and ``lower_bound``, the 2-D game, codebreakers
and registry, and ``MathMind``.

>>> make_strategy_2d("tabu:tenure=8").spec
'tabu:tenure=8'
"""

from mmlab.strategies.registry import build
from mmlab.variants.two_d import (
    Feedback2D,
    Game2D,
    GameRecord2D,
    Knowledge2D,
    Strategy2D,
    play_2d,
)
from mmlab.variants.mathmind import MathMind
from mmlab.variants.static import exhaustive, lower_bound, search, separates
from mmlab.variants.two_d_propagate import Propagate2D
from mmlab.variants.two_d_tabu import Tabu2D

#: The 2-D codebreakers by name, loadable by spec string like the 1-D ones.
STRATEGIES_2D: dict[str, type[Strategy2D]] = {cls.name: cls for cls in (Tabu2D, Propagate2D)}


def make_strategy_2d(spec: str) -> Strategy2D:
    """Build a 2-D codebreaker from its spec string, e.g. ``tabu`` or ``tabu:tenure=6``."""
    return build(spec, STRATEGIES_2D, "2-D strategy")


__all__ = ["STRATEGIES_2D", "Feedback2D", "Game2D", "GameRecord2D", "Knowledge2D", "MathMind", "Propagate2D", "Strategy2D", "Tabu2D",
           "exhaustive", "lower_bound", "make_strategy_2d", "play_2d", "search", "separates"]
