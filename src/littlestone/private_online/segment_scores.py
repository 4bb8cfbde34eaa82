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
* :class:`StumpScores` — stumps (thresholds and their negations, any domain): the thresholds' cells in both
  directions; windowed: a public window around the released cut (:meth:`SegmentScores.window_for`);
* :class:`IntervalScores` — intervals and the empty interval on {0, …, n−1} (n up to 2⁶²): O(m²) cells of exact
  big-integer sizes, or the same mechanism drawn in two stages in O(m) (docs/derivations.md, "G.3"); windowed: a
  rectangle of endpoints around the released interval;
* :class:`FiniteScores` — any listable class: a vector of scores, from the predictions on the distinct points
  of the stretch (one column per distinct point, cached).
"""

from __future__ import annotations

import math
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
    #: True when the class brings its own public window rule (:meth:`window_for`, :meth:`next_width`): stumps, intervals
    windowed = False

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

    def bind(self, mechanism: Any, backend: Any) -> None:
        """The learner's selection mechanism and its backend, for a closed form that draws in stages (no-op here)."""

    def window_for(self, h: Hypothesis, width: Any) -> Any:
        """The public window around the released hypothesis h for the public width state (None: the whole class)."""
        return None

    def next_width(self, width: Any, old: Hypothesis, new: Hypothesis, top: bool = False) -> Any:
        """The public width state after the released move old → new, ``top`` whether the segment ended by ⊤ (a
        function of released outputs only)."""
        return None

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


#: the smallest half-width of a stump's or an interval endpoint's public window
MIN_WINDOW = 4


