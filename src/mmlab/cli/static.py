"""``mmlab static``: static Mastermind (every guess at once, then the secret): verify a set, search for one."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mmlab.cli.arguments import HelpFormatter, positive, seed_arg
from mmlab.cli.commands import help_of
from mmlab.cli.entry import loading
from mmlab.cli.output import print_json, progress, spinner
from mmlab.errors import counted_guesses

if TYPE_CHECKING:
    from mmlab.game import Game
    from mmlab.variants.static import ExhaustiveResult, SearchResult

EXAMPLES = """\
examples:
  mmlab static verify 4x6 1221 2354 3311 4524 5656 6643   Greenwell's set: separates, 7 guesses in all
  mmlab static verify 4x6 1122 3344 --json                 two secrets it cannot tell apart, as JSON
  mmlab static search 4x6 --size 6 --seed 1                a separating set of 6 codes
  mmlab static search 4x4 --prove                          the smallest it finds, and a proof that one
                                                           guess fewer cannot separate (small games)
  mmlab static search 3x3 --size 2 --prove --time-limit 1  none exists: every set of 2 checked

verify exits with 0 when the set separates every secret, 1 when it does not, 2 on bad input;
search exits with 0 when it (or --prove's check) finds a separating set, 1 when not, 2 on bad input.
A set of k separating guesses wins static Mastermind in k + 1 guesses: the set, then the secret.
The --time-limit counts the search itself: building the code tables and loading the kernels come
first, and a game too large to search in that time is refused at once.
"""

#: Setup (code tables, kernels) at least this long is mentioned beside the search time.
NOTABLE_SETUP = 0.5


def search(*args, **kwargs) -> SearchResult:
    """``mmlab.variants.static.search``, imported when the command runs (its kernels load numba), so
    that ``static --help`` loads none of it."""
    from mmlab.variants import static

    return static.search(*args, **kwargs)


def exhaustive(*args, **kwargs) -> ExhaustiveResult:
    """``mmlab.variants.static.exhaustive``, imported when the command runs, as ``search``."""
    from mmlab.variants import static

    return static.exhaustive(*args, **kwargs)


def _game(args: argparse.Namespace) -> Game:
    from mmlab.game import Game

    return Game.parse_size(args.size, repeats=not args.no_repeats,
                           feedback="black" if args.black_only else "black-white")


def _s(k: int) -> str:
    """The verb's ending after ``k`` things: 'separate' + _s(1) is 'separates'."""
    return "s" if k == 1 else ""


def cmd_verify(args: argparse.Namespace) -> int:
    from mmlab.cli.output import out
    from mmlab.variants.static import separates

    game = _game(args)
    # (seconds on the largest games: 8x8's 16.8 million secrets take about 15 s)
    guesses = counted_guesses(len(args.codes))
    with spinner(f"static verify {game}: the answers of {game.n_codes:,} secrets to {guesses}"):
        ok, details = separates(game, args.codes)
    if args.json:
        print_json(details.to_dict())
        return 0 if ok else 1
    codes = game.format_all(details.codes)
    n = game.n_codes
    if ok:
        out.print(f"{game}: {codes} separate{_s(len(details.codes))} all {n} secrets ({details.n_classes} answer "
                  "classes).")
        these = "this one" if len(details.codes) == 1 else f"these {len(details.codes)}"
        out.print(f"Static Mastermind is won in {details.guesses_to_win} guesses: {these}, then the secret.")
        return 0
    a, b = (game.format(s) for s in details.collision)
    answers = "; ".join(f"{game.format(g)} -> {fb}" for g, fb in zip(details.codes, details.shared_said, strict=False))
    verb = "does" if len(details.codes) == 1 else "do"
    out.print(f"{game}: {codes} {verb} not separate the {n} secrets: {details.n_classes} answer classes, "
              f"the largest holds {details.largest} secrets.")
    out.print(f"{a} and {b} get the same answers: {answers}")
    return 1


def _none_can_exist(game: Game, args: argparse.Namespace) -> int:
    """``--size`` below the counting bound: no set of that size can separate, so nothing is searched."""
    from mmlab.cli.output import out
    from mmlab.variants.static import SearchResult, below_bound, lower_bound

    why = below_bound(game, args.set_size)
    if args.json:  # (the shape of a search's JSON: no guesses, so one class, and nothing tried)
        nothing = SearchResult(game, (), n_classes=1, seconds=0.0, seed=args.seed, target=args.set_size)
        print_json({**nothing.to_dict(), "none_can_exist": why})
    else:
        out.print(f"{why[0].upper()}{why[1:]}. Nothing to search; --size {lower_bound(game)} or more may separate.")
    return 1


def cmd_search(args: argparse.Namespace) -> int:
    from mmlab.variants.static import lower_bound

    game = _game(args)
    if args.set_size is not None and args.set_size < lower_bound(game):
        return _none_can_exist(game, args)
    found: list[tuple[int, ...]] = []
    n = game.n_codes
    head = f"static search {game}, {args.time_limit:g} s of search"
    try:
        with spinner(f"{head}: building the code tables and loading the kernels first") as say:
            def started(setup: float) -> None:
                say(f"{head}: started", restart=True)

            def improved(k: int, classes: int) -> None:  # (the time shown is the search's)
                sizes = [len(codes) for codes in found] + ([k] if classes == n else [])
                smallest = f"; smallest separating set so far: {min(sizes)}" if sizes else ""
                say(f"{head}: {counted_guesses(k)} reach{_s(k)} {classes:,} of {n:,} answer classes{smallest}")

            result = search(game, size=args.set_size, seed=args.seed, time_limit=args.time_limit,
                            on_progress=improved, on_start=started, on_found=found.append)
    except KeyboardInterrupt:
        _interrupted(game, found, args)  # (once the spinner is gone)
        raise
    if args.json:
        data = result.to_dict()
        try:
            proof = _prove(game, result, args) if args.prove else None
        except KeyboardInterrupt:
            print_json({**data, "proof": None, "proof_interrupted": True})
            raise
        if proof is not None:
            data["proof"] = proof.to_dict()
        print_json(data)
        return 0 if result.separates or (proof is not None and proof.found is not None) else 1
    _print_search(game, result)
    proof = _prove(game, result, args) if args.prove else None  # (what the search found is printed first)
    return _print_verdict(game, result, proof, args)


def _interrupted(game: Game, found: list[tuple[int, ...]], args: argparse.Namespace) -> None:
    """Ctrl-C during the search: the smallest separating set found so far is not lost."""
    from mmlab.cli.output import out

    codes = [game.format(c) for c in found[-1]] if found else []
    if args.json:
        print_json({"game": game.size, "repeats": game.repeats, "feedback": game.feedback, "interrupted": True,
                    "separates": bool(found), "size": len(codes), "codes": codes})
    elif found:
        out.print(f"{game}: interrupted; the smallest separating set found so far holds {counted_guesses(len(codes))}: "
                  f"{' '.join(codes)}")


def _print_search(game: Game, result: SearchResult) -> None:
    """What the search found, or its best try."""
    from mmlab.cli.output import out

    codes = game.format_all(result.codes)
    n = game.n_codes
    setup = (f"; {result.setup_seconds:.1f} s of setup before the clock"
             if result.setup_seconds >= NOTABLE_SETUP else "")
    proved = result.proof if result.proof is not None and result.proof.proves_none else None

    def tried(k: int, ok: bool, seconds: float) -> str:
        if ok:
            return f"{k}: found in {seconds:.2f} s"
        if proved is not None and proved.size == k:
            return f"{k}: none exists, proved in {seconds:.2f} s"
        return f"{k}: not found in {seconds:.2f} s"

    sizes = ", ".join(tried(*t) for t in result.tried)
    if result.separates:
        out.print(f"{game}: {counted_guesses(result.size)} separate{_s(result.size)} all {n} secrets: {codes}")
        these = "this one" if result.size == 1 else f"these {result.size}"
        out.print(f"Static Mastermind is won in {result.guesses_to_win} guesses ({these}, then the secret). "
                  f"Found after {result.found_after:.2f} s of search with seed {result.seed} (sizes tried: "
                  f"{sizes}{setup}).")
        return
    leaves = "leaves" if result.size == 1 else "leave"
    if _settled_none(result):
        out.print(f"{proved.describe()[0].upper()}{proved.describe()[1:]}.")
    elif result.target is None or result.size < result.target:
        # the time ran out while the first set was still being chosen, one guess after another
        of = f"of {counted_guesses(result.target)} " if result.target is not None else ""
        out.print(f"{game}: no separating set {of}found in {result.seconds:.2f} s (seed {result.seed}{setup}): "
                  f"the time ran out after choosing {counted_guesses(result.size)}, {codes}, which {leaves} "
                  f"{result.n_classes} answer classes for {n} secrets.")
    else:
        out.print(f"{game}: no separating set of {counted_guesses(result.size)} found in {result.seconds:.2f} s "
                  f"(seed {result.seed}{setup}); the best, {codes}, leaves {result.n_classes} answer classes for "
                  f"{n} secrets.")


def _print_verdict(game: Game, result: SearchResult, proof: ExhaustiveResult | None,
                   args: argparse.Namespace) -> int:
    """The proof's outcome and what it means for the set found; advice only where nothing is settled."""
    from mmlab.cli.output import out
    from mmlab.variants.static import lower_bound

    shown = _settled_none(result)  # (printed by _print_search)
    if proof is not None:
        if not (shown and proof is result.proof):
            text = proof.describe()
            out.print(f"{text[0].upper()}{text[1:]}.")
        if result.separates and proof.found is not None:
            out.print(f"So {result.size} guesses are not the fewest: {counted_guesses(proof.size)} "
                      f"separate{_s(proof.size)} {game} "
                      f"({proof.size + 1} with the secret).")
        elif not result.separates and proof.found is not None:
            out.print(f"The check found a separating set of {counted_guesses(proof.size)} that the search missed.")
        elif not proof.complete:
            out.print(f"Give a longer --time-limit: the check gets its own --time-limit of {args.time_limit:g} s "
                      "after the search.")
        return 0 if result.separates or proof.found is not None else 1
    if not result.separates and not shown:
        if result.target is None or result.size < result.target:
            out.print("Give a longer --time-limit.")
        else:
            out.print("Try a longer --time-limit, another --seed or a larger --size; --prove checks every set "
                      "of this size.")
    proved = result.proof if result.proof is not None and result.proof.proves_none else None
    if result.separates and proved is not None and proved.size == result.size - 1:
        out.print(f"So {counted_guesses(result.size)} are the fewest that separate {game}: no set of {counted_guesses(proved.size)} "
                  "does (proved above).")
    elif proved is None:  # (a proof says more than the counting bound)
        out.print(f"Counting bound: at least {counted_guesses(lower_bound(game))} ({len(game.feedbacks())} possible answers "
                  "each).")
    return 0 if result.separates else 1


def _settled_none(result: SearchResult) -> bool:
    """The search found no set of the size asked for, and its own exhaustive check proved none exists."""
    proof = result.proof
    return not result.separates and proof is not None and proof.proves_none and proof.size == result.target


def _prove(game: Game, result: SearchResult, args: argparse.Namespace) -> ExhaustiveResult | None:
    """The exhaustive check behind ``--prove``: of one guess fewer than the set found, or of the
    size searched in vain (which settles it either way); None when there is nothing to check (a
    set of one guess, or the time ran out before a first set). A check the search itself completed
    at that size is used as it is."""
    if result.separates:
        size = result.size - 1
    elif result.target is not None:
        size = result.target
    else:  # (the time ran out before a first set: nothing to compare with)
        return None
    if size < 1:
        return None
    if result.proof is not None and result.proof.size == size:
        return result.proof
    # (no eta: the share is of the first guesses tried, whose subtrees differ by orders of magnitude)
    with progress(f"exhaustive check: {counted_guesses(size)} (at most {args.time_limit:g} s)", 1000, percent=True,
                  eta=False) as update:
        return exhaustive(game, size, time_limit=args.time_limit, on_progress=lambda f: update(int(1000 * f)))


def cmd_static(args: argparse.Namespace) -> int:
    if args.action is None:
        from mmlab.cli.output import err

        err.print("mmlab static: choose 'verify' or 'search' (see mmlab static --help)")
        return 2
    with loading():  # (the engine of static Mastermind: numba's kernels)
        import mmlab.game
        import mmlab.variants.static  # noqa: F401
    return {"verify": cmd_verify, "search": cmd_search}[args.action](args)


def _game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("size", help="game size PEGSxCOLOURS, e.g. 4x6")
    p.add_argument("--no-repeats", action="store_true", help="codes may not repeat a colour (Bulls and Cows)")
    p.add_argument("--black-only", action="store_true", help="answers count black pegs only")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def add_command(command) -> None:
    p = command("static", help_of("static"), cmd_static)
    p.epilog = EXAMPLES
    sub = p.add_subparsers(dest="action", metavar="SUBCOMMAND")
    v = sub.add_parser("verify", help="does a set of guesses separate every secret?",
                       description="Whether every secret gets its own answers to a set of guesses; if not, "
                                   "two secrets the set cannot tell apart.",
                       epilog=EXAMPLES, formatter_class=HelpFormatter)
    _game_args(v)
    v.add_argument("codes", nargs="+", metavar="CODE", help="the guesses, e.g. 1221 2354 (or ABBA)")
    s = sub.add_parser("search", help="look for a small set of guesses that separates every secret",
                       description="Randomised greedy construction and local search for a separating set: of "
                                   "--size guesses, or the smallest reached within --time-limit.",
                       epilog=EXAMPLES, formatter_class=HelpFormatter)
    _game_args(s)
    s.add_argument("--size", dest="set_size", metavar="K", type=positive(int, "--size"),
                   help="number of guesses in the set (default: the smallest the search reaches)")
    s.add_argument("--seed", type=seed_arg, default=0, metavar="N", help="seed of the random choices (default 0)")
    s.add_argument("--time-limit", type=positive(float, "--time-limit"), default=10.0, metavar="SECONDS",
                   help="seconds of search (default 10), counted once the code tables are built; without --size "
                        "the search uses all of it unless it reaches the counting bound or, on games of up to "
                        "1296 codes, proves that one guess fewer cannot separate")
    s.add_argument("--prove", action="store_true",
                   help="then check every set of one guess fewer (up to symmetry), with a --time-limit of its "
                        "own after the search's: a proof that the size found is the smallest, on small games; "
                        "when none is found, every set of the size searched")
