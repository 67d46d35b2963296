import numpy as np
import pytest

from mmlab.errors import BadCode, SpaceTooLarge, UnknownStrategy
from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import REGISTRY, make_strategy, parse_spec


def test_spec_round_trip():
    s = make_strategy("most-parts:pool=consistent,ties=random")
    assert s.values == {"pool": "consistent", "ties": "random", "first": ""}
    assert make_strategy(s.spec).values == s.values
    assert make_strategy("norvig").values["pool"] == "consistent"


def test_a_spec_typed_full_width_is_the_same_strategy_and_label():
    """knuth:first=１１２２ played as 1122 but kept its label as typed, so a study or eval --json named
    it apart from knuth:first=1122 (helper-83's report)."""
    assert make_strategy("knuth:first=１１２２").spec == make_strategy("knuth:first=1122").spec == "knuth:first=1122"
    assert make_strategy("ｍｏｓｔ－ｐａｒｔｓ：ｔｉｅｓ＝ｒａｎｄｏｍ").spec == "most-parts:ties=random"
    assert make_strategy("evo:pop=\uff11\uff12").spec == "evo:pop=12"  # (refused before, to keep labels ASCII)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("knuht", "unknown strategy 'knuht'"),
        ("tpoa:k=5", "tpoa is not a strategy but a planner: 'mmlab plan SIZE --planner tpoa"),
        ("propagate", "propagate is not a strategy but a 2-D strategy: 'mmlab mm2 play"),
        ("knuth:depth=3", "knuth has no parameter 'depth'"),
        ("knuth:pool=some", "pool='some' is not allowed; choose one of all, consistent"),
        ("knuth:pool", "should be key=value"),
        ("knuth:first=1122,first=1234", "'first' is given twice"),
        # whole numbers are digits only (full-width ones read as ASCII), and fit the kernels' int64
        ("evo:pop=+12", "pop='\\+12' should be a whole number"),
        ("evo:pop=1_000", "pop='1_000' should be a whole number"),
        ("evo:generations=99999999999999999999", "generations=99999999999999999999 is out of range; it must be at most "
                                                  "9223372036854775807"),
        ("ga:reset=-99999999999999999999", "reset=-99999999999999999999 is out of range; it must be at least -1"),
        ("ga:extend=" + "9" * 5000, "extend=9999.*9999 is out of range"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec, message):
    with pytest.raises(UnknownStrategy, match=message):
        make_strategy(spec)


def test_parameters_given_in_python_are_checked_as_a_spec_would_check_them():
    from mmlab.planners.tpoa import TPOA
    from mmlab.strategies.exhaustive import Knuth
    from mmlab.strategies.hill_climb import StochasticHillClimber

    # a misspelt tie rule used to make Knuth nondeterministic, and be simulated instead of compiled
    with pytest.raises(UnknownStrategy, match="ties='firts' is not allowed; choose one of first, random"):
        Knuth(ties="firts")
    with pytest.raises(UnknownStrategy, match="pool='consistant' is not allowed"):
        Knuth(pool="consistant")
    with pytest.raises(UnknownStrategy, match="ties=True should be a text"):
        Knuth(ties=True)
    with pytest.raises(UnknownStrategy, match="sample='1.5' should be a whole number from 1 to 1,000,000, or auto"):
        make_strategy("sample", sample=1.5)  # (it said "should be a text"; helper-120)
    with pytest.raises(UnknownStrategy, match="fps=4.5 should be a whole number"):
        StochasticHillClimber(fps=4.5)
    assert StochasticHillClimber(fps="45").values["fps"] == StochasticHillClimber(fps=np.int64(45)).values["fps"] == 45
    for fps in ("200", np.int64(200), 0):  # read as numbers, then held to 1..100
        with pytest.raises(UnknownStrategy, match=f"fps={int(fps)} is out of range"):
            StochasticHillClimber(fps=fps)
    with pytest.raises(UnknownStrategy, match="fps=101 is out of range; it must be from 1 to 100"):
        make_strategy("shc:fps=101")
    assert TPOA(k="5").spec == TPOA(k=5).spec == "tpoa:k=5"
    assert Knuth(first=1123).spec == "knuth:first=1123"


def test_the_names_that_are_not_codebreakers_are_the_planners_and_the_2d_strategies():
    from mmlab.planners import PLANNERS
    from mmlab.strategies.registry import NOT_CODEBREAKERS
    from mmlab.variants import STRATEGIES_2D

    assert set(NOT_CODEBREAKERS) == (set(PLANNERS) | set(STRATEGIES_2D)) - set(REGISTRY)  # (tabu is both)


def test_bad_first_guess_is_refused_at_start(game46):
    with pytest.raises(BadCode):
        make_strategy("knuth:first=1127").start(game46)


