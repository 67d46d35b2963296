"""The threads that run the API's requests, off the server's event loop.

A request can compute for minutes (mmlab's move at a large size). FastAPI would run it in one of
AnyIO's worker threads, which Python waits for at exit, so that a stopped server (Ctrl-C) would
wait for the computation too. Here requests run in daemon threads instead, which an exiting
process abandons; a request still waiting when the server stops is answered 503.

>>> import asyncio, threading
>>> @offloaded
... def add(a: int, b: int) -> int:
...     return a + b
>>> results = []   # an event loop of its own, in a thread of its own, as the server's
>>> loop = threading.Thread(target=lambda: results.append(asyncio.run(add(1, b=2))))
>>> loop.start(); loop.join(); results
[3]
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import queue
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import ParamSpec, TypeVar

from mmlab.web.errors import ServerStopping

#: Requests computing at once at most, as AnyIO's default for FastAPI; more wait their turn.
THREADS = 40

P = ParamSpec("P")
T = TypeVar("T")


class DaemonPool:
    """Up to ``size`` daemon threads, started as needed, that run the calls given to ``submit``
    in turn."""

    def __init__(self, size: int = THREADS) -> None:
        self.size = size
        self._calls: queue.SimpleQueue[tuple[Future, Callable[[], object]]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads = 0
        self._idle = 0  # threads free for a call, not yet promised one

    def submit(self, call: Callable[[], T]) -> Future[T]:
        """Run ``call`` in one of the threads; its result or exception comes in the future."""
        future: Future[T] = Future()
        with self._lock:
            self._calls.put((future, call))
            if self._idle:
                self._idle -= 1
            elif self._threads < self.size:
                self._threads += 1
                threading.Thread(target=self._work, name=f"mmlab request {self._threads}", daemon=True).start()
        return future

    def _work(self) -> None:
        while True:
            future, call = self._calls.get()
            if future.set_running_or_notify_cancel():
                try:
                    result = call()
                except BaseException as e:  # (the caller sees it, as if it had made the call itself)
                    future.set_exception(e)
                else:
                    future.set_result(result)
            del future, call  # (not kept alive while the thread waits)
            with self._lock:
                self._idle += 1


POOL = DaemonPool()


def offloaded(function: Callable[P, T]) -> Callable[P, Awaitable[T]]:
    """``function`` as a coroutine function that runs it in ``POOL`` (with the caller's context
    variables); FastAPI reads the parameters and return type of ``function``. Cancelled while it
    waits (the server stops), it raises ``ServerStopping`` and leaves the call to finish, or not."""

    @functools.wraps(function)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        context = contextvars.copy_context()
        future = POOL.submit(lambda: context.run(function, *args, **kwargs))
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            raise ServerStopping("the server is stopping ('mmlab serve' was interrupted), so this request was "
                                 "abandoned; start the server again") from None

    return run
