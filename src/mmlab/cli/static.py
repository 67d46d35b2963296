"""``mmlab static``: static Mastermind (every guess at once, then the secret): verify a set, search for one."""

from __future__ import annotations

import argparse

from mmlab.cli.arguments import positive, seed_arg
from mmlab.cli.output import out, print_json, progress
from mmlab.game import Game
from mmlab.variants.static import ExhaustiveResult, SearchResult, exhaustive, lower_bound, search, separates

EXAMPLES = """\
examples:
  mmlab static verify 4x6 1221 2354 3311 4524 5656 6643   Greenwell's set: separates, 7 guesses in all
  mmlab static verify 4x6 1122 3344 --json                 two secrets it cannot tell apart, as JSON
  mmlab static search 4x6 --size 6 --seed 1                a separating set of 6 codes
  mmlab static search 4x4 --prove                          the smallest it finds, and a proof that one
                                                           guess fewer cannot separate (small games)
  mmlab static search 3x3 --size 2 --prove                 none found: every set of 2 checked instead

verify exits with 0 when the set separates every secret, 1 when it does not, 2 on bad input;
search exits with 0 when it (or --prove's check) finds a separating set, 1 when not, 2 on bad input.
A set of k separating guesses wins static Mastermind in k + 1 guesses: the set, then the secret.
"""


def _game(args: argparse.Namespace) -> Game:
    return Game.parse_size(args.size, repeats=not args.no_repeats,
                           feedback="black" if args.black_only else "black-white")


def cmd_verify(args: argparse.Namespace) -> int:
    game = _game(args)
    ok, details = separates(game, args.codes)
    if args.json:
        print_json(details.to_dict())
        return 0 if ok else 1
    codes = " ".join(game.format(c) for c in details.codes)
    n = game.n_codes
    if ok:
        out.print(f"{game}: {codes} separate all {n} secrets ({details.n_classes} answer classes).")
        these = "this one" if len(details.codes) == 1 else f"these {len(details.codes)}"
        out.print(f"Static Mastermind is won in {details.guesses_to_win} guesses: {these}, then the secret.")
        return 0
    a, b = (game.format(s) for s in details.collision)
    answers = "; ".join(f"{game.format(g)} -> {fb.black},{fb.white}"
                        for g, fb in zip(details.codes, details.shared_answers))
    verb = "does" if len(details.codes) == 1 else "do"
    out.print(f"{game}: {codes} {verb} not separate the {n} secrets: {details.n_classes} answer classes, "
              f"the largest holds {details.largest} secrets.")
    out.print(f"{a} and {b} get the same answers: {answers}")
    return 1


def cmd_search(args: argparse.Namespace) -> int:
    game = _game(args)
    with progress(f"static search {game}: answer classes", game.n_codes) as update:
        result = search(game, size=args.set_size, seed=args.seed, time_limit=args.time_limit,
                        on_progress=lambda k, classes: update(classes))
    proof = _prove(game, result, args) if args.prove else None
    settled = result.separates or (proof is not None and proof.found is not None)
    if args.json:
        data = result.to_dict()
        if proof is not None:
            data["proof"] = proof.to_dict()
        print_json(data)
        return 0 if settled else 1
    codes = " ".join(game.format(c) for c in result.codes)
    tried = ", ".join(f"{k}: {'found' if f else 'not found'} in {s:.2f} s" for k, f, s in result.tried)
    bound = lower_bound(game)
    if result.separates:
        out.print(f"{game}: {result.size} guesses separate all {game.n_codes} secrets: {codes}")
        these = "this one" if result.size == 1 else f"these {result.size}"
        out.print(f"Static Mastermind is won in {result.guesses_to_win} guesses ({these}, then the "
                  f"secret). Found in {result.seconds:.2f} s with seed {result.seed} (sizes tried: {tried}).")
    elif result.target is None or result.size < result.target:
        # the time ran out while the first set was still being chosen, one guess after another
        of = f"of {result.target} guesses " if result.target is not None else ""
        out.print(f"{game}: no separating set {of}found in {result.seconds:.2f} s (seed {result.seed}): the time "
                  f"ran out after choosing {result.size} guess{'es' if result.size != 1 else ''}, {codes}, which leave {result.n_classes} answer "
                  f"classes for {game.n_codes} secrets. Give a longer --time-limit.")
    else:
        out.print(f"{game}: no separating set of {result.size} guesses found in {result.seconds:.2f} s "
                  f"(seed {result.seed}); the best, {codes}, leaves {result.n_classes} answer classes for "
                  f"{game.n_codes} secrets.")
        if result.size < bound:
            out.print(f"None can exist: {result.size} guesses give at most {len(game.feedbacks())}**"
                      f"{result.size} answer vectors, fewer than the {game.n_codes} secrets.")
        elif proof is None or not (proof.complete or proof.found):
            out.print("Try a longer --time-limit, another --seed or a larger --size"
                      + ("." if args.prove else "; --prove checks every set of this size."))
    if proof is not None:
        out.print(proof.describe())
    else:
        out.print(f"Counting bound: at least {bound} guesses ({len(game.feedbacks())} possible answers each).")
    return 0 if settled else 1


