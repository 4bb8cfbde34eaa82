"""Points and negated points (GGKM21 Appendix B): count-state recursion vs explicit twins, infinite domain."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.classes import FiniteClass
from littlestone.classes.points import CofiniteSet, FiniteSet
from littlestone.classes.points_negations import PointsAndNegations
from littlestone.errors import DomainError, LittlestoneError

from littlestone.testing.oracle import brute_ldim, rows

from littlestone.testing import check_hypothesis_class


def pointsneg_matrix(n: int) -> np.ndarray:
    e = np.eye(n, dtype=int)
    return np.vstack([e, 1 - e])


@pytest.mark.parametrize("n", [1, 3, 4, 5, 7, 10])
def test_twin(n):
    H = PointsAndNegations(range(n))
    T = FiniteClass(pointsneg_matrix(n))
    assert H.ldim() == T.ldim()
    if n <= 7:
        assert T.ldim() == brute_ldim(rows(T))
    check_hypothesis_class(H, T, points=list(range(n)), seed=n, walks=20, depth=5)


def test_infinite_domain_ldim_is_stable_value():
    """Ldim on the infinite domain equals the value reached by large finite domains (no cap artefact)."""
    inf = PointsAndNegations().ldim()
    assert inf == 3
    assert all(FiniteClass(pointsneg_matrix(n)).ldim() == inf for n in (9, 12))


def test_infinite_domain_walk():
    H = PointsAndNegations()
    V = H.version_space()
    assert V.soa() in (FiniteSet(()), CofiniteSet(()))
    W = V.restrict("a", 1).restrict(10**18, 1)  # two positives: only negated points survive
    assert W.ldim() == 1 and W.soa() == CofiniteSet(())  # the all-one function
    U = V.restrict("a", 1)
    x = U.split_point()
    assert min(U.restrict(x, 0).ldim(), U.restrict(x, 1).ldim()) >= U.ldim() - 1
    assert V.restrict("a", 1).restrict("a", 0).is_empty()


def test_bad_input():
    with pytest.raises(LittlestoneError, match="2 points"):
        PointsAndNegations(range(2))
    with pytest.raises(DomainError, match="NaN"):
        PointsAndNegations().validate_point(float("nan"))
    with pytest.raises(DomainError, match="outside"):
        PointsAndNegations(range(3)).validate_points([0, 7])
