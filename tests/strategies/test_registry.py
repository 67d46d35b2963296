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


@pytest.mark.parametrize(
    "spec, message",
    [
        ("knuht", "unknown strategy 'knuht'"),
        ("knuth:depth=3", "knuth has no parameter 'depth'"),
        ("knuth:pool=some", "pool='some' is not allowed; choose one of all, consistent"),
        ("knuth:pool", "should be key=value"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec, message):
    with pytest.raises(UnknownStrategy, match=message):
        make_strategy(spec)


def test_bad_first_guess_is_refused_at_start(game46):
    with pytest.raises(BadCode):
        make_strategy("knuth:first=1127").start(game46)


def test_enumerating_strategies_refuse_huge_games():
    for name in REGISTRY:
        with pytest.raises(SpaceTooLarge, match=name):
            make_strategy(name).start(Game.parse_size("10x36"))


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
