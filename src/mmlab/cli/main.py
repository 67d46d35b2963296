"""The ``mmlab`` command: parses arguments, calls the layers, prints tables or JSON.

>>> main(["score", "1234", "1122"])
1,1
0
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

from rich.table import Table

from mmlab.cli.literature import LITERATURE
from mmlab.cli.output import err, histogram_text, out, print_json, progress
from mmlab.cli.play import add_command as add_play_command
from mmlab.cli.reproduce import PAPER_OPTIONS, PAPERS, cmd_reproduce
from mmlab.cli.arguments import int_at_least, positive, seed_arg, split_specs
from mmlab.cli.entry import INTERRUPTED
from mmlab.cli.serve import add_command as add_serve_command
from mmlab.cli.static import add_command as add_static_command
from mmlab.cli.studies import add_commands as add_study_commands
from mmlab.cli.variants import add_command as add_mm2_command
from mmlab.cli.studies import add_execution_args, add_store_args, check_figure_paths, execute, write_figures
from mmlab.errors import BadArgument, BadStudy, BadTree, MastermindError, shown, whole_number
from mmlab.experiments import evaluate
from mmlab.experiments.evaluation import PARALLEL_MIN_CODES, draw_seed
from mmlab.experiments.report import build_report
from mmlab.experiments.secret_sets import MAX_SECRETS, SecretSet
from mmlab.experiments.store import Store
from mmlab.experiments.study import Study
from mmlab.game import Game, parse_feedback, split_code
from mmlab.game.rules import MAX_PEGS, MIN_PEGS
from mmlab.knowledge import Knowledge
from mmlab.planners import PLANNERS, make_planner
from mmlab.strategies import EXHAUSTIVE, REGISTRY, Strategy, make_strategy
from mmlab.strategies.base import Param
from mmlab.variants import STRATEGIES_2D
from mmlab.strategies.scoring import partition_summary
from mmlab.trees import DecisionTree, export
from mmlab.trees.strategy import TreeStrategy

EXAMPLES = """\
examples:
  mmlab compare 4x6                          every exhaustive strategy, exact, and random, beside the literature
  mmlab eval 4x6 --strategy knuth            Knuth's strategy over all 1296 secrets (L = 5801)
  mmlab eval 4x6 --strategy "entropy:pool=consistent,ties=random,first=1231" --runs 10 --seed 1
  mmlab eval 4x6 --strategy knuth --codemaker adversary   against a codemaker who never commits (5 guesses)
  mmlab partition 4x6 1123                   the 14 answer classes of a first guess (000 Table 1)
  mmlab partition 4x6 1344 --after 1122:1,1  ... of a second guess after 1122 got 1 black 1 white
  mmlab tree 4x6 --strategy knuth --format knuth
  mmlab tree --tree tpoa.json --format knuth   a saved tree (tree -o, plan -o) in another format
  mmlab score 3632 1122                      black,white of a guess against a secret
  mmlab strategies                           every strategy, its parameters and source
  mmlab strategies sample                    one strategy, and what each of its parameters means
  mmlab plan 4x6 --planner tpoa:variant=star,k=5,d=2,hash=e -o tpoa.json
  mmlab plan 4x6 --planner optimal -o optimal.json   proves L = 5625 (Koyama and Lai)
  mmlab reproduce --quick                    000 Tables 2 and 3 beside the paper
  mmlab reproduce singley                    Singley's appendix tables (greedy, tabu) beside the thesis
  mmlab reproduce large                      5x8, 6x9, 8x12: sampling and evolutionary codebreakers beside the papers
  mmlab run studies/merelo-4x6.toml          a study file into the results store (mmlab-results.duckdb)
  mmlab report merelo-4x6 --html report.html its tables in the papers' layout, plots, one HTML page
  mmlab export merelo-4x6 games.parquet      the stored games (or --table moves) as Parquet or CSV
  mmlab play                                 guess mmlab's secret in the terminal (--role codemaker: it guesses)
  mmlab serve                                play in the browser at http://127.0.0.1:8000

