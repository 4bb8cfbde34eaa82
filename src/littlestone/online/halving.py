"""The Halving algorithm: predict the majority vote of the version space (Kal-LN §4); ≤ ⌊log2 |H|⌋ mistakes."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace
from ..errors import LittlestoneError, NotRealizableError
from .base import OnlineLearner, _Stopped, as_point_list
from .river_compat import proba_dict


class Halving(OnlineLearner):
    """Halving: predict 1 iff |V|(x,1)| > |V|(x,0)| (ties → 0), then V ← V|(x,y) (Kal-LN §4).

    Each mistake at least halves |V|, hence at most ⌊log2 |H|⌋ mistakes on a realizable sequence. Needs a finite
    version space (sizes are exact Python ints, so ``Thresholds(2**60)`` is fine); realizable sequences only.
    """

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        labels: tuple[int, int] | None = None,
        feature: Any = None,
    ):
        super().__init__(hypothesis_class, labels=labels, feature=feature)
        size = self.initial_version_space.size()
        if size == math.inf:
            raise LittlestoneError(
                f"Halving needs a finite class; {self.hypothesis_class.name} has infinitely many hypotheses "
                "(use SOA, which only needs Littlestone dimensions)"
            )
        self.version_space: VersionSpace = self.initial_version_space

    def _predict01(self, x: Point) -> int:
        V = self.version_space
        return int(V.restrict(x, 1).size() > V.restrict(x, 0).size())

    def predict_proba_one(self, x: Any) -> dict:
        """The vote share {negative: |V|(x,0)|/|V|, positive: |V|(x,1)|/|V|} (river's ``predict_proba_one``)."""
        V = self.version_space
        xv = self.validate_point(x)
        total = V.size()
        p1 = V.restrict(xv, 1).size() / total if total else 0.0
        return proba_dict(p1, self.label_coding)

    def _learn01(self, x: Point, y: int) -> None:
        W = self.version_space.restrict(x, y)
        if W.is_empty():
            raise NotRealizableError(
                f"example ({x!r}, {y}) contradicts every hypothesis of {self.hypothesis_class.name} consistent with "
                f"the examples seen so far; Halving needs a realizable sequence (SOA(H, extended=True) handles "
                "unrealizable ones)"
            )
        self.version_space = W

    def _learn_many01(self, pts: list, y01: Any, preds: Any) -> int:
        """Batch path: the version space's closed-form :meth:`~littlestone.classes.base.VersionSpace.online_run`
        when it has one (else the per-round hooks)."""
        run = (
            self.version_space.online_run_array(pts, y01, "halving", out=preds) if isinstance(pts, np.ndarray) else None
        )
        if run is None:
            run = self.version_space.online_run(as_point_list(pts), y01.tolist(), "halving")
        if run is None:
            return super()._learn_many01(pts, y01, preds)
        p, V, k = run
        if not np.may_share_memory(p, preds):  # closed forms given out=preds wrote there already
            preds[:k] = p
        self.version_space = V
        if k == len(pts):
            return k
        try:
            return k + super()._learn_many01(pts[k:], y01[k:], preds[k:])
        except _Stopped as stop:
            raise _Stopped(k + stop.done, stop.error) from None

    def hypothesis(self) -> Hypothesis | None:
        """The current vote as a hypothesis where the class has it in closed form (thresholds: a threshold), else
        None (adversaries then probe ``predict_one``)."""
        return self.version_space.halving_hypothesis()

    def log2_size_bound(self) -> int:
        """⌊log2 |H|⌋: the Halving mistake bound for the initial version space."""
        size = int(self.initial_version_space.size())
        return size.bit_length() - 1 if size > 0 else -1
