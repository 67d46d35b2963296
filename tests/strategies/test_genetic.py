"""The evolutionary search for consistent codes and the GA codebreakers (issue 8, part 1)."""

from __future__ import annotations

import zlib
from collections import Counter

import numpy as np
import pytest

from mmlab.errors import INT64_MAX, BadArgument, UnknownStrategy
from mmlab.experiments.playout import play_game
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import evolution_kernels as ek
from mmlab.strategies import make_strategy
from mmlab.strategies.evolution import ConsistentSearch, SearchResult
from mmlab.strategies.genetic import GeneticAlgorithm, pattern_code
from tests.references import answer


# ----------------------------------------------------------------- pure-Python reference
def reference_distance(code, history, kind, w_black=1, w_white=1, with_white=True):
    """Distance of ``code`` to consistency with ``history`` [(guess, black, white)], as written in
    the docstring of ``evolution_kernels``."""
    pegs = len(code)
    phase = int(any(b + w == pegs for _, b, w in history))
    total = 0
    for guess, b, w in history:
        b2, w2 = answer(list(guess), list(code), with_white)
        if kind == ek.DIST_BENTO:
            dc, db = abs(b2 + w2 - b - w), abs(b2 - b)
            total += 2 * dc + db if phase == 0 else dc + 2 * db
        else:
            total += w_black * abs(b2 - b) + w_white * abs(w2 - w)
    return total


def random_history(rng, game, secret, n):
    history = []
    for _ in range(n):
        guess = tuple(int(c) for c in rng.integers(game.colours, size=game.pegs))
        b, w = answer(list(guess), list(secret), game.with_white)
        history.append((guess, b, w))
    return history


def arrays(game, history):
    digits = np.array([g for g, _, _ in history], dtype=np.uint8).reshape(len(history), game.pegs)
    counts = np.array([game.counts_of(g) for g in digits], dtype=np.uint8).reshape(len(history), game.colours)
    blacks = np.array([b for _, b, _ in history], dtype=np.int64)
    whites = np.array([w for _, _, w in history], dtype=np.int64)
    return digits, counts, blacks, whites


@pytest.mark.parametrize("size,feedback", [("4x6", "black-white"), ("5x8", "black-white"), ("6x9", "black"),
                                           ("8x12", "black-white")])
@pytest.mark.parametrize("kind", [ek.DIST_MERELO, ek.DIST_BERGHMAN, ek.DIST_BENTO])
def test_fitness_kernel_matches_reference(size, feedback, kind):
    game = Game.parse_size(size, feedback=feedback)
    rng = np.random.default_rng(zlib.crc32(f"{size},{feedback},{kind}".encode()))  # the same cases in every run
    for trial in range(8):
        secret = tuple(int(c) for c in rng.integers(game.colours, size=game.pegs))
        history = random_history(rng, game, secret, int(rng.integers(1, 7)))
        if trial % 2:  # make Bento's second phase occur: an answer with every colour right
            perm = tuple(secret[i] for i in rng.permutation(game.pegs))
            history.append((perm,) + answer(list(perm), list(secret), game.with_white))
        codes = rng.integers(game.colours, size=(40, game.pegs)).astype(np.uint8)
        codes[0] = secret
        digits, counts, blacks, whites = arrays(game, history)
        phase = int(np.any(blacks + whites == game.pegs))
        w_black = 2 if kind == ek.DIST_MERELO else 1
        offset = 2 * game.pegs * (len(history) - 1) if kind == ek.DIST_BERGHMAN else 0
        got = ek.population_fitness(codes, digits, counts, blacks, whites, game.with_white, kind, w_black, 1, phase,
                                    offset)
        want = [offset + reference_distance(tuple(int(x) for x in c), history, kind, w_black, 1, game.with_white)
                for c in codes]
        assert got.tolist() == want
        assert got[0] == offset  # the secret fits every answer


