"""``mmlab mathmind``: Mastermind with Reddi's answers (higher/lower pegs, or a distance), evaluated exactly."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mmlab.cli.arguments import HelpFormatter, int_at_least, listed, seed_arg
from mmlab.cli.commands import help_of
from mmlab.cli.entry import loading
from mmlab.cli.output import (
    histogram_text,
    print_json,
    progress,
    running_total,
    spinner,
)
from mmlab.errors import BadArgument, SearchFailed, did_you_mean, shown

if TYPE_CHECKING:
    from mmlab.play.mathmind import MathMindSession
    from mmlab.variants.mathmind import Evaluation, MathMind

#: ``mmlab.variants.mathmind.FEEDBACKS`` and ``RULES``, for the options' help: importing them loads
#: the kernels (numba); ``tests/cli/test_mathmind_command.py`` checks that the copies agree.
FEEDBACK_NAMES = ("higher-lower", "euclidean", "manhattan", "black-white")
RULE_NAMES = ("knuth", "irving", "most-parts", "entropy")
#: ``mmlab.variants.mathmind.OPTIMUM_NODES``, copied for the same reason.
OPTIMUM_NODES = 2_000_000
#: The --max-nodes a search known to pass the default needs, said when it is not found (measured:
#: 4x4 under the Manhattan distance searches 7,800,938 sets, 1.2 GB, 2-3 minutes on 2 cores).
_NEEDS = {("4x4", "manhattan"): "4x4 under the Manhattan distance needs --max-nodes 8000000, 1.2 GB"}


def _needs(mm: MathMind) -> str | None:
    """What --max-nodes ``mm``'s optimum needs, when it is known to pass the default."""
    return _NEEDS.get((mm.game.size, mm.feedback)) if mm.game.repeats else None


EXAMPLES = """\
examples:
  mmlab mathmind compare 4x6                       every answer rule x every exhaustive rule, every secret,
                                                   beside the standard game (about 1.5 s)
  mmlab mathmind compare 5x8 --feedback higher-lower --rules knuth,entropy   about 30 s a rule, and 60 s
                                                   for the standard game's beside it (3 minutes in all)
  mmlab mathmind compare 3x6 --optimum              ... and the least L any strategy reaches, proved (at
                                                   most 256 codes: 3x6, 4x4; about 20 s)
  mmlab mathmind play 4x6 --feedback higher-lower --secret 3632   watch Knuth's rule find 3632
  mmlab mathmind play 3x6 --feedback euclidean --rule optimum      ... or the best possible play find a
                                                   random secret (the tree is searched first: 1 s)
  mmlab mathmind two-answers 4x6 --feedback euclidean   can two answers always name the secret? (about
                                                   a minute; 5x8 about half an hour)
  mmlab mathmind guess 4x6 --feedback euclidean     you guess mmlab's secret, told its distance

answers (Reddi 2002, in 003 section 2.3, item 5; colours are the values 1..m):
  higher-lower  black pegs, then of the other pegs how many must go up in value; the rest go down
  euclidean     the squared Euclidean distance between guess and secret (the distance is its root)
  manhattan     the sum of the pegs' differences
  black-white   the standard game, for comparison
Every rule plays the best code under its score of the partition the answers make, consistent codes
first, then the lowest, as mmlab's exhaustive strategies do; L is the guesses summed over every secret.
"""


#: What 5x8's 32,768 codes cost the subcommands that play every secret, said when a game is refused.
COSTS = {"compare": "5x8's 32,768 take about 30 s a rule on 2 cores",
         "two-answers": "5x8's 32,768 take about half an hour on 2 cores, 4x6's 1,296 about a minute"}


def _mathmind(args: argparse.Namespace, feedback: str) -> MathMind:
    from mmlab.errors import BadSize
    from mmlab.game import Game
    from mmlab.variants.mathmind import MathMind

    game = Game.parse_size(args.size, repeats=not args.no_repeats)
    try:
        return MathMind(game, feedback)
    except BadSize as e:
        cost = COSTS.get(args.mathmind_command)
        raise BadSize(f"{e} ({cost})" if cost else str(e)) from None


def _secret(args: argparse.Namespace, mm: MathMind) -> tuple[int, int | None]:
    """The secret of ``--secret``, or one drawn from ``--seed`` (drawn itself when not given), and that seed."""
    import numpy as np

    from mmlab.experiments.evaluation import draw_seed

    if args.secret is not None:
        if args.seed is not None:
            raise BadArgument("--seed draws the secret, and --secret gives it: give one of them")
        return mm.game.parse(args.secret), None
    seed = args.seed if args.seed is not None else draw_seed()
    return int(np.random.default_rng(seed).integers(mm.game.n_codes)), seed


