"""Intervals 1[a ≤ x ≤ b] on {0,…,n−1} plus the empty interval, with exact Ldim/SOA on small keys (n up to 2^62).

Closed forms derived for this library and verified against explicit twins for every n ≤ 24. Derivation:
docs/derivations.md, "Intervals: exact Ldim and SOA".
"""

from __future__ import annotations

import bisect
from functools import lru_cache
from typing import Any, Iterator

import numpy as np

from ..errors import DomainError, LittlestoneError
from .base import (
    CountingForm,
    Hypothesis,
    HypothesisClass,
    LazySequence,
    Point,
    VersionSpace,
    as_python_point,
    uniform_below,
    uniform_integers,
)


def _lg(w: int) -> int:
    """⌊log2 w⌋ for w ≥ 1; −1 for w = 0 (Ldim of a chain of w functions)."""
    return int(w).bit_length() - 1


# --------------------------------------------------------------------------------------------------------------------
# Hypotheses: finite unions of disjoint, non-adjacent intervals (a class member has at most one)
# --------------------------------------------------------------------------------------------------------------------


class IntervalUnion(Hypothesis):
    """1[x ∈ ⋃ [a_j, b_j]] with maximal, sorted intervals (canonical); ``IntervalUnion(())`` is the zero function."""

    __slots__ = ("intervals", "_starts")

    def __init__(self, intervals: Any = ()):
        merged: list[list[int]] = []
        for a, b in sorted((int(a), int(b)) for a, b in intervals if a <= b):
            if merged and a <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        self.intervals = tuple((a, b) for a, b in merged)
        self._starts = [a for a, _ in self.intervals]

    def key(self) -> tuple:
        return self.intervals

    def absorb_patches(self, patches: list[tuple[Point, int]]) -> "IntervalUnion":
        """A union of intervals overwritten on finitely many integer points is a union of intervals, and the maximal
        sorted intervals are a normal form: one representation per function (BLM20's histograms count functions)."""
        table = {int(x): int(v) for x, v in patches}
        parts = list(IntervalUnion(list(self.intervals) + [(x, x) for x, v in table.items() if v]).intervals)
        for x in sorted(x for x, v in table.items() if not v):  # cut the 0-points out
            j = bisect.bisect_right(parts, (x, float("inf"))) - 1
            if j >= 0 and parts[j][0] <= x <= parts[j][1]:
                a, b = parts.pop(j)
                parts[j:j] = [iv for iv in ((a, x - 1), (x + 1, b)) if iv[0] <= iv[1]]
        return IntervalUnion(parts)

    def __call__(self, x: Point) -> int:
        if type(x) is not int:
            x = as_python_point(x)
        j = bisect.bisect_right(self._starts, x) - 1
        return int(j >= 0 and x <= self.intervals[j][1])

    def predict(self, X: Any) -> np.ndarray:
        arr = np.asarray(X)
        if not self.intervals:
            return np.zeros(arr.shape[0], dtype=np.int8)
        if arr.dtype.kind in "iu" and arr.ndim == 1 and self.intervals[-1][1] < 2**63:
            starts = np.array(self._starts, dtype=np.int64)
            ends = np.array([b for _, b in self.intervals], dtype=np.int64)
            j = np.searchsorted(starts, arr, side="right") - 1
            ok = j >= 0
            out = np.zeros(arr.shape[0], dtype=np.int8)
            out[ok] = (arr[ok] <= ends[j[ok]]).astype(np.int8)
            return out
        return np.fromiter((self(x) for x in arr.tolist()), dtype=np.int8, count=arr.shape[0])

    def __repr__(self) -> str:
        return "IntervalUnion(" + ", ".join(f"[{a},{b}]" for a, b in self.intervals) + ")"


EMPTY = IntervalUnion(())


# --------------------------------------------------------------------------------------------------------------------
# Ldim of a negative-only version space: the weight-splitting game
# --------------------------------------------------------------------------------------------------------------------