def test_operators_keep_codes_valid():
    rng = ek.new_rng(5)
    code = np.array([0, 1, 2, 3, 4], dtype=np.uint8)
    for _ in range(200):
        before = sorted(code.tolist())
        ek.permute(rng, code)
        ek.invert(rng, code)
        assert sorted(code.tolist()) == before  # permutation and inversion move colours only
    used = np.zeros(16, dtype=np.bool_)
    for _ in range(200):
        child = np.array([3, 3, 1, 1, 7], dtype=np.uint8)
        ek.mutate(rng, child, 8)
        ek.repair(rng, child, 8, used)
        assert len(set(child.tolist())) == 5 and child.max() < 8


# ----------------------------------------------------------------- ConsistentSearch
@pytest.mark.parametrize("fitness", ["merelo", "berghman", "bento"])
@pytest.mark.parametrize("size,repeats,feedback", [("4x6", True, "black-white"), ("5x8", True, "black-white"),
                                                   ("4x10", False, "black-white"), ("4x6", True, "black")])
def test_search_returns_distinct_consistent_codes(fitness, size, repeats, feedback):
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    rng = np.random.default_rng(3)
    secret = game.index_of(rng.permutation(game.colours)[:game.pegs]) if not repeats else int(rng.integers(game.n_codes))
    k = Knowledge.initial(game, explicit=False)
    search = ConsistentSearch(pop=60, generations=50, fitness=fitness)
    for _ in range(3):
        result = search.run(k, rng, target=20)
        assert isinstance(result, SearchResult)
        assert result.codes.dtype == np.uint8 and result.codes.shape[1] == game.pegs
        assert 1 <= result.codes.shape[0] <= 20
        assert len({tuple(c) for c in result.codes}) == result.codes.shape[0]
        for code in result.codes:
            assert k.fits(code)
            if not repeats:
                assert len(set(code.tolist())) == game.pegs
        assert result.evaluations >= result.codes.shape[0] and result.distance == 0
        assert np.array_equal(result.best, result.codes[0])
        guess = game.index_of(result.codes[0])
        k = k.update(guess, game.score(secret, guess))
        if k.history[-1][1] == game.win:
            break


def test_search_on_huge_games_without_enumerating():
    for size in ("8x12", "10x20"):
        game = Game.parse_size(size)
        rng = np.random.default_rng(1)
        secret = int(rng.integers(game.n_codes))
        k = Knowledge.initial(game)
        assert not k.explicit
        for guess_digits in (pattern_code(game, "aabb"), tuple(range(game.pegs))):
            guess = game.index_of(guess_digits)
            k = k.update(guess, game.score(secret, guess))
        result = ConsistentSearch(pop=100, fitness="berghman").run(k, rng, target=5, max_generations=200)
        assert result.codes.shape[0] >= 1 and all(k.fits(c) for c in result.codes)


def random_answers(game, rng, n):
    """The knowledge after ``n`` random guesses at a random secret (drawn from ``rng``)."""
    secret = int(rng.integers(game.n_codes))
    k = Knowledge.initial(game, explicit=False)
    for _ in range(n):
        guess = int(rng.integers(game.n_codes))
        k = k.update(guess, game.score(secret, guess))
    return k


def test_search_budget_without_consistent_code_reports_best():
    rng = np.random.default_rng(0)
    k = random_answers(Game.parse_size("6x9"), rng, 5)
    result = ConsistentSearch(pop=2, generations=1, fitness="merelo", scheme="berghman").run(k, rng, 1, 0)
    if result.codes.shape[0] == 0:  # 2 random codes almost never fit 5 answers
        assert result.distance > 0 and not k.fits(result.best)
        assert result.evaluations == 2 and result.generations == 0


