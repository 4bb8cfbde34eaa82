"""A fixed grid over known feature ranges and the class of decision stumps on it, without scikit-learn (the estimator
:class:`~littlestone.pac.discretize.GridDiscretizer` wraps :func:`grid_edges` and :func:`grid_cells`). The grid is
data-independent: a grid chosen from the data would leak."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..classes.finite import FiniteClass
from ..errors import LittlestoneError


def check_ranges(ranges: Any) -> np.ndarray:
    r = np.asarray(ranges, dtype=float)
    if r.ndim != 2 or r.shape[1] != 2 or r.shape[0] < 1:
        raise LittlestoneError(f"ranges must be a list of (low, high) pairs, one per feature; got shape {r.shape}")
    if not np.all(np.isfinite(r)) or np.any(r[:, 1] <= r[:, 0]):
        raise LittlestoneError("every range needs finite low < high")
    return r


def grid_edges(ranges: Any, bins: int) -> list[np.ndarray]:
    """The inner cell edges of ``bins`` equal-width cells over each (low, high) pair of ``ranges``."""
    r = check_ranges(ranges)
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 2:
        raise LittlestoneError(f"bins must be an integer ≥ 2, got {bins!r}")
    return [np.linspace(lo, hi, int(bins) + 1)[1:-1] for lo, hi in r]


def grid_cells(X: Any, edges: Sequence[np.ndarray]) -> np.ndarray:
    """The cell index of every value of the 2-D array X, column j cut at ``edges[j]`` (values outside the range are
    clipped to the end cells), as int64."""
    X = np.asarray(X, dtype=float)
    cols = [np.searchsorted(e, X[:, j], side="right") for j, e in enumerate(edges)]
    return np.stack(cols, axis=1).astype(np.int64)


def grid_stumps(bins: int, n_features: int = 1) -> FiniteClass:
    """All decision stumps 1[x_f ≥ t] and 1[x_f < t] (t = 0..bins, either feature) on the grid {0..bins−1}^k
    (points are ints for k = 1, tuples otherwise): 2k(bins+1) − 2(k−1) distinct functions."""
    if not isinstance(bins, (int, np.integer)) or bins < 1:
        raise LittlestoneError(f"bins must be a positive integer, got {bins!r}")
    if not isinstance(n_features, (int, np.integer)) or n_features < 1:
        raise LittlestoneError(f"n_features must be a positive integer, got {n_features!r}")
    if bins**n_features > 1 << 16:
        raise LittlestoneError(f"a {bins}^{n_features} grid is too large for an explicit class (at most 65536 points)")
    grids = np.indices((bins,) * n_features).reshape(n_features, -1).T  # rows = grid points, lexicographic
    rows: list[np.ndarray] = []
    for f in range(n_features):
        for t in range(bins + 1):
            above = (grids[:, f] >= t).astype(np.uint8)
            rows.extend((above, 1 - above))
    points = None if n_features == 1 else [tuple(int(v) for v in p) for p in grids]
    name = f"stumps on {bins} cells" if n_features == 1 else f"stumps on a {'×'.join([str(bins)] * n_features)} grid"
    return FiniteClass(np.array(rows, dtype=np.uint8), points=points, name=name)
