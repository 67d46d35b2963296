"""``mmlab score``: the answer a secret gives to a guess."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mmlab.cli.arguments import game_of, reads_as_size
from mmlab.cli.commands import help_of
from mmlab.cli.output import print_json
from mmlab.errors import BadCode, MastermindError, shown

if TYPE_CHECKING:
    from mmlab.game import Game


def cmd_score(args: argparse.Namespace) -> int:
    from mmlab.game import Game, split_code  # (here: 'score --help' loads no numpy)
    from mmlab.game.rules import MAX_PEGS

    if reads_as_size(args.secret):  # 'mmlab score 4x6 1122 1234', as partition is typed
        raise MastermindError(f"{args.secret.strip()} reads as a game size, not a code: give the size with "
                              f"--size: mmlab score --size {args.secret.strip()} SECRET GUESS")
    if args.size:
        game = game_of(args)
        fb = game.score(game.parse(args.secret), game.parse(args.guess))
    else:
        pegs, others = len(split_code(args.secret)), len(split_code(args.guess))
        if pegs == 0 or others == 0:  # (not 'pegs must be a whole number from 1 to 10, got 0')
            empty = "the secret and the guess are" if pegs == others else f"the {'secret' if pegs == 0 else 'guess'} is"
            raise MastermindError(f"{empty} empty: give both as codes, e.g. mmlab score 3632 1122")
        if pegs != others:
            for text, n in ((args.secret, pegs), (args.guess, others)):  # a stray character says so first
                if n <= MAX_PEGS:
                    _unsized(Game.parse_size(f"{n}x36"), text, False)
            raise MastermindError(f"the secret has {pegs} pegs and the guess {others}: they must match")
        game = Game.parse_size(f"{pegs}x36", feedback="black" if args.black_only else "black-white")
        fb = game.score(_unsized(game, args.secret, args.no_repeats), _unsized(game, args.guess, args.no_repeats))
    if args.json:
        print_json({"black": fb.black, "white": fb.white})
    else:
        print(game.answer_text(fb))
    return 0


def _unsized(game: Game, text: str, no_repeats: bool) -> int:
    """``text`` read without --size (in ``game``: any colour up to 36, repeats allowed), its errors
    naming no game size the user did not give."""
    try:
        code = game.parse(text)
    except BadCode as error:
        raise BadCode(str(error).replace(f" of the {game.size} game", "")) from None
    if no_repeats and len(set(game.digits(code))) < game.pegs:
        raise BadCode(f"code {shown(text)} repeats a colour, and --no-repeats allows none")
    return code


def add_command(command) -> None:
    p = command("score", help_of("score"), cmd_score)
    p.add_argument("secret", help="the secret code, e.g. 3632")
    p.add_argument("guess", help="the guess, e.g. 1122")
    p.add_argument("--size", help="game size, to check the codes' colours (default: as many pegs as the "
                                  "secret has, any colour up to 36)")
    p.add_argument("--no-repeats", action="store_true", help="codes may not repeat a colour")
    p.add_argument("--black-only", action="store_true", help="answer black pegs only")
    p.add_argument("--json", action="store_true", help="print JSON")
