"""Study files: what they hold, and the errors a malformed one gets (key and line named)."""

import numpy as np
import pytest

from mmlab.errors import BadArgument, BadStudy
from mmlab.experiments.secret_sets import SecretSet
from mmlab.experiments.study import Study
from mmlab.game import Game

GOOD = """\
name = "demo"
description = "a test"
sizes = ["3x3", "3x4"]
strategies = ["knuth", "random"]
secrets = "all"
runs = 2
seed = 5
"""


def test_a_study_file_is_read_whole(tmp_path):
    path = tmp_path / "demo.toml"
    path.write_text(GOOD)
    study = Study.load(path)
    assert (study.name, study.sizes, study.strategies, study.runs, study.seed) == (
        "demo", ("3x3", "3x4"), ("knuth", "random"), 2, 5)
    assert study.n_games == (27 + 64) * (1 + 2)  # knuth plays each secret once, random twice
    assert study.source == GOOD


def test_the_fingerprint_follows_what_decides_the_results():
    a = Study.from_toml(GOOD)
    assert a.fingerprint == Study.from_toml(GOOD.replace("a test", "another text")).fingerprint
    assert a.fingerprint != Study.from_toml(GOOD.replace("seed = 5", "seed = 6")).fingerprint


@pytest.mark.parametrize("change, message", [
    (("runs = 2", "runs = 0"), "line 6: runs: 0 is not a positive whole number"),
    (("seed = 5", "seed = -1"), "line 7: seed"),
    (('"random"]', '"randomm"]'), "line 4: strategies: unknown strategy 'randomm'"),
    (('"3x4"]', '"3y4"]'), "line 3: sizes: cannot read the size '3y4'"),
    (('secrets = "all"', 'secrets = "instance:999"'), "line 5: secrets: an instance set of 3x3 holds 27 to 54"),
    (('secrets = "all"', 'secret = "all"'), "line 5: secret: unknown key"),
    (('name = "demo"', 'name = "a b"'), 'line 1: name: "a b" is not a usable name'),
    (("runs = 2", "runs = true"), "line 6: runs: true is not a positive whole number"),  # as TOML spells it
    (("runs = 2", "repeats = 1"), "line 6: repeats: 1 is not true or false"),
    (('secrets = "all"', "secrets = false"), "line 5: secrets: false is not a set of secrets"),
    (('secrets = "all"', "secrets = 2.5"), "line 5: secrets: 2.5 is not a set of secrets"),
    (('"3x3", "3x4"]', '"3x3", 4]'), 'line 3: sizes: ["3x3", 4] is not a non-empty list of strings'),
    (('runs = 2', 'runs = [2'), "not valid TOML"),
    (('name = "demo"\n', ''), "the key 'name' is missing"),
    (('"3x4"]', '"3X4 ", "3x3"]'), "line 3: sizes: a size is listed twice"),
    (('"random"]', '" knuth"]'), "line 4: strategies: a strategy is listed twice"),
    (('secrets = "all"', 'secrets = ["123", "231", "1 2 3"]'), "line 5: secrets: the secret 123 is listed twice"),
    (('"3x3", "3x4"]', '"8x12"]'), "line 5: secrets: playing every secret needs"),
    (('"random"]', '"entropy:first=1231"]'), "entropy:first=1231 cannot play 3x3: .*code '1231' has 4 pegs"),
    (("seed = 5", "seed = 99999999999999999999"), "line 7: seed"),
])
def test_malformed_studies_name_the_key_and_line(change, message):
    with pytest.raises(BadStudy, match=message.replace("[", r"\[")):
        Study.from_toml(GOOD.replace(*change), "demo.toml")


def test_a_strategy_that_cannot_play_a_size_is_refused_before_anything_runs():
    text = GOOD.replace('"3x3", "3x4"]', '"8x12"]').replace('secrets = "all"', "secrets = 5")
    with pytest.raises(BadStudy, match="line 4: strategies: knuth cannot play 8x12: .*tabu"):
        Study.from_toml(text, "demo.toml")


def test_a_missing_file_is_reported():
    with pytest.raises(BadStudy, match="cannot read the study file"):
        Study.load("/nonexistent/study.toml")


def test_instance_set_holds_every_code_once_or_twice():
    """004 section 4.2: 5000 secrets of 4x8, each code at least once and none more than twice."""
    game = Game.parse_size("4x8")
    codes = SecretSet.parse("instance:5000").draw(game, seed=1)
    counts = np.bincount(codes, minlength=game.n_codes)
    assert codes.shape == (5000,) and counts.min() == 1 and counts.max() == 2
    assert (counts == 2).sum() == 5000 - 4096
    assert np.array_equal(codes, SecretSet.parse("instance:5000").draw(game, seed=1))
    assert not np.array_equal(codes, SecretSet.parse("instance:5000").draw(game, seed=2))
    # the bounds are allowed: every code twice, and at most MAX_SECRETS secrets
    from mmlab.experiments.secret_sets import MAX_SECRETS

    small = Game.parse_size("3x3")
    twice = np.bincount(SecretSet.parse("instance:54").draw(small, 1))
    assert twice.shape == (27,) and twice.min() == twice.max() == 2
    with pytest.raises(BadArgument, match="holds 27 to 54 codes"):
        SecretSet.parse("instance:55").draw(small, 1)
    assert SecretSet.parse(MAX_SECRETS).n == MAX_SECRETS == 10**7
    with pytest.raises(BadArgument, match="must be at most 10,000,000"):
        SecretSet.parse(MAX_SECRETS + 1)


