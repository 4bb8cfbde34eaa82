"""Operations on classes: explicit finite twins, restriction to a sample, union, dual class, seeded random classes."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .._random import SeedLike, as_generator
from ..errors import EmptyDataError, LittlestoneError
from .base import HypothesisClass, VersionSpace, as_python_point
from .finite import FiniteClass

#: refuse to build explicit matrices larger than this many entries
MAX_ENTRIES = 1 << 26


def _labels_or_none(points: Sequence[Any]) -> list | None:
    """None when the points are exactly 0..n−1 (FiniteClass's fast default domain)."""
    if all(isinstance(p, int) and not isinstance(p, bool) and p == i for i, p in enumerate(points)):
        return None
    return list(points)


def to_finite(H: HypothesisClass, name: str | None = None) -> FiniteClass:
    """The explicit twin of a class with a small finite domain: rows = its hypotheses, columns = its domain points."""
    if isinstance(H, FiniteClass):
        return H
    pts = H.domain_points()
    V = H.version_space()
    try:
        size = V.size()
    except TypeError:
        size = None
    if size is not None and size * max(1, len(pts)) > MAX_ENTRIES:
        raise LittlestoneError(f"{H.name}: an explicit twin would have {size} × {len(pts)} entries (too large)")
    try:
        hyps = list(V.hypotheses())
    except TypeError:
        return restrict_to_points(H, pts, name=name or f"{H.name} (explicit)")
    if not hyps:
        raise EmptyDataError(f"{H.name} has no hypotheses")
    X = H.validate_points(pts)
    M = np.vstack([h.predict(X) for h in hyps]).astype(np.uint8)
    return FiniteClass(M, points=_labels_or_none(pts), name=name or f"{H.name} (explicit)")


def realizable_patterns(V: VersionSpace, points: Sequence[Any], limit: int = 1 << 20) -> np.ndarray:
    """All label vectors on `points` realized by V (depth-first over restrictions; works for infinite classes)."""
    k = len(points)
    rows: list[list[int]] = []
    labels = [0] * k

    def walk(W: VersionSpace, i: int) -> None:
        if i == k:
            rows.append(list(labels))
            if len(rows) > limit:
                raise LittlestoneError(f"more than {limit} distinct patterns on {k} points")
            return
        for y in (0, 1):
            W2 = W.restrict(points[i], y)
            if not W2.is_empty():
                labels[i] = y
                walk(W2, i + 1)

    if not V.is_empty():
        walk(V, 0)
    return np.array(rows, dtype=np.uint8).reshape(len(rows), k)


def restrict_to_points(
    H: HypothesisClass | VersionSpace, points: Sequence[Any], name: str | None = None
) -> FiniteClass:
    """H restricted to a finite set of points: one row per distinct behaviour of H on them (H may be infinite)."""
    V = H if isinstance(H, VersionSpace) else H.version_space()
    cls = V.hclass
    pts = [cls.validate_point(as_python_point(p)) for p in points]
    if len(set(pts)) != len(pts):
        raise LittlestoneError("restrict_to_points needs distinct points")
    M = realizable_patterns(V, pts)
    if M.shape[0] == 0:
        raise EmptyDataError(f"{cls.name}: the version space is empty")
    return FiniteClass(M, points=_labels_or_none(pts), name=name or f"{cls.name}|{len(pts)} points")


def union(H1: HypothesisClass, H2: HypothesisClass, name: str | None = None) -> FiniteClass:
    """H1 ∪ H2 for classes on the same finite domain (as an explicit class)."""
    F1, F2 = to_finite(H1), to_finite(H2)
    p1, p2 = F1.domain_points(), F2.domain_points()
    if p1 != p2:
        if set(p1) != set(p2):
            raise LittlestoneError(f"union needs classes on the same domain ({F1.name} and {F2.name} differ)")
        order = [F2.domain.index(p) for p in p1]
        M2 = F2.matrix[:, order]
    else:
        M2 = F2.matrix
    return FiniteClass(np.vstack([F1.matrix, M2]), points=_labels_or_none(p1), name=name or f"{F1.name} ∪ {F2.name}")


def dual(H: HypothesisClass, name: str | None = None) -> FiniteClass:
    """The dual class: points become hypotheses x ↦ (h ↦ h(x)) on the domain of hypothesis indices 0..|H|−1."""
    F = to_finite(H)
    return FiniteClass(F.matrix.T.copy(), name=name or f"dual({F.name})")


def random_class(n_hypotheses: int, n_points: int, seed: SeedLike = None, p: float = 0.5) -> FiniteClass:
    """A seeded random class: each entry is 1 with probability p (duplicate rows are then removed)."""
    if not isinstance(n_hypotheses, (int, np.integer)) or n_hypotheses < 1:
        raise LittlestoneError(f"random_class needs n_hypotheses ≥ 1, got {n_hypotheses!r}")
    if not isinstance(n_points, (int, np.integer)) or n_points < 1:
        raise LittlestoneError(f"random_class needs n_points ≥ 1, got {n_points!r}")
    if not 0.0 <= float(p) <= 1.0:
        raise LittlestoneError(f"random_class needs 0 ≤ p ≤ 1, got {p!r}")
    if n_hypotheses * n_points > MAX_ENTRIES:
        raise LittlestoneError(f"random_class: {n_hypotheses} × {n_points} entries is too large")
    rng = as_generator(seed)
    M = (rng.random((int(n_hypotheses), int(n_points))) < p).astype(np.uint8)
    label = f"random({n_hypotheses}x{n_points}" + (f":{seed}" if isinstance(seed, (int, np.integer)) else "") + ")"
    return FiniteClass(M, name=label)
