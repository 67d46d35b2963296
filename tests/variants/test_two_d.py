"""Two-dimensional Mastermind: the rules and every kernel against pure-Python references, the
strategies' guesses (always fully consistent), reproducibility from a seed, and bad input."""

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mmlab.errors import (
    BadArgument,
    BadCode,
    BadSize,
    InconsistentFeedback,
    SpaceTooLarge,
    UnknownStrategy,
)
from mmlab.variants import Feedback2D, Game2D, Knowledge2D, make_strategy_2d, play_2d
from mmlab.variants.two_d import line_tables
from mmlab.variants.two_d_kernels import (
    consistent_lines,
    filter_counts,
    filter_line,
    find_consistent,
    line_bitmaps,
    line_indices,
    line_split_scores,
    propagate,
    score_2d,
    tabu_walk_2d,
)
from mmlab.experiments.two_d_tables import THESIS_2D, margin, run_2d


# --------------------------------------------------------------------------------- pure-Python references
def ref_feedback(secret: list[int], guess: list[int]) -> tuple[int, int]:
    """Knuth's (black, white) of one line."""
    black = sum(a == b for a, b in zip(secret, guess))
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, common - black


def ref_lines(code) -> list[list[int]]:
    """Rows top to bottom, then columns left to right."""
    code = [list(map(int, row)) for row in code]
    return code + [list(col) for col in zip(*code)]


def ref_score(secret, guess) -> list[tuple[int, int]]:
    return [ref_feedback(s, g) for s, g in zip(ref_lines(secret), ref_lines(guess))]


def ref_index(line: list[int], m: int) -> int:
    return sum(d * m ** (len(line) - 1 - p) for p, d in enumerate(line))


