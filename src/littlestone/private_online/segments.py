"""Segments ended by an AboveThreshold on the running mistake count (the disjoint-segment lemma, docs/derivations.md
"F.1"; LWY25 App. B, proof of Lemma B.2).

A :class:`MistakeCountSegments` runs one AboveThreshold per segment on c = the number of mistakes of the segment's
released hypothesis so far in the segment; a ⊤ ends the segment (a released output) and the next segment starts on
the next round with c = 0 and fresh threshold noise. Each segment's queries read only that segment's rounds, so the
instances compose in parallel under LWY25 Def. 2.4: the whole stream of answers is ε-DP when each instance is
(:func:`~littlestone.private_online.base.disjoint_segments`).

The running count of 0/1 mistake indicators has step differences: replacing one round t* changes every later count
of its segment by the same c ∈ {−1, 0, 1} and no earlier one (:data:`~littlestone.privacy.STEP_ASSUMPTION`, which
implies :data:`~littlestone.privacy.MONOTONE_ASSUMPTION`). ``kind`` picks the AboveThreshold: "step" (default, both
noises Lap(1/ε), docs/derivations.md), "monotone" (LSL17, both Lap(2/ε)) or "standard" (Dwork–Roth Alg. 1, Lap(2/ε)
and Lap(4/ε)).

Round by round (:meth:`add`) and a block at a time (:meth:`feed_block`, cumulative sums and
:meth:`~littlestone.privacy.AboveThreshold.first_above`) draw the same noise in the same order, so a vectorised
learner releases what the round-by-round one does for the same seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import LittlestoneError
from ..privacy.above_threshold import AboveThreshold, AboveThresholdRun
from ..privacy.monotone_above_threshold import (
    MonotoneAboveThreshold,
    MonotoneAboveThresholdRun,
    StepAboveThreshold,
    StepAboveThresholdRun,
)

#: AboveThreshold variants a segment can run: name -> (interactive object, mechanism object)
AT_KINDS: dict[str, tuple[type, type]] = {
    "step": (StepAboveThreshold, StepAboveThresholdRun),
    "monotone": (MonotoneAboveThreshold, MonotoneAboveThresholdRun),
    "standard": (AboveThreshold, AboveThresholdRun),
}


def check_at_kind(kind: str) -> str:
    if kind not in AT_KINDS:
        raise LittlestoneError(f"at must be one of {', '.join(AT_KINDS)}, not {kind!r}")
    return kind


class MistakeCountSegments:
    """Segments of the stream, each ended by the first ⊤ of an AboveThreshold (threshold τ, ε) on the segment's
    running mistake count. ``mechanism`` is the object :meth:`privacy` composition reads (one run per segment, on
    disjoint segments); ``segments`` counts the segments started (a public value: one plus the number of ⊤)."""

    def __init__(self, threshold: float, epsilon: float, *, backend: Any, kind: str = "step", batch: int = 4096):
        at_cls, run_cls = AT_KINDS[check_at_kind(kind)]
        self.kind = kind
        self.mechanism: AboveThresholdRun = run_cls(threshold, epsilon, sensitivity=1.0)
        self._at = at_cls(
            self.mechanism.threshold,
            self.mechanism.epsilon,
            backend=backend,
            noise_batch=batch,
            threshold_batch=16,
            integer_queries=True,  # running counts of 0/1 mistakes: the unit grid on the secure backend
        )
        self.count = 0
        self.segments = 1

    def add(self, mistake: int) -> bool:
        """One round: the count grows by ``mistake`` (0/1); True iff the AboveThreshold answers ⊤ (segment ends)."""
        self.count += mistake
        return self._at.test_count(self.count)

    def feed_block(self, mistakes: np.ndarray) -> int:
        """Rounds of a block (0/1 mistakes) until the first ⊤: its index (the segment ends there), or −1. The count
        then holds the rounds up to and including the returned one (all of them on −1)."""
        if mistakes.size == 0:
            return -1
        cum = self.count + np.cumsum(mistakes, dtype=np.int64)
        top = self._at.first_above(cum)
        self.count = int(cum[top if top >= 0 else -1])
        return top

    def next_segment(self) -> None:
        """Start the next segment after a ⊤: count 0, fresh threshold noise (one more run of the mechanism)."""
        self.count = 0
        self._at.restart()
        self.segments += 1

    def accuracy(self, k: int, beta: float) -> float:
        """The AboveThreshold's accuracy α over k queries (Dwork–Roth Thm 3.24; half for the monotone one)."""
        return self._at.accuracy(k, beta)


#: a vectorised segment is read in blocks of FIRST_BLOCK, 2·FIRST_BLOCK, … up to MAX_BLOCK rounds (short segments stay
#: cheap, long ones amortise the per-block cost)
FIRST_BLOCK, MAX_BLOCK = 512, 1 << 16


__all__ = ["AT_KINDS", "MistakeCountSegments", "check_at_kind", "FIRST_BLOCK", "MAX_BLOCK"]
