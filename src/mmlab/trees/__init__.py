"""Decision trees: compile, measure, export, load and play deterministic strategies."""

from mmlab.trees.export import from_json, load, save, to_dot, to_json, to_knuth, to_python
from mmlab.trees.strategy import TreeStrategy, strategy_of
from mmlab.trees.tree import DecisionTree, Node

__all__ = [
    "DecisionTree",
    "Node",
    "TreeStrategy",
    "from_json",
    "load",
    "save",
    "strategy_of",
    "to_dot",
    "to_json",
    "to_knuth",
    "to_python",
]
