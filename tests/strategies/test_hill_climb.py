"""The stochastic hill climber ``shc`` (001): the response order, the induction kernel against an
exact pure-Python reference of its law, parameters and errors, whole games, and 001's figures."""

from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations
from math import comb, perm, sqrt

import numpy as np
import pytest

from mmlab.errors import BadCode, BadFeedback, InconsistentFeedback, SearchFailed, UnknownStrategy
from mmlab.experiments import evaluate
from mmlab.experiments.playout import play_game
from mmlab.game import Feedback, Game
from mmlab.knowledge import Knowledge
from mmlab.strategies import hill_climb_kernels as hk
from mmlab.strategies import make_strategy
from mmlab.strategies.hill_climb import (
    RECENT,
    StochasticHillClimber,
    aabb_code,
    response_order,
    response_rank,
)

# ----------------------------------------------------------------- response order (001 section 3.2)

# Verbatim from 001 section 3.2 (4 pegs, then 5 pegs), in increasing distance-to-goal value.
PAPER_ORDER_4 = "[0,0] [0,1] [1,0] [0,2] [1,1] [2,0] [0,3] [1,2] [2,1] [3,0] [0,4] [1,3] [2,2] [4,0]"
PAPER_ORDER_5 = ("[0,0] [0,1] [1,0] [0,2] [1,1] [2,0] [0,3] [1,2] [2,1] [3,0] [0,4] [1,3] [2,2] [3,1] [4,0] "
                 "[0,5] [1,4] [2,3] [3,2] [5,0]")


def parse_order(text: str) -> list[Feedback]:
    return [Feedback(*map(int, item.strip("[]").split(","))) for item in text.split()]


@pytest.mark.parametrize("pegs, text", [(4, PAPER_ORDER_4), (5, PAPER_ORDER_5)])
def test_response_order_matches_the_paper(pegs, text):
    """001 section 3.2: the lists for 4 and 5 pegs, values 0..13 and 0..19."""
    expected = parse_order(text)
    assert response_order(pegs) == expected
    assert [response_rank(b, w, pegs) for b, w in expected] == list(range(len(expected)))


@pytest.mark.parametrize("pegs", range(1, 11))
def test_response_order_any_peg_count(pegs):
    """P(P+3)/2 answers (001 section 3.2), ranks 0..n-1, sorted by b+w then b, the win last."""
    order = response_order(pegs)
    assert len(order) == pegs * (pegs + 3) // 2
    assert sorted(response_rank(b, w, pegs) for b, w in order) == list(range(len(order)))
    assert order[-1] == Feedback(pegs, 0) and order[0] == Feedback(0, 0)
    rest = order[:-1]
    assert rest == sorted(rest, key=lambda fb: (fb.black + fb.white, fb.black))


@pytest.mark.parametrize("black, white", [(3, 1), (2, 3), (-1, 0)])
def test_response_rank_refuses_impossible_answers(black, white):
    with pytest.raises(BadFeedback):
        response_rank(black, white, 4)


# ----------------------------------------------------------------- FPS weights (001 section 3.4)

def test_fps_weights_worked_example():
    """001 section 3.4: CFG 3155, partial guess 515x, F=45 gives weights summing to 366, and the
    roulette number 324 picks colour 6."""
    weights = hk.fps_weights(np.arange(6), np.array([1, 0, 1, 0, 2, 0]), np.array([1, 0, 0, 0, 2, 0]), 45)
    assert weights.tolist() == [55, 100, 1, 100, 10, 100]
    assert weights.sum() == 366
    assert int(np.searchsorted(np.cumsum(weights), 324)) + 1 == 6


# ----------------------------------------------------------------- induction (001 section 3.1)

def reference_weights(cfg, partial, pool, selection, fps):
    """FPS weights (001 3.4) or uniform weights of the pool colours, as a dict colour -> weight."""
    if selection == hk.SEL_RANDOM:
        return {c: 1 for c in pool}
    k, p = Counter(cfg), Counter(partial)
    return {c: max(1, 100 - (100 * k[c] - 100 * p[c] + fps * p[c])) for c in pool}


