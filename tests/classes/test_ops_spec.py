"""ops (to_finite, restrict_to_points, union, dual, random_class) and parse_class_spec."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from littlestone.classes import (
    FiniteClass,
    Points,
    Thresholds,
    dual,
    parse_class_spec,
    random_class,
    restrict_to_points,
    to_finite,
    union,
)
from littlestone.errors import ClassSpecError, LittlestoneError

from littlestone.testing.oracle import brute_ldim, rows


def test_to_finite_thresholds():
    F = to_finite(Thresholds(7))
    assert F.n_hypotheses == 8 and F.ldim() == 3


def test_restrict_to_points_of_infinite_class():
    F = restrict_to_points(Points(), ["a", "b", 10**18])
    assert F.n_hypotheses == 4 and F.ldim() == 1
    assert F.domain_points() == ["a", "b", 10**18]


def test_union_and_dual():
    U = union(Points(range(4)), Thresholds(4))
    assert U.n_hypotheses == 5 + 5 - 2  # the zero function and 1[x ≥ 3] = 1[x = 3] are in both
    assert U.ldim() == brute_ldim(rows(U))
    D = dual(to_finite(Thresholds(5)))
    assert D.n_points == 6 and D.ldim() == brute_ldim(rows(D))
    with pytest.raises(LittlestoneError, match="same domain"):
        union(Points(range(3)), Thresholds(4))


def test_random_class_seeded():
    a, b = random_class(40, 8, seed=3), random_class(40, 8, seed=3)
    assert np.array_equal(a.matrix, b.matrix)
    assert not np.array_equal(a.matrix, random_class(40, 8, seed=4).matrix)
    assert a.ldim() == brute_ldim(rows(a))
    with pytest.raises(LittlestoneError):
        random_class(0, 3)


@pytest.mark.parametrize(
    "spec,ldim",
    [
        ("thresholds:7", 3),
        ("points", 1),
        ("points:5", 1),
        ("allfunctions:3", 3),
        ("thresholds:2^60", 60),
    ],
)
def test_specs(spec, ldim):
    assert parse_class_spec(spec).ldim() == ldim


def test_random_spec_matches_random_class():
    assert np.array_equal(parse_class_spec("random:256x20:7").matrix, random_class(256, 20, seed=7).matrix)


def test_csv(tmp_path):
    p = tmp_path / "h.csv"
    p.write_text("a,b,c\n0,0,1\n0,1,1\n1,1,1\n")
    F = parse_class_spec(str(p))
    assert isinstance(F, FiniteClass) and F.domain_points() == ["a", "b", "c"] and F.ldim() == 1
    q = tmp_path / "plain.csv"
    q.write_text("0,1\n1,0\n")
    assert parse_class_spec(str(q)).n_hypotheses == 2
    bad = tmp_path / "bad.csv"
    bad.write_text("0,1\n1,2\n")
    with pytest.raises(ClassSpecError, match="not 0 or 1"):
        parse_class_spec(str(bad))
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("0,1\n1\n")
    with pytest.raises(ClassSpecError, match="entries"):
        parse_class_spec(str(ragged))


@pytest.mark.parametrize(
    "spec,msg",
    [
        ("", "empty"),
        ("foo:3", "unknown class 'foo'"),
        ("thresholds", "missing N"),
        ("thresholds:x", "integer"),
        ("thresholds:0", "must be a positive integer, got 0"),
        ("random:3", "HxP"),
        ("missing.csv", "does not exist"),
        ("pointsneg:3", "no parameters"),
        ("thresholds:3,4", "expected 1"),
    ],
)
def test_bad_specs(spec, msg):
    with pytest.raises(ClassSpecError, match=msg) as e:
        parse_class_spec(spec)
    assert "accepted forms" in str(e.value) or "does not exist" in str(e.value)


def test_to_finite_of_structured_classes_matches_twins():

    from littlestone.classes import AffineSubspaces, AllFunctions, Conjunctions, Intervals, PointsAndNegations

    from littlestone.testing.oracle import affine_matrix, allfunctions_matrix, conjunctions_matrix, intervals_matrix

    pairs = [
        (Intervals(6), intervals_matrix(6)),
        (AllFunctions(3), allfunctions_matrix(3)),
        (Conjunctions(3), conjunctions_matrix(3)),
        (Conjunctions(3, monotone=True), conjunctions_matrix(3, monotone=True)),
        (AffineSubspaces(3, 2, 1), affine_matrix(3, 2, 1)),
        (PointsAndNegations(range(4)), np.vstack([np.eye(4, dtype=int), 1 - np.eye(4, dtype=int)])),
    ]
    for H, M in pairs:
        assert rows(to_finite(H)) == frozenset(tuple(int(v) for v in r) for r in M), H.name


def test_disagreement_is_lazy_and_complete():
    from littlestone.classes import AffineSubspaces, Conjunctions, patch

    C = Conjunctions(40)
    h1, h2 = C.hypothesis([(0, 1)]), C.hypothesis([(0, 1), (1, 1)])
    x = C.disagreement(h1, h2)
    assert h1(x) != h2(x)
    # patch the first few disagreements away: the search keeps going
    pts = list(itertools.islice(C.base_disagreements(h1, h2), 3))
    g = patch(h1, [(p, h2(p)) for p in pts])
    y = C.disagreement(g, h2)
    assert y is not None and y not in pts and g(y) != h2(y)
    A = AffineSubspaces(2, 30, 2)
    f1, f2 = A.flat((0,) * 30, [(1,) + (0,) * 29]), A.flat((0,) * 30, [(0, 1) + (0,) * 28])
    z = A.disagreement(f1, f2)
    assert f1(z) != f2(z)


@pytest.mark.parametrize(
    "spec",
    [
        "points",
        "points:6",
        "intervals:2^60",
        "allfunctions:9",
        "conjunctions:7",
        "conjunctions:4,2",
        "monotone-conjunctions:5",
        "affine:3,2,1",
        "pointsneg",
    ],
)
def test_spec_round_trip(spec):
    H = parse_class_spec(spec)
    again = parse_class_spec(H.spec)
    assert type(again) is type(H) and again.spec == H.spec and again.name == H.name
