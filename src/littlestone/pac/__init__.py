"""Offline (PAC) learners as scikit-learn estimators: the pure-DP generic learner, BLM20, non-private baselines;
and the same learners as functions on validated points and 0/1 labels (``generic_learn``, ``blm20_learn``,
``erm_learn``, ``soa_learn``), which never import scikit-learn."""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "LittlestoneClassifier": "littlestone.pac._sklearn",
    "register_hypothesis_codec": "littlestone.pac._sklearn",
    "resolve_class": "littlestone.pac._sklearn",
    "GenericLearnerClassifier": "littlestone.pac.generic_classifier",
    "ERMClassifier": "littlestone.pac.baseline_classifiers",
    "SOAClassifier": "littlestone.pac.baseline_classifiers",
    "BLM20Classifier": "littlestone.pac.blm20_classifier",
    "AgnosticBLM20Classifier": "littlestone.pac.agnostic",
    "PolyPriLearnClassifier": "littlestone.pac.polyprilearn",
    "PolyPriPropLearnClassifier": "littlestone.pac.proper",
    "AgnosticPolyPriPropLearnClassifier": "littlestone.pac.agnostic_proper",
    "generic_learn": "littlestone.pac.generic",
    "blm20_learn": "littlestone.pac.blm20",
    "erm_learn": "littlestone.pac.baselines",
    "soa_learn": "littlestone.pac.baselines",
    "GridDiscretizer": "littlestone.pac.discretize",
    "grid_stumps": "littlestone.pac.grid",
}

__all__ = [*_LAZY]


def __getattr__(name: str) -> Any:
    """Estimators are imported on first use: scikit-learn is loaded only by code that uses an estimator (a worker
    running the tournament or the stable histogram never imports it)."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'littlestone.pac' has no attribute {name!r}")
