import pytest

from mmlab.game import Game


@pytest.fixture(scope="session")
def game46() -> Game:
    return Game.parse_size("4x6")