def _min_weight(r: int) -> int:
    """Smallest weight that can host requirement r: min over a+b=r of 2^a + 2^b."""
    return (1 << ((r + 1) // 2)) + (1 << (r // 2))


def _cap(w: int) -> int:
    """Largest requirement one split of weight w can meet: max_b ⌊log2 (w − 2^b)⌋ + b (−1 if w < 2).

    The maximum is at b ∈ {⌊log2 w⌋ − 1, ⌊log2 w⌋}: smaller b lose one unit of b but gain at most one in the log."""
    if w < 2:
        return -1
    lw = _lg(w)
    return max(_lg(w - (1 << b)) + b for b in (lw - 1, lw) if b >= 0 and (1 << b) < w)


def _split(w: int, r: int) -> int | None:
    """Smallest b with ⌊log2 (w − 2^b)⌋ + b ≥ r (the greedy split w → 2^b + (w − 2^b)), or None."""
    b = max(0, r - _lg(w))
    while (1 << b) < w:
        if _lg(w - (1 << b)) + b >= r:
            return b
        b += 1
    return None


def _greedy(weights: tuple[int, ...], K: int, trace: bool = False) -> bool | tuple[int, int] | None:
    """Can the requirements K−1, …, 0 be met by successive splits? (trace: the first split (weight, b) instead)."""
    W = sorted(weights)
    first = None
    for r in range(K - 1, -1, -1):
        j = bisect.bisect_left(W, _min_weight(r))
        b = None
        while j < len(W):
            b = _split(W[j], r)
            if b is not None:
                break
            j += 1
        if b is None:
            return None if trace else False
        w = W.pop(j)
        if first is None:
            first = (w, b)
        for piece in (1 << b, w - (1 << b)):
            if piece >= 2:
                bisect.insort(W, piece)
    return first if trace else True


def _lg64(w: int) -> int:  # pragma: no cover - compiled
    r = -1
    while w > 0:
        w >>= 1
        r += 1
    return r


def _greedy64(ws: np.ndarray, K: int) -> bool:  # pragma: no cover - compiled
    """Compiled twin of :func:`_greedy` (feasibility only) for ascending int64 weights below 2^62."""
    W = np.empty(ws.shape[0] + K + 2, dtype=np.int64)
    m = ws.shape[0]
    W[:m] = ws
    for r in range(K - 1, -1, -1):
        need = (np.int64(1) << ((r + 1) // 2)) + (np.int64(1) << (r // 2))
        lo, hi = 0, m
        while lo < hi:
            mid = (lo + hi) // 2
            if W[mid] < need:
                lo = mid + 1
            else:
                hi = mid
        found, bsel = -1, -1
        j = lo
        while j < m and found < 0:
            w = W[j]
            b = max(0, r - _lg64(w))
            while (np.int64(1) << b) < w:
                if _lg64(w - (np.int64(1) << b)) + b >= r:
                    found, bsel = j, b
                    break
                b += 1
            j += 1
        if found < 0:
            return False
        w = W[found]
        for t in range(found, m - 1):
            W[t] = W[t + 1]
        m -= 1
        p1 = np.int64(1) << bsel
        for piece in (p1, w - p1):
            if piece >= 2:
                k = m
                while k > 0 and W[k - 1] > piece:
                    W[k] = W[k - 1]
                    k -= 1
                W[k] = piece
                m += 1
    return True


_GREEDY64_COMPILED: Any = None


def _compiled_greedy64() -> Any:
    """:func:`_greedy64` compiled by Numba on first use (numba is imported here, not with the package)."""
    global _GREEDY64_COMPILED, _lg64
    if _GREEDY64_COMPILED is None:
        from .._numba import njit_cached

        _lg64 = njit_cached(_lg64)  # the compiled _greedy64 calls the compiled _lg64
        _GREEDY64_COMPILED = njit_cached(_greedy64)
    return _GREEDY64_COMPILED


def _feasible(ws: tuple[int, ...], K: int) -> bool:
    """_greedy(ws, K) through the compiled version when the weights fit in int64."""
    if ws and ws[0] < 2**62:
        return bool(_compiled_greedy64()(np.array(ws[::-1], dtype=np.int64), K))
    return bool(_greedy(ws, K))


@lru_cache(maxsize=1 << 16)
def gap_family_ldim(weights: tuple[int, ...]) -> int:
    """Ldim of {∅} ∪ {intervals inside gaps}, gaps given by their weights (length + 1), sorted descending."""
    ws = tuple(w for w in weights if w >= 2)
    if not ws:
        return 0
    K = _cap(ws[0]) + 1  # upper bound: the first split needs one weight able to host K−1
    # only the K largest gaps can matter (each requirement uses one original gap); the bound is nearly tight
    # (off by at most 1 on random gap sets), so search downwards
    while K > 1 and not _feasible(ws[:K], K):
        K -= 1
    return K


@lru_cache(maxsize=1 << 16)
def gap_family_at_least(weights: tuple[int, ...], K: int) -> bool:
    """Ldim({∅} ∪ intervals in gaps of these weights) ≥ K — one greedy run (cheaper than the Ldim itself)."""
    ws = weights if not weights or weights[-1] >= 2 else tuple(w for w in weights if w >= 2)
    if K <= 0:
        return True
    if not ws or K - 1 > _cap(ws[0]):
        return False
    return _feasible(ws[:K], K)


class SortedNegatives:
    """An immutable sorted set of ints that grows cheaply (sorted chunks merged like a binary counter): add,
    membership and neighbour queries cost O(log² r), so long streams of negative examples stay fast."""

    __slots__ = ("chunks", "n", "_flat")

    def __init__(self, items: Any = ()):
        flat = tuple(sorted(set(int(v) for v in items)))
        self.chunks: tuple[tuple[int, ...], ...] = (flat,) if flat else ()
        self.n = len(flat)
        self._flat: tuple | None = flat

    @classmethod
    def _of(cls, chunks: tuple, n: int) -> "SortedNegatives":
        g = cls.__new__(cls)
        g.chunks, g.n, g._flat = chunks, n, None
        return g

    def __len__(self) -> int:
        return self.n

    def __contains__(self, x: int) -> bool:
        for c in self.chunks:
            j = bisect.bisect_left(c, x)
            if j < len(c) and c[j] == x:
                return True
        return False

    def below(self, x: int) -> int | None:
        """Largest element < x (None if none)."""
        best = None
        for c in self.chunks:
            j = bisect.bisect_left(c, x)
            if j and (best is None or c[j - 1] > best):
                best = c[j - 1]
        return best

    def above(self, x: int) -> int | None:
        """Smallest element > x (None if none)."""
        best = None
        for c in self.chunks:
            j = bisect.bisect_right(c, x)
            if j < len(c) and (best is None or c[j] < best):
                best = c[j]
        return best

    def count_between(self, a: int, b: int) -> int:
        return sum(bisect.bisect_right(c, b) - bisect.bisect_left(c, a) for c in self.chunks)

    def add(self, x: int) -> "SortedNegatives":
        if x in self:
            return self
        chunks = list(self.chunks) + [(x,)]
        while len(chunks) >= 2 and len(chunks[-2]) <= len(chunks[-1]):
            last = chunks.pop()
            chunks[-1] = tuple(sorted(chunks[-1] + last))
        return SortedNegatives._of(tuple(chunks), self.n + 1)

    def flat(self) -> tuple[int, ...]:
        """All elements, sorted (cached)."""
        if self._flat is None:
            self._flat = tuple(sorted(v for c in self.chunks for v in c))
        return self._flat


# --------------------------------------------------------------------------------------------------------------------
# Version spaces
# --------------------------------------------------------------------------------------------------------------------


class IntervalsVersionSpace(VersionSpace):
    """One of: ("pos", a_lo, p_min, p_max, b_hi) — a ∈ [a_lo, p_min], b ∈ [p_max, b_hi];
    ("neg", negatives) — ∅ and all intervals avoiding the sorted negatives; ("empty",)."""

    __slots__ = ("_cls", "state", "_ldim", "_wts", "_wts_full")

    def __init__(self, cls: "Intervals", state: tuple, weights: tuple | None = None, full: bool = False):
        self._cls = cls
        self.state = state
        self._ldim: int | None = None
        # "neg" states: the largest gap weights (≥ 2), ascending, exactly the top of the multiset (all of it if
        # `full`); maintained incrementally by restrict, recomputed from the negatives when it runs short
        self._wts = weights
        self._wts_full = full

    @property
    def hclass(self) -> "Intervals":
        return self._cls

    def key(self) -> tuple:
        if self.state[0] == "neg":
            return ("neg", self.state[1].flat())
        return self.state

    # ----------------------------------------------------------------------------------------------- structure
    def _gaps(self) -> list[tuple[int, int]]:
        """(start, length) of the negative-free gaps (length ≥ 1) of a "neg" state."""
        out, prev = [], -1
        for z in self.state[1].flat() + (self._cls.n,):
            if z - prev - 1 >= 1:
                out.append((prev + 1, z - prev - 1))
            prev = z
        return out

    def _gap_of(self, x: int) -> tuple[int, int] | None:
        negs = self.state[1]
        if x in negs:
            return None
        lo, hi = negs.below(x), negs.above(x)
        start = lo + 1 if lo is not None else 0
        end = hi if hi is not None else self._cls.n
        return start, end - start

    def _keep(self) -> int:
        """How many of the largest gaps can matter for the Ldim (≥ 1 + cap of the largest gap)."""
        return 2 * self._cls.n.bit_length() + 4

    def _buffer(self) -> tuple:
        if self._wts is None:
            allw = sorted(L + 1 for _, L in self._gaps() if L >= 1)
            size = 4 * self._keep()
            self._wts, self._wts_full = tuple(allw[-size:]), len(allw) <= size
        return self._wts

    def _top_key(self, replace: int | None = None, pieces: tuple = ()) -> tuple[int, ...]:
        """Descending weights key of the largest gaps only (enough for the Ldim: see gap_family_ldim), optionally
        with one gap of weight `replace` split into `pieces`."""
        keep = self._keep()
        top = list(self._buffer()[-(keep + 1) :])
        if replace is not None and replace >= 2:
            j = bisect.bisect_left(top, replace)
            if j < len(top) and top[j] == replace:
                del top[j]
                top.extend(p for p in pieces if p >= 2)
        return tuple(sorted(top, reverse=True)[:keep])

    def _child_buffer(self, w: int, pieces: tuple) -> tuple[tuple | None, bool]:
        """The weight buffer after splitting one gap of weight w (None: recompute lazily)."""
        if self._wts is None:
            return None, False
        buf, full = self._wts, self._wts_full
        if w < 2:
            return buf, full
        j = bisect.bisect_left(buf, w)
        if j == len(buf) or buf[j] != w:
            return buf, full  # a gap below the buffer: the top is unchanged
        floor = buf[0]
        new = list(buf[:j] + buf[j + 1 :])
        for p in pieces:
            if p >= 2 and (full or p >= floor):
                bisect.insort(new, p)
        if not full and len(new) <= self._keep():
            return None, False
        size = 4 * self._keep()
        if full and len(new) > 2 * size:
            new, full = new[-size:], False
        return tuple(new), full

    def restrict(self, x: Point, y: int) -> "IntervalsVersionSpace":
        s, x = self.state, int(x)
        if s[0] == "empty":
            return self
        if s[0] == "pos":
            _, a_lo, pmin, pmax, b_hi = s
            if y:
                if x < a_lo or x > b_hi:
                    return IntervalsVersionSpace(self._cls, ("empty",))
                return IntervalsVersionSpace(self._cls, ("pos", a_lo, min(pmin, x), max(pmax, x), b_hi))
            if pmin <= x <= pmax:
                return IntervalsVersionSpace(self._cls, ("empty",))
            if x < pmin:
                return self if x < a_lo else IntervalsVersionSpace(self._cls, ("pos", x + 1, pmin, pmax, b_hi))
            return self if x > b_hi else IntervalsVersionSpace(self._cls, ("pos", a_lo, pmin, pmax, x - 1))
        negs = s[1]
        g = self._gap_of(x)
        if g is None:
            return self if not y else IntervalsVersionSpace(self._cls, ("empty",))
        start, L = g
        if not y:
            i = x - start
            wts, full = self._child_buffer(L + 1, (i + 1, L - i))
            return IntervalsVersionSpace(self._cls, ("neg", negs.add(x)), wts, full)
        a_lo, b_hi = start, start + L - 1
        return IntervalsVersionSpace(self._cls, ("pos", a_lo, x, x, b_hi))

    def size(self) -> int:
        s = self.state
        if s[0] == "empty":
            return 0
        if s[0] == "pos":
            return (s[2] - s[1] + 1) * (s[4] - s[3] + 1)
        return 1 + sum(L * (L + 1) // 2 for _, L in self._gaps())

    def is_empty(self) -> bool:
        return self.state[0] == "empty"

    def ldim(self) -> int:
        if self._ldim is None:
            s = self.state
            if s[0] == "empty":
                self._ldim = -1
            elif s[0] == "pos":
                self._ldim = _lg(s[2] - s[1] + 1) + _lg(s[4] - s[3] + 1)
            else:
                self._ldim = gap_family_ldim(self._top_key())
        return self._ldim

    def contains(self, h: Hypothesis) -> bool:
        if not isinstance(h, IntervalUnion) or len(h.intervals) > 1 or self.is_empty():
            return False
        s = self.state
        if not h.intervals:
            return s[0] == "neg"
        a, b = h.intervals[0]
        if not (0 <= a <= b < self._cls.n):
            return False
        if s[0] == "pos":
            return s[1] <= a <= s[2] and s[3] <= b <= s[4]
        return s[1].count_between(a, b) == 0

    def hypotheses(self) -> Iterator[IntervalUnion]:
        if self.size() > 1 << 22:
            raise TypeError(f"refusing to enumerate {self.size()} intervals")
        s = self.state
        if s[0] == "pos":
            for a in range(s[1], s[2] + 1):
                for b in range(s[3], s[4] + 1):
                    yield IntervalUnion(((a, b),))
        elif s[0] == "neg":
            yield EMPTY
            for start, L in self._gaps():
                for a in range(start, start + L):
                    for b in range(a, start + L):
                        yield IntervalUnion(((a, b),))

    # ----------------------------------------------------------------------------------------------- SOA
    def _neg_soa(self, x: int) -> int:
        """SOA at x for a "neg" state: Ldim V|(x,1) = lg(i+1) + lg(L−i) (closed form) > Ldim V|(x,0)?"""
        g = self._gap_of(x)
        if g is None:
            return 0
        start, L = g
        i = x - start
        c = _lg(i + 1) + _lg(L - i)
        key = self._top_key(L + 1, (i + 1, L - i))
        if not key:
            return int(c > 0)
        if c > _cap(key[0]) + 1:  # above the upper bound of the 0-side
            return 1
        if c <= gap_family_ldim(key[:1]):  # the largest remaining gap alone (memoized) already ties
            return 0
        return int(not gap_family_at_least(key, c))

    def soa_predict(self, x: Point) -> int:
        s, x = self.state, int(x)
        if s[0] == "empty":
            return 0
        if s[0] == "pos":
            _, a_lo, pmin, pmax, b_hi = s
            if pmin <= x <= pmax:
                return 1
            if x < a_lo or x > b_hi:
                return 0
            if x < pmin:
                return int(_lg(x - a_lo + 1) > _lg(pmin - x))
            return int(_lg(b_hi - x + 1) > _lg(x - pmax))
        return self._neg_soa(x)

    def soa_predict_many(self, X: Any) -> np.ndarray:
        if self.state[0] == "neg" and len(X) > 64:
            return self.soa().predict(X)
        return np.fromiter((self.soa_predict(as_python_point(x)) for x in X), dtype=np.int8, count=len(X))

    def soa(self) -> IntervalUnion:
        """SOA_V as a canonical union of intervals (GGKM21 Def 4.2): closed form after a positive, otherwise
        divide and conquer over each gap with monotone bounds (both child Ldims are monotone in the piece sizes)."""
        s = self.state
        if s[0] == "empty":
            return EMPTY
        if s[0] == "pos":
            _, a_lo, pmin, pmax, b_hi = s
            lo, hi = a_lo, pmin  # smallest x in [a_lo, pmin] predicting 1 (monotone)
            while lo < hi:
                mid = (lo + hi) // 2
                if _lg(mid - a_lo + 1) > _lg(pmin - mid):
                    hi = mid
                else:
                    lo = mid + 1
            left = lo
            lo, hi = pmax, b_hi  # largest x in [pmax, b_hi] predicting 1
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if _lg(b_hi - mid + 1) > _lg(mid - pmax):
                    lo = mid
                else:
                    hi = mid - 1
            return IntervalUnion(((left, lo),))
        ones: list[tuple[int, int]] = []
        base = self._top_key()
        smallest_top = base[-1] if base else 0
        for start, L in self._gaps():
            w = L + 1
            if w < smallest_top and gap_family_at_least(base, _cap(w)):
                continue  # a small gap: its 1-side never beats the untouched large gaps on the 0-side
            self._soa_gap(start, L, 0, L - 1, ones)
        return IntervalUnion(ones)

    def _soa_gap(self, start: int, L: int, u: int, v: int, out: list) -> None:
        """Positions i ∈ [u, v] of a gap where lg(i+1)+lg(L−i) > Ldim of the 0-side; appends runs to out."""
        stack = [(u, v)]
        while stack:
            u, v = stack.pop()
            c_lo = _lg(u + 1) + _lg(L - v)
            c_hi = _lg(v + 1) + _lg(L - u)
            if gap_family_at_least(self._top_key(L + 1, (u + 1, L - v)), c_hi):
                continue  # all ties or 0-predictions (the 0-side Ldim ≥ c_hi ≥ the 1-side Ldim)
            if not gap_family_at_least(self._top_key(L + 1, (v + 1, L - u)), c_lo):
                out.append((start + u, start + v))
                continue
            if u == v:
                continue
            mid = (u + v) // 2
            stack.append((u, mid))
            stack.append((mid + 1, v))

    # ----------------------------------------------------------------------------------------------- split point
    def split_point(self) -> int | None:
        d = self.ldim()
        if d <= 0:
            return None
        s = self.state
        if s[0] == "pos":
            _, a_lo, pmin, pmax, b_hi = s
            du = _lg(pmin - a_lo + 1)
            if du >= 1:  # halve the chain of left endpoints
                return a_lo + (1 << (du - 1)) - 1
            dv = _lg(b_hi - pmax + 1)
            return b_hi - (1 << (dv - 1)) + 1
        ws = self._top_key()
        first = _greedy(ws[: _cap(ws[0]) + 1], d, trace=True)
        assert isinstance(first, tuple), "inconsistent gap-family Ldim"
        w, b = first
        for start, L in self._gaps():  # any gap of that weight; split off 2^b on its left
            if L + 1 == w:
                return start + (1 << b) - 1
        raise AssertionError("unreachable")

    # ----------------------------------------------------------------------------------------------- flips
    def flip_candidates(self, h: Hypothesis) -> list[int]:
        """Exact for a union of intervals h: between consecutive breakpoints (h's ends, the negatives, the gap and
        version-space bounds) h and the structure of V are constant, and |V|(x, 1 − h(x))| is linear (after a
        positive) or a concave/convex quadratic in x (in a gap), so its maximum over such a run is at a run end or
        at a gap's middle — those points (±1) are the candidates."""
        if not isinstance(h, IntervalUnion):
            return list(VersionSpace.flip_candidates(self, h))
        n, s = self._cls.n, self.state
        if s[0] == "empty":
            return []
        marks = {0, n - 1}
        for a, b in h.intervals:
            marks.update((a, b))
        if s[0] == "pos":
            marks.update(s[1:])
        else:
            marks.update(s[1].flat())
            for start, L in self._gaps():
                marks.update((start, start + L - 1, start + (L - 1) // 2, start + L // 2))
        return sorted({z for m in marks for z in (m - 1, m, m + 1) if 0 <= z < n})

    # ----------------------------------------------------------------------------------------------- samples
    def restrict_sample(self, X: Any, y: Any) -> tuple[VersionSpace, int]:
        y = np.asarray(y)
        n = len(y)
        if self.is_empty() or n == 0:
            return self, 0
        arr = np.asarray(X)
        if arr.dtype.kind not in "iu" or arr.ndim != 1 or self._cls.n >= 2**62:
            return VersionSpace.restrict_sample(self, X, y)
        arr = arr.astype(np.int64)
        k0, V = 0, self
        if V.state[0] == "neg":
            pos = np.flatnonzero(y == 1)
            i1 = int(pos[0]) if pos.size else n
            if i1 > 0:
                negs = SortedNegatives(V.state[1].flat() + tuple(arr[:i1].tolist()))
                V = IntervalsVersionSpace(self._cls, ("neg", negs))
            if i1 == n:
                return V, n
            W = V.restrict(int(arr[i1]), 1)
            if W.is_empty():
                return V, i1
            V, k0 = W, i1 + 1
        if k0 == n:
            return V, n
        _, a_lo, pmin, pmax, b_hi = V.state
        xs, ys = arr[k0:], y[k0:]
        is_pos = ys == 1
        big = np.int64(2**62)
        pmins = np.minimum(np.minimum.accumulate(np.where(is_pos, xs, big)), pmin)
        pmaxs = np.maximum(np.maximum.accumulate(np.where(is_pos, xs, -1)), pmax)
        left = ~is_pos & (xs < pmins)
        right = ~is_pos & (xs > pmaxs)
        inside = ~is_pos & ~left & ~right
        a_los = np.maximum(np.maximum.accumulate(np.where(left, xs + 1, -1)), a_lo)
        b_his = np.minimum(np.minimum.accumulate(np.where(right, xs - 1, big)), b_hi)
        bad = np.flatnonzero(inside | (a_los > pmins) | (b_his < pmaxs))
        m = int(bad[0]) if bad.size else len(ys)
        if m == 0:
            return V, k0
        j = m - 1
        state = ("pos", int(a_los[j]), int(pmins[j]), int(pmaxs[j]), int(b_his[j]))
        return IntervalsVersionSpace(self._cls, state), k0 + m


class Intervals(HypothesisClass):
    """Intervals [a, b] ⊆ {0,…,n−1} and the empty set (Ldim 1,2,2,3,3,4,4,4,5,… for n = 1,2,…)."""

    def hypothesis_types(self) -> tuple[type, ...]:
        return (IntervalUnion,)

    def __init__(self, n: int):
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
            raise LittlestoneError(f"Intervals(n) needs an integer n ≥ 1, got {n!r}")
        self.n = int(n)
        self.name = f"intervals({self.n})"
        self.spec = f"intervals:{self.n}"  # rebuilds the class (littlestone.classes.spec)

    def version_space(self) -> IntervalsVersionSpace:
        return IntervalsVersionSpace(self, ("neg", SortedNegatives()))

    def contains_point(self, x: Point) -> bool:
        return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and bool(0 <= x < self.n)

    @property
    def domain_size(self) -> int:
        return self.n

    def domain_points(self) -> list[int]:
        if self.n > 1 << 20:
            raise TypeError(f"{self.name}: domain too large to enumerate")
        return list(range(self.n))

    def validate_points(self, X: Any) -> Any:
        arr = np.asarray(X)
        if arr.ndim == 2 and arr.shape[1] == 1:
            arr = arr.reshape(-1)
        if arr.dtype.kind == "f":
            if np.isnan(arr).any():
                raise DomainError(f"points contain NaN; {self.name} needs integers 0..{self.n - 1}")
            if not np.all(arr == np.floor(arr)):
                raise DomainError(f"points must be integers 0..{self.n - 1} for {self.name}")
            outside = (arr < 0) | (arr >= self.n)
            if outside.any():  # before the cast: 1e300 has no int64 value
                raise DomainError(f"point {arr[outside][0]:g} is outside the domain of {self.name} (0..{self.n - 1})")
            arr = arr.astype(np.int64)
        if arr.dtype.kind in "iu" and arr.ndim == 1:
            if arr.size and (arr.min() < 0 or arr.max() >= self.n):
                bad = arr[(arr < 0) | (arr >= self.n)][0]
                raise DomainError(f"point {int(bad)} is outside the domain of {self.name} (0..{self.n - 1})")
            return arr
        return [self.validate_point(x) for x in (X if isinstance(X, (list, tuple)) else list(arr))]

    def uniform_points(self) -> Any:
        """The points 0..n−1 as a list, or (n > 2^20) a sampler ``rng -> int``."""
        if self.n > 1 << 20:
            return uniform_integers(self.n)
        return self.domain_points()

    def random_hypothesis(self, rng: np.random.Generator, *, limit: int = 1_000_000) -> IntervalUnion:
        """Closed form, every n: uniform over the 1 + n(n+1)/2 functions (the empty one, then [a, b] in
        lexicographic order — row a holds the n − a intervals [a, a] … [a, n−1]; the row of an index by bisection)."""
        n = self.n
        j = uniform_below(rng, 1 + n * (n + 1) // 2)
        if j == 0:
            return EMPTY
        k = j - 1

        def before(a: int) -> int:  # intervals in rows 0 … a−1
            return a * n - a * (a - 1) // 2

        lo, hi = 0, n - 1  # the largest a with before(a) ≤ k
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if before(mid) <= k:
                lo = mid
            else:
                hi = mid - 1
        return IntervalUnion(((lo, lo + k - before(lo)),))

    def hypothesis(self, a: int | None = None, b: int | None = None) -> IntervalUnion:
        """[a, b] (or the empty interval when a is None)."""
        if a is None:
            return EMPTY
        if b is None or not (0 <= a <= b < self.n):
            raise LittlestoneError(f"interval [{a}, {b}] is not inside 0..{self.n - 1}")
        return IntervalUnion(((a, b),))

    def counting_closed_form(self) -> CountingForm | None:
        """h_0 = ∅, then [a, b] in lexicographic order (a ≤ b): 1 + n(n+1)/2 queries, all answered from one prefix sum
        C of the weights as C[b+1] − C[a]. None beyond 2²⁴ queries (n > 5792): the answer vector would not fit."""
        n = self.n
        size = 1 + n * (n + 1) // 2
        if size > 1 << 24:
            return None
        A, B = np.triu_indices(n)  # row-major: (a, b) lexicographic with a ≤ b

        def answers(w: np.ndarray) -> np.ndarray:
            C = np.concatenate([[0.0], np.cumsum(np.asarray(w, dtype=float))])
            out = np.zeros(size)
            out[1:] = C[B + 1] - C[A]
            return out

        def row(j: int) -> np.ndarray:
            x = np.arange(n)
            return np.zeros(n) if j == 0 else ((x >= A[j - 1]) & (x <= B[j - 1])).astype(float)

        def columns(idx: np.ndarray) -> np.ndarray:
            x = np.asarray(idx, dtype=np.int64)[:, None]
            out = np.zeros((x.shape[0], size))
            out[:, 1:] = (A[None, :] <= x) & (x <= B[None, :])
            return out

        return CountingForm(
            size=size,
            domain_size=n,
            answers=answers,
            row=row,
            columns=columns,
            index_points=lambda X: np.asarray(self.validate_points(X), dtype=np.int64),
            point=int,
            hypothesis=lambda j: EMPTY if j == 0 else self.hypothesis(int(A[j - 1]), int(B[j - 1])),
        )

    # closed-form dimensions (used by littlestone.dimensions on domains of any size)
    def vc_closed_form(self) -> tuple[int, list[int]]:
        """VC 2 ({0, 1}: ∅, [0,0], [1,1], [0,1]); no x < y < z is labelled (1, 0, 1). VC 1 on a single point."""
        return (2, [0, 1]) if self.n >= 2 else (1, [0])

    def threshold_closed_form(self) -> tuple[int, LazySequence, LazySequence]:
        """Threshold dimension n (at most n points exist): x_j = j − 1 and h_i = [i − 1, n − 1]."""
        n = self.n
        return n, LazySequence(n, int), LazySequence(n, lambda i: IntervalUnion(((i, n - 1),)))

    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        cuts = sorted(
            {0, self.n}
            | {
                z
                for h in (h1, h2)
                for a, b in h.intervals  # type: ignore[attr-defined]
                for z in (a, b + 1)
                if 0 <= z <= self.n
            }
        )
        for p, q in zip(cuts, cuts[1:]):  # both functions are constant on [p, q)
            if h1(p) != h2(p):
                yield from range(p, q)
