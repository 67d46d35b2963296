"""The large-game table of the evolutionary and sampling codebreakers: guesses and seconds per game at
5x8, 6x9 and 8x12 beside the published anchors (Berghman et al. 2009, Merelo's group's NHEA and
Evo++, random consistent play, and exact one-step Entropy where it has been computed).

Secrets are those of ``mmlab eval SIZE --secrets N --seed S`` and game ``i`` draws from
``numpy.random.default_rng([seed, 0, secret])`` as there, so any row can be checked by one
``mmlab eval``. Games run in worker processes, one per core.

>>> rows = list(run_large(["4x6"], ["sample:sample=50"], games=4, seed=1, workers=1))
>>> rows[0].games, rows[0].fallbacks
(4, 0)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mmlab.experiments.evaluation import play_seeded
from mmlab.experiments.figures import GuessFigures
from mmlab.experiments.secret_sets import SecretSet
from mmlab.experiments.workers import WorkerPool, first_time
from mmlab.game import Game
from mmlab.strategies import make_strategy

SIZES = ("5x8", "6x9", "8x12")
STRATEGIES = ("sample", "evo", "ga:variant=berghman")
#: Published means (and seconds per game where given) the issue compares against, and exact
#: one-step Entropy over every code and secret where a public solver has played it (the
#: repository mikemag/Mastermind, results/README.md; none at 8x12: docs/reproductions.md).
ANCHORS: dict[str, tuple[tuple[str, float, float | None], ...]] = {
    "5x8": (("Berghman et al. 2009", 5.618, None), ("NHEA (Merelo's group)", 5.518, None),
            ("exact Entropy (mikemag/Mastermind)", 5.4856, None)),
    "6x9": (("Berghman et al. 2009", 6.475, 1.28), ("Evo++ (Merelo, Cotta, Mora 2011)", 6.373, None),
            ("exact Entropy (mikemag/Mastermind)", 6.2847, None)),
    "8x12": (("Berghman et al. 2009", 8.366, 20.6), ("random consistent code", 9.0, None)),
}
#: The issue's targets: mean guesses and seconds per game.
TARGETS = {"5x8": (5.55, None), "6x9": (6.40, 1.0), "8x12": (8.30, 5.0)}
#: The issue judges its targets on 500 random secrets; fewer games are too few to judge.
TARGET_GAMES = 500


@dataclass(frozen=True)
class LargeRow(GuessFigures):
    """One strategy on one size: guesses per game, seconds each game took (in its worker),
    evaluations per game, and the guesses played without a consistent code."""

    size: str
    spec: str
    guesses: np.ndarray
    seconds: np.ndarray
    evaluations: np.ndarray
    fallbacks: int
    wall: float
    seed: int

    @property
    def games(self) -> int:
        return int(self.guesses.shape[0])

    @property
    def seconds_per_game(self) -> float:
        return float(self.seconds.mean())

    @property
    def target_met(self) -> bool | None:
        """Whether the mean, and the seconds per game where the issue limits them, meet the size's
        target (``TARGETS``); ``None`` for a size without one or for fewer than ``TARGET_GAMES`` games."""
        target, target_s = TARGETS.get(self.size, (None, None))
        if target is None or self.games < TARGET_GAMES:
            return None
        return self.mean <= target and (target_s is None or self.seconds_per_game <= target_s)

    def to_dict(self) -> dict:
        target, target_s = TARGETS.get(self.size, (None, None))
        return {"size": self.size, "strategy": self.spec, "games": self.games, "seed": self.seed,
                "mean": self.mean, "stderr": self.stderr, "std": self.std, "max": self.max,
                "seconds_per_game": self.seconds_per_game, "wall_seconds": self.wall,
                "evaluations_mean": float(self.evaluations.mean()), "fallback_guesses": self.fallbacks,
                "games_by_guesses": {str(k): n for k, n in self.games_by_guesses.items()},
                "target_mean": target, "target_seconds": target_s, "target_met": self.target_met,
                "anchors": [{"source": a, "mean": m, "seconds_per_game": s} for a, m, s in ANCHORS.get(self.size, ())]}


def games_frame(rows: list[LargeRow]) -> pd.DataFrame:
    """One line per game of ``rows`` (strategy, size, guesses, won), as ``plots.guesses_histogram`` takes."""
    return pd.DataFrame({"strategy": np.concatenate([[r.spec] * r.games for r in rows]),
                         "size": np.concatenate([[r.size] * r.games for r in rows]),
                         "guesses": np.concatenate([r.guesses for r in rows]), "won": True})


def _play(size: str, spec: str, seed: int, secret: int) -> tuple[int, float, int, int]:
    game = Game.parse_size(size)
    start = time.perf_counter()
    record = play_seeded(game, make_strategy(spec), seed, 0, secret)
    return record.n_guesses, time.perf_counter() - start, record.total_evaluations, len(record.fallbacks)


def _play_batch(size: str, spec: str, seed: int, secrets: list[int]) -> list[tuple[int, float, int, int]]:
    """The games of ``secrets``; a worker's first batch of a strategy and size starts with an untimed
    game, so that loading the numba kernels is charged to no strategy's seconds."""
    if first_time(("large", size, spec)):
        _play(size, spec, seed, secrets[0])
    return [_play(size, spec, seed, s) for s in secrets]


def run_large(sizes: list[str], strategies: list[str], games: int = 500, seed: int = 2005,
              workers: int | None = None,
              on_progress: Callable[[int, int], None] | None = None) -> Iterator[LargeRow]:
    """Play every strategy on every size over ``games`` random secrets; yields one row each."""
    workers = workers or os.cpu_count() or 1
    for spec in strategies:  # before any work: a bad spec, and one that cannot play a size (knuth at 8x12)
        strategy = make_strategy(spec)
        for size in sizes:
            strategy.start(Game.parse_size(size))
    total = len(sizes) * len(strategies) * games
    done = 0
    with WorkerPool(workers) as pool:
        for size in sizes:
            game = Game.parse_size(size)
            secrets = [int(s) for s in SecretSet.parse(games).draw(game, seed)]
            for spec in strategies:
                start = time.perf_counter()
                batches = [secrets[i:i + 4] for i in range(0, len(secrets), 4)]
                results = []
                for batch in pool.map(_play_batch, *zip(*[(size, spec, seed, b) for b in batches])):
                    results.extend(batch)
                    done += len(batch)
                    if on_progress is not None:
                        on_progress(done, total)
                guesses, seconds, evaluations, fallbacks = (np.array(x) for x in zip(*results))
                yield LargeRow(size, spec, guesses, seconds, evaluations, int(fallbacks.sum()),
                               time.perf_counter() - start, seed)
