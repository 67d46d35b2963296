"""The exact solver's kernels and bounds against brute force: every bound must stay at or below
the true optimum (a bound too high would make a "proved" claim false), and the small-set solver
must find the optimum itself, on whole small games and on random subsets of candidates."""

from collections import Counter
from functools import lru_cache

import numpy as np
import pytest

from mmlab.game import Game
from mmlab.game import kernels as game_kernels
from mmlab.knowledge import Knowledge
from mmlab.planners import kernels
from mmlab.planners.optimal import INFINITY, _Search, full_tree_bounds


def _table(game: Game) -> np.ndarray:
    return game_kernels.feedback_table(game.all_digits, game.all_counts, game.with_white)


def brute_force(game: Game, cands, depth: int | None = None) -> float:
    """Least total guesses to find every code of ``cands``, trying every guess at every node."""
    return _brute_force_of(game)(tuple(int(c) for c in cands), depth)


@lru_cache(maxsize=8)
def _brute_force_of(game: Game):
    """``brute_force``'s search of one game, its solved sets kept from call to call."""
    table = _table(game)
    win = game.win.code(game.pegs)

    @lru_cache(maxsize=None)
    def best(s: tuple, d) -> float:
        if d is not None and d <= 0:
            return float("inf")
        if len(s) == 1:
            return 1
        result = float("inf")
        for g in range(game.n_codes):
            parts: dict = {}
            for c in s:
                r = int(table[g, c])
                if r != win:
                    parts.setdefault(r, []).append(c)
            if len(parts) == 1 and len(next(iter(parts.values()))) == len(s):
                continue  # no progress
            child = None if d is None else d - 1
            result = min(result, len(s) + sum(best(tuple(p), child) for p in parts.values()))
        return result

    return best


def _subsets(game: Game, sizes, count: int, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.choice(sizes))
        yield np.sort(rng.choice(game.n_codes, size=min(n, game.n_codes), replace=False)).astype(np.int64)


def _small(game: Game, cands, depth: int | None = None, limit: int = INFINITY):
    keys = np.random.default_rng(0).integers(0, 2**63, game.n_codes).astype(np.uint64)
    return kernels.solve_small(cands, _table(game), game.n_responses, game.win.code(game.pegs),
                               -1 if depth is None else depth, limit, keys)


def test_full_tree_bound_kernel_equals_the_array():
    for answers in (1, 2, 5, 13):
        for depth in (None, 1, 2, 3):
            arr = full_tree_bounds(60, answers, depth)
            for k in range(61):
                assert kernels.full_tree_bound(k, answers, -1 if depth is None else depth) == arr[k]


@pytest.mark.parametrize("size, repeats", [("2x3", True), ("3x2", True), ("2x4", True), ("3x3", True),
                                           ("3x4", False), ("2x5", False)])
def test_small_solver_on_whole_games_equals_brute_force(size, repeats):
    game = Game.parse_size(size, repeats=repeats)
    cost, guess = _small(game, np.arange(game.n_codes, dtype=np.int64))
    assert cost == brute_force(game, range(game.n_codes)) and guess >= 0


@pytest.mark.parametrize("size, repeats", [("3x5", True), ("3x4", False), ("3x6", False)])
def test_small_solver_and_bounds_on_subsets_equal_brute_force(size, repeats):
    """Exact value, a lower bound at or above any ``limit`` it cannot beat, and the one-guess
    bound (max-parts full tree) never above the optimum; with and without a depth cap."""
    game = Game.parse_size(size, repeats=repeats)
    table = _table(game)
    win = game.win.code(game.pegs)
    for cands in _subsets(game, [2, 3, 5, 8, 12], 25, seed=len(size) + game.n_codes):
        for depth in (None, 3):
            exact = brute_force(game, cands, depth)
            expected = INFINITY if exact == float("inf") else exact
            cost, guess = _small(game, cands, depth)
            assert cost == expected
            if expected < INFINITY and cands.shape[0] > 1:
                hist = kernels.all_histograms(cands, table, game.n_responses)
                assert np.array_equal(hist, kernels.histograms(cands, table, game.n_responses,
                                                               np.arange(game.n_codes, dtype=np.int64)))
                answers = kernels.max_parts(hist, win)
                d = -1 if depth is None else depth
                lower = kernels.guess_bounds(hist, cands.shape[0], win, kernels.child_bounds(cands.shape[0], answers, d))
                every = np.arange(game.n_codes, dtype=np.int64)
                assert kernels.set_floor(cands, table, game.n_responses, win, d, every) == lower.min()
                for cap in (answers, game.n_responses - 1):
                    quick = kernels.candidate_floor(cands, table, game.n_responses, win, d, cap)
                    assert quick in (-1, lower.min())
                assert lower.min() <= expected
                assert lower[guess] <= expected
                cut, _ = _small(game, cands, depth, limit=expected)  # cannot beat its own value
                assert expected <= cut


