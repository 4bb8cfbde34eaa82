"""Calibration of every private learner of pac/ (issue 19 item 5): the noise each run draws is recomputed from the
claim it reports — (ε, δ), the mechanism's sensitivity and the learner's budget split — so that halving a noise
scale, dropping a noise draw or adding one turns this file red. The backend records every noise call."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from littlestone.classes import Thresholds
from littlestone.classes.ops import to_finite
from littlestone.pac import (
    AgnosticBLM20Classifier,
    AgnosticPolyPriPropLearnClassifier,
    BLM20Classifier,
    GenericLearnerClassifier,
    PolyPriLearnClassifier,
    PolyPriPropLearnClassifier,
)
from littlestone.privacy import SeededBackend, sparse_selection_bottom_score
from littlestone.privacy.stable_histogram import noise_scale


class Recording(SeededBackend):
    """The seeded backend, recording (method, scale, number of draws, scores, noise) of every noise call made by the
    learner (not the draws a recorded call makes inside the backend)."""

    def __init__(self, seed=0):
        super().__init__(seed)
        self.calls = []
        self._inside = 0

    def _record(self, name, scale, size, scores, noise, call):
        if not self._inside:
            self.calls.append((name, float(scale), size, scores, noise))
        self._inside += 1
        try:
            return call()
        finally:
            self._inside -= 1

    def noisy_argmax(self, scores, scale, noise="gumbel"):
        sup = super().noisy_argmax
        return self._record(
            "noisy_argmax", scale, len(scores), list(map(float, scores)), noise, lambda: sup(scores, scale, noise)
        )

    def add_laplace(self, values, scale):
        sup = super().add_laplace
        return self._record("add_laplace", scale, np.size(values), None, "laplace", lambda: sup(values, scale))

    def add_discrete_laplace(self, values, scale):
        sup = super().add_discrete_laplace
        return self._record(
            "add_discrete_laplace", scale, np.size(values), None, "discrete", lambda: sup(values, scale)
        )

    def laplace(self, scale, size=None):
        sup = super().laplace
        return self._record("laplace", scale, size, None, "laplace", lambda: sup(scale, size))

    def discrete_laplace(self, scale, size=None):
        sup = super().discrete_laplace
        return self._record("discrete_laplace", scale, size, None, "discrete", lambda: sup(scale, size))

    def gumbel(self, scale, size=None):
        sup = super().gumbel
        return self._record("gumbel", scale, size, None, "gumbel", lambda: sup(scale, size))


def _fit(est, X, y):
    b = Recording(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.set_params(backend=b).fit(X, y)
    return est, b.calls


_rng = np.random.default_rng(0)
X6 = _rng.integers(0, 6, size=400).reshape(-1, 1)
Y6 = (X6[:, 0] >= 3).astype(int)


def test_generic_learner_one_exponential_mechanism_at_its_epsilon():
    est, calls = _fit(GenericLearnerClassifier("thresholds:6", epsilon=0.7), X6[:50], Y6[:50])
    eps, _ = est.result_.spent
    assert [(c[0], c[4]) for c in calls] == [("noisy_argmax", "gumbel")]
    assert calls[0][1] == pytest.approx(2.0 * 1.0 / eps)  # Gumbel(2Δ/ε), Δ = 1 (one example changes a count by 1)
    assert eps == 0.7


def test_blm20_histogram_and_selection_each_at_half_the_claim():
    est, calls = _fit(
        BLM20Classifier("thresholds:6", epsilon=4.0, delta=1e-3, n_batches=150, aux_size=1, cap=1, n_generic=40),
        X6,
        Y6,
    )
    eps, dlt = est.result_.spent
    hist = [c for c in calls if c[0].startswith("add_")]
    select = [c for c in calls if c[0] == "noisy_argmax"]
    assert len(hist) == 1 and len(select) == 1 and len(calls) == 2  # one histogram, one selection, nothing else
    assert hist[0][1] == pytest.approx(2.0 / (eps / 2.0))  # stable histogram Lap(2/ε_h), ε_h = ε/2 (BLM20 Thm 17)
    assert select[0][1] == pytest.approx(2.0 / (eps / 2.0))  # exponential mechanism at ε/2, Δ = 1
    assert dlt <= 1e-3 and eps == 4.0  # δ: the exact δ of the histogram's noise (≤ the request)


def _polyprilearn_checks(selection, eps, dlt, s):
    name, scale, n_scores, scores, noise = selection
    assert (name, noise) == ("noisy_argmax", "gumbel")
    assert scale == pytest.approx(2.0 / eps)  # exp(ε_s·c(u)) with ε_s = ε/2: Gumbel(1/ε_s)
    assert scores[-1] == pytest.approx(sparse_selection_bottom_score(eps, dlt, s))  # ⊥'s score from (ε, δ, s)


def test_polyprilearn_sparse_selection_from_its_claim():
    est, calls = _fit(PolyPriLearnClassifier("thresholds:6", epsilon=2.0, delta=1e-3, n=20, m=20, K=1), X6, Y6)
    eps, dlt = est.result_.spent
    assert len(calls) == 1
    _polyprilearn_checks(calls[0], eps, dlt, est.result_.plan.s)
    # the m users' counts: each dataset adds at most 1 to an element (disjoint datasets, one list each)
    assert max(calls[0][3][:-1]) <= est.result_.plan.m


def test_polypriproplearn_sparse_selection_then_generic_learner_each_at_the_claim():
    est, calls = _fit(
        PolyPriPropLearnClassifier("thresholds:6", epsilon=20.0, delta=1e-3, n=10, m=30, K=1, n_generic=100), X6, Y6
    )
    eps, dlt = est.result_.spent
    assert not est.result_.bottom and len(calls) == 2
    _polyprilearn_checks(calls[0], eps, dlt, est.result_.plan.inner.s)
    assert calls[1][0] == "noisy_argmax" and calls[1][1] == pytest.approx(2.0 * 1.0 / eps)  # EM at ε, Δ = 1
    assert min(calls[1][3]) >= -100  # scores = −mistakes on the n′ = 100 fresh examples only


def test_agnostic_blm20_selection_at_eps_label_and_inner_m_from_its_split():
    est, calls = _fit(
        AgnosticBLM20Classifier(
            "thresholds:6",
            epsilon=4.0,
            delta=1e-3,
            subsample_size=200,
            inner_sizes=dict(n_batches=20, aux_size=1, cap=1, n_generic=20),
        ),
        X6,
        Y6,
    )
    r = est.result_
    from littlestone.bounds.agnostic import EPS_INNER, EPS_LABEL

    assert calls[0][0] == "noisy_argmax" and calls[0][1] == pytest.approx(2.0 / EPS_LABEL)
    inner_hist = [c for c in calls[1:] if c[0].startswith("add_")]
    assert len(inner_hist) == 1 and inner_hist[0][1] == pytest.approx(noise_scale(EPS_INNER / 2.0))
    assert all(c[1] == pytest.approx(2.0 / (EPS_INNER / 2.0)) for c in calls[1:] if c[0] == "noisy_argmax")
    # amplification: the claim is ln(1 + q(e^{E0} − 1)), q = 200/400, E0 = ln 4 + ε_ℓ + ε_M
    E0 = math.log(4.0) + EPS_LABEL + EPS_INNER
    assert r.spent[0] == pytest.approx(math.log1p(0.5 * math.expm1(E0)))


def test_agnostic_polypriproplearn_selection_with_sensitivity_one_over_n():
    H = to_finite(Thresholds(6))
    est, calls = _fit(
        AgnosticPolyPriPropLearnClassifier(H, epsilon=3.0, delta=1e-3, n=400, n_inner=1, m=1, K=1, n_generic=1),
        X6,
        Y6,
    )
    p = est.result_.plan
    # step 4: exp(ε₀·q/(2Δ)), Δ = 1/n: Gumbel(2/(n·ε₀)); ε₀ solves Claim D.5 for the claimed ε
    assert calls[0][0] == "noisy_argmax" and calls[0][1] == pytest.approx(2.0 * (1.0 / p.n) / p.eps0)
    assert math.log(math.exp(p.eps0) + 24 * math.e**3 * p.eps0) == pytest.approx(est.result_.epsilon)
    # A′: PolyPriPropLearn at (ε_A, δ_A) — its sparse selection and generic learner
    inner = calls[1:]
    assert 1 <= len(inner) <= 2 and inner[0][1] == pytest.approx(2.0 / p.eps_a)
    assert inner[0][3][-1] == pytest.approx(sparse_selection_bottom_score(p.eps_a, p.delta_a, p.inner.inner.s))
