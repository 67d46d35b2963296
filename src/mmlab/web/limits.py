"""A limit on the size of request bodies, applied before a body is read into memory.

Every body the API takes is a small JSON object; a larger one is answered 413 in the API's error
shape, whether its length is declared (``Content-Length``) or not (chunked: it is read here up to
the limit, then passed on).

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> app = FastAPI()
>>> app.add_middleware(BodyLimit, limit=10)
>>> @app.post("/echo")
... def echo(body: dict) -> dict:
...     return body
>>> client = TestClient(app)
>>> client.post("/echo", json={"a": 1}).json(), client.post("/echo", json={"a": 12345}).status_code
({'a': 1}, 413)
"""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Bytes a request body may hold: far more than any request of the API needs.
MAX_BODY = 2**16


class BodyLimit:
    """ASGI middleware: refuse (413) a request whose body is longer than ``limit`` bytes."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None:
            if declared.isdigit() and int(declared) <= self.limit:  # the server reads no more than declared
                await self.app(scope, receive, send)
            else:
                await self._refuse(scope, receive, send)
            return
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            body += message.get("body", b"")
            if len(body) > self.limit:
                await self._refuse(scope, receive, send)
                return
            more = message.get("more_body", False)
        await self.app(scope, _replay(body, receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse({"detail": f"the request body is larger than this server reads (at most {self.limit:,} "
                                           "bytes); every request of the API is a small JSON object",
                                 "error": "BodyTooLarge"}, status_code=413)
        await response(scope, receive, send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` once, then whatever the client sends next (its disconnect)."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
