"""The experiment commands: ``run`` a study file, ``report`` it, ``export`` its rows, list the
``studies`` of a store, ``forget`` one. What they run on (DuckDB, pandas, the engine, scipy's
tests) is imported by each command as it starts, so that their options and help load none of it.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from mmlab.cli.arguments import int_at_least
from mmlab.cli.commands import help_of
from mmlab.cli.entry import loading
from mmlab.cli.output import print_json, progress
from mmlab.errors import BadArgument, StoreError, shown

if TYPE_CHECKING:
    import pandas as pd

    from mmlab.experiments.report import Report
    from mmlab.experiments.runner import RunSummary
    from mmlab.experiments.store import Store
    from mmlab.experiments.study import Study

#: ``mmlab.experiments.store.DEFAULT_STORE`` (not imported for the options' help: it loads DuckDB
#: and pandas; ``tests/cli/test_studies.py`` checks that the two agree).
DEFAULT_STORE = "mmlab-results.duckdb"


def _load_store() -> None:
    """Import the results store (DuckDB, pandas), a Ctrl-C waiting until it is loaded."""
    with loading():
        import mmlab.experiments.store  # noqa: F401


def _load_report() -> None:
    """Import the store and the reports (the engine, scipy's tests), a Ctrl-C waiting until they are loaded."""
    with loading():
        import mmlab.experiments.labels
        import mmlab.experiments.report
        import mmlab.experiments.runner
        import mmlab.experiments.store  # noqa: F401


def add_store_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", default=DEFAULT_STORE, metavar="PATH",
                   help=f"the DuckDB results file (default {DEFAULT_STORE} in the working directory)")


def add_execution_args(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()  # the workers of a cluster are the cluster's
    where.add_argument("--jobs", type=int, metavar="N",
                       help="local worker processes (default: this process first, then one per core when the rest "
                            "would take more than a few seconds; 1: this process only)")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="run on this Dask cluster instead; this process alone writes the store")


def execute(study: Study, args: argparse.Namespace) -> RunSummary:
    """Run ``study`` with a progress bar (games done, rate, time left) and report what was done."""
    _load_report()
    from mmlab.cli.output import err
    from mmlab.experiments.runner import run_study
    from mmlab.experiments.store import Store

    store = Store(args.store)
    with games_left_bar(study.name) as update:
        summary = run_study(study, store, jobs=args.jobs, scheduler=args.scheduler, on_progress=update)
    if summary.played:
        rate = summary.played / summary.seconds if summary.seconds else math.inf
        where = ("in " if summary.scheduler.startswith("this process") else "on ") + summary.scheduler
        err.print(f"{study.name}: played {summary.played} games in {summary.seconds:.1f} s ({rate:.0f} games/s) "
                  f"{where}; {summary.skipped} were already stored in {store.path}")
        if summary.written < summary.played:
            err.print(f"{summary.played - summary.written} of them had been stored meanwhile by another run of "
                      f"{study.name}; the stored games were kept")
    else:
        err.print(f"{study.name}: all {summary.skipped} games already stored in {store.path}")
    return summary


