"""VC dimension, dual dimensions and the threshold dimension: known values and the Shelah/Hodges inequalities."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone import FiniteClass
from littlestone.dimensions import dual_class, dual_ldim, dual_vc_dim, is_vc_shattered, ldim, threshold_dim, vc_dim

from littlestone.testing import oracle as O


@pytest.mark.parametrize(
    "M,expected",
    [
        (O.thresholds_matrix(20), 1),
        (O.points_matrix(6, with_zero=False), 1),
        (O.points_matrix(6, with_zero=True), 1),
        (O.intervals_matrix(10), 2),
        (O.allfunctions_matrix(5), 5),
        (O.conjunctions_matrix(3, monotone=True), 3),
        (np.zeros((1, 4), np.uint8), 0),
    ],
)
def test_known_vc_dimensions(M, expected):
    d, S = vc_dim(FiniteClass(M), witness=True)
    assert d == expected == O.brute_vc(O.rows(M))
    assert len(S) == d and is_vc_shattered(FiniteClass(M), S)


def test_vc_witness_uses_domain_labels():
    H = FiniteClass(O.allfunctions_matrix(2), points=["a", "b"])
    assert vc_dim(H, witness=True) == (2, ["a", "b"])
    assert not is_vc_shattered(H, ["a", "a"])


@pytest.mark.parametrize("n", [1, 2, 5, 16, 64])
def test_threshold_dim_of_thresholds(n):
    k, (xs, hs) = threshold_dim(FiniteClass(O.thresholds_matrix(n)), witness=True)
    assert k == n
    assert all(hs[i](xs[j]) == int(j >= i) for i in range(k) for j in range(k))


def test_threshold_dim_known_values():
    assert threshold_dim(FiniteClass(O.points_matrix(6, with_zero=False))) == 1
    assert threshold_dim(FiniteClass(O.allfunctions_matrix(4))) == 4
    assert threshold_dim(FiniteClass(np.zeros((1, 3), np.uint8))) == 0


def test_dual_of_thresholds():
    H = FiniteClass(O.thresholds_matrix(7))  # 8 functions on 7 points
    D = dual_class(H)
    assert D.n_hypotheses == 7 and D.n_points == 8
    assert dual_ldim(H) == 2 and dual_vc_dim(H) == 1  # the dual of a chain is a chain (7 functions)


def test_dual_of_all_functions():
    H = FiniteClass(O.allfunctions_matrix(3))  # dual: 3 functions on 8 points, all distinct coordinates
    assert dual_vc_dim(H) == 1 and dual_ldim(H) == 1


@st.composite
def small_classes(draw):
    rows, cols = draw(st.integers(1, 20)), draw(st.integers(1, 7))
    seed = draw(st.integers(0, 2**32 - 1))
    p = draw(st.sampled_from([0.2, 0.5, 0.8]))
    return (np.random.default_rng(seed).random((rows, cols)) < p).astype(np.uint8)


def _floor_log2(k: int) -> int:
    return k.bit_length() - 1 if k > 0 else -1


@settings(max_examples=120, deadline=None)
@given(small_classes())
def test_shelah_hodges_inequalities(M):
    H = FiniteClass(M)
    L, T = ldim(H), threshold_dim(H)
    if T >= 1:
        assert L >= _floor_log2(T)
    if L >= 1:
        assert T >= _floor_log2(L)


@settings(max_examples=80, deadline=None)
@given(small_classes())
def test_threshold_witness_and_vc_oracle(M):
    H = FiniteClass(M)
    k, (xs, hs) = threshold_dim(H, witness=True)
    assert len(xs) == len(hs) == k
    assert all(hs[i](xs[j]) == int(j >= i) for i in range(k) for j in range(k))
    assert vc_dim(H) == O.brute_vc(O.rows(H.matrix))


@settings(max_examples=60, deadline=None)
@given(small_classes())
def test_dual_dimensions_and_assouad(M):
    H = FiniteClass(M)
    D = dual_class(H)
    assert dual_ldim(H) == ldim(D) and dual_vc_dim(H) == vc_dim(D)
    assert dual_vc_dim(H) < 2 ** (vc_dim(H) + 1)  # Assouad
    # the dual of the dual is H with duplicate points merged (same dimensions)
    assert ldim(dual_class(D)) == ldim(H) and vc_dim(dual_class(D)) == vc_dim(H)


def test_search_budgets_give_clear_errors():
    from littlestone.errors import LittlestoneError

    M = (np.random.default_rng(0).random((256, 20)) < 0.5).astype(np.uint8)
    with pytest.raises(LittlestoneError, match="max_states=None"):
        threshold_dim(FiniteClass(M), max_states=50)
    with pytest.raises(LittlestoneError, match="max_nodes=None"):
        vc_dim(FiniteClass(M), max_nodes=20)
    assert vc_dim(FiniteClass(M), max_nodes=None) == 6


def test_spec_strings_and_bad_inputs_give_clear_errors():
    import littlestone as ls
    from littlestone import Thresholds
    from littlestone.errors import ClassSpecError, LittlestoneError

    assert ls.ldim("thresholds:1000") == 9 and ls.vc_dim("intervals:2^60") == 2
    assert ls.dual_ldim("allfunctions:16") == 4 and ls.threshold_dim("thresholds:7") == 7
    with pytest.raises(ClassSpecError, match="unknown class"):
        ls.ldim("bogus:3")
    with pytest.raises(LittlestoneError, match="different lengths"):
        FiniteClass([[0, 1], [1]])
    with pytest.raises(LittlestoneError, match="needs a mistake tree"):
        ls.is_shattered(None, Thresholds(4))
    with pytest.raises(LittlestoneError, match="class spec"):
        ls.ldim(3.5)
