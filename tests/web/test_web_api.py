"""The JSON API through FastAPI's TestClient: whole games in both roles, and every bad input
answered with a 4xx whose message says what to do."""

import hashlib
import os
import re

import pytest
from fastapi.testclient import TestClient

from mmlab.experiments import play_game
from mmlab.game import Game
from mmlab.play.session import CodebreakerSession
from mmlab.strategies import make_strategy
from mmlab.web import create_app
from mmlab.web.app import STATIC

GAME = Game.parse_size("4x6")


def new(client, **body) -> dict:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def refused(response, status: int, *phrases: str) -> dict:
    """Check a refusal: its status, a JSON message holding ``phrases``, no traceback."""
    assert response.status_code == status, response.text
    data = response.json()
    assert isinstance(data["detail"], str) and data["error"], data
    for phrase in phrases:
        assert phrase in data["detail"], data["detail"]
    assert "Traceback" not in data["detail"]
    return data


# ----------------------------------------------------------------------------- whole games
def test_codebreaker_wins_following_the_hints(client):
    game = new(client, size="4x6", secret="3632")
    assert game["remaining"] == 1296 and game["secret"] is None and game["role"] == "codebreaker"
    empty = client.get(f"/api/games/{game['id']}/hint", params={"strategy": ""})
    assert empty.status_code == 200 and empty.json()["strategy"] == "knuth"  # empty means the game's, as in POST
    for _ in range(5):
        hint = client.get(f"/api/games/{game['id']}/hint").json()
        assert hint["options"][0]["guess"] == hint["suggestion"]
        assert sum(c["codes"] for c in hint["options"][0]["classes"]) == hint["remaining"]
        game = client.post(f"/api/games/{game['id']}/guess", json={"code": hint["suggestion"]}).json()
        last = game["moves"][-1]
        assert (last["black"], last["white"]) == tuple(GAME.score(GAME.parse("3632"), GAME.parse(last["guess"])))
        if game["won"]:
            break
    assert game["won"] and game["over"] and game["secret"] == "3632" and len(game["moves"]) <= 5
    refused(client.post(f"/api/games/{game['id']}/guess", json={"code": "1111"}), 409, "the game is over")


def test_codemaker_game_and_its_decision_tree_path(client):
    secret = GAME.parse("3632")
    expected = play_game(GAME, make_strategy("knuth"), secret)
    game = new(client, role="codemaker")
    assert game["next_guess"] == "1122" and game["deterministic"]
    while not game["won"]:
        fb = GAME.score(secret, GAME.parse(game["next_guess"]))
        game = client.post(f"/api/games/{game['id']}/answer", json={"black": fb.black, "white": fb.white}).json()
    assert [m["guess"] for m in game["moves"]] == [GAME.format(g) for g in expected.guesses]
    assert game["remaining"] == 1 and game["next_guess"] is None
    path = client.get(f"/api/games/{game['id']}/path").json()
    assert path["on_tree"] and path["strategy"] == "knuth"
    assert [n["guess"] for n in path["nodes"]] == [m["guess"] for m in game["moves"]]
    assert path["nodes"][0]["remaining"] == 1296 and path["nodes"][1]["remaining"] == game["moves"][0]["remaining"]
    assert path["nodes"][-1]["answer"] == {"black": 4, "white": 0}


def test_path_shows_the_pending_node_and_leaves_the_tree_after_a_correction(client):
    game = new(client, role="codemaker", strategy="knuth")
    game = client.post(f"/api/games/{game['id']}/answer", json={"answer": "B"}).json()  # 1122 -> 1,0
    path = client.get(f"/api/games/{game['id']}/path").json()
    assert [(n["guess"], n["remaining"], n["answer"]) for n in path["nodes"]] == [
        ("1122", 1296, {"black": 1, "white": 0}), ("1344", 256, None)]
    game = client.post(f"/api/games/{game['id']}/answer", json={"black": 0, "white": 0}).json()  # 1344 -> 0,0
    game = client.post(f"/api/games/{game['id']}/correct", json={"move": 1, "black": 0, "white": 1}).json()
    path = client.get(f"/api/games/{game['id']}/path").json()
    assert not path["on_tree"] and path["nodes"][0]["strategy_move"] and not path["nodes"][1]["strategy_move"]


