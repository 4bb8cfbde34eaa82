"""Every hypothesis's mistakes on one stretch of the stream, in closed form over the class's structure: the cells that
the exponential mechanism of the agnostic learners (:mod:`~littlestone.private_online.segmented_em`,
:mod:`~littlestone.private_online.epoch_em`) draws from (docs/derivations.md, "G.2 SegmentedEM").

A stretch is the list of its examples (x_i, y_i). The hypotheses of the class are partitioned into cells of equal
score s_j = −(mistakes on the stretch); :class:`~littlestone.privacy.cell_exponential.CellExponentialMechanism`
releases a cell with P(C_j) ∝ |C_j|·exp(ε·s_j/2) and :meth:`SegmentScores.cells` returns how to draw the hypothesis
uniformly inside the released cell (post-processing, data-independent randomness). Replacing one example changes
every hypothesis's score by at most 1 (sensitivity 1), whatever the partition — the cells are bookkeeping of the
same mechanism over all hypotheses.

* :class:`ThresholdScores` — thresholds h_s(x) = 1[x ≥ s], s ∈ [lo, hi], any domain size (2⁶⁰ included): the score
  is constant between two consecutive distinct points of the stretch, so O(m log m) for m examples. Ordered: a public
  window [centre − W, centre + W] restricts the candidates (the learner's public step-size rule);
* :class:`PointScores` — point functions on an integer range (Points(2⁶⁰)) and the zero function: one cell per
  distinct point of the stretch, one for the zero function, one for the rest of the domain;
* :class:`FiniteScores` — any listable class: a vector of scores, from the predictions on the distinct points
  of the stretch (one column per distinct point, cached).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable

import numpy as np

from ..classes.base import Hypothesis, HypothesisClass, VersionSpace, as_python_point, uniform_below
from ..classes.points import ZERO, FiniteSet, Points
from ..classes.thresholds import Threshold
from ..errors import LittlestoneError

#: a cell decoder: (cell index, the learner's own generator) -> a hypothesis drawn uniformly inside the cell
Decoder = Callable[[int, np.random.Generator], Hypothesis]


class SegmentScores(ABC):
    """The scores of every hypothesis of a class on a stretch of examples, as cells."""

    #: True when a public window around the released hypothesis restricts the candidates (an ordered class)
    ordered = False

    @abstractmethod
    def start(self) -> Hypothesis:
        """The first released hypothesis (public: a function of the class only)."""

    @abstractmethod
    def cells(
        self, x: Any, y: np.ndarray, window: tuple[int, int] | None = None
    ) -> tuple[list[int], np.ndarray, Decoder]:
        """(sizes, mistakes, decode): one entry per cell of hypotheses with the same mistakes on the examples."""

    @abstractmethod
    def range_size(self, window: tuple[int, int] | None = None) -> int:
        """The number of hypotheses a selection draws from (inside ``window`` for an ordered class)."""

    def predict(self, h: Hypothesis, X: Any) -> np.ndarray:
        """h on a vector of validated points (0/1 int8)."""
        return h.predict(X)

    def mistakes(self, h: Hypothesis, x: Any, y: np.ndarray) -> int:
        return int(np.count_nonzero(self.predict(h, x) != y))


def _sorted_counts(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(distinct points ascending, ones per point, zeros per point)."""
    u, inv = np.unique(x, return_inverse=True)
    inv = inv.ravel()
    ones = np.bincount(inv, weights=y, minlength=len(u)).astype(np.int64)
    zeros = np.bincount(inv, minlength=len(u)).astype(np.int64) - ones
    return u, ones, zeros


