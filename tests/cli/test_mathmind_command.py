"""``mmlab mathmind``: the table, JSON and exit codes as a user meets them."""

import io
import json
import sys

import numpy as np
import pytest

from mmlab.cli import mathmind as cli_mathmind
from mmlab.cli.main import main
from mmlab.game import Game
from mmlab.variants.mathmind import FEEDBACKS, OPTIMUM_NODES, RULES, MathMind


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_options_name_what_the_module_knows():
    """The command's copies of the answer and rule names (kept so that --help loads no kernel)."""
    assert cli_mathmind.FEEDBACK_NAMES == tuple(FEEDBACKS) and cli_mathmind.RULE_NAMES == tuple(RULES)
    assert cli_mathmind.OPTIMUM_NODES == OPTIMUM_NODES


def test_compare_json_is_each_evaluation_with_its_gap_to_the_standard_game(capsys):
    code, out, _ = run(capsys, "mathmind", "compare", "3x4", "--feedback", "euclidean,higher-lower",
                       "--rules", "entropy,knuth", "--json")
    data = json.loads(out)
    assert code == 0
    assert [(d["feedback"], d["rule"]) for d in data] == [("euclidean", "entropy"), ("euclidean", "knuth"),
                                                        ("higher-lower", "entropy"), ("higher-lower", "knuth")]
    for d in data:
        ours = MathMind(Game(3, 4), d["feedback"]).evaluate(d["rule"])
        standard = MathMind(Game(3, 4), "black-white").evaluate(d["rule"])
        assert (d["total"], d["worst"], d["first"]) == (ours.total, ours.worst, Game(3, 4).format(ours.first))
        assert d["histogram"] == {str(k): v for k, v in ours.histogram().items()}
        assert d["mean_minus_standard"] == pytest.approx(ours.mean - standard.mean)
        assert d["secrets"] == 64 and d["size"] == "3x4"


def test_compare_prints_every_answer_rule_and_the_standard_game_on_4x6(capsys):
    code, out, _ = run(capsys, "mathmind", "compare", "4x6", "--rules", "knuth")
    assert code == 0
    lines = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 5}
    assert set(lines) == {"higher-lower", "euclidean", "manhattan", "black-white"}
    assert "5801" in lines["black-white"] and "6372" in lines["higher-lower"] and "+0.4406" in lines["higher-lower"]
    assert "4321" in lines["euclidean"] and "-1.1420" in lines["euclidean"]
    assert "vs standard" in out


def test_compare_optimum_adds_the_least_total_of_each_answer_rule(capsys):
    code, out, _ = run(capsys, "mathmind", "compare", "3x5", "--rules", "knuth", "--optimum")
    assert code == 0
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in out.splitlines() if line.count("│") > 5]
    optimum = {row[0]: row for row in rows if row[1] == "optimum"}
    assert {f: row[3] for f, row in optimum.items()} == {"higher-lower": "442", "euclidean": "352",
                                                         "manhattan": "441", "black-white": "451"}
    assert optimum["euclidean"][5] == f"{(352 - 451) / 125:+.4f}" and "branch and bound" in out
    code, out, _ = run(capsys, "mathmind", "compare", "3x4", "--feedback", "manhattan", "--rules", "knuth",
                       "--optimum", "--max-nodes", "1", "--json")
    data = json.loads(out)
    assert code == 0 and [d["rule"] for d in data] == ["knuth", "optimum"]
    assert data[1] == {"size": "3x4", "repeats": True, "feedback": "manhattan", "rule": "optimum", "total": None,
                       "max_nodes": 1, "standard_mean": None, "mean_minus_standard": None}
    code, out, _ = run(capsys, "mathmind", "compare", "3x4", "--feedback", "manhattan", "--rules", "knuth",
                       "--optimum", "--max-nodes", "1")
    assert code == 0 and "not found within 1 set (--max-nodes)" in out
    with pytest.raises(SystemExit) as done:  # (argparse's own error)
        main(["mathmind", "compare", "3x4", "--optimum", "--max-nodes", "0"])
    assert done.value.code == 2 and "argument --max-nodes: must be 1 or more, got 0" in capsys.readouterr().err


