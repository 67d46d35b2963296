"""The stochastic hill climber (SHC) of Temporel and Kovacs (001): induce codes from the current
favourite guess (CFG) until one fits every answer, play it, and make it the CFG when its answer
is closer to the goal.

Each candidate keeps ``b`` pegs of the CFG (answer ``[b,w]``) in place, moves ``w`` others to
free positions and gives the rest new colours (uniform, or by fitness proportionate selection).
After a ``[0,0]`` answer the colours of that guess become taboo and a random consistent code
over the remaining colours becomes the CFG (not with black-only feedback, where ``[0]`` does not
mean the colours are absent). The code tracker skips candidates already examined.
Nothing is enumerated, so the climber plays 8x12 and 10x20 as well as 4x6. The readings of the
paper's open points are in ``docs/notes/shc-reading.md``.

>>> import numpy as np
>>> from mmlab.game import Game
>>> from mmlab.experiments.playout import play_game
>>> game = Game.parse_size("4x6")
>>> record = play_game(game, StochasticHillClimber(), game.parse("2413"), np.random.default_rng(1))
>>> record.won, game.format(record.guesses[0])
(True, '1122')
"""

from __future__ import annotations

import numpy as np

from mmlab.errors import BadArgument, BadFeedback, InconsistentFeedback, SearchFailed
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import hill_climb_kernels as hk
from mmlab.strategies.base import Param, Strategy
from mmlab.strategies.genetic import pattern_code
from mmlab.strategies.rng_kernels import new_rng

FPS_RANGE = (1, 100)  # 001 section 4 tunes the FPS parameter "from 1 and 100"
INITIAL_TRACKER = 1024  # slots of a new code tracker (it doubles when half full, within tracker_max_bytes)
CHECK_AFTER = 10**7  # candidates drawn for one guess before checking that some code fits at all
#: Candidates one call of the search kernel draws before it returns to Python, where a Ctrl-C is
#: taken (a kernel cannot take one: a 10x36 guess went on for minutes); the next call draws on from
#: the same generator state, so the games are the same whatever the step.
STEP_ATTEMPTS = 10**6
CHECK_NODES = 10**6  # placements that check may spend
RECENT = 2**15  # slots of the cache of codes drawn again (256 KiB: fits a core's L2 cache)

TRACKER = Param("tracker", "on", "code tracker (001 section 3.3): skip candidates already examined", ("on", "off"))
SELECTION = Param(
    "selection",
    "fps",
    "colours of mutated pegs: uniform over the pool (random) or fitness proportionate selection (fps, 001 3.4; "
    "uniform with black-only answers, which do not say which colours are present)",
    ("random", "fps"),
)
FPS = Param(
    "fps",
    45,
    f"FPS parameter F, {FPS_RANGE[0]}..{FPS_RANGE[1]}: a colour already carried p times weighs 100 - F*p (001 3.4)",
    kind=int,
    minimum=FPS_RANGE[0],
    maximum=FPS_RANGE[1],  # (001 section 4; the paper uses 45)
)
REPLACE = Param(
    "replace",
    "better",
    "a played guess replaces the CFG if its answer is better (option 2 of 001 section 4, the paper's choice) "
    "or at least as good (equal: option 1, step 5 as printed)",
    ("better", "equal"),
)
FIRST = Param(
    "first",
    "aabb",
    "first guess: aabb (colours in pairs: 1122, 11223, 112233, as in 001's tests, starting again from the first "
    "colour in a game of too few; 123... in a game without repeated colours), random, or a code such as 1234",
)


