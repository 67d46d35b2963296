"""The sampling codebreaker ``sample`` and the knowledge it draws on: listing small consistent sets
exactly (``Knowledge.list_consistent``), drawing distinct consistent codes (``sample_distinct``)."""

import numpy as np
import pytest

from mmlab.errors import BadCode, InconsistentFeedback, SearchFailed, UnknownStrategy
from mmlab.experiments import play_game
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import make_strategy
from mmlab.strategies.exhaustive import top_entropy
from mmlab.strategies.code_rows import distinct_rows
from mmlab.strategies.sample_scoring import SampleScoring, best_first_guess, colour_patterns
from mmlab.strategies.scoring import partition_stats

GAMES = [Game.parse_size("4x6"), Game.parse_size("3x5"), Game.parse_size("5x8"), Game(4, 7, repeats=False)]


def random_history(game: Game, rng: np.random.Generator, moves: int) -> tuple[Knowledge, Knowledge]:
    """The same answers as explicit knowledge (the consistent set) and implicit knowledge."""
    secret = int(rng.integers(game.n_codes))
    explicit, implicit = Knowledge.initial(game), Knowledge.initial(game, explicit=False)
    for _ in range(moves):
        guess = int(rng.integers(game.n_codes))
        fb = game.score(secret, guess)
        explicit, implicit = explicit.update(guess, fb), implicit.update(guess, fb)
    return explicit, implicit


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_listing_equals_the_consistent_set(game):
    rng = np.random.default_rng(7)
    for trial in range(25):
        explicit, implicit = random_history(game, rng, 1 + trial % 3)
        listed = implicit.list_consistent(game.n_codes, 10**8)
        assert sorted(game.index_of(d) for d in listed) == explicit.consistent.tolist()
        if explicit.n_consistent > 1:  # a limit below the set's size abandons the listing
            assert implicit.list_consistent(explicit.n_consistent - 1, 10**8) is None


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_distinct_samples_are_consistent(game):
    rng = np.random.default_rng(3)
    for trial in range(20):
        explicit, implicit = random_history(game, rng, 1 + trial % 2)
        codes, placements = implicit.sample_distinct(rng, 40)
        indices = [game.index_of(d) for d in codes]
        assert len(set(indices)) == len(indices) <= min(40, explicit.n_consistent)
        if explicit.n_consistent >= 400:  # 120 draws from a large set hardly repeat
            assert len(indices) == 40
        assert set(indices) <= set(explicit.consistent.tolist())
        assert placements > 0


def test_no_consistent_code_is_an_error():
    game = Game.parse_size("6x9")
    k = Knowledge.initial(game, explicit=False)
    k = k.update(game.parse("111111"), Feedback(0, 0)).update(game.parse("222222"), Feedback(3, 0))
    k = k.update(game.parse("333333"), Feedback(4, 0))  # 3 + 4 stones on 6 pegs
    with pytest.raises(InconsistentFeedback):
        k.sample_distinct(np.random.default_rng(0), 10)
    with pytest.raises(InconsistentFeedback, match="fits these 3 answers"):
        k.find_consistent(np.random.default_rng(0))
    assert k.list_consistent(100, 10**6).shape[0] == 0


def test_a_patient_search_that_runs_out_says_so():
    game = Game.parse_size("8x12")
    k = Knowledge.initial(game, explicit=False).update(game.parse("11223344"), Feedback(2, 2))
    code, placements = k.find_consistent(np.random.default_rng(0))
    assert k.fits(np.array(game.digits(code), dtype=np.uint8)) and placements > 0
    with pytest.raises(SearchFailed, match="within 3 placements"):
        k.find_consistent(np.random.default_rng(0), max_nodes=3)


