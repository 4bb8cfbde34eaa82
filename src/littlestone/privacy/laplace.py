"""The Laplace mechanism (Dwork–Roth Thm 3.6): value + Lap(Δ/ε) per coordinate, Δ the L1 sensitivity."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import DomainError, PrivacyParameterError
from .backends import Backend, check_backend
from .budget import PrivacyBudget
from .mechanism import Mechanism, PrivacyClaim
from .params import check_epsilon, check_positive_int, check_probability, check_sensitivity


class LaplaceMechanism(Mechanism):
    """ε-DP release of a numeric value (scalar or array) of L1 sensitivity Δ (Dwork–Roth Thm 3.6): value + Lap(Δ/ε)
    per coordinate. ``data`` is the value; neighbours: replace-one, or whatever relation Δ was computed for."""

    name = "laplace mechanism"

    def __init__(self, epsilon: float, sensitivity: float = 1.0):
        self.epsilon = check_epsilon(epsilon)
        self.sensitivity = check_sensitivity(sensitivity)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", self.name)

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> Any:
        backend = check_backend(backend)
        arr = numeric_value(data)
        self.charge_to(budget)
        out = backend.add_laplace(arr, self.scale)
        return float(out) if out.ndim == 0 else out

    @property
    def scale(self) -> float:
        """The Laplace scale Δ/ε of every coordinate."""
        return self.sensitivity / self.epsilon

    def noise(self, shape: Any, *, backend: Any) -> np.ndarray:
        """The noise of this mechanism alone, Lap(Δ/ε) of ``shape`` — for data-independent noise drawn ahead of the
        data and added later (one release of a vector drawn in pieces). Adding it to data in floats is not
        floating-point safe (Mironov 2012), so a floating-point-safe backend refuses: use ``__call__`` there."""
        backend = check_backend(backend)
        if backend.floating_point_safe:
            raise PrivacyParameterError(
                "Laplace noise drawn apart and added in floats is not floating-point safe: the secure backend "
                "refuses it (release the value through the mechanism, or use integer data and discrete Laplace)"
            )
        return np.asarray(backend.laplace(self.scale, shape), dtype=float).reshape(shape)


class DiscreteLaplaceMechanism(Mechanism):
    """ε-DP release of an integer value (scalar or array) of integer L1 sensitivity Δ: value + discrete Laplace(Δ/ε)
    per coordinate, P(z) ∝ exp(−ε|z|/Δ) (the geometric mechanism, Ghosh–Roughgarden–Sundararajan 2009; Dwork–Roth
    Thm 3.6's argument on the integers), added in integers — exact on every backend (OpenDP's sampler on the secure
    one). Neighbours: replace-one, or whatever relation Δ was computed for."""

    name = "discrete laplace mechanism"

    def __init__(self, epsilon: float, sensitivity: int = 1):
        self.epsilon = check_epsilon(epsilon)
        sens = check_sensitivity(sensitivity)
        if sens != int(sens):
            raise DomainError(f"the discrete Laplace mechanism needs an integer sensitivity, got {sensitivity!r}")
        self.sensitivity = int(sens)

    @property
    def scale(self) -> float:
        """The discrete Laplace scale Δ/ε of every coordinate."""
        return self.sensitivity / self.epsilon

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", self.name)

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> Any:
        backend = check_backend(backend)
        arr = np.asarray(data)
        if arr.dtype.kind not in "iub":
            raise DomainError("discrete Laplace mechanism: the value to release must be integer")
        self.charge_to(budget)
        out = np.asarray(backend.add_discrete_laplace(arr.astype(np.int64), self.scale), dtype=np.int64)
        return int(out) if out.ndim == 0 else out

    def noise(self, shape: Any, *, backend: Any) -> np.ndarray:
        """The noise of this mechanism alone, discrete Laplace(Δ/ε) of ``shape`` (int64) — for data-independent noise
        drawn ahead and added to integer data later (exact: one release of a vector drawn in pieces)."""
        backend = check_backend(backend)
        return np.asarray(backend.discrete_laplace(self.scale, shape), dtype=np.int64).reshape(shape)


def numeric_value(value: Any) -> np.ndarray:
    """The value a Laplace mechanism releases, as a float array; DomainError unless numeric and finite."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise DomainError(f"laplace_mechanism: the value to release must be numeric, got {str(value)[:60]!r}") from None
    if np.isnan(arr).any():
        raise DomainError("laplace_mechanism: the value to release contains NaN")
    if np.isinf(arr).any():
        raise DomainError("laplace_mechanism: the value to release is infinite")
    return arr


def laplace_mechanism(
    value: Any,
    sensitivity: float,
    epsilon: float,
    *,
    backend: Backend,
    budget: PrivacyBudget | None = None,
) -> Any:
    """ε-DP release of ``value`` (scalar or array) whose L1 sensitivity over neighbouring datasets (replace-one,
    or whatever relation ``sensitivity`` was computed for) is at most ``sensitivity``; charges (ε, 0).
    Returns a float for a scalar, a float array otherwise. (Runs :class:`LaplaceMechanism`.)"""
    return LaplaceMechanism(epsilon, sensitivity)(value, backend=backend, budget=budget)


def laplace_error_bound(sensitivity: float, epsilon: float, beta: float, k: int = 1) -> float:
    """With probability ≥ 1-β all k coordinates have |noise| ≤ (Δ/ε)·ln(k/β) (Dwork–Roth Thm 3.8)."""
    k = check_positive_int(k, "number of coordinates k")
    return check_sensitivity(sensitivity) / check_epsilon(epsilon) * float(np.log(k / check_probability(beta)))
