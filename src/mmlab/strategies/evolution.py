"""The evolutionary search for codes consistent with the answers so far, the building block of the
GA codebreakers (``genetic.py``) and of any strategy that needs a few consistent codes of a game too
large to enumerate.

``ConsistentSearch(...).run(knowledge, rng, target, max_generations)`` evolves a population of
codes whose fitness is their distance to consistency (``evolution_kernels``) and returns up to
``target`` distinct consistent codes, the fitness computations spent, and the fittest code seen.
Nothing is enumerated: memory is the population (``pop x pegs`` bytes) and the codes found, so it
runs on 8x12 and 10x20 as on 4x6.

>>> import numpy as np
>>> from mmlab.game import Game, Feedback
>>> from mmlab.knowledge import Knowledge
>>> game = Game.parse_size("8x12")
>>> k = Knowledge.initial(game).update(game.parse("1 1 2 2 3 3 4 4"), Feedback(1, 2))
>>> result = ConsistentSearch(pop=150, fitness="berghman").run(k, np.random.default_rng(0), target=5)
>>> result.codes.shape, all(k.fits(code) for code in result.codes)
((5, 8), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mmlab.errors import INT64_MAX, BadArgument
from mmlab.knowledge import Knowledge
from mmlab.strategies import evolution_kernels as ek
from mmlab.strategies.base import Param
from mmlab.strategies.rng_kernels import new_rng

FITNESS = {"merelo": ek.DIST_MERELO, "berghman": ek.DIST_BERGHMAN, "bento": ek.DIST_BENTO}
SCHEMES = {"merelo": ek.SCHEME_MERELO, "berghman": ek.SCHEME_BERGHMAN, "bento": ek.SCHEME_BENTO}
#: Fitness computations, roughly, of one call of the evolution kernel: the search returns to Python
#: between calls, where a Ctrl-C or SIGTERM is taken (in one call, ``generations=10**14`` could only
#: be killed); the next call evolves on from the same state, so the games are the same whatever the step.
STEP_EVALUATIONS = 10**6


@dataclass(frozen=True)
class SearchResult:
    """What one search found.

    ``codes``: ``uint8[k, pegs]``, the distinct consistent codes found, in the order found
    (``k <= target``; ``k == 0`` when none was found). ``evaluations``: fitness computations
    spent ("combinations evaluated", 001). ``best``: ``uint8[pegs]``, the fittest code seen that
    was not already played (the first consistent code when ``codes`` is not empty); ``None`` only
    if every code evaluated had been played. ``distance``: the distance of ``best`` to consistency
    (0 when consistent; in the units of the search's fitness, without Berghman's constant term).
    ``generations``: generations run.
    """

    codes: np.ndarray
    evaluations: int
    best: np.ndarray | None
    distance: int
    generations: int

    @property
    def fallback_note(self) -> str:
        """What a codebreaker records when it plays ``best`` because no consistent code was found.

        >>> SearchResult(np.zeros((0, 4), np.uint8), 300, np.zeros(4, np.uint8), 2, 100).fallback_note
        'no consistent code in 100 generations; played the fittest (distance 2)'
        >>> SearchResult(np.zeros((0, 4), np.uint8), 3, np.zeros(4, np.uint8), 1, 1).fallback_note
        'no consistent code in 1 generation; played the fittest (distance 1)'
        """
        return f"{self.none_found}; played the fittest (distance {self.distance})"

    @property
    def rescue_note(self) -> str:
        """What a codebreaker records when it plays a code of the constraint search (its rescue)
        because the GA found no consistent code.

        >>> SearchResult(np.zeros((0, 4), np.uint8), 300, None, -1, 100).rescue_note
        'no consistent code in 100 generations; played one found by constraint search'
        """
        return f"{self.none_found}; played one found by constraint search"

    @property
    def none_found(self) -> str:
        """The search's outcome in words, e.g. 'no consistent code in 100 generations'."""
        generations = f"{self.generations} generation" + ("" if self.generations == 1 else "s")
        return f"no consistent code in {generations}"


