"""What a Python user hands the library: a size for a game, a spec, a tree or a seed for a strategy
and its random generator, written codes and answers. Each is accepted wherever the others are, or
refused with an mmlab error that says what was expected (never a raw AttributeError)."""

import numpy as np
import pytest

from mmlab.errors import BadArgument, BadCode, BadFeedback, BadSize, SpaceTooLarge
from mmlab.experiments import evaluate, play_against, play_game
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.planners import make_planner
from mmlab.play.session import CodebreakerSession, CodemakerSession
from mmlab.strategies import REGISTRY, Strategy, make_strategy, register
from mmlab.strategies.scoring import partition_summary
from mmlab.trees import DecisionTree
from mmlab.trees.export import load, save
from mmlab.variants import static


def test_a_size_stands_for_its_game_everywhere():
    assert play_game("4x6", "knuth", "3632").n_guesses == 5
    assert DecisionTree.build("3x3", "knuth").total_guesses == 74
    assert make_planner("optimal").plan("3x3").tree.total_guesses == 73
    assert static.separates("3x2", ["112", "121", "211"])[0] is True  # 8 classes for the 8 codes
    assert CodebreakerSession("4x6", secret="1234").game == Game(4, 6)
    assert CodemakerSession("3x3").game == Game(3, 3)
    assert Knowledge.initial("4x6").n_consistent == 1296


@pytest.mark.parametrize("game", [(4, 6), None, 46])
def test_what_is_no_game_is_refused_with_what_is_expected(game):
    with pytest.raises(BadSize, match="expected a Game or a size such as '4x6'"):
        evaluate(game, "knuth")


def test_a_game_allows_repeats_or_not_and_nothing_else():
    with pytest.raises(BadSize, match="repeats must be True or False, got 'no'"):
        Game(4, 6, repeats="no")


@pytest.mark.parametrize("strategy", [None, 3])
def test_what_is_no_strategy_is_refused_with_what_is_expected(strategy):
    with pytest.raises(BadArgument, match="expected a strategy spec such as 'knuth'"):
        evaluate("4x6", strategy)


def test_a_tree_and_a_seed_play_a_game(tmp_path):
    game = Game(4, 6)
    save(DecisionTree.build(game, "knuth"), tmp_path / "k.json")
    assert play_game(game, load(tmp_path / "k.json"), "3632").n_guesses == 5
    first = play_game(game, "random", "3632", rng=1)
    assert first.guesses == play_game(game, "random", "3632", rng=np.random.default_rng(1)).guesses
    with pytest.raises(BadArgument, match="rng must be a numpy Generator or a seed"):
        play_game(game, "random", "3632", rng=-1)


def test_the_worst_case_adversary_plays_against_the_strategy_it_is_given():
    """It answers along the strategy's tree: given as a spec, or made without a strategy, it takes
    the one it plays against."""
    assert play_against("4x6", "knuth", "adversary:mode=worst").n_guesses == 5
    from mmlab.codemakers import make_codemaker

    worst = DecisionTree.build("4x6", "irving").worst
    adversary = make_codemaker("adversary:mode=worst")
    assert play_against("4x6", make_strategy("irving"), adversary).n_guesses == worst == 6
    assert play_against("4x6", "knuth", adversary).n_guesses == 5  # (the adversary is left as it was given)


def test_chosen_secrets_are_evaluated_and_written_codes_are_read_not_taken_for_indices():
    game = Game(4, 6)
    assert evaluate(game, "knuth", secrets=["1122", "3632"]).guesses.tolist() == [1, 5]
    assert evaluate(game, "knuth", secrets=np.array([7, game.parse("3632")])).guesses.tolist() == [1, 5]
    tree = DecisionTree.build(game, "knuth", secrets=["1122"])  # not the code of index 1122
    assert tree.n_secrets == 1 and tree.depths()[game.parse("1122")] == 1
    with pytest.raises(BadCode, match="6667.*not a colour of the 4x6 game"):  # read, not an index out of range
        evaluate(game, "knuth", secrets=["6667"])
    with pytest.raises(BadArgument, match="must not be empty"):
        evaluate(game, "knuth", secrets=[])
    with pytest.raises(BadCode, match="several codes"):
        evaluate(game, "knuth", secrets=game)
    with pytest.raises(BadArgument, match="1122 more than once: each game is seeded by its secret"):
        evaluate(game, "random", secrets=["1122", "3632", "AABB"], seed=1)
    with pytest.raises(BadArgument, match="a whole number of secrets or some codes, got 10.0"):
        evaluate(game, "knuth", secrets=10.0)


def test_answers_can_be_written():
    knowledge = Knowledge.initial("4x6").update("1122", "1,1")
    assert knowledge.history[-1][1] == Feedback(1, 1)
    assert DecisionTree.build("3x3", "knuth").path([("112", "0,2")]).size == 3
    session = CodemakerSession("3x3", "knuth")
    session.answer("BWW")
    assert session.answers == [(Game(3, 3).parse("112"), Feedback(1, 2))]
    with pytest.raises(BadFeedback, match="cannot read the answer"):
        session.answer("one black")


def test_a_no_repeats_guess_is_blamed_before_its_answer():
    with pytest.raises(BadCode, match="repeats a colour"):
        Knowledge.initial(Game(4, 6, repeats=False)).update("1122", (1, 0))


def test_a_partition_summary_of_a_large_game_says_why_it_cannot_be_made():
    with pytest.raises(SpaceTooLarge, match="partition summary"):
        partition_summary(Knowledge.initial("8x12"), "1 2 3 4 5 6 7 8")


