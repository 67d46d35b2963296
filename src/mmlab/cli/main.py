"""The ``mmlab`` command: parses arguments, calls the layers, prints tables or JSON. Each command's
options and code are in the module ``mmlab.cli.commands`` names, imported only for that command.

>>> main(["score", "1234", "1122"])
1,1
0
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from mmlab.cli.arguments import HelpFormatter, reads_as_size
from mmlab.cli.commands import COMMANDS
from mmlab.cli.entry import INTERRUPTED, loading
from mmlab.errors import MastermindError, did_you_mean

EXAMPLES = """\
examples:
  mmlab compare 4x6                          every exhaustive strategy, exact, and random, beside the literature
  mmlab compare 3x4 4x6 --strategies knuth,entropy,random --secrets 300 --seed 1 --plots figs   two sizes, plots
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
  mmlab plan 4x6 --planner optimal:objective=worst   proves that 5 guesses are needed and enough
  mmlab plan 4x6 --planner optimal --time-limit 2    the best tree found in 2 s, with the bound proved so far
  mmlab strategies optimal                   a planner's parameters (objective, max_depth, ...)
  mmlab reproduce --quick                    000 Tables 2 and 3 beside the paper
  mmlab reproduce singley                    Singley's appendix tables (greedy, tabu) beside the thesis
  mmlab reproduce large                      5x8, 6x9, 8x12: sampling and evolutionary codebreakers beside the papers
  mmlab run studies/merelo-4x6.toml          a study file into the results store (mmlab-results.duckdb)
  mmlab report merelo-4x6 --html report.html  its tables in the papers' layout, plots, one HTML page
  mmlab export merelo-4x6 games.parquet      the stored games (or --table moves) as Parquet or CSV
  mmlab play                                 guess mmlab's secret in the terminal (--role codemaker: it guesses)
  mmlab serve                                play in the browser at http://127.0.0.1:8000

sizes are PEGSxCOLOURS (4x6 is the standard game, 5x8 Super Mastermind); codes are written
1122, "1 1 2 2" or AABB; strategies are spec strings name:key=value,... (see 'mmlab strategies').
"""



class _Parser(argparse.ArgumentParser):
    """Argument errors in one line, like every other mmlab error."""

    def error(self, message: str) -> NoReturn:
        size = re.search(r"unrecognized arguments: (-\d+x\d+)", message, re.IGNORECASE)
        if size:
            from mmlab.game.rules import MAX_PEGS, MIN_PEGS

            message = f"size {size.group(1)}: pegs must be a whole number from {MIN_PEGS} to {MAX_PEGS}"
        choice = re.search(r"invalid choice: '(.*)' \(choose from (.*)\)$", message)
        if choice:  # argparse of Python 3.14 suggests too (suggest_on_error)
            choices = re.findall(r"'([^']*)'", choice.group(2))
            message = message[:choice.start()] + f"invalid choice: {choice.group(1)!r}" + \
                did_you_mean(choice.group(1), choices) + f" (choose from {choice.group(2)})"
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _Command(_Parser):
    """A command's parser, whose options (``options(self)``) are added when it is first used: to read
    its arguments, or to print its help or usage. The command's module is imported then, with
    Ctrl-C deferred (``entry.loading``); what the command runs on (numba's kernels, DuckDB, pandas)
    the module imports as the command starts, in such a block too, so that its help loads none of it."""

    def __init__(self, *args: Any, options: Callable[[_Command], None] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.options = options

    def ready(self) -> _Command:
        """This parser with its options added."""
        if self.options is not None:
            options, self.options = self.options, None
            with loading():
                options(self)
        return self

    def parse_known_args(self, args=None, namespace=None):  # (how a parent parser hands over the arguments)
        return super(_Command, self.ready()).parse_known_args(args, namespace)

    def format_usage(self) -> str:
        return super(_Command, self.ready()).format_usage()

    def format_help(self) -> str:
        return super(_Command, self.ready()).format_help()


# --------------------------------------------------------------------------------- parser
class _Version(argparse.Action):
    """``--version``: the installed package's version (pyproject.toml's), looked up only when asked
    (importlib.metadata takes a fifth of a second, which every command would pay)."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> NoReturn:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("mmlab")
        except PackageNotFoundError:  # (a source tree on PYTHONPATH, not installed)
            found = "unknown (not installed)"
        print(f"mmlab {found}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="mmlab",
        description="Mastermind lab: codebreaking strategies of the literature, evaluated exactly and fast.",
        epilog=EXAMPLES,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("-V", "--version", action=_Version, help="print mmlab's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Command)

    def load(module: str) -> Callable[[_Command], None]:
        """The options of the commands of ``module``: it adds them all, through ``command``."""
        def options(p: _Command) -> None:
            found = importlib.import_module(f"mmlab.cli.{module}")
            (getattr(found, "add_commands", None) or found.add_command)(command)
        return options

    def command(name: str, help: str, func: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
        """The parser of the command ``name`` (its help is ``help_of(name)``), running ``func``: what
        each command module's ``add_command`` calls to add a command's options."""
        p = sub.choices[name]
        p.options = None  # (its module adds them now)
        p.set_defaults(func=func)
        return p

    for name, (module, help) in COMMANDS.items():
        examples = "\n".join(line for line in EXAMPLES.splitlines() if line.startswith(f"  mmlab {name} "))
        sub.add_parser(name, help=help, description=help, epilog=f"examples:\n{examples}" if examples else None,
                       formatter_class=HelpFormatter, options=load(module))
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> tuple[str | None, dict[str, argparse.ArgumentParser]]:
    """Where ``parser`` stores the subcommand chosen, and the subcommands' parsers (``None, {}``: none)."""
    if isinstance(parser, _Command):
        parser.ready()
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
    """A hint naming the options of ``parser`` closest to the unknown ``--options`` in ``extra``, or
    the option that takes the unknown one's name as a value (``--json`` to ``tree``: ``--format json``).

    >>> p = argparse.ArgumentParser(); _ = p.add_argument("--strategies")
    >>> _ = p.add_argument("--format", choices=("json", "dot"))
    >>> _did_you_mean(p, ["--strategy", "knuth"]), _did_you_mean(p, ["--dot"])
    ('; did you mean --strategies?', '; did you mean --format dot?')
    """
    options = [action for action in parser._actions if any(o.startswith("--") for o in action.option_strings)]
    known = [o for action in options for o in action.option_strings if o.startswith("--")]
    hints = []
    for word in (w.partition("=")[0] for w in extra if w.startswith("--")):
        valued = [f"{action.option_strings[-1]} {word[2:]}" for action in options
                  if action.choices is not None and word[2:] in action.choices]
        hints += valued[:1] or difflib.get_close_matches(word, known, n=1, cutoff=0.75)
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
    if extra and not (args.command == "score" and reads_as_size(args.secret)):  # (which says how to give it)
        # blamed on the command that was given them, whose --help lists what it takes
        chosen = _chosen(parser, args)
        chosen.error(f"unrecognized arguments: {' '.join(extra)}{_did_you_mean(chosen, extra)}")
    name = _chosen(parser, args).prog  # e.g. 'mmlab mm2 play', as argparse names its own errors
    try:
        return args.func(args)
    except MastermindError as e:
        print(f"{name}: error: {e}", file=sys.stderr)
        return 2
    except MemoryError as e:  # numpy's says how much it could not allocate
        print(f"{name}: error: not enough memory{f' ({e})' if str(e) else ''}; try a smaller game "
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
