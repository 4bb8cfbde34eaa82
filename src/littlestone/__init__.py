"""littlestone: online and differentially-private learning of Littlestone classes.

Sub-packages, one concern each: ``classes`` (hypothesis classes and version spaces), ``dimensions`` (exact
Littlestone/VC/dual/threshold dimensions, mistake trees), ``online`` (SOA, Halving, the online game), ``privacy``
(noise backends, mechanisms, accounting), ``audit`` (black-box privacy auditor), ``pac`` (private PAC learners as
scikit-learn estimators), ``bounds`` (theorem calculators), ``experiments``, ``cli``.

The names below are imported on first use (``import littlestone`` itself loads nothing heavy: no NumPy, no
scikit-learn, Numba or matplotlib).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_LAZY = {
    **dict.fromkeys(
        (
            "AffineSubspaces",
            "AllFunctions",
            "Conjunctions",
            "FiniteClass",
            "Hypothesis",
            "HypothesisClass",
            "Intervals",
            "Points",
            "PointsAndNegations",
            "Thresholds",
            "VersionSpace",
            "parse_class_spec",
        ),
        "littlestone.classes",
    ),
    **dict.fromkeys(
        (
            "MistakeTree",
            "dual_ldim",
            "dual_vc_dim",
            "is_shattered",
            "ldim",
            "threshold_dim",
            "vc_dim",
            "GeneralizedTree",
            "check_reducing_array",
            "dominant_label",
            "irreducibility",
            "is_irreducible",
            "reducing_array",
        ),
        "littlestone.dimensions",
    ),
    **dict.fromkeys(("SOA", "Halving", "play"), "littlestone.online"),
}

__all__ = [*_LAZY, "__version__"]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .classes import (
        AffineSubspaces,
        AllFunctions,
        Conjunctions,
        FiniteClass,
        Hypothesis,
        HypothesisClass,
        Intervals,
        Points,
        PointsAndNegations,
        Thresholds,
        VersionSpace,
        parse_class_spec,
    )
    from .dimensions import (
        GeneralizedTree,
        MistakeTree,
        check_reducing_array,
        dominant_label,
        dual_ldim,
        dual_vc_dim,
        irreducibility,
        is_irreducible,
        is_shattered,
        ldim,
        reducing_array,
        threshold_dim,
        vc_dim,
    )
    from .online import SOA, Halving, play


def __getattr__(name: str) -> Any:
    """Public names (and sub-packages) are imported on first use."""
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module 'littlestone' has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
