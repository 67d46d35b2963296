"""MathMind (Reddi 2002, in 003 section 2.3): the kernels against pure Python, the exact evaluation
against a pure-Python decision tree and, under the standard answers, against mmlab's own strategies."""

import math
from collections import Counter
from functools import cache

import numpy as np
import pytest

from mmlab.errors import BadArgument, BadCode, BadSize, SearchFailed
from mmlab.experiments import evaluate as evaluate_standard
from mmlab.game import Game
from mmlab.planners import Optimal
from mmlab.strategies.scoring import TOLERANCE
from mmlab.variants import mathmind_kernels as K
from mmlab.variants.mathmind import FEEDBACKS, MAX_CODES, RULES, MathMind, answer_of

MATHMIND = ("higher-lower", "euclidean", "manhattan")


def rows(game: Game) -> list[tuple[int, ...]]:
    return [tuple(int(c) for c in row) for row in game.all_digits]


@pytest.mark.parametrize("feedback", FEEDBACKS)
@pytest.mark.parametrize("game", [Game(3, 4), Game(2, 5, repeats=False), Game(4, 3)], ids=str)
def test_the_answer_kernel_is_the_pure_python_answer_for_every_pair(game, feedback):
    mm = MathMind(game, feedback)
    codes = rows(game)
    everyone = np.arange(game.n_codes)
    for g, guess in enumerate(codes):
        got = K.answers_against(mm.digits[g], mm.digits, everyone, mm.kind)
        assert got.tolist() == [answer_of(guess, secret, feedback) for secret in codes]
        assert got.max() < mm.n_answers
    assert mm.win == answer_of(codes[0], codes[0], feedback)


def test_answers_worked_out_by_hand():
    """Guess 1234 against secret 1425: peg 1 right; 2 -> 4 and 4 -> 5 go up, 3 -> 2 goes down."""
    mm = MathMind(Game(4, 6), "higher-lower")
    assert mm.describe(mm.answer("1234", "1425")) == "1 black, 2 higher, 1 lower"
    assert mm.answer("1234", "1425") == 1 * 5 + 2
    assert MathMind(Game(4, 6), "euclidean").answer("1234", "1425") == 0 + 4 + 1 + 1
    assert MathMind(Game(4, 6), "manhattan").answer("1234", "1425") == 0 + 2 + 1 + 1
    assert MathMind(Game(4, 6), "black-white").describe(MathMind(Game(4, 6), "black-white").answer("1234", "1425")) \
        == "1 black, 2 white"
    assert MathMind(Game(4, 6), "manhattan").describe(4) == "distance 4"
    assert MathMind(Game(4, 6), "euclidean").describe(6) == "distance² 6"
    assert MathMind(Game(4, 6), "euclidean").n_answers == 4 * 25 + 1
    assert MathMind(Game(4, 6), "manhattan").n_answers == 4 * 5 + 1


def python_stats(answers: list[int]) -> tuple[float, float, float, float]:
    sizes = Counter(answers).values()
    n = len(answers)
    return (max(sizes), sum(k * k for k in sizes), len(sizes), -sum(k / n * math.log2(k / n) for k in sizes))


@pytest.mark.parametrize("kernel", [K.partition_stats, K.partition_stats_serial], ids=["parallel", "serial"])
@pytest.mark.parametrize("feedback", FEEDBACKS)
def test_partition_stats_are_the_pure_python_partitions(feedback, kernel):
    game = Game(3, 4)
    mm = MathMind(game, feedback)
    codes = rows(game)
    cand = np.sort(np.random.default_rng(7).choice(game.n_codes, 23, replace=False))
    stats = kernel(mm.digits, cand, mm.kind, mm.n_answers)
    for g, guess in enumerate(codes):
        expected = python_stats([answer_of(guess, codes[s], feedback) for s in cand])
        assert stats[g] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("feedback", FEEDBACKS)
