"""PointsAT: a practical private online learner for point functions on huge domains (Points(2⁶⁰), the 64-bit
integers), realizable, private against adaptive adversaries (LWY25 Def. 2.4). Pure ε-DP with the exponential
selection (default); (ε, δ)-DP with the stable-histogram selection (any hashable domain).

The stream is cut into segments, each ended by an AboveThreshold ⊤ on the segment's running mistake count:

* a **zero segment** releases the zero function. Its mistakes are the positive examples; in a realizable stream they
  all sit at the target point p*. A step AboveThreshold(τ₀, ε_a) on their running count; at ⊤ a selection with
  ε_s = ε − ε_a reads the segment's positives: the exponential mechanism over the whole domain with score = the
  number of positives at the candidate (cells: each positive point, and the rest of the domain — never enumerated;
  :class:`~littlestone.privacy.cell_exponential.CellExponentialMechanism`), or the stable histogram of the
  positives (the released point with the largest noisy count; nothing released: a new zero segment). Then a point
  segment releases h_q;
* a **point segment** releases h_q; a step AboveThreshold(τ_p, ε) on its running mistake count; at ⊤ a new zero
  segment.

Privacy (docs/derivations.md, "PointsAT and IntervalsAT"): every mechanism of a segment reads only that segment's
rounds, so by the disjoint-segment lemma (derivations.md §F.1) the released stream is max(ε_a + ε_s, ε) = ε-DP
(+ δ for the histogram). Mistakes: :func:`littlestone.bounds.points_intervals_at.points_at_bound` (theory setting;
≈ τ₀ + a in one zero segment when the selection is right).

Both AboveThresholds read a running count of 0/1 indicators over the segment's rounds, with the released hypothesis
fixed for the whole segment (the zero function, or h_q): replacing one round t* changes every count from t* on by
the same c ∈ {−1, 0, 1} and none before — step differences (:data:`~littlestone.privacy.STEP_ASSUMPTION`), so the
step AboveThreshold (both noises Lap(1/ε′)) is ε′-DP for them (docs/derivations.md, "Step AboveThreshold"). ``at``
picks the kind ("step", default; "monotone"; "standard" — Dwork–Roth Alg. 1); :func:`segment_mechanism` and
:func:`segment_at` build it, the bound (:func:`~littlestone.bounds.points_intervals_at.points_at_bound`) uses its
noise scales.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from .._random import SeedLike
from ..bounds.points_intervals_at import INT64_UNIVERSE, PointsATBound, points_at_bound
from ..classes.base import HypothesisClass, Point, VersionSpace, as_python_point, point_key
from ..classes.points import ZERO, FiniteSet, Points
from ..errors import DomainError, LittlestoneError
from ..privacy.above_threshold import AboveThreshold, AboveThresholdRun
from ..privacy.cell_exponential import CellExponentialMechanism
from ..privacy.mechanism import compose
from ..privacy.stable_histogram import StableHistogram
from .base import LearnerPrivacy, PrivateOnlineLearner, compose_claims, split_randomness
from .segments import AT_KINDS, check_at_kind

#: rounds per vectorised chunk of :meth:`PointsAT.run`
CHUNK = 1 << 15


def segment_mechanism(at: str, threshold: float, epsilon: float) -> AboveThresholdRun:
    """The claim object of a segment's ``at`` AboveThreshold (threshold τ, budget ε, sensitivity 1: a running 0/1
    count of the segment)."""
    return AT_KINDS[check_at_kind(at)][1](threshold, epsilon, sensitivity=1.0)


def segment_at(mechanism: AboveThresholdRun, backend: Any) -> AboveThreshold:
    """The AboveThreshold instance of one segment: the interactive class of its claim object's kind, with the claim
    object's parameters."""
    cls = next(at_cls for at_cls, run_cls in AT_KINDS.values() if type(mechanism) is run_cls)
    return cls(
        mechanism.threshold,
        mechanism.epsilon,
        sensitivity=mechanism.sensitivity,
        backend=backend,
        noise_batch=1 << 12,
        threshold_batch=1,
        integer_queries=True,  # running 0/1 counts: the unit grid on the secure backend
    )


def check_setting(setting: Any) -> str:
    """'theory' (the thresholds of the mistake bound) or 'practical' (the same constants: the theory setting is
    already the practical one here)."""
    if setting not in ("theory", "practical"):
        raise LittlestoneError(f"setting must be 'theory' or 'practical', not {setting!r}")
    return str(setting)


