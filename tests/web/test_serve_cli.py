"""`mmlab serve` as a person starts it: the page and the API answer, mistakes get one line."""

import signal
import socket
import subprocess
import sys
import time

import httpx2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mmlab", "serve", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_mmlab_serve_serves_the_page_and_the_api():
    port = free_port()
    process = serve("--port", str(port), "--max-games", "3", "--idle-minutes", "2")
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                page = httpx2.get(base + "/", timeout=2)
                break
            except httpx2.TransportError:
                assert process.poll() is None, process.communicate()
                assert time.monotonic() < deadline, "mmlab serve did not answer within 30 s"
                time.sleep(0.1)
        assert page.status_code == 200 and "mmlab" in page.text
        info = httpx2.get(base + "/api/info").json()
        assert (info["max_games"], info["idle_minutes"], info["max_codes"]) == (3, 2.0, 65536)
        game = httpx2.post(base + "/api/games", json={"secret": "1234"}).json()
        state = httpx2.post(f"{base}/api/games/{game['id']}/guess", json={"code": "1234"}).json()
        assert state["won"]
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    assert f"serving on http://127.0.0.1:{port}" in err
    assert "Traceback" not in err
    # Ctrl-C ends it as it ends every command, by SIGINT's default action, so that a shell loop stops
    assert (process.returncode, err.strip().splitlines()[-1]) == (-signal.SIGINT, "interrupted")


def test_a_port_in_use_is_refused_with_a_message():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = serve("--port", str(port))
        _, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert f"cannot serve on 127.0.0.1:{port}" in err and "--port" in err and "Traceback" not in err


def test_bad_limits_are_refused():
    process = serve("--max-codes", "0")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2 and "--max-codes must be more than 0" in err
    process = serve("--idle-minutes", "inf")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2 and "--idle-minutes must be more than 0 and finite, got inf" in err
