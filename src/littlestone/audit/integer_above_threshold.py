"""Audits of the secure backend's fast path for running counts (issue 27: the secure backend within 3× of seeded),
each with the broken twin of its leak class:

* ``dyadic_discrete_laplace_sampler`` — a count released with the noise of
  :func:`~littlestone.privacy.exact_sampling.discrete_laplace_at_least` at scale 1/ε (the dyadic sampler: q = e^(−1)
  rounded UP to a multiple of 2^-32), ε = 1: count 1 vs 0. Twin ``dyadic_sampler_parameter_rounded_down``: the
  parameter rounded the wrong way on a coarse grid, q = ⌊4e^(−1)⌋/4 = 1/4 < e^(−1), so neighbouring outputs differ by
  a factor 4 = e^(1.39) while the claim is e^1 — the leak class "q below e^(−1/b)" made visible.
* ``step_above_threshold_secure_integer`` — :class:`~littlestone.privacy.StepAboveThreshold` on the secure backend
  with ``integer_queries=True`` (unit grid, dyadic noise of scale 1/ε for both ρ and ν), τ = 0, ε = 1, queries
  (0,)·8 vs (1,)·8 (a step: the running count of a stream whose first round is replaced); output: the index of the
  first ⊤. Twin ``step_above_threshold_secure_integer_half_noise``: the same with both scales halved.

All run on OS randomness (``randomness="secure"``, ``extra["secure_only"]``): what is audited is the secure path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..privacy import DiscreteLaplaceMechanism, SecureBackend
from ..privacy.exact_sampling import discrete_laplace_at_least, discrete_laplace_dyadic
from ..privacy.monotone_above_threshold import StepAboveThreshold, StepAboveThresholdRun
from .builtin import BuiltinAudit

EPS = 1.0
#: the twin's parameter: e^(−1) rounded DOWN to a multiple of 1/4 (8-bit numerator 64: q = 1/4)
ROUNDED_DOWN_Q = 64


class DyadicSamplerCount(DiscreteLaplaceMechanism):
    """The discrete Laplace mechanism on the count of a 0/1 dataset (sensitivity 1), its noise drawn by the secure
    native fast path :func:`discrete_laplace_at_least` (the dyadic sampler at scale ≤ 64); ``size`` runs at once."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None, size: int | None = None) -> Any:
        out = int(np.sum(data)) + discrete_laplace_at_least(self.scale, 1 if size is None else int(size))
        return int(out[0]) if size is None else out


class RoundedDownDyadicCount(DyadicSamplerCount):
    """BROKEN: the dyadic sampler with its parameter rounded DOWN on a 2-bit grid (q = 1/4 < e^(−1)); claims ε = 1."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None, size: int | None = None) -> Any:
        out = int(np.sum(data)) + discrete_laplace_dyadic(ROUNDED_DOWN_Q, 1 if size is None else int(size), bits=8)
        return int(out[0]) if size is None else out


def _first_top_on_integer_path(mechanism: StepAboveThresholdRun, at_class: type, data: Any) -> int:
    """One run of ``at_class`` with the mechanism's parameters on the SECURE backend's integer path (unit grid,
    dyadic noise): the index of the first ⊤ (−1: none)."""
    at = at_class(
        mechanism.threshold,
        mechanism.epsilon,
        sensitivity=mechanism.sensitivity,
        backend=SecureBackend("native"),
        integer_queries=True,
        noise_batch=8,
        threshold_batch=1,
    )
    return at.first_above(np.asarray(data, dtype=float))


class SecureIntegerStepAT(StepAboveThresholdRun):
    """The step AboveThreshold as one release on the SECURE backend's integer path (``integer_queries=True``: unit
    grid, dyadic noise), whatever backend is handed; ``data`` the integer query values, output the first ⊤ (−1:
    none)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> int:
        return _first_top_on_integer_path(self, StepAboveThreshold, data)


class _HalfNoiseStep(StepAboveThreshold):
    """BROKEN: both noises at half the step AboveThreshold's scale."""

    _threshold_scale = 0.5
    _query_scale = 0.5


class SecureIntegerStepATHalfNoise(SecureIntegerStepAT):
    """BROKEN: :class:`SecureIntegerStepAT` with both noise scales halved; claims ε."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> int:
        return _first_top_on_integer_path(self, _HalfNoiseStep, data)


def integer_above_threshold_audits() -> list[tuple[BuiltinAudit, list[BuiltinAudit]]]:
    """(honest audit, its broken twins) for the dyadic sampler and the step AboveThreshold's secure integer path."""
    sampler = BuiltinAudit(
        "dyadic_discrete_laplace_sampler",
        "discrete Laplace mechanism on a count, ε=1, noise from the SECURE backend's dyadic sampler (q = e^(−1) "
        "rounded up to 2^-32; AboveThreshold's integer path): count 1 vs 0",
        DyadicSamplerCount(EPS),
        [1],
        [0],
        randomness="secure",
        runs=200_000,
        vectorized=True,
        extra={"secure_only": True},
    )
    out = [
        (
            sampler,
            [
                sampler.twin(
                    "dyadic_sampler_parameter_rounded_down",
                    "dyadic sampler with q = e^(−1) rounded DOWN to 1/4 (the wrong way, on a 2-bit grid); claims ε=1",
                    RoundedDownDyadicCount(EPS),
                )
            ],
        )
    ]
    step = BuiltinAudit(
        "step_above_threshold_secure_integer",
        "step AboveThreshold on the SECURE backend's integer path (unit grid, dyadic noise), ε=1, T=0: queries "
        "(0,)·8 vs (1,)·8",
        SecureIntegerStepAT(0.0, EPS),
        [0.0] * 8,
        [1.0] * 8,
        randomness="secure",
        runs=60_000,
        extra={"secure_only": True},
    )
    out.append(
        (
            step,
            [
                step.twin(
                    "step_above_threshold_secure_integer_half_noise",
                    "step AboveThreshold on the secure integer path with both noises at half scale; claims ε=1",
                    SecureIntegerStepATHalfNoise(0.0, EPS),
                )
            ],
        )
    )
    return out
