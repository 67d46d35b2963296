"""``mmlab mm2``: two-dimensional Mastermind (003 chapter 5): reproduce Singley's 2-D table, or watch one game."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mmlab.cli.arguments import HelpFormatter, int_at_least, listed, seed_arg
from mmlab.cli.commands import help_of
from mmlab.cli.entry import loading
from mmlab.cli.output import mean_text, print_json, progress, spinner
from mmlab.errors import BadArgument

if TYPE_CHECKING:
    import numpy as np

    from mmlab.variants import Game2D
    from mmlab.variants.two_d import GameRecord2D

#: ``mmlab.experiments.two_d_tables.SIZES_2D`` and the names of ``mmlab.variants.STRATEGIES_2D``,
#: for the options' help: importing them loads the engine (numba); ``tests/cli/test_cli.py``
#: checks that the copies agree.
SIZES_2D = ((4, 6), (4, 7), (4, 8), (4, 9), (4, 10), (3, 8), (5, 8), (6, 8), (7, 8))
STRATEGY_NAMES_2D = ("tabu", "propagate")


def _load() -> None:
    """Import the 2-D engine and the thesis's tables, a Ctrl-C waiting until they are loaded."""
    with loading():
        import mmlab.experiments.evaluation
        import mmlab.experiments.two_d_tables
        import mmlab.variants  # noqa: F401


def play_2d(*args, **kwargs) -> GameRecord2D:
    """``mmlab.variants.play_2d``, imported when the command runs, so that ``mm2 --help`` loads none of it."""
    from mmlab import variants

    return variants.play_2d(*args, **kwargs)


def thesis_games(size: str) -> int:
    """``mmlab.experiments.two_d_tables.thesis_games``, imported when the command runs, as ``play_2d``."""
    from mmlab.experiments import two_d_tables

    return two_d_tables.thesis_games(size)


EXAMPLES = """\
examples:
  mmlab mm2 reproduce                         Singley's 2-D table beside tabu and propagate, 1000 secrets per
                                              size (about 7 minutes on 2 cores, 85% of it at 7x8)
  mmlab mm2 reproduce --full                  the thesis's protocol: 10 000 secrets per size (1 000 at 7x8); long
  mmlab mm2 reproduce --sizes 4x6,3x8 --games 5000 --json
  mmlab mm2 play 4x6                          watch the tabu search find a random 4 x 4 secret of 6 colours
  mmlab mm2 play 3x8 --strategy propagate --secret 123/456/781
"""

DEFAULT_METHODS = ("tabu", "propagate")
#: How long the default run takes, from the processor time per game of each size measured for the
#: 9 sizes (docs/notes/singley-2d-reading.md, "Time and memory per game": tabu + propagate 840 ms a
#: game over the sizes, 715 of them at 7x8), 1000 games each, on 2 cores.
DEFAULT_TIME = "about 7 minutes on 2 cores, 85% of it at 7x8"


def _sizes(values: list[str] | None) -> list[tuple[int, int]]:
    """``--sizes``, written ``4x6 3x8`` or ``4x6,3x8`` (as ``reproduce large --sizes`` takes them)."""
    if values is None:
        return list(SIZES_2D)
    return list(dict.fromkeys(_size(s) for s in listed(",".join(values), "--sizes", [])))


def _size(text: str) -> tuple[int, int]:
    from mmlab.experiments.two_d_tables import THESIS_2D
    from mmlab.variants import Game2D

    game = Game2D.parse_size(text)
    if game.size not in THESIS_2D:
        raise BadArgument(f"size {game.size} is not in Singley's 2-D table; choose from {', '.join(THESIS_2D)}")
    return game.n, game.colours


