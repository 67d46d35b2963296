"""Code rows: one-peg changes, membership and distinct rows against plain Python references."""

import itertools

import numpy as np
import pytest

from mmlab.game import Game
from mmlab.strategies.code_rows import distinct_rows, one_peg_changes, random_codes, rows_in


@pytest.mark.parametrize("shape, colours", [((500, 8), 12), ((300, 20), 12), ((200, 3), 2), ((1, 4), 1)])
def test_distinct_rows_keep_the_first_of_each_row_in_order(shape, colours):
    """Packed into one integer per row (or, for rows too wide for that, compared whole), the result
    equals the plain reference: the first copy of every row, in order of appearance."""
    rng = np.random.default_rng(shape[0])
    codes = rng.integers(colours, size=shape).astype(np.uint8)
    codes = np.vstack([codes, codes[rng.integers(shape[0], size=shape[0])]])  # repeats, and in between
    seen, expected = set(), []
    for row in codes.tolist():
        if tuple(row) not in seen:
            seen.add(tuple(row))
            expected.append(row)
    assert distinct_rows(codes).tolist() == expected


@pytest.mark.parametrize("size, repeats", [("3x4", True), ("4x6", False), ("8x12", True)])
def test_one_peg_changes_are_every_legal_code_at_distance_one(size, repeats):
    """Every code that differs from a parent on exactly one peg, once per parent, and no other (no
    repeated colour where the game forbids it), as a brute-force neighbourhood gives them."""
    pegs, colours = map(int, size.split("x"))
    game = Game(pegs, colours, repeats=repeats)
    parents = random_codes(game, np.random.default_rng(pegs), 3)
    expected = []
    for parent in parents.tolist():
        for peg, colour in itertools.product(range(pegs), range(colours)):
            child = parent[:peg] + [colour] + parent[peg + 1:]
            if child != parent and (repeats or len(set(child)) == pegs):
                expected.append(child)
    assert sorted(one_peg_changes(parents, game).tolist()) == sorted(expected)


@pytest.mark.parametrize("pegs, colours", [(8, 12), (20, 12)])
def test_rows_in_matches_a_set_of_tuples(pegs, colours):
    """Packed keys (8x12) and whole-row comparison (rows too wide to pack) agree with a set."""
    rng = np.random.default_rng(pegs)
    others = rng.integers(colours, size=(50, pegs)).astype(np.uint8)
    rows = np.vstack([others[::3], rng.integers(colours, size=(40, pegs)).astype(np.uint8)])
    seen = set(map(tuple, others.tolist()))
    assert rows_in(rows, others).tolist() == [tuple(r) in seen for r in rows.tolist()]
    assert not rows_in(rows, others[:0]).any()


@pytest.mark.parametrize("size, repeats", [("4x6", True), ("4x6", False), ("3x3", False)])
def test_random_codes_draw_every_colour_on_every_peg_uniformly(size, repeats):
    """Each peg takes each colour with probability 1/colours, with or without repeats, and
    without repeats no code repeats a colour."""
    game = Game.parse_size(size, repeats=repeats)
    codes = random_codes(game, np.random.default_rng(7), 6000)
    assert codes.shape == (6000, game.pegs) and codes.dtype == np.uint8
    freq = np.stack([np.bincount(codes[:, p], minlength=game.colours) for p in range(game.pegs)]) / 6000
    assert np.abs(freq - 1 / game.colours).max() < 0.03  # sd below 0.007
    if not repeats:
        assert all(len(set(row)) == game.pegs for row in codes.tolist())


@pytest.mark.parametrize("pegs, colours", [(2, 3), (3, 4)])
def test_rows_in_and_distinct_rows_tell_every_pair_of_small_codes_apart(pegs, colours):
    """Every code of a small game against every other: packing rows into integers must not make two
    codes one (a base one too small would: in base 2, rows 0,2 and 1,0 are both 2)."""
    codes = np.array(list(itertools.product(range(colours), repeat=pegs)), dtype=np.uint8)
    others = codes[::2]
    seen = set(map(tuple, others.tolist()))
    assert rows_in(codes, others).tolist() == [tuple(r) in seen for r in codes.tolist()]
    assert distinct_rows(np.vstack([codes, codes[::-1]])).tolist() == codes.tolist()
