"""How a study is cut into chunks and when worker processes are started: checked on the plan and
on the estimate made from given chunk times, never by timing a run."""

import os
import time

import pytest

from mmlab.errors import BadArgument
from mmlab.experiments.chunk import Chunk, play_chunk
from mmlab.experiments.runner import Pace, plan_chunks, run_study
from mmlab.experiments.store import Store
from mmlab.experiments.workers import POOL_WORTH_SECONDS
from mmlab.experiments.study import Study
from mmlab.strategies import EXHAUSTIVE

COMPARE_4X6 = Study("compare", ("4x6",), (*EXHAUSTIVE, "random"))


def test_a_whole_tree_strategy_is_one_chunk_and_a_random_one_is_spread_over_the_workers():
    chunks = plan_chunks(COMPARE_4X6, set(), "r", workers=2)
    per_strategy = {s: [len(c.games) for c in chunks if c.strategy == s] for s in COMPARE_4X6.strategies}
    assert all(per_strategy[s] == [1296] for s in EXHAUSTIVE)
    assert all(c.whole_tree for c in chunks if c.strategy != "random")
    assert per_strategy["random"] == [81] * 16
    assert [c.strategy for c in chunks[:8]] == list(COMPARE_4X6.strategies)  # each strategy's first chunk first


def test_a_resumed_whole_tree_strategy_plays_its_missing_games_in_one_chunk():
    done = {("knuth", "4x6", 0, slot) for slot in range(1000)}
    chunks = plan_chunks(Study("s", ("4x6",), ("knuth",)), done, "r", workers=2)
    assert [(len(c.games), c.whole_tree) for c in chunks] == [(296, True)]


def test_chunk_games_still_cuts_a_whole_tree_strategy():
    chunks = plan_chunks(Study("s", ("4x6",), ("knuth",)), set(), "r", chunk_games=500, workers=2)
    assert [len(c.games) for c in chunks] == [500, 500, 296]


def test_branches_only_strategies_are_a_chunk_a_worker():
    """A sample too small for a whole tree: each chunk builds its secrets' branches, whose first
    nodes they share; 200 secrets of 5x8 were 17 chunks, building the first nodes 17 times."""
    chunks = plan_chunks(Study("s", ("5x8",), ("knuth", "random"), secrets=200, seed=1), set(), "r", workers=2)
    knuth = [c for c in chunks if c.strategy == "knuth"]
    assert not any(c.whole_tree for c in knuth) and [len(c.games) for c in knuth] == [100, 100]
    assert [len(c.games) for c in chunks if c.strategy == "random"] == [12] * 16 + [8]  # (as before)
    assert [len(c.games) for c in plan_chunks(Study("s", ("5x8",), ("knuth",), secrets=201, seed=1), set(), "r",
                                               workers=2)] == [101, 100]


def test_the_first_chunks_of_a_study_are_a_random_sample_of_its_secrets_the_same_for_each_strategy():
    """Slots were planned in order, and a sample's secrets are kept sorted: a study stopped part way
    held its lowest codes, the easiest (helper-118: irving's mean 4.81 over the first quarter of
    4x8 slots, 5.27 over the last; an interim Wilcoxon of +0.336 for a final +0.070)."""
    study = Study("s", ("4x8",), ("random", "entropy:pool=consistent,ties=random"), secrets=3000, runs=2, seed=11)
    chunks = plan_chunks(study, set(), "r", chunk_games=300)
    firsts = {c.strategy: c.games for c in reversed(chunks)}  # (each strategy's first chunk)
    assert len({tuple(games) for games in firsts.values()}) == 1  # the same games, paired across strategies
    slots = [slot for _, slot, _ in firsts["random"]]
    assert slots != sorted(slots) and max(slots) - min(slots) > 2700  # spread over the sample, not its start
    secrets = study.secrets.draw(study.game("4x8"), 11).tolist()
    assert all(secret == secrets[slot] for _, slot, secret in firsts["random"])
    every = sorted(g for c in chunks if c.strategy == "random" for g in c.games)
    assert every == [(run, slot, secrets[slot]) for run in range(2) for slot in range(3000)]  # each game once


