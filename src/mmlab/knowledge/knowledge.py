"""What the codebreaker knows: the answers so far and the codes that fit them all.

``Knowledge`` is immutable: ``update`` returns a new one, so a decision tree, an undo or a
hint can keep earlier states for free.

>>> from mmlab.game import Game, Feedback
>>> game = Game.parse_size("4x6")
>>> k = Knowledge.initial(game).update(game.parse("1122"), Feedback(0, 0))
>>> k.n_consistent
256
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from mmlab.errors import BadArgument, InconsistentFeedback, SearchFailed, SpaceTooLarge
from mmlab.game import Feedback, Game, kernels
from mmlab.knowledge import kernels as knowledge_kernels

#: Games with black pegs only and at most this many codes are listed by checking every code.
FILTER_LIMIT = 2**20
#: Placements a constraint search for one random consistent code checks by default (``sample``).
SAMPLE_NODES = 3 * 10**7
#: Placements of ``find_consistent``, the patient search for a code when quicker ones found none.
PATIENT_NODES = 10**9


@dataclass(frozen=True, eq=False)
class Knowledge:
    """History of ``(guess, feedback)`` pairs and, when the space is enumerable, the consistent set.

    ``consistent`` holds the indices (ascending ``int64``) of the codes that fit every answer, or
    is ``None`` for games too large to enumerate: then the set is implicit, and ``is_consistent``
    checks a code against the history.

    >>> from mmlab.game import Game, Feedback
    >>> game = Game.parse_size("3x3")
    >>> k = Knowledge.initial(game).update(game.parse("112"), Feedback(1, 0))
    >>> [game.format(c) for c in k.consistent], Knowledge.initial(Game.parse_size("10x20")).explicit
    (['133', '222', '232', '313', '322', '332'], False)
    """

    game: Game
    history: tuple[tuple[int, Feedback], ...] = ()
    consistent: np.ndarray | None = field(default=None, repr=False)

    @staticmethod
    def initial(game: Game | str, explicit: bool = True) -> Knowledge:
        """No answers yet: every code is consistent, listed explicitly when the game is enumerable
        and ``explicit`` is true, implicit otherwise. ``game`` may be a size such as ``"4x6"``."""
        game = Game.of(game)
        if explicit and game.enumerable:
            return Knowledge(game, (), np.arange(game.n_codes, dtype=np.int64))
        return Knowledge(game, (), None)

    @property
    def explicit(self) -> bool:
        return self.consistent is not None

    @property
    def n_consistent(self) -> int:
        if self.consistent is None:
            count = "count_consistent(limit, max_nodes) counts them by constraint search, enumerating nothing"
            try:
                self.game.require_enumerable("counting the consistent codes")
            except SpaceTooLarge as too_large:
                raise SpaceTooLarge(f"{too_large} Instead, {count}.") from None
            raise BadArgument("this knowledge keeps no list of consistent codes (explicit=False): "
                              f"{count}, or start from Knowledge.initial(game)")
        return int(self.consistent.shape[0])

    def _listed(self, what: str) -> np.ndarray:
        """The consistent set, or the error saying that ``what`` needs it (implicit knowledge)."""
        if self.consistent is None:
            self.game.require_enumerable(what)
            raise BadArgument(f"{what} needs the list of consistent codes, and this knowledge keeps none "
                              "(explicit=False): start from Knowledge.initial(game)")
        return self.consistent

    @cached_property
    def history_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The guesses' colours and colour counts, and the answers' codes, as kernel arrays."""
        game = self.game
        k = len(self.history)
        digits = np.zeros((k, game.pegs), dtype=np.uint8)
        counts = np.zeros((k, game.colours), dtype=np.uint8)
        codes = np.zeros(k, dtype=np.int64)
        for i, (g, fb) in enumerate(self.history):
            digits[i] = game.digits(g)
            counts[i] = game.counts_of(digits[i])
            codes[i] = fb.code(game.pegs)
        return digits, counts, codes

    @cached_property
    def search_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The history as the constraint-search kernels take it (``int64``): the guesses' colours
        and colour counts, each answer's blacks, and its total (blacks + whites)."""
        h_digits, h_counts, h_codes = self.history_arrays
        blacks, whites = np.divmod(h_codes, self.game.pegs + 1)
        return h_digits.astype(np.int64), h_counts.astype(np.int64), blacks, blacks + whites

    def sample(self, rng: np.random.Generator, max_nodes: int = SAMPLE_NODES) -> tuple[int | None, int]:
        """A random consistent code found by constraint search, without enumerating the space, and
        the number of placements (colour counts and pegs) it checked. ``None`` if no code fits the
        answers (or none was found within ``max_nodes`` placements).

        With black and white feedback the search picks how many stones each colour gets (every
        answer's total depends only on these), then arranges them on the pegs; with black-only
        feedback it places the pegs directly (``knowledge.kernels.sample_consistent``). Searches
        restart with fresh random orders and doubling budgets, which tames the heavy tail of a
        single randomised depth-first search.

        Not exactly uniform: with no answers every code is equally likely, but each choice is
        drawn only among those that still lead to a consistent code, in proportion to the codes
        they would leave without the answers, not to the consistent codes they lead to. On 4x6 to
        6x9 after 2-4 answers the total variation distance from uniform is typically 0.1-0.3 and
        the likeliest code up to a few times as likely as under the uniform draw; `random`, playing
        this search's codes, needed 0.1-0.15 guess more on 6x8 and 6x9 and 0.2 more on 8x12
        (``benchmarks/bench_sample.py``), which is why ``random_code`` draws uniformly first.

        >>> from mmlab.game import Game, Feedback
        >>> game = Game.parse_size("10x20")
        >>> k = Knowledge.initial(game).update(game.parse("1 2 3 4 5 6 7 8 9 10"), Feedback(2, 3))
        >>> code, placements = k.sample(np.random.default_rng(0))
        >>> k.is_consistent(code)
        True
        """
        game = self.game
        args = (*self.search_arrays, game.pegs, game.colours, game.with_white, game.repeats)
        spent, budget = 0, 4096
        while spent < max_nodes:
            budget = min(budget, max_nodes - spent)
            code, nodes = knowledge_kernels.sample_consistent(*args, int(rng.integers(2**31)), budget)
            spent += int(nodes)
            if code[0] >= 0:
                return game.index_of(code), spent
            if nodes < budget:  # the whole search tree was exhausted: no code fits
                return None, spent
            budget *= 2
        return None, spent

    def contradiction(self) -> InconsistentFeedback:
        """The error to raise when a search shows that no code fits the answers."""
        return InconsistentFeedback(f"no code of {self.game} fits these {len(self.history)} answers")

    def find_consistent(self, rng: np.random.Generator, max_nodes: int = PATIENT_NODES) -> tuple[int, int]:
        """A consistent code found by ``sample`` within ``max_nodes`` placements, and the placements
        checked: a patient search (about 2 * 10**7 placements a second at 8x12 and 10x20, so the
        default takes under a minute). Raises ``InconsistentFeedback`` if no code fits the answers,
        ``SearchFailed`` if the budget runs out first.

        >>> from mmlab.game import Game, Feedback
        >>> game = Game.parse_size("4x6")
        >>> k = Knowledge.initial(game, explicit=False).update(game.parse("1122"), Feedback(4, 0))
        >>> game.format(k.find_consistent(np.random.default_rng(0), 10**6)[0])
        '1122'
        """
        code, spent = self.sample(rng, max_nodes)
        if code is not None:
            return code, spent
        if spent < max_nodes:  # the search tree was exhausted
            raise self.contradiction()
        raise SearchFailed(f"no code fitting the {len(self.history)} answers found within {max_nodes} placements")

    def sample_distinct(self, rng: np.random.Generator, n: int, max_draws: int | None = None,
                        max_nodes: int = 10**9) -> tuple[np.ndarray, int]:
        """Up to ``n`` distinct consistent codes (``uint8[k, pegs]`` colour rows), from up to
        ``max_draws`` (default ``3 n``) randomised searches of ``sample``, and the placements they
        checked. When fewer than ``n`` come back the consistent set is small (repeated searches kept
        finding codes already drawn) or ``max_nodes`` ran out. Raises ``InconsistentFeedback`` if no code fits the answers.

        >>> from mmlab.game import Game, Feedback
        >>> game = Game.parse_size("8x12")
        >>> k = Knowledge.initial(game, explicit=False).update(game.parse("1 1 2 2 3 3 4 4"), Feedback(1, 2))
        >>> codes, placements = k.sample_distinct(np.random.default_rng(0), 50)
        >>> codes.shape, all(k.fits(c) for c in codes)
        ((50, 8), True)
        """
        game = self.game
        draws = 3 * n if max_draws is None else max_draws
        codes, _, nodes, none_fit = knowledge_kernels.sample_distinct(
            *self.search_arrays, game.pegs, game.colours, game.with_white, game.repeats, int(rng.integers(2**31)), n,
            draws, max_nodes)
        if none_fit:
            raise self.contradiction()
        return codes, int(nodes)

    def draw_uniform(self, rng: np.random.Generator, n: int, max_draws: int = 10**6) -> tuple[np.ndarray, int]:
        """Up to ``n`` distinct consistent codes (``uint8[k, pegs]`` colour rows) drawn uniformly,
        by rejection: random codes of the game are checked against the answers
        (``knowledge.kernels.draw_consistent``). Also returns the codes checked. Fewer than ``n``
        come back when ``max_draws`` runs out, or after an eighth of it when fewer than an eighth
        of ``n`` were found: each code costs about (codes of the game) / (consistent codes) draws,
        so this is for large consistent sets, and ``list_consistent`` for small ones.

        >>> from mmlab.game import Game, Feedback
        >>> game = Game.parse_size("8x12")
        >>> k = Knowledge.initial(game, explicit=False).update(game.parse("1 1 2 2 3 3 4 4"), Feedback(1, 2))
        >>> codes, draws = k.draw_uniform(np.random.default_rng(0), 50)
        >>> codes.shape, all(k.fits(c) for c in codes)
        ((50, 8), True)
        """
        game = self.game
        codes, draws = knowledge_kernels.draw_consistent(
            *self.history_arrays, game.pegs, game.colours, game.with_white, game.repeats, int(rng.integers(2**31)), n,
            max_draws)
        return codes, int(draws)

    def random_code(self, rng: np.random.Generator, max_draws: int = 10**6, list_limit: int = 10**5,
                    list_nodes: int = 10**7) -> tuple[int | None, int, bool]:
        """A random consistent code, uniform whenever that is affordable: drawn by rejection
        (``draw_uniform``, up to ``max_draws``), else from the listed set (``list_consistent``),
        else found by constraint search (``sample``, not exactly uniform). Returns the code
        (``None`` if none was found within the budgets), the codes drawn, listed or placed on the
        way, and whether the draw was uniform. Raises ``InconsistentFeedback`` when the listing or
        the search shows that no code fits the answers.

        >>> from mmlab.game import Game, Feedback
        >>> game = Game.parse_size("8x12")
        >>> k = Knowledge.initial(game, explicit=False).update(game.parse("1 1 2 2 3 3 4 4"), Feedback(1, 2))
        >>> code, work, uniform = k.random_code(np.random.default_rng(0))
        >>> k.is_consistent(code), uniform
        (True, True)
        """
        drawn, work = self.draw_uniform(rng, 1, max_draws)
        if drawn.shape[0]:
            return self.game.index_of(drawn[0]), work, True
        listed = self.list_consistent(list_limit, list_nodes)
        if listed is not None:
            work += listed.shape[0]
            if listed.shape[0] == 0:
                raise self.contradiction()
            return self.game.index_of(listed[rng.integers(listed.shape[0])]), work, True
        try:  # (raises InconsistentFeedback when the search tree is exhausted)
            code, placements = self.find_consistent(rng, SAMPLE_NODES)
        except SearchFailed:  # (the budget ran out, every placement spent)
            return None, work + SAMPLE_NODES, False
        return code, work + placements, False

    def list_consistent(self, limit: int, max_nodes: int) -> np.ndarray | None:
        """Every consistent code (``uint8[k, pegs]`` colour rows) found by constraint search without
        enumerating the space, or ``None`` if there are more than ``limit`` or the search would check
        more than ``max_nodes`` placements. The search needs black and white feedback; with black
        pegs only, games of at most ``FILTER_LIMIT`` codes are listed by checking every code, and
        larger ones give ``None``.

        >>> from mmlab.game import Game, Feedback
        >>> game = Game.parse_size("6x9")
        >>> k = Knowledge.initial(game, explicit=False).update(game.parse("112233"), Feedback(0, 0))
        >>> k.list_consistent(10**5, 10**7).shape   # 6 pegs from 6 colours: 6**6 codes
        (46656, 6)
        >>> game = Game.parse_size("4x6", feedback="black")
        >>> k = Knowledge.initial(game, explicit=False).update(game.parse("1122"), Feedback(0, 0))
        >>> k.list_consistent(1000, 10**7).shape   # 5 colours left on each peg
        (625, 4)
        """
        codes, complete = self._listing(limit, max_nodes)
        return codes if complete and codes.shape[0] <= limit else None

    def _listing(self, limit: int, max_nodes: int) -> tuple[np.ndarray | None, bool]:
        """The consistent codes the constraint search lists (up to ``limit``, within ``max_nodes``
        placements), and whether they are all; with black pegs only, every code that fits when the
        game has at most ``FILTER_LIMIT`` (and ``max_nodes``) codes, else ``(None, False)``."""
        game = self.game
        if not game.with_white:
            if game.n_codes > min(FILTER_LIMIT, max_nodes):
                return None, False
            return game.all_digits[self.rows_fit(game.all_digits)], True
        codes, complete = knowledge_kernels.enumerate_consistent(
            *self.search_arrays, game.pegs, game.colours, game.repeats, limit, max_nodes)
        return codes, bool(complete)

    def count_consistent(self, limit: int, max_nodes: int) -> tuple[int, bool]:
        """How many codes fit every answer, and whether that is exact. Explicit knowledge, or none
        answered yet, counts them all; otherwise the constraint search lists them as
        ``list_consistent`` does, and when it stops after ``limit`` codes or ``max_nodes``
        placements, the codes listed so far are a lower bound. With black pegs only, games of at
        most ``FILTER_LIMIT`` (and ``max_nodes``) codes are counted by checking every code, and
        larger ones give ``(0, False)``: nothing is listed.

        >>> from mmlab.game import Game, Feedback
        >>> game = Game.parse_size("8x12")
        >>> k = Knowledge.initial(game).update(game.parse("1 2 3 4 5 6 7 8"), Feedback(1, 5))
        >>> k.count_consistent(1000, 10**7)   # too many to list: at least 1000
        (1000, False)
        >>> k.update(game.parse("3 1 4 1 5 9 12 12"), Feedback(6, 0)).count_consistent(1000, 10**7)
        (69, True)
        """
        if self.explicit:
            return self.n_consistent, True
        if not self.history:
            return self.game.n_codes, True
        codes, complete = self._listing(limit, max_nodes)
        return (0, False) if codes is None else (int(codes.shape[0]), complete)

    def fits(self, digits: np.ndarray) -> bool:
        """Whether the code with these colours (0-based ``uint8``) fits every answer so far."""
        return bool(self.rows_fit(digits[np.newaxis])[0])

    def rows_fit(self, rows: np.ndarray) -> np.ndarray:
        """Whether each code row of ``rows`` (0-based ``uint8`` colours) fits every answer so far.

        >>> from mmlab.game import Feedback
        >>> game = Game.parse_size("4x6")
        >>> k = Knowledge.initial(game).update(game.parse("1122"), Feedback(1, 0))
        >>> k.rows_fit(np.array([[0, 2, 3, 4], [0, 0, 2, 3]], dtype=np.uint8)).tolist()
        [True, False]
        """
        h_digits, h_counts, h_codes = self.history_arrays
        return kernels.rows_fit_history(np.ascontiguousarray(rows, dtype=np.uint8), self.game.colours,
                                        h_digits, h_counts, h_codes, self.game.with_white)

    @property
    def guesses(self) -> tuple[int, ...]:
        return tuple(g for g, _ in self.history)

    def responses_of(self, guess: int, codes: np.ndarray | None = None) -> np.ndarray:
        """Feedback codes of ``guess`` (an index, or a code written out) against ``codes`` (default:
        the consistent set)."""
        game = self.game
        guess = game.code(guess)
        cand = self._listed("scoring a guess against the consistent codes") if codes is None else codes
        return kernels.feedback_against(
            game.all_digits[guess], game.all_counts[guess], game.all_digits, game.all_counts, cand, game.with_white
        )

    def update(self, guess: int | str, feedback: Feedback | tuple[int, int] | str) -> Knowledge:
        """Knowledge after ``guess`` (an index or written out) got ``feedback`` (as ``Game.answer``
        reads it: ``Feedback(1, 1)``, ``(1, 1)`` or ``"1,1"``). Explicit knowledge raises
        ``InconsistentFeedback`` if no code fits; implicit knowledge records the answer, and its
        searches find out.

        >>> Knowledge.initial(Game.parse_size("4x6")).update("1122", "1,1").n_consistent
        208
        """
        guess = self.game.code(guess)  # an index in range (numpy would read -1 from the end), or '1122'
        feedback = self.game.answer(feedback)
        if self.consistent is None:
            return Knowledge(self.game, self.history + ((guess, feedback),), None)
        subset = _filter(self.game, self.consistent, guess, feedback)
        if subset.shape[0] == 0:
            raise InconsistentFeedback(self._explain(guess, feedback))
        return Knowledge(self.game, self.history + ((guess, feedback),), subset)

    def child(self, guess: int, feedback: Feedback, subset: np.ndarray) -> Knowledge:
        """Knowledge after ``guess`` got ``feedback``, when the caller already knows the subset."""
        return Knowledge(self.game, self.history + ((guess, feedback),), subset)

    def split(self, guess: int, responses: np.ndarray | None = None) -> list[tuple[int, Knowledge]]:
        """The knowledge after each answer ``guess`` can get, as ``(feedback code, child)`` pairs in
        increasing code order, the winning answer left out. ``responses`` may give the feedback
        codes of the consistent codes when the caller has them (e.g. from a table)."""
        game = self.game
        guess = game.code(guess)
        self._listed("splitting the consistent codes")
        fb = self.responses_of(guess) if responses is None else responses
        order, sizes = kernels.group_by_response(fb, game.n_responses)
        win = game.win.code(game.pegs)
        out, start = [], 0
        for code in np.flatnonzero(sizes):
            stop = start + int(sizes[code])
            if code != win:  # the counting sort is stable, so each subset stays ascending
                subset = self.consistent[order[start:stop]]
                out.append((int(code), self.child(guess, Feedback.from_code(int(code), game.pegs), subset)))
            start = stop
        return out

    def is_consistent(self, code: int) -> bool:
        """Whether ``code`` (an index, or a code written out) fits every answer so far."""
        code = self.game.code(code)
        if self.consistent is None:
            return self.fits(np.array(self.game.digits(code), dtype=np.uint8))
        return bool(is_member(np.array([code], dtype=np.int64), self.consistent)[0])

    # ----------------------------------------------------------------- explaining a contradiction
    def _explain(self, guess: int, feedback: Feedback) -> str:
        answers = list(self.history) + [(guess, feedback)]
        return contradiction_message(self.game, answers, minimal_contradiction(self.game, answers))


