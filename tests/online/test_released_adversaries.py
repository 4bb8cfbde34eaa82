"""Adversaries that see the released hypothesis (LWY25 §3), the registry, and closed-form target draws (issues 20
item 1, 21 item 17)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.classes.intervals import Intervals
from littlestone.classes.points import Points
from littlestone.errors import LittlestoneError
from littlestone.online import (
    ADVERSARIES,
    SOA,
    DisagreementSeeking,
    Halving,
    IIDRealizable,
    LateCommitment,
    make_adversary,
    play,
    play_stream,
)

CLASSES = [Thresholds(1000), Thresholds(2**60), Points(16), Points(), Intervals(32), Intervals(10**6)]


def _realizable(H, res) -> bool:
    V, k = H.version_space().restrict_sample(list(res.points), res.labels)
    return k == res.T


class _Recording:
    """A learner wrapper that records the released hypothesis of every round (SOA underneath)."""

    def __init__(self, inner):
        self.inner = inner
        self.released = []

    def hypothesis(self):
        h = self.inner.hypothesis()
        self.released.append(h)
        return h

    def predict_one(self, x):
        return self.inner.predict_one(x)

    def learn_one(self, x, y):
        self.inner.learn_one(x, y)


@pytest.mark.parametrize("H", CLASSES, ids=lambda H: H.name)
@pytest.mark.parametrize("name", list(ADVERSARIES))
def test_every_adversary_keeps_the_game_realizable(H, name):
    for learner in (SOA(H), SOA(H, extended=True)):
        res = play(learner, make_adversary(name, H, seed=3), 40, seed=1)
        assert _realizable(H, res), (name, H.name)


@pytest.mark.parametrize("n", [1, 2, 5, 8, 1000, 2**20, 2**60])
@pytest.mark.parametrize("Learner", [SOA, Halving])
def test_late_commitment_forces_ldim_mistakes_on_thresholds(n, Learner):
    """On a chain every flip keeps the larger part (≥ half), so Ldim drops by exactly one per mistake: SOA and
    Halving (consistent learners, ≤ Ldim mistakes on thresholds) make exactly Ldim mistakes, all at the start."""
    H = Thresholds(n)
    d = H.ldim()
    adv = LateCommitment(H, seed=0)
    res = play(Learner(H), adv, d + 20, seed=0)
    assert res.mistakes == d
    assert res.mistake_rounds.tolist() == list(range(d))
    assert adv.forced == d and adv.version_space.size() == 1  # committed only at the end


@pytest.mark.parametrize("H", [Points(), Points(16), Intervals(32), Intervals(10**6)], ids=lambda H: H.name)
def test_late_commitment_forces_at_least_one_mistake_per_flip_and_ldim_on_small_classes(H):
    res = play(SOA(H), LateCommitment(H, seed=0), 60, seed=0)
    assert res.mistakes >= 1
    if H.name in ("points", "points(16)", "intervals(32)"):
        assert res.mistakes == H.ldim()  # the SOA's bound, reached


@pytest.mark.parametrize("H", [Thresholds(1000), Thresholds(2**60), Points(), Intervals(10**6)], ids=lambda H: H.name)
def test_disagreement_seeking_asks_only_disagreement_points(H):
    adv = DisagreementSeeking(H, seed=4)
    rec = _Recording(SOA(H))
    res = play(rec, adv, 40, seed=0)
    assert len(rec.released) == res.T
    for t, (x, h) in enumerate(zip(res.points, rec.released)):
        if t < adv.disagreements:  # disagreements come first: once h_t = h* there is none left
            assert h(x) != adv.target(x)
            assert res.predictions[t] != res.labels[t]
        else:
            assert h == adv.target or H.disagreement(h, adv.target) is None
    assert res.mistakes == adv.disagreements
    assert np.array_equal(res.labels, [adv.target(x) for x in res.points])


def test_disagreement_seeking_errs_every_round_until_the_target_is_found():
    H = Thresholds(2**60)
    adv = DisagreementSeeking(H, target=H.hypothesis(12345), seed=0)
    res = play(SOA(H), adv, 200, seed=0)
    assert 1 <= res.mistakes <= 60
    assert res.mistake_rounds.tolist() == list(range(res.mistakes))


@pytest.mark.parametrize("name", list(ADVERSARIES))
def test_same_seed_same_run(name):
    H = Thresholds(2**60)
    a = play(SOA(H), make_adversary(name, H, seed=7), 80)
    b = play(SOA(H), make_adversary(name, H, seed=7), 80)
    assert a.points == b.points and np.array_equal(a.labels, b.labels)
    c = play(SOA(H), make_adversary(name, H), 80, seed=11)  # the game's seed drives unseeded adversaries
    d = play(SOA(H), make_adversary(name, H), 80, seed=11)
    assert c.points == d.points


def test_registry_names_and_uniform_constructor():
    assert set(ADVERSARIES) == {"tree", "greedy-tree", "iid", "disagreement", "late-commitment", "sparse-mistakes"}
    H = Points()
    for name, factory in ADVERSARIES.items():
        factory(H, seed=1)
    with pytest.raises(LittlestoneError, match="unknown adversary 'nope'"):
        make_adversary("nope", H)


def test_adversaries_need_the_game_to_see_the_learner():
    adv = LateCommitment(Thresholds(10), seed=0)
    with pytest.raises(LittlestoneError, match="released hypothesis"):
        adv.propose(0)


def test_learner_without_hypothesis_is_probed():
    """A learner with predict_one only (no hypothesis()) is probed on the class's law: still realizable."""

    class Blind:
        def __init__(self, H):
            self.s = SOA(H)

        def predict_one(self, x):
            return self.s.predict_one(x)

        def learn_one(self, x, y):
            self.s.learn_one(x, y)

    H = Intervals(64)
    for name in ("disagreement", "late-commitment"):
        res = play(Blind(H), make_adversary(name, H, seed=2), 30, seed=0)
        assert _realizable(H, res)


