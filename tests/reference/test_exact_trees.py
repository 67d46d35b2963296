"""Published figures of deterministic strategies, evaluated exactly through their decision trees
(tie rule ``first``, pool ``all``, each strategy's own first guess)."""

import pytest

from mmlab.game import Feedback, Game
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
    """002, 'Generated Code': S' on 3 pegs of 2 colours, worst 3 guesses, 18 in all over the 8
    secrets (his 'average 2.3'). With W as colour 1 and B as colour 2 our tree is his, node for node:
    (? (W B B) ((0 2) (? (B W W))) ((1 2) (? (B W B) ((1 2) (? (B B W))))) ((1 0) (? (W W W)))
               ((2 0) (? (W W B) ((1 2) (? (W B W))) ((1 0) (? (B B B))))))"""
    game = Game.parse_size("3x2")
    tree = DecisionTree.build(game, make_strategy("norvig:first=122"))
    assert (tree.total_guesses, tree.worst) == (18, 3)

    def shape(node):
        return (game.format(node.guess), {str(Feedback.from_code(code, game.pegs)): shape(child)
                                          for code, child in sorted(node.children.items())})

    his = ("122", {"0,2": ("211", {}), "1,2": ("212", {"1,2": ("221", {})}), "1,0": ("111", {}),
                   "2,0": ("112", {"1,2": ("121", {}), "1,0": ("222", {})})})
    assert shape(tree.root) == his
    # With B as colour 1 (first=211) the totals agree, but two ties fall the other way.
    other = DecisionTree.build(game, make_strategy("norvig:first=211"))
    assert (other.total_guesses, other.worst) == (18, 3) and shape(other.root) != his