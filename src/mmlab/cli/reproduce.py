"""``mmlab reproduce``: re-run a paper's tables and print them beside the published figures. Each
paper's tables (and the engine) are imported when it is chosen, so that the options and help load none of them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from mmlab.cli.arguments import int_at_least, listed, split_specs
from mmlab.cli.commands import help_of
from mmlab.cli.entry import loading
from mmlab.cli.output import mean_text, print_json, progress
from mmlab.cli.studies import check_figure_paths
from mmlab.errors import BadArgument

if TYPE_CHECKING:
    from mmlab.experiments.large_tables import LargeRow

#: The papers ``mmlab reproduce`` knows, with what it re-runs.
PAPERS = {
    "tpoa": "000 Tables 2 and 3: TPOA planned trees (Chen, Lin and Huang)",
    "singley": "003 appendix: greedy 1-3, local search and tabu search 1-D at n=4, m=6..10 and m=8, n=3..7 (Singley)",
    "large": "5x8, 6x9, 8x12: the sampling and evolutionary codebreakers beside Berghman et al., NHEA and Evo++",
}


#: The options each paper's reproduction takes; one given to another paper is refused, not ignored.
PAPER_OPTIONS = {
    "tpoa": ("quick",),
    "singley": ("methods", "tabu_games", "full", "seed"),
    "large": ("seed", "sizes", "strategies", "games", "jobs", "plots"),
}


def check_options(args: argparse.Namespace, defaults: dict[str, object]) -> None:
    """Refuse an option set away from its default (``defaults``) that ``args.paper`` does not take."""
    stray = sorted({name for names in PAPER_OPTIONS.values() for name in names}
                   - set(PAPER_OPTIONS[args.paper]))
    given = [name for name in stray if getattr(args, name) != defaults[name]]
    if given:
        takes = ", ".join("--" + name.replace("_", "-") for name in PAPER_OPTIONS[args.paper])
        named = ", ".join("--" + name.replace("_", "-") for name in given)
        verb = "is not an option" if len(given) == 1 else "are not options"
        raise BadArgument(f"{named} {verb} of 'reproduce {args.paper}', which takes {takes} (and --json)")


def cmd_reproduce(args: argparse.Namespace) -> int:
    check_options(args, args.option_defaults)
    return {"tpoa": reproduce_tpoa, "singley": reproduce_singley, "large": reproduce_large}[args.paper](args)


def reproduce_tpoa(args: argparse.Namespace) -> int:
    """000 Tables 2 and 3: the TPOA rows re-planned, beside the paper."""
    with loading():
        from rich.table import Table

        from mmlab.cli.output import out
        from mmlab.experiments.tpoa_tables import TABLES, run_tables
    rows = [r for r in TABLES if args.quick is False or r.published_seconds is None or r.published_seconds < 30]
    records = []
    with progress("planning the rows of 000 Tables 2 and 3", len(rows)) as update:
        for i, (row, result) in enumerate(run_tables(rows)):
            records.append((row, result))
            update(i + 1)
    if args.json:
        print_json([{"table": r.table, "series": r.series, "spec": r.spec, "published_L": r.published,
                      "published_worst": r.published_worst, "published_seconds": r.published_seconds,
                      **res.to_dict()} for r, res in records])
        return 0
    for table_no in sorted({r.table for r, _ in records}):
        sizes = " and ".join(dict.fromkeys(r.size for r, _ in records if r.table == table_no))
        table = Table(title=f"000 Table {table_no}, {sizes}: published beside mmlab (L = total guesses over all "
                            "secrets)",
                      caption="s paper: the paper's seconds, on a P4 at 1.6 GHz")  # (a header of 5 lines at 80)
        for col in ("series", "(k, d)", "L paper", "L ours", "mean ours", "worst paper", "worst ours", "s paper",
                    "s ours"):
            table.add_column(col, justify="right" if col != "series" else "left", no_wrap=col == "series")
        for r, res in records:
            if r.table != table_no:
                continue
            k, d = (p.split("=")[1] for p in r.spec.split(":")[1].split(",")[1:3])
            t = res.tree
            verdict = "" if t.total_guesses <= r.published else " (worse)"
            table.add_row(r.series, f"({k}, {d})", str(r.published), f"{t.total_guesses}{verdict}", f"{t.mean:.4f}",
                          str(r.published_worst), str(t.worst),
                          "" if r.published_seconds is None else f"{r.published_seconds:g}", f"{res.seconds:.2f}")
        out.print(table)
    return 0


def reproduce_singley(args: argparse.Namespace) -> int:
    """003 appendix tables, one per method, in the thesis's layout with our rows under its own."""
    with loading():
        from rich.table import Table

        from mmlab.cli.output import out
        from mmlab.experiments.singley_tables import (
            COUNTING,
            SIZES,
            THESIS_TABU_MS,
            run_singley,
        )
    methods = listed(args.methods, "--methods", list(COUNTING))
    unknown = [m for m in methods if m not in COUNTING]
    if unknown:
        raise BadArgument(f"--methods: {', '.join(unknown)} not in the thesis tables; choose from {', '.join(COUNTING)}")
    if args.full and args.tabu_games is not None:
        raise BadArgument("give --tabu-games or --full, not both: --full plays the thesis's numbers of secrets")
    tabu_games = None if args.full else args.tabu_games or 2000
    rows = []
    with progress("playing the 003 appendix tables", len(methods) * len(SIZES)) as update:
        for i, row in enumerate(run_singley(methods, tabu_games=tabu_games, seed=args.seed)):
            rows.append(row)
            update(i + 1)
    if args.json:
        print_json([_singley_dict(row, args.seed) for row in rows])
        return 0
    for method in methods:
        mine = {r.size: r for r in rows if r.method == method}
        for half in (SIZES[:5], SIZES[5:]):
            sizes = [f"{n}x{m}" for n, m in half]
            counting = "until known (deduced last guess not played)" if COUNTING[method] == "known" else "until n blacks"
            r = [mine[s] for s in sizes]
            sample = "every secret" if r[0].exact else f"random secrets (seed {args.seed}; every one where there are fewer)"
            table = Table(title=f"003 appendix, {method}: guesses {counting}; ours over {sample}")
            table.add_column("")
            for size in sizes:
                table.add_column(size, justify="right")
            if not r[0].exact:
                table.add_row("games, mmlab", *(str(x.games) for x in r))
            table.add_row("mean, thesis", *(f"{x.thesis.mean:.6f}" for x in r))
            table.add_row("mean, mmlab", *(f"{x.mean:.6f}" if x.exact else mean_text(x.mean, x.stderr, x.games) for x in r))
            table.add_row("median, thesis", *(f"{x.thesis.median:g}" for x in r))
            table.add_row("median, mmlab", *(f"{x.median:g}" for x in r))
            table.add_row("S.D., thesis", *(f"{x.thesis.std:.6f}" for x in r))
            table.add_row("S.D., mmlab", *(f"{x.std:.6f}" for x in r))
            table.add_row("max, thesis", *(str(x.thesis.max) for x in r))
            table.add_row("max, mmlab", *(str(x.max) for x in r))
            if method == "tabu":
                table.add_row("ms per game, thesis", *(f"{THESIS_TABU_MS[s]:g}" for s in sizes))
            table.add_row("ms per game, mmlab", *(f"{1000 * x.seconds / x.games:.3g}" for x in r))
            out.print(table)
    return 0


