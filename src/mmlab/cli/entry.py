"""The ``mmlab`` command's entry point. A Ctrl-C ends a command with one line, ``interrupted``: one
pressed while it loads (the command line, then what the command chosen needs: numpy, numba,
DuckDB, the engine's kernels; see ``loading``) once loading is done, one pressed while it runs at
once, even inside a callback from compiled code
(numba's compiler), where Python would print a traceback and go on. A second Ctrl-C lets the
command finish stopping (writing the games it finished); a third ends the process at once. The
process then ends as Ctrl-C's default action ends a program, so that a shell loop running it
stops too. SIGTERM (a batch system's time limit, ``docker stop``, ``kill``) and SIGHUP (the terminal
or ssh session closed, unless under ``nohup``) are a Ctrl-C that ends the process as their own
default action does: the command stops the same way, keeping the games it finished, and says the
same line.

>>> main(["score", "1234", "1122"])
1,1
0
"""

from __future__ import annotations

import _thread
import atexit
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import Any

from mmlab.errors import STOP_SIGNALS

INTERRUPTED = 130
"""The status of a command ended by Ctrl-C (128 + SIGINT, as a shell reports it)."""
TERMINATED = 143
"""The status of a command ended by SIGTERM (128 + SIGTERM)."""
#: The signals a watch handles, each with the handler that makes it Python's to handle: the default
#: action of SIGTERM and SIGHUP ends the process at once, losing the finished games a command has not written.
WATCHED = ((signal.SIGINT, signal.default_int_handler), *((signum, signal.SIG_DFL) for signum in STOP_SIGNALS))


class CtrlC:
    """Ctrl-C as a command sees it while ``watching_ctrl_c``: ``pressed`` once it was. It is raised
    as a ``KeyboardInterrupt`` once (a second one would interrupt the command's cleanup), and
    raised again only where Python swallowed it; while ``deferred`` it is only remembered. The
    third press ends the process at once, whatever it is doing. A SIGTERM or SIGHUP counts as a
    press; ``signum`` is the signal of the first.
    """

    def __init__(self, watched: Sequence[int] = (signal.SIGINT,)) -> None:
        self.watched = tuple(watched)  # (the first is the one simulated to raise a swallowed Ctrl-C again)
        self.signum: int = signal.SIGINT
        self.presses = 0
        self.deferred = False
        self.closing = False  # (raised after the watch, it would be raised anywhere)
        self._raised = False
        self._in_hook = False
        self._swallowed = False  # a KeyboardInterrupt Python could only report: to be raised again
        self._simulated = 0  # Ctrl-Cs simulated to raise it again, not pressed
        self._retrying: threading.Thread | None = None

    @property
    def pressed(self) -> bool:
        return self.presses > 0

    @property
    def status(self) -> int:
        """The status of the command it stopped, as a shell reports a process ended by the first
        signal: ``INTERRUPTED`` after a Ctrl-C, ``TERMINATED`` after a SIGTERM, 129 after a SIGHUP."""
        return 128 + self.signum

    def on_signal(self, signum: int, frame: object) -> None:
        """The handler of SIGINT, SIGTERM and SIGHUP."""
        if self._simulated and signum == self.watched[0]:
            self._simulated -= 1
        else:
            self.presses += 1
            if self.presses == 1:
                self.signum = signum
        if self.presses >= 3:
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)
        if self.closing or self.deferred or self._in_hook or self._raised:
            return
        self._raised, self._swallowed = True, False
        raise KeyboardInterrupt

    def on_unraisable(self, unraisable: Any, report: Callable[[Any], None]) -> None:
        """The ``sys.unraisablehook``: a ``KeyboardInterrupt`` is raised again, from another thread,
        until it lands where it stops the command; anything else is reported by ``report``."""
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            report(unraisable)
            return
        self._in_hook = True
        try:
            self._raised, self._swallowed = False, True
            if self._retrying is None or not self._retrying.is_alive():
                self._retrying = threading.Thread(target=self._raise_again, daemon=True)
                self._retrying.start()
        finally:
            self._in_hook = False

    def _raise_again(self) -> None:
        simulated = self.watched[0]  # (SIGINT, unless Ctrl-C is ignored: a job started in the background)
        while self._swallowed and not self.closing:
            time.sleep(0.01)
            if signal.getsignal(simulated) == self.on_signal:  # (not while workers start, ignoring Ctrl-C)
                self._simulated += 1
                _thread.interrupt_main(simulated)


#: The watch of the command running (``None`` outside ``watching_ctrl_c``).
_watch: CtrlC | None = None


@contextmanager
def loading() -> Iterator[None]:
    """In the block, which imports what a command needs, a Ctrl-C waits, and is raised as a
    ``KeyboardInterrupt`` when the block ends: raised inside a library's import, it can be
    swallowed, leave Python to die by SIGINT, or abort the process (DuckDB's nanobind module).
    Outside ``watching_ctrl_c`` (mmlab called from Python), the block just runs.

    >>> with loading():
    ...     import json
    """
    ctrl_c = _watch
    if ctrl_c is None or ctrl_c.deferred:  # (not watched, or within a block already)
        yield
        return
    presses = ctrl_c.presses
    ctrl_c.deferred = True
    try:
        yield
    finally:
        ctrl_c.deferred = False
    if ctrl_c.presses > presses and not (ctrl_c._raised or ctrl_c.closing):
        ctrl_c._raised = True  # (once, as on_signal raises it)
        raise KeyboardInterrupt


