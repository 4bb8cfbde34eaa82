"""Calibration pinned against the claim (kills survivors of the privacy mutation run, tools/mutate.py).

* AboveThreshold's wrappers (SparseVector, SparseVectorRun, RunningSumAboveThreshold(Run), AboveThresholdRun) hand
  the sensitivity Δ ≠ 1 to the inner AboveThreshold: threshold noise Lap(2Δ/ε_run), query noise Lap(4Δ/ε_run)
  (DR14 Alg. 1; ε_run = ε/c for Sparse, DR14 Thm 3.25), recorded draw by draw;
* the bounded histogram's release reports the scale 2/ε, ε and the requested δ it was calibrated from (LWY25 Thm 2.6).
"""

from __future__ import annotations

import pytest

from littlestone.privacy import (
    AboveThresholdRun,
    BoundedHistogram,
    RunningSumAboveThreshold,
    RunningSumAboveThresholdRun,
    SparseVector,
    SparseVectorRun,
)
from littlestone.privacy.bounded_histogram import truncation_bound
from littlestone.testing import RecordingBackend

DELTA_SENS = 3.0


def _assert_at_scales(backend: RecordingBackend, eps_run: float, sens: float) -> None:
    """Every Laplace draw is the threshold noise 2Δ/ε_run or the query noise 4Δ/ε_run, and both occur."""
    scales = sorted(set(backend.scales("laplace")))
    assert scales == pytest.approx([2 * sens / eps_run, 4 * sens / eps_run])


def test_sparse_vector_inner_noise_uses_sensitivity_and_epsilon_over_c():
    b = RecordingBackend(0)
    sv = SparseVector(0.0, 1.5, 3, sensitivity=DELTA_SENS, backend=b)
    assert sv.max_positives == 3 and sv._inner.sensitivity == DELTA_SENS and sv.mechanism.sensitivity == DELTA_SENS
    for v in [100.0, -100.0, 100.0, 100.0]:
        sv.test(v)
    _assert_at_scales(b, 1.5 / 3, DELTA_SENS)


def test_sparse_vector_run_passes_sensitivity_and_max_positives():
    mech = SparseVectorRun(0.0, 2.0, 2, sensitivity=DELTA_SENS)
    assert mech.sensitivity == mech.run.sensitivity == DELTA_SENS and mech.max_positives == 2
    b = RecordingBackend(1)
    answers = mech([1e6, 1e6, 1e6, 1e6], backend=b)
    assert answers == (True, True)  # halts after c = 2 ⊤ answers
    _assert_at_scales(b, 2.0 / 2, DELTA_SENS)


def test_above_threshold_run_passes_sensitivity():
    b = RecordingBackend(2)
    assert AboveThresholdRun(0.0, 0.5, sensitivity=DELTA_SENS)([-1e6, 1e6], backend=b) == 1
    _assert_at_scales(b, 0.5, DELTA_SENS)


def test_running_sum_above_threshold_passes_sensitivity():
    b = RecordingBackend(3)
    rs = RunningSumAboveThreshold(1e6, 0.7, sensitivity=DELTA_SENS, backend=b)
    assert rs._inner.sensitivity == DELTA_SENS
    rs.add(DELTA_SENS)  # a value in [0, Δ] is accepted only when Δ is the one given
    _assert_at_scales(b, 0.7, DELTA_SENS)


def test_running_sum_above_threshold_run_passes_sensitivity():
    b = RecordingBackend(4)
    assert RunningSumAboveThresholdRun(-1e6, 0.7, sensitivity=DELTA_SENS)([DELTA_SENS], backend=b) == 0
    _assert_at_scales(b, 0.7, DELTA_SENS)


@pytest.mark.parametrize("discrete", [True, False])
@pytest.mark.parametrize("eps,delta", [(1.0, 1e-6), (0.5, 1e-3)])
def test_bounded_histogram_release_reports_its_calibration(discrete, eps, delta):
    b = RecordingBackend(5)
    rel = BoundedHistogram(eps, delta, discrete=discrete)(["a"] * 50 + ["b"] * 3, backend=b)
    big_a, spent = truncation_bound(eps, delta, discrete=discrete)
    assert rel.noise_scale == pytest.approx(2.0 / eps)
    assert rel.epsilon == eps and rel.requested_delta == delta and rel.delta == pytest.approx(spent)
    assert rel.threshold == pytest.approx(1.0 + big_a) and rel.error_bound == pytest.approx(1.0 + 2.0 * big_a)
    used = b.scales("discrete_laplace" if discrete else "laplace")
    assert all(s == pytest.approx(2.0 / eps) for s in used)
