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
from dataclasses import dataclass

import numpy as np

from mmlab.errors import BadArgument, MastermindError, shown
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import Strategy, make_strategy, rng_of
from mmlab.strategies.exhaustive import PartitionStrategy
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
    """
    coach = make_strategy(spec)
    coach.start(game, np.random.default_rng(0))
    if isinstance(coach, ScriptedStrategy):
        raise BadArgument(f"{coach.spec} follows a script of its own and can only continue the game it plays "
                          "itself, so it cannot give hints; choose a strategy that reads any game, e.g. knuth or "
                          "most-parts")
    return coach


def _same_split(a: dict, b: dict) -> bool:
    """Whether two partition tables split the codes alike (a guess and one equivalent to it)."""
    return a["classes"] == b["classes"] and a["consistent"] == b["consistent"]


def _knowledge(game: Game, answers: list[tuple[int, Feedback]]) -> Knowledge:
    """The knowledge after ``answers``; raises ``InconsistentFeedback`` naming the answers that
    cannot all be true."""
    knowledge = Knowledge.initial(game)
    for guess, feedback in answers:
        knowledge = knowledge.update(guess, feedback)
    return knowledge


class CodemakerSession:
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
        game.require_enumerable("playing against a person's answers")
        self.game = game
        self.strategy = strategy_of(strategy)
        self.rng = rng_of(rng) or np.random.default_rng()
        self._restart()
        self.answers: list[tuple[int, Feedback]] = []
        self.knowledge = Knowledge.initial(game)
        self._proposal: int | None = None
        self.improvised = False  # the strategy could not follow a corrected history: consistent codes instead

    @property
    def won(self) -> bool:
        return bool(self.answers) and self.answers[-1][1] == self.game.win

    @property
    def over(self) -> bool:
        return self.won

    @property
    def remaining(self) -> int:
        """Codes that fit every answer so far."""
        return self.knowledge.n_consistent

    def candidates(self, limit: int = 50) -> list[int]:
        """The codes that still fit, if there are at most ``limit``; raises otherwise."""
        if self.remaining > limit:
            raise BadArgument(f"{self.remaining} codes remain, too many to list (at most {limit})")
        return [int(c) for c in self.knowledge.consistent]

    def next_guess(self) -> int:
        """The guess mmlab plays now (the same until it is answered)."""
        if self.won:
            raise BadArgument("the game is over: mmlab found the secret")
        if self._proposal is None:
            self._proposal = self._choose()
        return self._proposal

    def _choose(self) -> int:
        if not self.improvised:
            try:
                return self.strategy.guess(self.knowledge)
            except MastermindError:  # a stored tree or script cannot follow a corrected history
                self.improvised = True
        return int(self.knowledge.consistent[0])

    def answer(self, feedback: Feedback | tuple[int, int] | str) -> None:
        """Answer the current guess. A contradiction raises ``InconsistentFeedback`` naming the
        answers that cannot all be true, and changes nothing: answer again, or ``correct`` one."""
        feedback = self.game.answer(feedback)
        guess = self.next_guess()
        knowledge = self.knowledge.update(guess, feedback)
        kept = self.knowledge, self._proposal, self.improvised
        self.knowledge = knowledge
        self.answers.append((guess, feedback))
        self._proposal = None
        if not self.won:
            try:
                self.next_guess()  # chosen now, so that a strategy that fails leaves the game as it was
            except BaseException:
                self.answers.pop()
                self.knowledge, self._proposal, self.improvised = kept
                raise

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
            answers = answers[:move]
            knowledge = _knowledge(self.game, answers)
        self.knowledge = knowledge
        self.answers = answers
        self._changed()

    def undo(self) -> None:
        """Take back the last answer."""
        if not self.answers:
            raise BadArgument("nothing to undo: no answer given yet")
        self.answers.pop()
        self.knowledge = _knowledge(self.game, self.answers)
        self._changed()

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

    def _replay(self) -> bool:
        """Start the strategy again from the draws it started from and answer it as before;
        whether it played every guess answered (it does not after a correction that changed them)."""
        self.strategy.start(self.game, copy.deepcopy(self._draws))
        knowledge = Knowledge.initial(self.game)
        try:
            for guess, feedback in self.answers:
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


class CodebreakerSession:
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
    def won(self) -> bool:
        return bool(self.moves) and self.moves[-1][1] == self.game.win

    @property
    def over(self) -> bool:
        return self.won or self.gave_up

    @property
    def knowledge(self) -> Knowledge:
        if self._knowledge is None:
            self.game.require_enumerable("counting the codes that remain")
            self._knowledge = _knowledge(self.game, self.moves)
        return self._knowledge

    @property
    def remaining(self) -> int:
        """Codes that fit every answer so far."""
        return self.knowledge.n_consistent

    def guess(self, code: int | str) -> Feedback:
        """Score ``code`` (an index, or a code written out) against the secret and record the move."""
        if self.over:
            raise BadArgument("the game is over: start a new one")
        code = self.game.code(code)
        feedback = self.game.score(self.secret, code)
        self.moves.append((code, feedback))
        if self._knowledge is not None:
            self._knowledge = self._knowledge.update(code, feedback)
        return feedback

    def undo(self) -> None:
        """Take back the last guess (refused once the game is over)."""
        if self.over:
            raise BadArgument("the game is over: start a new one")
        if not self.moves:
            raise BadArgument("nothing to undo: no guess yet")
        self.moves.pop()
        self._knowledge = None

    def give_up(self) -> int:
        """End the game; returns the secret."""
        self.gave_up = True
        return self.secret

    def candidates(self, limit: int = 50) -> list[int]:
        """The codes that still fit, if there are at most ``limit``; raises otherwise."""
        if self.remaining > limit:
            tip = "" if self.over else "; ask for a hint"
            raise BadArgument(f"{self.remaining} codes remain, too many to list (at most {limit}){tip}")
        return [int(c) for c in self.knowledge.consistent]

    def hint(self, strategy: str = "knuth", options: int = 3) -> Hint:
        """The strategy's next guess, and the partition tables of it and of the strategy's next best
        guesses (partition strategies), ``options`` in all."""
        if self.over:
            raise BadArgument("the game is over: start a new one")
        knowledge = self.knowledge  # a game too large to count the codes left has no hints
        player = check_coach(self.game, strategy)
        try:
            suggestion = player.guess(knowledge)
        except MastermindError as e:
            raise BadArgument(f"{strategy} cannot suggest a guess after these moves: {e}") from None
        tables = [{"guess": suggestion, **partition_summary(knowledge, suggestion)}]
        if isinstance(player, PartitionStrategy):  # then its next best, each splitting the codes otherwise
            for code in player.best_guesses(knowledge, options + 1).tolist():
                table = {"guess": code, **partition_summary(knowledge, code)}
                if len(tables) < options and not _same_split(table, tables[0]):
                    tables.append(table)
        return Hint(self.remaining, player.spec, suggestion, tables)

