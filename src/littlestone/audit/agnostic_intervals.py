"""Audit of SegmentedEM's two-stage selection on intervals (issue 33; docs/derivations.md "G.3") in the adaptive game
of LWY25 Def. 2.4, with a broken twin the auditor catches.

The game: Intervals(2) ({0, 1}: ∅, [0,0], [0,1], [1,1]), ``first`` = 4, τ so large that the stay test never fires,
the selection holding 0.9 of ε = 1. Round t* = 0 is special: z⁽⁰⁾ = (1, 0), z⁽¹⁾ = (1, 1); every other round is
(0, 1). The first selection (round 4) reads the first segment: [0,0] fits it for b = 0, [0,1] for b = 1. The
selection draws the start of the interval, then its end given the start (:class:`IntervalScores` bound to the
learner's mechanism); the end given start 0 is [0,0] or [0,1], decided by round t*. Feature: the first selection.

* honest: both stages are one exponential mechanism over the four intervals — the feature moves by ≤ e^{ε_EM}.
* twin ``segment_em_intervals_exact_end``: the second stage (the end given the start) is the exact argmax, with
  the honest claim — [0,1] is then never released for b = 0.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from ..classes.intervals import Intervals
from ..privacy.cell_exponential import CellExponentialMechanism
from ..private_online.segmented_em import SegmentedEM
from .adaptive_game import BrokenLearnerInGame, LearnerInGame
from .agnostic_segments import first_selection

EPS = 1.0
T_GAME = 5


def _segment_em_intervals(backend: Any, *, T: int, cls: type = SegmentedEM) -> Any:
    # stay_factor=0: every segment runs its (never firing) stay test, so the selection keeps ε_EM = 0.9 of ε
    return cls(
        Intervals(2), T=T, epsilon=EPS, backend=backend, split=(0.05, 0.9, 0.05), tau=1e9, first=4, stay_factor=0
    )


def special_end_then_zero_ones(t: int, released: tuple) -> tuple:
    """t* = 0: z⁽⁰⁾ = (1, 0), z⁽¹⁾ = (1, 1); then (0, 1) every round."""
    return ("special", (1, 0), (1, 1)) if t == 0 else ("example", 0, 1)


class _ArgmaxEnd(CellExponentialMechanism):
    """BROKEN: the second stage of :class:`SegmentedEMIntervalsExactEnd` — the heaviest end itself (no noise)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> int:
        sizes, scores = data
        return int(np.argmax(self.cell_scores(sizes, scores)))


class SegmentedEMIntervalsExactEnd(SegmentedEM):
    """BROKEN: SegmentedEM on intervals whose second selection stage (the end given the start) is the exact argmax,
    with the honest claim."""

    def _second_stage(self, select: CellExponentialMechanism) -> CellExponentialMechanism:
        return _ArgmaxEnd(select.epsilon, 1.0)


def agnostic_interval_audits() -> list[tuple[Any, list[Any]]]:
    """(honest audit, its broken twin) for SegmentedEM's two-stage selection on intervals."""
    from .builtin import BuiltinAudit

    make = partial(_segment_em_intervals, T=T_GAME)
    honest = BuiltinAudit(
        "segment_em_intervals_game",
        "SegmentedEM (intervals(2), first segment of 4 rounds, ε_EM = 0.9 of ε = 1, two-stage selection) in the "
        "adaptive game of LWY25 Def. 2.4: t*=0, b=0 gets (1,0), b=1 gets (1,1), then (0,1); feature: first selection",
        LearnerInGame(make, T_GAME, special_end_then_zero_ones),
        0,
        1,
        featurize=first_selection,
        runs=4000,
    )
    return [
        (
            honest,
            [
                honest.twin(
                    "segment_em_intervals_exact_end",
                    "SegmentedEM on intervals whose end given the start is the exact argmax, same game and claim",
                    BrokenLearnerInGame(make, T_GAME, SegmentedEMIntervalsExactEnd, special_end_then_zero_ones),
                    runs=600,
                ),
            ],
        )
    ]


__all__ = ["agnostic_interval_audits", "SegmentedEMIntervalsExactEnd", "special_end_then_zero_ones"]
