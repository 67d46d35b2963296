"""The results store: whole games only, resumable after SIGKILL, safe to share, exportable."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from mmlab.errors import StoreError
from mmlab.experiments.runner import run_study
from mmlab.experiments.store import SCHEMA, Store
from mmlab.experiments.study import Study

RESULT_COLUMNS = ["strategy", "size", "run", "slot", "secret", "seed", "guesses", "won", "known", "evaluations"]
MOVE_COLUMNS = ["strategy", "size", "run", "slot", "move", "guess", "black", "white", "consistent", "top_size",
                "secret_in_top", "chance"]

STUDY = """\
name = "killed"
sizes = ["4x4"]
strategies = ["random", "most-parts:pool=consistent,ties=random", "knuth"]
secrets = "all"
runs = 12
seed = 3
"""


def results(store: Store, name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    return (store.games(name)[RESULT_COLUMNS].reset_index(drop=True),
            store.moves(name)[MOVE_COLUMNS].reset_index(drop=True))


def test_a_study_is_stored_once_and_continued(tmp_path):
    study = Study.from_toml(STUDY.replace("runs = 12", "runs = 2"))
    store = Store(tmp_path / "r.duckdb")
    first = run_study(study, store, jobs=1)
    assert first.played == first.written == study.n_games and first.skipped == 0
    again = run_study(study, store, jobs=1)
    assert again.played == 0 and again.skipped == study.n_games
    games, moves = results(store, "killed")
    assert len(games) == study.n_games and len(moves) == games["guesses"].sum()
    runs = store.runs("killed")
    assert len(runs) == 1 and runs["games_written"].iloc[0] == study.n_games
    assert runs["finished"].notna().all() and runs["mmlab_version"].iloc[0]


def test_a_study_played_to_the_end_is_read_back_without_writing(tmp_path, monkeypatch):
    """A store on a read-only disk still serves 'mmlab compare' and 'mmlab run' of what it holds."""
    study = Study.from_toml(STUDY.replace("runs = 12", "runs = 2"))
    store = Store(tmp_path / "r.duckdb")
    run_study(study, store, jobs=1)
    opened = Store.connect

    def read_only(self, read_only=False, **options):
        if not read_only:
            raise StoreError("cannot open the results store: Read-only file system")
        return opened(self, read_only=True, **options)

    monkeypatch.setattr(Store, "connect", read_only)
    again = run_study(study, store, jobs=1)
    assert again.played == 0 and again.skipped == study.n_games
    with pytest.raises(StoreError, match="Read-only"):  # what is not stored yet still needs to write
        run_study(Study.from_toml(STUDY.replace("runs = 12", "runs = 3")), store, jobs=1)


def test_a_store_that_cannot_be_written_says_to_choose_another_with_store(tmp_path, monkeypatch):
    import duckdb

    def refused(path, read_only=False):
        raise duckdb.IOException(f'IO Error: Cannot open file "{path}": Read-only file system')

    monkeypatch.setattr(duckdb, "connect", refused)
    with pytest.raises(StoreError, match="Read-only file system; to keep the results elsewhere, give a file in a "
                                         "folder you can write with --store PATH"):
        Store(tmp_path / "r.duckdb").register(Study.from_toml(STUDY))


def test_an_empty_duckdb_file_becomes_a_store(tmp_path):
    import duckdb

    duckdb.connect(str(tmp_path / "empty.duckdb")).close()
    study = Study.from_toml(STUDY.replace("runs = 12", "runs = 1"))
    assert run_study(study, Store(tmp_path / "empty.duckdb"), jobs=1).written == study.n_games


def test_the_git_revision_is_the_checkouts_only_when_mmlab_runs_from_its_source_tree(tmp_path, monkeypatch):
    import mmlab
    from mmlab.experiments import runner

    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "one"], check=True)
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()

    def revision_with_package_at(folder: Path) -> str | None:
        folder.mkdir(parents=True, exist_ok=True)
        monkeypatch.setattr(mmlab, "__file__", str(folder / "__init__.py"))
        return runner._git_revision()

    # an installed wheel inside someone else's repository: that repository is not mmlab's revision
    assert revision_with_package_at(tmp_path / "lib" / "python3" / "site-packages" / "mmlab") is None
    assert revision_with_package_at(tmp_path / "src" / "mmlab") is None  # no pyproject.toml: not a checkout
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'mmlab'\n")
    assert revision_with_package_at(tmp_path / "src" / "mmlab") == head  # a source checkout


def test_games_stored_meanwhile_by_another_run_are_kept_and_not_counted_as_written(tmp_path, monkeypatch):
    """Two runs of one study at once: the later writer finds the games there and says so."""
    study = Study.from_toml(STUDY.replace("runs = 12", "runs = 2"))
    store = Store(tmp_path / "r.duckdb")
    run_study(study, store, jobs=1)
    before = results(store, "killed")
    monkeypatch.setattr(store, "done", lambda name: set())  # as if it had looked before the other run wrote
    late = run_study(study, store, jobs=1)
    assert late.played == study.n_games and late.written == 0
    after = results(store, "killed")
    pd.testing.assert_frame_equal(before[0], after[0])
    pd.testing.assert_frame_equal(before[1], after[1])  # (moves have no key: their game's decides)
    assert store.runs("killed")["games_written"].tolist() == [study.n_games, 0]


def test_a_store_made_when_moves_had_a_key_is_written_as_before(tmp_path, monkeypatch):
    """Stores made before the moves table lost its primary key keep it; writing them works, and a
    game stored meanwhile by another run keeps its moves once."""
    path = tmp_path / "old.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(SCHEMA.replace("secret_in_top BOOLEAN, chance DOUBLE\n",
                                   "secret_in_top BOOLEAN, chance DOUBLE,\n"
                                   "    PRIMARY KEY (study, strategy, size, run, slot, move)\n"))
        assert con.execute("SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'moves' "
                           "AND constraint_type = 'PRIMARY KEY'").fetchone() == (1,)
    study = Study.from_toml(STUDY.replace("runs = 12", "runs = 2"))
    store = Store(path)
    run_study(study, store, jobs=1)
    before = results(store, "killed")
    monkeypatch.setattr(store, "done", lambda name: set())
    assert run_study(study, store, jobs=1).written == 0
    after = results(store, "killed")
    pd.testing.assert_frame_equal(before[1], after[1])
    assert len(after[1]) == after[0]["guesses"].sum()


def test_a_run_that_found_its_study_stored_keeps_it_when_a_failed_run_withdraws_it(tmp_path, monkeypatch):
    """Run A registers the study and fails; run B, which found it stored, starts before A withdraws
    it: B's games were stored under a study the store no longer held."""
    store, study = Store(tmp_path / "r.duckdb"), Study("race", ("3x3",), ("knuth",))
    start_run = Store.start_run

    def withdrawn_first(self, run_id, study, metadata):  # A withdraws just before B records its run
        self.withdraw(study.name, "run-a")
        start_run(self, run_id, study, metadata)

    store.register(study)  # (by A)
    monkeypatch.setattr(Store, "start_run", withdrawn_first)
    assert run_study(study, store, jobs=1).written == 27
    assert store.fingerprint("race") == study.fingerprint and len(store.games("race")) == 27


