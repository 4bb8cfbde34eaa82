"""Exponential mechanism and report-noisy-max over a finite candidate list (scores: higher is better).

Neighbouring relation: replace-one; ``sensitivity`` Δ bounds |score_i(D) - score_i(D')| for every candidate
(for the generic learner the score is minus the number of errors on the sample, Δ = 1).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .backends import Backend, _check_scores, check_backend
from .budget import PrivacyBudget
from .mechanism import Mechanism, PrivacyClaim
from .params import check_epsilon, check_positive_int, check_probability, check_sensitivity


class ExponentialMechanism(Mechanism):
    """ε-DP index i with P(i) ∝ exp(ε·score_i/(2Δ)) (McSherry–Talwar 2007; Dwork–Roth Thm 3.10); ``data`` are the
    scores. Sampled as argmax(score_i + Gumbel(2Δ/ε)) — the Gumbel-max trick gives exactly this distribution; on the
    SecureBackend the argmax is OpenDP's exact ``make_noisy_max`` with Gumbel noise."""

    name = "exponential mechanism"
    #: the noise added to the scores before the argmax
    noise = "gumbel"

    def __init__(self, epsilon: float, sensitivity: float = 1.0):
        self.epsilon = check_epsilon(epsilon)
        self.sensitivity = check_sensitivity(sensitivity)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", self.name)

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> int:
        backend = check_backend(backend)
        arr = _check_scores(data)
        self.charge_to(budget)
        return backend.noisy_argmax(arr, 2.0 * self.sensitivity / self.epsilon, self.noise)


class ReportNoisyMax(ExponentialMechanism):
    """ε-DP index argmax(score_i + Exponential(2Δ/ε)) — report-noisy-max with exponential noise, identical in law
    to permute-and-flip (McKenna–Sheldon 2020; Ding et al. 2021); never worse than the exponential mechanism in
    expected score. On the SecureBackend this is OpenDP's ``make_noisy_max`` (MaxDivergence)."""

    name = "report noisy max"
    noise = "exponential"


def exponential_mechanism(
    scores: Any,
    epsilon: float,
    *,
    sensitivity: float = 1.0,
    backend: Backend,
    budget: PrivacyBudget | None = None,
) -> int:
    """ε-DP index i with P(i) ∝ exp(ε·score_i/(2Δ)) (:class:`ExponentialMechanism`). Charges (ε, 0)."""
    return ExponentialMechanism(epsilon, sensitivity)(scores, backend=backend, budget=budget)


def report_noisy_max(
    scores: Any,
    epsilon: float,
    *,
    sensitivity: float = 1.0,
    backend: Backend,
    budget: PrivacyBudget | None = None,
) -> int:
    """ε-DP index argmax(score_i + Exponential(2Δ/ε)) (:class:`ReportNoisyMax`). Charges (ε, 0)."""
    return ReportNoisyMax(epsilon, sensitivity)(scores, backend=backend, budget=budget)


def exponential_probabilities(scores: Any, epsilon: float, *, sensitivity: float = 1.0) -> np.ndarray:
    """The exact output distribution of :func:`exponential_mechanism` (for tests and analysis)."""
    arr = _check_scores(scores)
    logits = check_epsilon(epsilon) * arr / (2.0 * check_sensitivity(sensitivity))
    w = np.exp(logits - logits.max())
    return w / w.sum()


def selection_error_bound(n_candidates: int, epsilon: float, beta: float, *, sensitivity: float = 1.0) -> float:
    """With probability ≥ 1-β the selected score is ≥ OPT - 2Δ(ln|R| + ln(1/β))/ε (Dwork–Roth Thm 3.11);
    holds for both mechanisms of this module."""
    eps = check_epsilon(epsilon)
    n_candidates = check_positive_int(n_candidates, "number of candidates")
    return (
        2.0 * check_sensitivity(sensitivity) * (math.log(n_candidates) + math.log(1.0 / check_probability(beta))) / eps
    )
