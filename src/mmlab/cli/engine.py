"""The commands that run the engine on one game: ``eval`` a strategy, ``partition`` the codes by
a guess's answers, compile a strategy's ``tree``, ``plan`` a tree offline. Each imports the
engine (numba's kernels) as it starts, so that their options and help load none of it."""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from mmlab.cli.arguments import add_game_args, count, game_of, int_at_least, positive, seed_arg
from mmlab.cli.commands import help_of
from mmlab.cli.entry import loading
from mmlab.cli.output import fits, histogram_text, mean_text, print_json, progress, running_total, spinner
from mmlab.errors import BadTree, MastermindError, as_typed, shown, whole_number

if TYPE_CHECKING:
    from mmlab.experiments.evaluation import Evaluation
    from mmlab.game import Game
    from mmlab.strategies import Strategy
    from mmlab.trees import DecisionTree

#: ``mmlab.experiments.evaluation.PARALLEL_MIN_CODES``, for the help of ``eval --jobs`` (importing it
#: loads numba; ``tests/cli/test_cli.py`` checks that the two agree).
PARALLEL_MIN_CODES = 10_000


def _load_engine() -> None:
    """Import the engine (numba, its cached kernels' modules), a Ctrl-C waiting until it is loaded."""
    with loading():
        import mmlab.experiments.evaluation
        import mmlab.trees.export  # noqa: F401


def cmd_partition(args: argparse.Namespace) -> int:
    with loading():
        from rich.table import Table

        from mmlab.cli.output import out
        from mmlab.knowledge import Knowledge
        from mmlab.strategies.scoring import partition_summary
    game = game_of(args)
    game.require_enumerable("partition (it counts the answer classes over every code)")
    knowledge = Knowledge.initial(game)
    after = []
    for item in args.after:
        code, sep, answer = as_typed(item).partition(":")  # (a full-width colon too, as codes and answers are read)
        if not sep:
            raise MastermindError(f"--after {item!r}: write GUESS:BLACK,WHITE, for example 1122:1,1")
        earlier, feedback = game.parse(code), game.answer(answer)
        knowledge = knowledge.update(earlier, feedback)
        after.append({"guess": game.format(earlier), "black": feedback.black, "white": feedback.white})
    guess = game.parse(args.guess)
    summary = partition_summary(knowledge, guess)
    classes = list(summary.pop("classes").items())
    if args.json:
        print_json({"game": game.size, "repeats": game.repeats, "feedback": game.feedback, "after": after,
                    "guess": game.format(guess), "classes": {str(f): n for f, n in classes}, **summary})
        return 0
    title = f"{game}: answers to {game.format(guess)} among {knowledge.n_consistent} candidates"
    table = Table(title=title, min_width=len(title))  # (the title on one line, not over three columns' width)
    table.add_column("answer b,w" if game.with_white else "answer b")
    table.add_column("codes", justify="right")
    table.add_column("share", justify="right")
    for f, n in classes:
        table.add_row(game.answer_text(f), str(n), f"{n / knowledge.n_consistent:.3f}", style=None if n else "dim")
    out.print(table)
    out.print(
        f"{summary['parts']} part{'s' if summary['parts'] != 1 else ''}, largest {summary['largest']}, expected size {summary['expected_size']:.4f}, "
        f"entropy {summary['entropy_bits']:.4f} bits; the guess is "
        f"{'consistent' if summary['consistent'] else 'not consistent'} with the answers so far"
    )
    return 0


#: Whole trees over more codes than 5x8's warn that they take long (5x8 takes 15-60 s here; 6x9
#: for greedy3 about 20 minutes).
LONG_TREE_CODES = 32_768
SLOW_GAME_CODES = 32_767  # games where one game of an exhaustive strategy takes seconds (5x8) or minutes (6x7 on)
#: Games where one game of ``shc`` can take minutes: its induced codes rarely fit the answers late in
#: a game (10x10: 54 s a game, helper-103's review; 10x20: a minute, up to 8, docs/reproductions.md).
SLOW_SHC_CODES = 10**10


