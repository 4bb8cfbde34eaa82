"""One place for parameter checks (issue 10 item 3): every check raises :class:`~littlestone.errors.InvalidParameterError`
(a ValueError) with a message naming the parameter and the value.

    from littlestone.validation import check_epsilon, check_delta
    eps = check_epsilon(epsilon)          # 0 < ε < ∞
    delta = check_delta(delta)            # 0 ≤ δ < 1 (positive=True: 0 < δ < 1)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .errors import InvalidParameterError

__all__ = ["check_delta", "check_epsilon", "check_jobs", "check_positive_int", "check_seed", "check_unit_interval"]


def number(value: Any, name: str, *, error: type[Exception] = InvalidParameterError) -> float:
    """A real number as a float (not a bool, not a string, not NaN); ``error`` is the exception raised."""
    if isinstance(value, (bool, np.bool_)):
        raise error(f"{name} must be a number, not a bool ({value!r})")
    if isinstance(value, (str, bytes)):
        raise error(f"{name} must be a number, not a string ({value!r})")
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise error(f"{name} must be a number, got {value!r}") from None
    if math.isnan(out):
        raise error(f"{name} is NaN")
    return out


def check_epsilon(epsilon: Any, name: str = "epsilon", *, error: type[Exception] = InvalidParameterError) -> float:
    """ε as a float: 0 < ε < ∞."""
    eps = number(epsilon, name, error=error)
    if not 0 < eps < math.inf:
        raise error(f"{name} must be a finite number > 0, got {epsilon!r}")
    return eps


def check_delta(
    delta: Any, name: str = "delta", *, positive: bool = False, error: type[Exception] = InvalidParameterError
) -> float:
    """δ as a float: 0 ≤ δ < 1 (0 < δ < 1 with ``positive``)."""
    d = number(delta, name, error=error)
    if positive and not d > 0:
        raise error(f"{name} must be > 0 here (an (ε, δ)-DP mechanism with δ > 0), got {delta!r}")
    if not 0.0 <= d < 1.0:
        raise error(f"{name} must satisfy 0 <= {name} < 1, got {delta!r}")
    return d


def check_unit_interval(
    value: Any, name: str, *, closed: bool = False, error: type[Exception] = InvalidParameterError
) -> float:
    """A probability-like parameter (α, β, η, a rate): 0 < value < 1 (0 ≤ value ≤ 1 when ``closed``)."""
    v = number(value, name, error=error)
    ok = 0.0 <= v <= 1.0 if closed else 0.0 < v < 1.0
    if not ok:
        bounds = "0 <= {0} <= 1" if closed else "0 < {0} < 1"
        raise error(f"{name} must satisfy {bounds.format(name)}, got {value!r}")
    return v


def check_positive_int(value: Any, name: str, *, minimum: int = 1) -> int:
    """An integer ≥ ``minimum`` (an integral float such as 3.0 is accepted; 1.5, True and "3" are not)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidParameterError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if isinstance(value, (float, np.floating)) and not (math.isfinite(value) and float(value).is_integer()):
        raise InvalidParameterError(f"{name} must be an integer >= {minimum}, got {value!r}")
    out = int(value)
    if out < minimum:
        raise InvalidParameterError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return out


def check_jobs(jobs: Any, name: str = "jobs") -> int:
    """Parallel workers: a positive integer, or -1 for all cores."""
    if isinstance(jobs, (bool, np.bool_)) or not isinstance(jobs, (int, np.integer)) or not (jobs >= 1 or jobs == -1):
        raise InvalidParameterError(f"{name} must be a positive integer or -1 (all cores), got {jobs!r}")
    return int(jobs)


def check_seed(seed: Any, name: str = "seed") -> Any:
    """A seed: None, a non-negative int, a numpy SeedSequence or Generator (returned as given)."""
    if seed is None or isinstance(seed, (np.random.SeedSequence, np.random.Generator)):
        return seed
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidParameterError(
            f"{name} must be None, a non-negative integer, a SeedSequence or a numpy Generator, got {seed!r}"
        )
    return int(seed)
