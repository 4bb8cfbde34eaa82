"""Sample sizes of Ghazi–Golowich–Kumar–Manurangsi (GGKM21): PolyPriLearn (§5, Alg. 2, Thm 5.7) and PolyPriPropLearn
(§6, Alg. 3, Thm 6.4), every constant written out; the learners' theory defaults come from here.

GGKM21's formulas did not survive in our copy; the constants below are ours and *sufficient* (each proof step goes
through with them), not necessarily the paper's:

* A = α/2 (empirical level of every output), η = A/(4(d+1)) (level gap = uniform-deviation target), β₁ = β₂ = β/2.
* n: the VC inequality P[sup_h |err_P − err_S| > t] ≤ 4·(2en/v)^v·exp(−nt²/8) (Vapnik–Chervonenkis; Devroye–Györfi–
  Lugosi Thm 12.5 with Sauer) gives t(n, v, δ') = sqrt((8/n)(v·ln(2en/v) + ln(4/δ'))); n is the least size with
  t(n, d, β₁/(2m)) ≤ η — for H (Lemma 5.4's event E_S) and for the SOA family F(H) (VC ≤ d, Lemma 4.4) on all m
  datasets at once (2m events).
* K = max(K_req, d+1, ⌊A·n⌋ + 1) (Claim 5.9), s = Π_{t=1}^{d}(2^{t−1}K + 1) (Lemma 5.5).
* m: the least m with m/(d+1) ≥ Err_SS(m, s, ε, δ, β₂) + 1, Err_SS = B + ln((ms+1)/β₂)/ε_s the sparse-selection error
  (B its ⊥ score, ε_s = ε/2; :func:`littlestone.privacy.sparse_selection_error_bound`): pigeonhole puts one of the
  d+1 special functions in ≥ m/(d+1) sets, so the selected element lies in ≥ 1 set. n ↔ m through a logarithm:
  iterated to the fixed point.
* PolyPriPropLearn: α' = α/8; K_req = least k with t(k, d, 1/2) ≤ α' (Lemma 6.1); PolyPriLearn at (α/4, β/3);
  the minimax set 𝒦 of Lemma 6.2 from a basic LP solution (error ≤ err(f) + α'); the generic learner on n′ fresh
  examples with γ = α/2, β/3 over |𝒦| ≤ the class's bound (Kal-LN Thm 1 constants). Error α/4 + α/8 + α/2 ≤ α.

Theorem D.2 variant (LWY25 App. D, Lemma D.1, relative uniform convergence): P[∃h: err_P > (1+λ)err_S + μ] ≤
4(2en/v)^v·exp(−λμn/(4(λ+1))) and symmetrically. With A = α/4, η = A/(4(d+1)), λ = η/(2A), μ = η/2 the sandwich
H_{P,θ−η} ⊆ H_{P̂,θ} ⊆ H_{P,θ+η} holds for all θ ≤ A (λA + μ ≤ η), and λ' = 1, μ' = α/2 gives err_P ≤ 2A + α/2 = α
for the output; n shrinks from Õ(d³/α²) to Õ(d³/α).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .._search import least_true
from ..errors import LittlestoneError, PrivacyParameterError
from ..privacy.sparse_selection import sparse_selection_error_bound
from .blm20 import BoundReport
from .generic import agnostic as generic_agnostic

CONVERGENCE = ("additive", "relative")


def vc_deviation(n: int, v: int, delta: float) -> float:
    """t(n, v, δ) = sqrt((8/n)(v·ln(2en/v) + ln(4/δ))): w.p. ≥ 1−δ every h of a VC-v class has |err_P − err_S| ≤ t."""
    growth = v * math.log(2 * math.e * n / v) if v > 0 else 0.0
    return math.sqrt(8.0 / n * (growth + math.log(4.0 / delta)))


def uniform_size(v: int, t: float, delta: float) -> int:
    """Least n with vc_deviation(n, v, δ) ≤ t."""
    n = least_true(lambda k: vc_deviation(k, v, delta) <= t, start=max(1, v))
    if n is None:
        raise LittlestoneError(f"no sample size reaches deviation {t} (v={v}, δ={delta})")
    return n


def relative_failure(n: int, v: int, lam: float, mu: float) -> float:
    """LWY25 Lemma D.1: 4(2en/v)^v·exp(−λμn/(4(λ+1))) (one direction)."""
    growth = v * math.log(2 * math.e * n / v) if v > 0 else 0.0
    return math.exp(math.log(4.0) + growth - lam * mu * n / (4.0 * (lam + 1.0)))


def relative_size(v: int, lam: float, mu: float, delta: float, directions: int = 1) -> int:
    n = least_true(lambda k: directions * relative_failure(k, v, lam, mu) <= delta, start=max(1, v))
    if n is None:
        raise LittlestoneError(f"no sample size reaches relative deviation (λ={lam}, μ={mu})")
    return n


def _check(d: int, alpha: float, epsilon: float, delta: float, beta: float) -> None:
    if isinstance(d, bool) or not isinstance(d, int) or d < 1:
        raise LittlestoneError(f"the Littlestone dimension d must be an integer ≥ 1, got {d!r}")
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < float(v) < 1.0:
            raise LittlestoneError(f"{name} must lie in (0, 1), got {v!r}")
    if not (float(epsilon) > 0 and math.isfinite(float(epsilon))):
        raise PrivacyParameterError(f"epsilon must be a finite number > 0, got {epsilon!r}")
    if not 0.0 < float(delta) < 1.0:
        raise PrivacyParameterError(f"delta must satisfy 0 < δ < 1 (sparse selection is (ε, δ)-DP), got {delta!r}")


@dataclass(frozen=True)
class PolyPriLearnPlan:
    """Stage sizes of PolyPriLearn: m datasets of n examples, ReduceTree levels (A, η), order K, list bound s."""

    d: int
    alpha: float
    epsilon: float
    delta: float
    beta: float
    A: float
    eta: float
    n: int
    m: int
    K: int
    s: int
    err_ss: float
    convergence: str
    theory: bool

    @property
    def total(self) -> int:
        return self.n * self.m


def _s_of(d: int, K: int) -> int:
    return math.prod((1 << (t - 1)) * K + 1 for t in range(1, d + 1))


def _err_ss(m: int, s: int, epsilon: float, delta: float, beta: float) -> float:
    return sparse_selection_error_bound(m, s, epsilon, delta, beta)


def _n_for(d: int, m: int, A: float, eta: float, alpha: float, beta1: float, convergence: str) -> int:
    if convergence == "additive":
        return uniform_size(d, eta, beta1 / (2 * m))
    lam, mu = eta / (2 * A), eta / 2
    n1 = relative_size(d, lam, mu, beta1 / (2 * m), directions=2)  # the sandwich, both directions
    n2 = relative_size(d, 1.0, alpha / 2, beta1 / (2 * m))  # err_P ≤ 2·err_S + α/2 for F(H)
    return max(n1, n2)


def polyprilearn_plan(
    d: int,
    alpha: float,
    epsilon: float,
    delta: float,
    beta: float,
    *,
    K_req: int = 1,
    n: int | None = None,
    m: int | None = None,
    K: int | None = None,
    A: float | None = None,
    eta: float | None = None,
    convergence: str = "additive",
) -> PolyPriLearnPlan:
    """Theorem 5.7's sizes (module docstring); any of n, m, K, A, η may be given instead."""
    _check(d, alpha, epsilon, delta, beta)
    if convergence not in CONVERGENCE:
        raise LittlestoneError(f"convergence must be one of {CONVERGENCE}, got {convergence!r}")
    A_ = (alpha / 2 if convergence == "additive" else alpha / 4) if A is None else float(A)
    eta_ = A_ / (4 * (d + 1)) if eta is None else float(eta)
    b1, b2 = beta / 2, beta / 2
    theory = all(v is None for v in (n, m, K, A, eta))

    def sizes(mm: int) -> tuple[int, int, int]:
        nn = _n_for(d, mm, A_, eta_, alpha, b1, convergence) if n is None else int(n)
        KK = max(int(K_req), d + 1, math.floor(A_ * nn) + 1) if K is None else int(K)
        return nn, KK, _s_of(d, KK)

    if m is None:
        mm = 1
        for _ in range(100):
            nn, KK, ss = sizes(mm)
            new = least_true(lambda k: k / (d + 1) >= _err_ss(k, ss, epsilon, delta, b2) + 1, start=mm)
            if new is None:
                raise LittlestoneError("no number of datasets satisfies the sparse-selection requirement")
            if new == mm:
                break
            mm = new
        nn, KK, ss = sizes(mm)
    else:
        mm = int(m)
        nn, KK, ss = sizes(mm)
    if nn < 1 or mm < 1 or KK < 1:
        raise LittlestoneError(f"sizes must be positive: n={nn}, m={mm}, K={KK}")
    return PolyPriLearnPlan(
        d,
        alpha,
        epsilon,
        delta,
        beta,
        A_,
        eta_,
        nn,
        mm,
        KK,
        ss,
        _err_ss(mm, ss, epsilon, delta, b2),
        convergence,
        theory,
    )


