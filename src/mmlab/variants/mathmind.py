"""MathMind: Mastermind with Reddi's answers (Reddi 2002, described in 003 section 2.3, item 5).

Reddi proposed two variants "of interest to mathematicians": the white pegs replaced by pegs saying
how many stones must be *higher* and how many *lower* in value, and an integer *distance* between
guess and secret as the only answer (Euclidean, or another metric). Colours are the values 1..m.

- ``higher-lower``: black pegs, then of the other pegs how many must go up (the rest go down);
- ``euclidean``: the squared Euclidean distance (an integer; the distance is its square root, so it
  tells the same);
- ``manhattan``: the sum of the pegs' differences;
- ``black-white``: the standard game's answers, for comparison on the same terms.

``MathMind.evaluate`` plays the exhaustive rules of the standard game (Knuth's largest class,
Irving's expected size, Kooi's most parts, Neuwirth's entropy) against every secret and counts the
guesses exactly; ties go to consistent codes, then to the lowest code, as in ``mmlab.strategies``.

>>> from mmlab.game import Game
>>> mm = MathMind(Game.parse_size("4x6"), "higher-lower")
>>> mm.describe(mm.answer("1234", "1425"))
'1 black, 2 higher, 1 lower'
>>> result = mm.evaluate("knuth")
>>> mm.game.format(result.first), result.total, result.worst
('3333', 6372, 6)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mmlab.errors import (
    BadArgument,
    BadCode,
    BadSize,
    SearchFailed,
    ctrl_c_in_kernels,
    shown,
)
from mmlab.game import Game
from mmlab.game.kernels import group_by_response
from mmlab.strategies import endgame_kernels
from mmlab.strategies.scoring import (
    ENTROPY,
    LARGEST,
    PARALLEL_WORK,
    PARTS,
    SUM_SQUARES,
    TOLERANCE,
    best,
)
from mmlab.variants import mathmind_kernels as K

#: Each answer rule, by the name the command line takes, and its kernel's kind.
FEEDBACKS: dict[str, int] = {"higher-lower": K.HIGHER_LOWER, "euclidean": K.EUCLIDEAN, "manhattan": K.MANHATTAN,
                             "black-white": K.BLACK_WHITE}
#: Each exhaustive rule: the partition statistic it reads and whether it minimises it (else maximises).
RULES: dict[str, tuple[int, bool]] = {"knuth": (LARGEST, True), "irving": (SUM_SQUARES, True),
                                      "most-parts": (PARTS, False), "entropy": (ENTROPY, False)}
#: Largest game evaluated: each node of the tree scores every code against its candidates, so the
#: work grows as codes squared (5x8's 32 768 codes: about 30 s a rule on 2 cores).
MAX_CODES = 2**16
#: Sets of codes the exact optimum may search by default (``optimum``): some 200 MB and 20 s a
#: million; 3x6 and 4x4 are solved within it under every answer rule but 4x4's Manhattan distance.
OPTIMUM_NODES = 2_000_000


def answer_of(guess: tuple[int, ...], secret: tuple[int, ...], feedback: str) -> int:
    """The answer ``secret`` gives to ``guess`` (0-based colours), in pure Python: the reference the
    kernels are checked against.

    >>> answer_of((0, 1, 2, 3), (0, 3, 1, 3), "higher-lower"), answer_of((0, 1, 2, 3), (0, 3, 1, 3), "euclidean")
    (11, 5)
    """
    pegs = len(guess)
    black = sum(g == s for g, s in zip(guess, secret, strict=True))
    if feedback == "higher-lower":
        return black * (pegs + 1) + sum(s > g for g, s in zip(guess, secret, strict=True))
    if feedback == "black-white":
        common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
        return black * (pegs + 1) + common - black
    if feedback == "euclidean":
        return sum((s - g) ** 2 for g, s in zip(guess, secret, strict=True))
    if feedback == "manhattan":
        return sum(abs(s - g) for g, s in zip(guess, secret, strict=True))
    raise BadArgument(f"unknown feedback {shown(feedback)}; choose from {', '.join(FEEDBACKS)}")


def _check_rule(rule: str) -> None:
    if rule not in RULES:
        raise BadArgument(f"unknown rule {shown(rule)}; choose from {', '.join(RULES)}")


def _pick(score: np.ndarray, cand: np.ndarray) -> int:
    """The lowest of the top scorers (lowest ``score``) among ``cand`` if any, else of all."""
    top = np.flatnonzero(best(score))
    inside = top[np.isin(top, cand)]
    return int(inside[0] if inside.size else top[0])


@dataclass(frozen=True)
class Evaluation:
    """A rule played against every secret: ``guesses[i]`` is how many guesses secret ``i`` took.
    The optimum's also holds its tree: ``paths[i]`` are the guesses that find secret ``i`` (then ``-1``)."""

    mathmind: MathMind
    rule: str
    first: int
    guesses: np.ndarray
    nodes: int
    seconds: float
    paths: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def total(self) -> int:
        """L: the guesses summed over every secret (the figure the literature tabulates)."""
        return int(self.guesses.sum())

    @property
    def mean(self) -> float:
        return float(self.guesses.mean())

    @property
    def worst(self) -> int:
        return int(self.guesses.max())

    def histogram(self) -> dict[int, int]:
        """How many secrets took each number of guesses."""
        counts = np.bincount(self.guesses)
        return {int(k): int(n) for k, n in enumerate(counts) if n}

    def to_dict(self) -> dict:
        return {"size": self.mathmind.game.size, "repeats": self.mathmind.game.repeats,
                "feedback": self.mathmind.feedback, "rule": self.rule, "first": self.mathmind.game.format(self.first),
                "secrets": int(self.guesses.size), "total": self.total, "mean": self.mean, "worst": self.worst,
                "histogram": self.histogram(), "nodes": self.nodes, "seconds": self.seconds}


