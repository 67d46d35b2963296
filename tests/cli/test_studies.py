"""The experiment commands as a user meets them: run a study file, report, export, list, forget."""

import json
import re
from pathlib import Path

import duckdb
import pandas as pd

from mmlab.cli.main import main
from mmlab.experiments import Store

STUDY = """\
name = "cli-demo"
description = "two strategies on 3x4"
sizes = ["3x4"]
strategies = ["most-parts:pool=consistent,ties=random,first=112", "entropy:pool=consistent,ties=random,first=112"]
secrets = 30
runs = 2
seed = 9
"""


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_run_report_export_studies_forget(capsys, tmp_path):
    path = tmp_path / "demo.toml"
    path.write_text(STUDY)
    store = str(tmp_path / "r.duckdb")
    code, out, err = run(capsys, "run", str(path), "--store", store, "--jobs", "1")
    assert code == 0 and "played 120 games" in err and "games/s) in this process;" in " ".join(err.split())
    assert "stored meanwhile" not in err  # (no other run wrote any of them)
    assert "most-parts" in out and "mean ± s.e." in out
    code, out, err = run(capsys, "run", str(path), "--store", store, "--jobs", "1")
    assert "all 120 games already stored" in err

    html, plots = tmp_path / "pages" / "report.html", tmp_path / "plots"  # both folders made
    code, out, err = run(capsys, "report", "cli-demo", "--store", store, "--html", str(html), "--plots", str(plots))
    assert code == 0
    assert "paired Wilcoxon" in out and "top scorers by this move" in out and "consistent set before the move" in out
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 4 and "cli-demo" in page
    assert "http" not in page.split("<svg", 1)[0]  # self-contained: no outside links before the figures
    assert sorted(p.suffix for p in plots.iterdir()).count(".svg") >= 4

    code, out, _ = run(capsys, "report", str(path), "--store", store, "--json")
    data = json.loads(out)
    assert data["games_stored"] == data["games_expected"] == 120
    assert len(data["wilcoxon"]) == 1 and data["wilcoxon"][0]["p_value"] is None  # alike in every game on 3x4
    assert [(h["size"], h["strategy"]) for h in data["histogram"]] == [(s["size"], s["strategy"])
                                                                       for s in data["summary"]]
    assert [sum(h["games_by_guesses"].values()) for h in data["histogram"]] == [60, 60]

    code, _, err = run(capsys, "export", "cli-demo", str(tmp_path / "moves.csv"), "--table", "moves", "--store", store)
    assert code == 0 and len(pd.read_csv(tmp_path / "moves.csv")) > 120
    code, _, err = run(capsys, "export", str(path), str(tmp_path / "games.csv"), "--store", store)  # (by its file)
    assert code == 0 and "wrote the games of cli-demo" in err and len(pd.read_csv(tmp_path / "games.csv")) == 120

    code, out, _ = run(capsys, "studies", "--store", store, "--json")
    assert [s["study"] for s in json.loads(out)] == ["cli-demo"] and json.loads(out)[0]["games"] == 120
    code, _, err = run(capsys, "forget", str(path), "--store", store)  # (by its file, as report takes it)
    assert code == 0 and "deleted study cli-demo and its 120 games" in err
    code, _, err = run(capsys, "report", "cli-demo", "--store", store)
    assert code == 2 and "no study named 'cli-demo'" in err