# ------------------------------------------------------------------------------------- closed-form target draws


@pytest.mark.parametrize(
    "make",
    [lambda: Points(10**6), Points, lambda: Intervals(10**6), lambda: Intervals(2**40), lambda: Thresholds(2**70)],
    ids=["points:1e6", "points", "intervals:1e6", "intervals:2^40", "thresholds:2^70"],
)
def test_iid_targets_and_points_need_no_enumeration(make):
    """Before: "drawing a uniform hypothesis … needs at most 1,000,000 hypotheses" (issue 21 item 17)."""
    H = make()
    rng = np.random.default_rng(0)
    h = H.random_hypothesis(rng)
    assert H.version_space().contains(h)
    res = play(SOA(H), IIDRealizable(H, seed=1), 100)
    assert _realizable(H, res)
    streamed = play_stream(SOA(H), IIDRealizable(H, seed=1), 3000, chunk=1024)
    assert streamed.T == 3000 and streamed.mistakes <= H.ldim()


def test_intervals_target_draw_is_uniform():
    H = Intervals(5)
    size = 1 + 5 * 6 // 2
    rng = np.random.default_rng(1)
    N = 16_000
    c = Counter(H.random_hypothesis(rng) for _ in range(N))
    assert len(c) == size and set(c) == set(H.version_space().hypotheses())
    chi2 = sum((v - N / size) ** 2 / (N / size) for v in c.values())
    assert chi2 < 45  # 15 degrees of freedom: p ≈ 1e-4


def test_points_target_law_is_documented_and_uniform_on_a_finite_domain():
    H = Points(4)
    rng = np.random.default_rng(2)
    c = Counter(H.random_hypothesis(rng) for _ in range(10_000))
    assert len(c) == 5 and min(c.values()) > 1800  # 4 point functions and the zero function
    inf = Points()
    w = inf.SAMPLING_WINDOW
    draws = [inf.random_hypothesis(rng) for _ in range(200)]
    assert all(not h.points or 0 <= h.points[0] < w for h in draws)
    with pytest.raises(LittlestoneError, match="predicate"):
        Points(lambda x: isinstance(x, str)).random_hypothesis(rng)


def test_stream_is_memory_flat_and_counts_every_round():
    H = Thresholds(2)
    ticks = []
    r = play_stream(SOA(H), IIDRealizable(H, seed=0), 3_000_000, chunk=1 << 20, on_chunk=ticks.append, keep=5)
    assert sum(ticks) == 3_000_000 and len(ticks) == 3
    assert r.head.T == 5 and r.mistakes <= 1
    assert math.isclose(r.T, 3_000_000)


def test_sparse_mistakes_spaces_its_mistakes_by_the_gap():
    """A disagreement is asked only once gap − 1 agreeing rounds have passed: the mistakes of a learner that never
    finds the target are exactly gap apart (issue 34)."""
    from littlestone.online import SparseMistakes

    H = Thresholds(2**60)

    class Stuck:  # releases h_0 forever
        h = H.hypothesis(0)

        def hypothesis(self):
            return self.h

        def predict_one(self, x):
            return self.h(x)

        def learn_one(self, x, y):
            pass

    adv = SparseMistakes(H, gap=10, target=H.hypothesis(2**59), seed=0)
    res = play(Stuck(), adv, 100, seed=0)
    assert res.mistake_rounds.tolist() == list(range(0, 100, 10)) and adv.disagreements == 10
    with pytest.raises(LittlestoneError, match="gap"):
        SparseMistakes(H, gap=0)