def reference_law(cfg, b, w, pool, selection=hk.SEL_FPS, fps=45, per_peg=False, avoid_same=False):
    """The exact law of ``induce``, by enumerating every random choice: b kept positions
    (uniform set), w moved positions in a uniform order, each moved to a uniform free position
    other than its own (preferring another CFG colour with ``avoid_same``), dead ends redrawn
    from scratch; then the free positions, left to right, get pool colours by weight."""
    pegs = len(cfg)
    law: Counter = Counter()
    for keep in combinations(range(pegs), b):
        rest = [i for i in range(pegs) if i not in keep]
        for moved in permutations(rest, w):
            start = Fraction(1, comb(pegs, b) * perm(pegs - b, w))
            paths = [([cfg[i] if i in keep else None for i in range(pegs)], start)]
            for src in moved:
                nxt = []
                for new, pr in paths:
                    free = [j for j in range(pegs) if new[j] is None and j != src]
                    if avoid_same and any(cfg[j] != cfg[src] for j in free):
                        free = [j for j in free if cfg[j] != cfg[src]]
                    for j in free:
                        nxt.append((new[:j] + [cfg[src]] + new[j + 1:], pr / len(free)))
                paths = nxt  # a path with no free position is a dead end and disappears
            for new, pr in paths:
                for code, q in reference_fill(cfg, new, pool, selection, fps, per_peg):
                    law[code] += pr * q
    total = sum(law.values())
    return {code: q / total for code, q in law.items()}


def reference_fill(cfg, new, pool, selection, fps, per_peg):
    slots = [j for j in range(len(new)) if new[j] is None]
    if not slots:
        return [(tuple(new), Fraction(1))]
    partial = [c for c in new if c is not None]
    weights = reference_weights(cfg, partial, pool, selection, fps)
    out = []
    for colour in pool:
        pr = Fraction(weights[colour], sum(weights.values()))
        filled = new[:slots[0]] + [colour] + new[slots[0] + 1:]
        if per_peg:
            rest = reference_fill(cfg, filled, pool, selection, fps, per_peg)
        else:  # weights fixed by the kept and moved pegs: fill the other slots independently
            rest = [(tuple(filled), Fraction(1))]
            for j in slots[1:]:
                rest = [(code[:j] + (c,) + code[j + 1:], q * Fraction(weights[c], sum(weights.values())))
                        for code, q in rest for c in pool]
        out += [(code, pr * q) for code, q in rest]
    return out


INDUCTION_CASES = [
    # (CFG, b, w, pool, selection, per_peg, avoid_same)
    ("1233", 1, 2, "123456", hk.SEL_FPS, False, False),  # 001 Figure 1
    ("3155", 2, 1, "123456", hk.SEL_FPS, False, False),  # 001 Figure 2
    ("1234", 0, 4, "123456", hk.SEL_FPS, False, False),  # all moved: dead ends
    ("1122", 0, 2, "3456", hk.SEL_RANDOM, False, False),  # colours 1, 2 taboo
    ("1123", 1, 0, "123456", hk.SEL_FPS, True, False),  # FPS recomputed after each mutated peg (O8)
    ("3155", 1, 2, "123456", hk.SEL_FPS, False, True),  # moves avoid the CFG's colour (O5b)
]


@pytest.mark.parametrize("cfg, b, w, pool, selection, per_peg, avoid_same", INDUCTION_CASES)
def test_induce_kernel_follows_the_reference_law(cfg, b, w, pool, selection, per_peg, avoid_same):
    """200 000 kernel draws against the exact law: a chi-square far beyond chance would fail."""
    cfg_d = tuple(int(c) - 1 for c in cfg)
    pool_d = [int(c) - 1 for c in pool]
    law = reference_law(cfg_d, b, w, pool_d, selection, 45, per_peg, avoid_same)
    n = 200_000
    codes = hk.induce_many(np.array(cfg_d), b, w, np.array(pool_d), selection, 45, per_peg, avoid_same, n, 12345)
    seen = Counter(map(tuple, codes.tolist()))
    assert set(seen) <= set(law)
    big = [c for c in law if n * law[c] >= 5]
    chi2 = sum((seen[c] - n * float(law[c])) ** 2 / (n * float(law[c])) for c in big)
    small_expected = n * float(sum(law[c] for c in law if c not in big))
    small_seen = sum(seen[c] for c in law if c not in big)
    if small_expected > 0:
        chi2 += (small_seen - small_expected) ** 2 / small_expected
    df = len(big) - (0 if small_expected > 0 else 1)
    assert chi2 < df + 6 * sqrt(2 * df), (chi2, df)


