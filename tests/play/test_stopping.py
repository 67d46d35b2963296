"""Ctrl-C during a computation the player asked for stops it, not the game, nor the command."""

import _thread
import contextlib
import subprocess
import sys

import pytest

from mmlab.cli.entry import watching_ctrl_c
from mmlab.play.stopping import Stopped, stoppable


def ctrl_c_in_a_kernel() -> None:
    """What a Ctrl-C landing in a numba kernel raises (``errors.is_ctrl_c``)."""
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as error:
        raise SystemError("returned a result with an exception set") from error


def test_a_ctrl_c_stops_the_work_and_the_command_does_not_see_it():
    """Under the command's watch (as in 'mmlab play'), which would end the game and the command,
    and would no longer raise a second Ctrl-C at the prompt."""
    with watching_ctrl_c() as ctrl_c:
        with pytest.raises(Stopped):
            stoppable(_thread.interrupt_main)
        with pytest.raises(Stopped):
            stoppable(ctrl_c_in_a_kernel)
        assert stoppable(lambda: 42) == 42
        assert not ctrl_c.pressed
        with pytest.raises(KeyboardInterrupt):  # at the prompt, the watch's Ctrl-C as before
            _thread.interrupt_main()
            for _ in range(10**6):
                pass
    assert ctrl_c.pressed


def test_other_errors_pass_through():
    with pytest.raises(SystemError, match="returned NULL"):
        stoppable(lambda: (_ for _ in ()).throw(SystemError("returned NULL")))


def test_a_ctrl_c_as_the_spinner_starts_stops_the_work_and_never_lands_in_the_spinner():
    """The handler is in place before the spinner shows (a person sees it, then presses Ctrl-C),
    and raises only inside the work: the spinner starts and stops whole."""
    shown = []

    @contextlib.contextmanager
    def spinner():
        shown.append("on")
        _thread.interrupt_main()
        try:
            yield
        finally:
            for _ in range(10**5):  # (where a Ctrl-C raised outside the work would land)
                pass
            shown.append("off")

    with watching_ctrl_c() as ctrl_c, pytest.raises(Stopped):
        stoppable(lambda: sum(range(10**6)), spinner())
    assert shown == ["on", "off"] and not ctrl_c.pressed


def test_a_ctrl_c_as_the_result_is_shown_is_dropped_and_it_is_shown_whole():
    """Pressed on seeing the spinner, it can arrive as the work ends and the hint is printed: it
    ended the game, the hint shown in part or not at all; it comes too late to stop anything."""
    shown = []

    def show(result: int) -> None:
        _thread.interrupt_main()
        for _ in range(10**5):  # (where a Ctrl-C left to the command's watch would land)
            pass
        shown.append(result)

    with watching_ctrl_c() as ctrl_c:
        try:
            assert stoppable(lambda: 42, show=show) == 42
        except KeyboardInterrupt:
            pytest.fail("the Ctrl-C reached the command's watch")
    assert shown == [42] and not ctrl_c.pressed


def test_a_ctrl_c_that_stopped_code_run_from_a_string_does_not_end_the_process_by_sigint(tmp_path):
    """CPython remembers a KeyboardInterrupt that ended code run by ``exec`` (numba's, as a hint
    loads its kernels) and, under ``python -m``, ended the process by SIGINT after a won game."""
    (tmp_path / "stopped_in_exec.py").write_text(
        "from mmlab.play.stopping import Stopped, stoppable\n"
        "try:\n"
        "    stoppable(lambda: exec('import _thread\\n_thread.interrupt_main()\\nfor _ in range(10**6): pass'))\n"
        "except Stopped:\n"
        "    print('stopped')\n"
        "raise SystemExit(1)\n")
    done = subprocess.run([sys.executable, "-m", "stopped_in_exec"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)
    assert (done.returncode, done.stdout) == (1, "stopped\n"), done.stderr
