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


# ------------------------------------------------------------------------------ realizability and the flat search


@pytest.mark.parametrize("q,n,d", [(2, 1, 0), (2, 2, 1), (2, 3, 2), (3, 2, 1), (3, 2, 2)])
def test_all_points_negative_is_empty_like_the_twin(q, n, d):
    """Every domain point labelled 0: no flat (never empty) is consistent, so V is empty — and the extended SOA
    switches to patches at the last example (BLM20 Definition 8)."""
    from littlestone.online.extended_soa import extended_soa

    H = AffineSubspaces(q, n, d)
    pts = list(itertools.product(range(q), repeat=n))
    T = FiniteClass(affine_matrix(q, n, d), points=pts)
    V, W = H.version_space(), T.version_space()
    for i, x in enumerate(pts):
        V, W = V.restrict(x, 0), W.restrict(x, 0)
        assert V.is_empty() == W.is_empty() == (i == len(pts) - 1)
        assert V.ldim() == W.ldim()
    X = H.validate_points(pts)
    y = np.zeros(len(pts), dtype=np.int8)
    Vk, k = H.version_space().restrict_sample(X, y)
    assert k == len(pts) - 1 and not Vk.is_empty()
    h = extended_soa(H.version_space(), X, y)
    assert h.predict(X).tolist() == [0] * len(pts)


def test_issue_example_hyperplane_of_negatives():
    """AffineSubspaces(2, 7, 6) with every point x0 = 1 negative: the hyperplane x0 = 0 avoids them, so the Ldim is
    7 (a randomized search alone misses it: 6 random directions all with x0 = 0 has probability 2^-6 per try)."""
    from littlestone.classes import affine

    H = AffineSubspaces(2, 7, 6)
    V = H.version_space()
    for x in itertools.product(range(2), repeat=7):
        if x[0] == 1:
            V = V.restrict(x, 0)
    assert V.ldim() == 7
    star = V.room()
    assert star.dim == 6 and all(star(x) == 0 for x in itertools.product(range(2), repeat=7) if x[0] == 1)
    exact = affine._exact_room(H, V.state)  # the exhaustive part alone finds one too
    assert exact is not None and exact.dim == 6 and not any(exact(z) for z in V.state[-1])


@pytest.mark.parametrize("q,n,d", [(2, 3, 1), (2, 3, 2), (3, 2, 1), (2, 4, 2)])
def test_exhaustive_search_agrees_with_enumeration(q, n, d, monkeypatch):
    """With the randomized search disabled, room() finds a flat exactly when one of dimension d' contains the hull
    and avoids the negatives (checked by enumerating every flat), and the Ldim matches the explicit twin."""
    from littlestone.classes import affine

    monkeypatch.setattr(affine.AffineVersionSpace, "_random_room", lambda self: None)
    H = AffineSubspaces(q, n, d)
    pts = list(itertools.product(range(q), repeat=n))
    T = FiniteClass(affine_matrix(q, n, d), points=pts)
    dprime = min(d, n)
    flats = [h for h in H.all_flats() if h.dim == dprime]
    rng = np.random.default_rng(q * 100 + n * 10 + d)
    for _ in range(25):
        V, W = H.version_space(), T.version_space()
        for _ in range(int(rng.integers(1, len(pts)))):
            x = pts[int(rng.integers(len(pts)))]
            y = int(rng.random() < 0.2)
            V2, W2 = V.restrict(x, y), W.restrict(x, y)
            if W2.is_empty():
                assert V2.is_empty()
                continue
            V, W = V2, W2
        assert V.ldim() == W.ldim()
        if V.is_empty():
            continue
        s = V.state
        negs = list(s[-1])
        ok = [
            f
            for f in flats
            if not any(f(z) for z in negs)
            and (s[0] == "pre" or (f(s[1]) and all(f(tuple((a + b) % q for a, b in zip(s[1], v))) for v in s[2])))
        ]
        star = V.room()
        assert (star is not None) == bool(ok)
        if star is not None:
            assert star.dim == dprime and not any(star(z) for z in negs)


def test_search_too_large_gives_up_with_a_labelled_error(monkeypatch):
    """When the exhaustive search cannot run, the error says it gave up — never that no flat exists."""
    from littlestone.classes import affine

    monkeypatch.setattr(affine, "EXACT_ROOM_MAX_POINTS", 64)
    H = AffineSubspaces(2, 7, 6)
    V = H.version_space()
    for x in itertools.product(range(2), repeat=7):
        if x[0] == 1:
            V = V.restrict(x, 0)
    with pytest.raises(affine.FlatSearchGaveUp, match="gave up.*does not mean that no such flat exists"):
        V.ldim()
