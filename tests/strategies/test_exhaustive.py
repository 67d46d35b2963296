"""Every exhaustive strategy against a pure-Python reference that scores every code by brute
force: the engine's choice (with equivalent guesses scored once) must be the same code."""

import itertools
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


def test_plus2_breaks_entropy_ties_by_the_number_of_parts():
    """004, Algorithm 3: among the Entropy top scorers, Plus2 keeps those with the most parts. On
    4x4 after 3442 scored 3,0 the Entropy top scorers differ in their parts (found by a search of
    ``random_states``), so the choice tells Plus2 from Entropy; the random states above have no
    such tie."""
    game = Game.parse_size("4x4")
    k = Knowledge.initial(game).update(game.parse("3442"), Feedback(3, 0))
    expected = reference_choice("plus2", game, k, "all")
    assert expected != reference_choice("entropy", game, k, "all")  # the state separates the two
    strategy = make_strategy("plus2")
    strategy.start(game)
    assert game.format(strategy.guess(k)) == game.format(expected)


def test_scores_within_the_tolerance_are_ties():
    """Entropies are sums of floats in answer order: equal partitions may differ in the last bit,
    and must still tie (``scoring.TOLERANCE``)."""
    from mmlab.strategies.exhaustive import top_entropy
    from mmlab.strategies.scoring import ENTROPY, best

    assert best(np.array([1.0, 1.0 + 1e-12, 1.0 + 1e-6])).tolist() == [True, True, False]
    stats = np.zeros((3, 4))
    stats[:, ENTROPY] = [2.5 - 1e-13, 2.5, 2.4]
    assert top_entropy(stats).tolist() == [True, True, False]


def test_random_draws_each_consistent_code_uniformly(game46):
    """Rosu's Random (004): a uniform draw over the consistent codes, the last one included."""
    k = Knowledge.initial(game46).update(game46.parse("1122"), Feedback(2, 2))  # 1212 1221 2112 2121
    strategy = make_strategy("random")
    strategy.start(game46, np.random.default_rng(2))
    draws = Counter(strategy.guess(k) for _ in range(2000))
    assert set(draws) == set(k.consistent.tolist()) and len(draws) == 4
    assert all(400 < n < 600 for n in draws.values())  # 500 expected each; sd 19
    choice = strategy.last_choice
    assert choice.uniform and choice.chance(int(k.consistent[-1]), 0) == 1 / 4 and choice.chance(0, 0) == 0


def test_randoms_first_guess_is_drawn_uniformly_from_every_code():
    """With no answer yet every code fits: the first guess is a uniform draw over them all, the last
    code included (3x3's 27 codes, 2700 draws: 100 expected each, sd 9.8)."""
    game = Game.parse_size("3x3")
    strategy = make_strategy("random")
    strategy.start(game, np.random.default_rng(4))
    draws = Counter(strategy.guess(Knowledge.initial(game)) for _ in range(2700))
    assert set(draws) == set(range(27)) and all(60 < n < 140 for n in draws.values())
    assert strategy.last_choice.uniform and strategy.last_choice.chance(26, 0) == 1 / 27


def test_first_guess_with_random_ties_draws_from_every_winning_pattern(game46):
    """Kooi's Most Parts has two best first patterns on 4x6, AABC and ABCD (14 parts each; a
    brute force over the five patterns): random ties draw from the codes of both."""
    strategy = make_strategy("most-parts:ties=random")
    strategy.start(game46, np.random.default_rng(3))
    patterns = Counter(tuple(sorted(Counter(game46.format(strategy.guess(Knowledge.initial(game46)))).values()))
                       for _ in range(300))
    assert set(patterns) == {(1, 1, 2), (1, 1, 1, 1)}
    # 720 codes of pattern AABC, 360 of ABCD: two to one
    assert 150 < patterns[(1, 1, 2)] < 250