def test_induction_keeps_b_pegs_and_carries_w_colours():
    """Every induced code has at least b pegs of the CFG in place, and at least b + w of the CFG's
    colours (the kept and moved pegs); mutated pegs take pool colours."""
    rng = np.random.default_rng(4)
    for _ in range(200):
        pegs, colours = int(rng.integers(2, 9)), int(rng.integers(2, 13))
        cfg = rng.integers(colours, size=pegs)
        b = int(rng.integers(pegs + 1))
        w = int(rng.integers(pegs - b + 1))
        if (b, w) == (pegs - 1, 1):
            continue  # an impossible answer
        pool = np.flatnonzero(rng.random(colours) < 0.7)
        if pool.shape[0] == 0:
            pool = np.arange(colours)
        codes = hk.induce_many(cfg, b, w, pool, int(rng.integers(2)), 45, False, False, 50, int(rng.integers(2**31)))
        k = Counter(cfg.tolist())
        for code in codes:
            assert (code == cfg).sum() >= b
            carried = Counter(code.tolist())
            assert sum(min(k[c], carried[c]) for c in k) >= b + w
            assert all(c in k or c in pool for c in code)


# ----------------------------------------------------------------- parameters and errors

def test_spec_defaults_and_flags():
    s = StochasticHillClimber()
    assert s.spec == "shc"
    assert s.values == {"tracker": "on", "selection": "fps", "fps": 45, "replace": "better", "first": "aabb"}
    assert not s.deterministic and not s.needs_enumeration and not s.tracks_consistent_set
    assert StochasticHillClimber.from_raw({"fps": "60", "replace": "equal"}).spec == "shc:fps=60,replace=equal"


@pytest.mark.parametrize("raw", [{"fps": "0"}, {"fps": "101"}, {"fps": "-3"}])
def test_fps_out_of_range(raw):
    with pytest.raises(UnknownStrategy, match=r"fps=-?\d+ is out of range.*1 to 100"):
        StochasticHillClimber.from_raw(raw)


@pytest.mark.parametrize("raw, word", [({"selection": "best"}, "selection"), ({"tracker": "yes"}, "tracker"),
                                       ({"replace": "worse"}, "replace"), ({"fps": "x"}, "fps"),
                                       ({"pool": "all"}, "pool")])
def test_bad_parameters(raw, word):
    with pytest.raises(UnknownStrategy, match=word):
        StochasticHillClimber.from_raw(raw)


@pytest.mark.parametrize("size, expected", [("2x6", "11"), ("3x6", "112"), ("4x6", "1122"), ("5x8", "11223"),
                                            ("6x8", "112233"), ("10x20", "1 1 2 2 3 3 4 4 5 5")])
def test_aabb_first_guess(size, expected):
    game = Game.parse_size(size)
    assert game.format(game.index_of(aabb_code(game))) == expected


@pytest.mark.parametrize("size, expected", [("5x2", "11221"), ("7x3", "1122331")])
def test_aabb_first_guess_starts_the_colours_again_in_a_game_with_too_few(size, expected):
    """The default first guess refused these games (aabb needs 3 and 4 colours)."""
    game = Game.parse_size(size)
    assert game.format(game.index_of(aabb_code(game))) == expected


@pytest.mark.parametrize("game", [Game(1, 6), Game(4, 6, repeats=False), Game(4, 10, repeats=False)])
def test_aabb_first_guess_without_pairs_is_all_colours_different(game):
    """A game of one peg, or without repeated colours, has no pairs: the default first guess is
    123..., as ga's first=aabb, so the default spec plays there (it used to be refused)."""
    record = play_game(game, StochasticHillClimber(), game.n_codes - 1, np.random.default_rng(0))
    assert record.won and game.digits(record.guesses[0]) == tuple(range(game.pegs))


