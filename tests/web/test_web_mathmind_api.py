"""MathMind through the JSON API: you guess mmlab's secret and are told Reddi's answer (higher/lower
pegs, or a distance), with the codes left, hints, partitions and candidates, each checked against
``MathMind`` and pure Python; and what such a game refuses."""

import numpy as np
import pytest
from test_web_api import new, refused

from mmlab.game import Game
from mmlab.variants.mathmind import MathMind, answer_of

GAME = Game.parse_size("4x6")


def fits(mm: MathMind, moves: list[tuple[str, int]]) -> list[str]:
    """The codes that give every answer so far, in plain Python."""
    rows = [tuple(int(c) for c in row) for row in mm.game.all_digits]
    played = [(rows[mm.game.parse(g)], a) for g, a in moves]
    return [mm.game.format(c) for c, row in enumerate(rows) if all(answer_of(g, row, mm.feedback) == a
                                                                    for g, a in played)]


@pytest.mark.parametrize("feedback", ["higher-lower", "euclidean", "manhattan"])
def test_a_mathmind_game_answers_in_words_and_counts_the_codes_that_fit(client, feedback):
    mm = MathMind(GAME, feedback)
    game = new(client, size="4x6", secret="3632", feedback=feedback)
    assert (game["feedback"], game["strategy"], game["remaining"], game["answers"]) == (feedback, "knuth", 1296, [])
    assert game["deterministic"]  # (MathMind's rules draw nothing at random)
    url = f"/api/games/{game['id']}"
    played = []
    for guess in ("1234", "5612"):
        state = client.post(f"{url}/guess", json={"code": guess}).json()
        said = mm.answer(guess, "3632")
        played.append((guess, said))
        move = state["moves"][-1]
        assert (move["guess"], move["black"], move["white"], move["reply"]) == (guess, None, None, mm.describe(said))
        assert move["remaining"] == state["remaining"] == len(fits(mm, played))
        assert state["secret"] is None and state["rule_guesses"] is None and not state["over"]  # (not before the end)
    assert client.get(f"{url}/candidates", params={"limit": 1000}).json()["codes"] == fits(mm, played)
    table = client.get(f"{url}/partition", params={"guess": "3632"}).json()
    assert table["candidates"] == state["remaining"] and table["consistent"]
    assert sum(c["codes"] for c in table["classes"]) == table["candidates"]
    assert table["classes"][0] == {"black": None, "white": None, "reply": mm.describe(mm.win), "win": True, "codes": 1}
    assert not any(c["win"] for c in table["classes"][1:]) and table["parts"] == len(table["classes"])


def test_its_hints_follow_mathminds_rule_to_the_win_and_the_end_says_what_the_rule_needs(client):
    mm = MathMind(GAME, "higher-lower")
    game = new(client, size="4x6", secret="3632", feedback="higher-lower", strategy="entropy")
    url = f"/api/games/{game['id']}"
    left = np.arange(GAME.n_codes)
    while not game["over"]:
        hint = client.get(f"{url}/hint", params={"options": 2}).json()
        assert hint["strategy"] == "entropy" and hint["remaining"] == left.size
        assert hint["suggestion"] == hint["options"][0]["guess"] == GAME.format(mm.choose("entropy", left))
        game = client.post(f"{url}/guess", json={"code": hint["suggestion"]}).json()
        said = mm.answer(hint["suggestion"], "3632")
        left = np.array([c for c in left if mm.answer(hint["suggestion"], int(c)) == said])
    assert [m["guess"] for m in game["moves"]] == [GAME.format(g) for g, _ in mm.play("entropy", "3632")]
    assert game["won"] and game["secret"] == "3632" and game["rule_guesses"] == len(game["moves"])
    assert game["moves"][-1]["reply"] == "4 black, 0 higher, 0 lower"
    refused(client.post(f"{url}/guess", json={"code": "1111"}), 409, "the game is over: the secret was 3632")
    refused(client.get(f"{url}/hint"), 409, "the game is over")


