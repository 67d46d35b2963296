"""The exact optimal solver against a brute-force reference on tiny games, and against the
published optimum of 000 Table 2; its trees are checked by replaying every secret."""

from functools import lru_cache

import numpy as np
import pytest

from mmlab.errors import BadArgument
from mmlab.game import Game
from mmlab.planners import make_planner
from mmlab.planners.base import Timeout
from mmlab.planners.optimal import PROGRESS_STEPS, full_tree_bounds
from mmlab.trees import DecisionTree, TreeStrategy


def brute_force_optimum(game: Game, max_depth: int | None = None) -> int:
    """Least total guesses over all secrets, trying every code at every node (no pruning)."""
    codes = range(game.n_codes)
    score = {(s, g): game.score(s, g) for s in codes for g in codes}

    @lru_cache(maxsize=None)
    def best(cands: frozenset, depth: int | None) -> float:
        if depth is not None and depth <= 0:
            return float("inf")
        if len(cands) == 1:
            return 1
        result = float("inf")
        for g in codes:
            parts: dict = {}
            for s in cands:
                if s != g:
                    parts.setdefault(score[(s, g)], set()).add(s)
            if len(parts) == 1 and g not in cands:
                continue  # no progress
            child = None if depth is None else depth - 1
            result = min(result, len(cands) + sum(best(frozenset(p), child) for p in parts.values()))
        return result

    return best(frozenset(codes), max_depth)


@pytest.mark.parametrize("size, repeats", [("2x2", True), ("2x3", True), ("3x2", True), ("2x4", True), ("3x3", True),
                                           ("3x4", False), ("2x5", False)])
def test_expected_optimum_equals_brute_force(size, repeats):
    game = Game.parse_size(size, repeats=repeats)
    result = make_planner("optimal").plan(game)
    assert result.proved and result.tree.total_guesses == brute_force_optimum(game)
    assert all(node.certain == (node.size == 1) for node, _ in result.tree.root.walk())


@pytest.mark.parametrize("size, depth", [("3x3", 3), ("2x4", 3), ("3x3", 4), ("2x4", 4), ("3x2", 2)])
def test_depth_limited_optimum_equals_brute_force(size, depth):
    game = Game.parse_size(size)
    expected = brute_force_optimum(game, depth)
    if expected == float("inf"):
        with pytest.raises(BadArgument, match=f"within {depth} guesses"):
            make_planner(f"optimal:max_depth={depth}").plan(game)
        return
    tree = make_planner(f"optimal:max_depth={depth}").plan(game).tree
    assert tree.worst <= depth and tree.total_guesses == expected


def test_3x5_optimum_is_451_table_2():
    """000 Table 2: the A* optimum for 3x5 is L = 451 (3.608), worst 5."""
    result = make_planner("optimal").plan(Game.parse_size("3x5"))
    assert (result.tree.total_guesses, result.proved) == (451, True)
    replay = DecisionTree.build(result.tree.game, TreeStrategy(result.tree))
    assert (replay.total_guesses, replay.worst) == (451, result.tree.worst)


def test_worst_objective_proves_the_least_depth():
    """3x5 needs 5 guesses at worst (4 cannot be enough), and 451 remains the least L with 5."""
    game = Game.parse_size("3x5")
    result = make_planner("optimal:objective=worst").plan(game)
    assert result.figures["proved_depth"] == 5 and result.tree.worst == 5
    assert result.tree.total_guesses == 451


def test_full_tree_bound():
    """One secret at the first guess, 13 at the second, 169 at the third (4 pegs: 13 answers)."""
    bound = full_tree_bounds(200, 13)
    assert bound[1] == 1 and bound[14] == 1 + 2 * 13 and bound[15] == 1 + 2 * 13 + 3
    assert full_tree_bounds(20, 13, depth=2)[15] > 10**9  # 15 secrets cannot be split within 2 guesses


