"""``mmlab compare``: strategies on one or more sizes, every game stored as a study, one table per
size beside the literature. The store and the engine are imported as the command starts, so
that its options and help load none of them."""

from __future__ import annotations

import argparse
import re
import shlex
from dataclasses import replace
from typing import TYPE_CHECKING

from mmlab.cli.arguments import count, seed_arg, split_specs
from mmlab.cli.commands import help_of
from mmlab.cli.entry import loading
from mmlab.cli.output import fits, print_json
from mmlab.cli.studies import add_execution_args, add_store_args, check_figure_paths, execute, write_figures
from mmlab.errors import BadArgument, BadStudy, MastermindError, shown

if TYPE_CHECKING:
    from rich.table import Table

    from mmlab.experiments.store import Store
    from mmlab.experiments.study import Study


def _compare_name(study: Study) -> Study:
    """``study`` named by its sizes and fingerprint, and described by the command that makes it."""
    command = ["mmlab", "compare", *study.sizes, "--strategies", ",".join(study.strategies),
               "--secrets", str(study.secrets), "--runs", str(study.runs), "--seed", str(study.seed)]
    command += ["--no-repeats"] * (not study.repeats) + ["--black-only"] * (study.feedback == "black")
    return replace(study, name=f"compare-{'-'.join(study.sizes)}-{study.fingerprint[:8]}",
                   description=shlex.join(command))


def _compare_study(typed: Study, store: Store) -> Study:
    """The study of a comparison: named by its canonical form (``Study.canonical``), so comparisons
    spelt differently are one study (strategies in another order are another). A store holding it
    under the name the options as typed gave (as mmlab named comparisons before) keeps serving that study."""
    study = _compare_name(typed.canonical())
    if store.fingerprint(study.name) is None:
        legacy = _compare_name(typed)
        if store.fingerprint(legacy.name) == legacy.fingerprint:
            return legacy
    return study


def _refusal(key: str, problem: str, args: argparse.Namespace) -> str:
    """A study's refusal of its ``key`` in the options' words, saying so when the option was left
    at its default (which the user did not give)."""
    if key == "secrets" and args.secrets is None:
        return f"the default --secrets all: {problem} Give --secrets N to play a sample of N secrets"
    if key == "strategies" and args.strategies is None:
        return (f"the default strategies (every exhaustive one and random; --strategies was not given) cannot all "
                f"play here: {problem} Give --strategies with ones that can, e.g. --strategies random")
    option = {"sizes": "SIZE", "strategies": "--strategies", "secrets": "--secrets"}.get(key, f"--{key}")
    return f"{option}: {problem}"


