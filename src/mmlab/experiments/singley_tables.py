"""Singley's appendix tables (003): the 1-D methods at n = 4, m = 6..10 and m = 8, n = 3..7.

Each method's guesses are counted as the thesis counted them (``COUNTING``): Greedy 2 stops
when the code is known to it, its deduced last guess not played, while the tabu search plays
until n black pegs (``docs/notes/singley-1d-reading.md`` shows how the figures decide it). The
deterministic methods are
played against every secret by the kernels of ``greedy_kernels``; the tabu search, which draws at
random, by simulation: Singley ran it 5 times over every secret (20 000 random secrets at 7x8),
``tabu_games`` chooses a smaller sample per size.

>>> row = next(run_singley(["greedy2"], sizes=[(4, 6)]))
>>> row.method, row.size, round(row.mean, 8), row.max, row.thesis.mean
('greedy2', '4x6', 10.80015432, 17, 10.80015432)
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from mmlab.experiments.figures import GuessFigures
from mmlab.game import Game
from mmlab.strategies.greedy_kernels import ALL_SECRETS  # the deterministic methods against every secret


@dataclass(frozen=True)
class ThesisFigure:
    """One column of an appendix table: mean, median, standard deviation and maximum."""

    mean: float
    median: float
    std: float
    max: int


#: The sizes of the appendix tables, as (pegs, colours).
SIZES = ((4, 6), (4, 7), (4, 8), (4, 9), (4, 10), (3, 8), (5, 8), (6, 8), (7, 8))


def _columns(means, medians, stds, maxima) -> dict[str, ThesisFigure]:
    return {f"{n}x{m}": ThesisFigure(*values) for (n, m), *values in zip(SIZES, means, medians, stds, maxima)}


#: 003 appendix (copy B lines 3194-3269), the 4x8 column printed once.
THESIS: dict[str, dict[str, ThesisFigure]] = {
    "greedy1": _columns(
        (14.267747, 16.238651, 18.2146, 20.194635, 22.1779, 13.591797, 22.839325, 27.464291, 32.089286),
        (14, 16, 18, 20, 22, 14, 23, 27, 32),
        (3.380171, 3.936171, 4.505332, 5.080817, 5.65944, 3.972431, 4.97877, 5.410493, 5.810159),
        (24, 28, 32, 36, 40, 24, 40, 48, 56),
    ),
    "greedy2": _columns(
        (10.80015432, 12.833403, 14.8571777, 16.8750191, 18.8889, 11.357422, 18.35714722, 21.857143, 25.357143),
        (11, 13, 15, 17, 19, 11, 18, 22, 25),
        (2.700956497, 3.3617557, 4.001383, 4.6316657, 5.2541112, 3.519077, 4.441847824, 4.8456787, 5.218214),
        (17, 21, 25, 29, 33, 19, 31, 37, 43),
    ),
    "greedy3": _columns(
        (9.6875, 10.77676, 11.828857, 12.859168, 13.8759, 9.322266, 14.018433, 16.065845, 18.157969),
        (10, 11, 12, 13, 14, 10, 14, 16, 19),
        (2.258991, 2.277457, 2.30808, 2.346503, 2.390203, 2.499247, 2.74636, 3.562173, 4.432365),
        (14, 15, 16, 17, 18, 12, 21, 27, 34),
    ),
    "local-search": _columns(
        (9.266975, 10.364015, 11.436768, 12.49276, 13.5367, 9.298828, 14.112396, 17.502697, 21.650592),
        (9, 11, 12, 13, 14, 10, 14, 18, 22),
        (1.91116, 1.952809, 1.99118, 2.027918, 2.063927, 1.963888, 2.48626, 3.1842529, 3.9554807),
        (12, 13, 14, 15, 16, 11, 18, 23, 29),
    ),
    "tabu": _columns(
        (5.73611, 6.46822, 7.20825, 7.962262, 8.72864, 6.684375, 7.622833, 8.0485992, 8.54285),
        (6, 7, 7, 8, 9, 7, 8, 8, 8),
        (1.040400131, 1.15467, 1.286423, 1.442918, 1.600704, 1.5089498, 1.170798, 1.1283003, 1.15764),
        (9, 10, 11, 12, 13, 10, 13, 13, 13),
    ),
}

#: Singley's tabu run time per game in ms (Table 6-1; Pentium 4 era hardware).
THESIS_TABU_MS = dict(zip((f"{n}x{m}" for n, m in SIZES),
                          (2.266, 4.493, 6.857, 13.778, 22.340, 0.892, 59.662, 521.835, 4382.850)))

#: How the thesis counted each method's guesses: until the code was "known" to the method (a
#: deduced last guess not played) or until the "win" (n blacks). Greedy 1 never deduces, so both agree.
#: Greedy 3 and local search are not reproduced exactly (see the notes); their counting follows
#: the thesis's worst-case formulas (Greedy 3's last stone deduced, local search until n blacks).
COUNTING = {"greedy1": "win", "greedy2": "known", "greedy3": "known", "local-search": "win", "tabu": "win"}


@dataclass(frozen=True)
class SingleyRow(GuessFigures):
    """Our figures for one method and size beside the thesis's."""

    method: str
    size: str
    games: int
    known: np.ndarray  # guesses until the code was known, per game (the thesis's count)
    played: np.ndarray  # guesses until the winning guess, per game
    seconds: float
    thesis: ThesisFigure

    @property
    def guesses(self) -> np.ndarray:
        """Guesses per game, counted as the thesis counted this method (``COUNTING``)."""
        return self.known if COUNTING[self.method] == "known" else self.played

    @property
    def exact(self) -> bool:
        """Whether the row covers every secret once with a deterministic method."""
        return self.method in ALL_SECRETS

    def to_dict(self) -> dict:
        return {
            "method": self.method, "size": self.size, "games": self.games, "exact": self.exact,
            "counting": COUNTING[self.method], "mean": self.mean, "stderr": None if self.exact else self.stderr,
            "median": self.median, "std": self.std, "max": self.max,
            "mean_until_known": float(self.known.mean()), "mean_until_win": float(self.played.mean()),
            "seconds": self.seconds,
            "thesis": vars(self.thesis),
        }


def run_singley(
    methods: Iterable[str],
    sizes: Iterable[tuple[int, int]] = SIZES,
    tabu_games: int | None = 2000,
    seed: int = 2005,
) -> Iterator[SingleyRow]:
    """Play each method at each size; ``tabu_games=None`` follows the thesis (5 runs over every
    secret, 20 000 random secrets at 7x8), a number plays that many random secrets once."""
    from mmlab.experiments.evaluation import evaluate
    from mmlab.strategies import make_strategy

    def play(method: str, game: Game, secrets: int | str, runs: int) -> tuple[np.ndarray, np.ndarray]:
        if method in ALL_SECRETS:
            return ALL_SECRETS[method](game.pegs, game.colours)
        result = evaluate(game, make_strategy(method), secrets=secrets, runs=runs, seed=seed)
        return result.known, result.guesses

    for method in methods:
        play(method, Game(2, 3), "all", 1)  # compile (or load) its kernels before the clock starts
        for n, m in sizes:
            size = f"{n}x{m}"
            game = Game(n, m)
            if tabu_games is None:
                secrets, runs = (20_000, 1) if (n, m) == (7, 8) else ("all", 5)
            else:
                secrets, runs = min(tabu_games, game.n_codes), 1
            start = time.perf_counter()
            known, played = play(method, game, secrets, runs)
            yield SingleyRow(method, size, int(known.shape[0]), known, played, time.perf_counter() - start,
                             THESIS[method][size])
