"""Stumps (two-sided thresholds) on X = {0,…,n−1}: 1[x ≥ t] (t = 0…n) and 1[x < s] (s = 1…n−1), the two constants
counted once (2n functions; n up to 2⁶²). Every version space has the Ldim of a chain of its size, ⌊log2 |V|⌋, and
its SOA is an interval or the complement of one. Derivation: docs/derivations.md, "Stumps: exact Ldim and SOA".
"""

from __future__ import annotations

from itertools import chain
from typing import Any, Iterator

import numpy as np

from ..errors import LittlestoneError
from .base import Hypothesis, HypothesisClass, Point, VersionSpace, as_python_point, uniform_below
from .intervals import IntervalUnion
from .thresholds import Threshold, Thresholds, chain_ldim


class NegThreshold(Hypothesis):
    """g_s(x) = 1 iff x < s (the negation of the threshold h_s)."""

    __slots__ = ("s",)

    def __init__(self, s: int):
        self.s = int(s)

    def key(self) -> tuple:
        return (self.s,)

    def __call__(self, x: Point) -> int:
        return int((x if type(x) is int else as_python_point(x)) < self.s)

    def predict(self, X: Any) -> np.ndarray:
        arr = np.asarray(X)
        if arr.dtype == object:
            return np.fromiter((int(x < self.s) for x in arr), dtype=np.int8, count=arr.shape[0])
        if self.s > np.iinfo(np.int64).max:
            return np.ones(arr.shape[0], dtype=np.int8)
        return (arr < self.s).astype(np.int8)


def _clip_count(lo: int, hi: int) -> int:
    return max(0, hi - lo + 1)


class StumpsVersionSpace(VersionSpace):
    """{h_t : t ∈ [l1, h1]} ∪ {g_s : s ∈ [l2, h2]} (an empty side has lo > hi)."""

    __slots__ = ("_cls", "l1", "h1", "l2", "h2")

    def __init__(self, cls: "Stumps", l1: int, h1: int, l2: int, h2: int):
        self._cls = cls
        self.l1, self.h1 = (l1, h1) if l1 <= h1 else (1, 0)
        self.l2, self.h2 = (l2, h2) if l2 <= h2 else (1, 0)

    @property
    def hclass(self) -> "Stumps":
        return self._cls

    def key(self) -> tuple:
        return (self.l1, self.h1, self.l2, self.h2)

    def restrict(self, x: Point, y: int) -> "StumpsVersionSpace":
        x = int(x)
        if y:  # h_t(x) = 1 ⇔ t ≤ x; g_s(x) = 1 ⇔ s > x
            return StumpsVersionSpace(self._cls, self.l1, min(self.h1, x), max(self.l2, x + 1), self.h2)
        return StumpsVersionSpace(self._cls, max(self.l1, x + 1), self.h1, self.l2, min(self.h2, x))

    def restrict_sample(self, X: Any, y: Any) -> tuple[VersionSpace, int]:
        """Closed form when the whole sample is consistent (the extreme labelled points cut both sides); the
        sequential scan otherwise (the longest consistent prefix)."""
        x = np.asarray(X)
        y01 = np.asarray(y)
        if x.dtype.kind in "iu" and len(x):
            x1, x0 = x[y01 == 1], x[y01 == 0]
            W = StumpsVersionSpace(
                self._cls,
                self.l1 if not x0.size else max(self.l1, int(x0.max()) + 1),
                self.h1 if not x1.size else min(self.h1, int(x1.min())),
                self.l2 if not x1.size else max(self.l2, int(x1.max()) + 1),
                self.h2 if not x0.size else min(self.h2, int(x0.min())),
            )
            if not W.is_empty():
                return W, len(x)
        return super().restrict_sample(X, y)

    def size(self) -> int:
        return _clip_count(self.l1, self.h1) + _clip_count(self.l2, self.h2)

    def ldim(self) -> int:
        """⌊log2 |V|⌋ (docs/derivations.md, "Stumps: exact Ldim and SOA": a version space other than the class is a
        chain — its two sides lie on either side of a cut — and the class has 2n functions, Ldim 1 + ⌊log2 n⌋)."""
        return chain_ldim(self.size())

    def contains(self, h: Hypothesis) -> bool:
        if isinstance(h, Threshold):
            return self.l1 <= h.t <= self.h1
        return isinstance(h, NegThreshold) and self.l2 <= h.s <= self.h2

    def hypotheses(self) -> Iterator[Hypothesis]:
        return chain(
            (Threshold(t) for t in range(self.l1, self.h1 + 1)),
            (NegThreshold(s) for s in range(self.l2, self.h2 + 1)),
        )

    # |V|(x,1)| as a function of x: piecewise linear with slopes in {−1, 0, 1}
    def _ones(self, x: int) -> int:
        return _clip_count(self.l1, min(self.h1, x)) + _clip_count(max(self.l2, x + 1), self.h2)

    def _pieces(self) -> list[tuple[int, int]]:
        n = self._cls.n
        cuts = {0, self.l1, self.h1 + 1, self.l2 - 1, self.h2}
        starts = sorted(c for c in cuts if 0 <= c <= n - 1)
        return [(u, (starts[k + 1] - 1) if k + 1 < len(starts) else n - 1) for k, u in enumerate(starts)]

    def _where(self, lo: int, hi: int) -> list[tuple[int, int]]:
        """The points x (as intervals, ascending) with lo ≤ |V|(x,1)| ≤ hi."""
        out = []
        for u, v in self._pieces():
            a = self._ones(u)
            slope = self._ones(u + 1) - a if u < v else 0
            if slope == 0:
                if lo <= a <= hi:
                    out.append((u, v))
                continue
            # a + slope·(x − u) ∈ [lo, hi]
            e1, e2 = (lo - a, hi - a) if slope > 0 else (a - hi, a - lo)
            xa, xb = max(u, u + e1), min(v, u + e2)
            if xa <= xb:
                out.append((xa, xb))
        return out

    def _soa_min_ones(self) -> int | None:
        """The least s with ⌊log2 s⌋ > ⌊log2(|V| − s)⌋ (SOA predicts 1 iff |V|(x,1)| ≥ it; ties → 0)."""
        S = self.size()
        if S == 0:
            return None
        lo, hi = 0, S  # predicate false at 0, true at S
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if chain_ldim(mid) > chain_ldim(S - mid):
                hi = mid
            else:
                lo = mid
        return hi

    def soa_predict(self, x: Point) -> int:
        s1 = self._ones(int(x))
        return int(chain_ldim(s1) > chain_ldim(self.size() - s1))

    def soa_predict_many(self, X: Any) -> np.ndarray:
        s = self._soa_min_ones()
        if s is None:
            return np.zeros(len(X), dtype=np.int8)
        x = np.asarray(X)
        if x.dtype.kind not in "iu":
            return super().soa_predict_many(X)
        x = x.astype(np.int64).reshape(-1)
        ones = np.zeros(x.shape[0], dtype=np.int64)
        if self.l1 <= self.h1:
            ones += np.clip(np.minimum(self.h1, x) - self.l1 + 1, 0, None)
        if self.l2 <= self.h2:
            ones += np.clip(self.h2 - np.maximum(self.l2, x + 1) + 1, 0, None)
        return (ones >= s).astype(np.int8)

    def soa(self) -> IntervalUnion:
        """SOA_V as a union of at most two intervals (the points where |V|(x,1)| passes the SOA's level)."""
        s = self._soa_min_ones()
        if s is None:
            return IntervalUnion(())
        return IntervalUnion(self._where(s, self.size()))

    def split_point(self) -> int | None:
        """A point cutting V into two parts of Ldim ≥ Ldim(V) − 1 (both of at least 2^{Ldim(V)−1} functions)."""
        d = self.ldim()
        if d <= 0:
            return None
        half = 1 << (d - 1)
        return self._where(half, self.size() - half)[0][0]