sizes are PEGSxCOLOURS (4x6 is the standard game, 5x8 Super Mastermind); codes are written
1122, "1 1 2 2" or AABB; strategies are spec strings name:key=value,... (see 'mmlab strategies').
"""


# --------------------------------------------------------------------------------- helpers
def _game(args: argparse.Namespace) -> Game:
    return Game.parse_size(args.size, repeats=not args.no_repeats, feedback="black" if args.black_only else "black-white")


def _add_game_args(p: argparse.ArgumentParser, optional: bool = False) -> None:
    if optional:
        p.add_argument("size", nargs="?", help="game size PEGSxCOLOURS, e.g. 4x6 (not needed with --tree)")
    else:
        p.add_argument("size", help="game size PEGSxCOLOURS, e.g. 4x6")
    p.add_argument("--no-repeats", action="store_true", help="codes may not repeat a colour (Bulls and Cows)")
    p.add_argument("--black-only", action="store_true", help="answers count black pegs only")


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} hours"
    if seconds < 2 * 365 * 86400:
        return f"{seconds / 86400:.0f} days"
    return f"{seconds / (365 * 86400):,.0f} years"


def _reads_as_size(text: str) -> bool:
    return re.fullmatch(r"\s*\d+\s*[xX]\s*\d+\s*", text) is not None


# --------------------------------------------------------------------------------- commands
def cmd_score(args: argparse.Namespace) -> int:
    if _reads_as_size(args.secret):  # 'mmlab score 4x6 1122 1234', as partition is typed
        raise MastermindError(f"{args.secret.strip()} reads as a game size, not a code: give the size with "
                              f"--size: mmlab score --size {args.secret.strip()} SECRET GUESS")
    if args.size:
        game = _game(args)
    else:
        pegs, others = len(split_code(args.secret)), len(split_code(args.guess))
        if pegs != others:
            raise MastermindError(f"the secret has {pegs} pegs and the guess {others}: they must match")
        game = Game.parse_size(f"{pegs}x36", repeats=not args.no_repeats,
                               feedback="black" if args.black_only else "black-white")
    fb = game.score(game.parse(args.secret), game.parse(args.guess))
    if args.json:
        print_json({"black": fb.black, "white": fb.white})
    else:
        print(fb if game.with_white else fb.black)
    return 0


def cmd_partition(args: argparse.Namespace) -> int:
    game = _game(args)
    game.require_enumerable("partition (it counts the answer classes over every code)")
    knowledge = Knowledge.initial(game)
    after = []
    for item in args.after:
        code, sep, answer = item.partition(":")
        if not sep:
            raise MastermindError(f"--after {item!r}: write GUESS:BLACK,WHITE, for example 1122:1,1")
        earlier, feedback = game.parse(code), parse_feedback(answer, game.with_white)
        knowledge = knowledge.update(earlier, feedback)
        after.append({"guess": game.format(earlier), "black": feedback.black, "white": feedback.white})
    guess = game.parse(args.guess)
    summary = partition_summary(knowledge, guess)
    classes = list(summary.pop("classes").items())
    if args.json:
        print_json({"game": game.size, "repeats": game.repeats, "feedback": game.feedback, "after": after,
                    "guess": game.format(guess), "classes": {str(f): n for f, n in classes}, **summary})
        return 0
    table = Table(title=f"{game}: answers to {game.format(guess)} among {knowledge.n_consistent} candidates")
    table.add_column("answer b,w" if game.with_white else "answer b")
    table.add_column("codes", justify="right")
    table.add_column("share", justify="right")
    for f, n in classes:
        table.add_row(f"{f.black},{f.white}" if game.with_white else str(f.black), str(n), f"{n / knowledge.n_consistent:.3f}", style=None if n else "dim")
    out.print(table)
    out.print(
        f"{summary['parts']} part{'s' if summary['parts'] != 1 else ''}, largest {summary['largest']}, expected size {summary['expected_size']:.4f}, "
        f"entropy {summary['entropy_bits']:.4f} bits; the guess is "
        f"{'consistent' if summary['consistent'] else 'not consistent'} with the answers so far"
    )
    return 0


#: Whole trees of the exhaustive strategies over more codes than 5x8's warn that they take long
#: (5x8 takes 15-60 s here).
LONG_TREE_CODES = 32_768
SLOW_GAME_CODES = 32_767  # games where one game of an exhaustive strategy takes seconds (5x8) or minutes (6x7 on)


def _warn_long_tree(game: Game, strategy: Strategy, sample_hint: bool) -> None:
    """Say that compiling ``strategy``'s whole tree on ``game`` takes long, before it starts."""
    if strategy.name in EXHAUSTIVE and strategy.deterministic and game.enumerable and game.n_codes > LONG_TREE_CODES:
        hint = "; --secrets N plays a sample of secrets through the branches they reach" if sample_hint else ""
        print(f"mmlab: warning: this compiles the whole decision tree of {strategy.spec} over {game.n_codes:,} codes; "
              f"5x8's {LONG_TREE_CODES:,} take 15-60 s on this machine, and larger games much longer{hint}",
              file=sys.stderr)


def _build_tree(game: Game, spec: str, label: str) -> DecisionTree:
    strategy = make_strategy(spec)
    # Before start: as DecisionTree.build says it, naming no other strategy (none compiles there).
    game.require_enumerable(f"compiling {strategy.spec} into a decision tree")
    strategy.start(game)
    _warn_long_tree(game, strategy, sample_hint=False)
    with progress(label, game.n_codes) as update:
        done = 0

        def step(k: int) -> None:
            nonlocal done
            done += k
            update(done)

        return DecisionTree.build(game, strategy, on_progress=step)


