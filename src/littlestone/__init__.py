"""littlestone: online and differentially-private learning of Littlestone classes."""

from .classes import FiniteClass, Hypothesis, HypothesisClass, Thresholds, VersionSpace

__version__ = "0.1.0"

__all__ = ["FiniteClass", "Hypothesis", "HypothesisClass", "Thresholds", "VersionSpace", "__version__"]
