"""One game with a person, in either role; the terminal dialogue and the web page share these.

``CodemakerSession``: the person keeps a secret and answers; mmlab guesses (Norvig's dialogue,
002). ``CodebreakerSession``: mmlab keeps a secret; the person guesses and may ask for hints.

>>> from mmlab.game import Game, Feedback
>>> game = Game.parse_size("4x6")
>>> maker = CodemakerSession(game, "knuth")
>>> game.format(maker.next_guess())
'1122'
>>> maker.answer(Feedback(1, 0)); game.format(maker.next_guess())
'1344'
>>> breaker = CodebreakerSession(game, secret=game.parse("3632"))
>>> breaker.guess(game.parse("1122")), breaker.remaining
(Feedback(black=1, white=0), 256)
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from mmlab.errors import (
    BadArgument,
    InconsistentFeedback,
    MastermindError,
    SearchFailed,
    shown,
)
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge, contradiction_message
from mmlab.strategies import Strategy, make_strategy, rng_of
from mmlab.strategies.exhaustive import PartitionStrategy
from mmlab.strategies.registry import REGISTRY
from mmlab.strategies.scoring import partition_summary
from mmlab.strategies.scripted import ScriptedStrategy
from mmlab.trees import DecisionTree, strategy_of


def check_coach(game: Game, spec: str) -> Strategy:
    """The strategy ``spec`` that gives hints in ``game``, refused now if it never could: one that
    cannot play the game, or one that follows a script of its own (Singley's greedy and local
    searches) and so can only continue the game it plays itself, not a player's.

    >>> check_coach(Game.parse_size("4x6"), "tabu")
    Traceback (most recent call last):
    mmlab.errors.BadArgument: tabu follows a script of its own and can only continue the game it plays itself, so it cannot give hints; choose a strategy that reads any game, e.g. knuth or most-parts
    >>> check_coach(Game.parse_size("8x12"), "tabu")
    Traceback (most recent call last):
    mmlab.errors.BadArgument: tabu follows a script of its own and can only continue the game it plays itself, so it cannot give hints; choose a strategy that reads any game, e.g. evo, ga, random, sample, shc
    >>> check_coach(Game.parse_size("8x12"), "knuth")
    Traceback (most recent call last):
    mmlab.errors.SpaceTooLarge: knuth needs every code of the game, and 8x12 has 4.3e+08 codes (limit 1.68e+07). Strategies that play without enumerating: evo, ga, random, sample, shc.
    """
    coach = make_strategy(spec)
    readers = ", ".join(name for name in searching_strategies() if not issubclass(REGISTRY[name], ScriptedStrategy))
    if coach.needs_enumeration:  # naming those that give hints there
        game.require_enumerable(coach.spec, readers)
    coach.start(game, np.random.default_rng(0))
    if isinstance(coach, ScriptedStrategy):
        examples = "knuth or most-parts" if game.enumerable else readers
        raise BadArgument(f"{coach.spec} follows a script of its own and can only continue the game it plays "
                          f"itself, so it cannot give hints; choose a strategy that reads any game, e.g. {examples}")
    return coach


#: Placements the constraint search checks, at most, to decide whether some code still fits the
#: answers in a game too large to enumerate (0.5-1.5 s at 8x12 and 10x20 when it runs out).
CHECK_NODES = 10**7
#: Placements a patient search checks, at most, for a code to play when the session improvises (the
#: strategy cannot follow the answers) and the check found none in time: as many as the strategies'
#: own searches (``Knowledge.find_consistent``), under a minute at 8x12 and 10x20.
PATIENT_NODES = 10**9
#: In such a game the codes that fit are counted by listing them: at most this many, within
#: ``CHECK_NODES`` placements.
COUNT_LIMIT = 1000
#: What is said of the codes left in such a game with answers of black pegs only, which the
#: constraint search does not list (``Knowledge.count_consistent``).
NOT_COUNTED = "the codes left are not counted in a game this large with answers of black pegs only"


def searching_strategies() -> list[str]:
    """The strategies that play without the list of every code, so in games too large to enumerate.

    >>> "sample" in searching_strategies(), "knuth" in searching_strategies()
    (True, False)
    """
    return sorted(name for name, cls in REGISTRY.items() if not cls.needs_enumeration)


#: A hint looks this many guesses per option down the strategy's ranking for guesses that split
#: the codes otherwise (with black pegs only, a score's top often holds a dozen guesses that split
#: them alike without being symmetric to each other).
HINT_CANDIDATES = 20


def _same_split(a: dict, b: dict) -> bool:
    """Whether two partition tables split the codes alike (a guess and one equivalent to it)."""
    return a["classes"] == b["classes"] and a["consistent"] == b["consistent"]


def split_options(guesses: Iterable[int], table_of: Callable[[int], dict], options: int) -> list[dict]:
    """A hint's partition tables: ``{"guess": g, **table_of(g)}`` for ``guesses`` in order, the
    first always, then each that splits the codes otherwise than those kept, ``options`` in all."""
    tables: list[dict] = []
    for guess in guesses:
        table = {"guess": guess, **table_of(guess)}
        if not any(_same_split(table, kept) for kept in tables):
            tables.append(table)
        if len(tables) >= options:
            break
    return tables


def _knowledge(game: Game, answers: list[tuple[int, Feedback]]) -> Knowledge:
    """The knowledge after ``answers``: explicit when the game is enumerable, and then raises
    ``InconsistentFeedback`` naming the answers that cannot all be true; implicit otherwise (see
    ``_search``)."""
    knowledge = Knowledge.initial(game)
    for guess, feedback in answers:
        knowledge = knowledge.update(guess, feedback)
    return knowledge


def _search(knowledge: Knowledge, max_nodes: int | None = None) -> tuple[int | None, bool, int]:
    """A code that fits every answer of implicit ``knowledge``, found by the constraint search
    within ``max_nodes`` placements (default ``CHECK_NODES``); whether the search decided (a code found, or none fits); and
    the placements checked. After a winning answer only the code guessed can fit.

    >>> game = Game.parse_size("8x12")
    >>> k = Knowledge.initial(game).update(game.parse("1 1 1 1 2 2 2 2"), (0, 0))
    >>> code, decided, _ = _search(k)
    >>> k.is_consistent(code), decided, _search(k.update(game.parse("1 1 1 1 1 1 1 1"), (1, 0)))[:2]
    (True, True, (None, True))
    """
    if not knowledge.history:
        return 0, True, 0  # (every code fits)
    if knowledge.history[-1][1] == knowledge.game.win:
        guess = knowledge.history[-1][0]
        return (guess if knowledge.is_consistent(guess) else None), True, 1
    max_nodes = CHECK_NODES if max_nodes is None else max_nodes
    code, spent = knowledge.sample(np.random.default_rng(0), max_nodes)  # its own draws: the strategy's stay as they were
    return code, code is not None or spent < max_nodes, spent


def _contradiction(game: Game, answers: list[tuple[int, Feedback]], max_nodes: int | None = None
                   ) -> InconsistentFeedback:
    """The error for ``answers`` that no code fits, naming a smallest-by-deletion set of them as
    ``Knowledge.update`` does in an enumerable game, found by the constraint search: an answer is
    left out when the search shows that the others still contradict each other; one it cannot
    decide about within ``max_nodes`` placements (default ``CHECK_NODES``) stays (no code fits the set named either way),
    and so do the answers not tried once ``4 * max_nodes`` placements are spent.

    >>> game = Game.parse_size("8x12")
    >>> answers = [(game.parse(g), game.answer(a)) for g, a in
    ...            (("1 1 2 2 3 3 4 4", "0,0"), ("5 6 7 8 9 10 11 12", "2,2"), ("1 2 3 4 1 2 3 4", "1,0"))]
    >>> print(_contradiction(game, answers))
    no code fits all of these answers, so one of them is wrong: guess 1: 1 1 2 2 3 3 4 4 -> 0,0; guess 3: 1 2 3 4 1 2 3 4 -> 1,0
    """
    max_nodes = CHECK_NODES if max_nodes is None else max_nodes
    keep, spent = list(range(len(answers))), 0
    for i in range(len(answers)):
        if spent >= 4 * max_nodes:
            break
        trial = [j for j in keep if j != i]
        code, decided, nodes = _search(_knowledge(game, [answers[j] for j in trial]), max_nodes)
        spent += nodes
        if code is None and decided:
            keep = trial
    return InconsistentFeedback(contradiction_message(game, answers, keep))


def _require_fit(game: Game, answers: list[tuple[int, Feedback]], secret_at: int) -> None:
    """Raise ``InconsistentFeedback`` naming two answers when the guess of answer ``secret_at``
    (0-based), taken as the secret, would not give one of the others its answer.

    >>> game = Game.parse_size("8x12")
    >>> answers = [(game.parse(g), game.answer(a)) for g, a in
    ...            (("1 1 2 2 3 3 4 5", "8,0"), ("11 7 7 8 8 4 5 11", "1,1"))]
    >>> _require_fit(game, answers, 0)
    Traceback (most recent call last):
    mmlab.errors.InconsistentFeedback: no code fits all of these answers, so one of them is wrong: guess 1: 1 1 2 2 3 3 4 5 -> 8,0; guess 2: 11 7 7 8 8 4 5 11 -> 1,1
    """
    secret = answers[secret_at][0]
    for i, (guess, feedback) in enumerate(answers):
        if game.score(secret, guess) != feedback:
            raise InconsistentFeedback(contradiction_message(game, answers, sorted({secret_at, i})))


class _Counting:
    """Counting and listing the codes that fit the answers, in either role: from the explicit
    knowledge, or in a game too large to enumerate by listing them with the constraint search."""

    game: Game
    knowledge: Knowledge
    _counted: tuple[tuple, int, bool] | None = None  # (answers, codes counted or listed, exact)
    _known_fit = True  # whether a code is known to fit every answer (the constraint search found one)

    @property
    def remaining(self) -> int | None:
        """Codes that fit every answer so far; ``None`` in a game too large to enumerate when they
        are too many to count (see ``count``)."""
        n, exact = self.count()
        return n if exact else None

    def count(self) -> tuple[int, bool]:
        """How many codes fit every answer so far, and whether that is exact. A game too large to
        enumerate counts them by listing them with the constraint search
        (``Knowledge.count_consistent``), up to ``COUNT_LIMIT`` codes within ``CHECK_NODES``
        placements; when the listing stops there, the count is the codes listed, a lower bound
        (black-only answers, not listed: the code found by the check, if any).

        >>> session = CodemakerSession("8x12", "sample", rng=1)
        >>> session.count()
        (429981696, True)
        >>> session.answer((1, 2)); session.count()
        (1000, False)
        """
        key = self.knowledge.history
        if self._counted is None or self._counted[0] != key:
            self._counted = (key, *self.knowledge.count_consistent(COUNT_LIMIT, CHECK_NODES))
        _, n, exact = self._counted
        return (n, True) if exact else (max(n, int(self._known_fit)), False)

    @property
    def counted(self) -> bool:
        """Whether ``count`` counts the codes left, or lists some of them; not after an answer in a
        game too large to enumerate with answers of black pegs only, where it only knows whether
        the check found a code that fits (see ``NOT_COUNTED``)."""
        return self.knowledge.explicit or self.game.with_white or not self.knowledge.history

    def _candidates(self, limit: int, tip: str = "") -> list[int]:
        """The codes that still fit, if there are at most ``limit``; raises otherwise (``tip`` ends
        the message)."""
        if self.knowledge.explicit:
            if self.remaining > limit:
                raise BadArgument(f"{self.remaining} codes remain, too many to list (at most {limit}){tip}")
            return [int(c) for c in self.knowledge.consistent]
        n, exact = self.count()
        if not self.game.with_white:
            raise BadArgument(f"{NOT_COUNTED}{tip}")
        if not exact or n > limit:
            raise BadArgument((f"{n if exact else f'at least {n}'} codes remain, too many to list (at most {limit})"
                               if n > limit else f"too many codes remain to list (at most {limit}); how many is "
                               "unknown") + tip)
        return sorted(self.game.index_of(row) for row in self.knowledge.list_consistent(COUNT_LIMIT, CHECK_NODES))


class CodemakerSession(_Counting):
    """The person keeps a secret; mmlab plays ``strategy`` (a spec, a strategy or a decision tree).

    >>> game = Game.parse_size("3x3")
    >>> session = CodemakerSession(game, "knuth")
    >>> session.answer("0,2")   # to its first guess, 112
    >>> [game.format(c) for c in session.candidates()], game.format(session.next_guess())
    (['221', '231', '321'], '231')
    """

    def __init__(self, game: Game | str, strategy: Strategy | DecisionTree | str = "knuth",
                 rng: np.random.Generator | int | None = None) -> None:
        game = Game.of(game)
        self.game = game
        self.strategy = strategy_of(strategy)
        if self.strategy.needs_enumeration:
            game.require_enumerable(f"{self.strategy.spec}, playing against a person's answers,",
                                    ", ".join(searching_strategies()))
        self.rng = rng_of(rng) or np.random.default_rng()
        self._restart()
        self.answers: list[tuple[int, Feedback]] = []
        #: explicit when the game is enumerable; otherwise implicit, and each answer is checked by
        #: the constraint search (``checked``)
        self.knowledge = Knowledge.initial(game)
        #: whether a code is known to fit every answer so far (in a game too large to enumerate,
        #: the search may run out of its budget before it decides; then the answer is taken unchecked)
        self.checked = True
        self._fit: int | None = None  # the code the search found to fit every answer (implicit knowledge)
        #: a strategy that draws at random, as it was before each of its guesses in a game too large to
        #: enumerate, keyed by the answers it had (an undo restores it instead of replaying the game)
        self._states: dict[int, tuple[tuple, Strategy]] | None = (
            None if self.knowledge.explicit or self.strategy.deterministic else {})
        self._proposal: int | None = None
        self.improvised = False  # the strategy could not follow a corrected history: consistent codes instead

    @property
    def won(self) -> bool:
        return bool(self.answers) and self.answers[-1][1] == self.game.win

    @property
    def _known_fit(self) -> bool:
        return self._fit is not None

    @property
    def over(self) -> bool:
        return self.won

    def candidates(self, limit: int = 50) -> list[int]:
        """The codes that still fit, if there are at most ``limit``; raises otherwise."""
        return self._candidates(limit)

    def next_guess(self) -> int:
        """The guess mmlab plays now (the same until it is answered)."""
        if self.won:
            raise BadArgument("the game is over: mmlab found the secret")
        if self._proposal is None:
            self._proposal = self._choose()
        return self._proposal

    def _choose(self) -> int:
        if not self.improvised:
            self._keep_state()
            try:
                return self.strategy.guess(self.knowledge)
            except InconsistentFeedback:  # its own search showed what the session's could not decide in time
                if not self.knowledge.explicit:
                    raise _contradiction(self.game, self.answers) from None
                self.improvised = True
            except MastermindError:  # a stored tree or script cannot follow a corrected history
                self.improvised = True
        if not self.knowledge.explicit:
            return self._fit if self._fit is not None else self._patient_fit()
        return int(self.knowledge.consistent[0])

    def _patient_fit(self) -> int:
        """A code that fits every answer, to improvise with when the check found none in time,
        found by a patient search (``PATIENT_NODES`` placements) as a strategy finds its guess: so
        the answer is taken, as when the strategy plays. A proof that no code fits is refused
        naming the answers, as the check's is; a search that runs out, saying so."""
        try:  # (other draws than the check's, which found nothing)
            return self.knowledge.find_consistent(np.random.default_rng(1), PATIENT_NODES)[0]
        except InconsistentFeedback:
            raise _contradiction(self.game, self.answers) from None
        except SearchFailed:
            raise SearchFailed("a long search found no code that fits every answer so far, nor showed that none "
                               "does: one of them may be wrong, and mmlab has no guess to play after them") from None

    def answer(self, feedback: Feedback | tuple[int, int] | str) -> None:
        """Answer the current guess. A contradiction raises ``InconsistentFeedback`` naming the
        answers that cannot all be true, and changes nothing: answer again, or ``correct`` one. So
        does ``SearchFailed`` in a game too large to enumerate, when the strategy has no guess to
        play and a patient search finds no code that fits the answers, nor shows that none does."""
        feedback = self.game.answer(feedback)
        guess = self.next_guess()
        knowledge = self.knowledge.update(guess, feedback)
        fit = self._check(knowledge)
        kept = self.knowledge, self._proposal, self.improvised, self.checked, self._fit
        self.knowledge = knowledge
        self.answers.append((guess, feedback))
        self._proposal = None
        self.checked, self._fit = fit
        if not self.won:
            strategy = self._copy_of_strategy()
            try:
                self.next_guess()  # chosen now, so that a strategy that fails leaves the game as it was
            except BaseException:
                self.answers.pop()
                self.knowledge, self._proposal, self.improvised, self.checked, self._fit = kept
                self._put_back(strategy)
                raise

    def _copy_of_strategy(self) -> Strategy | None:
        """The strategy as it is, to put back if its next guess fails; ``None`` in a game small
        enough to check every answer (the strategy is never asked after a refused one), or for a
        strategy that cannot be copied (a script running)."""
        return None if self.knowledge.explicit else self._copied_strategy()

    def _copied_strategy(self) -> Strategy | None:
        """A copy of the strategy sharing the game (and its tables); ``None`` for one that cannot be
        copied (a script running)."""
        try:
            return copy.deepcopy(self.strategy, {id(self.game): self.game})
        except TypeError:
            return None

    def _put_back(self, strategy: Strategy | None) -> None:
        """After a refused answer, the strategy as it was before it saw it: the copy, or one that
        plays the game again up to its pending guess (a strategy that kept the refused answer
        would take it when given again)."""
        if strategy is not None:
            self.strategy = strategy
        elif not self.knowledge.explicit:
            proposal = self._proposal
            self._changed()
            if not self.improvised and self.strategy.guess(self.knowledge) != proposal:
                self.improvised = True
            self._proposal = proposal

    def _check(self, knowledge: Knowledge, strict: bool = True) -> tuple[bool, int | None]:
        """Whether the search found a code that fits every answer of ``knowledge``, and that code
        (always true, with no code, for explicit knowledge, which raised already). When it shows
        that none fits, raises ``InconsistentFeedback`` naming the answers that cannot all be true
        (``strict``), or answers as when it ran out of its budget."""
        if knowledge.explicit:
            return True, None
        code, decided, _ = _search(knowledge)
        if code is None and decided and strict:
            raise _contradiction(self.game, list(knowledge.history))
        return code is not None, code

    def correct(self, move: int, feedback: Feedback | tuple[int, int] | str) -> None:
        """Replace the answer given to guess number ``move`` (1-based); every other answer stays,
        except that the winning answer ends the game there: the later answers, which must fit that
        secret too, are dropped. Refused, with the reason, if the answers would still contradict
        each other.

        >>> session = CodemakerSession(Game.parse_size("3x3"), "knuth")
        >>> session.answer((0, 2)); session.answer((1, 2))   # to 112 and 231, keeping 321
        >>> session.correct(1, (3, 0))   # then 231 would have got 0,2
        Traceback (most recent call last):
        mmlab.errors.InconsistentFeedback: no code fits all of these answers, so one of them is wrong: guess 1: 112 -> 3,0; guess 2: 231 -> 1,2
        """
        if not 1 <= move <= len(self.answers):
            raise BadArgument(f"there is no answered guess number {shown(move)} "
                              f"(answered so far: {len(self.answers)})")
        feedback = self.game.answer(feedback)
        answers = list(self.answers)
        answers[move - 1] = (answers[move - 1][0], feedback)
        knowledge = _knowledge(self.game, answers)
        if feedback == self.game.win:
            _require_fit(self.game, answers, move - 1)  # (explicit knowledge has checked it, implicit has not)
            answers = answers[:move]
            knowledge = _knowledge(self.game, answers)
        self._reset(answers, knowledge, self._check(knowledge))

    def undo(self) -> None:
        """Take back the last answer."""
        if not self.answers:
            raise BadArgument("nothing to undo: no answer given yet")
        knowledge = _knowledge(self.game, self.answers[:-1])
        self._reset(self.answers[:-1], knowledge, self._check(knowledge, strict=False))

    def _reset(self, answers: list[tuple[int, Feedback]], knowledge: Knowledge, fit: tuple[bool, int | None]) -> None:
        """Take ``answers`` (with their ``knowledge`` and check) as the game's after a correction or
        an undo. In a game too large to enumerate the next guess is chosen now, as after an answer:
        a strategy that shows the answers contradict each other leaves the game as it was."""
        kept = self.answers, self.knowledge, (self.checked, self._fit)
        self.answers, self.knowledge, (self.checked, self._fit) = answers, knowledge, fit
        self._changed()
        if knowledge.explicit or self.won:
            return
        try:
            self.next_guess()
        except MastermindError:
            self.answers, self.knowledge, (self.checked, self._fit) = kept
            self._changed()
            raise

    def _changed(self) -> None:
        """After a correction or an undo the strategy is asked again (it may follow the new
        history). One that draws at random starts again from the same draws and replays the
        answers kept, so after an undo it plays on as before, and back at the start it plays the
        same first guess (with a seed, the game the seed names)."""
        self._proposal = None
        self.improvised = False
        if not self.strategy.deterministic:
            self.improvised = not self._replay()
        elif not self.answers:
            self.strategy.start(self.game, self.rng)

    def _restart(self) -> None:
        self._draws = copy.deepcopy(self.rng)  # where the strategy's random draws start
        self.strategy.start(self.game, self.rng)

    def _keep_state(self) -> None:
        """Keep the strategy as it is before its next guess (see ``_states``); a strategy that
        cannot be copied (a script running) is replayed instead."""
        if self._states is not None:
            kept = self._copied_strategy()
            if kept is None:
                self._states = None
                return
            self._states[len(self.answers)] = (tuple(self.answers), kept)

    def _replay(self) -> bool:
        """Start the strategy again from the draws it started from and answer it as before;
        whether it played every guess answered (it does not after a correction that changed them).
        In a game too large to enumerate it starts from the latest state kept before a guess whose
        answers are still the game's: the same strategy as a replay from the start, without its
        searches (seconds a guess at 10x20)."""
        start = max((n for n, (answers, _) in (self._states or {}).items()
                     if n <= len(self.answers) and answers == tuple(self.answers[:n])), default=0)
        if start:
            self.strategy = copy.deepcopy(self._states[start][1], {id(self.game): self.game})
        else:
            self.strategy.start(self.game, copy.deepcopy(self._draws))
        knowledge = _knowledge(self.game, self.answers[:start])
        try:
            for guess, feedback in self.answers[start:]:
                if self.strategy.guess(knowledge) != guess:
                    return False
                knowledge = knowledge.update(guess, feedback)
        except MastermindError:
            return False
        return True


