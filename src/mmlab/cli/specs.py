"""Lists of strategy specs on the command line."""

from __future__ import annotations

import re


def split_specs(text: str) -> list[str]:
    """Strategy specs separated by commas or semicolons; a ``key=value`` piece belongs to the spec
    before it.

    >>> split_specs("knuth,entropy:pool=consistent,ties=random;random")
    ['knuth', 'entropy:pool=consistent,ties=random', 'random']
    """
    specs: list[str] = []
    for part in (p.strip() for p in re.split(r"[,;]", text)):
        if not part:
            continue
        if "=" in part and ":" not in part and specs and ":" in specs[-1]:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs
