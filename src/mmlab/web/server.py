"""The uvicorn server that ``mmlab serve`` runs: the first Ctrl-C or SIGTERM stops it at once.

uvicorn, asked to stop, waits for the requests it is answering, and one may compute for minutes
(mmlab's move at a large size); a second Ctrl-C then makes it cancel the server's own tasks,
each cancellation printed with a traceback. This server waits ``STOP_SECONDS`` for the requests
it is answering, then abandons them (their threads are daemons, see ``mmlab.web.workers``: the
client still waiting gets a 503); a second signal changes nothing.
"""

from __future__ import annotations

import logging
from types import FrameType

import uvicorn

#: Seconds a stopping server gives the requests it is answering to finish.
STOP_SECONDS = 1.0


class Server(uvicorn.Server):
    """uvicorn's server for ``app`` on ``host``:``port``, stopped as this module says."""

    def __init__(self, app, host: str, port: int) -> None:
        super().__init__(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                        timeout_graceful_shutdown=STOP_SECONDS))
        # Abandoning the requests still computing is what stopping means here: not an error to log.
        logging.getLogger("uvicorn.error").addFilter(
            lambda record: not (self.should_exit and "graceful shutdown" in str(record.msg)))

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        self.force_exit = False  # (uvicorn's answer to a second Ctrl-C: the server stops soon anyway)

