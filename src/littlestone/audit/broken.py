"""Deliberately broken twins of the privacy mechanisms: each is a subclass of the honest mechanism that overrides
``__call__`` with one classic bug and keeps the honest claim (``privacy()`` is inherited), and must be caught by its
audit (ε_lb > claimed ε) — the evidence that the audits have power. Each twin shares its honest audit's set-up
(:meth:`~littlestone.audit.spec.BuiltinAudit.twin`, declared in :mod:`littlestone.audit.registry`)."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from typing import Any

import numpy as np

from ..errors import LittlestoneError
from ..privacy import (
    BOTTOM,
    AboveThresholdRun,
    BinaryMechanism,
    BinaryMechanismRelease,
    BoundedHistogram,
    ExponentialMechanism,
    HistogramRelease,
    ReportNoisyMax,
    RunningSumAboveThresholdRun,
    SparseSelection,
    SparseVectorRun,
    SecureBackend,
    StableHistogram,
    SubsampledMechanism,
    subsample,
    tree_levels,
)
from .builtin import AgnosticRefusal, CountLaplace, DeclaredLabelCoding, _finite_thresholds


class HalfNoiseCountLaplace(CountLaplace):
    """BROKEN: Lap(0.5/ε) for a count of sensitivity 1 (half the noise)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        return float(backend.add_laplace(np.asarray(float(np.sum(data))), 0.5 / self.epsilon))


class FloatAddedCountLaplace(CountLaplace):
    """BROKEN (issue 9 item 1): an exactly sampled OpenDP noise value added to the count in float arithmetic. On a
    SecureBackend the sample is OpenDP's own (``SecureBackend("opendp")``, its fine 2^k grid: the old binary
    mechanism's bug); the native sampler's raw Laplace sits on a grid relative to its scale, which this event does
    not separate."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        if isinstance(backend, SecureBackend) and backend.sampler != "opendp":
            backend = SecureBackend("opendp")
        return float(np.sum(data)) + float(backend.laplace(self.sensitivity / self.epsilon))


def _argmax_half_scale(mechanism: ExponentialMechanism, scores: Any, backend: Any) -> int:
    """argmax(score + noise of scale Δ/ε) instead of 2Δ/ε: exp(ε·score/Δ) instead of exp(ε·score/(2Δ))."""
    return backend.noisy_argmax(
        np.asarray(scores, dtype=float), mechanism.sensitivity / mechanism.epsilon, mechanism.noise
    )


class ExponentialScoreNotHalved(ExponentialMechanism):
    """BROKEN: P(i) ∝ exp(ε·score_i/Δ) instead of exp(ε·score_i/(2Δ))."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> int:
        return _argmax_half_scale(self, data, backend)


class NoisyMaxHalfNoise(ReportNoisyMax):
    """BROKEN: report-noisy-max with Exponential(Δ/ε) instead of Exponential(2Δ/ε)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> int:
        return _argmax_half_scale(self, data, backend)


def _release(
    mechanism: Any, counts: dict, threshold: float, scale: float, backend: Any, **meta: Any
) -> HistogramRelease:
    return HistogramRelease(
        counts=counts,
        threshold=threshold,
        noise_scale=scale,
        epsilon=mechanism.epsilon,
        delta=mechanism.delta,
        n=None,
        requested_delta=mechanism.delta,
        noise="laplace",
        backend=backend.name,
        meta=meta,
    )


def _counts(items: Any) -> tuple[list[Any], np.ndarray]:
    """Keys in first-seen order and their counts (what the old histograms did)."""
    counter = Counter(items)
    keys = list(counter)
    return keys, np.array([counter[k] for k in keys], dtype=float)


def _stable_in_floats(
    mechanism: StableHistogram, items: Any, backend: Any, *, noise_factor: float = 1.0, threshold_shift: float = 0.0
) -> HistogramRelease:
    """Stable histogram (BNS16 Prop 2.20) with scale noise_factor·2/ε and threshold τ + threshold_shift (correct: 1
    and 0), continuous noise."""
    keys, counts = _counts(items)
    scale = noise_factor * 2.0 / mechanism.epsilon
    tau = 1.0 + (2.0 / mechanism.epsilon) * math.log(2.0 / mechanism.delta) + threshold_shift
    noisy = counts + np.asarray(backend.laplace(scale, counts.size), dtype=float)
    out = {keys[i]: float(noisy[i]) for i in np.flatnonzero(noisy > tau)}
    return _release(mechanism, out, tau, scale, backend)


class StableHistogramThresholdTooLow(StableHistogram):
    """BROKEN: the stable histogram with threshold τ − 1."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        return _stable_in_floats(self, data, backend, threshold_shift=-1.0)


class StableHistogramHalfNoise(StableHistogram):
    """BROKEN: the stable histogram with Lap(1/ε) instead of Lap(2/ε)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        return _stable_in_floats(self, data, backend, noise_factor=0.5)


class BoundedHistogramHalfNoise(BoundedHistogram):
    """BROKEN: the bounded histogram (LWY25 Thm 2.6) with truncated Lap(1/ε) instead of Lap(2/ε) on the correct
    support [−A, A]."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        from ..privacy import truncation_bound

        big_a = truncation_bound(self.epsilon, self.delta, discrete=False)[0]
        keys, counts = _counts(data)
        b = 0.5 * 2.0 / self.epsilon
        u = np.asarray(backend.uniform(counts.size), dtype=float)
        sign = np.asarray(backend.uniform(counts.size), dtype=float)
        mag = -b * np.log1p(-u * -math.expm1(-big_a / b))
        noisy = counts + np.where(sign < 0.5, -mag, mag).clip(-big_a, big_a)
        out = {keys[i]: float(noisy[i]) for i in np.flatnonzero(noisy > 1.0 + big_a)}
        return _release(self, out, 1.0 + big_a, b, backend, truncation=big_a)


