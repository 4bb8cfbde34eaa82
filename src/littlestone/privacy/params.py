"""Privacy-parameter checks: every mechanism validates ε, δ, sensitivity and β through these."""

from __future__ import annotations

import math
from typing import Any

from ..errors import PrivacyParameterError


def _as_float(value: Any, name: str) -> float:
    if isinstance(value, bool):
        raise PrivacyParameterError(f"{name} must be a number, not a bool ({value!r})")
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise PrivacyParameterError(f"{name} must be a number, got {value!r}") from None
    if math.isnan(out):
        raise PrivacyParameterError(f"{name} is NaN")
    return out


def check_epsilon(epsilon: Any, name: str = "epsilon") -> float:
    """ε as a float; raises PrivacyParameterError unless 0 < ε < ∞."""
    eps = _as_float(epsilon, name)
    if not eps > 0:
        raise PrivacyParameterError(f"{name} must be > 0, got {epsilon!r}")
    if math.isinf(eps):
        raise PrivacyParameterError(f"{name} must be finite, got {epsilon!r}")
    return eps


def check_delta(delta: Any, name: str = "delta", *, positive: bool = False) -> float:
    """δ as a float; raises PrivacyParameterError unless 0 ≤ δ < 1 (0 < δ < 1 when ``positive``)."""
    d = _as_float(delta, name)
    if positive and not d > 0:
        raise PrivacyParameterError(f"{name} must be > 0 for this mechanism (it is (ε,δ)-DP with δ > 0), got {delta!r}")
    if not 0.0 <= d < 1.0:
        raise PrivacyParameterError(f"{name} must satisfy 0 <= {name} < 1, got {delta!r}")
    return d


def check_sensitivity(sensitivity: Any, name: str = "sensitivity") -> float:
    """Sensitivity Δ as a float; raises PrivacyParameterError unless 0 < Δ < ∞."""
    s = _as_float(sensitivity, name)
    if not 0 < s < math.inf:
        raise PrivacyParameterError(f"{name} must be positive and finite, got {sensitivity!r}")
    return s


def check_scale(scale: Any, name: str = "scale") -> float:
    """A noise scale b; raises PrivacyParameterError unless 0 < b < ∞."""
    return check_sensitivity(scale, name)


def check_positive_int(value: Any, name: str) -> int:
    """A count (number of queries, candidates, users, positives, …) as an int; PrivacyParameterError unless an
    integer ≥ 1 (an integral float such as 3.0 is accepted, 1.5 / True / "3" are not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__index__"):
        raise PrivacyParameterError(f"{name} must be an integer >= 1, got {value!r}")
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        raise PrivacyParameterError(f"{name} must be an integer >= 1, got {value!r}")
    out = int(value)
    if out < 1:
        raise PrivacyParameterError(f"{name} must be an integer >= 1, got {value!r}")
    return out


def check_probability(beta: Any, name: str = "beta") -> float:
    """A failure probability β; raises PrivacyParameterError unless 0 < β < 1."""
    b = _as_float(beta, name)
    if not 0.0 < b < 1.0:
        raise PrivacyParameterError(f"{name} must satisfy 0 < {name} < 1, got {beta!r}")
    return b
