"""Mistake bounds of the segment learners ListAT and BisectAT (realizable streams, adaptive adversaries, pure ε-DP
under LWY25 Def. 2.4), with every constant written out; derivations in docs/derivations.md ("F.2 ListAT",
"F.3 BisectAT").

Both run one AboveThreshold per segment on the segment's running mistake count, threshold noise ρ ~ Lap(b_ρ) and
query noise ν ~ Lap(b_ν) (step AboveThreshold at ε_AT — running counts —: b_ρ = b_ν = 1/ε_AT; monotone, LSL17:
b_ρ = b_ν = 2/ε_AT; standard, Dwork–Roth Alg. 1: b_ρ = 2/ε_AT, b_ν = 4/ε_AT). Under the events |ν_t| < A_ν for every round and |ρ_j| < A_ρ for the segments
that can occur, with τ = A_ρ + A_ν (+ C for BisectAT's sign), the target is never left and a wrong segment ends by
its ⌈τ + A_ρ + A_ν⌉-th mistake.

* ListAT over k hypotheses: A_ν = b_ν ln(2T/β), A_ρ = b_ρ ln(2k/β), τ = A_ρ + A_ν; mistakes ≤ (k − 1)·⌈2(A_ρ + A_ν)⌉
  w.p. ≥ 1 − β.
* BisectAT over N candidate thresholds (L = ⌊log₂ N⌋ wrong segments at most): sign noise Z ~ DLap(2/ε_s);
  A_ν = b_ν ln(3T/β), A_ρ = b_ρ ln(3(L + 1)/β), C = (2/ε_s) ln(6L/β), τ = A_ρ + A_ν + C;
  mistakes ≤ L·⌈2A_ρ + 2A_ν + C⌉ w.p. ≥ 1 − β. The theory split ε = ε_AT + ε_s minimises the per-segment bound.

The secure backend runs the AboveThreshold on the integer counts themselves (unit grid, noise P(z) ∝ q^|z| with q
rounded up by < 2^-31): every A grows by the factor 1 + 2^-20 (:func:`grid_margin`), which ListAT's and BisectAT's
theory τ include; the calculators print the seeded (continuous) constants, which differ from the secure ones by
less than 10^-5 %.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import LittlestoneError
from ..privacy.params import check_epsilon, check_positive_int, check_probability

#: noise scales (b_ρ, b_ν) in units of Δ/ε_AT for each AboveThreshold kind
AT_SCALES = {"step": (1.0, 1.0), "monotone": (2.0, 2.0), "standard": (2.0, 4.0)}


def _scales(at: str, eps_at: float) -> tuple[float, float]:
    if at not in AT_SCALES:
        raise LittlestoneError(f"at must be one of {', '.join(AT_SCALES)}, not {at!r}")
    r, v = AT_SCALES[at]
    return r / eps_at, v / eps_at


def grid_margin(a: float) -> float:
    """A margin on the secure backend: (1 + 2^-20)·a. The segments' AboveThresholds run on integer counts, on the unit
    grid (``integer_queries=True``): no rounding (v + ν ≥ ⌈τ⌉ + ρ is the real comparison) and noise P(z) ∝ q^|z| with
    q rounded up by < 2^-31, whose tails P[|ν| > a] ≤ q^a ≤ e^(−a/(b(1 + 2^-20))) (docs/derivations.md, "AboveThreshold
    on integer queries")."""
    return (1.0 + 2.0**-20) * a


@dataclass(frozen=True)
class SegmentBound:
    """A segment learner's τ and mistake bound with the constants that make them."""

    learner: str
    T: int
    epsilon: float
    beta: float
    at: str
    epsilon_at: float
    epsilon_sign: float
    wrong_segments: int
    A_rho: float
    A_nu: float
    C: float
    tau: float
    per_segment: int
    mistakes: int

    def rows(self) -> list[tuple[str, str, str]]:
        rows = [
            ("AboveThreshold", self.at, "step: b_ρ = b_ν = 1/ε_AT; monotone: 2/ε_AT; standard: 2/ε_AT, 4/ε_AT"),
            ("ε_AT", f"{self.epsilon_at:.6g}", "the segments' AboveThreshold (disjoint segments: parallel)"),
        ]
        if self.learner == "bisectat":
            rows.append(("ε_sign", f"{self.epsilon_sign:.6g}", "the sign release at each ⊤: DLap(2/ε_sign)"))
        rows += [
            ("wrong segments", f"{self.wrong_segments:,}", "k − 1 (ListAT) / ⌊log₂ N⌋ (BisectAT)"),
            ("A_ν", f"{self.A_nu:.6g}", "b_ν ln(2T/β) (ListAT) / b_ν ln(3T/β) (BisectAT)"),
            ("A_ρ", f"{self.A_rho:.6g}", "b_ρ ln(2k/β) (ListAT) / b_ρ ln(3(L+1)/β) (BisectAT)"),
        ]
        if self.learner == "bisectat":
            rows.append(("C", f"{self.C:.6g}", "(2/ε_sign) ln(6L/β): a wrong segment's count at ⊤ exceeds C"))
        rows += [
            ("τ (theory)", f"{self.tau:.6g}", "A_ρ + A_ν (+ C)"),
            ("mistakes per wrong segment", f"{self.per_segment:,}", "⌈τ + A_ρ + A_ν⌉"),
            ("mistake bound", f"{self.mistakes:,}", f"wrong segments × per segment, w.p. ≥ 1 − β = {1 - self.beta:g}"),
        ]
        return rows


def listat_bound(k: int, T: int, epsilon: float, beta: float = 0.1, *, at: str = "step") -> SegmentBound:
    """ListAT's theory τ and mistake bound over k listed hypotheses (docs/derivations.md "F.2 ListAT")."""
    k = check_positive_int(k, "number of hypotheses k")
    T = check_positive_int(T, "horizon T")
    eps = check_epsilon(epsilon)
    beta = check_probability(beta)
    b_rho, b_nu = _scales(at, eps)
    A_nu = b_nu * math.log(2 * T / beta)
    A_rho = b_rho * math.log(2 * k / beta)
    tau = A_rho + A_nu
    per = math.ceil(tau + A_rho + A_nu)
    return SegmentBound("listat", T, eps, beta, at, eps, 0.0, k - 1, A_rho, A_nu, 0.0, tau, per, (k - 1) * per)


def bisect_wrong_segments(n_candidates: int) -> int:
    """⌊log₂ N⌋: every wrong segment halves the candidate interval (size N → at most ⌊N/2⌋)."""
    return max(int(n_candidates).bit_length() - 1, 0)


def bisect_split(n_candidates: int, T: int, epsilon: float, beta: float, at: str = "step") -> float:
    """The theory ε_AT: minimises X/ε_AT + Y/(ε − ε_AT), X = 2(c_ρ ln(3(L+1)/β) + c_ν ln(3T/β)), Y = 2 ln(6L/β)
    (the per-segment bound 2A_ρ + 2A_ν + C), i.e. ε_AT = ε√X/(√X + √Y)."""
    L = max(bisect_wrong_segments(n_candidates), 1)
    c_rho, c_nu = AT_SCALES[at]
    X = 2 * (c_rho * math.log(3 * (L + 1) / beta) + c_nu * math.log(3 * T / beta))
    Y = 2 * math.log(6 * L / beta)
    return epsilon * math.sqrt(X) / (math.sqrt(X) + math.sqrt(Y))


def bisectat_bound(
    n_candidates: int,
    T: int,
    epsilon: float,
    beta: float = 0.1,
    *,
    at: str = "step",
    epsilon_at: float | None = None,
    margin: float = 0.0,
) -> SegmentBound:
    """BisectAT's theory τ and mistake bound over N candidate thresholds (N = n + 1 on n points; docs/derivations.md
    "F.3 BisectAT"). ``epsilon_at`` (default: :func:`bisect_split`) is the AboveThreshold's share, the rest the
    sign's. ``margin`` is the stay margin M (a ⊤ moves only when |s + Z| > M): τ and the per-segment bound grow by
    M (a wrong segment's count at ⊤ then exceeds C + M, so |s + Z| > M and the sign is right)."""
    if isinstance(n_candidates, bool) or not isinstance(n_candidates, int) or n_candidates < 1:
        raise LittlestoneError(f"the number of candidate thresholds must be an integer ≥ 1, got {n_candidates!r}")
    T = check_positive_int(T, "horizon T")
    eps = check_epsilon(epsilon)
    beta = check_probability(beta)
    e_at = bisect_split(n_candidates, T, eps, beta, at) if epsilon_at is None else float(epsilon_at)
    if not 0 < e_at < eps:
        raise LittlestoneError(f"epsilon_at must lie strictly between 0 and epsilon = {eps:g}, got {epsilon_at!r}")
    e_s = eps - e_at
    L = bisect_wrong_segments(n_candidates)
    b_rho, b_nu = _scales(at, e_at)
    A_nu = b_nu * math.log(3 * T / beta)
    A_rho = b_rho * math.log(3 * (L + 1) / beta)
    if not 0 <= margin < math.inf:
        raise LittlestoneError(f"the stay margin must be a number ≥ 0, got {margin!r}")
    C = (2.0 / e_s) * math.log(6 * max(L, 1) / beta) + margin
    tau = A_rho + A_nu + C
    per = math.ceil(tau + A_rho + A_nu)
    return SegmentBound("bisectat", T, eps, beta, at, e_at, e_s, L, A_rho, A_nu, C, tau, per, L * per)


__all__ = [
    "AT_SCALES",
    "SegmentBound",
    "bisect_split",
    "bisect_wrong_segments",
    "bisectat_bound",
    "grid_margin",
    "listat_bound",
]