def test_search_rejects_bad_arguments():
    with pytest.raises(BadArgument):
        ConsistentSearch(fitness="nope")
    with pytest.raises(BadArgument):
        ConsistentSearch(pop=1)
    for bad in ({"generations": -1}, {"elite": -1}, {"pool": -2}, {"extend": -1}, {"w_black": -1}):
        with pytest.raises(BadArgument, match=f"{next(iter(bad))}=-"):
            ConsistentSearch(**bad)
    game = Game.parse_size("4x6")
    with pytest.raises(BadArgument):
        ConsistentSearch().run(Knowledge.initial(game), np.random.default_rng(0), target=0)
    with pytest.raises(BadArgument, match="max_generations=-1"):
        ConsistentSearch().run(Knowledge.initial(game), np.random.default_rng(0), max_generations=-1)
    assert "extend=0" in repr(ConsistentSearch())


def test_extend_up_to_the_largest_whole_number_still_extends():
    """``extend`` is accepted up to 2**63 - 1; the kernel added it to the budget in int64, so the
    largest values wrapped round to a negative limit and the search stopped at its budget."""
    game = Game.parse_size("4x6")
    secret = game.parse("3632")
    k = Knowledge.initial(game, explicit=False)
    for guess in ("1122", "3456", "1415"):
        k = k.update(game.parse(guess), game.score(secret, game.parse(guess)))
    for extend in (10**6, INT64_MAX - 1, INT64_MAX):
        result = ConsistentSearch(pop=2, generations=1, fitness="berghman", extend=extend).run(
            k, np.random.default_rng(0))
        assert result.codes.shape[0] == 1 and result.generations > 1, extend
    record = play_game(game, make_strategy(f"ga:variant=berghman,pop=2,generations=1,extend={INT64_MAX}"), secret,
                       np.random.default_rng(1))
    assert record.won and not record.fallbacks


def test_a_large_berghman_population_plays_its_generation():
    """Berghman's generation looked for each child among the children before it one by one, so a
    generation of n codes took n**2 / 2 comparisons: pop=300000 (the range goes to 1000000) took
    about a minute a generation at 8x12, pop=10**6 hours; the new population is now hashed (0.2 s;
    its children replay the reference in test_evolution_kernels_reference)."""
    k = random_answers(Game.parse_size("8x12"), np.random.default_rng(0), 6)
    result = ConsistentSearch(pop=300_000, generations=1, fitness="berghman").run(k, np.random.default_rng(1))
    assert result.generations == 1 or result.codes.shape[0] == 1
    assert all(k.fits(int(c)) for c in result.codes)


def test_partition_scores_reference():
    rng = np.random.default_rng(2)
    codes = np.unique(rng.integers(6, size=(25, 4)).astype(np.uint8), axis=0)
    got = ek.partition_scores(codes, 6, True)
    for i, c in enumerate(codes):
        classes = {}
        for t, d in enumerate(codes):
            if t != i:
                key = answer(list(c), list(d))
                classes[key] = classes.get(key, 0) + 1
        # sum over the others c' of the codes (other than c) giving c the answer c' gives
        assert got[i] == sum(n * n for n in classes.values())


# ----------------------------------------------------------------- the ga strategy
def play(game, spec, n, seed, max_guesses=None):
    strategy = GeneticAlgorithm.from_raw(spec)
    records = []
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        if game.repeats:
            secret = int(rng.integers(game.n_codes))
        else:
            secret = game.index_of(rng.permutation(game.colours)[:game.pegs])
        records.append(play_game(game, strategy, secret, rng, max_guesses=max_guesses))
    return strategy, records


def test_ga_flags_and_spec():
    s = GeneticAlgorithm.from_raw({"variant": "bento", "first": "1234"})
    assert s.spec == "ga:variant=bento,first=1234"
    assert not s.needs_enumeration and not s.tracks_consistent_set and not s.deterministic
    with pytest.raises(UnknownStrategy):
        GeneticAlgorithm.from_raw({"variant": "knuth"})
    with pytest.raises(BadArgument, match="eligible=60 needs variant=berghman"):
        GeneticAlgorithm.from_raw({"variant": "merelo", "eligible": "60"})
    # 1 lies within the 0-1000000 of 'mmlab strategies ga', whose 0 means the variant's: the error gives the range
    with pytest.raises(BadArgument, match="pop=1 is out of range: .* it must be from 2 to 1000000, or 0 for the variant's"):
        make_strategy("ga:pop=1")