def test_4x6_expected_optimum_is_koyama_lai_5625(game46, tmp_path):
    """Koyama and Lai 1993 (000 Table 3): the optimal strategy needs 5625 guesses in all (4.3403),
    6 at worst. The saved tree is loaded back and replayed over every secret."""
    from mmlab.trees import export

    calls = []
    result = make_planner("optimal").plan(game46, on_progress=lambda done, total: calls.append((done, total)))
    assert result.proved and result.figures["proved_total_guesses"] == 5625
    # The bar moves while a first guess is searched (it stood still for minutes on larger games):
    # each first guess tried counts for PROGRESS_STEPS, its answers' codes searched for a share.
    assert {total for _, total in calls} == {5 * PROGRESS_STEPS}  # (4x6's 5 first guesses up to symmetry)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert any(done % PROGRESS_STEPS for done, _ in calls)
    path = tmp_path / "optimal.json"
    export.save(result.tree, path)
    replay = DecisionTree.build(game46, TreeStrategy(export.load(path)))
    assert (replay.total_guesses, replay.worst) == (5625, result.tree.worst)
    assert round(replay.mean, 4) == 4.3403


def test_4x6_worst_case_needs_and_is_done_in_5_guesses(game46):
    """Knuth 1976 showed 5 guesses suffice; the solver proves 4 do not, and that the least total
    with at most 5 guesses is 5626 (Koyama and Lai's depth-5 figure)."""
    result = make_planner("optimal:objective=worst").plan(game46)
    assert result.figures["proved_depth"] == 5
    replay = DecisionTree.build(game46, TreeStrategy(result.tree))
    assert (replay.worst, replay.total_guesses) == (5, 5626)


def test_time_limit_returns_the_best_tree_found_with_its_bound():
    """Stopped at once, the solver still returns a complete tree (the greedy one) and a bound."""
    game = Game.parse_size("4x5")
    result = make_planner("optimal").plan(game, time_limit=0.0)
    assert not result.proved and result.figures["stopped_by_time_limit"]
    assert result.tree.n_secrets == game.n_codes
    assert result.figures["lower_bound_total_guesses"] <= 2463 <= result.tree.total_guesses
    assert result.figures["tree_from"].startswith("tpoa")  # a saved tree says it is not proved:
    assert result.tree.strategy == "optimal (stopped by the time limit, not proved optimal)"
    # JSON's planner is the spec, as for a plan run to its end ('optimal (stopped by...)' before):
    assert (result.to_dict()["planner"], result.to_dict()["stopped_by_time_limit"]) == ("optimal", True)


def test_tpoa_time_limit_falls_back_to_a_complete_tree():
    game = Game.parse_size("4x5")
    result = make_planner("tpoa:k=20,d=2").plan(game, time_limit=0.0)
    assert result.figures["stopped_by_time_limit"] and result.tree.n_secrets == game.n_codes


def test_worst_objective_stopped_in_time_gives_bounds_that_hold():
    """Stopped while looking for the fewest guesses, the bounds are still bounds: 4x5 needs 5
    guesses in the worst case (``proved_depth`` below) and 2463 in total at best."""
    game = Game.parse_size("4x5")
    result = make_planner("optimal:objective=worst").plan(game, time_limit=0.0)
    figures = result.figures
    assert figures["stopped_by_time_limit"] and result.tree.n_secrets == game.n_codes
    assert figures["lower_bound_depth"] <= 5 <= result.tree.worst
    assert figures["lower_bound_total_guesses"] <= 2463 <= result.tree.total_guesses
    assert make_planner("optimal:objective=worst").plan(game).figures["proved_depth"] == 5


def test_worst_objective_keeps_max_depth():
    """3x4 needs 4 guesses in the worst case: a cap of 3 is refused, a cap of 4 kept."""
    game = Game.parse_size("3x4")
    with pytest.raises(BadArgument, match="within 3 guesses"):
        make_planner("optimal:objective=worst,max_depth=3").plan(game)
    assert make_planner("optimal:objective=worst,max_depth=4").plan(game).tree.worst == 4