def _load() -> None:
    with loading():
        import mmlab.variants.mathmind  # noqa: F401


def cmd_compare(args: argparse.Namespace) -> int:
    """Each answer rule's exhaustive rules over every secret, with the standard game's figure beside each."""
    _load()
    from rich.table import Table

    from mmlab.cli.output import out

    feedbacks = listed(args.feedback, "--feedback", list(FEEDBACK_NAMES))
    rules = listed(args.rules, "--rules", list(RULE_NAMES))
    for names, known, what in ((feedbacks, FEEDBACK_NAMES, "--feedback"), (rules, RULE_NAMES, "--rules")):
        unknown = [name for name in names if name not in known]
        if unknown:
            raise BadArgument(f"{what}: unknown {shown(unknown[0])}{did_you_mean(unknown[0], known)}; choose from "
                              f"{', '.join(known)}")
    max_nodes = _budget(args, args.optimum, "--optimum")
    plays = ["black-white", *[f for f in feedbacks if f != "black-white"]]  # (the standard game first: the reference)
    games = {f: _mathmind(args, f) for f in plays}
    game = games["black-white"].game
    n = game.n_codes
    results: dict[tuple[str, str], Evaluation | None] = {}
    # the standard game's optimum only when its row is asked for: it is searched for no other figure
    searched = feedbacks if args.optimum else []
    for f in searched:  # (first: a game too large for it is refused before any work)
        results[f, "optimum"] = _optimum(games[f], max_nodes)
    with progress(f"mathmind {game}", n * len(plays) * len(rules)) as bar:
        found = running_total(bar)
        for f in plays:
            for rule in rules:
                results[f, rule] = games[f].evaluate(rule, progress=found)
    shown_rules = [*rules, "optimum"] if args.optimum else rules

    def standard(rule: str) -> Evaluation | None:
        return results.get(("black-white", rule))

    def gap(f: str, rule: str) -> float | None:
        r, reference = results[f, rule], standard(rule)
        return None if f == "black-white" or r is None or reference is None else r.mean - reference.mean

    if args.json:
        print_json([{**(r.to_dict() if r is not None else _unsolved(games[f], max_nodes)),
                     "standard_mean": None if f == "black-white" or standard(rule) is None else standard(rule).mean,
                     "mean_minus_standard": gap(f, rule)}
                    for f in feedbacks for rule in shown_rules for r in [results[f, rule]]])
        return 0
    table = Table(title=f"MathMind {game}: every secret, exactly (Reddi 2002, in 003 section 2.3)")
    for col in ("answers", "rule", "first", "L", "mean", "vs standard", "worst", "guesses: secrets", "seconds"):
        table.add_column(col, justify="left" if col in ("answers", "rule", "guesses: secrets") else "right")
    sets = f"{max_nodes:,} set{'s' * (max_nodes != 1)}"
    for f in feedbacks:
        for rule in shown_rules:
            r, g = results[f, rule], gap(f, rule)
            if r is None:
                table.add_row(f, rule, "", f"not found within {sets} (--max-nodes)", *[""] * 5)
                continue
            vs = "" if g is None else f"{g:+.4f}"
            table.add_row(f, rule, game.format(r.first), str(r.total), f"{r.mean:.4f}", vs, str(r.worst),
                          histogram_text(r.histogram()), f"{r.seconds:.2f}")
        table.add_section()
    out.print(table)
    means = "" if "black-white" in feedbacks else " (" + ", ".join(
        f"{rule} {standard(rule).mean:.4f}" for rule in rules) + ")"
    out.print(f"vs standard: the mean minus the standard game's (black-white) under the same rule{means}; below 0 "
              "is easier.")
    if args.optimum:
        out.print("optimum: the least L of any strategy, any code a guess, found by exhaustive branch and bound; "
                  "its worst case is that of the tree found.")
        if "black-white" not in feedbacks:
            out.print("The optimum's vs standard is blank: the standard game's optimum is searched only when "
                      "--feedback lists black-white.")
        for f in feedbacks:
            if results[f, "optimum"] is None and _needs(games[f]):
                out.print(f"{_needs(games[f])}.")
        if "black-white" in feedbacks and results["black-white", "optimum"] is None:
            out.print(f"The optimum's vs standard is blank: the standard game's optimum was not found within {sets} "
                      "(--max-nodes).")
    return 0