def test_codemaker_answers_as_text_undo_and_candidates(client):
    game = new(client, role="codemaker", strategy="most-parts")
    first = game["next_guess"]
    game = client.post(f"/api/games/{game['id']}/answer", json={"answer": "1,1"}).json()
    assert game["moves"][0]["black"] == 1 and game["moves"][0]["white"] == 1
    game = client.post(f"/api/games/{game['id']}/undo").json()
    assert game["moves"] == [] and game["remaining"] == 1296 and game["next_guess"] == first
    refused(client.post(f"/api/games/{game['id']}/undo"), 422, "nothing to undo")
    refused(client.get(f"/api/games/{game['id']}/candidates"), 422, "1296 codes", "too many")
    client.post(f"/api/games/{game['id']}/answer", json={"answer": "BBB"})
    found = client.get(f"/api/games/{game['id']}/candidates?limit=100").json()
    assert found["remaining"] == len(found["codes"]) <= 100


def test_a_won_game_cannot_be_given_up(client):
    game = new(client, secret="3632")
    game = client.post(f"/api/games/{game['id']}/guess", json={"code": "3632"}).json()
    assert game["won"]
    data = refused(client.post(f"/api/games/{game['id']}/give-up"), 409, "you have already found the secret")
    assert data == {"detail": "you have already found the secret: start a new game", "error": "GameOver"}


def test_give_up_undo_candidates_and_partition_for_the_codebreaker(client):
    game = new(client, secret="3632")
    for code in ("1122", "1344", "3526", "1462"):
        game = client.post(f"/api/games/{game['id']}/guess", json={"code": code}).json()
    assert [m["remaining"] for m in game["moves"]] == sorted((m["remaining"] for m in game["moves"]), reverse=True)
    assert "3632" in client.get(f"/api/games/{game['id']}/candidates").json()["codes"]
    table = client.get(f"/api/games/{game['id']}/partition", params={"guess": "A B C D"}).json()
    assert table["guess"] == "1234" and sum(c["codes"] for c in table["classes"]) == game["remaining"]
    game = client.post(f"/api/games/{game['id']}/undo").json()
    assert len(game["moves"]) == 3
    assert refused(client.post(f"/api/games/{game['id']}/give-up", json={"seen_moves": 4}), 409)["error"] == \
        "StaleRequest"
    assert refused(client.post(f"/api/games/{game['id']}/give-up", json={"x": 1}), 422)["error"] == "MalformedRequest"
    game = client.post(f"/api/games/{game['id']}/give-up", json={"seen_moves": 3}).json()
    assert game["gave_up"] and game["over"] and game["secret"] == "3632"
    refused(client.get(f"/api/games/{game['id']}/hint"), 409, "the game is over", "3632")
    assert refused(client.post(f"/api/games/{game['id']}/give-up"), 409, "the game is over")["error"] == "GameOver"
    lost = new(client, secret="3632")
    client.post(f"/api/games/{lost['id']}/give-up")
    too_many = client.get(f"/api/games/{lost['id']}/candidates").json()
    assert "1296 codes remain" in too_many["detail"] and "hint" not in too_many["detail"]


def test_a_game_can_be_left(client):
    game = new(client)
    assert client.delete(f"/api/games/{game['id']}").status_code == 204
    refused(client.get(f"/api/games/{game['id']}"), 404, "no game with id")


def test_other_sizes_and_no_repeats(client):
    game = new(client, size="5x8", role="codemaker", seed=1)
    assert game["pegs"] == 5 and game["remaining"] == 32768 and len(game["next_guess"]) == 5
    game = new(client, size="4x6", repeats=False, secret="1234")
    assert game["remaining"] == 360 and not game["repeats"]
    refused(client.post(f"/api/games/{game['id']}/guess", json={"code": "1123"}), 422, "repeats a colour")
    big = new(client, size="4x12", secret="10 2 11 1")
    table = client.get(f"/api/games/{big['id']}/partition", params={"guess": "1 2 3 12"}).json()
    assert table["guess"] == "1 2 3 12" and table["candidates"] == 12**4


