"""A study chunk of Singley's deterministic methods, played by the numba kernels of
``greedy_kernels``, gives the rows of the same games played by their Python scripts and read off
their decision trees."""

import pytest

from mmlab.errors import BadArgument
from mmlab.experiments import chunk as chunk_module
from mmlab.experiments.chunk import Chunk, play_chunk
from mmlab.game import Game

SPECS = ("greedy1", "greedy2", "greedy3", "greedy3:lost_bull=use", "local-search")
DEDUCING = ("greedy2", "greedy3:lost_bull=use")  # these end some games with a deduced guess, not counted as known


def _chunk(spec: str, size: str, feedback: str, games, max_guesses=None, whole_tree=False) -> Chunk:
    return Chunk("t", size, True, feedback, spec, 1, max_guesses, games, "r", whole_tree=whole_tree)


def _without_seconds(played):
    return {**played.games, "seconds": None}


@pytest.mark.parametrize("size, feedback, specs", [
    ("4x6", "black-white", SPECS),
    ("3x5", "black-white", SPECS),
    ("5x3", "black-white", SPECS),
    ("2x7", "black-white", SPECS),
    ("4x6", "black", ("greedy1", "greedy2")),
])
def test_kernel_rows_equal_played_and_tree_rows(size, feedback, specs, monkeypatch):
    n_codes = Game.parse_size(size).n_codes
    # every secret of small games, a spread of them otherwise, one of them twice (a second run)
    secrets = range(n_codes) if n_codes <= 300 else range(0, n_codes, 7)
    games = tuple((0, slot, secret) for slot, secret in enumerate(secrets)) + ((1, 0, n_codes - 1),)
    real = chunk_module._kernel_games
    for spec in specs:
        with monkeypatch.context() as patch:
            read = []  # what the kernels gave: records, not None (None: the tree plays the chunk instead)
            patch.setattr(chunk_module, "_kernel_games", lambda *args: read.append(real(*args)) or read[-1])
            kernel = play_chunk(_chunk(spec, size, feedback, games))
        assert read and None not in read, spec
        whole = play_chunk(_chunk(spec, size, feedback, games, whole_tree=True))
        played = play_chunk(_chunk(spec, size, feedback, games, max_guesses=1000))  # a cap: played one by one
        with monkeypatch.context() as patch:
            patch.setattr(chunk_module, "_kernel_games", lambda *args: None)
            tree = play_chunk(_chunk(spec, size, feedback, games))
        assert kernel.moves == played.moves == tree.moves == whole.moves, spec
        assert _without_seconds(kernel) == _without_seconds(played) == _without_seconds(tree), spec
        deduced = sum(k != p for k, p in zip(kernel.games["known"], kernel.games["guesses"], strict=True))
        assert (deduced > 0) == (spec in DEDUCING), spec


def test_kernel_chunk_refuses_a_game_the_method_cannot_play():
    with pytest.raises(BadArgument, match="answers blacks only"):
        play_chunk(_chunk("greedy3", "4x6", "black", ((0, 0, 5),)))


def test_kernel_chunk_builds_no_table_of_every_code(monkeypatch):
    """The kernels' games were scored with the game's tables of every code: 100 games of 8x8 built
    0.3 GB of them. They are scored from the codes' indices now."""
    def no_table(game):
        raise AssertionError("a table of every code was built")

    for table in ("all_digits", "all_counts"):
        monkeypatch.setattr(Game, table, property(no_table))
    games = ((0, 0, 0), (0, 1, 4095), (0, 2, 1234), (1, 0, 0))
    for spec in SPECS:
        played = play_chunk(_chunk(spec, "4x8", "black-white", games))
        assert played.games["secret"] == ["1111", "8888", "3433", "1111"], spec
    assert set(play_chunk(_chunk("greedy2", "4x8", "black", games)).moves["white"]) == {0}


def test_a_capped_game_of_a_deterministic_strategy_is_played_not_read_off_its_tree():
    """Knuth finds 3632 in 5 guesses; capped at 2 the game is lost after 2 (a tree knows no cap)."""
    game = Game.parse_size("4x6")
    capped = Chunk("d", "4x6", True, "black-white", "knuth", 0, 2, ((0, 0, game.parse("3632")),), "r")
    played = play_chunk(capped).games
    assert played["guesses"] == [2] and played["won"] == [False]
    free = play_chunk(Chunk("d", "4x6", True, "black-white", "knuth", 0, None, capped.games, "r")).games
    assert free["guesses"] == [5] and free["won"] == [True]


def test_a_game_during_which_numba_compiled_a_kernel_is_played_again_and_timed_then(monkeypatch):
    """Only a chunk's first game was played untimed: without numba's cache (a fresh install, a new Dask
    machine), a kernel that only a later game needs compiled within that game's seconds (helper-118:
    tabu 4x6, 3.89 s for its second game, against 0.15 s warm)."""
    import numba

    @numba.njit
    def fresh(x):  # (compiled at its first call: a kernel no game needed before)
        return x + 1

    played, real = [], chunk_module.play_game

    def compiling_in_the_second_game(game, strategy, secret, rng, max_guesses):
        played.append(secret)
        if secret == 5 and played.count(5) == 1:
            fresh(1)
        return real(game, strategy, secret, rng, max_guesses)

    monkeypatch.setattr(chunk_module, "play_game", compiling_in_the_second_game)
    chunk = Chunk("t", "3x3", True, "black-white", "random", 7, None, ((0, 0, 1), (0, 1, 5), (0, 2, 9)), "r1")
    rows = play_chunk(chunk).games
    assert played[-4:] == [1, 5, 5, 9]  # (after the untimed first game of the process, if it was one)
    expected = play_chunk(chunk).games
    assert rows["guesses"] == expected["guesses"]  # the same games
