"""Binary labels: accept {0,1} or {-1,+1} (or, where allowed, any two values) and report back in the same form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .errors import EmptyDataError, LabelError


@dataclass(frozen=True)
class LabelCoding:
    """Maps the user's two labels to internal {0,1}: ``negative`` ↦ 0, ``positive`` ↦ 1."""

    negative: Any = 0
    positive: Any = 1

    def encode(self, y: Sequence[Any] | np.ndarray) -> np.ndarray:
        arr = np.asarray(y, dtype=object if not _is_numeric(y) else None).ravel()
        out = np.empty(arr.shape[0], dtype=np.int8)
        pos = arr == self.positive
        neg = arr == self.negative
        bad = ~(pos | neg)
        if bad.any():
            first = arr[np.flatnonzero(bad)[0]]
            first = first.item() if isinstance(first, np.generic) else first
            raise LabelError(f"label {first!r} is not one of {{{self.negative!r}, {self.positive!r}}}")
        out[pos] = 1
        out[neg] = 0
        return out

    def decode(self, y01: np.ndarray) -> np.ndarray:
        y01 = np.asarray(y01)
        classes = np.array([self.negative, self.positive])
        return classes[y01.astype(np.intp)]


def _is_numeric(y: Any) -> bool:
    try:
        a = np.asarray(y)
    except Exception:  # ragged input
        return False
    return a.dtype.kind in "biuf"


def infer_coding(y: Sequence[Any] | np.ndarray, *, allow_any_pair: bool = False) -> LabelCoding:
    """Detect the label set: {0,1} or {-1,+1} (a single observed value is read as part of those);
    with ``allow_any_pair`` any two distinct values (sorted; the larger is positive)."""
    arr = np.asarray(y, dtype=None if _is_numeric(y) else object).ravel()
    if arr.size == 0:
        raise EmptyDataError("no labels given (empty data)")
    if arr.dtype.kind == "f" and np.isnan(arr.astype(float)).any():
        raise LabelError("labels contain NaN")
    values = set(arr.tolist())
    if values <= {0, 1}:
        return LabelCoding(0, 1)
    if values <= {-1, 1}:
        return LabelCoding(-1, 1)
    if allow_any_pair and len(values) == 2:
        lo, hi = sorted(values, key=lambda v: (str(type(v)), v))
        return LabelCoding(lo, hi)
    shown = sorted(values, key=repr)[:5]
    allowed = "{0,1} or {-1,+1}" + (" or two distinct values" if allow_any_pair else "")
    raise LabelError(f"labels must be binary, {allowed}; got values {shown}")


def declared_coding(classes: Any) -> LabelCoding:
    """The coding of a user-declared label pair ``(negative, positive)`` (private estimators take their label set
    from the user, never from the data)."""
    try:
        pair = list(classes)
    except TypeError:
        raise LabelError(f"classes must be a pair (negative label, positive label), got {classes!r}") from None
    if isinstance(classes, (str, bytes)) or len(pair) != 2:
        raise LabelError(f"classes must be a pair (negative label, positive label), got {classes!r}")
    neg, pos = (v.item() if isinstance(v, np.generic) else v for v in pair)
    for v in (neg, pos):
        try:
            hash(v)
        except TypeError:
            raise LabelError(f"class label {v!r} is not hashable") from None
        if isinstance(v, float) and v != v:
            raise LabelError("a class label is NaN")
    if neg == pos:
        raise LabelError(f"classes must be two distinct labels, got {classes!r}")
    return LabelCoding(neg, pos)


def encode_declared(y: Sequence[Any] | np.ndarray, classes: Any) -> tuple[np.ndarray, LabelCoding]:
    """(labels as int8 0/1, coding) for a declared pair; a label outside it is a LabelError naming the pair."""
    coding = declared_coding(classes)
    arr = np.asarray(y, dtype=None if _is_numeric(y) else object).ravel()
    if arr.size == 0:
        raise EmptyDataError("no labels given (empty data)")
    try:
        return coding.encode(arr), coding
    except LabelError as exc:
        bad = str(exc).split(" is not one of")[0]
        raise LabelError(
            f"{bad} is not one of the declared binary classes ({coding.negative!r}, {coding.positive!r}); "
            "declare the label pair your data uses, e.g. classes=(-1, 1) or classes=('no', 'yes') "
            "(CLI: --classes -1,1)"
        ) from None


def encode_labels(y: Sequence[Any] | np.ndarray, *, allow_any_pair: bool = False) -> tuple[np.ndarray, LabelCoding]:
    """(labels as int8 0/1, coding to report predictions back in the user's label set)."""
    coding = infer_coding(y, allow_any_pair=allow_any_pair)
    return coding.encode(y), coding


def check_label01(y: Any) -> int:
    """A single label in {0,1} or {-1,+1} → 0/1 (for online learners' learn_one)."""
    if isinstance(y, (bool, np.bool_)):
        return int(y)
    if isinstance(y, (int, np.integer)) and int(y) in (0, 1, -1):
        return 1 if int(y) == 1 else 0
    if isinstance(y, (float, np.floating)) and float(y) in (0.0, 1.0, -1.0):
        return 1 if float(y) == 1.0 else 0
    raise LabelError(f"label {y!r} is not in {{0,1}} or {{-1,+1}}")


def warn_inferred_labels(owner: str, setting: str, fix: str, *, stacklevel: int = 3) -> None:
    """The one PrivacyLeakWarning of a private learner reading its label set from the private labels (``setting``,
    e.g. "classes=None"): whatever reports the coding back reveals which labels occur, which no claim covers."""
    import warnings

    from .errors import PrivacyLeakWarning

    warnings.warn(
        PrivacyLeakWarning(
            f"{owner}({setting}) reads the label set from the private labels: the coding of its predictions reveals "
            f"which labels occur, which the privacy claim does not cover. Declare {fix} to remove this leak."
        ),
        stacklevel=stacklevel,
    )


def private_online_labels(labels: Any, owner: str) -> tuple[int, int] | None:
    """The label pair of a private online learner: the declared one ((0, 1), the default, or (-1, 1)); ``None`` —
    the coding read from the first 0 or −1 label seen — is kept for compatibility, with a PrivacyLeakWarning."""
    if labels is None:
        warn_inferred_labels(owner, "labels=None", "labels=(0, 1) or labels=(-1, 1)", stacklevel=4)
        return None
    return labels