def lemma61_order(d: int, alpha_prime: float) -> int:
    """K_req of Lemma 6.1: the least k with t(k, d, 1/2) ≤ α'."""
    return uniform_size(d, alpha_prime, 0.5)


def dual_sample_size(d: int, alpha_prime: float) -> int:
    """r of Lemma 6.2 by sampling: the least r with t(r, d*, 1/2) ≤ α', d* = 2^{d+1} − 1 ≥ the dual VC dimension
    (Assouad: d* < 2^{VC+1} ≤ 2^{d+1}). Bounds |𝒦| for any class."""
    return uniform_size((1 << (d + 1)) - 1, alpha_prime, 0.5)


@dataclass(frozen=True)
class ProperPlan:
    """PolyPriPropLearn: the inner PolyPriLearn plan, the minimax-set bound and the generic learner's sample."""

    inner: PolyPriLearnPlan
    alpha: float
    alpha_prime: float
    K_req: int
    candidates_bound: int
    n_generic: int
    theory: bool

    @property
    def total(self) -> int:
        return self.inner.total + self.n_generic


def polypriproplearn_plan(
    d: int,
    alpha: float,
    epsilon: float,
    delta: float,
    beta: float,
    *,
    candidates_bound: int | None = None,
    n_generic: int | None = None,
    convergence: str = "additive",
    **inner: Any,
) -> ProperPlan:
    """Theorem 6.4's sizes (module docstring). ``candidates_bound``: an upper bound on |𝒦| known from the class
    (≤ |X|+1 for a basic LP solution on a finite domain, ≤ |H|); default the dual-VC sampling size r."""
    _check(d, alpha, epsilon, delta, beta)
    ap = alpha / 8
    K_req = lemma61_order(d, ap)
    p = polyprilearn_plan(d, alpha / 4, epsilon, delta, beta / 3, K_req=K_req, convergence=convergence, **inner)
    cb = dual_sample_size(d, ap) if candidates_bound is None else int(candidates_bound)
    ng = generic_agnostic(cb, alpha / 2, epsilon, beta / 3).total if n_generic is None else int(n_generic)
    return ProperPlan(p, alpha, ap, K_req, cb, ng, p.theory and n_generic is None)