class ConsistentSearch:
    """A genetic algorithm that collects codes consistent with the answers so far.

    ``pop``: population size. ``generations``: default generation budget of ``run``.
    ``fitness``: ``merelo`` (sum of |Δblack| + |Δwhite|, weights ``w_black``, ``w_white``),
    ``berghman`` (a·sum|ΔX| + sum|ΔY|, ``w_black`` = a = 1) or ``bento`` (our approximation; see
    ``evolution_kernels``). ``scheme``: the generation's operators, ``merelo`` (steady state:
    two-point crossover 40%, circular mutation 40%, transposition 20%), ``berghman``
    (generational: 1/2-point crossover, mutation 0.03, permutation 0.03, inversion 0.02) or
    ``bento``; by default the same name as ``fitness``. ``reset_after``: draw a new population
    after that many generations without a consistent code (0: never; Merelo: 15). ``keep``: carry
    the population from one ``run`` to the next (Merelo's GA evolves one population through the
    game; Berghman's starts each turn afresh). ``elite``: codes of a generational (``berghman``)
    scheme that pass unchanged to the next generation (0, as we read Berghman). ``pool``: parents
    of the ``berghman`` scheme are drawn from the ``pool`` fittest codes (0: the better half).
    ``extend``: generations allowed beyond the budget while no consistent code has been found
    (0: the budget is final).

    The search stops as soon as ``target`` distinct consistent codes are collected (the fitness
    computations are counted up to that one), so ``target=1`` plays "the first consistent code
    found".
    """

    def __init__(self, pop: int = 150, generations: int = 100, fitness: str = "berghman", scheme: str | None = None,
                 reset_after: int = 0, keep: bool = False, w_black: int = 1, w_white: int = 1,
                 elite: int = 0, pool: int = 0, extend: int = 0) -> None:
        scheme = fitness if scheme is None else scheme
        if fitness not in FITNESS:
            raise BadArgument(f"fitness={fitness!r} is not known; choose one of {', '.join(FITNESS)}")
        if scheme not in SCHEMES:
            raise BadArgument(f"scheme={scheme!r} is not known; choose one of {', '.join(SCHEMES)}")
        if pop < 2:
            raise BadArgument(f"pop={pop}: a population needs at least 2 codes")
        counts = {"generations": generations, "reset_after": reset_after, "w_black": w_black, "w_white": w_white,
                  "elite": elite, "pool": pool, "extend": extend}
        negative = [f"{name}={value}" for name, value in counts.items() if value < 0]
        if negative:
            raise BadArgument(f"{', '.join(negative)}: cannot be negative")
        self.pop = int(pop)
        self.generations = int(generations)
        self.fitness = fitness
        self.scheme = scheme
        self.reset_after = int(reset_after)
        self.keep = bool(keep)
        self.w_black = int(w_black)
        self.w_white = int(w_white)
        self.elite = int(elite)
        self.pool = int(pool)
        self.extend = int(extend)
        self._population: np.ndarray | None = None
        self._game = None
        #: ``run`` calls in a row, up to the last, that found no consistent code.
        self.barren_runs = 0

    def __repr__(self) -> str:
        return (f"ConsistentSearch(pop={self.pop}, generations={self.generations}, fitness={self.fitness!r}, "
                f"scheme={self.scheme!r}, reset_after={self.reset_after}, keep={self.keep}, w_black={self.w_black}, "
                f"w_white={self.w_white}, elite={self.elite}, pool={self.pool}, extend={self.extend})")

    def run(self, knowledge: Knowledge, rng: np.random.Generator, target: int = 1,
            max_generations: int | None = None) -> SearchResult:
        """Evolve until ``target`` distinct consistent codes are found or ``max_generations``
        generations (default ``self.generations``) have run after the first population."""
        if target < 1:
            raise BadArgument(f"target={target}: ask for at least one code")
        if max_generations is not None and max_generations < 0:
            raise BadArgument(f"max_generations={max_generations} cannot be negative")
        game = knowledge.game
        gens = self.generations if max_generations is None else int(max_generations)
        extend = min(self.extend, INT64_MAX - gens)  # the kernel adds the two in int64
        h_digits, h_counts, h_codes = knowledge.history_arrays
        blacks, whites = np.divmod(h_codes, game.pegs + 1)
        phase = int(bool(np.any(blacks + whites == game.pegs)))
        seed = int(rng.integers(2**63))
        if not self.keep or self._population is None or self._game != game:
            self._population = ek.random_population(int(rng.integers(2**63)), self.pop, game.pegs, game.colours,
                                                    game.repeats)
            self._game = game
        pop = self._population
        fit = np.zeros(self.pop, dtype=np.int64)
        found = np.zeros((target, game.pegs), dtype=np.uint8)
        state = np.zeros(ek.N_STATE, dtype=np.int64)
        state[ek.S_BEST] = ek.NO_BEST
        best = np.zeros(game.pegs, dtype=np.uint8)
        rng_state, progress = new_rng(seed), np.zeros(2, dtype=np.int64)
        step, first = max(1, STEP_EVALUATIONS // self.pop), True
        while not ek.evolve(rng_state, SCHEMES[self.scheme], pop, fit, first, gens, self.reset_after, game.colours,
                            game.repeats, h_digits, h_counts, blacks, whites, game.with_white, FITNESS[self.fitness],
                            self.w_black, self.w_white, phase, found, state, best, target, self.elite,
                            self.pool, extend, progress, step):
            first = False
        ran = progress[0]
        n = int(state[ek.S_FOUND])
        self.barren_runs = 0 if n else self.barren_runs + 1
        has_best = state[ek.S_BEST] < ek.NO_BEST
        return SearchResult(found[:n].copy(), int(state[ek.S_EVALS]), best.copy() if has_best else None,
                            int(state[ek.S_BEST]) if has_best else -1, int(ran))

    def needs_rescue(self, rescue: int) -> bool:
        """Whether more than ``rescue`` runs in a row (``rescue`` > 0) have found no consistent
        code, so that a codebreaker should ask the constraint search for one (``RESCUE``)."""
        return 0 < rescue < self.barren_runs


#: Largest population and largest set of consistent codes collected a search may ask for (a few
#: tens of MB at 20 pegs): larger ones could not be allocated, and would take hours a turn anyway.
MAX_POPULATION = 1_000_000
MAX_FOUND = 1_000_000

RESCUE = Param("rescue", 20, "after this many guesses in a row for which the GA found no consistent code, "
               "each further one comes from the constraint search, so that a tiny budget still ends "
               "the game (not in the papers; 0: never, and then a tiny budget may play a large game for hours, "
               "as pop=2,generations=1,rescue=0 at 8x12)", kind=int, minimum=0)

__all__ = ["MAX_FOUND", "MAX_POPULATION", "RESCUE", "ConsistentSearch", "SearchResult"]
