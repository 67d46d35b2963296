"""The entry point's watch over Ctrl-C, in this process: a Ctrl-C that Python could only report as
"Exception ignored" is raised again where it stops the command, and one pressed while the command
loads waits."""

import ctypes
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from mmlab.cli.entry import watching_ctrl_c


def busy(seconds: float) -> None:
    """Run Python code (where a pending Ctrl-C is raised) for ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pass


@ctypes.CFUNCTYPE(None)
def ctrl_c_inside_a_callback() -> None:
    """A callback from C, as numba's compiler makes them, during which Ctrl-C is pressed."""
    signal.raise_signal(signal.SIGINT)
    busy(0.1)  # (the KeyboardInterrupt is raised here, and ctypes can only report it)


@pytest.fixture(autouse=True)
def python_handles_ctrl_c():
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_ctrl_c_swallowed_by_a_callback_is_raised_again_without_a_traceback(capsys):
    hook = sys.unraisablehook
    with pytest.raises(KeyboardInterrupt):
        with watching_ctrl_c() as ctrl_c:
            ctrl_c_inside_a_callback()
            busy(5.0)
    assert ctrl_c.pressed and capsys.readouterr().err == ""
    assert sys.unraisablehook is hook and signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_without_the_watch_python_reports_it_and_goes_on(monkeypatch):
    """What the watch is for."""
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: reported.append(unraisable.exc_type))
    ctrl_c_inside_a_callback()
    busy(0.1)
    assert reported == [KeyboardInterrupt]


def test_a_deferred_ctrl_c_is_only_remembered():
    with watching_ctrl_c() as ctrl_c:
        ctrl_c.deferred = True
        signal.raise_signal(signal.SIGINT)
        busy(0.1)
        assert ctrl_c.pressed
        ctrl_c.deferred = False
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
            busy(1.0)


def test_no_watch_where_ctrl_c_is_ignored():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with watching_ctrl_c() as ctrl_c:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            signal.raise_signal(signal.SIGINT)
            busy(0.1)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN and not ctrl_c.pressed
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_second_ctrl_c_does_not_interrupt_the_cleanup():
    with watching_ctrl_c() as ctrl_c:
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
            busy(1.0)
        signal.raise_signal(signal.SIGINT)  # e.g. while the finished games are written
        busy(0.1)
    assert ctrl_c.presses == 2