def test_plan_command_warns_about_long_runs_of_games_it_can_plan(capsys, monkeypatch):
    from mmlab.cli.main import main
    from mmlab.planners.optimal import Optimal

    monkeypatch.setattr(Optimal, "estimate_seconds", lambda self, game: 7200.0)
    assert main(["plan", "3x3", "--planner", "optimal", "--json"]) == 0
    err = capsys.readouterr().err
    assert "may take about 2 hours on this machine" in err
    # (a time limit stops the search only after the greedy tree it starts from, which it says)
    assert "stops it early with the best tree found, once its greedy tree is complete (about " in err
    assert main(["plan", "5x8", "--planner", "optimal"]) == 2  # refused at once, without the warning
    err = capsys.readouterr().err
    assert "too large for 5x8" in err and "may take" not in err


def test_a_plan_gives_the_rules_of_its_game():
    """to_dict gave the size only: a plan without repeats read as one of the standard game."""
    data = make_planner("optimal").plan(Game.parse_size("3x3", repeats=False, feedback="black")).to_dict()
    assert (data["game"], data["repeats"], data["feedback"]) == ("3x3", False, "black")
    assert list(data)[:4] == ["game", "repeats", "feedback", "planner"]


@pytest.mark.parametrize("limit", [True, False, -1, float("nan"), "5"])
def test_a_time_limit_must_be_a_number_of_seconds(limit):
    """time_limit=True was taken as 1 second (a bool is a number to Python), False as 0."""
    with pytest.raises(BadArgument, match="time_limit must be a number of seconds"):
        make_planner("optimal").plan(Game.parse_size("2x2"), time_limit=limit)


def test_a_depth_of_one_guess_is_said_in_the_singular():
    """'mmlab plan 2x2 --planner optimal:max_depth=1' said "within 1 guesses: that many guesses cannot ..."."""
    with pytest.raises(BadArgument, match="^no strategy for 2x2 finds every secret within 1 guess: one guess cannot "
                                          "tell 4 codes apart$"):
        make_planner("optimal:max_depth=1").plan(Game.parse_size("2x2"))
    with pytest.raises(BadArgument, match="within 2 guesses: that many guesses cannot tell 27 codes apart$"):
        make_planner("optimal:max_depth=2").plan(Game.parse_size("3x3"))


class _StopAfter:
    """A deadline that passes at its first ``checks - 1`` checks and stops the search at the next:
    the search is deterministic, so it stops at the same place at every run."""

    checks = None
    made = 0

    def __init__(self, seconds) -> None:
        pass

    def check(self) -> None:
        _StopAfter.made += 1
        if _StopAfter.checks is not None and _StopAfter.made >= _StopAfter.checks:
            raise Timeout


def test_a_search_stopped_after_finding_a_tree_returns_it(monkeypatch):
    """Stopped at its last check, the search has a tree of its own (4x5: the optimum, 2463, as the
    whole run proves), better than the greedy tree it started from (2475): the best tree known is
    returned, not the greedy one, with a lower bound that holds."""
    from mmlab.planners import optimal

    game = Game.parse_size("4x5")
    monkeypatch.setattr(optimal, "Deadline", _StopAfter)
    _StopAfter.checks, _StopAfter.made = None, 0
    whole = make_planner("optimal").plan(game)
    assert whole.proved and whole.tree.total_guesses == 2463
    _StopAfter.checks, _StopAfter.made = _StopAfter.made, 0  # stop at the last check
    stopped = make_planner("optimal").plan(game)
    assert not stopped.proved and "tree_from" not in stopped.figures
    assert stopped.tree.total_guesses == 2463 < make_planner("tpoa").plan(game).tree.total_guesses == 2475
    # the classes the search solved raise the bound above that of counting alone
    assert counting_bound(game) < stopped.figures["lower_bound_total_guesses"] <= 2463


