"""Offline (PAC) learners as scikit-learn estimators: the pure-DP generic learner, BLM20, non-private baselines."""

from __future__ import annotations

import importlib
from typing import Any

from ._sklearn import LittlestoneClassifier, register_hypothesis_codec, resolve_class

_LAZY = {
    "GenericLearnerClassifier": "littlestone.pac.generic",
    "ERMClassifier": "littlestone.pac.baselines",
    "SOAClassifier": "littlestone.pac.baselines",
    "BLM20Classifier": "littlestone.pac.blm20",
    "AgnosticBLM20Classifier": "littlestone.pac.agnostic",
    "PolyPriLearnClassifier": "littlestone.pac.polyprilearn",
    "PolyPriPropLearnClassifier": "littlestone.pac.proper",
    "AgnosticPolyPriPropLearnClassifier": "littlestone.pac.agnostic_proper",
    "GridDiscretizer": "littlestone.pac.discretize",
    "grid_stumps": "littlestone.pac.discretize",
}

__all__ = ["LittlestoneClassifier", "register_hypothesis_codec", "resolve_class", *_LAZY]


def __getattr__(name: str) -> Any:
    """Estimators are imported on first use (keeps `import littlestone` light)."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'littlestone.pac' has no attribute {name!r}")