def test_the_third_ctrl_c_ends_the_process_at_once():
    code = textwrap.dedent("""
        import signal
        from mmlab.cli.entry import watching_ctrl_c
        with watching_ctrl_c():
            for _ in range(3):
                try:
                    signal.raise_signal(signal.SIGINT)
                except KeyboardInterrupt:
                    pass
            print("went on")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (-signal.SIGINT, "", "")


def test_a_swallowed_ctrl_c_waits_while_workers_start_ignoring_it():
    from mmlab.experiments.workers import sigint_ignored

    with pytest.raises(KeyboardInterrupt):
        with watching_ctrl_c() as ctrl_c:
            ctrl_c_inside_a_callback()
            with sigint_ignored():
                busy(0.2)
            busy(5.0)
    assert ctrl_c.presses == 1 and ctrl_c._simulated == 0  # (no Ctrl-C simulated in vain: a later press counts)


def test_an_error_a_library_makes_of_the_ctrl_c_is_reported_as_interrupted(capsys, monkeypatch):
    from mmlab.cli import entry, main

    def command(argv):
        try:
            signal.raise_signal(signal.SIGINT)
            busy(1.0)
        except KeyboardInterrupt as e:
            raise RuntimeError("the library's own words") from e

    monkeypatch.setattr(main, "main", command)
    assert entry.main([]) == entry.INTERRUPTED and capsys.readouterr().err == "interrupted\n"


def test_a_ctrl_c_swallowed_as_the_command_finishes_still_ends_it_as_interrupted(capsys, monkeypatch):
    from mmlab.cli import entry, main

    def command(argv):
        ctrl_c_inside_a_callback()  # (and the command returns before it is raised again)
        return 0

    monkeypatch.setattr(main, "main", command)
    assert entry.main([]) == entry.INTERRUPTED and capsys.readouterr().err == "interrupted\n"


def test_a_ctrl_c_while_loading_waits_until_the_block_ends():
    from mmlab.cli.entry import loading

    with watching_ctrl_c() as ctrl_c:
        with pytest.raises(KeyboardInterrupt):
            with loading():
                signal.raise_signal(signal.SIGINT)
                busy(0.1)  # (an import, which the KeyboardInterrupt could abort)
                loaded = True
        assert loaded and ctrl_c.presses == 1
        with loading():  # (nothing pressed: nothing raised)
            busy(0.01)
    with loading():  # outside the watch (mmlab called from Python) it only runs the block
        busy(0.01)


def test_a_ctrl_c_while_a_command_loads_waits_and_ends_it(capsys, monkeypatch):
    """A command's module is imported once it is chosen (mmlab.cli.commands), and a Ctrl-C meanwhile
    waits until it is loaded, as one while the command line loads does."""
    import types

    from mmlab.cli import commands, entry

    loaded, ran = [], []
    module = types.ModuleType("mmlab.cli.slow")

    def add_command(command):  # (as its import would, slowly)
        signal.raise_signal(signal.SIGINT)
        busy(0.2)
        loaded.append(True)
        command("slow", "a command that loads slowly", lambda args: ran.append(True) or 0)

    module.add_command = add_command
    monkeypatch.setitem(sys.modules, "mmlab.cli.slow", module)
    monkeypatch.setitem(commands.COMMANDS, "slow", ("slow", "a command that loads slowly"))
    assert entry.main(["slow"]) == entry.INTERRUPTED and capsys.readouterr().err == "interrupted\n"
    assert (loaded, ran) == ([True], [])


def test_sigterm_stops_the_command_as_a_ctrl_c_does():
    """SIGTERM (a batch system's time limit, 'docker stop') ended the process at once, losing the
    games a run had finished but not written; it is raised as the first Ctrl-C is."""
    with watching_ctrl_c() as ctrl_c:
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGTERM)
            busy(1.0)
        signal.raise_signal(signal.SIGTERM)  # a second one, e.g. while the finished games are written
        busy(0.1)
    assert (ctrl_c.presses, ctrl_c.signum, ctrl_c.status) == (2, signal.SIGTERM, 143)
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    assert_a_sigterm_handler_of_someone_else_is_left_alone()


def assert_a_sigterm_handler_of_someone_else_is_left_alone() -> None:
    def theirs(signum, frame):
        raised.append(signum)

    raised = []
    previous = signal.signal(signal.SIGTERM, theirs)
    try:
        with watching_ctrl_c() as ctrl_c:
            signal.raise_signal(signal.SIGTERM)
            busy(0.1)
        assert raised == [signal.SIGTERM] and not ctrl_c.pressed and signal.getsignal(signal.SIGTERM) is theirs
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_sigterm_is_watched_also_where_ctrl_c_is_ignored():
    """A job started in the background by a batch script ignores Ctrl-C, and still gets SIGTERM."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with pytest.raises(KeyboardInterrupt), watching_ctrl_c() as ctrl_c:
            ctrl_c_inside_a_callback_by(signal.SIGTERM)  # (raised again: here by a simulated SIGTERM)
            busy(5.0)
        assert (ctrl_c.presses, ctrl_c.status, ctrl_c._simulated) == (1, 143, 0)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


@ctypes.CFUNCTYPE(None)
def _sigterm_inside_a_callback() -> None:
    signal.raise_signal(signal.SIGTERM)
    busy(0.1)


def ctrl_c_inside_a_callback_by(signum: int) -> None:
    """``ctrl_c_inside_a_callback``, the signal being ``signum``."""
    (_sigterm_inside_a_callback if signum == signal.SIGTERM else ctrl_c_inside_a_callback)()


def test_a_command_stopped_by_sigterm_says_interrupted_and_returns_143(capsys, monkeypatch):
    from mmlab.cli import entry, main

    def command(argv):
        signal.raise_signal(signal.SIGTERM)
        busy(1.0)
        return 0

    monkeypatch.setattr(main, "main", command)
    assert entry.main([]) == entry.TERMINATED == 143 and capsys.readouterr().err == "interrupted\n"


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_a_command_stopped_by_sighup_keeps_going_to_its_end_and_returns_129(monkeypatch):
    """A terminal or ssh session closing sends SIGHUP, which ended the process at once: it stops the
    command as a Ctrl-C does. The terminal may be gone: saying "interrupted" may fail, and is skipped."""
    from mmlab.cli import entry, main

    def command(argv):
        signal.raise_signal(signal.SIGHUP)
        busy(1.0)
        return 0

    def gone(*args, **kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(main, "main", command)
    monkeypatch.setattr("builtins.print", gone)
    assert entry.main([]) == 129 and signal.getsignal(signal.SIGHUP) == signal.SIG_DFL


@pytest.mark.parametrize("signals, ended_by", [(["SIGTERM"] * 3, signal.SIGTERM),
                                               (["SIGTERM", "SIGINT", "SIGINT"], signal.SIGINT)])
def test_the_third_stop_ends_the_process_at_once_by_its_own_signal(signals, ended_by):
    code = textwrap.dedent(f"""
        import signal
        from mmlab.cli.entry import watching_ctrl_c
        with watching_ctrl_c():
            for name in {signals!r}:
                try:
                    signal.raise_signal(getattr(signal, name))
                    print("went on", flush=True)
                except KeyboardInterrupt:
                    print("raised", flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (-ended_by, "raised\nwent on\n", "")


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_the_process_stopped_by_sigterm_ends_by_sigterm_after_its_exit_handlers(signame):
    """As one stopped by Ctrl-C ends by SIGINT, once Python has shut down: a shell sees 143 (129
    after a SIGHUP), and what the command printed, and the exit handlers' work (multiprocessing's
    among them), is done."""
    signum = getattr(signal, signame, None)
    if signum is None:
        pytest.skip(f"no {signame} here")
    code = textwrap.dedent(f"""
        import atexit, signal, sys
        from mmlab.cli import entry, main

        def command(argv):
            atexit.register(print, "exit handler ran", flush=True)
            print("the figures so far", end="")  # (not flushed)
            signal.raise_signal(signal.{signame})
            while True:
                pass

        main.main = command
        entry.run()
    """)
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (-signum, "the figures so farexit handler ran\n",
                                                            "interrupted\n")


def test_a_stream_that_cannot_encode_a_character_gets_it_escaped_not_a_traceback(tmp_path):
    """``PYTHONIOENCODING=ascii`` (or a legacy code page) cannot write ``±``: the figures are printed
    with ``\\xb1`` in its place, as Python escapes it in a traceback, and the command succeeds."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    command = [sys.executable, "-m", "mmlab", "eval", "3x4", "--strategy", "random", "--secrets", "20"]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert " \\xb1 " in done.stdout
