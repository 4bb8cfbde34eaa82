"""Hypothesis classes: one protocol (version spaces, Ldim, SOA classifier, disagreement) for explicit and structured classes.

Each name below is imported from its module on first use (``littlestone._lazy``): a program that uses thresholds
does not load the other classes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, tuple[str, ...]] = {
    ".base": ("Hypothesis", "HypothesisClass", "PatchedHypothesis", "VersionSpace", "patch", "split_patches"),
    ".finite": ("FiniteClass", "FiniteVersionSpace", "VectorHypothesis"),
    ".thresholds": ("Threshold", "Thresholds"),
    ".points": ("CofiniteSet", "FiniteSet", "Points"),
    ".allfunctions": ("AllFunctions",),
    ".intervals": ("IntervalUnion", "Intervals"),
    ".stumps": ("NegThreshold", "Stumps"),
    ".conjunctions": ("Conjunction", "Conjunctions"),
    ".affine": ("AffineFlat", "AffineSubspaces"),
    ".points_negations": ("PointsAndNegations",),
    ".ops": ("dual", "random_class", "restrict_to_points", "to_finite", "union"),
    ".spec": ("parse_class_spec",),
    ".resolve": ("as_version_space", "resolve_class"),
    ".label_class": ("LabelClass", "LabelHypothesis"),
    ".majority": ("claim_e7_bounds", "majority_class", "majority_xor_class"),
}
__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .base import Hypothesis, HypothesisClass, PatchedHypothesis, VersionSpace, patch, split_patches
    from .finite import FiniteClass, FiniteVersionSpace, VectorHypothesis
    from .thresholds import Threshold, Thresholds
    from .points import CofiniteSet, FiniteSet, Points
    from .allfunctions import AllFunctions
    from .intervals import IntervalUnion, Intervals
    from .stumps import NegThreshold, Stumps
    from .conjunctions import Conjunction, Conjunctions
    from .affine import AffineFlat, AffineSubspaces
    from .points_negations import PointsAndNegations
    from .ops import dual, random_class, restrict_to_points, to_finite, union
    from .spec import parse_class_spec
    from .resolve import as_version_space, resolve_class
    from .label_class import LabelClass, LabelHypothesis
    from .majority import claim_e7_bounds, majority_class, majority_xor_class
