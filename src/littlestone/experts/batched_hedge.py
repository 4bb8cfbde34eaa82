"""Private OPE against oblivious adversaries: batched private Hedge (our stand-in for LWY25 Thm E.12).

LWY25 Thm E.12 quotes AKLT24 (Asi–Koren–Liu–Talwar, NeurIPS 2024, the L2P transformation of lazy algorithms):
regret O(√(T log N) + T^{1/3} log N log(T/δ)/ε^{2/3}). L2P's pseudo-code was not available to us, so it is not
implemented; this learner has its own proven bound (below), of order √T·(ln N)^{3/4}(ln(1/δ))^{1/4}/√ε at the
theory batch — better than E.11's rate for ε ≲ 1, worse than E.12's.

The horizon is cut into K = ⌈T/B⌉ batches; at the start of batch k the learner draws one expert with
P(i) ∝ exp(−η L(i)), L the exact cumulative losses so far, and follows it for the whole batch. Each draw is the
exponential mechanism with score −L(i) (sensitivity 1 when one round's loss vector in [0,1]^N is replaced), i.e.
(2η, 0)-DP; the K draws compose to min(2ηK, advanced composition of K (2η, 0) steps with slack δ) (Dwork–Roth
Thm 3.20). Given a target (ε, δ), η = ε₀/2 with ε₀ = :func:`littlestone.privacy.per_step_epsilon` (ε, K, δ).

Regret: Hedge on the K batch losses (each in [0, B]) gives E[regret] ≤ ln N/η + ηKB²/8 ≤ ln N/η + η(T+B)B/8
(Cesa-Bianchi–Lugosi Thm 2.2 rescaled). The draws are sampled through the backend (OpenDP's exact noisy-max on the
secure backend); against an *adaptive* adversary the privacy claim stands, the regret bound is for oblivious ones
(the setting of LWY25 Thm E.12). ``batch="theory"`` picks the B minimizing the bound.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator, spawn_seeds
from ..errors import LittlestoneError
from ..privacy import check_delta, check_epsilon, per_step_epsilon
from .base import ExpertsLearner, PrivacyClaim, softmin
from .private_hedge import private_hedge_claim, private_hedge_step
from .tree_hedge import resolve_backend


def _eta_for(epsilon: float, delta: float, K: int) -> float:
    return (per_step_epsilon(epsilon, K, delta) if delta > 0 else epsilon / K) / 2.0


def batched_hedge_bound(n: int, T: int, B: int, epsilon: float, delta: float) -> float:
    """ln N/η + ηKB²/8 with K = ⌈T/B⌉ and the η the (ε, δ) budget allows."""
    K = -(-T // B)
    eta = _eta_for(epsilon, delta, K)
    return math.log(n) / eta + eta * K * B * B / 8.0


def theory_batch(n: int, T: int, epsilon: float, delta: float) -> int:
    """The batch size B ∈ [1, T] minimizing :func:`batched_hedge_bound` (geometric scan, then a local refinement)."""
    cands = sorted({max(1, min(T, int(round(1.15**k)))) for k in range(int(math.log(T) / math.log(1.15)) + 2)})
    best = min(cands, key=lambda b: batched_hedge_bound(n, T, b, epsilon, delta))
    lo, hi = max(1, int(best / 1.2)), min(T, int(best * 1.2) + 1)
    step = max(1, (hi - lo) // 64)
    return min(range(lo, hi + 1, step), key=lambda b: batched_hedge_bound(n, T, b, epsilon, delta))


class BatchedPrivateHedge(ExpertsLearner):
    """(ε, δ)-DP online prediction from N experts, oblivious adversaries (see module docstring)."""

    private = True

    def __init__(
        self,
        n_experts: int,
        horizon: int,
        epsilon: float,
        delta: float = 0.0,
        *,
        batch: Any = "theory",
        backend: Any = "secure",
        seed: SeedLike = None,
        diagnostics: bool = False,
        accountant: Any = None,
    ):
        super().__init__(n_experts, horizon, seed=seed, diagnostics=diagnostics)
        self.accountant = accountant  # charged privacy() at the first learn_one / run
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta)
        if batch == "theory":
            batch = theory_batch(self.n_experts, self.horizon, self.epsilon, self.delta)
        if isinstance(batch, bool) or not isinstance(batch, (int, np.integer)) or not 1 <= batch <= self.horizon:
            raise LittlestoneError(f"batch size must be an integer in [1, T={self.horizon}] or 'theory', got {batch!r}")
        self.batch = int(batch)
        self.n_batches = -(-self.horizon // self.batch)
        self.eta = _eta_for(self.epsilon, self.delta, self.n_batches)
        #: the one mechanism every batch runs once (the exponential mechanism at 2η; privacy() = K runs of it)
        self.step = private_hedge_step(self.eta)
        s_sample, s_noise = spawn_seeds(seed, 2)
        self._rng = as_generator(s_sample)
        self.backend = resolve_backend(backend, s_noise)
        self._cumulative = np.zeros(self.n_experts)
        self._current: int | None = None
        self._p: np.ndarray | None = None
        self._drawn_for = -1

    def privacy(self) -> PrivacyClaim:
        """K runs of :attr:`step`, one per batch (the first reads L = 0 but is counted, as η was tuned for K): basic
        or advanced composition, whichever is smaller."""
        return private_hedge_claim(self.step, self.n_batches, self.delta)

    def regret_bound(self) -> float:
        return batched_hedge_bound(self.n_experts, self.horizon, self.batch, self.epsilon, self.delta)

    def _draw(self) -> None:
        """The batch's draw, once, at its first round: one run of :attr:`step` on the scores −L (P(i) ∝ e^{−ηL(i)})."""
        b = self.t // self.batch
        if self._drawn_for != b:
            if self.t >= self.horizon:  # a draw past the horizon would be a run the claim does not count
                raise LittlestoneError(f"the horizon T={self.horizon} is exhausted: no batch is left to draw for")
            self._p = softmin(self._cumulative, 1.0 / self.step.scale)  # evaluation only (expected loss)
            self._current = int(self.step(-self._cumulative, backend=self.backend))
            self._drawn_for = b

    def _distribution(self) -> np.ndarray:
        """The softmin the batch's draw followed (internal: a function of the exact losses)."""
        self._draw()
        assert self._p is not None
        return self._p

    def distribution(self) -> np.ndarray:
        """What the learner plays this round: the point mass on the expert drawn for the current batch (a mechanism
        output). The softmin it was drawn from is a function of the exact losses: ``diagnostics=True`` only, via
        :meth:`draw_distribution`."""
        self._draw()
        assert self._current is not None
        out = np.zeros(self.n_experts)
        out[self._current] = 1.0
        return out

    def _released_distribution(self) -> np.ndarray | None:
        """The point mass on the expert drawn for the latest batch drawn so far (a mechanism output; None before the
        first draw). Never draws: a release does not run the mechanism."""
        if self._current is None:
            return None
        out = np.zeros(self.n_experts)
        out[self._current] = 1.0
        return out

    def draw_distribution(self) -> np.ndarray:
        """Diagnostic: the softmin of the exact losses the current batch's expert was drawn from."""
        self._diagnostic("draw_distribution()")
        return self._distribution()

    def predict_one(self) -> int:
        if self.t >= self.horizon:
            raise LittlestoneError(f"the horizon T={self.horizon} is exhausted")
        self._draw()
        assert self._current is not None
        return self._current

    def _update(self, loss: np.ndarray) -> None:
        self._draw()
        self._cumulative += loss

    def _run_chunk(self, chunk: np.ndarray) -> tuple[np.ndarray, float, float]:
        k = chunk.shape[0]
        out = np.empty(k, dtype=np.int64)
        realized = expected = 0.0
        pos = 0
        while pos < k:
            i = self.predict_one()
            p = self._p
            assert p is not None
            end = min(k, pos + self.batch - self.t % self.batch)
            block_sum = chunk[pos:end].sum(axis=0)
            out[pos:end] = i
            realized += float(block_sum[i])
            expected += float(p @ block_sum)
            self._cumulative += block_sum
            self.t += end - pos
            pos = end
        self._choice = None
        return out, realized, expected
