"""A private learner's result reports the (ε, δ) it was asked for and the sizes and claim recomputed from them
(kills survivors of the privacy mutation run, tools/mutate.py: a doubled ε/δ or a decremented count in the code
that hands the request on must turn a test red)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from littlestone.bounds.agnostic import EPS_INNER, EPS_LABEL
from littlestone.classes import Thresholds
from littlestone.classes.ops import to_finite
from littlestone.pac import (
    AgnosticBLM20Classifier,
    BLM20Classifier,
    AgnosticPolyPriPropLearnClassifier,
    GenericLearnerClassifier,
    PolyPriPropLearnClassifier,
)
from littlestone.pac.agnostic import inner_epsilon
from littlestone.pac.blm20 import blm20_privacy
from littlestone.pac.sources import ArraySource
from littlestone.privacy.stable_histogram import calibrated_threshold, noise_scale
from littlestone.testing import RecordingBackend

_rng = np.random.default_rng(0)
X6 = _rng.integers(0, 6, size=400).reshape(-1, 1)
Y6 = (X6[:, 0] >= 3).astype(int)


def _fit(est, X, y, backend=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.set_params(backend=backend or RecordingBackend(0)).fit(X, y)


def _claim_pair(est):
    c = est.privacy()
    return (c[0], c[1]) if isinstance(c, tuple) else (c.epsilon, c.delta)


def test_agnostic_blm20_result_reports_the_request_and_the_amplified_inner_run():
    eps, dlt, n0 = 4.0, 1e-3, 200
    est = AgnosticBLM20Classifier(
        "thresholds:6",
        epsilon=eps,
        delta=dlt,
        subsample_size=n0,
        inner_sizes=dict(n_batches=20, aux_size=1, cap=1, n_generic=20),
        random_state=0,
    )
    assert est.get_params()["epsilon"] == eps and est.get_params()["delta"] == dlt
    r = _fit(est, X6, Y6).result_
    assert (r.epsilon, r.delta) == (eps, dlt)
    assert r.n_given == len(X6) and r.n_subsample == n0 and r.q == pytest.approx(n0 / len(X6))
    E0 = math.log(4.0) + EPS_LABEL + EPS_INNER
    assert r.inner_epsilon == pytest.approx(E0) == inner_epsilon(EPS_LABEL, EPS_INNER)
    # M runs at (ε_M, δ/q) (capped below 1): amplification by the secret subsample at rate q gives back δ
    q = n0 / len(X6)
    assert r.inner.delta == pytest.approx(min(dlt / q, 0.999999))
    assert r.inner_delta_spent == r.inner.spent[1] <= r.inner.delta
    assert r.spent[0] == pytest.approx(math.log1p(q * math.expm1(E0))) and r.spent[0] <= eps
    assert r.spent[1] <= dlt
    assert r.claim.pair == pytest.approx(r.spent)  # the estimator has no privacy(): its claim is the result's


def test_blm20_result_reports_the_request_and_the_histogram_calibrated_from_it():
    eps, dlt = 4.0, 1e-3
    b = RecordingBackend(0)
    est = BLM20Classifier("thresholds:6", epsilon=eps, delta=dlt, n_batches=150, aux_size=1, cap=1, n_generic=40)
    assert est.get_params()["epsilon"] == eps and est.get_params()["delta"] == dlt
    r = _fit(est, X6, Y6, b).result_
    assert (r.epsilon, r.delta) == (eps, dlt)
    # the stable histogram at (ε/2, δ) (BLM20 Thm 17): its noise Lap(2/(ε/2)) and its exact δ from the requested δ
    discrete = b.floating_point_safe
    _tau, spent_delta = calibrated_threshold(eps / 2.0, dlt, discrete=discrete)
    assert r.spent[1] == pytest.approx(spent_delta) and r.spent[1] <= dlt
    assert r.spent == pytest.approx(blm20_privacy(eps, dlt, discrete=discrete).pair)
    assert b.scales("laplace") and all(s == pytest.approx(noise_scale(eps / 2.0)) for s in b.scales("laplace"))
    assert r.claim.pair == pytest.approx(r.spent)  # the estimator has no privacy(): its claim is the result's


def test_generic_learner_result_reports_its_pure_epsilon():
    r = _fit(GenericLearnerClassifier("thresholds:6", epsilon=0.7), X6[:50], Y6[:50]).result_
    assert r.epsilon == 0.7 and r.delta == 0.0 and r.spent == (0.7, 0.0)


class _Planned(Exception):
    """Raised by a spy once it has seen the plan's arguments (the theory sizes are far too large to run)."""


def _spy(monkeypatch, module, name):
    seen = {}

    def spy(*args, **kwargs):
        seen.update(kwargs, args=args)
        raise _Planned

    monkeypatch.setattr(f"{module}.{name}", spy)
    return seen


def test_agnostic_proper_plans_with_the_class_s_exact_number_of_hypotheses(monkeypatch):
    """|R| ≤ min(|H|, (em/v)^v) in the theory size of n (agnostic_plan): both the learner and the estimator's
    privacy() plan with |H| itself. (At these parameters n is set by |I|, so the spy is the only witness.)"""
    from littlestone.pac.agnostic_proper import agnostic_learn

    H = to_finite(Thresholds(6))
    assert H.n_hypotheses == 7
    seen = _spy(monkeypatch, "littlestone.pac.agnostic_proper", "agnostic_plan")
    with pytest.raises(_Planned):
        agnostic_learn(H, ArraySource(X6, Y6), epsilon=3.0, delta=1e-3, backend="seeded", seed=0)
    assert seen["n_hypotheses"] == 7 and seen["args"][2:4] == (3.0, 1e-3)
    seen.clear()
    with pytest.raises(_Planned):
        AgnosticPolyPriPropLearnClassifier(H, epsilon=3.0, delta=1e-3).privacy()
    assert seen["n_hypotheses"] == 7 and seen["args"][2:4] == (3.0, 1e-3)


def test_polypriproplearn_privacy_plans_with_the_given_generic_size(monkeypatch):
    seen = _spy(monkeypatch, "littlestone.pac.proper", "polypriproplearn_plan")
    est = PolyPriPropLearnClassifier("thresholds:6", epsilon=2.0, delta=1e-3, n=20, m=20, K=1, n_generic=100)
    with pytest.raises(_Planned):
        est.privacy()
    assert seen["n_generic"] == 100 and seen["args"][2:4] == (2.0, 1e-3)
