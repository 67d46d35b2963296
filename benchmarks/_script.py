"""What every benchmark script shares: an argument type that refuses nonsense, and ``run_script``,
which ends a Ctrl-C with one line, as the ``mmlab`` command does (``mmlab.cli.entry``).

Import it first: from then on, a Ctrl-C while the script still loads numpy, numba and mmlab
ends it with the same line instead of a traceback.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable


def _interrupted_while_loading(signum: int, frame: object) -> None:
    print("interrupted", file=sys.stderr)
    raise SystemExit(130)


if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # (the pool's workers, which import the script, ignore it)
    signal.signal(signal.SIGINT, _interrupted_while_loading)

from mmlab.cli.arguments import int_at_least  # noqa: E402  (after the handler, as the rest of the script)


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (argparse names the option)."""
    return int_at_least(minimum, "it")


def run_script(main: Callable[[], object]) -> None:
    """Run a script's ``main``; Ctrl-C prints ``interrupted`` and exits with status 130."""
    signal.signal(signal.SIGINT, signal.default_int_handler)  # loaded: Ctrl-C is KeyboardInterrupt again
    try:
        status = main()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(status if isinstance(status, int) else 0)
