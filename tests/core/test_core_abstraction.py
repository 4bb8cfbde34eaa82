"""Core abstraction: FiniteClass bitsets, Thresholds closed form, patches (Def 8), labels, seeds."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone import FiniteClass, Thresholds
from littlestone._labels import check_label01, encode_labels
from littlestone._random import as_generator, spawn_seeds
from littlestone.classes import Threshold, patch
from littlestone.errors import DomainError, EmptyDataError, LabelError, LittlestoneError
from littlestone.online.extended_soa import extended_soa


def brute_ldim(rows: frozenset, n: int) -> int:
    """Plain recursion on frozensets of value tuples (Lit88) — the oracle."""
    if not rows:
        return -1
    best = 0
    for x in range(n):
        a = frozenset(r for r in rows if r[x] == 0)
        b = rows - a
        if a and b:
            best = max(best, 1 + min(brute_ldim(a, n), brute_ldim(b, n)))
    return best


def threshold_matrix(n: int) -> np.ndarray:
    return np.array([[int(x >= t) for x in range(n)] for t in range(n + 1)])


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 8, 15, 16, 31])
def test_thresholds_ldim_known_and_matches_finite_twin(n):
    T, F = Thresholds(n), FiniteClass(threshold_matrix(n))
    assert T.ldim() == F.ldim() == math.floor(math.log2(n + 1))
    assert list(T.soa().predict(np.arange(n))) == list(F.soa().as_array())


def test_spec_test_vectors_soa_ties_to_zero():
    # shared/spec Appendix A: thresholds(3) SOA (0,0,1), thresholds(7) SOA (0,0,0,0,1,1,1)
    assert list(FiniteClass(threshold_matrix(3)).soa().as_array()) == [0, 0, 1]
    assert list(Thresholds(7).soa().predict(np.arange(7))) == [0, 0, 0, 0, 1, 1, 1]
    points4 = FiniteClass(np.eye(4, dtype=int))
    assert points4.ldim() == 1 and list(points4.soa().as_array()) == [0, 0, 0, 0]
    allf3 = FiniteClass(np.array(list(itertools.product([0, 1], repeat=3))))
    assert allf3.ldim() == 3 and list(allf3.soa().as_array()) == [0, 0, 0]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7), st.integers(1, 24), st.integers(0, 2**32 - 1))
def test_finite_ldim_matches_brute_force(n, m, seed):
    M = np.random.default_rng(seed).integers(0, 2, (m, n))
    F = FiniteClass(M)
    rows = frozenset(tuple(r) for r in F.matrix.tolist())
    assert F.ldim() == brute_ldim(rows, n)
    # version spaces restrict consistently with the matrix
    V = F.version_space()
    x = int(np.random.default_rng(seed + 1).integers(0, n))
    for y in (0, 1):
        W = V.restrict(x, y)
        assert W.size() == int((F.matrix[:, x] == y).sum())
        assert all(h(x) == y for h in W.hypotheses())
        assert W.ldim() == brute_ldim(frozenset(r for r in rows if r[x] == y), n)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.lists(st.tuples(st.integers(0, 39), st.integers(0, 1)), max_size=12))
def test_thresholds_restrictions_match_finite_twin(n, sample):
    sample = [(x % n, y) for x, y in sample]
    T, F = Thresholds(n), FiniteClass(threshold_matrix(n))
    X = np.array([x for x, _ in sample], dtype=np.int64)
    y = np.array([y for _, y in sample], dtype=np.int8)
    VT, kT = T.version_space().restrict_sample(X, y)
    VF, kF = F.version_space().restrict_sample(X, y)
    assert kT == kF
    assert VT.size() == VF.size() and VT.ldim() == VF.ldim()
    assert list(VT.soa().predict(np.arange(n))) == list(VF.soa().as_array())
    # split point is a root of a deepest shattered tree
    x = VT.split_point()
    if VT.ldim() >= 1:
        assert min(VT.restrict(x, 0).ldim(), VT.restrict(x, 1).ldim()) == VT.ldim() - 1


def test_huge_domain_is_closed_form():
    T = Thresholds(2**60)
    assert T.ldim() == 60
    V = T.version_space().restrict(2**59, 1).restrict(2**40, 0)
    assert V.ldim() == math.floor(math.log2(2**59 - 2**40 - 1 + 1))
    h = V.soa()
    assert isinstance(h, Threshold) and V.contains(h)
    X = np.array([0, 2**40, 2**59, 2**60 - 1], dtype=np.int64)
    assert list(T.evaluate(h, X)) == [int(x >= h.t) for x in X.tolist()]


def test_hypotheses_are_values():
    F = FiniteClass([[0, 1, 1], [0, 0, 1]])
    V = F.version_space()
    assert V.restrict(1, 0).soa() == F.hypothesis(1)  # SOA of a singleton is its member
    assert hash(Threshold(3)) == hash(Threshold(3)) and Threshold(2) < Threshold(3)
    assert sorted([Threshold(5), Threshold(1)]) == [Threshold(1), Threshold(5)]
    assert len({Threshold(4), Threshold(4), patch(Threshold(4), [(3, 0)])}) == 1  # patch agreeing with base vanishes


def test_patch_is_canonical_and_last_update_wins():
    h = patch(Threshold(10), [(3, 1), (12, 0), (3, 0)])  # (3,0) agrees with the base again
    assert h == patch(Threshold(10), [(12, 0)])
    assert h(12) == 0 and h(3) == 0 and h(11) == 1
    assert list(h.predict(np.array([3, 11, 12]))) == [0, 1, 0]
    T = Thresholds(20)
    assert T.disagreement(h, Threshold(10)) == 12
    assert T.disagreement(h, h) is None
    g = patch(Threshold(5), [(5, 0), (6, 0), (7, 0), (8, 0), (9, 0)])  # equals Threshold(10) on 5..9
    assert T.disagreement(g, Threshold(10)) is None  # same function, found despite patches


def test_extended_soa_definition_8():
    T = Thresholds(100)
    V = T.version_space()
    X = np.array([10, 50, 20, 60, 20])
    y = np.array([0, 1, 1, 0, 0])  # non-realizable from index 3 on
    h = extended_soa(V, X, y)
    Vk, k = V.restrict_sample(X, y)
    assert k == 3
    base = Vk.soa()
    # consistent with every example after the last realizable prefix (later duplicates win)
    assert h(60) == 0 and h(20) == 0
    assert all(h(x) == base(x) for x in range(100) if x not in (60, 20))


def test_bad_input_errors():
    with pytest.raises(LittlestoneError, match="0 and 1"):
        FiniteClass([[0, 2]])
    assert FiniteClass(np.zeros((0, 3))).ldim() == -1  # the empty class (issue 9 item 20)
    with pytest.raises(LittlestoneError, match="NaN"):
        FiniteClass([[0.0, np.nan]])
    T = Thresholds(10)
    with pytest.raises(DomainError, match="outside"):
        T.validate_points([1, 10])
    with pytest.raises(DomainError, match="NaN"):
        T.validate_points([1.0, np.nan])
    with pytest.raises(DomainError):
        T.validate_point("a")
    F = FiniteClass([[0, 1]], points=["a", "b"])
    assert F.hypothesis(0)("b") == 1
    with pytest.raises(DomainError, match="'c'"):
        F.validate_point("c")
    with pytest.raises(LittlestoneError):
        Thresholds(0)


def test_labels():
    y, c = encode_labels([-1, 1, 1])
    assert list(y) == [0, 1, 1] and list(c.decode(np.array([1, 0]))) == [1, -1]
    y, c = encode_labels(["no", "yes"], allow_any_pair=True)
    assert list(c.decode(y)) == ["no", "yes"]
    with pytest.raises(LabelError, match="binary"):
        encode_labels([0, 1, 2])
    with pytest.raises(LabelError, match="NaN"):
        encode_labels([0.0, np.nan])
    with pytest.raises(EmptyDataError):
        encode_labels([])
    with pytest.raises(LabelError):
        check_label01(2)


def test_seeds_reproducible():
    a = [np.random.default_rng(s).random() for s in spawn_seeds(7, 3)]
    b = [np.random.default_rng(s).random() for s in spawn_seeds(7, 3)]
    assert a == b and len(set(a)) == 3
    assert as_generator(5).random() == as_generator(5).random()
    ss = np.random.SeedSequence(11)
    first = [c.generate_state(1)[0] for c in spawn_seeds(ss, 2)]
    assert first == [c.generate_state(1)[0] for c in spawn_seeds(ss, 2)]  # spawning twice: same children
    with pytest.raises(TypeError):
        as_generator("x")


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 12),
    st.lists(st.tuples(st.integers(0, 11), st.integers(0, 1)), max_size=6),
    st.integers(0, 12),
    st.lists(st.tuples(st.integers(0, 11), st.integers(0, 1)), max_size=6),
)
def test_patched_thresholds_are_canonical(t1, p1, t2, p2):
    """Two patched thresholds are equal values iff they are the same function on the domain 0..11."""
    h1, h2 = patch(Threshold(t1), p1), patch(Threshold(t2), p2)
    X = np.arange(12)
    same = list(h1.predict(X)) == list(h2.predict(X))
    assert (h1 == h2) == same
    assert (hash(h1) == hash(h2)) or not same


def test_patched_vectors_are_vectors():
    F = FiniteClass([[0, 0, 1], [0, 1, 1]])
    h = patch(F.hypothesis(0), [(1, 1)])
    assert h == F.hypothesis(1) and type(h).__name__ == "VectorHypothesis"