@pytest.mark.parametrize("spec", ["sample", "sample:endgame=0,lookahead=0", "sample:sample=20", "random", "shc"])
@pytest.mark.parametrize("size", ["4x6", "6x9"])
def test_contradictory_answers_are_refused_by_name(spec, size):
    """Answers no code fits (three colours counted 0, 3 and 4 times on 6 pegs, or 1, 2 and 2 on
    4) stop the codebreaker with ``InconsistentFeedback``, whichever way it draws its sample;
    ``random`` and ``shc`` too, whose searches show it (they raised ``SearchFailed``, the error of a
    budget run out). (``evo`` cannot tell them from a GA budget too small: it plays its fittest
    code and says so.)"""
    game = Game.parse_size(size)
    k = Knowledge.initial(game, explicit=False)
    counts = (0, 3, 4) if game.pegs == 6 else (1, 2, 2)
    for colour, count in enumerate(counts):
        k = k.update(game.index_of([colour] * game.pegs), Feedback(count, 0))
    strategy = make_strategy(spec)
    strategy.start(game, np.random.default_rng(0))
    with pytest.raises(InconsistentFeedback):
        strategy.guess(k)


def test_first_guess_patterns():
    assert colour_patterns(3, 2, True) == [(0, 0, 0), (0, 0, 1)]  # (0, 1, 2) needs three colours
    assert colour_patterns(4, 10, False) == [(0, 1, 2, 3)]
    game = Game.parse_size("4x6")
    assert best_first_guess(game, "entropy") == (0, 1, 2, 3)  # Neuwirth's 1234
    assert best_first_guess(game, "most-parts") == (0, 0, 1, 2)  # Kooi's 1123
    assert best_first_guess(game, "largest") == (0, 0, 1, 1)  # Knuth's 1122


def test_whole_consistent_set_scores_like_the_exhaustive_strategy():
    """When the set fits in the sample it is scored whole, so the pick is an exhaustive top scorer
    (with the exact endgame and the look-ahead off)."""
    game = Game.parse_size("4x6")
    rng = np.random.default_rng(11)
    strategy = make_strategy("sample:pool=consistent,sample=1296,ties=first,endgame=0,lookahead=0")
    strategy.start(game, rng)
    for _ in range(20):
        explicit, implicit = random_history(game, rng, 2)
        if explicit.n_consistent < 2:
            continue
        pick = strategy.guess(implicit)
        stats = partition_stats(explicit, explicit.consistent)
        assert pick in set(explicit.consistent[top_entropy(stats)].tolist())


@pytest.mark.parametrize("size,spec", [("4x6", "sample"), ("5x8", "sample:score=most-parts"),
                                       ("6x9", "sample:sample=200,score=expected"), ("8x12", "sample:sample=150"),
                                       ("4x6", "sample:score=largest,pool=consistent")])
def test_games_are_won(size, spec):
    game = Game.parse_size(size)
    rng = np.random.default_rng(5)
    for i in range(3):
        secret = game.index_of(rng.integers(game.colours, size=game.pegs))
        record = play_game(game, make_strategy(spec), secret, np.random.default_rng([5, i]))
        assert record.won and record.n_guesses <= 3 * game.pegs
        if "consistent" in spec:  # every guess fits the answers before it
            k = Knowledge.initial(game)
            for g, fb in zip(record.guesses, record.feedbacks, strict=True):
                assert k.is_consistent(g)
                k = k.update(g, fb) if fb != game.win else k


@pytest.mark.parametrize("game", [Game(4, 10, repeats=False), Game(5, 8, feedback="black")], ids=str)
def test_variants(game):
    rng = np.random.default_rng(2)
    for i in range(3):
        secret = int(rng.integers(game.n_codes))
        assert play_game(game, make_strategy("sample:sample=300"), secret, np.random.default_rng([2, i])).won


def test_no_endgame_or_look_ahead_with_black_pegs_only():
    strategy = make_strategy("sample")
    for feedback, planned in (("black-white", (100, 10)), ("black", (0, 0))):
        game = Game(4, 6, feedback=feedback)
        assert (strategy.planning("endgame", game), strategy.planning("lookahead", game)) == planned
    assert make_strategy("evo").planning("endgame", Game(4, 6)) == 0