def _saved_tree(args: argparse.Namespace) -> DecisionTree:
    """The tree of ``--tree FILE``, refusing the options a saved tree brings itself."""
    if args.size or args.strategy or args.no_repeats or args.black_only:
        raise MastermindError("--tree brings its own game and strategy: give no size, --strategy, "
                              "--no-repeats or --black-only with it")
    if args.tree != "-":
        return export.load(args.tree)
    if sys.stdin.isatty():
        raise MastermindError("--tree - reads the tree from standard input: pipe one in, e.g. "
                              "'mmlab tree 4x6 --strategy knuth | mmlab eval --tree -'")
    text = sys.stdin.read()
    if not text.strip():
        raise BadTree("standard input is empty: pipe a tree in, e.g. 'mmlab tree 4x6 --strategy knuth | mmlab eval "
                      "--tree -'")
    try:
        return export.from_json(text)
    except BadTree as e:
        raise BadTree(f"standard input: {e}") from None


def cmd_tree(args: argparse.Namespace) -> int:
    _check_output(args.output)
    if args.tree:
        tree = _saved_tree(args)
        game = tree.game
    elif args.size is None:
        raise MastermindError("give a size (e.g. 'mmlab tree 4x6 --strategy knuth') or a saved tree (--tree FILE)")
    else:
        game = _game(args)
        spec = args.strategy or "knuth"
        tree = _build_tree(game, spec, f"compiling {spec}")
    form = args.format or export.format_of(args.output or "")
    text = export.WRITERS[form](tree)
    if args.output is not None:
        _write(args.output, text if text.endswith("\n") else text + "\n")
        err.print(
            f"wrote {args.output} ({form}): {game} {tree.strategy}, L={tree.total_guesses} "
            f"(mean {tree.mean:.4f}), worst {tree.worst}, {tree.n_nodes} nodes"
        )
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    if args.tree:
        tree = _saved_tree(args)
        game = tree.game
        strategy = TreeStrategy(tree)
    elif args.size is None:
        raise MastermindError("give a size (e.g. 'mmlab eval 4x6 --strategy knuth') or a saved tree (--tree FILE)")
    else:
        game = _game(args)
        strategy = make_strategy("knuth" if args.strategy is None else args.strategy)
    if args.codemaker not in (None, "random"):
        if args.secrets != "all" or args.jobs is not None:
            raise MastermindError(f"--codemaker {args.codemaker} chooses the secret itself and plays one game a run "
                                  "in this process: give no --secrets or --jobs with it")
        return _eval_against(game, strategy, args)
    secrets: str | int = args.secrets if args.secrets == "all" else _secret_count(args.secrets)
    if secrets == "all" and not args.tree and strategy.deterministic:
        _warn_long_tree(game, strategy, sample_hint=True)
    elif not args.tree and strategy.name in EXHAUSTIVE and game.enumerable and game.n_codes > SLOW_GAME_CODES:
        each = "seconds" if game.n_codes <= LONG_TREE_CODES else "minutes"
        print(f"mmlab: warning: {strategy.spec} scores the codes against those left at every guess; on "
              f"{game.n_codes:,} codes a game can take {each} (sample or evo play such games in under a second)",
              file=sys.stderr)
    with progress(f"evaluating {strategy.spec}", game.n_codes) as update:
        result = evaluate(game, strategy, secrets=secrets, runs=args.runs, seed=args.seed, on_progress=update,
                          jobs=args.jobs)
    if isinstance(secrets, int) and result.secrets == "all" and secrets > game.n_codes:
        err.print(f"--secrets {secrets}: {game} has only {game.n_codes} codes, so every secret was played once")
    if result.runs < args.runs:
        err.print(f"{strategy.spec} is deterministic: every run would play the same games, so it played one "
                  f"(--runs {args.runs} read as 1)")
    if args.json:
        data = result.to_dict()
        if args.tree:  # a tree read from a file evaluates nothing: its strategy's count is unknown
            data.update({key: None for key in result.evaluation_figures()})
        print_json(data)
        return 0
    how = "exact, decision tree" if result.exact else "decision tree" if result.tree is not None else "simulated"
    table = Table(title=f"{game}: {result.strategy} ({how})")
    for col in ("games", "total guesses", "mean", "max", "median", "std", "seconds"):
        table.add_column(col, justify="right")
    mean = f"{result.mean:.4f}" if result.exact else f"{result.mean:.4f} ± {result.stderr:.4f}"
    table.add_row(
        str(result.games), str(result.total_guesses), mean, str(result.max),
        f"{result.median:g}", f"{result.std:.4f}", f"{result.seconds:.3f}",
    )
    out.print(table)
    out.print(f"histogram (guesses:games) {histogram_text(result.histogram)}")
    figures = result.evaluation_figures()
    if figures and figures["evaluations_max"] > 0:  # a tree read from a file evaluates nothing
        out.print(f"codes evaluated per game: mean {figures['evaluations_mean']:.1f}, "
                  f"std {figures['evaluations_std']:.1f}, max {figures['evaluations_max']}")
    if result.fallbacks:
        out.print(f"guesses played without a consistent code (the search budget ran out first): {result.fallbacks}")
    if result.known is not None and (result.known != result.guesses).any():
        known = result.known_figures()
        out.print(f"guesses until the code was known (deduced last guess not counted, as in Singley 003): "
                  f"mean {known['known_mean']:.4f}, median {known['known_median']:g}, max {known['known_max']}")
    if not result.exact:
        out.print(f"secrets {result.secrets}, runs {result.runs}, seed {result.seed}")
    return 0