@pytest.mark.parametrize("spec", ["shc:first=12345", "ga:first=12345"])
def test_a_bad_first_code_names_the_strategy_and_parameter(game46, spec):
    name = spec.split(":")[0]
    with pytest.raises(BadCode, match=f"^{name}: first=12345 is not a first guess of 4x6: .*5 pegs"):
        make_strategy(spec).start(game46, np.random.default_rng(0))


def test_first_guess_options(game46):
    rng = np.random.default_rng(0)
    s = StochasticHillClimber(first="3456")
    s.start(game46, rng)
    assert game46.format(s.guess(Knowledge.initial(game46))) == "3456"
    with pytest.raises(BadCode):
        StochasticHillClimber(first="12").start(game46, rng)
    firsts = set()
    for seed in range(20):
        s = StochasticHillClimber(first="random")
        s.start(game46, np.random.default_rng(seed))
        firsts.add(s.guess(Knowledge.initial(game46)))
    assert len(firsts) > 10


# ----------------------------------------------------------------- whole games

def play(game, spec=None, secret=None, seed=0, **switches):
    s = StochasticHillClimber.from_raw(spec or {})
    for key, value in switches.items():
        setattr(s, key, value)
    rng = np.random.default_rng([seed])
    if secret is None:
        secret = int(rng.integers(game.n_codes))
    return play_game(game, s, secret, rng), s


@pytest.mark.parametrize("spec", [{}, {"tracker": "off"}, {"selection": "random"}, {"replace": "equal"},
                                  {"first": "random", "fps": "1"}, {"fps": "100"}])
def test_wins_4x6_games(game46, spec):
    for seed in range(100):
        record, s = play(game46, spec, seed=seed)
        assert record.won and record.n_guesses <= 12
        assert record.evaluations[0] == 0  # the first guess is not checked
        assert all(e >= 1 for e in record.evaluations[1:])  # every later guess was checked
        if spec.get("tracker", "on") == "on":
            assert s.evaluations <= s.attempts and s.evaluations < game46.n_codes
        else:
            assert s.evaluations == s.attempts
        # every guess after the first fits every earlier answer (a consistent-guess strategy)
        for i, g in enumerate(record.guesses[1:], 1):
            assert all(game46.score(g, h) == fb for h, fb in zip(record.guesses[:i], record.feedbacks[:i], strict=True))


def test_reproducible_from_the_seed(game46):
    a, sa = play(Game.parse_size("6x8"), seed=11)
    b, sb = play(Game.parse_size("6x8"), seed=11)
    c, _ = play(Game.parse_size("6x8"), seed=12)
    assert a.guesses == b.guesses and a.evaluations == b.evaluations and sa.attempts == sb.attempts
    assert a.guesses != c.guesses


def test_a_long_search_in_short_steps_plays_the_same_games(monkeypatch):
    """The kernel returns to Python every ``STEP_ATTEMPTS`` candidates (for Ctrl-C, which a kernel
    cannot take: a 10x36 guess went on for minutes) and draws on from the same generator state: the
    same games, evaluations and draws in steps of 7 as in steps of a million (checked after 1000)."""
    from mmlab.strategies import hill_climb

    monkeypatch.setattr(hill_climb, "CHECK_AFTER", 1000)  # (then a guess draws for longer than a check)
    budgets: list[int] = []
    search = hk.search

    def watched(*args):
        budgets.append(args[-1])
        return search(*args)

    monkeypatch.setattr(hk, "search", watched)
    game = Game.parse_size("6x9")
    played = {}
    for step in (10**6, 7):
        monkeypatch.setattr(hill_climb, "STEP_ATTEMPTS", step)
        budgets.clear()
        games = []
        for k in range(6):
            s = StochasticHillClimber()
            result = play_game(game, s, int(np.random.default_rng(k).integers(game.n_codes)), np.random.default_rng(k))
            games.append((list(result.guesses), result.total_evaluations, s.attempts))
        played[step] = games
        assert max(budgets) <= step
    assert played[7] == played[10**6]
    assert sum(attempts for *_, attempts in played[7]) > 6 * 1000  # (some guesses drew past the check)