def _played(pace: Pace, chunks: list[Chunk], seconds: list[float]) -> None:
    for chunk, s in zip(chunks, seconds, strict=True):
        pace.played(chunk, s)


def test_the_start_up_of_each_strategy_does_not_make_the_rest_of_a_comparison_look_long():
    """The audit's 4x6 comparison: each exhaustive strategy's first chunk loaded kernels and built
    its tree (0.1-0.6 s), the others took about a millisecond; an estimate by the games played so
    far (4 chunks of 81 games in a second: 30 s for the rest) started two workers for 1.6 s of work."""
    chunks = plan_chunks(COMPARE_4X6, set(), "r", workers=2)
    pace = Pace()
    _played(pace, chunks[:4], [0.6, 0.15, 0.15, 0.15])
    assert pace.rest_seconds(chunks[4:]) < 1.5
    _played(pace, chunks[4:10], [0.15, 0.15, 0.15, 0.3, 0.02, 0.02])
    assert abs(pace.rest_seconds(chunks[10:]) - 13 * 0.02) < 1e-9  # 13 chunks of random left


def test_a_long_study_is_still_given_workers():
    """004's 4x6 protocol: four random-tie strategies, 10 runs, about 2 ms a game."""
    study = Study("merelo", ("4x6",), tuple(f"{s}:pool=consistent,ties=random,first=1231"
                                            for s in ("entropy", "most-parts", "plus", "plus2")), runs=10)
    chunks = plan_chunks(study, set(), "r", workers=2)
    pace = Pace()
    _played(pace, chunks[:2], [0.9, 0.5])  # 256 games each, the first with the kernels
    assert pace.sure and pace.rest_seconds(chunks[2:]) > POOL_WORTH_SECONDS
    pace = Pace()
    _played(pace, chunks[:5], [0.9, 0.5, 0.5, 0.5, 0.5])
    assert pace.sure and pace.rest_seconds(chunks[5:]) > POOL_WORTH_SECONDS
    assert Pace().rest_seconds(chunks) == float("inf")  # nothing played: nothing known


def test_the_process_start_up_in_the_first_chunk_does_not_start_workers_on_a_busy_machine():
    """The review's 4x6 comparison beside a busy loop: knuth's chunk, with numba and the kernels
    loading, took a second, and counting it as each of the 7 strategies still to start estimated
    8 s for the rest, so two workers started (14.8 s wall against 11.4 s in one process). The
    estimate waits for a second chunk, and leaves the process's first out."""
    chunks = plan_chunks(COMPARE_4X6, set(), "r", workers=2)
    pace = Pace()
    _played(pace, chunks[:1], [1.0])
    assert not pace.sure
    _played(pace, chunks[1:2], [0.25])
    assert pace.sure and pace.rest_seconds(chunks[2:]) < 2.5


def test_each_process_builds_a_games_tables_once():
    a = Chunk("s", "3x4", True, "black-white", "knuth", 0, None, ((0, 0, 1),), "r")
    b = Chunk("s", "3x4", True, "black-white", "random", 0, None, ((0, 1, 2),), "r")
    assert a.game() is b.game()
    play_chunk(a)
    assert "_table" in vars(b.game())  # built for a's chunk, kept for b's


def test_finished_games_are_written_in_batches_of_at_most_flush_games(tmp_path, monkeypatch):
    """Workers (or the Singley kernels) finish games faster than the store writes them: a write of
    every game finished since the last one grew to many seconds, and a Ctrl-C, which writes what
    waits, then took as long to stop (a 6x9 compare: 24.5 s). Batches are now bounded in games."""
    from mmlab.experiments import runner
    from mmlab.experiments.store import Store

    monkeypatch.setattr(runner, "FLUSH_SECONDS", 3600.0)  # (so that only the bound cuts the batches)
    monkeypatch.setattr(runner, "FLUSH_GAMES", 300)
    store = Store(tmp_path / "s.duckdb")
    batches = []
    write = store.write
    monkeypatch.setattr(store, "write", lambda run_id, games, moves: batches.append(len(games["run"]))
                        or write(run_id, games, moves))
    summary = runner.run_study(Study("s", ("4x6",), ("greedy1",)), store, jobs=1, chunk_games=100)
    assert summary.written == sum(batches) == 1296
    assert batches == [300] * 4 + [96]
    assert store.runs("s")["games_written"].tolist() == [1296]  # (the run's count adds up every batch)


