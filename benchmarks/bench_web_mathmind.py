"""MathMind in the web server: how long a player waits, through the JSON API (FastAPI's TestClient).

    python benchmarks/bench_web_mathmind.py            # 4x6, 5x8 and 8x4 (65,536 codes): about 10 s
    python benchmarks/bench_web_mathmind.py --quick    # 4x6 and 5x6

For each size and answer kind, one game: the first hint (the rule scores the first guesses, one per
set of colours, once per server: "first hint"), the first hint of a second game of that kind (kept: "again"),
a guess, the hint after it, the give-up (which plays the rule's game for the end's count) and a
state read once over (kept, so a reload costs nothing). Knuth's rule; secret and guess fixed.
"""

from __future__ import annotations

from _script import run_script  # first: a Ctrl-C while the rest loads ends in one line

import argparse
import time

from fastapi.testclient import TestClient

from mmlab.web import create_app

QUICK = ["4x6", "5x6"]
FULL = ["4x6", "5x8", "8x4"]
ANSWERS = ["higher-lower", "euclidean"]


def timed(client: TestClient, method: str, path: str, body: dict | None = None) -> tuple[dict, float]:
    """The answer to one request, and the seconds it took."""
    start = time.perf_counter()
    response = client.request(method, path, json=body)
    assert response.status_code < 300, response.text
    return response.json(), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="4x6 and 5x6 only (a few seconds)")
    args = parser.parse_args()
    client = TestClient(create_app(max_codes=2**16))
    warm = client.post("/api/games", json={"size": "2x3", "feedback": "euclidean"}).json()["id"]
    client.get(f"/api/games/{warm}/hint")  # (the kernels loaded: the seconds below are the work's)
    columns = ["first hint", "again", "guess", "hint", "give-up", "read"]
    print(f"{'size':5} {'answers':13} {'codes':>7} " + " ".join(f"{c:>10}" for c in columns) + "   (seconds)")
    for size in QUICK if args.quick else FULL:
        for answers in ANSWERS:
            body = {"size": size, "feedback": answers, "seed": 1}
            game = client.post("/api/games", json=body).json()
            url = f"/api/games/{game['id']}"
            first, t_first = timed(client, "GET", f"{url}/hint")
            other = client.post("/api/games", json=body).json()["id"]
            _, t_again = timed(client, "GET", f"/api/games/{other}/hint")
            _, t_guess = timed(client, "POST", f"{url}/guess", {"code": first["suggestion"]})
            _, t_hint = timed(client, "GET", f"{url}/hint")
            over, t_give_up = timed(client, "POST", f"{url}/give-up")
            _, t_read = timed(client, "GET", url)
            cells = [t_first, t_again, t_guess, t_hint, t_give_up, t_read]
            print(f"{size:5} {answers:13} {game['remaining']:7,} " + " ".join(f"{t:10.3f}" for t in cells)
                  + f"   (knuth needs {over['rule_guesses']})", flush=True)
            for game_id in (game["id"], other):
                client.delete(f"/api/games/{game_id}")


if __name__ == "__main__":
    run_script(main)
