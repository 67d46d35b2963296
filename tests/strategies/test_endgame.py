"""The exact endgame solver against the optimal planner and a plain recursion."""

from functools import lru_cache

import numpy as np
import pytest

from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.planners import Optimal
from mmlab.strategies import make_strategy
from mmlab.strategies.code_rows import sample_stats
from mmlab.strategies.code_rows import distinct_rows
from mmlab.strategies.endgame import (ENDGAME_KEEP, _per_code_fit, endgame_pool, feedback_matrix, lookahead_totals,
                                      solve_endgame, splitter_order)
from mmlab.strategies.endgame_kernels import MAX_CODES, best_tree, best_tree_guesses
from mmlab.strategies.exhaustive import top_entropy
from mmlab.strategies.scoring import ENTROPY, PARTS


def best_splitters(candidates: np.ndarray, codes: np.ndarray, game: Game, keep: int = ENDGAME_KEEP) -> np.ndarray:
    """The ``keep`` distinct rows of ``candidates`` with the most parts against the rows of ``codes``,
    then the highest entropy, best first: the ranking the endgame's pool keeps, scored afresh."""
    candidates = distinct_rows(candidates)
    return candidates[splitter_order(sample_stats(candidates, codes, game.colours, game.with_white), keep)]


def table_of(game: Game, codes: np.ndarray, others: np.ndarray | None = None) -> np.ndarray:
    pool = codes if others is None else np.vstack([codes, others])
    return feedback_matrix(pool, codes, game.colours, game.with_white)


def sub_table(table: np.ndarray, part: np.ndarray) -> np.ndarray:
    """The table of the columns ``part``, every row kept, the part's own rows first: the solver's
    subproblem, since deeper in the tree it may guess any row, even a code the answers ruled out."""
    rest = np.setdiff1d(np.arange(table.shape[0]), part)
    return table[:, part][np.r_[part, rest]]


def random_table(game: Game, rng: np.random.Generator, low: int, high: int, others: int) -> tuple[np.ndarray, np.ndarray]:
    """``low`` to ``high - 1`` random distinct codes and their table with ``others`` more codes as guesses."""
    n = int(rng.integers(low, high))
    picks = rng.choice(game.n_codes, size=n + others, replace=False)
    codes = game.all_digits[picks[:n]].astype(np.uint8)
    return codes, table_of(game, codes, game.all_digits[picks[n:]].astype(np.uint8))


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
    game = Game.parse_size("4x6")
    codes, table = random_table(game, np.random.default_rng(seed), 3, 13, 3)
    win = game.win.code(game.pegs)
    found = solve_endgame(table, win)
    assert found.total == plain_optimum(table, win)
    # the guess it names achieves the total
    answers = table[found.guess]
    total = codes.shape[0]
    for answer in set(answers.tolist()) - {win}:
        part = np.flatnonzero(answers == answer)
        total += plain_optimum(sub_table(table, part), win)
    assert total == found.total


def least_totals(n: int, branches: int, inside: int, outside: int) -> list[int]:
    """The kernel's lower bounds on the guesses over ``m = 0..n`` codes, written plainly: the best
    of a tree whose guesses each find a code and leave ``branches`` parts (``b ** (d - 1)`` codes
    found with ``d`` guesses), and of a guess leaving a part as large as ``inside`` / ``outside``
    allow, each other code but the win costing one guess more."""
    outside = max(outside, inside)
    least = [0]
    for m in range(1, n + 1):
        slots, depth, tree = m, 1, 0
        while slots > 0:
            found = min(slots, max(branches, 1) ** (depth - 1))
            tree, slots, depth = tree + found * depth, slots - found, depth + 1
        a, b = min(inside, m - 1), min(outside, m - 1)
        split = min([least[m - 1 - a] + a] + ([least[m - b] + b] if b > 0 else []))
        least.append(max(tree, m + split))
    return least


def set_limits(table: np.ndarray, columns: list[int], win: int) -> tuple[int, int, int]:
    """On the codes ``columns``: the most parts other than the win's a row leaves, and the most codes
    outside the largest part and the win that a row of the set's codes leaves, and another row."""
    branches, inside, outside = 0, 0, 0
    for g, row in enumerate(table[:, columns]):
        values, counts = np.unique(row, return_counts=True)
        branches = max(branches, int((values != win).sum()))
        if g in columns:
            inside = max(inside, len(columns) - 1 - int(counts.max()))
        else:
            outside = max(outside, len(columns) - int(counts.max()))
    return branches, inside, outside


