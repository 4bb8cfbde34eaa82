"""AboveThreshold for monotone queries: half the query noise (LSL17 §3, Alg. 7 with c = 1, monotonic case); and for
step-shaped differences (running counts of a stream): both noises Lap(Δ/ε).

The claim holds only under an assumption on the queries, carried by the mechanism object
(:data:`MONOTONE_ASSUMPTION`): for the neighbouring inputs D, D′ compared (replace-one; for an online stream the
adaptive game of LWY25 Def. 2.4) and every query q_i asked — the i-th query may depend on the answers before it —
either q_i(D) − q_i(D′) ∈ [0, Δ] for every i, or q_i(D) − q_i(D′) ∈ [−Δ, 0] for every i (one direction for the
whole run). Running counts over a stream satisfy it: replacing one round changes every later count by the same
amount, in {−Δ, 0, Δ}. Under it, threshold noise ρ ~ Lap(Δ/ε₁) and query noise ν_i ~ Lap(Δ/ε₂) give (ε₁ + ε₂)-DP;
with ε₁ = ε₂ = ε/2 both are Lap(2Δ/ε) — the threshold noise as in Dwork–Roth Alg. 1, the query noise half of its
Lap(4Δ/ε). The proof is in docs/derivations.md ("Monotone AboveThreshold"). Queries that move in both directions
(the differences of two counts, a count that can fall) are NOT covered: use :class:`AboveThreshold`.

**Step differences** (:class:`StepAboveThreshold`, :data:`STEP_ASSUMPTION`): when moreover the difference is a
step — q_i(D) − q_i(D′) = c·1[i ≥ i*] for one c ∈ [−Δ, Δ] and one index i* (the queries before i* agree, all
those from i* on differ by the same c) — the threshold-shift argument is exact for the ⊤ query as well, and the run
is max(ε₁, ε₂)-DP; with ε₁ = ε₂ = ε both noises are Lap(Δ/ε). A running count of 0/1 indicators over a stream in
which one round t* is replaced (the adaptive game of LWY25 Def. 2.4 included: later rounds are the same in both
worlds given the released past) has this form with c ∈ {−1, 0, 1}. Proof: docs/derivations.md ("Step
AboveThreshold").

On the secure backend the comparison runs in exact integers on the grid of :class:`AboveThreshold` (rounding and
clipping are monotone, so monotone queries stay monotone on the grid, with sensitivity K = 2^10 + 1 units) with
discrete Laplace noise DLap(2K/ε) for both ρ and ν.
"""

from __future__ import annotations

from typing import Any

from .above_threshold import AboveThreshold, AboveThresholdRun, above_threshold_accuracy, grid_factor, rounding_margin
from .budget import PrivacyBudget
from .mechanism import PrivacyClaim

#: the condition under which :class:`MonotoneAboveThreshold`'s claim holds (LSL17 §3, "monotonic queries")
MONOTONE_ASSUMPTION = (
    "queries monotone between neighbours: q_i(D) − q_i(D′) in [0, Δ] for every query i, or in [−Δ, 0] for every i "
    "(running counts over a stream; LSL17 §3)"
)


class MonotoneAboveThreshold(AboveThreshold):
    """ε-DP ⊥/⊤ answers to adaptively chosen **monotone** queries of sensitivity Δ (:data:`MONOTONE_ASSUMPTION`),
    halting at the first ⊤: threshold noise Lap(2Δ/ε) once per run, query noise Lap(2Δ/ε) per query (half of
    :class:`AboveThreshold`'s Lap(4Δ/ε); LSL17 §3). Same interface as :class:`AboveThreshold` (``test``,
    ``first_above``, ``restart``, ``spent``, ``accuracy``); charges (ε, 0) per run.

    >>> from littlestone.privacy import SeededBackend
    >>> at = MonotoneAboveThreshold(5.0, 1.0, backend=SeededBackend(0))
    >>> at.first_above(range(100)) >= 0
    True
    """

    _threshold_scale = 2.0
    _query_scale = 2.0

    def _make_mechanism(self, threshold: float, epsilon: float, sensitivity: float) -> AboveThresholdRun:
        return MonotoneAboveThresholdRun(threshold, epsilon, sensitivity=sensitivity)

    def accuracy(self, k: int, beta: float) -> float:
        """α = 4Δ(ln k + ln(2/β))/ε: w.p. ≥ 1 − β over k queries, ⊤ ⇒ value ≥ T − α and ⊥ ⇒ value ≤ T + α (both
        noises Lap(2Δ/ε): |ρ| < α/2 w.p. ≥ 1 − β/2 and max_i |ν_i| < α/2 w.p. ≥ 1 − β/2). On the integer grid Δ
        becomes K·g and 2.5·g is added, as for :meth:`AboveThreshold.accuracy`."""
        if self._grid is None:
            return monotone_above_threshold_accuracy(k, self.epsilon, beta, sensitivity=self.sensitivity)
        units = self._units * self._grid
        return grid_factor(self) * monotone_above_threshold_accuracy(
            k, self.epsilon, beta, sensitivity=units
        ) + rounding_margin(self)


