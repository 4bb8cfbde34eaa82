"""Private histogram with a deterministic error bound (LWY25 Theorem 2.6, after Ali24).

Replace-one neighbours. Every item with count ≥ 1 gets truncated Laplace noise Z ∈ [-A, A] of scale b = 2/ε; items
with noisy count > 1 + A are released. A count-1 item is never released (its noisy count is ≤ 1 + A), so the only δ
is the truncation boundary: shifting a count by 1 is (1/b, δ')-DP with δ' = P[Z lands where the shifted law has no
mass]; two counts move, so the release is (2/b, 2δ') = (ε, 2δ')-DP. We take δ' = δ/2 (the spec's δ/4 spends only δ/2).
* continuous (SeededBackend): A = b·ln(1 + (e^{1/b} - 1)/(2δ')), exactly δ' = e^{-A/b}(e^{1/b}-1)/(2(1-e^{-A/b}));
* discrete (SecureBackend): Z on {-A..A} with P(z) ∝ t^{|z|}, t = e^{-1/b}, A the least integer with P[Z = A] ≤ δ',
  sampled by rejection from OpenDP's exact discrete Laplace (rejections depend on the noise only, never on data).
With probability 1: released items are within A of their count, suppressed items have count ≤ 1 + 2A, so
``release.estimate(x)`` is within ``error_bound`` = 1 + 2A of every count (≤ 8 ln(8/δ)/ε for ε ≤ 1, as Thm 2.6 states).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np

from ..errors import PrivacyParameterError
from .backends import Backend, check_backend
from .budget import PrivacyBudget
from .histogram_release import HistogramMechanism, HistogramRelease, _public_n, count_items, release_above
from .params import check_delta, check_epsilon


def truncation_bound(epsilon: float, delta: float, *, discrete: bool) -> tuple[float, float]:
    """(A, δ_exact): the noise support bound and the δ actually spent by :func:`bounded_histogram`."""
    b = 2.0 / check_epsilon(epsilon)
    d_prime = check_delta(delta, positive=True) / 2.0
    if not discrete:
        big_a = b * math.log1p(math.expm1(1.0 / b) / (2.0 * d_prime))
        exact = math.exp(-big_a / b) * math.expm1(1.0 / b) / (2.0 * -math.expm1(-big_a / b))
        return big_a, 2.0 * min(exact, d_prime)
    t = math.exp(-1.0 / b)

    def point_mass(a: int) -> float:  # P[Z = a] for Z on {-a..a}; decreasing in a
        return t**a / (1.0 + 2.0 * t * (1.0 - t**a) / (1.0 - t))

    lo, hi = 1, max(1, math.ceil(math.log(d_prime) / math.log(t))) + 1
    while lo < hi:  # least a with point_mass(a) <= δ'
        mid = (lo + hi) // 2
        if point_mass(mid) <= d_prime:
            hi = mid
        else:
            lo = mid + 1
    return float(lo), 2.0 * point_mass(lo)


def bounded_histogram_error_bound(epsilon: float, delta: float, *, discrete: bool) -> float:
    """Deterministic sup-error 1 + 2A of :func:`bounded_histogram`'s ``estimate`` over all items."""
    return 1.0 + 2.0 * truncation_bound(epsilon, delta, discrete=discrete)[0]


def _truncated_continuous(backend: Backend, b: float, big_a: float, k: int) -> np.ndarray:
    # Inverse CDF: |Z| is Exponential(b) truncated to [0, A]; the sign is an independent fair coin.
    u = np.asarray(backend.uniform(k), dtype=float)
    s = np.asarray(backend.uniform(k), dtype=float)
    mag = -b * np.log1p(-u * -math.expm1(-big_a / b))
    return np.where(s < 0.5, -mag, mag).clip(-big_a, big_a)


def _truncated_discrete(backend: Backend, counts: np.ndarray, b: float, big_a: int) -> np.ndarray:
    noisy = backend.add_discrete_laplace(counts, b)
    bad = np.flatnonzero(np.abs(noisy - counts) > big_a)
    while bad.size:
        redraw = np.asarray(backend.discrete_laplace(b, bad.size), dtype=np.int64)
        ok = np.abs(redraw) <= big_a
        noisy[bad[ok]] = counts[bad[ok]] + redraw[ok]
        bad = bad[~ok]
    return noisy


class BoundedHistogram(HistogramMechanism):
    """(ε, δ)-DP histogram of the items ``data`` whose estimates are within ``release.error_bound`` of every true count
    with probability 1 (LWY25 Theorem 2.6); replace-one neighbours. ``discrete`` defaults to True on a
    floating-point-safe backend; the continuous variant samples by inverse CDF from ``backend.uniform`` and adds the
    noise in floats (not floating-point safe), so it is refused on a floating-point-safe backend. The claimed δ is
    the exact δ of the noise used; with ``discrete=None`` :meth:`privacy` claims the larger of the two and
    :meth:`resolve` fixes it for a backend."""

    name = "bounded histogram"

    def __init__(self, epsilon: float, delta: float, *, discrete: bool | None = None, n: int | None = None):
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=True)
        self.discrete = None if discrete is None else bool(discrete)
        self.n = _public_n(n)
        self._exact = {v: truncation_bound(self.epsilon, self.delta, discrete=v) for v in self._variants()}

    def __call__(
        self, data: Iterable[Hashable] | np.ndarray, *, backend: Any, budget: PrivacyBudget | None = None
    ) -> HistogramRelease:
        backend = check_backend(backend)
        mech = self.resolve(backend)
        use_discrete = bool(mech.discrete)
        if backend.floating_point_safe and not use_discrete:
            raise PrivacyParameterError(
                "bounded_histogram(discrete=False) adds inverse-CDF noise in floats, which is not floating-point safe; "
                f"on the {backend.name} backend use discrete=True (the default)"
            )
        big_a, spent_delta = self._exact[use_discrete]
        keys, counts, _size = count_items(data)  # the exact size stays inside (never released)
        mech.charge_to(budget)  # (ε, exact δ of the noise used) = mech.privacy()
        b = 2.0 / self.epsilon
        if use_discrete:
            noisy = _truncated_discrete(backend, counts, b, int(big_a))
        else:
            noisy = counts + _truncated_continuous(backend, b, big_a, counts.size)
        return release_above(
            keys,
            noisy,
            1.0 + big_a,
            discrete=use_discrete,
            noise_scale=b,
            epsilon=self.epsilon,
            delta=spent_delta,
            n=self.n,
            requested_delta=self.delta,
            noise="truncated_discrete_laplace" if use_discrete else "truncated_laplace",
            backend=backend.name,
            error_bound=1.0 + 2.0 * big_a,
            meta={"truncation": big_a},
        )


def bounded_histogram(
    items: Iterable[Hashable] | np.ndarray,
    epsilon: float,
    delta: float,
    *,
    backend: Backend,
    budget: PrivacyBudget | None = None,
    discrete: bool | None = None,
    n: int | None = None,
) -> HistogramRelease:
    """(ε, δ)-DP histogram whose estimates are within ``release.error_bound`` of every true count with probability 1
    (LWY25 Theorem 2.6). ``discrete`` defaults to True on a floating-point-safe backend; the continuous
    variant samples by inverse CDF from ``backend.uniform`` and adds the noise in floats (not floating-point safe),
    so it is refused on a floating-point-safe backend (SeededBackend only). (Runs :class:`BoundedHistogram`.)"""
    return BoundedHistogram(epsilon, delta, discrete=discrete, n=n)(items, backend=backend, budget=budget)
