"""One registry of strategies, loaded by spec strings such as ``most-parts:pool=consistent,ties=random``.

>>> make_strategy("knuth:first=1123").spec
'knuth:first=1123'
>>> parse_spec("tpoa:k=30,d=2")
('tpoa', {'k': '30', 'd': '2'})
"""

from __future__ import annotations

from mmlab.errors import UnknownStrategy
from mmlab.strategies.base import Strategy
from mmlab.strategies.exhaustive import (
    Entropy,
    Irving,
    Knuth,
    MostParts,
    Norvig,
    Plus,
    Plus2,
    RandomConsistent,
)

REGISTRY: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (Knuth, Irving, MostParts, Entropy, Plus, Plus2, Norvig, RandomConsistent)
}

#: The strategies of ``mmlab compare``: every exhaustive one, in the order of the literature.
EXHAUSTIVE = ("knuth", "irving", "most-parts", "entropy", "plus", "plus2", "norvig")


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,key=value`` into the name and its raw parameter values."""
    name, _, rest = spec.strip().partition(":")
    values: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UnknownStrategy(f"in {spec!r}: {item!r} should be key=value")
        values[key.strip()] = value.strip()
    return name.strip(), values


def make_strategy(spec: str) -> Strategy:
    """Build a strategy from its spec string."""
    name, raw = parse_spec(spec)
    cls = REGISTRY.get(name)
    if cls is None:
        raise UnknownStrategy(f"unknown strategy {name!r}; known: {', '.join(REGISTRY)} (see 'mmlab strategies')")
    params = {p.name: p for p in cls.params}
    values = {}
    for key, text in raw.items():
        if key not in params:
            names = ", ".join(params) or "none"
            raise UnknownStrategy(f"{name} has no parameter {key!r} (its parameters: {names})")
        values[key] = params[key].convert(name, text)
    return cls(**values)
