"""littlestone: online and differentially-private learning of Littlestone classes.

Sub-packages, one concern each: ``classes`` (hypothesis classes and version spaces), ``dimensions`` (exact
Littlestone/VC/dual/threshold dimensions, mistake trees), ``online`` (SOA, Halving, the online game), ``privacy``
(noise backends, mechanisms, accounting), ``audit`` (black-box privacy auditor), ``pac`` (private PAC learners as
scikit-learn estimators), ``bounds`` (theorem calculators), ``experiments``, ``cli``.
"""

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
    irreducibility,
    is_irreducible,
    reducing_array,
)
from .dimensions import dual_ldim, dual_vc_dim, is_shattered, ldim, threshold_dim, vc_dim
from .online import SOA, Halving, play

__version__ = "0.1.0"

__all__ = [
    "AffineSubspaces", "AllFunctions", "Conjunctions", "FiniteClass", "Hypothesis", "HypothesisClass", "Intervals",
    "Points", "PointsAndNegations", "Thresholds", "VersionSpace", "parse_class_spec",
    "MistakeTree", "dual_ldim", "GeneralizedTree", "check_reducing_array", "dominant_label", "irreducibility",
    "is_irreducible", "reducing_array", "dual_vc_dim", "is_shattered", "ldim", "threshold_dim", "vc_dim",
    "SOA", "Halving", "play", "__version__",
]
