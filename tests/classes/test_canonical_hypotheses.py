"""One value per function (BLM20 §IV: G's outputs and M's histogram count functions): for every class, hypotheses
reached by any sequence of patches (the extended SOA of BLM20 Definition 8) are equal values with equal hashes iff
they are the same function — checked on the whole domain (finite) or by a disagreement point (infinite) — and
their model-JSON forms round-trip."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone.classes import AffineSubspaces, AllFunctions, Conjunctions, Intervals, Points, PointsAndNegations
from littlestone.classes.base import PatchedHypothesis, patch
from littlestone.classes.conjunctions import FALSE, Conjunction
from littlestone.classes.finite import FiniteClass
from littlestone.classes.intervals import IntervalUnion
from littlestone.classes.points import CofiniteSet, FiniteSet
from littlestone.classes.thresholds import Thresholds
from littlestone.pac._sklearn import hypothesis_from_json, hypothesis_to_json

CLASSES = {
    "points(6)": Points(range(6)),
    "points": Points(),
    "intervals(8)": Intervals(8),
    "conjunctions(3)": Conjunctions(3),
    "monotone-conjunctions(3)": Conjunctions(3, monotone=True),
    "conjunctions(4)": Conjunctions(4),
    "conjunctions(3, ≤1)": Conjunctions(3, k=1),
    "affine(F_2^3, ≤2)": AffineSubspaces(2, 3, 2),
    "affine(F_3^2, ≤1)": AffineSubspaces(3, 2, 1),
    "allfunctions(5)": AllFunctions(5),
    "pointsneg(5)": PointsAndNegations(range(5)),
    "pointsneg": PointsAndNegations(),
    "thresholds(8)": Thresholds(8),
    "finite": FiniteClass(np.random.default_rng(3).integers(0, 2, (9, 6))),
}
#: points probed on the infinite domains (plus a disagreement search)
PROBE = list(range(12))


def _points(H):
    try:
        return H.domain_points()
    except TypeError:
        return PROBE


def _random_hypothesis(H, rng, pts):
    """SOA of a version space reached by a random sample, then a random patch sequence (repeats and overwrites)."""
    V = H.version_space()
    for _ in range(int(rng.integers(0, 4))):
        x = pts[int(rng.integers(len(pts)))]
        W = V.restrict(H.validate_point(x), int(rng.integers(2)))
        if not W.is_empty():
            V = W
    h = V.soa()
    for _ in range(int(rng.integers(0, 4))):
        ups = [(pts[int(rng.integers(len(pts)))], int(rng.integers(2))) for _ in range(int(rng.integers(1, 5)))]
        h = patch(h, ups)
    return h


def _same_function(H, h1, h2, pts) -> bool:
    same_on_pts = all(h1(x) == h2(x) for x in pts)
    if pts is PROBE:  # infinite domain: the class names a disagreement point unless they are one function
        x = H.disagreement(h1, h2)
        assert x is None or h1(x) != h2(x)
        assert x is not None or same_on_pts
        return x is None
    return same_on_pts


def _rebuild(h, H, rng, pts):
    """The same function reached another way: a different base patched towards h's values in random order,
    with noise patches that are overwritten later."""
    g = _random_hypothesis(H, rng, pts)
    noise = [(pts[int(rng.integers(len(pts)))], int(rng.integers(2))) for _ in range(int(rng.integers(0, 3)))]
    fix = [(x, h(x)) for x in pts]
    order = rng.permutation(len(fix))
    g = patch(g, noise)
    cut = int(rng.integers(0, len(fix) + 1))
    g = patch(g, [fix[i] for i in order[:cut]])
    g = patch(g, [fix[i] for i in order[cut:]])
    if pts is PROBE:  # outside the probed points, h may differ from its base: copy h's own patches/base too
        g = patch(g, [(x, h(x)) for x in getattr(h, "points", ())])
    return g


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(CLASSES)), seed=st.integers(0, 2**32 - 1))
def test_equal_functions_are_equal_values_and_hashes(name, seed):
    H = CLASSES[name]
    rng = np.random.default_rng(seed)
    pts = _points(H)
    h1 = _random_hypothesis(H, rng, pts)
    h2 = _random_hypothesis(H, rng, pts)
    same = _same_function(H, h1, h2, pts)
    assert (h1 == h2) == same, (h1, h2)
    if same:
        assert hash(h1) == hash(h2)
    g = _rebuild(h1, H, rng, pts)
    if _same_function(H, h1, g, pts):
        assert g == h1 and hash(g) == hash(h1), (h1, g)
    for h in (h1, h2, g):  # model JSON keeps the value (and hence the function)
        assert hypothesis_from_json(hypothesis_to_json(h, H), H) == h


def test_the_reported_example():
    """patch(FiniteSet({1}), 2 ↦ 1) and patch(FiniteSet({2}), 1 ↦ 1) are the function 1[x ∈ {1, 2}]."""
    a, b = patch(FiniteSet((1,)), [(2, 1)]), patch(FiniteSet((2,)), [(1, 1)])
    assert a == b and hash(a) == hash(b) and a == FiniteSet((1, 2))
    assert patch(CofiniteSet((1,)), [(1, 1), (5, 0)]) == CofiniteSet((5,))


def test_patched_intervals_are_interval_unions():
    h = patch(IntervalUnion([(2, 5)]), [(3, 0), (6, 1), (7, 1), (0, 0)])
    assert type(h) is IntervalUnion and h.intervals == ((2, 2), (4, 7))
    assert (
        patch(IntervalUnion([(1, 1)]), [(2, 1)]) == patch(IntervalUnion([(2, 2)]), [(1, 1)]) == IntervalUnion([(1, 2)])
    )


@pytest.mark.parametrize("n", [3, 10, 60])
def test_patched_conjunctions_have_one_form(n):
    one = (1,) * n
    c = Conjunction([(i, 1) for i in range(n - 1)])  # two points: 1…10, 1…11
    near = tuple([1] * (n - 1) + [0])
    assert patch(c, [(near, 0)]) == Conjunction([(i, 1) for i in range(n)])  # a subcube again
    assert patch(FALSE, [(one, 1)]) == Conjunction([(i, 1) for i in range(n)])
    assert patch(FALSE, [(one, 1), (near, 1)]) == c
    big = Conjunction([(0, 1)])  # half the cube: 2^(n−1) > 4·1 points, so the patch stays on this base
    h = patch(big, [(one, 0)])
    if n == 3:  # 4 points, 1 patch: no subcube is that near; the function is listed by its three 1s
        assert h.base == FALSE and len(h.patches) == 3
    else:
        assert isinstance(h, PatchedHypothesis) and h.base == big and h.patches == ((one, 0),)


def test_affine_zero_patched_into_a_flat_is_the_flat():
    H = AffineSubspaces(2, 3, 2)
    line = H.flat((0, 0, 0), [(1, 0, 0)])
    assert patch(H.soa(), [((0, 0, 0), 1), ((1, 0, 0), 1)]) == line
    assert patch(line, [((1, 0, 0), 0)]) == H.flat((0, 0, 0))
    plane = H.flat((0, 0, 0), [(1, 0, 0), (0, 1, 0)])
    assert patch(patch(plane, [((1, 1, 0), 0)]), [((1, 1, 0), 1)]) == plane