def _optimum(mm: MathMind, max_nodes: int) -> Evaluation | None:
    """``mm``'s optimum within ``max_nodes`` sets, under a spinner counting the sets searched."""
    with spinner(_searching(mm, 0, max_nodes)) as say:
        return mm.optimum(max_nodes, progress=lambda k: say(_searching(mm, k, max_nodes)))


def _searching(mm: MathMind, sets: int, max_nodes: int) -> str:
    """The spinner's line while the optimum's tree is searched, ``sets`` sets searched so far."""
    return (f"mathmind {mm.game}, {mm.feedback} answers: searching the optimum's tree ({sets:,} sets searched, at "
            f"most {max_nodes:,})")


def _unsolved(mm: MathMind, max_nodes: int) -> dict:
    """The JSON of an optimum not found within ``max_nodes`` sets."""
    return {"size": mm.game.size, "repeats": mm.game.repeats, "feedback": mm.feedback, "rule": "optimum",
            "total": None, "max_nodes": max_nodes}


def _player(rule: str) -> str:
    """Who plays ``rule``, in words: "knuth's rule", or "the optimum's tree"."""
    return "the optimum's tree" if rule == "optimum" else f"{rule}'s rule"


def _budget(args: argparse.Namespace, searched: bool, option: str) -> int:
    """``--max-nodes``, or the default; refused when no optimum is ``searched`` (it needs ``option``)."""
    if args.max_nodes is not None and not searched:
        raise BadArgument(f"--max-nodes bounds the optimum's search: give {option} with it")
    return OPTIMUM_NODES if args.max_nodes is None else args.max_nodes


def _search_optimum(args: argparse.Namespace, mm: MathMind) -> None:
    """For ``--rule optimum``, search its tree now (kept for the game), under a spinner; refuse
    ``--max-nodes`` with another rule."""
    budget = _budget(args, args.rule == "optimum", "--rule optimum")
    if args.rule != "optimum":
        return
    with spinner(_searching(mm, 0, budget)) as say:
        try:
            mm.optimum_tree(budget, progress=lambda k: say(_searching(mm, k, budget)))
        except SearchFailed:
            raise SearchFailed(f"the optimum of {mm.game} under {mm.feedback} answers was not found within "
                               f"{budget:,} set{'s' * (budget != 1)} of codes: give --max-nodes N with a larger N"
                               + (f" ({_needs(mm)})" if _needs(mm) else "")) from None


def cmd_play(args: argparse.Namespace) -> int:
    """One game of a rule under MathMind's answers, every guess with its answer."""
    _load()
    from mmlab.cli.output import out

    mm = _mathmind(args, args.feedback)
    secret, seed = _secret(args, mm)
    _search_optimum(args, mm)
    with spinner(f"mathmind {mm.game}, {args.feedback} answers: {args.rule} playing", enabled=True):
        moves = mm.play(args.rule, secret)
    if args.json:
        print_json({"size": mm.game.size, "repeats": mm.game.repeats, "feedback": args.feedback, "rule": args.rule,
                    "secret": mm.game.format(secret), "seed": seed,
                    "moves": [{"guess": mm.game.format(g), "answer": a, "said": mm.describe(a)} for g, a in moves]})
        return 0
    drawn = f" (drawn with seed {seed}: --seed {seed} plays it again)" if seed is not None else ""
    out.print(f"{mm.game}, {args.feedback} answers, {_player(args.rule)}: secret {mm.game.format(secret)}{drawn}")
    for k, (guess, said) in enumerate(moves, 1):
        out.print(f"  guess {k}: {mm.game.format(guess)}  {mm.describe(said)}")
    out.print(f"solved in {len(moves)} guess{'es' if len(moves) != 1 else ''}")
    return 0


GUESS_HELP = ("Type a guess (e.g. {example}, or in letters, A = 1); after each answer mmlab says how many "
              "codes still fit. "
              "Commands: 'hint' ({hints}'s next guess, and how it splits the codes left), 'candidates' (the codes "
              "left, when 50 or fewer), 'undo', 'history' (your guesses and their answers), 'give-up' (the secret, "
              "and how {player} finds it), 'help', 'quit'.")


