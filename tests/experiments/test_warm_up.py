"""Loading the numba kernels (about 0.4 s in a fresh process) is charged to no strategy: the first
games of a strategy on a game in a process are preceded by one untimed game. Checked by counting
the games started, not by timing them."""

import pytest

from mmlab.experiments.chunk import Chunk, play_chunk
from mmlab.experiments.evaluation import evaluate
from mmlab.experiments.large_tables import _play_batch
from mmlab.knowledge import Knowledge
from mmlab.strategies import REGISTRY, Strategy, register


class CountedRandom(Strategy):
    """The lowest consistent code, counted each time a game starts; not deterministic, so its
    games are played one by one (not read off a tree)."""

    name = "counted-random"
    started = 0
    needs_enumeration = True

    @property
    def deterministic(self) -> bool:
        return False

    def start(self, game, rng=None) -> None:
        super().start(game, rng)
        CountedRandom.started += 1

    def guess(self, knowledge: Knowledge) -> int:
        return int(knowledge.consistent[0])


@pytest.fixture
def counted():
    register(CountedRandom)
    CountedRandom.started = 0
    yield CountedRandom
    REGISTRY.pop(CountedRandom.name, None)


def test_a_chunk_of_a_new_strategy_and_game_starts_with_an_untimed_game(counted):
    chunk = Chunk("warm", "3x5", True, "black-white", counted.name, 1, None, ((0, 0, 3), (0, 1, 7)), "r")
    assert len(play_chunk(chunk)) == 2 and counted.started == 3
    counted.started = 0
    play_chunk(chunk)
    assert counted.started == 2  # once per process


def test_a_large_table_batch_starts_with_an_untimed_game(counted):
    assert len(_play_batch("3x6", counted.name, 1, [3, 7])) == 2 and counted.started == 3
    counted.started = 0
    _play_batch("3x6", counted.name, 1, [3, 7])
    assert counted.started == 2


def test_an_evaluation_starts_with_an_untimed_game(counted):
    """(evaluate starts the strategy once more, before any game, to refuse a game it cannot play)"""
    assert evaluate("4x4", counted.name, secrets=2, seed=1).games == 2 and counted.started == 1 + 1 + 2
    counted.started = 0
    evaluate("4x4", counted.name, secrets=2, seed=1)
    assert counted.started == 1 + 2
