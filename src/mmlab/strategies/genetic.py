"""Genetic-algorithm codebreakers: Merelo et al. (1999), Bento et al. (1999) and Berghman, Goossens
and Leus (2009), the GAs of 001's Tables 3-4 and of 003 section 3.2.

Each turn a GA (``evolution.ConsistentSearch``) evolves codes towards consistency with the answers
so far. ``variant=merelo`` and ``variant=bento`` play the first consistent code found;
``variant=berghman`` collects up to 60 consistent codes (the eligible set) over at most 100
generations of 150 codes and plays the one whose answers split the others best: for each eligible
``c``, the sum over the other eligible ``c'`` of how many eligible codes would remain if ``c'`` were
the secret; the smallest sum is played. If the budget ends with no consistent code, the fittest
code is played and ``last_fallback`` says so; the answer it gets narrows the search as usual.
After ``rescue`` such guesses in a row (20), the constraint search supplies a consistent code each
time the GA finds none, so that even a tiny budget ends the game; ``last_fallback`` says so too.
Nothing is enumerated. The readings of the papers are in ``docs/notes/ga-reading.md``.

>>> import numpy as np
>>> from mmlab.game import Game
>>> from mmlab.experiments.playout import play_game
>>> game = Game.parse_size("4x6")
>>> record = play_game(game, GeneticAlgorithm.from_raw({"variant": "berghman"}), game.parse("2413"),
...                    np.random.default_rng(1))
>>> record.won, game.format(record.guesses[0])
(True, '1123')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mmlab.errors import BadArgument
from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import evolution_kernels as ek
from mmlab.strategies.base import Param, Strategy
from mmlab.strategies.evolution import MAX_FOUND, MAX_POPULATION, RESCUE, ConsistentSearch

VARIANTS = ("merelo", "bento", "berghman")

#: Defaults per variant: population, generation budget per turn, reset after barren generations,
#: population kept between turns, consistent codes collected, first guess.
DEFAULTS = {
    # Merelo et al. 1999: population 400, reset after 15 generations without a consistent code,
    # one population through the game; the generation budget is ours (they ran until found).
    "merelo": dict(pop=400, generations=1000, reset_after=15, keep=True, eligible=1, first="aabb"),
    # Bento et al. 1999: parameters not available to us; our guesses (docs/notes/ga-reading.md).
    "bento": dict(pop=100, generations=1000, reset_after=15, keep=True, eligible=1, first="aabb"),
    # Berghman et al. 2009: population 150, at most 100 generations, eligible set up to 60, a
    # new population each turn, first guess 1123 on 4x6.
    "berghman": dict(pop=150, generations=100, reset_after=0, keep=False, eligible=60, first="aabc"),
}

VARIANT = Param("variant", "merelo", "which GA: merelo (Merelo et al. 1999), bento (Bento et al. 1999, approximated) "
                "or berghman (Berghman, Goossens and Leus 2009)", VARIANTS)
FIRST = Param("first", "", "first guess: aabb (1122, 11223), aabc (1123, 11234), random or a code; "
              "empty: the variant's (aabb for merelo and bento as in 001, aabc for berghman); in a game of "
              "too few colours for the pattern, the colours start again from the first (1122112211 at 10x2)")
POP = Param("pop", 0, "population size, at least 2 (0: the variant's: merelo 400, bento 100, berghman 150)", kind=int,
            minimum=0, maximum=MAX_POPULATION, effort=True)
GENERATIONS = Param("generations", 0, "generations per turn before the fittest code is played "
                    "(0: the variant's: merelo and bento 1000, berghman 100)", kind=int, minimum=0, effort=True)
RESET = Param("reset", -1, "draw a new population after this many generations without a consistent code "
              "(0: never; -1: the variant's: 15 for merelo and bento, never for berghman)", kind=int, minimum=-1)
EXTEND = Param("extend", 0, "generations allowed beyond the budget while no consistent code has been found "
               "(not in the papers; 0 keeps their budget)", kind=int, minimum=0, effort=True)
ELIGIBLE = Param("eligible", 0, "consistent codes collected before choosing, for berghman only (0: the variant's: "
                 "60 for berghman; merelo and bento play the first found)", kind=int, minimum=0, maximum=MAX_FOUND,
                 effort=True)


def pattern_code(game: Game, kind: str) -> tuple[int, ...]:
    """The first guess ``aabb`` (colours in pairs: 1122, 11223) or ``aabc`` (the first colour twice,
    then new colours: 1123, 11234); a game without repeated colours gets 123... Where the pattern
    needs more colours than the game has, the colours start again from the first.

    >>> pattern_code(Game.parse_size("5x8"), "aabb"), pattern_code(Game.parse_size("5x8"), "aabc")
    ((0, 0, 1, 1, 2), (0, 0, 1, 2, 3))
    >>> pattern_code(Game.parse_size("6x2"), "aabb"), pattern_code(Game.parse_size("6x2"), "aabc")
    ((0, 0, 1, 1, 0, 0), (0, 0, 1, 0, 1, 0))
    """
    pegs = game.pegs
    if not game.repeats or pegs < 2:
        return tuple(range(pegs))
    digits = tuple(i // 2 for i in range(pegs)) if kind == "aabb" else (0,) + tuple(range(pegs - 1))
    return tuple(d % game.colours for d in digits)


class GeneticAlgorithm(Strategy):
    """``ga``: a genetic algorithm searches consistent codes each turn (see the module).

    ``self.evaluations`` counts fitness computations, 001's "combinations evaluated" (Berghman's
    scoring of the eligible set is not counted; ``self.scored`` counts its answer computations).
    ``self.search`` is the ``ConsistentSearch`` of the current game.

    >>> GeneticAlgorithm.from_raw({"variant": "berghman", "pop": "100"}).spec
    'ga:variant=berghman,pop=100'
    """

    name = "ga"
    summary = "genetic algorithm: evolve codes towards consistency, play a consistent one"
    source = ("Merelo et al. 1999 and Bento et al. 1999 (001 Tables 3-4); Berghman, Goossens and Leus 2009, "
              "Efficient solutions for Mastermind using genetic algorithms")
    params = (VARIANT, FIRST, POP, GENERATIONS, ELIGIBLE, RESET, EXTEND, RESCUE)
    needs_enumeration = False
    tracks_consistent_set = False

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        defaults = DEFAULTS[self.values["variant"]]
        self.pop = self.values["pop"] or defaults["pop"]
        self.generations = self.values["generations"] or defaults["generations"]
        self.eligible = self.values["eligible"] or defaults["eligible"]
        self.first = self.values["first"] or defaults["first"]
        self.reset_after = defaults["reset_after"] if self.values["reset"] < 0 else self.values["reset"]
        if self.pop < 2:
            raise BadArgument(f"ga: pop={self.pop} is out of range: a population needs at least 2 codes, so it must be "
                              f"from 2 to {POP.maximum}, or 0 for the variant's")
        if self.eligible > 1 and self.values["variant"] != "berghman":
            raise BadArgument(f"ga: eligible={self.eligible} needs variant=berghman, which scores the codes it "
                              f"collects; variant={self.values['variant']} plays the first consistent code found")
        self.search = self._new_search()
        self.scored = 0

    def _new_search(self) -> ConsistentSearch:
        variant = self.values["variant"]
        d = DEFAULTS[variant]
        return ConsistentSearch(pop=self.pop, generations=self.generations, fitness=variant, scheme=variant,
                                reset_after=self.reset_after, keep=d["keep"], extend=self.values["extend"])

    @property
    def deterministic(self) -> bool:
        return False

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        super().start(game, rng)
        if self.first in ("aabb", "aabc"):
            self._first: int | None = game.index_of(pattern_code(game, self.first))
        elif self.first == "random":
            self._first = None
        else:
            self._first = self.fixed_first(game)
        self.search = self._new_search()
        self.scored = 0
        #: Per turn: (consistent codes found, generations run), for studies of the search.
        self.turns: list[tuple[int, int]] = []

    def guess(self, knowledge: Knowledge) -> int:
        game = self.game
        if not knowledge.history:
            if self._first is not None:
                return self._first
            return game.index_of(ek.random_population(int(self.rng.integers(2**63)), 1, game.pegs, game.colours,
                                                      game.repeats)[0])
        result = self.search.run(knowledge, self.rng, target=self.eligible)
        self.evaluations += result.evaluations
        self.turns.append((int(result.codes.shape[0]), result.generations))
        codes = result.codes
        if codes.shape[0] == 0:
            # every code the GA met was played already, or it has failed too often: ask the constraint search
            if result.best is None or self.search.needs_rescue(self.values["rescue"]):
                code, placements = knowledge.find_consistent(self.rng)
                self.evaluations += placements
                self.last_fallback = result.rescue_note
                return code
            self.last_fallback = result.fallback_note
            return game.index_of(result.best)
        if codes.shape[0] == 1 or self.values["variant"] != "berghman":
            return game.index_of(codes[0])
        scores = ek.partition_scores(codes, game.colours, game.with_white)
        n = codes.shape[0]
        self.scored += n * (n - 1)
        return game.index_of(codes[int(np.argmin(scores))])  # ties: the first found


__all__ = ["GeneticAlgorithm", "pattern_code"]
