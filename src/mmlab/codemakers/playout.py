"""A game between a strategy and any codemaker (the secret may be decided only at the end)."""

from __future__ import annotations

import numpy as np

from mmlab.codemakers.base import Codemaker
from mmlab.experiments.playout import GameRecord
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import Strategy


def play_against(game: Game, strategy: Strategy, codemaker: Codemaker, rng: np.random.Generator | None = None,
                 max_guesses: int | None = None) -> GameRecord:
    """Play until the codemaker answers a win; the record's secret is the code found, or for a lost
    game the codemaker's secret if it holds one (the first code still consistent if it does not)."""
    rng = rng if rng is not None else np.random.default_rng()
    strategy.start(game, rng)
    codemaker.start(game, rng)
    knowledge = Knowledge.initial(game)
    limit = max_guesses if max_guesses is not None else game.n_codes
    guesses: list[int] = []
    feedbacks: list[Feedback] = []
    evaluations: list[int] = []
    certain = False
    while len(guesses) < limit:
        before = strategy.evaluations
        guess = strategy.guess(knowledge)
        evaluations.append(strategy.evaluations - before)
        fb = codemaker.answer(knowledge, guess)
        guesses.append(guess)
        feedbacks.append(fb)
        if fb == game.win:
            certain = strategy.certain(knowledge, guess)
            break
        knowledge = knowledge.update(guess, fb)
    won = bool(feedbacks) and feedbacks[-1] == game.win
    if won:
        secret = guesses[-1]
    elif isinstance(getattr(codemaker, "secret", None), (int, np.integer)):
        secret = int(codemaker.secret)
    else:
        secret = int(knowledge.consistent[0])
    return GameRecord(game, secret, tuple(guesses), tuple(feedbacks), tuple(evaluations), certain)
