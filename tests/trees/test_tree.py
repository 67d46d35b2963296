"""DecisionTree's figures per secret, against a replay of each secret's game through ``path``."""

import numpy as np

from mmlab.game import Game
from mmlab.trees import DecisionTree


def _games(tree: DecisionTree):
    """Each secret with the nodes its game passes, found by following the answers through ``path``."""
    game = tree.game
    for secret in range(game.n_codes):
        history, nodes = [], [tree.root]
        while nodes[-1].guess != secret:
            history.append((nodes[-1].guess, game.score(secret, nodes[-1].guess)))
            nodes.append(tree.path(history))
        yield secret, nodes


def test_evaluations_add_up_along_each_secrets_game():
    """``evaluations()[s]``: the codes the strategy checked or scored over its game against ``s``,
    the sum over the guesses of that game (not of the guesses after the win, nor without the last)."""
    tree = DecisionTree.build(Game.parse_size("3x3"), "knuth")
    expected = np.zeros(27, dtype=np.int64)
    for secret, nodes in _games(tree):
        expected[secret] = sum(node.evaluations for node in nodes)
        assert len(nodes) == tree.depths()[secret]
    assert tree.evaluations().tolist() == expected.tolist() and len(set(expected.tolist())) > 3


def test_progress_counts_each_secret_once():
    """``on_progress(k)``: k more secrets solved, so the calls add up to the secrets of the tree,
    over every code or over some of them."""
    calls = []
    DecisionTree.build("3x3", "knuth", on_progress=calls.append)
    assert sum(calls) == 27
    calls.clear()
    DecisionTree.build("4x6", "knuth", on_progress=calls.append, secrets=["1111", "1122", "6666", "3632"])
    assert sum(calls) == 4


def test_a_secret_given_twice_is_one_secret():
    """``build(secrets=...)`` follows the games against those codes: a code given twice (as an index
    and written out) is one secret, so the tree is the one of the distinct codes."""
    game = Game.parse_size("4x6")
    twice = DecisionTree.build(game, "knuth", secrets=["1122", 7, "3632", "3632"])
    once = DecisionTree.build(game, "knuth", secrets=["1122", "3632"])
    assert (twice.n_secrets, twice.total_guesses, twice.root.size) == (once.n_secrets, once.total_guesses, 2)
    assert twice.depths().tolist() == once.depths().tolist()


def test_the_mean_of_a_tree_over_some_secrets_is_per_secret_solved():
    """Knuth's tree finds 1111, 1122 and 6666 in 4, 1 and 3 guesses (the docstring of ``build``): 8 in
    all, a mean of 8/3 over those secrets, not over the 1296 codes of the game."""
    part = DecisionTree.build("4x6", "knuth", secrets=["1111", "1122", "6666"])
    assert (part.total_guesses, part.n_secrets, part.mean) == (8, 3, 8 / 3)


def test_wrong_kinds_of_argument_are_refused_saying_what_is_taken():
    """A tree, a number or a move not in a list ended in AttributeError ('DecisionTree' object has
    no attribute 'deterministic') or ValueError (too many values to unpack) (helper-115)."""
    import pytest

    from mmlab.errors import BadArgument
    from mmlab.strategies import partition_summary

    tree = DecisionTree.build("3x3", "knuth")
    with pytest.raises(BadArgument, match="takes a strategy; this is a tree already"):
        DecisionTree.build("3x3", tree)
    for other in (42, None):
        with pytest.raises(BadArgument, match=f"takes a strategy or its spec, e.g. 'knuth', got {other}"):
            DecisionTree.build("3x3", other)
    for history in (("112", "0,2"), "112:0,2", [("112",)], 5):
        with pytest.raises(BadArgument, match=r"history must be a list of \(guess, answer\) pairs"):
            tree.path(history)
    assert tree.path([["112", (0, 2)]]).size == tree.path([("112", "0,2")]).size == 3
    assert partition_summary(Game(3, 3), "112") == partition_summary("3x3", "112")  # (a game stands for its start)
