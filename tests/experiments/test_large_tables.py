"""The large-game table plays the games ``mmlab eval`` plays (same secrets, same random draws)."""

import json

import numpy as np

from mmlab.cli.main import main
from mmlab.experiments.evaluation import evaluate
from mmlab.experiments.large_tables import run_large
from mmlab.game import Game


def test_rows_equal_mmlab_eval_games():
    row, = run_large(["4x6"], ["sample:sample=40"], games=6, seed=3, workers=1)
    result = evaluate(Game.parse_size("4x6"), "sample:sample=40", secrets=6, seed=3)
    assert np.array_equal(np.sort(row.guesses), np.sort(result.guesses))
    assert row.games == 6 and row.fallbacks == 0 and (row.seconds > 0).all()


def test_cli_json(capsys):
    assert main(["reproduce", "large", "--sizes", "4x6", "--strategies", "sample:sample=30,evo", "--games", "3",
                 "--jobs", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["strategy"] for r in rows] == ["sample:sample=30", "evo"]
    assert all(r["games"] == 3 and r["mean"] >= 1 for r in rows)
