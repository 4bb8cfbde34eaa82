"""Regret bounds of the agnostic private online learners SegmentedEM (App. G.2 + G.1) and EpochEM (App. G.1), with
their constants written out (proofs: docs/derivations.md, "G.2 SegmentedEM" and "G.1 EpochEM").

**I.i.d. streams** (examples drawn independently from one law D; an oblivious stream), ``setting="theory"`` (the
theory τ and error level below, no window, ρ₁ = 1). With β′ = β/(6K + 1), K the number of public epochs, N = |H|
(counted with the class's own multiplicity: the exponential mechanism's range), n_0 = n_1 = ``first``,
n_k = 2^{k−1}·first (the last one cut at T), w.p. ≥ 1 − β:

    R_T ≤ n_0 + Σ_{k≥1} [ n_k·( 2(ln N + ln(1/β′))/(ε_EM·n_{k−1}) + 2·√(ln(2N/β′)/(2 n_{k−1})) ) + √(2 n_k ln(1/β′)) ]
          + √(2T·ln(2N/β′)).

The stay test then never fires (that is part of the event), so the segments are the public epochs; EpochEM has the
same bound with ε_EM = ε and no stay test.

**Any adaptive adversary** (LWY25 Def. 2.4): no regret bound is proved. What is proved, w.p. ≥ 1 − β, for every
segment j (released h_j, public ρ_j, length n_j): its mistakes are ≤ ρ_j·n_j + τ + α + 1 with α the stay test's
accuracy 2·ln(2(T + 1)·T/β)/ε_AT — so M_T ≤ Σ_j ρ_j n_j + S·(τ + α + 1), S the number of segments, all public
(:func:`per_segment_mistakes`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..classes.base import HypothesisClass, VersionSpace
from ..errors import LittlestoneError

#: the default budget shares (stay test, selection, error release) and margin of SegmentedEM
DEFAULT_SPLIT = (0.5, 0.35, 0.15)
DEFAULT_MARGIN = 0.02
DEFAULT_FIRST = 64


def epoch_lengths(T: int, first: int = DEFAULT_FIRST) -> list[int]:
    """The public epochs when no stay test fires: each as long as the stream before it (at least ``first``),
    the last cut at T."""
    out: list[int] = []
    start = 0
    while start < T:
        n = min(max(first, start), T - start)
        out.append(n)
        start += n
    return out


def class_size(H: Any) -> int:
    """|H| (a number, or a class / version space), the range of the exponential mechanism."""
    if isinstance(H, (HypothesisClass, VersionSpace)):
        V = H if isinstance(H, VersionSpace) else H.version_space()
        size = V.size()
    else:
        size = H
    if not (isinstance(size, int) or (isinstance(size, float) and size.is_integer())) or size < 1:
        raise LittlestoneError(f"the regret bound needs a finite class size, not {size!r}")
    return int(size)


def theory_beta(beta: float, K: int) -> float:
    """β′ = β/(6K + 1): the share of each of the bound's 6K + 1 events."""
    return beta / (6 * K + 1)


def theory_tau(epsilon_at: float, T: int, beta_prime: float, margin: float) -> float:
    """τ = 3·max(ln(T/β′)/ε_AT, ln(1/β′)/(8·margin)): a ⊤ needs the walk m − ρn, the query noise or minus the
    threshold noise to reach τ/3; each has probability ≤ β′ on a segment whose hypothesis errs ≤ ρ − margin."""
    return 3.0 * max(math.log(max(T, 2) / beta_prime) / epsilon_at, math.log(1 / beta_prime) / (8.0 * margin))


def theory_error_level(
    noisy_errors: float, n: int, epsilon_err: float, size: int, beta_prime: float, margin: float
) -> float:
    """ρ = r̂/n + margin + ln(2/β′)/(ε_err·n) + √(ln(2N/β′)/(2n)) (capped at 1): ≥ L(h) + margin w.p. ≥ 1 − 2β′ for
    the hypothesis h selected on those n rounds (Laplace tail and the uniform deviation over the N hypotheses)."""
    r = noisy_errors / n
    return min(
        1.0,
        r
        + margin
        + math.log(2 / beta_prime) / (epsilon_err * n)
        + math.sqrt(math.log(2 * size / beta_prime) / (2 * n)),
    )


