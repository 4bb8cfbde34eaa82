"""MonotoneAboveThreshold (LSL17 §3, monotone queries): both noises Lap(2Δ/ε), calibrated — halving either scale,
or using AboveThreshold's Lap(4Δ/ε) query noise, moves P[⊤] far outside the band below — on both backends; its
claim names the monotonicity assumption; the vectorised path releases what the scalar one does."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone.privacy import (
    MONOTONE_ASSUMPTION,
    MonotoneAboveThreshold,
    MonotoneAboveThresholdRun,
    PrivacyBudget,
    SecureBackend,
    STEP_ASSUMPTION,
    SeededBackend,
    StepAboveThreshold,
    StepAboveThresholdRun,
)


def _tail_equal_scales(a: float, b: float) -> float:
    """P[ν − ρ ≥ a] for ν, ρ i.i.d. Lap(b), a ≥ 0: e^{−a/b}(2 + a/b)/4."""
    return math.exp(-a / b) * (2 + a / b) / 4


@pytest.mark.parametrize("backend", [SeededBackend(3), SecureBackend()], ids=["seeded", "secure"])
def test_noise_scales_are_two_delta_over_epsilon(backend):
    # one query 10 below the threshold, a fresh run each time: P[⊤] = P[ν − ρ ≥ 10] = e^{−5}·7/4 ≈ 0.0118 with both
    # noises Lap(2); with either halved ≈ 0.0045; with AboveThreshold's query noise Lap(4) ≈ 0.05
    runs = 20_000
    at = MonotoneAboveThreshold(0.0, 1.0, backend=backend)
    hits = 0
    for _ in range(runs):
        hits += at.test(-10.0)
        at.restart()
    expected = runs * _tail_equal_scales(10.0, 2.0)  # ≈ 236 (secure: the grid shifts it by < 1 %)
    assert abs(hits - expected) < 5 * math.sqrt(expected), (hits, expected)


@pytest.mark.parametrize("backend", [SeededBackend(4), SecureBackend()], ids=["seeded", "secure"])
def test_step_noise_scales_are_delta_over_epsilon(backend):
    # one query 4 below the threshold: P[⊤] = P[ν − ρ ≥ 4] = e^{−4}·6/4 ≈ 0.0275 with both noises Lap(1); with either
    # halved ≈ 0.012; with the monotone Lap(2) ≈ 0.135
    runs = 20_000
    at = StepAboveThreshold(0.0, 1.0, backend=backend)
    hits = 0
    for _ in range(runs):
        hits += at.test(-4.0)
        at.restart()
    expected = runs * _tail_equal_scales(4.0, 1.0)  # ≈ 549 (secure: the grid shifts it by < 1 %)
    assert abs(hits - expected) < 5 * math.sqrt(expected), (hits, expected)
    assert STEP_ASSUMPTION in at.mechanism.privacy().what


def test_claim_names_the_assumption_and_charges_each_run():
    m = MonotoneAboveThresholdRun(3.0, 0.5)
    c = m.privacy()
    assert (c.epsilon, c.delta, c.relation) == (0.5, 0.0, "replace-one")
    assert MONOTONE_ASSUMPTION in c.what and "monotone" in c.what
    budget = PrivacyBudget(10.0)
    at = MonotoneAboveThreshold(3.0, 0.5, backend=SeededBackend(0), budget=budget)
    at.first_above(np.arange(100.0))
    at.restart()
    assert budget.spent[0] == pytest.approx(1.0)
    assert at.spent == (1.0, 0.0)


def test_accuracy_is_half_of_above_threshold():
    from littlestone.privacy import AboveThreshold

    for backend in (SeededBackend(0), SecureBackend()):
        mono = MonotoneAboveThreshold(0.0, 1.0, backend=backend).accuracy(1000, 0.1)
        std = AboveThreshold(0.0, 1.0, backend=backend).accuracy(1000, 0.1)
        assert mono == pytest.approx(std / 2, rel=1e-3)
    assert MonotoneAboveThreshold(0.0, 1.0, backend=SeededBackend(0)).accuracy(1000, 0.1) == pytest.approx(
        4 * (math.log(1000) + math.log(20))
    )


@pytest.mark.parametrize("kind", ["seeded", "secure"])
def test_first_above_matches_test(kind):
    values = np.cumsum(np.random.default_rng(1).integers(0, 2, 3000)).astype(float)
    if kind == "seeded":
        a, b = (MonotoneAboveThreshold(40.0, 1.0, backend=SeededBackend(9)) for _ in range(2))
        i = a.first_above(values)
        j = next((k for k, v in enumerate(values) if b.test(v)), -1)
        assert i == j and i >= 0
    else:  # secure: no seed; the grid path and the scalar path agree on the decision rule for a fixed noise buffer
        at = MonotoneAboveThreshold(40.0, 1.0, backend=SecureBackend())
        assert at._query_scale == at._threshold_scale == 2.0
        i = at.first_above(values)
        assert 0 <= i < values.size and at.halted


@pytest.mark.parametrize("run_cls, a, b", [(MonotoneAboveThresholdRun, 10.0, 2.0), (StepAboveThresholdRun, 4.0, 1.0)])
def test_one_release_form_keeps_the_calibration(run_cls, a, b):
    # the mechanism object run on a one-query stream a below the threshold: P[⊤] = P[ν − ρ ≥ a] (a halved Δ or scale
    # in the object's own run would shrink it by far more than the band)
    runs, backend = 8000, SeededBackend(11)
    hits = sum(run_cls(0.0, 1.0)([-a], backend=backend) == 0 for _ in range(runs))
    expected = runs * _tail_equal_scales(a, b)
    assert abs(hits - expected) < 5 * math.sqrt(expected), (hits, expected)


def test_run_mechanism_releases_first_top():
    out = MonotoneAboveThresholdRun(5.0, 1.0)(list(range(200)), backend=SeededBackend(2))
    assert 0 <= out < 200