@dataclass(frozen=True)
class Hint:
    """What a strategy would play next, and how its best guesses split the remaining codes."""

    remaining: int
    strategy: str
    suggestion: int
    options: list[dict]  # partition tables (``partition_summary``) of the suggestion and other top scorers
    exact: bool = True  # whether ``remaining`` is the count, or (a game too large to count them) a lower bound
    consistent: bool = True  # whether the suggestion fits every answer (may win now)


class SecretKept:
    """What every game has in which mmlab keeps ``secret`` and a person guesses: ``moves`` (each
    guess with its answer), won when the last answer is ``winning``, over when won or given up."""

    secret: int
    moves: list[tuple[int, Any]]  # (the answers: a Feedback, or MathMind's integer)
    gave_up: bool

    @property
    def winning(self) -> Any:
        """The answer of the secret to itself."""
        raise NotImplementedError

    @property
    def won(self) -> bool:
        return bool(self.moves) and self.moves[-1][1] == self.winning

    @property
    def over(self) -> bool:
        return self.won or self.gave_up

    def give_up(self) -> int:
        """End the game; returns the secret."""
        self.gave_up = True
        return self.secret

    def require_playing(self) -> None:
        """Refuse a move or a hint once the game is over."""
        if self.over:
            raise BadArgument("the game is over: start a new one")

    def _take_back(self) -> None:
        """Drop the last move, refused once the game is over or before any move."""
        self.require_playing()
        if not self.moves:
            raise BadArgument("nothing to undo: no guess yet")
        self.moves.pop()


