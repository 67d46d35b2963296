"""A real uvicorn server on loopback: 50 games played at once, none seeing another's state."""

import threading

import httpx2
import numpy as np

from mmlab.game import Game
from mmlab.knowledge import Knowledge

GAME = Game.parse_size("4x6")
N_GAMES = 50


def play_codebreaker(base: str, secret: int, guesses: list[int]) -> list[str]:
    """Guess the given codes, then the secret; return what went wrong (nothing, if isolated)."""
    problems = []
    with httpx2.Client(base_url=base, timeout=60) as http:
        game = http.post("/api/games", json={"secret": GAME.format(secret)}).json()
        knowledge = Knowledge.initial(GAME)
        for n, guess in enumerate([*guesses, secret], 1):
            state = http.post(f"/api/games/{game['id']}/guess", json={"code": GAME.format(guess)}).json()
            fb = GAME.score(secret, guess)
            knowledge = knowledge.update(guess, fb)
            mine = [(m["guess"], m["black"], m["white"]) for m in state["moves"]]
            played = [GAME.format(g) for g in [*guesses, secret][:n]]
            if state["id"] != game["id"] or [m[0] for m in mine] != played:
                problems.append(f"game {game['id']} saw moves {mine}, it played {played}")
            if mine[-1][1:] != tuple(fb) or state["remaining"] != knowledge.n_consistent:
                problems.append(f"game {game['id']}: {played[-1]} got {mine[-1][1:]}, the secret gives {tuple(fb)}")
        if not state["won"] or state["secret"] != GAME.format(secret):
            problems.append(f"game {game['id']} did not end with its own secret: {state['secret']}")
    return problems


def play_codemaker(base: str, secret: int) -> list[str]:
    """Answer mmlab truly for ``secret`` until it wins; return what went wrong."""
    problems = []
    with httpx2.Client(base_url=base, timeout=60) as http:
        state = http.post("/api/games", json={"role": "codemaker"}).json()
        game_id, answered = state["id"], []
        while not state["won"] and len(answered) < 10:
            guess = GAME.parse(state["next_guess"])
            fb = GAME.score(secret, guess)
            state = http.post(f"/api/games/{game_id}/answer", json={"black": fb.black, "white": fb.white}).json()
            answered.append((GAME.format(guess), fb.black, fb.white))
            if "moves" not in state:
                return [f"game {game_id}: {state}"]
            if [(m["guess"], m["black"], m["white"]) for m in state["moves"]] != answered:
                problems.append(f"game {game_id} saw answers it did not give: {state['moves']}")
        if state["moves"][-1]["guess"] != GAME.format(secret):
            problems.append(f"game {game_id} ended on {state['moves'][-1]['guess']}, not its secret")
    return problems


def test_fifty_concurrent_games_are_isolated(server):
    rng = np.random.default_rng(6)
    secrets = rng.choice(GAME.n_codes, size=N_GAMES, replace=False)
    guesses = [[int(g) for g in rng.choice(GAME.n_codes, size=3) if g != s] for s in secrets]
    problems: list[str] = []
    barrier = threading.Barrier(N_GAMES)

    def run(i: int) -> None:
        barrier.wait()
        try:
            if i % 2:
                problems.extend(play_codemaker(server, int(secrets[i])))
            else:
                problems.extend(play_codebreaker(server, int(secrets[i]), guesses[i]))
        except Exception as e:  # a failed request is a failed game too
            problems.append(f"game {i}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=run, args=(i,)) for i in range(N_GAMES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "some games did not finish within 2 minutes"
    assert problems == []
