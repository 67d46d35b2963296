"""Codemakers: fixed and random secrets, and the adversary of dynamic Mastermind (003 section 2.3)."""

import numpy as np
import pytest

from mmlab.codemakers import FixedSecret, make_codemaker
from mmlab.experiments import play_against
from mmlab.errors import BadArgument, UnknownStrategy
from mmlab.experiments import play_game
from mmlab.game import Feedback, Game
from mmlab.strategies import EXHAUSTIVE, make_strategy
from mmlab.trees import DecisionTree


def test_knuth_needs_five_guesses_against_the_largest_class_adversary():
    game = Game.parse_size("4x6")
    record = play_against(game, make_strategy("knuth"), make_codemaker("adversary"))
    assert record.won and record.n_guesses == 5
    # The adversary answered consistently: the code found gives every answer it gave.
    assert all(game.score(record.secret, g) == fb for g, fb in zip(record.guesses, record.feedbacks))


@pytest.mark.parametrize("size", ["4x6", "3x5"])
@pytest.mark.parametrize("name", EXHAUSTIVE)
def test_the_worst_case_adversary_forces_the_trees_worst_case(size, name):
    game = Game.parse_size(size)
    strategy = make_strategy(name)
    record = play_against(game, strategy, make_codemaker("adversary:mode=worst", strategy))
    assert record.won and record.n_guesses == DecisionTree.build(game, make_strategy(name)).worst


def test_the_largest_class_adversary_keeps_the_most_codes_open():
    game = Game.parse_size("3x4")
    strategy = make_strategy("random")
    record = play_against(game, strategy, make_codemaker("adversary"), np.random.default_rng(3))
    cands = list(range(game.n_codes))
    for guess, fb in zip(record.guesses, record.feedbacks):
        classes = {}
        for c in cands:
            classes.setdefault(game.score(c, guess), []).append(c)
        if fb != game.win:
            assert len(classes[fb]) == max(len(v) for k, v in classes.items() if k != game.win)
            cands = classes[fb]


def test_a_fixed_secret_plays_the_ordinary_game():
    game = Game.parse_size("4x6")
    secret = game.parse("3632")
    record = play_against(game, make_strategy("knuth"), FixedSecret("3632"))
    assert record.guesses == play_game(game, make_strategy("knuth"), secret).guesses and record.secret == secret
    rng = np.random.default_rng(4)
    assert play_against(game, make_strategy("knuth"), make_codemaker("random"), rng).won
    # The same record as play_game: guesses until known (greedy2 deduces its last guess), and a
    # lost game keeps the codemaker's secret.
    ours = play_against(game, make_strategy("greedy2"), FixedSecret("3616"))
    theirs = play_game(game, make_strategy("greedy2"), game.parse("3616"))
    assert (ours.guesses, ours.known_after) == (theirs.guesses, theirs.known_after) and ours.last_certain
    assert ours.consistent == theirs.consistent == (-1,) * len(ours.guesses)  # a search: no consistent set kept
    lost = play_against(game, make_strategy("knuth"), FixedSecret("3632"), max_guesses=2)
    assert not lost.won and lost.secret == secret


def test_bad_codemakers_are_refused():
    with pytest.raises(UnknownStrategy, match="unknown codemaker 'oracle'"):
        make_codemaker("oracle")
    with pytest.raises(UnknownStrategy, match="mode='cruel'"):
        make_codemaker("adversary:mode=cruel")
    # the adversary's parameters go through the strategies' spec parser
    with pytest.raises(UnknownStrategy, match="adversary has no parameter 'x'"):
        make_codemaker("adversary:mode=worst,x=1")
    with pytest.raises(UnknownStrategy, match="'mode' is given twice"):
        make_codemaker("adversary:mode=worst,mode=largest")
    with pytest.raises(UnknownStrategy, match="fixed needs its secret after a colon"):
        make_codemaker("fixed:")
    with pytest.raises(UnknownStrategy, match="random codemaker takes no parameters"):
        make_codemaker("random:seed=3")
    game = Game.parse_size("3x3")
    with pytest.raises(BadArgument, match="needs a deterministic strategy"):
        play_against(game, make_strategy("random"), make_codemaker("adversary:mode=worst", make_strategy("random")))


def classes_of(game, cands, guess):
    """The consistent codes by their answer to ``guess`` (brute force)."""
    classes = {}
    for c in cands:
        classes.setdefault(game.score(c, guess), []).append(c)
    return classes


def test_the_largest_class_adversary_breaks_ties_by_the_order_of_the_answers():
    """Of equally large classes, the first non-winning answer in ``Game.feedbacks`` order: the
    reference below on every first guess of 3x4 (some of which leave largest classes of equal size)."""
    from mmlab.knowledge import Knowledge

    game = Game.parse_size("3x4")
    maker = make_codemaker("adversary")
    maker.start(game)
    ties = 0
    for guess in range(game.n_codes):
        classes = classes_of(game, range(game.n_codes), guess)
        sizes = {fb: len(codes) for fb, codes in classes.items() if fb != game.win}
        largest = [fb for fb in game.feedbacks() if sizes.get(fb, 0) == max(sizes.values())]
        ties += len(largest) > 1
        assert maker.answer(Knowledge.initial(game), guess) == largest[0]
    assert ties > 0
    # The win comes first in that order, yet is never answered while another code is left: with
    # 1221 and 2112 left, 1221 gets the answer 2112 gives (0,4), which ties with the win's class.
    game = Game.parse_size("4x6")
    maker.start(game)
    k = Knowledge.initial(game).update(game.parse("1122"), Feedback(2, 2)).update(game.parse("1212"), Feedback(2, 2))
    assert [game.format(c) for c in k.consistent] == ["1221", "2112"]
    assert maker.answer(k, game.parse("1221")) == game.score(game.parse("2112"), game.parse("1221")) != game.win


@pytest.mark.parametrize("name", ["knuth", "most-parts"])
def test_the_worst_case_adversary_keeps_the_larger_class_among_equally_long_branches(name):
    """``mode=worst``: the answer whose branch of the tree needs the most guesses, and of those the
    one that keeps the most codes (brute force over the consistent codes at each move)."""
    game = Game.parse_size("4x6")
    tree = DecisionTree.build(game, make_strategy(name))

    def height(node):
        return 1 + max((height(c) for c in node.children.values()), default=0)

    strategy = make_strategy(name)
    record = play_against(game, strategy, make_codemaker("adversary:mode=worst", strategy))
    node, cands, ties = tree.root, list(range(game.n_codes)), 0
    for guess, fb in zip(record.guesses, record.feedbacks):
        if fb == game.win:
            break
        classes = classes_of(game, cands, guess)
        heights = {code: height(child) for code, child in node.children.items()}
        longest = [code for code, h in heights.items() if h == max(heights.values())]
        ties += len(longest) > 1
        sizes = [len(classes[Feedback.from_code(code, game.pegs)]) for code in longest]
        assert len(classes[fb]) == max(sizes) and heights[fb.code(game.pegs)] == max(heights.values())
        node, cands = node.children[fb.code(game.pegs)], classes[fb]
    assert ties > 0


def test_the_random_codemaker_draws_every_code_uniformly():
    """``random`` draws its secret uniformly from every code, the last one included."""
    from collections import Counter

    game = Game.parse_size("3x2")
    maker, rng = make_codemaker("random"), np.random.default_rng(5)
    secrets = Counter()
    for _ in range(4000):
        maker.start(game, rng)
        secrets[maker.secret] += 1
    assert sorted(secrets) == list(range(8)) and all(400 < n < 600 for n in secrets.values())  # 500 each; sd 21
