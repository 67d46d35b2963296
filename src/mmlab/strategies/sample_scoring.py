"""Sampling codebreakers for games too large to enumerate: draw a sample of distinct consistent
codes, score each against the sample itself, and play the best (004 section 7; the "Evo" family of
Merelo's group, Berghman et al. 2009).

``sample`` lists the consistent set when the constraint search can (and samples it uniformly), else
draws random codes and keeps those that fit (uniform, ``Knowledge.draw_uniform``) while enough do,
else draws codes by randomised constraint search (``Knowledge.sample_distinct``); ``evo`` finds them by
evolution (``mmlab.strategies.evolution``). With ``pool=all`` random codes and one-peg changes of
the best codes are scored too, as exhaustive strategies may play inconsistent codes; the best few
are scored again against a five times larger sample. Scores are those of the exhaustive strategies,
computed on the sample: Entropy, Most Parts, expected size (Irving), largest part (Knuth) or Plus2.
Once the whole consistent set is listed and holds at most ``endgame`` codes (100), ``sample``
plays the first guess of an exact endgame (``mmlab.strategies.endgame``) instead; on a listed set
of more codes it plays the one of its ``lookahead`` (10) best candidates whose parts, each solved
exactly, need the fewest guesses in total.

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

from dataclasses import replace
from functools import lru_cache

import numpy as np

from mmlab.errors import UnknownStrategy, shown
from mmlab.game import Game
from mmlab.knowledge import Knowledge
from mmlab.strategies.base import Choice, Param, Strategy
from mmlab.strategies.code_rows import distinct_rows, one_peg_changes, random_codes, rows_in, sample_stats
from mmlab.strategies.endgame import (ENDGAME_KEEP, ENDGAME_OTHERS, LOOKAHEAD_NODES, MAX_NODES, endgame_pool,
                                      feedback_matrix, lookahead_totals, solve_endgame)
from mmlab.strategies.endgame_kernels import MAX_CODES
from mmlab.strategies.evolution import MAX_POPULATION, RESCUE, ConsistentSearch
from mmlab.strategies.exhaustive import top_entropy, top_expected, top_largest, top_parts, top_plus2
from mmlab.strategies.scoring import ENTROPY, LARGEST, PARTS, SUM_SQUARES, TOLERANCE

SCORES = {"entropy": top_entropy, "most-parts": top_parts, "expected": top_expected, "largest": top_largest,
          "plus2": top_plus2}
SCORE = Param("score", "entropy", "how a sample code is scored against the sample: Entropy (Neuwirth), Most "
              "Parts (Kooi), expected part size (Irving), largest part (Knuth) or Plus2 (004)", tuple(SCORES))
#: The ``finalists`` best codes of the sample's scoring are rescored against ``REFERENCE_FACTOR``
#: times as many consistent codes, which steadies the choice among near-equal scores.
REFERENCE_FACTOR = 5
SAMPLE = Param("sample", "auto", "distinct consistent codes to score against: a number, or auto (1000, or every "
               "code of a smaller game)", effort=True)
POOL = Param("pool", "all", "which codes may be guessed: the sample's (consistent), or also random codes and "
             "one-peg changes of the best codes (all)", ("all", "consistent"))
TIES = Param("ties", "random", "among top scorers (consistent ones first), when neither the endgame nor the "
             "look-ahead decides: a uniform draw (random) or the first found (first)", ("random", "first"))
#: The first guess's colour pattern is scored against every code up to this many, else against a
#: uniform sample of ``FIRST_SAMPLE`` codes.
FIRST_EXACT = 10**6
FIRST_SAMPLE = 50_000
FIRST = Param("first", "", "first guess: a code such as 11223, or empty for the colour pattern (AABBC...) "
              f"that scores best against every code (against {FIRST_SAMPLE} random codes in games of more than "
              f"{FIRST_EXACT}); in a game of at most {REFERENCE_FACTOR} samples' worth of codes, the one of the "
              "lookahead best whose parts need the fewest guesses")
ENDGAME = Param("endgame", 100, f"once the whole consistent set is known (at most {REFERENCE_FACTOR} samples' "
                "worth of codes) and holds 2 to this many codes, play the first guess of the tree with the fewest guesses in "
                "total, guessing its codes and (pool=all) as many inconsistent codes as others says (0: never; "
                f"not in games with black pegs only; a search of more than {MAX_NODES} sets gives way to the "
                "look-ahead, as do the game's sets after it until they are half as large)",
                kind=int, minimum=0, maximum=MAX_CODES, effort=True)
OTHERS = Param("others", ENDGAME_OTHERS, "inconsistent codes the exact endgame may guess (pool=all): the best "
               "splitters of its set, found by climbing", kind=int, minimum=0, maximum=ENDGAME_KEEP, effort=True)
LOOKAHEAD = Param("lookahead", 10, "once the whole consistent set is known and holds more than endgame codes "
                  "(or the endgame's search runs out), play the one of this many top scorers whose parts, each "
                  "then solved exactly over its own codes, need the fewest guesses in total (0: the top scorer; "
                  "not in games with black pegs only)",
                  kind=int, minimum=0, effort=True)
PART = Param("part", 100, "the look-ahead solves each part of at most this many codes exactly and values "
             f"larger ones, any whose search passes {LOOKAHEAD_NODES} sets and, unsearched, any as large as one "
             "that did, by a fit to those solved", kind=int, minimum=3, maximum=MAX_CODES, effort=True)
#: Once the exact endgame's search runs out of nodes on a set, the game's later sets are not searched
#: until they hold at most this share of its codes: they shrink by a code or two a turn with few pegs
#: and many colours, and are as hard (2x36: sets of 31, 29, ..., 17 codes each ran out, 0.5 s a turn).
ENDGAME_RETRY = 0.5
#: The consistent set is listed in full (then sampled uniformly) when it holds at most this many
#: samples' worth of codes and the search checks at most ``LIST_NODES`` placements.
LIST_FACTOR = 500
LIST_NODES = 50_000_000
#: Before listing, a pilot draw by rejection (``PILOT_DRAWS`` random codes at most, a fixed seed, so
#: the strategy's own draws are untouched) looks for ``PILOT_FOUND`` consistent codes. Finding them
#: all within the draws that would hold that many only if the set were ``PILOT_MARGIN`` times what
#: the listing keeps shows the listing would fail (the chance of a wrong skip is below 1e-18), and
#: it is not tried: at 8x12 that saves the early turns' failed listings, about a quarter of a game.
PILOT_FOUND = 200
PILOT_MARGIN = 2
PILOT_DRAWS = 1_000_000
PILOT_SEED = 0
#: Random codes the uniform draw by rejection may check for one sample (about 1 s at 8x12); when
#: too few fit, the randomised constraint searches draw the sample instead.
UNIFORM_DRAWS = 8_000_000
#: Placements the randomised searches may check for one sample; late in a huge game (10x20) each
#: consistent code costs many, and a smaller sample is better than a long wait.
SAMPLE_NODES = 30_000_000
#: Sample size of ``sample=auto``; larger samples measured no better at 8x12 (docs/reproductions.md).
AUTO_SAMPLE = 1000
#: Largest sample taken: its reference set (``REFERENCE_FACTOR`` times as many codes) fills some 40 MB at 8x12.
MAX_SAMPLE = 1_000_000
#: With ``pool=all``: rounds of one-peg changes of the ``CLIMB_PARENTS`` best codes so far.
CLIMB_ROUNDS = 2
CLIMB_PARENTS = 10
FINALISTS = Param("finalists", 40, f"the best candidates, rescored against {REFERENCE_FACTOR} times as many "
                  "consistent codes where there are more than the sample, among which the guess is chosen",
                  kind=int, minimum=1, effort=True)


def auto_sample_size(game: Game) -> int:
    """The sample size of ``sample=auto``: ``AUTO_SAMPLE`` codes, or every code of a smaller game.
    Whenever the consistent set holds no more codes than that, all of them are scored, so the
    sample follows the size of the space still open.

    >>> auto_sample_size(Game.parse_size("3x5")), auto_sample_size(Game.parse_size("8x12"))
    (125, 1000)
    """
    return int(min(game.n_codes, AUTO_SAMPLE))


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
    if game.n_codes <= FIRST_EXACT:
        secrets = game.all_digits
    else:
        secrets = random_codes(game, np.random.default_rng(0), FIRST_SAMPLE)
    patterns = colour_patterns(game.pegs, game.colours, game.repeats)
    stats = sample_stats(np.array(patterns, dtype=np.uint8), secrets, game.colours, game.with_white)
    return patterns[int(np.flatnonzero(SCORES[score](stats))[0])]


@lru_cache(maxsize=64)
def looked_ahead_first_guess(game: Game, score: str, lookahead: int, part: int) -> tuple[int, ...]:
    """Of the ``lookahead`` colour patterns that score best under ``score`` against every code,
    the one whose parts, each solved exactly over its own codes (``lookahead_totals``), need the
    fewest guesses in total: the look-ahead of a whole consistent set, at the first guess of a game
    small enough to be one.

    >>> looked_ahead_first_guess(Game.parse_size("4x6"), "entropy", 10, 100)  # 1123, not Entropy's 1234
    (0, 0, 1, 2)
    """
    codes = game.all_digits.astype(np.uint8)
    patterns = np.array(colour_patterns(game.pegs, game.colours, game.repeats), dtype=np.uint8)
    stats = sample_stats(patterns, codes, game.colours, game.with_white)
    best = patterns[ranking(stats, score)[:lookahead]]
    totals = lookahead_totals(best, codes, game.colours, game.with_white, game.win.code(game.pegs), limit=part)
    return tuple(int(c) for c in best[int(np.argmin(totals))])


class SampleScoring(Strategy):
    """Score a sample of distinct consistent codes against itself and play a top scorer.

    With ``pool=consistent`` every guess is consistent; with ``pool=all`` (the default) a code that
    scores better may be played, a consistent one whenever it ties. With one code left it is
    played. When the constraint search lists the whole consistent set and it holds at most
    ``REFERENCE_FACTOR`` samples' worth of codes, the finalists' scores are exact, and with at most
    ``endgame`` codes left the guess is that of an exact endgame (``mmlab.strategies.endgame``)
    instead of the top scorer (unless its search runs out of nodes, and then on the game's sets of
    more than ``ENDGAME_RETRY`` times as many codes). On a whole set of more codes, or where the
    endgame is not searched, the ``lookahead`` top scorers are valued by solving each of their parts
    exactly (``lookahead_totals``) and the cheapest is played.

    >>> from mmlab.experiments import play_game
    >>> game = Game.parse_size("4x6")
    >>> play_game(game, SampleScoring(), game.parse("3632"), np.random.default_rng(0)).won
    True
    """

    name = "sample"
    summary = "score a sample of the consistent codes (uniform where it can be) against itself; play the best"
    source = "Merelo et al. (004 section 7); Berghman, Goossens, Leus (2009)"
    params = (SCORE, SAMPLE, POOL, TIES, FIRST, ENDGAME, OTHERS, LOOKAHEAD, PART, FINALISTS)
    needs_enumeration = False
    tracks_consistent_set = False

    def __init__(self, **values) -> None:
        super().__init__(**values)
        size = self.values["sample"]  # a text: sample=200 from Python is read as "200"
        number = size.isascii() and size.isdigit() and len(size) <= len(str(MAX_SAMPLE))
        if size != "auto" and not (number and 1 <= int(size) <= MAX_SAMPLE):
            raise UnknownStrategy(f"{self.name}: sample={shown(size)} should be a whole number from 1 to "
                                  f"{MAX_SAMPLE:,}, or auto")

    @property
    def deterministic(self) -> bool:
        return False

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        super().start(game, rng)
        size = self.values["sample"]
        self.sample_size = auto_sample_size(game) if size == "auto" else int(size)
        first = self.fixed_first(game)
        if first is None:
            score, lookahead = self.values["score"], self.planning("lookahead", game)
            if lookahead > 0 and game.enumerable and game.n_codes <= REFERENCE_FACTOR * self.sample_size:  # a set
                first = game.index_of(looked_ahead_first_guess(game, score, lookahead, self.values["part"]))
            else:
                first = game.index_of(best_first_guess(game, score))
        self._first = first
        self._endgame_below = MAX_CODES + 1  # the sets the endgame searches hold fewer codes (ENDGAME_RETRY)

    def planning(self, name: str, game: Game) -> int:
        """``endgame`` or ``lookahead`` as set, or 0 where they do not apply: in ``evo``, and in games
        with black pegs only, where their searches took a hundred times longer for no gain we could
        measure (docs/reproductions.md)."""
        return self.values.get(name, 0) if game.with_white else 0

    def guess(self, knowledge: Knowledge) -> int:
        game = knowledge.game
        if not knowledge.history:
            self.evaluations += 1
            return self._first
        reference, whole = self.consistent_sample(knowledge, REFERENCE_FACTOR * self.sample_size)
        if reference.shape[0] == 1:
            return game.index_of(reference[0])
        if whole and reference.shape[0] <= self.planning("endgame", game) and reference.shape[0] < self._endgame_below:
            guess = self.endgame_guess(knowledge, reference)
            if guess is not None:
                return guess
            self._endgame_below = int(ENDGAME_RETRY * reference.shape[0]) + 1
        score = self.values["score"]
        finalists, stats = self.scored_finalists(reference)
        if whole and self.planning("lookahead", game) > 0:
            return self.lookahead_guess(finalists[ranking(stats, score)[:self.values["lookahead"]]], reference)
        top = np.flatnonzero(SCORES[score](stats))
        fits = knowledge.rows_fit(finalists[top])
        if fits.any():  # prefer consistent top scorers: they may win at once
            top = top[fits]
        pick = top[self.rng.integers(top.shape[0])] if self.values["ties"] == "random" else top[0]
        codes = np.array(sorted(game.index_of(d) for d in finalists[top]), dtype=np.int64)
        self.last_choice = Choice.of(codes, uniform=self.values["ties"] == "random")
        return game.index_of(finalists[pick])

    def scored_finalists(self, reference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The ``finalists`` best candidate guesses (colour rows, distinct) and their partition
        statistics against the ``reference`` consistent codes: the best of the ``candidate_pool`` of
        its first ``sample`` codes, rescored against the whole reference (``finalists_of``)."""
        return self.finalists_of(*self.candidate_pool(reference[:self.sample_size]), reference)

    def finalists_of(self, candidates: np.ndarray, stats: np.ndarray,
                     reference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The ``finalists`` best of the distinct ``candidates`` by their ``stats`` (against the
        first ``sample`` codes of ``reference``), and their partition statistics against the whole
        ``reference``: rescored when it holds more codes, else the ``stats`` already are."""
        best = ranking(stats, self.values["score"])[:self.values["finalists"]]
        if reference.shape[0] <= self.sample_size:
            return candidates[best], stats[best]
        return candidates[best], self.score_against(candidates[best], reference)

    def candidate_pool(self, sample: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The distinct candidate guesses (colour rows) and their partition statistics against the
        ``sample`` consistent codes: the sample's own codes and (``pool=all``) as many random codes,
        then ``CLIMB_ROUNDS`` rounds of one-peg changes of the ``CLIMB_PARENTS`` best codes not
        changed yet."""
        game, score = self.game, self.values["score"]
        candidates = sample if self.values["pool"] == "consistent" else distinct_rows(np.vstack([
            sample, random_codes(game, self.rng, sample.shape[0])]))
        stats = self.score_against(candidates, sample)
        if self.values["pool"] == "all":  # climb: one-peg changes of the best codes so far
            changed = candidates[:0]  # each parent is changed once
            for _ in range(CLIMB_ROUNDS):
                ranked = candidates[ranking(stats, score)]
                parents = ranked[~rows_in(ranked, changed)][:CLIMB_PARENTS]
                changed = np.vstack([changed, parents])
                grown = distinct_rows(np.vstack([candidates, one_peg_changes(parents, game)]))
                new = grown[candidates.shape[0]:]  # the old rows are distinct and come first
                candidates = grown
                stats = np.vstack([stats, self.score_against(new, sample)])
        return candidates, stats

    def score_against(self, candidates: np.ndarray, sample: np.ndarray) -> np.ndarray:
        """Partition statistics of each candidate row against the sample rows (counted as evaluations)."""
        self.evaluations += candidates.shape[0]
        return sample_stats(candidates, sample, self.game.colours, self.game.with_white)

    def endgame_guess(self, knowledge: Knowledge, consistent: np.ndarray) -> int | None:
        """The first guess of the tree with the fewest guesses in total over the whole
        ``consistent`` set (``solve_endgame``) whose guesses are its codes and, with ``pool=all``,
        the ``others`` inconsistent codes of ``endgame_pool``; ``None`` when the search runs out
        of nodes."""
        game = knowledge.game
        if consistent.shape[0] <= 2:  # one code, then the other: the solver's tree, without a pool
            guess = game.index_of(consistent[0])
            self.last_choice = Choice.of(np.array([guess], dtype=np.int64), uniform=False)
            return guess
        others = self.values["others"] if self.values["pool"] == "all" else 0
        pool, scored = endgame_pool(knowledge, consistent, others, self.rng)
        self.evaluations += scored + pool.shape[0]
        found = solve_endgame(feedback_matrix(pool, consistent, game.colours, game.with_white),
                              game.win.code(game.pegs))
        if found is None:
            return None
        guess = game.index_of(pool[found.guess])
        self.last_choice = Choice.of(np.array([guess], dtype=np.int64), uniform=False)
        return guess

    def lookahead_guess(self, best: np.ndarray, consistent: np.ndarray) -> int:
        """The row of ``best`` (candidates from the best score down) whose parts of the whole
        ``consistent`` set, each solved exactly (up to ``part`` codes), need the fewest guesses in
        total; the better scorer on a tie."""
        game = self.game
        self.evaluations += best.shape[0] + consistent.shape[0]
        totals = lookahead_totals(best, consistent, game.colours, game.with_white, game.win.code(game.pegs),
                                  limit=self.values["part"])
        guess = game.index_of(best[int(np.argmin(totals))])
        self.last_choice = Choice.of(np.array([guess], dtype=np.int64), uniform=False)
        return guess

    def consistent_sample(self, knowledge: Knowledge, n: int) -> tuple[np.ndarray, bool]:
        """Up to ``n`` distinct consistent codes as colour rows in random order (at least one), and
        whether they are the whole consistent set: a uniform draw from the whole set when the
        constraint search can list it (at most ``LIST_FACTOR`` samples' worth; not tried when a
        pilot draw shows far more, ``too_many_to_list``), else a uniform draw
        by rejection (``Knowledge.draw_uniform``) when it finds at least a sample's worth within
        ``UNIFORM_DRAWS`` random codes, else from randomised searches (``Knowledge.sample_distinct``,
        not exactly uniform)."""
        limit = LIST_FACTOR * self.sample_size
        listed = None if self.too_many_to_list(knowledge, limit) else knowledge.list_consistent(limit, LIST_NODES)
        if listed is not None:
            self.evaluations += listed.shape[0]
            if listed.shape[0] == 0:
                raise knowledge.contradiction()
            return listed[self.rng.permutation(listed.shape[0])[:n]], listed.shape[0] <= n
        drawn, draws = knowledge.draw_uniform(self.rng, n, max_draws=UNIFORM_DRAWS)
        self.evaluations += draws
        if drawn.shape[0] >= min(n, self.sample_size):
            return drawn, False
        codes, placements = knowledge.sample_distinct(self.rng, n, max_nodes=SAMPLE_NODES)
        self.evaluations += placements
        if codes.shape[0] == 0:  # the budget ran out before the first code: one patient search
            codes = self.patient_search(knowledge)
        return codes, False

    def patient_search(self, knowledge: Knowledge) -> np.ndarray:
        """One consistent code (a colour row, shape ``(1, pegs)``) from ``Knowledge.find_consistent``,
        for when the sample's searches found none (it raises if no code fits or none is found)."""
        code, placements = knowledge.find_consistent(self.rng)
        self.evaluations += placements
        return np.array([knowledge.game.digits(code)], dtype=np.uint8)

    def too_many_to_list(self, knowledge: Knowledge, limit: int) -> bool:
        """Whether a pilot draw by rejection shows that far more than ``limit`` codes are consistent:
        ``PILOT_FOUND`` of them fit among the random codes that would hold that many on average
        only if ``PILOT_MARGIN`` times ``limit`` did (at most ``PILOT_DRAWS``)."""
        n_codes = knowledge.game.n_codes
        draws = min(-(-PILOT_FOUND * n_codes // (PILOT_MARGIN * limit)), PILOT_DRAWS)
        if draws < PILOT_FOUND:  # a small game: the pilot could not find them all, and listing is cheap
            return False
        found, spent = knowledge.draw_uniform(np.random.default_rng(PILOT_SEED), PILOT_FOUND, max_draws=draws)
        self.evaluations += spent
        return found.shape[0] == PILOT_FOUND


def ranking(stats: np.ndarray, score: str) -> np.ndarray:
    """Row order of ``stats`` from the best under ``score``. Plus2 orders by entropy, and entropies
    within ``TOLERANCE`` of each other (the ties of ``top_plus2``) by parts.

    >>> stats = np.array([[9, 30, 5, 2.0], [9, 30, 7, 2.0 - 1e-12], [9, 30, 9, 1.0]])
    >>> ranking(stats, "entropy").tolist(), ranking(stats, "plus2").tolist()
    ([0, 1, 2], [1, 0, 2])
    """
    if score == "plus2":
        entropy = -stats[:, ENTROPY]
        order = np.argsort(entropy, kind="stable")
        ties = np.cumsum(np.diff(entropy[order], prepend=entropy[order[:1]]) > TOLERANCE)  # entropy groups
        return order[np.lexsort((-stats[order, PARTS], ties))]
    key = {"entropy": -stats[:, ENTROPY], "most-parts": -stats[:, PARTS], "expected": stats[:, SUM_SQUARES],
           "largest": stats[:, LARGEST]}[score]
    return np.argsort(key, kind="stable")


POP = Param("pop", 150, "GA population (Berghman et al.: 150)", kind=int, minimum=2, maximum=MAX_POPULATION,
            effort=True)
GENERATIONS = Param("generations", 100, "GA generations per turn (Berghman et al.: 100)", kind=int, minimum=1,
                    effort=True)
EVO_FIRST = replace(FIRST, help="first guess: a code such as 11223, or empty for the colour pattern (AABBC...) "
                   f"that scores best against every code (against {FIRST_SAMPLE} random codes in games of more "
                   f"than {FIRST_EXACT})")
EVO_FINALISTS = replace(FINALISTS, help="the best candidates, among which the guess is chosen (the GA's codes are "
                        "the whole reference, so none is rescored)")
EVO_TIES = replace(TIES, help="among top scorers (consistent ones first): a uniform draw (random) or the first "
                  "found (first)")
EVO_SAMPLE = Param("sample", "60", "distinct consistent codes the GA collects and scores (Berghman et al.: 60): a "
                   f"number from 1 to {MAX_SAMPLE:,}, or auto ({AUTO_SAMPLE}, or every code of a smaller game)",
                   effort=True)


class EvolvedSampleScoring(SampleScoring):
    """The "Evo" family: a genetic algorithm (``ConsistentSearch``, Berghman's fitness and operators)
    collects the sample of consistent codes, which is scored against itself as in ``sample``. When
    the budget ends with no consistent code, the fittest code is played and the record says so (after
    ``rescue`` such guesses in a row, the constraint search supplies a consistent code instead, and
    the record says that too)."""

    name = "evo"
    summary = "score the consistent codes a genetic algorithm finds against each other; play the best"
    source = "Merelo et al. (004 section 7, 'Evo'); Berghman, Goossens, Leus (2009)"
    params = (SCORE, EVO_SAMPLE, replace(POOL, default="consistent"), EVO_TIES, EVO_FIRST, POP, GENERATIONS,
              EVO_FINALISTS, RESCUE)

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        super().start(game, rng)
        self.search = ConsistentSearch(pop=self.values["pop"], generations=self.values["generations"],
                                       fitness="berghman")

    def consistent_sample(self, knowledge: Knowledge, n: int) -> tuple[np.ndarray, bool]:
        """The distinct consistent codes the GA collects (``sample`` of them at most; ``n`` is not
        used: the GA's sample is the whole reference)."""
        result = self.search.run(knowledge, self.rng, target=self.sample_size)
        self.evaluations += result.evaluations
        if result.codes.shape[0] > 0:
            return result.codes, False
        if result.best is not None and not self.search.needs_rescue(self.values["rescue"]):
            self.last_fallback = result.fallback_note
            return result.best[None, :], False
        self.last_fallback = result.rescue_note  # every code the GA met was played, or it failed too often
        return self.patient_search(knowledge), False
