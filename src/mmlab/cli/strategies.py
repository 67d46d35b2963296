"""``mmlab strategies``: every strategy, planner and 2-D strategy with its parameters, or what each
parameter of one means."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mmlab.cli.commands import help_of
from mmlab.cli.entry import loading
from mmlab.cli.output import fit, print_json
from mmlab.errors import MastermindError, shown

if TYPE_CHECKING:
    from rich.table import Table

    from mmlab.strategies.base import Param


def cmd_strategies(args: argparse.Namespace) -> int:
    with loading():  # (the strategies' modules load their kernels: numba)
        from rich.measure import Measurement

        from mmlab.cli.output import out
        from mmlab.planners import PLANNERS
        from mmlab.strategies import REGISTRY
        from mmlab.variants import STRATEGIES_2D
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
        print_json(data)  # (a list, as without NAME: 'tabu' is a strategy and an mm2 strategy)
        return 0
    if args.name is not None:
        for entry in data:
            _print_parameters(entry)
        return 0
    table = fit(listing(data, sourced=False), out)
    whole = Measurement.get(out, out.options.update_width(10**6), table).minimum <= out.width  # every word unbroken
    out.print(table if whole else listing(data, sourced=True))
    out.print("* sets how much the strategy searches: 'mmlab serve' plays it at its default")
    out.print("'mmlab strategies NAME' explains each parameter of one")
    return 0


def listing(data: list[dict], sourced: bool) -> Table:
    """The table of ``mmlab strategies``; with ``sourced``, for a terminal too narrow for five
    columns (80), the source after what a strategy does ('... Source: ...', as 'mmlab strategies
    NAME' says it), which leaves the parameters the width of '(first|random|lisp)' (they broke to
    '(all|consistent' / ')')."""
    from rich.table import Table

    table = Table(title="strategies (--strategy), planners (--planner) and 2-D strategies (mmlab mm2 play --strategy): "
                        "NAME or NAME:key=value,key=value")
    columns = ("name", "kind", "what it does, source" if sourced else "what it does", "parameters (default)")
    for col in columns if sourced else (*columns, "source"):
        table.add_column(col, no_wrap=col in ("name", "kind"))
    for d in data:
        params = "\n".join(
            f"{p['name']}={'…' if p['default'] in ('', None) else p['default']}"
            + (f" ({p['allowed']})" if p["allowed"] else "") + (" *" if p["effort"] else "")
            for p in d["params"]
        )
        if sourced:
            table.add_row(d["name"], d["kind"], f"{d['summary']}. Source: {d['source']}.", params)
        else:
            table.add_row(d["name"], d["kind"], d["summary"], params, d["source"])
    return table


def allowed(param: Param) -> str:
    """The values a parameter takes, as ``mmlab strategies`` shows them (a maximum of the kernels'
    own, 2**62 and more, is not shown).

    >>> from mmlab.strategies.base import Param
    >>> allowed(Param("ties", "first", "", choices=("first", "random"))), allowed(Param("k", 5, "", kind=int, minimum=1))
    ('first|random', 'whole, ≥ 1')
    >>> allowed(Param("steps", 5, "", kind=int, minimum=0, maximum=2**62))
    'whole, ≥ 0'
    """
    from mmlab.strategies.base import MACHINE_MAXIMUM

    if param.choices:
        return "|".join(param.choices)
    if param.kind is not int:
        return ""
    low = param.minimum
    high = param.maximum if param.maximum is None or param.maximum < MACHINE_MAXIMUM else None
    bound = (f"{low}-{high}" if None not in (low, high) else f"≥ {low}" if low is not None
             else f"≤ {high}" if high is not None else "")
    return "whole" + (f", {bound}" if bound else "")


def _print_parameters(entry: dict) -> int:
    """One strategy or planner and what each of its parameters means."""
    from rich.table import Table

    from mmlab.cli.output import out

    out.print(f"{entry['name']} ({entry['kind']}): {entry['summary']}. Source: {entry['source']}.")
    if not entry["params"]:
        out.print(f"{entry['name']} takes no parameters.")
        return 0
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



def add_command(command) -> None:
    p = command("strategies", help_of("strategies"), cmd_strategies)
    p.add_argument("name", nargs="?", help="one strategy or planner, with the meaning of each parameter")
    p.add_argument("--json", action="store_true",
                   help="print JSON: a list of strategies, each with its parameters (with NAME, its one entry, or "
                        "two for tabu: a strategy and an mm2 strategy)")
