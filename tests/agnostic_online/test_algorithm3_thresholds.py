"""LWY25 Algorithm 3 on Thresholds(2^60): one synthetic point per subsequence per batch, the claim is the sanitizer's,
same seed ⇒ same stream, regret within Thm 4.1's concrete bound, properness checked, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.agnostic_online import ThresholdsAlgorithm3
from littlestone.agnostic_online import algorithm3_thresholds as a3t
from littlestone.agnostic_online.algorithm3_thresholds import best_threshold_mistakes
from littlestone.bounds.threshold_label import algorithm3_thresholds_batch, algorithm3_thresholds_bound
from littlestone.classes import Thresholds, random_class
from littlestone.errors import LittlestoneError

N60 = 2**60
H60 = Thresholds(N60)


def _data(T, eta=0.1, seed=0, cut=N60 // 3):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, N60, T)
    y = (X >= cut).astype(np.int8)
    y[rng.random(T) < eta] ^= 1
    return X, y


def _best(X, y):
    return best_threshold_mistakes(X, y)


def test_best_threshold_mistakes_matches_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(20):
        X = rng.integers(0, 16, 30)
        y = rng.integers(0, 2, 30)
        assert best_threshold_mistakes(X, y) == min(int(((X >= t) != y).sum()) for t in range(17))


@pytest.mark.parametrize("learner", ["hedge", "soa"])
def test_each_subsequence_gets_exactly_one_synthetic_point_per_batch(learner, monkeypatch):
    seen = []
    orig = a3t._ThresholdHedgePool.update if learner == "hedge" else a3t._ThresholdSOAPool.update

    def spy(self, x, y):
        seen.append((x.copy(), y.copy()))
        return orig(self, x, y)

    monkeypatch.setattr(a3t._ThresholdHedgePool if learner == "hedge" else a3t._ThresholdSOAPool, "update", spy)
    T, B = 1000, 64
    X, y = _data(T)
    A = ThresholdsAlgorithm3(H60, T, 1.0, batch=B, learner=learner, backend="seeded", seed=1)
    A.run(X[:500], y[:500])
    for x_, y_ in zip(X[500:], y[500:]):  # the river path continues the same batches
        A.predict_one(int(x_))
        A.learn_one(int(x_), int(y_))
    assert len(seen) == T // B and all(x.shape == (B,) and yy.shape == (B,) for x, yy in seen)
    assert A.subsequence_sizes_.tolist() == [T // B] * B
    if learner == "hedge":
        assert A._pool.X.shape == (B, T // B)  # row i = subsequence i: one point from each batch


def test_claim_is_the_sanitizers_and_data_free():
    A = ThresholdsAlgorithm3(H60, 10_000, 0.5, backend="seeded", seed=0)
    before = A.privacy()
    assert before.pair == pytest.approx((0.5, 0.0)) and len(before.parts) == A.split.n_batches
    assert all(len(run.parts) == 61 for run in before.parts)  # each batch's run: the tree's 61 levels
    X, y = _data(10_000)
    A.run(X, y)
    assert A.privacy() == before


def test_same_seed_same_stream_and_different_seed_differs():
    T = 4000
    X, y = _data(T)
    runs = [ThresholdsAlgorithm3(H60, T, 5.0, batch=200, backend="seeded", seed=s).run(X, y) for s in (7, 7, 8)]
    assert np.array_equal(runs[0], runs[1]) and not np.array_equal(runs[0], runs[2])


def test_run_equals_river_rounds():
    T = 600
    X, y = _data(T)
    A = ThresholdsAlgorithm3(H60, T, 5.0, batch=50, backend="seeded", seed=3, diagnostics=True)
    B = ThresholdsAlgorithm3(H60, T, 5.0, batch=50, backend="seeded", seed=3, diagnostics=True)
    p = A.run(X, y)
    q = []
    for x_, y_ in zip(X, y):
        q.append(B.predict_one(int(x_)))
        assert isinstance(B.hypothesis_, type(H60.hypothesis(0)))  # a threshold: proper
        B.learn_one(int(x_), int(y_))
    assert np.array_equal(p, q) and A.mistakes == B.mistakes


def test_regret_within_theorem41_bound_on_noisy_thresholds():
    """ε = 1000 keeps Thm 4.1's bound below T at T = 10⁵ (at ε = 1 it is vacuous until T ≫ 10⁶)."""
    T, eps = 100_000, 1000.0
    X, y = _data(T, eta=0.1)
    bound = algorithm3_thresholds_bound(T, algorithm3_thresholds_batch(T, N60, eps), N60, eps)
    assert bound < 0.5 * T
    regrets = []
    for seed in range(3):
        A = ThresholdsAlgorithm3(H60, T, eps, backend="seeded", seed=seed, diagnostics=True)
        assert A.regret_bound() == pytest.approx(bound)
        A.run(X, y)
        regrets.append(A.mistakes - _best(X, y))
    assert np.mean(regrets) <= bound
    assert np.mean(regrets) < 0.1 * T  # far from guessing (regret ≈ 0.4T)


