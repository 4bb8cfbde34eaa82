"""Composition theorems and amplification by subsampling."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone.errors import DomainError, EmptyDataError, PrivacyParameterError
from littlestone.privacy import (
    advanced_composition,
    amplified_epsilon,
    basic_composition,
    parallel_over_segments,
    per_step_epsilon,
    sampling_rate_for,
    subsample,
)


def test_basic_composition():
    assert basic_composition([(0.5, 1e-6), (0.25, 0.0), (0.25, 1e-6)]) == (1.0, 2e-6)
    assert basic_composition([]) == (0.0, 0.0)
    with pytest.raises(PrivacyParameterError, match="part 1"):
        basic_composition([(1.0, 0.0), (-1.0, 0.0)])
    with pytest.raises(PrivacyParameterError, match="pair"):
        basic_composition([1.0])


def test_parallel_over_segments():
    """Disjoint adaptive segments (ALGORITHMS.md F.1, docs/derivations.md): the largest ε and δ of a segment, not the
    sum; parts are checked as for basic composition."""
    assert parallel_over_segments([(0.5, 1e-6), (1.0, 0.0), (0.25, 2e-6)]) == (1.0, 2e-6)
    assert parallel_over_segments([(1.0, 1e-6)] * 50) == (1.0, 1e-6)
    assert parallel_over_segments([]) == (0.0, 0.0)
    with pytest.raises(PrivacyParameterError, match="part 1"):
        parallel_over_segments([(1.0, 0.0), (-1.0, 0.0)])


def test_advanced_composition_formula_and_per_step():
    eps, k, dp = 0.01, 1000, 1e-6
    e, d = advanced_composition(eps, 1e-9, k, dp)
    assert e == pytest.approx(eps * math.sqrt(2 * k * math.log(1 / dp)) + k * eps * math.expm1(eps))
    assert d == pytest.approx(k * 1e-9 + dp)
    assert e < k * eps  # beats basic composition for many small steps
    e0 = per_step_epsilon(1.0, k, dp)
    assert advanced_composition(e0, 0.0, k, dp)[0] <= 1.0 + 1e-9
    assert e0 > 1.0 / k
    assert per_step_epsilon(1.0, 2, dp) == pytest.approx(0.5)  # basic composition is better for k = 2
    with pytest.raises(PrivacyParameterError, match="k must"):
        advanced_composition(0.1, 0.0, 0, 1e-6)


def test_subsample():
    data = np.arange(100).reshape(50, 2)
    sub = subsample(data, 10, 3)
    assert sub.shape == (10, 2) and len({tuple(r) for r in sub}) == 10
    assert np.array_equal(sub, subsample(data, 10, 3))
    lst = subsample(list("abcdef"), 3, np.random.default_rng(0))
    assert isinstance(lst, list) and len(set(lst)) == 3
    with pytest.raises(DomainError):
        subsample(data, 51, 0)
    with pytest.raises(EmptyDataError):
        subsample([], 1, 0)


@settings(max_examples=100, deadline=None)
@given(st.floats(0.01, 5.0), st.floats(0.0, 0.5), st.floats(0.001, 1.0))
def test_amplification_properties(eps, delta, q):
    e2, d2 = amplified_epsilon(eps, delta, q)
    assert 0 < e2 <= eps + 1e-12 and d2 == pytest.approx(q * delta)
    assert e2 <= q * math.expm1(eps) + 1e-12  # ln(1+x) ≤ x
    q_back = sampling_rate_for(e2, eps)
    assert q_back == pytest.approx(q, rel=1e-6)


def test_amplification_rejects_bad_rate():
    with pytest.raises(PrivacyParameterError, match="sampling rate"):
        amplified_epsilon(1.0, 0.0, 0.0)
    with pytest.raises(PrivacyParameterError, match="sampling rate"):
        amplified_epsilon(1.0, 0.0, 1.5)
