"""Decision trees: compile, measure, export, load and play deterministic strategies."""

from mmlab.trees.tree import DecisionTree, Node

__all__ = ["DecisionTree", "Node"]