class CodebreakerSession(SecretKept, _Counting):
    """mmlab keeps ``secret`` (drawn at random when not given); the person guesses.

    >>> session = CodebreakerSession(Game.parse_size("3x3"), secret="321")
    >>> session.guess("112"), session.remaining, session.guess("321"), session.won
    (Feedback(black=0, white=2), 3, Feedback(black=3, white=0), True)
    """

    def __init__(self, game: Game | str, secret: int | str | None = None,
                 rng: np.random.Generator | int | None = None) -> None:
        self.game = game = Game.of(game)
        self.rng = rng_of(rng) or np.random.default_rng()
        self.secret = int(self.rng.integers(game.n_codes)) if secret is None else game.code(secret)
        self.moves: list[tuple[int, Feedback]] = []
        self.gave_up = False
        self._knowledge: Knowledge | None = None

    @property
    def winning(self) -> Feedback:
        return self.game.win

    @property
    def knowledge(self) -> Knowledge:
        if self._knowledge is None:
            self._knowledge = _knowledge(self.game, self.moves)
        return self._knowledge

    def guess(self, code: int | str) -> Feedback:
        """Score ``code`` (an index, or a code written out) against the secret and record the move."""
        self.require_playing()
        code = self.game.code(code)
        feedback = self.game.score(self.secret, code)
        self.moves.append((code, feedback))
        if self._knowledge is not None:
            self._knowledge = self._knowledge.update(code, feedback)
        return feedback

    def undo(self) -> None:
        """Take back the last guess (refused once the game is over)."""
        self._take_back()
        self._knowledge = None

    def candidates(self, limit: int = 50) -> list[int]:
        """The codes that still fit, if there are at most ``limit``; raises otherwise.

        >>> session = CodebreakerSession("8x12", secret="3 1 4 1 5 9 2 6")
        >>> session.guess("1 2 3 4 5 6 7 8"), session.count()
        (Feedback(black=1, white=5), (1000, False))
        >>> session.guess("3 1 4 1 5 9 12 12"), session.count(), len(session.candidates(limit=100))
        (Feedback(black=6, white=0), (69, True), 69)
        """
        return self._candidates(limit, "" if self.over else "; ask for a hint")

    def hint(self, strategy: str = "knuth", options: int = 3) -> Hint:
        """The strategy's next guess, and the partition tables of it and of the strategy's next best
        guesses (partition strategies), ``options`` in all. In a game too large to enumerate, the
        guess of a strategy that plays there, with no tables (they split every code that fits).

        >>> session = CodebreakerSession("8x12", secret="3 1 4 1 5 9 2 6")
        >>> session.guess("1 1 2 2 3 3 4 4")
        Feedback(black=1, white=4)
        >>> hint = session.hint("sample")
        >>> hint.remaining, hint.exact, hint.options, hint.strategy
        (1000, False, [], 'sample')
        """
        self.require_playing()
        knowledge = self.knowledge
        player = check_coach(self.game, strategy)
        try:
            suggestion = player.guess(knowledge)
        except MastermindError as e:
            raise BadArgument(f"{strategy} cannot suggest a guess after these moves: {e}") from None
        if not knowledge.explicit:
            remaining, exact = self.count()
            return Hint(remaining, player.spec, suggestion, [], exact, knowledge.is_consistent(suggestion))
        guesses = [suggestion]
        if isinstance(player, PartitionStrategy):  # then its next best, each splitting the codes otherwise
            guesses += player.best_guesses(knowledge, HINT_CANDIDATES * options).tolist()
        tables = split_options(guesses, lambda code: partition_summary(knowledge, code), options)
        return Hint(self.remaining, player.spec, suggestion, tables, consistent=knowledge.is_consistent(suggestion))

