"""``mmlab serve``: the web page and its JSON API, on this machine by default."""

from __future__ import annotations

import argparse
import errno
import signal
import socket
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from mmlab.cli.arguments import int_at_least, positive
from mmlab.cli.commands import help_of
from mmlab.cli.entry import loading
from mmlab.errors import BadArgument
from mmlab.game import ENUMERATION_LIMIT

#: The server's limits by default, those of ``mmlab.web.games`` (which loads the engine, numba, and
#: is imported when the server starts; ``tests/cli/test_cli.py`` checks that the two agree).
DEFAULT_MAX_GAMES = 1000
DEFAULT_MAX_CODES = 2**16
DEFAULT_IDLE_MINUTES = 30.0

EXAMPLES = """\
examples:
  mmlab serve                                 then open http://127.0.0.1:8000 (API schema: /openapi.json)
  mmlab serve --port 8080 --max-games 100 --idle-minutes 10
  mmlab serve --host 0.0.0.0                  reachable from other machines (no authentication!)
"""


class Terminated(Exception):
    """SIGTERM, raised where it lands."""


def url(host: str, port: int) -> str:
    """The address a browser opens: an IPv6 host in brackets.

    >>> url("127.0.0.1", 8000), url("::1", 8000)
    ('http://127.0.0.1:8000', 'http://[::1]:8000')
    """
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def cmd_serve(args: argparse.Namespace) -> int:
    with loading():  # (the web stack and the engine: imported here, so that 'serve --help' loads neither)
        from mmlab.cli.output import err
        from mmlab.web import create_app
        from mmlab.web.server import Server

    app = create_app(max_games=args.max_games, max_codes=args.max_codes, idle_minutes=args.idle_minutes)
    _check_free(args.host, args.port)

    def listening() -> None:  # (said once it listens: said before, a browser opened at once could be refused)
        err.print(f"mmlab: serving on {url(args.host, args.port)}  (API schema at /openapi.json; Ctrl-C stops)",
                  soft_wrap=True)  # one line even when stderr is a file

    server = Server(app, args.host, args.port, on_listening=listening)
    ours = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if ours else None
    hung_up: list[int] = []

    def hang_up(signum: int, frame: FrameType | None) -> None:  # (then stopped as uvicorn stops on SIGTERM)
        hung_up.append(signum)
        server.handle_exit(signum, frame)

    previous_hup = _on_hang_up(hang_up) if ours else None
    try:
        server.run()  # (not uvicorn.run, which swallows the Ctrl-C that the server raises again once stopped)
        if hung_up:
            _end_by(signal.SIGHUP)
    except KeyboardInterrupt:  # (Ctrl-C, raised again by the server once it stopped)
        _end_by(signal.SIGINT)
    except Terminated:
        _end_by(signal.SIGTERM)
    finally:
        if ours and previous is not None:  # (None: a handler not set from Python, left as it was)
            signal.signal(signal.SIGTERM, previous)
        if previous_hup is not None:
            signal.signal(signal.SIGHUP, previous_hup)
    return 0 if server.started else 1  # (uvicorn has said why it could not start)


def _on_hang_up(handler: Callable[[int, FrameType | None], object]) -> Any:
    """Make ``handler`` SIGHUP's (the terminal closed), unless it is ignored (``nohup``) or there is
    none (Windows); the handler before, or ``None``. uvicorn stops on SIGINT and SIGTERM only; the
    command's watch would raise a SIGHUP anywhere in the server, even inside its start-up."""
    if not hasattr(signal, "SIGHUP") or signal.getsignal(signal.SIGHUP) in (signal.SIG_IGN, None):
        return None
    return signal.signal(signal.SIGHUP, handler)


def _end_by(signum: int) -> None:
    """Say "interrupted" and end the process at once by ``signum``'s default action, as a Ctrl-C
    ends every mmlab command (a shell loop running it stops too), but without Python's shutdown,
    which can wait seconds on the computation of a request still running in a daemon thread. A
    SIGTERM arriving meanwhile is ignored: the process is ending already."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # (its handler would raise Terminated from here)
    try:
        print("interrupted", file=sys.stderr, flush=True)
        sys.stdout.flush()
    except OSError:  # (after a SIGHUP the terminal may be gone)
        pass
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signum)


def _terminated(signum: int, frame: object) -> None:
    """The SIGTERM handler (uvicorn's own while it runs, which raises SIGTERM again once it stopped)."""
    raise Terminated


def _check_free(host: str, port: int) -> None:
    """Refuse, with a message, a port that another program holds or an address not on this machine."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise BadArgument(f"cannot serve on host {host!r}: {e.strerror}; try 127.0.0.1") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                advice = "stop the program using it or choose another with --port"
            elif e.errno == errno.EADDRNOTAVAIL:
                advice = (f"{host} is not an address of this machine: choose one of its own with --host, e.g. "
                          "127.0.0.1 (this machine only) or 0.0.0.0 (all of its addresses)")
            elif e.errno == errno.EACCES:
                advice = "ports below 1024 need an administrator: choose another with --port, e.g. 8000"
            else:
                advice = "check --host and --port"
            raise BadArgument(f"cannot serve on {host}:{port}: {e.strerror}; {advice}") from None


def add_command(command) -> None:
    p = command("serve", help_of("serve"), cmd_serve)
    p.epilog = EXAMPLES
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int_at_least(1, "--port", 65535), default=8000, help="port (default 8000)")
    p.add_argument("--max-games", type=int_at_least(1, "--max-games"), default=DEFAULT_MAX_GAMES,
                   help=f"live games at most; more are refused until some are left or expire "
                        f"(default {DEFAULT_MAX_GAMES})")
    p.add_argument("--max-codes", type=int_at_least(1, "--max-codes", ENUMERATION_LIMIT), default=DEFAULT_MAX_CODES,
                   help=f"codes per game at most, e.g. 65536 allows 4x16, 8x4, 5x9 but not 6x8 "
                        f"(default {DEFAULT_MAX_CODES}; mmlab enumerates up to {ENUMERATION_LIMIT})")
    p.add_argument("--idle-minutes", type=positive(float, "--idle-minutes"), default=DEFAULT_IDLE_MINUTES,
                   help=f"a game is dropped after this long without a request (default {DEFAULT_IDLE_MINUTES:g})")