def cmd_compare(args: argparse.Namespace) -> int:
    with loading():
        from rich.table import Table

        from mmlab.cli.literature import LITERATURE
        from mmlab.cli.output import out
        from mmlab.experiments.report import build_report, games_by_guesses
        from mmlab.experiments.secret_sets import SecretSet
        from mmlab.experiments.store import Store
        from mmlab.experiments.study import Study
        from mmlab.game import Game
        from mmlab.strategies import EXHAUSTIVE
    repeats, feedback = not args.no_repeats, "black" if args.black_only else "black-white"
    games = [Game.parse_size(size, repeats=repeats, feedback=feedback) for size in args.sizes]
    specs = split_specs(args.strategies) if args.strategies is not None else [*EXHAUSTIVE, "random"]
    if not specs:
        raise BadArgument("--strategies is empty: name at least one strategy, e.g. --strategies knuth,random")
    typed = "all" if args.secrets is None else args.secrets
    if not re.fullmatch(r"\s*(all|((sample|instance)\s*:)?\s*[0-9]+)\s*", typed):  # (no list of codes here)
        raise BadArgument(f"--secrets {shown(typed)}: expected 'all', N or sample:N (a sample of N secrets), "
                          "or instance:N (every code once, some twice)")
    try:
        secrets = SecretSet.parse(typed)
    except MastermindError as e:
        raise BadArgument(f"--secrets: {e}") from None
    sizes = tuple(dict.fromkeys(g.size for g in games))
    try:  # checked as a study file is, but told in the options' words
        base = Study("compare", sizes, tuple(specs), secrets, args.runs, args.seed, repeats, feedback)
    except BadStudy as e:
        if e.key is None:
            raise
        raise BadArgument(_refusal(e.key, e.problem, args)) from None
    check_figure_paths(args.plots, args.html)  # before the games, not after; once the options hold
    study = _compare_study(base, Store(args.store))
    secrets = study.secrets
    execute(study, args)
    report = build_report(Store(args.store), study.name)
    rows = []
    firsts = report.first_guesses()
    for row in report.summary.itertuples(index=False):
        game = study.game(row.size)
        exact = bool(row.exact)
        figure = LITERATURE.get((row.size, row.strategy)) if secrets.every_code(game) and repeats \
            and feedback == "black-white" else None  # (a published figure is for one spec, defaults left out)
        rows.append({"strategy": row.strategy, "game": row.size, "repeats": game.repeats, "feedback": game.feedback,
                     "exact": exact, "first": firsts.get((row.size, row.strategy)) or "random",
                     "games": row.games, "runs": study.runs_of(row.strategy), "total_guesses": row.total,
                     "mean": row.mean, "stderr": row.stderr,  # (0 for an exact mean, as eval --json gives it)
                     "max": row.max, "median": row.median, "std": row.std,
                     "evaluations_mean": row.evaluations_mean, "seconds": row.seconds_per_game * row.games,
                     "literature": str(figure) if figure else None})
    if args.json:
        histogram = report.histogram  # games per number of guesses, as eval --json gives them
        for row in rows:
            row["histogram"] = games_by_guesses(histogram.loc[(row["game"], row["strategy"])])
        print_json({"study": study.name, "store": str(args.store), "secrets": str(secrets), "runs": study.runs,
                    "seed": study.seed, "strategies": rows})
        write_figures(report, args.plots, args.html)
        return 0
    for game in (study.game(size) for size in sizes):
        every = "every secret" if secrets.kind == "all" else f"all {game.n_codes} secrets"  # (a sample or instance set)
        title = (f"{game}: {every} (deterministic strategies exactly)" if secrets.every_code(game)
                 else f"{game}: secrets {secrets.label(game)}")
        size_rows = [r for r in rows if r["game"] == game.size]
        notes = [r["literature"] for r in size_rows if r["literature"]]
        table = comparison(title, size_rows, notes=False)
        if notes and not fits(table, out):  # (an 80-column terminal: the literature beneath, each figure whole)
            table = comparison(title, size_rows, notes=True)
            out.print(table)
            beneath = Table.grid(padding=(0, 1))
            beneath.add_column(no_wrap=True)
            beneath.add_column()
            for number, text in enumerate(notes, 1):
                beneath.add_row(f"[{number}]", text)
            out.print(beneath)
        else:
            out.print(table)
    if any(not r["exact"] for r in rows):
        per_run = ", L per run (the mean over them)" if study.runs > 1 else ""
        labels = " / ".join(dict.fromkeys(secrets.label(study.game(size)) for size in sizes))
        out.print(f"random strategies and samples: {study.runs} run{'s' if study.runs != 1 else ''}{per_run}, secrets {labels}, seed {study.seed}")
    out.print("seconds: spent playing the games, summed over the worker processes")
    figures = "" if args.plots or args.html else ", --plots DIR for figures"
    out.print(f"stored as study {study.name} in {args.store} ('mmlab report {study.name}' for every table{figures})")
    write_figures(report, args.plots, args.html)  # after the table: a path it cannot write costs no output
    return 0


def comparison(title: str, rows: list[dict], notes: bool) -> Table:
    """The table of one size: a row a strategy, beside its published figures; with ``notes``, only
    their number ("[1]") in the literature column, for a terminal too narrow for them."""
    from rich.table import Table

    table = Table(title=title)
    for col, justify in (("strategy", "left"), ("first", "left"), ("L", "right"), ("mean", "right"),
                         ("worst", "right"), ("seconds", "right"), ("literature", "left")):
        table.add_column(col, justify=justify)
    number = 0
    for r in rows:
        mean = f"{r['mean']:.4f}" if r["exact"] else f"{r['mean']:.4f}±{r['stderr']:.4f}"
        total = str(r["total_guesses"]) if r["runs"] == 1 else f"{r['total_guesses'] / r['runs']:.1f}"
        literature = r["literature"] or ""
        if notes and literature:
            number += 1
            literature = f"[{number}]"
        table.add_row(r["strategy"], r["first"], total, mean, str(r["max"]), f"{r['seconds']:.3f}", literature)
    return table


def add_command(command) -> None:
    p = command("compare", help_of("compare"), cmd_compare)
    p.add_argument("sizes", nargs="+", metavar="SIZE", help="game sizes PEGSxCOLOURS, e.g. 4x6 (or 4x6 4x7 4x8)")
    p.add_argument("--no-repeats", action="store_true", help="codes may not repeat a colour (Bulls and Cows)")
    p.add_argument("--black-only", action="store_true", help="answers count black pegs only")
    p.add_argument("--strategies", help="comma-separated strategy specs (default: every exhaustive one and random)")
    p.add_argument("--runs", type=count, default=1, help="games per secret (default 1; deterministic strategies "
                                                          "play every run the same)")
    p.add_argument("--seed", type=seed_arg, default=0,
                   help="seed of random strategies and samples, 0 to 2**63 - 1 (default 0)")
    p.add_argument("--secrets",
                   help="'all' (default), N or sample:N (a sample of N distinct secrets, the same for every "
                        "strategy), or instance:N (every code once, some twice: 004's instance sets; below the "
                        "number of codes, a sample of N)")
    add_store_args(p)
    add_execution_args(p)
    p.add_argument("--plots", metavar="DIR", help="also write the plots (guesses per game, per move) as PNG and SVG "
                                                  "into this folder")
    p.add_argument("--html", metavar="PATH", help="also write one self-contained HTML page with every table and plot")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