def _warn_long_tree(game: Game, strategy: Strategy, sample_hint: bool, by_kernels: bool = False) -> None:
    """Say that compiling ``strategy``'s whole tree on ``game`` takes long, before it starts;
    ``by_kernels``: Singley's methods are not compiled but played by their kernels (``evaluate``)."""
    from mmlab.strategies.greedy_kernels import kernel_parameters

    compiled = not (by_kernels and kernel_parameters(strategy) is not None)
    if compiled and strategy.deterministic and game.enumerable and game.n_codes > LONG_TREE_CODES:
        hint = "; --secrets N plays a sample of secrets through the branches they reach" if sample_hint else ""
        print(f"mmlab: warning: this compiles the whole decision tree of {strategy.spec} over {game.n_codes:,} codes; "
              f"5x8's {LONG_TREE_CODES:,} take 15-60 s on this machine, and larger games much longer{hint}",
              file=sys.stderr)


def _build_tree(game: Game, spec: str, label: str) -> DecisionTree:
    from mmlab.strategies import make_strategy
    from mmlab.trees import DecisionTree

    strategy = make_strategy(spec)
    # Before start: as DecisionTree.build says it, naming no other strategy (none compiles there).
    game.require_enumerable(f"compiling {strategy.spec} into a decision tree")
    strategy.start(game)
    _warn_long_tree(game, strategy, sample_hint=False)
    with progress(label, game.n_codes) as update:
        return DecisionTree.build(game, strategy, on_progress=running_total(update))


def _saved_tree(args: argparse.Namespace) -> DecisionTree:
    """The tree of ``--tree FILE``, refusing the options a saved tree brings itself."""
    from mmlab.trees import export

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
    _load_engine()
    from mmlab.cli.output import err

    if args.output != "-":
        _check_output(args.output)
    if args.tree:
        tree = _saved_tree(args)
        game = tree.game
    elif args.size is None:
        raise MastermindError("give a size (e.g. 'mmlab tree 4x6 --strategy knuth') or a saved tree (--tree FILE)")
    else:
        game = game_of(args)
        spec = args.strategy or "knuth"
        tree = _build_tree(game, spec, f"compiling {spec}")
    output = None if args.output == "-" else args.output  # (as --tree - reads standard input)
    form = _save_tree(tree, output, args.format)
    if output is not None:
        err.print(
            f"wrote {output} ({form}): {game} {tree.strategy}, L={tree.total_guesses} "
            f"(mean {tree.mean:.4f}), worst {tree.worst}, {tree.n_nodes} nodes"
        )
    return 0


def _save_tree(tree: DecisionTree, path: str | None, form: str | None = None) -> str:
    """Write ``tree`` to ``path`` (``None``: standard output) in ``form``, by default the one of
    ``path``'s extension (``export.format_of``: JSON unless .dot, .gv, .py or .txt); returns the form."""
    from mmlab.trees import export

    form = form or export.format_of(path or "")
    text = export.WRITERS[form](tree)
    text = text if text.endswith("\n") else text + "\n"
    if path is None:
        sys.stdout.write(text)
    else:
        _write(path, text)
    return form