def test_a_malformed_study_file_gets_one_line_naming_key_and_line(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(STUDY.replace("runs = 2", 'runs = "two"'))
    code, _, err = run(capsys, "run", str(path), "--store", str(tmp_path / "r.duckdb"))
    assert code == 2 and err.count("\n") == 1
    assert 'bad.toml, line 6: runs: "two" is not a positive whole number' in err


def test_compare_on_a_sample_is_not_exact(capsys, tmp_path):
    code, out, _ = run(capsys, "compare", "4x5", "--strategies", "knuth,random", "--secrets", "50",
                       "--store", str(tmp_path / "r.duckdb"), "--json")
    rows = json.loads(out)["strategies"]
    assert [r["games"] for r in rows] == [50, 50] and not any(r["exact"] for r in rows)
    assert all(r["literature"] is None for r in rows)


def test_compare_writes_its_plots_and_page(capsys, tmp_path):
    plots, html = tmp_path / "figs", tmp_path / "pages" / "compare.html"
    code, out, err = run(capsys, "compare", "3x4", "--strategies", "knuth,random", "--store", str(tmp_path / "r.duckdb"),
                         "--plots", str(plots), "--html", str(html))
    assert code == 0 and "wrote" in err and "--plots DIR" not in out
    names = sorted(p.name for p in plots.iterdir())
    assert any(n.startswith("compare-3x4-") and n.endswith("-guesses.svg") for n in names)
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 1 and "knuth" in page
    for where in (["--plots", str(html)], ["--html", str(plots)], ["--html", str(html / "page.html")]):
        code, out, err = run(capsys, "compare", "3x4", "--strategies", "knuth", "--store",
                             str(tmp_path / "r.duckdb"), *where)  # a file for a folder, a folder for a file
        assert code == 2 and out == "" and err.count("\n") == 1, where  # refused before any game
        assert err.startswith("mmlab compare: error: ") and ("cannot write" in err or "give the page" in err)
    code, _, err = run(capsys, "compare", "3x4", "--strategies", "knuth", "--store", str(tmp_path / "r.duckdb"))
    assert code == 0 and "played 64 games" in err


def test_files_and_stores_that_are_not_what_they_should_be_get_one_line(capsys, tmp_path):
    import duckdb

    from mmlab.experiments.store import Store
    from mmlab.experiments.study import Study

    path = tmp_path / "s.toml"
    path.write_bytes(STUDY.encode() + b"# caf\xe9\n")  # Latin-1, not UTF-8
    code, _, err = run(capsys, "run", str(path), "--store", str(tmp_path / "r.duckdb"))
    assert code == 2 and "is not UTF-8 text" in err
    path.write_text(STUDY + "\n[extra]\nx = 1\n")
    code, _, err = run(capsys, "run", str(path), "--store", str(tmp_path / "r.duckdb"))
    assert code == 2 and "s.toml, line 9: extra: unknown key" in err
    other = tmp_path / "other.duckdb"
    with duckdb.connect(str(other)) as con:
        con.execute("CREATE TABLE t (x INTEGER)")
    code, _, err = run(capsys, "studies", "--store", str(other))
    assert code == 2 and "a DuckDB file with tables of its own (t), not a results store" in err
    code, _, err = run(capsys, "studies", "--store", str(tmp_path / "missing.duckdb"))
    assert code == 2 and "there is no results store at" in err and "missing.duckdb" in err
    store = tmp_path / "empty.duckdb"
    Store(store).register(Study.from_toml(STUDY))  # registered, as a run that failed at once leaves it
    code, _, err = run(capsys, "report", "cli-demo", "--store", str(store))
    assert code == 2 and "has no games stored yet (of 120)" in err
    (tmp_path / "games.csv").mkdir()  # a folder named as a file
    code, _, err = run(capsys, "export", "cli-demo", str(tmp_path / "games.csv"), "--store", str(store))
    assert code == 2 and "games.csv': it is a folder, not a file" in " ".join(err.split())
    code, _, err = run(capsys, "export", "cli-demo", str(tmp_path / "nodir" / "g.csv"), "--store", str(store))
    assert code == 2 and "g.csv': no such folder" in " ".join(err.split())


def test_an_interrupted_store_query_is_reported_as_interrupted(capsys, monkeypatch, tmp_path):
    """DuckDB turns Ctrl-C during a query into RuntimeError('Query interrupted')."""
    from mmlab.experiments.store import Store
    from mmlab.experiments.study import Study

    def interrupted(self):
        raise RuntimeError("Query interrupted")

    monkeypatch.setattr(Store, "studies", interrupted)
    store = tmp_path / "r.duckdb"
    Store(store).register(Study.from_toml(STUDY))
    code, _, err = run(capsys, "studies", "--store", str(store))
    assert code == 130 and err.strip() == "interrupted"


def test_report_gives_exact_means_without_a_standard_error(capsys, tmp_path):
    store = str(tmp_path / "r.duckdb")
    code, out, _ = run(capsys, "compare", "3x4", "--strategies", "knuth,random", "--json", "--store", store)
    study = json.loads(out)["study"]
    code, out, _ = run(capsys, "report", study, "--store", store)
    knuth = next(line for line in out.splitlines() if "knuth" in line)
    random = next(line for line in out.splitlines() if "random" in line and "│" in line)
    assert code == 0 and "3.3750" in knuth and "±" not in knuth and "±" in random
    assert "a mean without ± is exact" in out

    page_path = tmp_path / "report.html"
    assert run(capsys, "report", study, "--store", store, "--html", str(page_path))[0] == 0
    page = page_path.read_text()
    first_table = page.split("<table", 2)[1]
    header, *rows = ([cell.strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
                     for row in re.findall(r"<tr[^>]*>(.*?)</tr>", first_table, re.S))
    summary = {row[header.index("strategy")]: dict(zip(header, row)) for row in rows}
    assert summary["knuth"]["exact"] == "True" and summary["knuth"]["stderr"] == ""
    assert summary["random"]["exact"] == "False" and float(summary["random"]["stderr"]) > 0
    assert "An exact mean has no stderr" in page


def test_a_move_one_game_reaches_has_no_spread(capsys, tmp_path):
    """Norvig's strategy reaches a fifth move on one 3x4 secret: its consistent set has no s.d."""
    store = str(tmp_path / "r.duckdb")
    assert run(capsys, "compare", "3x4", "--strategies", "norvig", "--store", store)[0] == 0
    name = json.loads(run(capsys, "studies", "--store", store, "--json")[1])[0]["study"]
    out = run(capsys, "report", name, "--store", store)[1]
    moves = out.split("consistent set before the move")[1]
    assert "nan" not in moves and "64 ± 0" in moves


def test_a_deterministic_mean_is_exact_only_once_every_secret_is_stored(capsys, tmp_path):
    """An interrupted run holds the lowest-numbered secrets: its mean is a biased part, not exact."""
    import duckdb

    path = tmp_path / "part.toml"
    path.write_text('name = "part"\nsizes = ["3x4", "2x3"]\nstrategies = ["knuth"]\nsecrets = "all"\n')
    store = str(tmp_path / "r.duckdb")
    assert run(capsys, "run", str(path), "--store", store, "--jobs", "1")[0] == 0
    out = run(capsys, "report", "part", "--store", store)[1]
    summary = out.split("a mean without ± is exact")[0]  # the summary tables, before the per-move ones
    assert not re.search(r"\d ± \d", summary) and "3.3750" in summary
    with duckdb.connect(store) as db:  # as if the run stopped half-way through 3x4
        db.execute("DELETE FROM games WHERE size = '3x4' AND slot >= 32")
        db.execute("DELETE FROM moves WHERE size = '3x4' AND slot >= 32")
    out = run(capsys, "report", "part", "--store", store)[1]
    three, two = out.split("a mean without ± is exact")[0].split("part: 2x3")
    assert re.search(r"\d ± \d", three) and not re.search(r"\d ± \d", two)


def test_reporting_a_file_that_changed_says_the_stored_study_is_reported(capsys, tmp_path):
    path = tmp_path / "demo.toml"
    path.write_text(STUDY.replace("secrets = 30", "secrets = 5"))
    store = str(tmp_path / "r.duckdb")
    assert run(capsys, "run", str(path), "--store", store, "--jobs", "1")[0] == 0
    assert "no longer matches" not in run(capsys, "report", str(path), "--store", store)[2]
    path.write_text(STUDY.replace("secrets = 30", "secrets = 5").replace("seed = 9", "seed = 10"))
    code, out, err = run(capsys, "report", str(path), "--store", store)
    err = " ".join(err.split())  # (the console wraps long lines)
    assert code == 0 and "no longer matches the stored study 'cli-demo' (its seed changed)" in err
    assert "(seed 9, 2 runs, secrets sample:5, strategies most-parts:pool=consistent,ties=random,first=112, " in err
    path.write_text(STUDY.replace("secrets = 30", "secrets = 5").replace('first=112"]', 'first=112", "knuth"]'))
    err = " ".join(run(capsys, "report", str(path), "--store", store)[2].split())
    assert "(its strategies changed)" in err  # (helper-101's review: a strategy added was not said)
    code, _, err = run(capsys, "export", str(path), str(tmp_path / "games.csv"), "--store", store)
    err = " ".join(err.split())
    assert code == 0 and "no longer matches the stored study 'cli-demo'; this takes the stored one" in err
    # forget deletes: a file that no longer matches may be meant for another study (helper-118: it
    # printed the note and deleted the stored one)
    code, _, err = run(capsys, "forget", str(path), "--store", store)
    err = " ".join(err.split())
    assert code == 2 and "no longer matches the stored study 'cli-demo', so it may not be the study you mean to " \
                         "delete: name it, 'mmlab forget cli-demo', to delete the stored one" in err
    assert "cli-demo" in run(capsys, "studies", "--store", store)[1]
    assert run(capsys, "forget", "cli-demo", "--store", store)[0] == 0


def test_compare_on_a_sample_of_every_code_is_exact(capsys, tmp_path):
    code, out, _ = run(capsys, "compare", "3x4", "--strategies", "knuth,random", "--secrets", "100", "--runs", "2",
                       "--store", str(tmp_path / "r.duckdb"), "--json")
    rows = json.loads(out)["strategies"]
    assert [r["games"] for r in rows] == [64, 128] and [r["exact"] for r in rows] == [True, False]
    code, out, _ = run(capsys, "compare", "3x4", "4x4", "--strategies", "knuth", "--secrets", "100",
                       "--store", str(tmp_path / "r.duckdb"))
    out = " ".join(out.split())  # (the console wraps long lines)
    assert "3x4: all 64 secrets (deterministic strategies exactly)" in out and "4x4: secrets sample:100" in out


def test_a_foreign_duckdb_file_is_refused_and_left_as_it_was(capsys, tmp_path):
    import duckdb

    foreign = tmp_path / "foreign.duckdb"
    with duckdb.connect(str(foreign)) as con:
        con.execute("CREATE TABLE games (x INTEGER)")
    path = tmp_path / "s.toml"
    path.write_text(STUDY)
    code, _, err = run(capsys, "run", str(path), "--store", str(foreign))
    assert code == 2 and "a DuckDB file with tables of its own (games), not a results store" in err
    with duckdb.connect(str(foreign), read_only=True) as con:
        assert con.execute("SHOW TABLES").fetchall() == [("games",)]


def test_a_study_named_like_a_file_is_reported_by_its_name(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "def.toml").write_text('name = "pilot.toml"\nsizes = ["3x3"]\nstrategies = ["knuth"]\n')
    assert run(capsys, "run", "def.toml", "--jobs", "1")[0] == 0
    code, out, _ = run(capsys, "report", "pilot.toml")
    assert code == 0 and "pilot.toml: 3x3" in out
    summary = json.loads(run(capsys, "report", "pilot.toml", "--json")[1])["summary"]
    assert [(row["strategy"], row["exact"]) for row in summary] == [("knuth", True)]
    code, _, err = run(capsys, "report", "missing.toml")
    assert code == 2 and "cannot read the study file 'missing.toml'" in err


def test_equivalent_comparisons_are_one_study(capsys, tmp_path):
    store = str(tmp_path / "r.duckdb")
    code, _, err = run(capsys, "compare", "3x4", "--strategies", "knuth", "--store", store)
    assert code == 0 and "played 64 games" in err
    for same in (["--strategies", "knuth:pool=all,ties=first"], ["--strategies", "knuth", "--seed", "5"],
                 ["--strategies", "knuth", "--runs", "4"], ["--strategies", "knuth", "--secrets", "99999"],
                 ["--strategies", "knuth", "--secrets", "instance:64"]):
        code, _, err = run(capsys, "compare", "3x4", *same, "--store", store)
        assert code == 0 and "all 64 games already stored" in err, same
    code, _, err = run(capsys, "compare", "3x4", "--strategies", "entropy:ties=first,random", "--store", store)
    code, _, err = run(capsys, "compare", "3x4", "--strategies", "entropy,random", "--store", store)
    assert code == 0 and "all 128 games already stored" in err
    code, _, err = run(capsys, "compare", "3x4", "--strategies", "knuth", "--secrets", "10", "--seed", "5",
                       "--store", store)  # the seed draws the sample: another study
    assert code == 0 and "played 10 games" in err
    code, out, _ = run(capsys, "studies", "--store", store, "--json")
    assert len(json.loads(out)) == 3


def test_a_comparison_stored_under_the_name_its_options_gave_before_is_read_back(capsys, tmp_path):
    """Before the names were canonical, a comparison was named by the hash of its options as typed."""
    from dataclasses import replace

    from mmlab.experiments.runner import run_study
    from mmlab.experiments.store import Store
    from mmlab.experiments.study import Study

    typed = Study("compare", ("3x4",), ("knuth:ties=first",), runs=1, seed=7)
    old = replace(typed, name=f"compare-3x4-{typed.fingerprint[:8]}")
    store = Store(tmp_path / "r.duckdb")
    run_study(old, store, jobs=1)
    code, out, err = run(capsys, "compare", "3x4", "--strategies", "knuth:ties=first", "--seed", "7",
                         "--store", str(store.path), "--json")
    assert code == 0 and "all 64 games already stored" in err and json.loads(out)["study"] == old.name


def test_a_comparison_not_played_to_the_end_says_which_command_plays_the_rest(capsys, tmp_path):
    import duckdb

    store = str(tmp_path / "r.duckdb")
    code, out, _ = run(capsys, "compare", "3x4", "--strategies", "random,entropy:ties=random", "--runs", "2",
                       "--seed", "5", "--store", store, "--json")
    study = json.loads(out)["study"]
    with duckdb.connect(store) as con:  # as a Ctrl-C before any game of the second strategy was stored leaves it
        con.execute("DELETE FROM games WHERE strategy = 'entropy:ties=random'")
    code, out, _ = run(capsys, "report", study, "--store", store)
    command = f"mmlab compare 3x4 --strategies random,entropy:ties=random --secrets all --runs 2 --seed 5 --store {store}"
    assert code == 0 and f"128 of 256 games not played yet: run the same comparison again, which plays only " \
                         f"the missing games: {command}" in " ".join(out.split())
    assert "strategies:" not in out  # no row of the table is labelled 'entropy'
    code, _, err = run(capsys, *command.split()[1:])
    assert code == 0 and "played 128 games" in " ".join(err.split())


def test_a_study_file_not_played_to_the_end_says_which_command_plays_the_rest(capsys, tmp_path):
    import duckdb

    path, store = tmp_path / "part.toml", str(tmp_path / "part.duckdb")
    path.write_text('name = "part"\nsizes = ["3x3"]\nstrategies = ["knuth"]\n')
    run(capsys, "run", str(path), "--store", store, "--jobs", "1")
    with duckdb.connect(store) as con:  # as a Ctrl-C leaves it
        con.execute("DELETE FROM games WHERE slot > 10")
    resume = "run the study file{} again, which plays only the missing games: mmlab run {} --store " + store
    code, out, _ = run(capsys, "report", "part", "--store", store)  # by name: the file is not known
    assert code == 0 and "16 of 27 games not played yet: " + resume.format(" of 'part'", "FILE.toml") \
        in " ".join(out.split())
    code, out, _ = run(capsys, "report", str(path), "--store", store)
    assert code == 0 and resume.format("", path) in " ".join(out.split())
    code, _, err = run(capsys, "run", str(path), "--store", store, "--jobs", "1")
    assert code == 0 and "played 16 games" in err


def test_a_paired_test_without_any_difference_has_no_p_value(capsys, tmp_path):
    store = str(tmp_path / "r.duckdb")
    code, out, _ = run(capsys, "compare", "2x2", "--strategies", "knuth,most-parts", "--store", store, "--json")
    study = json.loads(out)["study"]
    code, out, _ = run(capsys, "report", study, "--store", store, "--json", "--html", str(tmp_path / "r.html"))
    test, = json.loads(out)["wilcoxon"]
    assert test["mean_difference"] == 0 and test["p_value"] is None and test["statistic"] is None
    assert "n/a" in (tmp_path / "r.html").read_text() and "no difference to test" in (tmp_path / "r.html").read_text()
    code, out, _ = run(capsys, "report", study, "--store", store)
    row = next(line for line in out.splitlines() if "knuth" in line and "most-parts" in line)
    assert row.split()[-2:] == ["n/a", "│"] and "no difference to test" in " ".join(out.split())


def test_an_empty_file_or_empty_duckdb_file_is_a_fresh_store(capsys, tmp_path):
    import duckdb

    blank, empty = tmp_path / "blank.duckdb", tmp_path / "empty.duckdb"
    blank.touch()  # as touch or mktemp leave it
    duckdb.connect(str(empty)).close()
    for path in (blank, empty):
        code, out, _ = run(capsys, "studies", "--store", str(path))
        assert code == 0 and "holds no study yet" in out
        code, _, err = run(capsys, "report", "x", "--store", str(path))
        assert code == 2 and "no study named 'x'" in err and "it holds no studies yet" in err
        code, _, err = run(capsys, "compare", "2x2", "--strategies", "knuth", "--store", str(path))
        assert code == 0 and "played 4 games" in err
        code, out, _ = run(capsys, "studies", "--store", str(path), "--json")
        assert json.loads(out)[0]["games"] == 4
    (tmp_path / "text.duckdb").write_text("not a database\n")
    code, _, err = run(capsys, "studies", "--store", str(tmp_path / "text.duckdb"))
    assert code == 2 and "is not a DuckDB file, so not a results store: choose another file with --store" in err


def test_a_csv_parquet_file_or_folder_is_refused_as_a_store_and_left_as_it_was(capsys, tmp_path):
    """DuckDB opens a CSV or Parquet file as a database in memory: reading it raised DuckDB's own
    "Cannot launch in-memory database in read-only mode!", and nothing would have been kept."""
    csv, parquet = tmp_path / "games.csv", tmp_path / "games.parquet"
    assert run(capsys, "eval", "2x2", "--strategy", "knuth", "--games", str(csv))[0] == 0
    pd.DataFrame({"secret": ["11"], "guesses": [1]}).to_parquet(parquet)
    for path in (csv, parquet):
        before = path.read_bytes()
        for command in (["studies"], ["report", "x"], ["compare", "2x2", "--strategies", "knuth"]):
            code, _, err = run(capsys, *command, "--store", str(path))
            assert code == 2 and f"'{path}' is not a DuckDB file, so not a results store" in err
        assert path.read_bytes() == before
    code, _, err = run(capsys, "studies", "--store", str(tmp_path))
    assert code == 2 and f"'{tmp_path}' is a folder, not a results store: --store takes a file, e.g. '{tmp_path}/" in err


def test_a_resumed_study_counts_the_games_it_has_left(capsys, tmp_path, monkeypatch):
    """The bar showed the whole study (0/120), then jumped to what was left."""
    import duckdb

    from mmlab.cli import studies
    from mmlab.experiments import runner

    path = tmp_path / "demo.toml"
    path.write_text(STUDY)
    store = str(tmp_path / "r.duckdb")
    run(capsys, "run", str(path), "--store", store, "--jobs", "1")
    with duckdb.connect(store) as con:  # as a run stopped after 110 of its 120 games leaves it
        con.execute("DELETE FROM games WHERE slot >= 25 AND run = 1")
    bars, updates = [], []
    real_progress, real_run_study = studies.progress, runner.run_study

    def progress(description, total):
        bars.append(total)
        return real_progress(description, total)

    def run_study(*args, on_progress, **options):
        def seen(done, total):
            updates.append((done, total))
            on_progress(done, total)
        return real_run_study(*args, on_progress=seen, **options)

    monkeypatch.setattr(studies, "progress", progress)
    monkeypatch.setattr(runner, "run_study", run_study)  # (which the command imports as it starts)
    code, _, err = run(capsys, "run", str(path), "--store", store, "--jobs", "1")
    assert code == 0 and "played 10 games" in err
    assert bars == [10] and updates[0] == (0, 10) and updates[-1] == (10, 10)


def test_games_lost_at_max_guesses_stand_beside_the_mean(capsys, tmp_path):
    import re

    path = tmp_path / "capped.toml"
    path.write_text('name = "capped"\nsizes = ["3x3"]\nstrategies = ["knuth"]\nmax_guesses = 2\n')
    store, page = str(tmp_path / "r.duckdb"), tmp_path / "capped.html"
    code, out, _ = run(capsys, "run", str(path), "--store", store, "--jobs", "1")
    header = next(line for line in out.splitlines() if "strategy" in line and "mean" in line)
    assert re.search(r"lost\W+mean", header) and "count each with the guesses it played" in " ".join(out.split())
    code, out, _ = run(capsys, "report", "capped", "--store", store, "--html", str(page), "--json")
    report = json.loads(out)
    summary, = report["summary"]
    assert list(summary)[list(summary).index("mean") - 1] == "lost" and summary["lost"] == 19
    text = page.read_text()
    assert re.search(r"<th>lost</th>\s*<th>mean</th>", text) and "count each with the guesses it played" in text
    # The histogram counts the 8 games won, as the plots do, and the 19 lost apart; until known, the games won.
    histogram, = report["histogram"]
    assert histogram["games_by_guesses"] == {"1": 1, "2": 7} and histogram["lost"] == 19
    assert summary["known_mean"] == 14 / 8 and re.search(r"<th>lost</th>\s*</tr>", text)
    code, out, _ = run(capsys, "report", "capped", "--store", store)
    assert code == 0 and re.search(r"strategy\W+1\W+2\W+lost\W", out) and re.search(r"knuth\W+1\W+7\W+19\W", out)
    assert "games won per number of guesses, and games lost" in out and "3x3, at most 2 guesses" in out
    assert "<h2>Games won per number of guesses, and games lost</h2>" in text


def test_an_80_column_terminal_gets_every_name_and_figure_whole(capsys, tmp_path, monkeypatch):
    from mmlab.cli import output
    monkeypatch.setattr(output.out, "_width", 80)
    store = str(tmp_path / "r.duckdb")
    code, out, _ = run(capsys, "compare", "3x4", "--strategies", "knuth,most-parts,random", "--store", store,
                       "--jobs", "1", "--runs", "2")
    assert code == 0
    code, out, _ = run(capsys, "report", re.search(r"stored as study (\S+)", out)[1], "--store", store)
    rows = [line for line in out.splitlines() if line.startswith(("knuth ", "most-parts ", "random "))]
    assert code == 0 and len(rows) == 3 and "…" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert re.search(r"^random +\d+ +\d\.\d{4} ± \d\.\d{4} ", rows[2])


def test_the_report_names_the_game_variant_of_its_study(capsys, tmp_path):
    """A comparison with black-only answers and no repeated colours is titled so, not like a standard game."""
    store, page = str(tmp_path / "r.duckdb"), tmp_path / "variant.html"
    code, out, _ = run(capsys, "compare", "3x4", "--no-repeats", "--black-only", "--strategies", "knuth", "--store",
                       store, "--jobs", "1")
    name = re.search(r"stored as study (\S+)", out)[1]
    code, out, _ = run(capsys, "report", name, "--store", store, "--html", str(page))
    assert code == 0 and f"{name}: 3x4 (no repeats, black feedback), secrets all" in out
    assert "sizes 3x4 (no repeats, black feedback); secrets all" in page.read_text()
    path = tmp_path / "capped.toml"
    path.write_text('name = "capped"\nsizes = ["3x3"]\nstrategies = ["knuth"]\nmax_guesses = 2\n')
    code, out, _ = run(capsys, "run", str(path), "--store", store, "--jobs", "1")
    assert code == 0 and "capped: 3x3, at most 2 guesses, secrets all" in out


def test_comparisons_of_strategies_in_another_order_are_two_studies_under_names_that_stay():
    """The names hash the definition, the order of the strategies (the tables') with it: stored names must not move."""
    from mmlab.cli.compare import _compare_study
    from mmlab.experiments.store import Store
    from mmlab.experiments.study import Study

    def name(*specs: str) -> str:
        return _compare_study(Study("compare", ("4x6",), specs), Store("/nonexistent/r.duckdb")).name

    assert name("irving", "knuth") == "compare-4x6-a6a8a6f6" and name("knuth", "irving") == "compare-4x6-4511ce60"
    assert name("knuth:pool=all,ties=first", "irving") == "compare-4x6-4511ce60"


def test_a_report_titles_an_instance_set_played_as_a_sample_so(capsys, tmp_path):
    """As compare does: the report's title and page said 'secrets instance:30' for 30 secrets drawn as a sample."""
    store = str(tmp_path / "r.duckdb")
    run(capsys, "compare", "3x4", "--strategies", "random", "--secrets", "instance:30", "--store", store)
    name = json.loads(run(capsys, "studies", "--store", store, "--json")[1])[0]["study"]
    code, out, _ = run(capsys, "report", name, "--store", store, "--html", str(tmp_path / "r.html"))
    assert code == 0 and "secrets sample:30 (instance:30 holds fewer than the 64 codes)" in " ".join(out.split())
    assert "secrets sample:30 (instance:30 holds fewer than the 64 codes);" in (tmp_path / "r.html").read_text()


def test_a_report_titles_a_sample_of_every_code_as_every_code(capsys, tmp_path):
    """compare 3x4 4x6 --secrets 300 plays every code of 3x4 once and said so ('3x4: all 64
    secrets'); the report's title and page said 'secrets sample:300' over its 64 games."""
    store = str(tmp_path / "r.duckdb")
    run(capsys, "compare", "3x4", "4x6", "--strategies", "knuth,random", "--secrets", "300", "--store", store)
    name = json.loads(run(capsys, "studies", "--store", store, "--json")[1])[0]["study"]
    code, out, _ = run(capsys, "report", name, "--store", store, "--html", str(tmp_path / "r.html"))
    titles = [line for line in " ".join(out.split()).split(name + ":")[1:]]
    assert code == 0 and len(titles) == 2
    assert titles[0].startswith(" 3x4, secrets all 64 codes (sample:300 asks for at least as many), 1 run")
    assert titles[1].startswith(" 4x6, secrets sample:300, 1 run")
    assert "secrets all 64 codes (sample:300 asks for at least as many) / sample:300;" in (tmp_path / "r.html").read_text()


def test_a_study_played_by_a_strategy_this_session_does_not_know_is_reported(capsys, tmp_path, monkeypatch):
    """A strategy registered in the Python session that ran the study (or known to another mmlab)
    is not known to the command line: its stored games are reported, with a note, not refused."""
    from mmlab.experiments.runner import run_study
    from mmlab.experiments.study import Study
    from mmlab.strategies import Strategy, register
    from mmlab.strategies.registry import REGISTRY

    @register
    class LowestConsistent(Strategy):
        name, summary = "lowest-consistent-cli", "the lowest consistent code"

        def guess(self, knowledge) -> int:
            return int(knowledge.consistent[0])

    store = str(tmp_path / "r.duckdb")
    run_study(Study("custom", ["3x3"], ["lowest-consistent-cli", "knuth"]), store, jobs=1)
    monkeypatch.delitem(REGISTRY, "lowest-consistent-cli")  # a new session: the command line's
    code, out, err = run(capsys, "report", "custom", "--store", store)
    err = " ".join(err.split())
    assert code == 0 and "does not know lowest-consistent-cli" in err
    assert re.search(r"lowest-consistent-cli\s*│\s*27\s*│", out)
    assert re.search(r"knuth\s*│\s*27\s*│\s*2\.7407\s*│", out)  # (knuth's mean is exact)
    code, out, _ = run(capsys, "report", "custom", "--store", store, "--json")
    assert code == 0 and [row["games"] for row in json.loads(out)["summary"]] == [27, 27]


def test_reporting_a_study_file_not_played_yet_says_how_to_play_it(capsys, tmp_path):
    path = tmp_path / "demo.toml"
    path.write_text(STUDY.replace("secrets = 30", "secrets = 5"))
    store = str(tmp_path / "r.duckdb")
    assert run(capsys, "run", str(path), "--store", store, "--jobs", "1")[0] == 0
    other = tmp_path / "other.toml"
    other.write_text(STUDY.replace('name = "cli-demo"', 'name = "other"'))
    for command in (["report"], ["export", "--table", "games"], ["forget"]):  # (export said only 'no study named')
        code, _, err = run(capsys, *command, str(other), *(["x.csv"] if "export" in command else []), "--store", store)
        err = " ".join(err.split())
        assert code == 2 and f"is the study 'other', which '{store}' does not hold: mmlab run {other} --store {store}" in err


def test_reporting_a_study_file_with_no_store_yet_says_how_to_play_it(capsys, tmp_path, monkeypatch):
    """With no store the message was only 'run a study first (mmlab run or mmlab compare)'."""
    monkeypatch.chdir(tmp_path)
    Path("demo.toml").write_text(STUDY)
    code, _, err = run(capsys, "report", "demo.toml")
    assert code == 2 and " ".join(err.split()).endswith(
        "demo.toml is the study 'cli-demo', and there is no results store at 'mmlab-results.duckdb': "
        "mmlab run demo.toml plays it")
    assert not Path("mmlab-results.duckdb").exists()


def test_a_figure_folder_on_a_read_only_disk_is_refused_saying_so(capsys, tmp_path, monkeypatch):
    """os.access cannot tell a read-only disk (and says yes to root everywhere): the folder is tried."""
    import errno
    import tempfile

    path = tmp_path / "demo.toml"
    path.write_text(STUDY.replace("secrets = 30", "secrets = 5"))
    store = str(tmp_path / "r.duckdb")
    assert run(capsys, "run", str(path), "--store", store, "--jobs", "1")[0] == 0

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "TemporaryFile", read_only)
    code, out, err = run(capsys, "report", "cli-demo", "--store", store, "--plots", str(tmp_path / "figs"))
    assert code == 2 and out == "" and "cannot write the plots into" in err and "Read-only file system" in err
    code, _, err = run(capsys, "report", "cli-demo", "--store", store, "--html", str(tmp_path / "r.html"))
    assert code == 2 and "r.html': Read-only file system" in " ".join(err.split())
    assert not (tmp_path / "r.html").exists()


def test_the_default_store_of_the_options_is_the_stores():
    """The options name it without importing the store (DuckDB, pandas)."""
    from mmlab.cli import studies
    from mmlab.experiments.store import DEFAULT_STORE

    assert studies.DEFAULT_STORE == DEFAULT_STORE


def test_report_without_a_name_reports_the_study_stored_or_run_last(capsys, tmp_path):
    """'mmlab report' alone ended in argparse's 'the following arguments are required: study'."""
    store = str(tmp_path / "r.duckdb")
    for size in ("3x3", "2x3"):
        assert run(capsys, "compare", size, "--strategies", "knuth", "--store", store, "--jobs", "1")[0] == 0
    first = Store(store).studies()["study"].iloc[0]
    code, out, err = run(capsys, "report", "--store", store)
    assert code == 0 and "2x3" in out.splitlines()[0] and "the study stored or run last: compare-2x3-" in err
    with duckdb.connect(store) as con:  # its games lost: played again, the first study is the one run last
        con.execute("DELETE FROM games WHERE study = ?", [first])
    code, out, err = run(capsys, "compare", "3x3", "--strategies", "knuth", "--store", store, "--jobs", "1")
    assert code == 0 and "played 27 games" in err
    code, out, err = run(capsys, "report", "--store", store, "--json")
    assert code == 0 and json.loads(out)["study"]["name"] == first
    for name in list(Store(store).studies()["study"]):
        Store(store).forget(name)
    code, out, err = run(capsys, "report", "--store", store)
    assert code == 2 and "holds no studies yet: run one first (mmlab run or mmlab compare)" in err


def test_report_json_counts_the_games_stored_of_a_study_not_played_to_the_end(capsys, tmp_path):
    path, store = tmp_path / "part.toml", tmp_path / "p.duckdb"
    path.write_text('name = "part"\nsizes = ["3x3"]\nstrategies = ["knuth"]\n')
    assert run(capsys, "run", str(path), "--store", str(store), "--jobs", "1")[0] == 0
    with duckdb.connect(str(store)) as con:
        con.execute("DELETE FROM games WHERE slot > 10")
    code, out, _ = run(capsys, "report", "part", "--store", str(store), "--json")
    data = json.loads(out)
    assert code == 0 and (data["games_stored"], data["games_expected"]) == (11, 27)
