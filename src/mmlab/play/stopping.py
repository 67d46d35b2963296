"""Ctrl-C during a computation the player asked for in a game (a hint, the codes left) stops that
computation, not the game: ``stoppable`` runs it and raises ``Stopped`` instead.

>>> stoppable(lambda: 6 * 7)
42
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from mmlab.errors import is_ctrl_c

T = TypeVar("T")


class Stopped(Exception):
    """A computation stopped by Ctrl-C, which the game outlives."""


class _CtrlC:
    """The SIGINT handler while a computation runs: the first Ctrl-C raises a ``KeyboardInterrupt``;
    later ones, pressed while that one stops it, are the same request and do nothing. A Ctrl-C that
    Python could only report (raised in a callback) is remembered as ``swallowed``; any other such
    report goes to ``report``."""

    def __init__(self, report: Callable[[Any], None]) -> None:
        self.armed, self.swallowed, self.report = True, False, report

    def on_signal(self, signum: int, frame: object) -> None:
        if self.armed:
            self.armed = False
            raise KeyboardInterrupt

    def on_unraisable(self, unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            self.swallowed = True
        else:
            self.report(unraisable)


def stoppable(work: Callable[[], T]) -> T:
    """``work()``, or ``Stopped`` raised when Ctrl-C is pressed meanwhile (even inside a numba
    kernel, see ``errors.is_ctrl_c``). Before and after, Ctrl-C does what it did (in ``mmlab play``:
    the command's watch ends the game). Outside the main thread, or where Ctrl-C is ignored or not
    Python's to handle, it just runs ``work``.

    >>> import _thread
    >>> stoppable(_thread.interrupt_main)
    Traceback (most recent call last):
    mmlab.play.stopping.Stopped
    """
    outer = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(outer):
        return work()
    ctrl_c, report = _CtrlC(sys.unraisablehook), sys.unraisablehook
    signal.signal(signal.SIGINT, ctrl_c.on_signal)
    sys.unraisablehook = ctrl_c.on_unraisable
    try:
        try:
            result = work()
        finally:
            _restore(outer, report)
    except (KeyboardInterrupt, SystemError) as error:
        _restore(outer, report)  # (when the Ctrl-C landed as the finally began)
        if not is_ctrl_c(error):
            raise
        raise Stopped from None
    if ctrl_c.swallowed:
        raise Stopped
    return result


def _restore(handler: Callable[..., Any], report: Callable[[Any], None]) -> None:
    """Give Ctrl-C and the reports of exceptions Python cannot raise back to who had them."""
    signal.signal(signal.SIGINT, handler)
    sys.unraisablehook = report
