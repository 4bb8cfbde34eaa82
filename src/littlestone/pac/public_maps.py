"""Which preprocessing steps may run before a private estimator inside a private search (issue 32): public maps only.

A step of a :class:`sklearn.pipeline.Pipeline` is fitted on the data it is given. When that data is private, what the
step learns (a mean, a scale, bin edges from quantiles, …) is a function of the private records, and it shapes the
model the search releases: a release no privacy claim covers. A private search therefore accepts only steps whose fit
learns nothing from the values and whose transform maps each row on its own (a per-record map fixed before seeing the
data: a record then changes its own transformed row and nothing else, so the private estimator's claim on the
transformed rows is its claim on the raw rows):

* :class:`~littlestone.pac.GridDiscretizer` with declared ``ranges`` (its fit reads only the number of features);
* a declared column selection: :class:`SelectColumns` (fixed column positions), or a
  ``ColumnTransformer`` whose columns are given literally (indices, names, masks — not a callable, which may read the
  values) and whose transformers and remainder are themselves public maps, ``"passthrough"`` or ``"drop"``;
* ``"passthrough"`` / ``None`` steps, the identity ``FunctionTransformer()``, nested pipelines of public maps;
* scikit-learn's stateless per-row transformers (``Normalizer``, ``Binarizer``, … — those whose tags say
  ``requires_fit=False``; an arbitrary ``FunctionTransformer(func)`` is refused: ``func`` may mix rows, e.g. centre
  the columns).

Anything else — ``StandardScaler``, ``KBinsDiscretizer``, a ``GridDiscretizer`` asked to infer its ranges — is refused
with one line naming the step and the reason.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..errors import LittlestoneError

__all__ = ["SelectColumns", "check_public_steps"]


class SelectColumns(TransformerMixin, BaseEstimator):
    """Keep the declared ``columns`` (positions) of X: a public map (module doc), accepted before a private
    estimator in :class:`~littlestone.pac.PrivateGridSearchCV`; ``fit`` reads only the number of features."""

    def __init__(self, columns: Sequence[int] = (0,)):
        self.columns = columns

    def _cols(self) -> list[int]:
        cols = list(self.columns)
        if not cols or not all(isinstance(c, (int, np.integer)) and not isinstance(c, bool) for c in cols):
            raise LittlestoneError(f"SelectColumns needs a non-empty list of column positions, got {self.columns!r}")
        return [int(c) for c in cols]

    def fit(self, X: Any, y: Any = None) -> "SelectColumns":
        X = validate_data(self, X, reset=True, dtype=None, ensure_all_finite=False)
        cols = self._cols()
        if min(cols) < -X.shape[1] or max(cols) >= X.shape[1]:
            raise LittlestoneError(f"SelectColumns: columns {cols} are not all among X's {X.shape[1]} columns")
        self.columns_ = cols
        return self

    def transform(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "columns_")
        X = validate_data(self, X, reset=False, dtype=None, ensure_all_finite=False)
        return X[:, self.columns_]


def _refuse(name: str, step: Any, why: str) -> LittlestoneError:
    return LittlestoneError(
        f"pipeline step {name!r} ({type(step).__name__}) {why}: fitting it on the private data is a release no "
        "privacy claim covers; before a private estimator use public maps only (GridDiscretizer with declared "
        "ranges, SelectColumns or a ColumnTransformer of declared columns)"
    )


def _stateless_sklearn(step: Any) -> bool:
    """scikit-learn's own transformers that declare they learn nothing at fit (per-row maps: Normalizer, …)."""
    if not type(step).__module__.startswith("sklearn."):
        return False
    try:
        return not step.__sklearn_tags__().requires_fit
    except AttributeError:
        return False


def check_public_step(name: str, step: Any) -> None:
    """Nothing if ``step`` is a public, data-independent map (module doc); else LittlestoneError naming it."""
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import FunctionTransformer

    from .discretize import GridDiscretizer
    from .grid import check_ranges

    if step is None or (isinstance(step, str) and step in ("passthrough", "drop")):
        return
    if isinstance(step, SelectColumns):
        return
    if isinstance(step, GridDiscretizer):
        if step.ranges is None or isinstance(step.ranges, str):
            raise _refuse(name, step, f"infers its ranges from the data (ranges={step.ranges!r})")
        try:
            check_ranges(step.ranges)
        except LittlestoneError as exc:
            raise LittlestoneError(f"pipeline step {name!r} (GridDiscretizer): {exc}") from None
        return
    if isinstance(step, FunctionTransformer):
        if step.func is None and step.inverse_func is None:  # the identity
            return
        raise _refuse(name, step, "runs an arbitrary function, which may combine rows (e.g. centre the columns)")
    if isinstance(step, Pipeline):
        for sub, s in step.steps:
            check_public_step(f"{name}.{sub}", s)
        return
    if isinstance(step, ColumnTransformer):
        for sub, s, cols in step.transformers:
            if callable(cols):
                raise _refuse(f"{name}.{sub}", step, "selects its columns with a callable, which may read the values")
            check_public_step(f"{name}.{sub}", s)
        check_public_step(f"{name}.remainder", step.remainder)
        return
    if _stateless_sklearn(step):
        return
    raise _refuse(name, step, "is fitted on the data")


def check_public_steps(steps: Sequence[tuple[str, Any]]) -> None:
    """Every (name, step) of a pipeline before its private estimator must be a public map (module doc)."""
    for name, step in steps:
        check_public_step(name, step)
