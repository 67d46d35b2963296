"""The results store: an embedded DuckDB file with one row per game and one per move.

Tables: ``studies`` (definition of each study), ``runs`` (who ran it, when, on what: mmlab version,
git revision, machine, scheduler), ``games`` (study, strategy, size, run, slot, secret, guesses,
evaluations, seconds, ...) and ``moves`` (the same key and the move number; the guess and its answer,
the consistent-set size before it, the top scorers it was picked from and whether the secret was
among them). A batch of games and their moves is written in one transaction, so a study killed at
any moment keeps whole games only, and the games' primary key keeps a game from being counted
twice (its moves are written with it or not at all).

The file is opened only while writing or reading, so two studies can share it: a writer that finds
it locked waits (up to ``wait`` seconds) and then refuses with the holder's process id.

>>> import tempfile, os
>>> store = Store(os.path.join(tempfile.mkdtemp(), "results.duckdb"))
>>> store.register(Study("demo", ("3x3",), ("knuth",)))      # (the file is made when first written)
True
>>> store.studies()[["study", "games"]].to_dict("records")
[{'study': 'demo', 'games': 0}]
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
import numpy as np
import pandas as pd

from mmlab.errors import StoreError, shown
from mmlab.experiments.study import Study, toml_text

if TYPE_CHECKING:
    import polars

DEFAULT_STORE = "mmlab-results.duckdb"

SCHEMA = """
CREATE TABLE IF NOT EXISTS studies (
    study VARCHAR PRIMARY KEY, fingerprint VARCHAR NOT NULL, definition JSON NOT NULL,
    source VARCHAR, description VARCHAR, created TIMESTAMP DEFAULT current_timestamp
);
CREATE TABLE IF NOT EXISTS runs (
    run_id VARCHAR PRIMARY KEY, study VARCHAR NOT NULL, started TIMESTAMP NOT NULL, finished TIMESTAMP,
    mmlab_version VARCHAR, git_revision VARCHAR, machine JSON, scheduler VARCHAR, parameters JSON,
    games_written BIGINT DEFAULT 0
);
CREATE TABLE IF NOT EXISTS games (
    study VARCHAR NOT NULL, strategy VARCHAR NOT NULL, size VARCHAR NOT NULL, run INTEGER NOT NULL,
    slot INTEGER NOT NULL, secret VARCHAR NOT NULL, seed BIGINT NOT NULL, guesses INTEGER NOT NULL,
    won BOOLEAN NOT NULL, known INTEGER NOT NULL, evaluations BIGINT NOT NULL, seconds DOUBLE NOT NULL,
    run_id VARCHAR NOT NULL,
    PRIMARY KEY (study, strategy, size, run, slot)
);
CREATE TABLE IF NOT EXISTS moves (
    study VARCHAR NOT NULL, strategy VARCHAR NOT NULL, size VARCHAR NOT NULL, run INTEGER NOT NULL,
    slot INTEGER NOT NULL, move INTEGER NOT NULL, guess VARCHAR NOT NULL, black INTEGER NOT NULL,
    white INTEGER NOT NULL, consistent BIGINT, evaluations BIGINT NOT NULL, top_size BIGINT,
    secret_in_top BOOLEAN, chance DOUBLE
);
"""

TABLES = {"studies", "runs", "games", "moves"}
GAME_KEY = "study, strategy, size, run, slot"  # a game's key in the games table, and its moves'
GAME_COLUMNS = ["study", "strategy", "size", "run", "slot", "secret", "seed", "guesses", "won", "known",
                "evaluations", "seconds", "run_id"]
MOVE_COLUMNS = ["study", "strategy", "size", "run", "slot", "move", "guess", "black", "white", "consistent",
                "evaluations", "top_size", "secret_in_top", "chance"]
WRITE_ELSEWHERE = "; to keep the results elsewhere, give a file in a folder you can write with --store PATH"
TYPED = {"run": np.int32, "slot": np.int32, "move": np.int32, "guesses": np.int32, "known": np.int32,
         "black": np.int32, "white": np.int32, "seed": np.int64, "evaluations": np.int64, "won": np.bool_,
         "seconds": np.float64}  # numpy types of the columns without missing values (a list is read faster so)
NULLABLE = {"consistent": "Int64", "top_size": "Int64", "secret_in_top": "boolean", "chance": "Float64"}  # move columns


class Store:
    """A DuckDB results file (``mmlab-results.duckdb`` by default)."""

    def __init__(self, path: str | Path = DEFAULT_STORE, wait: float = 120.0) -> None:
        self.path = Path(path)
        self.wait = wait
        self._reader: list | None = None  # [thread, connection or None] inside ``reading()``

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    @contextmanager
    def connect(self, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        """An open connection; waits while another process holds the file, then refuses. A file of
        0 bytes or a DuckDB file without tables is a fresh store: writing makes mmlab's tables in
        it, reading finds no study. Inside ``reading()`` every read shares one connection."""
        if read_only and self._reader is not None and self._reader[0] == threading.get_ident():
            if self._reader[1] is None:
                self._reader[1] = self._connection(read_only=True)
            yield self._reader[1]
            return
        if not read_only:
            self._stop_reading()  # (DuckDB opens a file read-only or to write in a process, not both at once)
        con = self._connection(read_only)
        try:
            yield con
        finally:
            con.close()

    @contextmanager
    def reading(self) -> Iterator[Store]:
        """A block whose reads (in this thread) share one read-only connection, opened at the first
        of them and closed at the end of the block (or by a write inside it): the file is held only
        while the block reads, and opening it once saves some 20 ms a read. Use a ``Store`` from one
        thread at a time inside such a block: a write from another thread closes its connection
        (DuckDB opens a file read-only or to write in a process, not both at once).

        >>> import tempfile, os
        >>> store = Store(os.path.join(tempfile.mkdtemp(), "r.duckdb"))
        >>> store.register(Study("demo", ("3x3",), ("knuth",)))
        True
        >>> with store.reading():
        ...     list(store.studies()["study"]), store.fingerprint("other")
        (['demo'], None)
        """
        if self._reader is not None:  # (nested: the outer block's connection)
            yield self
            return
        self._reader = [threading.get_ident(), None]
        try:
            yield self
        finally:
            self._stop_reading()
            self._reader = None

    def _stop_reading(self) -> None:
        """Close the shared reading connection, if one is open; the next read opens it again."""
        if self._reader is not None and self._reader[1] is not None:
            con, self._reader[1] = self._reader[1], None
            con.close()

    def _connection(self, read_only: bool) -> duckdb.DuckDBPyConnection:
        """A new connection (for ``connect``), its tables checked, and made when writing to a fresh store."""
        if self.path.is_dir():
            raise StoreError(f"{str(self.path)!r} is a folder, not a results store: --store takes a file, e.g. "
                             f"{str(self.path / DEFAULT_STORE)!r}")
        if read_only and not self.path.exists():
            raise StoreError(f"there is no results store at {str(self.path)!r}: run a study first "
                             "(mmlab run or mmlab compare)")
        if _zero_bytes(self.path):
            if read_only:
                return _empty_store()
            try:
                self.path.unlink(missing_ok=True)  # (DuckDB refuses to open it; writing makes the file anew)
            except OSError as e:
                raise StoreError(f"cannot open the results store {str(self.path)!r}, an empty file: "
                                 f"{e.strerror}{WRITE_ELSEWHERE}") from None
        if _foreign_file(self.path):  # (DuckDB opens a CSV or Parquet file as a database of its own, in memory)
            raise StoreError(_not_duckdb(self.path))
        con = self._open(read_only)
        try:
            tables = sorted(r[0] for r in con.execute("SELECT table_name FROM information_schema.tables "
                                                      "WHERE table_catalog = current_database()").fetchall())
            if tables and "studies" not in tables:  # someone else's database: add nothing to it
                listed = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
                raise StoreError(f"{str(self.path)!r} is a DuckDB file with tables of its own ({listed}), not a "
                                 "results store: choose another file with --store")
            if TABLES <= set(tables):
                _require_columns(con, self.path)
            elif not read_only:
                con.execute(SCHEMA)
            elif read_only and not tables:  # an empty DuckDB file, opened read only: a store without studies
                con.close()
                return _empty_store()
        except BaseException:
            con.close()
            raise
        return con

    def _open(self, read_only: bool) -> duckdb.DuckDBPyConnection:
        """A connection to the file; waits while another process holds it (up to ``wait``), then refuses."""
        deadline = time.monotonic() + self.wait
        pause = 0.05
        while True:
            try:
                return duckdb.connect(str(self.path), read_only=read_only)
            except duckdb.IOException as e:
                if "not a valid DuckDB" in str(e):
                    raise StoreError(_not_duckdb(self.path)) from None
                if "lock" not in str(e).lower():
                    raise StoreError(f"cannot open the results store {str(self.path)!r}: {e}"
                                     f"{'' if read_only else WRITE_ELSEWHERE}") from None
                if time.monotonic() >= deadline:
                    pid = re.search(r"\(PID (\d+)\)", str(e))
                    holder = f" (PID {pid.group(1)})" if pid else ""
                    raise StoreError(f"the results store {str(self.path)!r} is in use by another process"
                                     f"{holder} and stayed busy for {self.wait:g} s; wait for it to finish "
                                     "or choose another file with --store") from None
                time.sleep(pause)
                pause = min(pause * 2, 1.0)
            except duckdb.Error as e:
                raise StoreError(f"cannot open the results store {str(self.path)!r}: {e}") from None

    # ------------------------------------------------------------------ writing
    def register(self, study: Study) -> bool:
        """Record ``study``; a different study already stored under its name is refused. Returns
        whether it was new to the store (a run of it elsewhere may have recorded it meanwhile)."""
        with self.connect() as con:
            row = con.execute("SELECT fingerprint, definition FROM studies WHERE study = ?", [study.name]).fetchone()
            if row is None:
                _insert_study(con, study)
                return True
            if row[0] != study.fingerprint:
                stored = json.loads(row[1])
                changed = "; ".join(_changed(k, stored.get(k), v) for k, v in sorted(study.definition().items())
                                    if stored.get(k) != v)
                raise StoreError(f"the store {str(self.path)!r} already holds another study named {study.name!r} "
                                 f"({changed}); give this one another name, or delete the old one with "
                                 f"'mmlab forget {study.name}'")
        return False

    def withdraw(self, study: str, run_id: str) -> None:
        """Undo what a failed run that registered ``study`` recorded, when it stored no game: its
        run ``run_id``, if recorded, and the study, unless another run of it has started since."""
        with self.connect() as con:
            con.execute("BEGIN TRANSACTION")
            con.execute("DELETE FROM runs WHERE run_id = ? AND games_written = 0", [run_id])
            if not con.execute("SELECT 1 FROM runs WHERE study = ? UNION ALL SELECT 1 FROM games WHERE study = ?",
                               [study, study]).fetchall():
                con.execute("DELETE FROM studies WHERE study = ?", [study])
            con.execute("COMMIT")

    def start_run(self, run_id: str, study: Study, metadata: dict) -> None:
        """Record the start of run ``run_id`` of ``study``, with ``metadata`` (version, revision, machine,
        scheduler), and ``study`` with it if it is missing: a failed run that registered it may have
        withdrawn it (``withdraw``) since this run found it stored."""
        with self.connect() as con:
            con.execute("BEGIN TRANSACTION")
            _insert_study(con, study, "OR IGNORE")
            con.execute("INSERT INTO runs (run_id, study, started, mmlab_version, git_revision, machine, scheduler, "
                        "parameters) VALUES (?, ?, current_timestamp, ?, ?, ?, ?, ?)",
                        [run_id, study.name, metadata.get("mmlab_version"), metadata.get("git_revision"),
                         json.dumps(metadata.get("machine", {})), metadata.get("scheduler"),
                         json.dumps(study.definition())])
            con.execute("COMMIT")

    def finish_run(self, run_id: str, scheduler: str | None = None) -> None:
        """Record that run ``run_id`` played to its end, and where it played (``scheduler``), when
        that is known only now: its start recorded where it planned to."""
        with self.connect() as con:
            con.execute("UPDATE runs SET finished = current_timestamp, scheduler = coalesce(?, scheduler) "
                        "WHERE run_id = ?", [scheduler, run_id])

    def write(self, run_id: str, games: Mapping[str, Sequence], moves: Mapping[str, Sequence]) -> int:
        """Add whole games and their moves, given column by column (``None`` for a missing figure),
        in one transaction; returns the games new to the store."""
        games_frame = pd.DataFrame({column: _column(games[column], column) for column in GAME_COLUMNS})
        if games_frame.empty:
            return 0
        twice = games_frame.duplicated(GAME_KEY.split(", "))
        if twice.any():  # (its moves could not be told apart)
            game = games_frame[twice].iloc[0]
            raise StoreError(f"a batch holds game {game['strategy']} {game['size']} run {game['run']} slot "
                             f"{game['slot']} of study {game['study']!r} twice; give each game once")
        moves_frame = pd.DataFrame({column: _column(moves[column], column) for column in MOVE_COLUMNS})
        with self.connect() as con:
            con.execute("BEGIN TRANSACTION")
            try:
                if not con.execute("SELECT run_id FROM runs WHERE run_id = ?", [run_id]).fetchall():
                    raise StoreError(f"study {games_frame['study'].iloc[0]!r} was deleted from {str(self.path)!r} "
                                     "('mmlab forget') while this run played it; its games since then are not stored")
                con.register("new_games", games_frame)
                con.register("new_moves", moves_frame)
                # A game's key fixes its result, so a game stored meanwhile by another run of the
                # same study is the same game: keep the stored one, and write the moves of the
                # others only (moves have no key of their own: its index made a study of 9.9 million
                # moves take twice as long to play and store, and its file 6.6 times larger).
                con.execute(f"CREATE OR REPLACE TEMP TABLE fresh_games AS SELECT * FROM new_games "
                            f"ANTI JOIN games USING ({GAME_KEY})")
                written = con.execute(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) "
                                      "SELECT * FROM fresh_games").fetchone()[0]
                con.execute(f"INSERT INTO moves ({', '.join(MOVE_COLUMNS)}) SELECT new_moves.* FROM new_moves "
                            f"SEMI JOIN fresh_games USING ({GAME_KEY})")
                con.execute("DROP TABLE fresh_games")
                con.execute("UPDATE runs SET games_written = games_written + ? WHERE run_id = ?", [written, run_id])
                con.execute("COMMIT")
                return int(written)
            except BaseException as e:
                try:
                    con.execute("ROLLBACK")
                except duckdb.Error:  # the error ended the transaction already (an interrupted COMMIT)
                    pass
                if isinstance(e, (duckdb.IOException, duckdb.TransactionException)):  # (a full disk: at the COMMIT)
                    raise StoreError(f"cannot write to the results store {str(self.path)!r}: {e}; the games stored "
                                     "before are kept, and the same command continues from them") from None
                raise

    def forget(self, study: str) -> int:
        """Delete a study (its name, or the ``Study``) and everything recorded for it; returns the games deleted."""
        study = study_name(study)
        with self.connect() as con:
            n = con.execute("SELECT count(*) FROM games WHERE study = ?", [study]).fetchone()[0]
            con.execute("BEGIN TRANSACTION")
            for table in ("moves", "games", "runs", "studies"):
                con.execute(f"DELETE FROM {table} WHERE study = ?", [study])
            con.execute("COMMIT")
        return int(n)

    # ------------------------------------------------------------------ reading
    def fingerprint(self, study: str) -> str | None:
        """The fingerprint of the study stored as ``study``; ``None`` when there is none (read only)."""
        if not self.path.exists():
            return None
        with self.connect(read_only=True) as con:
            row = con.execute("SELECT fingerprint FROM studies WHERE study = ?", [study]).fetchone()
        return None if row is None else row[0]

    def done(self, study: str) -> set[tuple[str, str, int, int]]:
        """Keys ``(strategy, size, run, slot)`` of the games already stored for ``study``."""
        if not self.path.exists():
            return set()
        with self.connect(read_only=True) as con:
            rows = con.execute("SELECT strategy, size, run, slot FROM games WHERE study = ?", [study]).fetchall()
        return {(s, z, int(r), int(k)) for s, z, r, k in rows}

    def query(self, sql: str, params: list | None = None) -> pd.DataFrame:
        """Any SQL over the store, as a pandas frame."""
        with self.connect(read_only=True) as con:
            return con.execute(sql, params or []).df()

    def studies(self) -> pd.DataFrame:
        """One row per stored study: its games, strategies, creation time and description. Where
        there is no store, it says so, as ``games`` and ``results`` do (and ``mmlab studies``).

        >>> Store("missing/r.duckdb").studies()
        Traceback (most recent call last):
        ...
        mmlab.errors.StoreError: there is no results store at 'missing/r.duckdb': run a study first (mmlab run or mmlab compare)
        """
        return self.query("SELECT s.study, count(g.study) AS games, count(DISTINCT g.strategy) AS strategies, "
                          "s.created, s.description FROM studies s LEFT JOIN games g USING (study) "
                          "GROUP BY ALL ORDER BY s.created")

    def last_study(self) -> str:
        """The name of the study stored or run last (the later of its creation and its last run's
        start); refused in a store that holds none.

        >>> import tempfile, os
        >>> store = Store(os.path.join(tempfile.mkdtemp(), "r.duckdb"))
        >>> store.register(Study("first", ("3x3",), ("knuth",))), store.register(Study("second", ("3x3",), ("knuth",)))
        (True, True)
        >>> store.last_study()
        'second'
        """
        rows = self.query("SELECT s.study FROM studies s LEFT JOIN runs r USING (study) GROUP BY s.study, s.created "
                          "ORDER BY greatest(s.created, max(r.started)) DESC, s.study LIMIT 1")
        if rows.empty:
            raise StoreError(f"the results store {str(self.path)!r} holds no studies yet: run one first "
                             "(mmlab run or mmlab compare)")
        return str(rows["study"].iloc[0])

    def require(self, name: str) -> None:
        """Refuse a study name the store does not hold, listing the ones it does."""
        name = study_name(name)
        if self.query("SELECT count(*) AS n FROM studies WHERE study = ?", [name])["n"].iloc[0] == 0:
            known = ", ".join(self.studies()["study"])
            stored = f"stored: {known}" if known else "it holds no studies yet"
            raise StoreError(f"no study named {name!r} in {str(self.path)!r} ({stored})")

    def study(self, name: str | Study) -> Study:
        """The stored definition of study ``name`` (or of a ``Study``'s name)."""
        name = study_name(name)
        with self.reading():  # (one connection for both)
            self.require(name)
            rows = self.query("SELECT definition, source, description FROM studies WHERE study = ?", [name])
        definition = json.loads(rows.iloc[0]["definition"])
        definition["description"] = rows.iloc[0]["description"] or ""
        definition = {k: v for k, v in definition.items() if v is not None}
        return Study.stored(definition, name, rows.iloc[0]["source"] or "")

    def games(self, study: str, order: Study | None = None, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """One row per game of ``study``, in key order; ``order`` and ``columns`` as for ``moves`` (a
        report reads the figures of the games alone: their texts, the secret and the run's id, took
        most of the time and memory of reading a big study's games)."""
        return self._rows("games", study, order, columns)

    def moves(self, study: str, order: Study | None = None, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """One row per move of ``study``, in key order; with ``order``, in the order of its sizes and
        strategies, then by run, slot and move (as reports print them; sorted here, it costs a
        fraction of sorting the frame). ``columns``: only these (reading a column of text into pandas
        costs more than the rest of a report)."""
        return self._rows("moves", study, order, columns)

    def _rows(self, table: str, study: str | Study, order: Study | None, columns: Sequence[str] | None) -> pd.DataFrame:
        """The rows of ``study`` in ``table`` (games or moves), for ``games`` and ``moves``."""
        study = study_name(study)
        selected = "*" if columns is None else ", ".join(_checked_columns(columns, table))
        key = "run, slot, move" if table == "moves" else "run, slot"
        with self.reading():  # (one connection for both)
            self.require(study)
            if order is None:
                return self.query(f"SELECT {selected} FROM {table} WHERE study = ? ORDER BY size, strategy, {key}",
                                  [study])
            return self._in_order(table, study, order, columns, key)

    def _in_order(self, table: str, study: str, order: Study, columns: Sequence[str] | None, key: str) -> pd.DataFrame:
        """``_rows`` in the order of ``order``'s sizes and strategies, then ``key``. The size and strategy
        come out of DuckDB as their places in its lists, for pandas to write out again: DuckDB hands
        pandas the texts of a column one by one (the games of a 6x9 study, 531 441, took 0.25 s so)."""
        levels = {"size": list(order.sizes), "strategy": list(order.strategies)}
        placed = (f"(SELECT *, list_position($2, size) AS size_place, list_position($3, strategy) AS strategy_place "
                  f"FROM {table} WHERE study = $1) ORDER BY size_place, strategy_place, {key}")
        if columns is None:
            coded = "* EXCLUDE (size_place, strategy_place) REPLACE (size_place AS size, strategy_place AS strategy)"
        else:
            coded = ", ".join(f"{c}_place AS {c}" if c in levels else c for c in columns)
        frame = self.query(f"SELECT {coded} FROM {placed}", [study, *levels.values()])
        places = [c for c in levels if c in frame]
        if frame.empty or frame[places].isna().any(axis=None):  # (none, or one its study does not list)
            texts = "* EXCLUDE (size_place, strategy_place)" if columns is None else ", ".join(columns)
            return self.query(f"SELECT {texts} FROM {placed}", [study, *levels.values()])
        for name in places:
            frame[name] = pd.Series(np.asarray(levels[name], dtype=object)[frame[name].to_numpy() - 1])
        return frame

    @contextmanager
    def study_moves(self, study: str, held: pd.DataFrame | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-only connection whose view ``study_moves`` holds the moves of ``study``, and beside
        them ``written``, their place in the store (the order they were written in, that of a scan): for
        figures of every move computed in DuckDB, the moves never read into Python (a big study has millions).
        ``held``: the games whose moves count (a frame with their key columns, as ``games`` gives
        them), when a run may have stored more games of the study since they were read.

        >>> import tempfile, os
        >>> from mmlab.experiments.runner import run_study
        >>> store = Store(os.path.join(tempfile.mkdtemp(), "r.duckdb"))
        >>> _ = run_study(Study("demo", ("3x3",), ("knuth",)), store, jobs=1)
        >>> with store.study_moves("demo") as con:
        ...     con.execute("SELECT count(*), max(move) FROM study_moves").fetchall()
        [(74, 4)]
        """
        study = study_name(study)
        with self.reading():  # (one connection: the count of games and the moves agree)
            self.require(study)
            with self.connect(read_only=True) as con:
                restricted = held is not None and self._more_games(con, study, held)
                if restricted:
                    con.register("held_games", held[["strategy", "size", "run", "slot"]])
                moves = "moves SEMI JOIN held_games USING (strategy, size, run, slot)" if restricted else "moves"
                name = study.replace("'", "''")  # (a view takes no parameters)
                try:
                    con.execute(f"CREATE OR REPLACE TEMP VIEW study_moves AS SELECT moves.rowid AS written, * "
                                f"FROM {moves} WHERE study = '{name}'")
                    yield con
                finally:
                    con.execute("DROP VIEW IF EXISTS study_moves")
                    if restricted:
                        con.unregister("held_games")

    @staticmethod
    def _more_games(con: duckdb.DuckDBPyConnection, study: str, held: pd.DataFrame) -> bool:
        """Whether the store holds games of ``study`` beside ``held`` (games are only added, so the
        same ones when it holds as many; a join on every move costs more than the rest of a report)."""
        # (fetchall: a result left open would keep DuckDB from registering the games)
        return con.execute("SELECT count(*) FROM games WHERE study = ?", [study]).fetchall()[0][0] != len(held)

    def runs(self, study: str) -> pd.DataFrame:
        """One row per run (start) of ``study``: when, where, which mmlab, how many games it wrote."""
        study = study_name(study)
        with self.reading():  # (one connection for both)
            self.require(study)
            return self.query("SELECT * FROM runs WHERE study = ? ORDER BY started", [study])

    def export(self, study: str, path: str | Path, table: str = "games") -> Path:
        """Write one table of ``study`` to CSV or Parquet, chosen by the file's suffix."""
        study, path = study_name(study), Path(path)
        fmt = {".csv": "FORMAT CSV, HEADER", ".parquet": "FORMAT PARQUET"}.get(path.suffix.lower())
        if fmt is None:
            raise StoreError(f"cannot tell the format of {str(path)!r}: name it .csv or .parquet")
        if table not in ("games", "moves", "runs"):
            raise StoreError(f"no table {table!r}: choose games, moves or runs")
        if path.is_dir():  # (DuckDB says 'File exists')
            raise StoreError(f"cannot write {str(path)!r}: it is a folder, not a file")
        if not path.parent.is_dir():  # (DuckDB says 'IO Error: Cannot open file ...')
            raise StoreError(f"cannot write {str(path)!r}: no such folder")
        self.require(study)
        order = {"games": "size, strategy, run, slot", "moves": "size, strategy, run, slot, move",
                 "runs": "started"}[table]
        quoted = str(path).replace("'", "''")
        with self.connect(read_only=True) as con:
            try:
                con.execute(f"COPY (SELECT * FROM {table} WHERE study = ? ORDER BY {order}) TO '{quoted}' ({fmt})",
                            [study])
            except duckdb.Error as e:
                raise StoreError(f"cannot write {str(path)!r}: {str(e).splitlines()[0]}") from None
        return path


def study_name(study: str | Study) -> str:
    """The name of ``study``: a stored study's name as given, or a ``Study``'s.

    >>> study_name(Study("demo", ("3x3",), ("knuth",))), study_name("demo")
    ('demo', 'demo')
    """
    if isinstance(study, Study):
        return study.name
    if not isinstance(study, str):
        raise StoreError(f"expected a study's name or a Study, got {shown(study)}")
    return study


def as_store(store: Store | str | os.PathLike) -> Store:
    """``store`` itself, or the store at the path ``store``.

    >>> as_store("r.duckdb")
    Store('r.duckdb')
    """
    if isinstance(store, Store):
        return store
    if isinstance(store, (str, os.PathLike)):
        return Store(store)
    raise StoreError(f"expected a Store or the path of a results file, got {shown(store)}")


def _checked_columns(columns: Sequence[str], table: str) -> list[str]:
    """``columns`` of ``table`` (games or moves) to read, refused unless they are distinct columns of it.

    >>> _checked_columns(["guesses", "won"], "games")
    ['guesses', 'won']
    """
    known = GAME_COLUMNS if table == "games" else MOVE_COLUMNS
    example = "['guesses', 'won']" if table == "games" else "['move', 'consistent']"
    # (a text would be read letter by letter, and no column is no SELECT)
    if isinstance(columns, str) or not columns or len(set(columns)) < len(columns):
        raise StoreError(f"columns must list distinct columns of the {table} table, e.g. {example}, "
                         f"got {shown(columns)}")
    if not set(columns) <= set(known):
        raise StoreError(f"the {table} table has no column {', '.join(sorted(set(columns) - set(known)))}")
    return list(columns)


def _changed(key: str, there: object, here: object, most: int = 3) -> str:
    """What differs in ``key`` of a study's definition between the stored one (``there``) and this
    one (``here``), for a message: the items a list adds or lacks (up to ``most`` of each, named in
    full: a long list elided in the middle hides them), else both values.

    >>> _changed("runs", 1, 2)
    'runs 1 there, 2 here'
    >>> _changed("strategies", ["knuth", "entropy"], ["knuth", "entropy", "plus"])
    'strategies: here adds "plus"'
    >>> _changed("sizes", ["4x6", "4x7", "5x8"], ["4x7", "4x6"])
    'sizes: here lacks "5x8"'
    >>> _changed("secrets", list(range(10)), [*range(1, 10), 10, 11, 12, 13])
    'secrets: here adds 10, 11, 12 and 1 more, lacks 0'
    >>> _changed("sizes", ["4x6", "4x7"], ["4x7", "4x6"])
    'sizes in another order: ["4x6", "4x7"] there, ["4x7", "4x6"] here'
    """
    if not (isinstance(there, list) and isinstance(here, list)):
        return f"{key} {toml_text(there)} there, {toml_text(here)} here"

    def listed(items: list) -> str:
        more = f" and {len(items) - most} more" if len(items) > most else ""
        return ", ".join(toml_text(item) for item in items[:most]) + more

    had, has = set(there), set(here)
    added = [item for item in here if item not in had]
    lacked = [item for item in there if item not in has]
    if not added and not lacked:
        order = " in another order" if sorted(there) == sorted(here) else ""
        return f"{key}{order}: {toml_text(there)} there, {toml_text(here)} here"
    return f"{key}: here " + ", ".join(f"{verb} {listed(items)}" for verb, items in (("adds", added), ("lacks", lacked))
                                       if items)


def _insert_study(con: duckdb.DuckDBPyConnection, study: Study, conflict: str = "") -> None:
    """Insert ``study``'s row (``conflict="OR IGNORE"``: unless its name is stored)."""
    con.execute(f"INSERT {conflict} INTO studies (study, fingerprint, definition, source, description) "
                "VALUES (?, ?, ?, ?, ?)",
                [study.name, study.fingerprint, json.dumps(study.definition()), study.source, study.description])


def _column(values: Sequence, column: str) -> Sequence:
    """A column to write: numbers as a numpy array of its type (with a mask of the ``None``s where
    a figure may be missing), text as Python strings, which DuckDB reads faster than pandas' own.

    >>> _column([3, None], "consistent").tolist(), _column(["1122"], "guess").dtype
    ([3, <NA>], dtype('O'))
    """
    if column in NULLABLE:
        return _nullable(values, NULLABLE[column])
    kind = TYPED.get(column)
    return pd.Series(values, dtype=object) if kind is None else np.asarray(values, dtype=kind)


def _nullable(values: Sequence, dtype: str) -> pd.api.extensions.ExtensionArray:
    """``values`` as a pandas array of ``dtype``, ``None`` (or pandas' ``NA``) missing; a column
    all missing or all known (every column of most strategies) is built from numpy at once, not
    value by value.

    >>> _nullable([None, None], "Int64").tolist(), _nullable([1, pd.NA], "Int64").tolist()
    ([<NA>, <NA>], [1, <NA>])
    """
    values, kind = list(values), pd.api.types.pandas_dtype(dtype)
    missing = values.count(None)
    if 0 < missing < len(values):
        return pd.array(values, dtype=kind)
    try:
        data = np.zeros(len(values), kind.numpy_dtype) if missing else np.asarray(values, kind.numpy_dtype)
    except TypeError:  # (a pandas NA among them)
        return pd.array(values, dtype=kind)
    mask = np.full(len(values), bool(missing)) if data.dtype.kind != "f" else np.isnan(data) | bool(missing)
    return kind.construct_array_type()(data, mask)


def _zero_bytes(path: Path) -> bool:
    """Whether ``path`` is a file of 0 bytes (made by touch or mktemp, say)."""
    try:
        return path.is_file() and path.stat().st_size == 0
    except OSError:
        return False


def _foreign_file(path: Path) -> bool:
    """Whether ``path`` is a file of some bytes that are not a DuckDB database's (whose header has
    "DUCK" after its 8-byte checksum): a CSV or Parquet file written by ``mmlab export``, say."""
    try:
        with path.open("rb") as f:
            head = f.read(12)
    except OSError:
        return False
    return len(head) > 0 and head[8:12] != b"DUCK"


def _not_duckdb(path: Path) -> str:
    return f"{str(path)!r} is not a DuckDB file, so not a results store: choose another file with --store PATH"


def _columns(con: duckdb.DuckDBPyConnection) -> dict[str, set[str]]:
    """The columns of each table of the database of ``con``."""
    columns: dict[str, set[str]] = {}
    for table, column in con.execute("SELECT table_name, column_name FROM information_schema.columns "
                                     "WHERE table_catalog = current_database()").fetchall():
        columns.setdefault(table, set()).add(column)
    return columns


@lru_cache(maxsize=1)
def _schema_columns() -> dict[str, set[str]]:
    """The columns of each of a results store's tables (``SCHEMA``)."""
    with duckdb.connect(":memory:") as con:
        con.execute(SCHEMA)
        return _columns(con)


def _require_columns(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Refuse a store whose tables lack columns of ``SCHEMA`` (made by another version of mmlab, or
    changed by hand): DuckDB's errors came from the first query that named one."""
    have = _columns(con)
    missing = [f"{table}.{column}" for table, columns in _schema_columns().items()
               for column in sorted(columns - have.get(table, set()))]
    if missing:
        raise StoreError(f"{str(path)!r} lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)} of a "
                         "results store: another version of mmlab made it, or it was changed by hand; it is left as "
                         "it is: choose another file with --store")


def _empty_store() -> duckdb.DuckDBPyConnection:
    """A store in memory with mmlab's tables and nothing in them: what a blank file holds."""
    con = duckdb.connect(":memory:")
    con.execute(SCHEMA)
    return con


def results(study: str | Study, table: str = "games", store: Store | str | Path = DEFAULT_STORE,
            kind: str = "pandas") -> pd.DataFrame | polars.DataFrame:
    """The rows of one table of a stored study (its name, or the ``Study``) as a pandas or polars
    frame, for notebooks; ``store`` is a ``Store`` or the path of one.

    >>> import tempfile, os
    >>> from mmlab.experiments.runner import run_study
    >>> path = os.path.join(tempfile.mkdtemp(), "r.duckdb")
    >>> _ = run_study(Study("demo", ("3x3",), ("knuth",)), Store(path), jobs=1)
    >>> results("demo", store=path)["guesses"].sum(), results("demo", "moves", path, kind="polars").height
    (np.int64(74), 74)
    """
    readers = {"games": Store.games, "moves": Store.moves, "runs": Store.runs}
    study = study_name(study)
    if table not in readers:
        raise StoreError(f"no table {table!r}: choose games, moves or runs")
    frame = readers[table](as_store(store), study)
    if kind == "pandas":
        return frame
    if kind == "polars":
        try:
            import polars
        except ImportError:
            raise StoreError("polars frames need the polars package: pip install 'mmlab[polars]'") from None
        return polars.from_pandas(frame)
    raise StoreError(f"kind must be 'pandas' or 'polars', got {kind!r}")
