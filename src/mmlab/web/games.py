"""The live games of the web server, each behind a random id, with limits on their number and
size and expiry of idle games. Safe to share between threads: the registry has a lock, and each
game has its own lock for the moves made on it.

>>> from mmlab.game import Game
>>> registry = GameRegistry(max_games=10)
>>> live = registry.create(Game.parse_size("4x6"), "codebreaker", secret=Game.parse_size("4x6").parse("3632"))
>>> registry.get(live.id) is live, len(registry)
(True, 1)
>>> registry.create(Game.parse_size("6x8"), "codemaker")  # doctest: +ELLIPSIS
Traceback (most recent call last):
mmlab.web.errors.GameTooLarge: the 6x8 game has 262,144 codes, more than this server plays (at most 65,536); ...
"""

from __future__ import annotations

import contextlib
import math
import numbers
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from mmlab.errors import BadArgument, shown
from mmlab.game import ENUMERATION_LIMIT, Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.play.mathmind import MathMindSession, check_rule
from mmlab.play.session import CodebreakerSession, CodemakerSession, Hint, check_coach
from mmlab.strategies import Strategy, make_strategy
from mmlab.variants import MathMind
from mmlab.web.errors import GameNotFound, GameTooLarge, StaleRequest, TooManyGames, TooManyMoves
from mmlab.web.path import PathTracer

ROLES = ("codebreaker", "codemaker")
DEFAULT_STRATEGY = "knuth"
DEFAULT_MAX_GAMES = 1000
#: The codemaker role enumerates every code, and so do the codebreaker's counts and hints.
DEFAULT_MAX_CODES = 2**16
DEFAULT_IDLE_MINUTES = 30.0
#: Moves a game may hold: far more than any game needs, and a bound on the memory and time a
#: script repeating one guess can take.
MAX_MOVES = 100


def served(spec: str) -> Strategy:
    """The strategy ``spec``, refused if it asks to search harder than its defaults: one request
    could then keep a core busy for hours, and the server is shared.

    >>> served("evo:generations=100000000")
    Traceback (most recent call last):
    mmlab.errors.BadArgument: evo:generations=100000000: this server plays how much a strategy searches at its defaults (the literature's settings), so leave out generations=100000000; 'mmlab play' on your own machine takes any
    """
    strategy = make_strategy(spec)
    if strategy.raised_effort:
        raise BadArgument(f"{strategy.spec}: this server plays how much a strategy searches at its defaults (the "
                          f"literature's settings), so leave out {', '.join(strategy.raised_effort)}; 'mmlab play' on "
                          "your own machine takes any")
    return strategy


def minutes(n: float) -> str:
    """``n`` minutes in words, as messages give the idle time.

    >>> minutes(1), minutes(30), minutes(0.5)
    ('1 minute', '30 minutes', '0.5 minutes')
    """
    return f"{n:g} minute{'s' * (n != 1)}"


@dataclass(eq=False)
class LiveGame:
    """One game of the server: its session, the strategy that guesses (codemaker role) or gives
    hints (codebreaker role), and when it was last used. Hold ``lock`` while reading or moving."""

    id: str
    role: str
    strategy: str
    deterministic: bool  # whether the strategy has a decision tree
    session: CodebreakerSession | CodemakerSession | MathMindSession
    last_used: float
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    _counts: tuple[tuple, list[int]] | None = field(default=None, repr=False)
    _tracer: PathTracer | None = field(default=None, repr=False)
    _hint: tuple[tuple, Hint] | None = field(default=None, repr=False)

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def moves(self) -> list[tuple[int, Feedback]] | list[tuple[int, int]]:
        """The guesses so far with their answers (a MathMind game's: integers, ``MathMind.describe``)."""
        if isinstance(self.session, CodemakerSession):
            return self.session.answers
        return self.session.moves

    @property
    def knowledge(self) -> Knowledge:
        """What the answers so far say."""
        return self.session.knowledge

    def chain(self) -> list[Knowledge]:
        """The knowledge before the first move and after each move (``len(moves) + 1`` states)."""
        states = [Knowledge.initial(self.game)]
        for guess, feedback in self.moves:
            states.append(states[-1].update(guess, feedback))
        return states

    def remaining(self) -> list[int]:
        """The codes that fit the answers before the first move and after each move; a move
        added or taken back costs no replay of the others."""
        if isinstance(self.session, MathMindSession):  # (it keeps their count after each move)
            return self.session.counts()
        key = tuple(self.moves)
        known, known_counts = self._counts or (None, [])
        if key == known:
            return known_counts
        if known is not None and key[:-1] == known:
            counts = known_counts + [self.knowledge.n_consistent]
        elif known is not None and key == known[: len(key)]:
            counts = known_counts[: len(key) + 1]
        else:
            counts = [state.n_consistent for state in self.chain()]
        self._counts = (key, counts)
        return counts

    def hint(self, spec: str, options: int) -> Hint:
        """The codebreaker's hint from ``spec`` (see ``CodebreakerSession.hint``), worked out once
        per position: asking again (a reload, a second tab) costs nothing."""
        key = (tuple(self.moves), spec, options)
        if self._hint is None or self._hint[0] != key:
            self._hint = (key, self.session.hint(spec, options))
        return self._hint[1]

    def check_move(self, seen_moves: int | None, adds: bool = True) -> None:
        """Refuse a move asked for while seeing ``seen_moves`` moves when the game holds another
        number (a double click, or a second tab, played meanwhile), and one that ``adds`` a move
        beyond ``MAX_MOVES``."""
        if seen_moves is not None and seen_moves != len(self.moves):
            raise StaleRequest(f"this request was made on a view of the game after {shown(seen_moves)} moves, but "
                               f"it has {len(self.moves)} now (a double click, or another tab?): reload the game "
                               "(GET /api/games/ID) and try again")
        if adds and len(self.moves) >= MAX_MOVES:
            raise TooManyMoves(f"this game has {len(self.moves)} moves, as many as this server keeps: give up or "
                               "undo, or start a new game")

    def tracer(self) -> PathTracer:
        """Follows this game through its strategy's decision tree; raises ``BadTree`` if the strategy
        draws at random."""
        if self._tracer is None:
            self._tracer = PathTracer(self.game, self.strategy)
        return self._tracer


