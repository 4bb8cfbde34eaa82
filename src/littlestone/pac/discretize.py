"""Data-independent featurization for private learning: a fixed grid over known feature ranges, and the class of
decision stumps on it (a grid chosen from the data would leak; this one is fixed before seeing it)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..classes.finite import FiniteClass
from ..errors import LittlestoneError


def _check_ranges(ranges: Any) -> np.ndarray:
    r = np.asarray(ranges, dtype=float)
    if r.ndim != 2 or r.shape[1] != 2 or r.shape[0] < 1:
        raise LittlestoneError(f"ranges must be a list of (low, high) pairs, one per feature; got shape {r.shape}")
    if not np.all(np.isfinite(r)) or np.any(r[:, 1] <= r[:, 0]):
        raise LittlestoneError("every range needs finite low < high")
    return r


class GridDiscretizer(TransformerMixin, BaseEstimator):
    """Map feature j to one of ``bins`` equal-width cells of the fixed range ``ranges[j]`` (values outside are
    clipped to the end cells). ``fit`` reads nothing but the number of features, so the map is data-independent."""

    def __init__(self, ranges: Sequence[tuple[float, float]] = ((0.0, 1.0),), bins: int = 16):
        self.ranges = ranges
        self.bins = bins

    def fit(self, X: Any, y: Any = None) -> "GridDiscretizer":
        X = validate_data(self, X, reset=True)
        r = _check_ranges(self.ranges)
        if r.shape[0] != X.shape[1]:
            raise LittlestoneError(f"{r.shape[0]} ranges given for {X.shape[1]} features")
        if not isinstance(self.bins, (int, np.integer)) or self.bins < 2:
            raise LittlestoneError(f"bins must be an integer ≥ 2, got {self.bins!r}")
        self.edges_ = [np.linspace(lo, hi, int(self.bins) + 1)[1:-1] for lo, hi in r]
        return self

    def transform(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "edges_")
        X = validate_data(self, X, reset=False)
        cols = [np.searchsorted(e, X[:, j], side="right") for j, e in enumerate(self.edges_)]
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