def test_undo_and_give_up_and_a_hint_from_another_rule(client):
    game = new(client, size="3x5", feedback="manhattan", seed=4)
    url = f"/api/games/{game['id']}"
    client.post(f"{url}/guess", json={"code": "123"})
    after_one = client.post(f"{url}/guess", json={"code": "345"}).json()["moves"][0]
    state = client.post(f"{url}/undo", json={"seen_moves": 2}).json()
    assert state["moves"] == [after_one]
    assert client.get(f"{url}/hint", params={"strategy": "irving"}).json()["strategy"] == "irving"
    refused(client.get(f"{url}/hint", params={"strategy": "tabu"}), 422, "MathMind's hints follow one of the "
                                                                         "exhaustive rules")
    over = client.post(f"{url}/give-up").json()
    assert over["gave_up"] and not over["won"] and over["secret"] is not None
    mm = MathMind(Game.parse_size("3x5"), "manhattan")
    assert over["rule_guesses"] == len(mm.play("knuth", over["secret"]))


def test_what_a_mathmind_game_refuses(client):
    refused(client.post("/api/games", json={"feedback": "euclidean", "role": "codemaker"}), 422,
            "MathMind games (euclidean answers) are played here as codebreaker only")
    refused(client.post("/api/games", json={"feedback": "euclidean", "strategy": "knuth:ties=random"}), 422,
            "MathMind's hints follow one of the exhaustive rules knuth, irving, most-parts, entropy")
    game = new(client, feedback="euclidean")
    refused(client.get(f"/api/games/{game['id']}/path"), 409, "'path' is for the codemaker role")
    refused(client.post(f"/api/games/{game['id']}/answer", json={"black": 1, "white": 0}), 409,
            "'answer' is for the codemaker role")
    refused(client.get(f"/api/games/{game['id']}/candidates"), 422, "1,296 codes fit the answers, too many")


def test_a_standard_games_answers_are_worded_and_its_winning_class_marked(client):
    game = new(client, size="4x6", secret="3632")
    move = client.post(f"/api/games/{game['id']}/guess", json={"code": "1123"}).json()["moves"][0]
    assert (move["black"], move["white"], move["reply"]) == (0, 2, "0 black, 2 white")
    classes = client.get(f"/api/games/{game['id']}/partition", params={"guess": "3632"}).json()["classes"]
    assert [c["win"] for c in classes] == [True] + [False] * (len(classes) - 1)
    black = new(client, size="4x6", secret="3632", feedback="black")
    move = client.post(f"/api/games/{black['id']}/guess", json={"code": "1123"}).json()["moves"][0]
    assert move["reply"] == "0 black"


def test_games_of_one_size_and_answer_kind_share_their_mathmind_until_none_is_left():
    """So that each rule scores the first guesses once per server (28 s at 8x4, helper-111), not
    once per game."""
    from mmlab.web.games import GameRegistry

    registry = GameRegistry()
    first, second = (registry.create(GAME, "codebreaker", mathmind="euclidean") for _ in range(2))
    other = registry.create(GAME, "codebreaker", mathmind="manhattan")
    assert first.session.mathmind is second.session.mathmind is not other.session.mathmind
    for live in (first, second, other):
        registry.remove(live.id)
    again = registry.create(GAME, "codebreaker", mathmind="euclidean")
    assert again.session.mathmind is not first.session.mathmind  # (released with the last game of its size)


def test_a_hint_names_mathminds_rules_whatever_the_strategy_asked_for(client):
    game = new(client, feedback="euclidean")
    for asked, why in (("optimum", "(the optimum's tree has no move off its own paths)"), ("tabu", "got 'tabu'")):
        refused(client.get(f"/api/games/{game['id']}/hint", params={"strategy": asked}), 422,
                "MathMind's hints follow one of the exhaustive rules knuth, irving, most-parts, entropy", why)


def test_the_apis_answer_kinds_are_the_games_and_mathminds():
    """``models`` names them for the schema (a Literal); they must be the rules' own."""
    from typing import get_args

    from mmlab.game.rules import FEEDBACK_KINDS
    from mmlab.variants.mathmind import FEEDBACKS
    from mmlab.web.models import MATHMIND_FEEDBACKS, FeedbackKind

    assert set(MATHMIND_FEEDBACKS) == set(FEEDBACKS) - {"black-white"}
    assert get_args(FeedbackKind) == (*FEEDBACK_KINDS, *MATHMIND_FEEDBACKS)


def test_a_standard_games_hint_refuses_a_strategy_asked_to_search_harder(client):
    """As POST /games refuses it: the server plays how much a strategy searches at its defaults."""
    game = new(client, size="4x6", secret="3632")
    refused(client.get(f"/api/games/{game['id']}/hint", params={"strategy": "evo:generations=100000000"}), 422,
            "leave out generations=100000000")