def next_half_width(width: int | None, last: int, step: int, full: int, far: bool = False) -> tuple[int, int]:
    """(W, last step) after a released move of one coordinate by ``step``: the thresholds' public step-size rule —
    the whole class at first, doubled after two moves the same way, halved (not below :data:`MIN_WINDOW`) after a
    turn, kept when the coordinate did not move. With ``far``, a move the same way doubles W only when it is at least
    W/2 long (else W is kept): a coordinate the segment's examples hardly constrain moves uniformly in its window,
    and without this its width would walk up as often as down. Released values only."""
    W = full if width is None else width
    if step:
        if step * last > 0:
            W = min(full, 2 * W) if not far or 2 * abs(step) >= W else W
        else:
            W = max(MIN_WINDOW, W // 2)
        last = step
    return W, last


def pairs_below(a0: int, a1: int, b0: int, b1: int) -> int:
    """#{(a, b) : a0 ≤ a ≤ a1, b0 ≤ b ≤ b1, a ≤ b} (exact, any size)."""
    a1 = min(a1, b1)
    if a0 > a1 or b0 > b1:
        return 0
    flat = max(0, min(a1, b0) - a0 + 1) * (b1 - b0 + 1)  # a ≤ b0: every b
    u, v = max(a0, b0 + 1), a1  # a > b0: b ∈ [a, b1]
    tri = (v - u + 1) * (b1 + 1) - (u + v) * (v - u + 1) // 2 if u <= v else 0
    return flat + tri


def draw_pair_below(rng: np.random.Generator, a0: int, a1: int, b0: int, b1: int) -> tuple[int, int]:
    """A uniform draw among the pairs :func:`pairs_below` counts (non-empty): a uniform pair of the rectangle
    [a0, min(a1, b1)] × [max(b0, a0), b1] until a ≤ b (at least half of that rectangle; public randomness)."""
    a1, b0 = min(a1, b1), max(b0, a0)
    while True:
        a = a0 + uniform_below(rng, a1 - a0 + 1)
        b = b0 + uniform_below(rng, b1 - b0 + 1)
        if a <= b:
            return a, b


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


class StumpScores(SegmentScores):
    """Stumps (:class:`~littlestone.classes.stumps.Stumps`): thresholds h_t, t ∈ [l1, h1], and negations
    g_s = 1 − h_s, s ∈ [l2, h2], any domain size: the thresholds' cells in both directions (g_s errs where h_s is
    right, so its mistakes are |stretch| − those of h_s).

    Windowed: the public window (c − W, c + W, side) around the released stump's cut c (t of h_t, s of g_s) holds the
    stumps of the released direction whose cut lies in [c − W, c + W] — of both directions once [c − W, c + W] holds
    every cut (:meth:`window_for`); W follows the released cuts' moves by the thresholds' rule
    (:func:`next_half_width`). An adversary playing between the released cut and the target's makes every cut of the
    same direction beyond its examples fit, and every cut of the other direction before them: the window cuts the
    first plateau, and keeping the direction removes the second. A wrong direction errs on everything outside the
    two cuts, so its best cut runs to the window's edge, the moves repeat, W doubles until the window holds every cut
    and both directions compete again (docs/derivations.md, "G.3", the stumps' and intervals' windows)."""

    windowed = True

    def __init__(self, l1: int, h1: int, l2: int, h2: int, n: int):
        self.pos = ThresholdScores(l1, h1) if l1 <= h1 else None
        self.neg = ThresholdScores(l2, h2) if l2 <= h2 else None
        if self.pos is None and self.neg is None:
            raise LittlestoneError("StumpScores needs at least one stump")
        self.n = int(n)
        sides = [sc for sc in (self.pos, self.neg) if sc is not None]
        self.cut_lo, self.cut_hi = min(sc.lo for sc in sides), max(sc.hi for sc in sides)
        self.full = self.cut_hi - self.cut_lo + 1  # the cuts' span

    def start(self) -> Hypothesis:
        from ..classes.stumps import NegThreshold

        return self.pos.start() if self.pos is not None else NegThreshold(self.neg.start().t)  # type: ignore[union-attr]

    @staticmethod
    def cut(h: Hypothesis) -> int:
        """The cut of a stump: t of h_t = 1[x ≥ t], s of g_s = 1[x < s]."""
        return int(h.t if isinstance(h, Threshold) else h.s)  # type: ignore[attr-defined]

    def window_for(self, h: Hypothesis, width: Any) -> tuple[int, int, int | None] | None:
        """(c − W, c + W, side): side 1 for thresholds h_t, 0 for negations g_s, None for both (when [c − W, c + W]
        holds every cut); cut to the bracket [L, U] when there is one."""
        if width is None:
            return None
        c = self.cut(h)
        lo, hi = c - width[0], c + width[0]
        if lo <= self.cut_lo and hi >= self.cut_hi:
            return (lo, hi, None)
        if width[2] is not None:
            lo, hi = max(lo, width[2][0]), min(hi, width[2][1])
        return (lo, hi, int(isinstance(h, Threshold)))

    def next_width(
        self, width: Any, old: Hypothesis, new: Hypothesis, top: bool = False
    ) -> tuple[int, int, tuple[int, int] | None, int]:
        """(W, last step, bracket, endgame ⊤s): W by :func:`next_half_width`; on classes of at least
        ``BRACKET_MIN_CLASS`` cuts the thresholds' bracket (:func:`~littlestone.private_online.segmented_em.next_bracket`)
        on the cuts of one direction — after ⊤-ended segments that kept the direction, dropped otherwise, and with
        the thresholds' endgame (dropped with W reset after ``ENDGAME_TOPS`` ⊤s at width ≤ ``ENDGAME_WIDTH``)."""
        from .segmented_em import BRACKET_MIN_CLASS, ENDGAME_TOPS, ENDGAME_WIDTH, next_bracket

        W, last, br, tops = (None, 0, None, 0) if width is None else width
        c0, c1 = self.cut(old), self.cut(new)
        W, last = next_half_width(W, last, c1 - c0, self.full)
        if top and type(old) is type(new) and self.full >= BRACKET_MIN_CLASS:
            side = self.pos if isinstance(new, Threshold) else self.neg
            br = next_bracket(br, c0, c1, side.lo, side.hi)  # type: ignore[union-attr]
            tops = tops + 1 if br[1] - br[0] <= ENDGAME_WIDTH else 0
            if tops > ENDGAME_TOPS:
                return (self.full, 0, None, 0)
        else:
            br, tops = None, 0
        return (W, last, br, tops)

    def _sides(self, window: Any) -> tuple[ThresholdScores | None, ThresholdScores | None, Any]:
        """(thresholds' scores, negations' scores, the cuts' window): a side the window leaves out is None."""
        if window is None:
            return self.pos, self.neg, None
        lo, hi, side = window
        return (self.pos if side != 0 else None), (self.neg if side != 1 else None), (lo, hi)

    def range_size(self, window: Any = None) -> int:
        pos, neg, cuts = self._sides(window)
        lo, hi = (-math.inf, math.inf) if cuts is None else cuts
        return sum(
            max(0, min(hi, sc.hi) - max(lo, sc.lo) + 1)  # type: ignore[call-overload]
            for sc in (pos, neg)
            if sc is not None
        )

    def cells(
        self, x: Any, y: np.ndarray, window: tuple[int, int] | None = None
    ) -> tuple[list[int], np.ndarray, Decoder]:
        from ..classes.stumps import NegThreshold

        pos, neg, cuts = self._sides(window)
        sizes: list[int] = []
        mist: list[np.ndarray] = []
        dpos: Decoder | None = None
        dneg: Decoder | None = None
        if pos is not None:
            sp, mp, dpos = pos.cells(x, y, cuts)
            sizes += list(sp)
            mist.append(np.asarray(mp, dtype=float))
        k = len(sizes)
        if neg is not None:
            sn, mn, dneg = neg.cells(x, y, cuts)
            sizes += list(sn)
            mist.append(len(y) - np.asarray(mn, dtype=float))

        def decode(j: int, rng: np.random.Generator) -> Hypothesis:
            if j < k:
                return dpos(j, rng)  # type: ignore[misc]
            return NegThreshold(dneg(j - k, rng).t)  # type: ignore[misc, attr-defined]

        return sizes, np.concatenate(mist), decode


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


def _pair_in_gap(r: int, c: int) -> tuple[int, int]:
    """The r-th pair (u, v), 0 ≤ u ≤ v < c, in the order (0,0), (0,1), …, (0,c−1), (1,1), …: r < c(c+1)/2."""
    lo, hi = 0, c - 1  # the largest u with before(u) = u·c − u(u−1)/2 ≤ r
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mid * c - mid * (mid - 1) // 2 <= r:
            lo = mid
        else:
            hi = mid - 1
    return lo, lo + r - (lo * c - lo * (lo - 1) // 2)


class IntervalScores(SegmentScores):
    """Intervals [a, b] ⊆ {0, …, n−1} and the empty interval (Intervals(n), n up to 2⁶²; docs/derivations.md
    "G.3 Intervals and stumps in closed form").

    With p_0 < … < p_{m−1} the distinct points of the stretch (p_{−1} = −1, p_m = n, d_k = p_k − p_{k−1}), an
    interval covers a run p_i … p_{j−1} (0 ≤ i < j ≤ m) for d_i·d_j choices of (a, b) — a ∈ [p_{i−1}+1, p_i],
    b ∈ [p_{j−1}, p_j − 1] — or no point: the empty interval and the c_k(c_k+1)/2 intervals inside each gap of
    c_k = d_k − 1 integers, Z = 1 + Σ_k c_k(c_k+1)/2 in all, with the score of the empty interval. Score of the run:
    −(ones outside + zeros inside) = −O + E_j − E_i (E prefix sums of ones − zeros): separable in (i, j).

    * unbound (:meth:`cells` without :meth:`bind`): the O(m²) cells (i, j) and the no-point cell, exact sizes
      (Python ints up to n²/2 ≈ 2¹²³);
    * bound to the learner's selection mechanism (:meth:`bind`): the same exponential mechanism drawn in two stages in
      O(m) — the start index i (or the no-point cell) from its marginal, P(i) ∝ d_i e^{−εE_i/2}·Σ_{j>i} d_j
      e^{εE_j/2} (log-sum-exp), then the end index j given i with P(j | i) ∝ d_j e^{εE_j/2} by a second run of the
      same mechanism object on the row (the second half of one draw: the pair has exactly the EM law, ε-DP once).
      The cells are then the m start indices and the no-point cell, and the "mistakes" :meth:`cells` returns are
      minus their stage-1 scores (−O − E_i + (2/ε)·ln Σ_{j>i} d_j e^{εE_j/2}; O for the no-point cell).

    Windowed (SegmentedEM): a window (A0, A1, B0, B1) is the rectangle of endpoints a ∈ [A0, A1], b ∈ [B0, B1]
    around the released interval (:meth:`window_for`, :meth:`next_width`; not the empty interval); both draws then
    run over exactly its intervals — d_i, d_j cut to the rectangle, the no-point cell its in-gap pairs
    (:func:`pairs_below`).
    """

    windowed = True

    def __init__(self, n: int):
        self.n = int(n)
        self._mech: Any = None
        self._backend: Any = None

    def start(self) -> Hypothesis:
        from ..classes.intervals import EMPTY

        return EMPTY

    # the public window: a rectangle of endpoints (a, b) around the released interval's
    def window_for(self, h: Hypothesis, width: Any) -> tuple[int, int, int, int] | None:
        """(A0, A1, B0, B1): the intervals [a, b] with a ∈ [A0, A1], b ∈ [B0, B1], a ± W_a and b ± W_b around the
        released [a, b] — not the empty interval, which fits every stretch of the adversary's where the released
        interval is too wide on both sides. None (the whole class, the empty interval with it) before the first move,
        when the empty interval is released, or when the rectangle holds every interval."""
        ivs = getattr(h, "intervals", ())
        if width is None or not ivs:
            return None
        (a, b), (wa, _, wb, _) = ivs[0], width
        w = (max(0, a - wa), min(self.n - 1, a + wa), max(0, b - wb), min(self.n - 1, b + wb))
        return None if w == (0, self.n - 1, 0, self.n - 1) else w

    def next_width(self, width: Any, old: Hypothesis, new: Hypothesis, top: bool = False) -> tuple[int, int, int, int]:
        """(W_a, last a-step, W_b, last b-step): each endpoint by the thresholds' rule (:func:`next_half_width`); a move
        from or to the empty interval starts both again from the whole domain."""
        io, inew = getattr(old, "intervals", ()), getattr(new, "intervals", ())
        if width is None or not io or not inew:
            return (self.n, 0, self.n, 0)
        (a0, b0), (a1, b1) = io[0], inew[0]
        wa, la = next_half_width(width[0], width[1], a1 - a0, self.n, far=True)
        wb, lb = next_half_width(width[2], width[3], b1 - b0, self.n, far=True)
        return (wa, la, wb, lb)

    def range_size(self, window: tuple[int, int, int, int] | None = None) -> int:
        if window is None:
            return self.n * (self.n + 1) // 2 + 1
        return pairs_below(*window)

    def bind(self, mechanism: Any, backend: Any) -> None:
        self._mech, self._backend = mechanism, backend

    def _stretch(self, x: Any, y: np.ndarray) -> tuple[list[int], list[int], np.ndarray, int]:
        """(p with p_{−1}, p_m: [−1, p_0, …, p_{m−1}, n], d_0 … d_m, E_0 … E_m, ones)."""
        y = np.asarray(y, dtype=np.int64)
        if len(y):
            u, ones, zeros = _sorted_counts(np.asarray(x), y)
            pts = [int(v) for v in u.tolist()]
        else:
            pts, ones, zeros = [], np.zeros(0, np.int64), np.zeros(0, np.int64)
        p = [-1] + pts + [self.n]
        d = [p[k + 1] - p[k] for k in range(len(pts) + 1)]
        E = np.concatenate([[0], np.cumsum(ones - zeros)]).astype(float)
        return p, d, E, int(y.sum())

    def _zero_cell(
        self, p: list[int], d: list[int], window: tuple[int, int, int, int] | None
    ) -> tuple[int, Callable[[np.random.Generator], Hypothesis]]:
        """(Z, a uniform draw among the intervals covering no point of the stretch and the empty interval — or, inside a
        window, among the window's intervals covering no point; Z may be 0 there)."""
        from ..classes.intervals import EMPTY, IntervalUnion

        if window is None:
            inside = [(c - 1) * c // 2 for c in d]  # c_k(c_k+1)/2 with c_k = d_k − 1
        else:  # gap k: the integers p_{k−1} + 1 … p_k − 1 (p shifted by one), both endpoints inside the window
            A0, A1, B0, B1 = window
            box = [
                (max(A0, p[k] + 1), min(A1, p[k + 1] - 1), max(B0, p[k] + 1), min(B1, p[k + 1] - 1))
                for k in range(len(d))
            ]
            inside = [pairs_below(*r) for r in box]
        empty = int(window is None)
        Z = empty + sum(inside)

        def draw(rng: np.random.Generator) -> Hypothesis:
            r = uniform_below(rng, Z)
            if empty and r == 0:
                return EMPTY
            r -= empty
            for k, w in enumerate(inside):
                if r < w:
                    if window is not None:
                        return IntervalUnion((draw_pair_below(rng, *box[k]),))
                    u, v = _pair_in_gap(r, d[k] - 1)
                    return IntervalUnion(((p[k] + 1 + u, p[k] + 1 + v),))
                r -= w
            raise AssertionError("unreachable")  # pragma: no cover

        return Z, draw

    def cells(
        self, x: Any, y: np.ndarray, window: tuple[int, int, int, int] | None = None
    ) -> tuple[list[int], np.ndarray, Decoder]:
        from ..classes.intervals import IntervalUnion

        p, d, E, ones = self._stretch(x, y)
        m = len(d) - 1
        Z, draw_zero = self._zero_cell(p, d, window)
        # the start a of a run at p_i: a ∈ [p_{i−1} + 1, p_i] (i < m); its end b at p_{j−1}: b ∈ [p_{j−1}, p_j − 1]
        # (j ≥ 1) — p shifted by one (p[i] = p_{i−1}); inside the window, the parts in [A0, A1] and [B0, B1]
        A0, A1, B0, B1 = (0, self.n - 1, 0, self.n - 1) if window is None else window
        a_lo = [max(A0, p[i] + 1) for i in range(m)]
        da = [max(0, min(A1, p[i + 1]) - a_lo[i] + 1) for i in range(m)]
        b_lo = [0] + [max(B0, p[j]) for j in range(1, m + 1)]
        db = [0] + [max(0, min(B1, p[j + 1] - 1) - b_lo[j] + 1) for j in range(1, m + 1)]

        def interval(i: int, j: int, rng: np.random.Generator) -> Hypothesis:
            a = a_lo[i] + uniform_below(rng, da[i])
            b = b_lo[j] + uniform_below(rng, db[j])
            return IntervalUnion(((a, b),))

        if self._mech is None:  # the O(m²) cells
            ii, jj = np.triu_indices(m + 1, k=1)
            pairs = [(i, j) for i, j in zip(ii.tolist(), jj.tolist()) if da[i] * db[j] > 0]
            sizes = [da[i] * db[j] for i, j in pairs] + [Z][: int(Z > 0)]
            mist = np.array([ones - (E[j] - E[i]) for i, j in pairs] + [ones][: int(Z > 0)], dtype=float)

            def decode(c: int, rng: np.random.Generator) -> Hypothesis:
                return draw_zero(rng) if c == len(pairs) else interval(*pairs[c], rng)

            return sizes, mist, decode
        # two stages: cell i < m is "the run starts at p_i", its weight summed over the ends j > i in log space
        scale = float(self._mech.scale)
        logd = np.array([math.log(v) if v > 0 else -math.inf for v in db])
        with np.errstate(invalid="ignore"):
            tail = np.logaddexp.accumulate((E / scale + logd)[::-1])[::-1]  # tail[k] = LSE_{j ≥ k}(E_j/scale + ln db_j)
        agg = -ones - E[:m] + scale * tail[1:]  # −O − E_i + scale·LSE_{j > i}(…); ln da_i enters through the size
        starts = [i for i in range(m) if da[i] > 0 and np.isfinite(agg[i])]
        mech, backend = self._mech, self._backend

        def decode2(c: int, rng: np.random.Generator) -> Hypothesis:
            if c == len(starts):
                return draw_zero(rng)
            i = starts[c]
            ends = [k for k in range(i + 1, m + 1) if db[k] > 0]
            j = ends[mech(([db[k] for k in ends], E[ends]), backend=backend)]
            return interval(i, j, rng)

        z = int(Z > 0)  # the no-point cell (always there without a window: the empty interval)
        return [da[i] for i in starts] + [Z][:z], np.concatenate([-agg[starts], [ones][:z]]), decode2


def scores_for(H: HypothesisClass | VersionSpace) -> SegmentScores:
    """The closed form that fits the class (by its structure only — public): thresholds, points on an integer
    range, intervals, stumps, else any listable class (at most ``list_at.MAX_LIST`` hypotheses)."""
    from .bisect_at import threshold_candidates
    from .list_at import MAX_LIST, list_hypotheses

    from ..classes.intervals import Intervals
    from ..classes.stumps import Stumps, StumpsVersionSpace

    hclass = getattr(H, "hclass", H)
    whole = not isinstance(H, VersionSpace) or H.key() == hclass.version_space().key()
    if isinstance(hclass, Points) and whole and hclass.domain.integer_range is not None:
        return PointScores(hclass)
    if isinstance(hclass, Intervals) and whole:
        return IntervalScores(hclass.n)
    if isinstance(hclass, Stumps):
        V = H if isinstance(H, StumpsVersionSpace) else hclass.version_space()
        return StumpScores(V.l1, V.h1, V.l2, V.h2, hclass.n)
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
            f"the agnostic learners have no closed form for {name}: they take thresholds (any domain), stumps (any domain), points on an "
            f"integer range, intervals, or a class that lists at most {MAX_LIST:,} hypotheses"
        ) from None


__all__ = [
    "FiniteScores",
    "IntervalScores",
    "PointScores",
    "SegmentScores",
    "StumpScores",
    "ThresholdScores",
    "scores_for",
]
