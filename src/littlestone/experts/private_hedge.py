"""Private OPE against adaptive adversaries at the rate of LWY25 Thm E.11: exponential weights with a learning rate
set by the privacy budget ((ε, δ)-DP, regret O(√(T ln(1/δ)) ln N/ε)).

LWY25 Thm E.11 quotes Jain–Thakurta 2014 (JT14, ICML, "(Near) dimension independent risk bounds for differentially
private learning"): for N experts there is an (ε, δ)-DP algorithm with expected regret O(√(T log(1/δ)) log N/ε)
against adaptive adversaries. JT14's text was not available to us; the rate is the one of the exponential-weights
(randomized weighted majority) forecaster run with a privacy-calibrated rate, the analysis in Dwork–Roth 2014 §11.2
(DR14), which this module implements with every constant explicit:

* round t draws i_t with P(i) ∝ exp(−η L_{t−1}(i)), L_{t−1} the exact cumulative losses — the exponential mechanism
  with utility −L_{t−1}(i); replacing one round's loss vector ℓ_s ∈ [0,1]^N moves every L_{t−1}(i) by ≤ 1, so each
  draw is (2η, 0)-DP, and only the T − 1 draws of rounds 2..T read any loss;
* the T − 1 draws compose adaptively (the adversary may pick ℓ_t after seeing i_1..i_{t−1}; composition holds for
  adaptively chosen mechanisms, DR14 Thm 3.20) to (min(2η(T−1), 2η√(2(T−1) ln(1/δ)) + 2η(T−1)(e^{2η} − 1)), δ);
* regret: Σ_t ⟨p_t, ℓ_t⟩ − min_i L_T(i) ≤ ln N/η + ηT/8 for every loss sequence (Cesa-Bianchi–Lugosi 2006 Thm 2.2),
  hence E[regret] ≤ ln N/η + ηT/8 against adaptive adversaries too (CBL06 Lemma 4.1).

``eta="theory"`` is the largest η whose claim is ≤ (ε, δ) (per-step ε₀ = 2η from
:func:`littlestone.privacy.per_step_epsilon`), capped at Hedge's own optimum √(8 ln N/T); for small ε,
η ≈ ε/√(8 (T−1) ln(1/δ)) and the bound is ≈ √(8 T ln(1/δ)) ln N/ε + ε√T/(8√(8 ln(1/δ))). δ = 0 gives basic
composition, η = ε/(2(T−1)). Derivation: docs/derivations.md "Private prediction from experts".

On the secure backend every draw is OpenDP's exact report-noisy-max with Gumbel noise of scale 1/η (which samples
P(i) ∝ e^{−ηL(i)}), never seeded; on the seeded backend the draws are vectorized inverse-CDF samples (experiments).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator, spawn_seeds
from ..errors import LittlestoneError
from ..privacy import advanced_composition, check_delta, check_epsilon, per_step_epsilon
from .base import (
    RELATION,
    ExpertsLearner,
    PrivacyClaim,
    Workspace,
    exponential_weights_chunk,
    hedge_regret,
    softmin,
)
from .tree_hedge import resolve_backend


def private_hedge_privacy(eta: float, T: int, delta: float) -> tuple[float, float]:
    """(ε, δ) spent by T rounds of exponential weights at rate η: T − 1 data-dependent (2η, 0)-DP draws, basic or
    advanced composition (slack δ), whichever is smaller."""
    k = T - 1
    if k <= 0:
        return 0.0, 0.0
    basic = 2.0 * eta * k
    if delta > 0:
        adv = advanced_composition(2.0 * eta, 0.0, k, delta)[0]
        if adv < basic:
            return adv, delta
    return basic, 0.0


def private_hedge_eta(n: int, T: int, epsilon: float, delta: float) -> float:
    """The theory rate: the largest η with :func:`private_hedge_privacy` ≤ (ε, δ), capped at √(8 ln N/T)."""
    cap = math.sqrt(8.0 * max(math.log(n), 1e-12) / T)
    if T <= 1:
        return cap
    eps0 = per_step_epsilon(epsilon, T - 1, delta) if delta > 0 else epsilon / (T - 1)
    return min(eps0 / 2.0, cap)


def private_hedge_bound(n: int, T: int, epsilon: float, delta: float, eta: float | None = None) -> float:
    """ln N/η + ηT/8 at the theory rate (or at ``eta``)."""
    if eta is None:
        eta = private_hedge_eta(n, T, epsilon, delta)
    return hedge_regret(n, T, eta)


class PrivateHedge(ExpertsLearner):
    """(ε, δ)-DP online prediction from N experts against adaptive adversaries (LWY25 Thm E.11's rate; see the module
    docstring for the algorithm, the claim and the bound).

    >>> import numpy as np
    >>> ph = PrivateHedge(3, 1000, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
    >>> run = ph.run(np.tile([0.0, 1.0, 1.0], (1000, 1)))
    >>> run.expected_regret <= ph.regret_bound(), ph.privacy().epsilon <= 1.0
    (True, True)
    """

    private = True

    def __init__(
        self,
        n_experts: int,
        horizon: int,
        epsilon: float,
        delta: float = 0.0,
        *,
        eta: Any = "theory",
        backend: Any = "secure",
        seed: SeedLike = None,
    ):
        super().__init__(n_experts, horizon, seed=seed)
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta)
        theory = private_hedge_eta(self.n_experts, self.horizon, self.epsilon, self.delta)
        if eta == "theory":
            eta = theory
        if isinstance(eta, bool) or not isinstance(eta, (int, float)) or not 0 < eta < math.inf:
            raise LittlestoneError(f"learning rate eta must be a positive number or 'theory', got {eta!r}")
        spent = private_hedge_privacy(float(eta), self.horizon, self.delta)
        if spent[0] > self.epsilon * (1 + 1e-9):
            raise LittlestoneError(
                f"eta={eta!r} would spend ε = {spent[0]:.4g} > epsilon={self.epsilon} over "
                f"T={self.horizon} rounds; the largest rate within the budget is {theory:.4g}"
            )
        self.eta = float(eta)
        s_sample, s_noise = spawn_seeds(seed, 2)
        self._rng = as_generator(s_sample)
        self.backend = resolve_backend(backend, s_noise)
        self.cumulative = np.zeros(self.n_experts)
        self._ws = Workspace()

    def privacy(self) -> PrivacyClaim:
        """T − 1 exponential-mechanism draws of (2η, 0) each, composed (basic or advanced, whichever is smaller)."""
        eps, dlt = private_hedge_privacy(self.eta, self.horizon, self.delta)
        return PrivacyClaim(eps, dlt, RELATION)

    def regret_bound(self) -> float:
        """ln N/η + ηT/8 (expected regret, adaptive adversaries)."""
        return hedge_regret(self.n_experts, self.horizon, self.eta)

    def distribution(self) -> np.ndarray:
        return softmin(self.cumulative, self.eta)

    def _sample(self, p: np.ndarray) -> int:
        if self.backend.floating_point_safe:
            return self.backend.noisy_argmax(-self.cumulative, 1.0 / self.eta, "gumbel")
        return super()._sample(p)

    def _update(self, loss: np.ndarray) -> None:
        self.cumulative = self.cumulative + loss

    def _run_chunk(self, chunk: np.ndarray) -> tuple[np.ndarray, float, float]:
        if self.backend.floating_point_safe:
            return super()._run_chunk(chunk)  # one OpenDP draw per round
        return exponential_weights_chunk(self, chunk)