#: Games against a codemaker that ``mmlab eval --codemaker`` prints move by move.
SHOWN_GAMES = 10


def _eval_against(game: Game, strategy, args: argparse.Namespace) -> int:
    """``mmlab eval --codemaker SPEC``: games against a fixed secret or the adversary."""
    import numpy as np

    from mmlab.codemakers import make_codemaker
    from mmlab.experiments import play_against

    runs = 1 if strategy.deterministic else args.runs
    seed = args.seed if args.seed is not None else draw_seed()
    records = [play_against(game, strategy, make_codemaker(args.codemaker, strategy), np.random.default_rng([seed, r]))
               for r in range(runs)]
    guesses = [r.n_guesses for r in records]
    if runs < args.runs:
        err.print(f"{strategy.spec} is deterministic: every run would play the same game, so it played one "
                  f"(--runs {args.runs} read as 1)")
    if args.json:
        print_json({"game": game.size, "strategy": strategy.spec, "codemaker": args.codemaker, "runs": runs,
                    "seed": None if strategy.deterministic else seed, "guesses": guesses,
                    "mean": sum(guesses) / runs, "max": max(guesses),
                    "games": [[game.format(g) for g in r.guesses] for r in records],
                    "answers": [[[fb.black, fb.white] for fb in r.feedbacks] for r in records]})
        return 0
    for r in records[:SHOWN_GAMES]:
        out.print(f"{r.n_guesses} guess{'es' if r.n_guesses != 1 else ''}: "
                  + ", ".join(f"{game.format(g)} {fb}" for g, fb in zip(r.guesses, r.feedbacks)))
    if runs > SHOWN_GAMES:
        out.print(f"... and {runs - SHOWN_GAMES} more (--json lists every game)")
    out.print(f"{strategy.spec} against {args.codemaker} on {game}: mean {sum(guesses) / runs:.4f} over {runs} "
              f"game(s), worst {max(guesses)}" + ("" if strategy.deterministic else f", seed {seed}"))
    return 0


def _compare_name(study: Study) -> Study:
    """``study`` named by its sizes and fingerprint, and described by the command that makes it."""
    command = ["mmlab", "compare", *study.sizes, "--strategies", ",".join(study.strategies),
               "--secrets", str(study.secrets), "--runs", str(study.runs), "--seed", str(study.seed)]
    command += ["--no-repeats"] * (not study.repeats) + ["--black-only"] * (study.feedback == "black")
    return replace(study, name=f"compare-{'-'.join(study.sizes)}-{study.fingerprint[:8]}",
                   description=shlex.join(command))


def _compare_study(typed: Study, store: Store) -> Study:
    """The study of a comparison: named by its canonical form (``Study.canonical``), so equivalent
    comparisons are one study. A store holding it under the name the options as typed gave (as
    mmlab named comparisons before) keeps serving that study."""
    study = _compare_name(typed.canonical())
    if store.fingerprint(study.name) is None:
        legacy = _compare_name(typed)
        if store.fingerprint(legacy.name) == legacy.fingerprint:
            return legacy
    return study


