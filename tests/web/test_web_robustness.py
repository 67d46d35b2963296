"""The API under the requests a page or script can send by mistake: double clicks, a second tab,
endless moves, wrong types, unknown routes, and faults of the server itself; every answer JSON."""

import threading

import pytest
from fastapi.testclient import TestClient

from mmlab.web import create_app
from mmlab.web.app import MAX_LISTED, needs_engine_lock
from mmlab.web.games import MAX_MOVES
from mmlab.web.limits import MAX_BODY
from tests.web.test_web_api import new, refused


def test_a_move_made_on_a_stale_view_is_refused(client):
    game = new(client, secret="3632")
    url = f"/api/games/{game['id']}"
    assert client.post(f"{url}/guess", json={"code": "1122", "seen_moves": 0}).status_code == 200
    data = refused(client.post(f"{url}/guess", json={"code": "1122", "seen_moves": 0}), 409,
                   "after 0 moves, but it has 1 now", "reload the game")
    assert data["error"] == "StaleRequest"
    refused(client.post(f"{url}/undo", json={"seen_moves": 0}), 409, "after 0 moves")
    assert len(client.get(url).json()["moves"]) == 1  # the double click played one guess
    game = client.post(f"{url}/undo", json={"seen_moves": 1}).json()
    assert game["moves"] == [] and game["remaining"] == 1296
    maker = new(client, role="codemaker")
    url = f"/api/games/{maker['id']}"
    client.post(f"{url}/answer", json={"black": 1, "white": 0, "seen_moves": 0})
    refused(client.post(f"{url}/answer", json={"black": 0, "white": 0, "seen_moves": 0}), 409, "after 0 moves")
    refused(client.post(f"{url}/correct", json={"move": 1, "black": 0, "white": 1, "seen_moves": 2}), 409,
            "after 2 moves, but it has 1")
    assert client.post(f"{url}/answer", json={"black": 0, "white": 0}).status_code == 200  # seen_moves optional


def test_a_game_holds_at_most_max_moves(client):
    game = new(client, secret="3632")
    url = f"/api/games/{game['id']}"
    for _ in range(MAX_MOVES):
        state = client.post(f"{url}/guess", json={"code": "1111"}).json()
    assert len(state["moves"]) == MAX_MOVES and [m["remaining"] for m in state["moves"][-2:]] == [625, 625]
    data = refused(client.post(f"{url}/guess", json={"code": "1111"}), 409, f"{MAX_MOVES} moves", "undo")
    assert data["error"] == "TooManyMoves"
    assert client.post(f"{url}/undo").status_code == 200
    assert client.post(f"{url}/guess", json={"code": "3632"}).json()["won"]


def test_counts_after_undo_and_new_moves_match_a_replay(client):
    game = new(client, secret="3632")
    url = f"/api/games/{game['id']}"
    for code in ("1122", "1344", "3526"):
        client.post(f"{url}/guess", json={"code": code})
    client.post(f"{url}/undo")
    state = client.post(f"{url}/guess", json={"code": "1462"}).json()
    fresh = new(client, secret="3632")
    for code in ("1122", "1344", "1462"):
        replay = client.post(f"/api/games/{fresh['id']}/guess", json={"code": code}).json()
    assert [m["remaining"] for m in state["moves"]] == [m["remaining"] for m in replay["moves"]]
    assert state["remaining"] == replay["remaining"]


def test_numbers_must_be_numbers(client):
    maker = new(client, role="codemaker")
    url = f"/api/games/{maker['id']}"
    refused(client.post(f"{url}/answer", json={"black": "1", "white": 0}), 422, "black", "valid integer")
    refused(client.post(f"{url}/answer", json={"black": 1.0, "white": 0}), 422, "black")
    refused(client.post(f"{url}/answer", json={"black": True, "white": 0}), 422, "black")
    refused(client.post(f"{url}/answer", json={"black": 1, "white": 0, "seen_moves": "0"}), 422, "seen_moves")
    refused(client.post(f"{url}/correct", json={"move": "1", "black": 1, "white": 0}), 422, "move")


def test_long_inputs_are_echoed_short_and_field_problems_are_capped(client):
    long_id = "x" * 5000
    data = refused(client.get(f"/api/games/{long_id}"), 404, "no game with id")
    assert len(data["detail"]) < 400
    data = refused(client.post("/api/games", json={f"field{i}": i for i in range(100)}), 422, "there is no field")
    assert len(data["errors"]) == MAX_LISTED
    game = new(client)
    data = refused(client.post(f"/api/games/{game['id']}/guess", json={"code": ["1"] * 5000}), 422, "code")
    assert len(data["detail"]) < 400
    url = f"/api/games/{game['id']}"
    for response in (client.post(f"{url}/guess", json={"code": "x" * 10_000}),
                     client.get(f"{url}/partition", params={"guess": "7" * 5000}),
                     client.post("/api/games", json={"strategy": "k" * 5000}),
                     client.post("/api/games", json={"size": "1" * 5000 + "x6"}),
                     client.post(f"{url}/guess", json={"code": "1122", "seen_moves": 10**4000})):
        data = refused(response, response.status_code)
        assert 400 <= response.status_code < 500 and len(data["detail"]) < 400, data["detail"][:100]


