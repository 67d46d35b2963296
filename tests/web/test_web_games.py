"""The registry of live games: ids, expiry of idle games, the limits on their number and size."""

import threading

import pytest
from fastapi.testclient import TestClient

from mmlab.errors import BadArgument
from mmlab.game import Game
from mmlab.web import create_app
from mmlab.web.errors import GameNotFound, GameTooLarge, TooManyGames
from mmlab.web.games import GameRegistry

GAME = Game.parse_size("4x6")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def minutes(self, m: float) -> None:
        self.now += 60 * m


def test_idle_games_expire_and_active_ones_stay():
    clock = Clock()
    registry = GameRegistry(idle_minutes=10, clock=clock)
    idle = registry.create(GAME, "codebreaker")
    busy = registry.create(GAME, "codemaker")
    for _ in range(3):
        clock.minutes(6)
        registry.get(busy.id)  # a request keeps a game alive
    assert len(registry) == 1
    with pytest.raises(GameNotFound, match="expired after 10 minutes without a request"):
        registry.get(idle.id)
    clock.minutes(10.5)
    assert registry.expire() == 1 and len(registry) == 0


def test_an_idle_time_of_one_minute_is_said_in_the_singular():
    registry = GameRegistry(max_games=1, idle_minutes=1)
    registry.create(GAME, "codebreaker")
    with pytest.raises(GameNotFound, match="expired after 1 minute without a request;"):
        registry.get("nope")
    with pytest.raises(TooManyGames, match="once idle games expire \\(after 1 minute without a request\\)"):
        registry.create(GAME, "codebreaker")


def test_expiry_through_the_api():
    clock = Clock()
    client = TestClient(create_app(registry=GameRegistry(idle_minutes=5, clock=clock)))
    game = client.post("/api/games", json={"secret": "1234"}).json()
    clock.minutes(4)
    assert client.post(f"/api/games/{game['id']}/guess", json={"code": "1122"}).status_code == 200
    clock.minutes(5.01)
    response = client.get(f"/api/games/{game['id']}")
    assert response.status_code == 404 and "expired after 5 minutes" in response.json()["detail"]


def test_a_request_longer_than_the_idle_time_leaves_its_game_alive(monkeypatch):
    """A codemaker game's first guess at a large size can take longer than the idle time: the game is
    marked as used when the request ends, not only when it starts."""
    from mmlab.web import views

    clock = Clock()
    client = TestClient(create_app(registry=GameRegistry(idle_minutes=5, clock=clock)))
    slow_state = views.state

    def slow(live, idle_minutes):
        clock.minutes(6)  # the request works for six minutes
        return slow_state(live, idle_minutes)

    monkeypatch.setattr(views, "state", slow)
    game = client.post("/api/games", json={"secret": "1234"}).json()
    monkeypatch.setattr(views, "state", slow_state)
    assert client.post(f"/api/games/{game['id']}/guess", json={"code": "1122"}).status_code == 200


def test_a_game_does_not_expire_while_a_request_on_it_runs():
    """Its idle time counts from the end of its last request: a codemaker move at a large size can
    take longer than the idle time, and other requests meanwhile (a count of live games, a new game
    at the limit) must not drop the game it works on."""
    clock = Clock()
    registry = GameRegistry(max_games=2, idle_minutes=5, clock=clock)
    game = registry.create(GAME, "codemaker")
    other = registry.create(GAME, "codebreaker")
    with registry.using(game.id) as live:
        assert live is game
        clock.minutes(20)
        assert len(registry) == 1 and registry.expire() == 0  # the idle one went, the busy one stays
        with registry.using(game.id):  # a second request on it, e.g. a reload while mmlab thinks
            clock.minutes(10)
        assert registry.expire() == 0
        with pytest.raises(GameNotFound):
            registry.get(other.id)
    clock.minutes(4.9)
    assert len(registry) == 1 and registry.get(game.id) is game
    clock.minutes(5.1)
    assert registry.expire() == 1


def test_a_game_left_while_a_request_runs_keeps_its_tables_until_the_request_ends():
    registry = GameRegistry()
    game = registry.create(Game.parse_size("3x5"), "codemaker")
    tables = {"all_digits", "all_counts", "_table"}
    game.game.table()
    with registry.using(game.id):
        registry.remove(game.id)  # the page's New game, while mmlab still works out its move
        assert tables <= set(vars(game.game))
        with pytest.raises(GameNotFound):
            registry.get(game.id)
    assert not tables & set(vars(game.game))


def test_through_the_api_a_game_stays_live_while_its_request_runs(monkeypatch):
    from mmlab.web import views

    clock = Clock()
    registry = GameRegistry(idle_minutes=5, clock=clock)
    client = TestClient(create_app(registry=registry))
    game = client.post("/api/games", json={"role": "codemaker"}).json()
    slow_state, seen = views.state, []

    def slow(live, idle_minutes):
        clock.minutes(6)  # mmlab works out its next guess for six minutes
        seen.append(client.get("/api/info").json()["live_games"])  # asked meanwhile, e.g. from another tab
        return slow_state(live, idle_minutes)

    monkeypatch.setattr(views, "state", slow)
    assert client.post(f"/api/games/{game['id']}/answer", json={"black": 1, "white": 0}).status_code == 200
    monkeypatch.setattr(views, "state", slow_state)
    assert seen == [1]
    clock.minutes(4)  # idle time counts from the end of the request
    assert client.get(f"/api/games/{game['id']}").status_code == 200


