"""littlestone: online and differentially-private learning of Littlestone classes.

Sub-packages, one concern each: ``classes`` (hypothesis classes and version spaces), ``dimensions`` (exact
Littlestone/VC/dual/threshold dimensions, mistake trees), ``online`` (SOA, Halving, the online game), ``privacy``
(noise backends, mechanisms, accounting), ``audit`` (black-box privacy auditor), ``pac`` (private PAC learners as
scikit-learn estimators), ``bounds`` (theorem calculators), ``experiments``, ``cli``.

The names below are imported on first use (``import littlestone`` itself loads nothing heavy: no NumPy, no
scikit-learn, Numba or matplotlib).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS: dict[str, tuple[str, ...]] = {
    ".classes": (
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
    ".dimensions": (
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
    ".online": ("SOA", "Halving", "play"),
}
__getattr__, __dir__, _names = lazy_exports(__name__, _EXPORTS)
__all__ = [*_names, "__version__"]

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