class Stumps(HypothesisClass, immutable=True):
    """Stumps on n ordered points: thresholds 1[x ≥ t] and their negations 1[x < s], 2n functions, Ldim
    1 + ⌊log2 n⌋; n may be astronomically large (2^60)."""

    def __init__(self, n: int):
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
            raise LittlestoneError(f"Stumps(n) needs an integer n ≥ 1, got {n!r}")
        self.n = int(n)
        self.name = f"stumps({self.n})"
        self._line = Thresholds(self.n)  # the domain {0, …, n−1} and its point validation (errors name stumps)
        self._line.name = self.name
        self.spec: str | None = f"stumps:{self.n}"  # rebuilds the class (littlestone.classes.spec)

    def version_space(self) -> StumpsVersionSpace:
        return StumpsVersionSpace(self, 0, self.n, 1, self.n - 1)

    def hypothesis_types(self) -> tuple[type, ...]:
        return (Threshold, NegThreshold)

    def contains_point(self, x: Point) -> bool:
        return self._line.contains_point(x)

    @property
    def domain_size(self) -> int:
        return self.n

    def domain_points(self) -> list[int]:
        return self._line.domain_points()

    def uniform_points(self) -> Any:
        return self._line.uniform_points()

    def validate_points(self, X: Any) -> Any:
        return self._line.validate_points(X)

    def random_hypothesis(self, rng: np.random.Generator, *, limit: int = 1_000_000) -> Hypothesis:
        """Uniform over the 2n functions."""
        r = uniform_below(rng, 2 * self.n)
        return Threshold(r) if r <= self.n else NegThreshold(r - self.n)

    def hypothesis(self, t: int, positive: bool = True) -> Hypothesis:
        """1[x ≥ t] (t = 0…n), or 1[x < t] (t = 1…n−1) when ``positive`` is False."""
        if positive:
            return self._line.hypothesis(t)
        if not 1 <= t <= self.n - 1:
            raise LittlestoneError(f"negated threshold s={t} not in 1..{self.n - 1} (the constants are thresholds)")
        return NegThreshold(t)

    def vc_closed_form(self) -> tuple[int, list[int]]:
        """VC 2 for n ≥ 2 ({0, 1}: h_0, h_1, h_2, g_1 give 11, 01, 00, 10; no three points x < x' < x'' get 101 or
        010), 1 for n = 1."""
        return (2, [0, 1]) if self.n >= 2 else (1, [0])

    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        n = self.n
        if type(h1) is type(h2):  # two cuts of one direction: [min, max)
            a, b = sorted((getattr(h1, "t", getattr(h1, "s", 0)), getattr(h2, "t", getattr(h2, "s", 0))))
            return iter(range(a, min(b, n)))
        t, s = (h1.t, h2.s) if isinstance(h1, Threshold) else (h2.t, h1.s)  # type: ignore[attr-defined]
        lo, hi = min(t, s), max(t, s)  # 1[x ≥ t] = 1[x ≥ s] outside [lo, hi): there they disagree
        return chain(range(min(lo, n)), range(hi, n))


__all__ = ["NegThreshold", "Stumps", "StumpsVersionSpace"]