@pytest.mark.parametrize("spec", ["knuth", "most-parts:pool=consistent"])
def test_best_guesses_rank_by_score_then_consistent_codes_first(game46, spec):
    """``best_guesses`` lists guesses best first by the strategy's score (brute force:
    ``reference_partition``), consistent ones first among equal scores."""
    k = Knowledge.initial(game46).update(game46.parse("1123"), Feedback(1, 1))
    strategy = make_strategy(spec)
    strategy.start(game46)
    n = 40 if spec == "knuth" else 15  # (19 classes of equivalent consistent codes)
    best = strategy.best_guesses(k, n).tolist()
    cands = set(k.consistent.tolist())
    sizes = [reference_partition(game46, g, cands) for g in best]
    score = [max(s) if spec == "knuth" else -len(s) for s in sizes]
    keys = [(s, g not in cands) for s, g in zip(score, best)]
    assert keys == sorted(keys) and len(set(best)) == n
    if spec == "knuth":  # the order within a score is tested: consistent and inconsistent codes share one
        assert any(a[0] == b[0] and not a[1] and b[1] for a, b in itertools.pairwise(keys))


@pytest.mark.parametrize("spec, scored", [("knuth:pool=consistent", 230), ("entropy:ties=random", 1296)])
def test_evaluations_count_the_candidates_checked_and_the_guesses_scored(game46, spec, scored):
    """001's "combinations evaluated": a move checks each of the 230 codes consistent with 1123
    scored 1,1 against that answer, then scores each guess of its pool (the 230 codes, or all
    1296 codes of 4x6 when random ties need every code) against them."""
    k = Knowledge.initial(game46).update(game46.parse("1123"), Feedback(1, 1))
    assert k.n_consistent == 230
    strategy = make_strategy(spec)
    strategy.start(game46, np.random.default_rng(0))
    strategy.guess(k)
    assert strategy.evaluations == 230 + scored


def test_a_guess_is_known_to_be_the_secret_only_when_one_code_is_left():
    """003 counts guesses "until the code is known": Knuth knows its winning guess exactly when it
    was the only consistent code left, not when it was the first of two (every secret of 3x4)."""
    from mmlab.experiments import play_game

    game = Game.parse_size("3x4")
    records = [play_game(game, make_strategy("knuth"), s) for s in range(game.n_codes)]
    assert any(r.consistent[-1] == 2 for r in records)  # some games win with the first of two codes
    for r in records:
        assert r.won and r.last_certain == (r.consistent[-1] == 1)
        assert r.known_after == r.n_guesses - (r.consistent[-1] == 1)


@pytest.mark.parametrize("spec", ["knuth:first=1123", "random:first=1123"])
def test_a_fixed_first_guess_is_the_only_code_it_was_picked_from(game46, spec):
    """004's statistics read ``last_choice``: a first guess given as first=CODE was picked from
    that one code, not from what the strategy's last move of the game before was picked from."""
    from mmlab.experiments import play_game

    strategy = make_strategy(spec)
    play_game(game46, strategy, game46.parse("3632"), np.random.default_rng(0))
    strategy.start(game46, np.random.default_rng(1))
    assert strategy.guess(Knowledge.initial(game46)) == game46.parse("1123")
    choice = strategy.last_choice
    assert choice.codes.tolist() == [game46.parse("1123")] and not choice.uniform
    assert choice.chance(game46.parse("1123"), game46.parse("1123")) == 1.0


@pytest.mark.parametrize("code", ["1122", "1344", "3632"])
def test_partition_summary_matches_brute_force(game46, code):
    """``partition_summary`` after 1123 scored 1,1 (230 codes): class sizes, parts, largest part,
    expected size of the part holding the secret (sum of squares / codes) and entropy, counted by
    scoring every candidate."""
    from mmlab.strategies.scoring import partition_summary

    k = Knowledge.initial(game46).update(game46.parse("1123"), Feedback(1, 1))
    cands = k.consistent.tolist()
    classes = Counter(game46.score(s, game46.parse(code)) for s in cands)
    summary = partition_summary(k, code)
    assert summary["candidates"] == 230 and summary["consistent"] == (game46.parse(code) in cands)
    assert {fb: n for fb, n in summary["classes"].items() if n} == dict(classes)
    assert (summary["parts"], summary["largest"]) == (len(classes), max(classes.values()))
    assert summary["expected_size"] == pytest.approx(sum(n * n for n in classes.values()) / 230)
    assert summary["entropy_bits"] == pytest.approx(-sum(n / 230 * log2(n / 230) for n in classes.values()))