def _rows(p: PolyPriLearnPlan, tag: str) -> list[tuple[str, str, float, str]]:
    conv = (
        "t(n,d,β/(4m)) ≤ η, t = sqrt((8/n)(d·ln(2en/d) + ln(4/δ')))"
        if p.convergence == "additive"
        else "2·4(2en/d)^d·e^{−λμn/(4(λ+1))} ≤ β/(4m), λ=η/(2A), μ=η/2; and λ'=1, μ'=α/2"
    )
    return [
        (f"{tag}ReduceTree", "A", p.A, "α/2" if p.convergence == "additive" else "α/4"),
        (f"{tag}ReduceTree", "η", p.eta, "A/(4(d+1))"),
        (f"{tag}datasets", "n (per dataset)", p.n, conv),
        (f"{tag}ReduceTree", "K", p.K, "max(K_req, d+1, ⌊A·n⌋+1)"),
        (f"{tag}sparse selection", "s (list bound)", p.s, "Π_{t≤d}(2^{t−1}K+1)"),
        (f"{tag}sparse selection", "Err_SS", p.err_ss, "B + 2·ln((ms+1)/(β/2))/ε"),
        (f"{tag}datasets", "m", p.m, "least m with m/(d+1) ≥ Err_SS + 1"),
        (f"{tag}total", "m·n", p.total, ""),
    ]