def test_bodies_that_cannot_be_read_are_malformed_requests(client):
    url = f"/api/games/{new(client)['id']}"
    for body in ('{"seen_moves": ' + "9" * 5000 + "}", b'{"code": "\xff"}'):
        data = refused(client.post(f"{url}/undo", content=body, headers={"content-type": "application/json"}), 422,
                       "cannot be read as JSON")
        assert data["error"] == "MalformedRequest"


def test_new_game_fields_must_have_their_types(client):
    for body in ({"seed": "5"}, {"seed": True}, {"seed": 1.0}, {"repeats": "no"}, {"repeats": 0}):
        refused(client.post("/api/games", json=body), 422, next(iter(body)))
    assert new(client, seed=5, repeats=False)["repeats"] is False


def test_unknown_routes_and_methods_answer_json(client):
    data = refused(client.get("/api/nothing-here"), 404, "no page or API route", "/openapi.json")
    assert data["error"] == "NotFound" and "the API's routes are listed in its schema" in data["detail"]
    for path in ("/nothing-here", "/apifoo"):
        assert "the API is under /api" in refused(client.get(path), 404, "no page or API route")["detail"]
    data = refused(client.put("/api/games"), 405, "PUT is not allowed on '/api/games'")
    assert data["error"] == "MethodNotAllowed"


def test_a_fault_of_the_server_is_a_json_500(monkeypatch):
    client = TestClient(create_app(), raise_server_exceptions=False)
    game = new(client)

    def broken(live, guess):
        raise RuntimeError("kernel failed")

    monkeypatch.setattr("mmlab.web.views.partition", broken)
    data = refused(client.get(f"/api/games/{game['id']}/partition", params={"guess": "1122"}), 500,
                   "RuntimeError: 'kernel failed'", "not a mistake of yours")
    assert data["error"] == "ServerFault"
    assert client.get(f"/api/games/{game['id']}").status_code == 200  # the game goes on


def test_the_engine_lock_is_needed_only_without_a_thread_safe_layer(monkeypatch):
    import numba

    monkeypatch.setattr(numba.config, "THREADING_LAYER", "workqueue")
    assert needs_engine_lock()
    monkeypatch.setattr(numba.config, "THREADING_LAYER", "default")
    assert needs_engine_lock() == (not _loads_a_safe_layer())  # omppool loads here

    def nothing_loads(name):
        raise ImportError(name)

    monkeypatch.setattr("mmlab.web.app.importlib.import_module", nothing_loads)
    assert needs_engine_lock()


def _loads_a_safe_layer() -> bool:
    import importlib

    for pool in ("numba.np.ufunc.tbbpool", "numba.np.ufunc.omppool"):
        try:
            importlib.import_module(pool)
            return True
        except ImportError:
            pass
    return False


@pytest.mark.parametrize("spec", ["evo:generations=100000000", "sample:endgame=200", "ga:pop=1000"])
def test_the_server_plays_how_much_a_strategy_searches_at_its_defaults(client, spec):
    name, changed = spec.split(":")
    refused(client.post("/api/games", json={"strategy": spec}), 422, f"leave out {changed}", "mmlab play")
    refused(client.post("/api/games", json={"strategy": spec, "role": "codemaker"}), 422, f"leave out {changed}")
    game = new(client, secret="3632")
    client.post(f"/api/games/{game['id']}/guess", json={"code": "1122"})
    refused(client.get(f"/api/games/{game['id']}/hint", params={"strategy": spec}), 422, f"leave out {changed}")
    assert client.get(f"/api/games/{game['id']}/hint", params={"strategy": name}).status_code == 200


def test_a_request_on_a_busy_game_is_answered_503_instead_of_waiting(client, monkeypatch):
    monkeypatch.setattr("mmlab.web.app.BUSY_SECONDS", 0.2)
    game = new(client, secret="3632")
    live = client.app.state.games.get(game["id"])
    held, done = threading.Event(), threading.Event()
    holder = threading.Thread(target=lambda: (live.lock.acquire(), held.set(), done.wait(), live.lock.release()))
    holder.start()  # another thread holds the game, as a long hint would
    held.wait()  # (else the request may take the game first, on a busy machine)
    try:
        data = refused(client.get(f"/api/games/{game['id']}"), 503, "busy with an earlier request", "try again")
        assert data["error"] == "GameBusy"
        assert client.get("/api/info").status_code == 200  # the rest of the server answers
    finally:
        done.set()
        holder.join()
    assert client.get(f"/api/games/{game['id']}").status_code == 200