def bounded_reference(table: np.ndarray, win: int, entries: list[int] | None = None) -> tuple[int, int]:
    """The kernel's branch and bound in plain Python: same bounds, same order of guesses and answers.
    ``entries`` gets, for each set of more than two codes searched, how many sets were solved
    (memoised) when its search began: the kernel's node budget is checked there."""
    memo: dict[tuple[int, ...], tuple[int, int]] = {}

    def best(subset: tuple[int, ...]) -> tuple[int, int]:
        n = len(subset)
        if n <= 2:
            return 2 * n - 1, subset[0]
        if subset in memo:
            return memo[subset]
        if entries is not None:
            entries.append(len(memo))
        columns = list(subset)
        parts = np.array([len(set(row.tolist())) for row in table[:, columns]])
        inside = np.isin(np.arange(table.shape[0]), columns)
        order = np.where((parts == 1) & ~inside, np.iinfo(np.int64).max, 3 * n - inside - parts)
        least = least_totals(n, *set_limits(table, columns, win))
        found, guess = np.iinfo(np.int64).max, -1
        for g in np.argsort(order, kind="stable"):
            if order[g] >= found:
                break
            answers = sorted(set(table[g, columns].tolist()) - {win})
            sizes = [sum(table[g, c] == answer for c in subset) for answer in answers]
            total, rest = n, sum(least[m] for m in sizes)
            if total + rest >= found:
                continue
            for answer, m in zip(answers, sizes):
                part = tuple(c for c in subset if table[g, c] == answer)
                total += best(part)[0]
                rest -= least[m]
                if total + rest >= found:
                    break
            else:
                found, guess = total, int(g)
        memo[subset] = found, guess
        return found, guess

    return best(tuple(range(table.shape[1])))


@pytest.mark.parametrize("size,seed", [("5x8", 0), ("5x8", 1), ("5x8", 2), ("5x8", 3), ("3x12", 4), ("2x12", 5)])
def test_larger_sets_match_the_python_branch_and_bound(size, seed):
    """Sets of 25-40 codes, too many for the plain recursion: same total and same first guess, and
    the same sets searched (so the same node budget)."""
    game = Game.parse_size(size)
    _, table = random_table(game, np.random.default_rng(seed), 25, 41, 10)
    win = game.win.code(game.pegs)
    entries: list[int] = []
    expected = bounded_reference(table, win, entries)
    need = max(entries) + 1
    found = solve_endgame(table, win, need)
    assert (found.total, found.guess) == expected and solve_endgame(table, win, need - 1) is None


@pytest.mark.parametrize("size,seed", [("1x20", 0), ("2x6", 1), ("2x10", 2), ("3x8", 3), ("2x36", 4), ("3x36", 5)])
def test_few_pegs_sets_match_a_plain_recursion(size, seed):
    """Few pegs leave few answers, where the bound on a part's guesses is more than 2m - 1: still the
    fewest guesses in total."""
    game = Game.parse_size(size)
    rng = np.random.default_rng(seed)
    for _ in range(3):
        _, table = random_table(game, rng, 5, 11, 4)
        assert solve_endgame(table, game.win.code(game.pegs)).total == plain_optimum(table, game.win.code(game.pegs))


@pytest.mark.parametrize("size,seed", [("1x16", 0), ("2x5", 1), ("2x12", 2), ("3x6", 3), ("4x4", 4)])
def test_least_totals_bound_every_subset_of_the_set(size, seed):
    """The kernel's bound, from the limits of the whole set, is at most the fewest guesses over any
    of its subsets (every row still a guess), and at least 2m - 1."""
    from mmlab.strategies.endgame_kernels import _least_totals

    game = Game.parse_size(size)
    rng = np.random.default_rng(seed)
    win = game.win.code(game.pegs)
    codes, table = random_table(game, rng, 7, 10, 3)
    n = codes.shape[0]
    limits = set_limits(table, list(range(n)), win)
    least = _least_totals(n, *limits).tolist()
    assert least == least_totals(n, *limits)
    assert all(least[m] >= 2 * m - 1 for m in range(1, n + 1))
    for _ in range(12):
        part = np.sort(rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False))
        assert plain_optimum(sub_table(table, part), win) >= least[part.shape[0]]