@contextmanager
def watching_ctrl_c() -> Iterator[CtrlC]:
    """In the block, handle Ctrl-C, SIGTERM and SIGHUP as ``CtrlC`` says. Outside the main thread, or for a
    signal that is not Python's to handle (Ctrl-C ignored, SIGTERM given a handler by another
    program or library), do nothing.

    >>> with watching_ctrl_c() as ctrl_c:
    ...     pass
    >>> ctrl_c.pressed
    False
    """
    main_thread = threading.current_thread() is threading.main_thread()
    watched = [(signum, python_s) for signum, python_s in WATCHED
               if main_thread and signal.getsignal(signum) == python_s]
    ctrl_c = CtrlC([signum for signum, _ in watched])
    if not watched:
        yield ctrl_c
        return
    global _watch
    report_unraisable, outer = sys.unraisablehook, _watch
    for signum, _ in watched:
        signal.signal(signum, ctrl_c.on_signal)
    sys.unraisablehook = lambda unraisable: ctrl_c.on_unraisable(unraisable, report_unraisable)
    _watch = ctrl_c
    try:
        yield ctrl_c
    finally:
        _watch = outer
        ctrl_c.closing = True
        sys.unraisablehook = report_unraisable
        for signum, python_s in watched:
            signal.signal(signum, python_s)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mmlab`` with ``argv`` (default: the process's arguments); the exit status,
    ``INTERRUPTED`` after a Ctrl-C, ``TERMINATED`` after a SIGTERM (128 + the signal, as a shell says)."""
    with watching_ctrl_c() as ctrl_c:
        # Loading, a Ctrl-C waits, as in ``loading`` (here it is told once loading is done).
        ctrl_c.deferred = True
        from mmlab.cli.main import main as run_command

        ctrl_c.deferred = False
        if not ctrl_c.pressed:
            try:
                status = run_command(argv)  # (which says "interrupted" itself)
                if status == INTERRUPTED and ctrl_c.pressed:
                    return ctrl_c.status
                if not ctrl_c.pressed:
                    return status
                # else a Ctrl-C a library swallowed as the command finished: it still asked to stop
            except KeyboardInterrupt:  # (outside the command's own watch, e.g. while its options are read)
                pass
            except Exception:
                if not ctrl_c.pressed:
                    raise  # (after a Ctrl-C, a library may have turned the KeyboardInterrupt into its own error)
    try:
        print("interrupted", file=sys.stderr)
    except OSError:  # (after a SIGHUP the terminal may be gone: the games are written already)
        pass
    return ctrl_c.status


def run() -> None:
    """The process's entry (``mmlab``, ``python -m mmlab``): run the command and exit with its
    status. After a Ctrl-C the process ends as Python ends one interrupted (by SIGINT's default
    action, once it has shut down): a shell sees status 130 either way, but only this tells it to
    stop a loop that runs mmlab. After a SIGTERM or SIGHUP it ends by that signal's default action,
    once its exit handlers have run."""
    atexit.register(_end_if_terminated)  # (first, so that it runs last: e.g. after multiprocessing's)
    write_any_character()
    try:
        status = main()
    except KeyboardInterrupt:  # (a second Ctrl-C as the watch ended)
        status = INTERRUPTED
    if status - 128 in STOP_SIGNALS:  # (only a stop by one of them gives such a status)
        global _ending_signal
        _ending_signal = status - 128
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # another Ctrl-C (or SIGTERM, as by default) ends it at once
    if status != INTERRUPTED:
        raise SystemExit(status)
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # another Ctrl-C ends it at once
    sys.excepthook = _quiet_ctrl_c
    raise KeyboardInterrupt


def write_any_character() -> None:
    """Let stdout and stderr write what their encoding lacks as Python writes it in a traceback
    (``\\xb1`` for ``±``), rather than end the command in a ``UnicodeEncodeError``: on a stream
    whose encoding is ASCII (``PYTHONIOENCODING=ascii``) or a legacy code page, mmlab's ``±``, ``≤``
    and ``—`` would otherwise stop ``mmlab eval`` after its games are played."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # (None without a console; a replaced stream may lack it)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


#: The signal (SIGTERM or SIGHUP) by which ``run`` ends the process once Python has run its exit
#: handlers, if any.
_ending_signal: int | None = None


def _end_if_terminated() -> None:
    """The last exit handler: after a SIGTERM or SIGHUP, end the process by that signal's default
    action (Python has no exit by a signal but SIGINT's), once the output is flushed."""
    if _ending_signal is None:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # (closed, or None without a console)
            pass
    signal.signal(_ending_signal, signal.SIG_DFL)
    signal.raise_signal(_ending_signal)


def _quiet_ctrl_c(kind: type[BaseException], value: BaseException, traceback: TracebackType | None) -> None:
    """``sys.excepthook`` once mmlab has said "interrupted": no traceback for the KeyboardInterrupt."""
    if not issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, value, traceback)