def chunk_array(Xc: Any) -> np.ndarray | None:
    """The chunk as an int64 array when it is one (vectorised counting), else None."""
    if isinstance(Xc, np.ndarray) and Xc.ndim == 1 and Xc.dtype.kind in "iu":
        return Xc
    return None


class PointsAT(PrivateOnlineLearner):
    """Private online learner for :class:`~littlestone.classes.Points` on any domain size (module docstring).

    Parameters as every private online learner (``T``, ``epsilon``, ``delta``, ``beta``, ``backend``, ``seed``,
    ``labels``, ``feature``, ``diagnostics``), plus ``selection``: "exponential" (pure ε-DP; the domain must be
    integers 0..N−1, a finite collection, or — on the infinite domain — the 64-bit integers), "histogram" (stable
    histogram, δ > 0, any hashable domain) or None (exponential unless the domain is given by a predicate); ``at``:
    the segments' AboveThreshold ("step" — default, both noises Lap(1/ε′) —, "monotone" or "standard").

    >>> from littlestone.classes import Points
    >>> learner = PointsAT(Points(2**60), T=1000, epsilon=1.0, backend="seeded", seed=0)
    >>> learner.hypothesis()
    FiniteSet([])
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
        selection: str | None = None,
        setting: str = "theory",
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
        if not isinstance(H, Points):
            raise LittlestoneError(
                f"PointsAT learns point functions (Points, e.g. points:2^60); got {getattr(H, 'name', H)!r}"
            )
        if isinstance(hypothesis_class, VersionSpace) and hypothesis_class.key() != H.version_space().key():
            raise LittlestoneError("PointsAT starts from the whole class Points, not a restricted version space")
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
        dom = H.domain
        if selection is None:
            selection = "histogram" if dom.predicate is not None else "exponential"
        if selection not in ("exponential", "histogram"):
            raise LittlestoneError(f"selection must be 'exponential', 'histogram' or None, not {selection!r}")
        if selection == "exponential" and dom.predicate is not None:
            raise LittlestoneError(
                "the exponential selection needs a domain it can draw from uniformly (integers 0..N−1, a finite "
                "collection, or the infinite domain's 64-bit integers); a predicate domain needs selection='histogram'"
            )
        if selection == "histogram" and self.delta <= 0:
            raise LittlestoneError("selection='histogram' (a stable histogram) needs delta > 0")
        self.selection = selection
        self.setting_ = check_setting(setting)
        self.at = check_at_kind(at)
        self._int64_only = selection == "exponential" and dom.finite is None
        self.universe = INT64_UNIVERSE if self._int64_only else dom.size
        self.bound: PointsATBound = points_at_bound(
            self.universe, self.T, self.epsilon, self.beta, selection=selection, delta=self.delta, at=self.at
        )
        b = self.bound
        # the mechanisms this learner runs, built once from the parameters; privacy() composes exactly these
        self.at_zero = segment_mechanism(self.at, b.tau_zero, b.eps_at)
        self.at_point = segment_mechanism(self.at, b.tau_point, self.epsilon)
        (self._rng,), (self._b_at, self._b_sel) = split_randomness(backend, seed, 1, 2)
        if selection == "exponential":
            self.selector: Any = CellExponentialMechanism(b.eps_select, 1.0)
        else:
            self.selector = StableHistogram(b.eps_select, self.delta, discrete=self._b_sel.floating_point_safe)
        self._q: Point | None = None  # None: a zero segment
        self._h = ZERO
        self.segments = 0
        self.selections = 0
        self._start_segment()

    # ------------------------------------------------------------------------------------------- segments
    def _start_segment(self) -> None:
        m = self.at_zero if self._q is None else self.at_point
        self._at = segment_at(m, self._b_at)
        self._count = 0
        self._positives: Counter = Counter()
        self.segments += 1

    def _on_top(self) -> None:
        if self._q is None:
            self._q = self._select()
        else:
            self._q = None
        self._h = ZERO if self._q is None else FiniteSet((self._q,))  # the released h_q (builds _hf)
        self._start_segment()

    def _select(self) -> Point | None:
        """The zero segment's selection on its positives (None: the histogram released nothing)."""
        self.selections += 1
        pts = sorted(self._positives, key=point_key)
        if self.selection == "histogram":
            items = [p for p in pts for _ in range(self._positives[p])]
            rel = self.selector(items, backend=self._b_sel)
            if not rel.counts:
                return None
            return max(sorted(rel.counts, key=point_key), key=lambda p: rel.counts[p])  # ties: canonical order
        rest = self.universe - len(pts)
        sizes = [1] * len(pts) + ([rest] if rest >= 1 else [])
        scores = [float(self._positives[p]) for p in pts] + ([0.0] if rest >= 1 else [])
        j = self.selector((sizes, scores), backend=self._b_sel)
        return pts[j] if j < len(pts) else self._uniform_outside(set(pts))

    def _uniform_outside(self, excluded: set) -> Point:
        """A uniform point of the selection's universe outside ``excluded`` (by rejection; the learner's own rng)."""
        dom = self.hypothesis_class.domain
        while True:
            if self._int64_only:
                x: Any = int(self._rng.integers(-(2**63), 2**63 - 1, endpoint=True, dtype=np.int64))
            elif dom.integer_range is not None:
                r = dom.integer_range
                x = r.start + _below(self._rng, r.stop - r.start)
            else:
                x = dom.finite[_below(self._rng, len(dom.finite))]
            if x not in excluded:
                return x

    # ------------------------------------------------------------------------------------------- protocol
    def _validate(self, x: Any) -> Point:
        p = super()._validate(x)
        if self._int64_only and not (isinstance(p, int) and -(2**63) <= p < 2**63):
            raise DomainError(
                f"point {p!r}: PointsAT's exponential selection on the infinite domain draws from the 64-bit "
                "integers; other points need selection='histogram' (δ > 0)"
            )
        return p

    def _released(self) -> FiniteSet:
        return self._h

    def _learn01(self, x: Point, y: int) -> None:
        if self._hf(x) != y:
            self._count += 1
            if self._q is None:  # a mistake of the zero function is a positive example
                self._positives[x] += 1
        if self._at.test_count(self._count):
            self._on_top()

    def _run01(self, X: Any, y: np.ndarray) -> np.ndarray:
        if self._int64_only and chunk_array(X) is None:
            X = [self._point(x) for x in X]
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
            m = top + 1 if top >= 0 else end - pos
            preds[pos : pos + m] = pc[:m]
            if self._q is None:
                self._add_positives(Xc, miss, m)
            self._count = int(cum[m - 1])
            self.t += m
            pos += m
            if top >= 0:
                self._on_top()
        return preds

    def _add_positives(self, Xc: Any, miss: np.ndarray, m: int) -> None:
        arr = chunk_array(Xc)
        idx = np.flatnonzero(miss[:m])
        if not idx.size:
            return
        if arr is not None:
            vals, cnt = np.unique(arr[idx], return_counts=True)
            for v, c in zip(vals.tolist(), cnt.tolist()):
                self._positives[v] += c
        else:
            for i in idx.tolist():
                self._positives[as_python_point(Xc[i])] += 1

    # ------------------------------------------------------------------------------------------- reports
    @property
    def setting(self) -> str:
        b = self.bound
        return (
            f"{self.setting_} (τ₀={b.tau_zero:.1f}, τ_p={b.tau_point:.1f}, {self.selection}, {self.at} AboveThreshold)"
        )

    def privacy(self) -> LearnerPrivacy:
        """Disjoint-segment lemma (derivations.md §F.1): zero segments run AboveThreshold (ε_a) then the selection
        (ε_s) on the same rounds — basic composition, ε_a + ε_s = ε —; point segments run AboveThreshold (ε)."""
        zero = compose([self.at_zero, self.selector], what="zero segment: AboveThreshold + selection")
        point = compose([self.at_point], what="point segment: AboveThreshold")
        return compose_claims(
            [zero, point], [], self.relation, "disjoint segments (derivations.md §F.1), basic composition inside one"
        )

    def _public_state(self) -> dict[str, Any]:
        """Public or computed from mechanism outputs: the segment kind and count (moved by ⊤), selections run."""
        return {
            "t": self.t,
            "segment": "zero" if self._q is None else "point",
            "segments": self.segments,
            "selections": self.selections,
            "selection": self.selection,
            "setting": self.setting_,
            "at": self.at,
        }

    def _diagnostic_state(self) -> dict[str, Any]:
        """Exact counts of the private stream: mistakes and positives of the current segment."""
        return {"segment_mistakes": self._count, "segment_positives": sum(self._positives.values())}


def _below(rng: np.random.Generator, n: int) -> int:
    """A uniform integer in 0..n−1 for any n ≥ 1 (n may exceed 2⁶³)."""
    if n <= 2**63:
        return int(rng.integers(0, n))
    bits = (n - 1).bit_length()
    while True:
        words = rng.integers(0, 2**32, size=(bits + 31) // 32, dtype=np.uint64).tolist()
        v = 0
        for w in words:
            v = (v << 32) | int(w)
        v >>= 32 * len(words) - bits
        if v < n:
            return v


__all__ = ["PointsAT", "segment_at", "segment_mechanism", "check_setting", "chunk_array"]
