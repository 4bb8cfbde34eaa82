"""The vectorized closed-form batch path (issue 22 item 2): ``SOA.learn_many`` / ``Halving.learn_many`` on thresholds
run ``ThresholdsVersionSpace.online_run_array`` (NumPy, no Python loop) and must play exactly the rounds of
``predict_one`` + ``learn_one`` — on random streams, realizable or not (the extended SOA), with ties and points at
the bounds of the domain."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone import Thresholds
from littlestone.classes.points import Points
from littlestone.errors import NotRealizableError
from littlestone.online import SOA, Halving


def _loop(learner, X, y):
    preds = []
    for x, lab in zip(X, y):
        preds.append(learner.predict_one(int(x)))
        learner.learn_one(int(x), int(lab))
    return preds


@st.composite
def streams(draw):
    n = draw(st.sampled_from([1, 2, 3, 4, 7, 8, 1000, 2**60 - 1, 2**60, 2**61 + 5]))
    T = draw(st.integers(0, 60))
    edge = st.sampled_from([0, n - 1, max(n // 2 - 1, 0), n // 2, min(n // 2 + 1, n - 1)])  # domain bounds, ties
    X = draw(st.lists(st.one_of(edge, st.integers(0, n - 1)), min_size=T, max_size=T))
    t = draw(st.one_of(st.sampled_from([0, n, n // 2]), st.integers(0, n)))
    y = [int(x >= t) for x in X]
    flips = draw(st.lists(st.integers(0, max(T - 1, 0)), max_size=3)) if T else []
    for i in flips:
        y[i] ^= 1  # a non-realizable stream
    cut = draw(st.integers(0, T))  # two batches: the second starts from a restricted version space
    return n, X, y, cut


def _learn_in_two(learner, X, y, cut):
    a = learner.learn_many(np.array(X[:cut], dtype=np.int64), np.array(y[:cut], dtype=np.int64))
    b = learner.learn_many(np.array(X[cut:], dtype=np.int64), np.array(y[cut:], dtype=np.int64))
    return a.tolist() + b.tolist()


@settings(max_examples=150, deadline=None)
@given(streams())
def test_soa_extended_fast_path_equals_the_loop(stream):
    n, X, y, cut = stream
    H = Thresholds(n)
    fast, slow = SOA(H, extended=True), SOA(H, extended=True)
    assert _learn_in_two(fast, X, y, cut) == _loop(slow, X, y)
    assert fast.mistakes == slow.mistakes
    assert fast.realizable_prefix_length == slow.realizable_prefix_length
    assert fast.version_space == slow.version_space
    assert fast.hypothesis() == slow.hypothesis()


@settings(max_examples=150, deadline=None)
@given(streams(), st.sampled_from(["soa", "halving"]))
def test_realizable_prefix_fast_path_equals_the_loop(stream, rule):
    """Plain SOA and Halving: the same predictions up to the first unrealizable example, which raises in both and
    leaves the same state (learn_many learns the examples before it)."""
    n, X, y, cut = stream
    H = Thresholds(n)
    make = (lambda: SOA(H)) if rule == "soa" else (lambda: Halving(H))
    fast, slow = make(), make()
    err_fast = err_slow = None
    try:
        _learn_in_two(fast, X, y, cut)
    except NotRealizableError as e:
        err_fast = e
    slow_preds = []
    try:
        for x, lab in zip(X, y):
            slow_preds.append(slow.predict_one(x))
            slow.learn_one(x, lab)
    except NotRealizableError as e:
        err_slow = e
    assert (err_fast is None) == (err_slow is None)
    assert fast.n_learned == slow.n_learned and fast.mistakes == slow.mistakes
    assert fast.version_space == slow.version_space


@pytest.mark.parametrize("n", [1, 2, 3, 4, 8])
def test_every_short_stream_on_small_domains(n):
    """Exhaustive: every stream of 3 rounds over thresholds(n) (all points, all labels — realizable or not), from a
    fresh learner and after one example, for the SOA (extended) and Halving's realizable prefix."""
    H = Thresholds(n)
    pts = np.array(np.meshgrid(*[np.arange(n)] * 3)).reshape(3, -1).T
    labs = np.array(np.meshgrid(*[np.arange(2)] * 3)).reshape(3, -1).T
    V = H.version_space()
    for X in pts:
        for y in labs:
            for rule in ("soa", "halving"):
                for W in (V, V.restrict(int(X[0]), int(y[0]))):
                    fast = W.online_run_array(X, y.astype(np.int8), rule)
                    slow = W.online_run(X.tolist(), y.tolist(), rule)
                    assert fast[0].tolist() == slow[0] and fast[1] == slow[1] and fast[2] == slow[2], (X, y, rule)


