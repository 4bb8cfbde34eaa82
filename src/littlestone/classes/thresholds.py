"""Thresholds h_t(x) = 1 iff x ≥ t on X = {0,…,n−1}, t = 0…n: closed-form version spaces (intervals of t)."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from ..errors import DomainError, LittlestoneError
from .base import (
    CountingForm,
    Hypothesis,
    HypothesisClass,
    LazySequence,
    PatchedHypothesis,
    Point,
    VersionSpace,
    as_python_point,
    split_patches,
    uniform_below,
    uniform_integers,
)


def chain_ldim(size: int) -> int:
    """Ldim of a chain (totally ordered class) of `size` functions: ⌊log2 size⌋ (−1 if empty)."""
    return -1 if size <= 0 else int(size).bit_length() - 1


class Threshold(Hypothesis):
    """h_t(x) = 1 iff x ≥ t."""

    __slots__ = ("t",)

    def __init__(self, t: int):
        self.t = int(t)

    def key(self) -> tuple:
        return (self.t,)

    def __call__(self, x: Point) -> int:
        return int((x if type(x) is int else as_python_point(x)) >= self.t)

    def absorb_patches(self, patches: list) -> Hypothesis | None:
        """Canonical form of h_t overwritten on finitely many integer points: the base threshold t' with the fewest
        disagreements (smallest t' on ties) plus those disagreements. Every minimizer of
        t' ↦ #{x : f(x) ≠ 1[x ≥ t']} is a 0→1 transition of f, so it lies in {t} ∪ P ∪ (P+1): the result depends
        on the function only, not on how it was reached."""
        if not all(isinstance(x, int) for x, _ in patches):
            return None
        table = dict(patches)
        t = self.t
        # cost(c) = #{x ∈ P : f(x) ≠ 1[x ≥ c]} + #{x ∉ P : min(t, c) ≤ x < max(t, c)}, minimised over the candidates
        # in one ascending sweep (least cost, smallest c on ties) — O(|P| log |P|) instead of O(|P|²)
        pts = sorted(table)
        ones_total = sum(table[x] for x in pts)
        zeros_total = len(pts) - ones_total
        below_t = sum(1 for x in pts if x < t)
        best_cost, c = -1, t
        i = ones_below = 0
        for cand in sorted({t, *pts, *(x + 1 for x in pts)}):
            while i < len(pts) and pts[i] < cand:
                ones_below += table[pts[i]]
                i += 1
            wrong = ones_below + (zeros_total - (i - ones_below))  # 1s left of cand, 0s at or right of it
            span = cand - t - (i - below_t) if cand >= t else t - cand - (below_t - i)  # unpatched points between
            if best_cost < 0 or wrong + span < best_cost:
                best_cost, c = wrong + span, cand
        new = [(x, v) for x, v in table.items() if v != (x >= c)]
        new += [(x, int(x >= t)) for x in range(min(t, c), max(t, c)) if x not in table]  # f = h_t there, ≠ h_c
        new.sort()
        return Threshold(c) if not new else PatchedHypothesis(Threshold(c), tuple(new))

    def predict(self, X: Any) -> np.ndarray:
        arr = np.asarray(X)
        if arr.dtype == object:
            return np.fromiter((int(x >= self.t) for x in arr), dtype=np.int8, count=arr.shape[0])
        if self.t > np.iinfo(np.int64).max:
            return np.zeros(arr.shape[0], dtype=np.int8)
        return (arr >= self.t).astype(np.int8)


class ThresholdsVersionSpace(VersionSpace):
    """{h_t : lo ≤ t ≤ hi} (empty if lo > hi)."""

    __slots__ = ("_cls", "lo", "hi")

    def __init__(self, cls: "Thresholds", lo: int, hi: int):
        self._cls, self.lo, self.hi = cls, lo, hi

    @property
    def hclass(self) -> "Thresholds":
        return self._cls

    def key(self) -> tuple:
        return (self.lo, self.hi) if self.lo <= self.hi else (1, 0)

    def restrict(self, x: Point, y: int) -> "ThresholdsVersionSpace":
        x = int(x)
        if y:  # h_t(x) = 1 ⇔ t ≤ x
            return ThresholdsVersionSpace(self._cls, self.lo, min(self.hi, x))
        return ThresholdsVersionSpace(self._cls, max(self.lo, x + 1), self.hi)

    def size(self) -> int:
        return max(0, self.hi - self.lo + 1)

    def ldim(self) -> int:
        return chain_ldim(self.size())

    def contains(self, h: Hypothesis) -> bool:
        return isinstance(h, Threshold) and self.lo <= h.t <= self.hi

    def hypotheses(self) -> Iterator[Threshold]:
        return (Threshold(t) for t in range(self.lo, self.hi + 1))

    def split_point(self) -> int | None:
        """Midpoint of the chain: both halves keep Ldim ≥ Ldim(V) − 1 (binary search is the shattered tree)."""
        if self.size() < 2:
            return None
        size = self.size()
        half = 1 << (chain_ldim(size) - 1)  # V|(x,1) gets the `half` smallest thresholds
        return self.lo + half - 1

    def soa_predict(self, x: Point) -> int:
        x = int(x)
        n1 = max(0, min(self.hi, x) - self.lo + 1)
        n0 = max(0, self.hi - max(self.lo, x + 1) + 1)
        return int(chain_ldim(n1) > chain_ldim(n0))

    def _soa_threshold(self) -> int:
        """Smallest x with SOA(x) = 1 (the prediction is monotone in x): binary search, O(log n)."""
        if self.lo > self.hi:
            return self._cls.n  # SOA of ∅ is the all-0 function (GGKM21 Def 4.2)
        a, b = max(self.lo - 1, -1), self.hi  # SOA(b) = 1 (V|(b,0) = ∅); SOA(a) = 0
        if a < 0:
            a = -1
        while b - a > 1:
            mid = (a + b) // 2
            if self.soa_predict(mid):
                b = mid
            else:
                a = mid
        return b

    def soa(self) -> Threshold:
        return Threshold(min(self._soa_threshold(), self._cls.n))

    def soa_predict_many(self, X: Any) -> np.ndarray:
        return self.soa().predict(X)

    def chain(self) -> tuple[int, Callable[[int], int]]:
        """A chain ordered by t: V|(lo + j − 1, 1) = {h_lo, …, h_{lo+j−1}}, its j smallest elements."""
        lo = self.lo
        return self.size(), (lambda j: lo + j - 1)

    def threshold_interval(self) -> tuple[int, int, int]:
        return self.lo, self.hi, self._cls.n

    def with_threshold_interval(self, lo: int, hi: int) -> "ThresholdsVersionSpace":
        return type(self)(self._cls, lo, hi)

    def online_run(self, X: list, y: list, rule: str) -> tuple[list[int], "ThresholdsVersionSpace", int]:
        """Closed-form online rounds from this version space on validated integer points and 0/1 labels: rule "soa"
        (predict 1 iff Ldim(V|(x,1)) > Ldim(V|(x,0))) or "halving" (1 iff |V|(x,1)| > |V|(x,0)|), then V ← V|(x,y).

        Returns (predictions made, version space after the realizable prefix, its length k); stops before the first
        example that would empty V. The same rounds as ``soa_predict``/``restrict`` one at a time (the online
        learners' batch path)."""
        lo, hi = self.lo, self.hi
        preds: list[int] = []
        put = preds.append
        soa = rule == "soa"
        k = 0
        for x, lab in zip(X, y):
            n1 = min(hi, x) - lo + 1  # |V|(x,1)| (negative: empty)
            n0 = hi - max(lo, x + 1) + 1  # |V|(x,0)|
            if n1 < 0:
                n1 = 0
            if n0 < 0:
                n0 = 0
            # Ldim of a chain of s functions is bit_length(s) − 1, so compare bit lengths (ties → 0)
            put(int(n1.bit_length() > n0.bit_length()) if soa else int(n1 > n0))
            if lab:
                if n1 == 0:
                    preds.pop()
                    break
                hi = min(hi, x)
            else:
                if n0 == 0:
                    preds.pop()
                    break
                lo = max(lo, x + 1)
            k += 1
        V = self if k == 0 else ThresholdsVersionSpace(self._cls, lo, hi)
        return preds, V, k

    def online_run_array(
        self, X: np.ndarray, y: np.ndarray, rule: str, out: np.ndarray | None = None
    ) -> "tuple[np.ndarray, VersionSpace, int] | None":
        """:meth:`online_run` vectorized (NumPy, no Python loop): the version space before round i is [m_i + 1, h_i],
        m_i the running max of lo − 1 and of x over earlier 0-labels, h_i the running min of hi and of x over earlier
        1-labels. Then s1 = min(h_i, x) − m_i = |V|(x,1)| and s0 = h_i − max(m_i, x) = |V|(x,0)| (one of them is |V|,
        the other ≤ 0 outside [lo_i, hi_i)); "halving" predicts s1 > s0, i.e. 2x > h_i + m_i, "soa" compares bit lengths:
        bit_length(s1) > bit_length(s0) ⇔ s0 < (s1 & ~s0) (the top bit of s1 is above every bit of s0), which also
        holds for the nonpositive sizes. int64 points of a domain below 2^62 only (else None). ``out``: an integer
        array of length ≥ len(X) the predictions are written to (and returned as its first k entries)."""
        if self._cls.n >= 1 << 62 or X.ndim != 1 or X.dtype.kind not in "iu" or len(X) != len(y):
            return None
        n = len(y)
        if n == 0 or self.lo > self.hi:
            return np.zeros(0, dtype=np.int8), self, 0
        x = X.astype(np.int64, copy=False)
        y = np.asarray(y)
        pos = y.view(np.bool_) if y.dtype in (np.int8, np.uint8, np.bool_) else y.astype(np.bool_)
        his = np.where(pos, x, np.int64(self.hi))  # running bounds *after* each round, V's own bounds included
        his[0] = min(int(his[0]), self.hi)
        np.minimum.accumulate(his, out=his)
        ms = np.where(pos, np.int64(self.lo - 1), x)  # m = lo − 1
        ms[0] = max(int(ms[0]), self.lo - 1)
        np.maximum.accumulate(ms, out=ms)
        k = n
        if ms[-1] >= his[-1]:  # lo > hi (m ≥ hi) is monotone in the round: the first bad round
            k = int(np.argmax(ms >= his))
        preds = np.empty(k, dtype=np.int8) if out is None else out[:k]
        if k == 0:
            return preds, self, 0
        x0 = int(x[0])
        preds[0] = self.soa_predict(x0) if rule == "soa" else self._halving_predict(x0)
        if k > 1:
            hi, m, xs = his[: k - 1], ms[: k - 1], x[1:k]
            dst = preds[1:].view(np.bool_) if preds.dtype.itemsize == 1 else preds[1:]
            if rule == "soa":
                s1 = np.minimum(hi, xs)
                s1 -= m
                s0 = np.maximum(m, xs)
                np.subtract(hi, s0, out=s0)
                np.bitwise_and(s1, ~s0, out=s1)
                np.less(s0, s1, out=dst)
            else:  # s1 > s0 ⇔ 2x > hi + m on a nonempty V (x ≤ m: 2x < hi + m; x ≥ hi: 2x > hi + m; between: s1 = x − m, s0 = hi − x)
                np.greater(xs + xs, np.add(hi, m), out=dst)
        V = ThresholdsVersionSpace(self._cls, int(ms[k - 1]) + 1, int(his[k - 1]))
        return preds, V, k

    def _halving_predict(self, x: int) -> int:
        n1 = max(0, min(self.hi, x) - self.lo + 1)
        n0 = max(0, self.hi - max(self.lo, x + 1) + 1)
        return int(n1 > n0)

    def halving_hypothesis(self) -> Threshold:
        """The Halving vote as a threshold: 1 iff |V|(x,1)| > |V|(x,0)|, monotone in x (binary search)."""
        if self.lo > self.hi:
            return Threshold(self._cls.n)
        a, b = max(self.lo - 1, -1), self.hi  # vote(b) = 1 (V|(b,0) = ∅), vote(a) = 0 (V|(a,1) = ∅)
        while b - a > 1:
            mid = (a + b) // 2
            if self._halving_predict(mid):
                b = mid
            else:
                a = mid
        return Threshold(min(b, self._cls.n))

    def flip_candidates(self, h: Hypothesis) -> list[int]:
        """Exact for thresholds and patched thresholds: the best flip is the smallest 1 of h below lo (keeps all of
        V), a 0 of h at or above hi (keeps all), the smallest 1 of h in [lo, hi−1] (label 0 keeps [x+1, hi]) or the
        largest 0 of h there (label 1 keeps [lo, x]); other hypotheses: the generic candidates."""
        base, table = split_patches(h)
        if not isinstance(base, Threshold) or not all(isinstance(p, int) for p in table):
            return list(VersionSpace.flip_candidates(self, h))
        n, lo, hi = self._cls.n, self.lo, self.hi

        def extreme(a: int, b: int, v: int, largest: bool) -> int | None:
            """The smallest (largest) x in [a, b] with h(x) = v."""
            if a > b:
                return None
            hits = [p for p, w in table.items() if a <= p <= b and w == v]
            c = base.t
            if v == 1:  # unpatched ones: x ≥ c
                lo_, hi_ = max(a, c), b
            else:
                lo_, hi_ = a, min(b, c - 1)
            if lo_ <= hi_:
                x = hi_ if largest else lo_
                step = -1 if largest else 1
                while lo_ <= x <= hi_ and x in table:  # skip patched points (at most len(table) of them)
                    x += step
                if lo_ <= x <= hi_:
                    hits.append(x)
            if not hits:
                return None
            return max(hits) if largest else min(hits)

        cands = [
            extreme(0, min(lo, n) - 1, 1, False),
            extreme(hi, n - 1, 0, False),
            extreme(lo, min(hi, n) - 1, 1, False),
            extreme(lo, min(hi, n) - 1, 0, True),
        ]
        return [x for x in cands if x is not None]

    def restrict_sample(self, X: Any, y: Any) -> tuple[VersionSpace, int]:
        X = np.asarray(X)
        y = np.asarray(y)
        if self.lo > self.hi:
            return self, 0
        if len(y) == 0:
            return self, 0
        if X.dtype == object:
            return VersionSpace.restrict_sample(self, X, y)
        big = np.iinfo(np.int64).max
        xi = X.astype(np.int64, copy=False)
        his = np.minimum.accumulate(np.where(y == 1, xi, big))
        los = np.maximum.accumulate(np.where(y == 0, xi + 1, -1))
        hi = np.minimum(his, self.hi) if self.hi <= big else his
        lo = np.maximum(los, self.lo)
        bad = np.flatnonzero(lo > hi)
        k = int(bad[0]) if bad.size else len(y)
        if k == 0:
            return self, 0
        new_hi = int(min(self.hi, int(his[k - 1])))
        new_lo = int(max(self.lo, int(los[k - 1])))
        return ThresholdsVersionSpace(self._cls, new_lo, new_hi), k

    def labelings(self, points: Any, *, limit: int | None = None) -> np.ndarray:
        """Closed form: the realized labelings of integer points are the monotone ones, one per cut t in [lo, hi]."""
        r = len(points)
        if not all(isinstance(p, int) for p in points):
            return VersionSpace.labelings(self, points, limit=limit)
        xs = np.array(points, dtype=object if self.hi > 2**62 else np.int64)
        cuts = sorted(
            {self.lo, *[p + 1 for p in points if self.lo <= p + 1 <= self.hi]}
            | ({self.hi} if self.hi >= self.lo else set())
        )
        rows = {tuple(int(x >= t) for x in xs.tolist()) for t in cuts if self.lo <= t <= self.hi}
        return np.array(sorted(rows), dtype=np.uint8).reshape(-1, r)

    def soa_block_keys(self, X: Any, y: Any, n: int) -> list | None:
        """Closed form, vectorized: the version space (lo, hi) left by each block (equal ⇒ equal SOA); None for a
        block that is not realizable (its SOA is patched)."""
        if not (isinstance(X, np.ndarray) and X.dtype.kind in "iu" and self.hi < np.iinfo(np.int64).max):
            return None
        blocks = len(y) // n
        Xb = X.astype(np.int64, copy=False).reshape(blocks, n)
        yb = np.asarray(y).reshape(blocks, n)
        big = np.iinfo(np.int64).max
        hi = np.minimum(np.where(yb == 1, Xb, big).min(axis=1), self.hi)
        lo = np.maximum(np.where(yb == 0, Xb + 1, -1).max(axis=1), self.lo)
        keys: list = list(zip(lo.tolist(), hi.tolist()))
        for i in np.flatnonzero(lo > hi).tolist():
            keys[i] = None
        return keys


class Thresholds(HypothesisClass):
    """Thresholds on n ordered points: n+1 functions, Ldim ⌊log2(n+1)⌋; n may be astronomically large (2^60)."""

    def __init__(self, n: int):
        if not isinstance(n, (int, np.integer)) or n < 1:
            raise LittlestoneError(f"Thresholds(n) needs an integer n ≥ 1, got {n!r}")
        self.n = int(n)
        self.name = f"thresholds({self.n})"
        self.spec: str | None = f"thresholds:{self.n}"  # rebuilds the class (littlestone.classes.spec)

    def version_space(self) -> ThresholdsVersionSpace:
        return ThresholdsVersionSpace(self, 0, self.n)

    def contains_point(self, x: Point) -> bool:
        return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and bool(0 <= x < self.n)

    @property
    def domain_size(self) -> int:
        return self.n

    def domain_points(self) -> list[int]:
        if self.n > 1 << 20:
            raise TypeError(f"{self.name}: domain too large to enumerate")
        return list(range(self.n))

    def uniform_points(self) -> Any:
        """The points 0..n−1 as a list, or (n > 2^20) a sampler ``rng -> int``."""
        if self.n > 1 << 20:
            return uniform_integers(self.n)
        return self.domain_points()

    def random_hypothesis(self, rng: np.random.Generator, *, limit: int = 1_000_000) -> "Threshold":
        """Closed form: the cut t uniform in {0, …, n} (every class size)."""
        return Threshold(uniform_below(rng, self.n + 1))

    def validate_points(self, X: Any) -> np.ndarray:
        arr = np.asarray(X)
        if arr.ndim != 1:
            arr = arr.reshape(-1) if arr.ndim == 2 and arr.shape[1] == 1 else arr
        if arr.ndim != 1:
            raise DomainError(
                f"points of {self.name} are single integers 0..{self.n - 1}; got points with "
                f"{arr.shape[1] if arr.ndim == 2 else arr.shape} values each"
            )
        if arr.dtype.kind == "f":
            if np.isnan(arr).any():
                raise DomainError(f"points contain NaN; {self.name} needs integers 0..{self.n - 1}")
            if not np.all(arr == np.floor(arr)):
                raise DomainError(f"points must be integers 0..{self.n - 1} for {self.name}")
            outside = (arr < 0) | (arr >= self.n)
            if outside.any():  # before the cast: 1e300 has no int64 value
                raise DomainError(f"point {arr[outside][0]:g} is outside the domain of {self.name} (0..{self.n - 1})")
            arr = arr.astype(np.int64)
        if arr.dtype.kind in "iu":
            if arr.size and (arr.min() < 0 or arr.max() >= self.n):
                bad = arr[(arr < 0) | (arr >= self.n)][0]
                raise DomainError(f"point {int(bad)} is outside the domain of {self.name} (0..{self.n - 1})")
            return arr
        return np.array([self.validate_point(x) for x in arr], dtype=object if self.n > 2**62 else np.int64)

    def soa_is_proper(self) -> bool:
        """The SOA of every version space (a set of thresholds) is a threshold h_t, t ∈ {0, …, n}."""
        return True

    def mistake_counts(self, hypotheses: Sequence[Hypothesis], X: Any, y: Any) -> np.ndarray | None:
        """Closed form for plain thresholds on int64 points: h_t errs on the positives with x < t and the negatives
        with x ≥ t — two sorts and two binary searches for all t at once (None for other hypotheses)."""
        x = np.asarray(X)
        cuts = [h.t for h in hypotheses if isinstance(h, Threshold)]
        if x.dtype.kind not in "iu" or len(cuts) != len(hypotheses) or max(cuts, default=0) > np.iinfo(np.int64).max:
            return None
        x = x.astype(np.int64, copy=False)
        y01 = np.asarray(y)
        ts = np.array(cuts, dtype=np.int64)
        x1, x0 = np.sort(x[y01 == 1]), np.sort(x[y01 == 0])
        return np.searchsorted(x1, ts, "left") + (len(x0) - np.searchsorted(x0, ts, "left"))

    def empirical_errors(self, batches: Iterable[tuple[Any, Any]]) -> Any:
        """Closed form (:class:`~littlestone.classes.empirical.ThresholdEmpirical`): sorted sample values and
        prefix sums, the levels chains of segments; domains within int64."""
        from .empirical import threshold_empirical

        return threshold_empirical(self, batches)

    def hypothesis(self, t: int) -> Threshold:
        if not 0 <= t <= self.n:
            raise LittlestoneError(f"threshold t={t} not in 0..{self.n}")
        return Threshold(t)

    # closed-form dimensions (used by littlestone.dimensions on domains of any size)
    def vc_closed_form(self) -> tuple[int, list[int]]:
        """VC 1: {0} is shattered (h_0(0) = 1, h_1(0) = 0); no x < x' is labelled (1, 0) by a threshold."""
        return 1, [0]

    def hypothesis_types(self) -> tuple[type, ...]:
        return (Threshold,)

    def dual_closed_form(self) -> tuple[int, int]:
        """The dual hypotheses g_x(h_t) = 1[t ≤ x], x = 0…n−1, are n distinct nested sets, i.e. a chain of n
        functions: dual Ldim ⌊log2 n⌋ (binary search), dual VC 1 (0 when n = 1)."""
        return chain_ldim(self.n), min(1, self.n - 1)

    def threshold_closed_form(self) -> tuple[int, LazySequence, LazySequence]:
        """Threshold dimension n (at most n points exist): x_j = j − 1 and h_i = h_{t=i−1}, so h_i(x_j) = 1 iff j ≥ i."""
        return self.n, LazySequence(self.n, int), LazySequence(self.n, Threshold)

    def counting_closed_form(self) -> CountingForm | None:
        """h_t for t = 0..n as queries on X = {0..n−1}: all answers Σ_{x ≥ t} w(x) by one reversed cumulative sum
        (O(n)); None beyond 2^31 points (a weight vector over X would not fit)."""
        if self.n > 1 << 31:
            return None
        n = self.n

        def answers(w: np.ndarray) -> np.ndarray:
            out = np.zeros(n + 1)
            out[:-1] = np.cumsum(np.asarray(w, dtype=float)[::-1])[::-1]
            return out

        return CountingForm(
            size=n + 1,
            domain_size=n,
            answers=answers,
            row=lambda j: (np.arange(n) >= j).astype(float),
            columns=lambda idx: (np.arange(n + 1)[None, :] <= np.asarray(idx, dtype=np.int64)[:, None]).astype(float),
            index_points=lambda X: np.asarray(self.validate_points(X), dtype=np.int64),
            point=int,
            hypothesis=self.hypothesis,
        )

    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        a, b = sorted((h1.t, h2.t))  # type: ignore[attr-defined]
        # h_a(x)=1, h_b(x)=0 for a ≤ x < b
        return iter(range(a, min(b, self.n)))
