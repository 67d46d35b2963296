"""Where the CLI writes: tables on stdout, progress bars and errors on stderr, JSON for scripts.

rich is imported when first used: ``out`` and ``err``, its consoles, are made when first asked for
(PEP 562), so that a command that prints plain text or JSON (``mmlab score``) loads none of it.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    out: Console
    err: Console


@functools.cache
def _pipe_console() -> type[Console]:
    """``PipeConsole``, rich's console leaving a pipe closed by its reader to the command."""
    from rich.console import Console
    from rich.table import Table

    class PipeConsole(Console):
        """rich's console, leaving a pipe closed by its reader to the command, which ends quietly with
        status 0 (``mmlab strategies | head -1``); rich's own console exits with status 1."""

        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

        def print(self, *objects, **kwargs) -> None:
            super().print(*(fit(o, self) if isinstance(o, Table) else o for o in objects), **kwargs)

    return PipeConsole


def fit(table: Table, console: Console) -> Table:
    """``table`` as it is, or (changed in place) without its frame when that is wider than the terminal: an
    80-column terminal then has 12 to 20 more columns for the figures, which rich would otherwise
    wrap or cut ("most-p…", "1197…").

    >>> from rich import box
    >>> from rich.console import Console
    >>> from rich.table import Table
    >>> def table():
    ...     table = Table("strategy", "mean ± s.e.")
    ...     table.add_row("most-parts", "4.6273 ± 0.0241")
    ...     return table
    >>> fit(table(), Console(width=80)).box is box.HEAVY_HEAD, fit(table(), Console(width=30)).box is box.SIMPLE_HEAD
    (True, True)
    """
    from rich import box
    from rich.measure import Measurement

    unbounded = console.options.update_width(10**6)  # measured within the console, it never exceeds it
    if table.box is not None and Measurement.get(console, unbounded, table).maximum > console.width:
        table.box, table.show_edge, table.pad_edge, table.collapse_padding = box.SIMPLE_HEAD, False, False, True
        for column in table.columns:  # still too narrow: a figure folds onto the next line, never cut to "1197…"
            column.overflow = "fold"
    return table


def fits(table: Table, console: Console) -> bool:
    """Whether ``table`` fits ``console``'s width whole, once ``fit`` (without its frame if need be).

    >>> from rich.console import Console
    >>> from rich.table import Table
    >>> fits(Table("strategy", "literature"), Console(width=30)), fits(Table("x" * 40), Console(width=30))
    (True, False)
    """
    from rich.measure import Measurement

    fit(table, console)
    return Measurement.get(console, console.options.update_width(10**6), table).maximum <= console.width


# Piped output is not cut to 80 columns: tables stay whole, and a message stays on one line, for
# files and scripts. Text is printed as given, never read as rich's markup: a saved tree's label
# or a code in brackets is the user's text ('[/bold]' in a label ended eval --tree in a traceback).
def __getattr__(name: str) -> Any:
    """``out`` and ``err``, each made when first asked for, then kept."""
    if name == "out":
        console = _pipe_console()(highlight=False, markup=False, width=None if sys.stdout.isatty() else 160)
    elif name == "err":
        console = _pipe_console()(stderr=True, highlight=False, markup=False, soft_wrap=not sys.stderr.isatty())
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = console
    return console


def _err() -> Console:
    """``err``, made if it is not yet (a name this module's functions read is not looked up by ``__getattr__``)."""
    return globals()["err"] if "err" in globals() else __getattr__("err")


def print_json(data) -> None:
    print(json.dumps(data, indent=2))


@functools.cache
def average_rate(completed: float, elapsed: float | None) -> float | None:
    """Items per second since the start, or ``None`` before any is done. rich's own speed divides
    the items of its recent updates by the time between the first and the last, so two workers'
    batches arriving together read as millions a second (``mm2 reproduce`` showed 16,909,029/s
    and an eta of one second for its first seconds).

    >>> average_rate(400, 2.0), average_rate(0, 2.0)
    (200.0, None)
    """
    return completed / elapsed if completed and elapsed else None


def _rate_columns() -> tuple[type, type]:
    """``RateColumn`` and ``EtaColumn``, columns of rich's progress bar from the average rate."""
    from datetime import timedelta

    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Items per second, e.g. games/s."""

        def render(self, task: Task) -> Text:
            rate = average_rate(task.completed, task.elapsed)
            return Text(f"{rate:,.0f}/s" if rate else "")

    class EtaColumn(ProgressColumn):
        """The time left at the average rate."""

        def render(self, task: Task) -> Text:
            rate = average_rate(task.completed, task.elapsed)
            if rate is None or task.total is None:
                return Text("-:--:--", style="progress.remaining")
            left = max(0.0, task.total - task.completed) / rate
            return Text(str(timedelta(seconds=round(left))), style="progress.remaining")

    return RateColumn, EtaColumn


@contextmanager
def progress(description: str, total: int, enabled: bool = True, percent: bool = False, eta: bool = True):
    """A progress bar on stderr (only on a terminal); yields ``update(done, total)``. It counts
    ``done/total`` items and their rate, or with ``percent`` (work in units a user would not
    count) the share done; without ``eta`` where the share done does not track the time (a
    search's share of its first branches)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    err = _err()
    show = enabled and err.is_terminal
    rate, time_left = _rate_columns()
    counts = [TaskProgressColumn()] if percent else [MofNCompleteColumn(), rate()]
    bar = Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        *counts,
        TimeElapsedColumn(),
        *([TextColumn("eta"), time_left()] if eta else []),
        console=err,
        transient=True,
        disable=not show,
    )
    with bar:
        task = bar.add_task(description, total=total)

        def update(done: int, new_total: int | None = None) -> None:
            bar.update(task, completed=done, total=new_total or total)

        yield update


def running_total(update: Callable[[int], None]) -> Callable[[int], None]:
    """A progress callback told ``k`` more done at a time (as ``DecisionTree.build`` and
    ``MathMind.evaluate`` tell it) that tells ``update`` (a ``progress`` bar's) the total so far.

    >>> told = []; more = running_total(told.append); more(2); more(3); told
    [2, 5]
    """
    done = 0

    def more(k: int) -> None:
        nonlocal done
        done += k
        update(done)

    return more


@contextmanager
def spinner(text: str, enabled: bool = True) -> Iterator[Callable[..., None]]:
    """A spinner line on stderr (only on a terminal): ``text``, then the time since it started.
    Yields ``say(text, restart=False)``, which changes the text and, with ``restart``, starts the
    time again. Nothing may be printed to stdout while it turns."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    err = _err()
    line = Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), TimeElapsedColumn(),
                    console=err, transient=True, disable=not (enabled and err.is_terminal))
    with line:
        task = line.add_task(text, total=None)

        def say(new: str, restart: bool = False) -> None:
            if restart:
                line.reset(task, total=None)
            line.update(task, description=new)

        yield say


def histogram_text(hist: dict[int, int]) -> str:
    return " ".join(f"{k}:{v}" for k, v in sorted(hist.items()))


def mean_text(mean: float, stderr: float, games: int, joiner: str = " ± ") -> str:
    """A mean with its standard error, to 4 decimals; the mean alone after one game, whose standard
    error cannot be estimated.

    >>> mean_text(4.5, 0.25, 2), mean_text(4.0, 0.0, 1), mean_text(4.5, 0.25, 2, joiner="±")
    ('4.5000 ± 0.2500', '4.0000', '4.5000±0.2500')
    """
    return f"{mean:.4f}{joiner}{stderr:.4f}" if games > 1 else f"{mean:.4f}"
