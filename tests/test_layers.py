"""The packages form layers and imports point down only (README, Layout; ../shared/DESIGN.md)."""

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src" / "mmlab"
#: Each package's layer: a package may import its own modules and those of lower layers.
LAYERS = {"_lazy": 0, "errors": 0, "game": 1, "knowledge": 2, "strategies": 3, "trees": 4, "codemakers": 5, "planners": 5,
          "variants": 5, "experiments": 6, "play": 6, "web": 7, "cli": 8, "__main__": 9}


def imported_packages(path: Path) -> set[str]:
    """The ``mmlab`` packages a module imports anywhere in its code (not in its docstrings): by
    absolute name, relatively (``from ..experiments import store``), or from the top package
    (``from mmlab import experiments``, or one of its names, ``from mmlab import evaluate``)."""
    import mmlab

    here = ["mmlab", *path.relative_to(SOURCE).parent.parts]  # the module's package
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = ".".join([*here[:len(here) - node.level + 1], *([node.module] if node.module else [])]
                              ) if node.level else node.module
            names = [module] if module != "mmlab" else [
                mmlab._HOMES.get(alias.name, f"mmlab.{alias.name}") for alias in node.names]
        else:
            names = []
        found.update(name.split(".")[1] for name in names if name.startswith("mmlab."))
    return found


def package_of(path: Path) -> str:
    return path.relative_to(SOURCE).parts[0].removesuffix(".py")


MODULES = [p for p in sorted(SOURCE.rglob("*.py")) if p.parent != SOURCE or p.name != "__init__.py"]


def test_every_package_has_a_layer():
    assert {package_of(p) for p in MODULES} == set(LAYERS)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SOURCE)))
def test_imports_point_down(path):
    package = package_of(path)
    upward = {p for p in imported_packages(path) if p != package and LAYERS[p] >= LAYERS[package]}
    assert not upward, f"{path.relative_to(SOURCE)} ({package}) imports {sorted(upward)}, not below it"
