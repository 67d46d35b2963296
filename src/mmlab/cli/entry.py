"""The ``mmlab`` command's entry point. A Ctrl-C ends a command with one line, ``interrupted``: one
pressed while it loads (a second or so: numpy, numba, DuckDB and the engine's kernels) once
loading is done, one pressed while it runs at once, even inside a callback from compiled code
(numba's compiler), where Python would print a traceback and go on. The process then ends as
Ctrl-C's default action ends a program, so that a shell loop running it stops too.

>>> main(["score", "1234", "1122"])
1,1
0
"""

from __future__ import annotations

import _thread
import atexit
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

INTERRUPTED = 130
"""The status of a command ended by Ctrl-C (128 + SIGINT, as a shell reports it)."""


class CtrlC:
    """Whether Ctrl-C was ``pressed`` while it was watched (see ``watching_ctrl_c``); while
    ``deferred``, a Ctrl-C is only remembered, not raised."""

    def __init__(self) -> None:
        self.pressed = False
        self.deferred = False


@contextmanager
def watching_ctrl_c() -> Iterator[CtrlC]:
    """In the block, remember every Ctrl-C and raise it unless it is ``deferred``; raise again a
    ``KeyboardInterrupt`` that Python could only report as "Exception ignored" (raised in a
    callback from C, e.g. numba's compiler, or in a ``__del__``), so that it stops the block where
    it can. Outside the main thread, or when Ctrl-C is not Python's to handle, do nothing.

    >>> with watching_ctrl_c() as ctrl_c:
    ...     pass
    >>> ctrl_c.pressed
    False
    """
    ctrl_c = CtrlC()
    ours = (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler)  # (not when Ctrl-C is ignored)
    if not ours:
        yield ctrl_c
        return

    closing = False  # (a Ctrl-C raised again after the block would be raised anywhere)
    raised_again: list[threading.Timer] = []

    def on_ctrl_c(signum: int, frame: object) -> None:
        ctrl_c.pressed = True
        if not (closing or ctrl_c.deferred):
            raise KeyboardInterrupt

    report_unraisable = sys.unraisablehook

    def on_unraisable(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            report_unraisable(unraisable)
            return
        # Ctrl-C again in a moment, from another thread: raised now, it would be raised in this hook.
        again = threading.Timer(0.01, _thread.interrupt_main)
        again.daemon = True
        again.start()
        raised_again.append(again)

    signal.signal(signal.SIGINT, on_ctrl_c)
    sys.unraisablehook = on_unraisable
    try:
        yield ctrl_c
    finally:
        closing = True
        for again in raised_again:
            again.cancel()
        sys.unraisablehook = report_unraisable
        signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mmlab`` with ``argv`` (default: the process's arguments); the exit status,
    ``INTERRUPTED`` after a Ctrl-C."""
    with watching_ctrl_c() as ctrl_c:
        # Loading, a Ctrl-C waits: raised inside a library's import, it can be swallowed, leave
        # Python to die by SIGINT, or abort the process (DuckDB's nanobind module).
        ctrl_c.deferred = True
        from mmlab.cli.main import main as run_command

        ctrl_c.deferred = False
        if not ctrl_c.pressed:
            try:
                return run_command(argv)  # (which says "interrupted" itself)
            except KeyboardInterrupt:  # (outside the command's own watch, e.g. while its options are read)
                pass
    print("interrupted", file=sys.stderr)
    return INTERRUPTED


def run() -> None:
    """The process's entry (``mmlab``, ``python -m mmlab``): run the command and exit with its
    status; after a Ctrl-C, end by Ctrl-C's own default action once Python has shut down
    (a shell sees status 130 either way, but only this tells it to stop a loop)."""
    status: list[int] = []
    atexit.register(_end_as_interrupted, status)  # registered before the libraries' own, so run after them
    status.append(main())
    raise SystemExit(status[0])


def _end_as_interrupted(status: list[int]) -> None:
    """At exit, if the command's ``status`` says Ctrl-C, on a POSIX system: end this process by
    SIGINT's default action."""
    if status != [INTERRUPTED] or os.name != "posix":
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # (a closed pipe or stream)
            pass
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)
