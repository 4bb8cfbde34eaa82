"""LWY25 Thm 3.1 and GL21 parameter calculators: the constants of the proofs."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from littlestone.bounds import gl21, lwy25
from littlestone.errors import LittlestoneError


def test_lwy25_n0_d1_by_hand():
    b = lwy25.theorem_3_1(1, 10**6, 1.0, 1e-6, 0.1)
    p24 = 2**49
    union = 4 * p24 * 1 * (math.log(p24) + math.log(2)) + 2 * p24 * (math.log(7) + math.log(60))
    assert b.N0 == pytest.approx(union, rel=1e-12) and b.N0 % 4 == 0
    assert b.N0 >= dict((n, v) for n, v, _ in b.requirements)["hist"]


@pytest.mark.parametrize("d", [1, 2, 3])
def test_lwy25_m_recurrence(d):
    """App. B: M_s²/(512 N_{s+1}) = M_{s+1} exactly, and M_d ≥ 4 ln(3T/β), M_s/4 ≥ the histogram error."""
    T, beta, delta, eps = 10**5, 0.05, 1e-8, 0.5
    b = lwy25.theorem_3_1(d, T, eps, delta, beta)
    for s in range(d):
        assert b.M[s] ** 2 / (512 * Fraction(b.N0 >> (s + 1))) == b.M[s + 1]
    assert b.M[d] >= 4 * math.log(3 * T / beta)
    assert b.M[d] / 4 >= 8 * d * math.log(8 * d / delta) / (eps / 2)


def test_lwy25_bound_and_smallest_T():
    b1 = lwy25.theorem_3_1(1, 10**6, 1.0, 1e-6, 0.1)
    b2 = lwy25.theorem_3_1(1, 10**9, 1.0, 1e-6, 0.1)
    assert b2.mistake_bound > b1.mistake_bound
    T = lwy25.smallest_useful_T(1, 1.0, 1e-6, 0.1)
    assert lwy25.theorem_3_1(1, T, 1.0, 1e-6, 0.1).mistake_bound < T
    assert lwy25.theorem_3_1(1, T - 1, 1.0, 1e-6, 0.1).mistake_bound >= T - 1
    with pytest.raises(LittlestoneError):
        lwy25.theorem_3_1(-1, 10, 1.0, 1e-6, 0.1)
    with pytest.raises(ValueError):
        lwy25.theorem_3_1(1, 10, 1.0, 1e-6, 1.5)


def test_gl21_parameters():
    b = gl21.theorem_4_1(1, 10**6, 1.0, 1e-6, 0.1)
    assert b.k1 == 4 and b.eta == 2.0**-16 / 16 and b.c == 4 * 4 / b.eta
    assert b.k2 >= 512 * b.c * (math.log(10**6) + math.log(2 * b.c / 0.1)) / (b.eta * 1.0)
    a = gl21.theorem_4_1(1, 10**6, 1.0, 1e-6, 0.1, adaptive=True)
    assert a.eps_round == pytest.approx(1 / (2 * math.sqrt(2 * 10**6 * math.log(1e6))))
