"""MWEM: accuracy within its proven bound (statistically), a bound that can fail, privacy audit with a broken twin."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.audit import audit_mechanism
from littlestone.classes import LabelClass, Thresholds, random_class
from littlestone.errors import DomainError, EmptyDataError, LittlestoneError
from littlestone.sanitizers.mwem import MWEM, mwem_error_bound, mwem_sample_size


def _skewed(n, seed, N=16):
    rng = np.random.default_rng(seed)
    return np.minimum(rng.geometric(0.5, n) - 1, N - 1)


def test_every_query_within_alpha_with_probability_1_minus_beta():
    N, n, beta = 16, 200_000, 0.05
    X = _skewed(n, 0, N)
    fails, alpha = 0, None
    for seed in range(20):
        m = MWEM(Thresholds(N), epsilon=1.0, beta=beta, backend="seeded", seed=seed).fit(X)
        alpha = m.error_bound()
        fails += m.max_error(X) > alpha
    assert alpha < 0.5
    assert fails <= 4  # P[Bin(20, 0.05) ≥ 5] < 0.003


def test_the_accuracy_check_can_fail():
    # a sanitizer that never updates (the uniform histogram) is off by more than the bound on skewed data
    N, n = 16, 200_000
    X = _skewed(n, 0, N)
    m = MWEM(Thresholds(N), epsilon=1.0, iterations=1, backend="seeded", seed=0).fit(X)
    m.synthetic_histogram_ = np.full(N, 1.0 / N)
    alpha = MWEM(Thresholds(N), epsilon=1.0).fit(X).error_bound()
    assert m.max_error(X) > alpha


def test_label_class_and_explicit_class():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 8, 50_000)
    Y = (X >= 4).astype(int)
    Y[rng.random(X.size) < 0.1] ^= 1
    m = MWEM(LabelClass(Thresholds(8)), epsilon=1.0, backend="seeded", seed=2).fit(np.c_[X, Y])
    assert m.max_error(np.c_[X, Y]) <= m.error_bound()
    H = random_class(20, 8, seed=3)
    m2 = MWEM(H, epsilon=1.0, backend="seeded", seed=4).fit(X)
    assert m2.max_error(X) <= m2.error_bound()
    assert len(m2.synthetic(10)) == 10


def test_same_seed_same_output_and_sample_size():
    X = _skewed(1000, 2)
    a = MWEM(Thresholds(16), 1.0, backend="seeded", seed=5).fit(X).estimates()
    b = MWEM(Thresholds(16), 1.0, backend="seeded", seed=5).fit(X).estimates()
    assert np.array_equal(a, b)
    n = mwem_sample_size(0.3, 16, 17, 1.0, 0.05)
    from littlestone.sanitizers.mwem import mwem_theory_iterations

    assert mwem_error_bound(n, 16, 17, 1.0, 0.05, mwem_theory_iterations(n, 16, 17, 1.0, 0.05)) <= 0.3


def test_bad_input():
    with pytest.raises(LittlestoneError):
        MWEM(Thresholds(4), epsilon=0.0)
    with pytest.raises(LittlestoneError):
        MWEM(Thresholds(4), epsilon=1.0, iterations=0)
    with pytest.raises(DomainError):
        MWEM(Thresholds(4), 1.0).fit([7])
    with pytest.raises(EmptyDataError):
        MWEM(Thresholds(4), 1.0).fit(np.zeros(0, dtype=int))
    with pytest.raises(LittlestoneError, match="fit"):
        MWEM(Thresholds(4), 1.0).estimates()


class _NoiselessSelection(MWEM):
    """Broken twin: the worst query chosen without the exponential mechanism's noise."""

    def _select(self, scores, eps0, backend):
        return int(np.argmax(scores))


def _selections(cls):
    def mech(data, backend):
        return tuple(cls(Thresholds(4), epsilon=1.0, iterations=2, backend=backend).fit(data).selected_)

    return mech


@pytest.mark.parametrize("cls,ok", [(MWEM, True), (_NoiselessSelection, False)])
def test_mwem_audit(cls, ok):
    D, D_prime = np.array([1, 1, 2, 2]), np.array([0, 1, 2, 2])  # the noiseless worst query flips (1 → 3)
    rep = audit_mechanism(_selections(cls), D, D_prime, runs=10_000, seed=0, randomness="seeded", claimed_epsilon=1.0)
    assert rep.passed is ok
