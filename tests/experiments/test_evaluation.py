import numpy as np
import pytest

import mmlab
from mmlab.errors import SpaceTooLarge
from mmlab.experiments import evaluate, play_game
from mmlab.game import Game
from mmlab.strategies import make_strategy


def test_exact_evaluation_equals_replaying_every_secret():
    game = Game.parse_size("3x4")
    result = evaluate(game, "most-parts")
    replayed = [play_game(game, make_strategy("most-parts"), s).n_guesses for s in range(game.n_codes)]
    assert result.exact and result.guesses.tolist() == replayed
    assert result.total_guesses == sum(replayed)


@pytest.mark.parametrize("spec", ["knuth", "greedy2"])
def test_a_sample_of_secrets_explores_only_their_branches(game46, spec):
    """A deterministic strategy against a sample: the same games as its whole tree gives them,
    read off the part of the tree the sample reaches."""
    whole = evaluate(game46, spec)
    progress = []
    part = evaluate(game46, spec, secrets=40, seed=3, on_progress=lambda done, total: progress.append((done, total)))
    codes = np.flatnonzero(part.tree.depths())
    assert not part.exact and part.games == codes.size == part.tree.n_secrets == 40
    for figure in ("guesses", "evaluations", "known"):
        assert np.array_equal(getattr(part, figure), getattr(whole, figure)[codes]), figure
    assert part.tree.n_nodes < whole.tree.n_nodes / 4
    assert progress[-1] == (40, 40)


def test_a_decision_tree_is_evaluated_as_it_plays(game46, tmp_path):
    from mmlab.trees import DecisionTree, load, save

    save(DecisionTree.build(game46, make_strategy("knuth")), tmp_path / "knuth.json")
    result = evaluate(game46, load(tmp_path / "knuth.json"))
    assert result.exact and result.total_guesses == 5801 and result.strategy == "tree:knuth"


def test_random_evaluation_is_reproducible_by_seed():
    game = Game.parse_size("3x4")
    a = evaluate(game, "random", runs=3, seed=7)
    b = evaluate(game, "random", runs=3, seed=7)
    c = evaluate(game, "random", runs=3, seed=8)
    assert not a.exact and a.games == 3 * game.n_codes
    assert np.array_equal(a.guesses, b.guesses)
    assert not np.array_equal(a.guesses, c.guesses)


def test_worker_processes_play_the_same_games(pools_started):
    from mmlab.experiments import evaluation

    game = Game.parse_size("3x4")
    progress = []
    serial = evaluate(game, "sample:sample=20", runs=2, seed=4)
    pools = pools_started(evaluation)
    parallel = evaluate(game, "sample:sample=20", runs=2, seed=4, jobs=2,
                        on_progress=lambda done, total: progress.append((done, total)))
    assert pools == [2]  # (played by two worker processes, not here)
    for figure in ("guesses", "evaluations", "known"):
        assert np.array_equal(getattr(serial, figure), getattr(parallel, figure)), figure
    assert progress[-1] == (2 * game.n_codes, 2 * game.n_codes)
    assert [done for done, _ in progress] == sorted(done for done, _ in progress)


def test_who_plays_in_worker_processes(monkeypatch):
    from mmlab.experiments import evaluation
    from mmlab.experiments.evaluation import simulation_workers
    from mmlab.strategies.base import Strategy

    monkeypatch.setattr(evaluation.os, "cpu_count", lambda: 3)
    assert simulation_workers(Game.parse_size("4x6"), make_strategy("random"), None, 1296) == 1  # small game
    assert simulation_workers(Game.parse_size("5x8"), make_strategy("random"), None, 32768) == 3  # one a core
    assert simulation_workers(Game.parse_size("8x12"), make_strategy("random"), None, 100) == 3  # not enumerable
    assert simulation_workers(Game.parse_size("5x8"), make_strategy("random"), 2, 32768) == 2
    assert simulation_workers(Game.parse_size("5x8"), make_strategy("random"), 2, 10) == 1  # one task

    class Homemade(Strategy):  # not in the registry: a worker could not rebuild it
        name = "random"

    assert simulation_workers(Game.parse_size("5x8"), Homemade(), 2, 32768) == 1


def test_sample_of_secrets_and_summary_keys(game46):
    result = evaluate(game46, "knuth", secrets=100, seed=3)
    assert result.games == 100 and result.secrets == "sample of 100"
    d = result.to_dict()
    for key in ("game", "strategy", "games", "total_guesses", "mean", "max", "histogram", "seconds"):
        assert key in d
    assert sum(d["histogram"].values()) == 100


def test_every_game_is_won_by_every_strategy(game46):
    rng = np.random.default_rng(5)
    for name in ("random", "plus", "plus2", "entropy:ties=random", "knuth:pool=consistent,ties=random"):
        for secret in rng.choice(game46.n_codes, 20, replace=False):
            record = play_game(game46, make_strategy(name), int(secret), np.random.default_rng(int(secret)))
            assert record.won and record.guesses[-1] == secret and record.n_guesses <= 9


@pytest.mark.parametrize("kwargs, message", [({"runs": 0}, "runs must be at least 1"),
                                             ({"secrets": 0}, "secrets must be"),
                                             ({"secrets": "1122"}, (r"secrets must be 'all', a whole number of secrets "
                                                                    r"or some codes \(e\.g\. \['1122', '3632'\]\), got '1122'")),
                                             ({"seed": -1}, "seed must be 0 or more")])
def test_bad_arguments_are_refused(game46, kwargs, message):
    from mmlab.errors import BadArgument

    with pytest.raises(BadArgument, match=message):
        evaluate(game46, "random", **kwargs)


def test_the_seed_of_a_sample_is_recorded(game46):
    a = evaluate(game46, "knuth", secrets=100)
    b = evaluate(game46, "knuth", secrets=100, seed=a.seed)
    assert a.seed is not None and np.array_equal(a.guesses, b.guesses)


def test_play_game_records_the_dialogue(game46):
    record = mmlab.play_game(game46, make_strategy("knuth"), game46.parse("3632"))
    assert [game46.format(g) for g in record.guesses] == ["1122", "1344", "3526", "1462", "3632"]
    assert record.won and record.feedbacks[-1] == game46.win


def test_huge_game_is_refused_with_the_strategy_named():
    with pytest.raises(SpaceTooLarge, match="knuth needs every code"):
        evaluate(Game.parse_size("8x12"), "knuth", secrets=10)


def test_a_random_strategy_that_never_wins_is_refused_in_a_short_message():
    """It raised a RuntimeError listing all of the game's moves: 12,996 characters at 4x6 (helper-115)."""
    from mmlab.errors import SearchFailed
    from mmlab.strategies import Strategy

    class Stuck(Strategy):
        name, deterministic = "stuck", False

        def guess(self, knowledge):
            return 0

    with pytest.raises(SearchFailed, match=r"^stuck did not find the secret (\d{4}) \(run 0\) in 1,296 guesses, as many "
                                           r"as 4x6 has codes: it makes no progress\. Its first moves: 1111 \d,0, "
                                           r"(1111 \d,0, ){3}1111 \d,0, \.\.\.$"):
        evaluate("4x6", Stuck(), secrets=2, seed=1)


def test_a_tree_of_some_secrets_is_evaluated_over_them_and_refuses_others():
    """evaluate(game, partial_tree) ended in 'the tree has no move after 1122 -> 2,0' (helper-115)."""
    from mmlab.errors import BadArgument
    from mmlab.trees import DecisionTree

    part = DecisionTree.build("4x6", "knuth", secrets=["1122", "3632"])
    with pytest.raises(BadArgument, match=r"the tree covers only the 2 secrets it was built over \(DecisionTree\.build"
                                          r"\(\.\.\., secrets=\.\.\.\)\), and 1,294 of the secrets asked are others "
                                          r"\(e\.g\. 1111\): evaluate it over its own"):
        evaluate("4x6", part)
    own = evaluate("4x6", part, secrets=np.flatnonzero(part.depths()))
    assert own.games == 2 and own.total_guesses == 1 + 5  # (1122 at once; 3632 in five, as Knuth finds it)


def test_evaluations_are_counted_per_game_and_agree_between_tree_and_replay():
    """001's metric, "combinations evaluated": the tree's per-secret totals equal a replay's."""
    game = Game.parse_size("3x4")
    exact = evaluate(game, "knuth")
    replayed = [play_game(game, make_strategy("knuth"), s).total_evaluations for s in range(game.n_codes)]
    assert exact.evaluations.tolist() == replayed
    d = evaluate(game, "random", seed=1).to_dict()
    assert d["evaluations_mean"] > 0 and d["evaluations_max"] >= d["evaluations_mean"]