def test_separators_are_the_guesses_giving_each_candidate_its_own_answer(feedback):
    game = Game(3, 4)
    mm = MathMind(game, feedback)
    codes = rows(game)
    seen = set()
    for seed in range(8):
        cand = np.sort(np.random.default_rng(seed).choice(game.n_codes, 2 + seed, replace=False))
        got = K.separators(mm.digits, cand, mm.kind, mm.n_answers)
        expected = [len({answer_of(guess, codes[s], feedback) for s in cand}) == cand.size for guess in codes]
        assert got.tolist() == expected
        seen.update(expected)
    assert seen == {True, False}  # (guesses that separate and guesses that do not, both checked)


def python_tree(mm: MathMind, rule: str) -> dict[int, int]:
    """Guesses per secret of ``rule``'s decision tree, built in pure Python: a top scorer of the
    partition, consistent codes first, then the lowest code."""
    codes = rows(mm.game)
    column, minimise = RULES[rule]
    out = {}

    def choose(cand: list[int]) -> int:
        scores = [python_stats([answer_of(guess, codes[s], mm.feedback) for s in cand])[column] for guess in codes]
        scores = scores if minimise else [-v for v in scores]
        top = [g for g, v in enumerate(scores) if v <= min(scores) + 1e-9]
        inside = [g for g in top if g in cand]
        return (inside or top)[0]

    def descend(cand: list[int], depth: int) -> None:
        guess = choose(cand)
        parts: dict[int, list[int]] = {}
        for s in cand:
            parts.setdefault(answer_of(codes[guess], codes[s], mm.feedback), []).append(s)
        for a, part in parts.items():
            if a == mm.win:
                out[guess] = depth
            else:
                descend(part, depth + 1)

    descend(list(range(len(codes))), 1)
    return out


@pytest.mark.parametrize("game", [Game(3, 4), Game(3, 5, repeats=False)], ids=str)
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("feedback", FEEDBACKS)
def test_evaluate_is_the_pure_python_decision_tree(feedback, rule, game):
    mm = MathMind(game, feedback)
    result = mm.evaluate(rule)
    expected = python_tree(mm, rule)
    assert result.guesses.tolist() == [expected[s] for s in range(mm.game.n_codes)]
    assert result.total == sum(expected.values()) and result.worst == max(expected.values())


@pytest.mark.parametrize("rule", RULES)
def test_under_the_standard_answers_each_rule_is_mmlabs_own_strategy_secret_by_secret(rule):
    """Knuth, Irving, Most Parts and Entropy on 4x6 (L = 5801, 5696, 5668, 5722: Knuth 1976, Kooi 2005)
    and on Bulls and Cows' smaller cousin 3x5 without repeats: the same guesses for every secret."""
    for game in (Game(4, 6), Game(3, 5, repeats=False)):
        ours = MathMind(game, "black-white").evaluate(rule)
        theirs = evaluate_standard(game, rule)
        assert ours.guesses[theirs.codes].tolist() == theirs.guesses.tolist()
    assert MathMind(Game(4, 6), "black-white").evaluate(rule).total == {
        "knuth": 5801, "irving": 5696, "most-parts": 5668, "entropy": 5722}[rule]


#: Four codes of 4x6 that no one of them splits as well as another code does, for each answer rule.
OUTSIDE = {"higher-lower": [354, 677, 910, 1230], "euclidean": [406, 823, 923, 1036], "manhattan": [65, 91, 170, 317],
           "black-white": [421, 476, 808, 880]}


