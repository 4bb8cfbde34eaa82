"""Data-independent featurization for private learning: a fixed grid over known feature ranges, and the class of
decision stumps on it (a grid chosen from the data would leak; this one is fixed before seeing it)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..errors import LittlestoneError
from .grid import check_ranges, grid_cells, grid_edges, grid_stumps

__all__ = ["GridDiscretizer", "grid_stumps"]


class GridDiscretizer(TransformerMixin, BaseEstimator):
    """Map feature j to one of ``bins`` equal-width cells of the fixed range ``ranges[j]`` (values outside are
    clipped to the end cells). ``fit`` reads nothing but the number of features, so the map is data-independent."""

    def __init__(self, ranges: Sequence[tuple[float, float]] = ((0.0, 1.0),), bins: int = 16):
        self.ranges = ranges
        self.bins = bins

    def fit(self, X: Any, y: Any = None) -> "GridDiscretizer":
        X = validate_data(self, X, reset=True)
        r = check_ranges(self.ranges)
        if r.shape[0] != X.shape[1]:
            raise LittlestoneError(f"{r.shape[0]} ranges given for {X.shape[1]} features")
        self.edges_ = grid_edges(r, self.bins)
        return self

    def transform(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "edges_")
        X = validate_data(self, X, reset=False)
        return grid_cells(X, self.edges_)
