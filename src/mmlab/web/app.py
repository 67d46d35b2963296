"""The FastAPI application: the JSON API under ``/api`` and the page that plays it at ``/``.

Every mistake is answered with a 4xx and a JSON ``{"detail": message, "error": kind}`` whose
message says what to do (and a fault of the server with a 500 of the same shape); FastAPI's schema
at ``/docs`` and ``/openapi.json`` documents the rest.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app())
>>> game = client.post("/api/games", json={"size": "4x6", "secret": "3632"}).json()
>>> client.post(f"/api/games/{game['id']}/guess", json={"code": "1122"}).json()["moves"][0]["black"]
1
>>> client.post(f"/api/games/{game['id']}/guess", json={"code": "1127"}).json()["detail"]
"code '1127': '7' is not a colour of the 4x6 game (expected 1-6 or A-F)"
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import json
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import numba
from fastapi import APIRouter, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from mmlab.errors import BadCode, BadFeedback, MastermindError, shown
from mmlab.game import Feedback, Game
from mmlab.play.mathmind import MathMindSession
from mmlab.play.session import CodebreakerSession, CodemakerSession, SecretKept
from mmlab.strategies import REGISTRY, make_strategy
from mmlab.variants.mathmind import MAX_CODES as MATHMIND_MAX_CODES
from mmlab.web import views
from mmlab.web.errors import GameBusy, GameOver, WrongRole, status_of
from mmlab.web.games import (DEFAULT_IDLE_MINUTES, DEFAULT_MAX_CODES, DEFAULT_MAX_GAMES, DEFAULT_STRATEGY,
                             GameRegistry, LiveGame, served)
from mmlab.web.limits import MAX_BODY, BodyLimit
from mmlab.web.models import (MATHMIND_FEEDBACKS, AnswerIn, Candidates, CorrectionIn, GameState, GuessIn, HintOut,
                              NewGame, PartitionTable, Problem, ServerInfo, StrategyInfo, TreePath, UndoIn)
from mmlab.web.workers import offloaded

STATIC = Path(__file__).parent / "static"
#: The page and its files are revalidated at every load (their ETag still spares an unchanged file's
#: download): a browser that kept a page of one version and took a script of another would break.
REVALIDATE = {"Cache-Control": "no-cache"}
#: A file of ``STATIC`` that index.html loads, quoted: its URL gets a version (``/static/app.js?v=...``).
ASSET = re.compile(r"""(?<=["'])/static/([\w.-]+)(?=["'])""")
#: A request body to copy, by the end of the path, for messages about malformed bodies.
EXAMPLES = {
    "/games": {"size": "4x6", "role": "codebreaker"},
    "/guess": {"code": "1122"},
    "/answer": {"black": 1, "white": 0},
    "/correct": {"move": 1, "black": 1, "white": 0},
}
#: Fields a request may carry by mistake, named as the command line names them, and what to send.
RENAMED = {"black_only": 'for answers of black pegs only send "feedback": "black"',
           "no_repeats": 'for codes without a repeated colour send "repeats": false'}
#: The errors each kind of route may answer, for the schema; every route may answer ``ON_ANY``, and
#: every route that takes a body ``ON_BODY``.
ON_GAME = {status: {"model": Problem} for status in (404, 422)}
ON_MOVE = {status: {"model": Problem} for status in (404, 409, 422)}
ON_ANY = {503: {"model": Problem, "description": "an earlier request still holds the game (a long hint, mmlab's "
                                                 "move) or the engine after 10 s (GameBusy), or the server is "
                                                 "stopping (ServerStopping)"}}
ON_BODY = {413: {"model": Problem, "description": f"a request body over {MAX_BODY // 1024} KiB (BodyTooLarge)"}}
ON_MOVE_BODY = {**ON_MOVE, **ON_BODY}
#: Most field problems listed in one answer.
MAX_LISTED = 20
#: How long a request waits for an earlier one on the same game (or for the engine) before it is
#: answered 503: requests piling up behind a long hint would otherwise hold every server thread.
BUSY_SECONDS = 10.0


def needs_engine_lock() -> bool:
    """Whether numba's parallel kernels must not run from two request threads at once: its
    'workqueue' threading layer, used where neither TBB nor OpenMP loads, aborts the process then."""
    if numba.config.THREADING_LAYER == "workqueue":
        return True
    for pool in ("numba.np.ufunc.tbbpool", "numba.np.ufunc.omppool"):
        try:
            importlib.import_module(pool)
            return False
        except ImportError:
            pass
    return True


def create_app(max_games: int = DEFAULT_MAX_GAMES, max_codes: int = DEFAULT_MAX_CODES,
               idle_minutes: float = DEFAULT_IDLE_MINUTES, registry: GameRegistry | None = None) -> FastAPI:
    """The application, holding its games in ``registry`` (one is made from the limits if not given)."""
    games = registry if registry is not None else GameRegistry(max_games, max_codes, idle_minutes)
    app = FastAPI(title="mmlab", summary="Play Mastermind against mmlab's strategies, in either role.",
                  description="Games live on the server under random ids; idle games expire. Codes are "
                              "written as mmlab prints them (1122), or '1 1 2 2', or AABB. Answers count "
                              "black and white pegs, or black pegs only in a game started with "
                              "\"feedback\": \"black\" (the field is named as the game's rules name it, like "
                              "\"repeats\"; 'mmlab play --black-only' in the terminal).")
    app.state.games = games
    app.add_exception_handler(MastermindError, _mastermind_error)
    app.add_exception_handler(RequestValidationError, _malformed_request)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _server_fault)
    app.include_router(_api(games, threading.Lock() if needs_engine_lock() else None), prefix="/api")
    app.add_middleware(BodyLimit)
    app.mount("/static", _Revalidated(directory=STATIC), name="static")
    app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)(_page)  # (HEAD: 'curl -I', a monitor)
    return app


