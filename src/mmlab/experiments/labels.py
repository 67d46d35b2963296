"""Short names for strategy specs in tables and legends.

>>> label("entropy:pool=consistent,ties=random,first=1231")
'entropy'
"""

from __future__ import annotations

from collections.abc import Iterable

from mmlab.errors import MastermindError
from mmlab.strategies.registry import parse_spec


def label(spec: str, all_specs: Iterable[str] = ()) -> str:
    """A short legend label: the strategy's name, plus the parameters that tell apart specs sharing it.

    >>> specs = ["entropy:ties=random,first=1231", "entropy:ties=random,first=1234", "knuth"]
    >>> [label(s, specs) for s in specs]
    ['entropy (first=1231)', 'entropy (first=1234)', 'knuth']
    """
    name, params = _split(spec)
    twins = [_split(s)[1] for s in dict.fromkeys(all_specs) if s != spec and _split(s)[0] == name]
    if not twins:
        return name
    shared = {k: v for k, v in params.items() if all(t.get(k) == v for t in twins)}
    distinct = [f"{k}={v}" for k, v in params.items() if k not in shared]
    if not distinct:  # only the twins' extra parameters differ, or the same parameters in another order
        distinct = [f"{k}={v}" for k, v in params.items()]
    return f"{name} ({','.join(distinct)})" if distinct else name


def _split(spec: str) -> tuple[str, dict[str, str]]:
    try:
        return parse_spec(spec)
    except MastermindError:  # a label must never fail: show an unreadable spec whole
        return spec, {}