def test_knowledge_without_enumeration_checks_codes_against_the_history():
    from mmlab.knowledge import Knowledge

    game = Game.parse_size("8x12")
    secret, guess = game.parse("1 2 3 4 5 6 7 8"), game.parse("1 1 2 2 3 3 4 4")
    k = Knowledge.initial(game).update(guess, game.score(secret, guess))
    assert not k.explicit and k.is_consistent(secret) and not k.is_consistent(guess)


def test_evaluate_takes_a_size_and_says_which_secret_each_game_had():
    tree = evaluate("4x6", "knuth", secrets=5, seed=3)
    assert np.array_equal(evaluate("4x6", "knuth", secrets=np.int64(5), seed=3).codes, tree.codes)
    assert tree.game == Game.parse_size("4x6") and tree.codes.shape == (5,)
    assert [play_game(tree.game, "knuth", int(s)).n_guesses for s in tree.codes] == tree.guesses.tolist()
    played = evaluate("4x6", "random", secrets=4, runs=2, seed=3)
    assert played.codes.tolist() == played.codes[:4].tolist() * 2  # run by run
    again = evaluate("4x6", "random", secrets=4, runs=2, seed=3)
    assert played != again and played == played  # compared by identity: the seconds always differ
    assert np.array_equal(played.guesses, again.guesses)
    from mmlab.errors import BadArgument

    with pytest.raises(BadArgument, match="got True"):
        evaluate("4x6", "random", secrets=True)
    with pytest.raises(BadArgument, match="a seed must be a whole number, 0 or more, got 1.5"):
        evaluate("4x6", "random", seed=1.5)  # a TypeError from numpy before
    with pytest.raises(BadArgument, match="runs must be a whole number, got '2'"):
        evaluate("4x6", "random", runs="2")
    assert evaluate("4x6", "random", secrets=np.int64(3), runs=np.int32(2), seed=np.int64(1)).games == 6


def test_by_default_worker_processes_start_only_when_the_games_would_take_long(monkeypatch, pools_started):
    """``jobs=None`` on a game of more than ``PARALLEL_MIN_CODES`` codes: a few quick games are
    played here (no worker starts); games that would take long go to workers after the first
    ones, and the games are the same either way."""
    from mmlab.experiments import evaluation

    game = Game.parse_size("5x8")
    serial = evaluate(game, "random", secrets=40, seed=3, jobs=1)

    class NoPool:
        def __init__(self, workers):
            raise AssertionError("a worker pool was started for 40 quick games")

    with monkeypatch.context() as m:
        m.setattr(evaluation, "WorkerPool", NoPool)
        m.setattr(evaluation, "PROBE_SECONDS", 1e9)  # (so that a slow machine cannot make them look long)
        quick = evaluate(game, "random", secrets=40, seed=3, jobs=None)
    assert np.array_equal(quick.guesses, serial.guesses)

    pools = pools_started(evaluation)
    monkeypatch.setattr(evaluation, "PROBE_SECONDS", 0.0)  # as if every game were slow
    monkeypatch.setattr(evaluation, "POOL_WORTH_SECONDS", 0.0)
    monkeypatch.setattr(evaluation.os, "cpu_count", lambda: 2)
    progress = []
    slow = evaluate(game, "random", secrets=40, seed=3, jobs=None, on_progress=lambda done, total: progress.append(done))
    assert pools == [2] and np.array_equal(slow.guesses, serial.guesses)
    assert progress[-1] == 40 and progress == sorted(progress)


def test_per_game_lists_each_game_in_the_order_played():
    """One row a game: its run (from 0, as seeded), secret, guesses, known, evaluations, seconds."""
    tree = evaluate("4x6", "knuth", secrets=["1122", "3632"]).per_game()
    assert [(r["run"], r["secret"], r["guesses"], r["seconds"]) for r in tree] == [(0, "1122", 1, None),
                                                                                 (0, "3632", 5, None)]
    played = evaluate("3x3", "random", runs=2, seed=1)
    rows = played.per_game()
    assert [r["run"] for r in rows] == [0] * 27 + [1] * 27
    assert [r["secret"] for r in rows] == [played.game.format(c) for c in range(27)] * 2
    assert [r["guesses"] for r in rows] == played.guesses.tolist()
    assert [r["known"] for r in rows] == played.known.tolist()
    assert all(r["seconds"] > 0 for r in rows) and "interrupted" not in played.to_dict()


