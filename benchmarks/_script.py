"""What every benchmark script shares: an argument type that refuses nonsense, and ``run_script``,
which ends a Ctrl-C with one line, as the ``mmlab`` command does (``mmlab.cli.entry``)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from mmlab.cli.arguments import int_at_least


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (argparse names the option)."""
    return int_at_least(minimum, "it")


def run_script(main: Callable[[], object]) -> None:
    """Run a script's ``main``; Ctrl-C prints ``interrupted`` and exits with status 130."""
    try:
        status = main()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(status if isinstance(status, int) else 0)
