"""The pure-DP generic learner (Kal-LN §3 Thm 1, BLM20 Lemma 16) and its sample-size bounds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone import FiniteClass
from littlestone.bounds.generic import agnostic, realizable, sample_size
from littlestone.classes.thresholds import Threshold
from littlestone.errors import LittlestoneError, PrivacyParameterError
from littlestone.pac import GenericLearnerClassifier
from littlestone.pac.candidates import candidate_list


def test_output_distribution_is_the_exponential_mechanism():
    """Empirical frequencies over many fits match P(h) ∝ exp(−ε·errors(h)/2) (chi-square, 1000 fits)."""
    X = np.array([[0], [1], [2], [3], [4], [5]])
    y = np.array([0, 0, 1, 0, 1, 1])
    eps = 1.0
    cands = candidate_list(None, [Threshold(t) for t in range(7)])
    errors = cands.errors(X[:, 0], y)
    p = np.exp(-eps * (errors - errors.min()) / 2)
    p /= p.sum()
    runs = 1000
    counts = np.zeros(7)
    rng = np.random.default_rng(11)
    for _ in range(runs):
        est = GenericLearnerClassifier(
            candidates=cands.hypotheses, epsilon=eps, backend="seeded", random_state=int(rng.integers(2**31))
        )
        counts[est.fit(X, y).hypothesis_.t] += 1
    chi2 = float(((counts - runs * p) ** 2 / (runs * p)).sum())
    assert chi2 < 22.5  # 6 degrees of freedom, p ≈ 0.001


def test_vectorized_error_counts_match_brute_force():
    rng = np.random.default_rng(0)
    M = rng.integers(0, 2, size=(30, 12))
    cls = FiniteClass(M)
    X = rng.integers(0, 12, size=50)
    y = rng.integers(0, 2, size=50)
    fast = candidate_list(cls).errors(X, y)
    slow = [int(np.sum(h.predict(X) != y)) for h in cls.hypotheses()]
    assert fast.tolist() == slow
    from littlestone.classes.thresholds import Thresholds

    H = Thresholds(20)
    x = rng.integers(0, 20, size=40)
    yy = rng.integers(0, 2, size=40)
    assert candidate_list(H).errors(x, yy).tolist() == [int(np.sum((x >= t) != yy)) for t in range(21)]


def test_budget_reported_and_parameters_validated():
    X = np.arange(20).reshape(-1, 1)
    y = (X[:, 0] >= 8).astype(int)
    est = GenericLearnerClassifier("thresholds:20", epsilon=0.5, backend="seeded", random_state=0).fit(X, y)
    assert est.result_.spent == (0.5, 0.0) and est.result_.delta == 0.0
    assert [c.epsilon for c in est.result_.ledger] == [0.5]
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(PrivacyParameterError):
            GenericLearnerClassifier("thresholds:20", epsilon=bad, backend="seeded").fit(X, y)
    with pytest.raises(LittlestoneError, match="mode"):
        GenericLearnerClassifier("thresholds:20", mode="sometimes", backend="seeded").fit(X, y)
    with pytest.raises(LittlestoneError, match="backend"):
        GenericLearnerClassifier("thresholds:20", backend="fast").fit(X, y)


def test_secure_backend_is_the_default_and_works():
    X = np.arange(30).reshape(-1, 1)
    y = (X[:, 0] >= 10).astype(int)
    est = GenericLearnerClassifier("thresholds:30", epsilon=5.0).fit(X, y)
    assert est.result_.backend != "numpy-seeded"
    assert abs(est.hypothesis_.t - 10) <= 6


def test_accuracy_at_the_theorem_sample_size():
    """Agnostic (Kal-LN Thm 1): with n from the bound, err ≤ OPT + α (checked on the exact distribution)."""
    alpha, beta, eps = 0.2, 0.1, 1.0
    n = agnostic(101, alpha, eps, beta).total
    rng = np.random.default_rng(5)
    x = rng.integers(0, 100, size=n)
    noise = rng.random(n) < 0.1
    y = ((x >= 30).astype(int) ^ noise).astype(int)
    est = GenericLearnerClassifier(
        "thresholds:100", epsilon=eps, mode="agnostic", alpha=alpha, beta=beta, backend="seeded", random_state=1
    ).fit(x.reshape(-1, 1), y)
    t = est.hypothesis_.t
    err = 0.1 + 0.8 * abs(t - 30) / 100  # uniform x, 10% label noise: exact population error of h_t
    assert est.result_.meets_theory and err <= 0.1 + alpha


def test_bound_formulas_written_out():
    r = realizable(1000, 0.1, 1.0, 0.05)
    assert r.total == math.ceil(36 * math.log(4 * 1000 / 0.05) / 0.1)
    a = agnostic(1000, 0.1, 0.01, 0.05)
    assert a.total == math.ceil(6 * math.log(2 * 1000 / 0.05) / (0.01 * 0.1))  # privacy term binds at small ε
    assert [row[0] for row in a.rows()][-1] == "total"
    with pytest.raises(PrivacyParameterError):
        sample_size(10, 0.1, 0.0, 0.05)
    with pytest.raises(LittlestoneError):
        sample_size(10, 1.5, 1.0, 0.05)
    with pytest.raises(LittlestoneError):
        sample_size(10, 0.1, 1.0, 0.05, mode="other")


@settings(max_examples=40, deadline=None)
@given(H=st.integers(1, 10**9), alpha=st.floats(0.01, 0.5), eps=st.floats(0.05, 10), beta=st.floats(0.001, 0.5))
def test_bounds_are_monotone(H, alpha, eps, beta):
    for f in (realizable, agnostic):
        base = f(H, alpha, eps, beta).total
        assert f(H * 2, alpha, eps, beta).total >= base
        assert f(H, alpha / 2, eps, beta).total >= base
        assert f(H, alpha, eps / 2, beta).total >= base
        assert f(H, alpha, eps, beta / 2).total >= base


def test_sample_size_bound_before_fitting():
    est = GenericLearnerClassifier("thresholds:1000", mode="agnostic", alpha=0.1, beta=0.05, epsilon=1.0)
    assert est.sample_size_bound().total == agnostic(1001, 0.1, 1.0, 0.05).total
    assert (
        GenericLearnerClassifier(mode="realizable").sample_size_bound(50).total == realizable(50, 0.1, 1.0, 0.05).total
    )
    with pytest.raises(LittlestoneError, match="n_candidates"):
        GenericLearnerClassifier().sample_size_bound()


def test_infinite_class_has_no_generic_bound():
    with pytest.raises(LittlestoneError, match="finite class"):
        sample_size(float("inf"), 0.1, 1.0, 0.05)


def _threshold_runs(n, noise, eps, runs, seed, *, t_star=30):
    """Population losses of `runs` independent fits on n fresh examples: uniform x on 0..99, labels 1[x ≥ t*]
    flipped with probability `noise` (so loss(h_t) = noise + (1 − 2·noise)·|t − t*|/100 exactly)."""
    rng = np.random.default_rng(seed)
    losses = []
    for _ in range(runs):
        x = rng.integers(0, 100, size=n)
        y = ((x >= t_star) ^ (rng.random(n) < noise)).astype(int)
        est = GenericLearnerClassifier(
            "thresholds:100", epsilon=eps, backend="seeded", random_state=int(rng.integers(2**31))
        ).fit(x.reshape(-1, 1), y)
        losses.append(noise + (1 - 2 * noise) * abs(est.hypothesis_.t - t_star) / 100)
    return np.array(losses)


def test_lemma16_realizable_guarantee_holds_at_its_sample_size():
    """Seed 000 Lemma 16: if some h* has loss ≤ α, then w.p. ≥ 1 − β the output has loss ≤ 2α. Worst case allowed by
    the lemma: loss(h*) = α exactly (label noise α). 200 independent runs at n from `realizable(101, α, ε, β)`."""
    alpha, eps, beta, runs = 0.1, 1.0, 0.1, 200
    n = realizable(101, alpha, eps, beta).total
    losses = _threshold_runs(n, alpha, eps, runs, seed=16)
    assert np.mean(losses > 2 * alpha) <= beta
    # the criterion is not vacuous: with 1/40 of the examples and a small ε the learner does fail often
    small = _threshold_runs(n // 40, alpha, 0.05, 60, seed=17)
    assert np.mean(small > 2 * alpha) > 0.3


def test_theorem1_agnostic_guarantee_holds_at_its_sample_size():
    """Seed 003 §3 Theorem 1: w.p. ≥ 1 − β, err(output) ≤ OPT + α, on data no threshold fits (OPT = 0.25)."""
    alpha, eps, beta, runs, noise = 0.1, 1.0, 0.1, 150, 0.25
    n = agnostic(101, alpha, eps, beta).total
    losses = _threshold_runs(n, noise, eps, runs, seed=18)
    assert np.mean(losses > noise + alpha) <= beta
    small = _threshold_runs(max(n // 100, 10), noise, 0.05, 60, seed=19)
    assert np.mean(small > noise + alpha) > 0.3


def test_cli_bounds_and_estimator_agree_on_the_theorem_size():
    """`littlestone bounds generic` prints the n the estimator reports as `result_.theory_n` (both modes)."""
    from typer.testing import CliRunner

    from littlestone.cli import app

    X = np.arange(50).reshape(-1, 1)
    y = (X[:, 0] >= 20).astype(int)
    for mode in ("realizable", "agnostic"):
        est = GenericLearnerClassifier(
            "thresholds:100", epsilon=0.5, alpha=0.05, beta=0.01, mode=mode, backend="seeded", random_state=0
        ).fit(X, y)
        r = CliRunner().invoke(
            app,
            [
                "bounds",
                "generic",
                "--class",
                "thresholds:100",
                "--alpha",
                "0.05",
                "--epsilon",
                "0.5",
                "--beta",
                "0.01",
                "--mode",
                mode,
            ],
        )
        assert r.exit_code == 0, r.output
        assert f"total sample size: {est.result_.theory_n:,}" in r.output
        assert est.sample_size_bound().total == est.result_.theory_n
