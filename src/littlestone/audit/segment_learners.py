"""Audits of the segment learners' pieces (issue 27): the monotone and step AboveThresholds and the adaptive games of
ListAT and BisectAT (LWY25 Def. 2.4), each with broken twins the auditor catches.

Mechanisms (exact losses computed by numerical integration, docs/derivations.md "Monotone AboveThreshold" /
"Step AboveThreshold"; τ = 0, ε = 1, the output is the index of the first ⊤, −1 for none):

* monotone: D = (0, 0, 0, 0), D′ = (1, 1, 1, 0) — monotone, not a step — loss ≈ 0.84 (output 3). Twins: both noises
  halved (≈ 1.76 on the same pair); the honest mechanism fed queries that move both ways, D′ = (1, 1, 1, −1)
  (≈ 1.33): the claim's assumption is what makes it hold.
* step: D = (0,)·8, D′ = (1,)·8 — a step — loss ≈ 1.0 (no ⊤), tight. Twins: both noises halved (≈ 2.0); the
  honest mechanism fed monotone queries that are not a step, (0,)·4 vs (1, 1, 1, 0) (≈ 1.76).

Games (features of the released stream ``view`` = its change points):

* ListAT on thresholds(2), list (h_0, h_1, h_2), τ = 4: t* = 0, z⁽⁰⁾ = (0, 1) (h_0 is right), z⁽¹⁾ = (0, 0) (h_0
  errs), then (0, 0) every round; feature: the round of the first ⊤ (the first change). Twin: the segment's
  AboveThreshold with both noises divided by 20 (nearly deterministic ⊤ times).
* BisectAT on thresholds(8) (first threshold 4), τ = 4: t* = 0, z⁽⁰⁾ = a mistake with label 1 (x = m − 1),
  z⁽¹⁾ = a mistake with label 0 (x = m), then mistakes of label 1 and label 0 in turn; feature: the first move
  (the second released threshold). Twin: the sign released without noise.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from ..classes.thresholds import Thresholds
from ..privacy.monotone_above_threshold import (
    MonotoneAboveThresholdRun,
    StepAboveThreshold,
    StepAboveThresholdRun,
)
from ..privacy.laplace import DiscreteLaplaceMechanism
from ..private_online.bisect_at import BisectAT
from ..private_online.list_at import ListAT
from .adaptive_game import BrokenLearnerInGame, LearnerInGame

EPS = 1.0


def _first_top(values: np.ndarray, backend: Any, size: int | None, threshold: float, b_rho: float, b_nu: float) -> Any:
    """``size`` runs (one when None) of AboveThreshold with threshold noise Lap(b_rho), query noise Lap(b_nu) on a
    fixed stream, vectorised: the index of the first ⊤ (−1: none). Broken twins only (they draw their wrong noise
    themselves, as audit/broken.py's do; tests/core/test_noise_only_through_mechanisms.py allows this module for it)."""
    runs, k = (1 if size is None else size), values.size
    rho = np.asarray(backend.laplace(b_rho, (runs, 1)), dtype=float)
    nu = np.asarray(backend.laplace(b_nu, (runs, k)), dtype=float)
    top = values[None, :] + nu >= threshold + rho
    out = np.where(top.any(axis=1), top.argmax(axis=1), -1)
    return int(out[0]) if size is None else out


class MonotoneAboveThresholdHalfNoise(MonotoneAboveThresholdRun):
    """BROKEN: the monotone AboveThreshold with both noises Lap(Δ/ε) (half of Lap(2Δ/ε)); claims ε."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None, size: int | None = None) -> Any:
        b = self.sensitivity / self.epsilon
        return _first_top(np.asarray(data, dtype=float), backend, size, self.threshold, b, b)


class MonotoneAboveThresholdOnTwoWayQueries(MonotoneAboveThresholdRun):
    """BROKEN use: the honest monotone AboveThreshold (LSL17 scales) fed neighbouring queries that move in both
    directions — outside its claim's assumption."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None, size: int | None = None) -> Any:
        b = 2.0 * self.sensitivity / self.epsilon  # the honest scales, on the twin's (non-monotone) pair
        return _first_top(np.asarray(data, dtype=float), backend, size, self.threshold, b, b)


class StepAboveThresholdHalfNoise(StepAboveThresholdRun):
    """BROKEN: the step AboveThreshold with both noises Lap(Δ/(2ε)); claims ε."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None, size: int | None = None) -> Any:
        b = 0.5 * self.sensitivity / self.epsilon
        return _first_top(np.asarray(data, dtype=float), backend, size, self.threshold, b, b)


class StepAboveThresholdOnMonotoneQueries(StepAboveThresholdRun):
    """BROKEN use: the honest step AboveThreshold (both noises Lap(Δ/ε)) fed monotone queries that are not a step
    (the last one agrees again) — outside its claim's assumption."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None, size: int | None = None) -> Any:
        b = self.sensitivity / self.epsilon
        return _first_top(np.asarray(data, dtype=float), backend, size, self.threshold, b, b)


# ------------------------------------------------------------------------------------------------ the learners' games


class _QuietStep(StepAboveThreshold):
    _threshold_scale = 0.05
    _query_scale = 0.05


class ListATQuietThreshold(ListAT):
    """BROKEN: ListAT whose segment AboveThreshold draws both noises at 1/20 of the step scale (with the honest
    claim)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._seg._at = _QuietStep(self.tau, self.epsilon, backend=self._seg._at.backend)


class _ExactSign(DiscreteLaplaceMechanism):
    """BROKEN: the sign release of :class:`BisectATExactSign` — s itself, no noise (the honest claim)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        return int(data)


class BisectATExactSign(BisectAT):
    """BROKEN: BisectAT releasing the exact sign of s (no discrete Laplace noise), with the honest claim."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.sign_mechanism = _ExactSign(self.epsilon_sign, sensitivity=2)


def _listat(backend: Any, *, T: int, cls: type = ListAT) -> Any:
    return cls(Thresholds(2), T=T, epsilon=EPS, backend=backend, setting=4.0)


def _bisect(backend: Any, *, T: int, cls: type = BisectAT) -> Any:
    return cls(Thresholds(8), T=T, epsilon=EPS, backend=backend, setting=4.0, epsilon_at=0.5)


def h0_special_then_mistakes(t: int, released: tuple) -> tuple:
    """t* = 0: z⁽⁰⁾ = (0, 1) (h_0 = all-ones is right), z⁽¹⁾ = (0, 0) (it errs); then (0, 0) every round."""
    return ("special", (0, 1), (0, 0)) if t == 0 else ("example", 0, 0)


def signed_mistakes(t: int, released: tuple) -> tuple:
    """Against the released threshold m: t* = 0 with z⁽⁰⁾ = (m − 1, 1), z⁽¹⁾ = (m, 0) (mistakes of either label);
    then mistakes of label 1 (odd rounds) and label 0 (even rounds) in turn, so the segment's signed count is
    1 or 2 (b = 0) versus 0 or −1 (b = 1)."""
    m = released[-1].t
    one = (max(m - 1, 0), 1) if m > 0 else (0, 0)
    zero = (min(m, 7), 0) if m < 8 else (7, 1)
    if t == 0:
        return ("special", one, zero)
    return ("example", *(one if t % 2 else zero))


def first_change(view: tuple) -> int:
    """Feature: the round of the first change of the released hypothesis (−1: none)."""
    return view[1][0] if len(view) > 1 else -1


def first_move(view: tuple) -> Any:
    """Feature: the second released hypothesis (the first move), None if it never moved."""
    return view[1][1] if len(view) > 1 else None


def segment_learner_audits() -> list[tuple[Any, list[Any]]]:
    """(honest audit, its broken twins) for the monotone / step AboveThresholds and the ListAT / BisectAT games."""
    from .builtin import BuiltinAudit

    out = []
    mono = BuiltinAudit(
        "monotone_above_threshold",
        "monotone AboveThreshold (LSL17), ε=1, T=0: queries (0, 0, 0, 0) vs (1, 1, 1, 0) (monotone)",
        MonotoneAboveThresholdRun(0.0, EPS),
        [0.0] * 4,
        [1.0, 1.0, 1.0, 0.0],
    )
    out.append(
        (
            mono,
            [
                mono.twin(
                    "monotone_above_threshold_half_noise",
                    "monotone AboveThreshold with both noises Lap(1/ε) (halved); claims ε=1",
                    MonotoneAboveThresholdHalfNoise(0.0, EPS),
                    runs=1_000_000,
                    vectorized=True,
                ),
                mono.twin(
                    "monotone_above_threshold_two_way_queries",
                    "monotone AboveThreshold fed queries moving both ways: (0, 0, 0, 0) vs (1, 1, 1, −1); claims ε=1",
                    MonotoneAboveThresholdOnTwoWayQueries(0.0, EPS),
                    D_prime=[1.0, 1.0, 1.0, -1.0],
                    runs=1_000_000,
                    vectorized=True,
                ),
            ],
        )
    )
    step = BuiltinAudit(
        "step_above_threshold",
        "step AboveThreshold (running counts), ε=1, T=0: queries (0,)·8 vs (1,)·8 (a step at 0)",
        StepAboveThresholdRun(0.0, EPS),
        [0.0] * 8,
        [1.0] * 8,
    )
    out.append(
        (
            step,
            [
                step.twin(
                    "step_above_threshold_half_noise",
                    "step AboveThreshold with both noises Lap(1/(2ε)) (halved); claims ε=1",
                    StepAboveThresholdHalfNoise(0.0, EPS),
                    runs=1_000_000,
                    vectorized=True,
                ),
                step.twin(
                    "step_above_threshold_monotone_queries",
                    "step AboveThreshold fed monotone queries that are not a step: (0,)·4 vs (1, 1, 1, 0); claims ε=1",
                    StepAboveThresholdOnMonotoneQueries(0.0, EPS),
                    D=[0.0] * 4,
                    D_prime=[1.0, 1.0, 1.0, 0.0],
                    runs=1_000_000,
                    vectorized=True,
                ),
            ],
        )
    )
    T_list, T_bis = 30, 30
    make = partial(_listat, T=T_list)
    honest = BuiltinAudit(
        "listat_adaptive_game",
        "ListAT (thresholds(2), τ=4) in the adaptive game of LWY25 Def. 2.4: t*=0, b=0 gets (0,1), b=1 gets (0,0), "
        "then (0,0); feature: the round of the first ⊤; ε=1",
        LearnerInGame(make, T_list, h0_special_then_mistakes),
        0,
        1,
        featurize=first_change,
        runs=2000,
    )
    out.append(
        (
            honest,
            [
                honest.twin(
                    "listat_quiet_above_threshold",
                    "ListAT whose segment AboveThreshold draws its noises at 1/20 of the scale (same game)",
                    BrokenLearnerInGame(make, T_list, ListATQuietThreshold, h0_special_then_mistakes),
                )
            ],
        )
    )
    make = partial(_bisect, T=T_bis)
    honest = BuiltinAudit(
        "bisectat_adaptive_game",
        "BisectAT (thresholds(8), τ=4, ε_AT=ε_sign=0.5) in the adaptive game of LWY25 Def. 2.4: t*=0, b=0 gets a "
        "label-1 mistake, b=1 a label-0 one, then both labels in turn; feature: the first move; ε=1",
        LearnerInGame(make, T_bis, signed_mistakes),
        0,
        1,
        featurize=first_move,
        runs=2000,
    )
    out.append(
        (
            honest,
            [
                honest.twin(
                    "bisectat_exact_sign",
                    "BisectAT releasing the exact sign of the segment's mistakes (same game)",
                    BrokenLearnerInGame(make, T_bis, BisectATExactSign, signed_mistakes),
                )
            ],
        )
    )
    return out


__all__ = ["segment_learner_audits"]