def test_info_schema_and_page(client):
    info = client.get("/api/info").json()
    assert info["max_codes"] == info["max_mathmind_codes"] == 2**16 and info["default_strategy"] == "knuth"
    larger = TestClient(create_app(max_codes=2**20)).get("/api/info").json()
    assert (larger["max_codes"], larger["max_mathmind_codes"]) == (2**20, 2**16)
    assert {"knuth", "most-parts", "random"} <= {s["name"] for s in info["strategies"]}
    schema = client.get("/openapi.json").json()
    assert {"/api/games", "/api/games/{game_id}/guess", "/api/games/{game_id}/path"} <= set(schema["paths"])
    page = client.get("/")
    assert page.status_code == 200 and "<title>mmlab" in page.text
    head = client.head("/")  # (as 'curl -I' asks whether the server is up)
    assert head.status_code == 200 and head.headers["etag"] == page.headers["etag"]
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_the_page_and_its_files_are_revalidated_and_versioned(client):
    """A browser must not keep an index.html of one version and an app.js of another (a new app.js reads
    a box an old page lacks): each is revalidated at every load, and the page names its files by content."""
    page = client.get("/")
    assert page.headers["cache-control"] == "no-cache" and page.headers["etag"]
    assert client.get("/", headers={"If-None-Match": page.headers["etag"]}).status_code == 304
    urls = re.findall(r"""["'](/static/[^"']+)["']""", page.text)
    assert sorted(url.split("?")[0] for url in urls) == ["/static/app.js", "/static/style.css"]
    for url in urls:
        name, version = url.removeprefix("/static/").split("?v=")
        assert version == hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12], url
        asset = client.get(url)
        assert asset.status_code == 200 and asset.headers["cache-control"] == "no-cache", url
        again = client.get(url, headers={"If-None-Match": asset.headers["etag"]})
        assert again.status_code == 304 and again.headers["cache-control"] == "no-cache", url


def test_the_page_is_versioned_once_and_again_only_when_a_file_changes(client, tmp_path, monkeypatch):
    """index.html and its files were read and hashed at every load of the page; now once, and again
    when one of them changes on disk (the files are served as they are there, and their URLs must
    follow them)."""
    import shutil
    from pathlib import Path

    import mmlab.web.app

    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    monkeypatch.setattr(mmlab.web.app, "STATIC", folder)
    reads, read_bytes, read_text = [], Path.read_bytes, Path.read_text
    monkeypatch.setattr(Path, "read_bytes", lambda path: reads.append(path.name) or read_bytes(path))
    monkeypatch.setattr(Path, "read_text", lambda path, **kw: reads.append(path.name) or read_text(path, **kw))
    first = [client.get("/") for _ in range(3)]
    assert sorted(reads) == ["app.js", "index.html", "style.css"]
    assert len({(page.text, page.headers["etag"]) for page in first}) == 1
    script = folder / "app.js"
    script.write_text(script.read_text(encoding="utf-8") + "\n// edited\n", encoding="utf-8")
    os.utime(script, ns=(10**18, 10**18))  # (another modification time, however coarse the file system's clock)
    edited = client.get("/")
    version = hashlib.sha256(script.read_bytes()).hexdigest()[:12]
    assert f"/static/app.js?v={version}" in edited.text and edited.headers["etag"] != first[0].headers["etag"]


def test_the_schema_lists_the_errors_every_route_may_answer(client):
    """503 (GameBusy, ServerStopping) on every route, 413 (BodyTooLarge) on every route taking a body."""
    paths = client.get("/openapi.json").json()["paths"]
    routes = [(path, method, route) for path, methods in paths.items() for method, route in methods.items()]
    assert len(routes) >= 13
    for path, method, route in routes:
        assert "503" in route["responses"], (method, path)
        assert route["responses"]["503"]["content"]["application/json"]["schema"]["$ref"].endswith("/Problem")
        assert ("413" in route["responses"]) == ("requestBody" in route), (method, path)
    assert "ServerStopping" in paths["/api/info"]["get"]["responses"]["503"]["description"]
    assert "BodyTooLarge" in paths["/api/games/{game_id}/guess"]["post"]["responses"]["413"]["description"]