class GameRegistry:
    """Live games by id: at most ``max_games`` at once, each of at most ``max_codes`` codes, each
    dropped after ``idle_minutes`` without a request (counted from the end of its last request).
    ``clock`` gives seconds (tests pass a fake)."""

    def __init__(self, max_games: int = DEFAULT_MAX_GAMES, max_codes: int = DEFAULT_MAX_CODES,
                 idle_minutes: float = DEFAULT_IDLE_MINUTES, clock: Callable[[], float] = time.monotonic) -> None:
        for name, value in (("max_games", max_games), ("max_codes", max_codes)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise BadArgument(f"{name} must be a whole number, got {shown(value)}")
        if isinstance(idle_minutes, bool) or not isinstance(idle_minutes, numbers.Real):
            raise BadArgument(f"idle_minutes must be a number, got {shown(idle_minutes)}")
        if max_games < 1:
            raise BadArgument(f"the limit on live games must be at least 1, got {max_games}")
        if not 1 <= max_codes <= ENUMERATION_LIMIT:
            raise BadArgument(f"the limit on codes per game must be from 1 to {ENUMERATION_LIMIT:,} (the largest "
                              f"space mmlab enumerates), got {max_codes:,}")
        if not 0 < idle_minutes < math.inf:
            raise BadArgument(f"games must be kept for a finite number of idle minutes above 0, got {idle_minutes}")
        self.max_games = int(max_games)
        self.max_codes = int(max_codes)
        self.idle_minutes = float(idle_minutes)
        self.clock = clock
        self._games: dict[str, LiveGame] = {}
        self._rules: dict[Game, Game] = {}  # one Game per size in play, so its code tables are built once
        # and one MathMind per size and answer kind, so that each rule scores the first guesses once
        self._mathminds: dict[tuple[Game, str], MathMind] = {}
        self._busy: dict[LiveGame, int] = {}  # the games that requests are using, and how many requests
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._games)

    def create(self, game: Game, role: str, strategy: str | None = None, secret: int | None = None,
               seed: int | None = None, mathmind: str | None = None) -> LiveGame:
        """Start a game. ``strategy`` (a spec) guesses in the codemaker role and gives hints in the
        codebreaker role; ``secret`` (codebreaker role) is drawn from ``seed`` when not given.
        ``mathmind`` (one of MathMind's answers: higher-lower, euclidean, manhattan) makes it a
        MathMind game, codebreaker role only, whose hints follow one of MathMind's rules."""
        if role not in ROLES:
            raise BadArgument("role must be codebreaker (you guess) or codemaker (you keep the secret), "
                              f"got {shown(role)}")
        if game.n_codes > self.max_codes:
            larger = (f", or restart the server with a larger 'mmlab serve --max-codes' (at most {ENUMERATION_LIMIT:,})"
                      if game.n_codes <= ENUMERATION_LIMIT else "")
            raise GameTooLarge(f"the {game} game has {game.n_codes:,} codes, more than this server plays (at most "
                               f"{self.max_codes:,}); choose fewer pegs or colours{larger}")
        if secret is not None and role == "codemaker":
            raise BadArgument("a secret is for the codebreaker role: as codemaker you keep the secret yourself "
                              "and answer mmlab's guesses")
        if mathmind is not None and role == "codemaker":
            raise BadArgument(f"MathMind games ({mathmind} answers) are played here as codebreaker only: you guess "
                              "mmlab's secret ('mmlab mathmind play' watches mmlab guess one)")
        spec = check_rule(strategy or DEFAULT_STRATEGY) if mathmind is not None else None  # (before any table)
        self._check_room()
        with self._lock:
            game = self._rules.setdefault(game, game)
            variant = None if mathmind is None else self._mathminds.get((game, mathmind))
            if mathmind is not None and variant is None:
                variant = self._mathminds[game, mathmind] = MathMind(game, mathmind)
        rng = np.random.default_rng(seed)
        if variant is not None:
            return self._add(role, spec, True, MathMindSession(variant, secret, rng))
        served(strategy or DEFAULT_STRATEGY)
        if role == "codemaker":
            session: CodebreakerSession | CodemakerSession = CodemakerSession(game, strategy or DEFAULT_STRATEGY,
                                                                              rng)
            spec, deterministic = session.strategy.spec, session.strategy.deterministic
        else:
            coach = check_coach(game, strategy or DEFAULT_STRATEGY)  # refuse one that could never give a hint
            spec, deterministic = coach.spec, coach.deterministic
            session = CodebreakerSession(game, secret, rng)
        return self._add(role, spec, deterministic, session)

    def _add(self, role: str, spec: str, deterministic: bool,
             session: CodebreakerSession | CodemakerSession | MathMindSession) -> LiveGame:
        """The live game of ``session``, kept under a new random id if there is still room."""
        with self._lock:
            self._check_room(locked=True)
            live = LiveGame(secrets.token_urlsafe(12), role, spec, deterministic, session, self.clock())
            self._games[live.id] = live
        return live

    def get(self, game_id: str) -> LiveGame:
        """The live game with this id, marked as used now; raises ``GameNotFound``."""
        with self._lock:
            return self._find(game_id)

    @contextlib.contextmanager
    def using(self, game_id: str) -> Iterator[LiveGame]:
        """The live game with this id for the length of one request (raises ``GameNotFound``): it
        does not expire while a request on it runs, however long, and its idle time counts from
        the end of its last request."""
        with self._lock:
            live = self._find(game_id)
            self._busy[live] = self._busy.get(live, 0) + 1
        try:
            yield live
        finally:
            with self._lock:
                live.last_used = self.clock()
                self._busy[live] -= 1
                if not self._busy[live]:
                    del self._busy[live]
                    if self._games.get(live.id) is not live:  # left while the request ran
                        self._release([live])

    def _find(self, game_id: str) -> LiveGame:
        """``get`` with the lock held."""
        now = self.clock()
        live = self._games.get(game_id)
        if live is not None and self._idle(live, now):
            del self._games[game_id]
            self._release([live])
            live = None
        if live is None:
            raise GameNotFound(
                f"no game with id {shown(game_id)}: it was left, or it expired after {minutes(self.idle_minutes)} "
                "without a request; start a new game (POST /api/games)"
            )
        live.last_used = now
        return live

    def remove(self, game_id: str) -> None:
        """Leave a game; raises ``GameNotFound`` if there is none with this id."""
        self.get(game_id)
        with self._lock:
            live = self._games.pop(game_id, None)
            if live is not None:
                self._release([live])

    def expire(self) -> int:
        """Drop the games idle longer than ``idle_minutes``; returns how many were dropped."""
        with self._lock:
            return self._expire()

    def _expire(self) -> int:
        now = self.clock()
        idle = [game_id for game_id, live in self._games.items() if self._idle(live, now)]
        self._release([self._games.pop(game_id) for game_id in idle])
        return len(idle)

    def _release(self, gone: list[LiveGame]) -> None:
        """Free the tables of the sizes that the ``gone`` games played and no live game plays, nor
        a request still running on a game just left (the lock held): a server that has seen many
        sizes keeps only those in play."""
        in_play = {live.game for live in [*self._games.values(), *self._busy]}
        for game in {live.game for live in gone} - in_play:
            rules = self._rules.pop(game, None)
            if rules is not None:
                rules.forget_tables()
            for key in [key for key in self._mathminds if key[0] == game]:
                del self._mathminds[key]

    def _idle(self, live: LiveGame, now: float) -> bool:
        return live not in self._busy and now - live.last_used > self.idle_minutes * 60

    def _check_room(self, locked: bool = False) -> None:
        if not locked:
            with self._lock:
                return self._check_room(locked=True)
        self._expire()
        if len(self._games) >= self.max_games:
            raise TooManyGames(
                f"the server already holds {len(self._games)} live game{'s' * (len(self._games) != 1)}, its limit: "
                "leave a finished game (DELETE /api/games/ID) or try again once idle games expire "
                f"(after {minutes(self.idle_minutes)} without a request); 'mmlab serve --max-games' sets the limit"
            )
