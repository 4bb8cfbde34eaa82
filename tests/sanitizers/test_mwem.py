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
        m = MWEM(Thresholds(N), epsilon=1.0, beta=beta, reuse=0, backend="seeded", seed=seed).fit(X)
        alpha = m.error_bound()
        fails += m.max_error(X) > alpha
    assert alpha < 0.5
    assert fails <= 4  # P[Bin(20, 0.05) ≥ 5] < 0.003


def test_the_accuracy_check_can_fail():
    # a sanitizer that never updates (the uniform histogram) is off by more than the bound on skewed data
    N, n = 16, 200_000
    X = _skewed(n, 0, N)
    m = MWEM(Thresholds(N), epsilon=1.0, iterations=1, reuse=0, backend="seeded", seed=0).fit(X)
    m.synthetic_histogram_ = np.full(N, 1.0 / N)
    alpha = MWEM(Thresholds(N), epsilon=1.0, reuse=0).fit(X).error_bound()
    assert m.max_error(X) > alpha


def test_label_class_and_explicit_class():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 8, 50_000)
    Y = (X >= 4).astype(int)
    Y[rng.random(X.size) < 0.1] ^= 1
    m = MWEM(LabelClass(Thresholds(8)), epsilon=1.0, reuse=0, backend="seeded", seed=2).fit(np.c_[X, Y])
    assert m.max_error(np.c_[X, Y]) <= m.error_bound()
    H = random_class(20, 8, seed=3)
    m2 = MWEM(H, epsilon=1.0, reuse=0, backend="seeded", seed=4).fit(X)
    assert m2.max_error(X) <= m2.error_bound()
    assert len(m2.synthetic(10)) == 10


def test_same_seed_same_output_and_sample_size():
    X = _skewed(1000, 2)
    a = MWEM(Thresholds(16), 1.0, reuse=0, backend="seeded", seed=5).fit(X).estimates()
    b = MWEM(Thresholds(16), 1.0, reuse=0, backend="seeded", seed=5).fit(X).estimates()
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


# ---------------------------------------------------------------- measurement reuse (HLM12 §3): post-processing


def _normal(n, N, seed=0):
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal(N * 0.3, N * 0.05, n).astype(int), 0, N - 1)


def test_reuse_workload_small():
    # the benchmark's workload scaled down (2^10 points, n = 2·10^4, ε = 1, theory T = 75): one reuse sweep and the
    # last iterate are ≥ 5× more accurate than the plain average, on every seed
    N, n = 2**10, 20_000
    X = _normal(n, N)
    plain = [MWEM(Thresholds(N), 1.0, reuse=0, backend="seeded", seed=s).fit(X).max_error(X) for s in range(5)]
    last = [
        MWEM(Thresholds(N), 1.0, reuse=1, output="last", backend="seeded", seed=s).fit(X).max_error(X) for s in range(5)
    ]
    assert min(plain) > 0.15
    assert max(last) < 0.03


@pytest.mark.slow
def test_reuse_full_workload():
    # issue 22's workload: thresholds over 2^16 points, n = 10^5, ε = 1, T = 216 (theory): max error ≤ 0.013
    N, n = 2**16, 100_000
    X = _normal(n, N)
    for s in range(3):
        m = MWEM(Thresholds(N), 1.0, reuse=1, output="last", backend="seeded", seed=s).fit(X)
        assert m.iterations_ == 216
        assert m.max_error(X) <= 0.013


def test_reuse_average_within_its_weakened_bound():
    N, n, beta = 16, 20_000, 0.05
    X = _skewed(n, 0, N)
    fails = 0
    for seed in range(10):
        m = MWEM(Thresholds(N), epsilon=1.0, beta=beta, reuse=1, backend="seeded", seed=seed).fit(X)
        fails += m.max_error(X) > m.error_bound()
    assert fails <= 3  # P[Bin(10, 0.05) ≥ 4] < 0.002
    assert m.error_bound() < 1.0
    plain = MWEM(Thresholds(N), epsilon=1.0, beta=beta, reuse=0).fit(X)
    T = plain.iterations_
    assert m.error_bound() > plain.error_bound()  # the Laplace term grows by √(1 + (T + 1)/2)
    lg = np.log(2 * T / beta)
    extra = (np.sqrt(1 + (T + 1) / 2) - 1) * 2 * T * lg / n
    assert m.error_bound() == pytest.approx(plain.error_bound() + extra)
    with pytest.raises(LittlestoneError, match="no proven bound"):
        MWEM(Thresholds(N), 1.0, reuse=1, output="last").fit(X).error_bound()


