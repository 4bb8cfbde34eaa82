"""IntervalsAT: a practical private online learner for intervals 1[a ≤ x ≤ b] on {0, …, N−1} (any N up to 2⁶²),
realizable, pure ε-DP against adaptive adversaries (LWY25 Def. 2.4).

What a mistake tells once a point m inside the target [a*, b*] is known and the released interval [a, b] contains m:
a false negative x < a (x in the target) says a* ≤ x < a; a false negative x > b says b* > b; a false positive
x ∈ [a, m) says a* > x ≥ a; a false positive x ∈ (m, b] says b* < x ≤ b; a false positive at m says m is not in the
target. So every mistake names one endpoint and one direction, and each endpoint is a bisection on its own.

* **Phase 1** (release the empty interval): its mistakes are positives, all inside the target. AboveThreshold on
  their running count; at ⊤ the exponential mechanism over the whole domain with the depth score
  min(#positives ≤ m, #positives ≥ m) — positive only between the smallest and largest positive, hence inside the
  target — picks m (cells: the sorted positives and the gaps between them, never the enumerated domain).
* **Phase 2** (release [a, b] with a = ⌊(lo_a + hi_a)/2⌋, b = ⌈(lo_b + hi_b)/2⌉, a* ∈ [lo_a, hi_a] ⊆ [0, m],
  b* ∈ [lo_b, hi_b] ⊆ [m, N−1]): AboveThreshold on the segment's mistakes; at ⊤ the exponential mechanism over the
  five moves (a left, a right, b left, b right, m wrong), scored by the segment's mistakes of each kind, picks one:
  a bisection step of that endpoint (a range that empties — after a wrong step — is reset to its full side) or,
  for "m wrong", back to phase 1.

Privacy: disjoint-segment lemma (docs/derivations.md §F.1): each segment's AboveThreshold and selection read only
that segment (ε_a + ε_s = ε in both phases). Every AboveThreshold query is the running count of the segment's mistakes
(0/1 indicators, the released interval fixed for the segment), so replacing one round shifts the counts from that
round on by one c ∈ {−1, 0, 1}: a step (:data:`~littlestone.privacy.STEP_ASSUMPTION`), and the step AboveThreshold
(``at="step"``, the default; both noises Lap(1/ε_a)) is ε_a-DP for it. The per-kind counts feed only the move
selection (the exponential mechanism, sensitivity 1), never an AboveThreshold. Mistakes:
:func:`littlestone.bounds.points_intervals_at.intervals_at_bound`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from .._random import SeedLike
from ..bounds.points_intervals_at import (
    IntervalsATBound,
    IntervalsATPractical,
    intervals_at_bound,
    intervals_at_practical,
)
from ..classes.base import HypothesisClass, Point, VersionSpace
from ..classes.intervals import IntervalUnion, Intervals
from ..errors import LittlestoneError
from ..privacy.cell_exponential import CellExponentialMechanism
from ..privacy.exponential import ExponentialMechanism
from ..privacy.mechanism import compose
from .base import LearnerPrivacy, PrivateOnlineLearner, compose_claims, split_randomness
from .points_at import CHUNK, _below, check_setting, chunk_array, segment_at, segment_mechanism
from .segments import check_at_kind

EMPTY = IntervalUnion(())
#: the five moves of phase 2, in the order of the selection's candidates (the practical setting adds "stay" last)
MOVES = ("a left", "a right", "b left", "b right", "m wrong")
STAY = len(MOVES)


def depth_cells(positives: Counter, N: int) -> tuple[list[tuple[int, int]], list[int], list[float]]:
    """The domain 0..N−1 cut into cells of equal depth min(#pos ≤ x, #pos ≥ x): (cells as (first, last), sizes,
    depths). Cells: below the smallest positive, each positive value, each gap between two, above the largest."""
    vals = sorted(positives)
    c = sum(positives.values())
    cells: list[tuple[int, int]] = []
    depth: list[float] = []
    if not vals:
        return [(0, N - 1)], [N], [0.0]
    if vals[0] > 0:
        cells.append((0, vals[0] - 1))
        depth.append(0.0)
    below = 0  # positives < current value
    for i, v in enumerate(vals):
        n = positives[v]
        cells.append((v, v))
        depth.append(float(min(below + n, c - below)))
        below += n
        nxt = vals[i + 1] if i + 1 < len(vals) else N
        if nxt > v + 1:
            cells.append((v + 1, nxt - 1))
            depth.append(float(min(below, c - below)))
    return cells, [hi - lo + 1 for lo, hi in cells], depth


class IntervalsAT(PrivateOnlineLearner):
    """Private online learner for :class:`~littlestone.classes.Intervals` (module docstring). Parameters as every
    private online learner; ``delta`` is accepted and unused (the claim is pure ε-DP); ``at``: the segments'
    AboveThreshold ("step" — default —, "monotone" or "standard"); ``setting``: "practical" (default: the theory's
    thresholds with the union-bound terms dropped, :func:`~littlestone.bounds.points_intervals_at.intervals_at_practical`;
    about half the mistakes) or "theory" (the thresholds of :attr:`bound`, whose mistake bound then holds). Privacy
    is the same (ε, 0) for both.

    >>> from littlestone.classes import Intervals
    >>> learner = IntervalsAT(Intervals(2**16), T=1000, epsilon=1.0, backend="seeded", seed=0)
    >>> learner.hypothesis()
    IntervalUnion()
    """

    agnostic = False  # realizable streams only: no regret guarantee on noisy streams

    pure_dp = True

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        T: int,
        epsilon: float,
        delta: float = 0.0,
        beta: float = 0.1,
        setting: str = "practical",
        at: str = "step",
        backend: Any = "secure",
        seed: SeedLike = None,
        labels: tuple[int, int] = (0, 1),
        feature: str | None = None,
        grid: Any = None,
        diagnostics: bool = False,
        accountant: Any = None,
    ):
        H = getattr(hypothesis_class, "hclass", hypothesis_class)
        if not isinstance(H, Intervals):
            raise LittlestoneError(
                f"IntervalsAT learns intervals (Intervals, e.g. intervals:2^16); got {getattr(H, 'name', H)!r}"
            )
        if isinstance(hypothesis_class, VersionSpace) and hypothesis_class.key() != H.version_space().key():
            raise LittlestoneError("IntervalsAT starts from the whole class Intervals, not a restricted version space")
        super().__init__(
            hypothesis_class,
            T=T,
            epsilon=epsilon,
            delta=delta,
            beta=beta,
            labels=labels,
            feature=feature,
            grid=grid,
            diagnostics=diagnostics,
            accountant=accountant,
        )
        self.N = int(H.n)
        self.setting_ = check_setting(setting)
        self.at = check_at_kind(at)
        self.bound: IntervalsATBound = intervals_at_bound(self.N, self.T, self.epsilon, self.beta, at=self.at)
        #: the thresholds and ε splits run: the bound's (theory) or the practical ones (union-bound terms dropped)
        self.params: IntervalsATBound | IntervalsATPractical = (
            self.bound
            if self.setting_ == "theory"
            else intervals_at_practical(self.N, self.T, self.epsilon, self.beta, at=self.at)
        )
        b = self.params
        # the mechanisms this learner runs; privacy() composes exactly these
        self.at_empty = segment_mechanism(self.at, b.tau1, b.eps_at1)
        self.select_point = CellExponentialMechanism(b.eps_select1, 1.0)
        self.at_bisect = segment_mechanism(self.at, b.tau2, b.eps_at2)
        self.select_move = ExponentialMechanism(b.eps_select2, 1.0)
        (self._rng,), (self._b_at, self._b_sel) = split_randomness(backend, seed, 1, 2)
        self.m: int | None = None  # None: phase 1
        self._h = EMPTY  # the released hypothesis (builds _hf): EMPTY in phase 1, [a, b] in phase 2
        self.segments = 0
        self.selections = 0
        self.resets = 0
        self.stays = 0
        self._start_segment()

    # ------------------------------------------------------------------------------------------- segments
    def _start_segment(self) -> None:
        mech = self.at_empty if self.m is None else self.at_bisect
        self._at = segment_at(mech, self._b_at)
        self._count = 0
        self._positives: Counter = Counter()
        self._kinds = [0] * len(MOVES)  # Python ints: one increment per mistake, no numpy scalar per round
        self.segments += 1

    def _begin_bisection(self, m: int) -> None:
        self.m = m
        self._lo_a, self._hi_a = 0, m
        self._lo_b, self._hi_b = m, self.N - 1
        self._set_released()

    def _set_released(self) -> None:
        self._a = (self._lo_a + self._hi_a) // 2
        self._b = (self._lo_b + self._hi_b + 1) // 2
        self._h = IntervalUnion(((self._a, self._b),))

    def _on_top(self) -> None:
        self.selections += 1
        if self.m is None:
            cells, sizes, depth = depth_cells(self._positives, self.N)
            j = self.select_point((sizes, depth), backend=self._b_sel)
            lo, hi = cells[j]
            self._begin_bisection(lo + _below(self._rng, hi - lo + 1))
        else:
            move = int(self.select_move(self.move_scores(), backend=self._b_sel))
            if move == STAY:
                self.stays += 1
            else:
                self._move(move)
        self._start_segment()

    def move_scores(self) -> np.ndarray:
        """The move selection's scores: the segment's mistakes of each kind and, with a stay score κ > 0 (practical
        setting), "stay" at κ − c (c the segment's count), and "m wrong" lowered by a public handicap: every score
        moves by ≤ 1 when one round is replaced."""
        scores = np.asarray(self._kinds, dtype=float)
        kappa = getattr(self.params, "stay_score", 0.0)
        if kappa > 0:
            scores[4] -= self.params.m_wrong_handicap  # "m wrong" restarts everything: it needs more evidence
            scores = np.append(scores, kappa - float(self._count))
        return scores

    def _move(self, move: int) -> None:
        m = self.m
        assert m is not None
        if move == 4:  # m is not in the target: back to phase 1
            self.m = None
            self._h = EMPTY
            return
        if move == 0:
            self._hi_a = self._a - 1
        elif move == 1:
            self._lo_a = self._a + 1
        elif move == 2:
            self._hi_b = self._b - 1
        else:
            self._lo_b = self._b + 1
        if self._lo_a > self._hi_a:  # a wrong step earlier: the endpoint's whole side again
            self._lo_a, self._hi_a = 0, m
            self.resets += 1
        if self._lo_b > self._hi_b:
            self._lo_b, self._hi_b = m, self.N - 1
            self.resets += 1
        self._set_released()

    # ------------------------------------------------------------------------------------------- protocol
    def _released(self) -> IntervalUnion:
        return self._h

    def _learn01(self, x: Point, y: int) -> None:
        if self._hf(x) != y:
            self._count += 1
            m = self.m
            if m is None:
                self._positives[int(x)] += 1
            else:  # the move a mistake at (x, y) of the released [a, b] asks for (MOVES; _run01 counts them alike)
                x = int(x)
                self._kinds[(0 if x < self._a else 3) if y == 1 else (1 if x < m else (2 if x > m else 4))] += 1
        if self._at.test_count(self._count):
            self._on_top()

    def _run01(self, X: Any, y: np.ndarray) -> np.ndarray:
        X = chunk_array(X) if chunk_array(X) is not None else np.asarray(X, dtype=np.int64)
        n = len(y)
        preds = np.empty(n, dtype=np.int8)
        pos = 0
        while pos < n:
            h = self._released()
            end = min(n, pos + CHUNK)
            Xc, yc = X[pos:end], y[pos:end]
            pc = h.predict(Xc)
            miss = pc != yc
            cum = self._count + np.cumsum(miss)
            top = self._at.first_above(cum)
            k = top + 1 if top >= 0 else end - pos
            preds[pos : pos + k] = pc[:k]
            idx = np.flatnonzero(miss[:k])
            if idx.size:
                xs, ys = Xc[idx], yc[idx]
                if self.m is None:
                    vals, cnt = np.unique(xs, return_counts=True)
                    for v, c in zip(vals.tolist(), cnt.tolist()):
                        self._positives[v] += c
                else:
                    kinds = np.where(
                        ys == 1, np.where(xs < self._a, 0, 3), np.where(xs < self.m, 1, np.where(xs > self.m, 2, 4))
                    )
                    for i, c in enumerate(np.bincount(kinds, minlength=len(MOVES)).tolist()):
                        self._kinds[i] += c
            self._count = int(cum[k - 1])
            self.t += k
            pos += k
            if top >= 0:
                self._on_top()
        return preds

    # ------------------------------------------------------------------------------------------- reports
    @property
    def setting(self) -> str:
        return f"{self.setting_} (τ₁={self.params.tau1:.1f}, τ₂={self.params.tau2:.1f}, {self.at} AboveThreshold)"

    def privacy(self) -> LearnerPrivacy:
        """Disjoint-segment lemma (derivations.md §F.1): a phase-1 segment runs AboveThreshold then the point
        selection, a phase-2 segment AboveThreshold then the move selection, each on its own rounds."""
        p1 = compose([self.at_empty, self.select_point], what="phase 1 segment: AboveThreshold + point selection")
        p2 = compose([self.at_bisect, self.select_move], what="phase 2 segment: AboveThreshold + move selection")
        return compose_claims(
            [p1, p2], [], self.relation, "disjoint segments (derivations.md §F.1), basic composition inside one"
        )

    def _public_state(self) -> dict[str, Any]:
        """Public or computed from mechanism outputs: the phase, segments, selections, resets (all moved by ⊤ and
        the selections' outputs)."""
        return {
            "t": self.t,
            "phase": 1 if self.m is None else 2,
            "segments": self.segments,
            "selections": self.selections,
            "resets": self.resets,
            "stays": self.stays,
            "setting": self.setting_,
            "at": self.at,
        }

    def _diagnostic_state(self) -> dict[str, Any]:
        """Exact counts of the private stream: the current segment's mistakes by kind."""
        return {"segment_mistakes": self._count, "segment_kinds": dict(zip(MOVES, self._kinds))}


__all__ = ["IntervalsAT", "MOVES", "depth_cells"]
