"""Privacy amplification by subsampling ("secrecy of the sample", BLM20 §1.1; KLN+11; Balle–Barthe–Gaboardi 2018)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator
from ..errors import DomainError, EmptyDataError, PrivacyParameterError
from .budget import PrivacyBudget
from .mechanism import Mechanism, PrivacyClaim, subsampled
from .params import _as_float, check_delta, check_epsilon


def subsample(data: Any, m: int, rng: SeedLike = None) -> Any:
    """m records drawn uniformly WITHOUT replacement (same type as ``data``: array rows or a list).
    Running an (ε, δ)-DP algorithm on it is :func:`amplified_epsilon` (ε, δ, q = m/n)-DP (replace-one) only if the
    choice stays secret: pass ``rng=secret_generator(backend, seed)`` (the OS CSPRNG on the secure backend)."""
    n = len(data)
    if n == 0:
        raise EmptyDataError("subsample: the dataset is empty")
    if isinstance(m, bool) or int(m) != m or not 1 <= int(m) <= n:
        raise DomainError(f"subsample size m must be an integer in [1, {n}], got {m!r}")
    idx = np.sort(as_generator(rng).choice(n, size=int(m), replace=False))
    if isinstance(data, np.ndarray):
        return data[idx]
    return [data[i] for i in idx]


def secret_generator(backend: Any, public: SeedLike = None) -> np.random.Generator:
    """The Generator for randomness whose secrecy a privacy proof needs (a secret subsample, a secret shuffle).

    On a floating-point-safe backend (SecureBackend) it is seeded with 256 bits from the OS CSPRNG — never from the
    user's seed, which is saved with a model; on the SeededBackend (reproducible experiments, NOT private) it is
    ``public``'s Generator, so seeded runs stay reproducible (issue 9 item 6)."""
    if getattr(backend, "floating_point_safe", False):
        import os

        return np.random.default_rng(np.random.SeedSequence(int.from_bytes(os.urandom(32), "little")))
    return as_generator(public)


def amplified_epsilon(epsilon: float, delta: float, q: float) -> tuple[float, float]:
    """(ln(1 + q(e^ε − 1)), q·δ): privacy of an (ε, δ)-DP algorithm run on a subsample that contains each record
    with probability q. Valid for sampling m of n without replacement with q = m/n under replace-one neighbours
    (Balle–Barthe–Gaboardi 2018 Thm 9) and for Poisson sampling with rate q under add/remove-one (ibid. Thm 8).
    Not for sampling with replacement."""
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    qq = _as_float(q, "sampling rate q")
    if not 0.0 < qq <= 1.0:
        raise PrivacyParameterError(f"sampling rate q must satisfy 0 < q <= 1, got {q!r}")
    return math.log1p(qq * math.expm1(eps)), qq * dlt


def sampling_rate_for(target_epsilon: float, epsilon: float) -> float:
    """Largest q with amplified_epsilon(ε, ·, q) ≤ target: q = (e^target − 1)/(e^ε − 1) (capped at 1).
    E.g. a (1, δ)-DP learner on m = q·n records is (target, q·δ)-DP, q ≈ target·(e−1)⁻¹ — BLM20's 'factor 1/ε'."""
    t = check_epsilon(target_epsilon, "target_epsilon")
    eps = check_epsilon(epsilon)
    return min(1.0, math.expm1(t) / math.expm1(eps))


class SubsampledMechanism(Mechanism):
    """``inner`` run on a secret subsample of m of the n records (drawn without replacement; n is public): the claim
    is :func:`~littlestone.privacy.mechanism.subsampled` at q = m/n (BBG18 Thm 9, replace-one). The subsample comes
    from :func:`secret_generator` — the OS CSPRNG on a floating-point-safe backend whatever ``seed`` (the user's public
    seed) says; on the SeededBackend from ``seed``, or from the backend's own generator when ``seed`` is None."""

    name = "subsampled"

    def __init__(self, inner: Mechanism, m: int, n: int, *, seed: SeedLike = None):
        if not isinstance(inner, Mechanism):
            raise PrivacyParameterError(f"inner must be a Mechanism, got {type(inner).__name__}")
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise DomainError(f"the public dataset size n must be an integer >= 1, got {n!r}")
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or not 1 <= m <= n:
            raise DomainError(f"subsample size m must be an integer in [1, {n}], got {m!r}")
        self.inner, self.m, self.n, self.seed = inner, int(m), int(n), seed

    def privacy(self) -> PrivacyClaim:
        return subsampled(
            self.inner, self.m / self.n, what=f"{self.inner.name} on a secret subsample ({self.m} of {self.n})"
        )

    def records(self, data: Any) -> Any:
        """The data, checked to hold the n records the claim was stated for."""
        if len(data) != self.n:
            raise DomainError(f"subsampled mechanism: the data has {len(data)} records, the public n is {self.n}")
        return data if isinstance(data, np.ndarray) else list(data)

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> Any:
        records = self.records(data)
        self.charge_to(budget)
        public = self.seed if self.seed is not None else getattr(backend, "rng", None)
        return self.inner(subsample(records, self.m, secret_generator(backend, public)), backend=backend)