def test_run_study_refuses_what_is_not_a_study(tmp_path):
    """A file name given for the study ended in "AttributeError: 'str' object has no attribute 'strategies'"."""
    with pytest.raises(BadArgument, match="plays a Study"):
        run_study("demo.toml", tmp_path / "s.duckdb")


def test_no_more_worker_processes_start_than_there_are_chunks(tmp_path):
    """jobs=50 for 4 chunks said "on 50 local processes", and asked for them."""
    study = Study("few", ("3x3",), ("random",))
    chunks = plan_chunks(study, set(), "r", workers=50)
    summary = run_study(study, tmp_path / "s.duckdb", jobs=50)
    assert len(chunks) == 4 and summary.scheduler == "4 local processes" and summary.played == 27
    assert Store(tmp_path / "s.duckdb").runs("few")["scheduler"].tolist() == ["4 local processes"]


def test_after_chunks_played_here_no_more_processes_start_than_chunks_are_left(tmp_path, monkeypatch):
    """On 50 cores, with the pool always worth starting once the pace is known (after two chunks
    played here), the 2 chunks left of 4 get 2 processes, not 4."""
    from mmlab.experiments import runner

    monkeypatch.setattr(os, "cpu_count", lambda: 50)
    monkeypatch.setattr(runner, "PROBE_SECONDS", 0)
    monkeypatch.setattr(runner, "POOL_WORTH_SECONDS", -1)
    summary = run_study(Study("few", ("3x3",), ("random",)), tmp_path / "s.duckdb")
    assert summary.scheduler == "this process then 2 local processes" and summary.played == 27


def test_chunks_take_turns_by_strategy_so_early_ones_show_each_pace():
    study = Study("demo", ("3x3",), ("random", "entropy:ties=random"))
    assert [c.strategy for c in plan_chunks(study, set(), "r")][:4] == [*study.strategies] * 2


def test_the_runs_table_says_where_a_run_played_not_where_it_planned_to(tmp_path, monkeypatch):
    """A study small enough to play in this process was stored as played on 'up to 4 local processes'
    on a machine of 4 cores (mmlab compare 4x6 said 'in this process'; helper-84's report)."""
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    study = Study("small", ("3x3",), ("knuth", "random"))
    summary = run_study(study, tmp_path / "s.duckdb")
    assert summary.scheduler == "this process"
    assert Store(tmp_path / "s.duckdb").runs("small")["scheduler"].tolist() == ["this process"]


def test_games_finished_are_written_before_this_process_plays_a_long_chunk(tmp_path, monkeypatch):
    """A chunk played here writes nothing until it ends: the games finished before it waited for
    the end of the next chunk (minutes at 8x12), lost to a SIGKILL meanwhile. They are written
    first when that chunk is estimated to end after the next write is due."""
    from mmlab.experiments import runner
    from mmlab.experiments.store import Store

    monkeypatch.setattr(runner, "FLUSH_SECONDS", 3600.0)  # (so that no write is due by the clock)
    monkeypatch.setattr(runner.Pace, "seconds_of", lambda pace, chunk: float("inf"))  # (... but by the estimate)
    store = Store(tmp_path / "s.duckdb")
    written: list[str] = []
    write = store.write
    monkeypatch.setattr(store, "write", lambda run_id, games, moves: written.extend(sorted(set(games["strategy"])))
                        or write(run_id, games, moves))
    stored_before: dict[str, list[str]] = {}

    def play(chunk):
        stored_before.setdefault(chunk.strategy, list(written))
        return play_chunk(chunk)

    monkeypatch.setattr(runner, "play_chunk", play)
    summary = runner.run_study(Study("s", ("3x3",), ("knuth", "random")), store, jobs=1)
    assert stored_before == {"knuth": [], "random": ["knuth"]} and summary.written == 54


