"""river conventions in one place (issue 20 item 5), for every online learner of the library: the online learners
here, the private online learners and the experts learners import these helpers.

* **features**: river passes ``x`` as a dict ``{feature name: value}``. A learner over a one-dimensional domain takes
  the value of the dict's single key, or of the key declared with ``feature=`` (any other dict is a
  :class:`~littlestone.errors.DomainError` naming the keys); a non-dict ``x`` is the point itself.
* **labels**: bools are labels (True = positive, False = negative) as are {0,1} and {−1,+1}.
* **learn_one returns None** (river's ``learn_one`` mutates in place); ``predict_proba_one`` returns
  ``{negative: 1 − p, positive: p}`` where the learner has a probability with a meaning (e.g. Halving's vote share).
* **clone()**: river's ``Estimator.clone(new_params=None)`` — a fresh instance built from the same constructor
  arguments (with ``new_params`` overriding some), nothing learned carried over; parameters that are learners
  themselves (an experts learner inside :class:`~littlestone.experts.ExpertsClassifier`) are cloned too. The
  :class:`CloneFromParams` mixin records the arguments at construction.
* **river's type checks**: ``river.evaluate.progressive_val_score`` accepts only instances of
  ``river.base.Classifier`` with a ``_supervised`` attribute. :func:`river_classifier` (a class decorator) sets
  ``_supervised = True`` and registers the class as a virtual subclass of ``river.base.Classifier`` when river is
  installed (an optional extra: ``pip install 'littlestone[river]'``); nothing is imported from river otherwise.
"""

from __future__ import annotations

import importlib.util
import inspect
from typing import Any, Hashable, Mapping, TypeVar

import numpy as np

from ..errors import DomainError, LabelError


def feature_value(x: Any, feature: Hashable | None = None) -> Any:
    """The point of a river feature dict: its value at ``feature`` when declared, else the value of its only key;
    a non-dict ``x`` unchanged."""
    if not isinstance(x, Mapping):
        return x
    if feature is not None:
        try:
            return x[feature]
        except KeyError:
            raise DomainError(f"feature {feature!r} is not in the example's features {sorted(map(str, x))!r}") from None
    if len(x) != 1:
        raise DomainError(
            f"a feature dict with {len(x)} keys {sorted(map(str, x))[:5]!r}: these learners take one feature; "
            "declare which with feature=..."
        )
    return next(iter(x.values()))


def label01(y: Any, negative: Any = 0) -> int:
    """A label as 0/1: bools (True/False), 1 for the positive label, ``negative`` (0 or −1) for the negative one;
    a :class:`~littlestone.errors.LabelError` for anything else."""
    if isinstance(y, (bool, np.bool_)):
        return int(bool(y))
    try:
        v = float(y)
    except (TypeError, ValueError):
        raise LabelError(f"label {y!r} is not a bool, 1 or the negative label {negative!r}") from None
    if v == 1.0:
        return 1
    if v == float(negative):
        return 0
    raise LabelError(f"label {y!r} is not a bool, 1 or the negative label {negative!r}")


def proba_dict(p1: float, labels: tuple[Any, Any] = (0, 1)) -> dict[Any, float]:
    """river's ``predict_proba_one`` value: ``{negative: 1 − p1, positive: p1}`` for the (negative, positive) pair."""
    p1 = float(min(max(p1, 0.0), 1.0))
    return {labels[0]: 1.0 - p1, labels[1]: p1}


C = TypeVar("C", bound=type)


def river_classifier(cls: C) -> C:
    """Class decorator: river's ``progressive_val_score`` and metrics then accept the class's instances."""
    cls._supervised = True  # type: ignore[attr-defined]
    if importlib.util.find_spec("river") is not None:
        try:
            from river import base as river_base

            river_base.Classifier.register(cls)
        except Exception:  # noqa: BLE001 - a broken optional install must not break the library
            pass
    return cls


class CloneFromParams:
    """Mixin: ``clone(new_params=None)`` as river's ``Estimator.clone`` — a new instance from the constructor
    arguments this one was built with (recorded by ``__new__``), ``new_params`` overriding them by name; arguments
    that have ``clone`` (learners) are cloned, so no learned state (rounds, weights, spent budget) is shared."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        self = super().__new__(cls)
        self._clone_args = (args, dict(kwargs))
        return self

    def clone(self, new_params: Mapping[str, Any] | None = None, include_attributes: bool = False) -> Any:
        """A fresh, unfitted instance with the same parameters (``new_params`` replace some by name).
        ``include_attributes`` (river: copy fitted attributes too) is refused: a clone starts from nothing."""
        if include_attributes:
            raise TypeError("clone(include_attributes=True) is not supported: a clone starts with no learned state")
        args, kwargs = getattr(self, "_clone_args", ((), {}))
        signature = inspect.signature(type(self).__init__)
        params = dict(signature.bind(self, *args, **kwargs).arguments)
        del params[next(iter(signature.parameters))]  # self
        unknown = set(new_params or {}) - set(signature.parameters)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no parameter(s) {sorted(unknown)}")
        params.update(new_params or {})
        params = {k: (v.clone() if isinstance(v, CloneFromParams) else v) for k, v in params.items()}
        return type(self)(**params)
