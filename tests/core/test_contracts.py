"""littlestone.testing: every class and online learner of the library meets the contract in one call; the checks
catch broken classes and learners; the one resolver turns spec strings into classes everywhere."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from littlestone import Intervals, Points, Thresholds
from littlestone.classes import (
    AffineSubspaces,
    AllFunctions,
    Conjunctions,
    FiniteClass,
    PointsAndNegations,
    resolve_class,
)
from littlestone.classes.thresholds import ThresholdsVersionSpace
from littlestone.errors import ClassSpecError
from littlestone.online import SOA, Halving
from littlestone.testing import check_hypothesis_class, check_online_learner, oracle

CLASSES = [
    (lambda: Thresholds(12), lambda: FiniteClass(oracle.thresholds_matrix(12)), None),
    (lambda: Thresholds(2**60), None, list(range(0, 2**60, 2**54))),
    (lambda: Points(8), lambda: FiniteClass(oracle.points_matrix(8)), None),
    (lambda: Points(), None, list(range(20))),
    (lambda: Intervals(6), lambda: FiniteClass(oracle.intervals_matrix(6)), None),
    (lambda: AllFunctions(4), lambda: FiniteClass(oracle.allfunctions_matrix(4)), None),
    (
        lambda: Conjunctions(3),
        lambda: FiniteClass(oracle.conjunctions_matrix(3), points=oracle.cube(3)),
        oracle.cube(3),
    ),
    (lambda: PointsAndNegations(5), None, None),
    (lambda: PointsAndNegations(), None, list(range(10))),
    (
        lambda: AffineSubspaces(2, 2, 1),
        lambda: FiniteClass(oracle.affine_matrix(2, 2, 1), points=list(itertools.product(range(2), repeat=2))),
        list(itertools.product(range(2), repeat=2)),
    ),
    (lambda: FiniteClass(oracle.intervals_matrix(5)), None, None),
]


@pytest.mark.parametrize("make, twin, points", CLASSES, ids=lambda v: "" if not callable(v) else None)
def test_every_class_meets_the_contract(make, twin, points):
    check_hypothesis_class(make(), None if twin is None else twin(), points=points, walks=8, depth=4)


@pytest.mark.parametrize(
    "factory, points",
    [
        (lambda: SOA(Thresholds(12)), None),
        (lambda: SOA(Intervals(8), extended=True), None),
        (lambda: SOA(Thresholds(2**60)), list(range(0, 2**60, 2**55))),
        (lambda: Halving(Intervals(6)), None),
        (lambda: SOA(FiniteClass(oracle.allfunctions_matrix(3))), None),
    ],
)
def test_every_online_learner_meets_the_contract(factory, points):
    check_online_learner(factory, points=points)


def test_the_class_check_catches_a_broken_class():
    class LyingThresholds(Thresholds):
        def version_space(self):
            return LyingVersionSpace(self, 0, self.n)

    class LyingVersionSpace(ThresholdsVersionSpace):
        def restrict(self, x, y):
            W = super().restrict(x, y)
            return LyingVersionSpace(W.hclass, W.lo, W.hi)

        def soa_predict(self, x):  # the SOA with ties going to 1
            return (
                1 - super().soa_predict(x)
                if self.restrict(x, 0).ldim() == self.restrict(x, 1).ldim()
                else super().soa_predict(x)
            )

    with pytest.raises(AssertionError, match="soa_predict"):
        check_hypothesis_class(LyingThresholds(8))


def test_the_class_check_catches_a_twin_that_differs():
    with pytest.raises(AssertionError, match="twin"):
        check_hypothesis_class(Thresholds(6), FiniteClass(oracle.intervals_matrix(6)))


def test_the_learner_check_catches_a_broken_learner():
    class Forgetful(SOA):
        def learn_one(self, x, y):  # counts nothing
            return None

    with pytest.raises(AssertionError, match="mistakes"):
        check_online_learner(lambda: Forgetful(Thresholds(12)))

    class Chaining(SOA):  # the pre-river convention
        def learn_one(self, x, y):
            super().learn_one(x, y)
            return self

    with pytest.raises(AssertionError, match="return None"):
        check_online_learner(lambda: Chaining(Thresholds(12)))


def test_regressions_found_by_the_contract():
    """Bugs the contract found: an empty Points version space enumerated every point; PointsAndNegations on a finite
    domain missed a disagreement off the listed points; an affine version space with every point negative was not
    empty; the contradiction among conjunctions was not ordered against the other conjunctions."""
    V = Points(8).version_space().restrict(4, 1).restrict(5, 1)
    assert V.is_empty() and list(V.hypotheses()) == []
    H = PointsAndNegations(5)
    hyps = list(H.version_space().hypotheses())
    for a, b in itertools.combinations(hyps, 2):  # e_4 vs 1 − e_1 differ off the points either one lists
        x = H.disagreement(a, b)
        assert x is not None and a(x) != b(x), (a, b)
    A = AffineSubspaces(2, 1, 0)
    W = A.version_space().restrict((0,), 0).restrict((1,), 0)
    assert W.is_empty() and W.size() == 0 and W.ldim() == -1
    hyps = list(Conjunctions(3).version_space().hypotheses())
    assert sorted(hyps) == sorted(reversed(hyps))


def test_one_resolver_for_spec_strings():
    assert SOA("thresholds:100").hypothesis_class.ldim() == Thresholds(100).ldim() == 6
    assert Points(16).ldim() == Points(range(16)).ldim() == 1 and Points(16).domain_size == 16
    assert resolve_class("points:16").domain_size == 16
    assert Halving("intervals:6").mistakes == 0
    H = Thresholds(5)
    assert resolve_class(H) is H
    with pytest.raises(ClassSpecError, match="class spec"):
        resolve_class(3.5)
    with pytest.raises(ClassSpecError, match="unknown class"):
        SOA("bogus:3")


def test_protocol_methods_replace_the_thresholds_special_cases():
    rng = np.random.default_rng(0)
    for H in (Thresholds(9), Intervals(5)):
        V = H.version_space().restrict(3, 1)
        pts = [0, 2, 4]
        want = np.array(sorted({tuple(int(h(x)) for x in pts) for h in V.hypotheses()}), dtype=np.uint8)
        assert np.array_equal(V.labelings(pts), want), H.name  # closed form (thresholds) and generic search
        h = H.random_hypothesis(rng)
        assert H.version_space().contains(h)
    X = np.array([0, 5, 1, 7, 2, 2], dtype=np.int64)
    y = np.array([0, 1, 0, 1, 1, 0])
    keys = Thresholds(9).version_space().soa_block_keys(X, y, 2)
    assert keys[:2] == [(1, 5), (2, 7)] and keys[2] is None  # the third block (2 → 1, 2 → 0) is not realizable
    assert Intervals(5).version_space().soa_block_keys(X, y, 2) is None
    assert callable(Thresholds(2**40).uniform_points()) and Thresholds(5).uniform_points() == [0, 1, 2, 3, 4]
