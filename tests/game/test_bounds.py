"""003, section 3.5: the worst-case bounds Singley quotes, reproduced to the digits he prints."""

import math

import pytest

from mmlab.errors import BadSize
from mmlab.game import Game
from mmlab.game.bounds import chen_upper_bound, chvatal_bounds
from mmlab.trees import DecisionTree


def test_chvatal_and_chen_bounds_as_the_thesis_prints_them():
    low, high = chvatal_bounds(Game(4, 6))
    assert (round(low, 2), round(high, 2)) == (2.65, 36.68)  # "between 2.65 and 36.68"
    assert chvatal_bounds(Game(8, 16))[1] == 96  # "bounded from above by 96"
    assert (chen_upper_bound(Game(4, 6)), chen_upper_bound(Game(8, 16))) == (28, 68)  # "to 28 ... to 68"
    # where log2 n is no whole number: ceil(8/5) + 2*5*ceil(log2 5) + 2*5 + 2 = 2 + 30 + 10 + 2, by the docstring's formula
    assert chen_upper_bound(Game(5, 8)) == 44


@pytest.mark.parametrize("size", ["3x4", "4x6", "3x5"])
def test_the_bounds_hold_for_knuths_trees(size):
    game = Game.parse_size(size)
    worst = DecisionTree.build(game, "knuth").worst
    low, high = chvatal_bounds(game)
    assert low <= worst <= min(high, chen_upper_bound(game))


def test_chvatal_bounds_are_refused_outside_their_range():
    with pytest.raises(BadSize, match="n <= m <= n²"):
        chvatal_bounds(Game(4, 3))
    with pytest.raises(BadSize, match="n <= m <= n²"):
        chvatal_bounds(Game(3, 10))
    # the ends of the range are in it: m = n and m = n², by the formulas the docstring gives
    assert chvatal_bounds(Game(4, 4)) == (8 / math.log2(15), 32)
    assert chvatal_bounds(Game(3, 9)) == (3 * math.log2(9) / math.log2(10), 6 * math.log2(9) + 12)
