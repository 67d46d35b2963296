"""`mmlab serve` as a person starts it: the page and the API answer, mistakes get one line."""

import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx2
import pytest

from mmlab.errors import BadArgument

#: ``mmlab serve`` whose candidates request computes for ever, saying when it starts.
STUCK_SERVER = """
import sys, threading
from mmlab.web import views

def stuck(live, limit):
    print("computing", file=sys.stderr, flush=True)
    threading.Event().wait()

views.candidates = stuck
from mmlab.cli.entry import run
run()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mmlab", "serve", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for(process: subprocess.Popen, base: str) -> httpx2.Response:
    """The front page, once the server answers."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return httpx2.get(base + "/", timeout=2)
        except httpx2.TransportError:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "mmlab serve did not answer within 30 s"
            time.sleep(0.1)


def test_mmlab_serve_serves_the_page_and_the_api():
    port = free_port()
    process = serve("--port", str(port), "--max-games", "3", "--idle-minutes", "2")
    base = f"http://127.0.0.1:{port}"
    try:
        page = wait_for(process, base)
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


def test_the_server_says_where_it_serves_once_it_listens():
    """It said so before uvicorn started, which took seconds on a loaded machine: a browser opened
    at the address at once was refused."""
    from mmlab.web import create_app
    from mmlab.web.server import Server

    port, connected = free_port(), []

    def listening() -> None:
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            connected.append(True)
        server.should_exit = True

    server = Server(create_app(), "127.0.0.1", port, on_listening=listening)
    server.run()
    assert connected == [True]


def test_a_port_in_use_is_refused_with_a_message():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = serve("--port", str(port))
        _, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert f"cannot serve on 127.0.0.1:{port}" in err and "--port" in err and "Traceback" not in err


def test_an_address_not_of_this_machine_is_refused_with_a_message():
    from mmlab.cli.serve import _check_free

    with pytest.raises(BadArgument) as refused:
        _check_free("192.0.2.1", free_port())  # (an address kept for documentation: no machine's)
    message = str(refused.value)
    assert "192.0.2.1 is not an address of this machine" in message and "--host" in message
    assert "--port" not in message


def test_bad_limits_are_refused():
    process = serve("--max-games", "0")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2 and "argument --max-games: must be 1 or more, got 0" in err and "finite" not in err
    process = serve("--idle-minutes", "inf")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2 and "argument --idle-minutes: must be more than 0 and finite, got inf" in err


@pytest.mark.parametrize("signals", [[signal.SIGINT], [signal.SIGTERM], [signal.SIGINT, signal.SIGINT],
                                     [getattr(signal, "SIGHUP", signal.SIGTERM)]],
                         ids=["ctrl-c", "sigterm", "ctrl-c-twice", "sighup"])
def test_a_signal_stops_the_server_while_a_request_computes(signals):
    """The server does not wait for a computation still running (here one that never ends): it says
    "interrupted" and ends by the signal, the request answered 503; a second Ctrl-C prints no
    traceback. (A SIGHUP, the terminal closed, was raised inside the server as a Ctrl-C, with
    uvicorn's traceback.)"""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", STUCK_SERVER, "serve", "--port", str(port)],
                               stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    answered = []
    try:
        wait_for(process, base)
        game = httpx2.post(base + "/api/games", json={"role": "codemaker"}).json()
        asking = threading.Thread(target=lambda: answered.append(
            httpx2.get(f"{base}/api/games/{game['id']}/candidates", timeout=120)), daemon=True)
        asking.start()
        lines = []
        while "computing" not in lines:
            line = process.stderr.readline()
            assert line, f"mmlab serve ended: {lines}"
            lines.append(line.strip())
        for i, sig in enumerate(signals):
            if i:  # within the second the server gives a request before it answers 503 (signals sent
                time.sleep(0.3)  # together would reach Python's handler as one)
            process.send_signal(sig)
        _, err = process.communicate(timeout=60)  # (it used to wait for the computation: for ever here)
        asking.join(timeout=60)
    finally:
        process.kill()
        process.wait()
    assert "Traceback" not in err and "ERROR" not in err, err
    assert (process.returncode, err.strip().splitlines()[-1]) == (-signals[0], "interrupted")
    assert answered[0].status_code == 503 and answered[0].json()["error"] == "ServerStopping"


def test_a_sigterm_while_the_server_ends_by_ctrl_c_is_ignored(monkeypatch):
    """A SIGTERM arriving while serve says "interrupted" after a Ctrl-C printed a traceback
    (``Terminated``) instead of ending by the Ctrl-C."""
    from mmlab.cli import serve as cli_serve

    class Stderr(io.StringIO):
        def write(self, text: str) -> int:
            os.kill(os.getpid(), signal.SIGTERM)  # arrives while "interrupted" is printed
            return super().write(text)

    raised = []
    monkeypatch.setattr(signal, "raise_signal", raised.append)  # (rather than end the test run)
    monkeypatch.setattr(sys, "stderr", Stderr())
    saved = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, cli_serve._terminated)  # as while the server runs
    try:
        cli_serve._end_by(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, saved[0])
        signal.signal(signal.SIGTERM, saved[1])
    assert raised == [signal.SIGINT] and "interrupted" in sys.stderr.getvalue()


def test_a_server_that_never_started_exits_1(monkeypatch, capsys):
    """uvicorn may return without starting (a failed start-up of the application): exit 1, not 0."""
    from mmlab.cli.main import main
    from mmlab.web.server import Server

    async def never(self, sockets=None) -> None:
        self.should_exit = True

    monkeypatch.setattr(Server, "startup", never)
    assert main(["serve", "--port", str(free_port())]) == 1
    assert "serving on" not in capsys.readouterr().err
