"""Issue 28 item 4: `littlestone audit` says how long it will take before it starts (cost model × runs) and how long
is left as it runs (the model rescaled by what the finished audits took)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from littlestone.audit import list_broken_audits, list_builtin_audits
from littlestone.audit.costs import COSTS
from littlestone.audit.estimate import Estimate, duration_text, expected_seconds
from littlestone.cli.main import app


def test_the_cost_model_covers_the_registry_it_was_measured_on():
    # audits added after the model was measured get the median; the model names no audit that does not exist
    known = {*list_builtin_audits(), *list_broken_audits()}
    assert set(COSTS) <= known and len(COSTS) >= 40
    assert all(setup >= 0 and per_run > 0 for setup, per_run in COSTS.values())


def test_expected_time_is_setup_plus_runs_times_cost():
    setup, per_run = COSTS["laplace"]
    assert expected_seconds("laplace", 1000) == pytest.approx(setup + 1000 * per_run)
    assert expected_seconds("laplace", 10_000) > expected_seconds("laplace", 1000)
    assert expected_seconds("an audit added later", 100) > 0  # the median model


def test_remaining_time_rescales_by_what_the_finished_audits_took():
    e = Estimate(["laplace", "exponential", "generic_learner"], [1000, 1000, 100])
    total = e.total
    assert e.remaining() == pytest.approx(total)
    first = e.expected[0]
    e.finished(3 * first)  # the machine is three times slower than the model's
    assert e.remaining() == pytest.approx(3 * (total - first))
    e.finished(0.0)
    e.finished(1.0)
    assert e.remaining() == 0.0


def test_duration_text():
    assert [duration_text(s) for s in (0.2, 40, 400, 5400)] == ["1 s", "40 s", "7 min", "1 h 30 min"]


def test_cli_announces_the_expected_duration_first():
    r = CliRunner().invoke(app, ["audit", "laplace", "exponential", "--runs", "50", "--seed", "1"])
    assert r.exit_code == 0, r.output
    first = r.output.strip().splitlines()[0]
    assert first.startswith("2 audits, expected ≈ ") and "cost model measured on" in first
    assert r.output.index("expected ≈") < r.output.index("privacy audits")