def test_least_totals_of_one_peg_and_of_wide_sets():
    from mmlab.strategies.endgame_kernels import _least_totals

    assert _least_totals(6, 1, 0, 1).tolist() == [0, 1, 3, 6, 10, 15, 21]  # one code a guess, in turn
    assert _least_totals(6, 9, 9, 9).tolist() == [0, 1, 3, 5, 7, 9, 11]  # 2m - 1
    assert _least_totals(6, 2, 9, 9).tolist() == [0, 1, 3, 5, 8, 11, 14]  # 1 + 2 + 2 + 3 + 3 + 3
    assert _least_totals(6, 9, 0, 2).tolist() == [0, 1, 3, 6, 9, 13, 17]  # other codes split off two: m + 2 + L(m - 2)


def test_one_peg_sets_are_solved_in_a_set_per_code():
    """With one peg a guess finds its code or rules it out, so the fewest guesses are 1 + 2 + ... + n
    (every code in turn), and the bound proves it at once: n - 2 sets searched, not 2^n (the 2m - 1
    bound ran out of 200 000 sets on 29 codes of 1x30, 0.5 s a turn). Alike, the codes a game of few
    pegs leaves that all give one answer to each other (1x, 2x36's ``Xc`` for any c: 1 black)."""
    game = Game.parse_size("1x36")
    codes = game.all_digits[1:].astype(np.uint8)  # 35 codes; the others guessed: 0
    for table in (table_of(game, codes), table_of(game, codes, game.all_digits[:1].astype(np.uint8))):
        assert best_tree(table, game.win.code(1), 33) == (35 * 36 // 2, 0)
    two = Game.parse_size("2x36")
    codes = np.array([[5, c] for c in range(36) if c != 5], dtype=np.uint8)
    assert best_tree(table_of(two, codes), two.win.code(2), 33) == (35 * 36 // 2, 0)


def test_small_sets_cost_one_guess_per_code_and_one_more_per_code_after_the_first():
    game = Game.parse_size("4x6")
    win = game.win.code(game.pegs)
    one = game.all_digits[[7]].astype(np.uint8)
    two = game.all_digits[[7, 100]].astype(np.uint8)
    assert solve_endgame(table_of(game, one), win).total == 1
    assert solve_endgame(table_of(game, two), win).total == 3


@pytest.mark.parametrize("seed", range(8))
def test_the_whole_tree_gives_each_code_its_guesses_summing_to_the_optimum(seed):
    """``best_tree_guesses``: the tree behind ``best_tree``'s total, each code with its guesses."""
    game = Game.parse_size("4x6")
    codes, table = random_table(game, np.random.default_rng(seed), 3, 13, 3)
    win = game.win.code(game.pegs)
    total, first, guesses, paths, nodes = best_tree_guesses(table, win, 10_000)
    assert (total, first) == best_tree(table, win, 10_000)
    assert total == plain_optimum(table, win) == guesses.sum()
    assert_paths_are_a_tree(table, win, paths, guesses)
    assert guesses.min() >= 1 and (guesses == 1).sum() == (first < codes.shape[0])  # the first guess, if a code
    assert (guesses == 1).sum() == 0 or guesses[first] == 1
    # the codes the first guess tells apart from the others at once are found by the second guess at the latest
    answers = table[first]
    alone = [c for c in range(codes.shape[0]) if (answers == answers[c]).sum() == 1]
    assert all(guesses[c] <= 2 for c in alone)
    assert 1 <= nodes <= codes.shape[0]


def assert_paths_are_a_tree(table: np.ndarray, win: int, paths: np.ndarray, guesses: np.ndarray) -> None:
    """Each code's path ends with the code itself after ``guesses`` rows, and two codes part ways
    only after a guess they answer differently: the paths are one decision tree, its answers naming
    each code."""
    n = table.shape[1]
    assert paths.shape == (n, guesses.max())
    for c in range(n):
        assert (paths[c, :guesses[c]] >= 0).all() and (paths[c, guesses[c]:] == -1).all()
        assert paths[c, guesses[c] - 1] == c and table[c, c] == win
    for c in range(n):
        for d in range(c + 1, n):
            shared = min(guesses[c], guesses[d])
            apart = np.flatnonzero(paths[c, :shared] != paths[d, :shared])
            k = int(apart[0]) if apart.size else shared  # (a path ending inside the other: that code is its guess)
            assert k >= 1 and table[paths[c, k - 1], c] != table[paths[c, k - 1], d]
            assert all(table[paths[c, j], c] == table[paths[c, j], d] for j in range(k - 1))


def test_the_whole_tree_is_found_alike_in_steps_of_any_size(monkeypatch):
    """``best_tree_guesses`` returns to Python every ``STEP_NODES`` sets (for Ctrl-C) and goes on from
    the sets solved: the same tree in steps of one set as in one step, and the same budget."""
    from mmlab.strategies import endgame_kernels as kernels

    game = Game.parse_size("5x8")
    _, table = random_table(game, np.random.default_rng(1), 25, 41, 10)
    win = game.win.code(game.pegs)
    whole = best_tree_guesses(table, win, 10**6)
    entries: list[int] = []
    bounded_reference(table, win, entries)
    need = max(entries) + 1
    monkeypatch.setattr(kernels, "STEP_NODES", 1)
    stepped = best_tree_guesses(table, win, 10**6)
    assert (stepped.total, stepped.first, stepped.nodes) == (whole.total, whole.first, whole.nodes)
    assert stepped.guesses.tolist() == whole.guesses.tolist() and stepped.paths.tolist() == whole.paths.tolist()
    assert best_tree_guesses(table, win, need) is not None and best_tree_guesses(table, win, need - 1) is None


def test_node_budget_and_bad_tables():
    game = Game.parse_size("3x4")
    codes = game.all_digits.astype(np.uint8)
    assert solve_endgame(table_of(game, codes), game.win.code(game.pegs), max_nodes=1) is None
    # The budget is exact: a search that begins with ``max_nodes`` sets solved gives up, so the
    # fewest nodes that finish are one more than the most solved at a search's start (counted by
    # the plain branch and bound on a 5x8 set of 25-40 codes).
    five = Game.parse_size("5x8")
    _, table = random_table(five, np.random.default_rng(1), 25, 41, 10)
    entries: list[int] = []
    expected = bounded_reference(table, five.win.code(five.pegs), entries)
    need = max(entries) + 1
    assert need > 1 and solve_endgame(table, five.win.code(five.pegs), need - 1) is None
    found = solve_endgame(table, five.win.code(five.pegs), need)
    assert (found.total, found.guess) == expected
    with pytest.raises(ValueError):
        solve_endgame(table_of(game, codes)[:5], game.win.code(game.pegs))
    big = Game.parse_size("4x5").all_digits[:MAX_CODES + 1].astype(np.uint8)
    with pytest.raises(ValueError, match="at most 256 codes"):
        solve_endgame(table_of(Game.parse_size("4x5"), big), 20)
    with pytest.raises(ValueError, match="at most 256 codes"):
        best_tree_guesses(table_of(Game.parse_size("4x5"), big), 20, 100)


def tree_total(table: np.ndarray, guess: int, win: int) -> int:
    """Total guesses when ``guess`` is played first and every part is then solved exactly."""
    n = table.shape[1]
    answers = table[guess]
    total = n
    for answer in set(answers.tolist()) - {win}:
        part = np.flatnonzero(answers == answer)
        total += solve_endgame(sub_table(table, part), win).total
    return total


def test_sampling_codebreaker_plays_an_optimal_endgame_move():
    """With the whole consistent set small, ``sample`` plays the first guess of a tree with the
    fewest guesses over it (``pool=consistent``: the tree guesses codes of the set, so its first
    guess is consistent)."""
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


@pytest.mark.parametrize("spec,others", [("sample", 60), ("sample:others=7", 7), ("sample:others=0", 0),
                                         ("sample:pool=consistent,others=7", 0)])
def test_the_endgame_may_guess_others_inconsistent_codes(monkeypatch, spec, others):
    """``others`` sets how many inconsistent codes the exact endgame may guess (none with
    ``pool=consistent``); with none, its guess is a consistent code."""
    from mmlab.strategies import sample_scoring

    game = Game.parse_size("4x6")
    asked = []

    def spy(knowledge, consistent, n, rng):
        asked.append(n)
        return endgame_pool(knowledge, consistent, n, rng)

    monkeypatch.setattr(sample_scoring, "endgame_pool", spy)
    rng = np.random.default_rng(8)
    for knowledge, implicit in small_positions(game, rng, 4):
        strategy = make_strategy(spec)
        strategy.start(game, rng)
        pick = strategy.guess(implicit)
        assert asked[-1] == others
        if others == 0:
            assert knowledge.is_consistent(pick)


def test_two_codes_left_are_guessed_in_turn_without_a_pool(monkeypatch):
    from mmlab.strategies import sample_scoring

    def refuse(*args, **kwargs):
        raise AssertionError("a pool was built for two codes")

    monkeypatch.setattr(sample_scoring, "endgame_pool", refuse)
    game = Game.parse_size("4x6")
    rng = np.random.default_rng(2)
    checked = 0
    while checked < 3:
        secret, guesses = int(rng.integers(game.n_codes)), rng.choice(game.n_codes, size=3, replace=False)
        knowledge, implicit = Knowledge.initial(game), Knowledge.initial(game, explicit=False)
        for guess in guesses:
            feedback = game.score(secret, int(guess))
            knowledge, implicit = knowledge.update(int(guess), feedback), implicit.update(int(guess), feedback)
        if knowledge.n_consistent == 2:
            strategy = make_strategy("sample")
            strategy.start(game, rng)
            assert strategy.guess(implicit) in knowledge.consistent.tolist()
            checked += 1


def test_endgame_pool_adds_distinct_inconsistent_codes_that_help():
    game = Game.parse_size("4x6")
    win = game.win.code(game.pegs)
    rng = np.random.default_rng(5)
    helped = 0
    for knowledge, implicit in small_positions(game, rng, 10):
        codes = game.all_digits[knowledge.consistent].astype(np.uint8)
        pool, _ = endgame_pool(implicit, codes, 20, rng)
        others = pool[codes.shape[0]:]
        assert np.array_equal(pool[:codes.shape[0]], codes) and 0 < others.shape[0] <= 20
        assert not any(knowledge.is_consistent(game.index_of(row)) for row in others)
        assert np.unique(others, axis=0).shape[0] == others.shape[0]
        table = feedback_matrix(pool, codes, game.colours, game.with_white)
        with_others, alone = solve_endgame(table, win).total, solve_endgame(table_of(game, codes), win).total
        assert with_others <= alone  # more guesses to choose from never cost
        helped += with_others < alone
    assert helped >= 1  # and somewhere they save guesses


def test_endgame_pool_scores_each_code_once_and_keeps_what_rescoring_would():
    """The climb scores each code once; a reference that rescores the kept codes every round, as
    the pool was first built, finds the same pool, and the distinct codes it scores are as many
    as the climb's evaluations."""
    from mmlab.strategies.endgame import ENDGAME_CLIMB, ENDGAME_PARENTS, ENDGAME_RANDOM
    from mmlab.strategies.code_rows import one_peg_changes, random_codes, rows_in

    def rescoring_pool(knowledge, codes, others, rng):
        game, scored = knowledge.game, []
        def best(rows):
            scored.append(rows)
            return best_splitters(rows, codes, game)
        candidates = best(np.vstack([one_peg_changes(codes, game), random_codes(game, rng, ENDGAME_RANDOM)]))
        changed = candidates[:0]
        for _ in range(ENDGAME_CLIMB):
            parents = candidates[~rows_in(candidates, changed)][:ENDGAME_PARENTS]
            changed = np.vstack([changed, parents])
            candidates = best(np.vstack([candidates, one_peg_changes(parents, game)]))
        return np.vstack([codes, candidates[~knowledge.rows_fit(candidates)][:others]]), np.vstack(scored)

    game = Game.parse_size("6x9")
    for seed in range(3):
        rng = np.random.default_rng([11, seed])
        secret = rng.integers(game.colours, size=game.pegs)
        knowledge = Knowledge.initial(game, explicit=False)
        while True:
            guess = rng.integers(game.colours, size=game.pegs)
            knowledge = knowledge.update(game.index_of(guess), game.score(game.index_of(secret), game.index_of(guess)))
            codes = knowledge.list_consistent(200, 10**7)
            if codes is not None and codes.shape[0] <= 60:
                break
        pool, scored = endgame_pool(knowledge, codes, 40, np.random.default_rng(seed))
        expected, rescored = rescoring_pool(knowledge, codes, 40, np.random.default_rng(seed))
        assert np.array_equal(pool, expected)
        assert scored == distinct_rows(rescored).shape[0] < rescored.shape[0]


def test_best_splitters_rank_by_parts_then_entropy():
    game = Game.parse_size("5x8")
    rng = np.random.default_rng(8)
    codes = game.all_digits[rng.choice(game.n_codes, size=50, replace=False)].astype(np.uint8)
    candidates = game.all_digits[rng.choice(game.n_codes, size=400)].astype(np.uint8)
    best = best_splitters(candidates, codes, game, keep=30)
    stats = sample_stats(best, codes, game.colours, game.with_white)
    everything = sample_stats(candidates, codes, game.colours, game.with_white)
    assert best.shape[0] == 30 and np.unique(best, axis=0).shape[0] == 30
    keys = list(zip(-stats[:, PARTS], -stats[:, ENTROPY]))
    assert keys == sorted(keys) and stats[0, PARTS] == everything[:, PARTS].max()
    # nothing left out splits better than the last one kept
    assert (everything[:, PARTS] > stats[-1, PARTS]).sum() <= 30


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


def test_endgame_off_scores_as_before(monkeypatch):
    """``endgame=0,lookahead=0`` never calls the solver: the pick is an Entropy top scorer of the whole set."""
    from mmlab.strategies import sample_scoring

    def refuse(*args, **kwargs):
        raise AssertionError("the solver was called")

    monkeypatch.setattr(sample_scoring, "solve_endgame", refuse)
    monkeypatch.setattr(sample_scoring, "lookahead_totals", refuse)
    game = Game.parse_size("3x4")
    knowledge = Knowledge.initial(game, explicit=False).update(game.parse("112"), game.score(game.parse("123"), game.parse("112")))
    codes = knowledge.list_consistent(game.n_codes, 10**6)
    top = codes[top_entropy(sample_stats(codes, codes, game.colours, game.with_white))]
    for seed in range(5):
        strategy = make_strategy("sample:endgame=0,lookahead=0,pool=consistent")
        strategy.start(game, np.random.default_rng(seed))
        pick = strategy.guess(knowledge)
        assert list(game.digits(pick)) in top.tolist() and strategy.last_choice.uniform


def own_codes_total(codes: np.ndarray, guess: np.ndarray, game: Game) -> int:
    """Guesses in total over ``codes`` when ``guess`` is played first and each part is then solved
    by plain recursion over its own codes."""
    win = game.win.code(game.pegs)
    answers = feedback_matrix(guess[None, :], codes, game.colours, game.with_white)[0]
    total = codes.shape[0]
    for answer in set(answers.tolist()) - {win}:
        part = codes[answers == answer]
        total += plain_optimum(table_of(game, part), win)
    return total


@pytest.mark.parametrize("seed", range(4))
def test_lookahead_totals_solve_every_part_over_its_own_codes(seed):
    rng = np.random.default_rng(seed)
    game = Game.parse_size("4x6")
    codes = game.all_digits[rng.choice(game.n_codes, size=40, replace=False)].astype(np.uint8)
    guesses = np.vstack([codes[:3], game.all_digits[rng.choice(game.n_codes, size=3)].astype(np.uint8)])
    totals = lookahead_totals(guesses, codes, game.colours, game.with_white, game.win.code(game.pegs), limit=40)
    assert totals.tolist() == [own_codes_total(codes, g, game) for g in guesses]


def test_lookahead_estimates_large_parts_from_the_solved_ones():
    assert np.allclose(_per_code_fit([(m, m * (1.3 + 0.4 * np.log(m))) for m in (3, 5, 9, 20)]), (1.3, 0.4))
    assert _per_code_fit([(4, 9)]) == (1.0, 1.0)  # one size: no fit
    game = Game.parse_size("3x3")
    codes = game.all_digits.astype(np.uint8)
    win = game.win.code(game.pegs)
    guess = codes[[5]]
    answers = feedback_matrix(guess, codes, 3, True)[0]
    sizes = np.array([np.count_nonzero(answers == a) for a in set(answers.tolist()) - {win}])
    # limit 2: nothing is solved, every part of 3 or more codes is m (1 + ln m)
    expected = 27 + sum(2 * m - 1 if m <= 2 else m * (1 + np.log(m)) for m in sizes)
    assert np.isclose(lookahead_totals(guess, codes, 3, True, win, limit=2)[0], expected)


def test_lookahead_searches_no_part_as_large_as_one_whose_search_ran_out(monkeypatch):
    """A part whose search passes the node budget is valued by the fit, and so is every later part
    of as many codes or more, unsearched: a set of codes that all give the same answers (few pegs,
    many colours) left every guess's large part to run out in turn (3x36: 0.2-0.4 s each)."""
    from mmlab.strategies import endgame

    searched: list[tuple[int, bool]] = []

    def spy(table, win, max_nodes):
        found = solve_endgame(table, win, max_nodes)
        searched.append((table.shape[1], found is None))
        return found

    monkeypatch.setattr(endgame, "solve_endgame", spy)
    game = Game.parse_size("4x6")
    rng = np.random.default_rng(4)
    codes = game.all_digits[rng.choice(game.n_codes, size=300, replace=False)].astype(np.uint8)
    guesses = game.all_digits[rng.choice(game.n_codes, size=6, replace=False)].astype(np.uint8)
    totals = lookahead_totals(guesses, codes, game.colours, game.with_white, game.win.code(game.pegs), max_nodes=3)
    assert np.isfinite(totals).all() and (totals > codes.shape[0]).all()
    ran_out = [m for m, failed in searched if failed]
    assert ran_out and any(not failed for _, failed in searched)
    for k, (m, _) in enumerate(searched):
        assert all(m < smaller for smaller, failed in searched[:k] if failed)


def test_sampling_codebreaker_look_ahead_beats_its_top_scorer():
    """With the whole consistent set known, ``lookahead`` picks a candidate whose parts need no more
    guesses than those of the top Entropy scorer, which is among its candidates."""
    game = Game.parse_size("4x6")
    rng = np.random.default_rng(11)
    better = 0
    for knowledge, implicit in small_positions(game, rng, 6):
        codes = game.all_digits[knowledge.consistent].astype(np.uint8)
        picks = []
        for spec in ("sample:pool=consistent,endgame=0,lookahead=0,ties=first",
                     "sample:pool=consistent,endgame=0,lookahead=1000"):
            strategy = make_strategy(spec)
            strategy.start(game, np.random.default_rng(0))
            picks.append(own_codes_total(codes, np.array(game.digits(strategy.guess(implicit)), dtype=np.uint8), game))
        assert picks[1] <= picks[0]
        better += picks[1] < picks[0]
    assert better > 0


def test_look_ahead_solving_every_part_picks_no_worse_than_estimating_them():
    """``part`` bounds the parts the look-ahead solves exactly: with every part solved (``part=256``)
    its pick needs no more guesses over its own codes than with parts of 4 or more estimated
    (``part=3``), from the same candidates, and fewer somewhere."""
    game = Game.parse_size("4x6")
    better = 0
    for knowledge, implicit in small_positions(game, np.random.default_rng(11), 12):
        codes = game.all_digits[knowledge.consistent].astype(np.uint8)
        picks = []
        for part in (3, 256):
            strategy = make_strategy(f"sample:pool=consistent,endgame=0,lookahead=1000,part={part}")
            strategy.start(game, np.random.default_rng(0))
            picks.append(own_codes_total(codes, np.array(game.digits(strategy.guess(implicit)), dtype=np.uint8), game))
        assert picks[1] <= picks[0]
        better += picks[1] < picks[0]
    assert better > 0