def test_learn_many_takes_the_vectorized_path_on_thresholds(monkeypatch):
    """learn_many chooses the closed form by itself (no Python loop over the rounds): with the per-round hooks and
    the list path disabled, 10^5 rounds on thresholds(2^60) still run, with the same mistakes as the loop on a
    prefix."""
    H = Thresholds(2**60)
    rng = np.random.default_rng(5)
    X = rng.integers(0, 2**60, 100_000, dtype=np.int64)
    y = (X >= int(rng.integers(0, 2**60))).astype(np.int64)
    ref = [SOA(H), Halving(H)]
    ref_preds = [_loop(r, X[:300].tolist(), y[:300].tolist()) for r in ref]
    from littlestone.classes.thresholds import ThresholdsVersionSpace

    def boom(*a, **k):
        raise AssertionError("the per-round path was used")

    for L in (SOA, Halving):
        monkeypatch.setattr(L, "_predict01", boom)
        monkeypatch.setattr(L, "_learn01", boom)
    monkeypatch.setattr(ThresholdsVersionSpace, "online_run", boom)
    for learner, rp in zip((SOA(H), Halving(H)), ref_preds):
        preds = learner.learn_many(X, y)
        assert preds[:300].tolist() == rp
        assert learner.mistakes == int(np.count_nonzero(preds != y)) <= 60


@pytest.mark.parametrize("labels", [(0, 1), (-1, 1)])
def test_fast_path_reports_in_the_label_coding(labels):
    H = Thresholds(100)
    X = np.array([50, 10, 90, 49, 51])
    y01 = (X >= 50).astype(np.int64)
    y = np.where(y01 == 1, 1, labels[0])
    fast = SOA(H)
    slow = SOA(H)
    assert fast.learn_many(X, y).tolist() == _loop(slow, X.tolist(), y.tolist())


@st.composite
def point_streams(draw):
    make = draw(st.sampled_from([lambda: Points(), lambda: Points(6), lambda: Points(6, include_zero=False)]))
    H = make()
    m = 6 if H.domain.finite is not None else 2**40
    T = draw(st.integers(0, 30))
    small = st.integers(0, min(m, 6) - 1)
    X = draw(st.lists(st.one_of(small, st.integers(0, m - 1)), min_size=T, max_size=T))
    p = draw(small)
    y = [int(x == p) for x in X]
    for i in draw(st.lists(st.integers(0, max(T - 1, 0)), max_size=2)) if T else []:
        y[i] ^= 1
    return H, X, y, draw(st.integers(0, T))


@settings(max_examples=150, deadline=None)
@given(point_streams(), st.sampled_from(["soa", "soa-extended", "halving"]))
def test_points_fast_path_equals_the_loop(stream, rule):
    H, X, y, cut = stream
    if rule == "halving" and H.domain.finite is None:
        return  # Halving needs a finite class
    make = {
        "soa": lambda: SOA(H),
        "soa-extended": lambda: SOA(H, extended=True),
        "halving": lambda: Halving(H),
    }[rule]
    fast, slow = make(), make()
    preds_fast = err_fast = err_slow = None
    try:
        preds_fast = _learn_in_two(fast, X, y, cut)
    except NotRealizableError:
        err_fast = True
    preds_slow = []
    try:
        preds_slow = _loop(slow, X, y)
    except NotRealizableError:
        err_slow = True
    assert err_fast == err_slow
    if not err_fast:
        assert preds_fast == preds_slow
    assert fast.n_learned == slow.n_learned and fast.mistakes == slow.mistakes
    assert fast.version_space == slow.version_space
