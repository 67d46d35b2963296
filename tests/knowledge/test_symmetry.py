"""Equivalent guesses: every class keeps its lowest-index member, and members split alike."""

import numpy as np
import pytest

from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.knowledge.symmetry import representatives
from mmlab.strategies.scoring import partition_stats


def _partition_signature(k: Knowledge, guess: int) -> tuple:
    fb = k.responses_of(guess)
    return tuple(sorted(np.bincount(fb).tolist())), bool(np.isin(guess, k.consistent))


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
    k = Knowledge.initial(game46).update(game46.parse("1122"), Feedback(1, 1))
    assert len(representatives(k)) < game46.n_codes // 10
    stats = partition_stats(k, representatives(k))
    assert stats.shape == (len(representatives(k)), 4)