class ThresholdScores(SegmentScores):
    """Thresholds s ∈ [lo, hi] (h_s(x) = 1[x ≥ s]); cells between consecutive distinct points of the stretch."""

    ordered = True

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = int(lo), int(hi)

    def start(self) -> Threshold:
        return Threshold(self.lo + (self.hi - self.lo + 1) // 2)

    def range_size(self, window: tuple[int, int] | None = None) -> int:
        lo, hi = (self.lo, self.hi) if window is None else (max(self.lo, window[0]), min(self.hi, window[1]))
        return max(1, hi - lo + 1)

    def cells(
        self, x: Any, y: np.ndarray, window: tuple[int, int] | None = None
    ) -> tuple[list[int], np.ndarray, Decoder]:
        lo, hi = (self.lo, self.hi) if window is None else (max(self.lo, window[0]), min(self.hi, window[1]))
        if len(y):
            u, ones, zeros = _sorted_counts(np.asarray(x), np.asarray(y, dtype=np.int64))
            pts = [int(v) for v in u.tolist()]
        else:
            pts, ones, zeros = [], np.zeros(0, np.int64), np.zeros(0, np.int64)
        # cell k (k = 0..m): s ∈ [pts[k−1] + 1, pts[k]] (s ≤ pts[0] for k = 0, s > pts[m−1] for k = m); a threshold
        # of cell k predicts 0 on the k smallest distinct points and 1 on the others
        cum1 = np.concatenate([[0], np.cumsum(ones)])
        cum0 = np.concatenate([[0], np.cumsum(zeros)])
        mist = cum1 + (cum0[-1] - cum0)
        if self.hi < 2**62 and self.lo > -(2**62):  # int64 arithmetic
            pa = np.asarray(pts, dtype=np.int64)
            starts = np.concatenate([[lo], np.maximum(lo, pa + 1)])
            ends = np.concatenate([np.minimum(hi, pa), [hi]])
            keep = np.flatnonzero(starts <= ends)
            a = starts[keep].tolist()
            sizes = (ends[keep] - starts[keep] + 1).tolist()
        else:
            st = [lo] + [max(lo, p + 1) for p in pts]
            en = [min(hi, p) for p in pts] + [hi]
            keep = np.asarray([k for k in range(len(st)) if st[k] <= en[k]], dtype=np.int64)
            a = [st[k] for k in keep.tolist()]
            sizes = [en[k] - st[k] + 1 for k in keep.tolist()]

        def decode(j: int, rng: np.random.Generator) -> Threshold:
            return Threshold(int(a[j]) + uniform_below(rng, int(sizes[j])))

        return sizes, mist[keep].astype(float), decode

    def predict(self, h: Hypothesis, X: Any) -> np.ndarray:
        return h.predict(X)


class PointScores(SegmentScores):
    """Point functions h_p = 1[x = p] on an integer range (Points(N), Points(2⁶⁰)) and, if the class has it, the zero
    function: one cell per distinct point of the stretch, the zero function, the rest of the range."""

    def __init__(self, H: Points):
        rng_ = H.domain.integer_range
        if rng_ is None:
            raise LittlestoneError("PointScores needs points on an integer range (Points(N))")
        self.start_, self.stop = int(rng_.start), int(rng_.stop)
        self.zero = bool(H.include_zero)

    def start(self) -> Hypothesis:
        return ZERO if self.zero else FiniteSet((self.start_,))

    def range_size(self, window: tuple[int, int] | None = None) -> int:
        return self.stop - self.start_ + int(self.zero)

    def cells(
        self, x: Any, y: np.ndarray, window: tuple[int, int] | None = None
    ) -> tuple[list[int], np.ndarray, Decoder]:
        y = np.asarray(y, dtype=np.int64)
        total_ones = int(y.sum())
        if len(y):
            u, ones, zeros = _sorted_counts(np.asarray(x), y)
            pts = [int(v) for v in u.tolist()]
        else:
            pts, ones, zeros = [], np.zeros(0, np.int64), np.zeros(0, np.int64)
        sizes = [1] * len(pts)
        scores = list((total_ones - ones + zeros).tolist())
        if self.zero:
            sizes.append(1)
            scores.append(total_ones)
        rest = self.stop - self.start_ - len(pts)
        if rest >= 1:
            sizes.append(rest)
            scores.append(total_ones)
        n_pts = len(pts)

        def decode(j: int, rng: np.random.Generator) -> Hypothesis:
            if j < n_pts:
                return FiniteSet((pts[j],))
            if self.zero and j == n_pts:
                return ZERO
            # the r-th integer of the range outside pts (pts ascending): v = start + r + #{pts below v}
            r = uniform_below(rng, rest)
            v = self.start_ + r
            for p in pts:
                if p <= v:
                    v += 1
                else:
                    break
            return FiniteSet((v,))

        return sizes, np.asarray(scores, dtype=float), decode

    def predict(self, h: Hypothesis, X: Any) -> np.ndarray:
        if h is ZERO or not h.points:  # type: ignore[attr-defined]
            return np.zeros(len(X), dtype=np.int8)
        return (np.asarray(X) == h.points[0]).astype(np.int8)  # type: ignore[attr-defined]


class FiniteScores(SegmentScores):
    """Any listable class: the vector of every hypothesis's mistakes, computed from the predictions on the distinct
    points of the stretch (each column computed once and cached)."""

    def __init__(self, hypotheses: list[Hypothesis]):
        if not hypotheses:
            raise LittlestoneError("FiniteScores needs at least one hypothesis")
        self.hypotheses = list(hypotheses)
        self._columns: dict[Any, np.ndarray] = {}

    def start(self) -> Hypothesis:
        return self.hypotheses[0]

    def range_size(self, window: tuple[int, int] | None = None) -> int:
        return len(self.hypotheses)

    def _column(self, p: Any) -> np.ndarray:
        col = self._columns.get(p)
        if col is None:
            if len(self._columns) > 1 << 16:
                self._columns.clear()
            col = self._columns[p] = np.fromiter((h(p) for h in self.hypotheses), np.float64, len(self.hypotheses))
        return col

    def cells(
        self, x: Any, y: np.ndarray, window: tuple[int, int] | None = None
    ) -> tuple[list[int], np.ndarray, Decoder]:
        diff: dict[Any, int] = {}  # zeros − ones per distinct point
        ones = 0
        for p, v in zip(x, np.asarray(y).tolist()):
            p = as_python_point(p)
            diff[p] = diff.get(p, 0) + (1 - 2 * int(v))
            ones += int(v)
        mist = np.full(len(self.hypotheses), float(ones))
        for p, d in diff.items():
            if d:
                mist += d * self._column(p)

        def decode(j: int, rng: np.random.Generator) -> Hypothesis:
            return self.hypotheses[j]

        return [1] * len(self.hypotheses), mist, decode


def scores_for(H: HypothesisClass | VersionSpace) -> SegmentScores:
    """The closed form that fits the class (by its structure only — public): thresholds, points on an integer
    range, else any listable class (at most ``list_at.MAX_LIST`` hypotheses)."""
    from .bisect_at import threshold_candidates
    from .list_at import MAX_LIST, list_hypotheses

    hclass = getattr(H, "hclass", H)
    whole = not isinstance(H, VersionSpace) or H.key() == hclass.version_space().key()
    if isinstance(hclass, Points) and whole and hclass.domain.integer_range is not None:
        return PointScores(hclass)
    try:
        lo, hi = threshold_candidates(H)
        return ThresholdScores(lo, hi)
    except LittlestoneError:
        pass
    try:
        return FiniteScores(list_hypotheses(H))
    except LittlestoneError:
        name = getattr(hclass, "name", type(hclass).__name__)
        raise LittlestoneError(
            f"the agnostic learners have no closed form for {name}: they take thresholds (any domain), points on an "
            f"integer range, or a class that lists at most {MAX_LIST:,} hypotheses"
        ) from None


__all__ = ["FiniteScores", "PointScores", "SegmentScores", "ThresholdScores", "scores_for"]
