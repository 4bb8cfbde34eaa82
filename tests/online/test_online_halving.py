"""Halving: majority vote, ties → 0, ≤ ⌊log2 |H|⌋ mistakes on realizable sequences, finite classes only."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone import FiniteClass, Thresholds
from littlestone.classes import Threshold
from littlestone.classes.thresholds import ThresholdsVersionSpace
from littlestone.errors import LittlestoneError, NotRealizableError
from littlestone.online import SOA, FixedSequence, Halving, IIDRealizable, TreeAdversary, play


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(1, 8), st.integers(1, 60))
def test_halving_at_most_log2_size_mistakes(seed, m, n, T):
    rng = np.random.default_rng(seed)
    F = FiniteClass(rng.integers(0, 2, (m, n)))
    target = int(rng.integers(F.n_hypotheses))
    X = rng.integers(0, n, T)
    y = F.matrix[target, X]
    halving = Halving(F)
    assert halving.log2_size_bound() == math.floor(math.log2(F.n_hypotheses))
    for x, lab in zip(X.tolist(), y.tolist()):
        V = halving.version_space
        ones, zeros = V.restrict(x, 1).size(), V.restrict(x, 0).size()
        assert halving.predict_one(x) == int(ones > zeros)  # majority, ties → 0
        halving.learn_one(x, lab)
    assert halving.mistakes <= math.floor(math.log2(F.n_hypotheses))
    assert halving.version_space.contains(F.hypothesis(target))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 32), st.integers(1, 7))
def test_halving_vs_tree_adversary_between_ldim_and_log2_size(seed, m, n):
    F = FiniteClass(np.random.default_rng(seed).integers(0, 2, (m, n)))
    d = F.ldim()
    res = play(Halving(F), TreeAdversary(F), d + 8)
    assert res.mistakes == d  # forced d times, consistent afterwards
    greedy = play(Halving(F), TreeAdversary(F, greedy=True), 3 * n + 8)
    assert d <= greedy.mistakes <= math.floor(math.log2(F.n_hypotheses))


def test_halving_thresholds_2_pow_60_is_binary_search():
    H = Thresholds(2**60)
    adv = IIDRealizable(H, Threshold(123_456_789_012), lambda r: int(r.integers(0, 2**60)), seed=5)
    res = play(Halving(H), adv, 500)
    assert res.mistakes <= 60
    assert play(Halving(H), TreeAdversary(H), 80).mistakes == 60


def test_halving_tie_goes_to_zero():
    F = FiniteClass([[0, 1], [1, 0]])
    assert Halving(F).predict_one(0) == 0 and Halving(F).predict_one(1) == 0
    G = FiniteClass([[0, 1], [1, 0], [1, 1]])
    assert Halving(G).predict_one(0) == 1


def test_halving_rejects_unrealizable_example():
    h = Halving(Thresholds(10))
    h.learn_one(3, 1)
    with pytest.raises(NotRealizableError, match="realizable"):
        h.learn_one(3, 0)
    assert h.n_learned == 1


class _InfiniteVersionSpace(ThresholdsVersionSpace):
    def size(self):
        return math.inf if self.lo <= self.hi else 0


class _InfiniteThresholds(Thresholds):
    def version_space(self):
        return _InfiniteVersionSpace(self, 0, self.n)


def test_halving_needs_a_finite_class_but_soa_does_not():
    H = _InfiniteThresholds(16)
    with pytest.raises(LittlestoneError, match="finite"):
        Halving(H)
    assert play(SOA(H), FixedSequence([3, 9, 5], [0, 1, 1])).T == 3
