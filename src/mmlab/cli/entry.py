"""The ``mmlab`` command's entry point: loads the command line (a second or so: numpy, numba and
the engine's kernels) so that a Ctrl-C meanwhile ends it with one line, as it does later.

>>> main(["score", "1234", "1122"])
1,1
0
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mmlab`` with ``argv`` (default: the process's arguments); the exit status."""
    try:
        from mmlab.cli.main import main as run
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return run(argv)