def test_a_study_of_more_games_than_it_may_hold_is_refused_before_anything_runs():
    """runs had no bound: runs = 20000 on 4x6 (26 million games) took 3.5 GB to plan, runs = 10**9 8.6 GB in
    40 s without a game played (helper-118)."""
    from mmlab.experiments.study import MAX_GAMES

    with pytest.raises(BadStudy, match=r"runs: the study plays 25,920,000 games .* more than the 10,000,000 a "
                                       "study may hold: fewer runs or secrets, or several studies"):
        Study("h5", ("4x6",), ("random",), runs=20000)
    with pytest.raises(BadStudy, match="secrets: the study plays 20,000,000 games"):
        Study("big", ("7x10",), ("greedy1", "greedy2"))  # (every secret of 7x10, two deterministic strategies)
    deterministic = Study("edge", ("4x6",), ("knuth", "random"), runs=MAX_GAMES // 1296 - 1)  # (knuth: one run)
    assert deterministic.n_games <= MAX_GAMES


def test_samples_lists_and_their_errors():
    game = Game.parse_size("3x3")
    sample = SecretSet.parse(10).draw(game, seed=3)
    assert len(set(sample.tolist())) == 10
    assert SecretSet.parse(["111", "123"]).draw(game, 0).tolist() == [0, game.parse("123")]
    assert SecretSet.parse("sample:30").draw(game, 0).tolist() == list(range(27))  # every code
    with pytest.raises(BadArgument, match="instance:N"):
        SecretSet.parse("some")
    big = Game.parse_size("8x12")
    assert SecretSet.parse(5).draw(big, 0).shape == (5,)
    # a game too large to list its codes draws N distinct ones: 20 000 of 5x28's 17 210 368 codes
    # repeat about 12 codes at the first draw (N^2 / 2 codes), which are drawn again
    drawn = SecretSet.parse(20_000).draw(Game.parse_size("5x28"), 3)
    assert not Game.parse_size("5x28").enumerable and np.unique(drawn).shape == drawn.shape == (20_000,)
    with pytest.raises(BadArgument, match="use a sample"):
        SecretSet.parse("instance:5").draw(big, 0)


def test_a_study_made_in_python_takes_plain_values_and_is_checked_before_it_runs(tmp_path):
    from mmlab.experiments.runner import run_study
    from mmlab.experiments.store import Store

    study = Study("py", ["3x3"], ["knuth", "random"], secrets=10)
    assert study.secrets == SecretSet.parse("10") and study.sizes == ("3x3",)
    assert study.fingerprint == Study("py", ("3x3",), ("knuth", "random"), SecretSet.parse("10")).fingerprint
    assert Study("py", ["3x3"], ["knuth"], secrets=("111", "123")).secrets.codes == ("111", "123")
    with pytest.raises(BadStudy, match="secrets: the number of secrets must be at least 1"):
        Study("py", ["3x3"], ["knuth"], secrets=0)
    with pytest.raises(BadStudy, match="sizes must be a list"):
        Study("py", "3x3", ["knuth"])
    store = Store(tmp_path / "r.duckdb")
    with pytest.raises(BadStudy, match="unknown strategy 'knuht'"):
        run_study(Study("py", ["3x3"], ["knuht"]), store, jobs=1)
    assert not (tmp_path / "r.duckdb").exists() or "py" not in set(store.studies()["study"])
    assert run_study(study, store, jobs=1).played == 20


def test_a_set_holding_every_code_once_is_known_as_such():
    game = Game.parse_size("3x3")
    for text, every in (("all", True), ("sample:27", True), ("sample:99", True), ("sample:26", False),
                        ("instance:27", True), ("instance:28", False), ("instance:20", False)):
        secrets = SecretSet.parse(text)
        assert secrets.every_code(game) == every, text
        if every:
            assert np.array_equal(secrets.draw(game, seed=1), np.arange(27))
    drawn = SecretSet.parse("instance:20").draw(game, seed=1)  # below the codes: played as a sample of 20
    assert drawn.shape == (20,) and len(set(drawn.tolist())) == 20
    # what a report says it played: an instance set below the codes is a sample, one of as many every code
    labels = {text: SecretSet.parse(text).label(game) for text in ("instance:26", "instance:27", "sample:27")}
    assert labels == {"instance:26": "sample:26 (instance:26 holds fewer than the 27 codes)",
                      "instance:27": "instance:27", "sample:27": "all 27 codes (sample:27 asks for at least as many)"}


def test_a_study_made_in_python_is_checked_when_it_is_made():
    """As run_study checked it: the same messages, before any store is opened."""
    with pytest.raises(BadStudy, match=r"^study: runs: 0 is not a positive whole number \(expected games per"):
        Study("x", ["4by6"], ["knut"], runs=0, seed=-1)
    for options, message in (({"seed": -1}, "study: seed: -1 is not a whole number from 0"),
                             ({"seed": 2**63}, "study: seed: 9223372036854775808 is not a whole number from 0"),
                             ({"sizes": ["4by6"]}, "study: sizes: cannot read the size '4by6'"),
                             ({"strategies": ["knut"]}, "study: strategies: unknown strategy 'knut'"),
                             ({"strategies": ["knuth", "knuth:ties=first"]},
                              "a strategy is listed twice: 'knuth' and 'knuth:ties=first' are both knuth"),
                             ({"sizes": ["4x6", "3x3", "4X6 "]}, "study: sizes: a size is listed twice: 4x6"),
                             ({"secrets": ["1234", "1234"]}, "study: secrets: the secret 1234 is listed twice"),
                             ({"sizes": ["8x12"]}, "study: secrets: playing every secret needs"),
                             ({"max_guesses": 0}, "study: max_guesses: 0 is not a positive whole number"),
                             ({"repeats": "no"}, 'study: repeats: "no" is not true or false')):
        given = {"name": "x", "sizes": ["4x6"], "strategies": ["knuth"], **options}
        with pytest.raises(BadStudy, match=message):
            Study(**given)
    assert Study("x", ["3x3"], ["knuth"], seed=2**63 - 1).seed == 2**63 - 1  # (the store's BIGINT holds it)


def test_numpys_whole_numbers_are_whole_numbers(tmp_path):
    """A notebook's runs, seed or cap computed with numpy (np.int64) are taken, as its sample size
    is, and stored as plain numbers; a truth value is still no number of runs."""
    study = Study("np", ["3x3"], ["random"], secrets=np.int64(5), runs=np.int64(2), seed=np.int64(3),
                  max_guesses=np.int32(9))
    assert study == Study("np", ["3x3"], ["random"], secrets=5, runs=2, seed=3, max_guesses=9)
    assert type(study.runs) is int and study.fingerprint == Study("np", ["3x3"], ["random"], secrets=5, runs=2,
                                                                    seed=3, max_guesses=9).fingerprint
    with pytest.raises(BadStudy, match="study: runs: true is not a positive whole number"):
        Study("np", ["3x3"], ["random"], runs=True)


@pytest.mark.parametrize("study", [
    Study("c", ("4x6",), ("knuth",), secrets=100, seed=5),  # deterministic over a sample: the seed draws it
    Study("c", ("3x3", "4x5"), ("knuth:ties=first", "greedy1"), secrets=30, runs=3, seed=9),  # every code at 3x3 only
    Study("c", ("3x4",), ("knuth", "random"), secrets="instance:70", runs=2, seed=4),
    Study("c", ("3x4",), ("knuth",), secrets=["123", "431"], runs=5, seed=3),
])
def test_the_canonical_study_plays_the_same_games(study):
    """``canonical`` respells a study (``mmlab compare`` names its studies by it): the same secrets
    at every size, drawn from its seed, the same runs of each strategy, the same number of games."""
    canonical = study.canonical()
    for size in study.sizes:
        game = study.game(size)
        assert np.array_equal(canonical.secrets.draw(game, canonical.seed), study.secrets.draw(game, study.seed)), size
    assert [canonical.runs_of(s) for s in canonical.strategies] == [study.runs_of(s) for s in study.strategies]
    assert canonical.n_games == study.n_games
    if any(not s.startswith(("knuth", "greedy")) for s in study.strategies):  # games that draw from the seed
        assert canonical.seed == study.seed


def test_a_stored_strategy_this_session_cannot_make_is_counted_with_every_run():
    study = Study.stored({"name": "s", "sizes": ["3x3"], "strategies": ["knuth", "mine"], "runs": 3}, "s")
    assert (study.runs_of("knuth"), study.runs_of("mine")) == (1, 3) and study.n_games == 27 * (1 + 3)


def test_a_sample_as_large_as_the_game_gives_an_exact_mean():
    """A deterministic strategy's mean is exact when its games are every code once: all, or a
    sample of every code (3x2's 8); a sample of 7 is not."""
    assert Study("s", ("3x2",), ("knuth",), secrets=8).exact_mean("knuth", "3x2", 8)
    assert Study("s", ("3x2",), ("knuth",), secrets="all").exact_mean("knuth", "3x2", 8)
    assert not Study("s", ("3x2",), ("knuth",), secrets=7).exact_mean("knuth", "3x2", 7)
    assert not Study("s", ("3x2",), ("random",), secrets=8).exact_mean("random", "3x2", 8)
