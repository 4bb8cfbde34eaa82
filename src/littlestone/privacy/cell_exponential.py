"""The exponential mechanism over a huge candidate set given as cells of equal score (the domain of Points(2⁶⁰), the
64-bit integers, the gaps between sorted data values), without enumerating the candidates.

Candidates are partitioned into cells C_1 … C_k; every candidate of C_j has score s_j (sensitivity Δ under
replace-one, per candidate). The exponential mechanism (MT07; DR14 Thm 3.10) draws a candidate with
P(x) ∝ exp(ε·s(x)/(2Δ)); the cell of that candidate then has P(C_j) ∝ |C_j|·exp(ε·s_j/(2Δ)) and, given its cell, the
candidate is uniform in it. :class:`CellExponentialMechanism` releases the cell index — argmax_j (s_j + (2Δ/ε)ln|C_j|
+ Gumbel(2Δ/ε)), the Gumbel-max draw of exactly that law — and the caller draws the candidate uniformly in the cell
(post-processing, data-independent randomness). Only the candidates' scores matter for the claim, so the partition
may depend on the data (cells are a bookkeeping of the same mechanism over all candidates): (ε, 0)-DP.

Floating point: ln|C_j| enters the scores as a float (a relative error ≤ 2⁻⁵² in the cell weight); on the secure
backend the Gumbel-max draw itself is OpenDP's exact ``make_noisy_max``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import DomainError
from .backends import check_backend
from .budget import PrivacyBudget
from .exponential import ExponentialMechanism


class CellExponentialMechanism(ExponentialMechanism):
    """ε-DP exponential mechanism over the candidates of cells (``data`` = (sizes, scores), one entry per cell,
    sizes ≥ 1 as Python ints — up to 2⁶⁴ and beyond); returns the index of the cell holding the drawn candidate."""

    name = "exponential mechanism (cells)"

    def cell_scores(self, sizes: Any, scores: Any) -> np.ndarray:
        """s_j + (2Δ/ε)·ln|C_j|: the Gumbel-max scores whose argmax has P(j) ∝ |C_j|·exp(ε s_j/(2Δ))."""
        n = [int(s) for s in sizes]
        s = np.asarray(scores, dtype=float).ravel()
        if len(n) != s.size or not n:
            raise DomainError(
                f"{self.name}: one size per cell and at least one cell, got {len(n)} sizes, {s.size} scores"
            )
        if min(n) < 1:
            raise DomainError(f"{self.name}: every cell needs at least one candidate")
        if not np.isfinite(s).all():
            raise DomainError(f"{self.name}: scores must be finite")
        return s + self.scale * np.array([math.log(v) for v in n])

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> int:
        backend = check_backend(backend)
        sizes, scores = data
        arr = self.cell_scores(sizes, scores)
        self.charge_to(budget)
        if arr.size == 1:
            return 0
        return backend.noisy_argmax(arr, self.scale, self.noise)

    def probabilities(self, sizes: Any, scores: Any) -> np.ndarray:
        """The exact law of the released cell (for tests and analysis)."""
        logits = self.cell_scores(sizes, scores) / self.scale
        w = np.exp(logits - logits.max())
        return w / w.sum()


__all__ = ["CellExponentialMechanism"]