def cmd_eval(args: argparse.Namespace) -> int:
    _load_engine()
    from mmlab.cli.output import err
    from mmlab.experiments.evaluation import EvaluationInterrupted, evaluate
    from mmlab.strategies import EXHAUSTIVE, make_strategy
    from mmlab.trees.strategy import TreeStrategy

    if args.tree:
        tree = _saved_tree(args)
        game = tree.game
        strategy = TreeStrategy(tree)
    elif args.size is None:
        raise MastermindError("give a size (e.g. 'mmlab eval 4x6 --strategy knuth') or a saved tree (--tree FILE)")
    else:
        game = game_of(args)
        strategy = make_strategy("knuth" if args.strategy is None else args.strategy)
    if args.codemaker not in (None, "random"):
        plays = _codemaker_plays(args.codemaker)
        if args.secrets != "all" or args.jobs not in (None, 1):
            raise MastermindError(f"--codemaker {args.codemaker} {plays} and plays one game a run in this process: "
                                  "give no --secrets or --jobs with it")
        if args.games is not None:
            raise MastermindError(f"--games writes the games of an evaluation over secrets chosen in advance; "
                                  f"--codemaker {args.codemaker} {plays}: give --json instead, which lists each "
                                  "game's guesses and answers")
        return _eval_against(game, strategy, args)
    _check_games_file(args.games)
    secrets: str | int = args.secrets if args.secrets == "all" else _secret_count(args.secrets)
    if secrets == "all" and not game.enumerable and not strategy.needs_enumeration:
        raise MastermindError(f"--secrets all (the default) plays every secret, and {game} has {game.n_codes:.3g} "
                              "codes: give --secrets N to play a sample of N secrets")
    if secrets == "all" and not args.tree and strategy.deterministic:
        _warn_long_tree(game, strategy, sample_hint=True, by_kernels=True)
    elif not args.tree and strategy.name in EXHAUSTIVE and game.enumerable and game.n_codes > SLOW_GAME_CODES:
        each = "seconds" if game.n_codes <= LONG_TREE_CODES else "minutes"
        print(f"mmlab: warning: {strategy.spec} scores the codes against those left at every guess; on "
              f"{game.n_codes:,} codes a game can take {each} (sample or evo play such games in under a second)",
              file=sys.stderr)
    elif strategy.name == "shc" and game.n_codes >= SLOW_SHC_CODES:
        print(f"mmlab: warning: shc draws codes until one fits the answers, and late in a game of {game.n_codes:.3g} "
              "codes few do: a game can take minutes (10x20: about a minute, up to 8); sample and evo play such "
              "games faster", file=sys.stderr)
    try:
        with progress(f"evaluating {strategy.spec}", game.n_codes) as update:
            result = evaluate(game, strategy, secrets=secrets, runs=args.runs, seed=args.seed, on_progress=update,
                              jobs=args.jobs)
    except EvaluationInterrupted as stop:  # the games finished are not lost (then "interrupted", status 130)
        if stop.evaluation is not None:
            try:
                _report_evaluation(stop.evaluation, args)
            except MastermindError as e:  # (--games could not be written: said, and the run still ends as stopped)
                err.print(f"mmlab eval: error: {e}")
        raise
    if isinstance(secrets, int) and result.secrets == "all" and secrets > game.n_codes:
        err.print(f"--secrets {secrets}: {game} has only {game.n_codes} codes, so every secret was played once")
    if result.runs < args.runs:
        err.print(f"{strategy.spec} is deterministic: every run would play the same games, so it played one "
                  f"(--runs {args.runs} read as 1)")
    _report_evaluation(result, args)
    return 0


def _report_evaluation(result: Evaluation, args: argparse.Namespace) -> None:
    """Print the figures of ``result`` (a table, or JSON with ``--json``), then write ``--games``."""
    _print_evaluation(result, args)
    if args.games is not None:
        _write_games(args.games, result, counted=not args.tree)


