"""PointsAT and IntervalsAT (practical private online learners for points and intervals on huge domains): their
thresholds, privacy splits and mistake bounds with every constant written out (derivation: docs/derivations.md,
"Points and intervals on huge domains: PointsAT and IntervalsAT").

Both learners cut the stream into segments ended by an AboveThreshold ⊤ on the segment's running mistake count
(disjoint-segment lemma, derivations.md §F.1). For one AboveThreshold instance with budget ε′, threshold noise
ρ ~ Lap(r/ε′) and query noise ν ~ Lap(q/ε′) — (r, q) = :data:`~littlestone.bounds.segment_learners.AT_SCALES`
[at]: (1, 1) for the step AboveThreshold (the default: every query of both learners is a running 0/1 count of the
segment, whose replace-one differences are steps), (2, 2) monotone, (2, 4) standard (Dwork–Roth Alg. 1) — and a
per-event failure probability β′:

* a = (r/ε′)·ln(1/(2β′)):   P[ρ > a] = P[ρ < −a] = ½e^{−aε′/r} = β′;
* b = (q/ε′)·ln(T/(2β′)):   P[some ν_t ≥ b, t ≤ T] ≤ T·½e^{−bε′/q} = β′;
* j = ⌈log₂(1/β′)⌉:         once the count is ≥ τ + a (and ρ ≤ a), every later mistake round answers ⊤ with
  probability ≥ P[ν ≥ 0] = ½, with fresh noise the adversary has not seen, so j misses in a row have probability 2^{−j}.

Lower side (event L): ρ ≥ −a and ν_t < b for every t ⇒ a ⊤ needs count > τ − a − b (a segment whose count stays 0
never ends when τ ≥ a + b). Upper side (event U): ρ ≤ a and no j misses in a row ⇒ a segment has at most
⌈τ + a⌉ + j − 1 mistakes. P[not L] ≤ 2β′, P[not U] ≤ 2β′.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import LittlestoneError
from ..privacy.params import check_delta, check_epsilon, check_positive_int, check_probability
from .segment_learners import AT_SCALES

#: IntervalsAT's practical "stay" candidate: a move at a ⊤ with count ≈ 0 has probability ≤ 1/STAY_ODDS
STAY_ODDS = 1024.0

#: the point segment's failure share is β′/POINT_GUARD (a larger τ_p; issue 34)
POINT_GUARD = 100.0

#: the 64-bit integers: the universe of the pure-DP selection on the infinite domain of Points
INT64_UNIVERSE = 2**64


def _noise(at: str, epsilon: float) -> tuple[float, float]:
    """(r/ε′, q/ε′): the threshold and query noise scales of the ``at`` AboveThreshold at budget ε′."""
    if at not in AT_SCALES:
        raise LittlestoneError(f"at must be one of {', '.join(AT_SCALES)}, not {at!r}")
    r, q = AT_SCALES[at]
    return r / epsilon, q / epsilon


def threshold_margin(epsilon: float, beta: float, at: str = "step") -> float:
    """a = (r/ε′)·ln(1/(2β′)) (r/ε′ the threshold noise scale of the ``at`` AboveThreshold)."""
    return _noise(at, epsilon)[0] * math.log(1.0 / (2.0 * beta))


def query_margin(epsilon: float, T: int, beta: float, at: str = "step") -> float:
    """b = (q/ε′)·ln(T/(2β′)) (q/ε′ the query noise scale of the ``at`` AboveThreshold)."""
    return _noise(at, epsilon)[1] * max(math.log(T / (2.0 * beta)), 0.0)


def miss_run(beta: float) -> int:
    """j = ⌈log₂(1/β′)⌉."""
    return max(1, math.ceil(math.log2(1.0 / beta)))


def segment_mistakes(tau: float, a: float, j: int) -> int:
    """At most ⌈τ + a⌉ + j − 1 mistakes in a segment (event U)."""
    return math.ceil(tau + a) + j - 1


def _split(A: float, B: float) -> float:
    """The selection's share s of ε minimising A/(sε) + B/((1 − s)ε): s = √A/(√A + √B)."""
    return math.sqrt(A) / (math.sqrt(A) + math.sqrt(B))


