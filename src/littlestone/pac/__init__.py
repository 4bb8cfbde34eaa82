"""Offline (PAC) learners as scikit-learn estimators: the pure-DP generic learner, BLM20, non-private baselines;
and the same learners as functions on validated points and 0/1 labels (``generic_learn``, ``blm20_learn``,
``erm_learn``, ``soa_learn``), which never import scikit-learn."""

from __future__ import annotations

from .._lazy import lazy_exports

#: where each name lives; estimators are imported on first use, so scikit-learn is loaded only by code that uses one
#: (a worker running the tournament or the stable histogram never imports it)
_EXPORTS: dict[str, tuple[str, ...]] = {
    "._sklearn": ("LittlestoneClassifier", "register_hypothesis_codec", "resolve_class"),
    ".generic_classifier": ("GenericLearnerClassifier",),
    ".baseline_classifiers": ("ERMClassifier", "SOAClassifier"),
    ".blm20_classifier": ("BLM20Classifier",),
    ".agnostic": ("AgnosticBLM20Classifier",),
    ".polyprilearn": ("PolyPriLearnClassifier",),
    ".proper": ("PolyPriPropLearnClassifier",),
    ".agnostic_proper": ("AgnosticPolyPriPropLearnClassifier",),
    ".generic": ("generic_learn",),
    ".blm20": ("blm20_learn",),
    ".baselines": ("erm_learn", "soa_learn"),
    ".discretize": ("GridDiscretizer",),
    ".grid": ("grid_stumps",),
    ".private_selection": ("PrivateGridSearchCV", "IdenticalCandidatesWarning"),
    ".public_maps": ("SelectColumns",),
}
__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
