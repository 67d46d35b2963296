"""Published figures of deterministic strategies, evaluated exactly through their decision trees
(tie rule ``first``, pool ``all``, each strategy's own first guess)."""

import pytest

from mmlab.game import Game
from mmlab.strategies import make_strategy
from mmlab.trees import DecisionTree


def test_knuth_4x6_knuth_1976(game46):
    """Knuth 1976 (mean 4.476, worst 5); 000 Table 3 prints 5803 for it, Knuth's own figure is 5801."""
    tree = DecisionTree.build(game46, make_strategy("knuth"))
    assert tree.total_guesses == 5801
    assert tree.worst == 5
    assert tree.histogram == {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}


def test_most_parts_4x6_kooi_2005(game46):
    """Kooi 2005; 000 Table 3 row 'Barteld': L = 5668, worst 6."""
    tree = DecisionTree.build(game46, make_strategy("most-parts"))
    assert (tree.total_guesses, tree.worst) == (5668, 6)


@pytest.mark.parametrize("name, total", [("irving", 5696), ("entropy", 5722)])
def test_irving_and_entropy_4x6_kooi_2005(game46, name, total):
    """Kooi 2005, table of one-step heuristics: expected size 5696, entropy 5722."""
    assert DecisionTree.build(game46, make_strategy(name)).total_guesses == total


def test_norvig_3x2_generated_tree_002():
    """002, 'Generated Code': with his first guess (W B B) S' needs 3 guesses at worst and 18
    in all over the 8 secrets (his 'average 2.3')."""
    game = Game.parse_size("3x2")
    tree = DecisionTree.build(game, make_strategy("norvig:first=211"))
    assert (tree.total_guesses, tree.worst) == (18, 3)
    # His tree: WBB, then four classes of sizes 1 (BWW), 2 (BWB, BBW), 1 (WWW), 3 (WWB, WBW, BBB).
    assert sorted(n.size for n in tree.root.children.values()) == [1, 1, 2, 3]
