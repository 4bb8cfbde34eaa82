"""Affine subspaces of F_q^n: closed forms vs explicit twins (q=2, n ≤ 3; q=3, n ≤ 2) and on F_2^60."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from littlestone.classes import FiniteClass
from littlestone.classes.affine import AffineFlat, AffineSubspaces
from littlestone.classes.points import FiniteSet
from littlestone.errors import DomainError, LittlestoneError

from littlestone.testing.oracle import affine_matrix

from littlestone.testing import check_hypothesis_class

CASES = [(2, n, d) for n in (1, 2, 3) for d in range(n + 1)] + [(3, n, d) for n in (1, 2) for d in range(n + 1)]


@pytest.mark.parametrize("q,n,d", CASES)
def test_twin(q, n, d):
    H = AffineSubspaces(q, n, d)
    pts = list(itertools.product(range(q), repeat=n))
    T = FiniteClass(affine_matrix(q, n, d), points=pts)
    expected = 1 if (q, n) == (2, 1) and d >= 1 else d + 1  # spec §11.2
    assert H.ldim() == T.ldim() == expected
    check_hypothesis_class(H, T, points=pts, seed=q * 100 + n * 10 + d, walks=12, depth=5)


def test_huge_domain_closed_form():
    H = AffineSubspaces(2, 60, 3)
    V = H.version_space()
    assert V.ldim() == 4 and V.soa() == FiniteSet(())
    rng = np.random.default_rng(0)
    p = tuple(int(a) for a in rng.integers(0, 2, 60))
    x2 = tuple(int(a) for a in rng.integers(0, 2, 60))
    W = V.restrict(tuple(int(a) for a in rng.integers(0, 2, 60)), 0).restrict(p, 1).restrict(x2, 1)
    assert W.ldim() == 2
    hull = W.soa()
    assert isinstance(hull, AffineFlat) and hull(p) == 1 and hull(x2) == 1 and hull.dim == 1
    s = W.split_point()
    assert W.restrict(s, 1).ldim() == 1 and W.restrict(s, 0).ldim() >= 1
    X = H.validate_points(rng.integers(0, 2, size=(6, 60)))
    assert hull.predict(X).tolist() == [hull(tuple(r)) for r in X.tolist()]


def test_flat_canonical():
    H = AffineSubspaces(3, 2, 1)
    assert H.flat((0, 1), [(1, 1)]) == H.flat((2, 0), [(2, 2)])
    assert H.disagreement(H.flat((0, 1), [(1, 1)]), H.flat((0, 1), [(1, 0)])) is not None


def test_bad_input():
    with pytest.raises(LittlestoneError, match="prime"):
        AffineSubspaces(4, 2, 1)
    H = AffineSubspaces(3, 2, 1)
    with pytest.raises(DomainError, match="0..2"):
        H.validate_points(np.array([[0, 3]]))
    with pytest.raises(DomainError, match="NaN"):
        H.validate_points(np.array([[0, np.nan]]))
    with pytest.raises(DomainError, match="outside"):
        H.validate_point((1, 2, 0))
