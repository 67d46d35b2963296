"""The exact endgame solver against the optimal planner and a plain recursion."""

from functools import lru_cache

import numpy as np
import pytest

from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.planners import Optimal
from mmlab.strategies import make_strategy
from mmlab.strategies.endgame import feedback_matrix, solve_endgame
from mmlab.strategies.sample_scoring import endgame_pool


def table_of(game: Game, codes: np.ndarray, others: np.ndarray | None = None) -> np.ndarray:
    pool = codes if others is None else np.vstack([codes, others])
    return feedback_matrix(pool, codes, game.colours, game.with_white)


def plain_optimum(table: np.ndarray, win: int) -> int:
    """The fewest guesses in total by exhaustive recursion, with no bound."""

    @lru_cache(maxsize=None)
    def best(subset: tuple[int, ...]) -> int:
        if len(subset) == 1:
            return 1
        found = None
        for g in range(table.shape[0]):
            answers = table[g, list(subset)]
            if len(set(answers.tolist())) == 1 and g not in subset:
                continue
            total = len(subset)
            for answer in set(answers.tolist()) - {win}:
                total += best(tuple(c for c, a in zip(subset, answers) if a == answer))
            found = total if found is None else min(found, total)
        return found

    return best(tuple(range(table.shape[1])))


@pytest.mark.parametrize("size", ["2x3", "3x3", "3x4", "4x3", "2x6", "3x5"])
def test_whole_game_matches_the_optimal_planner(size):
    game = Game.parse_size(size)
    codes = game.all_digits.astype(np.uint8)
    found = solve_endgame(table_of(game, codes), game.win.code(game.pegs))
    result = Optimal().plan(game)
    assert result.proved and found.total == result.tree.total_guesses


def test_no_repeat_game_matches_the_optimal_planner():
    game = Game.parse_size("3x5", repeats=False)
    codes = game.all_digits.astype(np.uint8)
    found = solve_endgame(table_of(game, codes), game.win.code(game.pegs))
    assert found.total == Optimal().plan(game).tree.total_guesses


@pytest.mark.parametrize("seed", range(12))
def test_random_sets_and_pools_match_a_plain_recursion(seed):
    rng = np.random.default_rng(seed)
    game = Game.parse_size("4x6")
    picks = rng.choice(game.n_codes, size=int(rng.integers(3, 13)) + 3, replace=False)
    codes, others = game.all_digits[picks[:-3]].astype(np.uint8), game.all_digits[picks[-3:]].astype(np.uint8)
    table = table_of(game, codes, others)
    win = game.win.code(game.pegs)
    found = solve_endgame(table, win)
    assert found.total == plain_optimum(table, win)
    # the guess it names achieves the total
    answers = table[found.guess]
    total = codes.shape[0]
    for answer in set(answers.tolist()) - {win}:
        part = np.flatnonzero(answers == answer)
        total += plain_optimum(table[:, part][np.r_[part, np.arange(codes.shape[0], table.shape[0])]], win)
    assert total == found.total


def test_small_sets_cost_one_guess_per_code_and_one_more_per_code_after_the_first():
    game = Game.parse_size("4x6")
    win = game.win.code(game.pegs)
    one = game.all_digits[[7]].astype(np.uint8)
    two = game.all_digits[[7, 100]].astype(np.uint8)
    assert solve_endgame(table_of(game, one), win).total == 1
    assert solve_endgame(table_of(game, two), win).total == 3


def test_node_budget_and_bad_tables():
    game = Game.parse_size("3x4")
    codes = game.all_digits.astype(np.uint8)
    assert solve_endgame(table_of(game, codes), game.win.code(game.pegs), max_nodes=1) is None
    with pytest.raises(ValueError):
        solve_endgame(table_of(game, codes)[:5], game.win.code(game.pegs))


def tree_total(table: np.ndarray, guess: int, win: int) -> int:
    """Total guesses when ``guess`` is played first and every part is then solved exactly."""
    n = table.shape[1]
    answers = table[guess]
    total = n
    for answer in set(answers.tolist()) - {win}:
        part = np.flatnonzero(answers == answer)
        total += solve_endgame(table[:, part][np.r_[part, np.arange(n, table.shape[0])]], win).total
    return total


def test_sampling_codebreaker_plays_an_optimal_endgame_move():
    """With the whole consistent set small, ``sample`` plays the first guess of a tree with the
    fewest guesses over it (``pool=consistent``: every guess of the tree is a consistent code)."""
    game = Game.parse_size("4x6")
    win = game.win.code(game.pegs)
    rng = np.random.default_rng(3)
    for knowledge, implicit in small_positions(game, rng, 6):
        strategy = make_strategy("sample:pool=consistent,endgame=60")
        strategy.start(game, rng)
        pick = strategy.guess(implicit)
        codes = game.all_digits[knowledge.consistent].astype(np.uint8)
        row = int(np.flatnonzero(knowledge.consistent == pick)[0])
        assert tree_total(table_of(game, codes), row, win) == solve_endgame(table_of(game, codes), win).total


def test_endgame_pool_adds_distinct_inconsistent_codes_that_help():
    game = Game.parse_size("4x6")
    win = game.win.code(game.pegs)
    rng = np.random.default_rng(5)
    for knowledge, implicit in small_positions(game, rng, 6):
        codes = game.all_digits[knowledge.consistent].astype(np.uint8)
        pool = endgame_pool(implicit, codes, 20, rng)
        others = pool[codes.shape[0]:]
        assert np.array_equal(pool[:codes.shape[0]], codes) and 0 < others.shape[0] <= 20
        assert not any(knowledge.is_consistent(game.index_of(row)) for row in others)
        assert np.unique(others, axis=0).shape[0] == others.shape[0]
        table = feedback_matrix(pool, codes, game.colours, game.with_white)
        assert solve_endgame(table, win).total <= solve_endgame(table_of(game, codes), win).total


def small_positions(game: Game, rng: np.random.Generator, count: int):
    """``count`` positions after two random guesses against a random secret that leave 3 to 60
    consistent codes, as (explicit, implicit) knowledge."""
    found = 0
    while found < count:
        secret = game.index_of(rng.integers(game.colours, size=game.pegs))
        knowledge, implicit = Knowledge.initial(game), Knowledge.initial(game, explicit=False)
        for guess in rng.choice(game.n_codes, size=2, replace=False):
            feedback = game.score(secret, int(guess))
            knowledge, implicit = knowledge.update(int(guess), feedback), implicit.update(int(guess), feedback)
        if 3 <= knowledge.n_consistent <= 60:
            found += 1
            yield knowledge, implicit


def test_endgame_off_scores_as_before():
    """``endgame=0`` never calls the solver: the pick is an Entropy top scorer of the whole set."""
    game = Game.parse_size("3x4")
    knowledge = Knowledge.initial(game, explicit=False).update(game.parse("112"), game.score(game.parse("123"), game.parse("112")))
    strategy = make_strategy("sample:endgame=0,pool=consistent")
    strategy.start(game, np.random.default_rng(0))
    strategy.guess(knowledge)
    assert strategy.last_choice.size >= 1 and strategy.last_choice.uniform
