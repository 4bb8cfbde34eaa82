"""Finite candidate lists for the generic learner and ERM: a class's hypotheses (vectorized error counts for explicit
classes and for classes with a closed form, :meth:`HypothesisClass.mistake_counts`), a user list, or data-independent decision stumps on a fixed grid over R^k."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..classes.base import Hypothesis, HypothesisClass
from ..classes.finite import FiniteClass
from ..errors import EmptyDataError, LittlestoneError

#: largest class the generic learner enumerates
MAX_CANDIDATES = 1 << 21
#: default stump thresholds (data-independent: features are assumed to be on a standardized scale)
DEFAULT_STUMP_GRID = tuple(np.round(np.linspace(-3.0, 3.0, 25), 6).tolist())


class Stump(Hypothesis):
    """Decision stump on R^k: 1[x_j ≥ t] if ``above`` else 1[x_j < t] (t = ±inf gives the constants)."""

    __slots__ = ("feature", "threshold", "above")

    def __init__(self, feature: int, threshold: float, above: bool):
        self.feature, self.threshold, self.above = int(feature), float(threshold), bool(above)

    def key(self) -> tuple:
        return (self.feature, self.threshold, self.above)

    def __call__(self, x: Any) -> int:
        v = float(np.asarray(x, dtype=float).reshape(-1)[self.feature])
        return int((v >= self.threshold) == self.above)

    def predict(self, X: Any) -> np.ndarray:
        col = np.asarray(X, dtype=float)
        col = col[:, self.feature] if col.ndim == 2 else col
        return ((col >= self.threshold) == self.above).astype(np.int8)


def stump_candidates(n_features: int, grid: Sequence[float] = DEFAULT_STUMP_GRID) -> list[Stump]:
    """All stumps (feature, threshold in grid, both directions) plus the two constant functions."""
    out = [Stump(0, -math.inf, True), Stump(0, -math.inf, False)]
    for j in range(n_features):
        for t in grid:
            out.append(Stump(j, t, True))
            out.append(Stump(j, t, False))
    return out


def uses_rows(hclass: HypothesisClass | None, candidates: Sequence[Hypothesis] | None) -> bool:
    """Default stumps (no class, no candidates) or a list of stumps evaluate whole rows of X."""
    if hclass is not None:
        return bool(getattr(hclass, "accepts_rows", False))
    return candidates is None or all(isinstance(h, Stump) for h in candidates)


@dataclass
class CandidateSet:
    """A finite list of hypotheses with a (vectorized where possible) count of training errors for each."""

    hypotheses: Sequence[Hypothesis]
    hclass: HypothesisClass | None = None
    kind: str = "list"

    def __len__(self) -> int:
        return len(self.hypotheses)

    def __getitem__(self, i: int) -> Hypothesis:
        return self.hypotheses[i]

    def errors(self, points: Any, y01: np.ndarray) -> np.ndarray:
        """#{i : h(x_i) ≠ y_i} for every candidate h (int64 array)."""
        y01 = np.asarray(y01, dtype=np.int8)
        if self.kind == "finite":
            cls: FiniteClass = self.hclass  # type: ignore[assignment]
            idx = cls.domain.indices(points)
            # per-point label counts, then one matrix-vector product: errors(h) = Σ_x h(x)·#0(x) + (1−h(x))·#1(x)
            ones = np.bincount(idx, weights=y01, minlength=cls.n_points)
            zeros = np.bincount(idx, minlength=cls.n_points) - ones
            return np.rint(cls.matrix @ (zeros - ones) + ones.sum()).astype(np.int64)
        if self.hclass is not None:
            counts = self.hclass.mistake_counts(self.hypotheses, points, y01)  # the class's closed form, if any
            if counts is not None:
                return np.asarray(counts, dtype=np.int64)
        if self.kind == "stumps":
            X = np.asarray(points, dtype=float)
            return np.fromiter(
                (np.count_nonzero(h.predict(X) != y01) for h in self.hypotheses),
                dtype=np.int64,
                count=len(self.hypotheses),
            )
        return np.fromiter(
            (np.count_nonzero(np.asarray(h.predict(points)) != y01) for h in self.hypotheses),
            dtype=np.int64,
            count=len(self.hypotheses),
        )


def candidate_list(
    hclass: HypothesisClass | None, candidates: Sequence[Hypothesis] | None = None, *, n_features: int = 1
) -> CandidateSet:
    """The candidates: a given list; else every hypothesis of a finite class; else default stumps over R^k."""
    if candidates is not None:
        hyps = list(candidates)
        if not hyps:
            raise EmptyDataError("the candidate list is empty")
        bad = [h for h in hyps if not isinstance(h, Hypothesis)]
        if bad:
            raise LittlestoneError(f"candidates must be littlestone Hypothesis objects, got {type(bad[0]).__name__}")
        return CandidateSet(hyps, hclass, "list")
    if hclass is None:
        return CandidateSet(list(stump_candidates(n_features)), None, "stumps")
    if isinstance(hclass, FiniteClass):
        return CandidateSet(hclass.hypotheses(), hclass, "finite")
    V = hclass.version_space()
    size = V.size()
    if not math.isfinite(size) or size > MAX_CANDIDATES:
        raise LittlestoneError(
            f"{hclass.name} has {size} hypotheses; the generic learner needs a finite class of at "
            f"most {MAX_CANDIDATES} (pass candidates=[...] instead)"
        )
    return CandidateSet(list(V.hypotheses()), hclass, "list")


def as_candidates(candidates: HypothesisClass | Sequence[Hypothesis] | CandidateSet) -> CandidateSet:
    """What the learner functions accept as candidates: a CandidateSet as is, every hypothesis of a class, or a list
    of hypotheses (:func:`candidate_list`)."""
    if isinstance(candidates, CandidateSet):
        return candidates
    if isinstance(candidates, HypothesisClass):
        return candidate_list(candidates)
    return candidate_list(None, candidates)