def test_enumerating_strategies_refuse_huge_games_and_name_what_can_play():
    for name, cls in REGISTRY.items():
        if cls.needs_enumeration:
            with pytest.raises(SpaceTooLarge, match=f"{name} needs every code.*without enumerating: evo, ga, greedy1, greedy2, greedy3, local-search, random, sample, shc, tabu"):
                make_strategy(name).start(Game.parse_size("10x36"))


def test_random_plays_games_too_large_to_enumerate():
    from mmlab.experiments import evaluate

    result = evaluate(Game.parse_size("8x12"), "random", secrets=5, seed=2)
    assert result.games == 5 and result.max < 20


def test_whole_numbers_may_have_leading_zeros_and_spaces():
    assert make_strategy("ga:generations=000000000000000000000005").values["generations"] == 5
    assert make_strategy("ga:generations= 7 ").values["generations"] == 7


def test_parse_spec_keeps_raw_values():
    assert parse_spec(" entropy : first=1234 , ties=random ") == ("entropy", {"first": "1234", "ties": "random"})


@pytest.mark.parametrize(
    "name, first", [("knuth", "1122"), ("most-parts", "1123"), ("irving", "1123"), ("entropy", "1234")]
)
def test_default_first_guesses_on_4x6(game46, name, first):
    """The issue's reading of each criterion's own best first guess under ties=first."""
    s = make_strategy(name)
    s.start(game46)
    assert game46.format(s.guess(Knowledge.initial(game46))) == first


def test_an_empty_first_guess_means_the_strategys_own(game46):
    for name, own in (("knuth", "1122"), ("shc", "1122")):
        strategy = make_strategy(f"{name}:first=")
        strategy.start(game46, np.random.default_rng(0))
        assert game46.format(strategy.guess(Knowledge.initial(game46))) == own


@pytest.mark.parametrize("spec, message", [("evo:pop=1000001", "pop=1000001 is out of range; it must be from 2 to 1000000"),
                                           ("ga:pop=1000000000000", "it must be from 0 to 1000000"),
                                           ("ga:variant=berghman,eligible=10000000", "eligible=10000000 is out of range")])
def test_populations_and_collections_too_large_to_allocate_are_refused(spec, message):
    with pytest.raises(UnknownStrategy, match=message):
        make_strategy(spec)


def test_raised_effort_names_the_search_parameters_set_above_their_defaults():
    assert make_strategy("sample:score=most-parts,ties=first").raised_effort == []
    assert make_strategy("sample:sample=5000,endgame=50").raised_effort == ["sample=5000", "endgame=50"]
    assert make_strategy("ga:variant=berghman,generations=500").raised_effort == ["generations=500"]


def test_a_strategy_made_outside_mmlab_registers_and_plays_everywhere():
    from mmlab.experiments import evaluate
    from mmlab.strategies import Strategy, register

    class FirstConsistent(Strategy):
        name = "first-consistent-test"
        summary = "the lowest consistent code"

        def guess(self, knowledge: Knowledge) -> int:
            return int(knowledge.consistent[0])

    try:
        assert register(FirstConsistent) is FirstConsistent and register(FirstConsistent) is FirstConsistent
        result = evaluate("4x6", "first-consistent-test")
        assert result.exact and result.total_guesses == 7471 and result.max == 9  # as a pure-Python replay gives
        from mmlab.experiments.evaluation import simulation_workers
        from mmlab.experiments.runner import run_study
        from mmlab.experiments.study import Study
        from mmlab.errors import BadArgument

        # worker processes would not know it: it plays here, and no cluster is tried
        assert simulation_workers(Game.parse_size("5x8"), make_strategy("first-consistent-test"), 2, 1000) == 1
        assert simulation_workers(Game.parse_size("5x8"), make_strategy("knuth"), 2, 1000) == 2
        with pytest.raises(BadArgument, match="registered in this process only"):
            run_study(Study("local", ["3x3"], ["first-consistent-test"]), None, scheduler="tcp://127.0.0.1:1")
        with pytest.raises(SpaceTooLarge):  # needs_enumeration is the default: refused at start, in one line
            make_strategy("first-consistent-test").start(Game.parse_size("8x12"))

        class Impostor(FirstConsistent):
            pass

        with pytest.raises(UnknownStrategy, match="is taken by FirstConsistent"):
            register(Impostor)
        Impostor.name = "bad;name"
        with pytest.raises(UnknownStrategy, match="cannot be a spec name"):
            register(Impostor)
    finally:
        REGISTRY.pop("first-consistent-test", None)


