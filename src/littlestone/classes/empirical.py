"""Empirical-error classes H_{P̂,θ} = {h ∈ H : err_S(h) ≤ θ} (GGKM21 §5, the objects ReduceTree works on).

:func:`empirical_errors` reads a sample once and returns an :class:`EmpiricalErrors`; ``level(θ)`` is the version
space H_{P̂,θ}, which a node's ancestor set then restricts by the ordinary ``restrict`` (restriction commutes with
the error filter). Every level is an ordinary version space, so Ldim, irreducibility and the SOA come for free:

* explicit finite classes: mistakes per row from per-column label counts (one pass over the sample), the level a
  bitmask of the rows with ≤ ⌊θn⌋ mistakes;
* thresholds: the error of h_t is constant between consecutive distinct sample points, so the sample is sorted once,
  prefix sums give every segment's error, and a level is the union of the segments under ⌊θn⌋ — a chain
  (:class:`ChainVersionSpace`), whatever the domain size;
* points (any domain): err(h_p) = P − pos(p) + neg(p) with P the number of positive labels, err(0) = err(h_p) = P for
  unseen p; a level is cofinite (P ≤ ⌊θn⌋) or a finite set of point functions (:class:`PointSetVersionSpace`);
* other classes with a small domain: their explicit twin.

Counts can be accumulated block by block (:func:`empirical_errors_from_batches`) so a dataset is streamed, never held.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from typing import Any, Iterable, Iterator

import numpy as np

from ..errors import DomainError, LittlestoneError
from .base import Hypothesis, HypothesisClass, Point, VersionSpace, as_python_point, point_key
from .finite import FiniteClass, FiniteVersionSpace
from .points import FiniteSet, Points, PointsVersionSpace, ZERO
from .thresholds import Threshold, Thresholds, chain_ldim


def mistake_budget(theta: float, n: int) -> int:
    """⌊θ·n⌋ (with a 1e-9 guard against round-off): err_S(h) ≤ θ ⇔ mistakes ≤ this."""
    if n <= 0:
        raise LittlestoneError("an empirical class needs at least one example")
    if theta < 0:
        return -1
    return int(math.floor(theta * n + 1e-9))


# --------------------------------------------------------------------------------------------------------------------
# Version spaces for the structured levels
# --------------------------------------------------------------------------------------------------------------------


class ChainVersionSpace(VersionSpace):
    """{h_t : t ∈ ∪_i [a_i, b_i]} ∩ [lo, hi] of a :class:`Thresholds` class: a chain (ordered by t)."""

    __slots__ = ("_cls", "starts", "ends", "_cum")

    def __init__(self, cls: Thresholds, starts: np.ndarray, ends: np.ndarray):
        keep = ends >= starts
        self._cls = cls
        self.starts = np.ascontiguousarray(starts[keep], dtype=np.int64)
        self.ends = np.ascontiguousarray(ends[keep], dtype=np.int64)
        lengths = [int(b) - int(a) + 1 for a, b in zip(self.starts.tolist(), self.ends.tolist())]
        self._cum = list(np.cumsum(np.array(lengths, dtype=object))) if lengths else []

    @property
    def hclass(self) -> Thresholds:
        return self._cls

    def key(self) -> tuple:
        return (tuple(self.starts.tolist()), tuple(self.ends.tolist()))

    def size(self) -> int:
        return int(self._cum[-1]) if self._cum else 0

    def ldim(self) -> int:
        return chain_ldim(self.size())

    def kth(self, j: int) -> int:
        """The j-th smallest t (1-based)."""
        c = self.size()
        if not 1 <= j <= c:
            raise LittlestoneError(f"kth({j}) of a chain of {c} elements")
        i = _bisect(self._cum, j)
        before = int(self._cum[i - 1]) if i else 0
        return int(self.starts[i]) + (j - before) - 1

    def chain(self) -> tuple[int, Any]:
        """(size, kth) for the closed-form irreducibility of chains."""
        return self.size(), self.kth

    def _clip(self, lo: int, hi: int) -> "ChainVersionSpace":
        return ChainVersionSpace(self._cls, np.maximum(self.starts, lo), np.minimum(self.ends, hi))

    def restrict(self, x: Point, y: int) -> "ChainVersionSpace":
        x = int(x)
        return self._clip(-1, x) if y else self._clip(x + 1, self._cls.n)

    def contains(self, h: Hypothesis) -> bool:
        if not isinstance(h, Threshold):
            return False
        i = int(np.searchsorted(self.ends, h.t, side="left"))
        return i < len(self.ends) and int(self.starts[i]) <= h.t

    def hypotheses(self) -> Iterator[Threshold]:
        for a, b in zip(self.starts.tolist(), self.ends.tolist()):
            for t in range(a, b + 1):
                yield Threshold(t)

    def count_at_most(self, x: int) -> int:
        """#{t ≤ x} in the chain."""
        total = 0
        for a, b in zip(self.starts.tolist(), self.ends.tolist()):
            if a > x:
                break
            total += min(b, x) - a + 1
        return total

    def soa_predict(self, x: Point) -> int:
        a = self.count_at_most(int(x))
        return int(chain_ldim(a) > chain_ldim(self.size() - a))

    def soa(self) -> Threshold:
        """SOA of a chain is the threshold at the a*-th element, a* the least a with ⌊log2 a⌋ > ⌊log2(c − a)⌋."""
        c = self.size()
        if c == 0:
            return Threshold(self._cls.n)  # SOA of ∅: the all-0 function
        lo, hi = 1, c  # predicate monotone in a; true at a = c
        while lo < hi:
            mid = (lo + hi) // 2
            if chain_ldim(mid) > chain_ldim(c - mid):
                hi = mid
            else:
                lo = mid + 1
        return Threshold(self.kth(lo))

    def soa_predict_many(self, X: Any) -> np.ndarray:
        return self.soa().predict(X)

    def split_point(self) -> Point | None:
        L = self.ldim()
        return None if L < 1 else self.kth(1 << (L - 1))

    def threshold_interval(self) -> tuple[int, int, int] | None:
        """One segment [a, b] (or none) is the interval {h_t : a ≤ t ≤ b}; several segments are not an interval."""
        if len(self.starts) > 1:
            return None
        if len(self.starts) == 0:
            return 1, 0, self._cls.n
        return int(self.starts[0]), int(self.ends[0]), self._cls.n

    def with_threshold_interval(self, lo: int, hi: int) -> "ChainVersionSpace":
        return ChainVersionSpace(self._cls, np.array([lo], dtype=np.int64), np.array([hi], dtype=np.int64))


