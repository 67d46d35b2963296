"""MathMind played with a person (``mmlab.play.mathmind``), and the two views of a position it rests
on (``MathMind.summary`` and ``MathMind.ranked``), each against pure Python."""

import math
from collections import Counter

import numpy as np
import pytest

from mmlab.errors import BadArgument
from mmlab.game import Game
from mmlab.play.mathmind import MathMindSession
from mmlab.variants import mathmind_kernels as K
from mmlab.variants.mathmind import MathMind, answer_of

MATHMIND = ("higher-lower", "euclidean", "manhattan")


def rows(game: Game) -> list[tuple[int, ...]]:
    return [tuple(int(c) for c in row) for row in game.all_digits]


def python_scores(mm: MathMind, cand: np.ndarray) -> list[float]:
    """Each code's score under Knuth's rule (the largest class), in plain Python."""
    codes = rows(mm.game)
    return [max(Counter(answer_of(guess, codes[s], mm.feedback) for s in cand).values()) for guess in codes]


@pytest.mark.parametrize("feedback", MATHMIND)
def test_the_summary_of_a_guess_is_its_partition_counted_in_python(feedback):
    mm = MathMind(Game(3, 4), feedback)
    codes = rows(mm.game)
    rng = np.random.default_rng(5)
    for _ in range(6):
        cand = np.sort(rng.choice(mm.game.n_codes, size=int(rng.integers(1, 40)), replace=False))
        guess = int(rng.integers(mm.game.n_codes))
        sizes = Counter(answer_of(codes[guess], codes[s], feedback) for s in cand)
        n = len(cand)
        table = mm.summary(guess, cand)
        assert table["classes"] == dict(sorted(sizes.items()))
        assert (table["candidates"], table["parts"], table["largest"]) == (n, len(sizes), max(sizes.values()))
        assert table["expected_size"] == pytest.approx(sum(k * k for k in sizes.values()) / n)
        assert table["entropy_bits"] == pytest.approx(-sum(k / n * math.log2(k / n) for k in sizes.values()), abs=1e-12)
        assert table["consistent"] == (guess in cand)


def test_ranked_opens_with_the_rules_choice_then_the_next_best_consistent_first():
    mm = MathMind(Game(3, 4), "higher-lower")
    rng = np.random.default_rng(2)
    for _ in range(6):
        cand = np.sort(rng.choice(mm.game.n_codes, size=int(rng.integers(3, 30)), replace=False))
        scores = python_scores(mm, cand)
        ranked = mm.ranked("knuth", cand, 5)
        assert ranked[0] == mm.choose("knuth", cand)
        assert len(ranked) == len(set(ranked)) == 5
        rest = ranked[1:]
        keys = [(scores[g], g not in cand, g) for g in rest]
        assert keys == sorted(keys)  # by score, then consistent first, then the lowest
        assert max(scores[g] for g in ranked) <= min(scores[g] for g in range(mm.game.n_codes) if g not in ranked)
    assert mm.ranked("entropy", np.arange(mm.game.n_codes), 1) == [mm.choose("entropy", np.arange(mm.game.n_codes))]


@pytest.mark.parametrize("feedback", MATHMIND)
def test_a_session_keeps_the_codes_that_answer_every_guess_alike(feedback):
    mm = MathMind(Game(3, 4), feedback)
    codes = rows(mm.game)
    session = MathMindSession(mm, rng=7)
    secret = session.secret
    for guess in (5, 17, 40):
        said = session.guess(guess)
        assert said == answer_of(codes[guess], codes[secret], feedback)
    fits = [c for c in range(mm.game.n_codes)
            if all(answer_of(codes[g], codes[c], feedback) == a for g, a in session.moves)]
    assert session.left.tolist() == fits and secret in fits
    assert session.counts()[0] == mm.game.n_codes and session.counts()[-1] == len(fits)
    session.undo()
    assert len(session.counts()) == 3 and len(session.moves) == 2
    assert session.left.tolist() == [c for c in range(mm.game.n_codes)
                                     if all(answer_of(codes[g], codes[c], feedback) == a for g, a in session.moves)]


def test_a_session_to_the_win_with_hints_candidates_and_refusals():
    mm = MathMind(Game(4, 6), "euclidean")
    session = MathMindSession(mm, secret="3632")
    with pytest.raises(BadArgument, match="nothing to undo"):
        session.undo()
    with pytest.raises(BadArgument, match="too many to list"):
        session.candidates()
    with pytest.raises(BadArgument, match="exhaustive rules knuth, irving, most-parts, entropy; got 'optimum'"):
        session.hint("optimum")
    while not session.won:  # Knuth's hints played: Knuth's own game
        hint = session.hint("knuth", options=2)
        assert hint.remaining == session.remaining and 1 <= len(hint.options) <= 2
        assert len({(tuple(t["classes"].items()), t["consistent"]) for t in hint.options}) == len(hint.options)
        assert hint.suggestion == hint.options[0]["guess"] == mm.choose("knuth", session.left)
        session.guess(hint.suggestion)
    assert session.moves == mm.play("knuth", "3632") and session.rule_guesses("knuth") == len(session.moves)
    assert session.over and session.candidates() == [mm.game.parse("3632")]
    for refused in (lambda: session.guess("1111"), session.undo, session.hint):
        with pytest.raises(BadArgument, match="the game is over"):
            refused()