def test_a_hint_is_worked_out_once_per_position(client, monkeypatch):
    game = new(client, secret="3632")
    url = f"/api/games/{game['id']}"
    live = client.app.state.games.get(game["id"])
    calls = []
    real = type(live.session).hint
    monkeypatch.setattr(type(live.session), "hint", lambda self, *a: calls.append(a) or real(self, *a))
    first = client.get(f"{url}/hint").json()
    assert client.get(f"{url}/hint").json() == first and len(calls) == 1
    client.post(f"{url}/guess", json={"code": "1122"})
    client.get(f"{url}/hint")
    client.get(f"{url}/hint", params={"options": 5})
    assert len(calls) == 3


def test_hint_options_are_the_strategys_best_guesses_each_splitting_otherwise(client):
    game = new(client, secret="3632")
    url = f"/api/games/{game['id']}"
    first = client.get(f"{url}/hint", params={"options": 5}).json()["options"]
    assert [o["guess"] for o in first] == ["1122", "1123", "1234", "1112", "1111"]  # Knuth's order: 256, 276, 312, ...
    assert [o["largest"] for o in first] == sorted(o["largest"] for o in first)
    client.post(f"{url}/guess", json={"code": "1122"})
    options = client.get(f"{url}/hint", params={"options": 10, "strategy": "entropy:ties=random"}).json()["options"]
    bits = [o["entropy_bits"] for o in options]
    assert len(options) == 10 and bits[0] == max(bits)
    splits = [(tuple(c["codes"] for c in o["classes"]), o["consistent"]) for o in options]
    assert len(set(splits)) == len(splits)  # (not only the first apart from the others)


def test_a_body_larger_than_the_limit_is_refused_before_it_is_read(client):
    game = new(client, secret="3632")
    url = f"/api/games/{game['id']}/guess"
    data = refused(client.post(url, json={"code": "1" * (MAX_BODY + 1)}), 413, "at most 65,536 bytes")
    assert data["error"] == "BodyTooLarge"
    chunks = (b'{"code": "' + b"1" * 1000 + b'"}' if i == 0 else b" " * 1000 for i in range(100))
    refused(client.post(url, content=chunks, headers={"content-type": "application/json"}), 413, "at most")
    small = (part for part in (b'{"code": ', b'"1122"}'))  # chunked too, and within the limit
    assert client.post(url, content=small, headers={"content-type": "application/json"}).status_code == 200


def test_negative_seeds_and_move_counts_are_malformed(client):
    """A seed numpy refuses, and a count of moves seen that no game has, are the request's mistake."""
    assert refused(client.post("/api/games", json={"seed": -1}), 422, "seed")["error"] == "MalformedRequest"
    game = new(client, secret="3632")
    data = refused(client.post(f"/api/games/{game['id']}/guess", json={"code": "1122", "seen_moves": -1}), 422,
                   "seen_moves")
    assert data["error"] == "MalformedRequest"


def test_a_body_of_exactly_the_limit_is_read_and_one_byte_more_is_not():
    """With a declared length, and chunked (no length declared), at the limit of 10 bytes."""
    from fastapi import FastAPI

    from mmlab.web.limits import BodyLimit

    app = FastAPI()
    app.add_middleware(BodyLimit, limit=10)

    @app.post("/echo")
    def echo(body: dict) -> dict:
        return body

    echo_client = TestClient(app)
    at, over = b'{"a": 123}', b'{"a": 1234}'
    assert len(at) == 10 and len(over) == 11
    for chunks in (False, True):
        def send(body, chunks=chunks):
            content = iter([body[:4], body[4:]]) if chunks else body
            return echo_client.post("/echo", content=content, headers={"content-type": "application/json"})

        assert send(at).json() == {"a": 123}, chunks
        assert send(over).status_code == 413, chunks


def test_a_declared_length_that_is_no_number_is_refused():
    import asyncio

    from mmlab.web.limits import BodyLimit

    async def app(scope, receive, send):
        raise AssertionError("the request was passed on")

    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    scope = {"type": "http", "method": "POST", "path": "/", "headers": [(b"content-length", b"ten")]}
    asyncio.run(BodyLimit(app, limit=10)(scope, receive, send))
    assert sent[0]["status"] == 413


def test_a_game_of_max_moves_can_still_be_given_up(client):
    """The limit refuses moves that add one; giving up adds none (with adds=True it was refused)."""
    game = new(client, secret="3632")
    url = f"/api/games/{game['id']}"
    for _ in range(MAX_MOVES):
        client.post(f"{url}/guess", json={"code": "1111"})
    state = client.post(f"{url}/give-up").json()
    assert state["gave_up"] and state["secret"] == "3632" and len(state["moves"]) == MAX_MOVES