# ----------------------------------------------------------------------------- bad input (issue 6)
@pytest.mark.parametrize("code, phrase", [
    ("12", "has 2 pegs, the 4x6 game needs 4"),             # wrong length
    ("12345", "has 5 pegs, the 4x6 game needs 4"),
    ("1127", "'7' is not a colour of the 4x6 game (expected 1-6 or A-F)"),  # colour out of range
    ("12x4", "'x' is not a colour"),                          # bad code
    ("", "has 0 pegs"),
    ("hello", "'hello' is not a code: 'h' is not a colour of the 4x6 game (expected 1-6 or A-F)"),  # a word
    ("abcdef", "has 6 pegs"),                                 # letters that are colours, too many
])
def test_bad_guesses_are_refused(client, code, phrase):
    game = new(client, secret="3632")
    refused(client.post(f"/api/games/{game['id']}/guess", json={"code": code}), 422, phrase)
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


def test_full_width_digits_read_as_the_digits_they_are(client):
    """As an input method types them in full-width mode: they were refused ("'１' is not a colour")."""
    game = new(client, secret="３６３２")
    moves = client.post(f"/api/games/{game['id']}/guess", json={"code": "１１２２"}).json()["moves"]
    assert [(m["guess"], m["black"], m["white"]) for m in moves] == [("1122", 1, 0)]
    split = client.get(f"/api/games/{game['id']}/partition", params={"guess": "１３４４"})
    assert split.status_code == 200 and split.json()["guess"] == "1344", split.text
    maker = new(client, role="codemaker")
    answered = client.post(f"/api/games/{maker['id']}/answer", json={"answer": "１，０"}).json()["moves"]
    assert [(m["black"], m["white"]) for m in answered] == [(1, 0)]


def test_a_bad_secret_or_proposed_guess_is_refused(client):
    refused(client.post("/api/games", json={"secret": "1299"}), 422, "'9' is not a colour")
    game = new(client)
    refused(client.get(f"/api/games/{game['id']}/partition", params={"guess": "123"}), 422, "needs 4")
    refused(client.get(f"/api/games/{game['id']}/partition", params={"guess": "help"}), 422, "'help' is not a code")
    refused(client.post("/api/games", json={"secret": "zzzz"}), 422, "'zzzz' is not a code")
    refused(client.get(f"/api/games/{game['id']}/partition"), 422, "'guess' is required")


@pytest.mark.parametrize("answer, phrase", [
    ({"black": 3, "white": 1}, "3,1 cannot occur"),           # (pegs-1, 1)
    ({"black": 2, "white": 3}, "cannot exceed the 4 pegs"),   # black + white > pegs
    ({"black": 5, "white": 0}, "cannot exceed the 4 pegs"),
    ({"black": -1, "white": 0}, "cannot be negative"),
    ({"answer": "BBBW"}, "3,1 cannot occur"),
    ({"answer": "lots"}, "cannot read the answer 'lots'"),
    ({"black": 1}, 'give the answer as two numbers, e.g. {"black": 1, "white": 2}'),
    ({"black": 1, "white": 0, "answer": "B"}, "not both"),
    ({"white": 0, "answer": "B"}, "not both"),  # either number beside the text is one too many
    ({"black": 1, "answer": "B"}, "not both"),
])
def test_impossible_answers_are_refused(client, answer, phrase):
    game = new(client, role="codemaker")
    refused(client.post(f"/api/games/{game['id']}/answer", json=answer), 422, phrase)
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


def test_contradictory_answers_name_the_answers_and_a_correction_recovers(client):
    secret = GAME.parse("3632")
    game = new(client, role="codemaker")
    game = client.post(f"/api/games/{game['id']}/answer", json={"black": 0, "white": 0}).json()  # wrong: 1,0
    while True:
        fb = GAME.score(secret, GAME.parse(game["next_guess"]))
        response = client.post(f"/api/games/{game['id']}/answer", json={"black": fb.black, "white": fb.white})
        if response.status_code != 200:
            break
        game = response.json()
    data = refused(response, 409, "no code fits all of these answers, so one of them is wrong", "guess 1: 1122 -> 0,0")
    assert data["error"] == "InconsistentFeedback"
    assert client.get(f"/api/games/{game['id']}").json() == game  # nothing lost, nothing added
    refused(client.post(f"/api/games/{game['id']}/correct", json={"move": 9, "black": 1, "white": 0}), 422,
            "no answered guess number 9")
    game = client.post(f"/api/games/{game['id']}/correct", json={"move": 1, "black": 1, "white": 0}).json()
    while not game["won"]:
        fb = GAME.score(secret, GAME.parse(game["next_guess"]))
        game = client.post(f"/api/games/{game['id']}/answer", json={"black": fb.black, "white": fb.white}).json()
    assert game["moves"][-1]["guess"] == "3632"