def test_learning_happens_at_epsilon_one():
    T = 200_000
    X, y = _data(T, eta=0.05)
    A = ThresholdsAlgorithm3(H60, T, 1.0, backend="seeded", seed=0, diagnostics=True)
    assert 2 <= A.batch < T
    A.run(X, y)
    assert A.mistakes - _best(X, y) < 0.35 * T


def test_soa_outputs_checked_proper(monkeypatch):
    pool = a3t._ThresholdSOAPool(4, Thresholds(100))
    assert pool.t.tolist() == [H := Thresholds(100).version_space().soa().t] * 4 and 0 <= H <= 100
    pool.lo[2], pool.hi[2] = 50, 40  # a learner whose output cannot lie in its version space
    with pytest.raises(LittlestoneError, match="not proper.*learner 2"):
        pool._soa()
    monkeypatch.setattr(a3t, "_bit_length", lambda v: np.where(v > 10**9, 0, 64))  # a wrong SOA rule
    with pytest.raises(LittlestoneError, match="class's SOA"):
        a3t._ThresholdSOAPool(4, Thresholds(100))


def test_bad_input():
    with pytest.raises(LittlestoneError, match="in advance"):
        ThresholdsAlgorithm3(H60, None, 1.0)
    with pytest.raises(LittlestoneError, match="too small"):
        ThresholdsAlgorithm3(H60, 100, 1.0, batch=1)
    with pytest.raises(LittlestoneError, match="exceeds"):
        ThresholdsAlgorithm3(H60, 100, 1.0, batch=101)
    with pytest.raises(Exception, match="epsilon"):
        ThresholdsAlgorithm3(H60, 100, -1.0)
    with pytest.raises(Exception, match="epsilon"):
        ThresholdsAlgorithm3(H60, 100, float("inf"))
    with pytest.raises(LittlestoneError, match="proper learners"):
        ThresholdsAlgorithm3(H60, 100, 1.0, learner="halving")
    with pytest.raises(LittlestoneError, match="Thresholds"):
        ThresholdsAlgorithm3(random_class(4, 3, seed=0), 100, 1.0)
    with pytest.raises(LittlestoneError, match="2\\^62"):
        ThresholdsAlgorithm3(Thresholds(2**70), 100, 1.0)
    with pytest.raises(LittlestoneError, match="batch"):
        ThresholdsAlgorithm3(H60, 100, 1.0, batch="auto")
    A = ThresholdsAlgorithm3(H60, 10, 1.0, batch=5, backend="seeded", seed=0)
    with pytest.raises(LittlestoneError, match="horizon"):
        A.run(np.zeros(11, dtype=np.int64), np.zeros(11, dtype=np.int8))
    with pytest.raises(Exception, match="outside"):
        A.run(np.array([N60]), np.array([1]))
    with pytest.raises(LittlestoneError, match="regret bound"):
        ThresholdsAlgorithm3(H60, 100, 1.0, learner="soa").regret_bound()


def test_cor43_batch_is_clamped_to_T_on_2_60():
    A = ThresholdsAlgorithm3(H60, 10_000, 1.0, batch="cor4.3", backend="seeded", seed=0)
    assert A.batch == 10_000  # (T d⁵ √d*/ε)^{1/2} with d = d* = 60 exceeds T: one batch