def cmd_compare(args: argparse.Namespace) -> int:
    repeats, feedback = not args.no_repeats, "black" if args.black_only else "black-white"
    games = [Game.parse_size(size, repeats=repeats, feedback=feedback) for size in args.sizes]
    specs = split_specs(args.strategies) if args.strategies is not None else list(EXHAUSTIVE) + ["random"]
    if not specs:
        raise BadArgument("--strategies is empty: name at least one strategy, e.g. --strategies knuth,random")
    if not re.fullmatch(r"\s*(all|((sample|instance)\s*:)?\s*[0-9]+)\s*", args.secrets):  # (no list of codes here)
        raise BadArgument(f"--secrets {shown(args.secrets)}: expected 'all', N or sample:N (a sample of N secrets), "
                          "or instance:N (every code once, some twice)")
    try:
        secrets = SecretSet.parse(args.secrets)
    except MastermindError as e:
        raise BadArgument(f"--secrets: {e}") from None
    sizes = tuple(dict.fromkeys(g.size for g in games))
    try:  # checked as a study file is, but told in the options' words
        base = Study("compare", sizes, tuple(specs), secrets, args.runs, args.seed, repeats, feedback)
    except BadStudy as e:
        if e.key is None:
            raise
        option = {"sizes": "SIZE", "strategies": "--strategies", "secrets": "--secrets"}.get(e.key, f"--{e.key}")
        raise BadArgument(f"{option}: {e.problem}") from None
    check_figure_paths(args.plots, args.html)  # before the games, not after; once the options hold
    study = _compare_study(base, Store(args.store))
    secrets = study.secrets
    execute(study, args)
    report = build_report(Store(args.store), study.name)
    rows = []
    for row in report.summary.itertuples(index=False):
        game = study.game(row.size)
        moves = report.moves
        first = moves[(moves["size"] == row.size) & (moves["strategy"] == row.strategy) & (moves["move"] == 1)]["guess"]
        exact = bool(row.exact)
        figure = LITERATURE.get((row.size, row.strategy)) if secrets.every_code(game) and repeats \
            and feedback == "black-white" else None  # (a published figure is for one spec, defaults left out)
        rows.append({"strategy": row.strategy, "game": row.size, "repeats": game.repeats, "feedback": game.feedback,
                     "exact": exact, "first": first.iloc[0] if first.nunique() == 1 else "random",
                     "games": row.games, "runs": study.runs_of(row.strategy), "total_guesses": row.total,
                     "mean": row.mean, "stderr": row.stderr,
                     "max": row.max, "median": row.median, "std": row.std,
                     "evaluations_mean": row.evaluations_mean, "seconds": row.seconds_per_game * row.games,
                     "literature": str(figure) if figure else None})
    if args.json:
        print_json({"study": study.name, "store": str(args.store), "secrets": str(secrets), "runs": study.runs,
                    "seed": study.seed, "strategies": rows})
        write_figures(report, args.plots, args.html)
        return 0
    for game in (study.game(size) for size in sizes):
        every = "every secret" if secrets.kind == "all" else f"all {game.n_codes} secrets"  # (a sample or instance set)
        title = (f"{game}: {every} (deterministic strategies exactly)" if secrets.every_code(game)
                 else f"{game}: secrets {secrets}")
        table = Table(title=title)
        for col, justify in (("strategy", "left"), ("first", "left"), ("L", "right"), ("mean", "right"),
                             ("worst", "right"), ("game s", "right"), ("literature", "left")):
            table.add_column(col, justify=justify)
        for r in rows:
            if r["game"] != game.size:
                continue
            mean = f"{r['mean']:.4f}" if r["exact"] else f"{r['mean']:.4f}±{r['stderr']:.4f}"
            total = str(r["total_guesses"]) if r["runs"] == 1 else f"{r['total_guesses'] / r['runs']:.1f}"
            table.add_row(r["strategy"], r["first"], total, mean, str(r["max"]),
                          f"{r['seconds']:.3f}", r["literature"] or "")
        out.print(table)
    if any(not r["exact"] for r in rows):
        per_run = ", L per run (the mean over them)" if study.runs > 1 else ""
        out.print(f"random strategies and samples: {study.runs} run(s){per_run}, secrets {secrets}, seed {study.seed}")
    out.print("game s: seconds spent on the games, summed over the worker processes")
    figures = "" if args.plots or args.html else ", --plots DIR for figures"
    out.print(f"stored as study {study.name} in {args.store} ('mmlab report {study.name}' for every table{figures})")
    write_figures(report, args.plots, args.html)  # after the table: a path it cannot write costs no output
    return 0


#: A plan estimated to take longer (in seconds) is refused rather than started.
LONGEST_PLAN = 7 * 86400


def cmd_plan(args: argparse.Namespace) -> int:
    game = _game(args)
    planner = make_planner(args.planner)
    planner.check(game)  # before the warning: a game it refuses takes no time
    _check_output(args.output)
    estimate = planner.estimate_seconds(game)
    floor = planner.unstoppable_seconds(game)
    guess = "on this machine (a rough guess)"
    if floor is not None and floor > LONGEST_PLAN:
        raise MastermindError(f"{planner.spec} on {game} would take about {_duration(floor)} {guess} before "
                              "--time-limit could stop it: plan a smaller game")
    if estimate is not None and estimate > LONGEST_PLAN and args.time_limit is None:
        raise MastermindError(f"{planner.spec} on {game} may take about {_duration(estimate)} {guess}: give "
                              "--time-limit SECONDS to keep the best tree found by then")
    if estimate is not None and estimate > 60 and args.time_limit is None:
        stop = ("; --time-limit SECONDS stops it early with the best tree found" if floor is None or floor < estimate
                else "; it completes its greedy tree whatever --time-limit says")
        print(f"mmlab plan: warning: {planner.spec} on {game} may take about {_duration(estimate)} {guess}{stop}",
              file=sys.stderr)
    elif floor is not None and floor > max(60, args.time_limit or 0):
        print(f"mmlab plan: warning: {planner.spec} on {game} first completes its greedy tree whatever "
              f"--time-limit says, which may take about {_duration(floor)} {guess}", file=sys.stderr)
    with progress(f"planning {planner.spec}", 1, percent=True) as update:
        result = planner.plan(game, on_progress=lambda done, total: update(done, total), time_limit=args.time_limit)
    if args.output is not None:
        _write(args.output, export.to_json(result.tree) + "\n")
    if args.json:
        print_json(result.to_dict())
        return 0
    t = result.tree
    table = Table(title=f"{game}: {planner.spec}")
    for col in ("L", "mean", "worst", "histogram", "nodes", "seconds", "optimal"):
        table.add_column(col, justify="right")
    proof = "proved" if result.proved else ("stopped by the time limit" if result.figures.get("stopped_by_time_limit")
                                            else "not proved (heuristic)")
    table.add_row(str(t.total_guesses), f"{t.mean:.4f}", str(t.worst), histogram_text(t.histogram),
                  str(result.nodes), f"{result.seconds:.2f}", proof)
    out.print(table)
    for key, value in result.figures.items():
        if key != "stopped_by_time_limit":  # (the table says so)
            out.print(f"{key.replace('_', ' ')}: {value}")
    if args.output:
        out.print(f"tree saved to {args.output} (play it: mmlab eval --tree {args.output})")
    return 0


