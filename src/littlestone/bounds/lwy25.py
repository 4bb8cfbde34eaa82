"""LWY25's realizable private online learner (Alg. 2, Thm 3.1): the theorem's parameters with every constant written
out (App. B, proofs of Lemmas B.2 and B.3).

Notation: d = Ldim(H), ε₀ = ε/2, N_s = N₀/2^s, M_s = 128·2^{−6·2^s}·N_s, α_AT = 8(ln T + ln(6T/β))/ε₀ (the
AboveThreshold margin of Alg. 2 lines 4, 23). N₀ must satisfy (proof of Lemma B.3):

  (hist)     N₀ ≥ d·2^{6·2^d+d}·ln(8d/δ)/ε₀           so the histogram error 8d ln(8d/δ)/ε₀ ≤ M_s/4 (event E₂);
  (r₁)       N₀ ≥ 2^{6·2^d+d}                          so r₁ = M_s/8 ≤ M_s/4 − 6 (Lemma B.1);
  (coupon)   M_d ≥ 4 ln(3T/β), i.e. N₀ ≥ 2^{6·2^d+d}·ln(3T/β)/32   (Lemma A.14 with k = M_s, event E₃);
  (union)    N₀ ≥ 4·2^{24·2^d+d}·d·ln(2^{24·2^d+d}·2d) + 2·2^{24·2^d+d}(d ln 7 + ln(6d/β))  (event E₄, Lemma A.6);
             the union bound over the d layers asks 2exp(−N₀/2^{24·2^d+d} + d ln(7N₀)) ≤ β/(3d), i.e.
             N₀ ≥ 2^{24·2^d+d}(d ln 7 + d ln N₀ + ln(6d/β)) (App. B, as derived there); the paper's simplified form
             writes ln(6/β) — a typo that drops the factor d (N₀ 0.24 % small at d = 2); we use ln(6d/β).
  (pairs)    N₀ a multiple of 2^{d+1}, so every layer s ≤ d has an even number N_s of sequences.

Mistake bound (Lemma B.3, w.p. ≥ 1 − β): Σ_{s=0}^{d} (N_s + 2α_AT + 1)·|L_s|max with |L_s| ≤ N_s/M_s = 2^{6·2^s}/128
for s ≥ 1 and |L_0| = 1. (The paper writes |L_0| ≤ 1 ≤ 2^{6}/128, but 2^6/128 = 1/2; we use max(1, ·).)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from .._search import least_true
from ..errors import LittlestoneError
from ..privacy.params import check_delta, check_epsilon, check_probability


def _check(d: int, T: int, epsilon: float, delta: float, beta: float) -> tuple[int, int, float, float, float]:
    if isinstance(d, bool) or not isinstance(d, int) or d < 0:
        raise LittlestoneError(f"the Littlestone dimension d must be an integer ≥ 0, got {d!r}")
    if d > 8:
        raise LittlestoneError(f"d={d}: 2^(24·2^d) has more than 10^1800 digits; the calculator stops at d = 8")
    if isinstance(T, bool) or not isinstance(T, int) or T < 1:
        raise LittlestoneError(f"the horizon T must be an integer ≥ 1, got {T!r}")
    return d, T, check_epsilon(epsilon), check_delta(delta, positive=True), check_probability(beta)


def at_margin(T: int, beta: float, eps0: float) -> float:
    """α_AT = 8(ln T + ln(6T/β))/ε₀ (LWY25 Alg. 2 line 4; Thm 2.5 with failure β/(3T) per instance)."""
    return 8.0 * (math.log(T) + math.log(6.0 * T / beta)) / eps0


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


@dataclass(frozen=True)
class LWY25Bound:
    d: int
    T: int
    epsilon: float
    delta: float
    beta: float
    N0: int
    requirements: list[tuple[str, int, str]] = field(default_factory=list)
    M: list[Fraction] = field(default_factory=list)
    list_sizes: list[Fraction] = field(default_factory=list)
    at_margin: float = 0.0
    mistake_bound: float = 0.0

    def rows(self) -> list[tuple[str, str, str]]:
        """(quantity, value, formula) rows for a table."""
        out = [(f"N0 ≥ ({name})", _fmt(v), f) for name, v, f in self.requirements]
        out.append(("N0", _fmt(self.N0), "max of the requirements, rounded up to a multiple of 2^(d+1)"))
        out.append(("eps0", f"{self.epsilon / 2:.6g}", "ε/2"))
        out.append(("AboveThreshold margin", f"{self.at_margin:.6g}", "8(ln T + ln(6T/β))/ε₀"))
        for s, m in enumerate(self.M):
            out.append((f"M_{s}", _fmt(m), "128·2^(−6·2^s)·N0/2^s"))
        for s, m in enumerate(self.list_sizes):
            out.append((f"|L_{s}| at most", _fmt(m), "1 (s = 0); N_s/M_s = 2^(6·2^s)/128 (s ≥ 1)"))
        out.append(("mistake bound", _fmt(self.mistake_bound), "Σ_s (N_s + 2α + 1)·|L_s| (w.p. ≥ 1−β)"))
        return out


def _fmt(v: float | int | Fraction) -> str:
    if isinstance(v, Fraction):
        v = v.numerator // v.denominator if v.denominator == 1 else float(v) if v < 10**300 else int(v)
    if isinstance(v, int):
        return str(v) if v < 10**15 else f"{float(v):.6e}" if v < 10**300 else f"~10^{len(str(v)) - 1}"
    return f"{v:.6g}"


def theorem_3_1(d: int, T: int, epsilon: float, delta: float, beta: float) -> LWY25Bound:
    """N₀, M_s, the list sizes and the mistake bound of LWY25 Thm 3.1 with the constants of App. B."""
    d, T, eps, delta, beta = _check(d, T, epsilon, delta, beta)
    eps0 = eps / 2.0
    p6 = 2 ** (6 * 2**d + d)
    p24 = 2 ** (24 * 2**d + d)
    reqs: list[tuple[str, int, str]] = []
    if d >= 1:
        reqs.append(
            ("hist", _ceil(Fraction(p6) * Fraction(d * math.log(8 * d / delta) / eps0)), "d·2^(6·2^d+d)·ln(8d/δ)/ε₀")
        )
        reqs.append(
            (
                "union",
                _ceil(
                    4 * Fraction(p24) * d * Fraction(math.log(p24) + math.log(2 * d))
                    + 2 * Fraction(p24) * Fraction(d * math.log(7) + math.log(6 * d / beta))
                ),
                "4·2^(24·2^d+d)·d·ln(2^(24·2^d+d)·2d) + 2·2^(24·2^d+d)(d ln 7 + ln(6d/β))",
            )
        )
    reqs.append(("r1", p6, "2^(6·2^d+d)"))
    reqs.append(("coupon", _ceil(Fraction(p6) * Fraction(math.log(3 * T / beta)) / 32), "2^(6·2^d+d)·ln(3T/β)/32"))
    n0 = max(v for _, v, _ in reqs)
    step = 2 ** (d + 1)
    n0 = -(-n0 // step) * step
    M = [Fraction(128 * (n0 >> s), 2 ** (6 * 2**s)) for s in range(d + 1)]
    sizes = [Fraction(1)] + [Fraction(2 ** (6 * 2**s), 128) for s in range(1, d + 1)]
    alpha = at_margin(T, beta, eps0)
    bound = (
        sum(((n0 >> s) + 2 * alpha + 1) * float(min(sizes[s], Fraction(10**300))) for s in range(d + 1))
        if n0 < 10**300
        else math.inf
    )
    return LWY25Bound(d, T, eps, delta, beta, n0, reqs, M, sizes, alpha, bound)


def smallest_useful_T(d: int, epsilon: float, delta: float, beta: float, *, limit: int = 2**1000) -> int | None:
    """The least T with mistake bound(T) < T (N₀ depends on T only through ln T, so the set is upward closed)."""
    check_epsilon(epsilon)
    return least_true(lambda T: theorem_3_1(d, T, epsilon, delta, beta).mistake_bound < T, 2, limit=limit)