def response_rank(black: int, white: int, pegs: int) -> int:
    """Rank of the answer ``[black, white]`` in 001's distance-to-goal order (section 3.2): 0 for
    ``[0,0]``, up to ``pegs * (pegs + 3) / 2 - 1`` for the win.

    Answers are ordered by ``black + white``, then by ``black``; the win comes last, after every
    answer with all colours right. A higher rank is closer to the goal.

    >>> [response_rank(b, w, 4) for b, w in [(0, 0), (0, 1), (1, 0), (3, 0), (0, 4), (2, 2), (4, 0)]]
    [0, 1, 2, 9, 10, 12, 13]
    """
    total = black + white
    if black < 0 or white < 0 or total > pegs or (black == pegs - 1 and white == 1):
        raise BadFeedback(f"answer {black},{white} cannot occur with {pegs} pegs")
    if total < pegs:
        return total * (total + 1) // 2 + black
    if black == pegs:
        return pegs * (pegs + 3) // 2 - 1
    return pegs * (pegs + 1) // 2 + black


def response_order(pegs: int) -> list[Feedback]:
    """Every answer of a ``pegs``-peg game, farthest from the goal first (001 section 3.2).

    >>> " ".join(str(fb) for fb in response_order(3))
    '0,0 0,1 1,0 0,2 1,1 2,0 0,3 1,2 3,0'
    """
    answers = [Feedback(b, w) for b in range(pegs + 1) for w in range(pegs + 1 - b) if (b, w) != (pegs - 1, 1)]
    return sorted(answers, key=lambda fb: response_rank(fb.black, fb.white, pegs))


def aabb_code(game: Game) -> tuple[int, ...]:
    """The AABB-type first guess of 001's tests: colours in pairs, ``1122``, ``11223``, ``112233``
    (peg ``i`` gets colour ``i // 2``, 0-based); in a game of fewer than ``ceil(pegs / 2)`` colours
    they start again from the first (``1122112211`` at 10x2). A game without repeated colours, or
    of one peg, has no pairs: there it is ``123...``, as the ``ga`` codebreakers' ``first=aabb``.

    >>> aabb_code(Game.parse_size("5x8")), aabb_code(Game(4, 6, repeats=False))
    ((0, 0, 1, 1, 2), (0, 1, 2, 3))
    >>> aabb_code(Game.parse_size("6x2"))
    (0, 0, 1, 1, 0, 0)
    """
    return pattern_code(game, "aabb")