def cmd_guess(args: argparse.Namespace) -> int:
    """You guess mmlab's secret, answered by MathMind's rule (003: the distance "would provide an
    interesting challenge to a human player"). Exits 0 on a win, 1 otherwise."""
    _load()
    from mmlab.cli.output import out
    from mmlab.errors import MastermindError
    from mmlab.play.mathmind import MathMindSession
    from mmlab.play.stopping import Stopped, stoppable
    from mmlab.play.terminal import QUIT_WORDS, Dialogue, not_a_guess, stopped_text

    mm = _mathmind(args, args.feedback)
    game = mm.game
    secret, seed = _secret(args, mm)
    _search_optimum(args, mm)  # (before the game: the comparison at its end then takes no time)
    session = MathMindSession(mm, secret)
    again = f" (--seed {seed} plays this secret again)" if seed is not None else ""
    dialogue = Dialogue(game, console=out)
    example = game.format(game.index_of(i % game.colours for i in range(game.pegs)))  # 1234, 12312, ...
    hints = args.rule if args.rule != "optimum" else "the optimum"
    follows = f"{args.rule}'s rule" if args.rule != "optimum" else "the optimum"
    budget = _budget(args, True, "--rule optimum")
    help_text = GUESS_HELP.format(example=example, player=_player(args.rule), hints=hints)
    out.print(f"MathMind {game}, {args.feedback} answers: mmlab keeps a secret of colours 1..{game.colours}. "
              + help_text)

    def reveal(verb: str) -> None:
        computer = session.rule_guesses(args.rule)
        out.print(f"{verb} The secret was {game.format(secret)}; {_player(args.rule)} finds it in {computer} "
                  f"guess{'es' if computer != 1 else ''}{again}.")

    try:
        while True:
            line = dialogue.ask(f"guess {len(session.moves) + 1}> ")
            if line is None or line.lower() in QUIT_WORDS:
                reveal("Game left unfinished.")
                return 1
            if not line:
                continue
            if line.lower() in ("help", "?"):
                out.print(help_text)
                continue
            if line.lower() in ("give-up", "giveup", "give up"):
                reveal("You gave up.")
                return 1
            command, *rest = line.lower().split()
            if command in ("hint", "candidates", "undo", "history"):
                if rest:  # (as 'mmlab play' says it, but its 'hint STRATEGY' is --rule here)
                    out.print(f"Write '{command}' alone" + (f": the hints follow {follows} (--rule chooses it)."
                                                            if command == "hint" else "."), markup=False)
                    continue
                # a hint, or the list of codes, a spinner showing, is stopped by Ctrl-C, as in 'mmlab play'
                slow = {"hint": f"{follows} is {'searching' if args.rule == 'optimum' else 'choosing'} its "
                                "suggestion…",
                        "candidates": "Listing the codes that fit…"}
                try:
                    stoppable(lambda command=command: _guess_command(session, command, args.rule, budget),
                              dialogue.working(slow[command]) if command in slow else None,
                              lambda said: out.print(said, markup=False))
                except Stopped:
                    out.print(stopped_text(command))
                except MastermindError as e:
                    out.print(str(e), markup=False)
                continue
            if word := not_a_guess(game, line):
                out.print(word, markup=False)
                continue
            try:
                guess = game.parse(line)
            except MastermindError as e:
                out.print(f"{e} ('help' lists the commands)", markup=False)
                continue
            said = session.guess(guess)
            guesses = len(session.moves)
            if session.won:
                computer = session.rule_guesses(args.rule)
                out.print(f"{mm.describe(said)}: solved in {guesses} guess{'es' if guesses != 1 else ''}; "
                          f"{_player(args.rule)} needs {computer} for this secret{again}.")
                return 0
            left = session.remaining
            fit = f"{left:,} code{'s' if left != 1 else ''} fit{'s' if left == 1 else ''}"
            out.print(f"{game.format(guess)}: {mm.describe(said)}; {fit} the answers so far")
    except KeyboardInterrupt:  # (Ctrl-C leaves the game as 'quit' does, saying the secret)
        out.print(f"\nGame left unfinished. The secret was {game.format(secret)}{again}.")
        raise


