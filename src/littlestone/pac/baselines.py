"""Non-private baselines as estimators: empirical risk minimisation over a finite candidate list, and the SOA run
on the sample (extended to non-realizable samples, BLM20 Definition 8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..classes.base import Hypothesis
from ..online.extended_soa import extended_soa
from ._sklearn import LittlestoneClassifier
from .candidates import candidate_errors, candidate_list, uses_rows


@dataclass(frozen=True)
class BaselineResult:
    """What a non-private fit did (no privacy: ``epsilon`` is infinite)."""

    learner: str
    n: int
    training_errors: int
    candidates: int | None = None
    epsilon: float = float("inf")


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
        cands = candidate_list(self.hclass_, self.candidates, n_features=self.n_features_in_)
        errors = candidate_errors(cands, self.hclass_, points, y01)
        best = int(np.argmin(errors))
        return cands[best], BaselineResult("erm", len(y01), int(errors[best]), len(cands))


class SOAClassifier(LittlestoneClassifier):
    """Non-private: the SOA's predictor after one pass over the sample (BLM20 Def 8 on non-realizable data)."""

    def __init__(self, hypothesis_class: Any = None, random_state: Any = None):
        self.hypothesis_class = hypothesis_class
        self.random_state = random_state

    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, BaselineResult]:
        h = extended_soa(self._the_class().version_space(), points, y01)
        errs = int(np.sum(np.asarray(h.predict(points)) != y01))
        return h, BaselineResult("soa", len(y01), errs)
