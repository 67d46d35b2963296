"""Random consistent codes found by constraint search, without enumerating the space."""

import numpy as np
import pytest

from mmlab.game import Game
from mmlab.knowledge import Knowledge


def _history(game: Game, rng, n: int) -> tuple[Knowledge, int]:
    secret = int(rng.integers(game.n_codes))
    k = Knowledge.initial(game)
    for _ in range(n):
        g = int(rng.integers(game.n_codes))
        if g != secret:
            k = k.update(g, game.score(secret, g))
    return k, secret


@pytest.mark.parametrize("size, repeats, feedback", [("4x6", True, "black-white"), ("5x5", False, "black-white"),
                                                     ("4x5", True, "black"), ("3x8", True, "black-white")])
def test_samples_are_consistent_and_cover_the_set(size, repeats, feedback):
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    rng = np.random.default_rng(4)
    for _ in range(5):
        k, secret = _history(game, rng, 2)
        seen = set()
        for _ in range(200):
            code, nodes = k.sample(rng)
            assert code in set(k.consistent.tolist()) and nodes >= game.pegs
            seen.add(code)
        # every consistent code can come out (all of them, when there are few)
        if k.n_consistent <= 10:
            assert seen == set(k.consistent.tolist())


def test_samples_on_a_game_too_large_to_enumerate():
    game = Game.parse_size("10x20")
    rng = np.random.default_rng(9)
    k, secret = _history(game, rng, 6)
    assert not k.explicit
    for _ in range(20):
        code, _ = k.sample(rng)
        assert k.is_consistent(code)


def test_impossible_histories_give_none():
    game = Game.parse_size("8x12")
    k = Knowledge.initial(game)
    g = game.parse("1 1 1 1 1 1 1 1")
    k = k.update(g, game.check_feedback((0, 0))).update(game.parse("1 1 1 1 1 1 1 2"), (2, 0))
    assert k.sample(np.random.default_rng(0))[0] is None  # colour 1 is absent: one match at most