@dataclass(frozen=True)
class PointsATBound:
    """PointsAT's parameters (theory setting) and its mistake bound, w.p. ≥ 1 − β over the learner's noise, against
    any adaptive realizable adversary (LWY25 Def. 2.4 setting) over T rounds.

    Zero segments (release the zero function): AboveThreshold (``eps_at``, ``tau_zero``) on the number of positive
    examples, then a selection (``eps_select``) of the point; point segments (release h_q): AboveThreshold
    (``epsilon``, ``tau_point``) on the mistakes of h_q. ``c_min``: the count at ⊤ that makes the selection right
    w.p. ≥ 1 − γ (exponential mechanism: (2/ε_s)ln((N−1)/γ); stable histogram: τ_h + (2/ε_s)ln(1/(2γ))).
    Failure split: γ = β/2, β′ = β/12 for each of the four AboveThreshold events L, U of the zero segment, and
    β′/100 for the two of the point segment's L (issue 34: a larger τ_p, since a false ⊤ on the right point costs a
    whole zero segment; the total stays ≤ β). ``at``: the AboveThreshold kind of every segment."""

    N: float
    T: int
    epsilon: float
    delta: float
    beta: float
    selection: str
    eps_at: float
    eps_select: float
    c_min: float
    tau_zero: float
    tau_point: float
    a_zero: float
    j: int
    mistake_bound: int
    at: str = "step"

    def lines(self) -> list[tuple[str, str]]:
        return [
            ("AboveThreshold (every segment)", _at_line(self.at)),
            ("selection", f"{self.selection} ({'pure ε-DP' if self.delta == 0 else '(ε, δ)-DP'})"),
            ("zero segment: AboveThreshold ε / selection ε", f"{self.eps_at:.4g} / {self.eps_select:.4g}"),
            ("count at ⊤ for a right selection (c_min)", f"{self.c_min:.1f}"),
            ("τ of the zero segment (c_min + a + b)", f"{self.tau_zero:.1f}"),
            ("τ of a point segment (a + b, full ε)", f"{self.tau_point:.1f}"),
            ("mistake bound (w.p. ≥ 1 − β)", f"{self.mistake_bound}"),
        ]


def _at_line(at: str) -> str:
    r, q = AT_SCALES[at]
    return f"{at}: ρ ~ Lap({r:g}/ε′), ν ~ Lap({q:g}/ε′)"


def points_at_bound(
    N: float,
    T: int,
    epsilon: float,
    beta: float = 0.1,
    *,
    selection: str = "exponential",
    delta: float = 0.0,
    at: str = "step",
) -> PointsATBound:
    """PointsAT's theory setting and mistake bound for a domain of N points (math.inf: the 64-bit integers are the
    exponential mechanism's universe; the stable histogram needs no universe) with the ``at`` AboveThreshold."""
    _noise(at, 1.0)
    T = check_positive_int(T, "horizon T")
    epsilon = check_epsilon(epsilon)
    beta = check_probability(beta)
    if selection not in ("exponential", "histogram"):
        raise LittlestoneError(f"selection must be 'exponential' or 'histogram', not {selection!r}")
    if selection == "histogram":
        delta = check_delta(delta, positive=True)
    else:  # pure ε-DP: δ is not used
        delta = 0.0
    if not (N >= 1):
        raise LittlestoneError(f"the domain needs at least one point, got N = {N!r}")
    gamma, bp = beta / 2.0, beta / 12.0
    a1, b1 = threshold_margin(1.0, bp, at), query_margin(1.0, T, bp, at)  # at ε′ = 1; scale by 1/ε′
    if selection == "exponential":
        universe = INT64_UNIVERSE if math.isinf(N) else N
        A = 2.0 * max(math.log(max(universe - 1, 1) / gamma), 0.0)
    else:
        A = None
    B = a1 + b1
    if selection == "exponential":
        s = _split(A, B)
        eps_s = s * epsilon
        c_min = A / eps_s
    else:  # τ_h + (2/ε_s)ln(1/(2γ)), τ_h = 1 + (2/ε_s)ln(2/δ): the 1 stays, the rest scales as 1/ε_s
        A = 2.0 * (math.log(2.0 / delta) + math.log(1.0 / (2.0 * gamma)))
        s = _split(A, B)
        eps_s = s * epsilon
        c_min = 1.0 + A / eps_s
    eps_a = epsilon - eps_s
    a_z, b_z = a1 / eps_a, b1 / eps_a
    tau_zero = c_min + a_z + b_z
    bpp = bp / POINT_GUARD  # the point segment's lower-side event: a false ⊤ on the right point costs a zero segment
    tau_point = (threshold_margin(1.0, bpp, at) + query_margin(1.0, T, bpp, at)) / epsilon
    j = miss_run(bp)
    bound = segment_mistakes(tau_zero, a_z, j)
    return PointsATBound(
        N, T, epsilon, delta, beta, selection, eps_a, eps_s, c_min, tau_zero, tau_point, a_z, j, bound, at
    )


