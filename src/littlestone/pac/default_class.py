"""The data-independent default class of the private estimators that need a Littlestone class (BLM20, PolyPriLearn,
PolyPriPropLearn, the agnostic proper learner): decision stumps on a fixed public grid.

Each of the k features is cut into ``default_bins(k)`` equal-width cells of the public range [−3, 3] (values outside
are clipped to the end cells) and a row becomes its cell tuple; the class is :func:`~littlestone.pac.grid.grid_stumps`
on that grid, an explicit finite class with version spaces, SOA and Ldim (≤ 5 for every k). The grid depends only on
k = ``n_features_in_``, which sklearn's fitted model makes public anyway — never on the values in the data."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..classes.finite import FiniteClass
from ..errors import ClassSpecError, DomainError
from .grid import grid_cells, grid_edges, grid_stumps

#: the public feature scale the default grid covers (features are assumed to lie on it; values outside are clipped)
DEFAULT_SCALE = (-3.0, 3.0)
#: cells per feature at most, grid points at most (bins^k) and features at most, so the class stays small: Ldim ≤ 5
#: and the SOA of the whole class (PolyPriLearn's ⊥ output) under a second
MAX_BINS = 8
MAX_GRID_POINTS = 256
MAX_FEATURES = 8


def default_bins(n_features: int) -> int:
    """Cells per feature of the default grid: the largest b ≤ 8 with b^k ≤ 256 (8, 8, 6, 4, 3 cells for k = 1 … 5,
    2 for k = 6 … 8; more features are refused)."""
    if n_features > MAX_FEATURES:
        raise ClassSpecError(
            f"the default class (stumps on a public grid) covers at most {MAX_FEATURES} features, got {n_features}: "
            "pass hypothesis_class (e.g. grid_stumps(bins, k) after a GridDiscretizer with public ranges)"
        )
    b = MAX_BINS
    while b**n_features > MAX_GRID_POINTS:
        b -= 1
    return b


def default_grid(n_features: int) -> tuple[list[np.ndarray], FiniteClass]:
    """The inner cell edges of every feature and the class of stumps on the cell grid (data-independent)."""
    bins = default_bins(n_features)
    edges = grid_edges([DEFAULT_SCALE] * n_features, bins)
    return edges, _stumps(bins, n_features)


@lru_cache(maxsize=MAX_FEATURES)
def _stumps(bins: int, n_features: int) -> FiniteClass:
    """One class object per grid, so its Ldim and SOA caches serve every fit."""
    return grid_stumps(bins, n_features)


def to_grid_points(X: np.ndarray, edges: list[np.ndarray]) -> Any:
    """Rows of X as points of the default class: cell indices (ints for one feature, tuples otherwise)."""
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        raise DomainError("the default class (stumps on a public grid) needs numeric features") from None
    cells = grid_cells(X, edges)
    if cells.shape[1] == 1:
        return cells[:, 0]
    return [tuple(int(v) for v in row) for row in cells]


def default_class_warning(estimator: str, n_features: int) -> str:
    """The text of the DefaultCandidatesWarning a fit with the default class emits (the same for every input)."""
    bins = default_bins(n_features)
    lo, hi = DEFAULT_SCALE
    return (
        f"{estimator} without hypothesis_class uses decision stumps on a fixed public grid: each of the "
        f"{n_features} feature(s) is cut into {bins} equal cells of [{lo:g}, {hi:g}] (values outside are clipped to "
        "the end cells). The grid is fixed before seeing the data (only the number of features, public in the "
        "model, sets it): features are assumed to be on that public scale — clip or scale them by public bounds "
        "(e.g. GridDiscretizer with known ranges and grid_stumps), or pass hypothesis_class for other domains"
    )
