"""Calculators for LWY25 §4 and App. E (private agnostic online learning): sanitizer sample sizes (Thm 4.2,
Thm E.5), Algorithm 3's batch size (Cor 4.3), the number of constructed experts |J| (Alg 7), the regret bounds of
Cor 4.3 and Thm 4.4 / Cor E.13.

LWY25 states these with Õ(·): the "order" rows set every hidden constant and logarithmic factor to 1 and say so.
Rows marked "proven" are the concrete bounds of the components implemented here, constants written out:
MWEM's accuracy (:mod:`littlestone.sanitizers.mwem`), the realizable sanitizer with the exponential learner
(:mod:`littlestone.sanitizers.realizable`), Thm 4.1 with MWEM and Hedge (:mod:`littlestone.agnostic_online.algorithm3`),
and the private OPE learners (:mod:`littlestone.experts`).
"""

from __future__ import annotations

import math

from ..errors import LittlestoneError
from .mwem import mwem_error_bound as _mwem_bound
from .mwem import mwem_theory_iterations as _mwem_its
from ..privacy import check_delta, check_epsilon, check_probability
from .blm20 import BoundReport


def hedge_proper_regret(tau: float, n_hypotheses: int) -> float:
    """R(τ) = √(τ ln|H| / 2): Hedge over H (Cesa-Bianchi–Lugosi Thm 2.2 with the tuned rate)."""
    return math.sqrt(max(tau, 0.0) * math.log(max(n_hypotheses, 2)) / 2.0)


def theorem41_bound(T: int, B: int, n_hypotheses: int, domain_size: int, epsilon: float) -> float:
    """B·R(T/B) + 4α(B)·T + (T/B)·β·T with α(B) = MWEM's bound on H^label at n = B, β = 1/T² (Thm 4.1, Cor 4.3)."""
    beta = 1.0 / (T * T)
    its = _mwem_its(B, 2 * domain_size, n_hypotheses, epsilon, beta)
    alpha = _mwem_bound(B, 2 * domain_size, n_hypotheses, epsilon, beta, its)  # unclamped: still trades off
    return B * hedge_proper_regret(T / B, n_hypotheses) + 4.0 * alpha * T + (T / B) * beta * T


def theory_batch_size(T: int, n_hypotheses: int, domain_size: int, epsilon: float) -> int:
    """The B ∈ [2, T] minimizing :func:`theorem41_bound` (geometric scan)."""
    cands = sorted({max(2, min(T, int(1.2**k))) for k in range(4, int(math.log(T) / math.log(1.2)) + 2)})
    return min(cands, key=lambda b: theorem41_bound(T, b, n_hypotheses, domain_size, epsilon))


def corollary43_batch_size(T: int, d: int, d_star: int, epsilon: float) -> int:
    """Cor 4.3's B = Θ̃((T d⁵ √d* / ε)^{1/2}) with constants and logarithms set to 1."""
    return max(2, min(T, math.ceil(math.sqrt(T * d**5 * math.sqrt(max(d_star, 1)) / epsilon))))