@pytest.mark.parametrize("spec,message", [
    ("sample:sample=0", "sample='0'"),
    ("sample:score=best", "score"),
    ("sample:endgame=257", "endgame=257 is out of range; it must be from 0 to 256"),
    ("sample:lookahead=-1", "lookahead=-1 is out of range"),
    ("sample:part=257", "part=257 is out of range; it must be from 3 to 256"),
    ("sample:finalists=0", "finalists=0 is out of range"),
    ("sample:others=201", "others=201 is out of range; it must be from 0 to 200"),
])
def test_bad_parameters_are_refused(spec, message):
    with pytest.raises(UnknownStrategy, match=message):
        make_strategy(spec)


@pytest.mark.parametrize("name", ["sample", "evo"])
def test_first_random_which_shc_and_ga_offer_is_refused_by_name(name):
    """It was refused as a code: "code 'random' has 6 pegs, the 4x6 game needs 4"."""
    with pytest.raises(BadCode, match=f"^{name}: first=random is not a first guess of 4x6: {name} takes a code, or first empty"):
        make_strategy(f"{name}:first=random").start(Game.parse_size("4x6"), np.random.default_rng(0))


def test_the_sample_size_may_be_given_as_a_number_from_python():
    assert SampleScoring(sample=200).spec == make_strategy("sample:sample=200").spec == "sample:sample=200"
    with pytest.raises(UnknownStrategy, match="sample='0'"):
        SampleScoring(sample=0)
    for size in ("100000000", "9" * 5000):  # 8x12 could not play the first; int() cannot read the second
        with pytest.raises(UnknownStrategy, match="should be a whole number from 1 to 1,000,000, or auto"):
            make_strategy(f"sample:sample={size}")



def test_evo_plays_the_consistent_codes_its_ga_finds():
    game = Game.parse_size("5x8")
    rng = np.random.default_rng(4)
    for i in range(3):
        secret = game.index_of(rng.integers(game.colours, size=game.pegs))
        record = play_game(game, make_strategy("evo"), secret, np.random.default_rng([4, i]))
        assert record.won and not record.fallbacks
        k = Knowledge.initial(game)
        for g, fb in zip(record.guesses, record.feedbacks, strict=True):
            assert k.is_consistent(g)
            k = k.update(g, fb) if fb != game.win else k


def test_evo_out_of_budget_plays_the_fittest_code_and_says_so():
    game = Game.parse_size("4x6")
    record = play_game(game, make_strategy("evo:pop=2,generations=1,sample=5"), game.parse("3456"),
                       np.random.default_rng(0), max_guesses=200)
    assert record.won
    assert record.fallbacks and all("no consistent code in" in why for _, why in record.fallbacks)
    k = Knowledge.initial(game)
    flagged = {move for move, _ in record.fallbacks}
    for move, (g, fb) in enumerate(zip(record.guesses, record.feedbacks, strict=True)):
        if not k.is_consistent(g):
            assert move in flagged  # every inconsistent guess is in the record
        k = k.update(g, fb) if fb != game.win else k


def test_ranking_orders_by_each_score():
    from mmlab.strategies.sample_scoring import ranking

    # columns: largest, sum of squares, parts, entropy
    stats = np.array([[5, 40, 3, 1.2], [4, 30, 4, 1.5], [6, 50, 4, 1.5], [3, 20, 2, 1.0]], dtype=float)
    assert ranking(stats, "entropy")[0] in (1, 2)
    assert ranking(stats, "largest").tolist() == [3, 1, 0, 2]
    assert ranking(stats, "expected").tolist() == [3, 1, 0, 2]
    assert ranking(stats, "most-parts")[:2].tolist() in ([1, 2], [2, 1])
    stats[2, 2] = 5  # plus2: equal entropy, more parts first
    assert ranking(stats, "plus2")[:2].tolist() == [2, 1]


