"""Sampling codebreakers for games too large to enumerate: draw a sample of distinct consistent
codes, score each against the sample itself, and play the best (004 section 7; the "Evo" family of
Merelo's group, Berghman et al. 2009).

``sample`` draws the codes by randomised constraint search (``Knowledge.sample_distinct``);
``evo`` (``mmlab.strategies.genetic``) finds them by evolution. Scores are those of the exhaustive
strategies, computed on the sample: Entropy, Most Parts, expected size (Irving), largest part
(Knuth) or Plus2.

>>> from mmlab.game import Game
>>> from mmlab.experiments import play_game
>>> from mmlab.strategies import make_strategy
>>> game = Game.parse_size("8x12")
>>> s = make_strategy("sample:score=entropy,sample=200")
>>> record = play_game(game, s, game.parse("1 2 3 4 5 6 7 8"), np.random.default_rng(1))
>>> record.won
True
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from mmlab.errors import UnknownStrategy
from mmlab.game import Game, kernels
from mmlab.knowledge import Knowledge
from mmlab.strategies.base import Choice, Param, Strategy
from mmlab.strategies.exhaustive import top_entropy, top_expected, top_largest, top_parts, top_plus2

SCORES = {"entropy": top_entropy, "most-parts": top_parts, "expected": top_expected, "largest": top_largest,
          "plus2": top_plus2}
SCORE = Param("score", "entropy", "how a sample code is scored against the sample: Entropy (Neuwirth), Most "
              "Parts (Kooi), expected part size (Irving), largest part (Knuth) or Plus2 (004)", tuple(SCORES))
SAMPLE = Param("sample", "auto", "distinct consistent codes to score: a number, or auto (grows with the game)")
POOL = Param("pool", "all", "which codes may be guessed: the sample's (consistent), or also random codes and "
             "one-peg changes of sample codes (all)", ("all", "consistent"))
TIES = Param("ties", "random", "among top scorers: a uniform draw (random) or the first found (first)",
             ("random", "first"))
FIRST = Param("first", "", "first guess: a code such as 11223, or empty for the colour pattern (AABBC...) "
              "that scores best against a uniform sample of every code")
#: The consistent set is listed in full (then sampled uniformly) when it holds at most this many
#: samples' worth of codes and the search checks at most ``LIST_NODES`` placements.
LIST_FACTOR = 50
LIST_NODES = 5_000_000
#: Sample size of ``sample=auto`` (measured in docs/reproductions.md: 1000 reaches 5x8 5.48, 6x9 6.26,
#: 8x12 8.18 with ``pool=all``).
AUTO_SAMPLE = 1000
#: Sample codes whose one-peg changes are scored with ``pool=all``.
PROBE_PARENTS = 20
#: The first guess's colour pattern is scored against every code up to this many, else against a
#: uniform sample of ``FIRST_SAMPLE`` codes.
FIRST_EXACT = 10**6
FIRST_SAMPLE = 50_000


def auto_sample_size(game: Game) -> int:
    """The sample size of ``sample=auto``: ``AUTO_SAMPLE`` codes, or every code of a smaller game.
    Whenever the consistent set holds no more codes than that, all of them are scored, so the
    sample follows the size of the space still open.

    >>> auto_sample_size(Game.parse_size("3x5")), auto_sample_size(Game.parse_size("8x12"))
    (125, 1000)
    """
    return int(min(game.n_codes, AUTO_SAMPLE))


def colour_counts(digits: np.ndarray, colours: int) -> np.ndarray:
    """``uint8[k, colours]``: how often each colour occurs in each code row of ``digits``."""
    counts = np.zeros((digits.shape[0], colours), dtype=np.uint8)
    for c in range(colours):
        counts[:, c] = (digits == c).sum(axis=1)
    return counts


def sample_stats(digits: np.ndarray, n_sample: int, colours: int, with_white: bool) -> np.ndarray:
    """Partition statistics (``mmlab.game.kernels.partition_stats`` columns) of each code row of
    ``digits`` against its first ``n_sample`` rows (the sample)."""
    counts = colour_counts(digits, colours)
    rows = np.arange(digits.shape[0], dtype=np.int64)
    sample = rows[:n_sample]
    kernel = kernels.partition_stats if rows.shape[0] * n_sample >= 200_000 else kernels.partition_stats_serial
    return kernel(rows, sample, digits, counts, with_white)


def colour_patterns(pegs: int, colours: int, repeats: bool) -> list[tuple[int, ...]]:
    """The first guesses up to symmetry: one code per partition of the pegs into colour runs.

    >>> colour_patterns(4, 6, True)
    [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 1), (0, 0, 1, 2), (0, 1, 2, 3)]
    """
    if not repeats:
        return [tuple(range(pegs))]

    def parts(n: int, largest: int) -> list[list[int]]:
        if n == 0:
            return [[]]
        return [[k] + rest for k in range(min(n, largest), 0, -1) for rest in parts(n - k, k)]

    out = []
    for runs in parts(pegs, pegs):
        if len(runs) <= colours:
            out.append(tuple(c for c, k in enumerate(runs) for _ in range(k)))
    return out


@lru_cache(maxsize=64)
def best_first_guess(game: Game, score: str) -> tuple[int, ...]:
    """The colour pattern that scores best under ``score`` against every code, or against a uniform
    sample of ``FIRST_SAMPLE`` codes (seeded, so the same for every game of a size) when there are
    more than ``FIRST_EXACT``."""
    rng = np.random.default_rng(0)
    if game.n_codes <= FIRST_EXACT:
        secrets = game.all_digits
    elif game.repeats:
        secrets = rng.integers(game.colours, size=(FIRST_SAMPLE, game.pegs)).astype(np.uint8)
    else:
        secrets = np.argsort(rng.random((FIRST_SAMPLE, game.colours)), axis=1)[:, :game.pegs].astype(np.uint8)
    patterns = colour_patterns(game.pegs, game.colours, game.repeats)
    digits = np.vstack([np.array(patterns, dtype=np.uint8), secrets])
    counts = colour_counts(digits, game.colours)
    guesses = np.arange(len(patterns), dtype=np.int64)
    cand = np.arange(len(patterns), digits.shape[0], dtype=np.int64)
    stats = kernels.partition_stats(guesses, cand, digits, counts, game.with_white)
    return patterns[int(np.flatnonzero(SCORES[score](stats))[0])]


class SampleScoring(Strategy):
    """Score a sample of distinct consistent codes against itself and play a top scorer.

    Every guess is consistent. With one code left it is played; when the sample holds every
    consistent code (the searches kept returning codes already drawn) the scores are exact.
    """

    name = "sample"
    summary = "score a sample of consistent codes (constraint search) against itself; play the best"
    source = "Merelo et al. (004 section 7); Berghman, Goossens, Leus (2009)"
    params = (SCORE, SAMPLE, POOL, TIES, FIRST)
    needs_enumeration = False
    tracks_consistent_set = False

    def __init__(self, **values) -> None:
        super().__init__(**values)
        size = self.values["sample"]
        if size != "auto" and not (size.isdigit() and int(size) >= 1):
            raise UnknownStrategy(f"{self.name}: sample={size!r} should be a whole number from 1, or auto")

    @property
    def deterministic(self) -> bool:
        return False

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        super().start(game, rng)
        size = self.values["sample"]
        self.sample_size = auto_sample_size(game) if size == "auto" else int(size)
        first = self.fixed_first(game)
        self._first = first if first is not None else game.index_of(best_first_guess(game, self.values["score"]))

    def guess(self, knowledge: Knowledge) -> int:
        game = knowledge.game
        if not knowledge.history:
            self.evaluations += 1
            return self._first
        digits = self.consistent_sample(knowledge)
        if digits.shape[0] == 1:
            return game.index_of(digits[0])
        candidates = digits if self.values["pool"] == "consistent" else np.vstack([digits, self.probes(digits)])
        stats = sample_stats(candidates, digits.shape[0], game.colours, game.with_white)
        self.evaluations += candidates.shape[0]
        top = np.flatnonzero(SCORES[self.values["score"]](stats))
        if top[0] < digits.shape[0]:  # prefer consistent top scorers: they may win at once
            top = top[top < digits.shape[0]]
        pick = top[self.rng.integers(top.shape[0])] if self.values["ties"] == "random" else top[0]
        codes = np.array(sorted(game.index_of(d) for d in candidates[top]), dtype=np.int64)
        self.last_choice = Choice.of(codes, uniform=self.values["ties"] == "random")
        return game.index_of(candidates[pick])

    def probes(self, digits: np.ndarray) -> np.ndarray:
        """Codes that need not be consistent, scored beside the sample (``pool=all``): random codes
        and every one-peg change of a few sample codes."""
        game = self.game
        n = digits.shape[0]
        if game.repeats:
            extra = self.rng.integers(game.colours, size=(n, game.pegs)).astype(np.uint8)
        else:
            extra = np.argsort(self.rng.random((n, game.colours)), axis=1)[:, :game.pegs].astype(np.uint8)
        base = digits[self.rng.choice(n, min(n, PROBE_PARENTS), replace=False)]
        changed = np.repeat(base, game.pegs * game.colours, axis=0).reshape(-1, game.pegs, game.colours, game.pegs)
        changed = changed.copy()
        for peg in range(game.pegs):
            changed[:, peg, :, peg] = np.arange(game.colours, dtype=np.uint8)
        changed = changed.reshape(-1, game.pegs)
        out = np.vstack([extra, changed])
        if not game.repeats:
            out = out[[len(set(row)) == game.pegs for row in out.tolist()]]
        return out

    def consistent_sample(self, knowledge: Knowledge) -> np.ndarray:
        """Up to ``sample_size`` distinct consistent codes as colour rows (at least one): a uniform
        draw from the whole consistent set when the constraint search can list it (at most
        ``LIST_FACTOR`` samples' worth), else from randomised searches (``Knowledge.sample_distinct``)."""
        n = self.sample_size
        listed = knowledge.list_consistent(LIST_FACTOR * n, LIST_NODES)
        if listed is not None:
            self.evaluations += listed.shape[0]
            if listed.shape[0] <= n:
                return listed
            return listed[np.sort(self.rng.choice(listed.shape[0], n, replace=False))]
        codes, placements = knowledge.sample_distinct(self.rng, n)
        self.evaluations += placements
        return codes