def cmd_strategies(args: argparse.Namespace) -> int:
    data = [
        {
            "name": cls.name,
            "kind": kind,
            "summary": cls.summary,
            "source": cls.source,
            "params": [{"name": p.name, "default": p.default, "choices": p.choices, "help": p.help,
                        "effort": p.effort, "minimum": p.minimum, "maximum": p.maximum, "allowed": allowed(p)}
                       for p in cls.params],
        }
        for kind, registry in (("strategy", REGISTRY), ("planner", PLANNERS), ("mm2 strategy", STRATEGIES_2D))
        for cls in registry.values()
    ]
    if args.name is not None:
        data = [d for d in data if d["name"] == args.name]
        if not data:
            known = ", ".join(dict.fromkeys(list(REGISTRY) + list(PLANNERS) + list(STRATEGIES_2D)))
            raise MastermindError(f"no strategy or planner is called {shown(args.name)}; known: {known}")
    if args.json:
        print_json(data if args.name is None or len(data) > 1 else data[0])  # 'tabu' is 1-D and 2-D
        return 0
    if args.name is not None:
        for entry in data:
            _print_parameters(entry)
        return 0
    table = Table(title="strategies (--strategy), planners (--planner) and 2-D strategies (mmlab mm2 play --strategy): "
                        "NAME or NAME:key=value,key=value")
    for col in ("name", "kind", "what it does", "parameters (default)", "source"):
        table.add_column(col)
    for d in data:
        params = "\n".join(
            f"{p['name']}={'…' if p['default'] in ('', None) else p['default']}"
            + (f" ({p['allowed']})" if p["allowed"] else "") + (" *" if p["effort"] else "")
            for p in d["params"]
        )
        table.add_row(d["name"], d["kind"], d["summary"], params, d["source"])
    out.print(table)
    out.print("* sets how much the strategy searches: 'mmlab serve' plays it at its default")
    out.print("'mmlab strategies NAME' explains each parameter of one")
    return 0


def allowed(param: Param) -> str:
    """The values a parameter takes, as ``mmlab strategies`` shows them.

    >>> allowed(Param("ties", "first", "", choices=("first", "random"))), allowed(Param("k", 5, "", kind=int, minimum=1))
    ('first|random', 'whole, ≥ 1')
    """
    if param.choices:
        return "|".join(param.choices)
    if param.kind is not int:
        return ""
    low, high = param.minimum, param.maximum
    bound = (f"{low}-{high}" if None not in (low, high) else f"≥ {low}" if low is not None
             else f"≤ {high}" if high is not None else "")
    return "whole" + (f", {bound}" if bound else "")


def _print_parameters(entry: dict) -> int:
    """One strategy or planner and what each of its parameters means."""
    out.print(f"{entry['name']} ({entry['kind']}): {entry['summary']}. Source: {entry['source']}.")
    table = Table(title=f"{entry['name']}:key=value,...")
    for col in ("parameter", "default", "allowed", "meaning"):
        table.add_column(col)
    for p in entry["params"]:
        default = "(empty)" if p["default"] in ("", None) else str(p["default"])
        table.add_row(p["name"] + (" *" if p["effort"] else ""), default, p["allowed"], p["help"])
    out.print(table)
    if any(p["effort"] for p in entry["params"]):
        out.print("* sets how much it searches: 'mmlab serve' plays it at its default")
    return 0


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text)
    except OSError as e:
        raise MastermindError(f"cannot write {path}: {e.strerror or e}") from None


def _check_output(path: str | None) -> None:
    """Refuse an output path that cannot be written before the work that would fill it: an empty
    one, a folder, or one in a folder that does not exist or cannot be written."""
    if path is None:
        return
    target = Path(path)
    if not path or target.is_dir():
        raise MastermindError(f"-o {path!r}: give a file to write, e.g. -o tree.json")
    folder = target.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise MastermindError(f"cannot write {path}: {'no such folder' if not folder.is_dir() else 'not allowed'}")


_count = int_at_least(1, "a count")


class _Parser(argparse.ArgumentParser):
    """Argument errors in one line, like every other mmlab error."""

    def error(self, message: str) -> NoReturn:
        size = re.search(r"unrecognized arguments: (-\d+x\d+)", message, re.IGNORECASE)
        if size:
            message = f"size {size.group(1)}: pegs must be a whole number from {MIN_PEGS} to {MAX_PEGS}"
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _secret_count(text: str) -> int:
    """``--secrets N`` (or ``sample:N``) of ``eval``: a whole number from 1 to ``MAX_SECRETS``."""
    kind, colon, number = text.partition(":")
    if colon and kind.strip() == "instance":
        raise MastermindError(f"--secrets {shown(text)}: eval seeds each game by its secret, so a secret played "
                              "twice would repeat its game; instance sets are for 'mmlab compare' and study files. "
                              "Give 'all', N or sample:N (a random sample of N secrets)")
    value = whole_number(number if colon and kind.strip() == "sample" else text)
    if value is None:
        raise MastermindError(f"--secrets {shown(text)}: expected 'all', N or sample:N (a random sample of N secrets)")
    if not 1 <= value <= MAX_SECRETS:
        raise MastermindError(f"--secrets {shown(text)}: expected a number of secrets from 1 to {MAX_SECRETS:,}")
    return value


