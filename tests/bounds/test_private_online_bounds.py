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


def test_lwy25_union_requirement_uses_ln_6d_over_beta():
    """issue 21 item 3: App. B's union bound over d layers gives ln(6d/β); the paper's simplified form says ln(6/β)."""
    d, beta = 2, 0.1
    b = lwy25.theorem_3_1(d, 10**6, 1.0, 1e-6, beta)
    p24 = Fraction(2 ** (24 * 2**d + d))
    union = dict((n, v) for n, v, _ in b.requirements)["union"]
    derived = 4 * p24 * d * Fraction(math.log(2 ** (24 * 2**d + d)) + math.log(2 * d)) + 2 * p24 * Fraction(
        d * math.log(7) + math.log(6 * d / beta)
    )
    typo = derived - 2 * p24 * Fraction(math.log(6 * d / beta) - math.log(6 / beta))
    assert union == -((-derived.numerator) // derived.denominator)
    assert float(union / typo) == pytest.approx(1.0024, abs=5e-4)  # the paper's form: 0.24 % too small at d = 2


def test_gl21_k2_in_the_docs_is_the_calculators():
    """issue 21 item 3: docs/private_online.md quotes k₂ at d = 1, T = 10⁶ as the CLI prints it."""
    from pathlib import Path

    k2 = gl21.theorem_4_1(1, 10**6, 1.0, 1e-6, 0.1).k2
    mant, exp = f"{k2:.1e}".split("e")
    sup = str(int(exp)).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    doc = (Path(__file__).resolve().parents[2] / "docs" / "private_online.md").read_text()
    assert f"k₂ ≈ {mant}·10{sup} trees" in doc


def test_gl21_adaptive_round_budget_and_min_horizon():
    er, dr = gl21.adaptive_round_budget(1.0, 1e-6, 1000)
    assert er == pytest.approx(1.0 / (2 * math.sqrt(2 * 1000 * math.log(1e6)))) and dr == 1e-6 / 2000
    er, _ = gl21.adaptive_round_budget(8.0, 0.2, 100)  # GL21's ε′ would compose to ≈ 22 here
    assert er < 8.0 / (2 * math.sqrt(2 * 100 * math.log(5)))
    T = gl21.adaptive_min_horizon(1.0, 1e-6)
    assert T == 345_480
    from littlestone.privacy.stable_histogram import stable_histogram_threshold

    assert T >= stable_histogram_threshold(*gl21.adaptive_round_budget(1.0, 1e-6, T))
    assert T - 1 < stable_histogram_threshold(*gl21.adaptive_round_budget(1.0, 1e-6, T - 1))
