"""Issue 33 item 6 (river-speed rounds): the per-round fast paths — the released hypothesis evaluated by a C-level
method (``released_evaluator``), river's one-key dict read in place, the AboveThreshold's count test on noise read as
Python numbers — release exactly what the learners released before them for the same seed (outputs pinned on main
3cc76f2, before the fast paths), and exactly what the vectorised ``run`` releases."""

from __future__ import annotations

import hashlib
import pickle

import numpy as np
import pytest

from littlestone.classes import Intervals, Points, Thresholds
from littlestone.classes.intervals import IntervalUnion
from littlestone.classes.points import FiniteSet
from littlestone.classes.thresholds import Threshold
from littlestone.private_online import BisectAT, ListAT
from littlestone.private_online.base import released_evaluator
from littlestone.private_online.epoch_em import EpochEM
from littlestone.private_online.intervals_at import IntervalsAT
from littlestone.private_online.points_at import PointsAT
from littlestone.private_online.segmented_em import SegmentedEM
from littlestone.private_online.signfree_bisect_at import SignFreeBisectAT

KW = dict(epsilon=1.0, backend="seeded", seed=7)
LEARNERS = {
    "bisect": lambda T: BisectAT(Thresholds(1 << 10), T=T, **KW),
    "listat": lambda T: ListAT(Thresholds(32), T=T, **KW),
    "points": lambda T: PointsAT(Points(1 << 10), T=T, **KW),
    "intervals": lambda T: IntervalsAT(Intervals(1 << 10), T=T, **KW),
    "segmented": lambda T: SegmentedEM(Thresholds(1 << 10), T=T, **KW),
    "segmented_points": lambda T: SegmentedEM(Points(1 << 10), T=T, **KW),
    "epoch": lambda T: EpochEM(Thresholds(1 << 10), T=T, **KW),
    "signfree": lambda T: SignFreeBisectAT(Thresholds(1 << 10), T=T, **KW),
}
#: sha256 (first 16 hex digits) of the predictions and the final hypothesis, number of positive predictions, segments
#: — computed on main 3cc76f2 (before the fast paths) with river dicts {"x": v}, T = 4000, seed 7; SegmentedEM and
#: EpochEM re-pinned when their practical defaults changed (a change of what they release, not of the fast paths)
PINNED = {
    "bisect": ("f3f8cc59a604068b", 2795, 43),
    "listat": ("bf3b089c888b6128", 2492, 83),
    "points": ("b849e13ab0a09ca8", 264, 14),
    "intervals": ("ff80eeb9157b3f04", 1876, 23),
    "segmented": ("daf4410ba23da540", 2635, 9),  # the three noisy-stream rows re-pinned after issue 33's new defaults
    "segmented_points": ("cfe8532c3ec959ae", 502, 9),  # (first = 16, quiet segments, ρ cap, bracket; merged main) —
    "epoch": ("b1e9d30e34df7cdf", 2658, 9),  # the fast paths release what `run` releases (second assertion)
    "signfree": ("957ffb1a5bbaed3b", 2588, 20),
}
T = 4000


