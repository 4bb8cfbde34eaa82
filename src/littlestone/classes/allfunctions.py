"""All 2^m functions on {0,…,m−1}: version space = a partial assignment, Ldim = number of unassigned points."""

from __future__ import annotations

from typing import Any, Iterator

import itertools

import numpy as np

from ..errors import DomainError, LittlestoneError
from .base import Hypothesis, HypothesisClass, LazySequence, Point, VersionSpace, as_python_point
from .points import FiniteSet


class AllFunctionsVersionSpace(VersionSpace):
    """{h : h(x) = v for every assigned (x, v)}; ``assignment`` is a sorted tuple of (x, v) (None ⇒ empty)."""

    __slots__ = ("_cls", "assignment", "_table")

    def __init__(self, cls: "AllFunctions", assignment: tuple | None):
        self._cls = cls
        self.assignment = assignment
        self._table = dict(assignment) if assignment is not None else {}

    @property
    def hclass(self) -> "AllFunctions":
        return self._cls

    def key(self) -> tuple | None:
        return self.assignment

    def restrict(self, x: Point, y: int) -> "AllFunctionsVersionSpace":
        if self.assignment is None:
            return self
        x = int(x)
        v = self._table.get(x)
        if v is not None:
            return self if v == y else AllFunctionsVersionSpace(self._cls, None)
        return AllFunctionsVersionSpace(self._cls, tuple(sorted(self.assignment + ((x, int(y)),))))

    def size(self) -> int:
        return 0 if self.assignment is None else 2 ** (self._cls.m - len(self.assignment))

    def is_empty(self) -> bool:
        return self.assignment is None

    def ldim(self) -> int:
        """Every unassigned point splits V into two copies of the same shape: Ldim = #unassigned (Kal-LN)."""
        return -1 if self.assignment is None else self._cls.m - len(self.assignment)

    def contains(self, h: Hypothesis) -> bool:
        if self.assignment is None or not isinstance(h, FiniteSet):
            return False
        if any(not (isinstance(p, int) and 0 <= p < self._cls.m) for p in h.points):
            return False
        return all(h(x) == v for x, v in self.assignment)

    def soa(self) -> FiniteSet:
        """Assigned points keep their label; unassigned points are ties (both sides Ldim d−1) → 0."""
        if self.assignment is None:
            return FiniteSet(())
        return FiniteSet(x for x, v in self.assignment if v)

    def soa_predict(self, x: Point) -> int:
        return self._table.get(int(x), 0)

    def soa_predict_many(self, X: Any) -> np.ndarray:
        return self.soa().predict(X)

    def split_point(self) -> int | None:
        if self.ldim() < 1:
            return None
        assigned = self._table
        for x in range(len(assigned) + 1):
            if x not in assigned:
                return x
        raise AssertionError("unreachable")

    def hypotheses(self) -> Iterator[FiniteSet]:
        if self.assignment is None:
            return
        free = [x for x in range(self._cls.m) if x not in self._table]
        if len(free) > 20:
            raise TypeError(f"refusing to enumerate 2^{len(free)} functions")
        ones = [x for x, v in self.assignment if v]
        for bits in itertools.product((0, 1), repeat=len(free)):
            yield FiniteSet(ones + [x for x, b in zip(free, bits) if b])

    def restrict_sample(self, X: Any, y: Any) -> tuple["AllFunctionsVersionSpace", int]:
        if self.assignment is None:
            return self, 0
        table = dict(self._table)
        n = len(y)
        for i in range(n):
            x, v = int(X[i]), int(y[i])
            old = table.get(x)
            if old is None:
                table[x] = v
            elif old != v:
                return AllFunctionsVersionSpace(self._cls, tuple(sorted(table.items()))), i
        return AllFunctionsVersionSpace(self._cls, tuple(sorted(table.items()))), n


class AllFunctions(HypothesisClass, immutable=True):
    """All functions {0,…,m−1} → {0,1}: Ldim m; m may be huge (2^60), version spaces stay sparse."""

    def __init__(self, m: int):
        if not isinstance(m, (int, np.integer)) or isinstance(m, bool) or m < 1:
            raise LittlestoneError(f"AllFunctions(m) needs an integer m ≥ 1, got {m!r}")
        self.m = int(m)
        self.name = f"allfunctions({self.m})"
        self.spec = f"allfunctions:{self.m}"  # rebuilds the class (littlestone.classes.spec)

    def version_space(self) -> AllFunctionsVersionSpace:
        return AllFunctionsVersionSpace(self, ())

    def contains_point(self, x: Point) -> bool:
        return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and bool(0 <= x < self.m)

    @property
    def domain_size(self) -> int:
        return self.m

    def domain_points(self) -> list[int]:
        if self.m > 1 << 20:
            raise TypeError(f"{self.name}: domain too large to enumerate")
        return list(range(self.m))

    def validate_points(self, X: Any) -> Any:
        arr = np.asarray(X)
        if arr.ndim == 1 and arr.dtype.kind in "iu":
            if arr.size and (arr.min() < 0 or arr.max() >= self.m):
                bad = arr[(arr < 0) | (arr >= self.m)][0]
                raise DomainError(f"point {int(bad)} is outside the domain of {self.name} (0..{self.m - 1})")
            return arr
        if arr.dtype.kind == "f" and arr.size and np.isnan(arr).any():
            raise DomainError(f"points contain NaN; {self.name} needs integers 0..{self.m - 1}")
        return [self.validate_point(x) for x in (X if isinstance(X, (list, tuple)) else list(X))]

    def hypothesis(self, ones: Any = ()) -> FiniteSet:
        """The function that is 1 exactly on `ones`."""
        return FiniteSet(self.validate_point(as_python_point(p)) for p in ones)

    # closed-form dimensions (used by littlestone.dimensions on domains of any size)
    def vc_closed_form(self) -> tuple[int, LazySequence]:
        """VC m: the whole domain is shattered."""
        return self.m, LazySequence(self.m, int)

    def hypothesis_types(self) -> tuple[type, ...]:
        return (FiniteSet,)

    def dual_closed_form(self) -> tuple[int, int]:
        """The dual class is the m coordinate maps h ↦ h(x) on the cube {0,1}^m. A dual point (a function h) may
        split them in any way, so the dual Ldim is that of m arbitrary labels, ⌊log2 m⌋ (binary search, and never
        more than log2 of the class size); k functions are dual-shattered iff 2^k ≤ m, so the dual VC is ⌊log2 m⌋."""
        d = self.m.bit_length() - 1
        return d, d

    def threshold_closed_form(self) -> tuple[int, LazySequence, LazySequence]:
        """Threshold dimension m: x_j = j − 1 and h_i = 1 on {i − 1, …, m − 1} (built only when accessed)."""
        m = self.m

        def h(i: int) -> FiniteSet:
            if m - i > 1 << 24:
                raise LittlestoneError(
                    f"the witness hypothesis h_{i + 1} of {self.name} has {m - i} ones: too many to build explicitly"
                )
            return FiniteSet(range(i, m))

        return m, LazySequence(m, int), LazySequence(m, h, cheap=m <= 1 << 16)

    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        s1, s2 = set(h1.points), set(h2.points)  # type: ignore[attr-defined]
        return iter(sorted(s1 ^ s2))
