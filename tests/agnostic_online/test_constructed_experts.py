"""Constructed experts (LWY25 Algs 6–7, Thm E.10): for every h some expert of J reproduces the SOA run the proof of
Thm E.10 constructs (brute force); |J| formula; properness check; the Thm E.10 learner end to end."""

from __future__ import annotations


import numpy as np
import pytest

from littlestone.agnostic_online.constructed_experts import ConstructedExpertsLearner, SOAMajorityLearner, \
    expert_predictions
from littlestone.bounds.lwy25_agnostic import number_of_experts_upto
from littlestone.classes import Thresholds, random_class
from littlestone.errors import LittlestoneError


def proof_run(learner, X, h, theta):
    """Thm E.10's construction with exact windows: stage k follows f_k = A(S_k) until it has disagreed with h on θ
    rounds (round i_k), then feeds the first window point x′_j where f_k ≠ h, labelled by h (a forced mistake)."""
    T = len(X)
    hx = np.array([h(x) for x in X])
    state, start, preds, flips = learner.initial, 1, [], 0
    while True:
        f = learner.hypothesis(state)
        fx = np.array([f(x) for x in X])
        dis = np.flatnonzero(fx[start - 1:] != hx[start - 1:])
        if len(dis) < theta:
            preds.extend(fx[start - 1:])
            return np.array(preds), flips
        i = start + int(dis[theta - 1])
        j = start + int(np.flatnonzero(fx[start - 1:i] != hx[start - 1:i])[0])
        preds.extend(fx[start - 1:i])
        state = learner.learn(state, X[j - 1], int(hx[j - 1]))
        assert state is not None  # h's labels are realizable
        flips += 1
        start = i + 1


@pytest.mark.parametrize("n,T,seed", [(4, 7, 0), (5, 8, 1), (6, 6, 2)])
@pytest.mark.parametrize("theta", [1, 2])
def test_some_expert_reproduces_the_proofs_soa_run_for_every_h(n, T, seed, theta):
    H = Thresholds(n)
    X = list(np.random.default_rng(seed).integers(0, n, T).tolist())
    A = SOAMajorityLearner(H)
    P, tuples = expert_predictions(A, X, lambda l, r: X[l - 1:r])
    M = A.mistake_bound
    for h in H.version_space().hypotheses():
        row, flips = proof_run(A, X, h, theta)
        assert flips <= M  # Lemma E.9's mistake bound stops the construction
        assert any(np.array_equal(row, p) for p in P)
        hx = np.array([h(x) for x in X])
        assert int((row != hx).sum()) <= theta * M + theta - 1  # Thm E.10's count with ⌈C ln T Δ⌉ = θ
    assert len(P) <= number_of_experts_upto(T, M)  # pruning only removes experts


def test_unpruned_count_matches_j_on_a_class_that_never_prunes():
    # on the class of all functions every forced label is realizable: nothing is pruned, |J_{≤M}| exactly
    from littlestone.classes import AllFunctions
    H = AllFunctions(3)
    X = [0, 1, 2, 0, 1]
    A = SOAMajorityLearner(H)
    P, tuples = expert_predictions(A, X, lambda l, r: X[l - 1:r], max_flips=1)
    assert len(P) == number_of_experts_upto(len(X), 1)
    assert all(j <= i for t in tuples for i, j in t)


def test_non_proper_soa_is_refused():
    with pytest.raises(LittlestoneError, match="not proper"):
        SOAMajorityLearner(random_class(8, 6, seed=2))


def test_theorem_e10_learner_end_to_end():
    H = Thresholds(4)
    rng = np.random.default_rng(0)
    T = 16
    X = rng.integers(0, 4, T)
    y = (X >= 2).astype(int)
    for san in ("mwem", "realizable"):
        L = ConstructedExpertsLearner(H, T, 1.0, 1e-6, sanitizer=san, backend="seeded", seed=1)
        res = L.run(X, y)
        assert res.rounds == T and L.n_experts_ >= 1
        assert L.privacy()[:2] == (2.0, 2e-6)
    a = ConstructedExpertsLearner(H, T, 1.0, 1e-6, backend="seeded", seed=3).run(X, y).choices
    b = ConstructedExpertsLearner(H, T, 1.0, 1e-6, backend="seeded", seed=3).run(X, y).choices
    assert np.array_equal(a, b)
    with pytest.raises(LittlestoneError):
        ConstructedExpertsLearner(H, T, 1.0, 0.0)
    with pytest.raises(LittlestoneError):
        ConstructedExpertsLearner(H, None, 1.0, 1e-6)
    with pytest.raises(LittlestoneError):
        ConstructedExpertsLearner(H, T, 1.0, 1e-6).run(X[:5], y[:5])