@pytest.mark.parametrize("feedback", FEEDBACKS)
def test_many_small_nodes_chosen_together_get_the_guess_each_gets_alone(feedback):
    """The batch kernel of a level's small nodes (each on one core) against ``choose`` node by node
    (every core, ties by ``best`` and consistent codes first)."""
    mm = MathMind(Game(4, 6), feedback)
    rng = np.random.default_rng(3)
    cands = [np.sort(rng.choice(1296, size, replace=False)) for size in (3, 5, 17, 40, 3, 90)]
    cands.append(np.array(OUTSIDE[feedback]))  # (Knuth's rule plays a code that is not among them)
    assert mm.choose("knuth", cands[-1]) not in cands[-1]
    for rule, (column, minimise) in RULES.items():
        picked = K.choose_many(mm.digits, np.concatenate(cands), np.cumsum([0, *(c.size for c in cands)]), mm.kind,
                               mm.n_answers, column, minimise, TOLERANCE)
        assert picked.tolist() == [mm.choose(rule, cand) for cand in cands]


@pytest.mark.parametrize("feedback", FEEDBACKS)
def test_a_game_played_is_the_decision_trees_branch(feedback):
    mm = MathMind(Game(3, 4), feedback)
    for rule in ("knuth", "entropy"):
        result = mm.evaluate(rule)
        for secret in range(mm.game.n_codes):
            moves = mm.play(rule, secret)
            assert len(moves) == result.guesses[secret]
            assert moves[0][0] == result.first and moves[-1] == (secret, mm.win)
            assert all(a == mm.answer(g, secret) for g, a in moves)


@pytest.mark.parametrize("feedback", FEEDBACKS)
def test_a_game_of_the_optimum_follows_its_tree_to_each_secret(feedback):
    mm = MathMind(Game(3, 4), feedback)
    tree = mm.optimum_tree()
    assert tree.total == python_optimum(mm) and mm.optimum_tree() is tree  # (searched once, then kept)
    said: dict[tuple, int] = {}
    for secret in range(mm.game.n_codes):
        moves = mm.play("optimum", secret)
        assert len(moves) == tree.guesses[secret] and moves[0][0] == tree.first and moves[-1] == (secret, mm.win)
        assert all(a == mm.answer(g, secret) for g, a in moves)
        said[tuple(moves[:-1])] = secret  # (a tree: the guesses and answers before the win name the secret)
    assert len(said) == mm.game.n_codes


def test_a_game_of_the_optimum_is_refused_when_its_tree_is_not_found():
    mm = MathMind(Game(3, 4), "manhattan")
    with pytest.raises(SearchFailed, match="not found within 1 set of codes: a larger max_nodes may find it$"):
        mm.play("optimum", "123", max_nodes=1)
    with pytest.raises(BadSize, match="at most 256 codes"):
        MathMind(Game(4, 6), "euclidean").play("optimum", "1234")
    with pytest.raises(BadArgument, match="choose from knuth, irving, most-parts, entropy, optimum"):
        mm.play("optimal", "123")


def test_progress_counts_every_secret_once():
    mm = MathMind(Game(3, 4), "higher-lower")
    told = []
    mm.evaluate("knuth", progress=told.append)
    assert sum(told) == mm.game.n_codes


def python_optimum(mm: MathMind) -> int:
    """The least total guesses over every secret by plain recursion over every guess, no bound."""
    codes = rows(mm.game)
    win = answer_of(codes[0], codes[0], mm.feedback)

    @cache
    def least(left: tuple[int, ...]) -> int:
        if len(left) == 1:
            return 1
        found = None
        for g, guess in enumerate(codes):
            parts: dict[int, list[int]] = {}
            for s in left:
                parts.setdefault(answer_of(guess, codes[s], mm.feedback), []).append(s)
            if len(parts) == 1 and g not in left:
                continue  # learns nothing
            total = len(left) + sum(least(tuple(part)) for a, part in parts.items() if a != win)
            found = total if found is None else min(found, total)
        return found

    return least(tuple(range(len(codes))))


@pytest.mark.parametrize("feedback", FEEDBACKS)
@pytest.mark.parametrize("game", [Game(2, 3), Game(3, 2), Game(2, 4), Game(3, 3, repeats=False)], ids=str)
def test_the_optimum_is_that_of_a_plain_recursion_and_each_secrets_guesses_sum_to_it(game, feedback):
    mm = MathMind(game, feedback)
    best = mm.optimum()
    assert best.rule == "optimum" and best.total == python_optimum(mm) and best.guesses.size == game.n_codes
    assert best.guesses.min() >= 1 and best.guesses[best.first] == 1 and (best.guesses == 1).sum() == 1
    assert all(best.total <= mm.evaluate(rule).total for rule in RULES)


