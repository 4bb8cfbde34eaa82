"""The online-learner protocol (river conventions): ``predict_one(x)``, then ``learn_one(x, y)``; labels {0,1}/{±1}.

Subclasses implement the two hooks :meth:`OnlineLearner._predict01` and :meth:`OnlineLearner._learn01` on validated
points and 0/1 labels; this base class validates input, remembers the user's label coding and counts mistakes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Hashable

import numpy as np

from .._labels import check_label01
from ..classes.base import HypothesisClass, Point, VersionSpace
from ..classes.resolve import as_version_space
from ..errors import LabelError
from .river_compat import CloneFromParams, feature_value, river_classifier

#: sentinel: the label coding is not known yet
_UNKNOWN = None


class _Stopped(Exception):
    """Internal: a batch stopped at an example it could not learn (``done`` examples were learned)."""

    def __init__(self, done: int, error: BaseException):
        super().__init__(done)
        self.done, self.error = done, error


def as_point_list(pts: "list | np.ndarray") -> list:
    """Validated points as a list of Python points (an int array becomes Python ints)."""
    return pts.tolist() if isinstance(pts, np.ndarray) else pts


def _label_values(y: np.ndarray) -> set:
    """The distinct values of a numeric label vector — without sorting when they lie in {−1, 0, 1} (a few linear
    passes, the common case), else np.unique."""
    if y.size and y.dtype.kind in "iu":
        lo, hi = int(y.min()), int(y.max())
        if lo >= -1 and hi <= 1:  # -1 present iff min is -1, 1 iff max is 1, 0 iff some entry is zero
            zeros = np.count_nonzero(y) < y.size
            return {v for v, ok in ((-1, lo == -1), (0, zeros), (1, hi == 1)) if ok}
    return set(np.unique(y).tolist())


@river_classifier
class OnlineLearner(CloneFromParams, ABC):
    """A deterministic online learner in the mistake-bound model (BLM20 §3.2, Kal-LN §4).

    * ``predict_one(x)`` validates ``x`` through the class (:class:`~littlestone.errors.DomainError` otherwise) and
      returns the prediction in the user's label set: {−1,+1} once a −1 label has been seen (or ``labels=(-1, 1)``
      was given), bools with ``labels=(False, True)`` (as the private online learners), else {0,1} (Python ints).
    * ``learn_one(x, y)`` takes ``y`` in {0,1} or {−1,+1} (a mix of 0 and −1 is a :class:`LabelError`), counts a
      mistake when ``y`` differs from what ``predict_one(x)`` says at that moment, updates, and returns None.
    * river conventions (:mod:`littlestone.online.river_compat`): ``x`` may be a feature dict with one key (or the
      key declared by ``feature=``), labels may be bools.
    """

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        labels: tuple[int, int] | None = None,
        feature: Hashable | None = None,
    ):
        V = as_version_space(hypothesis_class)
        #: the key of river feature dicts this learner reads (None: a dict's only key)
        self.feature = feature
        self.hypothesis_class: HypothesisClass = V.hclass
        self.initial_version_space: VersionSpace = V
        self.mistakes = 0
        self.n_learned = 0
        self._negative: int | None = _UNKNOWN
        #: whether predictions are reported as bools (``labels=(False, True)``, river's bool labels)
        self._bools = False
        if labels is not None:
            labels = tuple(labels)  # type: ignore[assignment]
            self._bools = any(isinstance(v, (bool, np.bool_)) for v in labels)
            if labels not in ((0, 1), (-1, 1)) or (self._bools and labels != (False, True)):
                raise LabelError(f"labels must be (0, 1), (-1, 1) or (False, True), got {labels!r}")
            self._negative = int(labels[0])
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
        """(negative, positive) labels used to report predictions: (0, 1), (−1, 1) or (False, True)."""
        if self._bools:
            return (False, True)
        return (0 if self._negative is None else self._negative, 1)

    @property
    def coding_is_set(self) -> bool:
        """Whether the label coding is fixed (by ``labels=`` or by a 0 or −1 label seen)."""
        return self._negative is not None

    def validate_point(self, x: Any) -> Point:
        """x as a point of the class; a river feature dict gives its value at ``feature`` (or at its only key)."""
        return self.hypothesis_class.validate_point(feature_value(x, self.feature))

    def predict_one(self, x: Any) -> int:
        """The prediction at x, in the user's label set."""
        return self._report(self._cached_predict(self.validate_point(x)))

    def learn_one(self, x: Any, y: Any) -> None:
        """Learn the example (x, y); counts a mistake if y differs from the current prediction at x. Returns None
        (river's convention: the learner is updated in place)."""
        x = self.validate_point(x)
        y01 = self._encode(y)
        mistake = self._cached_predict(x) != y01
        self._learn01(x, y01)
        self._commit_coding(y)
        self._last = None
        self.n_learned += 1
        if mistake:
            self.mistakes += 1

    def predict_many(self, X: Any) -> np.ndarray:
        """Predictions at several points (no learning in between)."""
        pts = [self.validate_point(x) for x in X]
        return np.array([self._report(self._predict01(x)) for x in pts], dtype=bool if self._bools else np.int64)

    def learn_many(self, X: Any, y: Any) -> np.ndarray:
        """Learn the examples in order — the same rounds as ``predict_one(x)`` then ``learn_one(x, y)`` on each —
        and return the predictions made before each update (in the label set ``predict_one`` would have used).

        Labels are checked for the whole batch first (a bad or mixed label raises before anything is learned);
        points are validated vectorized when they are an integer array. Learners with a closed-form batch path
        (SOA and Halving on classes whose version spaces offer ``online_run``) run it; the others loop over
        their own hooks. An example that cannot be learned raises as ``learn_one`` would, after the examples
        before it have been learned (``n_learned`` says how many)."""
        y_arr = np.asarray(y)
        n = len(y_arr)
        if len(X) != n:
            raise LabelError(f"X has {len(X)} points but y has {n} labels")
        y01, neg = self._encode_many(y_arr)
        pts = self._validate_many(X)
        preds = np.empty(n, dtype=np.int8)
        done = 0
        try:
            done = self._learn_many01(pts, y01, preds)
        except _Stopped as stop:
            done = stop.done
            raise stop.error from None
        finally:
            self._finish_many(y01, preds, done, neg)
        return preds.astype(bool) if self._bools else preds

    def _validate_many(self, X: Any) -> "list | np.ndarray":
        arr = X if isinstance(X, np.ndarray) else None
        if arr is None and isinstance(X, (list, tuple)) and X and all(type(v) is int for v in X):
            arr = np.asarray(X) if all(-(2**63) <= v < 2**63 for v in X) else None
        if arr is not None and arr.ndim == 1 and arr.dtype.kind in "iu":
            self.hypothesis_class.validate_points(arr)  # raises DomainError naming the first bad point
            return arr  # kept as an array: vectorized batch paths use it, the others convert (as_point_list)
        return [self.validate_point(x) for x in X]

    def _encode_many(self, y: np.ndarray) -> tuple[np.ndarray, int | None]:
        """0/1 labels and the negative label the batch fixes (None if it fixes none), checked as ``_encode`` does."""
        if y.dtype.kind == "b":
            return y.astype(np.int8), None
        if y.dtype.kind in "iuf" and y.ndim == 1:
            vals = _label_values(y)
            if vals <= {-1, 0, 1}:
                if 0 in vals and -1 in vals:
                    bad = y[(y == -1) | (y == 0)]
                    raise LabelError(
                        f"label {bad[np.flatnonzero(bad != bad[0])[0]].item()!r} mixes label sets; "
                        "use either {0,1} or {-1,+1} throughout"
                    )
                neg = -1 if -1 in vals else (0 if 0 in vals else None)
                if neg is not None and self._negative is not None and neg != self._negative:
                    raise LabelError(
                        f"labels mix label sets: this learner has seen negative label "
                        f"{self._negative}; use either {{0,1}} or {{-1,+1}} throughout"
                    )
                if neg != -1 and y.dtype.kind in "iu":  # values in {0, 1}: a cast is the 0/1 coding
                    return y.astype(np.int8), neg
                return (y == 1).astype(np.int8), neg
        out = np.empty(len(y), dtype=np.int8)  # anything else: one label at a time, with _encode's errors
        first_neg = self._negative
        for i, v in enumerate(y.tolist()):
            out[i] = self._encode(v)
            if first_neg is None and not isinstance(v, bool) and float(v) in (0.0, -1.0):
                first_neg = -1 if float(v) == -1.0 else 0
            elif (
                out[i] == 0
                and not isinstance(v, bool)
                and first_neg is not None
                and (-1 if float(v) == -1.0 else 0) != first_neg
            ):
                raise LabelError(f"label {v!r} mixes label sets; use either {{0,1}} or {{-1,+1}} throughout")
        return out, (first_neg if self._negative is None else None)

    def _learn_many01(self, pts: list, y01: np.ndarray, preds: np.ndarray) -> int:
        """Hook: learn pts/y01 in order, writing 0/1 predictions to ``preds``; returns how many were learned.
        On an example that cannot be learned, raise ``_Stopped(done, error)``. Default: the per-round hooks."""
        for i, (x, lab) in enumerate(zip(as_point_list(pts), y01.tolist())):
            p = self._predict01(x)
            preds[i] = p
            try:
                self._learn01(x, lab)
            except Exception as e:  # noqa: BLE001 - re-raised unchanged by learn_many
                raise _Stopped(i, e) from None
        return len(pts)

    def _finish_many(self, y01: np.ndarray, preds: np.ndarray, done: int, neg: int | None) -> None:
        """Mistakes, counters and label coding for the first ``done`` rounds; predictions reported in the coding
        each round saw (a coding fixed by a label applies from the next round on)."""
        self.mistakes += int(np.count_nonzero(preds[:done] != y01[:done]))
        self.n_learned += done
        self._last = None
        if self._negative is None and neg is not None and done > 0:
            # the round whose label fixes the coding: the first 0 label among the learned ones
            zeros = np.flatnonzero(y01[:done] == 0)
            if zeros.size:
                first = int(zeros[0])
                if neg == -1:
                    tail = preds[first + 1 : done]
                    tail[tail == 0] = -1
                self._negative = neg
        elif self._negative == -1:
            head = preds[:done]
            head[head == 0] = -1

    # ------------------------------------------------------------------------------------------ internals
    def _cached_predict(self, x: Point) -> int:
        last = self._last
        if last is not None and last[0] == x and type(last[0]) is type(x):
            return last[1]
        p = self._predict01(x)
        self._last = (x, p)
        return p

    def _report(self, p01: int) -> Any:
        if self._bools:
            return bool(p01)
        return -1 if (p01 == 0 and self._negative == -1) else int(p01)

    def _encode(self, y: Any) -> int:
        y01 = check_label01(y)
        if y01 == 0 and not isinstance(y, (bool, np.bool_)):
            neg = -1 if float(y) == -1.0 else 0
            if self._negative is not None and neg != self._negative:
                raise LabelError(
                    f"label {y!r} mixes label sets: this learner has seen negative label {self._negative}; "
                    "use either {0,1} or {-1,+1} throughout"
                )
        return y01

    def _commit_coding(self, y: Any) -> None:
        if self._negative is None and not isinstance(y, (bool, np.bool_)) and float(y) in (0.0, -1.0):
            self._negative = -1 if float(y) == -1.0 else 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.hypothesis_class!r}, mistakes={self.mistakes}, n_learned={self.n_learned})"
