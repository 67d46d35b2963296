"""The 2-D kernels that ``test_two_d.py`` reaches only through others, called directly against
plain-Python references: ``line_index`` (each line's 1-D index) and ``line_feedbacks`` (a line
guess scored against a list of 1-D codes)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mmlab.game import Game
from mmlab.variants.two_d import line_tables
from mmlab.variants.two_d_kernels import line_feedbacks, line_index
from tests.references import answer_code


def ref_lines(code):
    """Rows top to bottom, then columns left to right, each read first position first."""
    rows = [[int(c) for c in row] for row in code]
    return rows + [list(col) for col in zip(*rows)]


def ref_index(line, m):
    return sum(d * m ** (len(line) - 1 - p) for p, d in enumerate(line))


matrices = st.integers(1, 5).flatmap(
    lambda n: st.integers(2, 7).flatmap(
        lambda m: st.tuples(st.just(n), st.just(m),
                            st.lists(st.integers(0, m - 1), min_size=n * n, max_size=n * n))))


@settings(max_examples=150, deadline=None)
@given(matrices)
def test_line_index_matches_reference_for_every_row_and_column(case):
    n, m, cells = case
    code = np.array(cells, dtype=np.int64).reshape(n, n)
    line_game = Game(n, m)
    for k, line in enumerate(ref_lines(code)):
        assert line_index(code, k, m) == ref_index(line, m) == line_game.index_of(line)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 5), st.integers(2, 6), st.integers(0, 10**6))
def test_line_feedbacks_matches_reference_on_random_candidates(n, m, seed):
    rng = np.random.default_rng(seed)
    digits, counts = line_tables(n, m)
    codes = digits.tolist()
    for _ in range(3):
        guess = rng.integers(m, size=n)
        cand = rng.integers(m**n, size=int(rng.integers(0, 60)))  # any order, repeats
        want = [answer_code(codes[x], guess.tolist()) for x in cand.tolist()]
        for g in (guess.astype(np.int64), guess.astype(np.uint8)):
            for c in (cand.astype(np.int32), cand.astype(np.int64)):
                got = line_feedbacks(g, c, digits, counts)
                assert got.dtype == np.uint8 and got.tolist() == want


def test_line_feedbacks_scores_a_row_of_a_guess_against_the_whole_line_game():
    n, m = 3, 4
    digits, counts = line_tables(n, m)
    everyone = np.arange(m**n, dtype=np.int32)
    guess = np.array([[0, 1, 1], [2, 3, 0], [3, 3, 3]], dtype=np.int64)
    for k, line in enumerate(ref_lines(guess)):
        got = line_feedbacks(np.array(line, dtype=np.int64), everyone, digits, counts)
        assert got.tolist() == [answer_code(row, line) for row in digits.tolist()]
        assert got[line_index(guess, k, m)] == n * (n + 1)  # the line against itself: n blacks
