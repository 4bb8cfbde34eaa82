"""Stable (stability-based) histogram: noisy counts of the items present, released above a threshold.

(BLM20 Lemma 15; BNS16 Prop 2.20 / Vad17 Thm 3.5.) Replace-one neighbours. Every item with count ≥ 1 gets
Lap(2/ε) noise (a replacement moves two counts by 1, L1 sensitivity 2); items whose noisy count exceeds
τ = 1 + (2/ε)·ln(2/δ) are released. Threshold applied by us on top of noisy counts (OpenDP's thresholded histogram
under-reports δ, opendp issue #2922, and is not used).

δ actually spent (derived in the docstring of :func:`stable_histogram_delta`):
* continuous Laplace (SeededBackend): δ₁ = P[1 + Z > τ] = ½·exp(-(τ-1)·ε/2) = δ/4;
* discrete Laplace (SecureBackend, OpenDP's exact integer sampler): δ₁ = P[Z ≥ ⌊τ-1⌋+1] = t^m/(1+t), t = e^{-ε/2}.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np

from .._search import least_true
from .backends import Backend, check_backend
from .budget import PrivacyBudget
from .histogram_release import HistogramMechanism, HistogramRelease, _public_n, count_items, release_above
from .params import check_delta, check_epsilon, check_positive_int, check_probability


_NEIGHBOURS = ("replace", "add_remove")


def _check_neighbours(neighbours: str) -> str:
    if neighbours not in _NEIGHBOURS:
        from ..errors import PrivacyParameterError

        raise PrivacyParameterError(f"neighbours must be 'replace' or 'add_remove', got {neighbours!r}")
    return neighbours


def noise_scale(epsilon: float, neighbours: str = "replace") -> float:
    """2/ε for replace-one (two counts move), 1/ε for add/remove-one (one count moves)."""
    return (2.0 if _check_neighbours(neighbours) == "replace" else 1.0) / check_epsilon(epsilon)


def stable_histogram_threshold(epsilon: float, delta: float, neighbours: str = "replace") -> float:
    """τ = 1 + (2/ε)·ln(2/δ) for replace-one; τ = 1 + ln(1/(2δ))/ε for add/remove-one (BNS16 Prop 2.20)."""
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta, positive=True)
    if _check_neighbours(neighbours) == "replace":
        return 1.0 + (2.0 / eps) * math.log(2.0 / dlt)
    return 1.0 + math.log(1.0 / (2.0 * dlt)) / eps


def count_one_release_probability(
    epsilon: float, threshold: float, *, discrete: bool, neighbours: str = "replace"
) -> float:
    """δ₁ = P[an item of true count 1 is released] = P[1 + Z > τ], Z ~ (discrete) Laplace of :func:`noise_scale`."""
    b = noise_scale(epsilon, neighbours)
    gap = threshold - 1.0
    if not discrete:
        return 0.5 * math.exp(-gap / b) if gap >= 0 else 1.0 - 0.5 * math.exp(gap / b)
    t = math.exp(-1.0 / b)
    m = math.floor(gap) + 1  # smallest integer z with z > τ - 1
    if m >= 1:
        return t**m / (1.0 + t)
    return 1.0 - t ** (1 - m) / (1.0 + t)  # P[Z ≥ m] = 1 - P[Z ≤ m-1] = 1 - P[Z ≥ 1-m] by symmetry


def stable_histogram_delta(epsilon: float, threshold: float, *, discrete: bool, neighbours: str = "replace") -> float:
    """Exact δ of the stable histogram with threshold τ.

    Replace-one: neighbours differ in at most two counts by 1. If both changed items are present in both datasets
    the release is a post-processed Laplace mechanism of L1 sensitivity 2: (ε, 0). Otherwise the item x present only
    in D (count 1) is released w.p. δ₁ and never from D'. If the other changed item is shared (one count moves by 1,
    privacy loss ≤ ε/2): P_D[O] ≤ e^{ε/2}P_{D'}[O] + δ₁, and P_{D'}[O] ≤ e^{ε/2}/(1-δ₁)·P_D[O], which is ≤ e^ε·P_D[O]
    when δ₁ ≤ 1 - e^{-ε/2}, else ≤ e^{ε/2}P_D[O] + e^{ε/2}δ₁. If both changed items are unique, the shared counts
    agree and the loss is δ₁ in each direction. Hence δ = δ₁ when δ₁ ≤ 1 - e^{-ε/2}, and δ = e^{ε/2}·δ₁ otherwise.
    Add/remove-one: either the one changed count is shared ((ε, 0)) or x is unique and the rest agree: δ = δ₁."""
    eps = check_epsilon(epsilon)
    d1 = count_one_release_probability(eps, threshold, discrete=discrete, neighbours=neighbours)
    if neighbours == "add_remove":
        return d1
    return d1 if d1 <= -math.expm1(-eps / 2.0) else min(1.0, math.exp(eps / 2.0) * d1)


def calibrated_threshold(
    epsilon: float, delta: float, *, discrete: bool, neighbours: str = "replace"
) -> tuple[float, float]:
    """(τ, exact δ): the spec threshold, raised (to the least integer, for discrete noise, or by bisection) only if its
    exact δ would exceed the requested δ — this happens for discrete noise with add/remove neighbours and large δ,
    where P[Z ≥ ⌈τ-1⌉] can exceed P[Z > τ-1] of the continuous law."""
    req = check_delta(delta, positive=True)
    tau = stable_histogram_threshold(epsilon, req, neighbours)
    spent = stable_histogram_delta(epsilon, tau, discrete=discrete, neighbours=neighbours)
    if spent <= req:
        return tau, spent
    if discrete:
        m = math.floor(tau) + 1
        while stable_histogram_delta(epsilon, m, discrete=True, neighbours=neighbours) > req:
            m += 1
        return float(m), stable_histogram_delta(epsilon, m, discrete=True, neighbours=neighbours)
    lo, hi = tau, tau + 1.0
    while stable_histogram_delta(epsilon, hi, discrete=False, neighbours=neighbours) > req:
        hi += hi - lo
    for _ in range(100):
        mid = (lo + hi) / 2
        if stable_histogram_delta(epsilon, mid, discrete=False, neighbours=neighbours) > req:
            lo = mid
        else:
            hi = mid
    return hi, stable_histogram_delta(epsilon, hi, discrete=False, neighbours=neighbours)


class StableHistogram(HistogramMechanism):
    """(ε, δ)-DP stable histogram of the items ``data`` (BLM20 Lemma 15; BNS16 Prop 2.20): Lap(2/ε) on every nonzero
    count, release the items with noisy count > τ = 1 + (2/ε)ln(2/δ); ``neighbours="add_remove"`` gives the
    add/remove-one variant (Lap(1/ε), τ = 1 + ln(1/(2δ))/ε).

    The claimed δ is the exact δ of the noise used (see :func:`calibrated_threshold`) — discrete Laplace when
    ``discrete`` is True, continuous when False; when None the backend decides (discrete on a floating-point-safe
    one), :meth:`privacy` claims the larger of the two and :meth:`resolve` fixes it for a backend. ``n`` is an
    optional PUBLIC dataset size kept in the release; the exact size of the data is never released. Keys come out
    canonical and in canonical order (:func:`~littlestone.privacy.histogram_release.canonical_order`)."""

    name = "stable histogram"

    def __init__(
        self,
        epsilon: float,
        delta: float,
        *,
        neighbours: str = "replace",
        discrete: bool | None = None,
        n: int | None = None,
    ):
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=True)
        self.neighbours = _check_neighbours(neighbours)
        self.relation = "replace-one" if neighbours == "replace" else "add/remove"
        self.discrete = None if discrete is None else bool(discrete)
        self.n = _public_n(n)
        self._exact = {
            v: calibrated_threshold(self.epsilon, self.delta, discrete=v, neighbours=neighbours)
            for v in self._variants()
        }

    def __call__(
        self, data: Iterable[Hashable] | np.ndarray, *, backend: Any, budget: PrivacyBudget | None = None
    ) -> HistogramRelease:
        backend = check_backend(backend)
        mech = self.resolve(backend)
        use_discrete = bool(mech.discrete)
        threshold, spent_delta = self._exact[use_discrete]
        keys, counts, _size = count_items(data)  # the exact size stays inside (never released)
        mech.charge_to(budget)  # (ε, exact δ of the noise used) = mech.privacy()
        scale = noise_scale(self.epsilon, self.neighbours)
        if use_discrete:
            noisy = backend.add_discrete_laplace(counts, scale)
        else:
            noisy = backend.add_laplace(counts.astype(float), scale)
        return release_above(
            keys,
            noisy,
            threshold,
            discrete=use_discrete,
            noise_scale=scale,
            epsilon=self.epsilon,
            delta=spent_delta,
            n=self.n,
            requested_delta=self.delta,
            noise="discrete_laplace" if use_discrete else "laplace",
            backend=backend.name,
            meta={"neighbours": self.neighbours},
        )


def stable_histogram(
    items: Iterable[Hashable] | np.ndarray,
    epsilon: float,
    delta: float,
    *,
    backend: Backend,
    budget: PrivacyBudget | None = None,
    discrete: bool | None = None,
    n: int | None = None,
    neighbours: str = "replace",
) -> HistogramRelease:
    """(ε, δ)-DP histogram of ``items`` (replace-one neighbours): Lap(2/ε) on every nonzero count, release the items
    with noisy count > τ = 1 + (2/ε)ln(2/δ) (BLM20 Lemma 15; BNS16 Prop 2.20). ``neighbours="add_remove"`` gives the
    add/remove-one variant (Lap(1/ε), τ = 1 + ln(1/(2δ))/ε).

    ``discrete`` (default: True on a floating-point-safe backend) uses discrete Laplace on the integer counts.
    The release's ``delta`` is the exactly derived δ (≤ the requested δ), and that is what ``budget`` is charged;
    ``threshold`` is the τ actually used (see :func:`calibrated_threshold`). ``n`` is an optional PUBLIC dataset
    size kept in the release for :meth:`HistogramRelease.frequencies`; the exact size of ``items`` is never released.
    Keys come out canonical and in canonical order (:func:`~littlestone.privacy.histogram_release.canonical_order`).
    (Runs :class:`StableHistogram`.)"""
    mech = StableHistogram(epsilon, delta, neighbours=neighbours, discrete=discrete, n=n)
    return mech(items, backend=backend, budget=budget)


def stable_histogram_accuracy(
    epsilon: float, delta: float, n: int, beta: float, *, discrete: bool = False, neighbours: str = "replace"
) -> dict[str, float]:
    """With probability ≥ 1-β (BNS16 Prop 2.20): every released noisy count is within a = b·ln(c·n/β) of the truth (b the
    noise scale, 2/ε for replace-one), every item with count ≥ τ + a is released, every released item has count
    ≥ τ - a; c = 1 for continuous Laplace (P[|Z| > a] = e^{-a/b}), c = 2/(1+e^{-1/b}) for discrete Laplace
    (P[|Z| > a] ≤ 2t^a/(1+t), t = e^{-1/b})."""
    b = noise_scale(epsilon, neighbours)
    n = check_positive_int(n, "dataset size n")
    c = 2.0 / (1.0 + math.exp(-1.0 / b)) if discrete else 1.0
    a = b * math.log(c * n / check_probability(beta))
    tau = calibrated_threshold(epsilon, delta, discrete=discrete, neighbours=neighbours)[0]
    return {"noise_bound": a, "always_released_from": tau + a, "never_released_below": tau - a, "threshold": tau}


def stable_histogram_sample_size(
    eta: float, epsilon: float, delta: float, beta: float, *, discrete: bool = False, neighbours: str = "replace"
) -> int:
    """Seed 000 Lemma 15 with its constants: the least n such that, on any dataset of n items, with probability
    ≥ 1-β every item of frequency ≥ η is released and every released item's frequency estimate
    (:meth:`HistogramRelease.frequencies`) is within η of its frequency.

    Sufficient condition (from :func:`stable_histogram_accuracy`, a = b·ln(c·n/β), b the noise scale, τ the threshold
    actually used): η·n ≥ τ + a, which also gives a ≤ η·n. Since τ = 1 + b·ln(2/δ), the least such n is
    Θ(log(1/(ηβδ))/(ηε)), Lemma 15's rate."""
    from ..errors import DomainError

    eta_ = check_probability(eta, "eta")
    check_probability(beta)

    def ok(n: int) -> bool:
        acc = stable_histogram_accuracy(epsilon, delta, n, beta, discrete=discrete, neighbours=neighbours)
        return eta_ * n >= acc["threshold"] + acc["noise_bound"]

    n = least_true(ok)
    if n is None:
        raise DomainError("stable_histogram_sample_size: no feasible n (parameters too extreme)")
    return n
