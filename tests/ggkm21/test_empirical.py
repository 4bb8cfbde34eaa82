"""Empirical-error classes H_{P̂,θ} (GGKM21 §5): structured levels equal the naive filter on explicit twins; Ldim,
irreducibility and SOA of each level agree with the twin's; streaming in blocks gives the same table."""

from __future__ import annotations

import numpy as np
import pytest

import littlestone as ls
from littlestone.classes import FiniteClass, Points, Thresholds
from littlestone.classes.empirical import empirical_errors, empirical_errors_from_batches, mistake_budget
from littlestone.classes.ops import to_finite


def _naive_level(F: FiniteClass, X, y, theta):
    """Filter every hypothesis by its empirical error (the baseline)."""
    idx = F.domain.indices(X)
    mistakes = (F.matrix[:, idx] != np.asarray(y)[None, :]).sum(axis=1)
    rows = np.flatnonzero(mistakes <= mistake_budget(theta, len(y)))
    return F.version_space_of(rows.tolist())


def _twin_values(V, pts):
    return sorted(tuple(h.predict(np.array(pts)).tolist()) for h in V.hypotheses())


@pytest.mark.parametrize("seed", range(8))
def test_threshold_levels_equal_naive_filter(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    H = Thresholds(n)
    F = to_finite(H)
    m = int(rng.integers(1, 40))
    X = rng.integers(0, n, size=m)
    t = int(rng.integers(0, n + 1))
    y = (X >= t).astype(np.int8)
    y[rng.random(m) < 0.2] ^= 1
    emp = empirical_errors(H, X, y)
    for theta in (0.0, 0.05, 0.1, 0.25, 0.5, 1.0):
        V = emp.level(theta)
        W = _naive_level(F, X, y, theta)
        assert _twin_values(V, list(range(n))) == sorted(tuple(F.matrix[r].tolist()) for r in W.rows())
        assert V.ldim() == W.ldim()
        assert ls.irreducibility(V) == ls.irreducibility(W)
        if V.size():
            assert tuple(V.soa().predict(np.arange(n)).tolist()) == tuple(W.soa().as_array().tolist())
        for x in range(n):  # ancestor-set restriction commutes with the filter
            for lab in (0, 1):
                a, b = V.restrict(x, lab), W.restrict(x, lab)
                assert a.size() == b.size() and a.ldim() == b.ldim()
                assert ls.irreducibility(a) == ls.irreducibility(b)
        for h in H.version_space().hypotheses():
            assert emp.mistakes(h) == int(np.count_nonzero(h.predict(X) != y))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("zero", [True, False])
def test_points_levels_equal_naive_filter(seed, zero):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 9))
    H = Points(range(n), include_zero=zero)
    F = to_finite(H)
    m = int(rng.integers(1, 25))
    X = rng.integers(0, n, size=m)
    y = (X == int(rng.integers(0, n))).astype(np.int8)
    y[rng.random(m) < 0.25] ^= 1
    emp = empirical_errors(H, X, y)
    for theta in (0.0, 0.1, 0.3, 0.6, 1.0):
        V = emp.level(theta)
        W = _naive_level(F, X, y, theta)
        assert V.size() == W.size(), theta
        if W.size():
            assert _twin_values(V, list(range(n))) == sorted(tuple(F.matrix[r].tolist()) for r in W.rows())
            assert V.ldim() == W.ldim()
            assert ls.irreducibility(V) == ls.irreducibility(W)
            assert tuple(V.soa().predict(np.arange(n)).tolist()) == tuple(W.soa().as_array().tolist())


def test_points_over_int64_levels():
    H = Points()
    X = np.array([5, 5, 2**62, -7, 5], dtype=np.int64)
    y = np.array([1, 1, 0, 0, 0], dtype=np.int8)
    emp = empirical_errors(H, X, y)
    assert emp.mistakes(H.hypothesis(5)) == 1 and emp.mistakes(H.hypothesis()) == 2
    assert emp.level(0.2).size() == 1 and emp.level(0.2).contains(H.hypothesis(5))
    V = emp.level(0.4)  # P = 2 ≤ 2: cofinite (zero, h_5, unseen points)
    assert V.size() == float("inf") and ls.irreducibility(V) == float("inf")
    assert not V.contains(H.hypothesis(-7))


def test_finite_levels_and_streaming_equal():
    rng = np.random.default_rng(7)
    F = FiniteClass(rng.integers(0, 2, size=(40, 9)))
    X = rng.integers(0, 9, size=500)
    y = rng.integers(0, 2, size=500)
    a = empirical_errors(F, X, y)
    b = empirical_errors_from_batches(F, [(X[i : i + 64], y[i : i + 64]) for i in range(0, 500, 64)])
    for theta in (0.3, 0.45, 0.5, 0.6):
        assert a.level(theta) == b.level(theta) == _naive_level(F, X, y, theta)
    T = Thresholds(10**15)
    Xt = rng.integers(0, 10**15, size=300)
    yt = (Xt >= 5 * 10**14).astype(np.int8)
    ta = empirical_errors(T, Xt, yt)
    tb = empirical_errors_from_batches(T, [(Xt[i : i + 50], yt[i : i + 50]) for i in range(0, 300, 50)])
    assert ta.level(0.0).key() == tb.level(0.0).key()
    assert ta.level(0.0).contains(T.hypothesis(5 * 10**14))


def test_empty_sample_is_a_clear_error():
    with pytest.raises(ls.errors.LittlestoneError, match="at least one example"):
        empirical_errors(Thresholds(5), np.array([], dtype=np.int64), np.array([], dtype=np.int8))
