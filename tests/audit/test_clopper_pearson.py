"""One-sided Clopper–Pearson bounds: defining tail property, agreement with scipy's exact interval, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom, binomtest

from littlestone.audit import clopper_pearson as cp
from littlestone.errors import LittlestoneError


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 5000), frac=st.floats(0, 1), alpha=st.sampled_from([1e-7, 1e-3, 0.05]))
def test_bounds_match_scipy_exact_interval_and_tail_property(n, frac, alpha):
    k = int(round(frac * n))
    lo, hi = cp.lower_bound(k, n, alpha), cp.upper_bound(k, n, alpha)
    ci = binomtest(k, n).proportion_ci(confidence_level=1 - 2 * alpha, method="exact")
    assert lo == pytest.approx(ci.low, abs=1e-9)
    assert hi == pytest.approx(ci.high, abs=1e-9)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    if 0 < k:  # at p = lower bound, seeing ≥ k successes has probability exactly alpha
        assert binom.sf(k - 1, n, lo) == pytest.approx(alpha, rel=1e-4)
    if k < n:
        assert binom.cdf(k, n, hi) == pytest.approx(alpha, rel=1e-4)


def test_vectorized_and_edge_counts():
    lo = cp.lower_bound(np.array([0, 5, 10]), 10, 0.01)
    hi = cp.upper_bound(np.array([0, 5, 10]), 10, 0.01)
    assert lo[0] == 0.0 and hi[2] == 1.0
    assert np.all(lo <= np.array([0, 0.5, 1.0])) and np.all(hi >= np.array([0, 0.5, 1.0]))
    assert hi[0] == pytest.approx(1 - 0.01 ** (1 / 10))  # zero successes: 1 − α^{1/n}


@pytest.mark.parametrize(
    "k, n, alpha, match",
    [(1, 0, 0.1, "at least one trial"), (-1, 5, 0.1, "between 0"), (6, 5, 0.1, "between 0"), (1, 5, 0.0, "alpha")],
)
def test_bad_input_is_named(k, n, alpha, match):
    with pytest.raises(LittlestoneError, match=match):
        cp.lower_bound(k, n, alpha)