def test_a_planner_time_limit_is_a_number_of_seconds():
    with pytest.raises(BadArgument, match="time_limit must be a number of seconds, 0 or more"):
        make_planner("optimal").plan("3x3", time_limit=-1)


def test_a_tree_is_saved_in_the_format_of_its_extension(tmp_path):
    tree = DecisionTree.build("3x2", "knuth")
    save(tree, tmp_path / "t.dot")
    assert (tmp_path / "t.dot").read_text().startswith("digraph")
    with pytest.raises(BadArgument, match="choose one of json, dot, knuth, python"):
        save(tree, tmp_path / "t.x", form="svg")


def test_an_exact_evaluation_has_no_standard_error():
    assert evaluate("3x3", "knuth").stderr == 0.0 and evaluate("3x3", "random", secrets=20, seed=1).stderr > 0


def test_a_bad_first_guess_names_the_parameter():
    with pytest.raises(BadCode, match="knuth: first=random is not a first guess of 4x6"):
        evaluate("4x6", "knuth:first=random")


def test_a_strategy_without_guess_says_what_it_must_define():
    class Lazy(Strategy):
        name = "lazy"

    with pytest.raises(NotImplementedError, match=r"Lazy must define guess\(self, knowledge\)"):
        Lazy().guess(Knowledge.initial("3x3"))


def test_a_class_defined_again_under_its_name_replaces_the_one_before():
    """As when a notebook cell is run again; another class still cannot take the name."""

    def define(summary: str) -> type[Strategy]:
        class Again(Strategy):
            name = "again-consistent"

            def guess(self, knowledge: Knowledge) -> int:
                return int(knowledge.consistent[0])

        Again.summary = summary
        return Again

    try:
        register(define("first"))
        register(define("second"))
        assert REGISTRY["again-consistent"].summary == "second"

        class Other(Strategy):
            name = "again-consistent"

        with pytest.raises(Exception, match="is taken by Again"):
            register(Other)
    finally:
        REGISTRY.pop("again-consistent", None)


def test_parse_reads_written_codes_and_points_to_code_for_indices():
    with pytest.raises(BadCode, match="parse reads a code written out.*Game.code takes an index too"):
        Game(4, 6).parse(7)


def test_the_play_sessions_take_a_seed():
    first = CodebreakerSession("4x6", rng=5).secret
    assert first == CodebreakerSession("4x6", rng=np.random.default_rng(5)).secret
    # the seed is the strategy's: its first guess is the one random draws from default_rng(5)
    random = make_strategy("random")
    random.start(Game(4, 6), np.random.default_rng(5))
    assert CodemakerSession("4x6", "random", rng=5).next_guess() == random.guess(Knowledge.initial("4x6"))


def test_a_study_plays_the_class_registered_last(tmp_path):
    """Worker-side caches of strategies and trees follow a class registered again under its name."""
    from mmlab.experiments import Store, Study, run_study, results

    def define(offset: int) -> type[Strategy]:
        class Again(Strategy):
            name = "again-offset"

            def guess(self, knowledge: Knowledge) -> int:
                return int(knowledge.consistent[min(offset, knowledge.n_consistent - 1)])

        return Again

    store = Store(tmp_path / "r.duckdb")
    try:
        totals = []
        for offset in (0, 1):
            register(define(offset))
            name = f"again-{offset}"
            run_study(Study(name, ["3x3"], ["again-offset"], seed=1), store, jobs=1)
            totals.append(int(results(name, store=store)["guesses"].sum()))
            assert totals[-1] == evaluate("3x3", "again-offset").total_guesses
        assert totals[0] != totals[1]
    finally:
        REGISTRY.pop("again-offset", None)


def test_answers_and_code_lists_of_the_wrong_kind_are_refused():
    game = Game(4, 6)
    with pytest.raises(BadFeedback, match="expected an answer"):
        game.answer((True, 0))
    with pytest.raises(BadCode, match=r"shape \(2, 2\)"):
        game.codes(np.array([[1, 2], [3, 4]]))


def test_the_wrong_kind_of_tree_path_codemaker_or_limit_is_refused(tmp_path):
    """helper-115: load(42) opened file descriptor 42; save(42, ...), play_against(..., 42),
    Knowledge2D('3x4') and create_app(max_codes='x') ended in AttributeError or TypeError."""
    from mmlab.errors import BadTree
    from mmlab.variants.two_d import Game2D, Knowledge2D
    from mmlab.web import create_app

    tree = DecisionTree.build("3x3", "knuth")
    with pytest.raises(BadTree, match="save writes a DecisionTree, got 42"):
        save(42, str(tmp_path / "t.json"))
    for path in (42, None):
        with pytest.raises(BadTree, match=f"expected the path of a tree file, e.g. 'tree.json', got {path}"):
            load(path)
        with pytest.raises(BadTree, match="expected the path of a tree file"):
            save(tree, path)
    with pytest.raises(BadArgument, match="expected a codemaker or its spec, e.g. 'random', 'fixed:3632' or "
                                          "'adversary', got 42"):
        play_against("4x6", "knuth", 42)
    assert Knowledge2D("3x4").game == Game2D.of("3x4")
    for limits, message in (({"max_codes": "x"}, "max_codes must be a whole number, got 'x'"),
                            ({"max_games": 2.5}, "max_games must be a whole number, got 2.5"),
                            ({"idle_minutes": "3"}, "idle_minutes must be a number, got '3'")):
        with pytest.raises(BadArgument, match=message):
            create_app(**limits)
