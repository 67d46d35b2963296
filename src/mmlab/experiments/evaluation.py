"""Evaluate a strategy over many secrets: exactly through its decision tree when it is
deterministic, by reproducible simulation when it draws at random.

>>> from mmlab.game import Game
>>> result = evaluate(Game.parse_size("4x6"), "knuth")
>>> result.total_guesses, result.max, result.exact   # Knuth 1976: 5801, worst 5
(5801, 5, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mmlab.errors import BadArgument
from mmlab.experiments.figures import GuessFigures
from mmlab.experiments.playout import play_game
from mmlab.experiments.secret_sets import SecretSet
from mmlab.game import Game
from mmlab.strategies import Strategy, make_strategy
from mmlab.trees import DecisionTree


@dataclass
class Evaluation(GuessFigures):
    """Guesses needed per game, with the figures the papers print."""

    game: Game
    strategy: str
    guesses: np.ndarray
    seconds: float
    exact: bool
    evaluations: np.ndarray | None = None  # codes checked or scored per game
    runs: int = 1
    seed: int | None = None
    secrets: str = "all"
    tree: DecisionTree | None = field(default=None, repr=False)
    known: np.ndarray | None = None  # guesses until the code was known (a deduced last guess not counted)
    fallbacks: int = 0  # guesses played when a search found no consistent code (GameRecord.fallbacks)

    @property
    def games(self) -> int:
        return int(self.guesses.shape[0])

    @property
    def total_guesses(self) -> int:
        return int(self.guesses.sum())

    @property
    def histogram(self) -> dict[int, int]:
        values, counts = np.unique(self.guesses, return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts)}

    def to_dict(self) -> dict:
        return {
            "game": self.game.size,
            "repeats": self.game.repeats,
            "feedback": self.game.feedback,
            "strategy": self.strategy,
            "exact": self.exact,
            "secrets": self.secrets,
            "runs": self.runs,
            "seed": self.seed,
            "games": self.games,
            "total_guesses": self.total_guesses,
            "mean": self.mean,
            "stderr": self.stderr,
            "max": self.max,
            "median": self.median,
            "std": self.std,
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "seconds": self.seconds,
            "fallback_guesses": self.fallbacks,
            **self.evaluation_figures(),
            **self.known_figures(),
        }

    def known_figures(self) -> dict:
        """Guesses until the code was known to the strategy, the count of Singley's tables (003)."""
        if self.known is None:
            return {}
        k = self.known
        return {
            "known_mean": float(k.mean()),
            "known_median": float(np.median(k)),
            "known_std": float(k.std(ddof=1)) if k.shape[0] > 1 else 0.0,
            "known_max": int(k.max()),
        }

    def evaluation_figures(self) -> dict:
        """Mean, standard deviation and maximum of the codes evaluated per game (001's metric)."""
        if self.evaluations is None:
            return {}
        e = self.evaluations
        return {
            "evaluations_mean": float(e.mean()),
            "evaluations_std": float(e.std(ddof=1)) if e.shape[0] > 1 else 0.0,
            "evaluations_max": int(e.max()),
        }


def choose_secrets(game: Game, secrets: str | int, seed: int) -> tuple[np.ndarray, str]:
    """``"all"`` codes, or a sample of ``N`` distinct codes drawn with ``seed``."""
    if secrets == "all" or (isinstance(secrets, int) and game.enumerable and secrets >= game.n_codes):
        return SecretSet("all").draw(game, seed), "all"
    return SecretSet.parse(int(secrets)).draw(game, seed), f"sample of {int(secrets)}"


def evaluate(
    game: Game,
    strategy: str | Strategy,
    secrets: str | int = "all",
    runs: int = 1,
    seed: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Evaluation:
    """Guesses needed by ``strategy`` against each chosen secret.

    Deterministic strategies on enumerable games are compiled into their decision tree once
    (exact, ``runs`` is 1); others play ``runs`` games per secret, game ``(run, secret)`` drawing from
    ``numpy.random.default_rng([seed, run, secret])``. ``on_progress(done, total)`` reports work.
    """
    if isinstance(strategy, str):
        strategy = make_strategy(strategy)
    if runs < 1:
        raise BadArgument(f"runs must be at least 1, got {runs}")
    if secrets != "all" and (not isinstance(secrets, int) or secrets < 1):
        raise BadArgument(f"secrets must be 'all' or a positive number, got {secrets!r}")
    if seed is not None and seed < 0:
        raise BadArgument(f"a seed must be 0 or more, got {seed}")
    strategy.start(game)  # refuses unsuitable games before any work
    if seed is None and (not strategy.deterministic or secrets != "all"):
        seed = int(np.random.SeedSequence().entropy % 2**32)
    codes, description = choose_secrets(game, secrets, seed or 0)
    start = time.perf_counter()
    if strategy.deterministic and game.enumerable:
        done = 0

        def progress(k: int) -> None:
            nonlocal done
            done += k
            if on_progress is not None:
                on_progress(done, game.n_codes)

        tree = DecisionTree.build(game, strategy, on_progress=progress)
        guesses = tree.depths()[codes]
        return Evaluation(game, strategy.spec, guesses, time.perf_counter() - start, True,
                          tree.evaluations()[codes], 1, seed, description, tree, tree.known_depths()[codes])
    guesses = np.empty(runs * codes.shape[0], dtype=np.int64)
    evaluations = np.empty_like(guesses)
    known = np.empty_like(guesses)
    fallbacks = 0
    total = guesses.shape[0]
    for run in range(runs):
        for i, secret in enumerate(codes):
            rng = np.random.default_rng([seed, run, int(secret)])
            k = run * codes.shape[0] + i
            record = play_game(game, strategy, int(secret), rng)
            if not record.won:
                raise RuntimeError(f"{strategy.spec} did not find {game.format(int(secret))}: {record}")
            guesses[k] = record.n_guesses
            evaluations[k] = record.total_evaluations
            known[k] = record.known_after
            fallbacks += len(record.fallbacks)
            if on_progress is not None and (k + 1) % 64 == 0:
                on_progress(k + 1, total)
    if on_progress is not None:
        on_progress(total, total)
    return Evaluation(game, strategy.spec, guesses, time.perf_counter() - start, False, evaluations, runs, seed,
                      description, known=known, fallbacks=fallbacks)