@dataclass(frozen=True)
class AgnosticRegretBound:
    """The i.i.d. regret bound and its terms (all for w.p. ≥ 1 − β)."""

    learner: str
    T: int
    epsilon: float
    beta: float
    size: int
    epochs: tuple[int, ...]
    epsilon_select: float
    epsilon_at: float
    tau: float
    first_epoch: float
    selection: float
    deviation: float
    fresh: float
    hindsight: float

    @property
    def regret(self) -> float:
        return min(float(self.T), self.first_epoch + self.selection + self.deviation + self.fresh + self.hindsight)

    def rows(self) -> list[tuple[str, str, Any, str]]:
        return [
            ("parameters", "N = |H|", self.size, "the exponential mechanism's range"),
            ("parameters", "epochs K", len(self.epochs), "n_0 = n_1 = first, n_k = 2^{k−1}·first"),
            ("parameters", "ε_EM", self.epsilon_select, "the selection's share"),
            (
                "parameters",
                "τ (theory)",
                self.tau if self.tau < math.inf else "none",
                "3·max(ln(T/β′)/ε_AT, ln(1/β′)/(8μ))",
            ),
            ("epoch 0", "n_0", self.first_epoch, "the first hypothesis is arbitrary"),
            (
                "selection",
                "Σ n_k·2(ln N + ln 1/β′)/(ε_EM n_{k−1})",
                self.selection,
                "exponential mechanism (DR14 Thm 3.11)",
            ),
            ("deviation", "Σ n_k·2√(ln(2N/β′)/(2n_{k−1}))", self.deviation, "uniform convergence on epoch k−1"),
            ("fresh epoch", "Σ √(2 n_k ln(1/β′))", self.fresh, "Hoeffding on epoch k given h_k"),
            ("hindsight", "√(2T ln(2N/β′))", self.hindsight, "best in hindsight vs the law's best"),
            ("total", "regret bound", self.regret, "min(T, sum)"),
        ]


def _bound(
    learner: str,
    H: Any,
    T: int,
    epsilon: float,
    beta: float,
    eps_select: float,
    eps_at: float,
    first: int,
    margin: float,
) -> AgnosticRegretBound:
    if T < 1 or epsilon <= 0 or not 0 < beta < 1:
        raise LittlestoneError("the regret bound needs T ≥ 1, ε > 0 and 0 < β < 1")
    N = class_size(H)
    eps = epoch_lengths(T, first)
    K = len(eps)
    bp = theory_beta(beta, K)
    lnN = math.log(N)
    selection = sum(eps[k] * 2 * (lnN + math.log(1 / bp)) / (eps_select * eps[k - 1]) for k in range(1, K))
    deviation = sum(eps[k] * 2 * math.sqrt(math.log(2 * N / bp) / (2 * eps[k - 1])) for k in range(1, K))
    fresh = sum(math.sqrt(2 * eps[k] * math.log(1 / bp)) for k in range(1, K))
    hindsight = math.sqrt(2 * T * math.log(2 * N / bp))
    tau = theory_tau(eps_at, T, bp, margin) if eps_at > 0 else math.inf
    return AgnosticRegretBound(
        learner,
        T,
        epsilon,
        beta,
        N,
        tuple(eps),
        eps_select,
        eps_at,
        tau,
        float(eps[0]),
        selection,
        deviation,
        fresh,
        hindsight,
    )


def segmented_em_bound(
    H: Any,
    T: int,
    epsilon: float,
    beta: float = 0.1,
    *,
    split: tuple[float, float, float] = DEFAULT_SPLIT,
    first: int = DEFAULT_FIRST,
    margin: float = DEFAULT_MARGIN,
) -> AgnosticRegretBound:
    """SegmentedEM's i.i.d. regret bound (setting="theory"), w.p. ≥ 1 − β (module docstring)."""
    return _bound("SegmentedEM", H, T, epsilon, beta, split[1] * epsilon, split[0] * epsilon, first, margin)


def epoch_em_bound(
    H: Any, T: int, epsilon: float, beta: float = 0.1, *, first: int = DEFAULT_FIRST
) -> AgnosticRegretBound:
    """EpochEM's i.i.d. regret bound, w.p. ≥ 1 − β: the same terms with ε_EM = ε (no stay test)."""
    return _bound("EpochEM", H, T, epsilon, beta, epsilon, 0.0, first, DEFAULT_MARGIN)


def stay_test_accuracy(epsilon_at: float, T: int, beta: float) -> float:
    """α = 2·ln(2(T + 1)·T/β)/ε_AT: w.p. ≥ 1 − β, over ≤ T segments, the threshold noise and every query noise (both
    Lap(1/ε_AT)) are below α/2 in absolute value."""
    return 2.0 * math.log(2 * (T + 1) * max(T, 1) / beta) / epsilon_at


def per_segment_mistakes(rho: float, n: int, tau: float, epsilon_at: float, T: int, beta: float) -> float:
    """The adaptive-adversary guarantee of one segment (any stream): ≤ ρ·n + τ + α + 1 mistakes w.p. ≥ 1 − β (jointly
    over all segments): before the ⊤ every query has m_i − ρ·i < τ + α, and the ⊤ round adds at most one."""
    return rho * n + tau + stay_test_accuracy(epsilon_at, T, beta) + 1.0


__all__ = [
    "AgnosticRegretBound",
    "DEFAULT_FIRST",
    "DEFAULT_MARGIN",
    "DEFAULT_SPLIT",
    "class_size",
    "epoch_em_bound",
    "epoch_lengths",
    "per_segment_mistakes",
    "segmented_em_bound",
    "stay_test_accuracy",
    "theory_beta",
    "theory_error_level",
    "theory_tau",
]
