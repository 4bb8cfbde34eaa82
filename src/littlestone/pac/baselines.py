"""Non-private baselines: empirical risk minimisation over a finite candidate list (:func:`erm_learn`), and the SOA
run on the sample, extended to non-realizable samples (:func:`soa_learn`, BLM20 Definition 8). No scikit-learn here;
the estimators :class:`ERMClassifier` and :class:`SOAClassifier` live in :mod:`littlestone.pac.baseline_classifiers`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence, Union

import numpy as np

from ..classes.base import Hypothesis, HypothesisClass
from ..online.extended_soa import extended_soa
from .candidates import CandidateSet, as_candidates


@dataclass(frozen=True)
class BaselineResult:
    """What a non-private fit did (no privacy: ``epsilon`` is infinite)."""

    learner: str
    n: int
    training_errors: int
    candidates: int | None = None
    epsilon: float = float("inf")


def erm_learn(
    candidates: Union[HypothesisClass, Sequence[Hypothesis], CandidateSet], points: Any, y01: Any
) -> tuple[Hypothesis, BaselineResult]:
    """The candidate (all of a finite class's hypotheses, a list, or a CandidateSet) with the fewest errors on the
    validated ``points`` and 0/1 labels ``y01``; ties → first candidate. Not private."""
    cands = as_candidates(candidates)
    y01 = np.asarray(y01)
    errors = cands.errors(points, y01)
    best = int(np.argmin(errors))
    return cands[best], BaselineResult("erm", len(y01), int(errors[best]), len(cands))


def soa_learn(hclass: HypothesisClass, points: Any, y01: Any) -> tuple[Hypothesis, BaselineResult]:
    """The SOA's predictor after one pass over the validated sample (BLM20 Def 8 on non-realizable data). Not
    private."""
    y01 = np.asarray(y01)
    h = extended_soa(hclass.version_space(), points, y01)
    errs = int(np.sum(np.asarray(h.predict(points)) != y01))
    return h, BaselineResult("soa", len(y01), errs)


def __getattr__(name: str) -> Any:
    """The estimators live in :mod:`littlestone.pac.baseline_classifiers`, imported on first use (scikit-learn)."""
    if name in ("ERMClassifier", "SOAClassifier"):
        from . import baseline_classifiers

        return getattr(baseline_classifiers, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
