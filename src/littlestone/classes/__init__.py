"""Hypothesis classes: one protocol (version spaces, Ldim, SOA classifier, disagreement) for explicit and structured classes."""

from .base import Hypothesis, HypothesisClass, PatchedHypothesis, VersionSpace, patch, split_patches
from .finite import FiniteClass, FiniteVersionSpace, VectorHypothesis
from .thresholds import Threshold, Thresholds

__all__ = [
    "Hypothesis", "HypothesisClass", "PatchedHypothesis", "VersionSpace", "patch", "split_patches",
    "FiniteClass", "FiniteVersionSpace", "VectorHypothesis", "Threshold", "Thresholds",
]