def _first_top_redrawn(values: np.ndarray, backend: Any, size: int | None, threshold: float, epsilon: float) -> Any:
    """``size`` runs (one when None) of AboveThreshold (Dwork–Roth Alg. 1) on a fixed stream, vectorized, with the
    classic bug: fresh threshold noise for every query. Index of the first ⊤ (−1: none)."""
    runs, k = (1 if size is None else size), values.size
    rho = np.asarray(backend.laplace(2.0 / epsilon, (runs, k)), dtype=float)
    nu = np.asarray(backend.laplace(4.0 / epsilon, (runs, k)), dtype=float)
    top = values[None, :] + nu >= threshold + rho
    out = np.where(top.any(axis=1), top.argmax(axis=1), -1)
    return int(out[0]) if size is None else out


class AboveThresholdNoiseRedrawn(AboveThresholdRun):
    """BROKEN: AboveThreshold with the threshold noise redrawn for every query (vectorized: ``size`` runs at once)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None, size: int | None = None) -> Any:
        return _first_top_redrawn(np.asarray(data, dtype=float), backend, size, self.threshold, self.epsilon)


class RunningSumNoiseRedrawn(RunningSumAboveThresholdRun):
    """BROKEN: the running-sum AboveThreshold (LWY25 Thm 2.5) with the threshold noise redrawn every round."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None, size: int | None = None) -> Any:
        sums = np.cumsum(np.asarray(data, dtype=float))
        return _first_top_redrawn(sums, backend, size, self.threshold, self.epsilon)


class SparseVectorEpsilonNotSplit(SparseVectorRun):
    """BROKEN: SparseVector giving every AboveThreshold run ε instead of ε/c."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        unsplit = SparseVectorRun(
            self.threshold, self.epsilon * self.max_positives, self.max_positives, sensitivity=self.sensitivity
        )
        return unsplit(data, backend=backend)


class SparseSelectionWithoutBottom(SparseSelection):
    """BROKEN: sparse selection without the ⊥ weight."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        counts = self.counts(data)
        keys = list(counts)
        idx = backend.noisy_argmax([float(counts[k]) for k in keys], 2.0 / self.epsilon, "gumbel")
        return BOTTOM if idx == len(keys) else keys[idx]


class BinaryMechanismWithoutLevelFactor(BinaryMechanismRelease):
    """BROKEN: the binary mechanism with Lap(Δ/ε) per node instead of Lap(Δ·L/ε)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        values = self.stream(data)
        counter = BinaryMechanism(
            self.T,
            self.epsilon * tree_levels(self.T),
            sensitivity=self.sensitivity,
            backend=backend,
            discrete=self.discrete,
        )
        return tuple(counter.step(x) for x in values)


class FirstSeenKeysHistogram(StableHistogram):
    """BROKEN (issue 9 item 4): the stable histogram re-laid-out the old way — keys in first-seen order as the data's
    first-seen objects."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        items = list(data)
        rel = super().__call__(items, backend=backend)
        return dataclasses.replace(rel, counts={k: rel[k] for k in dict.fromkeys(items) if k in rel})


class ExactSizeHistogram(FirstSeenKeysHistogram):
    """BROKEN (issue 9 item 3): as :class:`FirstSeenKeysHistogram`, and the exact dataset size kept in ``n``."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        items = list(data)
        return dataclasses.replace(super().__call__(items, backend=backend), n=len(items))


class NonSecretSubsample(SubsampledMechanism):
    """BROKEN: the 'subsample' is the first m records (not random), yet amplification is claimed."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        return self.inner(self.records(data)[: self.m], backend=backend)


class PublicSeedSubsample(SubsampledMechanism):
    """BROKEN (issue 9 item 6): the 'secret' subsample drawn from the user's (public, saved) seed."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        return self.inner(subsample(self.records(data), self.m, np.random.default_rng(self.seed)), backend=backend)


class InferredLabelCoding(DeclaredLabelCoding):
    """BROKEN (issue 9 item 2): the label coding inferred from the private labels (classes=None)."""

    def __call__(self, data: tuple, *, backend: Any) -> Any:
        est = self.fit(data, backend, None)
        return repr([c.item() if isinstance(c, np.generic) else c for c in est.classes_])


class LabelingsCapOnData(AgnosticRefusal):
    """BROKEN (issue 9 item 20): refusing when the sample's own realizable labelings exceed the cap."""

    def __call__(self, data: tuple, *, backend: Any) -> str:
        from ..classes.base import as_python_point
        from ..pac.agnostic import realizable_labelings

        X, _ = data
        H = _finite_thresholds()
        pts = sorted({as_python_point(x) for x in X})
        try:
            realizable_labelings(H.version_space(), list(H.validate_points(pts)), self.max_labelings)
        except LittlestoneError:
            return "refused"
        return "ran"
