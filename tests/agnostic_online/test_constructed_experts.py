"""Constructed experts (LWY25 Algs 6–7, Thm E.10), online: for every h some expert of J reproduces the SOA run the
proof of Thm E.10 constructs (brute force); |J| in closed form and the preorder ranking against brute-force
enumeration; the lazy trie against a naive per-expert replay; outputs pinned before the online refactor; predictions
depend only on the past (adaptive points); Thm E.10 + Thm 4.4's regret inequality; properness and bad input."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from littlestone.agnostic_online.baselines import best_in_class
from littlestone.agnostic_online.constructed_experts import (
    ConstructedExpertsLearner,
    ExpertTrie,
    SOAMajorityLearner,
    expert_predictions,
)
from littlestone.bounds.lwy25_agnostic import number_of_experts, number_of_experts_upto
from littlestone.classes import AllFunctions, Thresholds, random_class
from littlestone.errors import LittlestoneError

PINNED = Path(__file__).parent / "data" / "constructed_experts_pinned.npz"


class ExactWindows:
    """A non-private 'sanitizer' returning the data itself (S′ = S: Lemma E.8 with C ln T·Δ = 1), for tests."""

    def __init__(self, e, d, n, i):
        pass

    def privacy(self):
        return (float("inf"), 0.0)  # not private: it releases its data

    def fit(self, X):
        self.X = list(X)
        return self

    def synthetic(self, size):
        return self.X


def proof_run(learner, X, h, theta):
    """Thm E.10's construction with exact windows: stage k follows f_k = A(S_k) until it has disagreed with h on θ
    rounds (round i_k), then feeds the first window point x′_j where f_k ≠ h, labelled by h (a forced mistake).
    Returns the predictions and the pairs ((i_1, j_1), …)."""
    hx = np.array([h(x) for x in X])
    state, start, preds, pairs = learner.initial, 1, [], []
    while True:
        f = learner.hypothesis(state)
        fx = np.array([f(x) for x in X])
        dis = np.flatnonzero(fx[start - 1 :] != hx[start - 1 :])
        if len(dis) < theta:
            preds.extend(fx[start - 1 :])
            return np.array(preds), tuple(pairs)
        i = start + int(dis[theta - 1])
        j = start + int(np.flatnonzero(fx[start - 1 : i] != hx[start - 1 : i])[0])
        preds.extend(fx[start - 1 : i])
        state = learner.learn(state, X[j - 1], int(hx[j - 1]))
        assert state is not None  # h's labels are realizable
        pairs.append((i, j))
        start = i + 1


@pytest.mark.parametrize("n,T,seed", [(4, 7, 0), (5, 8, 1), (6, 6, 2), (4, 12, 3)])
@pytest.mark.parametrize("theta", [1, 2])
def test_some_expert_reproduces_the_proofs_soa_run_for_every_h(n, T, seed, theta):
    H = Thresholds(n)
    X = list(np.random.default_rng(seed).integers(0, n, T).tolist())
    A = SOAMajorityLearner(H)
    P, tuples = expert_predictions(A, X, lambda l, r: X[l - 1 : r])
    trie = ExpertTrie(A, T)
    M = A.mistake_bound
    assert len(P) == number_of_experts_upto(T, M) == trie.n_experts
    for h in H.version_space().hypotheses():
        row, pairs = proof_run(A, X, h, theta)
        assert len(pairs) <= M  # Lemma E.9's mistake bound stops the construction
        assert np.array_equal(P[trie.index(pairs)], row)  # the very expert the proof names, found by ranking
        hx = np.array([h(x) for x in X])
        assert int((row != hx).sum()) <= theta * M + theta - 1  # Thm E.10's count with ⌈C ln T Δ⌉ = θ


def naive_expert(A, X, window, pairs):
    """Algorithm 6 for one expert, literally (forced labels that empty the version space are ignored)."""
    S, out, k = A.initial, [], 0
    for t in range(1, len(X) + 1):
        f = A.hypothesis(S)
        out.append(int(f(X[t - 1])))
        if k < len(pairs) and pairs[k][0] == t:
            i, j = pairs[k]
            left = pairs[k - 1][0] + 1 if k else 1
            xp = window(left, i)[j - left]
            W = A.learn(S, xp, 1 - int(f(xp)))
            S = S if W is None else W
            k += 1
    return np.array(out)


@pytest.mark.parametrize("T,M", [(1, 1), (5, 0), (6, 2), (7, 3), (9, 2)])
def test_closed_form_count_and_preorder_ranking_match_brute_force(T, M):
    # brute force: every sequence of ≤ M pairs j_1 ≤ i_1 < j_2 ≤ … ≤ i_k ≤ T, in preorder (self, then children by
    # (i, j)); |J| (exactly M pairs) = C(T + M, 2M)
    def walk(s, r, prefix):
        yield prefix
        if r:
            for i in range(s, T + 1):
                for j in range(s, i + 1):
                    yield from walk(i + 1, r - 1, prefix + ((i, j),))

    brute = list(walk(1, M, ()))
    trie = ExpertTrie(SOAMajorityLearner(AllFunctions(3)), T, max_flips=M)
    assert trie.n_experts == len(brute) == number_of_experts_upto(T, M)
    assert sum(len(p) == M for p in brute) == number_of_experts(T, M) == math.comb(T + M, 2 * M)
    assert [trie.pairs(e) for e in range(trie.n_experts)] == brute
    assert [trie.index(p) for p in brute] == list(range(len(brute)))
    with pytest.raises(LittlestoneError, match="not an expert"):
        trie.index(((2, 3),))


@pytest.mark.parametrize("seed", [0, 1])
def test_lazy_trie_matches_a_literal_per_expert_replay(seed):
    rng = np.random.default_rng(seed)
    for H, T in ((Thresholds(5), 9), (AllFunctions(3), 6)):
        X = rng.integers(0, 3 if isinstance(H, AllFunctions) else 5, T).tolist()
        synth = rng.integers(0, 3, 4 * T).tolist()  # arbitrary released windows, a function of (l, r)

        def window(l, r):
            return [synth[(l * 7 + r * 3 + k) % len(synth)] for k in range(r - l + 1)]

        A = SOAMajorityLearner(H)
        P, tuples = expert_predictions(A, X, window, max_flips=2)
        for e in range(len(P)):
            assert np.array_equal(P[e], naive_expert(A, X, window, tuples[e]))


def test_class_that_never_prunes_keeps_every_expert_live():
    # on the class of all functions every forced label is realizable: all of J_{≤M} is live
    A = SOAMajorityLearner(AllFunctions(3))
    X = [0, 1, 2, 0, 1]
    P, tuples = expert_predictions(A, X, lambda l, r: X[l - 1 : r], max_flips=1, live_only=True)
    assert len(P) == number_of_experts_upto(len(X), 1)
    assert all(j <= i for t in tuples for i, j in t)


def test_same_outputs_as_before_the_online_refactor_on_fixed_points():
    """Pinned before the refactor (points fixed in advance, experts pruned): the live experts of the online learner
    give the same prediction matrix and index tuples, row for row; the learner plays rows of the full matrix."""
    d = np.load(PINNED)
    for k in range(4):
        n, T, seed, san = (int(v) for v in d[f"c{k}_meta"])
        X, y = d[f"c{k}_X"], d[f"c{k}_y"]
        L = ConstructedExpertsLearner(
            Thresholds(n),
            T,
            1.0,
            1e-6,
            sanitizer=["mwem", "realizable"][san],
            backend="seeded",
            seed=seed,
            diagnostics=True,
        )
        res = L.run(X, y)
        P, tuples = expert_predictions(L.learner, X, L.sanitizer_.window, live_only=True)
        assert np.array_equal(P, d[f"c{k}_P"])
        assert [repr(t) for t in tuples] == list(d[f"c{k}_tuples"])
        assert L.n_live_ == len(P) and L.n_experts_ == number_of_experts_upto(T, L.learner.mistake_bound)
        full, _ = expert_predictions(L.learner, X, L.sanitizer_.window)
        assert np.array_equal(np.array(L.predictions_), full[res.choices, np.arange(T)])
        assert np.array_equal(L.cumulative_, (full != y[None, :]).sum(axis=1))
        assert res.realized_loss == int((np.array(L.predictions_) != y).sum())


def _adaptive_play(L, n, T, rng):
    """Adversary: x_t chosen from the learner's past predictions (a contrarian walk), labels 1[x ≥ n/2] w.p. 0.8."""
    X, y, x = [], [], 0
    for _ in range(T):
        p = L.predict_one(x)
        lab = int(x >= n // 2) ^ int(rng.random() < 0.2)
        L.learn_one(x, lab)
        X.append(x)
        y.append(lab)
        x = (x + 1 + p + int(rng.integers(0, 2))) % n
    return X, np.array(y)


@pytest.mark.parametrize("ope", ["batched", "tree", "private"])
def test_adaptive_points_online_and_consistent_with_the_materialized_experts(ope):
    n, T = 4, 24
    L = ConstructedExpertsLearner(Thresholds(n), T, 1.0, 1e-6, ope=ope, backend="seeded", seed=5, diagnostics=True)
    X, y = _adaptive_play(L, n, T, np.random.default_rng(0))
    with pytest.raises(LittlestoneError, match="diagnostics=True"):
        ConstructedExpertsLearner(Thresholds(n), T, 1.0, 1e-6, ope=ope, backend="seeded", seed=5).cumulative_
    full, _ = expert_predictions(L.learner, X, L.sanitizer_.window)
    assert np.array_equal(np.array(L.predictions_), full[np.array(L.choices_), np.arange(T)])
    assert np.array_equal(L.cumulative_, (full != y[None, :]).sum(axis=1))
    # round t's prediction uses x_1..x_t and y_1..y_{t−1} only: change the future, the past stays
    for cut in (5, 13):
        L2 = ConstructedExpertsLearner(Thresholds(n), T, 1.0, 1e-6, ope=ope, backend="seeded", seed=5)
        X2 = X[:cut] + [(x + 1) % n for x in X[cut:]]
        y2 = np.concatenate([y[:cut], 1 - y[cut:]])
        L2.run(X2, y2)
        assert L2.predictions_[:cut] == L.predictions_[:cut] and L2.choices_[:cut] == L.choices_[:cut]
    with pytest.raises(LittlestoneError, match="exhausted"):
        L.predict_one(0)


@pytest.mark.parametrize("eta,seed", [(0.05, 0), (0.2, 1), (0.2, 2)])
def test_regret_within_theorem_e10_and_4_4_bound(eta, seed):
    """Exact windows (Lemma E.8 with C ln T·Δ = 1, so θ = 1): Thm E.10 gives an expert within θ·M mistakes of every
    h, and Thm 4.4 adds the OPE learner's regret: E[regret vs best h] ≤ R_OPE(N, T) + M. The OPE here is Hedge
    (its bound √(T ln N / 2) is below T at this size); the losses do not depend on its draws, so Σ⟨p_t, ℓ_t⟩ is the
    expectation and the inequality is checked exactly. The private OPE learners' own bounds are checked on the
    MWEM-window run against the best expert."""
    n, T = 4, 40
    H = Thresholds(n)
    rng = np.random.default_rng(seed)
    X = rng.integers(0, n, T)
    y = (X >= n // 2).astype(np.int8)
    y[rng.random(T) < eta] ^= 1
    best_h = best_in_class(H, X, y)
    L = ConstructedExpertsLearner(H, T, 1.0, 1e-6, sanitizer=ExactWindows, ope="hedge", seed=seed)
    res = L.run(X, y)
    M = L.learner.mistake_bound
    assert res.best_loss <= best_h + M  # Thm E.10 with θ = 1
    bound = L.ope_.regret_bound()
    assert bound < T
    assert res.expected_loss - best_h <= bound + M  # Thm 4.4
    for ope in ("batched", "tree", "private"):
        P = ConstructedExpertsLearner(H, T, 1.0, 1e-6, ope=ope, backend="seeded", seed=seed, diagnostics=True)
        r = P.run(X, y)
        assert r.expected_loss - r.best_loss <= P.ope_.regret_bound()


def test_same_seed_same_stream():
    H = Thresholds(4)
    rng = np.random.default_rng(0)
    T = 16
    X = rng.integers(0, 4, T)
    y = (X >= 2).astype(int)
    for san in ("mwem", "realizable"):
        L = ConstructedExpertsLearner(H, T, 1.0, 1e-6, sanitizer=san, backend="seeded", seed=1)
        res = L.run(X, y)
        assert res.rounds == T and L.n_experts_ == number_of_experts_upto(T, 2)
    for ope in ("batched", "tree", "private"):  # Alg 5's (ε, δ) + the OPE learner's own claim ≤ (ε, δ): Thm 4.4
        L = ConstructedExpertsLearner(H, T, 1.0, 1e-6, ope=ope, backend="seeded", seed=1)
        c, o, s = L.privacy(), L.ope_.privacy(), L.sanitizer_.privacy()
        assert c.pair == pytest.approx((s.epsilon + o.epsilon, s.delta + o.delta))  # composed from the parts run
        assert s.epsilon <= 1.0 + 1e-12 and s.delta <= 1e-6 + 1e-15  # MWEM runs report (ε/L, 0) each
        assert c.epsilon <= 2.0 + 1e-12 and c.delta <= 2e-6
    assert ConstructedExpertsLearner(H, T, 1.0, 1e-6, ope="hedge", seed=1).privacy() is None
    for ope in ("batched", "tree", "private"):
        runs = [ConstructedExpertsLearner(H, T, 1.0, 1e-6, ope=ope, backend="seeded", seed=3) for _ in range(2)]
        a, b = (r.run(X, y) for r in runs)
        assert np.array_equal(a.choices, b.choices) and runs[0].predictions_ == runs[1].predictions_
        assert runs[0].sanitizer_.synthetic_ == runs[1].sanitizer_.synthetic_


def test_non_proper_soa_is_refused_up_front():
    with pytest.raises(LittlestoneError, match="not proper"):
        SOAMajorityLearner(random_class(8, 6, seed=2))
    H = random_class(6, 4, seed=2)  # the SOA of the class is in it; that of a state reached by a forced mistake is not
    V = H.version_space()
    assert V.contains(V.soa())
    with pytest.raises(LittlestoneError, match="Hanneke–Livni–Moran"):
        ConstructedExpertsLearner(H, 8, 1.0, 1e-6)


def test_bad_input_gets_a_clear_error():
    H = Thresholds(4)
    T = 8
    for kw, msg in [
        (dict(horizon=None), "must be given in advance"),
        (dict(horizon=0), "integer >= 1"),
        (dict(epsilon=0.0), "epsilon"),
        (dict(epsilon=-1.0), "epsilon"),
        (dict(epsilon=float("nan")), "epsilon"),
        (dict(delta=0.0), "delta"),
        (dict(delta=1.5), "delta"),
        (dict(ope="fast"), "ope must be"),
        (dict(sanitizer="magic"), "sanitizer must be"),
        (dict(horizon=400, max_experts=10**6), "exceeds the limit"),
    ]:
        args = dict(hypothesis_class=H, horizon=T, epsilon=1.0, delta=1e-6) | kw
        with pytest.raises(LittlestoneError, match=msg):
            ConstructedExpertsLearner(**args)
    L = ConstructedExpertsLearner(H, T, 1.0, 1e-6, backend="seeded", seed=0)
    with pytest.raises(LittlestoneError, match="0 or 1"):
        L.learn_one(1, 2)
    with pytest.raises(LittlestoneError, match="outside the domain"):
        L.predict_one(7)
    L.predict_one(1)
    with pytest.raises(LittlestoneError, match="already predicted"):
        L.predict_one(2)
    with pytest.raises(LittlestoneError, match="as many labels"):
        L.run([0, 1], [0])
    with pytest.raises(LittlestoneError, match="as many labels"):
        L.run(list(range(4)) * 3, [0] * 12)
    assert L.predictions_ == [] and L.t == 0  # nothing half-done was recorded