def contradiction_message(game: Game, answers: list[tuple[int, Feedback]], core: Iterable[int]) -> str:
    """What a player is told when the answers numbered ``core`` (0-based) of ``answers`` cannot
    all be true.

    >>> game = Game.parse_size("4x6")
    >>> contradiction_message(game, [(game.parse("1122"), Feedback(4, 0)), (7, Feedback(0, 0))], [1])
    'no code of 4x6 can give that answer: guess 2: 1122 -> 0,0'
    """
    core = set(core)
    listed = "; ".join(f"guess {i + 1}: {game.format(g)} -> {game.answer_text(fb, black_word=True)}"
                       for i, (g, fb) in enumerate(answers) if i in core)
    if len(core) == 1:
        return f"no code of {game} can give that answer: {listed}"
    return f"no code fits all of these answers, so one of them is wrong: {listed}"


def is_member(codes: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """Mask of ``codes`` that belong to the ascending array ``sorted_set``."""
    pos = np.searchsorted(sorted_set, codes)
    pos[pos >= sorted_set.shape[0]] = 0
    return sorted_set[pos] == codes


def _filter(game: Game, cands: np.ndarray, guess: int, feedback: Feedback) -> np.ndarray:
    """The codes of ``cands`` that give ``feedback`` to ``guess``."""
    got = kernels.feedback_against(
        game.all_digits[guess], game.all_counts[guess], game.all_digits, game.all_counts, cands, game.with_white
    )
    return cands[got == feedback.code(game.pegs)]


def _fits_all(game: Game, answers) -> bool:
    cands = np.arange(game.n_codes, dtype=np.int64)
    for g, fb in answers:
        cands = _filter(game, cands, g, fb)
        if cands.shape[0] == 0:
            return False
    return True


def minimal_contradiction(game: Game, answers: Sequence[tuple[int, Feedback]]) -> list[int]:
    """Positions of a smallest-by-deletion set of answers that no code fits together.

    The last answer is kept if it takes part, so the message points at the newest answer and
    the earlier ones it contradicts.

    >>> from mmlab.game import Game, Feedback
    >>> game = Game.parse_size("4x6")
    >>> minimal_contradiction(game, [(game.parse("1122"), Feedback(0, 0)),
    ...                              (game.parse("3456"), Feedback(0, 1)),
    ...                              (game.parse("1111"), Feedback(1, 0))])
    [0, 2]
    """
    keep = list(range(len(answers)))
    for i in range(len(answers)):
        trial = [j for j in keep if j != i]
        if not _fits_all(game, [answers[j] for j in trial]):
            keep = trial
    return keep
