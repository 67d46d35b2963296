"""Exhaustive codebreakers: score every allowed guess by the partition it makes of the
consistent set, and play a top scorer.

Knuth (1976) minimises the largest part; Irving (1979) the expected part size; Kooi (2005)
maximises the number of parts; Neuwirth (1982) the entropy; Merelo et al. (004, section 5)
combine the last two as Plus and Plus2; Norvig's S' (002) is Knuth's rule over consistent
codes only; Random plays a random consistent code (Rosu 1997).

>>> from mmlab.game import Game
>>> from mmlab.strategies import make_strategy
>>> from mmlab.experiments import play_game
>>> game = Game.parse_size("4x6")
>>> record = play_game(game, make_strategy("knuth"), game.parse("3632"))
>>> [game.format(g) for g in record.guesses]
['1122', '1344', '3526', '1462', '3632']
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

import numpy as np

from mmlab.errors import BadArgument, SearchFailed, UnknownStrategy
from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.knowledge.knowledge import PATIENT_NODES
from mmlab.knowledge.symmetry import representatives
from mmlab.strategies.base import Choice, Param, Strategy
from mmlab.strategies.evolution import ConsistentSearch
from mmlab.strategies.scoring import (ENTROPY, LARGEST, PARTS, SUM_SQUARES, best, is_member, partition_stats,
                                      tie_pool)

POOL = Param("pool", "all", "which codes may be guessed: every code, or consistent codes only", ("all", "consistent"))
TIES = Param(
    "ties",
    "first",
    "among top scorers prefer consistent codes, then the lowest index (first) or a uniform draw (random)",
    ("first", "random"),
)
#: Generations of the GA's search for a consistent code when ``random``'s quicker searches found none.
HARD_GENERATIONS = 1000
FIRST = Param("first", "", "fixed first guess, e.g. 1123; empty = the strategy's own best first guess")


def top_largest(stats: np.ndarray) -> np.ndarray:
    return best(stats[:, LARGEST])


def top_expected(stats: np.ndarray) -> np.ndarray:
    return best(stats[:, SUM_SQUARES])


def top_parts(stats: np.ndarray) -> np.ndarray:
    return best(-stats[:, PARTS])


def top_entropy(stats: np.ndarray) -> np.ndarray:
    return best(-stats[:, ENTROPY])


def top_plus(stats: np.ndarray) -> np.ndarray:
    """Plus (004, Algorithm 2): top scorers of both Most Parts and Entropy, else of either."""
    parts, entropy = top_parts(stats), top_entropy(stats)
    both = parts & entropy
    return both if both.any() else parts | entropy


def top_plus2(stats: np.ndarray) -> np.ndarray:
    """Plus2 (004, Algorithm 3): the Entropy top scorers with the most parts."""
    entropy = top_entropy(stats)
    parts = np.where(entropy, stats[:, PARTS], -np.inf)
    return entropy & best(-parts)


class PartitionStrategy(Strategy):
    """Score guesses by the partition they make of the consistent set; play a top scorer."""

    params = (POOL, TIES, FIRST)
    select: ClassVar = staticmethod(top_largest)

    def __init__(self, **values) -> None:
        super().__init__(**values)
        self._first_cache: dict[Game, np.ndarray] = {}

    @property
    def pool(self) -> str:
        return self.values["pool"]

    @property
    def ties(self) -> str:
        return self.values["ties"]

    @property
    def deterministic(self) -> bool:
        return self.ties != "random"

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        super().start(game, rng)  # refuses a game too large to enumerate
        self._fixed_first = self.fixed_first(game)

    def guess(self, knowledge: Knowledge) -> int:
        if not knowledge.explicit:
            raise BadArgument(f"{self.spec} scores the list of consistent codes, which this knowledge does not "
                              "keep (explicit=False); start from Knowledge.initial(game)")
        if not knowledge.history:
            return self.first_guess(knowledge)
        return self.pick(self.top_scorers(knowledge), knowledge)

    def pick(self, top: np.ndarray, knowledge: Knowledge) -> int:
        """Play a top scorer, consistent ones first: the lowest (``ties=first``) or a random one."""
        pool = tie_pool(top, knowledge.consistent)
        self.last_choice = Choice.of(pool, uniform=self.ties == "random")
        if self.ties == "first":
            return int(pool[0])
        return int(pool[self.rng.integers(pool.shape[0])])

    def first_guess(self, knowledge: Knowledge) -> int:
        if self._fixed_first is not None:
            self.last_choice = Choice.of(np.array([self._fixed_first], dtype=np.int64), uniform=False)
            return self._fixed_first
        top = self._first_cache.get(knowledge.game)
        if top is None:
            top = self._first_cache[knowledge.game] = self._root_top_scorers(knowledge)
        return self.pick(top, knowledge)

    def top_scorers(self, knowledge: Knowledge) -> np.ndarray:
        """Ascending indices of the top-scoring guesses (one per class of equivalent guesses
        under ``ties=first``; every one of them under ``ties=random``)."""
        cands = knowledge.consistent
        self.evaluations += int(cands.shape[0])  # each candidate was checked against the last answer
        if cands.shape[0] <= 2:
            return cands
        if cands.shape[0] < knowledge.game.n_responses:
            # A consistent guess that splits the candidates into singletons is best under every
            # criterion, and consistent codes win ties: no other guess needs scoring.
            stats = partition_stats(knowledge, cands)
            perfect = stats[:, LARGEST] == 1
            if perfect.any():
                return cands[perfect]
        if self.pool == "consistent":
            guesses = cands
        elif self.ties == "first":
            guesses = representatives(knowledge)
        else:
            guesses = np.arange(knowledge.game.n_codes, dtype=np.int64)
        stats = partition_stats(knowledge, guesses)
        self.evaluations += int(guesses.shape[0])
        return guesses[self.select(stats)]

    def best_guesses(self, knowledge: Knowledge, n: int) -> np.ndarray:
        """Up to ``n`` guesses of its pool, best first by its own criterion: its top scorers, then
        the top scorers of the rest, and so on; one guess per class of equivalent guesses, consistent
        ones first among equals.

        >>> from mmlab.game import Game
        >>> game = Game.parse_size("4x6")
        >>> [game.format(g) for g in Knuth().best_guesses(Knowledge.initial(game), 3)]
        ['1122', '1123', '1234']
        """
        guesses = representatives(knowledge)
        if self.pool == "consistent":
            guesses = guesses[is_member(guesses, knowledge.consistent)]
        stats = partition_stats(knowledge, guesses)
        left = np.ones(guesses.shape[0], dtype=bool)
        ranked: list[np.ndarray] = []
        while left.any() and sum(r.shape[0] for r in ranked) < n:
            rows = np.flatnonzero(left)
            top = rows[self.select(stats[rows])]
            inside = is_member(guesses[top], knowledge.consistent)
            ranked += [guesses[top][inside], guesses[top][~inside]]
            left[top] = False
        return np.concatenate(ranked)[:n] if ranked else guesses[:0]

    def _root_top_scorers(self, knowledge: Knowledge) -> np.ndarray:
        """Top first guesses: score one code per colour-multiplicity pattern, then (for random
        ties) expand the winners to every code with the same pattern."""
        game = knowledge.game
        reps = representatives(knowledge)
        winners = reps[self.select(partition_stats(knowledge, reps))]
        if self.ties == "first":
            return winners
        patterns = -np.sort(-game.all_counts.astype(np.int16), axis=1)
        chosen = np.zeros(game.n_codes, dtype=bool)
        for w in winners:
            chosen |= (patterns == patterns[w]).all(axis=1)
        return np.flatnonzero(chosen).astype(np.int64)


class Knuth(PartitionStrategy):
    name = "knuth"
    summary = "minimise the size of the largest part"
    source = "Knuth 1976, The computer as Master Mind"


class Norvig(PartitionStrategy):
    """S' (002). ``ties=lisp`` breaks ties as Norvig's Lisp program does, which gives his figures
    (4x6: mean 4.47, worst 6; both sample dialogues): the first minimiser in his list of
    possibilities, built by ``push`` (``lisp_order``) and reversed at every move, since each
    answer's list is pushed together from the one before.

    >>> from mmlab.experiments import play_game
    >>> game = Game.parse_size("4x6")   # his colours G Y B R O P are 1-6
    >>> [game.format(g) for g in play_game(game, "norvig:ties=lisp", "1246").guesses]
    ['6161', '1623', '5612', '1536', '1246']
    """

    name = "norvig"
    summary = "S': minimise the largest part, guessing consistent codes only"
    source = "Norvig 1984, Playing Mastermind Optimally (002)"
    params = (Param("pool", "consistent", POOL.help, POOL.choices),
              Param("ties", "first", TIES.help + "; or as Norvig's Lisp program (lisp)", ("first", "random", "lisp")),
              FIRST)

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        if self.ties == "lisp" and self.pool != "consistent":
            raise UnknownStrategy("norvig: ties=lisp follows Norvig's list of the codes still possible, so it "
                                  "guesses from them only (pool=consistent)")
        super().start(game, rng)
        self._lisp_place = lisp_order(game) if self.ties == "lisp" else None  # (once a game, not at every node)

    def best_guesses(self, knowledge: Knowledge, n: int) -> np.ndarray:
        """As for every partition strategy; with ``ties=lisp`` the guess it plays comes first."""
        ranked = super().best_guesses(knowledge, n)
        if self.ties != "lisp" or ranked.shape[0] == 0:
            return ranked
        played = self.guess(knowledge)
        return np.concatenate([[played], ranked[ranked != played]])[:n].astype(np.int64)

    def pick(self, top: np.ndarray, knowledge: Knowledge) -> int:
        if self.ties != "lisp":
            return super().pick(top, knowledge)
        pool = tie_pool(top, knowledge.consistent)
        self.last_choice = Choice.of(pool, uniform=False)
        place = self._lisp_place[pool]
        reversed_list = len(knowledge.history) % 2 == 1
        return int(pool[np.argmax(place) if reversed_list else np.argmin(place)])


def lisp_order(game: Game) -> np.ndarray:
    """Each code's place in Norvig's list of all possibilities (002, ``all-possibilities``): the
    codes of one peg in colour order, and for more pegs, each colour followed by each shorter code
    in its list's order, pushed one by one, so that the list comes out reversed.

    >>> game = Game.parse_size("3x2")
    >>> " ".join(game.format(c) for c in np.argsort(lisp_order(game)))
    '211 212 221 222 111 112 121 122'
    """
    digits = game.all_digits.astype(np.int64)
    m = game.colours
    place = digits[:, -1].copy()
    block = m  # codes in the list of the pegs placed so far
    for k in range(game.pegs - 2, -1, -1):
        place = block * m - 1 - (digits[:, k] * block + place)
        block *= m
    return place


class Irving(PartitionStrategy):
    name = "irving"
    summary = "minimise the expected size of the part that holds the secret"
    source = "Irving 1979, Towards an optimum Mastermind strategy"
    select = staticmethod(top_expected)


class MostParts(PartitionStrategy):
    name = "most-parts"
    summary = "maximise the number of non-empty parts"
    source = "Kooi 2005, Yet another Mastermind strategy"
    select = staticmethod(top_parts)


class Entropy(PartitionStrategy):
    name = "entropy"
    summary = "maximise the entropy of the partition"
    source = "Neuwirth 1982; Bestavros and Belal 1986"
    select = staticmethod(top_entropy)


class Plus(PartitionStrategy):
    name = "plus"
    summary = "top scorers of both Most Parts and Entropy, else of either"
    source = "Merelo et al., exhaustive solutions (004, section 5, Algorithm 2)"
    select = staticmethod(top_plus)


class Plus2(PartitionStrategy):
    name = "plus2"
    summary = "the Entropy top scorers with the most parts"
    source = "Merelo et al., exhaustive solutions (004, section 5, Algorithm 3)"
    select = staticmethod(top_plus2)


class RandomConsistent(Strategy):
    """Uniform over the consistent codes when the game is enumerable; on larger games uniform
    too while random codes fit often enough or the consistent set can be listed, else found by a
    randomised constraint search, not exactly uniform (``Knowledge.random_code``)."""

    name = "random"
    summary = "a random consistent code (uniform unless the game is huge)"
    source = "Rosu 1997; Merelo et al. 'Random' (004)"
    params = (replace(FIRST, help="fixed first guess, e.g. 1123; empty = a code drawn uniformly at random"),)
    needs_enumeration = False

    @property
    def deterministic(self) -> bool:
        return False

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        super().start(game, rng)
        self._fixed_first = self.fixed_first(game)

    def guess(self, knowledge: Knowledge) -> int:
        if not knowledge.history:
            self.evaluations += 1  # every code fits an empty history
            if self._fixed_first is not None:
                self.last_choice = Choice.of(np.array([self._fixed_first], dtype=np.int64), uniform=False)
                return self._fixed_first
            self.last_choice = Choice(None, knowledge.game.n_codes, uniform=True)
            return int(self.rng.integers(knowledge.game.n_codes))
        if not knowledge.explicit:
            code, work, _ = knowledge.random_code(self.rng)
            self.evaluations += work  # codes drawn or listed, partial codes placed
            return code if code is not None else self.hard_search(knowledge)
        cands = knowledge.consistent
        self.evaluations += int(cands.shape[0])  # each candidate was checked against the last answer
        self.last_choice = Choice.of(cands, uniform=True)
        return int(cands[self.rng.integers(cands.shape[0])])

    def hard_search(self, knowledge: Knowledge) -> int:
        """A code for when the quick searches found no consistent one (10x20 with black pegs only,
        late in a game): a consistent code found by the GA's search (``HARD_GENERATIONS`` generations
        of 150 codes) or else by the patient constraint search (``PATIENT_NODES`` placements), else the
        fittest code the GA saw, recorded as a fallback."""
        game = knowledge.game
        result = ConsistentSearch(generations=HARD_GENERATIONS).run(knowledge, self.rng)
        self.evaluations += result.evaluations
        if result.codes.shape[0]:
            return game.index_of(result.codes[0])
        try:
            code, placements = knowledge.find_consistent(self.rng, PATIENT_NODES)
        except SearchFailed:
            self.evaluations += PATIENT_NODES
        else:
            self.evaluations += placements
            return code
        if result.best is None:  # (every code the GA met was played already: not seen in practice)
            raise SearchFailed(f"random: no code fitting the {len(knowledge.history)} answers of {game} was found")
        self.last_fallback = (f"{result.none_found} of a GA nor {PATIENT_NODES:.0e} placements of a constraint "
                              f"search; played the GA's fittest (distance {result.distance})")
        return game.index_of(result.best)


__all__ = [
    "Entropy",
    "Irving",
    "Knuth",
    "MostParts",
    "Norvig",
    "PartitionStrategy",
    "lisp_order",
    "Plus",
    "Plus2",
    "RandomConsistent",
]