@dataclass(frozen=True)
class IntervalsATBound:
    """IntervalsAT's parameters (theory setting) and its mistake bound w.p. ≥ 1 − β against any adaptive realizable
    adversary over T rounds, on intervals over N points.

    Phase 1 (release the empty interval): AboveThreshold (``eps_at1``, ``tau1``) on the number of positives, then
    an exponential mechanism (``eps_select1``) over the domain with the depth score min(#pos ≤ m, #pos ≥ m) picks a
    point m inside the target. Phase 2 (release [a, b] ∋ m): AboveThreshold (``eps_at2``, ``tau2``) on the segment's
    mistakes, then an exponential mechanism (``eps_select2``) over five moves (each endpoint one bisection step
    left or right; "m is wrong") scored by the segment's mistakes of each kind. At most ``steps`` =
    max_m ⌊log₂(m + 1)⌋ + ⌊log₂(N − m)⌋ moves (:func:`bisection_steps`; 30 at N = 2¹⁶, not 2⌊log₂ N⌋ = 32).
    Failure split: β/2 to phase 1 (γ₁ = β/4, β′₁ = β/16), β/2 spread over the steps + 1 segments of phase 2
    (γ₂ = β/(4(S+1)), β′₂ = β/(16(S+1))). ``at``: the AboveThreshold kind of every segment."""

    N: int
    T: int
    epsilon: float
    beta: float
    steps: int
    eps_at1: float
    eps_select1: float
    tau1: float
    eps_at2: float
    eps_select2: float
    tau2: float
    phase1_mistakes: int
    step_mistakes: int
    mistake_bound: int
    at: str = "step"

    def lines(self) -> list[tuple[str, str]]:
        return [
            ("AboveThreshold (every segment)", _at_line(self.at)),
            ("bisection steps (max_m ⌊log₂(m+1)⌋ + ⌊log₂(N−m)⌋)", str(self.steps)),
            (
                "phase 1: AboveThreshold ε / selection ε / τ",
                f"{self.eps_at1:.4g} / {self.eps_select1:.4g} / {self.tau1:.1f}",
            ),
            (
                "phase 2: AboveThreshold ε / selection ε / τ",
                f"{self.eps_at2:.4g} / {self.eps_select2:.4g} / {self.tau2:.1f}",
            ),
            ("mistakes: phase 1 + steps × per step", f"{self.phase1_mistakes} + {self.steps} × {self.step_mistakes}"),
            ("mistake bound (w.p. ≥ 1 − β)", f"{self.mistake_bound}"),
        ]


def bisection_steps(N: int) -> int:
    """S = max over m ∈ [0, N−1] of ⌊log₂(m + 1)⌋ + ⌊log₂(N − m)⌋: the right moves of IntervalsAT's two endpoint
    searches around m (a right move leaves at most ⌊s/2⌋ of a range of s). With a = m + 1, b = N − m (a + b = N + 1)
    the maximum of ⌊log₂ a⌋ + ⌊log₂ b⌋ is attained with a or b a power of two (raising the other to the next power
    below N + 1 − 2^i only lowers it), so the 2·(⌊log₂ N⌋ + 1) candidates suffice."""
    best = 0
    for i in range(N.bit_length()):
        for a in (1 << i, N + 1 - (1 << i)):
            if 1 <= a <= N:
                best = max(best, (a.bit_length() - 1) + ((N + 1 - a).bit_length() - 1))
    return best