def _print_evaluation(result: Evaluation, args: argparse.Namespace) -> None:
    """The figures of ``result``: a table, or JSON with ``--json``."""
    from rich.table import Table

    from mmlab.cli.output import out

    if args.json:
        data = result.to_dict()
        if args.tree:  # a tree read from a file evaluates nothing: its strategy's count is unknown
            data.update({key: None for key in result.evaluation_figures()})
        print_json(data)
        return
    game = result.game
    how = f"exact, {result.method}" if result.exact else result.method
    if result.interrupted:
        how += f", interrupted after {result.games:,} of {result.planned:,} games"
    table = Table(title=f"{game}: {result.strategy} ({how})")
    per_game = result.seconds_per_game  # (None for games read off a tree)
    for col in ("games", "total guesses", "mean", "max", "median", "std", "seconds") + ("s/game",) * (per_game is not None):
        table.add_column(col, justify="right")
    mean = f"{result.mean:.4f}" if result.exact else mean_text(result.mean, result.stderr, result.games)
    table.add_row(
        str(result.games), str(result.total_guesses), mean, str(result.max),
        f"{result.median:g}", f"{result.std:.4f}", f"{result.seconds:.3f}",
        *([] if per_game is None else [f"{per_game:.3g}"]),
    )
    out.print(table)
    out.print(f"histogram (guesses:games) {histogram_text(result.histogram)}")
    figures = result.evaluation_figures()
    if figures and figures["evaluations_max"] > 0:  # a tree read from a file evaluates nothing
        out.print(f"codes evaluated per game: mean {figures['evaluations_mean']:.1f}, "
                  f"std {figures['evaluations_std']:.1f}, max {figures['evaluations_max']}")
    if result.fallbacks:
        out.print(f"guesses played after a search budget ran out (the fittest code found, or one the constraint "
                  f"search found): {result.fallbacks}")
    if result.known is not None and (result.known != result.guesses).any():
        known = result.known_figures()
        out.print(f"guesses until the code was known (deduced last guess not counted, as in Singley 003): "
                  f"mean {known['known_mean']:.4f}, median {known['known_median']:g}, max {known['known_max']}")
    if not result.exact:
        out.print(f"secrets {result.secrets}, runs {result.runs}, seed {result.seed}")
    if result.interrupted:  # the games go run by run, each run's secrets in code order
        out.print(f"(the first {result.games:,} games in the order played, each run's secrets in code order: not a "
                  "random sample of the secrets)")


#: The formats of ``eval --games FILE``, by the file's suffix, and the columns of its rows.
GAMES_FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
GAME_ROW_FIELDS = ("run", "secret", "guesses", "known", "evaluations", "seconds", "fallbacks")


def _check_games_file(path: str | None) -> None:
    """Refuse ``--games FILE``, before any game is played, when its format cannot be told from its
    suffix or it cannot be written."""
    if path is None:
        return
    if Path(path).suffix.lower() not in GAMES_FORMATS:
        raise MastermindError(f"--games {shown(path)}: cannot tell the format; name it .csv, or .jsonl for JSON "
                              "lines (one object a game)")
    _check_output(path, "--games", "games.csv")


