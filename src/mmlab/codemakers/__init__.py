"""Who answers the guesses: a fixed secret, a random secret, or an adversary that keeps the secret
open (dynamic Mastermind, 003 section 2.3, item 4).

A game against one is played by ``mmlab.experiments.play_against``.

>>> from mmlab.experiments import play_against
>>> from mmlab.game import Game
>>> from mmlab.strategies import make_strategy
>>> game = Game.parse_size("4x6")
>>> record = play_against(game, make_strategy("knuth"), make_codemaker("adversary"))
>>> record.n_guesses, record.won
(5, True)
"""

from __future__ import annotations

from mmlab.codemakers.base import Adversary, Codemaker, FixedSecret, RandomSecret, make_codemaker

__all__ = ["Adversary", "Codemaker", "FixedSecret", "RandomSecret", "make_codemaker"]
