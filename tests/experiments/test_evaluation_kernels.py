"""``evaluate`` of Singley's deterministic methods over every secret: read off the numba kernels of
``greedy_kernels`` (what ``mmlab reproduce singley`` plays), with the same games per secret as the
decision tree that the other deterministic strategies compile, which plays the scripts."""

import numpy as np
import pytest

from mmlab.cli.main import main
from mmlab.experiments import evaluate
from mmlab.experiments.evaluation import _KernelEvaluation
from mmlab.game import Game
from mmlab.strategies import make_strategy
from mmlab.strategies.greedy import Greedy3
from mmlab.trees import DecisionTree

SPECS = ["greedy1", "greedy2", "greedy3", "local-search", "greedy3:lost_bull=use"]


@pytest.mark.parametrize("spec, size", [(spec, size) for spec in SPECS
                                         for size in ("4x6", "3x5", "5x4", "2x3", "1x7", "3x2")
                                         if not (spec == "greedy2" and size == "3x2")])  # (it needs 3 colours)
def test_the_kernels_give_the_games_of_the_decision_tree(spec, size):
    game = Game.parse_size(size)
    tree = DecisionTree.build(game, make_strategy(spec))  # the scripts, played node by node
    result = evaluate(game, spec)
    assert isinstance(result, _KernelEvaluation) and result._tree is None  # read off the kernels
    assert result.exact and result.secrets == "all" and result.seed is None and result.strategy == spec
    assert np.array_equal(result.codes, np.arange(game.n_codes))
    assert np.array_equal(result.guesses, tree.depths())
    assert np.array_equal(result.known, tree.known_depths())
    assert np.array_equal(result.evaluations, tree.evaluations())  # the methods score no code: all 0
    assert result.game_seconds is None and result.seconds_per_game is None
    by_tree = _tree_evaluation(game, spec).to_dict()
    assert (result.to_dict()["method"], by_tree["method"]) == ("numba kernels", "decision tree")
    assert result.to_dict() | {"seconds": 0, "method": ""} == by_tree | {"seconds": 0, "method": ""}
    assert result.tree.total_guesses == tree.total_guesses  # compiled when read


@pytest.mark.parametrize("spec", ["greedy1", "greedy2"])
def test_black_pegs_only(spec):
    game = Game.parse_size("4x6", feedback="black")
    result = evaluate(game, spec)
    assert isinstance(result, _KernelEvaluation)
    tree = DecisionTree.build(game, make_strategy(spec))
    assert np.array_equal(result.guesses, tree.depths()) and np.array_equal(result.known, tree.known_depths())


def _tree_evaluation(game, spec):
    """The evaluation through the decision tree, as before the kernels: a subclass the kernels do not
    know, playing the same script."""
    strategy = make_strategy(spec)
    twin = type("Twin", (type(strategy),), {})(**strategy.values)
    result = evaluate(game, twin)
    assert not isinstance(result, _KernelEvaluation)
    result.strategy = spec
    return result


def test_what_the_kernels_do_not_play_compiles_the_tree(game46):
    sample = evaluate(game46, "greedy3", secrets=40, seed=3)  # a sample: the branches it reaches
    assert not isinstance(sample, _KernelEvaluation) and not sample.exact and sample.tree.n_secrets == 40
    chosen = evaluate(game46, "greedy3", secrets=list(range(game46.n_codes)))  # chosen, if all of them
    assert not isinstance(chosen, _KernelEvaluation) and not chosen.exact

    class Other(Greedy3):  # may play otherwise
        name = "greedy3"

    assert not isinstance(evaluate(game46, Other()), _KernelEvaluation)
    lost = Greedy3()
    lost.values["lost_bull"] = "maybe"  # not a value the kernel knows
    assert not isinstance(evaluate(game46, lost), _KernelEvaluation)
    scripted = Greedy3()
    scripted.script = lambda game: Greedy3.script(scripted, game)  # set on the object: not as its spec builds it
    result = evaluate(game46, scripted)
    assert not isinstance(result, _KernelEvaluation) and result.total_guesses == 12585


def test_every_secret_given_as_a_number_is_read_off_the_kernels(game46):
    result = evaluate(game46, "greedy2", secrets=5000, seed=9)
    assert isinstance(result, _KernelEvaluation) and result.exact and result.seed == 9
    assert result.total_guesses == 14256
    assert result.method == result.to_dict()["method"] == "numba kernels"
    assert result._tree is None  # (saying so compiles no tree)
    assert evaluate(game46, "greedy2", secrets=40, seed=9).method == "decision tree"


def test_progress_and_threads(game46):
    progress = []
    result = evaluate("6x9", "greedy3", on_progress=lambda done, total: progress.append((done, total)), jobs=2)
    assert progress[0] == (0, 9**6) and progress[-1] == (9**6, 9**6)
    assert result.exact and result.games == 9**6 and result.known.max() == 9 + 6 * 7 // 2 - 2  # 003: m + n(n+1)/2 - 2
    assert result.total_guesses == evaluate("6x9", "greedy3", jobs=1).total_guesses
    with pytest.raises(Exception, match="jobs must be at least 1"):
        evaluate(game46, "greedy3", jobs=0)


def test_jobs_set_the_kernels_threads_for_the_evaluation_alone(monkeypatch):
    """test_progress_and_threads gives the same games with jobs=1 and 2, which it would if jobs
    were ignored: the kernels run on jobs threads (at most numba's), and on as many as before after."""
    import numba

    before = numba.get_num_threads()
    calls = []
    set_threads = numba.set_num_threads
    monkeypatch.setattr(numba, "set_num_threads", lambda n: (calls.append(n), set_threads(n))[1])
    evaluate("3x4", "greedy3", jobs=1)
    assert calls == [1, before] and numba.get_num_threads() == before
    calls.clear()
    evaluate("3x4", "greedy3", jobs=50)
    assert calls == [numba.config.NUMBA_NUM_THREADS, before]


#: ``mmlab eval 4x6 --strategy SPEC``: the table's figures (all but the seconds) and what follows it.
EVAL_46 = {
    "greedy1": ("18491", "14.2677", "24", "14", "3.3802", None),
    "greedy2": ("14256", "11.0000", "18", "11", "2.8175", "mean 10.8002, median 11, max 17"),
    "greedy3": ("12585", "9.7106", "14", "10", "2.0105", None),
    "local-search": ("11750", "9.0664", "12", "9", "1.9685", None),
    "greedy3:lost_bull=use": ("11075", "8.5455", "12", "9", "1.5173", "mean 8.1551, median 8, max 11"),
}


@pytest.mark.parametrize("spec", SPECS)
def test_mmlab_eval_prints_what_the_tree_gave(capsys, spec):
    assert main(["eval", "4x6", "--strategy", spec]) == 0
    out = capsys.readouterr().out
    assert f"4x6: {spec} (exact, numba kernels)" in out  # (the games of its tree, not read off one)
    row = next(line for line in out.splitlines() if line.startswith("│  1296"))
    total, mean, worst, median, std, until_known = EVAL_46[spec]
    assert [cell.strip() for cell in row.strip("│").split("│")][:6] == ["1296", total, mean, worst, median, std]
    assert ("guesses until the code was known" in out) == (until_known is not None)
    if until_known:
        assert until_known in out
    assert "codes evaluated" not in out
