"""Non-private Hedge (exponential weights; Littlestone–Warmuth 1994, Freund–Schapire 1997): the baseline.

p_t(i) ∝ exp(−η L_{t−1}(i)), η = √(8 ln N / T) by default; expected regret ≤ ln N/η + ηT/8 = √(T ln N / 2)
(Cesa-Bianchi–Lugosi 2006 Thm 2.2), against adaptive adversaries too.
"""

from __future__ import annotations

import math

import numpy as np

from .._random import SeedLike, as_generator
from ..errors import LittlestoneError
from .base import ExpertsLearner, Workspace, exponential_weights_chunk, hedge_regret, softmin


class Hedge(ExpertsLearner):
    """Exponential weights over N experts for a known horizon T (non-private).

    >>> import numpy as np
    >>> run = Hedge(3, 100, seed=0).run(np.tile([0.0, 1.0, 1.0], (100, 1)))
    >>> run.best_expert, run.expected_regret <= Hedge(3, 100).regret_bound()
    (0, True)
    """

    def __init__(self, n_experts: int, horizon: int, *, eta: float | None = None, seed: SeedLike = None):
        super().__init__(n_experts, horizon, seed=seed)
        if eta is None:
            eta = math.sqrt(8.0 * max(math.log(self.n_experts), 1e-12) / self.horizon)
        if isinstance(eta, bool) or not isinstance(eta, (int, float)) or not 0 < eta < math.inf:
            raise LittlestoneError(f"learning rate eta must be a positive number, got {eta!r}")
        self.eta = float(eta)
        self._rng = as_generator(seed)
        self._cumulative = np.zeros(self.n_experts)
        self._ws = Workspace()

    @property
    def cumulative(self) -> np.ndarray:
        """The exact cumulative losses L_t (a non-private learner shows them)."""
        return self._cumulative

    def _distribution(self) -> np.ndarray:
        return softmin(self._cumulative, self.eta)

    def _update(self, loss: np.ndarray) -> None:
        self._cumulative += loss

    def regret_bound(self) -> float:
        """ln N/η + ηT/8."""
        return hedge_regret(self.n_experts, self.horizon, self.eta)

    def _run_chunk(self, chunk: np.ndarray) -> tuple[np.ndarray, float, float]:
        return exponential_weights_chunk(self, chunk)
