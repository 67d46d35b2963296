"""Static Mastermind: every guess is submitted at once, the answers come back together, then the secret is named.

A set of guesses *separates* the game when no two secrets get the same answer to every guess
of the set; then the answers name the secret, and the codebreaker wins with ``len(set) + 1``
guesses: the set, then the secret (003 section 3.5: Greenwell's six codes win 4x6 "in seven
turns"). That final guess is counted even when the secret is one of the set's codes; a secret of
the set is always told apart anyway (only it answers ``pegs,0`` to itself), so the smallest
separating set is the same under either way of counting.

``separates`` checks a set, ``search`` looks for a small separating set (randomised greedy plus
local search, one code fixed up to symmetry), ``exhaustive`` proves that no set of a given size
separates a small game.

>>> from mmlab.game import Game
>>> game = Game.parse_size("4x6")
>>> ok, details = separates(game, ["1221", "2354", "3311", "4524", "5656", "6643"])
>>> ok, details.n_classes, details.guesses_to_win
(True, 1296, 7)
>>> ok, details = separates(game, ["1122", "3344"])
>>> ok, details.largest, [game.format(s) for s in details.collision]
(False, 56, ['3455', '3456'])
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numba
import numpy as np

from mmlab.errors import BadArgument, BadCode, counted_guesses, ctrl_c_in_kernels, shown
from mmlab.game import Feedback, Game
from mmlab.knowledge.symmetry import _history_representatives
from mmlab.variants import static_kernels as K

#: Candidates scored per local-search step on games with more codes (a random sample of them).
SAMPLE = 4096
#: Answers worked out per piece of a step's scoring, between looks at the clock, until the pace of
#: this machine is measured (about 1 s on 2 cores with the feedback table, 3 s on a busy machine without).
PIECE_WORK = 2**28
#: Seconds of work per piece once the pace is measured: how late the search may stop.
PIECE_SECONDS = 0.25
#: Answers a second no core of a machine this runs on works out (2 cores: about 2**28 in all): a time
#: limit too short even at this pace on every core numba uses is refused before the code tables are built.
FASTEST_PER_THREAD = 2**30
#: Seconds each of the three timings of the scoring lasts at least (the fastest of them is the pace).
WARM_SECONDS = 0.015
#: A time limit is refused only when it is under the measured estimate divided by this (a busy
#: moment during the timing does not refuse a time limit that the next run would accept).
SLACK = 2
#: Least answers worked out by each piece of work shared among the cores.
CHUNK_WORK = 2**16
#: Local-search steps without improvement before a restart.
STALL = 60

Codes = Sequence[str | int]


def _verb(k: int) -> str:
    return "separates" if k == 1 else "separate"


# --------------------------------------------------------------------------------- the set
def parse_set(game: Game | str, codes: Codes) -> tuple[int, ...]:
    """Indices of a set of guesses written as codes (``"1221"``, ``"A B B A"``) or given as indices.

    Refuses, with a message naming the code, a code that does not fit ``game`` and a code given twice.

    >>> parse_set(Game.parse_size("4x6"), ["1221", "2354"])
    (42, 315)
    """
    game = Game.of(game)
    if isinstance(codes, str):  # (each character would be read as a code of its own)
        raise BadCode(f"the set of guesses is one text, {shown(codes)}: give a list of codes, e.g. "
                      f"['{'1' * game.pegs}', '{'2' * game.pegs}'] ({shown(codes)}.split() when they are separated "
                      "by spaces)")
    rows: list[int] = []
    seen: dict[int, int] = {}
    for pos, code in enumerate(codes, start=1):
        if isinstance(code, (int, np.integer)) and not isinstance(code, bool):
            if not 0 <= int(code) < game.n_codes:
                raise BadCode(f"guess {pos}: code index {int(code)} is outside 0..{game.n_codes - 1} for {game}")
            row = int(code)
        else:
            row = game.parse(str(code))
        if row in seen:
            written = "" if str(code) == game.format(row) else f" ({code!r})"
            raise BadCode(
                f"guess {pos}{written}: {game.format(row)} is already guess {seen[row]}: a repeated guess "
                "tells nothing new, drop it"
            )
        seen[row] = pos
        rows.append(row)
    return tuple(rows)


def _arrays(game: Game):
    game.require_enumerable("static Mastermind (it checks the answers of every secret)")
    table = game.table()
    if table is None:
        table = np.empty((0, 0), dtype=np.uint8)
    return game.all_digits, game.all_counts, table


def answer_keys(game: Game | str, codes: Codes) -> np.ndarray:
    """``int64[n_codes]``: one key per secret, equal exactly when two secrets get the same answers.

    >>> game = Game.parse_size("2x3")
    >>> answer_keys(game, ["12"]).tolist()     # 1,0 -> 3; 2,0 -> 6; 0,2 -> 2; 0,1 -> 1; 0,0 -> 0
    [3, 6, 3, 2, 3, 1, 1, 3, 0]
    """
    game = Game.of(game)
    rows = np.array(parse_set(game, codes), dtype=np.int64)
    digits, counts, table = _arrays(game)
    return K.answer_keys_table(rows, digits, counts, game.with_white, game.n_responses, table)


@dataclass(frozen=True)
class Separation:
    """How a set of guesses splits the secrets of a game into answer classes."""

    game: Game
    codes: tuple[int, ...]
    n_classes: int
    largest: int
    #: Two secrets that every guess answers alike (the two first of the largest class), or None.
    collision: tuple[int, int] | None

    @property
    def separates(self) -> bool:
        return self.n_classes == self.game.n_codes

    @property
    def guesses_to_win(self) -> int | None:
        """``len(codes) + 1`` (the set, then the secret) when the set separates, else None."""
        return len(self.codes) + 1 if self.separates else None

    @property
    def shared_answers(self) -> tuple[Feedback, ...]:
        """The answers the two secrets of ``collision`` both get, one per guess."""
        if self.collision is None:
            return ()
        return tuple(self.game.score(self.collision[0], g) for g in self.codes)

    @property
    def shared_said(self) -> tuple[str, ...]:
        """``shared_answers`` as the game says them: ``1,0``, or ``1`` where answers count black pegs only."""
        return tuple(self.game.answer_text(fb) for fb in self.shared_answers)

    def describe(self) -> str:
        """One line for people: the verdict, and two secrets it cannot tell apart."""
        game, n = self.game, self.game.n_codes
        if self.separates:
            return (f"the {counted_guesses(len(self.codes))} {_verb(len(self.codes))} all {n} secrets of {game}: static "
                    f"Mastermind is won in {self.guesses_to_win} guesses ({len(self.codes)} + the secret)")
        a, b = (game.format(s) for s in self.collision)
        answers = ", ".join(f"{game.format(g)}->{fb}" for g, fb in zip(self.codes, self.shared_said))
        return (f"the {counted_guesses(len(self.codes))} {'does' if len(self.codes) == 1 else 'do'} not separate {game}: {self.n_classes} answer classes for "
                f"{n} secrets, the largest holds {self.largest}; {a} and {b} get the same answers "
                f"({answers or 'no guesses'})")

    def to_dict(self) -> dict:
        game = self.game
        return {
            "game": game.size, "repeats": game.repeats, "feedback": game.feedback,
            "codes": [game.format(c) for c in self.codes], "separates": self.separates,
            "secrets": game.n_codes, "classes": self.n_classes, "largest_class": self.largest,
            "guesses_to_win": self.guesses_to_win,
            "collision": None if self.collision is None else {
                "secrets": [game.format(s) for s in self.collision],
                "answers": [[fb.black, fb.white] for fb in self.shared_answers],
            },
        }


def separation(game: Game | str, codes: Codes) -> Separation:
    """The answer classes of a set of guesses (see ``separates``)."""
    game = Game.of(game)
    rows = parse_set(game, codes)
    keys = answer_keys(game, rows)
    uniq, inverse, sizes = np.unique(keys, return_inverse=True, return_counts=True)
    biggest = int(np.argmax(sizes))
    collision = None
    if sizes[biggest] > 1:
        first_two = np.flatnonzero(inverse == biggest)[:2]
        collision = (int(first_two[0]), int(first_two[1]))
    return Separation(game, rows, int(uniq.shape[0]), int(sizes[biggest]), collision)


def separates(game: Game | str, codes: Codes) -> tuple[bool, Separation]:
    """Whether every secret gets its own answers to the guesses ``codes``, and the details.

    >>> game = Game.parse_size("3x2")
    >>> ok, details = separates(game, ["112", "121"])
    >>> ok, details.n_classes, [game.format(s) for s in details.collision]
    (False, 7, ['111', '122'])
    """
    game = Game.of(game)
    details = separation(game, codes)
    return details.separates, details


def lower_bound(game: Game | str) -> int:
    """The counting bound: ``k`` guesses give at most ``answers**k`` classes, so ``k >= log(N)/log(answers)``.

    >>> lower_bound(Game.parse_size("4x6"))   # 14**2 = 196 < 1296 <= 14**3
    3
    """
    game = Game.of(game)
    answers = len(game.feedbacks())
    k = 0
    while answers**k < game.n_codes:
        k += 1
    return k


def below_bound(game: Game, size: int) -> str:
    """Why no set of ``size`` guesses can separate ``game`` when ``size`` is below the counting bound."""
    answers = len(game.feedbacks())
    guesses = "guess gives" if size == 1 else "guesses give"
    return (f"no set of {counted_guesses(size)} can separate the {game.n_codes:,} secrets of "
            f"{game}: {size} {guesses} at most {answers}**{size} = {answers**size:,} answer vectors (counting bound: "
            f"at least {lower_bound(game)} guesses)")


# --------------------------------------------------------------------------------- proof
@dataclass
class ExhaustiveResult:
    """The outcome of ``exhaustive``: a separating set of ``size`` guesses, or a proof there is none."""

    game: Game
    size: int
    #: A separating set of ``size`` guesses, if one was found.
    found: tuple[int, ...] | None
    #: Whether the search covered every set (up to symmetry); False when the time ran out.
    complete: bool
    nodes: int
    #: Seconds of the check itself, within its time limit.
    seconds: float
    #: Seconds spent before the clock started: the code tables built and the check's kernels loaded
    #: (0 for a check the search ran: its setup is the search's).
    setup_seconds: float = 0.0

    @property
    def proves_none(self) -> bool:
        """True when no set of ``size`` guesses (hence none smaller) separates the game."""
        return self.complete and self.found is None

    def describe(self) -> str:
        game = self.game
        if self.found is not None:
            return (f"{game.format_all(self.found)} {_verb(self.size)} {game} with "
                    f"{counted_guesses(self.size)}")
        if self.complete:
            return (f"no set of {counted_guesses(self.size)} separates {game} (exhaustive up to symmetry: "
                    f"{self.nodes:,} nodes, {self.seconds:.2f} s): a separating set needs at least "
                    f"{counted_guesses(self.size + 1)}, {self.size + 2} with the secret")
        return (f"undecided: no separating set of {counted_guesses(self.size)} for {game} met before the time ran out "
                f"({self.nodes:,} nodes, {self.seconds:.2f} s)")

    def to_dict(self) -> dict:
        return {"game": self.game.size, "size": self.size, "proves_none": self.proves_none,
                "complete": self.complete, "nodes": self.nodes, "seconds": round(self.seconds, 4),
                "setup_seconds": round(self.setup_seconds, 4),
                "found": None if self.found is None else [self.game.format(c) for c in self.found]}


# --------------------------------------------------------------------------------- search
@dataclass
class SearchResult:
    """What ``search`` found: the smallest separating set it reached, or its best try at ``size``."""

    game: Game
    codes: tuple[int, ...]
    n_classes: int
    #: Seconds of search, from the start of the clock (after ``setup_seconds``) to the end.
    seconds: float
    seed: int | None
    #: The size asked for, or None (then the smallest the search could reach).
    target: int | None
    #: ``(size, found, seconds)`` of every size tried, in order.
    tried: list[tuple[int, bool, float]] = field(default_factory=list)
    restarts: int = 0
    #: Seconds spent before the clock started: the code tables built, the kernels loaded and timed.
    setup_seconds: float = 0.0
    #: Seconds of search until ``codes`` was found (None when they do not separate).
    found_after: float | None = None
    #: An exhaustive check the search ran that settled a size (games of at most ``EXHAUSTIVE_CODES``
    #: codes): no set of ``proof.size`` separates, or ``proof.found`` does.
    proof: ExhaustiveResult | None = None

    @property
    def separates(self) -> bool:
        return self.n_classes == self.game.n_codes

    @property
    def size(self) -> int:
        return len(self.codes)

    @property
    def guesses_to_win(self) -> int | None:
        return self.size + 1 if self.separates else None

    def to_dict(self) -> dict:
        game = self.game
        return {
            "game": game.size, "repeats": game.repeats, "feedback": game.feedback,
            "size": self.size, "codes": [game.format(c) for c in self.codes], "separates": self.separates,
            "secrets": game.n_codes, "classes": self.n_classes, "guesses_to_win": self.guesses_to_win,
            "seconds": round(self.seconds, 4), "setup_seconds": round(self.setup_seconds, 4),
            "found_after": None if self.found_after is None else round(self.found_after, 4),
            "seed": self.seed, "target": self.target, "restarts": self.restarts, "lower_bound": lower_bound(game),
            "tried": [{"size": k, "found": f, "seconds": round(s, 4)} for k, f, s in self.tried],
            "search_proof": None if self.proof is None else self.proof.to_dict(),
        }


Progress = Callable[[int, int], None]  # (size being tried, best number of classes so far)

#: Games of at most this many codes also run the exhaustive check while a size is searched, so a
#: size no set reaches is proved out instead of searched until the time runs out (measured: every
#: game up to 1296 codes in seconds, except 5 guesses of 4x6, about 210 s).
EXHAUSTIVE_CODES = 1296
#: Restarts of local search at a size before its first exhaustive check; twice as many before each
#: next one. Counted in restarts, not seconds, so a seed gives the same sets on any machine.
FIRST_RESTARTS = 1
#: Each exhaustive check may visit this share of the local search's work at the size so far, counted in
#: nodes (each starts afresh, and a complete one settles the size): a node is taken as ``NODE_ANSWERS``
#: answers of the local search's scoring (measured: 2 to 270 on games up to 1296 codes).
EXHAUSTIVE_SHARE = 1 / 3
NODE_ANSWERS = 16


class _Space:
    """The game's arrays and the classes of a set of guesses, for the search."""

    def __init__(self, game: Game):
        self.game = game
        self.digits, self.counts, self.table = _arrays(game)
        self.n = game.n_codes
        self.n_resp = game.n_responses
        self.ww = game.with_white
        self.everyone = np.arange(self.n, dtype=np.int64)
        self.roots = np.asarray(_history_representatives(game, ()), dtype=np.int64)
        self.pace: float | None = None  # answers worked out a second, once ``warm`` has measured it
        self.work = 0  # answers worked out by ``score`` so far (the same on every machine)

    def fb(self, g: int) -> np.ndarray:
        out = np.empty(self.n, dtype=np.uint8)
        K.feedback_row(g, self.digits, self.counts, self.ww, self.table, out)
        return out

    def labels(self, rows) -> tuple[np.ndarray, int]:
        labels, k = np.zeros(self.n, dtype=np.int64), 1
        for g in rows:
            labels, k = K.refine(labels, k, self.fb(g), self.n_resp)
        return labels, k

    def score(self, cands: np.ndarray, labels: np.ndarray, k: int,
              deadline: float = math.inf) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each candidate's classes and pairs of secrets answered alike (``score_candidates``), scored
        in pieces until every one is or the deadline passes: the candidates scored (at least one
        piece), their classes and their pairs."""
        piece = max(1, int(self.pace * PIECE_SECONDS if self.pace else PIECE_WORK) // self.n)
        classes, pairs = [], []
        for lo in range(0, cands.shape[0], piece):
            part = cands[lo:lo + piece]
            chunks = min(4 * numba.get_num_threads(), part.shape[0] * self.n // CHUNK_WORK)
            if chunks > 1:
                cl, pr = K.score_candidates(part, labels, k, self.digits, self.counts, self.ww,
                                            self.table, self.n_resp, chunks)
            else:  # a little work stays on this thread: on a busy machine waking the others takes longer
                cl, pr = np.empty(part.shape[0], dtype=np.int64), np.empty(part.shape[0], dtype=np.int64)
                K._score_chunk(0, part.shape[0], part, labels, k, self.digits, self.counts, self.ww, self.table,
                               self.n_resp, cl, pr)
            classes.append(cl)
            pairs.append(pr)
            if time.perf_counter() >= deadline:
                break
        scored = sum(c.shape[0] for c in classes)
        self.work += scored * self.n
        return cands[:scored], np.concatenate(classes), np.concatenate(pairs)

    def candidates(self, rng: np.random.Generator) -> np.ndarray:
        if self.n <= SAMPLE:
            return self.everyone
        return rng.choice(self.n, SAMPLE, replace=False).astype(np.int64)

    def warm(self) -> float:
        """Load the kernels the search calls (once per process) and time the scoring of a few
        candidates, the fastest of three timings, without drawing from any generator: answers
        worked out per second."""
        labels, k = self.labels([int(self.roots[0])])
        self.score(self.everyone[:1], labels, k)  # (on one thread)
        self.score(self.everyone[:2 * CHUNK_WORK // self.n + 2], labels, k)  # (shared among the cores)
        if self.n <= EXHAUSTIVE_CODES:  # (the search runs the exhaustive check's kernels too)
            _load_check()
        take = min(self.n, SAMPLE, max(numba.get_num_threads(), 2**21 // self.n))
        best = 0.0
        for _ in range(3):  # the fastest of three timings of at least WARM_SECONDS each
            t0, answers = time.perf_counter(), 0
            while answers == 0 or time.perf_counter() - t0 < WARM_SECONDS:
                self.score(self.everyone[:take], labels, k)
                answers += take * self.n
            best = max(best, answers / max(time.perf_counter() - t0, 1e-9))
        self.pace = best
        return self.pace


def _pick(rng: np.random.Generator, cands: np.ndarray, pairs: np.ndarray, classes: np.ndarray,
          exclude: Sequence[int]) -> tuple[int, int, int]:
    """A random candidate among those leaving fewest pairs of secrets together (then most classes)."""
    pairs = pairs.copy()
    pairs[np.isin(cands, np.asarray(exclude, dtype=np.int64))] = np.iinfo(np.int64).max
    best = pairs.min()
    tied = np.flatnonzero(pairs == best)
    top = tied[classes[tied] == classes[tied].max()]
    j = int(top[rng.integers(top.shape[0])])
    return int(cands[j]), int(pairs[j]), int(classes[j])


def _search_size(space: _Space, k: int, rng: np.random.Generator, deadline: float,
                 on_progress: Progress | None, most: float = math.inf,
                 best_classes: int = 0) -> tuple[list[int], int, int]:
    """Restarts of greedy construction and local search for ``k`` guesses until they separate, the
    deadline passes, or ``most`` restarts are made. Returns the best set that beats ``best_classes``
    (else no set), its number of classes, and the restarts made."""
    best_rows: list[int] = []
    restarts = 0
    while True:
        restarts += 1
        # Any one code of a set can be mapped onto a lowest-index member of its class under
        # colour and peg permutations: the first code is one of those and never moves.
        rows = [int(space.roots[rng.integers(space.roots.shape[0])])]
        labels, n_cls = space.labels(rows)
        pairs = classes = 0
        while len(rows) < k and time.perf_counter() < deadline:  # randomised greedy: fewest pairs left together
            cands = space.candidates(rng)
            cands, cl, pr = space.score(cands, labels, n_cls, deadline)
            g, pairs, classes = _pick(rng, cands, pr, cl, rows)
            rows.append(g)
            labels, n_cls = K.refine(labels, n_cls, space.fb(g), space.n_resp)
        classes = n_cls
        pairs = _pairs(labels, n_cls)
        stall = 0
        while pairs > 0 and stall < STALL and time.perf_counter() < deadline and len(rows) == k > 1:
            i = int(rng.integers(1, k))  # local search: replace one code (not the first) by the best
            others = rows[:i] + rows[i + 1:]
            labels, n_cls = space.labels(others)
            cands = space.candidates(rng)
            cands, cl, pr = space.score(cands, labels, n_cls, deadline)
            g, new_pairs, new_classes = _pick(rng, cands, pr, cl, rows)
            if new_pairs < pairs or (new_pairs == pairs and rng.random() < 0.5):
                stall = 0 if new_pairs < pairs else stall + 1
                rows[i], pairs, classes = g, new_pairs, new_classes
            else:
                stall += 1
        if classes > best_classes:
            best_rows, best_classes = list(rows), classes
            if on_progress is not None:
                on_progress(k, best_classes)
        if pairs == 0 or restarts >= most or time.perf_counter() >= deadline:
            return best_rows, best_classes, restarts


def _pairs(labels: np.ndarray, n_cls: int) -> int:
    sizes = np.bincount(labels, minlength=n_cls).astype(np.int64)
    return int((sizes * (sizes - 1) // 2).sum())


def _check_time(game: Game, size: int, time_limit: float, rate: float, setup: float | None = None) -> None:
    """Refuse a time limit too short to choose the guesses of a set of ``size``, one step of
    scoring for each guess after the first, at ``rate`` answers a second: measured here after
    ``setup`` seconds (refused under ``1 / SLACK`` of that estimate), or (``setup`` None) the
    fastest that can be hoped for, before any setup."""
    cands = min(game.n_codes, SAMPLE)
    step = cands * game.n_codes / rate
    least = (size - 1) * step
    if time_limit >= (least if setup is None else least / SLACK):
        return
    pace = (f"about {_seconds(step)} here" if setup is not None
            else f"at least {_seconds(step)} even at {rate:.2g} answers a second")
    after = f" (setup, not counted, took {setup:.1f} s)" if setup is not None else ""
    raise BadArgument(
        f"{game} is too large to search in {time_limit:g} s: choosing each guess scores {cands:,} candidates against "
        f"{game.n_codes:,} secrets, {pace}, and a set of {size} needs {size - 1} such choice{'s' if size > 2 else ''}; "
        f"give a time limit of "
        f"at least {math.ceil(least):,} s{after}")


def _seconds(s: float) -> str:
    return f"{s:.2g} s" if s < 10 else f"{s:,.0f} s"


@ctrl_c_in_kernels  # (the caller keeps what was found: mmlab static search prints the smallest set)
def search(game: Game | str, size: int | None = None, seed: int | None = 0, time_limit: float = 10.0,
           on_progress: Progress | None = None, on_start: Callable[[float], None] | None = None,
           on_found: Callable[[tuple[int, ...]], None] | None = None) -> SearchResult:
    """Look for a set of ``size`` guesses that separates ``game``; without ``size``, for the smallest.

    Randomised greedy construction (each guess leaves the fewest pairs of secrets answered alike)
    followed by local search (replace one guess by the best other code, sideways moves allowed),
    restarted until the set separates or ``time_limit`` seconds pass. Without ``size`` it first
    builds a separating set greedily, then asks for one guess fewer each time one is found, and
    stops at the counting bound (``lower_bound``) or when a size is not reached in the time left,
    so it uses the whole time limit unless it reaches the bound or settles a size. On games of at
    most ``EXHAUSTIVE_CODES`` codes, the exhaustive check runs beside the local search (about a
    quarter of the work at a size), so a size that no set reaches is proved out rather than searched
    until the time runs out. When each check runs and how far it goes are counted in restarts and
    nodes, not seconds: a seed gives the same sets and proofs on every machine, unless the time
    limit cuts the run.

    The clock starts once the code tables are built and the kernels loaded (``setup_seconds``).
    A ``size`` below the counting bound, and a time limit too short to choose the guesses of a
    smallest possible set (from the time one guess takes here), are refused at once. ``on_start``
    is called with the setup seconds as the clock starts, ``on_progress`` with the size tried and
    the most answer classes reached at it, ``on_found`` with each separating set as it is found.

    >>> found = search(Game.parse_size("3x3"), seed=1, time_limit=5)
    >>> found.separates, found.size, found.proof.proves_none, found.proof.size   # and no set of 2 can
    (True, 3, True, 2)
    """
    game = Game.of(game)
    if seed is not None and not (isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= 0):
        raise BadArgument(f"seed must be a whole number, 0 or more (or None: drawn at random), got {shown(seed)}")
    floor = _search_floor(game, size, time_limit)
    size = None if size is None else int(size)  # (numpy's, e.g. from np.arange, as Python's)
    fastest = FASTEST_PER_THREAD * numba.get_num_threads()
    _check_time(game, size or floor, time_limit, fastest)  # (before minutes of setup on the largest games)
    t_setup = time.perf_counter()
    space = _Space(game)
    rate = space.warm()
    setup = time.perf_counter() - t_setup
    _check_time(game, size or floor, time_limit, rate, setup)
    if on_start is not None:
        on_start(setup)
    start = time.perf_counter()
    deadline = start + time_limit
    rng = np.random.default_rng(seed)
    result = SearchResult(game, (), 0, 0.0, seed, size, setup_seconds=setup)

    def record(rows: Sequence[int], classes: int) -> None:
        result.codes, result.n_classes = tuple(int(r) for r in rows), classes
        if classes == space.n:
            result.found_after = time.perf_counter() - start
            if on_found is not None:
                on_found(result.codes)

    def attempt(k: int) -> bool:
        t0 = time.perf_counter()
        rows, classes, proof, restarts = _settle_size(space, k, rng, deadline, on_progress)
        result.restarts += restarts
        if proof is not None:
            result.proof = proof
        found = classes == space.n
        result.tried.append((k, found, time.perf_counter() - t0))
        if found or size is not None:
            record(rows, classes)
        return found

    if size is not None:
        attempt(size)
    else:
        t0 = time.perf_counter()
        rows, classes = _greedy_set(space, rng, deadline, on_progress=on_progress)
        record(rows, classes)
        result.tried.append((len(rows), classes == space.n, time.perf_counter() - t0))
        k = len(rows) - 1
        while k >= floor and time.perf_counter() < deadline and attempt(k):
            k -= 1
    result.seconds = time.perf_counter() - start
    return result


def _search_floor(game: Game, size: int | None, time_limit: float) -> int:
    """Refuse what ``search`` cannot do (a bad size or time limit, a size below the counting bound, a
    game too large to enumerate); the counting bound."""
    if size is not None and (not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size < 1):
        raise BadArgument(f"size {size!r}: a set holds at least one guess")
    if size is not None and size > game.n_codes:
        raise BadArgument(f"size {size}: {game} has only {game.n_codes} codes to choose distinct guesses from")
    if time_limit is None or not time_limit > 0:
        raise BadArgument(f"time limit {time_limit!r}: give a positive number of seconds")
    floor = lower_bound(game)
    if size is not None and size < floor:
        raise BadArgument(below_bound(game, size))
    game.require_enumerable("static Mastermind (it checks the answers of every secret)")
    return floor


def _settle_size(space: _Space, k: int, rng: np.random.Generator, deadline: float,
                 on_progress: Progress | None) -> tuple[list[int], int, ExhaustiveResult | None, int]:
    """Local search for a separating set of ``k`` guesses until one is found or the deadline passes;
    on games of at most ``EXHAUSTIVE_CODES`` codes, an exhaustive check after ``FIRST_RESTARTS``
    restarts, then after twice as many each time, with a share of the work so far (in nodes), until
    a check is complete: it settles the size (its set, or a proof that none exists). Restarts and
    nodes, not seconds, decide when each runs, so a seed gives the same outcome on every machine
    unless the deadline cuts it. Returns the best set, its classes, the complete check (or None)
    and the restarts made."""
    rows: list[int] = []
    classes = restarts = 0
    small = space.n <= EXHAUSTIVE_CODES
    most, work0 = FIRST_RESTARTS, space.work
    while True:
        more, more_classes, made = _search_size(space, k, rng, deadline, on_progress,
                                                most if small else math.inf, classes)
        restarts += made
        if more_classes > classes:
            rows, classes = more, more_classes
        if classes == space.n or not small or time.perf_counter() >= deadline:
            return rows, classes, None, restarts
        check = _exhaustive(space, k, deadline, budget=EXHAUSTIVE_SHARE * (space.work - work0) / NODE_ANSWERS)
        if check.complete:
            if check.found is not None:
                rows, classes = list(check.found), space.n
            return rows, classes, check, restarts
        most *= 2


def _greedy_set(space: _Space, rng: np.random.Generator, deadline: float, most: int | None = None,
                on_progress: Progress | None = None) -> tuple[list[int], int]:
    """Guesses added greedily (each leaving the fewest pairs of secrets answered alike) until they
    separate the game, ``most`` of them are chosen or the deadline passes; with their number of
    answer classes."""
    rows = [int(space.roots[rng.integers(space.roots.shape[0])])]
    labels, n_cls = space.labels(rows)
    while n_cls < space.n and len(rows) != most and time.perf_counter() < deadline:
        cands = space.candidates(rng)
        cands, cl, pr = space.score(cands, labels, n_cls, deadline)
        g, _, _ = _pick(rng, cands, pr, cl, rows)
        rows.append(g)
        labels, n_cls = K.refine(labels, n_cls, space.fb(g), space.n_resp)
        if on_progress is not None:
            on_progress(len(rows), n_cls)
    return rows, n_cls


# --------------------------------------------------------------------------------- proof
@ctrl_c_in_kernels
def exhaustive(game: Game | str, size: int, time_limit: float | None = None,
               on_progress: Callable[[float], None] | None = None) -> ExhaustiveResult:
    """Every set of ``size`` guesses, up to colour and peg permutations: one that separates, or a proof
    that none does (so at least ``size + 1`` guesses are needed, ``size + 2`` counting the secret).

    Sets are built in increasing code order; each new code is the lowest of its class under the
    permutations that fix the codes before it (canonical augmentation), so every set is met in
    one of its forms. A branch stops when a class is larger than ``answers**remaining``; the last
    two guesses are found on bitsets of the pairs of secrets still sharing a class. It is a proof
    tool, not a finder: it meets separating sets late when they are rare among the low codes.
    Measured here: every game up to 1296 codes in at most a few seconds, except that no set of 5
    separates 4x6 takes about 210 s (one core); ``time_limit`` (seconds, None for none) makes it
    give up (``complete`` False). Its clock starts once the code tables are built.

    >>> result = exhaustive(Game.parse_size("3x3"), 2)
    >>> result.proves_none, result.complete
    (True, True)
    """
    game = Game.of(game)
    if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size < 0:
        raise BadArgument(f"size {size!r}: expected a whole number of guesses")
    size = int(size)  # (numpy's, e.g. from np.arange, as Python's)
    if size > game.n_codes:
        raise BadArgument(f"size {size}: {game} has only {game.n_codes} codes, so no set holds {size} distinct guesses")
    if time_limit is not None and not time_limit > 0:
        raise BadArgument(f"time limit {time_limit!r}: give a positive number of seconds, or None for no limit")
    t_setup = time.perf_counter()
    space = _Space(game)
    _load_check()  # (every kernel of the check, loaded before the clock)
    setup = time.perf_counter() - t_setup
    deadline = math.inf if time_limit is None else time.perf_counter() + time_limit
    result = _exhaustive(space, size, deadline, on_progress)
    result.setup_seconds = setup
    return result


def _load_check() -> None:
    """Load every kernel the exhaustive check calls (once per process), on a tiny game: every
    depth of the check runs."""
    _exhaustive(_Space(Game(1, 2)), 1, math.inf)  # (the last guess alone)
    _exhaustive(_Space(Game(2, 3)), 3, math.inf)  # (a guess, then the last two)


def _exhaustive(space: _Space, size: int, deadline: float,
                on_progress: Callable[[float], None] | None = None, budget: float = math.inf) -> ExhaustiveResult:
    """``exhaustive`` on a game's arrays, until ``deadline`` (a ``time.perf_counter()`` value) or
    until it has visited ``budget`` nodes (then ``complete`` is False, as when the time runs out)."""
    game = space.game
    start = time.perf_counter()
    max_parts = len(game.feedbacks())
    nodes = 0
    timed_out = False

    def reps(chosen: tuple[int, ...], after: int) -> np.ndarray:
        r = _history_representatives(game, chosen)
        cands = space.everyone if r is None else np.asarray(r, dtype=np.int64)
        return cands[cands > after]

    def dfs(chosen: tuple[int, ...], labels: np.ndarray, n_cls: int, lo: float, hi: float) -> tuple[int, ...] | None:
        nonlocal nodes, timed_out
        remaining = size - len(chosen)
        after = chosen[-1] if chosen else -1
        if remaining == 0:
            return chosen if n_cls == space.n else None
        if K.largest_class(labels, n_cls) > max_parts**remaining:
            return None
        cands = reps(chosen, after)
        if remaining == 1:
            nodes += cands.shape[0]
            g = K.find_splitter(cands, labels, n_cls, space.digits, space.counts, space.ww, space.table,
                                space.n_resp)
            return chosen + (int(g),) if g >= 0 else None
        if remaining == 2:
            g, h, n = K.last_two(cands, labels, n_cls, space.digits, space.counts, space.ww, space.table,
                                 space.n_resp, max_parts)
            nodes += n
            return chosen + (int(g), int(h)) if g >= 0 else None
        step = (hi - lo) / max(1, cands.shape[0])
        for j, g in enumerate(cands):
            if nodes > budget or time.perf_counter() > deadline:
                timed_out = True
                return None
            if on_progress is not None and len(chosen) < 3:
                on_progress(lo + j * step)
            nodes += 1
            lab, k = K.refine(labels, n_cls, space.fb(int(g)), space.n_resp)
            found = dfs(chosen + (int(g),), lab, k, lo + j * step, lo + (j + 1) * step)
            if found is not None or timed_out:
                return found
        return None

    found = dfs((), np.zeros(space.n, dtype=np.int64), 1, 0.0, 1.0)
    return ExhaustiveResult(game, size, found, not timed_out or found is not None, nodes,
                            time.perf_counter() - start)
