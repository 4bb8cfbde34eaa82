"""One resolver from what users write to hypothesis classes, used by the API, the estimators and the CLI.

A class may be given as a :class:`HypothesisClass` object, a spec string (``"thresholds:100"``, the CLI's ``--class``
syntax, see :mod:`littlestone.classes.spec`), a path to a CSV 0/1 matrix, or — where a version space is wanted — a
:class:`VersionSpace` or a 0/1 matrix (rows = hypotheses). ``SOA("thresholds:100")``, ``ldim("points:16")`` and
``BLM20Classifier("thresholds:100")`` all go through here.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..errors import ClassSpecError
from .base import HypothesisClass, VersionSpace

__all__ = ["resolve_class", "as_version_space"]


def resolve_class(spec: Any) -> HypothesisClass:
    """A HypothesisClass from a class object (returned as is), a spec string or a CSV path (ClassSpecError for a
    malformed spec or any other kind of object)."""
    if isinstance(spec, HypothesisClass):
        return spec
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)
    if isinstance(spec, str):
        from .spec import parse_class_spec

        return parse_class_spec(spec)
    raise ClassSpecError(
        f"expected a hypothesis class or a class spec such as 'thresholds:100', not {type(spec).__name__}"
    )


def as_version_space(H: Any) -> VersionSpace:
    """A version space from a VersionSpace (as is), anything :func:`resolve_class` accepts (the whole class), or a
    0/1 matrix (rows = hypotheses, an explicit finite class)."""
    if isinstance(H, VersionSpace):
        return H
    if isinstance(H, (np.ndarray, list, tuple)):
        from .finite import FiniteClass

        return FiniteClass(H).version_space()
    return resolve_class(H).version_space()
