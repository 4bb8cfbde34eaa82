"""Which preprocessing steps may run before a private estimator inside a private search (issue 32): public maps only.

A step of a :class:`sklearn.pipeline.Pipeline` is fitted on the data it is given. When that data is private, what the
step learns (a mean, a scale, bin edges from quantiles, …) is a function of the private records, and it shapes the
model the search releases: a release no privacy claim covers. A private search therefore accepts only steps whose fit
learns nothing from the values and whose transform maps each row on its own (a per-record map fixed before seeing the
data: a record then changes its own transformed row and nothing else, so the private estimator's claim on the
transformed rows is its claim on the raw rows):

* :class:`~littlestone.pac.GridDiscretizer` with declared ``ranges`` (its fit reads only the number of features);
* a declared column selection: :func:`select_columns` (a ``FunctionTransformer`` taking fixed columns), or a
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

from ..errors import LittlestoneError

__all__ = ["check_public_steps", "select_columns"]


def _take_columns(X: Any, columns: Sequence[int]) -> Any:
    """The declared columns of X (rows kept as they are)."""
    if hasattr(X, "iloc"):  # a DataFrame: by position
        return X.iloc[:, list(columns)]
    return np.asarray(X)[:, list(columns)]


def select_columns(columns: Sequence[int]) -> Any:
    """A transformer keeping the declared ``columns`` (positions) of X: a public map (module doc), accepted before a
    private estimator in :class:`~littlestone.pac.PrivateGridSearchCV`."""
    from sklearn.preprocessing import FunctionTransformer

    cols = tuple(int(c) for c in columns)
    if not cols:
        raise LittlestoneError("select_columns needs at least one column")
    return FunctionTransformer(_take_columns, kw_args={"columns": cols})


def _refuse(name: str, step: Any, why: str) -> LittlestoneError:
    return LittlestoneError(
        f"pipeline step {name!r} ({type(step).__name__}) {why}: fitting it on the private data is a release no "
        "privacy claim covers; before a private estimator use public maps only (GridDiscretizer with declared "
        "ranges, select_columns or a ColumnTransformer of declared columns)"
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
        if step.func is _take_columns and step.inverse_func is None:
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
