"""MWEM's accuracy bound (HLM12 Thm 2.2 with β written out; derivation in docs/derivations.md "MWEM"): with
probability ≥ 1 − β,
    max_q |q(Ā) − q(D)|/n ≤ 2√(ln|X|/T) + [4T(ln|Q| + ln(2T/β)) + 2T ln(2T/β)]/(εn),
the T minimizing it, and the least n reaching an accuracy α. The sanitizer itself is
:class:`littlestone.sanitizers.MWEM`; the formulas live here so that calculators need not import it.
"""

from __future__ import annotations

import math

from ..errors import LittlestoneError

__all__ = ["mwem_error_bound", "mwem_sample_size", "mwem_theory_iterations"]


def mwem_error_bound(
    n: int, domain_size: int, n_queries: int, epsilon: float, beta: float, iterations: int, reuse: int = 0
) -> float:
    """The bound above, as a fraction of n. With ``reuse`` = r sweeps over all past measurements after each
    iteration (S = T + r·T(T+1)/2 updates in all) the Laplace term is multiplied by √(S/T) (docs/derivations.md)."""
    T = int(iterations)
    lg = math.log(2 * T / beta)
    replay = math.sqrt(1.0 + int(reuse) * (T + 1) / 2.0)
    return 2.0 * math.sqrt(math.log(max(domain_size, 2)) / T) + (
        4 * T * (math.log(max(n_queries, 2)) + lg) + replay * 2 * T * lg
    ) / (epsilon * n)


def mwem_theory_iterations(n: int, domain_size: int, n_queries: int, epsilon: float, beta: float) -> int:
    """The T ≥ 1 minimizing :func:`mwem_error_bound` (the bound is unimodal in T: scan a geometric grid, refine)."""
    f = lambda T: mwem_error_bound(n, domain_size, n_queries, epsilon, beta, T)  # noqa: E731
    grid = sorted({max(1, int(1.1**k)) for k in range(200) if 1.1**k <= 10 * n + 10})
    best = min(grid, key=f)
    return min(range(max(1, int(best / 1.1) - 1), int(best * 1.1) + 2), key=f)


def mwem_sample_size(alpha: float, domain_size: int, n_queries: int, epsilon: float, beta: float) -> int:
    """Least n for which the theory T gives a bound ≤ α (doubling + bisection)."""
    from .._search import least_true

    def ok(n: int) -> bool:
        T = mwem_theory_iterations(n, domain_size, n_queries, epsilon, beta)
        return mwem_error_bound(n, domain_size, n_queries, epsilon, beta, T) <= alpha

    out = least_true(ok)
    if out is None:
        raise LittlestoneError("no sample size reaches this accuracy")
    return out
