"""Issue 9 item 1: on the secure backend no noise is added to data in floating-point arithmetic."""

import numpy as np
import pytest

from littlestone.audit import run_broken_audit, run_builtin_audit
from littlestone.errors import PrivacyParameterError
from littlestone.privacy import AboveThreshold, BinaryMechanism, SecureBackend, SeededBackend, bounded_histogram


def test_binary_mechanism_default_is_float_safe_on_secure_backend():
    # before the fix: ε_lb ≈ 5.5 > 1 from the output's exponent and last mantissa bit (streams (1) vs (0))
    rep = run_builtin_audit("binary_mechanism_float_safe", seed=3)
    assert rep.randomness == "secure"
    assert rep.passed, rep


def test_laplace_mechanism_float_safe_on_secure_backend():
    assert run_builtin_audit("laplace_float_safe", seed=3).passed


def test_float_added_noise_twin_is_caught():
    rep = run_broken_audit("laplace_noise_added_in_floats", seed=3)
    assert rep.passed is False and rep.epsilon_lb > 2.0


def test_float_safety_audits_ignore_a_seeded_request():
    rep = run_builtin_audit("binary_mechanism_float_safe", seed=3, runs=200, randomness="seeded")
    assert rep.randomness == "secure"


def test_secure_binary_mechanism_releases_nodes_consistently():
    bm = BinaryMechanism(8, 50.0, backend=SecureBackend())
    outs = [bm.step(x) for x in [1, 0, 1, 1, 0, 0, 1, 0]]
    truth = np.cumsum([1, 0, 1, 1, 0, 0, 1, 0])
    bound = bm.error_bound(1e-6, queries=8)
    assert all(abs(o - t) <= bound for o, t in zip(outs, truth))
    assert bm.range_sum(1, 8) == pytest.approx(bm.prefix_sum(8))  # [1, 8] is one dyadic node
    assert bm.range_sum(1, 6) == pytest.approx(bm.prefix_sum(6))  # nodes [1,4] and [5,6]
    assert abs(bm.range_sum(3, 7) - 3) <= bound


def test_above_threshold_compares_exact_integers_on_secure_backend():
    at = AboveThreshold(0.5, 1.0, backend=SecureBackend())
    assert isinstance(at._noisy_threshold, int)
    assert at.test(-1e6) is False
    assert at.test(1e6) is True
    at_seeded = AboveThreshold(0.5, 1.0, backend=SeededBackend(0))
    assert isinstance(at_seeded._noisy_threshold, float)
    # the integer grid costs a factor 1 + 2^-10 and 2.5 grid steps of accuracy
    assert at.accuracy(10, 0.1) == pytest.approx(at_seeded.accuracy(10, 0.1) * (1 + 2**-10) * (1 + 2**-20) + 2.5 / 1024)


def test_continuous_bounded_histogram_refused_on_secure_backend():
    with pytest.raises(PrivacyParameterError, match="floating-point safe"):
        bounded_histogram(["a"] * 30, 1.0, 0.1, backend=SecureBackend(), discrete=False)
    assert bounded_histogram(["a"] * 30, 1.0, 0.1, backend=SeededBackend(0), discrete=False) is not None
