"""Intervals: exact Ldim/SOA from small keys vs explicit twins (n ≤ 24), the weight game vs the Ldim recursion,
and 2^60-point domains."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone.classes import FiniteClass
from littlestone.classes.intervals import IntervalUnion, Intervals, gap_family_ldim
from littlestone.errors import DomainError, LittlestoneError

from littlestone.testing.oracle import intervals_matrix

from littlestone.testing import check_hypothesis_class

SPEC_TABLE = [1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5] + [6] * 6 + [7] * 6  # spec §11.2, n = 1..24


def test_spec_table():
    assert [Intervals(n).ldim() for n in range(1, 25)] == SPEC_TABLE


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 9, 12])
def test_twin_walks(n):
    H, T = Intervals(n), FiniteClass(intervals_matrix(n))
    assert H.ldim() == T.ldim()
    check_hypothesis_class(H, T, points=list(range(n)), seed=n, walks=25, depth=5)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 16), data=st.data())
def test_negative_restrictions_match_twin(n, data):
    """The no-positive version spaces (the hard case): Ldim, SOA vector and split point agree with the twin."""
    negs = data.draw(st.lists(st.integers(0, n - 1), max_size=4))
    H, T = Intervals(n), FiniteClass(intervals_matrix(n))
    V, W = H.version_space(), T.version_space()
    for x in negs:
        V, W = V.restrict(x, 0), W.restrict(x, 0)
    assert V.ldim() == W.ldim() and V.size() == W.size()
    assert np.array_equal(V.soa().predict(np.arange(n)), W.soa().as_array())
    x = V.split_point()
    if W.ldim() >= 1:
        assert min(W.restrict(x, 0).ldim(), W.restrict(x, 1).ldim()) >= W.ldim() - 1


@lru_cache(maxsize=None)
def _weight_game(ws: tuple) -> int:
    """Exhaustive Ldim recursion of {∅} ∪ intervals in gaps of weights ws (every split of every gap)."""
    best = 0
    for j, w in enumerate(ws):
        rest = ws[:j] + ws[j + 1 :]
        for w1 in range(1, w // 2 + 1):
            c = (w1.bit_length() - 1) + ((w - w1).bit_length() - 1)
            if c + 1 <= best:
                continue
            child = tuple(sorted(rest + tuple(p for p in (w1, w - w1) if p >= 2)))
            best = max(best, 1 + min(c, _weight_game(child)))
    return best


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(2, 14), min_size=1, max_size=3))
def test_greedy_gap_game_is_exact(ws):
    assert gap_family_ldim(tuple(sorted(ws, reverse=True))) == _weight_game(tuple(sorted(ws)))


def test_single_gaps_up_to_36():
    for w in range(2, 37):
        assert gap_family_ldim((w,)) == _weight_game((w,))


@pytest.mark.slow
def test_single_gaps_up_to_80_and_pairs_up_to_24():
    for w in range(2, 81):
        assert gap_family_ldim((w,)) == _weight_game((w,))
    for a in range(2, 25):
        for b in range(a, 25):
            assert gap_family_ldim((b, a)) == _weight_game((a, b))


@pytest.mark.slow
@pytest.mark.parametrize("n", range(13, 25))
def test_twin_walks_up_to_24(n):
    H, T = Intervals(n), FiniteClass(intervals_matrix(n))
    assert H.ldim() == T.ldim()
    check_hypothesis_class(H, T, points=list(range(n)), seed=n, walks=40, depth=6)


def test_huge_domain():
    n = 2**60
    H = Intervals(n)
    V = H.version_space()
    d = V.ldim()
    assert d == 118 and d <= math.floor(math.log2(n * (n + 1) // 2 + 1))
    x = V.split_point()
    assert min(V.restrict(x, 0).ldim(), V.restrict(x, 1).ldim()) >= d - 1
    W = V.restrict(2**59, 1).restrict(2**58, 0).restrict(2**59 + 5, 1)
    assert W.ldim() == (2**59 - 2**58).bit_length() - 1 + (n - 2**59 - 5).bit_length() - 1
    s = W.soa()
    assert s(2**59) == 1 and s(2**58) == 0 and W.soa_predict(2**59 + 3) == 1
    assert W.soa_predict(2**58 + 1) == s(2**58 + 1)


def test_restrict_sample_vectorized_matches_loop():
    rng = np.random.default_rng(5)
    for n in (12, 2**60):
        H = Intervals(n)
        for _ in range(150):
            k = int(rng.integers(1, 15))
            c = int(rng.integers(0, n))
            X = np.clip(c + rng.integers(-n // 4 - 1, n // 4 + 1, size=k), 0, n - 1).astype(np.int64)
            y = (np.abs(X - c) < rng.integers(1, n // 3 + 2)).astype(int)
            V, j = H.version_space().restrict_sample(X, y)
            W, i = H.version_space(), 0
            for t in range(k):
                W2 = W.restrict(int(X[t]), int(y[t]))
                if W2.is_empty():
                    break
                W, i = W2, t + 1
            assert (V, j) == (W, i)


def test_hypotheses_and_disagreement():
    H = Intervals(10)
    h1, h2 = H.hypothesis(2, 5), H.hypothesis(3, 7)
    assert H.disagreement(h1, h2) in (2, 6, 7)
    assert H.disagreement(h1, IntervalUnion([(2, 5)])) is None
    assert IntervalUnion([(1, 2), (3, 4)]) == H.hypothesis(1, 4)
    assert H.version_space().contains(H.hypothesis()) and H.version_space().restrict(3, 1).contains(h1)


def test_bad_input():
    with pytest.raises(LittlestoneError):
        Intervals(0)
    with pytest.raises(DomainError, match="outside"):
        Intervals(5).validate_points([1, 5])
    with pytest.raises(DomainError, match="NaN"):
        Intervals(5).validate_points(np.array([1.0, np.nan]))
    with pytest.raises(DomainError, match="integers"):
        Intervals(5).validate_points(np.array([1.5]))


@pytest.mark.slow
def test_greedy_exact_on_all_small_gap_multisets():
    """The claims in classes/intervals.py: pairs ≤ 30, triples ≤ 18, quadruples ≤ 9 (exhaustive recursion)."""
    import itertools

    for size, top in ((2, 30), (3, 18), (4, 9)):
        for ws in itertools.combinations_with_replacement(range(2, top + 1), size):
            assert gap_family_ldim(tuple(sorted(ws, reverse=True))) == _weight_game(tuple(sorted(ws))), ws