def test_explicit_and_implicit_knowledge_give_the_same_game(game46):
    secret = game46.parse("2413")
    runs = []
    for explicit in (True, False):
        s = StochasticHillClimber()
        s.start(game46, np.random.default_rng(3))
        k = Knowledge.initial(game46, explicit=explicit)
        guesses = []
        while True:
            g = s.guess(k)
            guesses.append(g)
            fb = game46.score(secret, g)
            if fb == game46.win:
                break
            k = k.update(g, fb)
        runs.append((guesses, s.evaluations))
    assert runs[0] == runs[1]


def test_colours_of_a_zero_answer_become_taboo(game46):
    """001 step 4: after 1122 scores [0,0], colours 1 and 2 never appear again, and the random
    consistent code played next becomes the CFG."""
    for seed in range(30):
        record, s = play(game46, secret=game46.parse("3456"), seed=seed)
        assert record.feedbacks[0] == Feedback(0, 0)
        assert all(not {1, 2} & {int(ch) for ch in game46.format(g)} for g in record.guesses[1:])
        assert not s._pool[0] and not s._pool[1]  # (the guesses alone avoid them by being consistent)


def test_cfg_moves_on_a_better_answer(game46):
    """001 step 5: a played guess becomes the CFG if its answer ranks higher (replace=better,
    option 2) or at least as high (replace=equal, option 1); after a [0,0] answer the random code
    played next becomes the CFG whatever its answer (step 4), as does the first guess."""
    moves = Counter()
    for replace in ("better", "equal"):
        for seed in range(60):
            s = StochasticHillClimber(replace=replace)
            s.start(game46, np.random.default_rng(seed))
            secret = int(np.random.default_rng(seed).integers(game46.n_codes))
            k = Knowledge.initial(game46, explicit=False)
            g = s.guess(k)
            while (fb := game46.score(secret, g)) != game46.win:
                before, old = s._cfg, s._cfg_answer
                unconditional = not k.history or k.history[-1][1] == (0, 0)  # the first guess, step 4
                k = k.update(g, fb)
                next_guess = s.guess(k)  # absorbs the answer first
                new_rank, old_rank = response_rank(*fb, 4), response_rank(*old, 4)
                moved = s._cfg == game46.digits(g) and s._cfg_answer == fb
                ranked = new_rank > old_rank or (replace == "equal" and new_rank == old_rank)
                if unconditional or ranked:
                    assert moved
                else:
                    assert s._cfg == before
                moves[replace, new_rank == old_rank, moved] += 1
                moves["step 4 against the ranks"] += len(k.history) > 1 and unconditional and not ranked
                g = next_guess
    assert moves["equal", True, True] > 0 and moves["better", True, False] > 0
    assert moves["step 4 against the ranks"] > 0  # (a random code the ranks would not take still replaced the CFG)


@pytest.mark.parametrize("max_attempts", [100_000, 1])
def test_contradictory_answers_are_refused_as_inconsistent(max_attempts):
    """A search that shows no code fits raises ``InconsistentFeedback``, as sample's does (it raised
    ``SearchFailed``, the error of a budget run out, so play could not name the answers at once);
    so does the constraint search that takes over when ``max_attempts`` runs out."""
    game = Game.parse_size("4x6")
    k = Knowledge.initial(game, explicit=False)
    for code in ("1122", "3344", "5566"):
        k = Knowledge(game, k.history + ((game.parse(code), Feedback(2, 0)),), None)
    s = StochasticHillClimber()
    s.max_attempts = max_attempts
    s.start(game, np.random.default_rng(0))
    with pytest.raises(InconsistentFeedback, match="contradict"):
        s.guess(k)


@pytest.mark.parametrize("size, spec, max_attempts", [("6x9", "shc", 1), ("6x9", "shc:selection=random", 20),
                                                      ("5x8", "shc:tracker=off,replace=equal", 3)])
