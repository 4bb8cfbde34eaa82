"""Issue 19: each sanitizer's noise scales recomputed from its claim and the sensitivity, its draws counted against
the composition its ``privacy()`` states (RecordingBackend logs every draw), and leak 6: RealizableSanitizer's and
DyadicSanitizer's ``privacy()`` composed from the mechanisms run / the claims the factory's sanitizers report."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone.classes import Thresholds
from littlestone.errors import LittlestoneError
from littlestone.privacy import compose, tree_levels
from littlestone.sanitizers.dyadic import DyadicSanitizer
from littlestone.sanitizers.mwem import MWEM
from littlestone.sanitizers.realizable import RealizableSanitizer
from littlestone.sanitizers.sequential_fooling import SequentialFoolingSanitizer
from littlestone.sanitizers.threshold_label import ThresholdLabelSanitizer
from littlestone.testing import RecordingBackend

GUMBEL = "noisy_argmax:gumbel"


def _only(backend, sampler, scale):
    """Every call of ``sampler`` drew at ``scale``; how many calls."""
    calls = backend.calls(sampler)
    assert calls and all(s == pytest.approx(scale) for s, _ in calls), (sampler, scale, set(s for s, _ in calls))
    return len(calls)


# ------------------------------------------------------------------------------------------------ thresholds H^label
@pytest.mark.parametrize("n,eps", [(16, 1.0), (1 << 40, 0.5)])
def test_threshold_label_node_scale_is_2_levels_over_epsilon(n, eps):
    b = RecordingBackend(0)
    s = ThresholdLabelSanitizer(n, eps, backend=b)
    rng = np.random.default_rng(1)
    X, y = rng.integers(0, n, 64), rng.integers(0, 2, 64)
    s.fit_arrays(X, y)
    s.estimate(np.array([0, n // 3, n]))
    s.synthetic(64)
    L = s.levels
    # level histograms of L1 sensitivity 2 (one record leaves a node and enters one), ε/(L+1) each
    assert _only(b, "discrete_laplace", 2 * (L + 1) / eps) >= 1
    assert list(b.scales()) == [pytest.approx(2 * (L + 1) / eps)]  # no other noise
    assert b.values("discrete_laplace") == s.tree_.nodes_drawn  # every node drawn once, memoized
    c = s.privacy()
    assert c.pair == pytest.approx((eps, 0.0)) and len(c.parts) == L + 1


# ------------------------------------------------------------------------------------------------ MWEM
def test_mwem_scales_and_counts():
    b = RecordingBackend(0)
    s = MWEM(Thresholds(8), 1.0, iterations=5, backend=b)
    s.fit(np.random.default_rng(0).integers(0, 8, 40))
    T, eps0 = 5, 1.0 / 10
    assert _only(b, GUMBEL, 2 / eps0) == T  # exponential mechanism on counts (Δ = 1) at ε/2T
    assert _only(b, "laplace", 1 / eps0) == T  # Laplace measurement of the chosen count at ε/2T
    assert tuple(s.privacy())[:2] == (1.0, 0.0)


# ------------------------------------------------------------------------------------------------ sequential fooling
def test_sequential_fooling_scales_recomputed_from_the_round_epsilon():
    b = RecordingBackend(0)
    s = SequentialFoolingSanitizer(Thresholds(8), 1.0, 1e-6, alpha=0.25, learner="exponential", backend=b)
    X = np.random.default_rng(0).integers(0, 8, 200)
    s.fit(X)
    n, e3 = 200, s.epsilon_round / 3
    scales = [pytest.approx(2 * (1 / n) / e3), pytest.approx(2 / e3)]  # bucket choice (Δ = 1/n), learner (Δ = 1)
    assert all(any(sc == x for x in scales) for sc, _ in b.calls(GUMBEL))
    rounds = len(s.transcript_)
    assert len(b.calls(GUMBEL)) == 2 * rounds  # per round: bucket choice + learner
    assert _only(b, "laplace", (1 / n) / e3) == rounds  # per round: the Laplace test of the frequency


# ------------------------------------------------------------------------------------------------ realizable
def test_realizable_scales_counts_and_composed_claim():
    H = Thresholds(4)
    b = RecordingBackend(0)
    s = RealizableSanitizer(H, 1.0, 1e-6, 0.3, m=1, backend=b)
    s.fit(np.random.default_rng(0).integers(0, 4, 300))
    T = s.rounds
    # Thm E.5's split recomputed from the REQUESTED (ε, δ) = (1, 1e-6), not read from the object
    assert s.epsilon_round == pytest.approx(1.0 / (2 * math.sqrt(2 * T * math.log(2 / 1e-6))))
    assert s.delta_round == pytest.approx(1e-6 / (2 * T))
    e4 = 1.0 / (2 * math.sqrt(2 * T * math.log(2 / 1e-6))) / 4
    learners = _only(b, GUMBEL, 2 / e4)  # exponential learner, Δ = 1, at ε′/4
    tests = _only(b, "laplace", 1 / e4)  # Laplace test on a count, Δ = 1, at ε′/4
    assert tests == learners <= 2 * s.rounds  # each learner call is followed by its test; ≤ 2 per round
    # the claim: T rounds of (learner, test, learner, test) at ε′/4 each, best of basic / advanced (slack δ/2)
    round_eps = 4 * e4
    basic = s.rounds * round_eps
    adv = round_eps * math.sqrt(2 * s.rounds * math.log(2 / 1e-6)) + s.rounds * round_eps * math.expm1(round_eps)
    c = s.privacy()
    assert c.epsilon == pytest.approx(min(basic, adv)) and c.epsilon <= 1.0
    assert c.delta == (0.0 if basic <= adv else pytest.approx(0.5e-6))


def test_realizable_refuses_a_learner_without_a_claim_and_a_claim_over_budget():
    def silent(candidates, agreements, n, epsilon, backend):
        return int(candidates[0])

    with pytest.raises(LittlestoneError, match="declare its privacy claim"):
        RealizableSanitizer(Thresholds(4), 1.0, 1e-6, 0.3, m=1, learner=silent)

    from littlestone.privacy import PrivacyClaim

    silent.claim = lambda epsilon: PrivacyClaim(100 * epsilon, 0.0)
    with pytest.raises(LittlestoneError, match="exceeds"):
        RealizableSanitizer(Thresholds(4), 1.0, 1e-6, 0.3, m=1, learner=silent)


# ------------------------------------------------------------------------------------------------ dyadic
class _Reporting:
    def __init__(self, eps, delta):
        self.claim = (eps, delta)

    def privacy(self):
        return self.claim

    def fit(self, X):
        self.X = list(X)
        return self

    def synthetic(self, size):
        return self.X


def test_dyadic_claim_is_composed_from_what_the_runs_report():
    T = 16
    L = tree_levels(T)
    honest = DyadicSanitizer(T, 1.0, 1e-6, lambda e, d, n, i: _Reporting(e, d))
    assert honest.privacy().pair == pytest.approx((1.0, 1e-6)) and len(honest.privacy().parts) == L
    # a factory that ignores its (ε/L, δ/L): the claim says so (it used to return the requested (ε, δ))
    greedy = DyadicSanitizer(T, 1.0, 1e-6, lambda e, d, n, i: _Reporting(1.0, 1e-6))
    assert greedy.privacy().pair == pytest.approx((L * 1.0, L * 1e-6))
    # the same with MWEM runs: (ε/L, 0) each
    mw = DyadicSanitizer(T, 1.0, 0.0, lambda e, d, n, i: MWEM(Thresholds(4), e, iterations=2, backend="seeded"))
    assert mw.privacy() == compose([mw.level_claim(j) for j in range(L)], "basic", what=mw.privacy().what)
    assert mw.privacy().pair == pytest.approx((1.0, 0.0))


def test_dyadic_refuses_a_run_claiming_more_than_its_level():
    def make(e, d, n, i):
        return _Reporting(e if i != 3 else 2 * e, d)

    d = DyadicSanitizer(8, 1.0, 1e-6, make)
    with pytest.raises(LittlestoneError, match="more than its level"):
        for t in range(8):
            d.learn_one(t)


def test_sequential_fooling_hands_its_learner_the_delta_its_claim_counts(monkeypatch):
    """The GGKM21 learner inside the discriminator runs at (ε′/3, δ′) — the δ′ of round_parts(), not more."""
    import littlestone.sanitizers.sequential_fooling as sf

    seen = []
    original = sf._ggkm21_learner

    def spy(ones, n, epsilon, backend, rng, **kw):
        seen.append((epsilon, kw["delta"]))
        return original(ones, n, epsilon, backend, rng, **kw)

    monkeypatch.setattr(sf, "_ggkm21_learner", spy)
    s = SequentialFoolingSanitizer(
        Thresholds(4),
        30.0,
        1e-3,
        alpha=0.5,
        rounds=1,
        learner="ggkm21",
        learner_options=dict(n=30, m=100, K=3, n_generic=200),
        backend="seeded",
        seed=1,
    )
    X = np.concatenate([np.zeros(2_000_000, dtype=np.int64), np.full(1_000_000, 3)])
    s.fit(X)
    parts = s.round_parts()
    assert seen and all(e == pytest.approx(parts[1][0]) and d == pytest.approx(parts[1][1]) for e, d in seen)


def test_a_copy_of_a_started_dyadic_sanitizer_is_charged_again():
    """A copy (deepcopy, pickle) of a DyadicSanitizer that has started is another run over the stream: charged its
    whole claim again at its next round (ChargedPerGame, as the online learners)."""
    import copy

    from littlestone.privacy import BudgetAccountant

    acc = BudgetAccountant(10.0)
    san = DyadicSanitizer(8, 1.0, 0.0, lambda e, d, n, i: _Reporting(e, d), accountant=acc)
    san.learn_one(1)
    spent = acc.spent[0]
    copy.deepcopy(san).learn_one(2)
    assert acc.spent[0] == pytest.approx(2 * spent)
