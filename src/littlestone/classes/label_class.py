"""H^label (LWY25 §2.3, before Lemma 2.8): h^label((x, y)) = 1[h(x) ≠ y] on the domain X × {0, 1}.

A class of the core abstraction built on any class H (structured or explicit): a version space of H^label is a
version space of H, since h^label((x, y)) = z ⟺ h(x) = y ⊕ z; so restriction, Ldim (= Ldim of the H version
space: the map is a relabelling of mistake trees) and enumeration come from H. VC(H^label) = VC(H) ({(x, 0)}
shatters exactly when {x} does, and (x, 0), (x, 1) are complementary so never both in a shattered set).
"""

from __future__ import annotations

import copy

import math
from typing import Any, Iterator, Sequence

import numpy as np

from ..errors import DomainError
from .base import Hypothesis, HypothesisClass, Point, VersionSpace, as_python_point


def _split(points: Any) -> tuple[list, np.ndarray]:
    xs, ys = [], []
    for p in points:
        p = as_python_point(p)
        if not (isinstance(p, tuple) and len(p) == 2):
            raise DomainError(f"a point of H^label is a pair (x, y), got {p!r}")
        xs.append(p[0])
        ys.append(int(p[1]))
    return xs, np.asarray(ys, dtype=np.int8)


class LabelHypothesis(Hypothesis):
    """h^label: (x, y) ↦ 1[h(x) ≠ y]."""

    __slots__ = ("h",)

    def __init__(self, h: Hypothesis):
        self.h = h

    def key(self) -> tuple:
        return (self.h._order_key(),)

    def __call__(self, x: Point) -> int:
        p = as_python_point(x)
        return int(self.h(p[0]) != int(p[1]))

    def predict(self, X: Any) -> np.ndarray:
        xs, ys = _split(X)
        return (np.asarray(self.h.predict(xs), dtype=np.int8) ^ ys).astype(np.int8)


class LabelSOA(Hypothesis):
    """SOA of a version space of H^label: (x, y) ↦ 1 iff Ldim(V|(x, 1−y)) > Ldim(V|(x, y)) (ties → 0)."""

    __slots__ = ("V",)

    def __init__(self, V: VersionSpace):
        self.V = V

    def key(self) -> tuple:
        return (type(self.V).__name__, self.V.key())

    def __call__(self, x: Point) -> int:
        p = as_python_point(x)
        if int(p[1]) == 0:
            return self.V.soa_predict(p[0])
        return int(self.V.restrict(p[0], 0).ldim() > self.V.restrict(p[0], 1).ldim())


class LabelVersionSpace(VersionSpace):
    """{h^label : h ∈ V} for a version space V of H."""

    __slots__ = ("_cls", "inner")

    def __init__(self, cls: "LabelClass", inner: VersionSpace):
        self._cls = cls
        self.inner = inner

    @property
    def hclass(self) -> "LabelClass":
        return self._cls

    def key(self) -> Any:
        return self.inner.key()

    def restrict(self, x: Point, y: int) -> "LabelVersionSpace":
        p = as_python_point(x)
        return LabelVersionSpace(self._cls, self.inner.restrict(p[0], int(p[1]) ^ int(y)))

    def ldim(self) -> int:
        return self.inner.ldim()

    def size(self) -> float:
        return self.inner.size()

    def contains(self, h: Hypothesis) -> bool:
        return isinstance(h, LabelHypothesis) and self.inner.contains(h.h)

    def soa(self) -> Hypothesis:
        return LabelSOA(self.inner)

    def hypotheses(self) -> Iterator[LabelHypothesis]:
        for h in self.inner.hypotheses():
            yield LabelHypothesis(h)


class LabelClass(HypothesisClass):
    """H^label over X × {0, 1} (LWY25 §2.3). ``LabelClass(Thresholds(16)).ldim() == Thresholds(16).ldim()``."""

    def __init__(self, base: HypothesisClass):
        if not isinstance(base, HypothesisClass):
            raise TypeError(f"LabelClass needs a HypothesisClass, not {type(base).__name__}")
        self.base = base
        self.name = f"label({base.name})"

    def __copy__(self) -> "LabelClass":
        return self if self.base.immutable else LabelClass(copy.copy(self.base))

    def __deepcopy__(self, memo: dict) -> "LabelClass":
        """Shared when its base class is an immutable value (HypothesisClass doc), else a copy over a copied base."""
        return self if self.base.immutable else LabelClass(copy.deepcopy(self.base, memo))

    def version_space(self) -> LabelVersionSpace:
        return LabelVersionSpace(self, self.base.version_space())

    def contains_point(self, x: Point) -> bool:
        return (
            isinstance(x, tuple)
            and len(x) == 2
            and x[1] in (0, 1)
            and not isinstance(x[1], float)
            and self.base.contains_point(x[0])
        )

    @property
    def domain_size(self) -> float:
        s = self.base.domain_size
        return math.inf if s == math.inf else 2 * s

    def domain_points(self) -> list[Point]:
        return [(x, y) for x in self.base.domain_points() for y in (0, 1)]

    def validate_points(self, X: Any) -> list:
        xs, ys = _split(X)
        if ys.size and not np.all((ys == 0) | (ys == 1)):
            raise DomainError("the label coordinate of an H^label point must be 0 or 1")
        self.base.validate_points(xs)
        return [(x, int(y)) for x, y in zip(xs, ys)]

    def hypothesis_of(self, h: Hypothesis) -> LabelHypothesis:
        return LabelHypothesis(h)

    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        a = h1.h if isinstance(h1, LabelHypothesis) else h1
        b = h2.h if isinstance(h2, LabelHypothesis) else h2
        for x in self.base.base_disagreements(a, b):
            yield (x, 0)

    def vc_closed_form(self) -> "tuple[int, Sequence[Point]] | None":
        inner = self.base.vc_closed_form()
        if inner is None:
            return None
        return inner[0], [(x, 0) for x in inner[1]]
