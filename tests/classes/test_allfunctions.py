"""AllFunctions(m): Ldim m, partial-assignment version spaces, against explicit twins and on m = 2^60."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.classes import AllFunctions, FiniteClass, FiniteSet
from littlestone.errors import DomainError, LittlestoneError

from littlestone.testing.oracle import allfunctions_matrix, brute_ldim, rows
from littlestone.testing import check_hypothesis_class


@pytest.mark.parametrize("m", [1, 2, 3, 4])
def test_twin(m):
    H = AllFunctions(m)
    twin = FiniteClass(allfunctions_matrix(m))
    assert H.ldim() == m == twin.ldim() == brute_ldim(rows(twin))
    check_hypothesis_class(H, twin, points=list(range(m)), seed=m, walks=10, depth=m + 1)


def test_huge_domain():
    H = AllFunctions(2**60)
    V = H.version_space().restrict(2**59, 1).restrict(3, 0)
    assert V.ldim() == 2**60 - 2
    assert V.soa() == FiniteSet([2**59])
    assert V.restrict(3, 1).is_empty()
    assert V.split_point() not in (3, 2**59)


def test_bad_input():
    with pytest.raises(LittlestoneError):
        AllFunctions(0)
    with pytest.raises(DomainError, match="outside"):
        AllFunctions(4).validate_points(np.array([0, 4]))
    with pytest.raises(DomainError, match="NaN"):
        AllFunctions(4).validate_points(np.array([0.0, np.nan]))