def cmd_reproduce_2d(args: argparse.Namespace) -> int:
    """003 appendix "Tabu Search 2-D" and Table 6-2 beside ours; our other methods beside the tabu search."""
    _load()
    from rich.table import Table

    from mmlab.cli.output import out
    from mmlab.experiments.two_d_tables import (
        SOURCE,
        TABLE_6_2,
        THESIS_2D,
        margin,
        run_2d,
    )

    methods = listed(args.methods, "--methods", list(DEFAULT_METHODS))
    sizes = _sizes(args.sizes)
    if args.full and args.games is not None:
        raise BadArgument("give --games or --full, not both: --full plays the thesis's numbers of secrets")
    games = thesis_games if args.full else args.games or 1000
    total = sum(games(f"{n}x{m}") if callable(games) else games for n, m in sizes) * len(methods)
    with progress("playing Singley's 2-D sizes", total) as update:
        rows = list(run_2d(methods, sizes, games, seed=args.seed, jobs=args.jobs, track_memory=True,
                           on_progress=update))
    by = {(r.method, r.size): r for r in rows}
    size_names = list(dict.fromkeys(r.size for r in rows))
    if args.json:
        data = []
        for r in rows:
            d = r.to_dict()
            one = r.games < 2  # (one game: no standard error, as the table says)
            if one:
                d["stderr"] = None
            d["z_vs_thesis"] = r.z_vs_thesis()
            tabu = by.get(("tabu", r.size))
            if tabu is not None and r.method != "tabu":
                d["margin_vs_tabu"], d["margin_stderr"] = margin(r, tabu)
                if one:
                    d["margin_stderr"] = None
            elif r.thesis is None:  # (a method the thesis did not measure: the table's margin, unpaired)
                d["margin_vs_thesis_tabu"] = THESIS_2D[r.size].mean - r.mean
            if r.method == "tabu":
                d["speedup_vs_singley"] = TABLE_6_2[r.size][1] / r.ms_per_game
            data.append(d)
        print_json(data)
        return 0

    if "tabu" in methods:
        if args.full:
            sample = "10 000 random secrets per size" + (" (7x8: 1 000)" if "7x8" in size_names else "")
        else:
            sample = f"{rows[0].games} random secret{'s' if rows[0].games != 1 else ''} per size"
        table = Table(title=f"MM2 tabu search: Singley's thesis beside mmlab ({sample}, seed {args.seed})")
        for col in ("size", "thesis mean", "ours", "ours - thesis", "median", "S.D.", "max", "min",
                    "thesis ms/game", "our ms/game", "speed-up"):
            table.add_column(col, justify="left" if col == "size" else "right")
        for size in size_names:
            r = by[("tabu", size)]
            t = r.thesis
            z = r.z_vs_thesis()
            table.add_row(size, f"{t.mean:.4f}±{t.stderr:.4f}", mean_text(r.mean, r.stderr, r.games, joiner="±"),
                          f"{r.mean - t.mean:+.4f}" + (f" ({z:+.1f} se)" if z is not None else " (one game: no s.e.)"), f"{t.median:g} | {r.median:g}",
                          f"{t.std:.3f} | {r.std:.3f}", f"{t.max} | {r.max}", f"{t.min} | {r.min}", f"{t.ms:g}",
                          f"{r.ms_per_game:.2f}", f"{TABLE_6_2[size][1] / r.ms_per_game:,.0f}x")
        out.print(table)
        out.print(f"source: {SOURCE}. Paired columns read thesis | ours. Thesis s.e. = its S.D. / sqrt(its games: "
                  "10 000, 1 000 at 7x8); its times are 2005 hardware, ours processor time per game on one core of this machine.")
    others = [m for m in methods if m != "tabu"]
    for spec in others:
        title = (f"MM2 {spec} beside the tabu search on the same secrets (margin = tabu mean - {spec} mean, paired)"
                 if "tabu" in methods else f"MM2 {spec} beside the thesis's tabu search (margin = thesis tabu mean - "
                                           f"{spec} mean; tabu not played here, add it to --methods for a paired margin)")
        table = Table(title=title)
        for col in ("size", "games", "tabu mean" if "tabu" in methods else "thesis tabu mean",
                    f"{spec} mean", "margin", "max tabu | ours", "median", "our ms/game"):
            table.add_column(col, justify="left" if col == "size" else "right")
        for size in size_names:
            r = by[(spec, size)]
            tabu = by.get(("tabu", size))
            if tabu is not None:
                diff, se = margin(r, tabu)
                base, gap, worst = (mean_text(tabu.mean, tabu.stderr, r.games, joiner="±"),
                                    mean_text(diff, se, r.games, joiner="±"), tabu.max)
            else:
                t = THESIS_2D[size]  # (the thesis's tabu search: it measured no other method)
                base, gap, worst = f"{t.mean:.4f}", f"{t.mean - r.mean:.4f} (vs thesis)", t.max
            table.add_row(size, str(r.games), base, mean_text(r.mean, r.stderr, r.games, joiner="±"), gap,
                          f"{worst} | {r.max}", f"{r.median:g}", f"{r.ms_per_game:.2f}")
        out.print(table)
    return 0


def _show_guess(game: Game2D, k: int, guess: np.ndarray, answers: np.ndarray) -> None:
    from mmlab.cli.output import out

    line = game.line
    rows = [line.format(line.index_of(row)) for row in guess]
    width = max(len(r) for r in rows)
    label = f"guess {k}"
    for i, (text, (b, w)) in enumerate(zip(rows, answers[: game.n], strict=False)):
        out.print(f"{label if i == 0 else '':<9} {text:<{width}}  row {i + 1}: {b},{w}")
    columns = "  ".join(f"{b},{w}" for b, w in answers[game.n:])
    out.print(f"{'':<9} columns: {columns}")