def test_a_budget_run_out_plays_a_consistent_code_and_records_it(size, spec, max_attempts):
    """When none of ``max_attempts`` candidates fits the answers, the constraint search supplies a
    consistent code, played and recorded as a fallback, so the game ends (it raised
    ``SearchFailed`` and stopped a whole evaluation)."""
    game = Game.parse_size(size)
    fallbacks = 0
    for seed in range(6):
        rng = np.random.default_rng([5, seed])
        s = make_strategy(spec)
        s.max_attempts = max_attempts
        fell_back: list[int] = []  # the moves (guesses made before) whose guess the strategy fell back on
        real_guess = s.guess

        def guess(knowledge, real_guess=real_guess, s=s, fell_back=fell_back):
            code = real_guess(knowledge)
            if s.last_fallback is not None:
                fell_back.append(len(knowledge.history))
            return code

        s.guess = guess
        record = play_game(game, s, int(rng.integers(game.n_codes)), rng)
        assert record.won and [move for move, _ in record.fallbacks] == fell_back
        for i, g in enumerate(record.guesses[1:], 1):  # rescued or not, every guess fits the answers before it
            assert all(game.score(g, h) == fb for h, fb in zip(record.guesses[:i], record.feedbacks[:i], strict=True))
        for move, why in record.fallbacks:
            assert 0 < move < record.n_guesses
            assert f"none of {max_attempts} " in why and "constraint search" in why
            assert record.evaluations[move] > 0  # the constraint search's placements are counted
        fallbacks += len(record.fallbacks)
    assert fallbacks > 0


def test_an_evaluation_with_a_small_budget_ends_and_counts_the_fallbacks():
    """The walkthrough's case: the evaluation stopped at the first exhausted search."""
    s = make_strategy("shc")
    s.max_attempts = 2000
    result = evaluate("6x9", s, secrets=10, seed=1, jobs=1)
    assert result.games == 10 and result.fallbacks > 0
    assert result.to_dict()["fallback_guesses"] == result.fallbacks
    # the fallbacks of every game, summed (replayed one by one: several games have one)
    from mmlab.experiments.evaluation import play_seeded

    def replayed(secret: int) -> int:
        fresh = make_strategy("shc")
        fresh.max_attempts = 2000
        return len(play_seeded(Game.parse_size("6x9"), fresh, 1, 0, int(secret)).fallbacks)

    each = [replayed(secret) for secret in result.codes]
    assert sum(each) == result.fallbacks and sum(n > 0 for n in each) > 1
    ordinary = evaluate("6x9", make_strategy("shc"), secrets=10, seed=1, jobs=1)
    assert ordinary.fallbacks == 0


def test_both_searches_run_out_is_search_failed():
    """``SearchFailed`` remains for a constraint search that runs out of its budget too, and says
    that both searches were tried."""
    s = StochasticHillClimber()
    game = Game.parse_size("8x12")
    k = Knowledge.initial(game, explicit=False)
    for code, fb in (("1 1 2 2 3 3 4 4", (1, 2)), ("5 5 6 6 7 7 8 8", (2, 1)), ("9 9 10 10 11 11 12 12", (0, 3))):
        k = k.update(game.parse(code), Feedback(*fb))
    s.max_attempts, s.rescue_nodes = 1, 1
    s.start(game, np.random.default_rng(0))
    s.guess(Knowledge.initial(game, explicit=False))  # the first guess, then the CFG
    with pytest.raises(SearchFailed, match=r"none of 1 .*and the constraint search found none within 1 placements"):
        s.guess(k)


@pytest.mark.parametrize("size, secret", [("8x12", "1 2 2 5 3 9 10 12"), ("10x20", "1 2 2 1 3 9 4 14 5 5")])
def test_plays_games_too_large_to_enumerate(size, secret):
    """4.3e8 and 1e13 codes: nothing is enumerated, and the tracker holds only the codes examined.
    (Secrets sharing a few pegs with the first guess keep these games short; the spread of whole
    games is measured by benchmarks/bench_shc.py.)"""
    game = Game.parse_size(size)
    for seed in range(2):
        record, s = play(game, secret=game.parse(secret), seed=seed)
        assert record.won
        assert s.tracker_bytes < 2**26 and s.evaluations < 10**6


#: A tracker cap that lets the first table (2**10 slots) double once: 2**10 + 2**11 slots of 8 bytes
#: and the cache fit while it copies (286 720 bytes), and not the next doubling (311 296).
SMALL_CAP = 300_000


def test_tracker_stops_growing_at_its_limit():
    """A game that examines more codes than its largest table holds keeps playing with a frozen
    tracker: memory stays bounded, and codes drawn again are checked (and counted) again. It
    freezes only once it has grown as far as ``tracker_max_bytes`` lets it (2**11 slots)."""
    game = Game.parse_size("5x8")
    frozen = 0
    for seed in range(20):
        record, s = play(game, seed=seed, tracker_max_bytes=SMALL_CAP)
        assert record.won and s._table.shape[0] <= 2**11
        assert not s._frozen or s._table.shape[0] == 2**11
        frozen += s._frozen
    assert frozen > 0


