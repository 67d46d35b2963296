"""Equivalent guesses: every class keeps its lowest-index member, and members split alike."""

from itertools import combinations

import numpy as np
import pytest

from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.knowledge.symmetry import _history_representatives, representatives


def _partition_signature(k: Knowledge, guess: int) -> tuple:
    """The part of each answer (by answer, not only the sizes: a symmetry keeps the answers) and
    whether the guess can win."""
    fb = k.responses_of(guess)
    return tuple(np.bincount(fb, minlength=k.game.n_responses).tolist()), bool(np.isin(guess, k.consistent))


@pytest.mark.parametrize(
    "size, history",
    [
        ("4x6", []),
        ("4x6", [("1122", (1, 1))]),
        ("4x6", [("1234", (0, 4))]),
        ("4x6", [("1123", (0, 1)), ("4456", (1, 0))]),
        ("3x5", [("112", (1, 0))]),
    ],
)
def test_every_code_has_an_equivalent_representative_with_no_larger_index(size, history):
    game = Game.parse_size(size)
    k = Knowledge.initial(game)
    for code, fb in history:
        k = k.update(game.parse(code), Feedback(*fb))
    reps = representatives(k)
    assert np.all(np.diff(reps) > 0)
    rep_signatures = {}
    for r in reps:
        rep_signatures.setdefault(_partition_signature(k, int(r)), []).append(int(r))
    # For every code, some representative of no larger index splits the candidates the same way.
    for code in range(game.n_codes):
        sig = _partition_signature(k, code)
        assert sig in rep_signatures and min(rep_signatures[sig]) <= code


def test_representatives_shrink_the_work(game46):
    """After 1122 every guess is equivalent to one of 39 (1122's stabiliser and free colours 3-6)."""
    k = Knowledge.initial(game46).update(game46.parse("1122"), Feedback(1, 1))
    assert len(representatives(k)) == 39


@pytest.mark.parametrize("size, repeats, feedback", [("4x5", True, "black-white"), ("5x3", True, "black-white"),
                                                     ("4x6", False, "black-white"), ("4x5", True, "black")])
def test_whole_trees_are_identical_with_and_without_equivalent_guesses(monkeypatch, size, repeats, feedback):
    """The reduction is exact: every strategy compiles to the same tree, node for node."""
    from mmlab.strategies import exhaustive
    from mmlab.strategies import make_strategy
    from mmlab.trees import DecisionTree

    game = Game.parse_size(size, repeats=repeats, feedback=feedback)

    def shape(node):
        return node.guess, tuple(sorted((k, shape(c)) for k, c in node.children.items()))

    reduced = {n: shape(DecisionTree.build(game, make_strategy(n)).root) for n in ("knuth", "irving", "most-parts", "entropy", "plus", "plus2")}
    monkeypatch.setattr(exhaustive, "representatives", lambda k: np.arange(k.game.n_codes, dtype=np.int64))
    for name, tree in reduced.items():
        assert shape(DecisionTree.build(game, make_strategy(name)).root) == tree, name


def test_an_edit_of_the_representatives_by_a_caller_changes_no_later_answer():
    """representatives returned the array its cache keeps: after representatives(Knowledge.initial(4x6))[2] = 8
    (1122 -> 1123), evaluate('4x6', 'knuth') opened with 1123 and gave 5803 guesses, not 5801."""
    game = Game.parse_size("3x7", feedback="black")  # (a game no other test plays, should the edit get through)
    knowledge = Knowledge.initial(game)
    after_guess = knowledge.update("123", Feedback(1, 0))
    before, first = representatives(knowledge).tolist(), representatives(after_guess).tolist()
    representatives(knowledge)[1] = before[-1]
    representatives(after_guess)[0] = first[-1]
    assert representatives(knowledge).tolist() == before and representatives(after_guess).tolist() == first
    with pytest.raises(ValueError, match="read-only"):  # nor the kept arrays themselves
        _history_representatives(game, ())[0] = 5


@pytest.mark.parametrize("size, guesses, secret", [
    ("4x6", ["1122"], "3456"),  # 1 and 2 absent (and played), 3-6 free
    ("4x6", ["1123", "1344"], "2565"),  # no peg permutation keeps both guesses; 5 and 6 free
    ("4x6", ["1234"], "5566"),  # 1-4 absent, 5 and 6 free
    ("5x4", ["11223"], "44444"),  # 1-3 absent, only 4 left
])
def test_each_class_keeps_one_guess_however_the_colours_are_interchangeable(size, guesses, secret):
    """One guess per class, the lowest of its class: swapping two colours never played, or two
    colours that no consistent code holds, maps a guess onto one of its class, so no representative
    may have a smaller image (it would not be the lowest of its class, which would then keep two)."""
    game = Game.parse_size(size)
    k = Knowledge.initial(game)
    for guess in guesses:
        k = k.update(guess, game.score(secret, guess))
    played = {c for g in k.guesses for c in game.digits(g)}
    free = [c for c in range(game.colours) if c not in played]
    absent = [c for c in range(game.colours) if not game.all_counts[k.consistent, c].any()]
    assert len(free) >= 2 or len(absent) >= 2
    reps = representatives(k)
    for block in (free, absent):
        for a, b in combinations(block, 2):
            swap = {a: b, b: a}
            for r in reps.tolist():
                assert game.index_of(swap.get(c, c) for c in game.digits(r)) >= r, (game.format(r), a + 1, b + 1)