@pytest.mark.parametrize("score", ["entropy", "most-parts", "expected", "largest", "plus2"])
def test_ranking_puts_a_top_scorer_first_despite_float_noise(score):
    """Scores equal but for float noise (below the tie tolerance) are ties, as the exhaustive
    strategies' selectors count them: the ranking's first row is one of their top scorers."""
    from mmlab.strategies.sample_scoring import SCORES, ranking

    rng = np.random.default_rng(5)
    for _ in range(50):
        stats = rng.integers(1, 4, size=(30, 4)).astype(float)
        stats[:, 3] += rng.normal(scale=1e-12, size=30)  # entropies: three values, each with noise
        assert SCORES[score](stats)[ranking(stats, score)[0]]


@pytest.mark.parametrize("spec,finalists", [("sample:sample=50,pool=consistent", 40),
                                             ("sample:sample=50,pool=consistent,finalists=7", 7),
                                             ("sample:sample=50,pool=consistent,finalists=5000", 50)])
def test_finalists_are_rescored_on_the_larger_reference(spec, finalists):
    """With a sample smaller than the consistent set, the ``finalists`` best codes of the sample's
    scoring (40 by default; at most every candidate) are scored again against REFERENCE_FACTOR
    samples' worth of consistent codes before the pick."""
    from mmlab.strategies.sample_scoring import REFERENCE_FACTOR

    game = Game.parse_size("5x8")
    rng = np.random.default_rng(9)
    explicit, implicit = random_history(game, rng, 1)
    assert explicit.n_consistent > REFERENCE_FACTOR * 50
    strategy = make_strategy(spec)
    strategy.start(game, rng)
    calls = []
    score = strategy.score_against
    strategy.score_against = lambda cands, sample: calls.append((cands.shape[0], sample.shape[0])) or score(cands,
                                                                                                            sample)
    guess = strategy.guess(implicit)
    assert calls == [(50, 50), (finalists, REFERENCE_FACTOR * 50)]
    assert explicit.is_consistent(guess)


def test_candidates_are_scored_once_and_finalists_are_distinct():
    """With ``pool=all`` the climb scores only codes it has not scored yet, changes each parent
    once, and the ``finalists`` rescored are that many distinct codes."""
    from mmlab.strategies.sample_scoring import CLIMB_ROUNDS, REFERENCE_FACTOR

    game = Game.parse_size("5x8")
    rng = np.random.default_rng(9)
    _, implicit = random_history(game, rng, 1)
    strategy = make_strategy("sample:sample=50")
    strategy.start(game, rng)
    scored = []
    score = strategy.score_against
    strategy.score_against = lambda cands, sample: scored.append((cands.copy(), sample.shape[0])) or score(cands,
                                                                                                          sample)
    strategy.guess(implicit)
    on_sample = np.vstack([cands for cands, n in scored if n == 50])
    assert len(scored) == 2 + CLIMB_ROUNDS and distinct_rows(on_sample).shape[0] == on_sample.shape[0]
    finalists, n = scored[-1]
    assert n == REFERENCE_FACTOR * 50 and distinct_rows(finalists).shape[0] == finalists.shape[0] == 40


def test_evaluation_counts_fallback_guesses():
    from mmlab.experiments.evaluation import evaluate

    game = Game.parse_size("4x6")
    tight = evaluate(game, "evo:pop=2,generations=1,sample=5", secrets=5, seed=1)
    assert tight.fallbacks > 0 and tight.to_dict()["fallback_guesses"] == tight.fallbacks
    assert evaluate(game, "sample:sample=50", secrets=5, seed=1).fallbacks == 0


