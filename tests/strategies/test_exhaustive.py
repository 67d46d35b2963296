"""Every exhaustive strategy against a pure-Python reference that scores every code by brute
force: the engine's choice (with equivalent guesses scored once) must be the same code."""

import zlib
from collections import Counter
from math import log2

import numpy as np
import pytest

from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import make_strategy

TOL = 1e-9


def reference_partition(game: Game, guess: int, cands) -> list[int]:
    return list(Counter(game.score(s, guess) for s in cands).values())


def reference_top(name: str, game: Game, guesses, cands) -> list[int]:
    scores = {}
    for g in guesses:
        sizes = reference_partition(game, g, cands)
        k = sum(sizes)
        scores[g] = {
            "largest": max(sizes),
            "expected": sum(n * n for n in sizes),
            "parts": len(sizes),
            "entropy": -sum(n / k * log2(n / k) for n in sizes),
        }

    def top(key, sign, among):
        best = min(sign * scores[g][key] for g in among)
        return [g for g in among if sign * scores[g][key] <= best + TOL]

    if name in ("knuth", "norvig"):
        return top("largest", 1, guesses)
    if name == "irving":
        return top("expected", 1, guesses)
    if name == "most-parts":
        return top("parts", -1, guesses)
    if name == "entropy":
        return top("entropy", -1, guesses)
    if name == "plus":
        parts, entropy = top("parts", -1, guesses), top("entropy", -1, guesses)
        both = [g for g in parts if g in entropy]
        return both or sorted(set(parts) | set(entropy))
    if name == "plus2":
        return top("parts", -1, top("entropy", -1, guesses))
    raise ValueError(name)


def reference_choice(name: str, game: Game, knowledge: Knowledge, pool: str) -> int:
    cands = knowledge.consistent.tolist()
    guesses = cands if pool == "consistent" else list(range(game.n_codes))
    top = reference_top(name, game, guesses, cands)
    consistent = [g for g in top if g in set(cands)]
    return min(consistent or top)


def _symmetric_code(game: Game, rng) -> int:
    """A code with repeated colours (AABB..., AAAB...): its history has many symmetries."""
    if not game.repeats:
        return int(rng.integers(game.n_codes))
    pattern = [0] * (game.pegs // 2) + [1] * (game.pegs - game.pegs // 2)
    colours = rng.permutation(game.colours)[:2]
    return game.index_of([colours[p] for p in pattern])


def random_states(game: Game, n: int, seed: int) -> list[Knowledge]:
    """Knowledge after 1-3 guesses against random secrets; half the guesses are symmetric codes
    (so peg and colour permutations fixing the history are exercised), and states with one or
    two candidates are kept."""
    rng = np.random.default_rng(seed)
    states = []
    while len(states) < n:
        secret = int(rng.integers(game.n_codes))
        k = Knowledge.initial(game)
        for _ in range(int(rng.integers(1, 4))):
            g = _symmetric_code(game, rng) if rng.random() < 0.5 else int(rng.integers(game.n_codes))
            if g == secret:
                break
            k = k.update(g, game.score(secret, g))
            states.append(k)
    return states[:n]


@pytest.mark.parametrize("name", ["knuth", "irving", "most-parts", "entropy", "plus", "plus2", "norvig"])
@pytest.mark.parametrize(
    "size, pool, repeats, feedback",
    [("3x4", "all", True, "black-white"), ("4x4", "all", True, "black-white"), ("3x5", "consistent", True, "black-white"),
     ("4x5", "all", True, "black-white"), ("4x6", "consistent", True, "black-white"), ("4x6", "all", False, "black-white"),
     ("3x5", "all", True, "black")],
)
def test_choice_equals_brute_force_reference(name, size, pool, repeats, feedback):
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    spec = name if name == "norvig" else f"{name}:pool={pool}"
    strategy = make_strategy(spec)
    strategy.start(game)
    states = random_states(game, 4, seed=zlib.crc32(f"{name} {size} {repeats} {feedback}".encode()))
    for k in states:
        expected = reference_choice(name, game, k, strategy.values["pool"])
        got = strategy.guess(k)
        assert got == expected, (
            f"{spec} on {size} after {[(game.format(g), str(f)) for g, f in k.history]}: "
            f"engine {game.format(got)}, reference {game.format(expected)}"
        )


def test_random_ties_draw_uniformly_among_consistent_top_scorers(game46):
    k = Knowledge.initial(game46).update(game46.parse("1231"), Feedback(1, 1))
    strategy = make_strategy("most-parts:pool=consistent,ties=random")
    strategy.start(game46, np.random.default_rng(0))
    top = set(reference_top("most-parts", game46, k.consistent.tolist(), k.consistent.tolist()))
    draws = Counter(strategy.guess(k) for _ in range(3000))
    assert set(draws) == top
    expected = 3000 / len(top)
    assert max(draws.values()) < 2 * expected and min(draws.values()) > expected / 2


def test_first_guess_with_random_ties_covers_every_code_of_the_best_pattern(game46):
    strategy = make_strategy("knuth:ties=random")
    strategy.start(game46, np.random.default_rng(1))
    seen = {game46.format(strategy.guess(Knowledge.initial(game46))) for _ in range(400)}
    # Knuth's best first guesses are the 90 codes of pattern AABB.
    assert len(seen) > 60
    assert all(sorted(Counter(code).values()) == [2, 2] for code in seen)


def test_norvig_lisp_ties_guess_from_the_possible_codes_and_hint_what_they_play():
    from mmlab.errors import UnknownStrategy

    game = Game.parse_size("4x6")
    with pytest.raises(UnknownStrategy, match="ties=lisp follows Norvig's list"):
        make_strategy("norvig:pool=all,ties=lisp").start(game)
    norvig = make_strategy("norvig:ties=lisp")
    norvig.start(game)
    after = Knowledge.initial(game).update("6161", "0,2")
    best = norvig.best_guesses(after, 3)
    assert game.format(best[0]) == game.format(norvig.guess(after)) == "1623" and len(set(best.tolist())) == 3


@pytest.mark.parametrize("spec", ["knuth", "entropy:pool=consistent", "norvig:ties=lisp"])
def test_an_exhaustive_strategy_refuses_knowledge_without_its_list_of_codes(spec):
    from mmlab.errors import BadArgument
    game = Game.parse_size("4x6")
    strategy = make_strategy(spec)
    strategy.start(game)
    implicit = Knowledge.initial(game, explicit=False)
    for knowledge in (implicit, implicit.update(game.parse("1122"), Feedback(1, 1))):
        with pytest.raises(BadArgument, match="explicit=False"):
            strategy.guess(knowledge)
