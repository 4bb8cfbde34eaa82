"""The Standard Optimal Algorithm (SOA) of Littlestone, online, with the extension to non-realizable sequences.

Prediction rule (BLM20 §3.2 steps (i)–(v); Kal-LN §4 Def 6; GGKM21 Def 4.2): predict 1 iff
Ldim(V|(x,1)) > Ldim(V|(x,0)), ties → 0, where V is the version space of all examples seen so far (updated every
round). On realizable sequences it errs at most Ldim(H) times (Kal-LN §4 Lemma 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace, patch
from ..errors import NotRealizableError
from .base import OnlineLearner, _Stopped, as_point_list, as_version_space


def soa_classifier(H_or_V: HypothesisClass | VersionSpace) -> Hypothesis:
    """SOA_H as a hypothesis: x ↦ 1 iff Ldim(H|(x,1)) > Ldim(H|(x,0)), ties → 0 (GGKM21 Def 4.2)."""
    return as_version_space(H_or_V).soa()


class SOA(OnlineLearner):
    """Littlestone's SOA, river-style; ``extended=True`` continues past unrealizable examples (BLM20 Def 8).

    State: the version space V of the longest realizable prefix, and — once an example contradicts every hypothesis
    of V (extended mode only) — a table of local patches: each later example (x, y) overwrites the predictor at x
    (later duplicates win). Without ``extended`` an unrealizable example raises :class:`NotRealizableError` and
    leaves the learner unchanged.

    >>> from littlestone import Thresholds
    >>> soa = SOA(Thresholds(8))
    >>> soa.predict_one(3)
    0
    >>> soa.learn_one({"x": 3}, True)  # river style: a one-key feature dict, a bool label; returns None
    >>> soa.mistakes
    1
    """

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        extended: bool = False,
        *,
        labels: tuple[int, int] | None = None,
        feature: Any = None,
    ):
        super().__init__(hypothesis_class, labels=labels, feature=feature)
        self.extended = bool(extended)
        self.version_space: VersionSpace = self.initial_version_space
        self._patches: dict[Point, int] = {}
        self._realizable = True
        #: number of examples in the longest realizable prefix (all of them while the sequence is realizable)
        self.realizable_prefix_length = 0

    @property
    def realizable(self) -> bool:
        """Whether every example learned so far is consistent with some hypothesis of the class."""
        return self._realizable

    def _predict01(self, x: Point) -> int:
        if self._patches:
            v = self._patches.get(x)
            if v is not None:
                return v
        return self.version_space.soa_predict(x)

    def _learn01(self, x: Point, y: int) -> None:
        if self._realizable:
            W = self.version_space.restrict(x, y)
            if not W.is_empty():
                self.version_space = W
                self.realizable_prefix_length += 1
                return
            if not self.extended:
                raise NotRealizableError(
                    f"example ({x!r}, {y}) contradicts every hypothesis of {self.hypothesis_class.name} consistent "
                    f"with the {self.realizable_prefix_length} examples seen so far; the sequence is not "
                    "realizable — use SOA(H, extended=True) to continue with local updates (BLM20 Def 8)"
                )
            self._realizable = False
        # Def 8, second case: h_{t+1}(x_{t+1}) = y_{t+1}, h_{t+1} = h_t elsewhere
        self._patches.pop(x, None)
        self._patches[x] = y

    def _learn_many01(self, pts: list, y01: Any, preds: Any) -> int:
        """Batch path: the version space's closed-form :meth:`~littlestone.classes.base.VersionSpace.online_run`
        for the realizable prefix (when it has one), then the per-round hooks from the first unrealizable example."""
        run = None
        if self._realizable and isinstance(pts, np.ndarray):
            run = self.version_space.online_run_array(pts, y01, "soa", out=preds)
        if run is None and self._realizable:
            run = self.version_space.online_run(as_point_list(pts), y01.tolist(), "soa")
        if run is None:
            return super()._learn_many01(pts, y01, preds)
        p, V, k = run
        if not np.may_share_memory(p, preds):  # closed forms given out=preds wrote there already
            preds[:k] = p
        self.version_space = V
        self.realizable_prefix_length += k
        if k == len(pts):
            return k
        try:
            return k + super()._learn_many01(pts[k:], y01[k:], preds[k:])
        except _Stopped as stop:
            raise _Stopped(k + stop.done, stop.error) from None

    def mistake_bound(self) -> int:
        """Ldim of the initial version space: the SOA's worst-case number of mistakes on realizable sequences."""
        return self.initial_version_space.ldim()

    def hypothesis(self) -> Hypothesis:
        """The current predictor: SOA of the version space, patched at the non-realizable examples (BLM20 Def 8)."""
        h = self.version_space.soa()
        if not self._patches:
            return h
        return patch(h, self._patches.items())

    def reset(self) -> "SOA":
        """Forget all examples (mistake counter included)."""
        self.__init__(  # type: ignore[misc]
            self.initial_version_space,
            self.extended,
            labels=None if self._negative is None else self.label_coding,
            feature=self.feature,
        )
        return self
