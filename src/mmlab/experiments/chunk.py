"""A chunk of a study: games of one strategy on one size, played wherever a worker runs.

``play_chunk`` is what local processes and Dask workers execute; it returns plain frames that the
coordinator writes to the store. A deterministic strategy on an enumerable game is compiled into
its decision tree once per process and each game read off the tree (the same games, much faster);
it draws nothing, so its moves have no top-scorer figures.

>>> chunk = Chunk("demo", "3x4", True, "black-white", "knuth", 7, None, ((0, 0, 0), (0, 5, 5)), "r1")
>>> games, moves = play_chunk(chunk)
>>> list(games["guesses"]), len(moves) == int(games["guesses"].sum())
([4, 3], True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from mmlab.errors import MastermindError
from mmlab.experiments.playout import GameRecord, play_game
from mmlab.game import Game
from mmlab.strategies import Strategy, make_strategy
from mmlab.trees import DecisionTree


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

    def game(self) -> Game:
        return Game.parse_size(self.size, repeats=self.repeats, feedback=self.feedback)


@lru_cache(maxsize=64)
def _strategy(spec: str) -> Strategy:
    """One strategy object per spec and process: ``start`` resets it, its caches carry over."""
    return make_strategy(spec)


@lru_cache(maxsize=8)
def _tree(spec: str, game: Game) -> DecisionTree:
    return DecisionTree.build(game, make_strategy(spec))


def _from_tree(tree: DecisionTree, secret: int) -> GameRecord:
    """The game ``tree`` plays against ``secret``, with the consistent-set size before each move."""
    game = tree.game
    node = tree.root
    guesses, feedbacks, evaluations, consistent = [], [], [], []
    while True:
        fb = game.score(secret, node.guess)
        guesses.append(node.guess)
        feedbacks.append(fb)
        evaluations.append(node.evaluations)
        consistent.append(node.size)
        if fb == game.win:
            break
        node = node.children[fb.code(game.pegs)]
    unknown = (-1,) * len(guesses)
    return GameRecord(game, secret, tuple(guesses), tuple(feedbacks), tuple(evaluations), node.certain,
                      tuple(consistent), unknown, (False,) * len(guesses), (float("nan"),) * len(guesses))


def play_chunk(chunk: Chunk) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play every game of ``chunk``; returns its ``games`` and ``moves`` rows."""
    game = chunk.game()
    strategy = _strategy(chunk.strategy)
    readable = strategy.deterministic and game.enumerable and chunk.max_guesses is None
    tree = _tree(chunk.strategy, game) if readable else None
    games: dict[str, list] = {k: [] for k in ("run", "slot", "secret", "guesses", "won", "known", "evaluations",
                                              "seconds")}
    moves: dict[str, list] = {k: [] for k in ("run", "slot", "move", "guess", "black", "white", "consistent",
                                              "evaluations", "top_size", "secret_in_top", "chance")}
    for run, slot, secret in chunk.games:
        start = time.perf_counter()
        try:
            if tree is not None:
                record = _from_tree(tree, secret)
            else:
                record = play_game(game, strategy, secret, np.random.default_rng([chunk.seed, run, slot]),
                                   chunk.max_guesses)
        except MastermindError as e:
            raise type(e)(f"{chunk.strategy} on {game}, secret {game.format(secret)} (run {run}): {e}") from None
        seconds = time.perf_counter() - start
        for key, value in (("run", run), ("slot", slot), ("secret", game.format(secret)),
                           ("guesses", record.n_guesses), ("won", record.won), ("known", record.known_after),
                           ("evaluations", record.total_evaluations), ("seconds", seconds)):
            games[key].append(value)
        for move, guess in enumerate(record.guesses):
            fb = record.feedbacks[move]
            known = record.top_sizes[move] >= 0
            for key, value in (("run", run), ("slot", slot), ("move", move + 1), ("guess", game.format(guess)),
                               ("black", fb.black), ("white", fb.white),
                               ("consistent", record.consistent[move] if record.consistent[move] >= 0 else None),
                               ("evaluations", record.evaluations[move]),
                               ("top_size", record.top_sizes[move] if known else None),
                               ("secret_in_top", record.secret_in_top[move] if known else None),
                               ("chance", record.chances[move] if known else None)):
                moves[key].append(value)
    key = {"study": chunk.study, "strategy": chunk.strategy, "size": chunk.size}
    games_frame = pd.DataFrame({**key, **games, "seed": chunk.seed, "run_id": chunk.run_id})
    moves_frame = pd.DataFrame({**key, **moves})
    for column in ("consistent", "top_size"):
        moves_frame[column] = moves_frame[column].astype("Int64")
    moves_frame["secret_in_top"] = moves_frame["secret_in_top"].astype("boolean")
    moves_frame["chance"] = moves_frame["chance"].astype("Float64")
    return games_frame, moves_frame
