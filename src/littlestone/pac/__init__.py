"""Offline (PAC) learners as scikit-learn estimators: the pure-DP generic learner, BLM20, non-private baselines."""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "LittlestoneClassifier": "littlestone.pac._sklearn",
    "register_hypothesis_codec": "littlestone.pac._sklearn",
    "resolve_class": "littlestone.pac._sklearn",
    "GenericLearnerClassifier": "littlestone.pac.generic",
    "ERMClassifier": "littlestone.pac.baselines",
    "SOAClassifier": "littlestone.pac.baselines",
    "BLM20Classifier": "littlestone.pac.blm20_classifier",
    "AgnosticBLM20Classifier": "littlestone.pac.agnostic",
    "PolyPriLearnClassifier": "littlestone.pac.polyprilearn",
    "PolyPriPropLearnClassifier": "littlestone.pac.proper",
    "AgnosticPolyPriPropLearnClassifier": "littlestone.pac.agnostic_proper",
    "GridDiscretizer": "littlestone.pac.discretize",
    "grid_stumps": "littlestone.pac.discretize",
}

__all__ = [*_LAZY]


def __getattr__(name: str) -> Any:
    """Estimators are imported on first use: scikit-learn is loaded only by code that uses an estimator (a worker
    running the tournament or the stable histogram never imports it)."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'littlestone.pac' has no attribute {name!r}")