@contextmanager
def games_left_bar(description: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar shown from the first ``update(done, total)``: a resumed study counts the games
    it has left, from 0, not from the whole study's total."""
    with ExitStack() as stack:
        bar: Callable[[int, int], None] | None = None

        def update(done: int, total: int) -> None:
            nonlocal bar
            if bar is None:
                bar = stack.enter_context(progress(description, total))
            bar(done, total)

        yield update


# --------------------------------------------------------------------------------- commands
def cmd_run(args: argparse.Namespace) -> int:
    _load_report()
    from mmlab.experiments.report import build_report
    from mmlab.experiments.store import Store
    from mmlab.experiments.study import Study

    study = Study.load(args.study)
    execute(study, args)
    store = Store(args.store)
    report = build_report(store, study.name)
    if args.json:
        print_json(report_json(report))
    else:
        print_summary(report, store, args.study)
    return 0


def _stored_name(store: Store, name: str) -> bool:
    """Whether ``name``, which ends in .toml, is the name of a stored study rather than a study file
    (there is no such file)."""
    return not Path(name).exists() and store.path.exists() and name in set(store.studies()["study"])


def _study_file(store: Store, text: str) -> Study | None:
    """The study of the file ``text`` (``.toml``), or ``None`` when ``text`` is a stored study's name."""
    if text.endswith(".toml") and not _stored_name(store, text):
        from mmlab.experiments.study import Study

        return Study.load(text)
    return None


def _study_named(store: Store, text: str, deleting: bool = False) -> str:
    """The study ``text`` names: a stored study's name, or a study file's, as ``report`` takes it,
    with a note when the file no longer matches the study stored under its name (refused when
    ``deleting``: the file may be meant for another study)."""
    given = _study_file(store, text)
    if given is None:
        return text
    if _stored_fingerprint(store, text, given) != given.fingerprint:
        if deleting:
            raise StoreError(f"{text} no longer matches the stored study {given.name!r}, so it may not be the "
                             f"study you mean to delete: name it, 'mmlab forget {given.name}', to delete the stored "
                             "one")
        from mmlab.cli.output import err

        err.print(f"note: {text} no longer matches the stored study {given.name!r}; this takes the stored one")
    return given.name


def _stored_fingerprint(store: Store, text: str, given: Study) -> str:
    """The fingerprint of the stored study of the file ``text`` (of study ``given``); refused, saying
    the command that plays it, when the store does not hold that study."""
    stored = store.fingerprint(given.name)  # (None too when there is no store)
    if stored is not None:
        return stored
    where = "" if str(store.path) == DEFAULT_STORE else f" --store {shlex.quote(str(store.path))}"
    held = (f"which {str(store.path)!r} does not hold" if store.path.exists()
            else f"and there is no results store at {str(store.path)!r}")
    raise StoreError(f"{text} is the study {given.name!r}, {held}: mmlab run {shlex.quote(text)}{where} plays it")


def check_figure_paths(plots: str | None, html: str | None) -> None:
    """Make the folder ``plots`` and the folder of the page ``html``, and refuse either that cannot
    be written, before any work that would fill them."""
    if plots == "":
        raise BadArgument("--plots is empty: give the folder to write the plots into")
    if plots is not None:
        _writable_folder(Path(plots), f"cannot write the plots into {shown(plots)}")
    if html is not None:
        if not html or Path(html).is_dir():
            raise BadArgument(f"--html {shown(html)}: give the page to write, e.g. --html report.html")
        _writable_folder(Path(html).parent, f"cannot write {shown(html)}")
        if Path(html).exists():
            try:
                with open(html, "a"):  # (writes nothing; says why it cannot, e.g. a read-only disk)
                    pass
            except OSError as e:
                raise BadArgument(f"cannot write {shown(html)}: {e.strerror}") from None


def _writable_folder(folder: Path, failure: str) -> None:
    """Make ``folder`` (and its parents); ``failure``, with the reason, when it cannot be written."""
    if folder.exists() and not folder.is_dir():
        raise BadArgument(f"{failure}: it is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()  # (says why it cannot be written, e.g. a read-only disk)
    except OSError as e:
        raise BadArgument(f"{failure}: {e.strerror}") from None


def write_figures(report: Report, plots: str | None, html: str | None) -> None:
    """Write the report's plots as PNG and SVG into the folder ``plots`` and/or one HTML page to ``html``.

    Example: ``write_figures(build_report(Store("mmlab-results.duckdb"), "merelo-4x6"), "figs", None)``
    """
    if not (plots or html):
        return
    with loading():
        from mmlab.experiments.plots import figures_for, save
    from mmlab.cli.output import err
    from mmlab.experiments.report import to_html

    name = report.study.name
    exact = {(row.strategy, row.size) for row in report.summary.itertuples() if row.exact}
    figures = figures_for(report.games, strategies=list(report.study.strategies), runs=report.runs_of,
                          per_move=report.per_move, exact=exact)  # (per_move: computed in the store)
    if plots:
        folder = Path(plots)
        try:
            written = [p for key, fig in figures.items() for p in save(fig, folder / f"{name}-{key}")]
        except OSError as e:
            raise BadArgument(f"cannot write the plots into {str(folder)!r}: {e.strerror}") from None
        err.print(f"wrote {len(written)} plot files to {folder}")
    if html:
        try:
            Path(html).parent.mkdir(parents=True, exist_ok=True)  # as --plots makes its folder
            Path(html).write_text(to_html(report, figures))
        except OSError as e:
            raise BadArgument(f"cannot write {html!r}: {e.strerror}") from None
        err.print(f"wrote {html}")


def cmd_report(args: argparse.Namespace) -> int:
    check_figure_paths(args.plots, args.html)
    _load_report()
    from mmlab.cli.output import err
    from mmlab.experiments.report import build_report
    from mmlab.experiments.store import Store

    store = Store(args.store)
    if args.study is None:
        args.study = store.last_study()
        err.print(f"the study stored or run last: {args.study} ('mmlab studies' lists them all)")
    given = _study_file(store, args.study)
    name = given.name if given is not None else args.study
    if given is not None:
        _stored_fingerprint(store, args.study, given)
    report = build_report(store, name)
    study_file = args.study if given is not None and given.fingerprint == report.study.fingerprint else None
    if given is not None and study_file is None:
        now, then = given.definition(), report.study.definition()
        changed = [key for key in now if now[key] != then[key]]
        err.print(f"note: {args.study} no longer matches the stored study {name!r} (its {', '.join(changed)} "
                  f"changed); this reports the stored one (seed {report.study.seed}, {report.study.runs} "
                  f"run{'s' if report.study.runs != 1 else ''}, secrets {report.study.secrets}, strategies "
                  f"{', '.join(report.study.strategies)})")
    unknown = report.study.unknown_strategies()
    if unknown:
        err.print(f"note: this mmlab does not know {', '.join(unknown)} (registered in the Python session that played "
                  f"{'it' if len(unknown) == 1 else 'them'}, or by another version of mmlab): the stored games are "
                  "reported as they are")
    if report.games.empty:
        raise BadArgument(f"study {name!r} has no games stored yet (of {report.expected_games}): "
                          f"{resume_hint(report.study, store, study_file)}")
    write_figures(report, args.plots, args.html)
    if args.json:
        print_json(report_json(report))
        return 0
    print_summary(report, store, study_file)
    print_details(report, args.moves)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    _load_store()
    from mmlab.cli.output import err
    from mmlab.experiments.store import Store

    store = Store(args.store)
    name = _study_named(store, args.study)
    path = store.export(name, args.output, args.table)
    err.print(f"wrote the {args.table} of {name} to {path}")
    return 0


def cmd_studies(args: argparse.Namespace) -> int:
    if not Path(args.store).exists():
        raise StoreError(f"there is no results store at {shown(str(args.store))}: run a study first "
                         "(mmlab run or mmlab compare)")
    _load_store()
    from rich.table import Table

    from mmlab.cli.output import out
    from mmlab.experiments.store import Store

    frame = Store(args.store).studies()
    if args.json:
        print_json(json.loads(frame.to_json(orient="records", date_format="iso")))
        return 0
    if frame.empty:
        out.print(f"{args.store} holds no study yet: 'mmlab run FILE' or 'mmlab compare SIZE' stores one")
        return 0
    table = Table(title=f"studies in {args.store}")
    for column in ("study", "games", "strategies", "created", "description"):
        table.add_column(column, no_wrap=column == "study")  # (a name to type again: never broken)
    for row in frame.itertuples(index=False):
        table.add_row(row.study, str(row.games), str(row.strategies), str(row.created)[:19], row.description or "")
    out.print(table)
    return 0


def cmd_forget(args: argparse.Namespace) -> int:
    _load_store()
    from mmlab.cli.output import err
    from mmlab.experiments.store import Store

    store = Store(args.store)
    name = _study_named(store, args.study, deleting=True)
    store.require(name)
    n = store.forget(name)
    err.print(f"deleted study {name} and its {n} games from {store.path}")
    return 0


# --------------------------------------------------------------------------------- printing
def labels(specs: list[str]) -> dict[str, str]:
    from mmlab.experiments.labels import label

    return {s: label(s, specs) for s in specs}


def resume_hint(study: Study, store: Store, study_file: str | None = None) -> str:
    """How to play the games of ``study`` still missing from ``store``: the command that made it,
    with the study file ``study_file`` when it is known (else ``FILE.toml`` stands for it).

    >>> from mmlab.experiments import Store, Study
    >>> resume_hint(Study("s", ["3x3"], ["knuth"], description="mmlab compare 3x3 --strategies knuth"), Store())
    'run the same comparison again, which plays only the missing games: mmlab compare 3x3 --strategies knuth'
    >>> resume_hint(Study("s", ["3x3"], ["knuth"], source="name = 's'"), Store("p.duckdb"))
    "run the study file of 's' again, which plays only the missing games: mmlab run FILE.toml --store p.duckdb"
    """
    where = "" if str(store.path) == DEFAULT_STORE else f" --store {shlex.quote(str(store.path))}"
    if study.description.startswith("mmlab compare ") and not study.source:
        return f"run the same comparison again, which plays only the missing games: {study.description}{where}"
    if study.source:
        whose, file = ("", shlex.quote(study_file)) if study_file else (f" of {study.name!r}", "FILE.toml")
        return f"run the study file{whose} again, which plays only the missing games: mmlab run {file}{where}"
    return "run the study again (run_study from Python), which plays only the missing games"


def print_summary(report: Report, store: Store, study_file: str | None = None) -> None:
    """The summary tables of ``report``, and how to play its missing games (from ``study_file``, if known)."""
    import pandas as pd
    from rich.table import Table

    from mmlab.cli.output import out
    from mmlab.experiments.report import LOST, game_title

    study = report.study
    short = labels(list(study.strategies))
    deduced = _deduced(report.games)
    lost = bool(report.summary["lost"].any())
    any_exact = False  # an exact mean has no sampling error to show
    for size in study.sizes:
        part = report.summary[report.summary["size"] == size]
        table = Table(title=f"{study.name}: {game_title(study, size)}, secrets {study.secrets.label(study.game(size))}, "
                            f"{study.runs} run{'s' if study.runs != 1 else ''}, "
                            f"seed {study.seed}")
        columns = ["strategy", "games", "mean ± s.e.", "median", "max", "total", "evals per game", "ms/game"]
        if deduced:
            columns.insert(3, "until known")
        if lost:
            columns.insert(2, "lost")
        for column in columns:  # a row's name and mean are never wrapped, nor cut ("most-p…")
            table.add_column(column, justify="left" if column == "strategy" else "right",
                             no_wrap=column in ("strategy", "mean ± s.e."))
        for row in part.itertuples(index=False):
            any_exact |= row.exact
            mean = f"{row.mean:.4f}" + ("" if row.exact else f" ± {row.stderr:.4f}")
            cells = [short[row.strategy], str(row.games), mean, f"{row.median:g}",
                     str(row.max), str(row.total), f"{row.evaluations_mean:.1f}", f"{1000 * row.seconds_per_game:.2f}"]
            if deduced:
                cells.insert(3, "n/a" if pd.isna(row.known_mean) else f"{row.known_mean:.4f}")
            if lost:
                cells.insert(2, str(row.lost))
            table.add_row(*cells)
        out.print(table)
    if any_exact:
        out.print("a mean without ± is exact: a deterministic strategy played every secret once")
    if lost:
        out.print(LOST)
    if deduced:
        out.print("until known: guesses until the strategy knew the secret, a deduced last guess not counted "
                  "(Singley's count, 003)")
    missing = report.expected_games - len(report.games)
    if missing:
        out.print(f"{missing} of {report.expected_games} games not played yet: "
                  f"{resume_hint(study, store, study_file)}")
    shown_specs = [s for s in study.strategies if short[s] != s and s in set(report.summary["strategy"])]
    if shown_specs:  # the labels of the table's rows (a strategy without games stored has none)
        out.print("strategies: " + "; ".join(f"{short[s]} = {s}" for s in shown_specs))


def _deduced(games: pd.DataFrame) -> bool:
    """Whether some game was won with a last guess the strategy had deduced (its code known before)."""
    return bool((games["won"].astype(bool) & (games["known"] != games["guesses"])).any())


def print_details(report: Report, last_move: int) -> None:
    from rich.table import Table

    from mmlab.cli.output import out
    from mmlab.experiments.report import (
        NO_TEST,
        PER_MOVE,
        histogram_title,
        p_value_text,
    )

    study = report.study
    short = labels(list(study.strategies))
    if not report.histogram.empty:
        out.print(f"\n{histogram_title(report)}")
        if len(report.histogram.columns) <= 16:
            table = Table()
            table.add_column("size")
            table.add_column("strategy")
            for guesses in report.histogram.columns:
                table.add_column(str(guesses), justify="right")
            for (size, strategy), row in report.histogram.iterrows():
                table.add_row(size, short[strategy], *(str(v) for v in row))
            out.print(table)
        else:  # too many columns for a table: guesses:games pairs
            for (size, strategy), row in report.histogram.iterrows():
                out.print(f"{size} {short[strategy]}: " + " ".join(f"{k}:{v}" for k, v in row.items() if v))
    if report.tests:
        out.print("\npaired Wilcoxon signed-rank tests on the same games (first minus second)")
        table = Table()
        for column in ("size", "first", "second", "games", "mean difference", "p-value"):
            table.add_column(column, justify="right" if column in ("games", "mean difference", "p-value") else "left")
        for t in report.tests:
            table.add_row(t.size, short[t.first], short[t.second], str(t.games), f"{t.mean_difference:+.4f}",
                          p_value_text(t.p_value))
        out.print(table)
        if any(t.p_value is None for t in report.tests):
            out.print(NO_TEST)
    for column in PER_MOVE:
        if not report.has_per_move(column):
            continue
        title = report.per_move_title(column)
        for size in study.sizes:
            frame = report.per_move_text(size, column, last_move)
            out.print(f"\n{size}: {title}")
            table = Table()
            table.add_column("move", justify="right")
            for strategy in frame.columns:
                table.add_column(short[strategy], justify="right")
            for move, row in frame.iterrows():
                table.add_row(str(move), *row)
            out.print(table)


def records(frame: pd.DataFrame) -> list[dict]:
    """The rows of ``frame`` as JSON-ready dicts at full precision (pandas' ``to_json`` keeps 15
    digits), missing values as ``None``.

    >>> import pandas as pd
    >>> records(pd.DataFrame({"mean": [4.476080246913580], "n": [1296], "sd": [float("nan")]}))
    [{'mean': 4.47608024691358, 'n': 1296, 'sd': None}]
    """
    import pandas as pd

    def plain(value):
        if pd.api.types.is_scalar(value) and pd.isna(value):  # None, NA, NaN of any float type
            return None
        return value.item() if hasattr(value, "item") else value  # numpy scalars to Python's

    return [{key: plain(value) for key, value in row.items()} for row in frame.to_dict(orient="records")]


def report_json(report: Report) -> dict:
    from mmlab.experiments.report import games_by_guesses

    return {
        "study": report.study.definition(),
        "games_stored": len(report.games),
        "games_expected": report.expected_games,
        "summary": records(report.summary),
        "histogram": [{"size": size, "strategy": strategy,  # (games won; those lost apart, as the table has them)
                       "games_by_guesses": games_by_guesses(row),
                       "lost": int(row.get("lost", 0))}
                      for (size, strategy), row in report.histogram.iterrows()],
        "wilcoxon": [t.__dict__ for t in report.tests],
        "per_move": records(report.per_move),
    }


def add_commands(command) -> None:
    """Register the experiment commands with the parser's ``command(name, help, func)``."""
    p = command("run", help_of("run"), cmd_run)
    p.add_argument("study", help="the study file (TOML), e.g. studies/merelo-4x6.toml: name, sizes and strategies; "
                                 "optionally description, secrets (all, N, instance:N or a list), runs, seed, "
                                 "repeats, feedback (black for black pegs only) and max_guesses; "
                                 "docs/experiments.md describes each key")
    add_store_args(p)
    add_execution_args(p)
    p.add_argument("--json", action="store_true", help="print the report as JSON")

    p = command("report", help_of("report"), cmd_report)
    p.add_argument("study", nargs="?", help="the study's name, or its file (default: the study stored or run last)")
    add_store_args(p)
    p.add_argument("--html", metavar="PATH", help="also write one self-contained HTML page with tables and plots")
    p.add_argument("--plots", metavar="DIR", help="also write the plots as PNG and SVG into this folder")
    p.add_argument("--moves", type=int_at_least(1, "--moves"), default=8,
                   help="per-move tables up to this move (default 8; --json gives every move)")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = command("export", help_of("export"), cmd_export)
    p.add_argument("study", help="the study's name, or its file")
    p.add_argument("output", help="the file to write: .csv or .parquet")
    p.add_argument("--table", choices=("games", "moves", "runs"), default="games", help="which rows (default games)")
    add_store_args(p)

    p = command("studies", help_of("studies"), cmd_studies)
    add_store_args(p)
    p.add_argument("--json", action="store_true", help="print JSON")

    p = command("forget", help_of("forget"), cmd_forget)
    p.add_argument("study", help="the study's name, or its file")
    add_store_args(p)

