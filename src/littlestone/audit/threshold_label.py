"""Audits of the thresholds H^label sanitizer (:mod:`littlestone.sanitizers.threshold_label`) and two broken twins.

Real: the synthetic labelled data released by ``ThresholdLabelSanitizer`` (ε = 1, domain {0..3}, so L = 2 and node
scale 6), and the same sanitizer's ``estimate`` on the SECURE backend read through its float bits (the counts are
noised in integers, so the output is k/m for an integer k: nothing for Mironov's attack to find).
Broken twins, each keeping the real claim (1, 0): the dyadic counts released without noise; and the counts noised in
floats on the secure backend (an exactly sampled OpenDP Laplace value added to the count in float arithmetic,
Mironov 2012).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..privacy import DiscreteLaplaceMechanism, SecureBackend
from ..sanitizers.threshold_label import DyadicLabelTree, NoisyDyadicTree, ThresholdLabelSanitizer
from .builtin import BuiltinAudit

EPSILON = 1.0
DOMAIN = 4
#: neighbours: one record (0, 1) replaced by (3, 0); the others fixed
D = ((0, 1), (0, 1), (2, 1), (3, 0))
D_PRIME = ((3, 0), (0, 1), (2, 1), (3, 0))


def _float_bits(value: float) -> str:
    """Binary exponent and last mantissa bit of a float (the event of Mironov's attack)."""
    v = float(value)
    return f"exp={math.frexp(v)[1]},lsb={int(np.float64(v).view(np.uint64) & np.uint64(1))}"


class _Noiseless(DiscreteLaplaceMechanism):
    """A level 'mechanism' that releases the counts as they are (the bug of the first twin)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> np.ndarray:
        return np.asarray(data, dtype=np.int64)


class _FloatNoisedTree(NoisyDyadicTree):
    """The bug of the second twin: each node's count plus an OpenDP Laplace sample, added in floats."""

    def nodes(self, y: int, j: int, ks: Any) -> np.ndarray:
        ks = np.asarray(ks, dtype=np.int64)
        true = self._true_counts(y, j, ks).astype(float)
        backend = self._backend
        if isinstance(backend, SecureBackend) and backend.sampler != "opendp":
            # OpenDP's own raw Laplace (its fine 2^k grid, the float-bit pattern Mironov's event reads); the native
            # sampler's raw Laplace sits on a grid relative to its scale, which this event does not separate
            backend = SecureBackend("opendp")
        return true + np.asarray(backend.laplace(self.scale, ks.shape), dtype=float).reshape(ks.shape)


def _sanitizer(backend: Any) -> ThresholdLabelSanitizer:
    return ThresholdLabelSanitizer(DOMAIN, EPSILON, backend=backend)


def synthetic_release(data: tuple, backend: Any) -> tuple:
    """The real sanitizer's synthetic data (sorted pairs)."""
    return tuple(sorted(_sanitizer(backend).fit(data).synthetic(len(data))))


def estimate_release(data: tuple, backend: Any) -> float:
    """The real sanitizer's Est(h_1): (F̃_1(1) + F̃_0(4) − F̃_0(1))/m."""
    return float(_sanitizer(backend).fit(data).estimate([1])[0])


def noiseless_synthetic(data: tuple, backend: Any) -> tuple:
    """Twin: the tree's counts without noise — the synthetic data are the data."""
    s = _sanitizer(backend).fit(data)
    X = np.array([p[0] for p in data], dtype=np.int64)
    Y = np.array([p[1] for p in data], dtype=np.int8)
    noiseless = [_Noiseless(m.epsilon, m.sensitivity) for m in s.mechanism.level_mechanisms]
    s.tree_ = NoisyDyadicTree(X[Y == 0], X[Y == 1], noiseless, backend)
    return tuple(sorted(s.synthetic(len(data))))


def float_noised_estimate(data: tuple, backend: Any) -> float:
    """Twin: the node counts noised in float arithmetic; releases F̃_1(1) (the leaf node of x = 0, label 1)."""
    X = np.array([p[0] for p in data], dtype=np.int64)
    Y = np.array([p[1] for p in data], dtype=np.int8)
    mech = DyadicLabelTree(DOMAIN, EPSILON)
    tree = _FloatNoisedTree(X[Y == 0], X[Y == 1], mech.level_mechanisms, backend)
    return float(tree.nodes(1, 0, [0])[0])


class SyntheticRelease(DyadicLabelTree):
    """The mechanism audited: the real sanitizer's synthetic data on (x, y) records; the tree's claim."""

    def __call__(self, data: Any, *, backend: Any) -> Any:
        return synthetic_release(data, backend)


class EstimateRelease(DyadicLabelTree):
    """The mechanism audited: the real sanitizer's Est(h_1); the tree's claim."""

    def __call__(self, data: Any, *, backend: Any) -> Any:
        return estimate_release(data, backend)


class NoiselessSynthetic(SyntheticRelease):
    """BROKEN: the tree's counts without noise (keeps the claim)."""

    def __call__(self, data: Any, *, backend: Any) -> Any:
        return noiseless_synthetic(data, backend)


class FloatNoisedEstimate(EstimateRelease):
    """BROKEN: the node counts noised in float arithmetic (keeps the claim)."""

    def __call__(self, data: Any, *, backend: Any) -> Any:
        return float_noised_estimate(data, backend)


def threshold_label_audits() -> list[tuple[BuiltinAudit, list[BuiltinAudit]]]:
    """(honest audit, its broken twins) of this module, for the one registry."""
    synthetic = BuiltinAudit(
        "threshold_label_sanitizer",
        "thresholds H^label sanitizer (dyadic label trees, discrete Laplace), ε=1, domain 4, m=4: "
        "the synthetic data; record (0,1) replaced by (3,0)",
        SyntheticRelease(DOMAIN, EPSILON),
        D,
        D_PRIME,
        runs=4000,
    )
    estimate = BuiltinAudit(
        "threshold_label_float_safe",
        "thresholds H^label sanitizer's estimate on the SECURE backend, ε=1: record (0,1) vs (3,0); "
        "event: the output's binary exponent and last mantissa bit",
        EstimateRelease(DOMAIN, EPSILON),
        D,
        D_PRIME,
        featurize=_float_bits,
        randomness="secure",
        runs=4000,
        extra={"secure_only": True},
    )
    return [
        (
            synthetic,
            [
                synthetic.twin(
                    "threshold_label_counts_without_noise",
                    "thresholds H^label sanitizer with its dyadic counts released without noise; claims (1, 0)",
                    NoiselessSynthetic(DOMAIN, EPSILON),
                    runs=2000,
                )
            ],
        ),
        (
            estimate,
            [
                estimate.twin(
                    "threshold_label_float_noise",
                    "thresholds H^label sanitizer with node counts "
                    "noised in floats on the SECURE backend (OpenDP Laplace sample added in float "
                    "arithmetic); claims (1, 0); event: float bits of the leaf count",
                    FloatNoisedEstimate(DOMAIN, EPSILON),
                    runs=40_000,
                )
            ],
        ),
    ]


__all__ = ["estimate_release", "float_noised_estimate", "noiseless_synthetic", "synthetic_release"]