def _singley_dict(row, seed: int) -> dict:
    """One row of ``reproduce singley --json``: with the thesis's milliseconds a game (Table 6-1)
    where the table shows them, the tabu search's."""
    from mmlab.experiments.singley_tables import THESIS_TABU_MS

    data = _no_stderr_of_one_game({**row.to_dict(), "seed": seed}, row.games)
    if row.method == "tabu":
        data["thesis"] = {**data["thesis"], "ms": THESIS_TABU_MS[row.size]}
    return data


def _no_stderr_of_one_game(data: dict, games: int) -> dict:
    """A row's JSON with ``stderr`` null after one game (it said 0.0), as mm2 reproduce's."""
    return {**data, "stderr": None} if games < 2 else data


def reproduce_large(args: argparse.Namespace) -> int:
    """The large-game table: each strategy's mean guesses and seconds per game beside the anchors."""
    with loading():
        from rich.table import Table

        from mmlab.cli.output import out
        from mmlab.experiments.large_tables import ANCHORS, TARGETS, run_large
        from mmlab.experiments.large_tables import SIZES as LARGE_SIZES
        from mmlab.experiments.large_tables import STRATEGIES as LARGE_STRATEGIES
    sizes = listed(args.sizes, "--sizes", list(LARGE_SIZES))
    specs = listed(args.strategies, "--strategies", list(LARGE_STRATEGIES), split_specs)
    total = len(sizes) * len(specs) * args.games
    check_figure_paths(args.plots, None)  # before the games, not after
    folder = Path(args.plots) if args.plots is not None else None
    rows = []
    with progress(f"playing {args.games} games per size and strategy", total) as update:
        for row in run_large(sizes, specs, games=args.games, seed=args.seed, workers=args.jobs, on_progress=update):
            rows.append(row)
    if folder is not None:
        write_histogram(rows, folder)
    if args.json:
        print_json([_no_stderr_of_one_game(row.to_dict(), row.games) for row in rows])
        return 0
    secrets = f"{args.games} random secret{'s' if args.games != 1 else ''}"
    table = Table(title=f"Large games: {secrets} per size (seed {args.seed}), beside the literature")
    for col in ("size", "codebreaker", "mean ± s.e.", "max", "s/game", "evaluations", "no consistent code",
                "published", "target"):
        table.add_column(col, justify="left" if col in ("size", "codebreaker", "published") else "right")
    for size in sizes:
        anchors = "; ".join(f"{a} {m:g}" + (f" ({s:g} s/game)" if s else "") for a, m, s in ANCHORS.get(size, ()))
        target, target_s = TARGETS.get(size, (None, None))
        goal = "" if target is None else f"≤ {target:g}" + (f" at ≤ {target_s:g} s" if target_s else "")
        for i, row in enumerate(r for r in rows if r.size == size):
            verdict = goal if row.target_met is None else f"{goal}: {'met' if row.target_met else 'not met'}"
            table.add_row(size if i == 0 else "", row.spec, mean_text(row.mean, row.stderr, row.games), str(row.max),
                          f"{row.seconds_per_game:.3f}", f"{row.evaluations.mean():.3g}", str(row.fallbacks),
                          anchors if i == 0 else "", verdict)
    out.print(table)
    return 0