def counting_bound(game: Game) -> int:
    """The least total that counting alone proves: the best over the first guesses of n plus the
    full-tree bound of each class (000 section 5), from the classes of every first guess."""
    from mmlab.game.kernels import feedback_table

    table = feedback_table(game.all_digits, game.all_counts, True)
    win = game.win.code(game.pegs)
    classes = [np.bincount(row, minlength=game.n_responses) for row in table]
    answers = max(int(np.count_nonzero(np.delete(sizes, win))) for sizes in classes)
    bound = full_tree_bounds(game.n_codes, answers)
    return min(game.n_codes + sum(int(bound[k]) for r, k in enumerate(sizes) if r != win) for sizes in classes)


@pytest.mark.parametrize("objective", ["expected", "worst"])
def test_a_search_stopped_at_once_gives_the_bounds_known_without_searching(objective):
    """Stopped before any set is searched, the bounds are those of counting alone: no depth below
    ``least_depth`` (4 at 4x5) can tell the codes apart, and the least total is ``counting_bound``."""
    from mmlab.planners.base import least_depth

    game = Game.parse_size("4x5")
    figures = make_planner(f"optimal:objective={objective}").plan(game, time_limit=0.0).figures
    assert figures["lower_bound_total_guesses"] == counting_bound(game) <= 2463
    if objective == "worst":
        assert figures["lower_bound_depth"] == least_depth(game) == 4


@pytest.mark.parametrize("size, depth", [("1x2", 2), ("1x3", 3), ("2x2", 2), ("1x5", 5)])
def test_least_depth_counts_a_full_tree_that_just_holds_every_code(size, depth):
    """1x2: one code found by the first guess, one by the second (2 codes, 2 guesses); 1xm: one
    code a guess, m guesses; 2x2: one code first, then one in each of 3 non-winning answers (4 codes,
    2 guesses). The worst objective starts there, so the depth it proves is the least for which a
    brute-force search finds a tree (1x2, 1x3: the counting depth itself)."""
    from mmlab.planners.base import least_depth

    game = Game.parse_size(size)
    assert least_depth(game) == depth
    proved = make_planner("optimal:objective=worst").plan(game).figures["proved_depth"]
    assert brute_force_optimum(game, proved) < float("inf") == brute_force_optimum(game, proved - 1)


def test_the_table_limit_takes_a_table_of_exactly_256_mib():
    """7x4 has 4**7 = 16384 codes: its 16384² table is 256 MiB, the limit, and is taken; 5x7's
    16807 codes are refused (the check builds no table)."""
    from mmlab.planners.optimal import TABLE_LIMIT, Optimal

    assert Game(7, 4).n_codes ** 2 == TABLE_LIMIT
    Optimal().check(Game(7, 4))
    with pytest.raises(BadArgument, match="too large for 5x7"):
        Optimal().check(Game(5, 7))


def test_a_worst_case_search_stopped_keeps_the_shallower_tree_over_the_smaller_total():
    """Under ``objective=worst`` a stopped search returns the shallowest tree it knows, not the
    first of least total: on 4x4 without repeats, black pegs only, the greedy tree it started from
    and the tree searched within depth 5 both take 86 guesses in all, but 6 and 5 at worst (called
    directly: no stop point of a real run was found to leave the search in that state)."""
    from mmlab.knowledge import Knowledge
    from mmlab.planners import optimal

    game = Game.parse_size("4x4", feedback="black", repeats=False)
    greedy = optimal.TPOA(**optimal.GREEDY).plan(game).tree
    search = optimal._Search(game)
    search.solve(Knowledge.initial(game), optimal.INFINITY, 5)
    assert (greedy.total_guesses, greedy.worst) == (86, 6) and search.root_best[0] == 86
    result = optimal.Optimal(objective="worst")._stopped(game, search, greedy, 5, {}, 0.0)
    assert result.tree.worst == 5 and result.figures["proved_depth"] == 5 and "tree_from" not in result.figures