def _guess_command(session: MathMindSession, command: str, rule: str, budget: int) -> str:
    """What ``guess``'s 'hint', 'candidates', 'undo' or 'history' says, done on ``session``; the hint
    is ``rule``'s (the optimum's within ``budget`` sets)."""
    from mmlab.play.terminal import fitting

    game = session.game
    if command == "history":
        rows = [f"  {k}. {game.format(guess)}  {session.describe(said)}; {fitting(left)}"
                for k, ((guess, said), left) in enumerate(zip(session.moves, session.counts()[1:]), 1)]
        return "\n".join(rows) or "no guesses yet"
    if command == "undo":
        guess, said = session.moves[-1] if session.moves else (None, None)
        session.undo()
        left = session.remaining
        return (f"Took back {game.format(guess)} ({session.describe(said)}); {left:,} code{'s' * (left != 1)} "
                f"fit{'s' * (left == 1)} the answers so far")
    if command == "candidates":
        codes = session.candidates(50)
        return f"{len(codes)} code{'s' * (len(codes) != 1)} left: " + " ".join(game.format(c) for c in codes)
    if rule == "optimum":
        guess = _optimum_move(session, budget)
        table, who = session.partition(guess), "the optimum"
    else:
        table, who = session.hint(rule, options=1).options[0], f"{rule}'s rule"
        guess = table["guess"]
    n, parts = table["candidates"], table["parts"]
    return (f"{who} would play {game.format(guess)}: it splits the {n:,} code{'s' * (n != 1)} "
            f"left into {parts} part{'s' * (parts != 1)}, the largest of {table['largest']:,}"
            f"{'' if table['consistent'] else '; it cannot be the secret'}")


def _optimum_move(session: MathMindSession, budget: int) -> int:
    """The optimum's guess for the codes ``session`` has left: its tree's move while the guesses so far
    are the tree's for the secret, and off the tree the best play from there, searched within ``budget``
    sets."""
    mm = session.mathmind
    path = [int(g) for g in mm.optimum_tree(budget).paths[session.secret] if g >= 0]  # (kept: searched already)
    played = [guess for guess, _ in session.moves]
    if played == path[:len(played)]:
        return path[len(played)]
    guess = mm.optimum_guess(session.left, budget)
    if guess is None:
        raise SearchFailed(f"the optimum's guess from here was not found within {budget:,} set{'s' * (budget != 1)} "
                           "of codes: give --max-nodes N with a larger N")
    return guess


def cmd_two_answers(args: argparse.Namespace) -> int:
    """Which first guesses let some second guess split every answer class into single secrets."""
    _load()
    from mmlab.cli.output import out

    mm = _mathmind(args, args.feedback)
    with progress(f"mathmind {mm.game}, {args.feedback} answers: first guesses", mm.game.n_codes) as bar:
        firsts = mm.two_answer_firsts(progress=running_total(bar))
    codes = [mm.game.format(c) for c in firsts]
    if args.json:
        print_json({"size": mm.game.size, "repeats": mm.game.repeats, "feedback": args.feedback,
                    "two_answers_suffice": bool(codes), "first_guesses": codes})
        return 0 if codes else 1
    if codes:
        listed_codes = " ".join(codes[:20]) + (f" … ({len(codes)} in all)" if len(codes) > 20 else "")
        out.print(f"{mm.game}, {args.feedback} answers: two answers name every secret after {len(codes)} first "
                  f"guess{'es' if len(codes) != 1 else ''}: {listed_codes}. The secret is then guessed third at the latest.")
        return 0
    out.print(f"{mm.game}, {args.feedback} answers: no first guess lets two answers name every secret (after each, "
              "some answer leaves secrets that no second guess tells apart), so some secret needs a fourth guess.")
    return 1


def _no_subcommand(args: argparse.Namespace) -> int:
    from mmlab.cli.output import err

    err.print("mmlab mathmind: choose 'compare', 'play', 'two-answers' or 'guess' (see mmlab mathmind --help)")
    return 2


def _game_args(p: argparse.ArgumentParser, json: bool = True) -> None:
    p.add_argument("size", help="game size PEGSxCOLOURS, e.g. 4x6 (at most 65,536 codes)")
    p.add_argument("--no-repeats", action="store_true", help="codes may not repeat a colour")
    if json:
        p.add_argument("--json", action="store_true", help="print JSON instead of text")


def _max_nodes_arg(p: argparse.ArgumentParser) -> None:
    """``--max-nodes`` of ``play`` and ``guess``, for their ``--rule optimum``."""
    p.add_argument("--max-nodes", type=int_at_least(1, "--max-nodes"),
                   help=f"with --rule optimum: sets of codes its search may hold, some 200 MB a million (default "
                        f"{OPTIMUM_NODES:,}; 4x4 under the Manhattan distance needs 8000000)")


