"""The uvicorn server that ``mmlab serve`` runs: the first Ctrl-C or SIGTERM stops it at once.

uvicorn, asked to stop, waits for the requests it is answering, and one may compute for minutes
(mmlab's move at a large size); a second Ctrl-C then makes it cancel the server's own tasks,
each cancellation printed with a traceback. This server waits ``STOP_SECONDS`` for the requests
it is answering, then abandons them (their threads are daemons, see ``mmlab.web.workers``: the
client still waiting gets a 503); a second signal changes nothing.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from types import FrameType

import uvicorn

#: Seconds a stopping server gives the requests it is answering to finish.
STOP_SECONDS = 1.0


class Server(uvicorn.Server):
    """uvicorn's server for ``app`` on ``host``:``port``, stopped as this module says;
    ``on_listening()`` is called once it accepts connections."""

    def __init__(self, app, host: str, port: int, on_listening: Callable[[], None] | None = None) -> None:
        super().__init__(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                        timeout_graceful_shutdown=STOP_SECONDS))
        self.on_listening = on_listening
        # Abandoning the requests still computing is what stopping means here: not an error to log.
        logging.getLogger("uvicorn.error").addFilter(
            lambda record: not (self.should_exit and "graceful shutdown" in str(record.msg)))

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and self.on_listening is not None:
            self.on_listening()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        self.force_exit = False  # (uvicorn's answer to a second Ctrl-C: the server stops soon anyway)

