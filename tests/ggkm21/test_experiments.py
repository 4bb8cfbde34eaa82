"""The GGKM21 experiments run (small settings), write CSV + PNG, and show what the lemmas say; registered in the CLI."""

from __future__ import annotations

import csv

from typer.testing import CliRunner

from littlestone.cli import app
from littlestone.experiments import REGISTRY


def _check_outputs(res):
    assert res.table_path.exists() and res.figures and all(p.stat().st_size > 1000 for p in res.figures)
    with open(res.table_path) as fh:
        assert len(list(csv.DictReader(fh))) == len(res.rows) > 0


def test_stability(tmp_path):
    res = REGISTRY["ggkm21_stability"](runs=60, seed=1, out_dir=tmp_path)
    _check_outputs(res)
    assert all(r["top_frequency"] >= r["bound"] for r in res.rows) and "holds" in res.verdict
    res = REGISTRY["ggkm21_stability"](runs=60, K=1, seed=1, out_dir=tmp_path)  # K = 1: richer outputs
    assert all(r["top_frequency"] >= r["bound"] for r in res.rows)


def test_list_size_against_lemma_5_5(tmp_path):
    res = REGISTRY["ggkm21_list_size"](runs=20, Ks=(1, 2), seed=2, out_dir=tmp_path)
    _check_outputs(res)
    assert all(r["max_size"] <= r["bound"] and r["max_leaves"] <= r["bound"] for r in res.rows)


def test_accuracy_beside_blm20(tmp_path):
    res = REGISTRY["ggkm21_accuracy"](totals=(20_000,), epsilons=(1.0,), reps=1, seed=3, out_dir=tmp_path)
    _check_outputs(res)
    assert {r["learner"] for r in res.rows} == {"PolyPriLearn", "PolyPriPropLearn", "BLM20"}


def test_listed_in_cli():
    r = CliRunner().invoke(app, ["experiment", "--list"])
    assert r.exit_code == 0
    for name in ("ggkm21_stability", "ggkm21_list_size", "ggkm21_accuracy"):
        assert name in r.output