@pytest.mark.parametrize("variant", ["merelo", "bento", "berghman"])
@pytest.mark.parametrize("size,repeats,feedback", [("4x6", True, "black-white"), ("5x8", True, "black-white"),
                                                   ("4x10", False, "black-white"), ("4x6", True, "black")])
def test_ga_wins(variant, size, repeats, feedback):
    game = Game.parse_size(size, repeats=repeats, feedback=feedback)
    strategy, records = play(game, {"variant": variant}, 6, 11, max_guesses=40)
    for record in records:
        assert record.won, str(record)
        assert len(set(record.guesses)) == record.n_guesses  # never plays a code twice
        assert record.total_evaluations > 0
    first = records[0].guesses[0]
    want = {"merelo": "aabb", "bento": "aabb", "berghman": "aabc"}[variant]
    assert game.digits(first) == pattern_code(game, want)


def test_ga_first_guesses_of_the_papers():
    assert Game.parse_size("4x6").format(Game.parse_size("4x6").index_of(pattern_code(Game.parse_size("4x6"),
                                                                                      "aabc"))) == "1123"
    game = Game.parse_size("5x8")
    assert game.format(game.index_of(pattern_code(game, "aabb"))) == "11223"


@pytest.mark.parametrize("spec, first", [("ga:variant=merelo", "1122112211"), ("ga:variant=berghman", "1121212121"),
                                         ("shc", "1122112211")])
def test_the_pattern_first_guess_starts_the_colours_again_in_a_game_with_too_few(spec, first):
    """10x2: aabb needs 5 colours and aabc 9, and the default first guesses refused the game."""
    game = Game.parse_size("10x2")
    rng = np.random.default_rng(1)
    record = play_game(game, make_strategy(spec), int(rng.integers(game.n_codes)), rng)
    assert record.won and game.format(record.guesses[0]) == first


def test_ga_plays_8x12_with_few_generations():
    game = Game.parse_size("8x12")
    for variant in ("berghman", "merelo"):
        strategy, records = play(game, {"variant": variant, "pop": "60", "generations": "20"}, 1, 4, max_guesses=60)
        assert records[0].won  # fallbacks are allowed; the game must still end


@pytest.mark.parametrize("spec", ["evo:sample=60", "ga:variant=merelo", "ga:variant=berghman"])
def test_a_search_in_short_steps_plays_the_same_games(monkeypatch, spec):
    """The evolution kernel returns to Python every ``STEP_EVALUATIONS`` fitness computations (for
    Ctrl-C, which a kernel cannot take) and evolves on from the same state: the same games, guesses,
    evaluations and generations in steps of one generation as in steps of a million computations."""
    from mmlab.strategies import evolution

    game = Game.parse_size("5x8")
    played = {}
    for step in (10**6, 1):
        monkeypatch.setattr(evolution, "STEP_EVALUATIONS", step)
        games = []
        for k in range(3):
            rng = np.random.default_rng([5, k])
            record = play_game(game, make_strategy(spec), int(rng.integers(game.n_codes)), rng)
            games.append((list(record.guesses), record.total_evaluations, record.fallbacks))
        played[step] = games
    assert played[1] == played[10**6]


class TinyOnThirdMove(GeneticAlgorithm):
    """The ga with a budget of 1 generation of 2 codes on its third move only."""

    def guess(self, knowledge):
        normal = self.search
        if len(knowledge.history) == 2:
            self.search = ConsistentSearch(pop=2, generations=1, fitness="berghman")
        try:
            return super().guess(knowledge)
        finally:
            self.search = normal