def theorem57(
    d: int, alpha: float, epsilon: float, delta: float, beta: float, convergence: str = "additive"
) -> BoundReport:
    """PolyPriLearn (GGKM21 Thm 5.7) stage by stage."""
    p = polyprilearn_plan(d, alpha, epsilon, delta, beta, convergence=convergence)
    return BoundReport(
        f"GGKM21 Theorem 5.7 (PolyPriLearn, {convergence} convergence)",
        {"d": d, "alpha": alpha, "epsilon": epsilon, "delta": delta, "beta": beta},
        tuple(_rows(p, "")),
        p.total,
        {"plan": p},
    )


def theorem64(
    d: int,
    alpha: float,
    epsilon: float,
    delta: float,
    beta: float,
    convergence: str = "additive",
    candidates_bound: int | None = None,
) -> BoundReport:
    """PolyPriPropLearn (GGKM21 Thm 6.4) stage by stage."""
    q = polypriproplearn_plan(
        d, alpha, epsilon, delta, beta, convergence=convergence, candidates_bound=candidates_bound
    )
    rows = [
        ("proper", "α'", q.alpha_prime, "α/8"),
        ("proper", "K_req", q.K_req, "least k: t(k,d,1/2) ≤ α' (Lemma 6.1)"),
    ]
    rows += _rows(q.inner, "PolyPriLearn(α/4, β/3) ")
    rows += [
        (
            "minimax set",
            "|𝒦| bound",
            q.candidates_bound,
            "least r: t(r, 2^{d+1}−1, 1/2) ≤ α' (Lemma 6.2)" if candidates_bound is None else "class bound",
        ),
        (
            "generic learner",
            "n′",
            q.n_generic,
            "Kal-LN Thm 1 at (γ=α/2, β/3): max(9ln(4|𝒦|/β)/(2γ²), 6ln(2|𝒦|/β)/(εγ))",
        ),
    ]
    return BoundReport(
        f"GGKM21 Theorem 6.4 (PolyPriPropLearn, {convergence} convergence)",
        {"d": d, "alpha": alpha, "epsilon": epsilon, "delta": delta, "beta": beta},
        tuple(rows),
        q.total,
        {"plan": q},
    )


def compare_blm20(ds: list[int], alpha: float, epsilon: float, delta: float, beta: float) -> list[dict]:
    """BLM20 Theorem 1 totals beside GGKM21 Theorems 5.7 and 6.4 (additive and relative) for each d."""
    from .blm20 import theorem1

    out = []
    for d in ds:
        row = {"d": d, "blm20": theorem1(d, alpha, epsilon, delta, beta).total}
        row["ggkm21_improper"] = polyprilearn_plan(d, alpha, epsilon, delta, beta).total
        row["ggkm21_proper"] = polypriproplearn_plan(d, alpha, epsilon, delta, beta).total
        row["ggkm21_proper_relative"] = polypriproplearn_plan(
            d, alpha, epsilon, delta, beta, convergence="relative"
        ).total
        out.append(row)
    return out


def crossover(rows: list[dict], key: str = "ggkm21_proper") -> int | None:
    """The least d from which the GGKM21 total stays below BLM20's (None if it never does in the range)."""
    for i, r in enumerate(rows):
        if all(q[key] < q["blm20"] for q in rows[i:]):
            return r["d"]
    return None


__all__ = [
    "PolyPriLearnPlan",
    "ProperPlan",
    "compare_blm20",
    "crossover",
    "dual_sample_size",
    "lemma61_order",
    "polyprilearn_plan",
    "polypriproplearn_plan",
    "relative_size",
    "theorem57",
    "theorem64",
    "uniform_size",
    "vc_deviation",
]