def test_a_chunk_is_estimated_at_its_own_strategy_and_sizes_pace():
    """(Here, before this process plays it, the runner writes the games waiting if the chunk may
    end after the next write is due.) The study's pace, 4x6's games among 8x12's, would put an
    8x12 chunk at a few milliseconds."""
    study = Study("mixed", ("4x6", "8x12"), ("random",), secrets="sample:80")
    chunks = plan_chunks(study, set(), "r", chunk_games=40)
    assert [(c.size, len(c.games)) for c in chunks] == [("4x6", 40), ("8x12", 40)] * 2
    pace = Pace()
    assert pace.seconds_of(chunks[0]) == float("inf")  # (a first chunk may build a whole tree)
    _played(pace, chunks[:1], [0.5])
    assert pace.seconds_of(chunks[1]) == 0.5  # (a strategy and size not started: as long as the first chunks)
    _played(pace, chunks[1:3], [3.6, 0.06])
    assert pace.seconds_of(chunks[3]) == pytest.approx(3.6) and pace.rest_seconds(chunks[3:]) < 0.1


def _play_once_flagged(chunk: Chunk):
    """``play_chunk``; a chunk of random waits until the file named by $MMLAB_TEST_FLAG exists (30 s at most)."""
    deadline = time.monotonic() + 30
    while chunk.strategy == "random" and not os.path.exists(os.environ["MMLAB_TEST_FLAG"]):
        if time.monotonic() > deadline:
            raise RuntimeError("not flagged")
        time.sleep(0.01)
    return play_chunk(chunk)


def test_the_runner_is_told_while_the_workers_play_a_long_chunk(tmp_path, monkeypatch):
    """So that it writes the games finished meanwhile (``Waiting``), not once the next chunk ends."""
    from mmlab.experiments import runner

    flag = tmp_path / "flag"
    monkeypatch.setenv("MMLAB_TEST_FLAG", str(flag))  # (the workers started by the run inherit it)
    monkeypatch.setattr(runner, "play_chunk", _play_once_flagged)
    chunks = plan_chunks(Study("s", ("3x3",), ("knuth", "random")), set(), "r", workers=2)
    seen = []
    for item in runner._execute(chunks, 2, None, None, False, []):
        seen.append(item if isinstance(item, runner.Waiting) else item.games["strategy"][0])
        if seen[-2:] == ["knuth", runner.Waiting(runner.TICK_SECONDS)]:
            flag.touch()
    assert seen.index(runner.Waiting(runner.TICK_SECONDS)) < seen.index("random")
    assert [item for item in seen if isinstance(item, str)] == ["knuth"] + ["random"] * (len(chunks) - 1)


def test_game_run_slot_of_a_study_draws_from_its_seed_run_and_slot(tmp_path):
    """The promise of study.py, by which a stored game is replayed and strategies are paired: game
    (run, slot) plays the slot's secret with ``default_rng([seed, run, slot])``, in any chunk.
    Checked move by move against ``play_game`` given that generator; the runs of one slot differ."""
    import numpy as np

    from mmlab.experiments.playout import play_game

    study = Study("seeded", ("3x4",), ("random", "entropy:ties=random"), secrets=5, runs=2, seed=11)
    store = Store(tmp_path / "s.duckdb")
    run_study(study, store, jobs=1, chunk_games=3)
    game, games, moves = study.game("3x4"), store.games("seeded"), store.moves("seeded")
    secrets = study.secrets.draw(game, study.seed)
    assert len(games) == 2 * 2 * 5
    played = {}
    for row in games.itertuples():
        record = play_game(game, row.strategy, int(secrets[row.slot]),
                           np.random.default_rng([study.seed, row.run, row.slot]))
        mine = moves[(moves["strategy"] == row.strategy) & (moves["run"] == row.run) & (moves["slot"] == row.slot)]
        assert row.secret == game.format(int(secrets[row.slot])) and row.guesses == record.n_guesses
        assert mine["guess"].tolist() == [game.format(g) for g in record.guesses]
        played[row.strategy, row.run, row.slot] = tuple(record.guesses)
    assert any(played[s, 0, k] != played[s, 1, k] for s in study.strategies for k in range(5))
