"""AboveThreshold / SparseVector (LWY25 Thm 2.5, DR14 §3.6) and the binary mechanism + Fact E.6 intervals."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from littlestone.errors import BudgetExceededError, DomainError, PrivacyParameterError
from littlestone.privacy import (
    AboveThreshold,
    BinaryMechanism,
    PrivacyBudget,
    SecureBackend,
    SeededBackend,
    SparseVector,
    above_threshold_accuracy,
    dyadic_decomposition,
    dyadic_intervals,
    tree_levels,
)


def test_above_threshold_halts_restarts_and_charges():
    budget = PrivacyBudget(2.0)
    at = AboveThreshold(5.0, 1.0, backend=SeededBackend(0), budget=budget)
    assert budget.spent == (1.0, 0.0)
    while not at.test(1000.0):
        pass
    with pytest.raises(BudgetExceededError, match="restart"):
        at.test(0.0)
    at.restart()
    assert at.spent == (2.0, 0.0) and budget.spent == (2.0, 0.0)
    assert at.test(-1000.0) is False
    with pytest.raises(BudgetExceededError):
        at.restart()
    with pytest.raises(PrivacyParameterError, match="epsilon"):
        AboveThreshold(1.0, 0.0, backend=SeededBackend(0))
    with pytest.raises(PrivacyParameterError, match="NaN"):
        AboveThreshold(1.0, 1.0, backend=SeededBackend(0)).test(float("nan"))


def test_above_threshold_threshold_noise_drawn_once():
    # the noisy threshold is fixed within a run; only restart redraws it
    at = AboveThreshold(0.0, 1.0, backend=SeededBackend(3))
    t0 = at._noisy_threshold
    for _ in range(100):
        at.test(-1e9)
    assert at._noisy_threshold == t0
    at.test(1e9)
    at.restart()
    assert at._noisy_threshold != t0


@pytest.mark.parametrize("make", [lambda: SeededBackend(2), SecureBackend])
def test_above_threshold_accuracy_theorem(make):
    # Dwork–Roth Thm 3.24: over k queries, ⊤ ⇒ f ≥ T − α and ⊥ ⇒ f ≤ T + α w.p. ≥ 1 − β
    be = make()
    eps, beta, k, threshold = 1.0, 0.1, 50, 40.0
    alpha = above_threshold_accuracy(k, eps, beta)
    values = np.linspace(0, 120, k)
    bad = 0
    runs = 150
    for _ in range(runs):
        at = AboveThreshold(threshold, eps, backend=be)
        for v in values:
            above = at.test(v)
            if (above and v < threshold - alpha) or (not above and v > threshold + alpha):
                bad += 1
                break
            if above:
                break
    assert bad / runs <= beta


def test_above_threshold_sensitivity_scales_noise():
    # with sensitivity Δ the query noise is Lap(4Δ/ε): the ⊤ position spreads proportionally
    def stop_positions(sens):
        out = []
        be = SeededBackend(10)
        for _ in range(300):
            at = AboveThreshold(0.0, 1.0, sensitivity=sens, backend=be)
            out.append(next(i for i in range(10_000) if at.test(-50.0 * sens + i * sens)))
        return np.array(out)

    a, b = stop_positions(1.0), stop_positions(5.0)
    assert stats.ks_2samp(a, b).pvalue > 1e-4  # in units of Δ the behaviour is identical


def test_sparse_vector_c_positives():
    budget = PrivacyBudget(1.0)
    sv = SparseVector(0.0, 1.0, 3, backend=SeededBackend(1), budget=budget)
    assert budget.spent == (1.0, 0.0)
    answers = [sv.test(1e6) for _ in range(3)]
    assert answers == [True, True, True] and sv.halted
    with pytest.raises(BudgetExceededError):
        sv.test(0.0)


# ----------------------------------------------------------------------------------------- Fact E.6 + binary mechanism


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=300), st.data())
def test_fact_e6_interval_family(T, data):
    family = dyadic_intervals(T)
    fam = set(family)
    assert len(family) <= 2 * T
    levels = tree_levels(T)
    assert levels <= math.log2(T) + 1
    cover = np.zeros(T + 2, dtype=int)
    for left, right in family:
        assert 1 <= left <= right <= T
        cover[left : right + 1] += 1
    assert cover.max() <= levels
    left = data.draw(st.integers(min_value=1, max_value=T))
    right = data.draw(st.integers(min_value=left, max_value=T))
    parts = dyadic_decomposition(left, right)
    assert parts[0][0] == left and parts[-1][1] == right
    assert all(p[1] + 1 == q[0] for p, q in zip(parts, parts[1:]))
    assert all(p in fam for p in parts)
    assert len(parts) <= 2 * levels


def test_binary_mechanism_exact_without_noise_and_bad_input():
    bm = BinaryMechanism(37, 1e9, backend=SeededBackend(0))
    xs = np.random.default_rng(0).random(37)
    sums = [bm.step(x) for x in xs]
    assert np.allclose(sums, np.cumsum(xs), atol=1e-6)
    assert bm.range_sum(5, 20) == pytest.approx(xs[4:20].sum(), abs=1e-6)
    with pytest.raises(DomainError, match="exhausted"):
        bm.step(0.5)
    bm2 = BinaryMechanism(4, 1.0, backend=SeededBackend(0))
    with pytest.raises(DomainError, match="outside"):
        bm2.step(1.5)
    with pytest.raises(DomainError):
        bm2.range_sum(1, 2)
    with pytest.raises(DomainError):
        BinaryMechanism(0, 1.0, backend=SeededBackend(0))


@pytest.mark.parametrize("make", [lambda: SeededBackend(4), SecureBackend])
def test_binary_mechanism_noise_level_and_error_bound(make):
    be = make()
    T, eps, beta = 64, 1.0, 0.1
    errors_t64, worst = [], []
    for _ in range(300):
        bm = BinaryMechanism(T, eps, backend=be)
        errs = [bm.step(1.0) - (t + 1) for t in range(T)]
        errors_t64.append(errs[-1])  # t = 64 is one dyadic node: exactly Lap(L/ε)
        worst.append(max(abs(e) for e in errs))
    b = tree_levels(T) / eps
    assert stats.kstest(errors_t64, stats.laplace(scale=b).cdf).pvalue > 1e-4
    assert np.mean(np.array(worst) > bm.error_bound(beta, queries=T)) <= beta
    assert bm.spent == (eps, 0.0)


@pytest.mark.parametrize("make", [lambda: SeededBackend(6), SecureBackend])
def test_binary_mechanism_discrete_counting(make):
    be = make()
    bm = BinaryMechanism(32, 2.0, backend=be, discrete=True)
    outs = [bm.step(1) for _ in range(32)]
    assert all(isinstance(o, int) for o in outs)
    assert isinstance(bm.range_sum(3, 9), int)
    with pytest.raises(DomainError, match="not an integer"):
        BinaryMechanism(4, 1.0, backend=be, discrete=True).step(0.5)
    with pytest.raises(DomainError, match="integer sensitivity"):
        BinaryMechanism(4, 1.0, sensitivity=0.5, backend=be, discrete=True)
    exact = BinaryMechanism(8, 1e6, backend=be, discrete=True)
    assert [exact.step(1) for _ in range(8)] == list(range(1, 9))


def test_binary_mechanism_prefix_equals_sum_of_decomposition_nodes():
    bm = BinaryMechanism(100, 0.5, backend=SeededBackend(12))
    for x in np.random.default_rng(1).random(100):
        bm.step(x)
    for t in [1, 2, 3, 37, 64, 99, 100]:
        assert bm.prefix_sum(t) == pytest.approx(bm.range_sum(1, t), abs=1e-9)
    assert len(dyadic_decomposition(1, 100)) == bin(100).count("1")


def test_running_sum_above_threshold_seed004_theorem_2_5():
    # b_t ∈ [0,1]; the crossing time is within the accuracy band of the true crossing w.p. ≥ 1-β
    from littlestone.privacy import RunningSumAboveThreshold

    eps, beta, T, tau = 1.0, 0.1, 500, 150.0
    be = SeededBackend(13)
    bs = np.random.default_rng(0).random(T)
    sums = np.cumsum(bs)
    bad = 0
    for _ in range(200):
        rs = RunningSumAboveThreshold(tau, eps, backend=be)
        alpha = rs.accuracy(T, beta)
        for t in range(T):
            if rs.add(bs[t]):
                bad += sums[t] < tau - alpha
                break
        else:
            bad += sums[-1] > tau + alpha
    assert bad / 200 <= beta
    with pytest.raises(DomainError, match="outside"):
        RunningSumAboveThreshold(1.0, 1.0, backend=be).add(1.5)
    rs = RunningSumAboveThreshold(0.0, 1.0, backend=be)
    while not rs.add(1.0):
        pass
    total = rs.total
    with pytest.raises(BudgetExceededError):
        rs.add(1.0)
    assert rs.total == total
    rs.restart()
    assert rs.spent == (2.0, 0.0)
