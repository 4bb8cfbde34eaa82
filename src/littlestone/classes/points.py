"""Point functions h_p(x) = 1 iff x = p over any hashable domain (an infinite class of Ldim 1), closed form.

Hypotheses are indicators of finite sets (:class:`FiniteSet`) or of their complements (:class:`CofiniteSet`);
both are canonical (sorted points), so the same function computed twice compares equal. They are shared by
:mod:`~littlestone.classes.allfunctions` and :mod:`~littlestone.classes.points_negations`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from typing import Any, Iterator, Sequence

import numpy as np

from ..errors import DomainError, EmptyDataError, LittlestoneError
from .base import (
    CountingForm,
    Hypothesis,
    HypothesisClass,
    Point,
    VersionSpace,
    as_python_point,
    point_key,
    uniform_integers,
)


# --------------------------------------------------------------------------------------------------------------------
# Hypotheses: indicators of finite and cofinite sets
# --------------------------------------------------------------------------------------------------------------------


def _canonical_points(points: Iterable[Any]) -> tuple:
    return tuple(sorted({as_python_point(p) for p in points}, key=point_key))


def _member_mask(X: Any, members: tuple) -> np.ndarray:
    """Vectorized ``x in members`` (numeric arrays via np.isin, other points one by one)."""
    arr = np.asarray(X) if not isinstance(X, np.ndarray) else X
    if arr.ndim == 1 and arr.dtype.kind in "iub" and all(isinstance(p, int) for p in members):
        small = [p for p in members if -(2**63) <= p < 2**63]
        return np.isin(arr, np.array(small, dtype=np.int64)) if small else np.zeros(arr.shape[0], dtype=bool)
    s = set(members)
    seq = X if isinstance(X, (list, tuple)) else (arr.tolist() if arr.ndim == 1 else list(arr))
    return np.fromiter((as_python_point(x) in s for x in seq), dtype=bool, count=len(seq))


class FiniteSet(Hypothesis):
    """Indicator of a finite set: h(x) = 1 iff x ∈ points (the empty set is the all-zero function)."""

    __slots__ = ("points", "_set")

    def __init__(self, points: Iterable[Any] = ()):
        self.points = _canonical_points(points)
        self._set = frozenset(self.points)

    def key(self) -> tuple:
        return self.points

    def absorb_patches(self, patches: list[tuple[Point, int]]) -> Hypothesis:
        """A finite set overwritten on finitely many points is a finite set (one representation per function)."""
        ones = set(self.points)
        for x, v in patches:
            (ones.add if v else ones.discard)(x)
        return FiniteSet(ones)

    def __call__(self, x: Point) -> int:
        return int((x if type(x) is int else as_python_point(x)) in self._set)

    def predict(self, X: Any) -> np.ndarray:
        if not self.points:
            return np.zeros(len(X), dtype=np.int8)
        return _member_mask(X, self.points).astype(np.int8)

    def __repr__(self) -> str:
        return f"FiniteSet({list(self.points)!r})"


class CofiniteSet(Hypothesis):
    """Indicator of the complement of a finite set: h(x) = 0 iff x ∈ points (no points: the all-one function)."""

    __slots__ = ("points", "_set")

    def __init__(self, points: Iterable[Any] = ()):
        self.points = _canonical_points(points)
        self._set = frozenset(self.points)

    def key(self) -> tuple:
        return self.points

    def absorb_patches(self, patches: list[tuple[Point, int]]) -> Hypothesis:
        """A cofinite set overwritten on finitely many points is a cofinite set (one representation per function
        on an infinite domain; finite domains use :class:`FiniteSet` only)."""
        zeros = set(self.points)
        for x, v in patches:
            (zeros.discard if v else zeros.add)(x)
        return CofiniteSet(zeros)

    def __call__(self, x: Point) -> int:
        return int(as_python_point(x) not in self._set)

    def predict(self, X: Any) -> np.ndarray:
        if not self.points:
            return np.ones(len(X), dtype=np.int8)
        return (~_member_mask(X, self.points)).astype(np.int8)

    def __repr__(self) -> str:
        return f"CofiniteSet({list(self.points)!r})"


ZERO = FiniteSet(())
#: domains larger than this are never enumerated (domain_points raises TypeError, counting forms are None)
_ENUMERATE_MAX = 1 << 24


class GrowingSet:
    """An immutable set that grows cheaply: `add` shares storage with the original (chunks of doubling sizes, merged
    like a binary counter), so a long stream of negative examples costs amortized O(log r) per example."""

    __slots__ = ("chunks", "n", "_sorted")

    def __init__(self, items: Iterable[Any] = ()):
        fs = frozenset(items)
        self.chunks: tuple[frozenset, ...] = (fs,) if fs else ()
        self.n = len(fs)
        self._sorted: tuple | None = None

    @classmethod
    def _of(cls, chunks: tuple, n: int) -> "GrowingSet":
        g = cls.__new__(cls)
        g.chunks, g.n, g._sorted = chunks, n, None
        return g

    def __contains__(self, x: Any) -> bool:
        return any(x in c for c in self.chunks)

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[Any]:
        for c in self.chunks:
            yield from c

    def add(self, x: Any) -> "GrowingSet":
        if x in self:
            return self
        chunks = list(self.chunks) + [frozenset((x,))]
        while len(chunks) >= 2 and len(chunks[-2]) <= len(chunks[-1]):
            last = chunks.pop()
            chunks[-1] = chunks[-1] | last
        return GrowingSet._of(tuple(chunks), self.n + 1)

    def union(self, items: Iterable[Any]) -> "GrowingSet":
        return GrowingSet(itertools.chain(self, items))

    def sorted(self) -> tuple:
        """The elements in the canonical point order (cached)."""
        if self._sorted is None:
            self._sorted = tuple(sorted(self, key=point_key))
        return self._sorted


# --------------------------------------------------------------------------------------------------------------------
# Domains
# --------------------------------------------------------------------------------------------------------------------


class _IntRange:
    """Membership in the integers lo … hi − 1 in O(1) (a range's own ``in`` walks the range for non-int values)."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def __contains__(self, x: Any) -> bool:
        if isinstance(x, (int, np.integer)):
            return self.lo <= int(x) < self.hi
        if isinstance(x, (float, np.floating)):
            return float(x).is_integer() and self.lo <= int(x) < self.hi
        return False


class PointDomain:
    """The domain of :class:`Points`: all hashable non-NaN values (None), a finite collection, or a predicate."""

    def __init__(self, domain: Any = None):
        self.predicate: Callable[[Any], bool] | None = None
        self.finite: tuple | None = None
        if isinstance(domain, (int, np.integer)) and not isinstance(domain, bool):  # n: the points {0, …, n − 1}
            if domain < 1:
                raise EmptyDataError(f"Points: a domain of n points needs n ≥ 1, got {domain}")
            domain = range(int(domain))
        if domain is None:
            self.description = "any hashable value"
        elif callable(domain) and not isinstance(domain, (list, tuple, set, frozenset, range, np.ndarray)):
            self.predicate = domain
            self.description = f"values accepted by {getattr(domain, '__name__', 'a predicate')}"
        elif isinstance(domain, range) and domain.step == 1 and domain.stop > domain.start:
            # the integers start … stop − 1, kept as a range (never enumerated: points:2^60 is built at once)
            self.finite = domain  # type: ignore[assignment]
            self._set = _IntRange(domain.start, domain.stop)  # type: ignore[assignment]
            self.description = f"a finite domain of {domain.stop - domain.start} points"
        else:
            pts = [as_python_point(p) for p in domain]
            if not pts:
                raise EmptyDataError("Points: the domain is empty")
            for p in pts:
                if isinstance(p, float) and math.isnan(p):
                    raise DomainError("Points: the domain contains NaN")
            self.finite = _canonical_points(pts)
            self._set = frozenset(self.finite)
            self.description = f"a finite domain of {len(self.finite)} points"

    @property
    def size(self) -> float:
        if isinstance(self.finite, range):
            return self.finite.stop - self.finite.start
        return math.inf if self.finite is None else len(self.finite)

    @property
    def integer_range(self) -> range | None:
        """The domain as a range of consecutive integers (``Points(n)``, ``points:N``), else None."""
        return self.finite if isinstance(self.finite, range) else None

    def __contains__(self, x: Any) -> bool:
        if isinstance(x, float) and math.isnan(x):
            return False
        try:
            hash(x)
        except TypeError:
            return False
        if self.finite is not None:
            return x in self._set
        if self.predicate is not None:
            return bool(self.predicate(x))
        return True

    def point_outside(self, excluded: Any) -> Any:
        """A domain point not in `excluded` (None if there is none)."""
        if self.finite is not None:
            for p in self.finite:
                if p not in excluded:
                    return p
            return None
        for i in range(len(excluded) + 1_000_000):
            if i not in excluded and i in self:
                return i
        raise LittlestoneError(
            f"cannot find a domain point outside the {len(excluded)} excluded ones "
            f"(the domain predicate rejects the integers 0..{len(excluded) + 999_999})"
        )


# --------------------------------------------------------------------------------------------------------------------
# Version spaces
# --------------------------------------------------------------------------------------------------------------------


class PointsVersionSpace(VersionSpace):
    """Either {h_p} (a positive example at p was seen), or {h_p : p ∉ negatives} (+ the zero function), or ∅."""

    __slots__ = ("_cls", "positive", "negatives", "zero", "_free")

    def __init__(
        self, cls: "Points", positive: Any = None, negatives: Any = (), zero: bool = True, empty: bool = False
    ):
        self._cls = cls
        if not isinstance(negatives, GrowingSet):
            negatives = GrowingSet(negatives)
        free: float  # the number of free points (math.inf on an infinite domain)
        if empty:
            positive, negatives, zero = None, GrowingSet(), False
            free = 0
        elif positive is not None:
            negatives, zero, free = GrowingSet(), False, 1
        else:
            free = cls.domain.size - len(negatives) if cls.domain.finite is not None else math.inf
            if free == 1 and not zero:  # canonical: a single free point is a positive
                positive = cls.domain.point_outside(negatives)
                negatives, free = GrowingSet(), 1
            elif free == 0:
                negatives = GrowingSet() if not zero else negatives
        self.positive, self.negatives, self.zero, self._free = positive, negatives, zero, free

    @property
    def hclass(self) -> "Points":
        return self._cls

    def key(self) -> tuple:
        if self.positive is not None:
            return ("one", self.positive)
        if self._free == 0:
            return ("zero",) if self.zero else ("empty",)
        return ("cofinite", self.negatives.sorted(), self.zero)

    def _empty(self) -> "PointsVersionSpace":
        return PointsVersionSpace(self._cls, empty=True)

    def restrict(self, x: Point, y: int) -> "PointsVersionSpace":
        if self.size() == 0:
            return self
        if self.positive is not None:
            return self if (x == self.positive) == bool(y) else self._empty()
        if y:
            if self._free == 0 or x in self.negatives:
                return self._empty()
            return PointsVersionSpace(self._cls, positive=x)
        if x in self.negatives:
            return self
        return PointsVersionSpace(self._cls, negatives=self.negatives.add(x), zero=self.zero)

    def size(self) -> float:
        if self.positive is not None:
            return 1
        return self._free + int(self.zero)

    def ldim(self) -> int:
        s = self.size()
        return -1 if s == 0 else (0 if s == 1 else 1)

    def contains(self, h: Hypothesis) -> bool:
        if not isinstance(h, FiniteSet) or len(h.points) > 1:
            return False
        if not h.points:
            return self.zero and self.positive is None
        p = h.points[0]
        if self.positive is not None:
            return p == self.positive
        return self._free > 0 and p in self._cls.domain and p not in self.negatives

    def hypotheses(self) -> Iterator[FiniteSet]:
        if self.size() == 0:  # the empty version space (its negatives are not kept)
            return
        if self.positive is not None:
            yield FiniteSet((self.positive,))
            return
        if self._free == math.inf:
            raise TypeError("an infinite version space of Points cannot be enumerated")
        if self.zero:
            yield ZERO
        for p in self._cls.domain.finite or ():
            if p not in self.negatives:
                yield FiniteSet((p,))

    def soa(self) -> FiniteSet:
        """SOA_V = h_p if V = {h_p}, else the zero function (every split point is a tie; GGKM21 Def 4.2)."""
        return FiniteSet((self.positive,)) if self.positive is not None else ZERO

    def soa_predict(self, x: Point) -> int:
        return int(self.positive is not None and x == self.positive)

    def soa_predict_many(self, X: Any) -> np.ndarray:
        return self.soa().predict(X)

    def split_point(self) -> Point | None:
        if self.ldim() < 1:
            return None
        return self._cls.domain.point_outside(self.negatives)

    def online_run_array(
        self, X: np.ndarray, y: np.ndarray, rule: str, out: np.ndarray | None = None
    ) -> "tuple[np.ndarray, VersionSpace, int] | None":
        """Closed form of the SOA and Halving rounds on int64 points: both predict 1 exactly at p once a positive
        (p, 1) is seen (V = {h_p}) and 0 before (no free point outvotes the rest: the SOA's Ldims tie at 0 vs 1 or
        Halving's 1 < |V| − 1 … and a two-hypothesis V ties), so the predictions are 1[x = p] after the first
        positive; the realizable prefix is :meth:`restrict_sample`'s. Only where no restriction collapses V to a
        single point function by negatives alone (an infinite domain, or the zero function in the class)."""
        if X.ndim != 1 or X.dtype.kind not in "iu" or len(X) != len(y):
            return None
        if self.positive is None and not (self.zero or self._cls.domain.finite is None):
            return None
        if self.size() == 0:
            return np.zeros(0, dtype=np.int8), self, 0
        y = np.asarray(y)
        V, k = self.restrict_sample(X, y)
        preds = np.zeros(k, dtype=np.int8) if out is None else out[:k]
        preds[:] = 0
        view = preds.view(np.bool_) if preds.dtype.itemsize == 1 else preds
        if self.positive is not None:
            if isinstance(self.positive, int):
                np.equal(X[:k], self.positive, out=view)
            return preds, V, k
        ones = np.flatnonzero(y[:k] == 1)
        if ones.size:
            i1 = int(ones[0])
            np.equal(X[i1 + 1 : k], X[i1], out=view[i1 + 1 :])
        return preds, V, k

    def flip_candidates(self, h: Hypothesis) -> list[Point]:
        """Exact on any domain for finite and cofinite sets: after a positive only a disagreement with h_p can be
        flipped; otherwise a 1 of h at a negative keeps all of V (a free one drops one hypothesis), and a 0 of h at
        a free point leaves the single h_x — so a few points of h's support and of the negatives suffice."""
        H = self._cls
        if self.size() == 0:
            return []
        if self.positive is not None:
            x = H.disagreement(h, FiniteSet((self.positive,)))
            return [] if x is None else [x]
        if not isinstance(h, (FiniteSet, CofiniteSet)):
            return list(VersionSpace.flip_candidates(self, h))
        out: list[Point] = []
        if isinstance(h, FiniteSet):  # h = 1 exactly on h.points
            inside = [p for p in h.points if p in H.domain]
            out += [p for p in inside if p in self.negatives][:1] + [p for p in inside if p not in self.negatives][:1]
            if self._free:  # a free point where h = 0
                out.append(H.domain.point_outside(set(self.negatives) | set(h.points)))
        else:  # h = 0 exactly on h.points
            out += [p for p in self.negatives.sorted()[: len(h.points) + 1] if p not in h._set][:1]
            if self._free:
                out.append(H.domain.point_outside(set(self.negatives) | set(h.points)))
            out += [p for p in h.points if p in H.domain and p not in self.negatives][:1]
        return [x for x in out if x is not None]

    def restrict_sample(self, X: Any, y: Any) -> tuple["PointsVersionSpace", int]:
        y = np.asarray(y)
        n = len(y)
        if self.size() == 0 or n == 0:
            return self, 0
        arr = X if isinstance(X, np.ndarray) else None
        if arr is not None and arr.ndim == 1 and arr.dtype.kind in "iu" and self._cls.domain.finite is None:
            return self._restrict_sample_int(arr, y)
        V = self
        pending: set | None = None  # negatives accumulated while they cannot empty V
        safe = self._cls.domain.finite is None or self.zero
        for i in range(n):
            x, yi = as_python_point(X[i]), int(y[i])
            if V.positive is None and not yi and safe:
                if pending is None:
                    pending = set()
                pending.add(x)
                continue
            if pending is not None:
                V, pending = PointsVersionSpace(self._cls, negatives=V.negatives.union(pending), zero=V.zero), None
            W = V.restrict(x, yi)
            if W.size() == 0:
                return V, i
            V = W
        if pending is not None:
            V = PointsVersionSpace(self._cls, negatives=V.negatives.union(pending), zero=V.zero)
        return V, n

    def _restrict_sample_int(self, X: np.ndarray, y: np.ndarray) -> tuple["PointsVersionSpace", int]:
        n = len(y)
        pos = np.flatnonzero(y == 1)
        if self.positive is not None:
            p = self.positive
            if not isinstance(p, int):
                bad = np.flatnonzero(y == 1)
            else:
                bad = np.flatnonzero(((y == 1) & (X != p)) | ((y == 0) & (X == p)))
            k = int(bad[0]) if bad.size else n
            return self, k
        if pos.size == 0:
            return PointsVersionSpace(self._cls, negatives=self.negatives.union(X.tolist()), zero=self.zero), n
        i1 = int(pos[0])
        p = int(X[i1])
        if p in self.negatives or np.any(X[:i1] == p):
            return PointsVersionSpace(self._cls, negatives=self.negatives.union(X[:i1].tolist()), zero=self.zero), i1
        tail = slice(i1 + 1, n)
        bad = np.flatnonzero(((y[tail] == 1) & (X[tail] != p)) | ((y[tail] == 0) & (X[tail] == p)))
        k = i1 + 1 + int(bad[0]) if bad.size else n
        return PointsVersionSpace(self._cls, positive=p), k


# --------------------------------------------------------------------------------------------------------------------
# The class
# --------------------------------------------------------------------------------------------------------------------


class Points(HypothesisClass):
    """Point functions h_p(x) = 1[x = p] (+ the zero function) on any hashable domain; Ldim 1.

    ``domain=None`` means every hashable non-NaN value (64-bit ints, strings, tuples …); a finite collection, an
    integer n (the points 0, …, n − 1, as ``Points(16)`` or the spec ``points:16``) or a predicate restricts it. Ldim is 1 whenever the class has ≥ 2 functions (0 for one point without zero).
    """

    def hypothesis_types(self) -> tuple[type, ...]:
        return (
            FiniteSet,
            CofiniteSet,
        )

    def __init__(self, domain: Any = None, include_zero: bool = True):
        self.domain = PointDomain(domain)
        self.include_zero = bool(include_zero)
        if self.domain.finite is not None:
            self.name = f"points({int(self.domain.size)}{'' if include_zero else ', no zero'})"
        else:
            self.name = "points" + ("" if include_zero else "(no zero)")
        #: the class spec string that rebuilds this class (None if it has none), see littlestone.classes.spec
        self.spec: str | None = None
        if include_zero and domain is None:
            self.spec = "points"
        elif include_zero and self.domain.integer_range is not None and self.domain.integer_range.start == 0:
            self.spec = f"points:{int(self.domain.size)}"
        elif include_zero and self.domain.finite == tuple(range(len(self.domain.finite or ()))):
            self.spec = f"points:{len(self.domain.finite or ())}"

    def version_space(self) -> PointsVersionSpace:
        return PointsVersionSpace(self, zero=self.include_zero)

    def contains_point(self, x: Point) -> bool:
        return x in self.domain

    @property
    def domain_size(self) -> float:
        return self.domain.size

    def domain_points(self) -> list[Point]:
        if self.domain.finite is None:
            raise TypeError(f"{self.name}: the domain is infinite and cannot be enumerated")
        if self.domain.size > _ENUMERATE_MAX:
            raise TypeError(f"{self.name}: the domain has {int(self.domain.size)} points, too many to enumerate")
        return list(self.domain.finite)

    def validate_point(self, x: Any) -> Point:
        x = as_python_point(x)
        if isinstance(x, float) and math.isnan(x):
            raise DomainError(f"point is NaN; {self.name} needs points of {self.domain.description}")
        if x not in self.domain:
            raise DomainError(f"point {x!r} is outside the domain of {self.name} ({self.domain.description})")
        return x

    def validate_points(self, X: Any) -> Any:
        arr = X if isinstance(X, np.ndarray) else None
        if (
            arr is not None
            and arr.ndim == 1
            and arr.dtype.kind in "iu"
            and self.domain.finite is None
            and self.domain.predicate is None
        ):
            return arr
        r = self.domain.integer_range
        if arr is not None and r is not None and arr.ndim == 1 and arr.dtype.kind in "iu" and r.stop <= 2**63:
            bad = (arr < r.start) | (arr >= r.stop) if arr.size else np.zeros(0, dtype=bool)
            if bad.any():
                raise DomainError(
                    f"point {int(arr[bad][0])} is outside the domain of {self.name} ({self.domain.description})"
                )
            return arr
        if arr is not None and arr.dtype.kind == "f" and arr.size and np.isnan(arr).any():
            raise DomainError(f"points contain NaN; {self.name} needs points of {self.domain.description}")
        seq = X if isinstance(X, (list, tuple)) else list(X)
        return [self.validate_point(x) for x in seq]

    #: the documented law on an infinite domain of all values: draws use the integers 0 … SAMPLING_WINDOW − 1
    SAMPLING_WINDOW = 1 << 20

    def uniform_points(self) -> Any:
        """A finite domain: its points (a sampler ``rng -> point`` beyond 2^20 points). The infinite domain of all
        values has no uniform law; draws then use the documented law: uniform on the integers 0 … 2^20 − 1
        (:attr:`SAMPLING_WINDOW`). A domain given by a predicate has none (TypeError)."""
        pts = self.domain.finite
        if pts is not None:
            if isinstance(pts, range):
                lo, hi = pts.start, pts.stop
                return (lambda rng: int(rng.integers(lo, hi))) if hi - lo > 1 << 20 else list(pts)
            if len(pts) > 1 << 20:
                return lambda rng: pts[int(rng.integers(0, len(pts)))]
            return list(pts)
        if self.domain.predicate is not None:
            raise TypeError(f"{self.name}: a domain given by a predicate has no uniform law")
        return uniform_integers(self.SAMPLING_WINDOW)

    def random_hypothesis(self, rng: np.random.Generator, *, limit: int = 1_000_000) -> FiniteSet:
        """Closed form: uniform over the class's functions on a finite domain (h_p for each point, and the zero
        function if included); on the infinite domain of all values, uniform over h_p for p in the sampling window
        0 … 2^20 − 1 and the zero function (the same documented law as :meth:`uniform_points`)."""
        pts = self.domain.finite
        if pts is None:
            if self.domain.predicate is not None:
                raise LittlestoneError(f"{self.name}: a domain given by a predicate has no law to draw a target from")
            pts = range(self.SAMPLING_WINDOW)
        n = pts.stop - pts.start if isinstance(pts, range) else len(pts)
        j = int(rng.integers(0, n + int(self.include_zero)))
        return ZERO if j == n else FiniteSet((pts[j],))

    def soa_is_proper(self) -> bool:
        """The SOA of a version space is the zero function or a point function: in H iff H includes zero."""
        return self.include_zero

    def mistake_counts(self, hypotheses: Sequence[Hypothesis], X: Any, y: Any) -> np.ndarray | None:
        """Closed form: with P positives in the sample, err(h_p) = P − pos(p) + neg(p) and err(0) = P — one tally of
        the sample for all hypotheses (None unless every hypothesis is a point function or zero)."""
        if not all(type(h) is FiniteSet and len(h.points) <= 1 for h in hypotheses):  # type: ignore[attr-defined]
            return None
        if len(y) == 0:
            return np.zeros(len(hypotheses), dtype=np.int64)
        from .empirical import points_empirical

        table = points_empirical(self, [(X, y)])
        return np.fromiter((table.mistakes(h) for h in hypotheses), dtype=np.int64, count=len(hypotheses))

    def empirical_errors(self, batches: Iterable[tuple[Any, Any]]) -> Any:
        """Closed form (:class:`~littlestone.classes.empirical.PointsEmpirical`): per sample value its label counts;
        a level is cofinite or a finite set of point functions, on any domain."""
        from .empirical import points_empirical

        return points_empirical(self, batches)

    def hypothesis(self, p: Any = None) -> FiniteSet:
        """h_p (or the zero function for ``p=None`` when the class includes it)."""
        if p is None:
            if not self.include_zero:
                raise LittlestoneError(f"{self.name} does not include the zero function")
            return ZERO
        return FiniteSet((self.validate_point(p),))

    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        s1 = set(getattr(h1, "points", ()))
        s2 = set(getattr(h2, "points", ()))
        return iter(sorted(s1 ^ s2, key=point_key))

    # closed-form dimensions (used by littlestone.dimensions on domains of any size)
    def _some_point(self) -> Point:
        return self.domain.finite[0] if self.domain.finite is not None else self.domain.point_outside(())

    def vc_closed_form(self) -> tuple[int, list[Point]]:
        """VC 1 when some point can be labelled 0 (the zero function, or ≥ 2 points); 0 for one point without zero.
        Two points are never both labelled 1 (every hypothesis has at most one 1)."""
        if self.include_zero or self.domain.size >= 2:
            return 1, [self._some_point()]
        return 0, []

    def dual_closed_form(self) -> tuple[int, int]:
        """The dual hypotheses g_x(h) = h(x) are the indicators of the single hypotheses h_x (the zero function, a
        dual point, is 0 for all of them): point functions without zero on |X| points, Ldim = VC = 1 if |X| ≥ 2, else 0."""
        d = 1 if self.domain.size >= 2 else 0
        return d, d

    def counting_closed_form(self) -> CountingForm | None:
        """On a finite domain x_0..x_{N−1} (canonical order): h_j = h_{x_j} for j < N, then the zero function (if
        included); answers(w) = (w, 0) in O(N). None on infinite domains."""
        pts = self.domain.finite
        if pts is None or self.domain.size > _ENUMERATE_MAX:
            return None
        N = len(pts)
        size = N + int(self.include_zero)
        contiguous = isinstance(pts[0], int) and pts[0] == 0 and isinstance(pts[-1], int) and pts[-1] == N - 1

        def answers(w: np.ndarray) -> np.ndarray:
            out = np.zeros(size)
            out[:N] = w
            return out

        def row(j: int) -> np.ndarray:
            r = np.zeros(N)
            if j < N:
                r[j] = 1.0
            return r

        def columns(idx: np.ndarray) -> np.ndarray:
            idx = np.asarray(idx, dtype=np.int64)
            out = np.zeros((idx.size, size))
            out[np.arange(idx.size), idx] = 1.0
            return out

        def index_points(X: Any) -> np.ndarray:
            arr = X if isinstance(X, np.ndarray) else None
            if contiguous and arr is not None and arr.ndim == 1 and arr.dtype.kind in "iu":
                bad = (arr < 0) | (arr >= N)
                if bad.any():
                    raise DomainError(f"point {int(arr[bad][0])} is outside the domain of {self.name}")
                return arr.astype(np.int64)
            where = {p: i for i, p in enumerate(pts)}
            return np.array(
                [where[self.validate_point(x)] for x in (X if isinstance(X, (list, tuple)) else list(X))],
                dtype=np.int64,
            )

        return CountingForm(
            size=size,
            domain_size=N,
            answers=answers,
            row=row,
            columns=columns,
            index_points=index_points,
            point=lambda i: pts[int(i)],
            hypothesis=lambda j: self.hypothesis(pts[j] if j < N else None),
        )

    def threshold_closed_form(self) -> tuple[int, list[Point], list[FiniteSet]]:
        """Threshold dimension 1: h_1 would need a 1 at every chosen point, and point functions have a single 1."""
        p = self._some_point()
        return 1, [p], [FiniteSet((p,))]
