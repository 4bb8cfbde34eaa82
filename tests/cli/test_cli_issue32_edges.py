"""Issue 32 item 10: the CLI's edges — `play --ledger` prints the class's Ldim (not the claim's δ), `bounds`
refuses δ where the bound has none and domains beyond the documented limits (one line, exit 2), ListAT's bound
refuses the classes ListAT refuses, a budget exhausted inside `cross_val_score` says how not to get NaN scores, and
the shipped realizable stream runs the `play --data --ledger` flow."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _one_line_exit_2(r, match: str) -> None:
    assert r.exit_code == 2, r.output
    assert match in r.output and r.output.strip().count("\n") == 0 and "Traceback" not in r.output


def test_play_with_a_ledger_prints_the_class_ldim_not_the_claims_delta(run, tmp_path):
    seq = tmp_path / "seq.csv"
    seq.write_text("x,y\n" + "".join(f"{i % 4},{int(i % 4 >= 2)}\n" for i in range(40)))
    args = ["play", "-c", "thresholds:4", "-l", "lwy25", "--adversary", "fixed", "--data", seq, "--seed", "1"]
    r = run(*args, "--backend", "seeded", "--ledger", tmp_path / "L.json", "--ledger-budget", "5,1e-3")
    assert r.exit_code == 0, r.output
    assert "(Ldim = 2)" in r.output and "Ldim = 0.0" not in r.output  # thresholds over 4 points: Ldim 2


@pytest.mark.parametrize(
    "args, match",
    [
        (("points-at", "--N", "2^60", "--T", "1000", "--delta", "1e-6"), "--delta applies to --selection histogram"),
        (("points-at", "--N", "2^100", "--T", "1000"), "beyond the documented limit 2^63"),
        (("points-at", "--N", "1" + "0" * 30, "--T", "1000"), "beyond the documented limit 2^63"),
        (("points-at", "--N", "2^9999999999", "--T", "1000"), "beyond the documented limit 2^63"),
        (("points-at", "--N", "0", "--T", "1000"), "give a positive integer"),
        (("intervals-at", "--N", "2^63", "--T", "1000"), "beyond the documented limit 2^62"),
        (("intervals-at", "--N", str(2**62 + 1), "--T", "1000"), "beyond the documented limit 2^62"),
        (("intervals-at", "--N", "inf", "--T", "1000"), "give a positive integer"),
        (("listat", "--class", "thresholds:2^60", "--T", "1000"), "ListAT cannot list thresholds"),
        (("listat", "--class", "points", "--T", "1000"), "ListAT cannot list points"),
        (("listat", "--k", str(2**20 + 1), "--T", "1000"), "ListAT lists at most 1,048,576"),
        (("bisectat", "--n", str(2**63 + 1), "--T", "10"), "--n"),
        (("ggkm21", "--d", "40"), "exceed the floating-point range"),
        (("compare", "--d", "1..64"), "exceed the floating-point range"),
        (("lwy25-agnostic", "--class", "thresholds:16", "--T", "1" + "0" * 29), "--T"),
    ],
)
def test_bounds_refuse_what_they_cannot_answer_in_one_line(run, args, match):
    _one_line_exit_2(run("bounds", *args), match)


def test_listat_bound_refuses_exactly_what_listat_refuses():
    from littlestone.classes.spec import parse_class_spec
    from littlestone.errors import LittlestoneError
    from littlestone.private_online import ListAT

    with pytest.raises(LittlestoneError) as learner_refusal:
        ListAT(parse_class_spec("thresholds:2^60"), T=10, epsilon=1.0, backend="seeded", seed=0)
    from typer.testing import CliRunner

    from littlestone.cli import app

    r = CliRunner().invoke(app, ["bounds", "listat", "--class", "thresholds:2^60", "--T", "10"])
    assert str(learner_refusal.value) in r.output.replace("\n", "")


def test_bounds_at_the_documented_limits_still_answer(run):
    for args in (
        ("points-at", "--N", "2^63", "--T", "1000"),
        ("points-at", "--N", "inf", "--T", "1000"),
        ("points-at", "--N", "2^60", "--T", "1000", "--selection", "histogram", "--delta", "1e-6"),
        ("intervals-at", "--N", "2^62", "--T", "1000"),
        ("listat", "--class", "random:16x20", "--T", "1000"),
        ("listat", "--k", str(2**20), "--T", "1000"),
    ):
        r = run("bounds", *args)
        assert r.exit_code == 0 and "mistake bound" in r.output, (args, r.output)
    # the histogram selection's δ changes the bound: δ is used where the bound has a δ form
    a = run("bounds", "points-at", "--N", "2^60", "--T", "1000", "--selection", "histogram", "--delta", "1e-6")
    b = run("bounds", "points-at", "--N", "2^60", "--T", "1000", "--selection", "histogram", "--delta", "1e-2")
    assert a.output.splitlines()[-1] != b.output.splitlines()[-1]


def test_budget_exhausted_inside_cross_val_score_advises_error_score_raise():
    from sklearn.model_selection import cross_val_score

    from littlestone.errors import BudgetExceededError
    from littlestone.pac import GenericLearnerClassifier
    from littlestone.privacy import BudgetAccountant

    X = np.arange(100).reshape(-1, 1)
    y = (X[:, 0] >= 37).astype(int)
    acc = BudgetAccountant(0.5)
    est = GenericLearnerClassifier("thresholds:100", epsilon=0.3, accountant=acc, backend="seeded", random_state=0)
    with pytest.raises(BudgetExceededError, match="error_score='raise'") as e:
        cross_val_score(est, X, y, cv=4, error_score="raise")
    assert "\n" not in str(e.value)
    est.set_params(accountant=BudgetAccountant(0.5))
    with warnings.catch_warnings():  # the default error_score=nan: what the message warns of
        warnings.simplefilter("ignore")
        scores = cross_val_score(est, X, y, cv=4)
    assert not np.isnan(scores[0]) and np.isnan(scores[1:]).all()


def test_the_shipped_stream_runs_play_data_ledger(run, tmp_path, monkeypatch):
    """examples/stream.csv is realizable by a threshold of thresholds:100 (documented in examples/README.md and
    docs/cli.md) and the documented command charges the ledger once."""
    rows = np.loadtxt(ROOT / "examples" / "stream.csv", delimiter=",", skiprows=1, dtype=int)
    x, y = rows[:, 0], rows[:, 1]
    assert len(rows) == 1000 and ((x >= 37).astype(int) == y).all() and x.min() >= 0 and x.max() <= 99
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    args = ["play", "-c", "thresholds:100", "-l", "private", "--adversary", "fixed", "--data", "examples/stream.csv"]
    r = run(*args, "--ledger", "ledger.json", "--ledger-budget", "3", "--backend", "seeded", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "(Ldim = 6)" in r.output and "in 1000 rounds" in r.output
    assert json.loads(Path("ledger.json").read_text())["spent"]["epsilon"] == pytest.approx(1.0)