def test_a_spec_that_is_not_a_text_is_refused_clearly():
    """make_strategy(5) and make_planner(5) ended in AttributeError: 'int' object has no attribute 'strip'."""
    from mmlab.planners import make_planner

    with pytest.raises(UnknownStrategy, match=r"a strategy is named by a spec text such as 'knuth', got 5 \(int\)"):
        make_strategy(5)
    with pytest.raises(UnknownStrategy, match=r"a planner is named by a spec text such as 'tpoa', got None"):
        make_planner(None)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_a_guess_before_start_or_from_another_game_is_refused_saying_to_start(name):
    """Every strategy's guess, asked before start (knuth failed with 'no attribute _fixed_first', a
    strategy of one's own with 'NoneType' object has no attribute 'n_codes'), or after a start on
    another game, says to start it on the knowledge's game; started so, it guesses."""
    from mmlab.errors import BadArgument

    strategy, game = make_strategy(name), Game.parse_size("4x6")
    with pytest.raises(BadArgument, match=rf"^{name}\S*: call start\(game\) before guess, once a game"):
        strategy.guess(Knowledge.initial(game))
    strategy.start(Game.parse_size("3x4"), np.random.default_rng(0))
    with pytest.raises(BadArgument, match=r"was started on 3x4, and the knowledge is of 4x6: call start\(game\)"):
        strategy.guess(Knowledge.initial(game))
    strategy.start(game, np.random.default_rng(0))
    assert 0 <= strategy.guess(Knowledge.initial(game, explicit=strategy.tracks_consistent_set)) < game.n_codes


def test_a_strategy_of_ones_own_and_its_subclass_refuse_to_guess_before_start():
    from mmlab.errors import BadArgument
    from mmlab.strategies import Strategy

    class Lowest(Strategy):
        name = "lowest-test"

        def guess(self, knowledge: Knowledge) -> int:
            return int(np.arange(self.game.n_codes)[knowledge.consistent][0])

    class Highest(Lowest):
        name = "highest-test"

        def guess(self, knowledge: Knowledge) -> int:
            return int(knowledge.consistent[-1]) if knowledge.history else super().guess(knowledge)

    for kind in (Lowest, Highest):
        with pytest.raises(BadArgument, match=r"-test: call start\(game\) before guess"):
            kind().guess(Knowledge.initial("3x3"))
        with pytest.raises(BadArgument, match=r"-test: guess takes a Knowledge .*got '111'"):
            kind().guess("111")
        player = kind()
        player.start(Game.parse_size("3x3"))
        assert player.guess(Knowledge.initial("3x3")) == 0


def test_parameters_may_be_given_as_keywords_as_in_the_spec():
    """make_strategy('knuth', ties='random') raised TypeError: every parameter had to be written into the spec."""
    from mmlab.planners import make_planner

    assert make_strategy("most-parts", ties="random", pool="consistent").spec == "most-parts:pool=consistent,ties=random"
    assert make_strategy("sample:score=plus2", lookahead=0).spec == make_strategy("sample:score=plus2,lookahead=0").spec
    assert make_planner("tpoa", k=5, d=2).spec == make_planner("tpoa:k=5,d=2").spec
    with pytest.raises(UnknownStrategy, match=r"^ties is given twice, in 'knuth:ties=random' and as a keyword"):
        make_strategy("knuth:ties=random", ties="first")
    with pytest.raises(UnknownStrategy, match=r"knuth has no parameter 'nope'"):
        make_strategy("knuth", nope=1)


@pytest.mark.parametrize("code", [-1, 27, True, 2.0])
def test_a_guess_that_is_no_code_index_is_refused_naming_the_strategy(code):
    """A strategy's guess must be a whole number from 0 to n_codes - 1 (27 is one past 3x3's last)."""
    from mmlab.strategies import Strategy

    class Fixed(Strategy):
        name = "fixed-test"

        def guess(self, knowledge: Knowledge) -> int:
            return code

    player = Fixed()
    player.start(Game.parse_size("3x3"))
    with pytest.raises(BadCode, match=r"fixed-test guessed .* at move 1, which is no code of 3x3: .* from 0 to 26"):
        player.guess(Knowledge.initial("3x3"))


def test_a_class_defined_again_under_its_name_replaces_the_one_before():
    """A notebook cell run again defines the class anew (same module and qualified name): its
    ``register`` replaces the one before, where a built-in name or another class is refused."""
    from mmlab.strategies import Strategy, register

    def cell():
        @register
        class Again(Strategy):
            name = "again-test"

            def guess(self, knowledge: Knowledge) -> int:
                return 0

        return Again

    try:
        first, second = cell(), cell()
        assert first is not second and REGISTRY["again-test"] is second
        assert type(make_strategy("again-test")) is second
        second.name = "knuth"  # a built-in name is never taken over
        with pytest.raises(UnknownStrategy, match="is taken by Knuth"):
            register(second)
    finally:
        REGISTRY.pop("again-test", None)


@pytest.mark.parametrize("seed", [0, 1, 2**63])
def test_rng_of_takes_every_seed_numpy_takes(seed):
    """A seed is any whole number from 0 (numpy's smallest) up; -1, True and 1.5 are refused."""
    from mmlab.errors import BadArgument
    from mmlab.strategies.base import rng_of

    assert rng_of(seed).integers(2**62) == np.random.default_rng(seed).integers(2**62)
    for bad in (-1, True, 1.5):
        with pytest.raises(BadArgument, match="rng must be a numpy Generator or a seed"):
            rng_of(bad)
