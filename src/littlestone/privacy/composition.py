"""Composition theorems for (ε, δ)-DP (Dwork–Roth Thm 3.16 and 3.20)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..errors import PrivacyParameterError
from .params import check_delta, check_epsilon


def basic_composition(parts: Iterable[tuple[float, float]]) -> tuple[float, float]:
    """(Σ ε_i, Σ δ_i) for mechanisms run one after another, adaptively (Dwork–Roth Thm 3.16)."""
    eps_total, delta_total = 0.0, 0.0
    n = 0
    for i, part in enumerate(parts):
        try:
            e, d = part
        except (TypeError, ValueError):
            raise PrivacyParameterError(f"composition part {i} must be a pair (epsilon, delta), got {part!r}") from None
        eps_total += check_epsilon(e, f"epsilon of part {i}")
        delta_total += check_delta(d, f"delta of part {i}")
        n += 1
    if n == 0:
        return (0.0, 0.0)
    return eps_total, delta_total


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


def per_step_epsilon(total_epsilon: float, k: int, delta_prime: float) -> float:
    """Largest ε₀ such that k runs of an ε₀-DP mechanism spend ≤ ``total_epsilon`` by basic composition (ε/k) or by
    advanced composition with slack ``delta_prime`` (bisection), whichever allows more."""
    target = check_epsilon(total_epsilon, "total_epsilon")
    lo, hi = 0.0, target
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid > 0 and advanced_composition(mid, 0.0, k, delta_prime)[0] <= target:
            lo = mid
        else:
            hi = mid
    return max(lo, target / int(k)) if lo > 0 else target / int(k)
