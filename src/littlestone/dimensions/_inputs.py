"""Accepting what users hand to the dimension functions: a class, a version space, or a 0/1 matrix."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.base import HypothesisClass, VersionSpace
from ..classes.finite import FiniteClass, FiniteVersionSpace
from ..errors import LittlestoneError


def as_version_space(H: Any) -> VersionSpace:
    """A version space from a HypothesisClass (the whole class), a VersionSpace, or a 0/1 matrix (rows = hypotheses)."""
    if isinstance(H, VersionSpace):
        return H
    if isinstance(H, HypothesisClass):
        return H.version_space()
    if isinstance(H, (np.ndarray, list, tuple)):
        return FiniteClass(H).version_space()
    raise LittlestoneError(f"expected a hypothesis class, a version space or a 0/1 matrix, got {type(H).__name__}")


def as_finite_class(H: Any) -> FiniteClass:
    """An explicit FiniteClass for H: itself, the rows of a finite version space, a matrix, or ``to_finite(H)``."""
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
    raise LittlestoneError(f"expected a finite hypothesis class or a 0/1 matrix, got {type(H).__name__}")