def test_the_pilot_skips_only_listings_that_would_fail():
    """The pilot draw says "too many" after one answer at 8x12 (about 10⁷ codes fit) and never on a
    set the listing keeps; the listing then fails where it skips."""
    from mmlab.strategies.sample_scoring import LIST_FACTOR, LIST_NODES

    game = Game.parse_size("8x12")
    strategy = make_strategy("sample")
    strategy.start(game, np.random.default_rng(0))
    limit = LIST_FACTOR * strategy.sample_size
    secret = game.parse("1 2 3 4 5 6 7 8")
    k = Knowledge.initial(game, explicit=False)
    skips = []
    for guess in ("1 1 2 2 3 3 4 5", "5 6 6 7 7 8 8 9", "1 2 9 10 11 12 3 4"):
        k = k.update(game.parse(guess), game.score(secret, game.parse(guess)))
        skips.append(strategy.too_many_to_list(k, limit))
        if skips[-1]:
            assert k.list_consistent(limit, LIST_NODES) is None
    assert skips[0] and not skips[-1]
    assert k.list_consistent(limit, LIST_NODES) is not None


def test_the_pilot_leaves_play_unchanged(monkeypatch):
    """The pilot draws from its own fixed seed, so a game plays the same guesses without it."""
    import mmlab.strategies.sample_scoring as sample_scoring

    game = Game.parse_size("8x12")
    secret = game.parse("3 1 4 1 5 9 2 6")
    with_pilot = play_game(game, make_strategy("sample"), secret, np.random.default_rng(4)).guesses
    monkeypatch.setattr(sample_scoring, "PILOT_DRAWS", 0)
    without = play_game(game, make_strategy("sample"), secret, np.random.default_rng(4)).guesses
    assert with_pilot == without


def test_evo_sample_help_says_what_it_takes():
    """'mmlab strategies evo' showed sample as '60 ... or auto', with no range and no word on auto."""
    help_text = next(p.help for p in make_strategy("evo").params if p.name == "sample")
    assert "from 1 to 1,000,000, or auto (1000, or every code of a smaller game)" in help_text
    for size, codes in (("3x3", 27), ("4x6", 1000)):
        strategy = make_strategy("evo:sample=auto")
        strategy.start(Game.parse_size(size), np.random.default_rng(0))
        assert strategy.sample_size == codes


@pytest.mark.parametrize("ties", ["first", "random"])
def test_a_consistent_top_scorer_is_played_before_an_inconsistent_one(ties):
    """With ``pool=all``, of finalists that score the same, a consistent one is played (it may win
    at once): the inconsistent 1111 comes first and ties with the consistent 1233 here."""
    game = Game.parse_size("4x6")
    k = Knowledge.initial(game).update(game.parse("1122"), Feedback(1, 1))
    inconsistent, consistent = game.parse("1111"), game.parse("1233")
    assert not k.is_consistent(inconsistent) and k.is_consistent(consistent)
    strategy = make_strategy(f"sample:endgame=0,lookahead=0,ties={ties}")
    strategy.start(game, np.random.default_rng(0))
    rows = np.array([game.digits(inconsistent), game.digits(consistent)], dtype=np.uint8)
    stats = np.tile([10.0, 200.0, 9.0, 2.5], (2, 1))
    strategy.scored_finalists = lambda reference: (rows, stats)
    for _ in range(5):
        assert strategy.guess(k) == consistent
    assert strategy.last_choice.codes.tolist() == [consistent]


def test_random_ties_draw_uniformly_among_the_consistent_top_scorers():
    """``ties=random`` draws each of the tied consistent finalists equally often (here 1233 and
    1244 after 1122 scored 1,1), ``ties=first`` plays the first found; a worse finalist never."""
    game = Game.parse_size("4x6")
    k = Knowledge.initial(game).update(game.parse("1122"), Feedback(1, 1))
    codes = [game.parse("1233"), game.parse("1244"), game.parse("1255")]
    assert all(k.is_consistent(c) for c in codes)
    rows = np.array([game.digits(c) for c in codes], dtype=np.uint8)
    stats = np.array([[10.0, 200.0, 9.0, 2.5], [10.0, 200.0, 9.0, 2.5], [10.0, 200.0, 9.0, 2.0]])
    draws = {}
    for ties in ("first", "random"):
        strategy = make_strategy(f"sample:endgame=0,lookahead=0,ties={ties}")
        strategy.start(game, np.random.default_rng(1))
        strategy.scored_finalists = lambda reference: (rows, stats)
        draws[ties] = [strategy.guess(k) for _ in range(400)]
    assert set(draws["first"]) == {codes[0]}
    assert set(draws["random"]) == set(codes[:2]) and 150 < draws["random"].count(codes[0]) < 250  # sd 10