def test_play_shows_each_guess_and_its_answer(capsys):
    code, out, _ = run(capsys, "mathmind", "play", "4x6", "--secret", "3632")
    assert code == 0
    assert "guess 1: 3333  2 black, 1 higher, 1 lower" in out and "guess 5: 3632  4 black, 0 higher, 0 lower" in out
    assert "solved in 5 guesses" in out
    code, out, _ = run(capsys, "mathmind", "play", "4x6", "--feedback", "euclidean", "--rule", "entropy",
                       "--seed", "3", "--json")
    data = json.loads(out)
    mm = MathMind(Game(4, 6), "euclidean")
    assert data["seed"] == 3 and data["moves"][-1] == {"guess": data["secret"], "answer": 0, "said": "distance² 0"}
    assert [(m["guess"], m["answer"]) for m in data["moves"]] == [
        (mm.game.format(g), a) for g, a in mm.play("entropy", data["secret"])]


def test_play_and_guess_take_the_optimums_tree(capsys, monkeypatch):
    mm = MathMind(Game(3, 5), "euclidean")
    code, out, _ = run(capsys, "mathmind", "play", "3x5", "--feedback", "euclidean", "--rule", "optimum", "--seed", "2",
                       "--json")
    data = json.loads(out)
    assert code == 0 and data["rule"] == "optimum"
    assert [(m["guess"], m["answer"]) for m in data["moves"]] == [
        (mm.game.format(g), a) for g, a in mm.play("optimum", data["secret"])]
    code, out, _ = run(capsys, "mathmind", "play", "3x5", "--feedback", "euclidean", "--rule", "optimum", "--secret",
                       "513")
    assert code == 0 and "euclidean answers, the optimum's tree: secret 513" in out and "solved in 3 guesses" in out
    code, out = guess(capsys, monkeypatch, "give-up\n", "3x5", "--secret", "513", "--rule", "optimum")
    assert code == 1 and "The secret was 513; the optimum's tree finds it in 3 guesses" in out


def test_two_answers_exits_0_when_some_first_guess_allows_it_and_1_when_none_does(capsys):
    code, out, _ = run(capsys, "mathmind", "two-answers", "2x4", "--feedback", "manhattan")
    assert code == 0 and "after 4 first guesses: 11 14 41 44" in out
    code, out, _ = run(capsys, "mathmind", "two-answers", "4x6", "--json")
    assert code == 1 and json.loads(out) == {"size": "4x6", "repeats": True, "feedback": "euclidean",
                                             "two_answers_suffice": False, "first_guesses": []}
    code, out, _ = run(capsys, "mathmind", "two-answers", "4x6")
    assert code == 1 and "some secret needs a fourth guess" in " ".join(out.split())  # (rich wraps the line)


