"""Composition theorems for (ε, δ)-DP (Dwork–Roth Thm 3.16 and 3.20; Dwork–Rothblum–Vadhan 2010 Thm III.3)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..errors import PrivacyParameterError
from .params import check_delta, check_epsilon


def _checked_parts(parts: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """The (ε_i, δ_i) pairs of a composition, each checked (ε_i > 0, 0 ≤ δ_i < 1)."""
    checked = []
    for i, part in enumerate(parts):
        try:
            e, d = part
        except (TypeError, ValueError):
            raise PrivacyParameterError(f"composition part {i} must be a pair (epsilon, delta), got {part!r}") from None
        checked.append((check_epsilon(e, f"epsilon of part {i}"), check_delta(d, f"delta of part {i}")))
    return checked


def basic_composition(parts: Iterable[tuple[float, float]]) -> tuple[float, float]:
    """(Σ ε_i, Σ δ_i) for mechanisms run one after another, adaptively (Dwork–Roth Thm 3.16)."""
    checked = _checked_parts(parts)
    return float(sum(e for e, _ in checked)), float(sum(d for _, d in checked))


def advanced_composition(epsilon: float, delta: float, k: int, delta_prime: float) -> tuple[float, float]:
    """k-fold adaptive composition of (ε, δ)-DP mechanisms is (ε√(2k ln(1/δ')) + kε(e^ε − 1), kδ + δ')-DP
    (Dwork–Roth Thm 3.20)."""
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    dp_ = check_delta(delta_prime, "delta_prime", positive=True)
    if isinstance(k, bool) or int(k) != k or int(k) < 1:
        raise PrivacyParameterError(f"number of compositions k must be a positive integer, got {k!r}")
    k = int(k)
    return eps * math.sqrt(2 * k * math.log(1 / dp_)) + k * eps * math.expm1(eps), k * dlt + dp_


def heterogeneous_advanced_composition(parts: Iterable[tuple[float, float]], delta_prime: float) -> tuple[float, float]:
    """Adaptive composition of (ε_i, δ_i)-DP mechanisms is (√(2 ln(1/δ')·Σε_i²) + Σ ε_i(e^{ε_i} − 1), Σδ_i + δ')-DP
    (Dwork–Rothblum–Vadhan 2010 Thm III.3: the privacy loss of step i has mean ≤ ε_i(e^{ε_i} − 1) and range ±ε_i,
    Azuma's inequality; with all ε_i = ε it is Dwork–Roth Thm 3.20). An empty list gives (0, 0)."""
    dp_ = check_delta(delta_prime, "delta_prime", positive=True)
    checked = _checked_parts(parts)
    if not checked:
        return (0.0, 0.0)
    sq = sum(e * e for e, _ in checked)
    drift = sum(e * math.expm1(e) if e < 700.0 else math.inf for e, _ in checked)
    delta_total = sum(d for _, d in checked)
    return math.sqrt(2.0 * math.log(1.0 / dp_) * sq) + drift, delta_total + dp_


def per_step_epsilon(total_epsilon: float, k: int, delta_prime: float) -> float:
    """Largest ε₀ such that k runs of an ε₀-DP mechanism spend ≤ ``total_epsilon`` by basic composition (ε/k) or by
    advanced composition with slack ``delta_prime`` (bisection), whichever allows more. When the result exceeds
    total_epsilon/k it relies on advanced composition, and the k runs also spend ``delta_prime`` (use
    ``PrivacyBudget(..., composition="advanced", delta_prime=...)`` to account them)."""
    target = check_epsilon(total_epsilon, "total_epsilon")
    lo, hi = 0.0, target
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid > 0 and advanced_composition(mid, 0.0, k, delta_prime)[0] <= target:
            lo = mid
        else:
            hi = mid
    return max(lo, target / int(k)) if lo > 0 else target / int(k)


def parallel_over_segments(parts: Iterable[tuple[float, float]]) -> tuple[float, float]:
    """(max ε_i, max δ_i) for mechanisms run on disjoint segments of an adaptively chosen stream (ALGORITHMS.md F.1;
    docs/derivations.md, "Disjoint segments in parallel (F.1 for approximate DP)"): segment i starts at a round
    decided by the outputs released before it, and whatever runs in it is (ε_i, δ_i)-DP against a changed round.

    Valid only when the caller has checked both conditions of the derivation: (1) what runs in segment i reads only
    the rounds of segment i, randomness independent of the data and the outputs released before (no list, counter,
    pool or cache filled from another segment's rounds); (2) (ε_i, δ_i) is the basic composition of calls that are
    pure ε-DP (interactive ones allowed, e.g. AboveThreshold runs) or one-shot (ε, δ)-DP (e.g. a histogram of values
    fixed before the call). An interactive (ε, δ)-DP part with δ > 0 is not enough: restarted on segments whose ends
    it releases, its δ can add up over the segments (counterexample in the derivation). An empty list gives (0, 0)."""
    checked = _checked_parts(parts)
    if not checked:
        return (0.0, 0.0)
    return max(e for e, _ in checked), max(d for _, d in checked)
