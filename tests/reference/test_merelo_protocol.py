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