def test_a_hints_options_split_the_codes_otherwise_and_follow_the_rules_ranking():
    """After 1111 (distance² 34) the codes left are alike under any order of the pegs, so 1356's
    next best by score, 1365 and 1536, split them as 1356 does: the options skip such guesses."""
    mm = MathMind(Game(4, 6), "euclidean")
    session = MathMindSession(mm, secret="3632")
    session.guess("1111")
    hint = session.hint("knuth", options=3)
    ranked = mm.ranked("knuth", session.left, 60)
    assert [mm.game.format(g) for g in ranked[:3]] == ["1356", "1365", "1536"]
    guesses = [t["guess"] for t in hint.options]
    assert guesses[0] == ranked[0] and guesses == sorted(guesses, key=ranked.index) and len(guesses) == 3
    splits = [(t["classes"], t["consistent"]) for t in hint.options]
    assert all(a != b for i, a in enumerate(splits) for b in splits[i + 1:])
    skipped = [g for g in ranked[:ranked.index(guesses[-1])] if g not in guesses]
    assert skipped and all((mm.summary(g, session.left)["classes"], mm.summary(g, session.left)["consistent"])
                           in splits for g in skipped)


def test_a_session_given_up_is_over_and_its_secret_drawn_from_the_seed():
    mm = MathMind(Game(3, 5), "manhattan")
    first, second = MathMindSession(mm, rng=3), MathMindSession(mm, rng=3)
    assert first.secret == second.secret
    assert first.give_up() == first.secret and first.over and not first.won
    assert MathMindSession(mm, secret="513").secret == mm.game.parse("513")
    assert {MathMindSession(mm, rng=seed).secret for seed in range(40)} != {first.secret}


def test_the_rules_count_is_played_once_and_the_first_guesses_scored_once(monkeypatch):
    """A finished game's state is read at every reload: the rule's game (13 s at 8x4, helper-111) is
    played once, and the scores of the first guesses, the same for every game, worked out once per
    MathMind."""
    mm = MathMind(Game(4, 6), "higher-lower")
    played, scored, first = [], [], []
    play, kernel, first_kernel = MathMind.play, K.partition_stats, K.partition_stats_of
    monkeypatch.setattr(MathMind, "play", lambda self, *args: played.append(args) or play(self, *args))
    monkeypatch.setattr(K, "partition_stats", lambda *args: scored.append(args[1].size) or kernel(*args))
    monkeypatch.setattr(K, "partition_stats_of", lambda *args: first.append(args) or first_kernel(*args))
    session = MathMindSession(mm, secret="3632")
    assert session.rule_guesses("entropy") == session.rule_guesses("entropy") == len(play(mm, "entropy", "3632"))
    assert len(played) == 1
    session.hint("entropy")
    MathMindSession(mm, secret="1111").hint("knuth")
    assert len(first) == 1 and mm.game.n_codes not in scored  # (the first guesses: every code left, every rule)


def test_a_hint_refuses_the_optimum_saying_why():
    session = MathMindSession(MathMind(Game(3, 4), "euclidean"), secret="123")
    with pytest.raises(BadArgument, match="got 'optimum' \\(the optimum's tree has no move off its own paths\\)"):
        session.hint("optimum")


def test_candidates_are_listed_up_to_exactly_the_limit_and_the_last_code_may_be_the_secret():
    mm = MathMind(Game(3, 4), "euclidean")
    session = MathMindSession(mm, secret="123")
    session.guess("111")
    left = session.remaining
    assert len(session.candidates(limit=left)) == left
    with pytest.raises(BadArgument, match=f"{left} codes fit the answers, too many to list \\(at most {left - 1}\\)"):
        session.candidates(limit=left - 1)
    tiny = MathMind(Game(1, 2), "manhattan")
    assert {MathMindSession(tiny, rng=seed).secret for seed in range(30)} == {0, 1}


def test_rule_guesses_are_kept_rule_by_rule():
    mm = MathMind(Game(4, 6), "higher-lower")
    session = MathMindSession(mm, secret="3632")
    counts = {rule: len(mm.play(rule, "3632")) for rule in ("knuth", "entropy")}
    assert counts["knuth"] != counts["entropy"]
    assert {rule: session.rule_guesses(rule) for rule in ("knuth", "entropy", "knuth")} == counts
