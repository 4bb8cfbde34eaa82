"""Accepting what users hand to the dimension functions: a class, a version space, or a 0/1 matrix."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.base import HypothesisClass, VersionSpace
from ..classes.finite import FiniteClass, FiniteVersionSpace
from ..classes.resolve import resolve_class
from ..errors import LittlestoneError


def parse_spec(spec: str) -> HypothesisClass:
    """A class spec string such as ``"thresholds:1000"`` (the CLI's ``--class`` syntax)."""
    return resolve_class(spec)


def closed_form(H: Any, method: str) -> Any:
    """A structured class's closed-form answer (``vc_closed_form``, ``dual_closed_form``, ``threshold_closed_form``)
    when H is the whole class (or its full version space); None otherwise (then the explicit twin is searched)."""
    if isinstance(H, str):
        H = parse_spec(H)
    if isinstance(H, VersionSpace):
        cls = H.hclass
        if isinstance(cls, FiniteClass) or H != cls.version_space():
            return None
        H = cls
    if isinstance(H, HypothesisClass) and not isinstance(H, FiniteClass):
        return getattr(H, method)()
    return None


def small_as_list(seq: Any, limit: int = 1 << 12) -> Any:
    """A witness sequence as a plain list when it is short (lazy sequences of huge witnesses stay lazy)."""
    try:
        return list(seq) if len(seq) <= limit else seq
    except OverflowError:
        return seq


def as_finite_class(H: Any) -> FiniteClass:
    """An explicit FiniteClass for H: itself, the rows of a finite version space, a matrix, or ``to_finite(H)``."""
    if isinstance(H, str):
        H = parse_spec(H)
    if isinstance(H, FiniteClass):
        return H
    if isinstance(H, FiniteVersionSpace):
        cls = H.hclass
        if H.mask == cls.full_mask:
            return cls
        rows = H.rows()
        if not rows:
            raise LittlestoneError("the version space is empty: no hypotheses to take a dimension of")
        labels = None if cls.domain._index is None else cls.domain.points
        return FiniteClass(cls.matrix[rows], points=labels, name=f"{cls.name}|V")
    if isinstance(H, (np.ndarray, list, tuple)):
        return FiniteClass(H)
    if isinstance(H, HypothesisClass):
        try:
            from ..classes.ops import to_finite  # structured classes on small domains (helper CLASSES)
        except ImportError as exc:  # pragma: no cover - depends on the classes package
            raise LittlestoneError(f"{H.name} is not an explicit finite class and no converter is available") from exc
        try:
            return to_finite(H)
        except TypeError as exc:  # e.g. an infinite domain
            raise LittlestoneError(f"{H.name} has no explicit finite form for this computation: {exc}") from exc
    if isinstance(H, VersionSpace):  # a version space of a structured class on a small enumerable domain
        from ..classes.ops import restrict_to_points

        try:
            pts = H.hclass.domain_points()
        except TypeError as exc:
            raise LittlestoneError(
                f"this version space of {H.hclass.name} has no explicit finite form for this computation: {exc}"
            ) from None
        if H.is_empty():
            raise LittlestoneError("the version space is empty: no hypotheses to take a dimension of")
        return restrict_to_points(H, pts, name=f"{H.hclass.name}|V")
    raise LittlestoneError(f"expected a finite hypothesis class or a 0/1 matrix, got {type(H).__name__}")
