"""004's protocol on 4x6: consistent codes only, random ties among top scorers, first guess
ABCA (1231), 10 runs over all 1296 secrets. Tolerance 0.02 on the mean, as the issue sets it
(the published standard errors are about 0.007)."""

import pytest

from mmlab.experiments import evaluate
from mmlab.game import Game

PROTOCOL = "pool=consistent,ties=random,first=1231"


@pytest.fixture(scope="module")
def runs():
    """Each strategy's 10 runs, computed once for the module."""
    game = Game.parse_size("4x6")
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = evaluate(game, f"{name}:{PROTOCOL}", runs=10, seed=2024)
        return cache[name]

    return get


@pytest.mark.parametrize(
    "name, published, source",
    [
        ("entropy", 4.413, "004 Table 3"),
        ("most-parts", 4.406, "004 Table 3"),
        ("plus", 4.404, "004 Table 9"),
        ("plus2", 4.41, "004 Table 9"),
    ],
)
def test_mean_guesses_match_004(runs, name, published, source):
    result = runs(name)
    assert result.games == 12960
    assert abs(result.mean - published) < 0.02, f"{name}: {result.mean:.4f} vs {published} ({source})"


def test_maxima_match_004_table_3(runs):
    """004 Table 3: Entropy needs at most 6 guesses, Most Parts 7 (8 of its 12960 games)."""
    assert runs("entropy").max == 6
    assert runs("most-parts").max == 7


# 004 Table 2, as printed: a combination, then the codes of the consistent set that give it each
# answer (0b-2w 0b-3w 0b-4w 1b-1w 1b-2w 1b-3w 2b-0w 2b-1w 2b-2w 3b-0w).
TABLE_2_ROWS = {
    ("AABA", "ACAA"): (0, 0, 0, 14, 8, 0, 13, 1, 0, 3),
    ("AACC", "ABAB", "BBAA", "CACA"): (8, 0, 0, 10, 5, 0, 8, 4, 1, 3),
    ("AACD", "AACE", "AACF", "ABAD", "ABAE", "ABAF", "DACA", "EBAA", "FACA", "FBAA"): (6, 2, 0, 11, 6, 1, 4, 5, 1, 3),
    ("ABBC", "ACCB", "BCCA", "CBBA"): (4, 4, 0, 10, 8, 0, 8, 1, 1, 3),
    ("ABDC", "ABEC", "ABFC", "BDCA", "BECA", "BFCA", "CBDA", "CBEA", "CBFA"): (3, 4, 1, 11, 9, 1, 4, 2, 1, 3),
    ("ACDA",): (0, 0, 0, 16, 10, 2, 5, 3, 0, 3),
}
TABLE_2_ANSWERS = [(0, 2), (0, 3), (0, 4), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (3, 0)]


def test_table_2_is_the_consistent_set_after_abca_answered_2_black_1_white():
    """Table 2's 30 rows are 30 codes of the 40 consistent after the paper's first guess ABCA got
    2 black and 1 white: each splits the other 39 exactly as printed, into no other answers."""
    from mmlab.game import Feedback
    from mmlab.knowledge import Knowledge
    from mmlab.strategies import partition_summary

    game = Game.parse_size("4x6")
    k = Knowledge.initial(game).update("ABCA", Feedback(2, 1))
    assert k.n_consistent == 40
    for codes, counts in TABLE_2_ROWS.items():
        for code in codes:
            assert k.is_consistent(code)
            classes = partition_summary(k, code)["classes"]
            assert classes[Feedback(4, 0)] == 1
            others = {(fb.black, fb.white): n for fb, n in classes.items() if n and fb != Feedback(4, 0)}
            assert others == {a: n for a, n in zip(TABLE_2_ANSWERS, counts) if n}, code