def _prove(game: Game, result: SearchResult, args: argparse.Namespace) -> ExhaustiveResult | None:
    """The exhaustive check behind ``--prove``: of one guess fewer than the set found, or of the
    size searched in vain (which settles it either way); None when there is nothing to check (a
    set of one guess) or counting shows no set of the size searched can exist."""
    if result.separates:
        size = result.size - 1
    elif result.target is not None:
        size = result.target
    else:  # (the time ran out before a first set: nothing to compare with)
        return None
    if size < 1 or (not result.separates and size < lower_bound(game)):
        return None
    with progress(f"exhaustive check: {size} guesses", 1000) as update:
        return exhaustive(game, size, time_limit=args.time_limit, on_progress=lambda f: update(int(1000 * f)))


def cmd_static(args: argparse.Namespace) -> int:
    return {"verify": cmd_verify, "search": cmd_search}[args.action](args)


def _game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("size", help="game size PEGSxCOLOURS, e.g. 4x6")
    p.add_argument("--no-repeats", action="store_true", help="codes may not repeat a colour (Bulls and Cows)")
    p.add_argument("--black-only", action="store_true", help="answers count black pegs only")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def add_command(command) -> None:
    p = command("static", "static Mastermind: submit every guess at once, then name the secret", cmd_static)
    p.epilog = EXAMPLES
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    v = sub.add_parser("verify", help="does a set of guesses separate every secret?",
                       description="Whether every secret gets its own answers to a set of guesses; if not, "
                                   "two secrets the set cannot tell apart.",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _game_args(v)
    v.add_argument("codes", nargs="+", metavar="CODE", help="the guesses, e.g. 1221 2354 (or ABBA)")
    s = sub.add_parser("search", help="look for a small set of guesses that separates every secret",
                       description="Randomised greedy construction and local search for a separating set: of "
                                   "--size guesses, or the smallest reached within --time-limit.",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _game_args(s)
    s.add_argument("--size", dest="set_size", metavar="K", type=positive(int, "--size"),
                   help="number of guesses in the set (default: the smallest the search reaches)")
    s.add_argument("--seed", type=seed_arg, default=0, metavar="N", help="seed of the random choices (default 0)")
    s.add_argument("--time-limit", type=positive(float, "--time-limit"), default=10.0, metavar="SECONDS",
                   help="seconds to search (default 10); without --size the search uses all of it unless "
                        "it reaches the counting bound")
    s.add_argument("--prove", action="store_true",
                   help="then check every set of one guess fewer (up to symmetry, within --time-limit): "
                        "a proof that the size found is the smallest, on small games; when none is found, "
                        "every set of the size searched")

