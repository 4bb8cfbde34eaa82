"""The thresholds H^label sanitizer on huge domains: accuracy (every threshold query within α w.p. ≥ 1 − β, on fixed
data), its claim is the composition of its levels, polylog cost, integer noise on the secure backend, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.bounds.threshold_label import (
    threshold_label_alpha,
    threshold_label_noise_bound,
    threshold_label_sample_size,
    tree_depth,
)
from littlestone.errors import DomainError, LittlestoneError
from littlestone.privacy import PrivacyClaim, compose
from littlestone.sanitizers import DyadicLabelTree, ThresholdLabelSanitizer
from littlestone.sanitizers.threshold_label import empirical_label_errors

N60 = 2**60


def _data(m, n=N60, eta=0.1, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, n, m)
    y = (X >= n // 3).astype(np.int8)
    y[rng.random(m) < eta] ^= 1
    return X, y


def _max_synthetic_error(X, y, Xs, ys):
    """sup over all thresholds t ∈ [0, n]: both error functions only change at t = x + 1 for a point x."""
    ts = np.unique(np.concatenate([[0], X + 1, Xs + 1]))
    return float(np.abs(empirical_label_errors(X, y, ts) - empirical_label_errors(Xs, ys, ts)).max())


def test_claim_is_the_basic_composition_of_the_levels():
    mech = DyadicLabelTree(N60, 0.7)
    L = tree_depth(N60)
    assert L == 60 and mech.levels == 60
    parts = [PrivacyClaim(0.7 / (L + 1), 0.0, "replace-one") for _ in range(L + 1)]
    claim = compose(parts, "basic")
    got = ThresholdLabelSanitizer(N60, 0.7).privacy()
    assert got.pair == pytest.approx(claim.pair) and got.pair == pytest.approx((0.7, 0.0))
    assert len(got.parts) == L + 1 and got.relation == "replace-one"
    assert mech.scale == pytest.approx(2 * (L + 1) / 0.7)


def test_noise_bound_grows_like_L_squared_over_epsilon():
    psi = [threshold_label_noise_bound(L, 1.0, 0.05) for L in (10, 20, 40, 60)]
    assert psi == sorted(psi)
    assert threshold_label_noise_bound(60, 10.0, 0.05) == pytest.approx(psi[-1] / 10, rel=0.01)
    assert threshold_label_alpha(10**5, N60, 1.0, 0.05) == pytest.approx(3 * psi[-1] / 10**5)
    m = threshold_label_sample_size(0.1, N60, 1.0, 0.05)
    assert threshold_label_alpha(m, N60, 1.0, 0.05) <= 0.1 < threshold_label_alpha(m - 1, N60, 1.0, 0.05)


@pytest.mark.parametrize("n", [N60, 2**62, 1000])
def test_every_threshold_query_within_alpha_on_fixed_data(n):
    m, eps, beta = 20_000, 20.0, 0.05
    X, y = _data(m, n=n)
    alpha = threshold_label_alpha(m, n, eps, beta)
    assert alpha < 0.2  # a bound that says something
    worst_synth = worst_est = 0.0
    rng = np.random.default_rng(1)
    for seed in range(10):
        s = ThresholdLabelSanitizer(n, eps, beta=beta, backend="seeded", seed=seed).fit_arrays(X, y)
        Xs, ys = s.synthetic_arrays(m)
        assert Xs.size == m and Xs.min() >= 0 and Xs.max() < n
        worst_synth = max(worst_synth, _max_synthetic_error(X, y, Xs, ys))
        ts = np.unique(np.concatenate([[0, n], X[:500] + 1, rng.integers(0, n + 1, 500)]))
        worst_est = max(worst_est, float(np.abs(s.estimate(ts) - empirical_label_errors(X, y, ts)).max()))
    assert worst_synth <= alpha and worst_est <= alpha


def test_small_domain_every_threshold_exhaustively():
    n, m = 64, 4000
    X, y = _data(m, n=n)
    s = ThresholdLabelSanitizer(n, 50.0, beta=0.05, backend="seeded", seed=3).fit_arrays(X, y)
    ts = np.arange(n + 1)
    alpha = s.alpha(m)
    assert np.abs(s.estimate(ts) - empirical_label_errors(X, y, ts)).max() <= alpha
    Xs, ys = s.synthetic_arrays(m)
    assert np.abs(empirical_label_errors(Xs, ys, ts) - empirical_label_errors(X, y, ts)).max() <= alpha


def test_a_broken_descent_would_be_caught():
    """The accuracy check has power: synthetic data with the labels flipped are far outside α."""
    m, eps = 20_000, 20.0
    X, y = _data(m)
    s = ThresholdLabelSanitizer(N60, eps, backend="seeded", seed=0).fit_arrays(X, y)
    Xs, ys = s.synthetic_arrays(m)
    assert _max_synthetic_error(X, y, Xs, 1 - ys) > s.alpha(m)


@pytest.mark.slow
def test_accuracy_failure_rate_at_most_beta():
    """200 independent runs on fixed data: the fraction with some query off by more than α is ≤ β (here 0)."""
    m, eps, beta = 5000, 50.0, 0.05
    X, y = _data(m, eta=0.2, seed=5)
    alpha = threshold_label_alpha(m, N60, eps, beta)
    fails = 0
    for seed in range(200):
        s = ThresholdLabelSanitizer(N60, eps, beta=beta, backend="seeded", seed=seed).fit_arrays(X, y)
        fails += _max_synthetic_error(X, y, *s.synthetic_arrays(m)) > alpha
    assert fails <= beta * 200


def test_cost_is_polylog_per_point_never_dense():
    m = 5000
    X, y = _data(m)
    s = ThresholdLabelSanitizer(N60, 1.0, backend="seeded", seed=0).fit_arrays(X, y)
    s.synthetic_arrays(m)
    s.estimate([0, 17, N60])
    L = s.levels
    assert s.tree_.nodes_drawn <= (L + 1) * (m + 2) + 4 * (L + 1)


def test_secure_backend_noise_is_integer_and_from_opendp():
    m = 200
    X, y = _data(m)
    s = ThresholdLabelSanitizer(N60, 1.0, backend="secure").fit_arrays(X, y)
    Xs, ys = s.synthetic_arrays(m)
    ids, vals = s.tree_._memo[1][0]
    assert vals.dtype == np.int64 and Xs.dtype == np.int64
    assert s.tree_._backend.floating_point_safe
    with pytest.raises(Exception, match="seed"):
        from littlestone.privacy import make_backend

        make_backend("secure", seed=1)


def test_same_seed_same_synthetic_data():
    X, y = _data(1000)
    a = ThresholdLabelSanitizer(N60, 1.0, backend="seeded", seed=9).fit_arrays(X, y).synthetic(1000)
    b = (
        ThresholdLabelSanitizer(N60, 1.0, backend="seeded", seed=9)
        .fit(list(zip(X.tolist(), y.tolist())))
        .synthetic(1000)
    )
    assert a == b


def test_bad_input():
    s = ThresholdLabelSanitizer(100, 1.0, backend="seeded", seed=0)
    with pytest.raises(LittlestoneError, match="fit"):
        s.synthetic(3)
    with pytest.raises(DomainError, match="0..99"):
        s.fit([(100, 1)])
    with pytest.raises(LittlestoneError, match="labels"):
        s.fit([(1, 2)])
    with pytest.raises(LittlestoneError, match="input size"):
        s.fit([(1, 1), (2, 0)]).synthetic(5)
    with pytest.raises(LittlestoneError, match="2\\^62"):
        ThresholdLabelSanitizer(2**63, 1.0)
    with pytest.raises(Exception, match="epsilon"):
        ThresholdLabelSanitizer(100, 0.0)
    with pytest.raises(Exception, match="empty"):
        s.fit([])


def test_interval_queries_within_five_psi_over_m():
    """Intervals from the same release: every interval query (exhaustive on 64 points) within 5Ψ/m, both for the
    estimate and for the synthetic data; and on 2^60 points for random and data-aligned intervals."""
    from littlestone.bounds.threshold_label import interval_label_alpha
    from littlestone.sanitizers.threshold_label import empirical_interval_errors

    n, m = 64, 4000
    rng = np.random.default_rng(2)
    X = rng.integers(0, n, m)
    y = ((X >= 20) & (X <= 40)).astype(np.int8)
    y[rng.random(m) < 0.1] ^= 1
    s = ThresholdLabelSanitizer(n, 50.0, beta=0.05, backend="seeded", seed=4).fit_arrays(X, y)
    alpha = interval_label_alpha(m, n, 50.0, 0.05)
    assert alpha == pytest.approx(5 / 3 * s.alpha(m)) and alpha < 0.5
    a, b = (g.ravel() for g in np.meshgrid(np.arange(n), np.arange(n)))
    truth = empirical_interval_errors(X, y, a, b)
    assert np.abs(s.estimate_interval(a, b) - truth).max() <= alpha
    Xs, ys = s.synthetic_arrays(m)
    assert np.abs(empirical_interval_errors(Xs, ys, a, b) - truth).max() <= alpha
    assert empirical_interval_errors(X, y, [30], [5])[0] == pytest.approx(y.mean())  # empty interval
    m = 20_000
    X, y = _data(m)
    s = ThresholdLabelSanitizer(N60, 20.0, backend="seeded", seed=0).fit_arrays(X, y)
    Xs, ys = s.synthetic_arrays(m)
    ends = np.sort(rng.choice(np.concatenate([X[:300], X[:300] + 1, rng.integers(0, N60, 300)]), (2000, 2)), axis=1)
    ends = np.minimum(ends, N60 - 1)
    truth = empirical_interval_errors(X, y, ends[:, 0], ends[:, 1])
    alpha = interval_label_alpha(m, N60, 20.0, 0.05)
    assert np.abs(empirical_interval_errors(Xs, ys, ends[:, 0], ends[:, 1]) - truth).max() <= alpha
    assert np.abs(s.estimate_interval(ends[:, 0], ends[:, 1]) - truth).max() <= alpha
