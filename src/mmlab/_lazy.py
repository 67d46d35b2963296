"""Package namespaces whose names, and subpackages, are imported when first used (PEP 562), so
that importing a package costs only what its caller uses: ``mmlab`` starts the command line at
once, and ``from mmlab.experiments import play_game`` loads no DuckDB or pandas.

>>> import types
>>> module = types.ModuleType("demo")
>>> module.__getattr__, module.__dir__ = lazy_names(module, {"sqrt": "math"})
>>> module.sqrt(9.0), "sqrt" in dir(module)
(3.0, True)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any


def lazy_names(module: ModuleType | str, homes: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module's ``__getattr__`` and ``__dir__``: each name of ``homes`` is taken from the module
    named beside it when first asked for, any other name is the package's submodule of that name,
    and either is then kept. ``module`` is the module, or its name."""

    def namespace() -> dict[str, Any]:
        return (importlib.import_module(module) if isinstance(module, str) else module).__dict__

    def __getattr__(name: str) -> Any:
        package = namespace()["__name__"]
        if name in homes:
            value = getattr(importlib.import_module(homes[name]), name)
        else:  # a subpackage or module, as ``mmlab.experiments.Store`` after ``import mmlab``
            try:
                value = importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as e:
                if e.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        namespace()[name] = value  # once
        return value

    def __dir__() -> list[str]:
        """The public names: those of ``homes``, the submodules loaded so far, and the dunders (not
        the helpers the package imports for itself, such as ``TYPE_CHECKING``)."""
        ns = namespace()
        submodules = {n for n, v in ns.items() if isinstance(v, ModuleType) and v.__name__ == f"{ns['__name__']}.{n}"}
        dunders = {n for n in ns if n.startswith("__")}
        return sorted(set(homes) | {n for n in submodules if not n.startswith("_")} | dunders)

    return __getattr__, __dir__
