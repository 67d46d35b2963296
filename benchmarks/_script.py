"""What every benchmark script shares: argument types that refuse nonsense at parse time (one
``error:`` line, status 2), ``mean_pm`` for a mean and its standard error, ``run_child`` for a
script's subprocesses, and ``run_script``, which ends a Ctrl-C with one line, ``interrupted``, and
status 130, and an mmlab error with one ``error:`` line, status 2 (simpler than the ``mmlab``
command's ``mmlab.cli.entry``: a script's work is its own).

Import it first: from then on, a Ctrl-C while the script still loads numpy, numba and mmlab
ends it with the same line instead of a traceback.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import subprocess
import sys
from pathlib import Path
from collections.abc import Callable, Sequence


def _interrupted_while_loading(signum: int, frame: object) -> None:
    print("interrupted", file=sys.stderr)
    raise SystemExit(130)


if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # (the pool's workers, which import the script, ignore it)
    signal.signal(signal.SIGINT, _interrupted_while_loading)

from mmlab.cli.arguments import int_at_least, positive, split_specs  # noqa: E402  (after the handler)
from mmlab.errors import MastermindError  # noqa: E402


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (argparse names the option)."""
    return int_at_least(minimum, "it")


#: An argparse type: a finite number above 0 (seconds, for example).
positive_float = positive(float, "it")