def test_same_partition_sees_relabelled_classes():
    """Two guesses are interchangeable when they split the set into the same classes and both
    win on the same candidate (or neither is a candidate)."""
    game = Game.parse_size("3x4", repeats=False)
    table = _table(game)
    win = game.win.code(game.pegs)
    cands = np.sort(np.random.default_rng(3).choice(game.n_codes, size=4, replace=False)).astype(np.int64)
    found = 0
    for a in range(game.n_codes):
        for b in range(game.n_codes):
            same = kernels.same_partition(table[a], table[b], cands, win, game.n_responses)
            part_a = {frozenset(int(c) for c in cands if table[a, c] == r) for r in range(game.n_responses)}
            part_b = {frozenset(int(c) for c in cands if table[b, c] == r) for r in range(game.n_responses)}
            win_a = frozenset(int(c) for c in cands if table[a, c] == win)
            win_b = frozenset(int(c) for c in cands if table[b, c] == win)
            assert same == (part_a == part_b and win_a == win_b)
            found += same and a != b
    assert found > 0


def test_search_lower_bounds_never_exceed_the_optimum_on_4x6_subsets(game46):
    """The solver's bound for a set (one guess deeper, with symmetry) is at most its exact value."""
    search = _Search(game46)
    root = Knowledge.initial(game46)
    for guess in (game46.parse("1122"), game46.parse("1234")):
        for _, child in search.split(root, guess):
            if 8 < child.n_consistent <= 60:
                fresh = _Search(game46)
                bound = fresh.lower_bound(child, None)
                exact, _ = search.solve(child, INFINITY, None)
                assert bound <= exact


@pytest.mark.parametrize("size, repeats", [("3x4", True), ("3x4", False)])
def test_max_parts_and_guess_bounds_follow_their_definitions(size, repeats):
    """``max_parts``: the most non-winning answers any guess gets from the set; ``guess_bounds``:
    ``n`` plus the bound of each non-winning class, INFINITY for a guess that neither wins nor
    splits (the whole set in one class). Read from the table, class by class."""
    game = Game.parse_size(size, repeats=repeats)
    table = _table(game)
    win = game.win.code(game.pegs)
    for cands in _subsets(game, [1, 2, 3, 5, 8, 12, 30], 20, seed=7):
        n = cands.shape[0]
        classes = [Counter(int(table[g, c]) for c in cands) for g in range(game.n_codes)]
        answers = max(len(set(cl) - {win}) for cl in classes)
        hist = kernels.all_histograms(cands, table, game.n_responses)
        assert kernels.max_parts(hist, win) == answers
        for depth in (-1, 2):
            bound = kernels.child_bounds(n, answers, depth)
            expected = [INFINITY if win not in cl and len(cl) == 1
                        else min(n + sum(int(bound[k]) for r, k in cl.items() if r != win), INFINITY)
                        for cl in classes]
            assert kernels.guess_bounds(hist, n, win, bound).tolist() == expected


def test_candidate_floor_settles_a_set_that_a_candidate_splits_completely(game46):
    """A candidate giving every other code of the set its own answer needs 1 + 2 (n - 1) guesses,
    the least any n codes can need: ``candidate_floor`` returns it from the candidates alone, with
    no other guess looked at, as its docstring says ("or splits it completely")."""
    table = _table(game46)
    win = game46.win.code(game46.pegs)
    for guess in (game46.parse("1234"), game46.parse("1123")):
        by_answer = {}
        for code in range(game46.n_codes):
            by_answer.setdefault(int(table[guess, code]), code)
        others = [code for answer, code in by_answer.items() if answer != win]
        for n in (3, 6, len(others) + 1):
            cands = np.sort(np.array([guess, *others[:n - 1]], dtype=np.int64))
            assert kernels.candidate_floor(cands, table, game46.n_responses, win, -1, 13) == 2 * n - 1