def test_unknown_game_id(client):
    for response in (client.get("/api/games/no-such-game"),
                     client.post("/api/games/no-such-game/guess", json={"code": "1122"}),
                     client.get("/api/games/no-such-game/hint"),
                     client.delete("/api/games/no-such-game")):
        refused(response, 404, "no game with id 'no-such-game'", "start a new game")


def test_oversized_and_malformed_games(client):
    data = refused(client.post("/api/games", json={"size": "6x8", "role": "codemaker"}), 422,
                   "6x8 game has 262,144 codes", "at most 65,536", "--max-codes")
    assert data["error"] == "GameTooLarge"
    refused(client.post("/api/games", json={"size": "8x12"}), 422, "at most 65,536")
    refused(client.post("/api/games", json={"size": "4*6"}), 422, "write PEGSxCOLOURS")
    refused(client.post("/api/games", json={"size": "11x6"}), 422, "pegs must be a whole number from 1 to 10")
    refused(client.post("/api/games", json={"size": "4x3", "repeats": False}), 422, "needs at least 4 colours")
    refused(client.post("/api/games", json={"strategy": "knut"}), 422, "unknown strategy 'knut'", "knuth")
    refused(client.post("/api/games", json={"role": "codemaker", "strategy": "knuth:pool=some"}), 422, "pool")
    refused(client.post("/api/games", json={"role": "codemaker", "secret": "1234"}), 422,
            "a secret is for the codebreaker role")
    refused(client.post("/api/games", json={"role": "maker"}), 422, "role", "'codebreaker' or 'codemaker'")


def test_malformed_json_and_bodies(client):
    game = new(client)
    url = f"/api/games/{game['id']}/guess"
    data = refused(client.post(url, content=b'{"code": "1122"', headers={"Content-Type": "application/json"}), 422,
                   "not valid JSON", 'for example {"code": "1122"}')
    assert data["error"] == "MalformedRequest"
    refused(client.post("/api/games", content=b"size=4x6", headers={"Content-Type": "application/json"}), 422,
            "not valid JSON")
    refused(client.post(url, content=b'{"code":"', headers={"Content-Type": "application/json"}), 422,
            "(Unterminated string starting at character 8)")
    refused(client.post(url, content=b'{"code": "1122"}', headers={"Content-Type": "text/plain"}), 422,
            "Content-Type: application/json")
    refused(client.post(url, json=["1122"]), 422, "not an object")
    refused(client.post(url), 422, "needs a JSON body")
    refused(client.post(url, json={"guess": "1122"}), 422, "'code' is required", "there is no field 'guess'")
    refused(client.post(url, json={"code": 1122}), 422, "code: Input should be a valid string")
    refused(client.get(f"/api/games/{game['id']}/hint", params={"options": 0}), 422, "options")


def test_moves_of_the_other_role_are_refused(client):
    maker, breaker = new(client, role="codemaker"), new(client)
    refused(client.post(f"/api/games/{maker['id']}/guess", json={"code": "1122"}), 409,
            "'guess' is for the codebreaker role")
    refused(client.get(f"/api/games/{maker['id']}/hint"), 409, "codebreaker role")
    refused(client.post(f"/api/games/{maker['id']}/give-up"), 409, "codebreaker role")
    refused(client.post(f"/api/games/{breaker['id']}/answer", json={"black": 1, "white": 0}), 409,
            "'answer' is for the codemaker role")
    refused(client.get(f"/api/games/{breaker['id']}/path"), 409, "codemaker role")


def test_no_path_for_a_strategy_that_draws_at_random(client):
    game = new(client, role="codemaker", strategy="random", seed=3)
    assert not game["deterministic"]
    refused(client.get(f"/api/games/{game['id']}/path"), 422, "draws at random", "deterministic")