def monotone_above_threshold_accuracy(k: int, epsilon: float, beta: float, *, sensitivity: float = 1.0) -> float:
    """4Δ(ln k + ln(2/β))/ε — half of Dwork–Roth Thm 3.24's 8Δ(ln k + ln(2/β))/ε (both noises Lap(2Δ/ε))."""
    return 0.5 * above_threshold_accuracy(k, epsilon, beta, sensitivity=sensitivity)


#: the condition under which :class:`StepAboveThreshold`'s claim holds (docs/derivations.md "Step AboveThreshold")
STEP_ASSUMPTION = (
    "step differences between neighbours: q_i(D) − q_i(D′) = c·1[i ≥ i*] for one c in [−Δ, Δ] and one i* "
    "(running counts over a stream with one round replaced)"
)


class StepAboveThreshold(AboveThreshold):
    """ε-DP ⊥/⊤ answers to adaptively chosen queries whose neighbouring differences are a **step**
    (:data:`STEP_ASSUMPTION`: running counts over a stream), halting at the first ⊤: threshold and query noise both
    Lap(Δ/ε) (a quarter of :class:`AboveThreshold`'s query noise, half its threshold noise). Same interface as
    :class:`AboveThreshold`; charges (ε, 0) per run. Queries that are monotone but not a step are NOT covered: use
    :class:`MonotoneAboveThreshold`."""

    _threshold_scale = 1.0
    _query_scale = 1.0

    def _make_mechanism(self, threshold: float, epsilon: float, sensitivity: float) -> AboveThresholdRun:
        return StepAboveThresholdRun(threshold, epsilon, sensitivity=sensitivity)

    def accuracy(self, k: int, beta: float) -> float:
        """α = 2Δ(ln k + ln(2/β))/ε (both noises Lap(Δ/ε)); on the integer grid as :meth:`AboveThreshold.accuracy`."""
        if self._grid is None:
            return 0.25 * above_threshold_accuracy(k, self.epsilon, beta, sensitivity=self.sensitivity)
        units = self._units * self._grid
        return grid_factor(self) * 0.25 * above_threshold_accuracy(
            k, self.epsilon, beta, sensitivity=units
        ) + rounding_margin(self)


class MonotoneAboveThresholdRun(AboveThresholdRun):
    """The monotone AboveThreshold as one release: ``data`` is the stream of query values (monotone between the
    neighbours compared, :data:`MONOTONE_ASSUMPTION`), the output the index of the first ⊤ (−1: none). The claim
    names the assumption; :class:`MonotoneAboveThreshold` (the interactive form) charges its runs through it."""

    name = "monotone AboveThreshold"
    assumption = MONOTONE_ASSUMPTION

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", f"{self.name} ({self.assumption})")

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> int:
        at = MonotoneAboveThreshold(
            self.threshold, self.epsilon, sensitivity=self.sensitivity, backend=backend, budget=budget
        )
        for i, value in enumerate(data):
            if at.test(value):
                return i
        return -1


class StepAboveThresholdRun(MonotoneAboveThresholdRun):
    """The step AboveThreshold as one release (:data:`STEP_ASSUMPTION`); :class:`StepAboveThreshold` charges its runs
    through it."""

    name = "step AboveThreshold"
    assumption = STEP_ASSUMPTION

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> int:
        at = StepAboveThreshold(
            self.threshold, self.epsilon, sensitivity=self.sensitivity, backend=backend, budget=budget
        )
        for i, value in enumerate(data):
            if at.test(value):
                return i
        return -1


__all__ = [
    "STEP_ASSUMPTION",
    "StepAboveThreshold",
    "StepAboveThresholdRun",
    "MONOTONE_ASSUMPTION",
    "MonotoneAboveThreshold",
    "MonotoneAboveThresholdRun",
    "monotone_above_threshold_accuracy",
]