def ref_digits(idx: int, n: int, m: int) -> list[int]:
    return [(idx // m ** (n - 1 - p)) % m for p in range(n)]


def ref_line_set(n: int, m: int, history, k: int) -> list[int]:
    """Every 1-D code that gives line ``k`` of each guess the answer that line got."""
    out = []
    for idx in range(m**n):
        code = ref_digits(idx, n, m)
        if all(ref_feedback(code, ref_lines(g)[k]) == tuple(a[k]) for g, a in history):
            out.append(idx)
    return out


def ref_fully_consistent(n: int, m: int, sets: list[set[int]]) -> list[tuple[int, ...]]:
    """Every matrix (as its cells, row by row) whose every line is in its set."""
    out = []
    for cells in itertools.product(range(m), repeat=n * n):
        code = np.array(cells).reshape(n, n)
        if all(ref_index(line, m) in sets[k] for k, line in enumerate(ref_lines(code))):
            out.append(cells)
    return out


def ref_propagate(n: int, m: int, sets: list[list[int]]) -> list[list[int]]:
    """Arc consistency between lines through their cells, by fixpoint over Python sets."""
    sets = [list(s) for s in sets]
    allowed = {(i, j): set(range(m)) for i in range(n) for j in range(n)}

    def cells(k):
        return [(k, p) for p in range(n)] if k < n else [(p, k - n) for p in range(n)]

    changed = True
    while changed:
        changed = False
        for k in range(2 * n):
            sets[k] = [x for x in sets[k] if all(d in allowed[c] for d, c in zip(ref_digits(x, n, m), cells(k)))]
            for p, c in enumerate(cells(k)):
                support = {ref_digits(x, n, m)[p] for x in sets[k]}
                if allowed[c] - support:
                    allowed[c] &= support
                    changed = True
    return sets


def flat(parts):
    parts = [np.asarray(sorted(p), dtype=np.int32) for p in parts]
    offsets = np.concatenate([[0], np.cumsum([p.shape[0] for p in parts])]).astype(np.int64)
    return np.concatenate(parts).astype(np.int32), offsets


matrices = st.integers(2, 4).flatmap(
    lambda n: st.integers(2, 5).flatmap(
        lambda m: st.tuples(st.just(n), st.just(m),
                            st.lists(st.integers(0, m - 1), min_size=n * n, max_size=n * n),
                            st.lists(st.integers(0, m - 1), min_size=n * n, max_size=n * n))))


# --------------------------------------------------------------------------------- the rules
@settings(max_examples=200, deadline=None)
@given(matrices)
def test_score_matches_the_reference_and_is_symmetric(case):
    n, m, s, g = case
    secret, guess = np.array(s).reshape(n, n), np.array(g).reshape(n, n)
    got = score_2d(secret, guess, m)
    assert [tuple(x) for x in got.tolist()] == ref_score(secret, guess)
    assert (score_2d(guess, secret, m) == got).all()
    assert (got.sum(axis=1) <= n).all()
    assert not ((got[:, 0] == n - 1) & (got[:, 1] == 1)).any()


def test_feedback2d_and_the_win():
    game = Game2D.parse_size("3x4")
    secret = game.parse("123/234/341")
    won = game.score(secret, secret)
    assert won.won and won.rows[0] == (3, 0) and str(won).startswith("rows 3,0")
    lost = game.score(secret, game.parse("123/234/342"))
    assert not lost.won and lost.rows[2] == (2, 0) and lost.columns[2] == (2, 0)
    assert Feedback2D.from_array(lost.to_array()) == lost


def test_parse_and_format_round_trip():
    game = Game2D.parse_size("4x6")
    code = game.parse("1234/2345/3456/4561")
    assert code.dtype == np.int64 and code.shape == (4, 4) and code[3, 3] == 0
    assert game.format(code) == "1234/2345/3456/4561"
    for text in ("1234 2345 3456 4561", "1234\n2345\n3456\n4561", "ABCD;BCDE;CDEF;DEFA", "1234 | 2345|3456|4561"):
        assert (game.parse(text) == code).all()
    big = Game2D.parse_size("2x12")
    assert big.format(big.parse("12 1/3 11")) == "12 1/3 11"


@pytest.mark.parametrize("text, message", [
    ("1234/2345/3456", "has 3 rows, and an MM2(4,6) code is 4 rows of 4 pegs (colours 1-6)"),
    ("1234/2345/3456/4561/1111", "has 5 rows"),
    ("1234/2345/345/4561", "row 3 of MM2(4,6) code"),
    ("1234/2345/3457/4561", "row 3"),
    ("", "has 0 rows"),
])
def test_a_code_that_is_not_n_by_n_is_refused(text, message):
    with pytest.raises(BadCode, match=message.replace("(", r"\(").replace(")", r"\)")):
        Game2D.parse_size("4x6").parse(text)


@pytest.mark.parametrize("value, message", [
    (np.zeros((3, 4), dtype=np.int64), r"an MM2\(4,6\) code must be a matrix of 4 rows of 4 pegs .* got shape 3 x 4"),
    (7, "got shape scalar 7"),
    (np.zeros(16, dtype=np.int64), "got shape 16"),
    (np.zeros((4, 4, 1), dtype=np.int64), "got shape 4 x 4 x 1"),
    (np.full((4, 4), 6), r"colours 0..5 \(written 1-6\), got 6..6"),
    (np.full((4, 4), 0.5), "whole-number colours"),
])
def test_a_matrix_that_is_not_a_code_is_refused(value, message):
    game = Game2D.parse_size("4x6")
    with pytest.raises(BadCode, match=message):
        game.check(value)
    with pytest.raises(BadCode):
        play_2d(game, make_strategy_2d("tabu"), value)


def test_a_code_may_be_written_out_and_a_size_given_as_numpy_integers():
    """play_2d(game, s, "123/234/341") said 'got shape scalar'; Game2D(np.int64(3), 4) was 'not whole numbers'."""
    game = Game2D(np.int64(3), np.int32(4))
    assert game == Game2D(3, 4) and type(game.n) is int and hash(game) == hash(Game2D(3, 4))
    assert (game.check("123/234/341") == game.parse("123/234/341")).all()
    seen = []
    record = play_2d(game, make_strategy_2d("tabu"), "123/234/341", np.random.default_rng(1),
                     on_guess=lambda k, guess, answers: seen.append((k, game.format(guess), answers.shape)))
    assert record.won and game.format(record.secret) == "123/234/341"
    assert seen == [(k, game.format(g), (6, 2)) for k, g in enumerate(record.guesses, start=1)]
    for bad in ((True, 4), (3.0, 4)):
        with pytest.raises(BadSize, match="whole numbers of rows and colours"):
            Game2D(*bad)


def test_sizes_are_checked():
    with pytest.raises(BadSize, match="at least 2 rows"):
        Game2D.parse_size("1x6")
    with pytest.raises(BadSize, match="write NxM"):
        Game2D.parse_size("4by6")
    with pytest.raises(BadSize, match="colours must be"):
        Game2D(4, 1)
    with pytest.raises(SpaceTooLarge, match="MM2\\(8,10\\) is too large.*7x8 and 6x10 fit"):
        Game2D.parse_size("8x10")


def test_knowledge_refuses_answers_that_cannot_be():
    game = Game2D.parse_size("3x4")
    k = Knowledge2D(game)
    with pytest.raises(BadArgument, match="6 \\(black, white\\) pairs"):
        k.record(game.parse("111/111/111"), np.zeros((3, 2), dtype=np.int64))
    with pytest.raises(Exception, match="cannot occur"):
        k.record(game.parse("123/123/123"), np.array([[2, 1]] + [[0, 0]] * 5))
    k.record(game.parse("111/111/111"), np.array([[0, 0], [0, 0], [0, 0], [3, 0], [0, 0], [0, 0]]))
    k.record(game.parse("222/222/222"), np.array([[0, 0], [0, 0], [0, 0], [1, 0], [0, 0], [0, 0]]))
    with pytest.raises(InconsistentFeedback, match="column 1"):  # all 1s, yet one 2
        k.sets()


# --------------------------------------------------------------------------------- knowledge and kernels
@settings(max_examples=25, deadline=None)
@given(st.integers(2, 3), st.integers(2, 4), st.integers(1, 3), st.integers(0, 10**6))
def test_line_sets_match_brute_force(n, m, guesses, seed):
    rng = np.random.default_rng(seed)
    game = Game2D(n, m)
    secret = game.random_code(rng)
    k = Knowledge2D(game)
    history = []
    for _ in range(guesses):
        g = game.random_code(rng)
        a = game.answers(secret, g)
        k.record(g, a)
        history.append((g, a))
    for line in range(2 * n):
        assert k.line_set(line).tolist() == ref_line_set(n, m, history, line)
    sets, offsets = k.sets()
    assert consistent_lines(secret, sets, offsets, m).all()
    assert k.memory_entries() <= 2 * n * m**n


def test_line_indices_and_bitmaps():
    code = np.array([[0, 1, 2], [2, 2, 0], [1, 0, 1]])
    assert line_indices(code, 3).tolist() == [ref_index(x, 3) for x in ref_lines(code)]
    sets, offsets = flat([[0, 5, 26], [1], [], [7, 8], [0], [26, 3]])
    bits = line_bitmaps(sets, offsets, 27)
    for k in range(6):
        members = set(sets[offsets[k]:offsets[k + 1]].tolist())
        assert {x for x in range(27) if (int(bits[k, x >> 6]) >> (x & 63)) & 1} == members


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(2, 5), st.integers(0, 10**6))
def test_filter_kernels_match_references(n, m, seed):
    rng = np.random.default_rng(seed)
    digits, counts = line_tables(n, m)
    cand = np.sort(rng.choice(m**n, size=min(m**n, 40), replace=False)).astype(np.int32)
    guess = rng.integers(m, size=n)
    answer_of = {x: ref_feedback(ref_digits(x, n, m), guess.tolist()) for x in cand.tolist()}
    b, w = answer_of[int(cand[0])]
    expected = [x for x in cand.tolist() if answer_of[x] == (b, w)]
    assert filter_line(cand, guess, b * (n + 1) + w, digits, counts).tolist() == expected
    want = np.bincount(ref_digits(int(cand[-1]), n, m), minlength=m)
    expected = [x for x in cand.tolist() if (np.bincount(ref_digits(x, n, m), minlength=m) == want).all()]
    assert filter_counts(cand, want, counts).tolist() == expected


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 3), st.integers(2, 3), st.integers(0, 10**6))
def test_propagate_and_search_match_brute_force(n, m, seed):
    rng = np.random.default_rng(seed)
    parts = [sorted(rng.choice(m**n, size=rng.integers(1, m**n + 1), replace=False).tolist()) for _ in range(2 * n)]
    sets, offsets = flat(parts)
    solutions = set(ref_fully_consistent(n, m, [set(p) for p in parts]) if n * n * math.log2(m) <= 16 else [])
    pruned, pruned_offsets, _ = propagate(sets, offsets, line_tables(n, m)[0], m)
    expected = ref_propagate(n, m, parts)
    assert [pruned[pruned_offsets[k]:pruned_offsets[k + 1]].tolist() for k in range(2 * n)] == expected
    out = np.zeros((n, n), dtype=np.int64)
    found, _ = find_consistent(sets, offsets, m, seed, 0, out)
    if n * n * math.log2(m) <= 16:
        assert found == bool(solutions)
        if found:
            assert tuple(out.ravel()) in solutions
    if found:  # propagation keeps every solution
        assert consistent_lines(out, pruned, pruned_offsets, m).all()


