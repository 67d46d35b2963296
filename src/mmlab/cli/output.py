"""Where the CLI writes: tables on stdout, progress bars and errors on stderr, JSON for scripts."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.text import Text


class PipeConsole(Console):
    """rich's console, leaving a pipe closed by its reader to the command, which ends quietly with
    status 0 (``mmlab strategies | head -1``); rich's own console exits with status 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


# Piped output is not cut to 80 columns: tables stay whole, and a message stays on one line, for
# files and scripts.
out = PipeConsole(highlight=False, width=None if sys.stdout.isatty() else 160)
err = PipeConsole(stderr=True, highlight=False, soft_wrap=not sys.stderr.isatty())


def print_json(data) -> None:
    print(json.dumps(data, indent=2))


class RateColumn(ProgressColumn):
    """Items per second, e.g. games/s."""

    def render(self, task: Task) -> Text:
        return Text(f"{task.speed:,.0f}/s" if task.speed else "")


@contextmanager
def progress(description: str, total: int, enabled: bool = True):
    """A progress bar on stderr (only on a terminal); yields ``update(done, total)``."""
    show = enabled and err.is_terminal
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not show,
    )
    with bar:
        task = bar.add_task(description, total=total)

        def update(done: int, new_total: int | None = None) -> None:
            bar.update(task, completed=done, total=new_total or total)

        yield update


def histogram_text(hist: dict[int, int]) -> str:
    return " ".join(f"{k}:{v}" for k, v in sorted(hist.items()))
