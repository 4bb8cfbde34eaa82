"""Realizable sanitizer (LWY25 Lemma E.2 / Thm E.5) and the dyadic sequential sanitizer (Alg 5, Lemma E.8)."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.audit import audit_mechanism
from littlestone.classes import Thresholds, random_class
from littlestone.errors import LittlestoneError
from littlestone.privacy import ExponentialMechanism, tree_levels
from littlestone.sanitizers.dyadic import DyadicSanitizer
from littlestone.sanitizers.mwem import MWEM
from littlestone.sanitizers.realizable import RealizableSanitizer


def _meets_definition(s, X, alpha):
    F = s.F
    p = (F.matrix.astype(float) @ np.bincount(F.domain.indices(X), minlength=F.n_points)) / len(X)
    return bool(np.all(s.estimate_[p >= alpha] == 1) and np.all(s.estimate_[p == 0] == 0))


@pytest.mark.parametrize("H", [Thresholds(6), random_class(6, 5, seed=7)])
def test_realizable_sanitizer_meets_def_e1_with_probability_1_minus_beta(H):
    alpha, beta = 0.3, 0.05
    s0 = RealizableSanitizer(H, 1.0, 1e-6, alpha, beta=beta, backend="seeded", seed=0)
    n = s0.sample_size()
    rng = np.random.default_rng(0)
    X = rng.choice(s0.F.n_points, size=n, p=np.array([0.5, 0.0, 0.0, 0.0, 0.5] + [0.0] * (s0.F.n_points - 5)))
    fails = sum(
        not _meets_definition(
            RealizableSanitizer(H, 1.0, 1e-6, alpha, beta=beta, backend="seeded", seed=s).fit(X), X, alpha
        )
        for s in range(10)
    )
    assert fails <= 2  # P[Bin(10, 0.05) ≥ 3] < 0.012


def test_definition_check_can_fail():
    H = Thresholds(6)
    X = np.repeat([0, 5], 1000)
    s = RealizableSanitizer(H, 1.0, 1e-6, 0.3, backend="seeded", seed=0).fit(X)
    s.estimate_ = np.zeros_like(s.estimate_)  # a discriminator that always says WIN at the first predicate
    assert not _meets_definition(s, X, 0.3)


def test_game_length_and_synthetic_hitting_set():
    H = Thresholds(6)
    X = np.repeat([0, 5], 20_000)
    s = RealizableSanitizer(H, 1.0, 1e-6, 0.3, backend="seeded", seed=1).fit(X)
    assert s.won_ and s.rounds_ <= s.rounds
    S = s.synthetic(5)
    F = s.F
    hit = F.matrix[:, F.domain.indices(S)].sum(axis=1) > 0
    assert np.all(hit[s.estimate_ == 1])
    with pytest.raises(LittlestoneError):
        RealizableSanitizer(H, 1.0, 0.0, 0.3)  # δ > 0 is needed (advanced composition)
    with pytest.raises(LittlestoneError):
        RealizableSanitizer(H, 1.0, 1e-6, 1.5)


def _argmax_learner(candidates, agreements, n, epsilon, backend):
    """Broken twin's learner: the best hypothesis chosen without noise (it keeps the honest learner's claim)."""
    return int(candidates[np.argmax(agreements[candidates])])


_argmax_learner.claim = lambda epsilon: ExponentialMechanism(epsilon).privacy()


def _transcript(learner):
    def mech(data, backend):
        s = RealizableSanitizer(Thresholds(3), 2.0, 1e-3, 0.6, m=1, learner=learner, backend=backend).fit(data)
        return tuple(s.transcript_)

    return mech


@pytest.mark.slow
@pytest.mark.parametrize("learner,ok", [(None, True), (_argmax_learner, False)])
def test_realizable_sanitizer_audit(learner, ok):
    from littlestone.sanitizers.realizable import exponential_learner

    D, D_prime = np.array([0, 0, 1, 2]), np.array([0, 0, 2, 2])
    rep = audit_mechanism(
        _transcript(learner or exponential_learner),
        D,
        D_prime,
        runs=20_000,
        seed=2,
        randomness="seeded",
        claimed_epsilon=2.0,
        delta=1e-3,
    )
    assert rep.passed is ok


class _Identity:
    def __init__(self, epsilon=1.0, delta=0.0):
        self.claim = (epsilon, delta)

    def privacy(self):
        return self.claim

    def fit(self, X):
        self.X = list(X)
        return self

    def synthetic(self, size):
        return self.X


def test_dyadic_windows_reassemble_every_interval_and_charge_each_point_L_times():
    T = 21
    runs = []

    def make(eps, delta, length, i):
        runs.append((eps, length))
        return _Identity(eps, delta)

    d = DyadicSanitizer(T, 1.0, 1e-6, make)
    for t in range(T):
        d.learn_one(100 + t)
    for l in range(1, T + 1):
        for r in range(l, T + 1):
            assert d.window(l, r) == list(range(99 + l, 100 + r))
    L = tree_levels(T)
    assert all(abs(e - 1.0 / L) < 1e-12 for e, _ in runs)
    per_point = np.zeros(T + 1, dtype=int)
    for l, r in d.synthetic_:
        per_point[l : r + 1] += 1
    assert per_point[1:].max() <= L
    with pytest.raises(LittlestoneError):
        d.window(3, T + 1)


def test_dyadic_with_mwem_runs():
    d = DyadicSanitizer(8, 1.0, 0.0, lambda e, dl, n, i: MWEM(Thresholds(4), e, iterations=2, backend="seeded", seed=i))
    for t in range(8):
        d.learn_one(t % 4)
    assert len(d.window(2, 7)) == 6