@pytest.mark.parametrize("size, repeats", [("3x4", False), ("3x5", True)])
def test_small_solver_gives_the_first_optimal_guess_in_its_order(size, repeats):
    """Of the guesses that reach the optimum, ``solve_small`` gives the first in the order its
    docstring sets: best full-tree bound first, consistent guesses first among equals, then the
    lowest index. Each guess's cost is found by brute force, class by class."""
    game = Game.parse_size(size, repeats=repeats)
    table = _table(game)
    win = game.win.code(game.pegs)
    for cands in _subsets(game, [3, 4, 5, 6], 12, seed=11):
        n = cands.shape[0]
        hist = kernels.all_histograms(cands, table, game.n_responses)
        lower = kernels.guess_bounds(hist, n, win, kernels.child_bounds(n, kernels.max_parts(hist, win), -1))
        cost = {}
        for g in range(game.n_codes):
            parts: dict = {}
            for c in cands:
                if table[g, c] != win:
                    parts.setdefault(int(table[g, c]), []).append(int(c))
            if lower[g] < INFINITY:
                cost[g] = n + sum(brute_force(game, part) for part in parts.values())
        best = min(cost.values())
        order = sorted(cost, key=lambda g: (int(lower[g]), 0 if hist[g, win] else 1, g))
        assert _small(game, cands) == (best, next(g for g in order if cost[g] == best))


def test_a_set_cut_by_its_limit_is_solved_when_asked_again(game46):
    """``solve`` below a set's cost gives a bound at least the limit and no guess; the memo keeps
    that as a bound, so the same search asked again without a limit solves the set, to the value a
    fresh search finds (small sets by the kernel, larger ones by the search)."""
    search = _Search(game46)
    root = Knowledge.initial(game46)
    sizes = set()
    for _, child in search.split(root, game46.parse("1123")):
        n = child.n_consistent
        if 3 <= n <= 45:
            sizes.add(n)
            exact, _ = _Search(game46).solve(child, INFINITY, None)
            cut, guess = search.solve(child, exact, None)  # it cannot beat its own value
            assert cut >= exact and guess == -1
            again, guess = search.solve(child, INFINITY, None)
            assert again == exact and guess >= 0
    assert min(sizes) <= 8 < max(sizes)


def test_the_search_gives_the_first_optimal_guess_in_its_order_at_sets_too_large_for_the_kernel():
    """Above ``SMALL_SET`` codes the search orders guesses as ``solve_small`` does (best bound first,
    consistent guesses first among equals, then the lowest index): at each such node of the 3x4
    tree, the guess is the first in that order of those whose classes cost least by brute force."""
    from mmlab.planners import make_planner
    from mmlab.planners.optimal import SMALL_SET

    game = Game.parse_size("3x4")
    table = _table(game)
    win = game.win.code(game.pegs)
    checked = 0

    def visit(node, cands: np.ndarray) -> None:
        nonlocal checked
        n = cands.shape[0]
        if n > SMALL_SET:
            hist = kernels.all_histograms(cands, table, game.n_responses)
            lower = kernels.guess_bounds(hist, n, win, kernels.child_bounds(n, kernels.max_parts(hist, win), -1))
            cost = {}
            for g in np.flatnonzero(lower < INFINITY):
                parts: dict = {}
                for c in cands:
                    if table[g, c] != win:
                        parts.setdefault(int(table[g, c]), []).append(int(c))
                cost[int(g)] = n + sum(brute_force(game, part) for part in parts.values())
            best = min(cost.values())
            order = sorted(cost, key=lambda g: (int(lower[g]), 0 if hist[g, win] else 1, g))
            assert node.guess == next(g for g in order if cost[g] == best), (n, node.guess)
            checked += 1
        for answer, child in node.children.items():
            visit(child, cands[table[node.guess, cands] == answer])

    visit(make_planner("optimal").plan(game).tree.root, np.arange(game.n_codes, dtype=np.int64))
    assert checked >= 2  # (the root, where every code is consistent, and larger classes below it)


def test_a_set_of_two_codes_is_opened_with_the_first():
    """``solve_small`` on two codes guesses the first (3 guesses in all, as the second does): on 2x3,
    codes 5 and 6 ('23', '31') are opened with '23'."""
    game = Game.parse_size("2x3")
    assert _small(game, np.array([5, 6], dtype=np.int64)) == (3, 5)
    assert _small(game, np.array([2, 7], dtype=np.int64)) == (3, 2)
