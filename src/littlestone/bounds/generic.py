"""Sample sizes of the pure-DP generic learner (exponential mechanism over a finite class), constants written out."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import LittlestoneError, PrivacyParameterError


@dataclass(frozen=True)
class GenericBound:
    """A sample-size bound: the binding requirement is ``total``; ``rows()`` lists every requirement."""

    theorem: str
    guarantee: str
    total: int
    parts: list[tuple[str, str, float, str]] = field(default_factory=list)

    def rows(self) -> list[tuple[str, str, float, str]]:
        """(stage, quantity, value, formula) rows, the last one the total."""
        return [*self.parts, ("total", "n", self.total, "max of the above, rounded up")]


def _check(n_hypotheses: float, alpha: float, epsilon: float, beta: float) -> None:
    if not (isinstance(n_hypotheses, (int, float)) and n_hypotheses >= 1):
        raise LittlestoneError(f"the class must have at least one hypothesis, got |H| = {n_hypotheses!r}")
    if not math.isfinite(n_hypotheses):
        raise LittlestoneError(
            "the generic learner needs a finite class (|H| is infinite); for infinite classes "
            "of finite Littlestone dimension see 'littlestone bounds blm20'"
        )
    if not 0 < alpha < 1:
        raise LittlestoneError(f"alpha must be in (0, 1), got {alpha!r}")
    if not 0 < beta < 1:
        raise LittlestoneError(f"beta must be in (0, 1), got {beta!r}")
    if not (epsilon > 0 and math.isfinite(epsilon)):
        raise PrivacyParameterError(f"epsilon must be a finite number > 0, got {epsilon!r}")


def realizable(n_hypotheses: float, alpha: float, epsilon: float, beta: float) -> GenericBound:
    """Seed 000 Lemma 16 (proof constants): some h* has loss ≤ α ⇒ w.p. ≥ 1−β the output has loss ≤ 2α."""
    _check(n_hypotheses, alpha, epsilon, beta)
    H = float(n_hypotheses)
    c1 = 36 * math.log(4 * H / beta) / alpha  # Chernoff, δ=1/6 at mean 2αn: bad h keep loss_S > 5α/3
    c2 = 27 * math.log(4 / beta) / alpha  # Chernoff, δ=1/3 at mean αn: loss_S(h*) ≤ 4α/3
    c3 = 6 * math.log(2 * H / beta) / (epsilon * alpha)  # |H|·exp(−εαn/6) ≤ β/2 (exponential mechanism)
    parts = [
        ("sampling", "bad hypotheses look bad", c1, "36·ln(4|H|/β)/α"),
        ("sampling", "h* looks good", c2, "27·ln(4/β)/α"),
        ("privacy", "exponential mechanism picks loss_S ≤ 5α/3", c3, "6·ln(2|H|/β)/(εα)"),
    ]
    return GenericBound("BLM20 Lemma 16", "loss ≤ 2α when some h has loss ≤ α", math.ceil(max(c1, c2, c3)), parts)


def agnostic(n_hypotheses: float, alpha: float, epsilon: float, beta: float) -> GenericBound:
    """Seed 003 §3 Theorem 1 (t = α/3): w.p. ≥ 1−β, err(output) ≤ OPT + α."""
    _check(n_hypotheses, alpha, epsilon, beta)
    H = float(n_hypotheses)
    c1 = 9 * math.log(4 * H / beta) / (2 * alpha**2)  # 2|H|·exp(−2n(α/3)²) ≤ β/2 (Hoeffding + union)
    c2 = 6 * math.log(2 * H / beta) / (epsilon * alpha)  # |H|·exp(−εnα/6) ≤ β/2 (exponential mechanism)
    parts = [
        ("sampling", "uniform convergence to α/3", c1, "9·ln(4|H|/β)/(2α²)"),
        ("privacy", "exponential mechanism within α/3", c2, "6·ln(2|H|/β)/(εα)"),
    ]
    return GenericBound("Kal-LN §3 Theorem 1", "err ≤ OPT + α", math.ceil(max(c1, c2)), parts)


def sample_size(
    n_hypotheses: float, alpha: float, epsilon: float, beta: float, mode: str = "realizable"
) -> GenericBound:
    """The generic learner's theorem sample size in ``mode`` ('realizable' or 'agnostic')."""
    if mode == "realizable":
        return realizable(n_hypotheses, alpha, epsilon, beta)
    if mode == "agnostic":
        return agnostic(n_hypotheses, alpha, epsilon, beta)
    raise LittlestoneError(f"mode must be 'realizable' or 'agnostic', not {mode!r}")