def cmd_play_2d(args: argparse.Namespace) -> int:
    """One game of a 2-D strategy, every guess with its row and column answers as it is made."""
    _load()
    import numpy as np

    from mmlab.cli.output import out
    from mmlab.experiments.evaluation import draw_seed
    from mmlab.experiments.two_d_tables import warm
    from mmlab.variants import Game2D, make_strategy_2d

    game = Game2D.parse_size(args.size)
    if args.secret is not None and not args.secret.strip():
        raise BadArgument("--secret is empty: give the secret row by row, e.g. "
                          f"{game.format(game.example())}, or leave --secret out for a random one")
    seed = args.seed if args.seed is not None else draw_seed()
    rng = np.random.default_rng(seed)
    secret = game.parse(args.secret) if args.secret is not None else game.random_code(rng)
    strategy = make_strategy_2d(args.strategy)
    strategy.check(game)
    if not args.json:
        out.print(f"{game} with {strategy.spec}: secret {game.format(secret)} (rows separated by /); "
                  f"each answer is black,white; seed {seed} (--seed {seed} plays this game again)")
    # Text shows each guess as it is made; JSON, which comes at the end, a spinner on stderr (the two
    # together would mix the spinner's line into the guesses on a terminal).
    with spinner(f"{game} with {strategy.spec}: choosing guess 1", enabled=args.json) as say:
        warm(strategy.spec, game.n, game.colours)  # (the time printed is the game's, not loading the kernels)

        def shown(k: int, guess: np.ndarray, answers: np.ndarray) -> None:
            if not args.json:
                _show_guess(game, k, guess, answers)
            say(f"{game} with {strategy.spec}: choosing guess {k + 1}", restart=True)

        record = play_2d(game, strategy, secret, rng, track_memory=True, on_guess=shown)
    if args.json:
        print_json({**record.to_dict(), "seed": seed})
        return 0
    verdict = "solved" if record.won else "gave up"
    out.print(f"{verdict} in {record.n_guesses} guess{'es' if record.n_guesses != 1 else ''}, "
              f"{1000 * record.seconds:.1f} ms")
    return 0


#: Most games per size ``mm2 reproduce`` plays (the thesis's protocol is 10 000), and most workers.
MAX_GAMES_2D = 10**7
MAX_JOBS = 256


def _no_subcommand(args: argparse.Namespace) -> int:
    from mmlab.cli.output import err

    err.print("mmlab mm2: choose 'reproduce' or 'play' (see mmlab mm2 --help)")
    return 2


def add_command(command) -> None:
    """Register ``mmlab mm2`` with the parser's ``command(name, help, func)``."""
    p = command("mm2", help_of("mm2"), _no_subcommand)
    p.epilog = EXAMPLES
    sub = p.add_subparsers(dest="mm2_command", metavar="SUBCOMMAND")
    names = ", ".join(STRATEGY_NAMES_2D)

    r = sub.add_parser("reproduce", help="003 appendix 'Tabu Search 2-D' beside our methods",
                       description="Play the 2-D methods over random secrets at Singley's sizes and print the "
                                   "thesis's figures beside ours (mean, s.e., max, times), and each other method "
                                   "beside the tabu search with the margin.",
                       epilog=EXAMPLES, formatter_class=HelpFormatter)
    r.set_defaults(func=cmd_reproduce_2d)
    r.add_argument("--games", type=int_at_least(1, "--games", MAX_GAMES_2D),
                   help=f"random secrets per size (default 1000: {DEFAULT_TIME})".replace("%", "%%"))  # (argparse's %)
    r.add_argument("--full", action="store_true",
                   help="the thesis's protocol: 10 000 secrets per size, 1 000 at 7x8 (bench_two_d.py, the same "
                        "games: 1 364 s on 2 cores)")
    r.add_argument("--sizes", nargs="+", metavar="SIZE",
                   help="sizes NxM (an N x N matrix of M colours) among the thesis's, separated by spaces or "
                        "commas: " + ",".join(f"{n}x{m}" for n, m in SIZES_2D) + " (default all)")
    r.add_argument("--methods", help=f"comma-separated 2-D strategy specs (known: {names}; default tabu,propagate)")
    r.add_argument("--seed", type=seed_arg, default=2005, help="seed of the secrets and the strategies (default 2005)")
    r.add_argument("--jobs", type=int_at_least(1, "--jobs", MAX_JOBS),
                   help="worker processes (default: one per core; 1: this process only)")
    r.add_argument("--json", action="store_true", help="print JSON")

    q = sub.add_parser("play", help="watch one game: every guess with its row and column answers",
                       description="Play one game of a 2-D strategy and print every guess with the answer of each "
                                   "row and column.",
                       epilog=EXAMPLES, formatter_class=HelpFormatter)
    q.set_defaults(func=cmd_play_2d)
    q.add_argument("size", help="NxM: an N x N secret of M colours, e.g. 4x6")
    q.add_argument("--strategy", default="tabu",
                   help=f"2-D strategy spec (known: {names}; default tabu; 'mmlab strategies NAME' lists its parameters)")
    q.add_argument("--secret", help="the secret, row by row with / between rows, e.g. 1234/2345/3456/4561 "
                                    "(default: drawn at random)")
    q.add_argument("--seed", type=seed_arg, help="seed of the random secret and of the strategy (default: drawn "
                                                  "and printed)")
    q.add_argument("--json", action="store_true", help="print the game as JSON")
