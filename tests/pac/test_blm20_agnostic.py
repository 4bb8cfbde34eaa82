"""Agnostic learner (BLM20 Corollary 2, reconstructed transformation): labelings, budget, accuracy under noise."""

from __future__ import annotations


import numpy as np
import pytest

from littlestone import FiniteClass, Thresholds
from littlestone.errors import InsufficientSampleError, PrivacyParameterError
from littlestone.pac.agnostic import AgnosticBLM20Classifier, agnostic_learn, inner_epsilon, realizable_labelings

INNER = dict(n_batches=400, aux_size=20, cap=0, n_generic=3000, eta=0.05)


def _brute_labelings(hyps, points):
    return sorted({tuple(int(h(p)) for p in points) for h in hyps})


@pytest.mark.parametrize("points", [[3], [0, 5, 9], [1, 2, 3, 4, 15]])
def test_labelings_match_brute_force(points):
    H = Thresholds(16)
    got = sorted(map(tuple, realizable_labelings(H.version_space(), points).tolist()))
    assert got == _brute_labelings(list(H.version_space().hypotheses()), points)
    M = np.random.default_rng(len(points)).integers(0, 2, size=(12, 16)).astype(np.uint8)
    F = FiniteClass(M)
    got = sorted(map(tuple, realizable_labelings(F.version_space(), points).tolist()))
    assert got == _brute_labelings(F.hypotheses(), points)


def test_learns_noisy_thresholds_within_budget():
    H = Thresholds(20)
    rng = np.random.default_rng(0)
    X = rng.integers(0, 20, size=200_000)
    y = ((X >= 8) ^ (rng.random(X.size) < 0.1)).astype(np.int8)
    res = agnostic_learn(H, X, y, epsilon=1.0, delta=1e-6, subsample_size=12_000, inner_sizes=INNER,
                         backend="seeded", seed=1)
    assert res.spent[0] <= 1.0 and res.spent[1] <= 1e-6
    assert res.spent[0] == pytest.approx(np.log1p(res.q * np.expm1(inner_epsilon(1.0, 1.0))))
    Xt = np.arange(20)
    assert np.mean(res.chosen.predict(Xt) != (Xt >= 8)) <= 0.1 + 1e-9   # excess loss ≤ α on uniform points


def test_refuses_a_subsample_that_would_overspend():
    X = np.zeros(1000, dtype=np.int64)
    with pytest.raises(PrivacyParameterError, match="at most 60 examples"):
        agnostic_learn(Thresholds(3), X, np.zeros(1000), epsilon=1.0, delta=1e-6, subsample_size=500)
    with pytest.raises(InsufficientSampleError, match="needs .* examples"):
        AgnosticBLM20Classifier(Thresholds(3), random_state=0).fit(X.reshape(-1, 1), np.zeros(1000, dtype=int))