def intervals_at_bound(N: int, T: int, epsilon: float, beta: float = 0.1, *, at: str = "step") -> IntervalsATBound:
    """IntervalsAT's theory setting and mistake bound on intervals over N points (pure ε-DP) with the ``at``
    AboveThreshold."""
    _noise(at, 1.0)
    N = check_positive_int(N, "number of points N")
    T = check_positive_int(T, "horizon T")
    epsilon = check_epsilon(epsilon)
    beta = check_probability(beta)
    steps = bisection_steps(N)
    # phase 1
    g1, bp1 = beta / 4.0, beta / 16.0
    A1 = 4.0 * max(math.log(max(N - 1, 1) / g1), 0.0)
    a1, b1 = threshold_margin(1.0, bp1, at), query_margin(1.0, T, bp1, at)
    s1 = _split(A1, a1 + b1)
    e_s1, e_a1 = s1 * epsilon, (1.0 - s1) * epsilon
    tau1 = A1 / e_s1 + (a1 + b1) / e_a1
    m1 = segment_mistakes(tau1, a1 / e_a1, miss_run(bp1))
    # phase 2
    g2, bp2 = beta / (4.0 * (steps + 1)), beta / (16.0 * (steps + 1))
    A2 = 4.0 * math.log(4.0 / g2)
    a2, b2 = threshold_margin(1.0, bp2, at), query_margin(1.0, T, bp2, at)
    s2 = _split(A2, a2 + b2)
    e_s2, e_a2 = s2 * epsilon, (1.0 - s2) * epsilon
    tau2 = A2 / e_s2 + (a2 + b2) / e_a2
    m2 = segment_mistakes(tau2, a2 / e_a2, miss_run(bp2))
    return IntervalsATBound(N, T, epsilon, beta, steps, e_a1, e_s1, tau1, e_a2, e_s2, tau2, m1, m2, m1 + steps * m2, at)


@dataclass(frozen=True)
class IntervalsATPractical:
    """IntervalsAT's practical thresholds (the default setting): the theory's margins with the union-bound terms
    dropped, as ListAT's and BisectAT's practical τ — AboveThreshold margin M = b_ν·ln T + 3·b_ρ (at ε′ = 1) instead
    of b_ν·ln(T/2β′) + b_ρ·ln(1/2β′); phase 2's selection margin A₂ = 4·ln(16/β) for one step instead of
    4·ln(16(S+1)/β); phase 1's A₁ = 4·ln(4(N − 1)/β) as in theory (one selection, no union). Each phase runs the
    max form τ = max(M/ε_a, A/ε_s) = (M + A)/ε with ε_a = εM/(M + A) (as BisectAT's; issue 34: the sum form
    (√A + √M)²/ε made every segment pay both margins). Phase 2's move selection has a sixth candidate, "stay"
    (keep [a, b], start a new segment), with score κ − c (c the segment's count; sensitivity 1), κ = ``stay_score``
    = (2/ε_s2)·ln(5K), K = 1024: at a ⊤ with little evidence (c ≈ 0) a move — possibly "m wrong", which costs a whole
    phase 1 and both searches — has probability ≤ 1/K; at a ⊤ with c ≥ κ the right move's score ≥ c/2 beats the
    stay's κ − c ≤ 0. "m wrong" (back to phase 1: the costliest move) scores its count minus ``m_wrong_handicap`` =
    (2/ε_s2)·ln 16 (a public constant: sensitivity unchanged), so a low-count segment picks it 16× less often.
    Privacy holds for every τ and κ; the mistake bound is the theory setting's."""

    eps_at1: float
    eps_select1: float
    tau1: float
    eps_at2: float
    eps_select2: float
    tau2: float
    stay_score: float = 0.0
    m_wrong_handicap: float = 0.0


def intervals_at_practical(
    N: int, T: int, epsilon: float, beta: float = 0.1, *, at: str = "step"
) -> IntervalsATPractical:
    """IntervalsAT's practical setting (:class:`IntervalsATPractical`) on intervals over N points."""
    r, q = _noise(at, 1.0)
    N = check_positive_int(N, "number of points N")
    T = check_positive_int(T, "horizon T")
    epsilon = check_epsilon(epsilon)
    beta = check_probability(beta)
    margin = q * math.log(T) + 3.0 * r  # at ε′ = 1: b_ν·ln T + 3·b_ρ
    A1 = 4.0 * max(math.log(max(N - 1, 1) * 4.0 / beta), 0.0)
    A2 = 4.0 * math.log(16.0 / beta)
    out: list[float] = []
    for A in (A1, A2):
        e_a = epsilon * margin / (margin + A)  # max(M/ε_a, A/ε_s) is smallest where the two are equal
        out += [e_a, epsilon - e_a, (margin + A) / epsilon]
    out.append(2.0 / out[4] * math.log(5.0 * STAY_ODDS))
    out.append(2.0 / out[4] * math.log(16.0))
    return IntervalsATPractical(*out)


__all__ = [
    "INT64_UNIVERSE",
    "IntervalsATBound",
    "IntervalsATPractical",
    "POINT_GUARD",
    "STAY_ODDS",
    "bisection_steps",
    "intervals_at_practical",
    "PointsATBound",
    "intervals_at_bound",
    "miss_run",
    "points_at_bound",
    "query_margin",
    "segment_mistakes",
    "threshold_margin",
]
