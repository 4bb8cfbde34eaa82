"""Known Littlestone dimensions of explicit and structured classes, checked against a brute-force oracle."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import FiniteClass, Thresholds
from littlestone.dimensions import is_shattered, ldim, naive_ldim

from littlestone.testing import oracle as O

SPEC_INTERVALS = [1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5]  # n = 1..12, with the empty set


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 15, 16, 33, 100])
def test_thresholds_all_n_plus_1_functions(n):
    assert ldim(FiniteClass(O.thresholds_matrix(n))) == (n + 1).bit_length() - 1


@pytest.mark.parametrize("n", [1, 2, 5, 8, 16, 31])
def test_thresholds_without_the_all_zero_function(n):
    assert ldim(FiniteClass(O.thresholds_matrix(n, include_all_zero=False))) == n.bit_length() - 1


@pytest.mark.parametrize("n", [2, 3, 7])
@pytest.mark.parametrize("with_zero", [False, True])
def test_points(n, with_zero):
    assert ldim(FiniteClass(O.points_matrix(n, with_zero))) == 1


def test_single_point_without_zero_has_ldim_0():
    assert ldim(FiniteClass(O.points_matrix(1, with_zero=False))) == 0


@pytest.mark.parametrize("n", range(1, 13))
def test_intervals_match_the_spec_table(n):
    assert ldim(FiniteClass(O.intervals_matrix(n))) == SPEC_INTERVALS[n - 1]


def test_intervals_beyond_the_table():
    assert ldim(FiniteClass(O.intervals_matrix(13))) == 6
    assert ldim(FiniteClass(O.intervals_matrix(19))) == 7
    assert ldim(FiniteClass(O.intervals_matrix(2, with_empty=False))) == 1


@pytest.mark.parametrize("d", range(1, 7))
def test_all_functions(d):
    assert ldim(FiniteClass(O.allfunctions_matrix(d))) == d


@pytest.mark.parametrize("nv", range(1, 5))
def test_monotone_conjunctions(nv):
    assert ldim(FiniteClass(O.conjunctions_matrix(nv, monotone=True))) == nv


@pytest.mark.parametrize("nv,k,expected", [(3, 1, 2), (4, 1, 2), (4, 2, 3), (3, 2, 2)])
def test_monotone_conjunctions_with_few_literals(nv, k, expected):
    assert ldim(FiniteClass(O.conjunctions_matrix(nv, k, monotone=True))) == expected


@pytest.mark.parametrize("nv", range(1, 4))
def test_conjunctions_of_literals(nv):
    assert ldim(FiniteClass(O.conjunctions_matrix(nv))) == nv + 1


@pytest.mark.parametrize(
    "make",
    [
        lambda: O.intervals_matrix(9),
        lambda: O.conjunctions_matrix(3, monotone=True),
        lambda: O.conjunctions_matrix(2),
        lambda: O.thresholds_matrix(12),
    ],
)
def test_agrees_with_the_reference_oracle_and_the_naive_recursion(make):
    M = make()
    assert ldim(FiniteClass(M)) == O.brute_ldim(O.rows(M)) == naive_ldim(M)


def test_conventions_empty_and_singleton():
    H = FiniteClass(O.thresholds_matrix(4))
    assert ldim(H.version_space_of([])) == -1
    assert ldim(H.version_space_of([2])) == 0
    assert ldim(H, witness=True)[0] == 2
    assert ldim(H.version_space_of([]), witness=True) == (-1, None)


def test_version_spaces_of_a_finite_class():
    H = FiniteClass(O.thresholds_matrix(15))
    V = H.version_space().restrict(7, 1)  # thresholds t ≤ 7: 8 functions
    assert ldim(V) == 3 == V.ldim()


def test_matrix_input_is_accepted():
    assert ldim(np.eye(5, dtype=int)) == 1
    assert ldim([[0, 1], [1, 0], [1, 1], [0, 0]]) == 2


def test_structured_thresholds_huge_domain():
    assert ldim(Thresholds(2**60)) == 60
    assert ldim(Thresholds(1000)) == 9


def test_random_4096x32_finishes_and_is_within_bounds():
    M = np.random.default_rng(2).integers(0, 2, (4096, 32))
    H = FiniteClass(M)
    d, tree = ldim(H, witness=True)
    assert 1 <= d <= 12
    assert tree.depth == d and is_shattered(tree, H)


def test_thresholds_on_1024_points_as_explicit_class():
    H = FiniteClass(O.thresholds_matrix(1024))
    assert ldim(H) == 10