def add_command(command) -> None:
    """Register ``mmlab mathmind`` with the parser's ``command(name, help, func)``."""
    p = command("mathmind", help_of("mathmind"), _no_subcommand)
    p.epilog = EXAMPLES
    sub = p.add_subparsers(dest="mathmind_command", metavar="SUBCOMMAND")
    kinds = ", ".join(FEEDBACK_NAMES)
    c = sub.add_parser("compare", help="every secret under each answer rule, beside the standard game",
                       description="Play the exhaustive rules against every secret under MathMind's answers and "
                                   "print L, mean, worst case and the guesses' histogram, with each mean beside the "
                                   "standard game's under the same rule.",
                       epilog=EXAMPLES, formatter_class=HelpFormatter)
    c.set_defaults(func=cmd_compare)
    _game_args(c)
    c.add_argument("--feedback", help=f"comma-separated answer rules (known: {kinds}; default all)")
    c.add_argument("--rules", help=f"comma-separated exhaustive rules (known: {', '.join(RULE_NAMES)}; default all)")
    c.add_argument("--optimum", action="store_true",
                   help="also the least L any strategy reaches under each answer rule, found by exhaustive branch "
                        "and bound (games of at most 256 codes: 3x6 and 4x4 take seconds a rule within the default "
                        "--max-nodes; 4x4's Manhattan distance 2-3 minutes and --max-nodes 8000000, 7.8 million sets, "
                        "1.2 GB; 2 pegs and many colours far longer, 2x16 under the standard answers 11 minutes and "
                        "more sets than the default, how many not measured)")
    c.add_argument("--max-nodes", type=int_at_least(1, "--max-nodes"),
                   help=f"sets of codes the optimum's search may hold, some 200 MB a million (default "
                        f"{OPTIMUM_NODES:,}; 4x4 under the Manhattan distance needs 8000000); past them the row "
                        "says it was not found")

    q = sub.add_parser("play", help="watch one game: every guess with its answer",
                       description="Play one game of an exhaustive rule under MathMind's answers and print each "
                                   "guess with its answer.", epilog=EXAMPLES, formatter_class=HelpFormatter)
    q.set_defaults(func=cmd_play)
    _game_args(q)
    q.add_argument("--feedback", default="higher-lower", choices=FEEDBACK_NAMES,
                   help="the answer rule (default higher-lower)")
    q.add_argument("--rule", default="knuth", choices=(*RULE_NAMES, "optimum"),
                   help="the exhaustive rule (default knuth), or 'optimum': the tree of least L (games of at most "
                        "256 codes; searched first, see compare --optimum)")
    _max_nodes_arg(q)
    q.add_argument("--secret", help="the secret, e.g. 3632 (default: drawn at random)")
    q.add_argument("--seed", type=seed_arg, help="seed of the random secret (default: drawn and printed)")

    g = sub.add_parser("guess", help="you guess mmlab's secret, answered by MathMind's rule",
                       description="Guess a secret mmlab keeps; each guess is answered by higher/lower pegs or a "
                                   "distance, with the number of codes that still fit. Exits 0 on a win, 1 otherwise.",
                       epilog=EXAMPLES, formatter_class=HelpFormatter)
    g.set_defaults(func=cmd_guess)
    _game_args(g, json=False)
    g.add_argument("--feedback", default="euclidean", choices=FEEDBACK_NAMES,
                   help="the answer rule (default euclidean)")
    g.add_argument("--rule", default="knuth", choices=(*RULE_NAMES, "optimum"),
                   help="the rule mmlab compares your game with at the end and whose next guess 'hint' gives "
                        "(default knuth; 'optimum', the tree of least L, is searched before the game, for games of at "
                        "most 256 codes: its hints are the tree's moves, and off the tree the best play from there)")
    _max_nodes_arg(g)
    g.add_argument("--secret", help="the secret, to practise (default: drawn at random)")
    g.add_argument("--seed", type=seed_arg, help="seed of the random secret (default: drawn and printed at the end)")

    t = sub.add_parser("two-answers", help="can two answers always name the secret?",
                       description="Check every first guess: does some second guess, chosen after its answer, "
                                   "give each secret left an answer of its own? Guesses are codes of the game. "
                                   "Exits 0 when some first guess does, 1 when none does. 4x6 takes about a minute "
                                   "on 2 cores, 5x8 about half an hour.",
                       epilog=EXAMPLES, formatter_class=HelpFormatter)
    t.set_defaults(func=cmd_two_answers)
    _game_args(t)
    t.add_argument("--feedback", default="euclidean", choices=FEEDBACK_NAMES,
                   help="the answer rule (default euclidean, the one Reddi discussed)")
