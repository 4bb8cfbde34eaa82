"""Conjunctions: closed-form version spaces (hitting sets) vs explicit twins; k-limited fallback; n = 60."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.classes import FiniteClass
from littlestone.classes.conjunctions import Conjunction, Conjunctions, min_hitting_set
from littlestone.errors import DomainError, LittlestoneError

from littlestone.testing.oracle import brute_ldim, conjunctions_matrix, cube, rows

from littlestone.testing import check_hypothesis_class


@pytest.mark.parametrize("nv", [1, 2, 3, 4])
@pytest.mark.parametrize("monotone", [False, True])
def test_full_conjunctions_twin(nv, monotone):
    H = Conjunctions(nv, monotone=monotone)
    T = FiniteClass(conjunctions_matrix(nv, monotone=monotone), points=cube(nv))
    assert H.ldim() == T.ldim() == (nv if monotone else nv + 1)
    check_hypothesis_class(H, T, points=cube(nv), seed=nv, walks=25, depth=6)


def test_negatives_before_positive_twin():
    """The pre-positive closed form (1 + n − τ*) on many random negative sets (n = 4)."""
    rng = np.random.default_rng(1)
    nv = 4
    pts = cube(nv)
    H = Conjunctions(nv)
    T = FiniteClass(conjunctions_matrix(nv), points=pts)
    for _ in range(40):
        V, W = H.version_space(), T.version_space()
        for j in rng.choice(len(pts), size=int(rng.integers(1, 9)), replace=False):
            V, W = V.restrict(pts[j], 0), W.restrict(pts[j], 0)
        assert V.ldim() == W.ldim() and V.size() == W.size()
        assert not W.soa().as_array().any() and V.soa().predict(np.array(pts)).sum() == 0
        x = V.split_point()
        if W.ldim() >= 1:
            assert min(W.restrict(x, 0).ldim(), W.restrict(x, 1).ldim()) >= W.ldim() - 1


@pytest.mark.parametrize("nv,k,expected", [(3, 1, 2), (4, 1, 2), (4, 2, 3), (3, 2, 2)])
def test_k_limited_monotone_spec_values(nv, k, expected):
    H = Conjunctions(nv, k, monotone=True)
    assert H.ldim() == expected  # spec §11.2
    T = FiniteClass(conjunctions_matrix(nv, k, monotone=True), points=cube(nv))
    check_hypothesis_class(H, T, points=cube(nv), seed=k, walks=10, depth=4)


def test_k_limited_non_monotone_twin():
    H = Conjunctions(3, 2)
    T = FiniteClass(conjunctions_matrix(3, 2), points=cube(3))
    assert H.ldim() == T.ldim() == brute_ldim(rows(T))
    check_hypothesis_class(H, T, points=cube(3), seed=0, walks=10, depth=4)


def test_sixty_variables():
    H = Conjunctions(60)
    V = H.version_space()
    assert V.ldim() == 61 and V.soa() == Conjunction(None)
    rng = np.random.default_rng(3)
    p = tuple(int(v) for v in rng.integers(0, 2, 60))
    W = V.restrict(p, 1)
    assert W.ldim() == 60 and W.soa() == Conjunction(enumerate(p))
    q = list(p)
    q[0], q[1] = 1 - q[0], 1 - q[1]
    W2 = W.restrict(tuple(q), 0)  # the target must keep literal 0 or literal 1
    assert W2.ldim() == 59
    x = W2.split_point()
    assert min(W2.restrict(x, 0).ldim(), W2.restrict(x, 1).ldim()) >= 58
    X = H.validate_points(rng.integers(0, 2, size=(5, 60)))
    assert W.soa().predict(X).tolist() == [W.soa_predict(tuple(r)) for r in X.tolist()]


def test_hitting_set():
    assert min_hitting_set([frozenset({1, 2}), frozenset({2, 3}), frozenset({4})])[0] == 2
    assert min_hitting_set([frozenset()]) is None


def test_bad_input():
    H = Conjunctions(3)
    with pytest.raises(DomainError, match="0/1"):
        H.validate_points(np.array([[0, 2, 1]]))
    with pytest.raises(DomainError, match="length 3"):
        H.validate_points(np.array([[0, 1]]))
    with pytest.raises(DomainError, match="NaN"):
        H.validate_points(np.array([[0, np.nan, 1]]))
    with pytest.raises(DomainError, match="outside"):
        H.validate_point((0, 1))
    with pytest.raises(LittlestoneError, match="n_vars ≤"):
        Conjunctions(40, 3)
    with pytest.raises(LittlestoneError):
        Conjunctions(0)


def test_conjunction_budget_error_is_clear(monkeypatch):
    from littlestone.classes import conjunctions

    monkeypatch.setattr(conjunctions, "SEARCH_BUDGET", 50)
    rng = np.random.default_rng(0)
    V = Conjunctions(30).version_space()
    for _ in range(40):
        V = V.restrict(tuple(int(v) for v in rng.integers(0, 2, 30)), 0)
    assert V.soa_predict((0,) * 30) == 0  # SOA needs no search before a positive
    with pytest.raises(LittlestoneError, match="budget"):
        V.ldim()


def test_min_free_pattern_matches_brute_force():
    import itertools

    from littlestone.classes.conjunctions import min_free_pattern

    def brute(negs, n):
        Q = np.array(negs)
        for t in range(n + 1):
            for S in itertools.combinations(range(n), t):
                if len({tuple(q[list(S)]) for q in Q}) < 2**t:
                    return t
        return None

    rng = np.random.default_rng(0)
    for _ in range(150):
        n = int(rng.integers(1, 7))
        idx = rng.choice(2**n, size=int(rng.integers(1, 2**n + 1)), replace=False)
        negs = [tuple((int(i) >> j) & 1 for j in range(n)) for i in idx]
        got, expected = min_free_pattern(negs, n), brute(negs, n)
        assert (got is None) == (expected is None)
        if got is not None:
            assert got[0] == expected and got[1] not in set(negs)