def test_tracker_memory_stays_within_its_cap_while_it_doubles(monkeypatch):
    """The old table and the one it doubles into are alive together while it copies: with the
    cache they stay within ``tracker_max_bytes`` (the cap was passed there: 512 MiB of tables at
    2**26 slots took 768 MiB while doubling). One climber plays game after game, each with a new
    tracker, so the memory is the same whatever the number of games."""
    held = []
    grow = hk.tracker_grow

    def watched(table):
        out = grow(table)
        held.append(table.nbytes + out.nbytes + s._recent.nbytes)
        return out

    monkeypatch.setattr(hk, "tracker_grow", watched)
    game = Game.parse_size("5x8")
    s = StochasticHillClimber()
    s.tracker_max_bytes = SMALL_CAP
    for seed in range(20):
        rng = np.random.default_rng([seed])
        assert play_game(game, s, int(rng.integers(game.n_codes)), rng).won
        assert s.tracker_bytes <= SMALL_CAP
    assert held and max(held) <= SMALL_CAP


def test_the_default_tracker_cap():
    """64 MiB, the doubling included: doubled again and again, the default tracker stops at 2**22
    slots (2**21 codes, more than games at the paper's sizes examine: 55 201 at most in the 1000 6x8
    games of benchmarks/bench_shc.py), 48.25 MiB with the table it doubled from and the cache."""
    s = StochasticHillClimber()
    assert s.tracker_max_bytes == 2**26
    s.start(Game.parse_size("8x12"), np.random.default_rng(0))
    peak = 0
    while not s._frozen:
        before = s._table.nbytes
        s._grow_tracker()
        if not s._frozen:
            peak = max(peak, before + s._table.nbytes + s._recent.nbytes)
    assert s._table.shape[0] == 2**22 and peak == 48 * 2**20 + 8 * RECENT


def test_plays_without_repeats_and_black_only():
    for game in (Game(4, 6, repeats=False), Game(4, 6, feedback="black")):
        for seed in range(20):
            record, _ = play(game, {"first": "random"}, seed=seed)
            assert record.won
            if not game.repeats:
                assert all(len(set(game.format(g))) == 4 for g in record.guesses)


# ----------------------------------------------------------------- 001's figures

def test_4x6_figures_of_tables_3_and_4():
    """001 Table 3 (guesses 4.64) and Table 4 (evaluations 41.2), SHC code tracker ON, FPS 45,
    AABB first guess, 1000 games: the mean guesses within 0.1 and the mean evaluations at most 10%
    above (the acceptance figures of issue 3), and not 10% below either: an undercount fails too."""
    game = Game.parse_size("4x6")
    s = StochasticHillClimber()
    guesses, evaluations = [], []
    for i in range(1000):
        rng = np.random.default_rng([2003, i])
        record = play_game(game, s, int(rng.integers(game.n_codes)), rng)
        guesses.append(record.n_guesses)
        evaluations.append(record.total_evaluations)
    assert abs(np.mean(guesses) - 4.64) <= 0.1
    assert 0.9 * 41.2 <= np.mean(evaluations) <= 1.1 * 41.2


def test_the_default_spec_wins_every_black_only_4x6_game():
    """With black pegs only, FPS would starve the colours of the favourite guess (secret 2211 after
    1122 -> [0] found no consistent code in 1e9 draws): the default draws uniformly there. Every
    game is won by the climber's own draws, not by the constraint search its budget falls back to."""
    game = Game(4, 6, feedback="black")
    strategy = StochasticHillClimber.from_raw({})
    strategy.max_attempts = 200_000  # a starved game falls back in a second, not after minutes
    for secret in range(game.n_codes):
        record = play_game(game, strategy, secret, np.random.default_rng([7, secret]))
        assert record.won and not record.fallbacks
    record = play_game(game, strategy, game.parse("2211"), np.random.default_rng(1))
    assert record.won and record.guesses[0] == game.parse("1122") and not record.fallbacks
