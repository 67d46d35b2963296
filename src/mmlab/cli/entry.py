"""The ``mmlab`` command's entry point: loads the command line (a second or so: numpy, numba and
the engine's kernels) so that a Ctrl-C meanwhile ends it with one line, as it does later.

>>> main(["score", "1234", "1122"])
1,1
0
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mmlab`` with ``argv`` (default: the process's arguments); the exit status."""
    interrupted: list[bool] = []

    def on_ctrl_c(signum: int, frame: object) -> None:
        interrupted.append(True)  # remembered: a library may swallow the KeyboardInterrupt while it loads
        raise KeyboardInterrupt

    ours = signal.getsignal(signal.SIGINT) is signal.default_int_handler  # (not when Ctrl-C is ignored)
    if ours:
        signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        from mmlab.cli.main import main as run
    except KeyboardInterrupt:
        interrupted.append(True)
    finally:
        if ours:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    if interrupted:
        print("interrupted", file=sys.stderr)
        return 130
    return run(argv)