def test_a_won_codemaker_game_refuses_answers_until_undone(client):
    game = new(client, role="codemaker")
    game = client.post(f"/api/games/{game['id']}/answer", json={"black": 4, "white": 0}).json()
    assert game["won"] and game["moves"][0]["guess"] == "1122"
    refused(client.post(f"/api/games/{game['id']}/answer", json={"black": 0, "white": 0}), 409, "the game is over")
    game = client.post(f"/api/games/{game['id']}/undo").json()
    assert not game["won"] and game["next_guess"] == "1122"


def test_a_correction_the_strategy_cannot_follow_says_so_at_once(client):
    """``improvised`` is set in the very response whose ``next_guess`` is improvised."""
    game = new(client, role="codemaker", strategy="greedy3")
    for _ in range(2):
        game = client.post(f"/api/games/{game['id']}/answer", json={"black": 0, "white": 0}).json()
    assert not game["improvised"]
    game = client.post(f"/api/games/{game['id']}/correct", json={"move": 1, "black": 3, "white": 0}).json()
    assert game["improvised"] and game["next_guess"] is not None
    assert client.get(f"/api/games/{game['id']}").json()["improvised"]


def test_a_coach_that_could_never_give_a_hint_is_refused(client):
    refused(client.post("/api/games", json={"role": "codebreaker", "strategy": "tabu"}), 422,
            "can only continue the game it plays itself")


# ----------------------------------------------------------------------------- black-only games
BLACK = Game.parse_size("4x6", feedback="black")


def test_a_black_only_codebreaker_game_gives_the_sessions_answers_hints_and_candidates(client):
    """As 'mmlab play --black-only': the answers, hint tables and codes left are the session's."""
    assert new(client)["feedback"] == "black-white"
    game = new(client, secret="3632", feedback="black")
    assert game["feedback"] == "black" and game["answers"] == [{"black": b, "white": 0} for b in range(4, -1, -1)]
    session = CodebreakerSession(BLACK, secret="3632")
    for code in ("1122", "3344"):
        game = client.post(f"/api/games/{game['id']}/guess", json={"code": code}).json()
        fb = session.guess(code)
        assert (game["moves"][-1]["black"], game["moves"][-1]["white"], game["remaining"]) == (*fb, session.remaining)
    hint, expected = client.get(f"/api/games/{game['id']}/hint").json(), session.hint("knuth")
    assert hint["suggestion"] == BLACK.format(expected.suggestion) and len(hint["options"]) == 3
    for option, table in zip(hint["options"], expected.options, strict=True):
        assert option["classes"] == [{"black": fb.black, "white": 0, "reply": f"{fb.black} black", "win": fb.black == 4,
                                      "codes": n} for fb, n in table["classes"].items()]
    table = client.get(f"/api/games/{game['id']}/partition", params={"guess": "3632"}).json()
    assert [c["black"] for c in table["classes"]] == [4, 3, 2, 1, 0] and table["consistent"]
    codes = client.get(f"/api/games/{game['id']}/candidates", params={"limit": 1000}).json()["codes"]
    assert codes == [BLACK.format(c) for c in session.candidates(1000)]


def test_a_black_only_codemaker_game_answered_with_black_pegs_alone(client):
    secret = BLACK.parse("3632")
    expected = play_game(BLACK, make_strategy("knuth"), secret)
    game = new(client, role="codemaker", feedback="black")
    while not game["won"]:
        black = BLACK.score(secret, BLACK.parse(game["next_guess"])).black
        game = client.post(f"/api/games/{game['id']}/answer", json={"black": black}).json()  # no white
    assert [m["guess"] for m in game["moves"]] == [BLACK.format(g) for g in expected.guesses]
    assert all(m["white"] == 0 for m in game["moves"]) and game["remaining"] == 1
    path = client.get(f"/api/games/{game['id']}/path").json()
    assert path["on_tree"] and path["nodes"][-1]["answer"] == {"black": 4, "white": 0}
    first = game["moves"][0]["guess"]  # (it got no black peg from 3632, which the won game pins down)
    refused(client.post(f"/api/games/{game['id']}/correct", json={"move": 1, "black": 1}), 409,
            f"guess 1: {first} -> 1 black")


