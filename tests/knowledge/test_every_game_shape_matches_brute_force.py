"""Knowledge on games of every shape the rules allow (1 to 10 pegs, 2 to 36 colours, with and without
repeats, black-only answers), small enough to check every code: the explicit set, the constraint
search's listing and count, and its proof that no code fits, against the codes that give every
answer (``tests.references.answer``). The other knowledge tests use a few fixed sizes."""

import math
from itertools import permutations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mmlab.errors import InconsistentFeedback
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from tests.references import answer

MAX_CODES = 3000
SHAPES = [(pegs, colours, repeats) for pegs in range(1, 11) for colours in range(2, 37) for repeats in (True, False)
          if (repeats or colours >= pegs) and (colours**pegs if repeats else math.perm(colours, pegs)) <= MAX_CODES]


@st.composite
def answered_games(draw):
    """A game of any shape and 1-4 answers: from one secret, from random codes (contradictions
    follow), or any answer the game can give (some no code gives to that guess)."""
    pegs, colours, repeats = draw(st.sampled_from(SHAPES))
    game = Game(pegs, colours, repeats=repeats, feedback=draw(st.sampled_from(["black-white", "black"])))
    code = st.integers(0, game.n_codes - 1)
    secret, mode = draw(code), draw(st.sampled_from(["secret", "mixed", "any"]))
    answers = []
    for _ in range(draw(st.integers(1, 4))):
        guess = draw(code)
        if mode == "any":
            answers.append((guess, draw(st.sampled_from(game.feedbacks()))))
        else:
            answerer = secret if mode == "secret" or draw(st.booleans()) else draw(code)
            answers.append((guess, game.score(answerer, guess)))
    return game, answers


def brute_force(game: Game, answers) -> set[tuple[int, ...]]:
    codes = (product(range(game.colours), repeat=game.pegs) if game.repeats
             else permutations(range(game.colours), game.pegs))
    return {c for c in codes
            if all(answer(c, game.digits(g), game.with_white) == tuple(fb) for g, fb in answers)}


def rows(digits: np.ndarray) -> list[tuple[int, ...]]:
    return [tuple(int(c) for c in row) for row in digits]


@settings(max_examples=80, deadline=None)
@given(answered_games())
def test_knowledge_of_every_game_shape_is_the_brute_force_set(case):
    game, answers = case
    expected = brute_force(game, answers)
    explicit, implicit = Knowledge.initial(game), Knowledge.initial(game, explicit=False)
    try:
        for guess, fb in answers:
            explicit = explicit.update(guess, Feedback(*fb))
        assert expected and set(rows(game.all_digits[explicit.consistent])) == expected
    except InconsistentFeedback:
        assert not expected
    for guess, fb in answers:
        implicit = implicit.update(guess, Feedback(*fb))
    listed = implicit.list_consistent(game.n_codes, 10**8)
    assert len(rows(listed)) == len(set(rows(listed))) and set(rows(listed)) == expected
    assert implicit.count_consistent(game.n_codes, 10**8) == (len(expected), True)
    rng = np.random.default_rng(0)
    code, _ = implicit.sample(rng, 10**7)
    assert (code is None) == (not expected) and (code is None or game.digits(code) in expected)
    if not expected:
        with pytest.raises(InconsistentFeedback):
            implicit.find_consistent(rng, 10**7)
