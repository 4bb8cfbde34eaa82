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
Every draw is a run of one mechanism object, :attr:`PrivateHedge.step` (``ExponentialMechanism(2η, 1)``), and
``privacy()`` is T − 1 runs of it composed; ``distribution()`` (the softmin of the exact losses) is a diagnostic.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator, spawn_seeds
from ..errors import LittlestoneError
from ..privacy import ExponentialMechanism, check_delta, check_epsilon, compose_repeated, per_step_epsilon
from .base import (
    RELATION,
    ExpertsLearner,
    PrivacyClaim,
    Workspace,
    expected_losses,
    hedge_regret,
    prefix_rows,
    softmin,
)
from .tree_hedge import resolve_backend


def private_hedge_step(eta: float) -> ExponentialMechanism:
    """The mechanism one round runs: the exponential mechanism with score −L_{t−1}(i), sensitivity 1 (one round's
    loss vector in [0,1]^N replaced), at ε₀ = 2η — P(i) ∝ exp(ε₀·score/2) = exp(−η L(i))."""
    return ExponentialMechanism(2.0 * eta, 1.0)


def private_hedge_claim(step: ExponentialMechanism, runs: int, delta: float) -> PrivacyClaim:
    """The claim of ``runs`` data-reading runs of ``step`` composed adaptively (DR14 Thm 3.20 holds for adaptively
    chosen mechanisms) — basic, or advanced with slack δ, whichever is smaller; neighbours: one round replaced."""
    how = "best" if delta > 0 else "basic"
    claim = compose_repeated(step, max(runs, 0), how, delta if delta > 0 else None, what="private Hedge")
    return dataclasses.replace(claim, relation=RELATION)


def private_hedge_privacy(eta: float, T: int, delta: float) -> tuple[float, float]:
    """(ε, δ) spent by T rounds of exponential weights at rate η: the T − 1 draws of rounds 2..T read losses (round
    1's reads L_0 = 0), :func:`private_hedge_claim` of its step."""
    return private_hedge_claim(private_hedge_step(eta), T - 1, delta).pair


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
        diagnostics: bool = False,
        accountant: Any = None,
    ):
        super().__init__(n_experts, horizon, seed=seed, diagnostics=diagnostics)
        self.accountant = accountant  # charged privacy() at the first learn_one / run
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
        #: the one mechanism every round runs (its claim, times T − 1, is privacy())
        self.step = private_hedge_step(self.eta)
        s_sample, s_noise = spawn_seeds(seed, 2)
        self._rng = as_generator(s_sample)
        self.backend = resolve_backend(backend, s_noise)
        self._cumulative = np.zeros(self.n_experts)
        self._ws = Workspace()

    def privacy(self) -> PrivacyClaim:
        """T − 1 data-reading runs of :attr:`step` (the exponential mechanism at 2η), composed (basic or advanced,
        whichever is smaller)."""
        return private_hedge_claim(self.step, self.horizon - 1, self.delta)

    def regret_bound(self) -> float:
        """ln N/η + ηT/8 (expected regret, adaptive adversaries)."""
        return hedge_regret(self.n_experts, self.horizon, self.eta)

    def _distribution(self) -> np.ndarray:
        return softmin(self._cumulative, 1.0 / self.step.scale)

    def distribution(self) -> np.ndarray:
        """p_t ∝ exp(−η L_{t−1}): a function of the exact losses (the learner releases only the expert drawn from
        it), so a diagnostic — LittlestoneError unless built with ``diagnostics=True``."""
        self._diagnostic("distribution()")
        return self._distribution()

    def _sample(self, p: np.ndarray) -> int:
        return int(self.step.sample_rows(-self._cumulative[None, :], backend=self.backend)[0])

    def _update(self, loss: np.ndarray) -> None:
        self._cumulative = self._cumulative + loss

    def _run_chunk(self, chunk: np.ndarray) -> tuple[np.ndarray, float, float]:
        """k rounds at once: the scores −L_{t−1} of every round of the chunk (prefix sums), one run of :attr:`step`
        per row (vectorized on the seeded backend, one OpenDP draw per row on the secure one)."""
        k, n = chunk.shape
        ws = self._ws
        scores = prefix_rows(chunk, self._cumulative, out=ws.get("L", (k, n), np.float64))
        last = scores[-1].copy()
        scores -= chunk  # L_{t-1} for every round of the chunk
        np.negative(scores, out=scores)
        P = ws.get("P", (k, n), np.float32)
        choices = self.step.sample_rows(scores, backend=self.backend, probabilities=P)
        expected = expected_losses(P, chunk, ws.get("S", (k, n), np.float32))
        realized = float(chunk[np.arange(k), choices].sum())
        self._cumulative = last
        self.t += k
        self._choice = None
        return choices, realized, expected
