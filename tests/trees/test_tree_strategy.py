"""TreeStrategy: replays a stored tree and refuses games and histories the tree does not cover."""

import pytest

from mmlab.errors import BadTree
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import make_strategy
from mmlab.trees import DecisionTree, TreeStrategy


@pytest.fixture(scope="module")
def tree() -> DecisionTree:
    return DecisionTree.build(Game.parse_size("3x3"), make_strategy("knuth"))


def test_spec_and_flags(tree):
    s = TreeStrategy(tree)
    assert s.spec == "tree:knuth" and s.name == "tree" and s.deterministic
    assert TreeStrategy(DecisionTree(tree.game, tree.root)).spec == "tree"


def test_follows_the_history(tree):
    game = tree.game
    s = TreeStrategy(tree)
    s.start(game)
    k = Knowledge.initial(game)
    assert s.guess(k) == tree.root.guess
    fb, child = next(iter(tree.root.children.items()))
    k = k.update(tree.root.guess, Feedback.from_code(fb, game.pegs))
    assert s.guess(k) == child.guess


def test_refuses_another_game(tree):
    with pytest.raises(BadTree, match="the tree plays 3x3, not 4x6"):
        TreeStrategy(tree).start(Game.parse_size("4x6"))
    with pytest.raises(BadTree, match="the tree plays 3x3, not 3x3 \\(no repeats\\)"):
        TreeStrategy(tree).start(Game(3, 3, repeats=False))


def test_refuses_histories_off_the_tree(tree):
    game = tree.game
    s = TreeStrategy(tree)
    s.start(game)
    other = next(c for c in range(game.n_codes) if c != tree.root.guess)
    k = Knowledge.initial(game).update(other, game.score(0, other))
    with pytest.raises(BadTree, match=f"the tree plays {game.format(tree.root.guess)} here, not {game.format(other)}"):
        s.guess(k)


def test_plays_whole_games(tree):
    game = tree.game
    depths = tree.depths()
    s = TreeStrategy(tree)
    for secret in range(game.n_codes):
        s.start(game)
        k, n = Knowledge.initial(game), 1
        while (guess := s.guess(k)) != secret:
            k, n = k.update(guess, game.score(secret, guess)), n + 1
        assert n == depths[secret]


def test_a_tree_builds_from_a_spec_and_prints_in_one_line(tree):
    built = DecisionTree.build(tree.game, "knuth")
    assert built.total_guesses == tree.total_guesses
    assert repr(built) == f"DecisionTree(3x3, 'knuth', secrets=27, nodes={built.n_nodes}, root=112)"
    alone = DecisionTree.build(Game(3, 4, repeats=False), "knuth")  # (its rules said too: '3x4' alone before)
    assert repr(alone).startswith("DecisionTree(3x4 (no repeats), 'knuth', secrets=24, ")
    assert "\n" not in repr(built.root) and len(repr(built.root)) < 80


def test_a_path_takes_written_codes(tree):
    game = tree.game
    first = game.format(tree.root.guess)
    answer = Feedback.from_code(next(iter(tree.root.children)), game.pegs)
    assert tree.path([(first, answer)]) is tree.path([(tree.root.guess, answer)])


def test_a_plan_or_a_planner_given_as_a_strategy_is_told_to_pass_its_tree():
    """evaluate(game, planner.plan(game)) said only "expected a strategy spec ..., got PlanResult(...)"."""
    from mmlab.errors import BadArgument
    from mmlab.experiments import evaluate
    from mmlab.planners import make_planner

    game = Game.parse_size("3x3")
    planner = make_planner("tpoa")
    with pytest.raises(BadArgument, match=r"\(PlanResult\); a plan's result plays as its tree: pass result.tree$"):
        evaluate(game, planner.plan(game))
    with pytest.raises(BadArgument, match=r"\(TPOA\); a planner plays as the tree it plans: pass planner.plan"):
        evaluate(game, planner)
    assert evaluate(game, planner.plan(game).tree).total_guesses == planner.plan(game).tree.total_guesses


def test_certain_speaks_of_the_trees_own_guess(tree):
    """Where the tree's strategy had deduced the secret, ``certain`` is true of the guess the tree
    plays there and of no other guess."""
    game = tree.game
    player = TreeStrategy(tree)
    player.start(game)
    deduced = 0
    for secret in range(game.n_codes):
        k = Knowledge.initial(game)
        while (guess := player.guess(k)) != secret:
            k = k.update(guess, game.score(secret, guess))
        if player.certain(k, guess):
            deduced += 1
            assert not any(player.certain(k, other) for other in range(game.n_codes) if other != guess)
    assert deduced > 0