class StochasticHillClimber(Strategy):
    """001's SHC: play the first induced candidate consistent with every answer so far.

    Two readings of open points are switches of the instance, not of the spec (see
    ``docs/notes/shc-reading.md``): ``fps_per_peg`` recomputes the FPS weights after each mutated
    peg (O8), ``shift_avoid_same`` moves a peg preferably to a position where the CFG has another
    colour (O5b). ``max_attempts`` bounds the candidates drawn for one guess: when it runs out, the
    constraint search (``Knowledge.find_consistent``, up to ``rescue_nodes`` placements) supplies a
    consistent code, and ``last_fallback`` says so (``GameRecord.fallbacks``). The tracker is new
    each game and grows with the codes examined while the table, the table it doubles into and the
    cache of codes drawn again fit in ``tracker_max_bytes`` (64 MiB: at most 2**21 codes in 2**22
    slots, 32 MiB, and 48.25 MiB while it doubles); in a game that examines more, it stops taking new
    codes, and those are checked and counted again when drawn again.

    >>> StochasticHillClimber.from_raw({"selection": "random", "tracker": "off"}).spec
    'shc:tracker=off,selection=random'
    """

    name = "shc"
    summary = "stochastic hill climber: induce codes from the best guess so far, play the first consistent one"
    source = "Temporel and Kovacs 2003, A heuristic hill climbing algorithm for Mastermind (001)"
    params = (TRACKER, SELECTION, FPS, REPLACE, FIRST)
    needs_enumeration = False
    tracks_consistent_set = False

    fps_per_peg: bool = False
    shift_avoid_same: bool = False
    max_attempts: int = 10**9
    rescue_nodes: int = 10**9  # placements of the constraint search when max_attempts runs out
    #: Memory the code tracker may hold, its doubling included (the old and the new table are both
    #: alive while it copies): 64 MiB lets it reach 2**22 slots, 2**21 codes, 48.25 MiB at most.
    tracker_max_bytes: int = 2**26

    @property
    def deterministic(self) -> bool:
        return False

    def start(self, game: Game, rng: np.random.Generator | None = None) -> None:
        super().start(game, rng)
        first = self.values["first"]
        if first == "random":
            self._first: tuple[int, ...] | None = None
        elif first in ("aabb", ""):  # empty: the default, as for every strategy with a first guess
            self._first = aabb_code(game)
        else:
            self._first = game.digits(self.fixed_first(game))
        self._pool = np.ones(game.colours, dtype=bool)  # colours not yet taboo
        self._table = np.full(INITIAL_TRACKER, hk.EMPTY, dtype=np.int64)
        self._filled = 0
        self._recent = np.full(RECENT, hk.EMPTY, dtype=np.int64)
        self._frozen = False  # the tracker cannot double within tracker_max_bytes and takes no new codes
        self._seen = 0  # history entries absorbed
        self._cfg: tuple[int, ...] | None = None
        self._cfg_answer = Feedback(0, 0)
        self._next_random = False  # the last answer was [0,0]: step 4 draws a random code
        self._played: tuple[int, str] | None = None  # our last guess and how it was made
        #: Candidates drawn this game, counting those the tracker skipped (evaluations do not).
        self.attempts = 0

    @property
    def tracker_bytes(self) -> int:
        """Memory held by the code tracker of the current game (it grows with the evaluations, up to
        ``tracker_max_bytes``)."""
        return int(self._table.nbytes + self._recent.nbytes)

    # ----------------------------------------------------------------- one guess
    def guess(self, knowledge: Knowledge) -> int:
        game = self.game
        self._absorb(knowledge)
        if self._cfg is None:
            digits = self._first if self._first is not None else tuple(self.rng.integers(game.colours, size=game.pegs))
            if not game.repeats and len(set(digits)) < game.pegs:
                digits = game.digits(int(self.rng.integers(game.n_codes)))
            return self._play(game.index_of(digits), "first")
        kind = "random" if self._next_random else "induced"
        code = self._search(knowledge, random_code=self._next_random)
        return self._play(code, kind)

    def _play(self, code: int, kind: str) -> int:
        self._played = (code, kind)
        return code

    def _absorb(self, knowledge: Knowledge) -> None:
        """Take in the answers not seen yet: mark the guesses examined, move the CFG (001 steps 4-5)
        and make the colours of a [0,0] guess taboo."""
        history = knowledge.history
        if len(history) < self._seen:
            raise BadArgument("shc: the knowledge has fewer answers than before; call start() for a new game")
        game = self.game
        for guess, answer in history[self._seen:]:
            digits = game.digits(guess)
            if hk.tracker_add(self._table, hk.code_key(np.array(digits, dtype=np.int64), game.colours)):
                self._filled += 1  # the first guess, or a guess made elsewhere: never examined
                if self._filled * 2 >= self._table.shape[0]:
                    self._grow_tracker()
            kind = self._played[1] if self._played is not None and self._played[0] == guess else "other"
            if self._cfg is None or kind in ("first", "random") or self._improves(answer):
                self._cfg, self._cfg_answer = digits, answer
            # 001 step 4; with black-only feedback [0] does not mean the colours are absent
            self._next_random = answer == (0, 0) and game.with_white
            if self._next_random:
                self._pool[list(digits)] = False
        self._seen = len(history)

    def _grow_tracker(self) -> None:
        """Double the half-full tracker if the old table, the new one (twice as long) and the cache
        fit in ``tracker_max_bytes`` together; else freeze it."""
        if self._frozen:
            return
        if 3 * self._table.nbytes + self._recent.nbytes > self.tracker_max_bytes:
            self._frozen = True
        else:
            self._table = hk.tracker_grow(self._table)

    def _improves(self, answer: Feedback) -> bool:
        """001 step 5: whether ``answer`` replaces the CFG's (option 2: better; option 1: as good)."""
        pegs = self.game.pegs
        new, old = response_rank(*answer, pegs), response_rank(*self._cfg_answer, pegs)
        return new > old or (self.values["replace"] == "equal" and new == old)

    def _search(self, knowledge: Knowledge, random_code: bool) -> int:
        """Draw candidates in the kernel until one is consistent; count the evaluations."""
        game = self.game
        pool = np.flatnonzero(self._pool).astype(np.int64)
        if pool.shape[0] == 0:
            raise InconsistentFeedback("shc: every colour is taboo after the [0,0] answers, so the answers contradict "
                                       "each other")
        h_digits, h_counts, h_codes = knowledge.history_arrays
        cfg = np.array(self._cfg, dtype=np.int64)
        black, white = self._cfg_answer
        tracker = self.values["tracker"] == "on"
        # FPS reads the CFG's colours as present, which black pegs alone do not say: with them it
        # starved the colours a secret needed (a 4x6 game found no consistent code in 1e9 draws).
        fps = self.values["selection"] == "fps" and game.with_white
        selection = hk.SEL_FPS if fps else hk.SEL_RANDOM
        left, checked = self.max_attempts, False
        # A new seed starts a new stream of candidates at the start, after the tracker grows and after
        # the check; otherwise each call draws on from where the last one stopped.
        state = None
        while True:
            if state is None:
                seed = int(self.rng.integers(2**63))
                state, until_check = new_rng(seed), CHECK_AFTER
            status, code, evaluations, attempts, filled = hk.search(
                random_code, cfg, black, white, pool, selection, self.values["fps"], self.fps_per_peg,
                self.shift_avoid_same, h_digits, h_counts, h_codes, game.with_white, game.repeats,
                self._table, self._filled, self._recent, tracker, self._frozen, state,
                min(left, STEP_ATTEMPTS) if checked else min(left, until_check, STEP_ATTEMPTS),
            )
            self.evaluations += int(evaluations)
            self.attempts += int(attempts)
            self._filled = int(filled)
            left -= int(attempts)
            until_check -= int(attempts)
            if status == hk.FOUND:
                return game.index_of(code)
            if status == hk.NEED_SPACE:
                self._grow_tracker()
                state = None
                continue
            if left <= 0:  # the budget ran out: ask the constraint search
                return self._rescue(knowledge, random_code)
            if checked or until_check > 0:
                continue
            # a long search: make sure some code fits the answers at all
            checked, state = True, None
            found, nodes = knowledge.sample(np.random.default_rng(seed), max_nodes=CHECK_NODES)
            if found is None and nodes < CHECK_NODES:
                raise self._contradiction(knowledge)

    def _rescue(self, knowledge: Knowledge, random_code: bool) -> int:
        """A consistent code from the constraint search (``Knowledge.find_consistent``, as the GAs'
        rescue) when ``max_attempts`` candidates found none; the guess is recorded as a fallback."""
        game = self.game
        how = "random codes" if random_code else f"codes induced from {game.format(game.index_of(self._cfg))}"
        n, answers = self.max_attempts, len(knowledge.history)
        drawn = f"{n:,}" if n < 10**6 else f"{n:.3g}"
        told = "the answer" if answers == 1 else f"the {answers} answers"
        tried = f"none of {drawn} {how} fits {told} so far on {game}"
        try:
            code, placements = knowledge.find_consistent(self.rng, self.rescue_nodes)
        except InconsistentFeedback:
            raise self._contradiction(knowledge) from None
        except SearchFailed:
            raise SearchFailed(
                f"shc: {tried}, and the constraint search found none within {self.rescue_nodes:.3g} placements; "
                "raise max_attempts or rescue_nodes to search longer"
            ) from None
        self.evaluations += placements
        self.last_fallback = f"{tried}; played a consistent code found by constraint search"
        return code

    def _contradiction(self, knowledge: Knowledge) -> InconsistentFeedback:
        return InconsistentFeedback(
            f"shc: no code of {self.game} fits the {len(knowledge.history)} answers so far; they contradict each other"
        )


__all__ = ["StochasticHillClimber", "aabb_code", "response_order", "response_rank"]