def test_the_climb_changes_each_parent_once(monkeypatch):
    """``pool=all``: each round of the climb takes one-peg changes of the best codes not changed yet;
    a code changed in one round is never a parent again."""
    from mmlab.strategies import sample_scoring
    from mmlab.strategies.sample_scoring import CLIMB_PARENTS, CLIMB_ROUNDS

    game = Game.parse_size("5x8")
    rng = np.random.default_rng(9)
    _, implicit = random_history(game, rng, 1)
    parents = []
    changes = sample_scoring.one_peg_changes
    monkeypatch.setattr(sample_scoring, "one_peg_changes",
                        lambda codes, g: parents.append(codes.copy()) or changes(codes, g))
    strategy = make_strategy("sample:sample=50")
    strategy.start(game, rng)
    strategy.guess(implicit)
    rows = [tuple(row) for batch in parents for row in batch.tolist()]
    assert len(parents) == CLIMB_ROUNDS and len(rows) == CLIMB_ROUNDS * CLIMB_PARENTS == len(set(rows))


def test_a_listing_of_exactly_the_reference_size_is_the_whole_set():
    """230 codes fit 1123 scored 1,1 on 4x6: asked for 230 (5 samples of 46) they are the whole
    consistent set, and the endgame and look-ahead may use them; asked for 229 they are not."""
    game = Game.parse_size("4x6")
    k = Knowledge.initial(game, explicit=False).update(game.parse("1123"), Feedback(1, 1))
    strategy = make_strategy("sample:sample=46")
    strategy.start(game, np.random.default_rng(0))
    codes, whole = strategy.consistent_sample(k, 230)
    assert codes.shape == (230, 4) and whole and distinct_rows(codes).shape[0] == 230
    codes, whole = strategy.consistent_sample(k, 229)
    assert codes.shape == (229, 4) and not whole


@pytest.mark.parametrize("found, skip", [(199, False), (200, True)])
def test_the_pilot_skips_the_listing_only_when_it_finds_every_code_it_looks_for(monkeypatch, found, skip):
    """The listing is skipped only when the pilot finds all PILOT_FOUND (200) consistent codes in its
    draws; 199 found means the set may be small enough to list."""
    from mmlab.strategies.sample_scoring import PILOT_FOUND

    assert PILOT_FOUND == 200
    game = Game.parse_size("8x12")
    k = Knowledge.initial(game, explicit=False).update(game.parse("1 1 2 2 3 3 4 4"), Feedback(1, 2))
    monkeypatch.setattr(Knowledge, "draw_uniform",
                        lambda self, rng, n, max_draws: (np.zeros((found, 8), np.uint8), 7))
    strategy = make_strategy("sample")
    strategy.start(game, np.random.default_rng(0))
    assert strategy.too_many_to_list(k, 500_000) is skip and strategy.evaluations == 7


def test_evo_plays_the_one_code_left_without_scoring_it():
    """With one consistent code left (2112 after 1122 and 1212 scored 2,2 and 1221 scored 0,4),
    the code the GA finds is played at once: nothing is scored against a sample of one."""
    game = Game.parse_size("4x6")
    k = Knowledge.initial(game, explicit=False)
    for guess, fb in (("1122", Feedback(2, 2)), ("1212", Feedback(2, 2)), ("1221", Feedback(0, 4))):
        k = k.update(game.parse(guess), fb)
    assert k.count_consistent(10, 10**6) == (1, True)
    strategy = make_strategy("evo")
    strategy.start(game, np.random.default_rng(0))
    strategy.score_against = lambda candidates, sample: pytest.fail("scored a sample of one code")
    assert game.format(strategy.guess(k)) == "2112"