def fraction(text: str) -> float:
    """An argparse type: a number from 0 to 1 (a share)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"it must be a number, got {text!r}") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"it must be from 0 to 1, got {text}")
    return value


def output_file(text: str) -> str:
    """An argparse type: a file the script can write at the end of its run, checked now (opened to
    append, so an existing file keeps its contents; one made for the check is removed); the text itself."""
    if not text:
        raise argparse.ArgumentTypeError("give the file to write, e.g. out.json")
    existed = os.path.lexists(text)
    try:
        with open(text, "a"):
            pass
    except OSError as e:
        raise argparse.ArgumentTypeError(f"cannot write {text!r}: {e.strerror}") from None
    if not existed:
        os.remove(text)
    return text


def game_size(text: str) -> str:
    """An argparse type: a size such as ``4x6`` that ``Game.parse_size`` reads, written as
    ``Game.size`` writes it (``" 5X8"`` gives ``5x8``)."""
    from mmlab.game import Game

    try:
        return Game.parse_size(text).size
    except MastermindError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def game_sizes(text: str) -> list[str]:
    """An argparse type: comma-separated sizes, each read by ``game_size``, at least one; a size
    named twice is played once (the first place counts)."""
    sizes = [size.strip() for size in text.split(",") if size.strip()]
    if not sizes:
        raise argparse.ArgumentTypeError("name at least one size, e.g. 5x8,6x9")
    return list(dict.fromkeys(game_size(size) for size in sizes))


def strategy_specs(text: str) -> str:
    """An argparse type: strategy specs, separated by commas or semicolons as ``split_specs``
    reads them, each one ``make_strategy`` builds; the text itself."""
    specs = split_specs(text)
    if not specs:
        raise argparse.ArgumentTypeError("name at least one strategy spec")
    for spec in specs:
        strategy_spec(spec)
    return text


def strategy_spec(text: str) -> str:
    """An argparse type: one strategy spec that ``make_strategy`` builds; the text itself."""
    from mmlab.strategies import make_strategy

    try:
        make_strategy(text)
    except MastermindError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def unplayable(specs: Sequence[str], sizes: Sequence[str]) -> str | None:
    """Why one of the strategy ``specs`` cannot play one of the ``sizes`` (a strategy that needs
    every code of the game, at a size too large to list them), or ``None``: said before any game,
    not after the rows of the sizes before it."""
    from mmlab.game import Game
    from mmlab.strategies import make_strategy

    for spec in specs:
        strategy = make_strategy(spec)
        if strategy.needs_enumeration:
            for size in sizes:
                try:
                    strategy.require_enumerable(Game.parse_size(size))
                except MastermindError as e:
                    return str(e)
    return None


def position_problem(spec: str, own_game: bool) -> str | None:
    """Why the strategy ``spec`` cannot guess at the positions of a benchmark that plays from
    ``Knowledge.initial(game, explicit=False)`` (no list of the consistent codes) and asks for
    guesses at a position more than once; ``None`` where it can. With ``own_game`` the positions
    are those of a game the strategy played itself; otherwise of any game (another codebreaker's
    moves, or a first guess not its own)."""
    from mmlab.strategies import make_strategy
    from mmlab.strategies.hill_climb import StochasticHillClimber
    from mmlab.strategies.scripted import ScriptedStrategy

    strategy = make_strategy(spec)
    if strategy.needs_enumeration:
        return (f"{spec} scores the list of consistent codes, which this benchmark's positions do not keep "
                "(its games are played without it)")
    if isinstance(strategy, StochasticHillClimber):
        return f"{spec} learns from one game's answers in the order they come, so it cannot guess at a position out of that order"
    if isinstance(strategy, ScriptedStrategy):
        if not strategy.deterministic:
            return f"{spec} draws at random, so it can only continue the game it is playing, not guess at a position again"
        if not own_game:
            return f"{spec} follows a script of its own and can only continue games it played itself"
    return None


def position_strategies(own_game: bool) -> list[str]:
    """The registered strategies that ``position_problem`` accepts with their defaults."""
    from mmlab.strategies import REGISTRY

    return [name for name in REGISTRY if position_problem(name, own_game) is None]


def position_spec(own_game: bool) -> Callable[[str], str]:
    """An argparse type: one strategy spec that ``make_strategy`` builds and ``position_problem``
    accepts; the text itself. A refusal names the strategies that can play there."""

    def check(text: str) -> str:
        strategy_spec(text)
        problem = position_problem(text, own_game)
        if problem:
            raise argparse.ArgumentTypeError(f"{problem}; choose one of {', '.join(position_strategies(own_game))}")
        return text

    return check


def position_specs(own_game: bool) -> Callable[[str], str]:
    """An argparse type: strategy specs as ``strategy_specs`` reads them, each one that
    ``position_spec`` accepts; the text itself."""
    one = position_spec(own_game)

    def check(text: str) -> str:
        strategy_specs(text)
        for spec in split_specs(text):
            one(spec)
        return text

    return check


def spread_text(spread: float | None, digits: int = 4) -> str:
    """A standard error or s.d. to ``digits`` decimals, or ``n/a`` where it is ``None`` or not a
    number (there is one value)."""
    return "n/a" if spread is None or math.isnan(spread) else f"{spread:.{digits}f}"


def pm(mean: float, spread: float | None, digits: int = 4, sign: bool = False, sep: str = " ± ") -> str:
    """``mean ± spread`` to ``digits`` decimals (``+`` on the mean with ``sign``), or
    ``mean ± n/a`` where ``spread`` is ``None`` or not a number (a single value)."""
    return f"{mean:{'+' if sign else ''}.{digits}f}" + sep + spread_text(spread, digits)


def mean_pm(values: Sequence[float], digits: int = 4, sign: bool = False, sd: bool = False,
            sep: str = " ± ") -> str:
    """The mean of ``values`` ± its standard error (the s.d., ddof=1, with ``sd``), as ``pm``
    prints it: ``± n/a`` for a single value, with no numpy warning."""
    import numpy as np

    a = np.asarray(values, dtype=float)
    spread = None
    if a.size > 1:
        spread = float(a.std(ddof=1)) / (1.0 if sd else math.sqrt(a.size))
    return pm(float(a.mean()), spread, digits, sign, sep)


def run_child(command: Sequence[str], what: str) -> subprocess.CompletedProcess:
    """Run ``command`` capturing its output; if it fails, print its stderr and end the script with
    one line naming ``what`` (status 1)."""
    done = subprocess.run(list(command), capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stderr if done.stderr.endswith("\n") or not done.stderr else done.stderr + "\n")
        sys.exit(f"{what} failed (exit status {done.returncode}); its errors are above")
    return done


def run_script(main: Callable[[], object]) -> None:
    """Run a script's ``main``; Ctrl-C prints ``interrupted`` and exits with status 130, and an
    mmlab error that the options let through (``MastermindError``, raised here or in a worker)
    prints one ``error:`` line and exits with status 2, as argparse does; a closed pipe ends it
    quietly with status 0."""
    signal.signal(signal.SIGINT, signal.default_int_handler)  # loaded: Ctrl-C is KeyboardInterrupt again
    try:
        status = main()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:  # `... | head`: the reader has gone, so the script ends quietly, as mmlab does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nor fails flushing at exit
        sys.exit(0)
    except MastermindError as e:
        print(f"{Path(sys.argv[0]).name}: error: {e}", file=sys.stderr)
        sys.exit(2)
    sys.exit(status if isinstance(status, int) else 0)