# --------------------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="mmlab",
        description="Mastermind lab: codebreaking strategies of the literature, evaluated exactly and fast.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, help: str, func) -> argparse.ArgumentParser:
        examples = "\n".join(line for line in EXAMPLES.splitlines() if line.startswith(f"  mmlab {name} "))
        p = sub.add_parser(name, help=help, description=help, epilog=f"examples:\n{examples}" if examples else None,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.set_defaults(func=func)
        return p

    p = command("compare", "run strategies on one or more sizes, store every game, and print one table per size "
                "beside the literature", cmd_compare)
    p.add_argument("sizes", nargs="+", metavar="SIZE", help="game sizes PEGSxCOLOURS, e.g. 4x6 (or 4x6 4x7 4x8)")
    p.add_argument("--no-repeats", action="store_true", help="codes may not repeat a colour (Bulls and Cows)")
    p.add_argument("--black-only", action="store_true", help="answers count black pegs only")
    p.add_argument("--strategies", help="comma-separated strategy specs (default: every exhaustive one and random)")
    p.add_argument("--runs", type=_count, default=1, help="games per secret (default 1; deterministic strategies "
                                                          "play every run the same)")
    p.add_argument("--seed", type=seed_arg, default=0, help="seed of random strategies and samples (default 0)")
    p.add_argument("--secrets", default="all",
                   help="'all' (default), N or sample:N (a sample of N distinct secrets, the same for every "
                        "strategy), or instance:N (every code once, some twice: 004's instance sets)")
    add_store_args(p)
    add_execution_args(p)
    p.add_argument("--plots", metavar="DIR", help="also write the plots (guesses per game, per move) as PNG and SVG "
                                                  "into this folder")
    p.add_argument("--html", metavar="PATH", help="also write one self-contained HTML page with every table and plot")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")

    p = command("eval", "evaluate one strategy over every secret (exact for deterministic strategies)", cmd_eval)
    _add_game_args(p, optional=True)
    p.add_argument("--strategy", help="strategy spec (default knuth)")
    p.add_argument("--tree", metavar="FILE", help="evaluate a saved decision tree (JSON from 'mmlab tree' or 'mmlab "
                                                   "plan') instead; - reads it from standard input")
    p.add_argument("--secrets", default="all",
                   help="'all' (default), or N or sample:N: a random sample of N secrets (instance sets: compare)")
    p.add_argument("--runs", type=_count, default=1, help="games per secret for random strategies (default 1; a "
                                                          "deterministic strategy plays one, the same every run)")
    p.add_argument("--seed", type=seed_arg, help="seed for random strategies and samples (default: drawn and printed)")
    p.add_argument("--jobs", type=int_at_least(1, "--jobs"),
                   help="worker processes for random strategies (default: one per core in games of more than "
                        f"{PARALLEL_MIN_CODES:,} codes, else one); the games are the same for any number")
    p.add_argument("--codemaker", metavar="SPEC",
                   help="who answers: random secrets (default: every secret), fixed:CODE, adversary (keeps the "
                        "largest class of codes open: dynamic Mastermind) or adversary:mode=worst (follows the "
                        "strategy's decision tree to its worst case)")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = command("partition", "the answer classes a guess makes of the remaining candidates", cmd_partition)
    _add_game_args(p)
    p.add_argument("guess", help="the guess to examine, e.g. 1123")
    p.add_argument("--after", action="append", default=[], metavar="GUESS:B,W",
                   help="an earlier guess and its answer, e.g. 1122:1,1 (repeatable)")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = command("tree", "compile a deterministic strategy into its decision tree and print or save it", cmd_tree)
    _add_game_args(p, optional=True)
    p.add_argument("--strategy", help="strategy spec (default knuth)")
    p.add_argument("--tree", metavar="FILE", help="print a saved tree (from tree -o or plan -o) instead; - reads it "
                                                   "from standard input")
    p.add_argument("--format", choices=("json", "dot", "knuth", "python"),
                   help="default: the -o file's by its extension (.json, .dot or .gv, .py, .txt for knuth), else "
                        "json. json (loadable), dot (Graphviz), python (a generated player), or knuth: Knuth's "
                        "notation n(guess: a1, ..., ak), n the codes left, one entry per answer from all "
                        "black to 0,0 (4 pegs: 4,0 3,0 2,2 2,1 2,0 1,3 1,2 1,1 1,0 0,4 0,3 0,2 0,1 0,0): * "
                        "the guess wins, - no code gives it, 1(code) the last code, else the next node")
    p.add_argument("-o", "--output", help="write to this file instead of standard output")

    p = command("score", "the answer (black,white) a secret gives to a guess", cmd_score)
    p.add_argument("secret", help="the secret code, e.g. 3632")
    p.add_argument("guess", help="the guess, e.g. 1122")
    p.add_argument("--size", help="game size, to check the codes' colours (default: as many pegs as the "
                                  "secret has, any colour up to 36)")
    p.add_argument("--no-repeats", action="store_true", help="codes may not repeat a colour")
    p.add_argument("--black-only", action="store_true", help="answer black pegs only")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = command("plan", "search offline for a strategy and save its decision tree (TPOA, exact optimum)", cmd_plan)
    _add_game_args(p)
    p.add_argument("--planner", default="tpoa:k=1,d=1,hash=e",
                   help="planner spec, e.g. tpoa:variant=star,k=5,d=2,hash=e (default tpoa:k=1,d=1,hash=e)")
    p.add_argument("-o", "--output", help="save the tree as JSON (evaluate or play it later with --tree)")
    p.add_argument("--time-limit", type=positive(float, "--time-limit"), metavar="SECONDS",
                   help="stop after this long and return the best tree found (optimal: with the bound proved so "
                        "far); the first, greedy tree is always completed")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = command("reproduce", "re-run a paper's tables and print them beside the published figures", cmd_reproduce)
    p.add_argument("paper", nargs="?", default="tpoa", choices=list(PAPERS),
                   help="; ".join(f"{k}: {v}" for k, v in PAPERS.items()) + " (default tpoa)")
    p.add_argument("--quick", action="store_true", help="tpoa: only the rows the paper ran in under 30 s")
    p.add_argument("--methods", help="singley: comma-separated methods (default: every method of the appendix)")
    p.add_argument("--tabu-games", type=int_at_least(1, "--tabu-games"), default=2000,
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

    add_study_commands(command)
    add_play_command(command)
    add_serve_command(command)
    add_static_command(command)
    add_mm2_command(command)

    p = command("strategies", "list every strategy with its parameters, defaults and source", cmd_strategies)
    p.add_argument("name", nargs="?", help="one strategy or planner, with the meaning of each parameter")
    p.add_argument("--json", action="store_true", help="print JSON")
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> tuple[str | None, dict[str, argparse.ArgumentParser]]:
    """Where ``parser`` stores the subcommand chosen, and the subcommands' parsers (``None, {}``: none)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return (subs[0].dest, subs[0].choices) if subs else (None, {})


def _chosen(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The (sub)command parser that ``args`` went to, e.g. the one of ``mmlab mm2 play``."""
    while True:
        dest, choices = _subcommands(parser)
        name = getattr(args, dest, None) if dest else None
        if name not in choices:
            return parser
        parser = choices[name]


def _did_you_mean(parser: argparse.ArgumentParser, extra: Sequence[str]) -> str:
    """A hint naming the options of ``parser`` closest to the unknown ``--options`` in ``extra``.

    >>> p = argparse.ArgumentParser(); _ = p.add_argument("--strategies")
    >>> _did_you_mean(p, ["--strategy", "knuth"])
    '; did you mean --strategies?'
    """
    known = [o for action in parser._actions for o in action.option_strings if o.startswith("--")]
    hints = [m for word in extra if word.startswith("--")
             for m in difflib.get_close_matches(word.partition("=")[0], known, n=1, cutoff=0.75)]
    return f"; did you mean {' or '.join(dict.fromkeys(hints))}?" if hints else ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    negative = next((a for a in argv if re.fullmatch(r"-\d+x\d+", a, re.IGNORECASE)), None)
    if negative is not None:  # argparse reads it as an option and then misses the size
        command = parser
        for word in argv:  # down the (sub)commands given, e.g. to the parser of 'mmlab mm2 play'
            choices = _subcommands(command)[1]
            if word not in choices:
                break
            command = choices[word]
        command.error(f"unrecognized arguments: {negative}")
    args, extra = parser.parse_known_args(argv)
    if extra and not (args.command == "score" and _reads_as_size(args.secret)):  # (which says how to give it)
        # blamed on the command that was given them, whose --help lists what it takes
        chosen = _chosen(parser, args)
        chosen.error(f"unrecognized arguments: {' '.join(extra)}{_did_you_mean(chosen, extra)}")
    try:
        return args.func(args)
    except MastermindError as e:
        print(f"mmlab {args.command}: error: {e}", file=sys.stderr)
        return 2
    except MemoryError as e:  # numpy's says how much it could not allocate
        print(f"mmlab {args.command}: error: not enough memory{f' ({e})' if str(e) else ''}; try a smaller game "
              "or fewer games", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader (e.g. 'head') stopped early: not an error; keep Python quiet at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return INTERRUPTED
    except RuntimeError as e:
        if str(e) != "Query interrupted":  # DuckDB's word for Ctrl-C during a query
            raise
        print("interrupted", file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":
    from mmlab.cli.entry import run

    run()
