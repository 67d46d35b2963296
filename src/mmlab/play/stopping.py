"""Ctrl-C during a computation the player asked for in a game (a hint, the codes left) stops that
computation, not the game: ``stoppable`` runs it and raises ``Stopped`` instead.

>>> stoppable(lambda: 6 * 7)
42
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from mmlab.errors import is_ctrl_c

T = TypeVar("T")


class Stopped(Exception):
    """A computation stopped by Ctrl-C, which the game outlives."""


class _CtrlC:
    """The SIGINT handler of ``stoppable``: the first Ctrl-C raises a ``KeyboardInterrupt`` while the
    work runs (``run``), and only then, so that it never lands in the code around it (a spinner
    stopping); one pressed before the work starts stops it before it starts, one pressed as it ends
    is told by ``pressed``, and later ones are the same request. A Ctrl-C that Python could only
    report (raised in a callback) is remembered as ``swallowed``; any other such report goes to
    ``report``."""

    def __init__(self, report: Callable[[Any], None]) -> None:
        self.report = report
        self.armed = self.pressed = self.swallowed = False

    def on_signal(self, signum: int, frame: object) -> None:
        if self.pressed:
            return
        self.pressed = True
        if self.armed:
            self.armed = False
            raise KeyboardInterrupt

    def on_unraisable(self, unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            self.swallowed = True
        else:
            self.report(unraisable)

    def run(self, work: Callable[[], T]) -> T:
        """``work()``, interrupted by the first Ctrl-C."""
        if self.pressed:
            raise KeyboardInterrupt
        self.armed = True
        try:
            result = work()
        finally:
            self.armed = False
        if self.swallowed:
            raise KeyboardInterrupt
        return result


def stoppable(work: Callable[[], T], around: AbstractContextManager | None = None,
              show: Callable[[T], object] | None = None) -> T:
    """``work()`` inside ``around`` (a spinner, shown once a Ctrl-C would stop the work), then
    ``show(result)`` (what the player asked for, on the screen), or ``Stopped`` raised when Ctrl-C
    is pressed during the work (even inside a numba kernel, see ``errors.is_ctrl_c``). A Ctrl-C
    pressed while it is shown comes too late to stop anything and is dropped: pressed on seeing the
    spinner, it must not end the game as the result appears. Before and after, Ctrl-C does what it
    did (in ``mmlab play``: the command's watch ends the game). Outside the main thread, or where
    Ctrl-C is ignored or not Python's to handle, it just runs ``work`` and ``show``.

    >>> import _thread
    >>> stoppable(_thread.interrupt_main)
    Traceback (most recent call last):
    mmlab.play.stopping.Stopped
    """
    around = around if around is not None else contextlib.nullcontext()
    outer = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(outer):
        with around:
            result = work()
        if show is not None:
            show(result)
        return result
    ctrl_c, report = _CtrlC(sys.unraisablehook), sys.unraisablehook
    signal.signal(signal.SIGINT, ctrl_c.on_signal)
    sys.unraisablehook = ctrl_c.on_unraisable
    try:
        with around:
            result = ctrl_c.run(work)
        if ctrl_c.pressed:  # (as the work ended: what the player asked for all the same)
            raise Stopped
        if show is not None:
            show(result)  # (no Ctrl-C lands in it: ``run`` has disarmed it)
    except (KeyboardInterrupt, SystemError) as error:
        if not is_ctrl_c(error):
            raise
        _forget_the_ctrl_c()
        raise Stopped from None
    finally:  # (nor here)
        signal.signal(signal.SIGINT, outer)
        sys.unraisablehook = report
    return result


def _forget_the_ctrl_c() -> None:
    """Make CPython forget a ``KeyboardInterrupt`` that ended code it ran from a string (``exec``,
    as numba, dataclasses and namedtuple make their code): it remembers the last one, caught or
    not, and under ``python -m`` ends the process by SIGINT once it exits, whatever its status, so
    that a Ctrl-C that stopped a hint as its kernels loaded made a won game end with 130. Each run
    of such code starts by forgetting it."""
    exec("pass", {})  # noqa: S102  (nothing but the forgetting)
