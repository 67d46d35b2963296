"""One registry of strategies, loaded by spec strings such as ``most-parts:pool=consistent,ties=random``.

>>> make_strategy("knuth:first=1123").spec
'knuth:first=1123'
>>> parse_spec("tpoa:k=30,d=2")
('tpoa', {'k': '30', 'd': '2'})
"""

from __future__ import annotations

import re
from typing import Any

from mmlab.errors import UnknownStrategy, as_typed, did_you_mean, shown
from mmlab.strategies.base import Configurable, Strategy
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
from mmlab.strategies.greedy import Greedy1, Greedy2, Greedy3
from mmlab.strategies.hill_climb import StochasticHillClimber
from mmlab.strategies.local_search import LocalSearch, TabuSearch
from mmlab.strategies.genetic import GeneticAlgorithm
from mmlab.strategies.sample_scoring import EvolvedSampleScoring, SampleScoring

REGISTRY: dict[str, type[Strategy]] = {
    cls.name: cls
    for cls in (Knuth, Irving, MostParts, Entropy, Plus, Plus2, Norvig, RandomConsistent, Greedy1, Greedy2, Greedy3,
                LocalSearch, TabuSearch, StochasticHillClimber, SampleScoring, EvolvedSampleScoring,
                GeneticAlgorithm)
}

#: The strategies mmlab defines; others are added by ``register`` in one process, and worker
#: processes, which start afresh, do not know them.
BUILT_IN = frozenset(REGISTRY)

#: The strategies of ``mmlab compare``: every exhaustive one, in the order of the literature.
EXHAUSTIVE = ("knuth", "irving", "most-parts", "entropy", "plus", "plus2", "norvig")


SPEC_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

_PLANNER = "a planner: 'mmlab plan SIZE --planner {0} -o tree.json' builds its decision tree and 'mmlab eval --tree " \
           "tree.json' plays it"
#: What else mmlab runs by name that is not a codebreaker of one row, and where to use it, so that
#: a name given in the wrong place gets a pointer (``tests/strategies/test_registry.py`` checks
#: that the planners and 2-D strategies hold these names).
NOT_CODEBREAKERS: dict[str, str] = {
    "tpoa": _PLANNER.format("tpoa"),
    "optimal": _PLANNER.format("optimal"),
    "propagate": "a 2-D strategy: 'mmlab mm2 play SIZE --strategy propagate' plays it",
}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,key=value`` into the name and its raw parameter values, full-width
    forms and other scripts' digits in ASCII, as codes are read (``as_typed``).

    >>> parse_spec("evo:pop=400, score=most-parts")
    ('evo', {'pop': '400', 'score': 'most-parts'})
    >>> parse_spec("knuth：first＝１１２２")
    ('knuth', {'first': '1122'})
    >>> parse_spec("knuth:first")
    Traceback (most recent call last):
    ...
    mmlab.errors.UnknownStrategy: in 'knuth:first': 'first' should be key=value
    """
    name, _, rest = as_typed(spec).strip().partition(":")
    values: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UnknownStrategy(f"in {shown(spec)}: {shown(item)} should be key=value")
        if key.strip() in values:
            raise UnknownStrategy(f"in {shown(spec)}: {shown(key.strip())} is given twice; give it once")
        values[key.strip()] = value.strip()
    return name.strip(), values


def build(spec: str, registry: dict[str, type[Configurable]], kind: str, params: dict[str, Any] | None = None):
    """Build whatever ``spec`` names in ``registry`` (strategies, planners: one parser for all),
    with ``params`` as further ``key=value`` of the spec."""
    if not isinstance(spec, str):
        example = next(iter(registry), "knuth")
        raise UnknownStrategy(f"a {kind} is named by a spec text such as {example!r}, got {shown(spec)} "
                              f"({type(spec).__name__})")
    name, raw = parse_spec(spec)
    for key in params or ():
        if key in raw:
            raise UnknownStrategy(f"{key} is given twice, in {shown(spec)} and as a keyword; give it once")
    raw = {**raw, **(params or {})}
    cls = registry.get(name)
    if cls is None:
        if kind == "strategy" and name in NOT_CODEBREAKERS:
            raise UnknownStrategy(f"{name} is not a strategy but {NOT_CODEBREAKERS[name]}")
        if kind != "strategy" and name in REGISTRY:
            raise UnknownStrategy(f"{name} is a codebreaker of one row, not a {kind} (those: {', '.join(registry)}); "
                                  f"'mmlab eval SIZE --strategy {name}' evaluates it, 'mmlab tree SIZE --strategy "
                                  f"{name}' writes its decision tree")
        raise UnknownStrategy(f"unknown {kind} {shown(name)}{did_you_mean(name, registry)}; known: "
                              f"{', '.join(registry)} (see 'mmlab strategies')")
    return cls.from_raw(raw)


def make_strategy(spec: str, **params: Any) -> Strategy:
    """Build a strategy from its spec string; ``params`` are further parameters, as the spec's
    ``key=value`` are (for values held in variables).

    >>> s = make_strategy("most-parts:ties=random")
    >>> s, s.values["pool"], s.deterministic
    (<MostParts most-parts:ties=random>, 'all', False)
    >>> make_strategy("most-parts", ties="random", pool="consistent").spec
    'most-parts:pool=consistent,ties=random'
    """
    return build(spec, REGISTRY, "strategy", params)


def register(cls: type[Strategy]) -> type[Strategy]:
    """Add a strategy class made outside mmlab to the registry, so that its ``name`` works as a spec
    everywhere (``make_strategy``, studies, ``evaluate``). Usable as a class decorator; a class
    defined again under the same name (a notebook cell run again) replaces the one before. Worker
    processes start afresh and would not know it, so ``evaluate`` and ``run_study`` play such a
    strategy in this process whatever ``jobs`` says (and a Dask cluster is refused).

    >>> from mmlab.knowledge import Knowledge
    >>> @register
    ... class FirstConsistent(Strategy):
    ...     name, summary = "first-consistent", "the lowest consistent code"
    ...     def guess(self, knowledge: Knowledge) -> int:
    ...         return int(knowledge.consistent[0])
    >>> make_strategy("first-consistent")
    <FirstConsistent first-consistent>
    >>> del REGISTRY["first-consistent"]
    """
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise TypeError(f"register takes a Strategy subclass, got {cls!r}")
    if not isinstance(cls.name, str) or not SPEC_NAME.match(cls.name):
        raise UnknownStrategy(f"{cls.__name__}.name {cls.name!r} cannot be a spec name: give it letters, digits, "
                              "'-', '_' or '.'")
    known = REGISTRY.get(cls.name)
    redefined = (known is not None and cls.name not in BUILT_IN
                 and (known.__module__, known.__qualname__) == (cls.__module__, cls.__qualname__))
    if known is not None and known is not cls and not redefined:  # (a cell run again replaces its class)
        raise UnknownStrategy(f"the name {cls.name!r} is taken by {known.__name__}; give {cls.__name__} another")
    REGISTRY[cls.name] = cls
    return cls