def test_tiny_budget_falls_back_and_the_game_ends():
    game = Game.parse_size("6x9")
    strategy = TinyOnThirdMove.from_raw({"variant": "berghman", "pop": "60", "generations": "30"})
    fallbacks = []
    for i in range(4):
        rng = np.random.default_rng([21, i])
        record = play_game(game, strategy, int(rng.integers(game.n_codes)), rng, max_guesses=60)
        assert record.won  # the fallback guess's answer narrows the search as usual
        fallbacks += [f for f in record.fallbacks if f[0] == 2]
    assert fallbacks, "2 codes for 1 generation should miss every consistent code of 6x9 after 2 answers"
    move, why = fallbacks[0]
    assert why.startswith("no consistent code in 1 generation; played the fittest (distance ")


def _longest_run(moves: list[int]) -> int:
    longest = run = 0
    for i, move in enumerate(moves):
        run = run + 1 if i and move == moves[i - 1] + 1 else 1
        longest = max(longest, run)
    return longest


@pytest.mark.parametrize("spec", ["evo:pop=2,generations=1,sample=5", "ga:variant=berghman,pop=2,generations=1"])
def test_a_hopeless_budget_is_rescued_after_rescue_fallbacks_in_a_row(spec):
    """2 codes for 1 generation almost never meet a consistent 8x12 code: the papers' GAs would play
    the fittest code forever (``rescue=0``); by default the constraint search takes over after 20."""
    game = Game.parse_size("8x12")
    for rescue in (0, 5, 20):
        rng = np.random.default_rng(4)
        record = play_game(game, make_strategy(f"{spec},rescue={rescue}"), int(rng.integers(game.n_codes)), rng,
                           max_guesses=60)
        moves = [move for move, _ in record.fallbacks]
        fittest = [move for move, note in record.fallbacks if note.endswith(")")]  # '... the fittest (distance d)'
        rescued = [move for move, note in record.fallbacks if note.endswith("found by constraint search")]
        assert len(fittest) + len(rescued) == len(moves)  # (every guess that fell back is one or the other)
        if rescue == 0:
            assert not record.won and moves[-58:] == list(range(2, 60))  # every guess from the third fell back
        else:
            assert record.won and _longest_run(fittest) == rescue and record.n_guesses <= rescue + 20
            assert rescued and all(set(range(move - rescue, move)) <= set(moves) for move in rescued)


def test_berghman_plays_the_eligible_code_whose_answers_split_the_others_best():
    """Berghman et al. play, of the consistent codes collected, the one with the smallest sum of
    squared class sizes of the others by their answer to it (brute force with ``answer``; the first
    found on a tie); the n(n - 1) answers computed are counted in ``scored``."""
    game = Game.parse_size("4x6")
    k = Knowledge.initial(game, explicit=False).update(game.parse("1122"), Feedback(1, 0))
    codes = np.array([game.digits(c) for c in Knowledge.initial(game).update(game.parse("1122"),
                                                                             Feedback(1, 0)).consistent[::9]],
                     dtype=np.uint8)

    def score(i):
        classes = Counter(answer(list(codes[i]), list(codes[t])) for t in range(len(codes)) if t != i)
        return sum(n * n for n in classes.values())

    scores = [score(i) for i in range(len(codes))]
    best = scores.index(min(scores))
    assert best > 0 and len(set(scores)) > 1  # the choice is not the first code, and it matters
    strategy = GeneticAlgorithm.from_raw({"variant": "berghman"})
    strategy.start(game, np.random.default_rng(0))
    strategy.search.run = lambda knowledge, rng, target: SearchResult(codes, 123, codes[0], 0, 1)
    assert strategy.guess(k) == game.index_of(codes[best])
    n = len(codes)
    assert strategy.scored == n * (n - 1) and strategy.evaluations == 123


