"""``mmlab serve``: the web page and its JSON API, on this machine by default."""

from __future__ import annotations

import argparse
import socket

from mmlab.cli.arguments import positive
from mmlab.cli.output import err
from mmlab.errors import BadArgument
from mmlab.game import ENUMERATION_LIMIT
from mmlab.web.games import DEFAULT_IDLE_MINUTES, DEFAULT_MAX_CODES, DEFAULT_MAX_GAMES

EXAMPLES = """\
examples:
  mmlab serve                                 then open http://127.0.0.1:8000 (API schema: /openapi.json)
  mmlab serve --port 8080 --max-games 100 --idle-minutes 10
  mmlab serve --host 0.0.0.0                  reachable from other machines (no authentication!)
"""


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn  # imported here so that other commands start without the web stack

    from mmlab.web import create_app

    app = create_app(max_games=args.max_games, max_codes=args.max_codes, idle_minutes=args.idle_minutes)
    _check_free(args.host, args.port)
    host = f"[{args.host}]" if ":" in args.host else args.host
    err.print(f"mmlab: serving on http://{host}:{args.port}  (API schema at /openapi.json; Ctrl-C stops)",
              soft_wrap=True)  # one line even when stderr is a file
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning"))
    server.run()  # (not uvicorn.run, which swallows the Ctrl-C that the server raises again once stopped)
    return 0 if server.started else 1  # (uvicorn has said why it could not start)


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
            raise BadArgument(f"cannot serve on {host}:{port}: {e.strerror}; stop the program using it or "
                              "choose another with --port") from None


def add_command(command) -> None:
    p = command("serve", "serve the web page to play both roles in a browser, and its JSON API", cmd_serve)
    p.epilog = EXAMPLES
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=positive(int, "--port", 65535), default=8000, help="port (default 8000)")
    p.add_argument("--max-games", type=positive(int, "--max-games"), default=DEFAULT_MAX_GAMES,
                   help=f"live games at most; more are refused until some are left or expire "
                        f"(default {DEFAULT_MAX_GAMES})")
    p.add_argument("--max-codes", type=positive(int, "--max-codes", ENUMERATION_LIMIT), default=DEFAULT_MAX_CODES,
                   help=f"codes per game at most, e.g. 65536 allows 4x16, 8x4, 5x9 but not 6x8 "
                        f"(default {DEFAULT_MAX_CODES}; mmlab enumerates up to {ENUMERATION_LIMIT})")
    p.add_argument("--idle-minutes", type=positive(float, "--idle-minutes"), default=DEFAULT_IDLE_MINUTES,
                   help=f"a game is dropped after this long without a request (default {DEFAULT_IDLE_MINUTES:g})")
