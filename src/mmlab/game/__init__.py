"""The rules: ``Game``, codes, ``Feedback``, and the numba kernels behind them."""

from mmlab.game.feedback import Feedback, parse_feedback, possible_feedbacks
from mmlab.game.rules import ENUMERATION_LIMIT, Game, colour_counts, split_code

__all__ = ["ENUMERATION_LIMIT", "Feedback", "Game", "colour_counts", "parse_feedback", "possible_feedbacks",
           "split_code"]