def test_withdraw_undoes_only_a_run_that_stored_no_game(tmp_path):
    """``Store.withdraw``'s promise, whoever calls it: the run and the study go only when the run
    stored no game; a run that stored some keeps its row (and the study its games)."""
    from mmlab.experiments.chunk import Chunk, play_chunk

    store, study = Store(tmp_path / "r.duckdb"), Study("w", ("3x3",), ("knuth",))
    store.register(study)
    store.start_run("empty", study, {})
    store.start_run("wrote", study, {})
    played = play_chunk(Chunk("w", "3x3", True, "black-white", "knuth", 0, None, ((0, 0, 0), (0, 1, 1)), "wrote"))
    assert store.write("wrote", played.games, played.moves) == 2
    store.withdraw("w", "wrote")
    store.withdraw("w", "empty")
    assert store.runs("w")[["run_id", "games_written"]].values.tolist() == [["wrote", 2]]
    assert store.fingerprint("w") == study.fingerprint and len(store.games("w")) == 2


def test_the_last_study_is_the_one_stored_or_run_last(tmp_path):
    """``Store.last_study`` (what 'mmlab report' reports without a name): the later of a study's
    creation and its last run's start, so a study run again after another was stored is the last."""
    store = Store(tmp_path / "r.duckdb")
    first, second = Study("first", ("3x3",), ("knuth",)), Study("second", ("3x3",), ("knuth",))
    store.register(first)
    store.register(second)
    assert store.last_study() == "second"
    store.start_run("again", first, {})  # first played again (its missing games, say)
    assert store.last_study() == "first"


