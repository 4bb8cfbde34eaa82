"""Agnostic proper learner (GGKM21 Cor. 6.5 via LWY25 Algorithm 4): privacy accounting of the parts (resampling,
Claim D.5), the claim never exceeds the target, a too-small n names the size needed, output proper and near-optimal
on noisy data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

from littlestone.classes import Thresholds
from littlestone.classes.ops import to_finite
from littlestone.errors import InsufficientSampleError
from littlestone.pac import AgnosticPolyPriPropLearnClassifier
from littlestone.pac.agnostic_proper import agnostic_plan, algorithm4_privacy, eps0_for, resampling_privacy

H = to_finite(Thresholds(6))
SIZES = dict(n_inner=30, m=100, K=3, n_generic=200)


def test_eps0_solves_claim_d5():
    for eps in (0.3, 1.0, 2.0):
        e0 = eps0_for(eps)
        assert algorithm4_privacy(e0, 0.0, 1, 1)[0] == pytest.approx(eps, abs=1e-9)
    assert eps0_for(50.0) == 0.1  # capped where Claim D.5's proof stops


def test_resampling_privacy_matches_binomial_moments():
    n_draws, m, ea, da = 40, 300, 1.0, 1e-4
    k = np.arange(n_draws + 1)
    pk = binom.pmf(k, n_draws, 1 / m)
    up, down = (pk * np.exp(ea * k)).sum(), (pk * np.exp(-ea * k)).sum()
    eps_p, delta_p = resampling_privacy(ea, da, n_draws, m)
    assert eps_p == pytest.approx(math.log(up / down))
    e_delta = (pk * da * np.expm1(ea * k) / math.expm1(ea)).sum()  # group privacy δ_k = δ(e^{kε}−1)/(e^ε−1)
    assert delta_p == pytest.approx((1 + math.exp(eps_p)) * e_delta)


def test_plan_claim_never_exceeds_target():
    for eps, dlt in ((1.0, 1e-6), (0.5, 1e-3), (3.0, 1e-5)):
        p = agnostic_plan(2, 1, eps, dlt, 0.3, 0.05, n_hypotheses=7, inner_candidates=7)
        assert p.claim[0] <= eps + 1e-12 and p.claim[1] <= dlt * (1 + 1e-9)
        assert p.inner_privacy[0] <= 1.0 and 1 / p.n <= p.eps0 <= 0.1
        assert p.m == math.ceil(p.eps0 * p.n) and p.theory


def test_learner_is_proper_and_near_optimal_on_noisy_data():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, size=3_000_000)
    y = (X >= 3).astype(int)
    y[rng.random(len(y)) < 0.1] ^= 1
    est = AgnosticPolyPriPropLearnClassifier(
        H, epsilon=1.0, delta=1e-3, alpha=0.5, n=3_000_000, backend="seeded", random_state=0, **SIZES
    ).fit(X.reshape(-1, 1), y)
    assert H.version_space().contains(est.hypothesis_)
    assert est.score(X.reshape(-1, 1), y) >= 0.9 - 0.02
    eps, dlt, rel = est.privacy()
    assert (est.result_.epsilon, est.result_.delta) == (eps, dlt) and eps <= 1.0 and dlt <= 1e-3
    assert "LWY25 Alg. 4" in est.result_.summary()


def test_too_small_n_names_the_size_needed():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 6, size=2_000_000)
    with pytest.raises(InsufficientSampleError, match=r"Use n ≥ [\d,]+"):
        AgnosticPolyPriPropLearnClassifier(H, epsilon=1.0, delta=1e-3, n=2_000_000, backend="seeded", **SIZES).fit(
            X.reshape(-1, 1), X >= 3
        )
    with pytest.raises(InsufficientSampleError, match="needs"):
        AgnosticPolyPriPropLearnClassifier(H).fit(X[:1000].reshape(-1, 1), X[:1000] >= 3)