def test_the_live_game_limit():
    clock = Clock()
    registry = GameRegistry(max_games=2, idle_minutes=1, clock=clock)
    client = TestClient(create_app(registry=registry))
    first, _ = (client.post("/api/games").json() for _ in range(2))
    response = client.post("/api/games")
    assert response.status_code == 429
    assert "already holds 2 live games, its limit" in response.json()["detail"]
    assert "--max-games" in response.json()["detail"]
    assert client.delete(f"/api/games/{first['id']}").status_code == 204  # leaving frees a place
    assert client.post("/api/games").status_code == 201
    lone = TestClient(create_app(registry=GameRegistry(max_games=1, idle_minutes=1, clock=clock)))
    lone.post("/api/games")
    assert "already holds 1 live game, its limit" in lone.post("/api/games").json()["detail"]
    assert client.post("/api/games").status_code == 429
    clock.minutes(2)  # so does expiry
    assert client.post("/api/games").status_code == 201


def test_the_limit_holds_under_concurrent_creation():
    registry = GameRegistry(max_games=5)
    made, refused = [], []
    barrier = threading.Barrier(20)

    def create() -> None:
        barrier.wait()
        try:
            made.append(registry.create(GAME, "codebreaker").id)
        except TooManyGames:
            refused.append(1)

    threads = [threading.Thread(target=create) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == len(set(made)) == 5 and len(refused) == 15 and len(registry) == 5


def test_the_size_limit_and_random_ids():
    registry = GameRegistry(max_codes=1296)
    assert registry.create(Game.parse_size("4x6"), "codemaker").game.n_codes == 1296
    with pytest.raises(GameTooLarge, match=r"the 4x7 game has 2,401 codes, more than this server plays \(at most "
                                           r"1,296\); choose fewer pegs or colours, or restart the server with a "
                                           r"larger 'mmlab serve --max-codes' \(at most 16,777,216\)$"):
        registry.create(Game.parse_size("4x7"), "codebreaker")
    with pytest.raises(GameTooLarge, match=r"8x12 game has 429,981,696 codes, more than this server plays \(at "
                                           r"most 1,296\); choose fewer pegs or colours$"):  # (no --max-codes reaches it)
        registry.create(Game.parse_size("8x12"), "codebreaker")
    ids = {registry.create(GAME, "codebreaker").id for _ in range(50)}
    assert len(ids) == 50 and all(len(i) >= 16 for i in ids)
    with pytest.raises(BadArgument, match="codes per game must be from 1 to 16,777,216"):
        GameRegistry(max_codes=2**30)
    with pytest.raises(BadArgument, match="at least 1"):
        GameRegistry(max_games=0)
    for idle in (0, float("inf"), float("nan")):
        with pytest.raises(BadArgument, match="a finite number of idle minutes above 0"):
            GameRegistry(idle_minutes=idle)


def test_games_of_one_size_share_their_rules():
    registry = GameRegistry()
    a = registry.create(Game.parse_size("4x6"), "codebreaker")
    b = registry.create(Game.parse_size("4x6"), "codemaker")
    assert a.game is b.game  # the code tables of a size are built once


def test_a_size_no_game_plays_any_more_frees_its_tables():
    clock = Clock()
    registry = GameRegistry(idle_minutes=10, clock=clock)
    a = registry.create(Game.parse_size("4x6"), "codemaker")
    b = registry.create(Game.parse_size("4x6"), "codemaker")
    other = registry.create(Game.parse_size("3x5"), "codemaker")
    tables = {"all_digits", "all_counts", "_table"}
    for game in (a.game, other.game):
        game.table()  # as the games' moves would build them
    assert tables <= set(vars(a.game)) and tables <= set(vars(other.game))
    registry.remove(a.id)
    assert tables <= set(vars(b.game))  # another game still plays 4x6
    registry.remove(b.id)
    assert not tables & set(vars(b.game))
    clock.minutes(11)
    assert registry.expire() == 1 and not tables & set(vars(other.game))  # expiry frees them too
    again = registry.create(Game.parse_size("4x6"), "codemaker")
    assert again.game is not b.game and again.session.remaining == 1296


def test_oversized_through_a_server_with_a_lower_limit():
    client = TestClient(create_app(max_codes=1000))
    response = client.post("/api/games", json={"size": "4x6"})
    assert response.status_code == 422
    assert response.json()["detail"].startswith(
        "the 4x6 game has 1,296 codes, more than this server plays (at most 1,000)")
    assert client.post("/api/games", json={"size": "3x6"}).status_code == 201
