"""Accuracy of the thresholds H^label sanitizer (:mod:`littlestone.sanitizers.threshold_label`) and the concrete
LWY25 Thm 4.1 regret bound of Algorithm 3 built on it with Hedge over thresholds (derivations in docs/derivations.md,
"Thresholds H^label sanitizer" and "Algorithm 3 on thresholds"). Kept here so calculators need not import the
sanitizer.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import LittlestoneError
from ..privacy import check_epsilon, check_probability

#: largest domain: the leaves 0 … 2^L − 1 and every interval end fit in int64
MAX_LEVELS = 62


def tree_depth(n: int) -> int:
    """L = ⌈log2 n⌉ (at least 1): the domain {0..n−1} padded to 2^L leaves."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise LittlestoneError(f"the domain size n must be an integer >= 1, got {n!r}")
    L = max(1, (int(n) - 1).bit_length())
    if L > MAX_LEVELS:
        raise LittlestoneError(
            f"domain size n = {n} needs {L} tree levels; at most 2^{MAX_LEVELS} points are supported"
        )
    return L


def node_scale(levels: int, epsilon: float) -> float:
    """b = 2(L+1)/ε: discrete Laplace scale of every node (each level (ε/(L+1))-DP with L1 sensitivity 2)."""
    return 2.0 * (levels + 1) / check_epsilon(epsilon)


def _log_mgf(lam: float, b: float) -> float:
    """ln E[e^{λZ}] for Z discrete Laplace, P(z) ∝ p^{|z|}, p = e^{−1/b}: ln[(1−p)² / (1 + p² − 2p·cosh λ)], λ < 1/b."""
    p = math.exp(-1.0 / b)
    return 2.0 * math.log1p(-p) - math.log(1.0 + p * p - 2.0 * p * math.cosh(lam))


def threshold_label_noise_bound(levels: int, epsilon: float, beta: float) -> int:
    """Ψ: with probability ≥ 1 − β every prefix noise sum (≤ L i.i.d. discrete Laplace(b), b = 2(L+1)/ε; both labels,
    all 2^L + 1 prefixes) is at most Ψ in absolute value.

    Chernoff: P(|Σ_{i≤L} Z_i| ≥ a) ≤ 2·e^{−λa}·M(λ)^L for 0 < λ < 1/b (M the MGF of one Z; the bound grows with the
    number of terms, so L covers every prefix). Union bound over 2(2^L + 1) prefixes: Ψ = ⌈min_λ [ln(4(2^L+1)/β) +
    L ln M(λ)]/λ⌉ − 1 over λ = c/b, c ∈ {0.01, …, 0.99}."""
    L = int(levels)
    b = node_scale(L, epsilon)
    beta = check_probability(beta)
    log_union = math.log(4.0) + math.log(2.0**L + 1.0) - math.log(beta)
    best = math.inf
    for c in np.arange(1, 100) / 100.0:
        lam = float(c) / b
        best = min(best, (log_union + L * _log_mgf(lam, b)) / lam)
    return max(0, math.ceil(best) - 1)


def threshold_label_alpha(n_samples: int, domain_size: int, epsilon: float, beta: float) -> float:
    """α = 3Ψ/m: with probability ≥ 1 − β every H^label threshold query of ``estimate`` and of the synthetic data is
    within α of the truth (m = ``n_samples``)."""
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise LittlestoneError(f"the sample size must be an integer >= 1, got {n_samples!r}")
    return 3.0 * threshold_label_noise_bound(tree_depth(domain_size), epsilon, beta) / int(n_samples)


def interval_label_alpha(n_samples: int, domain_size: int, epsilon: float, beta: float) -> float:
    """α = 5Ψ/m for the H^label queries of intervals 1[a ≤ x ≤ b] answered from the same release: a range count is
    a difference of two prefix counts (2Ψ per label) and N_1 is off by ≤ Ψ."""
    return 5.0 / 3.0 * threshold_label_alpha(n_samples, domain_size, epsilon, beta)


def threshold_label_sample_size(alpha: float, domain_size: int, epsilon: float, beta: float) -> int:
    """The least m with 3Ψ/m ≤ α."""
    a = check_probability(alpha, "alpha")
    return max(1, math.ceil(3.0 * threshold_label_noise_bound(tree_depth(domain_size), epsilon, beta) / a))


def hedge_thresholds_regret(tau: int, domain_size: int) -> float:
    """R(τ) = √(τ ln(n+1)/2): Hedge over the n+1 thresholds with η = √(8 ln(n+1)/τ) (Cesa-Bianchi–Lugosi Thm 2.2)."""
    return math.sqrt(max(int(tau), 0) * math.log(int(domain_size) + 1) / 2.0)


def algorithm3_thresholds_bound(T: int, B: int, domain_size: int, epsilon: float) -> float:
    """LWY25 Thm 4.1 with constants, for Algorithm 3 with this sanitizer and Hedge, β = 1/T² per batch, τ = ⌊T/B⌋:

        E[regret] ≤ B·R(τ) + 2·(3Ψ/B)·B·τ + (T − Bτ) + τ·β·T,

    (per batch each learner's synthetic error is within α = 3Ψ/B of the true one, once for the learners' outputs and
    once for the comparator; the last T − Bτ rounds are charged 1 each; the T/B sanitizations all succeed but with
    probability τβ)."""
    T, B = int(T), int(B)
    tau = T // B
    beta = 1.0 / (T * T)
    psi = threshold_label_noise_bound(tree_depth(domain_size), epsilon, beta)
    return B * hedge_thresholds_regret(tau, domain_size) + 6.0 * psi * tau + (T - B * tau) + tau * beta * T


def algorithm3_thresholds_batch(T: int, domain_size: int, epsilon: float) -> int:
    """The B ∈ [2, T] minimizing :func:`algorithm3_thresholds_bound` — Cor 4.3's trade-off B·R(T/B) against αT, with
    this sanitizer's α(B) = 3Ψ/B and Hedge's R (geometric scan, then a local refinement)."""
    T = int(T)
    if T < 2:
        raise LittlestoneError(f"Algorithm 3 needs a horizon T >= 2, got {T}")
    f = lambda b: algorithm3_thresholds_bound(T, b, domain_size, epsilon)  # noqa: E731
    grid = sorted({max(2, min(T, int(1.05**k))) for k in range(int(math.log(T) / math.log(1.05)) + 2)})
    best = min(grid, key=f)
    lo, hi = max(2, int(best / 1.05) - 1), min(T, int(best * 1.05) + 2)
    cands = range(lo, hi + 1) if hi - lo < 5000 else np.unique(np.linspace(lo, hi, 2000).astype(int)).tolist()
    return int(min(cands, key=f))