def _stream(name: str, seed: int = 11) -> tuple[list[int], list[int]]:
    rng = np.random.default_rng(seed)
    n = 32 if name == "listat" else 1 << 10
    X = rng.integers(0, n, T)
    if "points" in name:
        X[::7] = 77
        y = (X == 77).astype(int)
    elif name == "intervals":
        y = ((X >= 100) & (X <= 600)).astype(int)
    else:
        y = (X >= n // 3).astype(int)
    y = y ^ (rng.random(T) < 0.1)
    return X.tolist(), y.astype(int).tolist()


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_seeded_rounds_release_the_pinned_outputs_and_what_run_releases(name):
    X, y = _stream(name)
    a, b, c = LEARNERS[name](T), LEARNERS[name](T), LEARNERS[name](T)
    pa, pb = [], []
    for x, yy in zip(X, y):
        pa.append(a.predict_one({"x": x}))
        a.learn_one({"x": x}, yy)
        pb.append(b.predict_one(x))
        b.learn_one(x, yy)
    digest = hashlib.sha256((str(pa) + repr(a.hypothesis())).encode()).hexdigest()[:16]
    state = a.state()
    assert (digest, sum(pa), state.get("segments")) == PINNED[name]
    assert pa == pb == c.run(np.array(X), np.array(y)).predictions.tolist()
    assert a.hypothesis() == b.hypothesis() == c.hypothesis()


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_the_fast_evaluation_is_always_the_released_hypothesis(name):
    """``_hf`` answers what ``_released()`` answers on every round, after ``run`` and after a pickle round trip."""
    X, y = _stream(name)
    L = LEARNERS[name](T)
    probes = sorted(set(X[:50]))
    hf = lambda: [bool(L._hf(p)) for p in probes] if L._hf is not None else None  # noqa: E731

    def check() -> None:
        if L._hf is not None:
            assert hf() == [bool(L._released()(p)) for p in probes]

    for x, yy in zip(X[:1500], y[:1500]):
        L.learn_one(x, yy)
        check()
    L.run(np.array(X[1500:2500]), np.array(y[1500:2500]))
    check()
    L = pickle.loads(pickle.dumps(L))
    for x, yy in zip(X[2500:], y[2500:]):
        L.learn_one({"x": x}, yy)
        check()


def test_released_evaluator_kinds():
    for t in (0, 5, 1023):
        f = released_evaluator(Threshold(t), True)
        assert [f(x) for x in range(8)] == [x >= t for x in range(8)]
    assert released_evaluator(Threshold(5), False) == Threshold(5)  # points that may not be ints: the hypothesis
    f = released_evaluator(FiniteSet((3, 9)), True)
    assert [f(x) for x in range(10)] == [x in (3, 9) for x in range(10)]
    f = released_evaluator(IntervalUnion(((2, 4),)), True)
    assert [f(x) for x in range(7)] == [2 <= x <= 4 for x in range(7)]
    assert not any(released_evaluator(IntervalUnion(()), True)(x) for x in range(5))
    two = IntervalUnion(((1, 2), (5, 6)))
    assert released_evaluator(two, True) is two


def test_intervals_at_back_to_phase_one_releases_the_empty_set():
    """A move "m wrong" (4) goes back to phase 1: the released hypothesis — and its fast evaluation — is empty."""
    L = IntervalsAT(Intervals(64), T=100, **KW)
    L._begin_bisection(20)
    assert L.hypothesis() != IntervalUnion(()) and L._hf(20)
    L._move(4)
    assert L.hypothesis() == IntervalUnion(()) and not any(L._hf(x) for x in range(64))


@pytest.mark.parametrize(
    "make", [lambda: PointsAT(Points(16), T=50, **KW), lambda: BisectAT(Thresholds(16), T=50, **KW)]
)
def test_the_int_fast_path_takes_exactly_the_domain(make):
    """The fast path's integer range is the domain itself: its last point is learned, the next one refused in one
    line (an off-by-one there would refuse a point of the class or take one outside it)."""
    from littlestone.errors import LittlestoneError

    L = make()
    L.predict_one(15)
    L.learn_one(15, 1)
    L.learn_one({"x": 0}, 0)
    for bad in (16, -1):
        with pytest.raises(LittlestoneError):
            L.predict_one(bad)
        with pytest.raises(LittlestoneError):
            L.learn_one(bad, 0)


def test_count_reads_the_noise_batch_in_order_across_its_pieces():
    """test_count converts the noise batch to Python numbers in doubling pieces: the value read at each query is the
    batch's value at that position — across piece boundaries (64, 128, …) and after restarts, none read twice."""
    from littlestone.privacy.above_threshold import AboveThreshold
    from littlestone.privacy.backends import make_backend

    at = AboveThreshold(10**9, 1.0, backend=make_backend("seeded", 3), noise_batch=4096, integer_queries=True)
    seen = []
    for i in range(700):
        assert at.test_count(-(10**6)) is False  # far below: always ⊥, every query draws its noise
        seen.append(at._as_list[at._pos - 1])
        if i % 150 == 149:
            at.restart()
    assert seen == at._buffer[: len(seen)].tolist()  # query i read the batch's i-th noise: none read twice