@dataclass(frozen=True)
class MathMind:
    """A game of ``game``'s codes (a ``Game``, or a size such as ``"4x6"``) answered by ``feedback``
    (one of ``FEEDBACKS``).

    >>> MathMind(Game.parse_size("4x6"), "euclidean").n_answers   # squared distances 0..4*5**2
    101
    >>> MathMind("4x6", "euclidean") == MathMind(Game.parse_size("4x6"), "euclidean")
    True
    """

    game: Game
    feedback: str = "higher-lower"
    digits: np.ndarray = field(init=False, repr=False, compare=False)
    # (the optimum's tree, once found; the first guesses' partition statistics)
    _kept: dict = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", Game.of(self.game))  # (a size such as "4x6" too, as elsewhere)
        if self.feedback not in FEEDBACKS:
            raise BadArgument(f"unknown feedback {shown(self.feedback)}; choose from {', '.join(FEEDBACKS)}")
        if self.game.feedback != "black-white":
            raise BadArgument(f"MathMind answers by {self.feedback}; give the game without feedback='{self.game.feedback}'")
        if self.game.n_codes > MAX_CODES:
            raise BadSize(f"MathMind's exact play scores every code at each step: {self.game} has "
                          f"{self.game.n_codes:,} codes, at most {MAX_CODES:,} here")
        object.__setattr__(self, "digits", np.ascontiguousarray(self.game.all_digits))

    @property
    def kind(self) -> int:
        return FEEDBACKS[self.feedback]

    @property
    def n_answers(self) -> int:
        """The range of the answers' integers: every answer is below it."""
        pegs, top = self.game.pegs, self.game.colours - 1
        if self.feedback == "euclidean":
            return pegs * top * top + 1
        if self.feedback == "manhattan":
            return pegs * top + 1
        return (pegs + 1) ** 2

    @property
    def win(self) -> int:
        """The answer of a secret to itself."""
        return self.answer(0, 0)

    def answer(self, guess: int | str, secret: int | str) -> int:
        """The answer ``secret`` gives to ``guess`` (codes written out, or indices)."""
        g, s = (self.digits[self._index(code)] for code in (guess, secret))
        return int(K.answer(g, s, self.kind))

    def describe(self, answer: int) -> str:
        """An answer in words.

        >>> MathMind(Game.parse_size("4x6"), "euclidean").describe(14)
        'distance² 14'
        """
        pegs = self.game.pegs
        if self.feedback in ("higher-lower", "black-white"):
            black, rest = divmod(int(answer), pegs + 1)
            if self.feedback == "black-white":
                return f"{black} black, {rest} white"
            return f"{black} black, {rest} higher, {pegs - black - rest} lower"
        return f"distance² {answer}" if self.feedback == "euclidean" else f"distance {answer}"

    def _index(self, code: int | str) -> int:
        if isinstance(code, str):
            return self.game.parse(code)
        if isinstance(code, (int, np.integer)) and not isinstance(code, bool) and 0 <= code < self.game.n_codes:
            return int(code)
        raise BadCode(f"{shown(code)} is no code of {self.game}: write it out, e.g. '{'1' * self.game.pegs}'")

    # ------------------------------------------------------------------------------ playing
    def choose(self, rule: str, cand: np.ndarray) -> int:
        """The guess ``rule`` plays when ``cand`` (ascending indices) are the codes left: a top scorer of
        the partition it makes, consistent codes first, then the lowest."""
        _check_rule(rule)
        if cand.size <= 2:  # (a consistent code splits them into single codes: no code does better)
            return int(cand[0])
        return _pick(self._scores(rule, cand), cand)

    def ranked(self, rule: str, cand: np.ndarray, n: int) -> list[int]:
        """The ``n`` best guesses of ``rule`` when ``cand`` (ascending indices) are the codes left:
        ``choose``'s first, then the next best by score, consistent codes first, then the lowest.

        >>> mm = MathMind(Game.parse_size("3x4"), "euclidean")
        >>> [mm.game.format(g) for g in mm.ranked("knuth", np.arange(mm.game.n_codes), 3)]
        ['111', '114', '141']
        """
        _check_rule(rule)
        score = self._scores(rule, cand)
        first = int(cand[0]) if cand.size <= 2 else _pick(score, cand)
        outside = ~np.isin(np.arange(self.game.n_codes), cand)
        order = np.lexsort((outside, score))  # (lexsort: the last key is the first)
        return [first, *(int(g) for g in order[:n] if g != first)][:n]

    def _scores(self, rule: str, cand: np.ndarray) -> np.ndarray:
        """Every code's score under ``rule`` as a guess when ``cand`` are the codes left, the lower
        the better; those of the first guess (every code left) from ``_first_stats``, kept."""
        column, minimise = RULES[rule]
        if cand.size == self.game.n_codes:
            stats, each = self._first_stats()
            score = stats[each, column]
        else:
            kernel = K.partition_stats if self.game.n_codes * cand.size >= PARALLEL_WORK else K.partition_stats_serial
            score = kernel(self.digits, cand, self.kind, self.n_answers)[:, column]
        return score if minimise else -score

    def _first_stats(self) -> tuple[np.ndarray, np.ndarray]:
        """The partition statistics of the first guesses: ``(stats, each)``, code ``i``'s being
        ``stats[each[i]]``. Every answer rule counts the pegs one by one, so reordering the pegs of
        guess and secret alike leaves the answer as it is; every code is a secret at first, in every
        order of its pegs, so the codes of the same colours in another order split them alike, the
        same answer classes of the same sizes. One of each set of colours is scored: at 8x4, 165
        guesses, not 65,536 (worked out once for every rule)."""
        if "first stats" not in self._kept:
            rows, each = np.unique(np.sort(self.digits, axis=1), axis=0, return_inverse=True)
            every = np.arange(self.game.n_codes)
            stats = K.partition_stats_of(np.ascontiguousarray(rows), self.digits, every, self.kind, self.n_answers)
            self._kept["first stats"] = (stats, each.reshape(-1))
        return self._kept["first stats"]

    def summary(self, guess: int | str, cand: np.ndarray) -> dict:
        """How ``guess`` splits ``cand`` (the codes left), as ``partition_summary`` tells it of the
        standard game: the codes giving each answer (only the answers given, ascending), the
        parts, the largest, the expected size, the entropy in bits, and whether it is consistent.

        >>> mm = MathMind(Game.parse_size("3x4"), "manhattan")
        >>> table = mm.summary("222", np.arange(mm.game.n_codes))
        >>> table["classes"], table["largest"], table["consistent"]
        ({0: 1, 1: 6, 2: 15, 3: 20, 4: 15, 5: 6, 6: 1}, 20, True)
        """
        guess = self._index(guess)
        sizes = np.bincount(K.answers_against(self.digits[guess], self.digits, cand, self.kind),
                            minlength=self.n_answers)
        given = np.flatnonzero(sizes)
        n = int(cand.size)
        return {"candidates": n, "classes": {int(a): int(sizes[a]) for a in given}, "parts": int(given.size),
                "largest": int(sizes.max(initial=0)), "expected_size": float((sizes ** 2).sum() / n) if n else 0.0,
                "entropy_bits": float(np.log2(n) - (sizes[given] * np.log2(sizes[given])).sum() / n) if n else 0.0,
                "consistent": bool(np.isin(guess, cand))}

    def _choose_level(self, rule: str, cands: list[np.ndarray]) -> list[int]:
        """``choose`` at each of the nodes of one level of the tree: a node with much work on every
        core, the many small ones together, each on one core (one parallel step for them all)."""
        chosen, small = [], []  # (below PARALLEL_WORK answers worked out, a node is small)
        for k, cand in enumerate(cands):
            if cand.size > 2 and self.game.n_codes * cand.size < PARALLEL_WORK:
                small.append(k)
                chosen.append(-1)
            else:
                chosen.append(self.choose(rule, cand))
        if small:
            column, minimise = RULES[rule]
            offsets = np.cumsum([0, *(cands[k].size for k in small)])
            picked = K.choose_many(self.digits, np.concatenate([cands[k] for k in small]), offsets, self.kind,
                                   self.n_answers, column, minimise, TOLERANCE)
            for k, guess in zip(small, picked, strict=True):
                chosen[k] = int(guess)
        return chosen

    def _parts(self, guess: int, cand: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """``cand`` (ascending) split by the answer each gives to ``guess``: ``(answer, codes)`` for
        each answer given, the answers ascending and each part's codes ascending."""
        answers = K.answers_against(self.digits[guess], self.digits, cand, self.kind)
        order, sizes = group_by_response(answers, self.n_answers)
        ends = np.cumsum(sizes)
        return [(int(a), cand[order[ends[a] - sizes[a]:ends[a]]]) for a in np.flatnonzero(sizes)]

    @ctrl_c_in_kernels
    def evaluate(self, rule: str = "knuth", progress: Callable[[int], None] | None = None) -> Evaluation:
        """Play ``rule`` against every secret at once (its decision tree, level by level), counting
        each secret's guesses.

        ``progress(k)`` is told each time ``k`` more secrets are found.

        >>> MathMind(Game.parse_size("3x4"), "manhattan").evaluate("entropy").histogram()
        {1: 1, 2: 7, 3: 20, 4: 36}
        """
        _check_rule(rule)
        start = time.perf_counter()
        win = self.win
        guesses = np.zeros(self.game.n_codes, dtype=np.int64)
        level = [np.arange(self.game.n_codes)]
        depth, nodes, first = 1, 0, -1
        while level:
            chosen = self._choose_level(rule, level)
            if depth == 1:
                first = chosen[0]
            below = []
            for cand, guess in zip(level, chosen, strict=True):
                nodes += 1
                found = 0
                for a, part in self._parts(guess, cand):
                    if a == win:
                        guesses[guess] = depth
                        found += 1
                    elif part.size == 1:
                        guesses[part[0]] = depth + 1
                        found += 1
                    else:
                        below.append(part)
                if progress and found:
                    progress(found)
            level, depth = below, depth + 1
        return Evaluation(self, rule, first, guesses, nodes, time.perf_counter() - start)

    @ctrl_c_in_kernels
    def optimum(self, max_nodes: int = OPTIMUM_NODES, progress: Callable[[int], None] | None = None
                ) -> Evaluation | None:
        """The tree with the fewest guesses in total over every secret, any code a guess at any node
        (``rule`` 'optimum'): the branch and bound of mmlab's exact endgame
        (``mmlab.strategies.endgame_kernels``) over the table of answers, so at most
        ``endgame_kernels.MAX_CODES`` codes (3x6, 4x4). Its worst case is that of the tree found,
        which need not be the least among the trees of least total. ``None`` when the search would
        pass ``max_nodes`` sets of codes. ``progress(k)`` is told the sets searched so far, every
        ``endgame_kernels.STEP_NODES`` of them.

        >>> mm = MathMind(Game.parse_size("3x5"), "euclidean")
        >>> mm.optimum().total, mm.evaluate("knuth").total
        (352, 369)
        """
        if max_nodes < 1:
            raise BadArgument(f"max_nodes should be at least 1, not {shown(max_nodes)}")
        start = time.perf_counter()
        table, win = self._optimum_table()
        found = endgame_kernels.best_tree_guesses(table, win, max_nodes, progress)
        if found is None:
            return None
        return Evaluation(self, "optimum", found.first, found.guesses, found.nodes, time.perf_counter() - start,
                          found.paths)

    def _optimum_table(self) -> tuple[np.ndarray, int]:
        """The optimum's table of answers, ranked into bytes (a game of at most 256 codes gives at most
        120 answers, 2x16's squared distances), and the win's rank; worked out once."""
        n = self.game.n_codes
        if n > endgame_kernels.MAX_CODES:
            raise BadSize(f"the exact optimum is searched for games of at most {endgame_kernels.MAX_CODES} codes "
                          f"(3x6, 4x4, 2x16); {self.game} has {n:,}")
        if "table" not in self._kept:
            everyone = np.arange(n)
            answers = np.array([K.answers_against(self.digits[g], self.digits, everyone, self.kind)
                                for g in everyone])
            said, table = np.unique(answers, return_inverse=True)
            self._kept["table"] = (np.ascontiguousarray(table.reshape(n, n).astype(np.uint8)),
                                   int(np.searchsorted(said, self.win)))
        return self._kept["table"]

    @ctrl_c_in_kernels
    def optimum_guess(self, cand: np.ndarray, max_nodes: int = OPTIMUM_NODES) -> int | None:
        """The guess of least total for the codes ``cand`` left (ascending indices), any code a guess:
        the move of the optimum's tree where its path reaches these codes, and from any other position
        the best play from there (its own search, ``max_nodes`` sets at most: ``None`` past them).

        >>> mm = MathMind(Game.parse_size("3x5"), "euclidean")
        >>> mm.game.format(mm.optimum_guess(np.arange(mm.game.n_codes))), mm.game.format(mm.optimum().first)
        ('112', '112')
        """
        table, win = self._optimum_table()
        found = endgame_kernels.best_guess(table, np.asarray(cand), win, max_nodes)
        return None if found is None else found[1]

    def play(self, rule: str, secret: int | str, max_nodes: int = OPTIMUM_NODES) -> list[tuple[int, int]]:
        """One game of ``rule`` against ``secret``: each guess and its answer, to the win. ``rule``
        'optimum' follows the tree of ``optimum(max_nodes)``, searched at its first game and then
        kept; ``SearchFailed`` when it is not found within ``max_nodes`` sets.

        >>> mm = MathMind(Game.parse_size("4x6"), "euclidean")
        >>> [(mm.game.format(g), a) for g, a in mm.play("knuth", "3632")]
        [('1111', 34), ('1356', 33), ('3632', 0)]
        >>> small = MathMind(Game.parse_size("3x5"), "euclidean")
        >>> [(small.game.format(g), a) for g, a in small.play("optimum", "513")]
        [('112', 17), ('151', 36), ('513', 0)]
        """
        if rule != "optimum" and rule not in RULES:
            raise BadArgument(f"unknown rule {shown(rule)}; choose from {', '.join(RULES)}, optimum")
        secret = self._index(secret)
        if rule == "optimum":
            return [(int(g), self.answer(int(g), secret)) for g in self.optimum_tree(max_nodes).paths[secret] if g >= 0]
        cand = np.arange(self.game.n_codes)
        moves = []
        while True:
            guess = self.choose(rule, cand)
            said = self.answer(guess, secret)
            moves.append((guess, said))
            if said == self.win:
                return moves
            cand = cand[K.answers_against(self.digits[guess], self.digits, cand, self.kind) == said]

    def optimum_tree(self, max_nodes: int = OPTIMUM_NODES, progress: Callable[[int], None] | None = None
                     ) -> Evaluation:
        """``optimum(max_nodes, progress)``, searched once and then kept (the tree found does not depend
        on the budget, only whether it is found); ``SearchFailed`` when it is not found."""
        if "optimum" not in self._kept:
            found = self.optimum(max_nodes, progress)
            if found is None:
                sets = f"{max_nodes:,} set{'s' * (max_nodes != 1)}"
                raise SearchFailed(f"the optimum of {self.game} under {self.feedback} answers was not found within "
                                   f"{sets} of codes: a larger max_nodes may find it")
            self._kept["optimum"] = found
        return self._kept["optimum"]

    @ctrl_c_in_kernels
    def two_answer_firsts(self, progress: Callable[[int], None] | None = None) -> np.ndarray:
        """The first guesses after which some second guess gives each secret left its own answer, so
        that two answers always name the secret (ascending indices; empty when none does).
        ``progress(k)`` is told each time ``k`` more first guesses are checked.

        >>> MathMind(Game.parse_size("2x4"), "euclidean").two_answer_firsts().size > 0
        True
        """
        everyone = np.arange(self.game.n_codes)
        firsts = []
        for first in everyone:
            if all(K.separators(self.digits, part, self.kind, self.n_answers).any()
                   for _, part in self._parts(first, everyone)):  # (stops at the first part no guess tells apart)
                firsts.append(first)
            if progress:
                progress(1)
        return np.array(firsts, dtype=np.int64)
