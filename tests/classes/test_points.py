"""Points over any hashable domain (closed form, Ldim 1) against explicit twins; huge ints and strings."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone.classes import FiniteClass, FiniteSet, Points
from littlestone.errors import DomainError, EmptyDataError

from littlestone.testing.oracle import brute_ldim, points_matrix, rows
from littlestone.testing import check_hypothesis_class


@pytest.mark.parametrize("n", [1, 2, 3, 6])
@pytest.mark.parametrize("with_zero", [True, False])
def test_known_dimension_and_twin(n, with_zero):
    H = Points(range(n), include_zero=with_zero)
    M = points_matrix(n, with_zero)
    twin = FiniteClass(M)
    assert H.ldim() == twin.ldim() == brute_ldim(rows(twin))
    assert H.ldim() == (0 if n == 1 and not with_zero else 1)
    check_hypothesis_class(H, twin, points=list(range(n)), seed=n, walks=15, depth=n + 1)


def test_infinite_domain_ldim_one_and_soa_zero():
    P = Points()
    V = P.version_space()
    assert V.ldim() == 1 and V.size() == math.inf
    assert V.soa() == FiniteSet(())
    x = V.split_point()
    assert V.restrict(x, 0).ldim() == 1 and V.restrict(x, 1).ldim() == 0


def test_large_ints_and_strings():
    P = Points()
    big = 2**62 + 12345
    V = P.version_space().restrict(big, 0).restrict("pear", 0)
    assert V.ldim() == 1
    W = V.restrict(big + 1, 1)
    assert W.ldim() == 0 and W.soa() == FiniteSet([big + 1]) and W.soa_predict(big + 1) == 1
    assert V.restrict(big, 1).is_empty()
    S = P.version_space().restrict("apple", 1)
    assert S.soa().predict(["apple", "pear", "apple"]).tolist() == [1, 0, 1]
    # same function computed twice compares equal
    assert P.version_space().restrict(7, 1).soa() == P.hypothesis(7)


def test_restrict_sample_vectorized_matches_loop():
    P = Points()
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 12))
        X = rng.integers(0, 2**60, size=n) if rng.random() < 0.3 else rng.integers(0, 4, size=n)
        y = (rng.random(n) < 0.3).astype(int)
        V, k = P.version_space().restrict_sample(X, y)
        W, j = P.version_space(), 0
        for i in range(n):
            W2 = W.restrict(int(X[i]), int(y[i]))
            if W2.is_empty():
                break
            W, j = W2, i + 1
        assert (k, V) == (j, W)


def test_bad_input():
    P = Points()
    with pytest.raises(DomainError, match="NaN"):
        P.validate_point(float("nan"))
    with pytest.raises(DomainError, match="outside"):
        P.validate_point([[1], [2]]) if False else P.validate_point({1: 2})
    with pytest.raises(DomainError, match="outside"):
        Points(range(3)).validate_points([0, 5])
    with pytest.raises(EmptyDataError):
        Points([])
    with pytest.raises(DomainError, match="NaN"):
        P.validate_points(np.array([1.0, np.nan]))


def test_predicate_domain():
    P = Points(lambda x: isinstance(x, int) and x % 2 == 0)
    assert P.validate_point(4) == 4
    with pytest.raises(DomainError, match="outside"):
        P.validate_point(3)
    V = P.version_space().restrict(0, 0)
    x = V.split_point()
    assert x % 2 == 0 and x != 0 and V.ldim() == 1
