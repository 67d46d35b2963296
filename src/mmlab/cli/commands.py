"""Every command of ``mmlab``: its one-line help, which ``mmlab --help`` lists, and the module of
``mmlab.cli`` that adds its options and runs it. Only the module of the command given is imported:
numba's kernels, DuckDB and pandas load for the commands that use them, not for ``mmlab --help``.

>>> module_of("report"), help_of("score")
('studies', 'the answer (black,white) a secret gives to a guess')
"""

from __future__ import annotations

#: Each command, in the order ``mmlab --help`` lists them: its module and its help.
COMMANDS: dict[str, tuple[str, str]] = {
    "compare": ("compare", "run strategies on one or more sizes, store every game, and print one table per size "
                           "beside the literature"),
    "eval": ("engine", "evaluate one strategy over every secret (exact for deterministic strategies)"),
    "partition": ("engine", "the answer classes a guess makes of the remaining candidates"),
    "tree": ("engine", "compile a deterministic strategy into its decision tree and print or save it"),
    "score": ("score", "the answer (black,white) a secret gives to a guess"),
    "plan": ("engine", "search offline for a strategy and save its decision tree (TPOA, exact optimum)"),
    "reproduce": ("reproduce", "re-run a paper's tables and print them beside the published figures"),
    "run": ("studies", "run a study file (strategies x sizes x secrets x runs) into the results store"),
    "report": ("studies", "print a stored study's tables in the papers' layout (and plots, HTML)"),
    "export": ("studies", "write a stored study's games, moves or runs to CSV or Parquet"),
    "studies": ("studies", "list the studies in a results store"),
    "forget": ("studies", "delete a study and all its rows from a results store"),
    "play": ("play", "play a game in the terminal: guess mmlab's secret, or keep one and let mmlab guess"),
    "serve": ("serve", "serve the web page to play both roles in a browser, and its JSON API"),
    "static": ("static", "static Mastermind: submit every guess at once, then name the secret"),
    "mm2": ("variants", "two-dimensional Mastermind (Singley 003 ch. 5): reproduce the thesis's 2-D table, or watch "
                        "one game"),
    "mathmind": ("mathmind", "MathMind (Reddi, in 003): answers by higher/lower pegs or a distance, every secret "
                             "evaluated exactly"),
    "strategies": ("strategies", "list every strategy with its parameters, defaults and source"),
}


def module_of(command: str) -> str:
    """The module of ``mmlab.cli`` whose ``add_command`` (or ``add_commands``) adds ``command``'s options."""
    return COMMANDS[command][0]


def help_of(command: str) -> str:
    """``command``'s one-line help."""
    return COMMANDS[command][1]
