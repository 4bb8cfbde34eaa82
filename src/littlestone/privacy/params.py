"""Privacy-parameter checks: every mechanism validates ε, δ, sensitivity and β through these."""

from __future__ import annotations

import math
from typing import Any

from ..errors import PrivacyParameterError
from ..validation import check_delta as _check_delta
from ..validation import check_epsilon as _check_epsilon
from ..validation import check_unit_interval, number


# ε, δ and β are checked by the one implementation in littlestone.validation, raising PrivacyParameterError (a
# subclass of InvalidParameterError) so callers of the privacy layer can catch privacy-parameter mistakes by name.


def _as_float(value: Any, name: str) -> float:
    return number(value, name, error=PrivacyParameterError)


def check_epsilon(epsilon: Any, name: str = "epsilon") -> float:
    """ε as a float; raises PrivacyParameterError unless 0 < ε < ∞."""
    return _check_epsilon(epsilon, name, error=PrivacyParameterError)


def check_delta(delta: Any, name: str = "delta", *, positive: bool = False) -> float:
    """δ as a float; raises PrivacyParameterError unless 0 ≤ δ < 1 (0 < δ < 1 when ``positive``)."""
    return _check_delta(delta, name, positive=positive, error=PrivacyParameterError)


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
    return check_unit_interval(beta, name, error=PrivacyParameterError)
