from collections.abc import Callable
from types import ModuleType

import pytest

from mmlab.game import Game


@pytest.fixture(scope="session")
def game46() -> Game:
    return Game.parse_size("4x6")


@pytest.fixture
def pools_started(monkeypatch: pytest.MonkeyPatch) -> Callable[[ModuleType], list[int]]:
    """``pools_started(module)``: a list that gets the workers of each ``WorkerPool`` ``module``
    starts from then on, so that a test can tell that worker processes played."""
    def record(module: ModuleType) -> list[int]:
        started: list[int] = []
        pool = module.WorkerPool

        def counted(workers: int, **options):
            started.append(workers)
            return pool(workers, **options)

        monkeypatch.setattr(module, "WorkerPool", counted)
        return started

    return record


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The suite runs on every core (pytest-xdist, ``-n auto --dist loadgroup`` in pyproject.toml),
    each test where a worker is free, but the tests sharing a module fixture (a study played for a
    whole table, a browser) go to one worker, so it is made once."""
    for item in items:
        group = _shared_fixture_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def _shared_fixture_group(item: pytest.Item) -> str | None:
    """The test's file when it uses a module fixture, else ``None``."""
    fixture_info = getattr(item, "_fixtureinfo", None)  # doctests have none
    if fixture_info is None:
        return None
    fixtures = fixture_info.name2fixturedefs.values()
    return item.nodeid.split("::")[0] if any(defs[-1].scope == "module" for defs in fixtures) else None