def test_bento_fitness_changes_phase_once_an_answer_has_every_colour_right():
    """The search gives the kernel Bento's second phase when some answer has black + white = pegs
    (not only a win-like black = pegs): the fittest code's distance is the reference's."""
    game = Game.parse_size("4x6")
    history = [((0, 0, 1, 1), 1, 1), ((1, 0, 3, 2), 0, 4)]  # secret 4321: 1122 scores 1,1, 2143 scores 0,4
    k = Knowledge.initial(game, explicit=False)
    for guess, b, w in history:
        k = k.update(game.index_of(guess), Feedback(b, w))
    checked = 0
    for seed in range(6):
        result = ConsistentSearch(pop=20, fitness="bento").run(k, np.random.default_rng(seed), 1, 0)
        if result.codes.shape[0] == 0:  # (20 random codes rarely fit)
            assert result.distance == reference_distance(tuple(result.best), history, ek.DIST_BENTO)
            checked += 1
    assert checked >= 3


def test_each_variant_defaults_to_its_papers_settings():
    """Berghman, Goossens and Leus (2009): population 150, at most 100 generations a turn, an
    eligible set of up to 60 codes, first guess 1123 on 4x6, a new population each turn; Merelo et
    al. (1999): population 400, a new population after 15 barren generations, one population kept
    through the game, the first consistent code played; each turn asks the search for that many."""
    game = Game.parse_size("4x6")
    for variant, pop, generations, eligible, reset, keep, first in [("berghman", 150, 100, 60, 0, False, "1123"),
                                                                    ("merelo", 400, 1000, 1, 15, True, "1122")]:
        strategy = GeneticAlgorithm.from_raw({"variant": variant})
        strategy.start(game, np.random.default_rng(0))
        search = strategy.search
        assert (strategy.pop, strategy.generations, strategy.eligible) == (pop, generations, eligible)
        assert (search.pop, search.generations, search.reset_after, search.keep) == (pop, generations, reset, keep)
        assert game.format(strategy.guess(Knowledge.initial(game, explicit=False))) == first
        targets = []
        found = np.array([game.digits(game.parse("3456"))], dtype=np.uint8)
        search.run = lambda knowledge, rng, target, asked=targets, codes=found: asked.append(target) or SearchResult(
            codes, 1, None, 0, 1)
        strategy.guess(Knowledge.initial(game, explicit=False).update(game.parse(first), Feedback(0, 0)))
        assert targets == [eligible]


def test_reset_zero_means_never_and_minus_one_the_variants():
    """``reset=0`` never draws a new population (not the variant's 15); -1 is the variant's."""
    for reset, merelo, berghman in (("0", 0, 0), ("-1", 15, 0), ("7", 7, 7)):
        for variant, expected in (("merelo", merelo), ("berghman", berghman)):
            strategy = GeneticAlgorithm.from_raw({"variant": variant, "reset": reset})
            assert strategy.reset_after == strategy.search.reset_after == expected, (variant, reset)


def test_a_kept_population_is_drawn_anew_for_another_game():
    """``keep=True`` carries the population from one run to the next of the same game; a run on a
    game of other pegs starts from a population of its own codes."""
    search = ConsistentSearch(pop=40, generations=20, fitness="merelo", reset_after=15, keep=True)
    rng = np.random.default_rng(3)
    for size in ("4x6", "5x8", "4x6"):
        k = random_answers(Game.parse_size(size), rng, 2)
        result = search.run(k, rng, target=3)
        assert result.codes.shape[1] == k.game.pegs and all(k.fits(code) for code in result.codes)
        assert search._population.shape == (40, k.game.pegs)


def test_turns_record_the_codes_found_and_the_generations_run():
    """``GeneticAlgorithm.turns``: per turn, (consistent codes found, generations run)."""
    game = Game.parse_size("4x6")
    strategy = GeneticAlgorithm.from_raw({"variant": "berghman"})
    strategy.start(game, np.random.default_rng(0))
    codes = np.array([game.digits(game.parse(c)) for c in ("3456", "4356", "3465")], dtype=np.uint8)
    strategy.search.run = lambda knowledge, rng, target: SearchResult(codes, 1, codes[0], 0, 17)
    strategy.guess(Knowledge.initial(game, explicit=False).update(game.parse("1123"), Feedback(0, 0)))
    assert strategy.turns == [(3, 17)]