@pytest.mark.parametrize(("args", "message"), [
    (("compare", "6x9"), "6x9 has 531,441 codes, at most 65,536"),
    (("compare", "4x6", "--rules", "knuht"), "--rules: unknown 'knuht' (did you mean 'knuth'?)"),
    (("compare", "4x6", "--feedback", "distance"), "--feedback: unknown 'distance'"),
    (("compare", "4x6", "--rules", ","), "--rules is empty"),
    (("play", "4x6", "--secret", "1237"), "1237"),
    (("compare", "4x"), "cannot read the size '4x'"),
    (("compare", "4x6", "--optimum"), "at most 256 codes (3x6, 4x4, 2x16); 4x6 has 1,296"),
    (("compare", "3x4", "--max-nodes", "5"), "--max-nodes bounds the optimum's search: give --optimum with it"),
    (("play", "4x6", "--secret", "1234", "--seed", "3"), "--seed draws the secret, and --secret gives it"),
    (("play", "4x6", "--rule", "optimum"), "at most 256 codes (3x6, 4x4, 2x16); 4x6 has 1,296"),
    (("play", "3x4", "--max-nodes", "5"), "--max-nodes bounds the optimum's search: give --rule optimum with it"),
    (("guess", "3x4", "--max-nodes", "5"), "--max-nodes bounds the optimum's search: give --rule optimum with it"),
    (("play", "3x4", "--feedback", "manhattan", "--rule", "optimum", "--max-nodes", "1"),
     "not found within 1 set of codes: give --max-nodes N with a larger N"),
    (("guess", "4x6", "--secret", "1234", "--seed", "3"), "--seed draws the secret, and --secret gives it"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    code, out, err = run(capsys, "mathmind", *args)
    assert code == 2 and out == "" and message in err and "Traceback" not in err


def test_no_subcommand_says_which_there_are(capsys):
    code, _, err = run(capsys, "mathmind")
    assert code == 2 and "choose 'compare', 'play', 'two-answers' or 'guess'" in err


def guess(capsys, monkeypatch, typed: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code, out, _ = run(capsys, "mathmind", "guess", *args)
    return code, " ".join(out.split())  # (rich wraps long lines)


def test_guess_answers_each_guess_and_counts_the_codes_that_still_fit(capsys, monkeypatch):
    code, out = guess(capsys, monkeypatch, "1111\nhelp\n12\n2345\n3632\n", "4x6", "--secret", "3632")
    mm = MathMind(Game(4, 6), "euclidean")
    fit = [c for c in range(1296) if mm.answer("1111", c) == 34]
    assert code == 0
    assert f"1111: distance² 34; {len(fit)} codes fit the answers so far" in out
    left = sum(mm.answer("2345", c) == 20 for c in fit)
    assert f"2345: distance² 20; {left} codes fit" in out
    assert "has 2 pegs, the 4x6 game needs 4 ('help' lists the commands)" in out and "Commands: 'hint' (knuth's next guess" in out
    assert f"distance² 0: solved in 3 guesses; knuth's rule needs {len(mm.play('knuth', '3632'))} for this secret" in out


def test_guess_gives_hints_lists_the_codes_left_and_takes_guesses_back(capsys, monkeypatch):
    code, out = guess(capsys, monkeypatch, "candidates\nhint\n1111\nhint\ncandidates\n2222\nundo\nundo\nundo\nquit\n",
                      "4x6", "--secret", "3632", "--feedback", "euclidean")
    mm = MathMind(Game(4, 6), "euclidean")
    fit = [mm.game.format(c) for c in range(1296) if mm.answer("1111", c) == 34]
    assert code == 1 and "1,296 codes fit the answers, too many to list (at most 50); ask for a hint" in out
    first = mm.summary("1111", np.arange(1296))
    assert f"knuth's rule would play 1111: it splits the 1,296 codes left into {first['parts']} parts, the " \
           f"largest of {first['largest']}" in out
    second = mm.summary("1356", np.array([mm.game.parse(c) for c in fit]))
    assert mm.choose("knuth", np.array([mm.game.parse(c) for c in fit])) == mm.game.parse("1356")
    assert f"knuth's rule would play 1356: it splits the 42 codes left into {second['parts']} parts, the " \
           f"largest of {second['largest']}; it cannot be the secret" in out
    assert f"42 codes left: {' '.join(fit)}" in out
    assert f"Took back 2222 (distance² {mm.answer('2222', '3632')}); 42 codes fit the answers so far" in out
    assert "Took back 1111 (distance² 34); 1,296 codes fit the answers so far" in out
    assert "nothing to undo: no guess yet" in out
    code, out = guess(capsys, monkeypatch, "14\nhint\nquit\n", "2x4", "--secret", "23")  # (distance² 2: 23 alone)
    assert "14: distance² 2; 1 code fits" in out
    assert "knuth's rule would play 23: it splits the 1 code left into 1 part, the largest of 1" in out


def test_guess_lists_its_history_and_reads_a_word_as_no_guess(capsys, monkeypatch):
    """Unknown words were read as codes: 'history' said "code 'history' has 7 pegs"."""
    code, out = guess(capsys, monkeypatch, "history\n1111\nhitn\nfoo\n2345\n2222\nundo\nhistory\nquit\n",
                      "4x6", "--secret", "3632")
    mm = MathMind(Game(4, 6), "euclidean")
    fit = [c for c in range(1296) if mm.answer("1111", c) == 34]
    left = sum(mm.answer("2345", c) == 20 for c in fit)
    assert code == 1 and f"guess 1> history no guesses yet guess 1> 1111 1111: distance² 34; {len(fit)} codes fit" in out
    assert "'hitn' is neither a guess nor a command (did you mean 'hint'?): type a guess, or 'help'." in out
    assert "'foo' is neither a guess nor a command: type a guess, or 'help'." in out and "pegs" not in out
    assert f"guess 3> history 1. 1111 distance² 34; {len(fit)} codes fit 2. 2345 distance² 20; {left} codes fit " \
           "guess 3> quit" in out


def test_guess_says_that_its_hints_follow_the_rule_and_stops_a_hint_at_ctrl_c(capsys, monkeypatch):
    """'hint entropy' was "neither a guess nor a command", though 'mmlab play' takes it; and a Ctrl-C
    during a hint ended the game, where 'mmlab play' stops the hint alone (helper-119)."""
    from mmlab.play import mathmind

    code, out = guess(capsys, monkeypatch, "hint entropy\nundo x\nquit\n", "4x6", "--secret", "3632")
    assert "Write 'hint' alone: the hints follow knuth's rule (--rule chooses it)." in out
    assert "Write 'undo' alone." in out and "neither a guess nor a command" not in out

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt  # (as stoppable's handler raises it, when Ctrl-C is pressed during the work)

    monkeypatch.setattr(mathmind.MathMindSession, "hint", interrupted)
    code, out = guess(capsys, monkeypatch, "hint\n3632\n", "4x6", "--secret", "3632")
    assert code == 0 and "Stopped the hint (Ctrl-C); the game goes on. Ctrl-C at the prompt leaves it." in out
    assert "solved in 1 guess" in out


def test_guess_won_compares_with_the_rule_asked_for(capsys, monkeypatch):
    mm = MathMind(Game(4, 6), "higher-lower")
    assert len(mm.play("entropy", "3632")) != len(mm.play("knuth", "3632"))
    code, out = guess(capsys, monkeypatch, "3632\n", "4x6", "--secret", "3632", "--feedback", "higher-lower",
                      "--rule", "entropy")
    assert code == 0 and f"entropy's rule needs {len(mm.play('entropy', '3632'))} for this secret" in out


def test_guess_given_up_or_left_says_the_secret_and_exits_1(capsys, monkeypatch):
    code, out = guess(capsys, monkeypatch, "1111\ngive-up\n", "4x6", "--feedback", "higher-lower", "--seed", "4",
                      "--rule", "entropy")
    secret = MathMind(Game(4, 6), "higher-lower")
    assert code == 1 and "1111: 1 black, 3 higher, 0 lower; 500 codes fit" in out
    assert "You gave up. The secret was 5316; entropy's rule finds it in" in out
    assert secret.answer("1111", "5316") == 1 * 5 + 3
    code, out = guess(capsys, monkeypatch, "", "3x4", "--seed", "4")  # (the input ends at once)
    assert code == 1 and "Game left unfinished. The secret was" in out
    code, out = guess(capsys, monkeypatch, "quit\n", "4x3", "--seed", "4")
    assert code == 1 and "(e.g. 1231, or in letters" in out  # (an example of the game's own colours)


def test_no_repeats_is_the_game_without_repeated_colours(capsys):
    code, out, _ = run(capsys, "mathmind", "compare", "3x5", "--no-repeats", "--feedback", "higher-lower",
                       "--rules", "knuth", "--json")
    ours = MathMind(Game(3, 5, repeats=False), "higher-lower").evaluate("knuth")
    data = json.loads(out)
    assert code == 0 and (data[0]["secrets"], data[0]["repeats"], data[0]["total"]) == (60, False, ours.total)
    code, out, _ = run(capsys, "mathmind", "two-answers", "3x5", "--no-repeats", "--json")
    assert json.loads(out)["first_guesses"] == [Game(3, 5, repeats=False).format(c) for c in
                                               MathMind(Game(3, 5, repeats=False), "euclidean").two_answer_firsts()]


def test_guess_says_when_one_code_fits_and_the_seed_that_plays_the_secret_again(capsys, monkeypatch):
    mm = MathMind(Game(2, 4), "euclidean")
    secret = "23"
    first = next(g for g in range(16) if sum(mm.answer(g, s) == mm.answer(g, secret) for s in range(16)) == 1)
    code, out = guess(capsys, monkeypatch, f"{mm.game.format(first)}\n", "2x4", "--secret", secret)
    assert code == 1 and "1 code fits the answers so far" in out and "--seed" not in out
    code, drawn = guess(capsys, monkeypatch, "give-up\n", "2x4")
    seed = int(drawn.split("(--seed ")[1].split()[0])
    code, replayed = guess(capsys, monkeypatch, "give-up\n", "2x4", "--seed", str(seed))
    secret_of = lambda text: text.split("The secret was ")[1].split(";")[0]
    assert secret_of(drawn) == secret_of(replayed) and len(secret_of(drawn)) == 2
    assert f"(--seed {seed} plays this secret again)" in replayed


def test_compare_searches_the_standard_optimum_only_when_its_row_is_asked_for(capsys, monkeypatch):
    """``compare --feedback euclidean --optimum`` searched the standard game's optimum too, never shown,
    for the optimum row's vs standard (3x6: 9.8 s against 0.03 s; 2x16: 85 s, then blank, unsaid)."""
    searched = []
    real = MathMind.optimum

    def optimum(self, *args, **kwargs):
        searched.append(self.feedback)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(MathMind, "optimum", optimum)
    code, out, _ = run(capsys, "mathmind", "compare", "3x4", "--feedback", "euclidean", "--rules", "knuth",
                       "--optimum")
    assert code == 0 and searched == ["euclidean"]
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in out.splitlines() if line.count("│") > 5]
    assert [row[1] for row in rows] == ["knuth", "optimum"] and rows[0][5] and rows[1][5] == ""
    assert "searched only when --feedback lists black-white" in " ".join(out.split())
    searched.clear()
    code, out, _ = run(capsys, "mathmind", "compare", "3x4", "--feedback", "black-white,manhattan", "--rules",
                       "knuth", "--optimum", "--max-nodes", "1")
    assert code == 0 and searched == ["black-white", "manhattan"]
    assert "the standard game's optimum was not found within 1 set (--max-nodes)" in " ".join(out.split())


class _Recorded:
    """A stand-in for ``progress`` or ``spinner``: records whether it shows and each text it is told."""

    def __init__(self):
        self.shown, self.said = [], []

    def __call__(self, text, *args, enabled=True, **kwargs):
        from contextlib import contextmanager

        @contextmanager
        def shown():
            self.shown.append(enabled)
            self.said.append(text)
            yield lambda *told, **_: self.said.append(told[0])

        return shown()


def test_the_optimums_search_counts_its_sets_and_json_shows_progress(capsys, monkeypatch):
    """The bar stood still with a false ETA while the optimum was searched (4x4 Manhattan: at 512/1024,
    eta 0:00:01, ~20 s), and compare --json and two-answers --json showed no progress at all."""
    from mmlab.strategies import endgame_kernels

    monkeypatch.setattr(endgame_kernels, "STEP_NODES", 5)
    spinner, bar = _Recorded(), _Recorded()
    monkeypatch.setattr(cli_mathmind, "spinner", spinner)
    monkeypatch.setattr(cli_mathmind, "progress", bar)
    code, out, _ = run(capsys, "mathmind", "compare", "3x4", "--feedback", "manhattan", "--rules", "knuth",
                       "--optimum", "--json")
    assert code == 0 and json.loads(out)[1]["total"] is not None
    counts = [int(text.split("(")[1].split(" sets searched")[0].replace(",", "")) for text in spinner.said]
    assert spinner.said[0].startswith("mathmind 3x4, manhattan answers: searching the optimum's tree (0 sets")
    assert counts[0] == 0 and counts[-1] > 5 and counts == sorted(counts) and all(spinner.shown)
    code, out, _ = run(capsys, "mathmind", "two-answers", "2x4", "--json")
    assert code == 0 and bar.shown == [True, True]


def test_two_answers_says_its_own_cost(capsys):
    """A refused game cited compare's '30 s a rule'; two-answers has no rule and 5x8 takes half an hour."""
    code, _, err = run(capsys, "mathmind", "two-answers", "8x8")
    assert code == 2 and "half an hour" in err and "a rule" not in err
    code, _, err = run(capsys, "mathmind", "compare", "8x8")
    assert code == 2 and "30 s a rule" in err
    with pytest.raises(SystemExit):
        main(["mathmind", "two-answers", "--help"])
    assert "half an hour" in " ".join(capsys.readouterr().out.split())


def test_guess_hints_follow_the_optimum_with_rule_optimum(capsys, monkeypatch):
    """With --rule optimum the hints were Knuth's ('knuth's rule would play 111' on 3x4)."""
    mm = MathMind(Game(3, 4), "euclidean")
    tree = mm.optimum()
    path = [mm.game.format(g) for g in tree.paths[mm.game.parse("333")] if g >= 0]
    code, out = guess(capsys, monkeypatch, f"hint\n{path[0]}\nhint\n111\nhint\nquit\n", "3x4", "--rule", "optimum",
                      "--secret", "333")
    assert code == 1 and "'hint' (the optimum's next guess" in out and "knuth" not in out
    assert f"guess 1> hint the optimum would play {path[0]}: it splits the 64 codes" in out
    assert f"guess 2> hint the optimum would play {path[1]}:" in out
    left = np.array([c for c in range(64) if all(mm.answer(g, c) == mm.answer(g, "333") for g in (path[0], "111"))])
    assert f"guess 3> hint the optimum would play {mm.game.format(mm.optimum_guess(left))}:" in out
    code, out = guess(capsys, monkeypatch, "hint x\nquit\n", "3x4", "--rule", "optimum", "--secret", "333")
    assert code == 1 and "the hints follow the optimum (--rule chooses it)" in out


def test_compare_json_says_the_standard_mean_and_no_gap_for_the_standard_rows(capsys):
    """The JSON left out the standard means its gaps are taken from, and gave black-white rows a gap
    of 0.0 where the table leaves it blank."""
    code, out, _ = run(capsys, "mathmind", "compare", "3x4", "--feedback", "euclidean", "--rules", "knuth", "--json")
    standard = MathMind(Game(3, 4), "black-white").evaluate("knuth").mean
    (row,) = json.loads(out)
    assert row["standard_mean"] == pytest.approx(standard)
    assert row["mean_minus_standard"] == pytest.approx(row["mean"] - standard)
    code, out, _ = run(capsys, "mathmind", "compare", "3x4", "--feedback", "black-white", "--rules", "knuth",
                       "--optimum", "--json")
    assert [(d["mean_minus_standard"], d["standard_mean"]) for d in json.loads(out)] == [(None, None)] * 2
    code, out, _ = run(capsys, "mathmind", "compare", "3x4", "--feedback", "euclidean", "--rules", "knuth")
    assert code == 0 and f"(knuth {standard:.4f})" in out


def test_the_optimums_help_says_the_max_nodes_its_cases_need(capsys):
    """--optimum's help promised 4x4's Manhattan distance in minutes, which the default --max-nodes
    cannot reach (not found after ~24 s)."""
    for sub in ("compare", "play"):
        with pytest.raises(SystemExit):
            main(["mathmind", sub, "--help"])
        assert "Manhattan distance needs 8000000" in " ".join(capsys.readouterr().out.split())