def write_histogram(rows: list[LargeRow], folder: Path) -> None:
    """Write the games per number of guesses of ``rows`` (one panel per size) as
    ``large-guesses.png`` and ``.svg`` into ``folder``."""
    with loading():
        from mmlab.experiments.plots import guesses_histogram, save
    from mmlab.cli.output import err
    from mmlab.experiments.large_tables import games_frame

    try:
        specs = {row.spec: row.spec for row in rows}  # named as the table names them
        written = save(guesses_histogram(games_frame(rows), labels=specs), folder / "large-guesses")
    except OSError as e:
        raise BadArgument(f"cannot write the plots into {str(folder)!r}: {e.strerror}") from None
    err.print(f"wrote {', '.join(str(p) for p in written)}")


def add_command(command) -> None:
    p = command("reproduce", help_of("reproduce"), cmd_reproduce)
    p.add_argument("paper", nargs="?", default="tpoa", choices=list(PAPERS),
                   help="; ".join(f"{k}: {v}" for k, v in PAPERS.items()) + " (default tpoa)")
    p.add_argument("--quick", action="store_true", help="tpoa: only the rows the paper ran in under 30 s")
    p.add_argument("--methods", help="singley: comma-separated methods (default: every method of the appendix)")
    p.add_argument("--tabu-games", type=int_at_least(1, "--tabu-games"),
                   help="singley: random secrets per size for the tabu search (default 2000)")
    p.add_argument("--full", action="store_true",
                   help="singley: the thesis's protocol, 5 runs over every secret (20 000 secrets at 7x8); long")
    p.add_argument("--seed", type=int_at_least(0, "--seed"), default=2005,
                   help="singley: seed of the tabu runs; large: seed of the secrets and games (default 2005)")
    p.add_argument("--sizes", help="large: comma-separated sizes (default 5x8,6x9,8x12)")
    p.add_argument("--strategies", help="large: strategy specs (default sample, evo, ga:variant=berghman)")
    p.add_argument("--games", type=int_at_least(1, "--games"), default=500,
                   help="large: random secrets per size (default 500)")
    p.add_argument("--jobs", type=int_at_least(1, "--jobs"), help="large: worker processes (default: one per core)")
    p.add_argument("--plots", metavar="DIR",
                   help="large: also write the games per number of guesses as large-guesses.png and .svg into DIR")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(option_defaults={name: p.get_default(name) for names in PAPER_OPTIONS.values() for name in names})
