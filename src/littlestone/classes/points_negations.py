"""Point functions and negated point functions {e_p} ∪ {1 − e_p} on an infinite domain (GGKM21 Appendix B).

GGKM use this class (Ldim 3 on an infinite domain) to show that the class of SOA classifiers of all subclasses can
have unbounded Ldim (Proposition B.1). A version space is A ∪ B with A = {e_p : p ∈ S_A}, B = {1 − e_p : p ∈ S_B},
S_A, S_B finite or cofinite; restriction acts on the supports by S_A ∩ {x} / S_A ∖ {x} (label 1 / 0) and
S_B ∖ {x} / S_B ∩ {x}. By symmetry Ldim depends only on the four counts |S_A ∩ S_B|, |S_A ∖ S_B|, |S_B ∖ S_A| and
whether a point outside both exists, so it is an exact memoized recursion on capped counts (a shattered tree of
depth ≤ 3 never needs more than CAP points of one kind; checked in tests/classes/test_points_negations.py).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Iterator

import numpy as np

from ..errors import LittlestoneError
from .base import Hypothesis, HypothesisClass, Point, VersionSpace, point_key
from .points import CofiniteSet, FiniteSet, GrowingSet, PointDomain, Points

#: counts at or above CAP behave like infinite counts
CAP = 8

# A subset of the domain: (cofinite?, finite set of listed points)
PSet = tuple[bool, Any]  # the listed points: a frozenset or a GrowingSet


def _minus(sa: Any, sb: Any) -> frozenset:
    """sa ∖ sb for a finite sa."""
    return frozenset(x for x in sa if x not in sb)


def _join(sa: Any, sb: Any) -> GrowingSet:
    """sa ∪ sb as a GrowingSet (cheap when one side is small: the listed points of a cofinite support grow by one
    point per example)."""
    if len(sa) < len(sb):
        sa, sb = sb, sa
    out = sa if isinstance(sa, GrowingSet) else GrowingSet(sa)
    for x in sb:
        out = out.add(x)
    return out


def _inter(a: PSet, b: PSet) -> PSet:
    (ca, sa), (cb, sb) = a, b
    if not ca and not cb:
        small, big = (sa, sb) if len(sa) <= len(sb) else (sb, sa)
        return False, frozenset(x for x in small if x in big)
    if not ca:
        return False, _minus(sa, sb)
    if not cb:
        return False, _minus(sb, sa)
    return True, _join(sa, sb)


def _compl(a: PSet) -> PSet:
    return (not a[0], a[1])


def _union(a: PSet, b: PSet) -> PSet:
    return _compl(_inter(_compl(a), _compl(b)))


def _contains(a: PSet, x: Any) -> bool:
    return (x not in a[1]) if a[0] else (x in a[1])


EMPTYSET: PSet = (False, frozenset())


def _children(s: tuple, t: int) -> tuple[tuple, tuple]:
    """Count states of V|(x,1), V|(x,0) for a point x of type t (0: in both supports, 1: only S_A, 2: only S_B,
    3: neither); state = (|S_A∩S_B|, |S_A∖S_B|, |S_B∖S_A|, [a point outside both])."""
    c11, c10, c01, c00 = s
    if t == 0:
        return (0, 1, c11 - 1 + c01, min(1, c10 + c00)), (0, c11 - 1 + c10, 1, min(1, c01 + c00))
    if t == 1:
        return (0, 1, c11 + c01, min(1, c10 - 1 + c00)), (0, c11 + c10 - 1, 0, 1)
    if t == 2:
        return (0, 0, c11 + c01 - 1, 1), (0, c11 + c10, 1, min(1, c01 - 1 + c00))
    return (0, 0, c11 + c01, min(1, c10 + c00)), (0, c11 + c10, 0, min(1, c01 + c00))


def _cap(s: tuple) -> tuple:
    return tuple(min(c, CAP) for c in s[:3]) + (min(s[3], 1),)


@lru_cache(maxsize=None)
def count_ldim(s: tuple) -> int:
    """Ldim of a version space with count state s (exact for counts ≤ CAP; larger counts are capped)."""
    if 2 * s[0] + s[1] + s[2] == 0:
        return -1
    best = 0
    for t in range(4):
        if s[t] == 0:
            continue
        one, zero = _children(s, t)
        if 2 * one[0] + one[1] + one[2] == 0 or 2 * zero[0] + zero[1] + zero[2] == 0:
            continue
        best = max(best, 1 + min(count_ldim(_cap(one)), count_ldim(_cap(zero))))
    return best


class PointsNegationsVersionSpace(VersionSpace):
    """A ∪ B given by the supports S_A, S_B (finite or cofinite point sets)."""

    __slots__ = ("_cls", "SA", "SB")

    def __init__(self, cls: "PointsAndNegations", SA: PSet, SB: PSet):
        self._cls = cls
        self.SA, self.SB = self._norm(SA), self._norm(SB)

    def _norm(self, a: PSet) -> PSet:
        dom = self._cls.domain.finite
        if dom is None:
            return a
        return (False, frozenset(p for p in dom if _contains(a, p)))

    @property
    def hclass(self) -> "PointsAndNegations":
        return self._cls

    def key(self) -> tuple:
        def k(a: PSet) -> tuple:
            return (a[0], tuple(sorted(a[1], key=point_key)))

        return (k(self.SA), k(self.SB))

    def restrict(self, x: Point, y: int) -> "PointsNegationsVersionSpace":
        single: PSet = (False, frozenset([x]))
        if y:
            return PointsNegationsVersionSpace(self._cls, _inter(self.SA, single), _inter(self.SB, _compl(single)))
        return PointsNegationsVersionSpace(self._cls, _inter(self.SA, _compl(single)), _inter(self.SB, single))

    def _count(self, a: PSet) -> float:
        if not a[0]:
            return len(a[1])
        n = self._cls.domain.size
        return n - len(a[1]) if n != math.inf else math.inf

    def counts(self) -> tuple:
        """(|S_A∩S_B|, |S_A∖S_B|, |S_B∖S_A|, [a point outside both]) (infinite counts as math.inf), computed
        without materializing the (possibly huge) listed sets."""
        (ca, la), (cb, lb) = self.SA, self.SB

        def common(x: Any, y: Any) -> int:
            small, big = (x, y) if len(x) <= len(y) else (y, x)
            return sum(1 for v in small if v in big)

        N = self._cls.domain.size
        c11: float  # the four cell sizes (math.inf on an infinite domain)
        c10: float
        c01: float
        rest: float
        if not ca and not cb:  # S_A = la, S_B = lb (finite)
            c11 = common(la, lb)
            c10, c01, rest = len(la) - c11, len(lb) - c11, N - (len(la) + len(lb) - c11)
        elif not ca:  # S_A = la, S_B = all but lb
            shared = common(la, lb)
            c11 = len(la) - shared
            c10, c01, rest = len(la) - c11, (N - len(lb)) - c11, len(lb) - shared
        elif not cb:  # S_A = all but la, S_B = lb
            shared = common(la, lb)
            c11 = len(lb) - shared
            c10, c01, rest = (N - len(la)) - c11, len(lb) - c11, len(la) - shared
        else:  # both cofinite
            both_out = common(la, lb)
            c11 = N - (len(la) + len(lb) - both_out)
            c10, c01, rest = len(lb) - both_out, len(la) - both_out, both_out
        return (c11, c10, c01, min(1, rest))

    def size(self) -> float:
        return self._count(self.SA) + self._count(self.SB)

    def ldim(self) -> int:
        return count_ldim(_cap(self.counts()))

    def contains(self, h: Hypothesis) -> bool:
        dom = self._cls.domain
        if isinstance(h, FiniteSet) and len(h.points) == 1 and _contains(self.SA, h.points[0]) and h.points[0] in dom:
            return True
        if isinstance(h, CofiniteSet) and len(h.points) == 1:
            return _contains(self.SB, h.points[0]) and h.points[0] in dom
        if (
            isinstance(h, FiniteSet)
            and dom.finite is not None
            and len(h.points) == len(dom.finite) - 1
            and all(p in dom for p in h.points)
        ):  # 1 − e_p on a finite domain
            p = next(p for p in dom.finite if p not in h._set)
            return _contains(self.SB, p)
        return False

    def hypotheses(self) -> Iterator[Hypothesis]:
        dom = self._cls.domain.finite
        if dom is None:
            raise TypeError("an infinite version space cannot be enumerated")
        for p in dom:
            if _contains(self.SA, p):
                yield FiniteSet([p])
        for p in dom:
            if _contains(self.SB, p):
                yield self._cls.indicator((True, frozenset([p])))

    def _type(self, x: Point) -> int:
        a, b = _contains(self.SA, x), _contains(self.SB, x)
        return 0 if a and b else 1 if a else 2 if b else 3

    def _prediction_of_type(self, t: int) -> int:
        s = self.counts()
        one, zero = _children(s, t)
        return int(count_ldim(_cap(one)) > count_ldim(_cap(zero)))

    def soa_predict(self, x: Point) -> int:
        return self._prediction_of_type(self._type(x))

    def soa(self) -> Hypothesis:
        """SOA_V: constant on each of the four point types, so a finite or cofinite set (canonical form)."""
        s = self.counts()
        parts = [
            _inter(self.SA, self.SB),
            _inter(self.SA, _compl(self.SB)),
            _inter(self.SB, _compl(self.SA)),
            _compl(_union(self.SA, self.SB)),
        ]
        ones: PSet = EMPTYSET
        for t in range(4):
            if s[t] and self._prediction_of_type(t):
                ones = _union(ones, parts[t])
        return self._cls.indicator(ones)

    def soa_predict_many(self, X: Any) -> np.ndarray:
        return self.soa().predict(X)

    def split_point(self) -> Point | None:
        d = self.ldim()
        if d <= 0:
            return None
        s = self.counts()
        parts = [
            _inter(self.SA, self.SB),
            _inter(self.SA, _compl(self.SB)),
            _inter(self.SB, _compl(self.SA)),
            _compl(_union(self.SA, self.SB)),
        ]
        for t in range(4):
            if not s[t]:
                continue
            one, zero = _children(s, t)
            if min(count_ldim(_cap(one)), count_ldim(_cap(zero))) >= d - 1:
                return self._cls.member(parts[t])
        raise AssertionError("no split point although Ldim ≥ 1")


class PointsAndNegations(HypothesisClass, immutable=True):
    """{e_p} ∪ {1 − e_p} over any hashable domain (GGKM21 Appendix B): Ldim 3 on an infinite domain.

    ``domain`` as for :class:`~littlestone.classes.points.Points` (None = all hashable values); finite domains need
    ≠ 2 points (on two points e_0 = 1 − e_1).
    """

    def __init__(self, domain: Any = None):
        self.domain = PointDomain(domain)
        if self.domain.finite is not None and len(self.domain.finite) == 2:
            raise LittlestoneError("PointsAndNegations needs a domain of 1 or ≥ 3 points (on 2 points e_0 = 1 − e_1)")
        self._points = Points(domain)  # shares the point validation
        self.name = "pointsneg" if self.domain.finite is None else f"pointsneg({len(self.domain.finite)})"
        self.spec = "pointsneg" if domain is None else None  # rebuilds the class (littlestone.classes.spec)

    def version_space(self) -> PointsNegationsVersionSpace:
        full: PSet = (True, frozenset())
        return PointsNegationsVersionSpace(self, full, full)

    def contains_point(self, x: Point) -> bool:
        return x in self.domain

    @property
    def domain_size(self) -> float:
        return self.domain.size

    def domain_points(self) -> list[Point]:
        if self.domain.finite is None:
            raise TypeError(f"{self.name}: the domain is infinite")
        return list(self.domain.finite)

    def validate_point(self, x: Any) -> Point:
        return self._points.validate_point(x)

    def validate_points(self, X: Any) -> Any:
        return self._points.validate_points(X)

    def member(self, a: PSet) -> Point:
        """Some domain point of the set a."""
        if not a[0]:
            return min(a[1], key=point_key)
        return self.domain.point_outside(a[1])

    def indicator(self, ones: PSet) -> Hypothesis:
        """Canonical hypothesis of a finite/cofinite set: on a finite domain always the :class:`FiniteSet` of its 1s
        (so patching it — which keeps a FiniteSet a FiniteSet — stays canonical); on an infinite domain a
        FiniteSet or a :class:`CofiniteSet` (never the same function)."""
        if self.domain.finite is not None:
            return FiniteSet(p for p in self.domain.finite if _contains(ones, p))
        return CofiniteSet(ones[1]) if ones[0] else FiniteSet(ones[1])

    def point_function(self, p: Any) -> FiniteSet:
        return FiniteSet([self.validate_point(p)])

    def negated_point_function(self, p: Any) -> Hypothesis:
        """1 − e_p (a CofiniteSet; on a finite domain the FiniteSet of the other points)."""
        return self.indicator((True, frozenset([self.validate_point(p)])))

    # closed-form dimensions (used by littlestone.dimensions on domains of any size); domains of 1 or 3 points
    # fall back to the explicit twin
    def _four_points(self) -> list[Point] | None:
        """Four distinct domain points, or None when the domain has fewer."""
        if self.domain.finite is not None:
            return list(self.domain.finite[:4]) if len(self.domain.finite) >= 4 else None
        pts: list[Point] = []
        for _ in range(4):
            pts.append(self.domain.point_outside(frozenset(pts)))
        return pts

    def vc_closed_form(self) -> tuple[int, list[Point]] | None:
        """VC 3 on ≥ 4 points: on {a, b, c} the patterns with ≤ 1 one are point functions (000 at a fourth point),
        those with ≥ 2 ones negated point functions; no 4 points get the pattern 1100."""
        pts = self._four_points()
        return None if pts is None else (3, pts[:3])

    def dual_closed_form(self) -> tuple[int, int] | None:
        """Dual hypotheses g_x (e_p ↦ 1[p = x], 1 − e_p ↦ 1[p ≠ x]): every dual point splits them into one function
        and all the others, so dual Ldim = dual VC = 1 on ≥ 2 points (0 on one point)."""
        d = 1 if self.domain.size >= 2 else 0
        return d, d

    def threshold_closed_form(self) -> tuple[int, list[Point], list[Hypothesis]] | None:
        """Threshold dimension 3 on ≥ 4 points: h_1 = 1 − e_d, h_2 = 1 − e_{x_1}, h_3 = e_{x_3} on x_1, x_2, x_3 (d a
        fourth point). No 4: h_i has 5 − i ones among 4 chosen points, and h_3 (two ones) is neither kind."""
        pts = self._four_points()
        if pts is None:
            return None
        x1, x2, x3, d = pts
        negated = lambda p: self.indicator((True, frozenset([p])))  # noqa: E731
        return 3, [x1, x2, x3], [negated(d), negated(x1), self.indicator((False, frozenset([x3])))]

    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        listed = sorted(set(getattr(h1, "points", ())) | set(getattr(h2, "points", ())), key=point_key)
        for x in listed:
            if h1(x) != h2(x):
                yield x
        outside = frozenset(listed)
        if self.domain.finite is None:
            x = self.domain.point_outside(outside)
        else:  # off the listed points both take their default value (0 for e_p, 1 for 1 − e_p)
            x = next((p for p in self.domain.finite if p not in outside), None)
        if x is not None and h1(x) != h2(x):
            yield x