def _run_mechanisms(monkeypatch, **kw):
    """The claims of the mechanism objects an MWEM fit actually runs."""
    from littlestone.privacy import ExponentialMechanism, LaplaceMechanism, compose

    ran = []
    for cls in (ExponentialMechanism, LaplaceMechanism):
        orig = cls.__call__

        def rec(self, *a, _orig=orig, **k):
            ran.append(self.privacy())
            return _orig(self, *a, **k)

        monkeypatch.setattr(cls, "__call__", rec)
    m = MWEM(Thresholds(64), epsilon=0.7, iterations=9, backend="seeded", seed=1, **kw).fit(_normal(5000, 64))
    return m, compose(ran), len(ran)


@pytest.mark.parametrize("kw", [{}, {"reuse": 0}, {"reuse": 1}, {"reuse": 3, "output": "last"}])
def test_claim_is_the_composition_of_the_mechanisms_run_and_unchanged_by_reuse(monkeypatch, kw):
    m, claim, runs = _run_mechanisms(monkeypatch, **kw)
    assert runs == 2 * 9  # reuse draws no noise
    assert (claim.epsilon, claim.delta) == pytest.approx(m.privacy()[:2])
    assert m.privacy() == MWEM(Thresholds(64), epsilon=0.7, reuse=0, iterations=9).privacy()


# re-pinned for issue 34's seeded Laplace sampler (b·Exp(1)·sign: same law, other draws for seed 7)
PIN_SELECTED = [24, 27, 12, 14, 27, 14, 29, 13, 16, 29, 33, 26]
PIN_ESTIMATES = [1.0, 0.9584211570083613, 0.771946013935048, 0.10802911202822041, 0.04779290175506223,
                 0.035744997608944604, 0.023829998405963063, 0.011914999202981533, 0.0]  # fmt: skip
PIN_PLAIN = [
    1.0,
    0.8199289960884365,
    0.630801250793661,
    0.4193985237016446,
    0.31279915173637823,
    0.23459936380228366,
    0.15639957586818912,
    0.07819978793409456,
    0.0,
]  # fmt: skip  (= main before reuse)


def test_reuse_pinned_outputs():
    X = _normal(5000, 64)
    m = MWEM(Thresholds(64), 1.0, iterations=12, reuse=1, output="last", backend="seeded", seed=7).fit(X)
    assert m.selected_ == PIN_SELECTED
    np.testing.assert_allclose(m.estimates()[::8], PIN_ESTIMATES, rtol=0, atol=1e-12)
    plain = MWEM(Thresholds(64), 1.0, iterations=12, reuse=0, backend="seeded", seed=7).fit(X)
    np.testing.assert_allclose(plain.estimates()[::8], PIN_PLAIN, rtol=0, atol=1e-12)


def test_reuse_bad_input():
    with pytest.raises(LittlestoneError, match="reuse"):
        MWEM(Thresholds(4), 1.0, reuse=-1)
    with pytest.raises(LittlestoneError, match="reuse"):
        MWEM(Thresholds(4), 1.0, reuse=True)
    with pytest.raises(LittlestoneError, match="output"):
        MWEM(Thresholds(4), 1.0, output="best")


def test_reuse_on_label_and_explicit_classes():
    # the atom bookkeeping works for any 0/1 query rows: H^label (pairs) and an explicit class
    rng = np.random.default_rng(1)
    X = rng.integers(0, 8, 50_000)
    Y = (X >= 4).astype(int)
    Y[rng.random(X.size) < 0.1] ^= 1
    D = np.c_[X, Y]
    for H, data in ((LabelClass(Thresholds(8)), D), (random_class(20, 8, seed=3), X)):
        plain = MWEM(H, 1.0, reuse=0, backend="seeded", seed=2).fit(data).max_error(data)
        reuse = MWEM(H, 1.0, reuse=1, output="last", backend="seeded", seed=2).fit(data).max_error(data)
        assert reuse <= max(plain, 0.01)


def test_default_is_one_reuse_sweep_with_its_proven_bound():
    # issue 28 item 4: users get reuse=1 (more accurate, same claim); the bound it reports is the √(S/T)-weakened one
    N, n = 2**10, 20_000
    X = _normal(n, N)
    default = MWEM(Thresholds(N), 1.0, backend="seeded", seed=0).fit(X)
    assert default.reuse == 1 and default.output == "average"
    plain = MWEM(Thresholds(N), 1.0, reuse=0, backend="seeded", seed=0).fit(X)
    assert default.max_error(X) < plain.max_error(X) / 2
    assert default.error_bound() == pytest.approx(
        mwem_error_bound(n, N, N + 1, 1.0, 0.05, default.iterations_, reuse=1)
    )
    assert default.privacy() == plain.privacy()