def _bisect(cum: list, j: int) -> int:
    lo, hi = 0, len(cum)
    while lo < hi:
        mid = (lo + hi) // 2
        if cum[mid] < j:
            lo = mid + 1
        else:
            hi = mid
    return lo


class PointSetVersionSpace(VersionSpace):
    """A finite set {h_p : p ∈ P} of point functions (no zero function) of a :class:`Points` class."""

    __slots__ = ("_cls", "point_set")

    def __init__(self, cls: Points, points: Iterable[Any]):
        self._cls = cls
        self.point_set = tuple(sorted({as_python_point(p) for p in points}, key=point_key))

    @staticmethod
    def make(cls: Points, points: Iterable[Any]) -> VersionSpace:
        pts = list(points)
        if not pts:
            return PointsVersionSpace(cls, empty=True)
        if len(set(pts)) == 1:
            return PointsVersionSpace(cls, positive=as_python_point(pts[0]))
        return PointSetVersionSpace(cls, pts)

    @property
    def hclass(self) -> Points:
        return self._cls

    def key(self) -> tuple:
        return ("set", self.point_set)

    def restrict(self, x: Point, y: int) -> VersionSpace:
        if y:
            return PointSetVersionSpace.make(self._cls, [x] if x in self.point_set else [])
        return PointSetVersionSpace.make(self._cls, [p for p in self.point_set if p != x])

    def size(self) -> int:
        return len(self.point_set)

    def ldim(self) -> int:
        return 1  # ≥ 2 point functions (smaller sets are PointsVersionSpace by make())

    def contains(self, h: Hypothesis) -> bool:
        return isinstance(h, FiniteSet) and len(h.points) == 1 and h.points[0] in self.point_set

    def hypotheses(self) -> Iterator[FiniteSet]:
        return (FiniteSet((p,)) for p in self.point_set)

    def soa(self) -> FiniteSet:
        """Every point of the set is a tie (Ldim 0 vs ≤ 1 with ≥ 1 left) or keeps Ldim on label 0: SOA = 0."""
        return ZERO

    def soa_predict(self, x: Point) -> int:
        return 0

    def split_point(self) -> Point | None:
        return self.point_set[0]


