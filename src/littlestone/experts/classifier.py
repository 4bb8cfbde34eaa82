"""An experts learner as a river-style online classifier over a finite set of hypotheses (the experts): round t
follows the expert i_t the learner samples (its released choice) and predicts h_{i_t}(x_t); the example (x_t, y_t)
then becomes the loss vector ℓ_t(i) = 1[h_i(x_t) ≠ y_t]. One example changes one round's loss vector, so a private
learner's claim (``"replace-one-round"``) covers the stream of examples; the prediction is the released expert
evaluated at x_t, post-processing.

river conventions through :mod:`littlestone.online.river_compat` (feature dicts, bool labels, ``learn_one`` returning
None). ``predict_proba_one`` (the weight of the experts voting 1) exists only for non-private learners: for a
private one the distribution is not what its claim covers.
"""

from __future__ import annotations

from typing import Any, Hashable, Sequence

import numpy as np

from ..classes.base import Hypothesis, HypothesisClass
from ..errors import LittlestoneError
from ..online.river_compat import CloneFromParams, feature_value, label01, proba_dict, river_classifier
from .base import ExpertsLearner


@river_classifier
class ExpertsClassifier(CloneFromParams):
    """``ExpertsClassifier(learner, hypotheses)``: ``learner`` an :class:`~littlestone.experts.base.ExpertsLearner`
    with one expert per hypothesis (e.g. ``PrivateHedge(len(hyps), T, epsilon=1, delta=1e-6)``), ``hypotheses`` the
    experts, ``hypothesis_class`` (optional) validates the points, ``labels`` the (negative, positive) pair reported.
    """

    def __init__(
        self,
        learner: ExpertsLearner,
        hypotheses: Sequence[Hypothesis],
        *,
        hypothesis_class: HypothesisClass | None = None,
        labels: tuple[Any, Any] = (0, 1),
        feature: Hashable | None = None,
    ):
        if not isinstance(learner, ExpertsLearner):
            raise LittlestoneError(f"learner must be an experts learner, not {type(learner).__name__}")
        self.hypotheses = list(hypotheses)
        if len(self.hypotheses) != learner.n_experts:
            raise LittlestoneError(
                f"{len(self.hypotheses)} hypotheses for a learner of {learner.n_experts} experts: one per expert"
            )
        labels = tuple(labels)  # type: ignore[assignment]
        if len(labels) != 2 or labels[1] != 1 or labels[0] not in (0, -1, False):
            raise LittlestoneError(f"labels must be (0, 1), (-1, 1) or (False, True), got {labels!r}")
        self.learner = learner
        self.hypothesis_class = hypothesis_class
        self.labels = labels
        self.feature = feature
        self.mistakes = 0

    def _point(self, x: Any) -> Any:
        x = feature_value(x, self.feature)
        return x if self.hypothesis_class is None else self.hypothesis_class.validate_point(x)

    def _votes(self, x: Any) -> np.ndarray:
        return np.fromiter((h(x) for h in self.hypotheses), dtype=np.int8, count=len(self.hypotheses))

    def predict_one(self, x: Any) -> Any:
        """h_{i_t}(x) for the expert i_t followed this round, in the label pair."""
        p = int(self.hypotheses[self.learner.predict_one()](self._point(x)))
        return self.labels[1] if p else self.labels[0]

    def predict_proba_one(self, x: Any) -> dict:
        """{negative: 1 − q, positive: q}, q the weight of the experts voting 1 (non-private learners only)."""
        if self.learner.private:
            raise LittlestoneError(
                f"{type(self.learner).__name__} releases one sampled expert per round, not its distribution: "
                "predict_proba_one would release what the privacy claim does not cover"
            )
        p = self.learner.distribution()
        return proba_dict(float(p @ self._votes(self._point(x))) / float(p.sum()), self.labels)

    def learn_one(self, x: Any, y: Any) -> None:
        """The round's loss vector 1[h_i(x) ≠ y]; counts a mistake of the followed expert."""
        xv = self._point(x)
        y01 = label01(y, self.labels[0])
        i = self.learner.predict_one()
        votes = self._votes(xv)
        self.mistakes += int(votes[i] != y01)
        self.learner.learn_one((votes != y01).astype(float))

    def privacy(self) -> Any:
        """The learner's privacy claim (None for a non-private learner)."""
        return self.learner.privacy()