@pytest.mark.parametrize("size", ["4x6", "5x9"])  # (5x9: without the game's feedback table)
def test_long_scoring_is_cut_into_kernel_calls_of_the_same_figures(size, monkeypatch):
    """A Ctrl-C is handled between kernel calls: norvig's first hint at 6x9 scored every code in one
    call of 15.6 s, which Ctrl-C could not stop (helper-119). Long work is cut into blocks now."""
    from mmlab.game import kernels
    from mmlab.strategies import scoring

    game = Game.parse_size(size)
    knowledge = Knowledge.initial(game).update(game.parse("1" * game.pegs), Feedback(1, 0))
    guesses = np.arange(0, game.n_codes, 7, dtype=np.int64)
    whole = scoring.partition_stats(knowledge, guesses), scoring.partition_histograms(knowledge, guesses)
    calls = []
    for name in ("partition_stats", "partition_stats_table", "partition_histograms", "partition_stats_serial",
                 "partition_stats_table_serial", "partition_histograms_serial"):
        kernel = getattr(kernels, name)
        monkeypatch.setattr(kernels, name, lambda *args, kernel=kernel: calls.append(len(args[0])) or kernel(*args))
    monkeypatch.setattr(scoring, "BLOCK_WORK", 50 * knowledge.n_consistent)
    blocks = scoring.partition_stats(knowledge, guesses), scoring.partition_histograms(knowledge, guesses)
    assert len(calls) == 2 * -(-len(guesses) // 50) and max(calls) == 50
    np.testing.assert_array_equal(blocks[0], whole[0])
    np.testing.assert_array_equal(blocks[1], whole[1])


def test_random_plays_on_where_its_quick_searches_find_no_consistent_code(monkeypatch):
    """10x20 with black pegs only: late in a game the draws, the listing and 3e7 placements of the
    constraint search found no consistent code, and ``random`` stopped the game (SearchFailed after
    10-18 guesses). It now asks the GA's search, then the patient constraint search, and only when
    both fail plays the GA's fittest code, recorded as a fallback."""
    from mmlab.errors import SearchFailed
    from mmlab.experiments.playout import play_game
    from mmlab.strategies import exhaustive

    game = Game.parse_size("8x12")
    monkeypatch.setattr(Knowledge, "random_code", lambda self, rng: (None, 10, False))
    rng = np.random.default_rng(3)
    record = play_game(game, make_strategy("random"), int(rng.integers(game.n_codes)), rng)
    assert record.won and not record.fallbacks  # every guess from the GA's consistent codes

    def fails(self, rng, max_nodes):
        raise SearchFailed("no code found")

    monkeypatch.setattr(Knowledge, "find_consistent", fails)
    monkeypatch.setattr(exhaustive, "HARD_GENERATIONS", 0)  # (one population of 150: misses, after a few answers)
    strategy = make_strategy("random")
    record = play_game(game, strategy, int(rng.integers(game.n_codes)), rng, max_guesses=12)
    assert record.fallbacks and all(move >= 1 for move, _ in record.fallbacks)
    move, note = record.fallbacks[0]
    assert note.startswith("no consistent code in 0 generations of a GA nor 1e+09 placements of a constraint "
                           "search; played the GA's fittest (distance ")
    knowledge = Knowledge.initial(game, explicit=False)
    for guess, answer in list(zip(record.guesses, record.feedbacks))[:move]:
        knowledge = knowledge.update(guess, answer)
    assert not knowledge.is_consistent(record.guesses[move])  # (the fallback fits not every answer)