@pytest.mark.parametrize("path, body, phrase", [
    ("answer", {"black": 1, "white": 1}, "answer 1,1: this game answers black pegs only"),
    ("answer", {"answer": "BW"}, "answer 1,1: this game answers black pegs only"),
    ("answer", {"white": 0}, 'this game answers black pegs only: give their number, e.g. {"black": 2}'),
    ("answer", {"black": 5}, "black cannot exceed the 4 pegs"),
    ("correct", {"move": 1, "black": 2, "white": 1}, "answer 2,1: this game answers black pegs only"),
])
def test_a_black_only_game_refuses_white_pegs(client, path, body, phrase):
    game = new(client, role="codemaker", feedback="black")
    game = client.post(f"/api/games/{game['id']}/answer", json={"black": 1}).json()
    assert refused(client.post(f"/api/games/{game['id']}/{path}", json=body), 422, phrase)["error"] == "BadFeedback"
    assert [(m["black"], m["white"]) for m in client.get(f"/api/games/{game['id']}").json()["moves"]] == [(1, 0)]


def test_the_feedback_field_is_named_as_the_game_names_it(client):
    refused(client.post("/api/games", json={"black_only": True}), 422,
            "there is no field 'black_only'; for answers of black pegs only send \"feedback\": \"black\"")
    refused(client.post("/api/games", json={"no_repeats": True}), 422, "send \"repeats\": false")
    refused(client.post("/api/games", json={"feedback": "white"}), 422,
            "'black-white', 'black', 'higher-lower', 'euclidean' or 'manhattan'")
    refused(client.post(f"/api/games/{new(client, role='codemaker')['id']}/answer", json={"black": 1}), 422,
            "give the answer as two numbers")  # white is left out only where it is never counted
    field = client.get("/openapi.json").json()["components"]["schemas"]["NewGame"]["properties"]["feedback"]
    assert field["enum"] == ["black-white", "black", "higher-lower", "euclidean", "manhattan"]
    assert "--black-only" in field["description"] and "mmlab mathmind guess" in field["description"]


def test_a_codemaker_lists_exactly_its_limit_of_codes_and_its_path_counts_the_parts(client):
    """1122 answered 3,0: one peg is wrong, any of the 5 other colours there (a 2 for a 1 takes no
    white: 2122 holds one 1 and three 2s), so 4 x 5 = 20 codes, checked by brute force; listed with
    limit 20, refused with 19. The path's node counts the classes of 1122 over every code."""
    game = new(client, role="codemaker", strategy="knuth")
    url = f"/api/games/{game['id']}"
    client.post(f"{url}/answer", json={"black": 3, "white": 0})
    fits = [GAME.format(c) for c in range(GAME.n_codes) if GAME.score(GAME.parse("1122"), c) == (3, 0)]
    assert len(fits) == 20
    assert client.get(f"{url}/candidates", params={"limit": 20}).json() == {"remaining": 20, "codes": fits}
    refused(client.get(f"{url}/candidates", params={"limit": 19}), 422, "20 codes", "at most 19")
    first = client.get(f"{url}/path").json()["nodes"][0]
    assert (first["guess"], first["remaining"]) == ("1122", 1296)
    assert first["parts"] == len({GAME.score(GAME.parse("1122"), c) for c in range(GAME.n_codes)})


def test_a_codebreaker_game_given_up_takes_no_undo(client):
    """Given up, the game is over: an undo would take back a guess of a game whose secret is shown."""
    game = new(client, secret="3632")
    url = f"/api/games/{game['id']}"
    client.post(f"{url}/guess", json={"code": "1122"})
    client.post(f"{url}/give-up")
    assert refused(client.post(f"{url}/undo"), 409, "the game is over")["error"] == "GameOver"
    assert len(client.get(url).json()["moves"]) == 1


def test_the_query_limits_are_the_documented_ones(client):
    """options 1-10 (3 by default), limit 1-1000 (50 by default), as the schema says."""
    game = new(client, secret="3632")
    url = f"/api/games/{game['id']}"
    refused(client.get(f"{url}/candidates"), 422, "1296 codes", "at most 50")
    client.post(f"{url}/guess", json={"code": "1122"})  # 1,0: 256 codes
    assert len(client.get(f"{url}/hint", params={"options": 10}).json()["options"]) == 10
    refused(client.get(f"{url}/hint", params={"options": 11}), 422, "options")
    refused(client.get(f"{url}/candidates", params={"limit": 1001}), 422, "limit")
    assert client.get(f"{url}/candidates", params={"limit": 1000}).json()["remaining"] == 256