def _write_games(path: str, result: Evaluation, counted: bool) -> None:
    """``result.iter_games()`` to ``path``, one row a game, as CSV or JSON lines, as they come; the
    codes evaluated are left empty (null) unless ``counted`` (a tree read from a file evaluates
    nothing)."""
    from mmlab.cli.output import err

    rows = result.iter_games()
    if not counted:
        rows = ({**row, "evaluations": None} for row in rows)
    with _writing(path) as file:
        if GAMES_FORMATS[Path(path).suffix.lower()] == "csv":
            writer = csv.DictWriter(file, fieldnames=GAME_ROW_FIELDS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        else:
            file.writelines(json.dumps(row) + "\n" for row in rows)
    err.print(f"wrote {result.games:,} game{'s' if result.games != 1 else ''} to {path}")


def _codemaker_plays(spec: str) -> str:
    """What the codemaker of ``eval --codemaker SPEC`` does with the secret, for a message:
    ``fixed:CODE`` holds one secret, the adversary chooses it as it answers."""
    if spec.strip().partition(":")[0].strip() == "fixed":
        return "answers for its one secret"
    return "chooses the secret itself as it answers"


#: Games against a codemaker that ``mmlab eval --codemaker`` prints move by move.
SHOWN_GAMES = 10


def _eval_against(game: Game, strategy, args: argparse.Namespace) -> int:
    """``mmlab eval --codemaker SPEC``: games against a fixed secret or the adversary."""
    import numpy as np

    from mmlab.cli.output import err, out
    from mmlab.codemakers import make_codemaker
    from mmlab.experiments import play_against
    from mmlab.experiments.evaluation import draw_seed
    from mmlab.experiments.playout import moves_text

    runs = 1 if strategy.deterministic else args.runs
    seed = args.seed if args.seed is not None else draw_seed()
    maker = make_codemaker(args.codemaker, strategy)
    if maker.name == "fixed":  # its secret read now, the error naming the option
        try:
            maker.start(game)
        except MastermindError as e:
            raise type(e)(f"--codemaker {args.codemaker}: {e}") from None
    # (adversary:mode=worst first builds the strategy's whole decision tree: 31 s at 5x8)
    tree = getattr(maker, "mode", None) == "worst"
    with spinner(f"{args.codemaker} builds the decision tree of {strategy.spec} on {game}", enabled=tree):
        records = [play_against(game, strategy, make_codemaker(args.codemaker, strategy),
                                np.random.default_rng([seed, r])) for r in range(runs)]
    guesses = [r.n_guesses for r in records]
    if runs < args.runs:
        err.print(f"{strategy.spec} is deterministic: every run would play the same game, so it played one "
                  f"(--runs {args.runs} read as 1)")
    if args.json:
        print_json({"game": game.size, "repeats": game.repeats, "feedback": game.feedback, "strategy": strategy.spec,
                    "codemaker": args.codemaker, "runs": runs,
                    "seed": None if strategy.deterministic else seed, "guesses": guesses,
                    "mean": sum(guesses) / runs, "max": max(guesses),
                    "games": [[game.format(g) for g in r.guesses] for r in records],
                    "answers": [[[fb.black, fb.white] for fb in r.feedbacks] for r in records]})
        return 0
    for r in records[:SHOWN_GAMES]:
        out.print(f"{r.n_guesses} guess{'es' if r.n_guesses != 1 else ''}: {moves_text(game, r.guesses, r.feedbacks)}")
    if runs > SHOWN_GAMES:
        out.print(f"... and {runs - SHOWN_GAMES} more (--json lists every game)")
    out.print(f"{strategy.spec} against {args.codemaker} on {game}: mean {sum(guesses) / runs:.4f} over {runs} "
              f"game{'s' if runs != 1 else ''}, worst {max(guesses)}" + ("" if strategy.deterministic else f", seed {seed}"))
    return 0



#: A plan estimated to take longer (in seconds) is refused rather than started.
LONGEST_PLAN = 7 * 86400
#: With --time-limit, a plan's unstoppable part estimated to pass the limit and this many seconds is warned of.
UNSTOPPABLE_NOTED = 10


def cmd_plan(args: argparse.Namespace) -> int:
    _load_engine()
    with loading():
        from rich.table import Table

        from mmlab.cli.output import out
        from mmlab.planners import make_planner

    game = game_of(args)
    planner = make_planner(args.planner)
    planner.check(game)  # before the warning: a game it refuses takes no time
    if args.output == "-":
        raise MastermindError("plan -o -: plan prints its own table (or with --json its figures) on standard output; "
                              "save the tree to a file, e.g. -o tree.json, and print it with 'mmlab tree --tree "
                              "tree.json'")
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
        stop = ("; --time-limit SECONDS stops it early with the best tree found" if floor is None
                else f"; --time-limit SECONDS stops it early with the best tree found, once its greedy tree is "
                     f"complete (about {_duration(floor)})" if floor < estimate
                else "; it completes its greedy tree whatever --time-limit says")
        print(f"mmlab plan: warning: {planner.spec} on {game} may take about {_duration(estimate)} {guess}{stop}",
              file=sys.stderr)
    elif floor is not None and floor > (60 if args.time_limit is None else max(UNSTOPPABLE_NOTED, args.time_limit)):
        print(f"mmlab plan: warning: {planner.spec} on {game} first completes its greedy tree whatever "
              f"--time-limit says, which may take about {_duration(floor)} {guess}", file=sys.stderr)
    with progress(f"planning {planner.spec}", 1, percent=True) as update:
        result = planner.plan(game, on_progress=lambda done, total: update(done, total), time_limit=args.time_limit)
    form = None if args.output is None else _save_tree(result.tree, args.output)
    if args.json:
        print_json({**result.to_dict(), **({"saved_to": args.output, "saved_format": form} if form else {})})
        return 0
    t = result.tree
    proof = "proved" if result.proved else ("stopped by the time limit" if result.figures.get("stopped_by_time_limit")
                                            else "not proved (heuristic)")
    figures = {"L": str(t.total_guesses), "mean": f"{t.mean:.4f}", "worst": str(t.worst),
               "histogram": histogram_text(t.histogram), "nodes": str(result.nodes), "seconds": f"{result.seconds:.2f}",
               "optimal": proof}

    def plan_table(histogram: bool) -> Table:
        table = Table(title=f"{game}: {planner.spec}")
        columns = {k: v for k, v in figures.items() if histogram or k != "histogram"}
        for col in columns:
            table.add_column(col, justify="right")
        table.add_row(*columns.values())
        return table

    table = plan_table(histogram=True)
    if fits(table, out):
        out.print(table)
    else:  # (an 80-column terminal wrapped the histogram and the verdict in a squeezed table): beneath, as eval
        out.print(plan_table(histogram=False))
        out.print(f"histogram (guesses:games) {figures['histogram']}")
    for key, value in result.figures.items():
        if key != "stopped_by_time_limit":  # (the table says so)
            out.print(f"{key.replace('_', ' ')}: {value}")
    if args.output:
        play = (f"evaluate it: mmlab eval --tree {args.output}; play against it: mmlab play --role codemaker "
                f"--tree {args.output}" if form == "json"
                else f"{form}: only a JSON tree plays back with eval --tree, e.g. -o tree.json")
        out.print(f"tree saved to {args.output} ({play})")
    return 0



def _duration(seconds: float) -> str:
    """``seconds`` in the unit a person would say; never ``"0 s"``.

    >>> _duration(0.07), _duration(90), _duration(300), _duration(3 * 86400)
    ('1 s', '90 s', '5 minutes', '3 days')
    """
    if seconds < 120:
        return f"{max(seconds, 1):.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} hours"
    if seconds < 2 * 365 * 86400:
        return f"{seconds / 86400:.0f} days"
    return f"{seconds / (365 * 86400):,.0f} years"



def _write(path: str, text: str) -> None:
    with _writing(path) as file:
        file.write(text)


@contextlib.contextmanager
def _writing(path: str) -> Iterator[TextIO]:
    """``path`` opened for writing text; an error of the system's names the file in one line."""
    try:
        with open(path, "w", newline="") as file:
            yield file
    except OSError as e:
        raise MastermindError(f"cannot write {path}: {e.strerror or e}") from None


def _check_output(path: str | None, option: str = "-o", example: str = "tree.json") -> None:
    """Refuse an output path that cannot be written before the work that would fill it: an empty
    one, a folder, or one in a folder that does not exist or cannot be written."""
    if path is None:
        return
    target = Path(path)
    if not path or target.is_dir():
        raise MastermindError(f"{option} {path!r}: give a file to write, e.g. {option} {example}")
    folder = target.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise MastermindError(f"cannot write {path}: {'no such folder' if not folder.is_dir() else 'not allowed'}")



def _secret_count(text: str) -> int:
    """``--secrets N`` (or ``sample:N``) of ``eval``: a whole number from 1 to ``MAX_SECRETS``."""
    from mmlab.experiments.secret_sets import MAX_SECRETS

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



def add_commands(command) -> None:
    """Register ``eval``, ``partition``, ``tree`` and ``plan`` with the parser's ``command(name, help, func)``."""
    p = command("eval", help_of("eval"), cmd_eval)
    add_game_args(p, optional=True)
    p.add_argument("--strategy", help="strategy spec (default knuth)")
    p.add_argument("--tree", metavar="FILE", help="evaluate a saved decision tree (JSON from 'mmlab tree' or 'mmlab "
                                                   "plan') instead; - reads it from standard input")
    p.add_argument("--secrets", default="all",
                   help="'all' (default), or N or sample:N: a random sample of N secrets (instance sets: compare)")
    p.add_argument("--runs", type=count, default=1, help="games per secret for random strategies (default 1; a "
                                                          "deterministic strategy plays one, the same every run)")
    p.add_argument("--seed", type=seed_arg, help="seed for random strategies and samples (default: drawn and printed); "
                                                 "game (run, secret) draws from [seed, run, secret], so on a sample "
                                                 "a random strategy plays other games than compare, whose games draw "
                                                 "by the secret's slot")
    p.add_argument("--jobs", type=int_at_least(1, "--jobs"),
                   help="worker processes for random strategies (default: one per core in games of more than "
                        f"{PARALLEL_MIN_CODES:,} codes when the games would take more than a few seconds, else "
                        "one); the games are the same for any number")
    p.add_argument("--codemaker", metavar="SPEC",
                   help="who answers: random secrets (default: every secret), fixed:CODE, adversary (keeps the "
                        "largest class of codes open: dynamic Mastermind) or adversary:mode=worst (follows the "
                        "strategy's decision tree to its worst case)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--games", metavar="FILE",
                   help="also write one row per game to FILE, .csv or .jsonl (JSON lines), in the order played "
                        "(run by run, each run's secrets in code order): run (from 0), secret, guesses, known "
                        "(guesses until the code was known), evaluations (codes checked or scored), seconds (on "
                        "one core; empty for games read off a decision tree), fallbacks (guesses played when a "
                        "search found no consistent code)")

    p = command("partition", help_of("partition"), cmd_partition)
    add_game_args(p)
    p.add_argument("guess", help="the guess to examine, e.g. 1123")
    p.add_argument("--after", action="append", default=[], metavar="GUESS:B,W",
                   help="an earlier guess and its answer, e.g. 1122:1,1 (repeatable)")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = command("tree", help_of("tree"), cmd_tree)
    add_game_args(p, optional=True)
    p.add_argument("--strategy", help="strategy spec (default knuth)")
    p.add_argument("--tree", metavar="FILE", help="print a saved tree (from tree -o or plan -o) instead; - reads it "
                                                   "from standard input")
    p.add_argument("--format", choices=("json", "dot", "knuth", "python"),
                   help="default: the -o file's by its extension (.json, .dot or .gv, .py, .txt for knuth), else "
                        "json. json (loadable), dot (Graphviz), python (a generated player), or knuth: Knuth's "
                        "notation n(guess: a1, ..., ak), n the codes left, one entry per answer from all "
                        "black to 0,0 (4 pegs, 3 colours or more: 4,0 3,0 2,2 2,1 2,0 1,3 1,2 1,1 1,0 0,4 0,3 0,2 0,1 0,0): * "
                        "the guess wins, - no code gives it, 1(code) the last code, else the next node")
    p.add_argument("-o", "--output", help="write to this file instead of standard output (- : standard output)")

    p = command("plan", help_of("plan"), cmd_plan)
    add_game_args(p)
    p.add_argument("--planner", default="tpoa:k=1,d=1,hash=e",
                   help="planner spec, e.g. tpoa:variant=star,k=5,d=2,hash=e (default tpoa:k=1,d=1,hash=e) or "
                        "optimal:objective=worst; 'mmlab strategies tpoa' or 'mmlab strategies optimal' explains "
                        "their parameters")
    p.add_argument("-o", "--output", help="save the tree to this file, in the format of its extension as tree -o "
                                          "(.json, .dot or .gv, .py, .txt for knuth; else JSON); only JSON plays "
                                          "back with 'eval --tree' or 'play --tree'")
    p.add_argument("--time-limit", type=positive(float, "--time-limit"), metavar="SECONDS",
                   help="stop after this long and return the best tree found (optimal: with the bound proved so "
                        "far); the first, greedy tree is always completed")
    p.add_argument("--json", action="store_true", help="print JSON")
