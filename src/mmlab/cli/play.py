"""``mmlab play``: a game in the terminal, in either role."""

from __future__ import annotations

import argparse

from mmlab.cli.arguments import seed_arg
from mmlab.cli.commands import help_of
from mmlab.cli.entry import loading
from mmlab.errors import BadArgument

EXAMPLES = """\
examples:
  mmlab play                                  you guess mmlab's secret on 4x6 ('hint' helps)
  mmlab play 5x8 --secret 12345               ... a secret you chose, to practise
  mmlab play --role codemaker                 you keep a secret, mmlab guesses (Norvig's dialogue)
  mmlab play --role codemaker --strategy most-parts
  mmlab play --role codemaker --tree optimal.json   a tree saved by 'mmlab plan' or 'mmlab tree'
  printf '0 2\\n1 2\\n0 3\\n2 0\\n4 0\\n' | mmlab play --role codemaker --strategy norvig   from a pipe
  mmlab play 8x12 --role codemaker            too many codes to list: sample guesses (strategies that search)

in the game ('help' at its prompt says it again):
  codebreaker   type a guess: 1122, '1 1 2 2' or AABB; 'hint [STRATEGY]' (the codes left and the best
                guesses), 'candidates' (the codes left, when few), 'undo', 'history', 'give-up', 'quit';
                Ctrl-C stops a hint that takes long, and at the prompt leaves the game
  codemaker     answer mmlab's guess, black then white pegs: '1 2', '1,2' or BWW ('0 0', 'none' or '-'
                for none; with --black-only the black pegs alone: '2' or BB); 'fix N B W' corrects the
                answer to guess N, 'undo' takes back the last answer, 'history', 'quit'
"""


def cmd_play(args: argparse.Namespace) -> int:
    with loading():  # (here: 'mmlab play --help' loads no engine)
        import numpy as np

        from mmlab.cli.output import out
        from mmlab.game import Game
        from mmlab.play.session import CodebreakerSession, CodemakerSession, check_coach
        from mmlab.play.terminal import Dialogue, play_codebreaker, play_codemaker
        from mmlab.trees import export
    if args.tree:
        if args.size is not None or args.no_repeats or args.black_only:
            raise BadArgument("--tree brings its own game: give no size, --no-repeats or --black-only with it")
        if args.tree == "-":
            raise BadArgument("--tree -: play reads your answers from standard input, so the tree must come from "
                              "a file, e.g. 'mmlab tree 4x6 --strategy knuth -o knuth.json'")
        tree = export.load(args.tree)
        game = tree.game
    else:
        tree = None
        game = Game.parse_size(args.size or "4x6", repeats=not args.no_repeats,
                               feedback="black" if args.black_only else "black-white")
    rng = np.random.default_rng(args.seed)
    dialogue = Dialogue(game, console=out)
    if args.role == "codemaker":
        if args.secret:
            raise BadArgument("--secret is for --role codebreaker: as codemaker you keep the secret yourself")
        if args.hint_strategy is not None:
            raise BadArgument("--hint-strategy is for --role codebreaker: as codemaker give --strategy or --tree")
        if tree is not None and args.strategy is not None:
            raise BadArgument("give --strategy or --tree, not both: the tree is the strategy that guesses")
        default = "knuth" if game.enumerable else "sample"  # (as the codebreaker's hints)
        guesser = tree if tree is not None else args.strategy if args.strategy is not None else default
        session = CodemakerSession(game, guesser, rng)
        try:
            return play_codemaker(game, session, dialogue)
        except KeyboardInterrupt:  # Ctrl-C leaves the game as 'quit' does, on a line of its own (not the prompt's)
            dialogue.console.print("\nGame left unfinished." if not session.won else "")
            raise
    if tree is not None:
        raise BadArgument("--tree is for --role codemaker (the tree guesses); as codebreaker use --hint-strategy")
    if args.strategy is not None:
        raise BadArgument("--strategy is for --role codemaker (it guesses); as codebreaker use --hint-strategy")
    secret = game.parse(args.secret) if args.secret else None
    coach = args.hint_strategy if args.hint_strategy is not None else "knuth" if game.enumerable else "sample"
    check_coach(game, coach)  # a hint strategy that could not give hints is refused now
    session = CodebreakerSession(game, secret, rng)
    try:
        return play_codebreaker(game, session, dialogue, coach, secret_given=secret is not None)
    except KeyboardInterrupt:  # Ctrl-C leaves the game as 'quit' does: saying the secret
        if not session.over:
            dialogue.console.print(f"\nGame left unfinished. The secret was {game.format(session.give_up())}.")
        raise


def add_command(command) -> None:
    p = command("play", help_of("play"), cmd_play)
    p.epilog = EXAMPLES
    p.add_argument("size", nargs="?", help="game size PEGSxCOLOURS (default 4x6; not with --tree)")
    p.add_argument("--role", choices=("codebreaker", "codemaker"), default="codebreaker",
                   help="codebreaker: you guess (default); codemaker: you keep a secret and answer")
    p.add_argument("--strategy", help="codemaker role: the strategy that guesses (default knuth; sample in games "
                                      "too large to enumerate)")
    p.add_argument("--tree", metavar="FILE", help="codemaker role: play a saved decision tree (JSON) instead")
    p.add_argument("--secret", help="codebreaker role: the secret to find (default: drawn at random)")
    p.add_argument("--hint-strategy", help="codebreaker role: the strategy behind 'hint' "
                                           "(default knuth; sample in games too large to enumerate; "
                                           "'hint most-parts' picks another)")
    p.add_argument("--seed", type=seed_arg, help="seed of the random secret and of random strategies")
    p.add_argument("--no-repeats", action="store_true", help="codes may not repeat a colour (Bulls and Cows)")
    p.add_argument("--black-only", action="store_true", help="answers count black pegs only")