def _check_dim(v: int, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise LittlestoneError(f"{name} must be an integer >= 0, got {v!r}")
    return v


def number_of_experts(T: int, M: int) -> int:
    """|J| of Alg 7: #{1 ≤ j_1 ≤ i_1 < j_2 ≤ i_2 < … < j_M ≤ i_M ≤ T} = C(T + M, 2M) (shift the k-th pair by k − 1
    to get 2M strictly increasing numbers in [1, T + M])."""
    return math.comb(T + M, 2 * M)


def number_of_experts_upto(T: int, M: int) -> int:
    """Σ_{k ≤ M} C(T + k, 2k): the experts with at most M forced mistakes (what the implementation enumerates)."""
    return sum(math.comb(T + k, 2 * k) for k in range(M + 1))


def lwy25_agnostic(
    d: int,
    d_star: int,
    d_vc: int,
    d_vc_star: int,
    T: int,
    epsilon: float,
    delta: float,
    alpha: float = 0.1,
    beta: float = 0.05,
    hypotheses: int | None = None,
    domain: int | None = None,
) -> BoundReport:
    """All rows; ``hypotheses`` and ``domain`` (|H|, |X| of a finite class) add the proven rows."""
    d, d_star, d_vc, d_vc_star = (
        _check_dim(v, n) for v, n in ((d, "d"), (d_star, "d*"), (d_vc, "d_V"), (d_vc_star, "d_V*"))
    )
    if isinstance(T, bool) or not isinstance(T, int) or T < 2:
        raise LittlestoneError(f"the horizon T must be an integer >= 2, got {T!r}")
    eps, dlt = check_epsilon(epsilon), check_delta(delta, positive=True)
    a, b = check_probability(alpha, "alpha"), check_probability(beta)
    ds = max(d_star, 1)
    rows: list[tuple[str, str, float, str]] = []
    v: dict[str, float] = {}

    def add(stage: str, q: str, val: float, formula: str) -> None:
        rows.append((stage, q, val, formula))
        v[q] = val

    add("Thm 4.2 (order)", "sanitizer n", math.ceil(d**6 * math.sqrt(ds) / (eps * a * a)), "d⁶·√d*/(ε α²)")
    m = max(1, math.ceil(max(d_vc, 1) * math.log(1 / a) / a))
    add("Lemma E.4 (order)", "m", m, "d_V ln(1/α)/α")
    D = m * ds * max(1.0, math.log2(m))
    add("Claim E.3 (order)", "Ldim X_(m,α/2)", D, "m·d*·log m")
    Tg = D + 1
    eps_r = eps / (2 * math.sqrt(2 * Tg * math.log(2 / dlt)))
    add("Thm E.5", "ε′ per round", eps_r, "ε/(2√(2T′ ln(2/δ))), T′ = D + 1")
    add("Thm E.5", "δ′ per round", dlt / (2 * Tg), "δ/(2T′)")
    add(
        "Thm E.5 (order)",
        "realizable sanitizer n",
        math.ceil(d**6 * math.sqrt(ds * max(d_vc, 1)) / (eps * a**1.5)),
        "d⁶·√(d* d_V)/(ε α^1.5)",
    )
    B = max(2, min(T, math.ceil(math.sqrt(T * d**5 * math.sqrt(ds) / eps))))
    add("Cor 4.3 (order)", "batch B", B, "(T d⁵ √d*/ε)^{1/2}, clamped to [2, T]")
    add("Cor 4.3 (order)", "regret Alg 3", T**0.75 * (d**7 * math.sqrt(ds) / eps) ** 0.25, "T^{3/4}(d⁷√d*/ε)^{1/4}")
    mm = max(1, d_vc_star)
    M = max(1, d)
    add("Lemma E.9 (order)", "majority size m", mm, "d_V*")
    add("Lemma E.9 (order)", "mistake bound M", M, "d")
    from ..classes.majority import claim_e7_bounds

    e7 = claim_e7_bounds(d, d_star, d_vc, mm)
    add("Claim E.7 (order)", "Ldim H_(m,1/2)⊕H", e7["Ldim order m·d·log m"], "m·d·log m, m = d_V*")
    add("Claim E.7 (order)", "dual Ldim H_(m,1/2)⊕H", e7["dual Ldim order m·d*·log m"], "m·d*·log m")
    add("Claim E.7 (order)", "VC H_(m,1/2)⊕H", e7["VC order m·d_V·log m"], "m·d_V·log m")
    add(
        "Claim E.7 (explicit)",
        "VC H_(m,1/2)⊕H ≤",
        e7["VC bound (Dudley, explicit)"],
        "largest n with 2^n ≤ (Σ_{j≤d_V} C(n,j))^{m+1} (Sauer, Dudley)",
    )
    add("Alg 7", "experts |J|", float(number_of_experts(T, M)), "C(T+M, 2M)")
    add("Alg 7", "experts, ≤ M flips", float(number_of_experts_upto(T, M)), "Σ_{k≤M} C(T+k, 2k)")
    add(
        "Thm E.10 (order)",
        "expert mistakes vs h",
        T ** (1 / 3) * mm ** (14 / 3) * d**4 * (ds * max(d_vc, 1)) ** (1 / 3) / eps ** (2 / 3),
        "T^{1/3}(d_V*)^{14/3} d⁴ (d* d_V)^{1/3}/ε^{2/3}",
    )
    add(
        "Thm 4.4 / Cor E.13 (order)",
        "regret, adaptive",
        math.sqrt(T * math.log(1 / dlt)) * d * math.log(T) / eps + v["expert mistakes vs h"] * d,
        "√(T ln(1/δ)) d ln T/ε + T^{1/3}(d_V*)^{14/3} d⁵ (d* d_V)^{1/3}/ε^{2/3}",
    )
    add(
        "Thm 4.4 / Cor E.13 (order)",
        "regret, oblivious",
        math.sqrt(d * T * math.log(T)) + v["expert mistakes vs h"] * d,
        "√(d T ln T) + T^{1/3}(d_V*)^{14/3} d⁵ (d* d_V)^{1/3}/ε^{2/3}",
    )
    if hypotheses is not None and domain is not None:
        from ..experts import batched_hedge_bound, private_hedge_bound, theory_batch, tree_hedge_bound
        from ..experts.tree_hedge import theory_block
        from .mwem import mwem_sample_size

        add(
            "MWEM (proven)",
            "sanitizer n (H^label)",
            mwem_sample_size(a, 2 * domain, hypotheses, eps, b),
            "least n with 2√(ln|X|/T)+[4T(ln|Q|+ln(2T/β))+2T ln(2T/β)]/(εn) ≤ α",
        )
        Bt = theory_batch_size(T, hypotheses, domain, eps)
        add("Thm 4.1 + MWEM + Hedge (proven)", "batch B minimizing", Bt, "argmin_B B√((T/B) ln|H|/2) + 4α(B)T + 1/B")
        add(
            "Thm 4.1 + MWEM + Hedge (proven)",
            "regret bound",
            theorem41_bound(T, Bt, hypotheses, domain, eps),
            "at that B (α(B): MWEM's bound at n = B, β = 1/T²)",
        )
        N = hypotheses
        add(
            "PrivateHedge over H (proven, Thm E.11 rate)",
            "regret bound",
            private_hedge_bound(N, T, eps, dlt),
            "ln N/η + ηT/8, η from (ε, δ) by advanced composition",
        )
        add(
            "TreeAggregationHedge over H (proven)",
            "regret bound",
            tree_hedge_bound(N, T, eps, theory_block(N, T, eps)),
            "2√(T ln N (1/8 + Ē + B₀ − 1)) + 1",
        )
        add(
            "BatchedPrivateHedge over H (proven)",
            "regret bound",
            batched_hedge_bound(N, T, theory_batch(N, T, eps, dlt), eps, dlt),
            "ln N/η + ηKB²/8",
        )
    return BoundReport(
        title="LWY25 private agnostic online learning",
        parameters={"d": d, "d*": d_star, "d_V": d_vc, "d_V*": d_vc_star, "T": T, "ε": eps, "δ": dlt, "α": a, "β": b},
        entries=tuple(rows),
        total=int(v["sanitizer n"]),
        values=v,
    )