class _Revalidated(StaticFiles):
    """The page's files, with ``REVALIDATE`` (on a 304 too)."""

    def file_response(self, *args, **kwargs) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.update(REVALIDATE)
        return response


def _page(request: Request) -> Response:
    """index.html, the URLs of its files versioned by their content, so that a page of a new version
    never takes a file of an old one from the browser's cache; with an ETag, and ``REVALIDATE``."""
    html, etag = _versioned_page(STATIC, _stamps(STATIC))
    headers = {"ETag": etag, **REVALIDATE}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return HTMLResponse(html, headers=headers)


def _stamps(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Each file of ``folder`` with its modification time (ns) and size: what tells that one changed.

    >>> [name for name, _, _ in _stamps(STATIC)]
    ['app.js', 'index.html', 'style.css']
    """
    return tuple(sorted((entry.name, (stat := entry.stat()).st_mtime_ns, stat.st_size)
                        for entry in os.scandir(folder) if entry.is_file()))


@functools.lru_cache(maxsize=1)
def _versioned_page(folder: Path, stamps: tuple[tuple[str, int, int], ...]) -> tuple[str, str]:
    """index.html of ``folder`` with its files' versions, and its ETag, worked out once for ``stamps``
    (``_stamps``): once a process, and again when a file changes while the server runs (the files
    themselves are served as they are on disk, so a page kept until a restart would name an edited
    app.js by its old version, and pair it with an old index.html)."""
    html = ASSET.sub(lambda m: f"{m[0]}?v={hashlib.sha256((folder / m[1]).read_bytes()).hexdigest()[:12]}",
                     (folder / "index.html").read_text(encoding="utf-8"))
    return html, f'"{hashlib.sha256(html.encode()).hexdigest()[:16]}"'


@contextlib.contextmanager
def _waiting(lock: threading.Lock | threading.RLock | None, busy: str) -> Iterator[None]:
    """Hold ``lock`` (if any), waiting at most ``BUSY_SECONDS`` for it; then ``GameBusy(busy)``."""
    if lock is None:
        yield
        return
    if not lock.acquire(timeout=BUSY_SECONDS):
        raise GameBusy(busy)
    try:
        yield
    finally:
        lock.release()


def _api(games: GameRegistry, engine: threading.Lock | None) -> APIRouter:
    """The routes; ``engine`` (if any) is held around everything that may run numba's parallel kernels."""
    api = APIRouter(responses=ON_ANY)
    engine_busy = "the server is busy with another request; try again in a moment"

    def state(live: LiveGame) -> GameState:
        return views.state(live, games.idle_minutes)

    @contextlib.contextmanager
    def holding(game_id: str) -> Iterator[LiveGame]:
        """The live game ``game_id``, held for this request; it does not expire while the request
        runs, however long, and its idle time counts from the request's end."""
        with (games.using(game_id) as live, _waiting(engine, engine_busy),
              _waiting(live.lock, "this game is busy with an earlier request (a hint, or mmlab's move); try again "
                                  "in a moment")):
            yield live

    @api.get("/info", summary="the server's limits and the strategies it knows")
    @offloaded
    def info() -> ServerInfo:
        return ServerInfo(max_games=games.max_games, max_codes=games.max_codes,
                          max_mathmind_codes=min(games.max_codes, MATHMIND_MAX_CODES), idle_minutes=games.idle_minutes,
                          live_games=len(games), default_strategy=DEFAULT_STRATEGY,
                          strategies=[StrategyInfo(name=name, summary=cls.summary,
                                                   deterministic=make_strategy(name).deterministic)
                                      for name, cls in REGISTRY.items()])

    @api.post("/games", status_code=201, summary="start a game (no body: you guess a random 4x6 secret)",
              responses={422: {"model": Problem}, 429: {"model": Problem}, **ON_BODY})
    @offloaded
    def new_game(body: NewGame | None = None) -> GameState:
        body = body or NewGame()
        mathmind = body.feedback if body.feedback in MATHMIND_FEEDBACKS else None
        game = Game.parse_size(body.size, repeats=body.repeats, feedback="black-white" if mathmind else body.feedback)
        secret = None if body.secret is None else _code(game, body.secret)
        with _waiting(engine, engine_busy):
            live = games.create(game, body.role, body.strategy, secret, body.seed, mathmind)
        with holding(live.id) as live:
            return state(live)

    @api.get("/games/{game_id}", summary="a game's state", responses=ON_GAME)
    @offloaded
    def get_game(game_id: str) -> GameState:
        with holding(game_id) as live:
            return state(live)

    @api.delete("/games/{game_id}", status_code=204, summary="leave a game, freeing its place",
                responses=ON_GAME)
    @offloaded
    def leave(game_id: str) -> Response:
        games.remove(game_id)
        return Response(status_code=204)

    @api.post("/games/{game_id}/guess", summary="codebreaker: play a guess; its answer is the last move",
              responses=ON_MOVE_BODY)
    @offloaded
    def guess(game_id: str, body: GuessIn) -> GameState:
        with holding(game_id) as live:
            session = _breaker(live, "guess")
            _not_over(live)
            live.check_move(body.seen_moves)
            session.guess(_code(live.game, body.code))
            return state(live)

    @api.post("/games/{game_id}/answer", summary="codemaker: answer mmlab's pending guess", responses=ON_MOVE_BODY)
    @offloaded
    def answer(game_id: str, body: AnswerIn) -> GameState:
        with holding(game_id) as live:
            session = _maker(live, "answer")
            _not_over(live)
            live.check_move(body.seen_moves)
            session.answer(_feedback(body, live.game))
            return state(live)

    @api.post("/games/{game_id}/correct", summary="codemaker: change the answer given to an earlier guess",
              responses=ON_MOVE_BODY)
    @offloaded
    def correct(game_id: str, body: CorrectionIn) -> GameState:
        with holding(game_id) as live:
            session = _maker(live, "correct")
            live.check_move(body.seen_moves, adds=False)
            session.correct(body.move, _feedback(body, live.game))
            return state(live)

    @api.post("/games/{game_id}/undo", summary="take back the last guess (codebreaker) or answer (codemaker)",
              responses=ON_MOVE_BODY)
    @offloaded
    def undo(game_id: str, body: UndoIn | None = None) -> GameState:
        with holding(game_id) as live:
            if live.role == "codebreaker":
                _not_over(live)
            live.check_move(body.seen_moves if body else None, adds=False)
            live.session.undo()
            return state(live)

    @api.post("/games/{game_id}/give-up", summary="codebreaker: end the game and see the secret",
              responses=ON_MOVE_BODY)
    @offloaded
    def give_up(game_id: str, body: UndoIn | None = None) -> GameState:
        with holding(game_id) as live:
            session = _breaker(live, "give-up")
            if session.won:
                raise GameOver("you have already found the secret: start a new game")
            _not_over(live)  # a second give-up
            live.check_move(body.seen_moves if body else None, adds=False)
            session.give_up()
            return state(live)

    @api.get("/games/{game_id}/hint", summary="codebreaker: the codes left, a strategy's next guess and "
                                              "the partition tables of its best guesses", responses=ON_MOVE)
    @offloaded
    def hint(game_id: str, strategy: str | None = Query(None, description="strategy spec (default, or empty: the "
                                                                          "game's)"),
             options: int = Query(3, ge=1, le=10, description="how many top guesses to tabulate")) -> HintOut:
        with holding(game_id) as live:
            if strategy and not isinstance(live.session, MathMindSession):  # (MathMind's session checks its rules)
                served(strategy)  # empty means the game's strategy, as in POST /games
            _breaker(live, "hint")
            _not_over(live)
            return views.hint(live, live.hint(strategy or live.strategy, options))

    @api.get("/games/{game_id}/partition", summary="how a proposed guess splits the codes left", responses=ON_GAME)
    @offloaded
    def partition(game_id: str, guess: str = Query(description="the proposed guess, e.g. 1344")) -> PartitionTable:
        with holding(game_id) as live:
            return views.partition(live, _code(live.game, guess))

    @api.get("/games/{game_id}/candidates", summary="the codes that fit every answer, when few", responses=ON_GAME)
    @offloaded
    def candidates(game_id: str, limit: int = Query(50, ge=1, le=1000, description="list at most this many")
                   ) -> Candidates:
        with holding(game_id) as live:
            return views.candidates(live, limit)

    @api.get("/games/{game_id}/path", summary="codemaker, deterministic strategy: the decision-tree nodes "
                                              "visited (guess, codes remaining, answer)", responses=ON_MOVE)
    @offloaded
    def path(game_id: str) -> TreePath:
        with holding(game_id) as live:
            _maker(live, "path")
            return views.path(live)

    return api


def _code(game: Game, text: str) -> int:
    """``game.parse(text)``, but a text holding a letter that is no colour of the game is refused as
    no code, as the terminal refuses it, rather than for its number of pegs ('hello' in 4x6)."""
    try:
        return game.parse(text)
    except BadCode:
        stray = game.stray_letter(text)
        if stray is None:
            raise
        raise BadCode(f"{shown(text)} is not a code: {shown(stray)} is not a colour of the {game.size} game "
                      f"(expected {game.colour_range})") from None


def _breaker(live: LiveGame, what: str) -> CodebreakerSession | MathMindSession:
    if not isinstance(live.session, SecretKept):
        raise WrongRole(f"'{what}' is for the codebreaker role; in this game you keep the secret and answer "
                        "mmlab's guesses (POST .../answer, .../correct, .../undo)")
    return live.session


def _maker(live: LiveGame, what: str) -> CodemakerSession:
    if not isinstance(live.session, CodemakerSession):
        raise WrongRole(f"'{what}' is for the codemaker role; in this game you guess mmlab's secret "
                        "(POST .../guess; GET .../hint, .../partition, .../candidates)")
    return live.session


def _not_over(live: LiveGame) -> None:
    session = live.session
    if isinstance(session, CodemakerSession) and session.won:
        raise GameOver("the game is over: mmlab found your secret (undo the last answer if it was a mistake, "
                       "or start a new game)")
    if isinstance(session, SecretKept) and session.over:
        raise GameOver(f"the game is over: the secret was {live.game.format(session.secret)}; start a new game")


def _feedback(body: AnswerIn, game: Game) -> Feedback:
    """The answer in ``body``; in a game of black feedback ``white`` may be left out (the session
    refuses one other than 0, as the terminal does)."""
    if body.answer is not None:
        if body.black is not None or body.white is not None:
            raise BadFeedback("give the answer either as 'black' and 'white' or as 'answer', not both")
        return game.answer(body.answer)
    with_white = game.with_white
    if not with_white and body.black is not None:
        return Feedback(body.black, body.white or 0)
    if body.black is None or body.white is None:
        raise BadFeedback(('give the answer as two numbers, e.g. {"black": 1, "white": 2}, or as text, '
                           'e.g. {"answer": "BWW"}') if with_white else
                          ('this game answers black pegs only: give their number, e.g. {"black": 2}, or '
                           'pegs as text, e.g. {"answer": "BB"}'))
    return Feedback(body.black, body.white)


async def _mastermind_error(request: Request, error: MastermindError) -> JSONResponse:
    return JSONResponse({"detail": str(error), "error": type(error).__name__}, status_code=status_of(error))


async def _malformed_request(request: Request, error: RequestValidationError) -> JSONResponse:
    example = next((json.dumps(v) for k, v in EXAMPLES.items() if request.url.path.endswith(k)), None)
    detail = "; ".join(dict.fromkeys(_problem(e) for e in error.errors()))
    if example and error.errors()[0]["loc"][0] == "body":
        detail += f"; for example {example}"
    return JSONResponse({"detail": detail, "error": "MalformedRequest",
                         "errors": [{"loc": list(e["loc"]), "msg": e["msg"]} for e in error.errors()[:MAX_LISTED]]},
                        status_code=422)


async def _http_error(request: Request, error: HTTPException) -> JSONResponse:
    """The framework's own refusals (no such route, a method a route does not take, a body it cannot read), in the
    same shape."""
    if error.status_code == 404:
        under_api = request.url.path == "/api" or request.url.path.startswith("/api/")
        where = ("the API's routes are listed in its schema at /openapi.json" if under_api
                 else "the API is under /api (its schema at /openapi.json)")
        detail, kind = f"there is no page or API route {shown(request.url.path)}: {where}", "NotFound"
    elif error.status_code == 405:
        detail, kind = f"{request.method} is not allowed on {shown(request.url.path)}", "MethodNotAllowed"
    elif error.status_code == 400:  # a body that is not UTF-8, or JSON that Python cannot read (a huge number)
        return JSONResponse({"detail": f"the request body cannot be read as JSON ({error.detail}); send UTF-8 JSON "
                                       "with numbers of a sensible size", "error": "MalformedRequest", "errors": []},
                            status_code=422)
    else:
        detail, kind = str(error.detail), "HTTPError"
    return JSONResponse({"detail": detail, "error": kind}, status_code=error.status_code, headers=error.headers)


async def _server_fault(request: Request, error: Exception) -> JSONResponse:
    """A fault of the server, not of the request: still JSON, saying what failed."""
    return JSONResponse({"detail": f"mmlab failed on this request ({type(error).__name__}: {shown(str(error))}); "
                                   "this is a bug or a lack of memory, not a mistake of yours",
                         "error": "ServerFault"}, status_code=500)


def _problem(e: dict) -> str:
    """One pydantic error as a sentence saying what to send."""
    where = [str(x) for x in e["loc"][1:]]
    if e["type"] == "json_invalid":
        reason = e.get("ctx", {}).get("error", "decode error").removesuffix(" at")  # ('... starting at')
        return f"the request body is not valid JSON ({reason} at character {e['loc'][-1]}): send a JSON object"
    if not where and e["loc"][0] == "body":
        if e["type"] == "missing":
            return "this request needs a JSON body"
        if isinstance(e.get("input"), bytes | str):
            return "the request body is not JSON: send a JSON object with the header Content-Type: application/json"
        return "the request body is JSON but not an object: send a JSON object"
    field = ".".join(where) or e["loc"][0]
    if e["type"] == "missing":
        return f"the {e['loc'][0]} field {field!r} is required"
    if e["type"] == "extra_forbidden":
        return f"there is no field {field!r}" + (f"; {RENAMED[field]}" if field in RENAMED else "")
    return f"{field}: {e['msg']} (got {shown(e.get('input'))})"
