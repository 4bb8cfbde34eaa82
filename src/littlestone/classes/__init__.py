"""Hypothesis classes: one protocol (version spaces, Ldim, SOA classifier, disagreement) for explicit and structured classes."""

from .base import Hypothesis, HypothesisClass, PatchedHypothesis, VersionSpace, patch, split_patches
from .finite import FiniteClass, FiniteVersionSpace, VectorHypothesis
from .thresholds import Threshold, Thresholds
from .points import CofiniteSet, FiniteSet, Points
from .allfunctions import AllFunctions
from .intervals import IntervalUnion, Intervals
from .conjunctions import Conjunction, Conjunctions
from .affine import AffineFlat, AffineSubspaces
from .points_negations import PointsAndNegations
from .ops import dual, random_class, restrict_to_points, to_finite, union
from .spec import parse_class_spec
from .resolve import as_version_space, resolve_class
from .label_class import LabelClass, LabelHypothesis
from .majority import claim_e7_bounds, majority_class, majority_xor_class

__all__ = [
    "Hypothesis",
    "HypothesisClass",
    "PatchedHypothesis",
    "VersionSpace",
    "patch",
    "split_patches",
    "FiniteClass",
    "FiniteVersionSpace",
    "VectorHypothesis",
    "Threshold",
    "Thresholds",
    "FiniteSet",
    "CofiniteSet",
    "Points",
    "AllFunctions",
    "Intervals",
    "IntervalUnion",
    "Conjunctions",
    "Conjunction",
    "AffineSubspaces",
    "AffineFlat",
    "PointsAndNegations",
    "to_finite",
    "restrict_to_points",
    "union",
    "dual",
    "random_class",
    "parse_class_spec",
    "resolve_class",
    "as_version_space",
    "LabelClass",
    "LabelHypothesis",
    "majority_class",
    "majority_xor_class",
    "claim_e7_bounds",
]