@pytest.mark.parametrize("size", ["3x4", "4x3", "2x6"])
def test_under_the_standard_answers_the_optimum_is_the_optimal_planners(size):
    game = Game.parse_size(size)
    planned = Optimal().plan(game)
    assert planned.proved and MathMind(game, "black-white").optimum().total == planned.tree.total_guesses


def test_optimum_figures_of_the_docs():
    """docs/reproductions.md, MathMind: 3x5's optimum under each answer rule (0.6 s in all)."""
    totals = {f: MathMind(Game(3, 5), f).optimum().total for f in FEEDBACKS}
    assert totals == {"higher-lower": 442, "euclidean": 352, "manhattan": 441, "black-white": 451}


def test_optimum_refuses_large_games_and_gives_up_past_its_budget():
    with pytest.raises(BadSize, match="at most 256 codes .* 4x6 has 1,296"):
        MathMind(Game(4, 6), "euclidean").optimum()
    assert MathMind(Game(3, 4), "manhattan").optimum(max_nodes=1) is None
    with pytest.raises(BadArgument, match="at least 1"):
        MathMind(Game(3, 4), "manhattan").optimum(max_nodes=0)
    # squared distances up to 35**2, ranked into a table of bytes: guessing colour 1 names the secret
    assert MathMind(Game(1, 36), "euclidean").optimum().total == 1 + 2 * 35
    assert MathMind(Game(2, 16), "euclidean").optimum().guesses.size == 256  # (up to 450: the largest table)


def python_two_answer_firsts(mm: MathMind) -> list[int]:
    codes = rows(mm.game)

    def answers(guess: int, cand: list[int]) -> list[int]:
        return [answer_of(codes[guess], codes[s], mm.feedback) for s in cand]

    firsts = []
    for first in range(len(codes)):
        classes: dict[int, list[int]] = {}
        for s, a in enumerate(answers(first, list(range(len(codes))))):
            classes.setdefault(a, []).append(s)
        if all(any(len(set(answers(g, part))) == len(part) for g in range(len(codes))) for part in classes.values()):
            firsts.append(first)
    return firsts


@pytest.mark.parametrize("feedback", FEEDBACKS)
@pytest.mark.parametrize("game", [Game(2, 4), Game(2, 5), Game(3, 3)], ids=str)
def test_two_answer_firsts_are_those_of_a_pure_python_search(game, feedback):
    mm = MathMind(game, feedback)
    assert mm.two_answer_firsts().tolist() == python_two_answer_firsts(mm)


def test_two_answer_progress_counts_every_first_guess_once():
    told: list[int] = []
    firsts = MathMind(Game(3, 3), "euclidean").two_answer_firsts(progress=told.append)
    assert told == [1] * 27 and firsts.tolist() == MathMind(Game(3, 3), "euclidean").two_answer_firsts().tolist()


def test_two_answers_can_name_the_secret_on_small_games_but_never_on_4x6():
    """2x4: after 11 (a corner) the squared distance and one more guess tell every secret apart; on
    4x6 no first guess allows it under any answer (Reddi's 'two guesses' for MM(4,6), docs/reproductions.md)."""
    assert MathMind(Game(2, 4), "euclidean").two_answer_firsts().size == 16
    assert MathMind(Game(2, 4), "manhattan").two_answer_firsts().tolist() == [0, 3, 12, 15]  # 11 14 41 44
    for feedback in MATHMIND:
        assert MathMind(Game(4, 6), feedback).two_answer_firsts().size == 0
    assert MathMind(Game(4, 6), "euclidean").evaluate("knuth").worst == 4  # (so the best worst case is 4)


