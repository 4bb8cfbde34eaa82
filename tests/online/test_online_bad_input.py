"""Bad input gets a clear error naming the problem; ±1 labels are reported back as ±1."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone import FiniteClass, Thresholds
from littlestone.errors import DomainError, LabelError
from littlestone.online import SOA, Halving


@pytest.fixture(params=["soa", "soa-extended", "halving"])
def make(request):
    return {"soa": SOA, "soa-extended": lambda H, **kw: SOA(H, extended=True, **kw), "halving": Halving}[request.param]


@pytest.mark.parametrize("label", [2, -2, 0.5, "1", None, math.nan, (1,)])
def test_labels_outside_binary_sets(make, label):
    learner = make(Thresholds(10))
    with pytest.raises(LabelError, match="not in"):
        learner.learn_one(3, label)
    assert learner.n_learned == 0


@pytest.mark.parametrize("point", [math.nan, np.nan, -1, 10, 3.5, "a", None, (1, 2), True])
def test_points_outside_domain_thresholds(make, point):
    learner = make(Thresholds(10))
    with pytest.raises(DomainError):
        learner.predict_one(point)
    with pytest.raises(DomainError):
        learner.learn_one(point, 1)
    assert learner.n_learned == 0


def test_points_outside_domain_finite_class(make):
    F = FiniteClass(np.eye(5, dtype=int), points=["a", "b", "c", "d", "e"])
    learner = make(F)
    with pytest.raises(DomainError, match="'z'"):
        learner.predict_one("z")
    with pytest.raises(DomainError):
        learner.learn_one(0, 1)
    assert learner.learn_one("c", 1) is None
    assert learner.predict_one("c") == 1


def test_nan_point_message_names_nan():
    with pytest.raises(DomainError, match="NaN"):
        SOA(Thresholds(10)).predict_one(float("nan"))


def test_mixing_zero_and_minus_one(make):
    learner = make(Thresholds(10))
    learner.learn_one(5, 0)
    with pytest.raises(LabelError, match="mixes"):
        learner.learn_one(2, -1)
    learner = make(Thresholds(10))
    learner.learn_one(5, -1)
    with pytest.raises(LabelError, match="mixes"):
        learner.learn_one(7, 0)
    with pytest.raises(LabelError, match="mixes"):
        make(Thresholds(10), labels=(-1, 1)).learn_one(7, 0)
    with pytest.raises(LabelError):
        make(Thresholds(10), labels=(0, 2))


def test_plus_minus_one_reported_back(make):
    learner = make(Thresholds(10))
    assert learner.predict_one(0) == 0  # before any label: {0,1}
    learner.learn_one(5, 1)
    assert learner.predict_one(0) == 0 and learner.label_coding == (0, 1)  # +1 alone does not fix the coding
    learner.learn_one(4, -1)
    assert learner.predict_one(0) == -1 and learner.predict_one(9) == 1
    assert learner.predict_many([0, 9]).tolist() == [-1, 1]
    assert make(Thresholds(10), labels=(-1, 1)).predict_one(0) == -1


def test_zero_one_labels_and_numpy_types(make):
    learner = make(Thresholds(10))
    for x, y in ((np.int64(6), np.int8(1)), (np.int32(2), np.float64(0.0)), (3, False)):
        assert learner.learn_one(x, y) is None
    assert learner.predict_one(np.int64(1)) == 0 and learner.label_coding == (0, 1)
    assert learner.n_learned == 3