def test_search_respects_a_budget_and_is_complete_without():
    n, m = 3, 3
    game = Game2D(n, m)
    secret = game.parse("123/312/231")
    k = Knowledge2D(game)
    for text in ("111/222/333", "123/123/123"):
        k.record(game.parse(text), game.answers(secret, game.parse(text)))
    sets, offsets = k.sets()
    out = np.zeros((n, n), dtype=np.int64)
    found, looked = find_consistent(sets, offsets, m, 1, 1, out)
    assert not found and looked == 1
    found, _ = find_consistent(sets, offsets, m, 1, 0, out)
    assert found and consistent_lines(out, sets, offsets, m).all()


def test_tabu_walk_keeps_row_colours_and_reaches_consistency():
    rng = np.random.default_rng(4)
    game = Game2D(4, 4)
    secret = game.random_code(rng)
    k = Knowledge2D(game)
    for _ in range(2):
        g = np.array([rng.permutation(row) for row in secret])
        k.record(g, game.answers(secret, g))
    sets, offsets = k.sets()
    code = np.array([np.sort(row) for row in secret])
    before = np.sort(code, axis=1)
    tabu, state = np.zeros((8, 2), dtype=np.int64), np.zeros(2, dtype=np.int64)
    reached, checks, moves, _ = tabu_walk_2d(code, line_bitmaps(sets, offsets, 4**4), 4, tabu, state, 9,
                                             10**6, 20)
    assert reached and (np.sort(code, axis=1) == before).all()
    assert consistent_lines(code, sets, offsets, 4).all()
    assert 0 < state[1] <= 8 and checks >= 3 * moves
    cells = tabu[: state[1]]
    assert ((cells // 4)[:, 0] == (cells // 4)[:, 1]).all() and (cells[:, 0] < cells[:, 1]).all()  # pairs in a row


def test_tabu_walk_stops_when_it_cannot_move():
    code = np.array([[0, 0], [1, 1]])
    sets, offsets = flat([[1], [2], [1], [2]])  # rows of one colour: no swap possible
    reached, _, moves, draws = tabu_walk_2d(code, line_bitmaps(sets, offsets, 4), 2, np.zeros((4, 2), np.int64),
                                            np.zeros(2, np.int64), 1, 10**6, 0)
    assert not reached and moves == 0 and draws == 0


def test_a_tabu_pair_is_swapped_only_when_that_raises_the_value():
    """003 5.2: "If a pair is on the Tabu list, then the swap is only made if it increases the current
    sum of consistent rows and columns." Both pairs of this 2x2 matrix are tabu and no line can be
    consistent (empty sets): no swap is made, and the walk says at once that it cannot move."""
    code = np.array([[0, 1], [0, 1]])
    sets, offsets = flat([[], [], [], []])
    tabu, state = np.array([[0, 1], [2, 3]], dtype=np.int64), np.array([0, 2], dtype=np.int64)
    reached, _, moves, draws = tabu_walk_2d(code, line_bitmaps(sets, offsets, 4), 2, tabu, state, 1, 10**4, 0)
    assert not reached and moves == 0 and 0 < draws < 10**4
    assert code.tolist() == [[0, 1], [0, 1]] and state.tolist() == [0, 2]


@pytest.mark.parametrize("n, m", [(2, 3), (3, 4), (4, 6), (5, 3)])
def test_the_tabu_search_has_singleys_settings(n, m):
    """003 5.2: "the Tabu tenure was chosen to be 2r" (r = n rows) and the search restarts from the
    best matrix "every 10 (n - 2) moves" (4x6: 8 entries, every 20 swaps)."""
    strategy = make_strategy_2d("tabu")
    strategy.start(Game2D(n, m), np.random.default_rng(0))
    assert (strategy.tenure, strategy.period, strategy.tabu.shape) == (2 * n, 10 * (n - 2), (2 * n, 2))


def test_split_scores_match_entropy_and_share():
    n, m = 3, 3
    digits, counts = line_tables(n, m)
    code = np.array([[0, 1, 2], [1, 1, 0], [2, 0, 0]])
    parts = [list(range(0, 27, k + 1)) for k in range(2 * n)]
    sets, offsets = flat(parts)
    scores = line_split_scores(code, sets, offsets, digits, counts, 1000)
    for k, line in enumerate(ref_lines(code)):
        answers = [ref_feedback(ref_digits(x, n, m), line) for x in parts[k]]
        q = np.array([answers.count(a) for a in set(answers)]) / len(answers)
        assert scores[k, 0] == pytest.approx(-(q * np.log2(q)).sum())
        assert scores[k, 1] == pytest.approx((q * q).sum())


def test_propagate_plays_the_drawn_matrix_that_splits_its_lines_best(monkeypatch):
    """Propagate2D plays, of the consistent matrices it draws, the one whose lines' answers split
    their (propagated) sets with the most entropy in all, summed over the 2n lines (the reference's
    entropy, not the expected share left, which ranks these draws otherwise)."""
    from mmlab.variants.two_d_propagate import Propagate2D

    game, secret = Game2D.parse_size("3x4"), Game2D.parse_size("3x4").parse("123/234/341")
    knowledge = Knowledge2D(game)
    first = game.parse("112/233/344")
    knowledge.record(first, game.answers(secret, first))
    strategy = make_strategy_2d("propagate:samples=8")
    strategy.start(game, np.random.default_rng(3))
    drawn, draw = [], Propagate2D._draw
    monkeypatch.setattr(Propagate2D, "_draw", lambda self, *sets: drawn.append(draw(self, *sets).copy()) or drawn[-1])
    guess = strategy.guess(knowledge)
    digits, _ = line_tables(3, 4)
    kept, offsets, _ = propagate(*knowledge.sets(), digits, 4)

    def entropy(code):
        total = 0.0
        for k, line in enumerate(ref_lines(code)):
            answers = [ref_feedback(ref_digits(int(x), 3, 4), line) for x in kept[offsets[k]:offsets[k + 1]]]
            q = np.array([answers.count(a) for a in set(answers)]) / len(answers)
            total -= (q * np.log2(q)).sum()
        return total

    scores = [entropy(code) for code in drawn]
    assert len({round(score, 9) for score in scores}) > 1
    assert entropy(guess) == pytest.approx(max(scores))


# --------------------------------------------------------------------------------- strategies
def _fully_consistent(game, guess, history) -> bool:
    return all((game.answers(guess, g) == a).all() for g, a in history)


@pytest.mark.parametrize("spec", ["tabu", "propagate", "tabu:tenure=0,restart=0", "propagate:samples=1"])
@pytest.mark.parametrize("size", ["3x4", "4x6", "3x8", "5x3"])
def test_strategies_play_only_fully_consistent_guesses(spec, size):
    game = Game2D.parse_size(size)
    for seed in range(12):
        record = play_2d(game, make_strategy_2d(spec), None, np.random.default_rng(seed))
        assert record.won and (record.guesses[-1] == record.secret).all()
        history = list(zip(record.guesses, record.answers))
        for k in range(1, record.n_guesses):
            assert _fully_consistent(game, record.guesses[k], history[:k])


def test_tabu_counts_colours_first():
    """003 5.1: the test of colour c keeps the colours counted so far and fills the rest with c,
    so guess k holds colours 1..k only, and each row the right number of each counted colour."""
    game = Game2D.parse_size("4x6")
    for seed in range(10):
        record = play_2d(game, make_strategy_2d("tabu"), None, np.random.default_rng(seed))
        assert (record.guesses[0] == 0).all()
        for k, guess in enumerate(record.guesses[: game.colours - 1]):
            assert guess.max() <= k
            for c in range(k):  # colours counted before this test: exactly the secret's number in each row
                assert ((guess == c).sum(axis=1) == (record.secret == c).sum(axis=1)).all()
        assert record.n_guesses <= game.colours + 1


def test_games_are_reproduced_from_a_seed():
    game = Game2D.parse_size("4x7")
    for spec in ("tabu", "propagate"):
        a = play_2d(game, make_strategy_2d(spec), None, np.random.default_rng(11))
        b = play_2d(game, make_strategy_2d(spec), None, np.random.default_rng(11))
        assert (a.secret == b.secret).all() and len(a.guesses) == len(b.guesses)
        assert all((x == y).all() for x, y in zip(a.guesses, b.guesses))


def test_runs_do_not_depend_on_the_number_of_workers(pools_started):
    from mmlab.experiments import two_d_tables

    one = list(run_2d(["tabu", "propagate"], sizes=[(3, 6)], games=30, seed=4, jobs=1))
    pools = pools_started(two_d_tables)
    two = list(run_2d(["tabu", "propagate"], sizes=[(3, 6)], games=30, seed=4, jobs=2))
    assert pools == [2]  # (played by two worker processes)
    for a, b in zip(one, two):
        assert (a.method, a.size) == (b.method, b.size) and (a.guesses == b.guesses).all()
    diff, se = margin(one[1], one[0])
    assert diff == pytest.approx(one[0].mean - one[1].mean) and se > 0


def test_the_margin_is_the_paired_differences_mean_and_standard_error():
    """Differences 1, 0, 2, 1: mean 1, sample standard deviation sqrt(2/3), standard error
    sqrt(2/3) / 2 (worked out by hand)."""
    from mmlab.experiments.two_d_tables import Row2D

    def row(method: str, guesses: list[int]) -> Row2D:
        zeros = np.zeros(len(guesses))
        return Row2D(method, "3x8", 1, np.array(guesses), zeros, zeros, zeros, zeros, 0.0, None)

    assert margin(row("tabu", [4, 4, 4, 4]), row("propagate", [5, 4, 6, 5])) == pytest.approx(
        (1.0, math.sqrt(2 / 3) / 2))


def test_tables_transcribe_the_appendix():
    """003 appendix, "Tabu Search 2-D": the printed means and the counts of games."""
    means = [THESIS_2D[s].mean for s in ("4x6", "4x7", "4x8", "4x9", "4x10", "3x8", "5x8", "6x8", "7x8")]
    assert means == [5.9724, 6.9261, 7.8809, 8.8322, 9.7814, 7.6136, 7.9912, 8.03627451, 8.095]
    assert THESIS_2D["7x8"].games == 1000 and THESIS_2D["6x8"].games == 10_000
    assert [THESIS_2D[s].max for s in ("4x6", "4x10", "7x8")] == [7, 11, 9]


@pytest.mark.parametrize("spec, message", [
    ("tabu:tenure=x", "tenure='x' should be a whole number 0..24"),
    ("tabu:tenure=25", "tenure=25 is out of range.*24 pairs of stones in a row"),
    ("tabu:restart=-1", "restart=-1 is out of range; give a whole number 0 or more, or 10\\(n-2\\)"),
    ("tabu:restart=abc", "restart='abc' should be a whole number 0 or more, or 10\\(n-2\\)"),
    ("tabu:steps=-1", "steps=-1 is out of range; it must be at least 0$"),  # (not 'from 0 to 2**62', int64's)
    ("tabu:restart=1e23", "restart='1e23' should be a whole number"),
    ("tabu:restart=100000000000000000000000", "restart=100000000000000000000000 is out of range"),
    ("tabu:steps=100000000000000000000000", "steps=100000000000000000000000 is out of range"),
    ("propagate:samples=0", "samples=0 is out of range"),
    ("propagate:sample=0", "sample=0 is out of range; it must be at least 1$"),
    ("propagate:samples=10001", "samples=10001 is out of range"),
    ("propagate:sample=100000000000000000000000", "sample=100000000000000000000000 is out of range"),
    ("tabu:colour=2", "has no parameter 'colour'"),
    ("knuth", "knuth is a codebreaker of one row, not a 2-D strategy \\(those: tabu, propagate\\)"),
    ("knuht", "unknown 2-D strategy 'knuht'; known: tabu, propagate"),
])
def test_bad_strategy_specs_are_refused(spec, message):
    with pytest.raises((UnknownStrategy, BadArgument), match=message):
        make_strategy_2d(spec).check(Game2D(4, 6))
    with pytest.raises((UnknownStrategy, BadArgument), match=message):
        make_strategy_2d(spec).start(Game2D(4, 6))


def test_the_longest_tabu_list_holds_every_pair():
    game = Game2D(3, 4)
    record = play_2d(game, make_strategy_2d("tabu:tenure=9"), game.parse("121/344/213"), np.random.default_rng(5))
    assert record.won


def test_play_2d_takes_a_size_and_a_spec_as_play_game_does():
    """play_2d("3x4", "tabu", ...) ended in AttributeError: 'str' object has no attribute 'start'."""
    game = Game2D(3, 4)
    record = play_2d("3x4", "tabu", "121/344/213", rng=5)
    assert [game.format(g) for g in record.guesses] == [
        game.format(g) for g in play_2d(game, make_strategy_2d("tabu"), "121/344/213", rng=5).guesses]
    from mmlab.game import Game
    from mmlab.strategies import make_strategy

    with pytest.raises(BadArgument, match="expected a 2-D game, a Game2D or its size such as '4x6'"):
        play_2d(Game.parse_size("3x4"), "tabu", "121/344/213")
    with pytest.raises(BadArgument, match="expected a 2-D strategy, a Strategy2D or its spec"):
        play_2d(game, make_strategy("knuth"), "121/344/213")
    with pytest.raises(UnknownStrategy, match="knuth is a codebreaker of one row, not a 2-D strategy"):
        play_2d(game, "knuth", "121/344/213")
    for rng in (-1, 1.5):  # (-1 ended in numpy's ValueError 'expected non-negative integer')
        with pytest.raises(BadArgument, match="rng must be a numpy Generator or a seed"):
            play_2d(game, "tabu", "121/344/213", rng=rng)


def test_a_setting_that_does_not_fit_a_size_is_refused_before_anything_plays():
    played = []
    with pytest.raises(BadArgument, match="tenure=10 is out of range"):  # (when called, not at the first row)
        run_2d(["propagate", "tabu:tenure=10"], sizes=[(4, 6), (3, 8)], games=2, jobs=1,
               on_progress=lambda done, total: played.append(done))
    assert played == []


def test_a_row_of_run_2d_prints_its_figures_not_its_games():
    """Row2D's repr printed every per-game array (2,104 characters for 50 games)."""
    row = next(run_2d(["tabu"], sizes=[(3, 4)], games=50, seed=1, jobs=1))
    assert repr(row).startswith("Row2D(method='tabu', size='3x4', seed=1, peak_rss_mib=")
    assert "array" not in repr(row) and len(repr(row)) < 200 and row.guesses.shape == (50,)


def test_run_2d_takes_sizes_as_the_other_2d_functions_do():
    """run_2d(sizes=['3x4']) ended in 'ValueError: too many values to unpack', where play_2d and
    the 1-D API take a size so; a size, a Game2D or an (n, m) pair now play the same games, and
    what is none is refused when run_2d is called."""
    rows = [next(run_2d(["tabu"], sizes=[size], games=5, seed=3, jobs=1)) for size in ("3x4", Game2D(3, 4), (3, 4))]
    assert [row.size for row in rows] == ["3x4"] * 3
    assert all(np.array_equal(row.guesses, rows[0].guesses) for row in rows)
    with pytest.raises(BadArgument, match=r"sizes must list the sizes to play, e\.g\. \['3x4'\] or \[\(3, 4\)\], got '3x4'"):
        run_2d(["tabu"], sizes="3x4")
    with pytest.raises(BadArgument, match=r"expected a 2-D game, a Game2D or its size such as '4x6', got \(3, 4, 5\)"):
        run_2d(["tabu"], sizes=[(3, 4, 5)])
    with pytest.raises(BadSize, match="cannot read the size '3x4x5': write NxM"):
        run_2d(["tabu"], sizes=["3x4x5"])


# --------------------------------------------------------------------------------- the command
@pytest.fixture
def mm2_main():
    """``mmlab``'s entry point."""
    from mmlab.cli import main as cli

    return cli.main


def test_cli_play_and_its_errors(mm2_main, capsys):
    assert mm2_main(["mm2", "play", "3x4", "--secret", "123/234/341", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["memory_entries"] > 0 and data["won"] and data["secret"] == "123/234/341" and data["guesses"][-1]["guess"] == "123/234/341"
    assert len(data["guesses"][0]["rows"]) == 3 and len(data["guesses"][0]["columns"]) == 3
    assert mm2_main(["mm2", "play", "3x4", "--strategy", "propagate", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "guess 1" in out and "columns:" in out and "solved in" in out
    assert mm2_main(["mm2", "play", "3x4", "--secret", "123/234"]) == 2
    assert "mmlab mm2 play: error: code '123/234' has 2 rows, and an MM2(3,4) code is 3 rows of 3 pegs (colours 1-4)" \
        in capsys.readouterr().err
    assert mm2_main(["mm2", "play", "9x9"]) == 2
    assert "too large" in capsys.readouterr().err
    assert mm2_main(["mm2", "play", "3x4", "--secret", ""]) == 2  # (was: a random secret)
    assert "mmlab mm2 play: error: --secret is empty" in capsys.readouterr().err


def test_cli_play_shows_each_guess_as_it_is_made(mm2_main, capsys, monkeypatch):
    """8x8 took 26 s and printed nothing until the end: a Ctrl-C lost every guess made."""
    import mmlab.cli.variants as cli_variants

    def two_then_ctrl_c(*args, on_guess, **kwargs):
        def shown(k, guess, answers):
            on_guess(k, guess, answers)
            if k == 2:
                raise KeyboardInterrupt
        return play_2d(*args, on_guess=shown, **kwargs)

    monkeypatch.setattr(cli_variants, "play_2d", two_then_ctrl_c)
    assert mm2_main(["mm2", "play", "3x4", "--secret", "123/234/341", "--seed", "1"]) == 130
    out = capsys.readouterr().out
    assert "guess 1   111  row 1: 1,0" in out and "guess 2" in out and "solved" not in out


def test_cli_reproduce(mm2_main, capsys):
    assert mm2_main(["mm2", "reproduce", "--sizes", "3x8", "--games", "40", "--jobs", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["method"] for r in rows] == ["tabu", "propagate"]
    assert rows[0]["thesis"]["mean"] == 7.6136 and rows[0]["games"] == 40 and rows[0]["speedup_vs_singley"] > 0
    assert rows[1]["margin_vs_tabu"] == pytest.approx(rows[0]["mean"] - rows[1]["mean"])
    assert all(r["memory_entries_max"] > 0 for r in rows)
    assert mm2_main(["mm2", "reproduce", "--sizes", "3x8", "--games", "4", "--methods", "tabu:tenure=10"]) == 2
    assert "tenure=10 is out of range" in capsys.readouterr().err
    assert mm2_main(["mm2", "reproduce", "--sizes", "3x8", "--games", "20", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "7.6136" in out and "margin" in out and "beside the tabu search on the same secrets" in out
    assert mm2_main(["mm2", "reproduce", "--sizes", "3x8", "--games", "5", "--jobs", "1", "--methods", "propagate"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "beside the thesis's tabu search (margin = thesis tabu mean - propagate mean; tabu not played" in out
    assert mm2_main(["mm2", "reproduce", "--sizes", "3x5", "--games", "5"]) == 2
    assert "not in Singley's 2-D table" in capsys.readouterr().err


def test_cli_reproduce_one_game_has_no_standard_error(mm2_main, capsys):
    """The table says '(one game: no s.e.)'; the JSON said 0.0 for stderr and margin_stderr. Sizes
    are taken with commas too ('4x6,3x8' was 'cannot read the size'), a size named twice plays once."""
    assert mm2_main(["mm2", "reproduce", "--sizes", "4x6,3x8", "4x6", "--games", "1", "--jobs", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["method"], r["size"]) for r in rows] == [("tabu", "4x6"), ("propagate", "4x6"), ("tabu", "3x8"),
                                                        ("propagate", "3x8")]
    assert all(r["stderr"] is None and r["z_vs_thesis"] is None for r in rows)
    assert rows[1]["margin_vs_tabu"] == rows[0]["mean"] - rows[1]["mean"] and rows[1]["margin_stderr"] is None
    assert mm2_main(["mm2", "reproduce", "--sizes", "3x8", "--games", "30", "--jobs", "1", "--json"]) == 0
    tabu = json.loads(capsys.readouterr().out)[0]
    thesis = THESIS_2D["3x8"]
    assert tabu["z_vs_thesis"] == pytest.approx((tabu["mean"] - thesis.mean) / math.hypot(tabu["stderr"], thesis.stderr))
    assert mm2_main(["mm2", "reproduce", "--sizes", "4x6", "--games", "1", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "(1 random secret per size, seed 2005)" in out and "±0.0000" not in out
    assert "thesis ms/game" in out and "our ms/game" in out
    assert mm2_main(["mm2", "reproduce", "--sizes", ","]) == 2
    assert "--sizes is empty" in capsys.readouterr().err


def test_cli_reproduce_full_names_7x8_only_when_it_plays(mm2_main, capsys, monkeypatch):
    import mmlab.cli.variants as cli_variants

    monkeypatch.setattr(cli_variants, "thesis_games", lambda size: 2)  # (not 10 000 games in a test)
    assert mm2_main(["mm2", "reproduce", "--sizes", "3x8", "--full", "--jobs", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "(10 000 random secrets per size, seed 2005)" in out and "7x8" not in out.split("source:")[0]


# ------------------------------------------------------------- timing and the thesis's figures
def test_cli_play_loads_the_kernels_before_the_game_is_timed(mm2_main, capsys, monkeypatch):
    """'mm2 play 4x6' printed 533.8 ms, numba loading its kernels; the game itself takes 2 ms."""
    import mmlab.cli.variants as cli_variants
    from mmlab.experiments import two_d_tables

    warmed = []

    def played(*args, **kwargs):
        warmed.append("tabu:tenure=5" in two_d_tables._WARMED)
        return play_2d(*args, **kwargs)

    monkeypatch.setattr(cli_variants, "play_2d", played)
    assert mm2_main(["mm2", "play", "3x4", "--strategy", "tabu:tenure=5", "--seed", "1", "--json"]) == 0
    assert warmed == [True] and json.loads(capsys.readouterr().out)["won"]


def test_settings_too_large_for_the_warm_up_game_still_play():
    """tabu:tenure=20 fits 4x6 (24 pairs in a row), not the 3x3 game the kernels are loaded with."""
    row = next(run_2d(["tabu:tenure=20"], sizes=[(4, 6)], games=1, seed=1, jobs=1))
    assert row.games == 1 and row.thesis is THESIS_2D["4x6"]  # (the thesis's method, other settings)


def test_only_the_thesis_method_is_compared_with_the_thesis(mm2_main, capsys):
    """'--methods propagate --json' gave propagate the thesis's tabu figures and a z against them."""
    rows = list(run_2d(["tabu", "propagate"], sizes=[(3, 8)], games=3, seed=1, jobs=1))
    assert rows[0].thesis is THESIS_2D["3x8"] and rows[1].thesis is None and rows[1].z_vs_thesis() is None
    assert mm2_main(["mm2", "reproduce", "--sizes", "3x8", "--games", "5", "--jobs", "1", "--methods", "propagate",
                     "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["thesis"] is None and row["z_vs_thesis"] is None
    assert row["margin_vs_thesis_tabu"] == pytest.approx(THESIS_2D["3x8"].mean - row["mean"])  # (as the table)


@pytest.mark.parametrize("spec", ["tabu", "propagate"])
def test_memory_entries_is_the_most_the_knowledge_held_at_any_guess(spec):
    """``GameRecord2D.memory_entries`` (Singley's bound 2·n·m^n): the largest over the game, replayed
    guess by guess into a fresh ``Knowledge2D``, not the last (after the first guess the sets shrink)."""
    game = Game2D.parse_size("3x4")
    record = play_2d(game, spec, None, rng=1, track_memory=True)
    knowledge, held = Knowledge2D(game), []
    for guess, answers in zip(record.guesses, record.answers):
        knowledge.record(guess, answers)
        held.append(knowledge.memory_entries())
    assert record.memory_entries == max(held) > held[-1]
    assert play_2d(game, spec, None, rng=1).memory_entries == 0  # (counted only when asked)


def test_a_game_plays_up_to_max_guesses_and_is_given_up_after_them():
    """``max_guesses`` guesses are played, the last one too: tabu finds 123/234/341 in 4 (seed 1),
    so with a limit of 4 it wins, and with 3 or 1 it gives up after that many."""
    whole = play_2d("3x4", "tabu", "123/234/341", rng=1)
    assert whole.won and whole.n_guesses == 4
    just = play_2d("3x4", "tabu", "123/234/341", rng=1, max_guesses=4)
    assert just.won and just.n_guesses == 4
    for limit in (3, 1):
        short = play_2d("3x4", "tabu", "123/234/341", rng=1, max_guesses=limit)
        assert not short.won and short.n_guesses == limit