# --------------------------------------------------------------------------------------------------------------------
# Per-sample error tables
# --------------------------------------------------------------------------------------------------------------------


class EmpiricalErrors(ABC):
    """The mistakes of every hypothesis of a class on one sample; ``level(θ)`` = H_{P̂,θ} as a version space."""

    hclass: HypothesisClass
    n: int

    @abstractmethod
    def level(self, theta: float) -> VersionSpace:
        """H_{P̂,θ} = {h : err_S(h) ≤ θ} as a version space."""

    @abstractmethod
    def mistakes(self, h: Hypothesis) -> int:
        """The number of examples of the sample that h labels wrongly."""

    def error(self, h: Hypothesis) -> float:
        """err_S(h)."""
        return self.mistakes(h) / self.n


class FiniteEmpirical(EmpiricalErrors):
    """Explicit class: per-column counts of labels 0 and 1 → mistakes of every row (no per-row scan of the data)."""

    hclass: FiniteClass

    def __init__(self, cls: FiniteClass, counts0: np.ndarray, counts1: np.ndarray):
        self.hclass = cls
        self.n = int(counts0.sum() + counts1.sum())
        self.counts0, self.counts1 = counts0.astype(np.int64), counts1.astype(np.int64)
        M = cls.matrix.astype(np.int64)
        # row r errs on label-0 examples where M[r, j] = 1 and on label-1 examples where M[r, j] = 0
        self.row_mistakes = M @ counts0.astype(np.int64) + (1 - M) @ counts1.astype(np.int64)
        self._levels: dict[int, FiniteVersionSpace] = {}

    @classmethod
    def counts(cls, H: FiniteClass, X: Any, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        idx = H.domain.indices(X)
        y = np.asarray(y)
        c1 = np.bincount(idx[y == 1], minlength=H.n_points)
        c0 = np.bincount(idx[y != 1], minlength=H.n_points)
        return c0, c1

    def level(self, theta: float) -> FiniteVersionSpace:
        b = mistake_budget(theta, self.n)
        got = self._levels.get(b)
        if got is None:
            ok = self.row_mistakes <= b
            mask = int.from_bytes(np.packbits(ok, bitorder="little").tobytes(), "little")
            got = self._levels[b] = FiniteVersionSpace(self.hclass, mask)
        return got

    def mistakes(self, h: Hypothesis) -> int:
        """Mistakes of any function on the domain (SOA outputs are often not rows of the class)."""
        r = self.hclass._row_of.get(getattr(h, "values", None))
        if r is not None:
            return int(self.row_mistakes[r])
        v = np.asarray(
            h.predict(
                self.hclass.domain.points if self.hclass.domain._index is not None else np.arange(self.hclass.n_points)
            ),
            dtype=np.int64,
        )
        return int(v @ self.counts0 + (1 - v) @ self.counts1)


class ThresholdEmpirical(EmpiricalErrors):
    """Thresholds: distinct sample values u_1 < … < u_r with their label counts; segment j = [u_j + 1, u_{j+1}]
    (segment 0 = [0, u_1], segment r = [u_r + 1, n]) has mistakes pos(u_1..u_j) + neg(u_{j+1}..u_r)."""

    hclass: Thresholds

    def __init__(self, cls: Thresholds, values: np.ndarray, pos: np.ndarray, neg: np.ndarray):
        self.hclass = cls
        self.values = values
        self.n = int(pos.sum() + neg.sum())
        cpos = np.concatenate([[0], np.cumsum(pos)])
        cneg = np.concatenate([[0], np.cumsum(neg)])
        self.seg_mistakes = cpos + (cneg[-1] - cneg)
        self.seg_starts = np.concatenate([[0], values + 1])
        self.seg_ends = np.concatenate([values, [cls.n]])

    @staticmethod
    def tally(X: Any, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(distinct values, positives per value, negatives per value) of one block."""
        x = np.asarray(X, dtype=np.int64)
        y = np.asarray(y)
        if x.size and 0 <= int(x.min()) and int(x.max()) < (1 << 16):  # small domains: counting, no sort
            tot = np.bincount(x)
            pos = np.bincount(x[y == 1], minlength=len(tot))
            vals = np.flatnonzero(tot)
            return vals.astype(np.int64), pos[vals].astype(np.int64), (tot - pos)[vals].astype(np.int64)
        vals, inv = np.unique(x, return_inverse=True)
        pos = np.bincount(inv, weights=(y == 1), minlength=len(vals)).astype(np.int64)
        neg = np.bincount(inv, minlength=len(vals)).astype(np.int64) - pos
        return vals, pos, neg

    def level(self, theta: float) -> ChainVersionSpace:
        ok = self.seg_mistakes <= mistake_budget(theta, self.n)
        return ChainVersionSpace(self.hclass, self.seg_starts[ok], self.seg_ends[ok])

    def mistakes(self, h: Hypothesis) -> int:
        if not isinstance(h, Threshold):
            raise TypeError(f"{h!r} is not a threshold: this error table counts the mistakes of thresholds")
        i = int(np.searchsorted(self.values, h.t, side="left"))  # number of sample values < t
        return int(self.seg_mistakes[i])


class PointsEmpirical(EmpiricalErrors):
    """Points: P positives in total; for each sample value its positive and negative counts."""

    hclass: Points

    def __init__(self, cls: Points, values: list, pos: np.ndarray, neg: np.ndarray):
        self.hclass = cls
        self.values = values
        self.pos, self.neg = pos, neg
        self.P = int(pos.sum())
        self.n = int(pos.sum() + neg.sum())
        self.value_mistakes = self.P - pos + neg
        self._index: dict | None = None

    def level(self, theta: float) -> VersionSpace:
        b = mistake_budget(theta, self.n)
        cls = self.hclass
        good = self.value_mistakes <= b
        if self.P <= b:  # the zero function and every unseen point qualify
            bad = [v for v, g in zip(self.values, good.tolist()) if not g]
            return (
                PointsVersionSpace(cls, negatives=bad, zero=cls.include_zero)
                if cls.domain.finite is None or cls.include_zero
                else _finite_points_level(cls, self, b)
            )
        return PointSetVersionSpace.make(cls, [v for v, g in zip(self.values, good.tolist()) if g])

    def mistakes(self, h: Hypothesis) -> int:
        pts = getattr(h, "points", ())
        if not pts:
            return self.P
        if self._index is None:
            self._index = {v: i for i, v in enumerate(self.values)}
        i = self._index.get(pts[0])
        return self.P if i is None else int(self.value_mistakes[i])


def _finite_points_level(cls: Points, emp: PointsEmpirical, b: int) -> VersionSpace:
    """Finite domain without the zero function: the qualifying points listed."""
    seen = dict(zip(emp.values, emp.value_mistakes.tolist()))
    keep = [p for p in cls.domain.finite or () if seen.get(p, emp.P) <= b]
    return PointSetVersionSpace.make(cls, keep)


def _points_tally(X: Any, y: np.ndarray) -> tuple[list, np.ndarray, np.ndarray]:
    y = np.asarray(y)
    arr = X if isinstance(X, np.ndarray) and X.ndim == 1 and X.dtype.kind in "iu" else None
    if arr is not None:
        vals, inv = np.unique(arr, return_inverse=True)
        pos = np.bincount(inv, weights=(y == 1), minlength=len(vals)).astype(np.int64)
        tot = np.bincount(inv, minlength=len(vals)).astype(np.int64)
        return vals.tolist(), pos, tot - pos
    table: dict = {}
    for x, yi in zip(X, y.tolist()):
        x = as_python_point(x)
        c = table.setdefault(x, [0, 0])
        c[0 if yi == 1 else 1] += 1
    keys = sorted(table, key=point_key)
    return keys, np.array([table[k][0] for k in keys], np.int64), np.array([table[k][1] for k in keys], np.int64)


def _merge(parts: list[tuple[Any, np.ndarray, np.ndarray]], numeric: bool) -> tuple[Any, np.ndarray, np.ndarray]:
    if numeric:
        vals = np.concatenate([np.asarray(p[0], dtype=np.int64) for p in parts])
        pos = np.concatenate([p[1] for p in parts])
        neg = np.concatenate([p[2] for p in parts])
        u, inv = np.unique(vals, return_inverse=True)
        return (
            u,
            np.bincount(inv, weights=pos, minlength=len(u)).astype(np.int64),
            np.bincount(inv, weights=neg, minlength=len(u)).astype(np.int64),
        )
    table: dict = {}
    for values, counts1, counts0 in parts:
        for v, a, b in zip(values, counts1.tolist(), counts0.tolist()):
            c = table.setdefault(v, [0, 0])
            c[0] += a
            c[1] += b
    keys = sorted(table, key=point_key)
    return keys, np.array([table[k][0] for k in keys], np.int64), np.array([table[k][1] for k in keys], np.int64)


def empirical_errors(hclass: HypothesisClass, X: Any, y: Any) -> EmpiricalErrors:
    """The error table of a class on one sample (points validated by the caller; labels 0/1)."""
    return empirical_errors_from_batches(hclass, [(X, y)])


def empirical_errors_from_batches(hclass: HypothesisClass, batches: Iterable[tuple[Any, Any]]) -> EmpiricalErrors:
    """Like :func:`empirical_errors` with the sample given block by block (streamed: only counts are kept)."""
    if isinstance(hclass, FiniteClass):
        c0 = np.zeros(hclass.n_points, np.int64)
        c1 = np.zeros(hclass.n_points, np.int64)
        for X, y in batches:
            a, b = FiniteEmpirical.counts(hclass, X, y)
            c0 += a
            c1 += b
        if c0.sum() + c1.sum() == 0:
            raise LittlestoneError("an empirical class needs at least one example")
        return FiniteEmpirical(hclass, c0, c1)
    table = hclass.empirical_errors(batches)  # closed forms: thresholds, points (HypothesisClass.empirical_errors)
    if table is not None:
        return table
    try:
        from .ops import to_finite

        twin = to_finite(hclass)
    except (TypeError, LittlestoneError) as exc:
        raise LittlestoneError(
            f"empirical-error classes of {hclass.name} are not available: no closed form and no explicit twin ({exc})"
        ) from None
    return empirical_errors_from_batches(twin, batches)


def threshold_empirical(hclass: Thresholds, batches: Iterable[tuple[Any, Any]]) -> ThresholdEmpirical:
    """:meth:`Thresholds.empirical_errors`: the sample's distinct values with their label counts, merged over blocks."""
    if hclass.n > np.iinfo(np.int64).max - 1:
        raise DomainError(f"{hclass.name}: empirical classes need a domain within int64")
    parts = [ThresholdEmpirical.tally(X, y) for X, y in batches]
    if not parts or sum(int(p[1].sum() + p[2].sum()) for p in parts) == 0:
        raise LittlestoneError("an empirical class needs at least one example")
    vals, pos, neg = _merge([(p[0], p[1], p[2]) for p in parts], True)
    return ThresholdEmpirical(hclass, np.asarray(vals, np.int64), pos, neg)


def points_empirical(hclass: Points, batches: Iterable[tuple[Any, Any]]) -> PointsEmpirical:
    """:meth:`Points.empirical_errors`: per sample value its positive and negative counts, merged over blocks."""
    parts = [_points_tally(X, y) for X, y in batches]
    if not parts or sum(int(p[1].sum() + p[2].sum()) for p in parts) == 0:
        raise LittlestoneError("an empirical class needs at least one example")
    numeric = all(isinstance(v, int) for p in parts for v in p[0][:1])
    vals, pos, neg = _merge(parts, numeric and all(all(isinstance(v, int) for v in p[0]) for p in parts))
    return PointsEmpirical(hclass, list(vals.tolist() if isinstance(vals, np.ndarray) else vals), pos, neg)