def test_an_evaluation_is_a_frame_of_games_for_the_statistics_and_the_plots():
    """to_frame has the store's columns that stats and plots read: summary gives the evaluation's
    own figures, two evaluations over the same secrets pair up game by game (run, slot), and a
    randomised one's runs are numbered as its games were seeded."""
    import pandas as pd

    from mmlab.experiments import plots, stats

    knuth, entropy = evaluate("4x6", "knuth"), evaluate("4x6", "entropy")
    frame = knuth.to_frame()
    assert list(frame.columns) == ["strategy", "size", "run", "slot", "secret", "guesses", "won", "known",
                                   "evaluations", "seconds"]
    assert frame["secret"].tolist() == [row["secret"] for row in knuth.per_game()]
    assert frame["guesses"].tolist() == knuth.guesses.tolist() and frame["seconds"].isna().all()
    row = stats.summary(frame).iloc[0]
    assert (row["strategy"], row["size"], row["games"], row["total"], row["max"]) == ("knuth", "4x6", 1296, 5801, 5)
    assert row["mean"] == knuth.mean and row["known_mean"] == knuth.known.mean()
    test = stats.wilcoxon(pd.concat([frame, entropy.to_frame()]), "entropy", "knuth")
    assert test.games == 1296 and test.mean_difference == (entropy.guesses - knuth.guesses).mean()
    figure = plots.guesses_histogram(pd.concat([frame, entropy.to_frame()]))
    assert [line.get_ydata().tolist()[:5] for line in figure.axes[0].lines] == [[1, 6, 62, 533, 694],
                                                                               [1, 4, 71, 612, 596]]
    played = evaluate("3x3", "random", runs=2, seed=1).to_frame()
    assert played["run"].tolist() == [0] * 27 + [1] * 27 and played["slot"].tolist() == list(range(27)) * 2
    assert (played["seconds"] > 0).all() and played["won"].all()


