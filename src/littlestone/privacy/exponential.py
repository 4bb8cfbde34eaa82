"""Exponential mechanism and report-noisy-max over a finite candidate list (scores: higher is better).

Neighbouring relation: replace-one; ``sensitivity`` Δ bounds |score_i(D) - score_i(D')| for every candidate
(for the generic learner the score is minus the number of errors on the sample, Δ = 1).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import DomainError
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
        return backend.noisy_argmax(arr, self.scale, self.noise)

    @property
    def scale(self) -> float:
        """The scale 2Δ/ε of the noise added to the scores (P(i) ∝ exp(score_i/scale) for Gumbel noise)."""
        return 2.0 * self.sensitivity / self.epsilon

    def sample_rows(self, scores: Any, *, backend: Any, probabilities: np.ndarray | None = None) -> np.ndarray:
        """k independent runs, one per row of a (k × N) score matrix — k runs, each with this object's claim (the
        caller composes them). On a floating-point-safe backend every row is one exact OpenDP noisy-max draw; on the
        seeded backend (experiments) the rows are drawn together by inverse CDF of P(i) ∝ exp(ε·score_i/(2Δ)), the
        law of the Gumbel-max draw, from ``backend.uniform`` (float32 weights: relative accuracy suffices there).
        ``probabilities`` (a (k × N) float32 array) receives the rows' distributions, for evaluation only."""
        backend = check_backend(backend)
        S = np.asarray(scores, dtype=float)
        if S.ndim != 2 or S.shape[1] < 1 or not np.isfinite(S).all():
            raise DomainError(f"{self.name}: scores must be a finite (k × N) matrix, got shape {S.shape}")
        k = S.shape[0]
        want = probabilities is not None or not backend.floating_point_safe
        P = None
        if want:
            P = probabilities if probabilities is not None else np.empty(S.shape, dtype=np.float32)
            np.subtract(S, S.max(axis=1, keepdims=True), out=P, casting="same_kind")  # shift in float64
            P *= 1.0 / self.scale
            np.exp(P, out=P)
            P /= P.sum(axis=1, keepdims=True)
        if backend.floating_point_safe:
            if self.noise != "gumbel":
                raise DomainError(f"{self.name}: sample_rows draws the exponential mechanism (Gumbel noise) only")
            return np.array([backend.noisy_argmax(S[r], self.scale, self.noise) for r in range(k)], dtype=np.int64)
        if self.noise != "gumbel":
            raise DomainError(f"{self.name}: sample_rows draws the exponential mechanism (Gumbel noise) only")
        u = np.asarray(backend.uniform(k), dtype=float).reshape(k)
        return inverse_cdf_rows(P, u).astype(np.int64)


def inverse_cdf_rows(W: np.ndarray, u: np.ndarray) -> np.ndarray:
    """One index per row of a non-negative (k × N) weight matrix, row r drawn with P(j) ∝ W[r, j] from the uniform
    u[r] by inverse CDF — two levels (√N groups, then inside the group) instead of a full row cumsum."""
    k, n = W.shape
    g = max(1, int(math.isqrt(n)))
    nb = -(-n // g)
    Wp = W if nb * g == n else np.concatenate([W, np.zeros((k, nb * g - n))], axis=1)
    G = Wp.reshape(k, nb, g)
    Sg = G.sum(axis=2)
    cs = np.cumsum(Sg, axis=1)
    target = u * cs[:, -1]
    rows = np.arange(k)
    b = np.minimum((cs <= target[:, None]).sum(axis=1), nb - 1)
    while True:  # never land on an all-zero group (possible only at float boundaries)
        empty = Sg[rows, b] <= 0
        if not empty.any():
            break
        b[empty] -= 1
    rem = target - (cs[rows, b] - Sg[rows, b])
    ci = np.cumsum(G[rows, b], axis=1)
    j = np.minimum((ci <= rem[:, None]).sum(axis=1), g - 1)
    out = b * g + j
    return np.minimum(out, n - 1)


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
