"""What a sanitizer releasing a synthetic histogram over a finite domain offers (MWEM, the sequential-fooling
sanitizer): Est(q) = q(Ā) for every query, evaluation of the error on data, synthetic datasets (post-processing).
Subclasses set ``family`` and, in ``fit``, ``synthetic_histogram_`` (a distribution) and ``_post_seed``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._random import SeedLike, as_generator
from ..errors import LittlestoneError


class HistogramRelease:
    family: Any

    def _check_fitted(self) -> None:
        if not hasattr(self, "synthetic_histogram_"):
            raise LittlestoneError("call fit(X) first")

    def estimates(self) -> np.ndarray:
        """Est(q_j) = q_j(Ā) ∈ [0, 1] for every query j of the family."""
        self._check_fitted()
        return self.family.answers(self.synthetic_histogram_)

    def estimate(self, j: int) -> float:
        """Est of query j (the index in the family)."""
        return float(self.estimates()[j])

    def max_error(self, X: Any) -> float:
        """max_q |Est(q) − P̂_X(q)| on data X (evaluation only: reads the data without privacy)."""
        hist = self.family.histogram(X)
        return float(np.max(np.abs(self.estimates() - self.family.answers(hist) / hist.sum())))

    def synthetic(self, size: int, seed: SeedLike = None) -> list:
        """A synthetic dataset of ``size`` points by systematic sampling from Ā (post-processing): one uniform offset,
        points at the quantiles (i + u)/size of Ā's CDF in domain order — within 1/size of Ā on every threshold."""
        self._check_fitted()
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
            raise LittlestoneError(f"synthetic dataset size must be an integer >= 1, got {size!r}")
        rng = as_generator(self._post_seed if seed is None else seed)
        cdf = np.cumsum(self.synthetic_histogram_)
        q = (np.arange(size) + rng.random()) / size * cdf[-1]
        idx = np.minimum(np.searchsorted(cdf, q, side="right"), self.family.domain_size - 1)
        return [self.family.point(int(i)) for i in idx]