def _without_seconds(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_ctrl_c_keeps_the_games_finished(jobs):
    """A KeyboardInterrupt during simulated games raises EvaluationInterrupted with the first
    games, as they would have been played; the workers are stopped."""
    import multiprocessing
    import time

    from mmlab.experiments.evaluation import EvaluationInterrupted

    whole = evaluate("3x4", "random", runs=2, seed=4)
    done = []

    def ctrl_c(finished: int, total: int) -> None:
        if finished >= 32:
            done.append(finished)
            raise KeyboardInterrupt

    with pytest.raises(EvaluationInterrupted) as stop:
        evaluate("3x4", "random", runs=2, seed=4, jobs=jobs, on_progress=ctrl_c)
    part = stop.value.evaluation
    assert isinstance(stop.value, KeyboardInterrupt) and stop.value.planned == 128
    assert part.interrupted and part.games == done[0] < 128 and part.planned == 128
    assert _without_seconds(part.per_game()) == _without_seconds(whole.per_game())[:part.games]
    keys = ["run", "slot", "secret", "guesses", "known", "evaluations"]  # (each game its run and its secret's slot)
    assert part.to_frame()[keys].equals(whole.to_frame()[keys].iloc[:part.games])
    assert part.to_dict()["interrupted"] is True and part.to_dict()["games_planned"] == 128
    for _ in range(100):  # (terminated, they are gone in a moment)
        if not multiprocessing.active_children():
            break
        time.sleep(0.05)
    assert multiprocessing.active_children() == []


def test_a_ctrl_c_that_lands_in_a_numba_kernel_keeps_the_games_finished(monkeypatch):
    """numba makes a Ctrl-C inside a kernel a SystemError ('returned a result with an exception
    set') caused by it: 'mmlab eval 8x12 --strategy shc' printed only 'interrupted', its games lost."""
    from mmlab.experiments import evaluation

    real, played = evaluation.play_seeded, []

    def ctrl_c_in_a_kernel(*args):
        if len(played) == 5:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as ctrl_c:
                raise SystemError("CPUDispatcher(...) returned a result with an exception set") from ctrl_c
        played.append(args)
        return real(*args)

    monkeypatch.setattr(evaluation, "play_seeded", ctrl_c_in_a_kernel)
    with pytest.raises(evaluation.EvaluationInterrupted) as stop:
        evaluate("3x4", "random", seed=4, jobs=1)
    assert stop.value.evaluation.games == 5 and stop.value.planned == 64


def test_a_ctrl_c_before_any_game_ended_leaves_no_evaluation(monkeypatch):
    from mmlab.experiments import evaluation

    def ctrl_c(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(evaluation, "play_seeded", ctrl_c)
    with pytest.raises(evaluation.EvaluationInterrupted) as stop:
        evaluate("3x4", "random", seed=4)
    assert stop.value.evaluation is None and stop.value.planned == 64


def test_an_interruption_pickles_with_its_games():
    """A custom __init__ made it fail to unpickle (its arguments were not the message's)."""
    import pickle

    from mmlab.experiments import EvaluationInterrupted

    stop = pickle.loads(pickle.dumps(EvaluationInterrupted(evaluate("3x3", "knuth"), 30)))
    assert (stop.planned, stop.evaluation.games, str(stop)) == (30, 27, "interrupted after 27 of 30 games")


def test_settings_changed_in_python_play_in_this_process():
    """A worker rebuilds the strategy from its spec, which does not name the settings set in Python
    after it was built: such a strategy plays here (jobs=2 gave plain shc's 6.18 where jobs=1 gave 6.34)."""
    game = Game.parse_size("6x8")
    tuned = make_strategy("shc")
    tuned.shift_avoid_same = True  # class-level defaults of shc, not in its spec
    tuned.fps_per_peg = True
    one = evaluate(game, tuned, secrets=200, seed=3, jobs=1)
    two = evaluate(game, tuned, secrets=200, seed=3, jobs=2)
    assert np.array_equal(one.guesses, two.guesses) and round(one.mean, 2) == 6.34
    assert round(evaluate(game, "shc", secrets=200, seed=3, jobs=2).mean, 2) == 6.18  # (plain shc)

    from mmlab.experiments.evaluation import _as_built, simulation_workers

    smaller = make_strategy("ga")
    smaller.pop = 20  # set from its spec when built
    for strategy in (tuned, smaller):
        assert not _as_built(strategy, game) and simulation_workers(game, strategy, 2, 200) == 1
    # and a subclass or a method set on the object is no Singley method for the kernels
    script = make_strategy("greedy3")
    script.script = lambda game: iter(())
    assert not _as_built(script, game)


@pytest.mark.parametrize("spec", ["shc", "ga", "evo:pop=60", "tabu", "sample", "random", "most-parts:ties=random"])
def test_what_a_strategy_keeps_while_playing_is_no_setting(spec):
    """The random generator, counters and caches that start and guess set do not keep a strategy
    that has played from worker processes."""
    from mmlab.experiments.evaluation import _as_built, simulation_workers

    game = Game.parse_size("4x6")
    strategy = make_strategy(spec)
    assert _as_built(strategy, game)  # not started yet
    for secret in (3, 100, 777):
        play_game(game, strategy, secret, np.random.default_rng(secret))
    strategy.start(game)  # as evaluate does
    assert _as_built(strategy, game) and simulation_workers(Game.parse_size("5x8"), strategy, 2, 1000) == 2


def test_the_figures_of_a_simulated_evaluation_are_numpys_of_its_games():
    """What 'mmlab eval --json' gives beside the mean (001's codes evaluated, 003's guesses until
    known): each the direct computation over the games, the spreads with ddof=1."""
    e = evaluate("3x4", "entropy:ties=random", runs=2, seed=3)
    d = e.to_dict()
    assert d["games"] == 128 and d["total_guesses"] == e.guesses.sum() and d["max"] == e.guesses.max()
    assert d["median"] == np.median(e.guesses) and d["std"] == pytest.approx(e.guesses.std(ddof=1))
    assert d["stderr"] == pytest.approx(e.guesses.std(ddof=1) / np.sqrt(128))
    for name, values in (("evaluations", e.evaluations), ("known", e.known)):
        assert values.min() < values.max()  # (figures that vary, so each spread tells ddof apart)
        assert d[f"{name}_mean"] == pytest.approx(values.mean()) and d[f"{name}_max"] == values.max()
        assert d[f"{name}_std"] == pytest.approx(values.std(ddof=1), rel=1e-12)
    assert d["known_median"] == np.median(e.known) != e.known.mean()


def test_a_sample_of_every_code_or_more_is_every_code_and_exact():
    """evaluate's secrets=N of at least the codes plays each once: for a deterministic strategy the
    exact figures of secrets='all', not a sample's estimate (3x3: 27 codes)."""
    every = evaluate("3x3", "knuth")
    for n in (27, 30):
        e = evaluate("3x3", "knuth", secrets=n)
        assert (e.secrets, e.exact, e.stderr, e.total_guesses) == ("all", True, 0.0, every.total_guesses), n
    assert not evaluate("3x3", "knuth", secrets=26, seed=1).exact
