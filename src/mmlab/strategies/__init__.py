"""Codebreakers, one module per family, all loadable by spec string through one registry."""

from mmlab.strategies.base import Param, Strategy, rng_of
from mmlab.strategies.registry import EXHAUSTIVE, REGISTRY, make_strategy, parse_spec, register
from mmlab.strategies.scoring import partition_summary

__all__ = ["EXHAUSTIVE", "REGISTRY", "Param", "Strategy", "make_strategy", "parse_spec", "partition_summary",
           "register", "rng_of"]