def test_bad_input_is_refused_with_a_message():
    with pytest.raises(BadArgument, match="unknown feedback 'distance'"):
        MathMind(Game(4, 6), "distance")
    with pytest.raises(BadArgument, match="without feedback='black'"):
        MathMind(Game(4, 6, feedback="black"), "euclidean")
    with pytest.raises(BadSize, match="531,441 codes, at most 65,536"):
        MathMind(Game(6, 9), "euclidean")
    assert Game(4, 16).n_codes == MAX_CODES
    MathMind(Game(4, 16), "euclidean")  # (the largest accepted)
    assert MathMind("4x6", "euclidean").game == Game(4, 6)  # (a size, as elsewhere; it was refused)
    with pytest.raises(BadSize, match="expected a Game or a size such as '4x6', got 42"):
        MathMind(42, "euclidean")
    mm = MathMind(Game(4, 6), "euclidean")
    with pytest.raises(BadArgument, match="unknown rule 'knuht'"):
        mm.evaluate("knuht")
    with pytest.raises(BadCode):
        mm.answer("1237", "1111")
    with pytest.raises(BadCode, match="no code of 4x6"):
        mm.play("knuth", 1296)
    with pytest.raises(BadCode, match="no code of 4x6"):
        mm.answer(True, 0)


def test_with_one_peg_a_distance_names_the_colour_at_once():
    """One peg, guessed at the lowest colour: a distance is the secret's value less 1, higher/lower and
    the standard answers only say right or not."""
    for feedback, classes in (("euclidean", 5), ("manhattan", 5), ("higher-lower", 2), ("black-white", 2)):
        mm = MathMind(Game(1, 5), feedback)
        assert len({mm.answer(0, s) for s in range(5)}) == classes


@pytest.mark.parametrize("feedback", FEEDBACKS)
@pytest.mark.parametrize("game", [Game(3, 4), Game(4, 5, repeats=False), Game(2, 6), Game(5, 3)], ids=str)
def test_the_first_guesses_scored_one_per_set_of_colours_are_every_codes_scores(game, feedback):
    """Reordering the pegs of guess and secret alike keeps every answer rule's answer, so at first
    (every code left) a code's partition is that of its colours sorted: the scores worked out for one
    code of each set of colours are, bit for bit, those of every code worked out one by one."""
    mm = MathMind(game, feedback)
    everyone = np.arange(game.n_codes)
    stats, each = mm._first_stats()
    assert stats.shape[0] < game.n_codes
    assert np.array_equal(stats[each], K.partition_stats(mm.digits, everyone, mm.kind, mm.n_answers))
    for rule in RULES:
        column, minimise = RULES[rule]
        full = K.partition_stats(mm.digits, everyone, mm.kind, mm.n_answers)[:, column]
        assert mm.choose(rule, everyone) == int(np.flatnonzero(np.isclose(full, full.min() if minimise
                                                                          else full.max(), rtol=0, atol=TOLERANCE))[0])


@pytest.mark.parametrize("feedback", list(FEEDBACKS))
def test_optimum_guess_is_the_trees_move_at_each_of_its_nodes(feedback):
    """``optimum_guess`` searched afresh at a node of the optimum's tree plays the tree's move there
    (each set's best guess does not depend on the search that reached it), and ``progress`` counts
    the sets searched."""
    from mmlab.strategies import endgame_kernels

    mm = MathMind(Game(3, 4), feedback)
    told = []
    tree = mm.optimum(progress=told.append)
    assert told and told == sorted(told)
    for secret in range(0, 64, 7):
        path = [int(g) for g in tree.paths[secret] if g >= 0]
        left = np.arange(64)
        for guess in path:
            assert mm.optimum_guess(left) == guess
            said = mm.answer(guess, secret)
            left = left[[mm.answer(guess, c) == said for c in left]]
    table, win = mm._optimum_table()
    assert endgame_kernels.best_guess(table, np.arange(64), win, 1) is None  # (past its budget)
