"""One-sided Clopper–Pearson (exact binomial) confidence bounds, vectorized over counts."""

from __future__ import annotations

import numpy as np
from scipy.stats import beta

from ..errors import LittlestoneError


def _check(successes: np.ndarray, trials: np.ndarray, alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise LittlestoneError(f"the error probability alpha must lie in (0, 1), got {alpha!r}")
    if np.any(trials <= 0):
        raise LittlestoneError("Clopper–Pearson bounds need at least one trial")
    if np.any(successes < 0) or np.any(successes > trials):
        raise LittlestoneError("success counts must lie between 0 and the number of trials")


def lower_bound(successes, trials, alpha: float) -> np.ndarray | float:
    """Largest p_lb with P[p < p_lb] ≤ alpha: the one-sided exact (Clopper–Pearson 1934) lower bound."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    _check(k, n, alpha)
    safe_k = np.where(k > 0, k, 1.0)
    out = np.where(k > 0, beta.ppf(alpha, safe_k, n - k + 1.0), 0.0)
    return out if out.ndim else float(out)


def upper_bound(successes, trials, alpha: float) -> np.ndarray | float:
    """Smallest p_ub with P[p > p_ub] ≤ alpha: the one-sided exact (Clopper–Pearson 1934) upper bound."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    _check(k, n, alpha)
    safe_rest = np.where(k < n, n - k, 1.0)
    out = np.where(k < n, beta.ppf(1.0 - alpha, k + 1.0, safe_rest), 1.0)
    return out if out.ndim else float(out)
