"""A chunk of a study: games of one strategy on one size, played wherever a worker runs.

``play_chunk`` is what local processes and Dask workers execute; it returns the rows as plain
columns (lists), which the coordinator turns into frames and writes to the store, so that workers
never load pandas. A deterministic strategy's games are read off its decision tree: the same
games and the same rows as playing them, faster since they share their first guesses. With
``whole_tree`` the whole tree is compiled once per process (when many games are played),
otherwise only the branches the chunk's secrets reach. Singley's deterministic methods need no
tree: the numba kernels of ``greedy_kernels`` play the chunk's games, the same as their trees'.
Only strategies that draw their guess from a set of top scorers get top-scorer figures, and only
those that keep the consistent set its sizes.

>>> chunk = Chunk("demo", "3x4", True, "black-white", "knuth", 7, None, ((0, 0, 0), (0, 5, 5)), "r1", True)
>>> played = play_chunk(chunk)
>>> played.games["guesses"], len(played), len(played.moves["move"]) == sum(played.games["guesses"])
([4, 3], 2, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
from numba.core import event

from mmlab.errors import MastermindError
from mmlab.experiments.playout import GameRecord, play_game
from mmlab.experiments.workers import first_time
from mmlab.game import Feedback, Game
from mmlab.game.kernels import feedback_against
from mmlab.strategies import REGISTRY, Strategy, make_strategy, parse_spec
from mmlab.strategies.greedy_kernels import (
    feedback_codes,
    kernel_parameters,
    secrets_games,
)
from mmlab.trees import DecisionTree
from mmlab.trees.tree import Node


@dataclass(frozen=True)
class Chunk:
    """Games ``(run, slot, secret)`` of ``strategy`` on ``size``; game ``(run, slot)`` draws from
    ``default_rng([seed, run, slot])``."""

    study: str
    size: str
    repeats: bool
    feedback: str
    strategy: str
    seed: int
    max_guesses: int | None
    games: tuple[tuple[int, int, int], ...]
    run_id: str
    whole_tree: bool = False  # compile a deterministic strategy's whole tree, not only the chunk's branches


    def game(self) -> Game:
        """The chunk's game: one object per game and process, so that its code and feedback tables
        are built once, not for each chunk."""
        return _game(self.size, self.repeats, self.feedback)


@lru_cache(maxsize=8)
def _game(size: str, repeats: bool, feedback: str) -> Game:
    """(a ``Game`` of its own, not one a caller may ``forget_tables`` of)"""
    return Game.parse_size(size, repeats=repeats, feedback=feedback)


@dataclass(frozen=True)
class PlayedChunk:
    """The ``games`` and ``moves`` rows of a played chunk, column by column (the store's columns;
    ``None`` where a move has no figure)."""

    games: dict[str, list]
    moves: dict[str, list]

    def __len__(self) -> int:
        return len(self.games["run"])


def _strategy(spec: str) -> Strategy:
    """One strategy object per spec and process: ``start`` resets it, its caches carry over."""
    return _cached_strategy(spec, _registered(spec))


def _tree(spec: str, game: Game) -> DecisionTree:
    return _cached_tree(spec, _registered(spec), game)


def _registered(spec: str) -> type | None:
    """The class a spec names now: a strategy registered again (a notebook cell run again) is a
    new class, and the caches must not play the one before."""
    return REGISTRY.get(parse_spec(spec)[0])


@lru_cache(maxsize=64)
def _cached_strategy(spec: str, cls: type | None) -> Strategy:
    return make_strategy(spec)


@lru_cache(maxsize=128)
def _cached_tree(spec: str, cls: type | None, game: Game) -> DecisionTree:
    return DecisionTree.build(game, make_strategy(spec))


def _tree_games(tree: DecisionTree, secrets: np.ndarray) -> dict[int, GameRecord]:
    """The games ``tree`` plays against ``secrets``, found in one walk that splits them by answer
    at each node, with the consistent-set size before each move."""
    game = tree.game
    paths: dict[int, list[tuple[Node, int]]] = {int(s): [] for s in secrets}
    stack = [(tree.root, np.unique(secrets))]
    while stack:
        node, group = stack.pop()
        codes = feedback_against(game.all_digits[node.guess], game.all_counts[node.guess], game.all_digits,
                                 game.all_counts, group, game.with_white)
        for secret, code in zip(group.tolist(), codes.tolist(), strict=True):
            paths[secret].append((node, code))
        for code, child in node.children.items():
            reached = group[codes == code]
            if reached.size:
                stack.append((child, reached))
    records = {}
    answers: dict[int, Feedback] = {}
    for secret, path in paths.items():
        n = len(path)
        feedbacks = []
        for _, code in path:
            fb = answers.get(code)
            if fb is None:
                fb = answers[code] = Feedback.from_code(code, game.pegs)
            feedbacks.append(fb)
        records[secret] = GameRecord(game, secret, tuple(node.guess for node, _ in path), tuple(feedbacks),
                                     tuple(node.evaluations for node, _ in path), path[-1][0].certain,
                                     tuple(node.consistent for node, _ in path), (-1,) * n, (False,) * n,
                                     (float("nan"),) * n)
    return records


def _kernel_games(strategy: Strategy, game: Game, secrets: np.ndarray) -> dict[int, GameRecord] | None:
    """The games of one of Singley's deterministic methods against ``secrets``, played by the numba
    kernels of ``greedy_kernels`` (the games its tree plays, move for move: ``tests/experiments/
    test_chunk.py``), or ``None`` for a strategy they do not play: seconds where the tree takes
    minutes (6x9)."""
    parameters = kernel_parameters(strategy)
    if parameters is None:
        return None
    strategy.start(game)  # refuses a game the method cannot play, as the tree would
    secrets = np.unique(secrets)
    known, played, codes = secrets_games(strategy.name, game.pegs, game.colours, secrets, **parameters)
    guesses = codes[codes >= 0]  # row by row: each secret's codes in the order played
    answers = feedback_codes(guesses, np.repeat(secrets, played), game.pegs, game.colours, game.with_white).tolist()
    feedbacks = {code: Feedback.from_code(code, game.pegs) for code in set(answers)}
    guesses, ends = guesses.tolist(), np.cumsum(played).tolist()
    records = {}
    for secret, n, k, end, until_known in zip(secrets.tolist(), played.tolist(), [0, *ends[:-1]], ends,
                                               known.tolist(), strict=True):
        records[secret] = GameRecord(game, secret, tuple(guesses[k:end]),
                                     tuple(feedbacks[answer] for answer in answers[k:end]), (0,) * n,
                                     until_known < n, (-1,) * n, (-1,) * n, (False,) * n, (float("nan"),) * n)
    return records


#: Games of up to this many codes keep the names of their codes for the process (else for a chunk).
NAMED_CODES = 2**20


@lru_cache(maxsize=8)
def _names(game: Game) -> dict[int, str]:
    return {}


def read_off_a_tree(strategy: Strategy, game: Game, max_guesses: int | None) -> bool:
    """Whether a strategy's games are read off its decision tree (a chunk's branches, or the whole
    tree): a deterministic strategy on a game whose codes are enumerated, with no cap on guesses."""
    return strategy.deterministic and game.enumerable and max_guesses is None


def play_chunk(chunk: Chunk) -> PlayedChunk:
    """Play every game of ``chunk``; returns its ``games`` and ``moves`` rows.

    The first chunk of a strategy and game in a process is preceded by one untimed game of it, so
    that loading the numba kernels (about 0.4 s) is charged to no strategy's seconds; a game during
    which numba compiled a kernel all the same (one that only a later game needs, without numba's
    cache: a fresh install, a new Dask machine) is played again, the same game, and timed then.
    """
    game = chunk.game()
    if first_time(("chunk", chunk.strategy, game)):
        play_chunk(replace(chunk, games=chunk.games[:1], whole_tree=False))
    strategy = _strategy(chunk.strategy)
    readable = read_off_a_tree(strategy, game, chunk.max_guesses)
    read_games: dict[int, GameRecord] = {}  # off the tree (or the kernels)
    if readable:
        start = time.perf_counter()
        secrets = np.array([g[2] for g in chunk.games], dtype=np.int64)
        kernel_games = _kernel_games(strategy, game, secrets)
        if kernel_games is not None:
            read_games = kernel_games
        else:
            tree = (_tree(chunk.strategy, game) if chunk.whole_tree  # built once per process
                    else DecisionTree.build(game, make_strategy(chunk.strategy), secrets=secrets))
            read_games = _tree_games(tree, secrets)
        per_game = (time.perf_counter() - start) / len(chunk.games)
    names = _names(game) if game.n_codes <= NAMED_CODES else {}
    # The same figures whether a game is read off the tree or played: top scorers only for
    # strategies that draw from them, consistent-set sizes only for those that keep the set.
    draws, tracks = not strategy.deterministic, strategy.tracks_consistent_set

    def name(code: int) -> str:
        text = names.get(code)
        if text is None:
            text = names[code] = game.format(code)
        return text

    games: dict[str, list] = {k: [] for k in ("run", "slot", "secret", "guesses", "won", "known", "evaluations",
                                              "seconds")}
    moves: dict[str, list] = {k: [] for k in ("run", "slot", "move", "guess", "black", "white", "consistent",
                                              "evaluations", "top_size", "secret_in_top", "chance")}
    with event.install_recorder("numba:compile") as compiled:  # (the kernels numba compiles during a game)
        for run, slot, secret in chunk.games:
            if readable:
                record, seconds = read_games[secret], per_game
            else:
                record, seconds = _timed_game(chunk, game, strategy, run, slot, secret, compiled.buffer)
            for key, value in (("run", run), ("slot", slot), ("secret", name(secret)),
                               ("guesses", record.n_guesses), ("won", record.won), ("known", record.known_after),
                               ("evaluations", record.total_evaluations), ("seconds", seconds)):
                games[key].append(value)
            n = record.n_guesses  # its moves, column by column
            moves["run"].extend([run] * n)
            moves["slot"].extend([slot] * n)
            moves["move"].extend(range(1, n + 1))
            moves["guess"].extend([name(guess) for guess in record.guesses])
            moves["black"].extend([fb.black for fb in record.feedbacks])
            moves["white"].extend([fb.white for fb in record.feedbacks])
            moves["consistent"].extend([size if size >= 0 else None for size in record.consistent] if tracks
                                       else [None] * n)
            moves["evaluations"].extend(record.evaluations)
            if draws:
                known = [size >= 0 for size in record.top_sizes]
                for key, values in (("top_size", record.top_sizes), ("secret_in_top", record.secret_in_top),
                                    ("chance", record.chances)):
                    moves[key].extend([value if k else None for value, k in zip(values, known, strict=True)])
            else:
                for key in ("top_size", "secret_in_top", "chance"):
                    moves[key].extend([None] * n)
    games.update(seed=[chunk.seed] * len(games["run"]), run_id=[chunk.run_id] * len(games["run"]))
    for columns in (games, moves):
        rows = len(columns["run"])
        columns.update(study=[chunk.study] * rows, strategy=[chunk.strategy] * rows, size=[chunk.size] * rows)
    return PlayedChunk(games, moves)


def _timed_game(chunk: Chunk, game: Game, strategy: Strategy, run: int, slot: int, secret: int,
                compiled: list) -> tuple[GameRecord, float]:
    """Game ``(run, slot)`` of ``chunk`` and its seconds: played again, and timed then, when numba
    compiled a kernel during it (an event added to ``compiled``, a "numba:compile" recorder's buffer)."""
    for _ in range(2):
        events = len(compiled)
        start = time.perf_counter()
        try:
            record = play_game(game, strategy, secret, np.random.default_rng([chunk.seed, run, slot]),
                               chunk.max_guesses)
        except MastermindError as e:
            raise type(e)(f"{chunk.strategy} on {game}, secret {game.format(secret)} (run {run}): {e}") from None
        seconds = time.perf_counter() - start
        if len(compiled) == events:
            break
    return record, seconds