@pytest.mark.parametrize("endgame, called", [(105, True), (104, False)])
def test_the_exact_endgame_takes_a_whole_set_of_up_to_its_size(monkeypatch, endgame, called):
    """``endgame=N``: a consistent set known whole with 2 to N codes is finished by the exact endgame,
    N included (4x6 after 1123 -> 2,0 leaves 105 codes)."""
    game = Game.parse_size("4x6")
    k = Knowledge.initial(game).update(game.parse("1123"), Feedback(2, 0))
    assert k.n_consistent == 105
    strategy = make_strategy(f"sample:endgame={endgame}")
    strategy.start(game, np.random.default_rng(0))
    sets: list[int] = []
    monkeypatch.setattr(strategy, "endgame_guess", lambda knowledge, reference: sets.append(reference.shape[0]))
    strategy.guess(k)
    assert sets == ([105] if called else [])


def test_pool_all_climbs_from_the_best_codes_of_its_first_pool(monkeypatch):
    """``pool=all`` scores the sample and as many random codes, then (``CLIMB_ROUNDS``) every
    one-peg change of the ``CLIMB_PARENTS`` best: with the random codes made the sample's own, the
    ten best codes of the sample have each of their one-peg changes among the candidates."""
    from mmlab.strategies import sample_scoring
    from mmlab.strategies.code_rows import sample_stats
    from mmlab.strategies.sample_scoring import CLIMB_PARENTS, ranking

    game = Game.parse_size("5x8")
    rng = np.random.default_rng(3)
    sample = distinct_rows(game.all_digits[rng.choice(game.n_codes, size=40, replace=False)].astype(np.uint8))
    monkeypatch.setattr(sample_scoring, "random_codes", lambda game, rng, n: sample.copy())
    strategy = make_strategy("sample:pool=all")
    strategy.start(game, np.random.default_rng(0))
    candidates, stats = strategy.candidate_pool(sample)
    best = sample[ranking(sample_stats(sample, sample, game.colours, True), "entropy")[:CLIMB_PARENTS]]
    changes = {tuple(code[:peg]) + (colour,) + tuple(code[peg + 1:])
               for code in best.tolist() for peg in range(5) for colour in range(8) if colour != code[peg]}
    assert CLIMB_PARENTS == 10 and len(changes) > 300  # (10 x 5 pegs x 7 colours, a few shared)
    assert changes <= set(map(tuple, candidates.tolist())) and stats.shape[0] == candidates.shape[0]


def test_after_the_exact_endgame_runs_out_the_game_searches_only_sets_half_as_large(monkeypatch):
    """Once the endgame's search runs out of nodes, the look-ahead plays, and the game's next sets are
    not searched until they hold at most half as many codes (``ENDGAME_RETRY``): with few pegs and
    many colours they shrink by a code or two a turn, each search running out in turn (2x36: 0.5 s
    a turn). A new game searches again."""
    from mmlab.strategies import sample_scoring

    searched: list[int] = []

    def run_out(table, win, max_nodes=0):  # the search runs out of nodes: None
        searched.append(table.shape[1])

    monkeypatch.setattr(sample_scoring, "solve_endgame", run_out)
    game = Game.parse_size("2x36")
    strategy = make_strategy("sample")
    games = []
    for secret in (7 * 36 + 9, 20 * 36 + 9):
        searched.clear()
        assert play_game(game, strategy, secret, np.random.default_rng(secret)).won
        games.append(list(searched))
        assert len(searched) >= 2
        for k, n in enumerate(searched[1:], 1):
            assert n <= searched[k - 1] * sample_scoring.ENDGAME_RETRY
    assert games[1][0] > games[0][-1] * sample_scoring.ENDGAME_RETRY
