"""The non-private baselines as scikit-learn estimators; the learners are
:func:`littlestone.pac.baselines.erm_learn` and :func:`littlestone.pac.baselines.soa_learn`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.base import Hypothesis
from ._sklearn import LittlestoneClassifier
from .baselines import BaselineResult, erm_learn, soa_learn
from .candidates import candidate_list, uses_rows

__all__ = ["ERMClassifier", "SOAClassifier"]


class ERMClassifier(LittlestoneClassifier):
    """Non-private empirical risk minimiser over the class (or candidate list); ties → first candidate."""

    _requires_class = False

    def __init__(self, hypothesis_class: Any = None, candidates: Any = None, random_state: Any = None):
        self.hypothesis_class = hypothesis_class
        self.candidates = candidates
        self.random_state = random_state

    def _wants_rows(self) -> bool:
        return uses_rows(getattr(self, "hclass_", None), self.candidates)

    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, BaselineResult]:
        return erm_learn(candidate_list(self.hclass_, self.candidates, n_features=self.n_features_in_), points, y01)


class SOAClassifier(LittlestoneClassifier):
    """Non-private: the SOA's predictor after one pass over the sample (BLM20 Def 8 on non-realizable data)."""

    def __init__(self, hypothesis_class: Any = None, random_state: Any = None):
        self.hypothesis_class = hypothesis_class
        self.random_state = random_state

    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, BaselineResult]:
        return soa_learn(self._the_class(), points, y01)
