"""What the API answers about a live game: its state, partition tables, hints, its tree path.

Call these holding the game's lock.

>>> from mmlab.game import Game
>>> from mmlab.web.games import GameRegistry
>>> game = Game.parse_size("4x6")
>>> live = GameRegistry().create(game, "codebreaker", secret=game.parse("3632"))
>>> _ = live.session.guess(game.parse("1122"))
>>> view = state(live, idle_minutes=30)
>>> view.remaining, view.moves[0].black, view.secret
(256, 1, None)
>>> partition(live, game.parse("1344")).parts
13
"""

from __future__ import annotations

from mmlab.errors import BadArgument
from mmlab.game import Feedback, Game
from mmlab.play.mathmind import MathMindSession
from mmlab.play.session import CodemakerSession, Hint, SecretKept
from mmlab.strategies.scoring import partition_summary
from mmlab.web.games import LiveGame
from mmlab.web.models import (Answer, AnswerClass, Candidates, GameState, HintOut, Move, PartitionTable, PathNode,
                              TreePath)


def state(live: LiveGame, idle_minutes: float) -> GameState:
    """The whole state of a game as the page shows it."""
    game, session = live.game, live.session
    if isinstance(session, MathMindSession):
        return _mathmind_state(live, session, idle_minutes)
    remaining = live.remaining()
    moves = [Move(move=i, guess=game.format(g), black=fb.black, white=fb.white, reply=_reply(game, fb),
                  remaining=remaining[i])
             for i, (g, fb) in enumerate(live.moves, 1)]
    if isinstance(session, CodemakerSession):
        over = won = session.won
        next_guess = None if won else game.format(session.next_guess())  # may set improvised: first
        gave_up, secret, improvised = False, None, session.improvised
    else:
        over, won, gave_up, improvised, next_guess = session.over, session.won, session.gave_up, False, None
        secret = game.format(session.secret) if session.over else None
    return GameState(
        id=live.id, size=game.size, pegs=game.pegs, colours=game.colours, repeats=game.repeats,
        feedback=game.feedback, role=live.role,
        strategy=live.strategy, deterministic=live.deterministic, moves=moves,
        remaining=remaining[-1], won=won, over=over, gave_up=gave_up, secret=secret, next_guess=next_guess,
        improvised=improvised, answers=[Answer(black=b, white=w) for b, w in game.feedbacks()],
        idle_minutes=idle_minutes,
    )


def _mathmind_state(live: LiveGame, session: MathMindSession, idle_minutes: float) -> GameState:
    """``state`` of a MathMind game: answers in words, no pegs."""
    game, remaining = live.game, live.remaining()
    moves = [Move(move=i, guess=game.format(g), black=None, white=None, reply=session.describe(said),
                  remaining=remaining[i]) for i, (g, said) in enumerate(session.moves, 1)]
    return GameState(
        id=live.id, size=game.size, pegs=game.pegs, colours=game.colours, repeats=game.repeats,
        feedback=session.mathmind.feedback, role=live.role, strategy=live.strategy, deterministic=live.deterministic,
        moves=moves, remaining=remaining[-1], won=session.won, over=session.over, gave_up=session.gave_up,
        secret=game.format(session.secret) if session.over else None, next_guess=None, improvised=False, answers=[],
        rule_guesses=session.rule_guesses(live.strategy) if session.over else None, idle_minutes=idle_minutes,
    )


def _reply(game: Game, fb: Feedback) -> str:
    """A standard answer in words, as the page says it: '1 black, 2 white', or '1 black'."""
    return f"{fb.black} black, {fb.white} white" if game.with_white else f"{fb.black} black"


def partition(live: LiveGame, guess: int) -> PartitionTable:
    """How ``guess`` would split the codes that fit the answers so far."""
    session = live.session
    if isinstance(session, MathMindSession):
        return _table(live, guess, session.partition(guess))
    return _table(live, guess, partition_summary(live.knowledge, guess))


def hint(live: LiveGame, hint: Hint) -> HintOut:
    """A codebreaker's hint (``LiveGame.hint``) as the API gives it."""
    return HintOut(remaining=hint.remaining, strategy=hint.strategy, suggestion=live.game.format(hint.suggestion),
                   options=[_table(live, option["guess"], option) for option in hint.options])


def candidates(live: LiveGame, limit: int) -> Candidates:
    """The codes that fit every answer, when there are at most ``limit``."""
    session, game = live.session, live.game
    if isinstance(session, SecretKept):
        codes = session.candidates(limit)
    else:
        knowledge = session.knowledge
        if knowledge.n_consistent > limit:
            raise BadArgument(f"{knowledge.n_consistent} codes fit your answers, too many to list (at most {limit})")
        codes = [int(c) for c in knowledge.consistent]
    return Candidates(remaining=len(codes), codes=[game.format(c) for c in codes])


def path(live: LiveGame) -> TreePath:
    """The nodes of the strategy's decision tree that a codemaker game has visited."""
    session = live.session
    assert isinstance(session, CodemakerSession)
    pending = None if session.won else session.next_guess()
    nodes = [PathNode(**{**node, "answer": None if node["answer"] is None else Answer(black=node["answer"][0],
                                                                                    white=node["answer"][1])})
             for node in live.tracer().nodes(live.chain(), pending)]
    return TreePath(strategy=live.tracer().strategy.spec, nodes=nodes, on_tree=all(n.strategy_move for n in nodes))


def _table(live: LiveGame, guess: int, summary: dict) -> PartitionTable:
    game, session = live.game, live.session
    if isinstance(session, MathMindSession):  # the winning answer first, as in the standard game's tables
        said = sorted(summary["classes"].items(), key=lambda item: item[0] != session.winning)
        classes = [AnswerClass(black=None, white=None, reply=session.describe(a), win=a == session.winning, codes=n)
                   for a, n in said]
    else:
        classes = [AnswerClass(black=fb.black, white=fb.white, reply=_reply(game, fb), win=fb == game.win, codes=n)
                   for fb, n in summary["classes"].items()]
    return PartitionTable(guess=game.format(guess), candidates=summary["candidates"], consistent=summary["consistent"],
                          parts=summary["parts"], largest=summary["largest"], expected_size=summary["expected_size"],
                          entropy_bits=summary["entropy_bits"], classes=classes)