def test_a_changed_study_under_the_same_name_is_refused(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    run_study(Study.from_toml(STUDY.replace("runs = 12", "runs = 1")), store, jobs=1)
    with pytest.raises(StoreError, match=r"already holds another study named 'killed' \(runs 1 there, 2 here\); "):
        run_study(Study.from_toml(STUDY.replace("runs = 12", "runs = 2")), store, jobs=1)


def test_a_study_with_a_strategy_more_or_less_is_refused_naming_it(tmp_path):
    """Two long specs stored, then a third: the message elided the middle of both lists, so that
    'there' and 'here' read the same; it names the strategy added or missing, in full."""
    store = Store(tmp_path / "r.duckdb")
    specs = [f"{name}:pool=consistent,ties=random,first=123" for name in ("entropy", "most-parts", "plus")]
    store.register(Study("d", ["3x4"], specs[:2], secrets=10))
    with pytest.raises(StoreError, match=r"study named 'd' \(strategies: here adds "
                                         r'"plus:pool=consistent,ties=random,first=123"\); give this one'):
        store.register(Study("d", ["3x4"], specs, secrets=10))
    with pytest.raises(StoreError, match=r"\(secrets \"sample:10\" there, \"sample:20\" here; strategies: here adds \"plus:.*, lacks "
                                         r'"most-parts:pool=consistent,ties=random,first=123"\);'):
        store.register(Study("d", ["3x4"], [specs[0], specs[2]], secrets=20))


def test_a_study_killed_while_writing_restarts_cleanly(tmp_path):
    """SIGKILL at several moments while chunks are written one after another, then finish: the
    games equal those of an uninterrupted run, none lost, none counted twice."""
    path = tmp_path / "study.toml"
    path.write_text(STUDY.replace("runs = 12", "runs = 4"))
    store_path = tmp_path / "killed.duckdb"
    child = textwrap.dedent(f"""
        import mmlab.experiments.runner as runner
        from mmlab.experiments.store import SCHEMA, Store
        from mmlab.experiments.study import Study
        runner.FLUSH_SECONDS = 0  # write after every chunk: a kill lands in or near a write
        runner.run_study(Study.load({str(path)!r}), Store({str(store_path)!r}), jobs=1, chunk_games=16,
                         on_progress=lambda done, total: print(done, flush=True))
    """)
    counts = []
    for chunks, pause in ((3, 0.0), (30, 0.004), (60, 0.011)):
        proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
        for _ in range(chunks):
            proc.stdout.readline()
        time.sleep(pause)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        counts.append(len(Store(store_path).done("killed")))
    study = Study.load(path)
    assert 0 < counts[0] <= counts[1] <= counts[2] < study.n_games
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    store = Store(store_path)
    reference = Store(tmp_path / "clean.duckdb")
    run_study(study, reference, jobs=1)
    killed, clean = results(store, "killed"), results(reference, "killed")
    pd.testing.assert_frame_equal(killed[0], clean[0])
    pd.testing.assert_frame_equal(killed[1], clean[1])
    assert len(store.runs("killed")) == 4  # each start is recorded


@pytest.mark.parametrize("delay", [0.1, 1.0])
def test_ctrl_c_while_workers_start_says_interrupted_and_nothing_else(tmp_path, delay):
    """A terminal sends Ctrl-C to every process of the job: the workers, still importing, ignore it
    and the run stops with one line, its games kept for the next run."""
    path = tmp_path / "study.toml"
    path.write_text(STUDY)
    store = tmp_path / "ctrl-c.duckdb"
    proc = subprocess.Popen([sys.executable, "-m", "mmlab", "run", str(path), "--store", str(store),
                             "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    for _ in range(600):  # until the run has started: mmlab is imported and the store opened
        if store.exists() or proc.poll() is not None:
            break
        time.sleep(0.05)
    time.sleep(delay)  # the workers are starting
    os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode in (-signal.SIGINT, 0), err  # (killed by Ctrl-C; 0 if the run had finished)
    assert "Traceback" not in err and "Error" not in err, err


def test_a_busy_store_makes_a_writer_wait_then_refuse(tmp_path):
    store_path = tmp_path / "busy.duckdb"
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import duckdb, sys, time
        con = duckdb.connect({str(store_path)!r})
        print("locked", flush=True)
        time.sleep(30)
    """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        study = Study.from_toml(STUDY.replace("runs = 12", "runs = 1"))
        with pytest.raises(StoreError, match=r"in use by another process .*PID"):
            run_study(study, Store(store_path, wait=0.5), jobs=1)
    finally:
        holder.kill()
        holder.wait()


def test_two_studies_writing_one_store_at_once_both_finish(tmp_path):
    store_path = tmp_path / "shared.duckdb"
    procs = []
    for name in ("one", "two"):
        path = tmp_path / f"{name}.toml"
        path.write_text(STUDY.replace('"killed"', f'"{name}"').replace("runs = 12", "runs = 3"))
        procs.append(subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
            import mmlab.experiments.runner as runner
            from mmlab.cli.main import main
            runner.FLUSH_SECONDS = 0
            raise SystemExit(main(["run", {str(path)!r}, "--store", {str(store_path)!r}, "--jobs", "1"]))
        """)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
    for proc in procs:
        _, errors = proc.communicate(timeout=300)
        assert proc.returncode == 0, errors
    store = Store(store_path)
    n = Study.from_toml(STUDY.replace("runs = 12", "runs = 3")).n_games
    assert len(store.games("one")) == n and len(store.games("two")) == n


def test_export_csv_and_parquet(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    study = Study.from_toml(STUDY.replace("runs = 12", "runs = 1"))
    run_study(study, store, jobs=1)
    games = store.games("killed")
    csv = pd.read_csv(store.export("killed", tmp_path / "g.csv"), dtype={"secret": str})
    assert len(csv) == len(games) and list(csv["guesses"]) == list(games["guesses"])
    parquet = pd.read_parquet(store.export("killed", tmp_path / "m.parquet", table="moves"))
    assert len(parquet) == games["guesses"].sum()
    other = Study("other-size", ("2x3",), ("knuth",))  # (a second study in the store is not exported)
    run_study(other, store, jobs=1)
    again = pd.read_csv(store.export("killed", tmp_path / "again.csv"), dtype={"secret": str})
    assert set(again["study"]) == {"killed"} and len(again) == len(games)
    assert len(pd.read_parquet(store.export("killed", tmp_path / "again.parquet", table="moves"))) == len(parquet)
    with pytest.raises(StoreError, match=".csv or .parquet"):
        store.export("killed", tmp_path / "g.xlsx")
    with pytest.raises(StoreError, match="no study named 'other'"):
        store.export("other", tmp_path / "g.csv")
    with pytest.raises(StoreError, match="no study named 'other'"):
        store.runs("other")


def test_forget_deletes_a_study(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    run_study(Study.from_toml(STUDY.replace("runs = 12", "runs = 1")), store, jobs=1)
    assert store.forget("killed") == 256 * 3
    assert store.studies().empty
    for table in ("studies", "runs", "games", "moves"):  # nothing left behind, to be read with a study of its name
        assert store.query(f"SELECT count(*) AS n FROM {table} WHERE study = 'killed'")["n"].iloc[0] == 0, table


def test_a_study_with_a_secret_listed_twice_stored_before_they_were_refused_is_read_back(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    old = Study.stored({"name": "twice", "sizes": ["3x3"], "strategies": ["knuth"], "secrets": ["123", "123"]}, "old")
    run_study(old, store, jobs=1)  # as mmlab played it before
    assert store.study("twice") == old and len(store.games("twice")) == 2


def test_a_study_with_a_strategy_in_two_spellings_stored_before_they_were_refused_is_read_back(tmp_path):
    """mmlab took "knuth" and "knuth:ties=first" in one study before 2026-11-23: such a stored study is
    reported as it was played, its two spellings two strategies, while a new one is still refused."""
    from mmlab.errors import BadStudy
    from mmlab.experiments.report import build_report

    definition = {"name": "spelt", "sizes": ["3x3"], "strategies": ["knuth", "knuth:ties=first"]}
    old = Study.stored(definition, "old")
    store = Store(tmp_path / "r.duckdb")
    run_study(old, store, jobs=1)  # as mmlab played it before
    assert store.study("spelt") == old
    report = build_report(store, "spelt")
    assert list(report.summary["strategy"]) == ["knuth", "knuth:ties=first"] and list(report.summary["total"]) == [74, 74]
    with pytest.raises(BadStudy, match="a strategy is listed twice"):
        Study.from_dict(definition)


def test_a_study_whose_sizes_were_stored_as_written_is_read_back(tmp_path):
    """mmlab's first studies kept a size as the file wrote it ("3X3"), in the study and its games:
    such a store is reported, not ended in a traceback of the report's ordering."""
    import json

    from mmlab.experiments.report import build_report

    store = Store(tmp_path / "r.duckdb")
    run_study(Study("upper", ["3x3"], ["knuth", "random"]), store, jobs=1)
    with store.connect() as con:  # as mmlab's first version stored it
        definition = json.loads(con.execute("SELECT definition FROM studies").fetchone()[0])
        con.execute("UPDATE studies SET definition = ?", [json.dumps({**definition, "sizes": ["3X3"]})])
        for table in ("games", "moves"):
            con.execute(f"UPDATE {table} SET size = '3X3'")
    assert store.study("upper").sizes == ("3X3",)
    report = build_report(store, "upper")
    assert list(report.summary["games"]) == [27, 27] and report.summary["total"].iloc[0] == 74
    assert len(report.tests) == 1 and not report.per_move.empty
    assert Study.from_dict({"name": "new", "sizes": ["3X3"], "strategies": ["knuth"]}).sizes == ("3x3",)


def test_reading_a_missing_store_says_so(tmp_path):
    with pytest.raises(StoreError, match="no results store"):
        Store(tmp_path / "none.duckdb").games("x")


def test_the_studies_of_a_missing_store_are_refused_as_its_games_are(tmp_path):
    """Store('missing/x.duckdb').studies() gave an empty frame while results() and 'mmlab studies'
    said there is no store; it says so too, and a store made by a write lists its study."""
    from mmlab.experiments.store import results

    path = tmp_path / "missing" / "x.duckdb"
    for read in (Store(path).studies, lambda: results("x", store=path)):
        with pytest.raises(StoreError, match=r"^there is no results store at '.*x\.duckdb': run a study first"):
            read()
    assert not path.parent.exists()
    path.parent.mkdir()
    Store(path).register(Study("x", ["3x3"], ["knuth"]))
    assert list(Store(path).studies()["study"]) == ["x"]


def test_tree_read_games_equal_played_games(tmp_path):
    """Deterministic games read off a decision tree, whole or only the chunk's branches, give the
    rows that playing them gives (a cap on guesses that no game reaches makes the chunk play)."""
    from mmlab.experiments.chunk import Chunk, play_chunk

    for spec in ("knuth", "most-parts", "greedy1", "local-search", "norvig:first=123"):
        games = tuple((0, slot, slot * 3) for slot in range(40))
        played = play_chunk(Chunk("t", "3x5", True, "black-white", spec, 1, 100, games, "r"))
        for whole_tree in (False, True):
            read = play_chunk(Chunk("t", "3x5", True, "black-white", spec, 1, None, games, "r", whole_tree=whole_tree))
            assert read.moves == played.moves
            assert {**read.games, "seconds": None} == {**played.games, "seconds": None}


def test_a_study_forgotten_while_it_runs_gets_no_more_games(tmp_path):
    from mmlab.experiments.chunk import Chunk, play_chunk

    store = Store(tmp_path / "r.duckdb")
    study = Study("gone", ("3x3",), ("knuth",))
    store.register(study)
    store.start_run("r1", study, {})
    played = play_chunk(Chunk("gone", "3x3", True, "black-white", "knuth", 0, None, ((0, 0, 1),), "r1"))
    assert store.write("r1", played.games, played.moves) == 1
    store.forget("gone")
    with pytest.raises(StoreError, match="was deleted from .* while this run played it"):
        store.write("r1", played.games, played.moves)
    assert store.query("SELECT count(*) AS n FROM games")["n"].iloc[0] == 0


def test_run_report_and_results_take_a_store_or_its_path(tmp_path):
    from mmlab.experiments import build_report, results

    path = tmp_path / "s1.duckdb"
    study = Study("s1", ["3x3"], ["knuth"])
    assert run_study(study, str(path), jobs=1).played == 27
    assert run_study(study, path, jobs=1).played == 0
    for store in (str(path), path, Store(path)):
        assert build_report(store, "s1").summary["total"].iloc[0] == 74
        assert results("s1", store=store)["guesses"].sum() == 74
    with pytest.raises(StoreError, match="expected a Store or the path of a results file, got 3"):
        results("s1", store=3)


def test_a_study_is_read_by_its_name_or_the_study_itself(tmp_path):
    """results(study) gave DuckDB's 'Unable to transform python value of type Study' (helper-115)."""
    from mmlab.experiments import build_report, results

    store = Store(tmp_path / "r.duckdb")
    study = Study("s1", ["3x3"], ["knuth"])
    run_study(study, store, jobs=1)
    assert results(study, store=store).equals(results("s1", store=store)) and len(store.games(study)) == 27
    assert build_report(store, study).summary["total"].iloc[0] == 74 and len(store.runs(study)) == 1
    with store.study_moves(study) as con:
        assert con.execute("SELECT count(*) FROM study_moves").fetchall() == [(74,)]
    for bad in (42, None):
        with pytest.raises(StoreError, match=f"expected a study's name or a Study, got {bad}"):
            results(bad, store=store)
    assert store.forget(study) == 27 and store.studies().empty


def test_an_empty_file_that_cannot_be_replaced_is_refused_with_what_to_do(tmp_path, monkeypatch):
    """(A folder that forbids deleting; as root only an immutable folder does, so it is simulated.)"""
    blank = tmp_path / "blank.duckdb"
    blank.touch()

    def refuse(self, missing_ok=False):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(Path, "unlink", refuse)
    with pytest.raises(StoreError, match="an empty file: Operation not permitted; to keep the results elsewhere"):
        with Store(blank).connect():
            pass


def test_moves_of_chosen_columns_and_a_column_the_table_lacks_refused(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    run_study(Study.from_toml(STUDY.replace("runs = 12", "runs = 1")), store, jobs=1)
    assert store.moves("killed", columns=["slot", "move"]).columns.tolist() == ["slot", "move"]
    with pytest.raises(StoreError, match="the moves table has no column nope"):
        store.moves("killed", columns=["move", "nope"])


def test_games_come_in_the_studys_order_with_the_columns_asked(tmp_path):
    """As the moves do: a report reads its games so (their texts, the secrets and the runs' ids, took
    most of the time and memory of reading a big study's games)."""
    store = Store(tmp_path / "r.duckdb")
    study = Study("o", ("3x3", "2x4"), ("random", "knuth"), runs=2, seed=1)
    run_study(study, store, jobs=1)
    keyed = store.games("o")
    by_hand = keyed.assign(_s=keyed["size"].map({"3x3": 0, "2x4": 1}), _t=keyed["strategy"].map({"random": 0, "knuth": 1}))
    by_hand = by_hand.sort_values(["_s", "_t", "run", "slot"]).drop(columns=["_s", "_t"]).reset_index(drop=True)
    assert list(dict.fromkeys(zip(by_hand["size"], by_hand["strategy"], strict=True))) == [
        ("3x3", "random"), ("3x3", "knuth"), ("2x4", "random"), ("2x4", "knuth")]
    ordered = store.games("o", order=study)
    assert ordered.equals(by_hand) and ordered.dtypes.equals(keyed.dtypes)
    assert store.games("o", order=study, columns=["size", "guesses", "strategy"]).equals(
        by_hand[["size", "guesses", "strategy"]])
    assert store.games("o", columns=["slot", "won"]).equals(keyed[["slot", "won"]])
    with pytest.raises(StoreError, match="the games table has no column move"):
        store.games("o", columns=["slot", "move"])
    with pytest.raises(StoreError, match=r"^columns must list distinct columns of the games table, e\.g\. "):
        store.games("o", columns="guesses")


def test_rows_of_a_size_or_strategy_their_study_does_not_list_are_read_as_they_are(tmp_path):
    """(Games stored under another spelling: the study's order puts them last, their texts kept.)"""
    store = Store(tmp_path / "r.duckdb")
    study = Study("o", ("3x3",), ("random", "knuth"), seed=1)
    run_study(study, store, jobs=1)
    with store.connect() as con:
        for table in ("games", "moves"):
            con.execute(f"UPDATE {table} SET strategy = 'KNUTH' WHERE strategy = 'knuth' AND slot = 0")
    for rows in (store.games("o", order=study), store.moves("o", order=study)):
        assert rows["strategy"].tolist()[-1] == "KNUTH" and rows["strategy"].tolist()[0] == "random"


@pytest.mark.parametrize("columns", [[], "move", ["move", "move"]])
def test_moves_refuse_no_column_a_text_and_a_column_twice(tmp_path, columns):
    """[] ended in DuckDB's 'SELECT clause without selection list', "move" in 'no column e, m, o,
    v' and a column twice in a frame with a column 'move_1'."""
    store = Store(tmp_path / "r.duckdb")
    run_study(Study.from_toml(STUDY.replace("runs = 12", "runs = 1")), store, jobs=1)
    with pytest.raises(StoreError, match=r"^columns must list distinct columns of the moves table, e\.g\. "
                                         r"\['move', 'consistent'\], got "):
        store.moves("killed", columns=columns)


def test_a_batch_giving_a_game_twice_is_refused_and_writes_nothing(tmp_path):
    """(Before the moves lost their key such a batch stored the game once; since, DuckDB's
    ConstraintException ended it.) The runner never gives one; a direct caller is told."""
    store = Store(tmp_path / "r.duckdb")
    study = Study.from_toml(STUDY.replace("runs = 12", "runs = 1"))
    run_study(study, store, jobs=1)
    run_id = store.runs("killed")["run_id"].iloc[0]
    games = store.games("killed").iloc[[0, 0]]
    moves = store.moves("killed")
    moves = moves[(moves["strategy"] == games["strategy"].iloc[0]) & (moves["slot"] == games["slot"].iloc[0])]
    with store.connect() as con:  # (a game not stored yet)
        for table in ("games", "moves"):
            con.execute(f"DELETE FROM {table} WHERE strategy = ? AND slot = ?",
                        [games["strategy"].iloc[0], int(games["slot"].iloc[0])])
    before = results(store, "killed")
    with pytest.raises(StoreError, match=r"a batch holds game .* run 0 slot \d+ of study 'killed' twice"):
        store.write(run_id, {c: games[c].tolist() for c in games.columns},
                    {c: pd.concat([moves, moves])[c].tolist() for c in moves.columns})
    after = results(store, "killed")
    pd.testing.assert_frame_equal(before[0], after[0])
    pd.testing.assert_frame_equal(before[1], after[1])
    # Once, it is written, also with the columns as pandas reads them back (NA for a missing figure)
    assert store.write(run_id, {c: games[c].iloc[:1].tolist() for c in games.columns},
                       {c: moves[c].tolist() for c in moves.columns}) == 1
    assert len(results(store, "killed")[1]) == len(before[1]) + len(moves)


def test_the_moves_of_each_stored_game_add_up_to_it(tmp_path):
    """The moves table beside the games table: a game's moves are numbered 1..guesses, the last one
    answered with every peg black, and their codes evaluated add up to the game's (001's metric),
    for games played one by one and read off a decision tree alike."""
    store = Store(tmp_path / "r.duckdb")
    run_study(Study("sums", ("3x4",), ("entropy:ties=random", "knuth", "random"), runs=2, seed=6), store, jobs=1)
    games, moves = store.games("sums"), store.moves("sums")
    per_game = moves.groupby(["strategy", "run", "slot"]).agg(n=("move", "size"), last=("move", "max"),
                                                             scored=("evaluations", "sum"))
    joined = games.set_index(["strategy", "run", "slot"]).join(per_game)
    assert len(joined) == 64 + 2 * 2 * 64 and joined["n"].notna().all()  # (knuth plays each secret once)
    assert (joined["n"] == joined["guesses"]).all() and (joined["last"] == joined["guesses"]).all()
    assert (joined["scored"] == joined["evaluations"]).all()
    assert joined.groupby("strategy")["evaluations"].sum()[["entropy:ties=random", "knuth"]].gt(0).all()
    won = moves.merge(games[["strategy", "run", "slot", "guesses"]], on=["strategy", "run", "slot"])
    assert (won.loc[won["move"] == won["guesses"], "black"] == 3).all()


def test_a_full_disk_stops_the_run_with_one_error_and_keeps_the_games_stored_before(tmp_path, monkeypatch):
    """DuckDB refuses the COMMIT of a batch when the disk is full (helper-118, on a 3 MB tmpfs): the
    run ended in two chained tracebacks, since the way out wrote the same batch again. The store's
    refusal (a StoreError, next test) ends it once now; the batches written before are kept."""
    study = Study("full", ("3x3",), ("random",), runs=4, seed=1)
    store = Store(tmp_path / "r.duckdb")
    write, tried = Store.write, []

    def full_after_one(self, run_id, games, moves):
        tried.append(len(games["run"]))
        if len(tried) > 1:
            raise StoreError("cannot write to the results store: No space left on device")
        return write(self, run_id, games, moves)

    monkeypatch.setattr(Store, "write", full_after_one)
    monkeypatch.setattr("mmlab.experiments.runner.FLUSH_GAMES", 27)  # (a batch a chunk)
    with pytest.raises(StoreError, match="No space left on device"):
        run_study(study, store, jobs=1, chunk_games=27)
    assert len(tried) == 2  # the refused batch not written again on the way out
    monkeypatch.setattr(Store, "write", write)
    assert len(store.games("full")) == tried[0] == 27
    assert run_study(study, store, jobs=1).written == study.n_games - 27  # the same command continues


def test_a_write_that_the_disk_refuses_is_a_store_error_saying_the_games_before_are_kept(tmp_path, monkeypatch):
    store, study = Store(tmp_path / "r.duckdb"), Study("w", ("3x3",), ("knuth",))
    store.register(study)
    store.start_run("r", study, {})
    from mmlab.experiments.chunk import Chunk, play_chunk

    played = play_chunk(Chunk("w", "3x3", True, "black-white", "knuth", 0, None, ((0, 0, 0),), "r"))
    connect = Store.connect

    class Full:
        def __init__(self, con):
            self.con = con

        def execute(self, sql, *args):
            if sql == "COMMIT":
                raise duckdb.TransactionException('Failed to commit: Could not write file "r.duckdb.wal": '
                                                  "No space left on device")
            return self.con.execute(sql, *args)

        def __getattr__(self, name):
            return getattr(self.con, name)

    from contextlib import contextmanager

    @contextmanager
    def full(self, *args, **kwargs):
        with connect(self, *args, **kwargs) as con:
            yield Full(con)

    monkeypatch.setattr(Store, "connect", full)
    with pytest.raises(StoreError, match=r"cannot write to the results store .*No space left on device; the games "
                                         r"stored before are kept, and the same command continues from them"):
        store.write("r", played.games, played.moves)
    monkeypatch.setattr(Store, "connect", connect)
    assert len(store.games("w")) == 0  # (rolled back)


def test_a_ctrl_c_while_the_games_are_planned_leaves_no_empty_study(tmp_path, monkeypatch):
    """Planning came after the study was registered and before the part of the run that withdraws a
    study it stored nothing of: a Ctrl-C there (a plan of millions of games takes a while) left the
    study in the store with 0 games, and the corrected file was refused as another study (helper-118)."""
    from mmlab.experiments import runner

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "plan_chunks", interrupted)
    store, study = Store(tmp_path / "r.duckdb"), Study("planned", ("3x3",), ("random",), runs=2)
    with pytest.raises(KeyboardInterrupt):
        run_study(study, store, jobs=1)
    assert store.fingerprint("planned") is None


def test_a_store_without_a_column_of_mmlab_s_tables_is_refused_in_one_line_and_left_as_it_was(tmp_path, capsys):
    """A store whose games lacked 'known' gave DuckDB's Binder errors, tracebacks, from the first query
    that named it (helper-118)."""
    from mmlab.cli.main import main

    store = Store(tmp_path / "r.duckdb")
    run_study(Study("s", ("3x3",), ("knuth",)), store, jobs=1)
    with duckdb.connect(str(store.path)) as con:
        con.execute("ALTER TABLE games DROP COLUMN known")
    before = store.path.read_bytes()
    for command in (["report", "s"], ["studies"], ["compare", "3x3", "--strategies", "knuth"]):
        assert main([*command, "--store", str(store.path)]) == 2
        err = " ".join(capsys.readouterr().err.split())
        assert "lacks the column games.known of a results store: another version of mmlab made it, or it was " \
               "changed by hand; it is left as it is: choose another file with --store" in err
        assert "Traceback" not in err
    assert store.path.read_bytes() == before
