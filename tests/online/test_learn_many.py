"""The batch path (``learn_many``) gives the same predictions, mistakes, counters, label coding and final state as
``predict_one`` + ``learn_one`` round by round — closed-form (thresholds) and generic (other classes) alike."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone import SOA, FiniteClass, Halving, Intervals, Thresholds
from littlestone.errors import LabelError, NotRealizableError


def per_round(learner, X, y):
    out = []
    for x, lab in zip(X, y):
        out.append(learner.predict_one(x))
        learner.learn_one(x, lab)
    return out


def same_state(a, b):
    assert (a.mistakes, a.n_learned, a.label_coding, a.coding_is_set) == (
        b.mistakes,
        b.n_learned,
        b.label_coding,
        b.coding_is_set,
    )
    assert a.version_space.key() == b.version_space.key()
    if isinstance(a, SOA):
        assert a.realizable == b.realizable and a.realizable_prefix_length == b.realizable_prefix_length
        assert a.hypothesis() == b.hypothesis()


CLASSES = [
    lambda: Thresholds(2**60),
    lambda: Thresholds(37),
    lambda: Intervals(40),
    lambda: FiniteClass((np.random.default_rng(3).random((60, 12)) < 0.5).astype(np.uint8)),
]


@pytest.mark.parametrize("make", CLASSES)
@pytest.mark.parametrize("Learner", [SOA, Halving])
@pytest.mark.parametrize("coding", [(0, 1), (-1, 1), "bool"])
def test_realizable_batches_match_rounds(make, Learner, coding):
    H = make()
    rng = np.random.default_rng(11)
    n = min(H.domain_size, 2**62)
    X = rng.integers(0, n, 400, dtype=np.int64)
    V, labels = H.version_space(), []  # a realizable sequence: each label keeps the version space nonempty
    for x in X.tolist():
        ok = [lab for lab in (0, 1) if not V.restrict(x, lab).is_empty()]
        lab = ok[int(rng.integers(len(ok)))]
        V = V.restrict(x, lab)
        labels.append(lab)
    y01 = np.array(labels)
    y = y01.astype(bool) if coding == "bool" else np.where(y01 == 1, 1, coding[0])
    a, b = Learner(H), Learner(H)
    expected = per_round(a, X, y)
    got = b.learn_many(X[:150], y[:150]).tolist() + b.learn_many(list(X[150:].tolist()), y[150:]).tolist()
    assert got == expected
    same_state(a, b)


@pytest.mark.parametrize("make", CLASSES[:2])
def test_extended_soa_past_unrealizable_examples(make):
    H = make()
    rng = np.random.default_rng(5)
    n = min(H.domain_size, 2**62)
    X = rng.integers(0, n, 300, dtype=np.int64)
    y = (rng.random(300) < 0.5).astype(np.int64)  # noise: not realizable
    a, b = SOA(H, extended=True), SOA(H, extended=True)
    assert b.learn_many(X, y).tolist() == per_round(a, X, y)
    same_state(a, b)
    assert not b.realizable


def test_plain_soa_stops_where_learn_one_would():
    H = Thresholds(100)
    X = np.array([10, 50, 20, 60, 30])
    y = np.array([0, 1, 1, 0, 1])  # (60, 0) after (50, 1) is unrealizable
    a, b = SOA(H), SOA(H)
    with pytest.raises(NotRealizableError):
        per_round(a, X, y)
    with pytest.raises(NotRealizableError):
        b.learn_many(X, y)
    same_state(a, b)
    assert b.n_learned == 3


def test_bad_labels_raise_before_learning():
    b = SOA(Thresholds(10))
    with pytest.raises(LabelError):
        b.learn_many([1, 2, 3], [1, 0, -1])
    assert b.n_learned == 0
    b.learn_many([1, 2], [-1, -1])
    with pytest.raises(LabelError):
        b.learn_many([3], [0])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 30), max_size=40),
    st.integers(0, 31),
    st.sampled_from([SOA, Halving]),
    st.sampled_from([(0, 1), (-1, 1)]),
)
def test_property_thresholds(X, t, Learner, coding):
    H = Thresholds(31)
    y = [1 if x >= t else coding[0] for x in X]
    a, b = Learner(H), Learner(H)
    assert b.learn_many(X, y).tolist() == per_round(a, X, y)
    same_state(a, b)
