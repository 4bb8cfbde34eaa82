"""The online-learner protocol (river conventions): ``predict_one(x)``, then ``learn_one(x, y)``; labels {0,1}/{±1}.

Subclasses implement the two hooks :meth:`OnlineLearner._predict01` and :meth:`OnlineLearner._learn01` on validated
points and 0/1 labels; this base class validates input, remembers the user's label coding and counts mistakes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from .._labels import check_label01
from ..classes.base import HypothesisClass, Point, VersionSpace
from ..classes.resolve import as_version_space
from ..errors import LabelError

#: sentinel: the label coding is not known yet
_UNKNOWN = None


class OnlineLearner(ABC):
    """A deterministic online learner in the mistake-bound model (BLM20 §3.2, Kal-LN §4).

    * ``predict_one(x)`` validates ``x`` through the class (:class:`~littlestone.errors.DomainError` otherwise) and
      returns the prediction in the user's label set: {−1,+1} once a −1 label has been seen (or ``labels=(-1, 1)``
      was given), else {0,1}.
    * ``learn_one(x, y)`` takes ``y`` in {0,1} or {−1,+1} (a mix of 0 and −1 is a :class:`LabelError`), counts a
      mistake when ``y`` differs from what ``predict_one(x)`` says at that moment, updates, and returns ``self``.
    """

    def __init__(self, hypothesis_class: HypothesisClass | VersionSpace, *, labels: tuple[int, int] | None = None):
        V = as_version_space(hypothesis_class)
        self.hypothesis_class: HypothesisClass = V.hclass
        self.initial_version_space: VersionSpace = V
        self.mistakes = 0
        self.n_learned = 0
        self._negative: int | None = _UNKNOWN
        if labels is not None:
            labels = tuple(labels)  # type: ignore[assignment]
            if labels not in ((0, 1), (-1, 1)):
                raise LabelError(f"labels must be (0, 1) or (-1, 1), got {labels!r}")
            self._negative = labels[0]
        self._last: tuple[Point, int] | None = None  # cached (x, prediction01) until the next update

    # ------------------------------------------------------------------------------------------ hooks
    @abstractmethod
    def _predict01(self, x: Point) -> int:
        """Prediction in {0,1} at a validated point."""

    @abstractmethod
    def _learn01(self, x: Point, y: int) -> None:
        """Update on a validated point and a label in {0,1} (raise before changing any state if it must fail)."""

    # ------------------------------------------------------------------------------------------ public API
    @property
    def label_coding(self) -> tuple[int, int]:
        """(negative, positive) labels used to report predictions: (0, 1) or (−1, 1)."""
        return (0 if self._negative is None else self._negative, 1)

    @property
    def coding_is_set(self) -> bool:
        """Whether the label coding is fixed (by ``labels=`` or by a 0 or −1 label seen)."""
        return self._negative is not None

    def validate_point(self, x: Any) -> Point:
        return self.hypothesis_class.validate_point(x)

    def predict_one(self, x: Any) -> int:
        """The prediction at x, in the user's label set."""
        return self._report(self._cached_predict(self.validate_point(x)))

    def learn_one(self, x: Any, y: Any) -> "OnlineLearner":
        """Learn the example (x, y); counts a mistake if y differs from the current prediction at x."""
        x = self.validate_point(x)
        y01 = self._encode(y)
        mistake = self._cached_predict(x) != y01
        self._learn01(x, y01)
        self._commit_coding(y)
        self._last = None
        self.n_learned += 1
        if mistake:
            self.mistakes += 1
        return self

    def predict_many(self, X: Any) -> np.ndarray:
        """Predictions at several points (no learning in between)."""
        pts = [self.validate_point(x) for x in X]
        return np.array([self._report(self._predict01(x)) for x in pts], dtype=np.int64)

    # ------------------------------------------------------------------------------------------ internals
    def _cached_predict(self, x: Point) -> int:
        last = self._last
        if last is not None and last[0] == x and type(last[0]) is type(x):
            return last[1]
        p = self._predict01(x)
        self._last = (x, p)
        return p

    def _report(self, p01: int) -> int:
        return -1 if (p01 == 0 and self._negative == -1) else p01

    def _encode(self, y: Any) -> int:
        y01 = check_label01(y)
        if y01 == 0 and not isinstance(y, (bool, np.bool_)):
            neg = -1 if float(y) == -1.0 else 0
            if self._negative is not None and neg != self._negative:
                raise LabelError(
                    f"label {y!r} mixes label sets: this learner has seen negative label {self._negative}; "
                    "use either {0,1} or {-1,+1} throughout")
        return y01

    def _commit_coding(self, y: Any) -> None:
        if self._negative is None and not isinstance(y, (bool, np.bool_)) and float(y) in (0.0, -1.0):
            self._negative = -1 if float(y) == -1.0 else 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.hypothesis_class!r}, mistakes={self.mistakes}, n_learned={self.n_learned})"
