"""Regret of private online prediction from N experts over T rounds (LWY25 §E.3, Thms E.11–E.12), side by side:
the quoted theorems (O(·) with every hidden constant set to 1, labelled "quoted") and the proven bounds of the
learners in :mod:`littlestone.experts`, constants written out (labelled "proven"; derivations in
docs/derivations.md "Private prediction from experts").

* Thm E.11 (JT14, adaptive, (ε, δ)): O(√(T log(1/δ)) log N/ε) — :class:`~littlestone.experts.PrivateHedge` attains
  this rate with the constant √8 (ln N/η + ηT/8 at the privacy-calibrated η).
* AS17 (adaptive, ε-DP; FTRL over tree-aggregated losses): O(√(T log N) + N log N log² T/ε) —
  :class:`~littlestone.experts.TreeAggregationHedge` runs that algorithm; the bound proven here is the weaker
  2√(T ln N (1/8 + Ē + B₀ − 1)) + 1 (noise enters through the rate, not additively).
* Thm E.12 (AKLT24, oblivious, (ε, δ)): O(√(T log N) + T^{1/3} log N log(T/δ)/ε^{2/3}) — AKLT24's L2P algorithm is
  not implemented (its pseudo-code was not available); :class:`~littlestone.experts.BatchedPrivateHedge` is the
  oblivious learner offered, with its own bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import LittlestoneError
from ..experts import (
    batched_hedge_bound,
    private_hedge_bound,
    private_hedge_eta,
    private_hedge_privacy,
    theory_batch,
    theory_block,
    tree_hedge_bound,
)
from ..experts.base import hedge_regret
from ..privacy import check_delta, check_epsilon


@dataclass(frozen=True)
class ExpertsBoundReport:
    """Rows (stage, quantity, value, formula); ``values["stage: quantity"]`` for programmatic use."""

    title: str
    parameters: dict
    entries: tuple[tuple[str, str, float, str], ...]
    values: dict = field(default_factory=dict)

    def rows(self) -> list[tuple[str, str, float, str]]:
        return list(self.entries)

    def as_text(self) -> str:
        head = f"{self.title}  (" + ", ".join(f"{k}={v}" for k, v in self.parameters.items()) + ")"
        w1 = max(len(r[0]) for r in self.entries)
        w2 = max(len(r[1]) for r in self.entries)
        return "\n".join([head] + [f"  {a:<{w1}}  {b:<{w2}}  {c:>14.6g}   {f}" for a, b, c, f in self.entries])

    __str__ = as_text


def _check(n: int, T: int) -> tuple[int, int]:
    for name, v in (("number of experts N", n), ("horizon T", T)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise LittlestoneError(f"{name} must be a positive integer, got {v!r}")
    return n, T


def theorem_e11_rate(n: int, T: int, epsilon: float, delta: float) -> float:
    """LWY25 Thm E.11 (quoting JT14) with the O(·) constant set to 1: √(T ln(1/δ)) ln N/ε."""
    n, T = _check(n, T)
    dlt = check_delta(delta, positive=True)
    return math.sqrt(T * math.log(1.0 / dlt)) * math.log(n) / check_epsilon(epsilon)


def theorem_e12_rate(n: int, T: int, epsilon: float, delta: float) -> float:
    """LWY25 Thm E.12 (quoting AKLT24) with the O(·) constant set to 1: √(T ln N) + T^{1/3} ln N ln(T/δ)/ε^{2/3}."""
    n, T = _check(n, T)
    dlt = check_delta(delta, positive=True)
    eps = check_epsilon(epsilon)
    return math.sqrt(T * math.log(n)) + T ** (1 / 3) * math.log(n) * math.log(T / dlt) / eps ** (2 / 3)


def as17_rate(n: int, T: int, epsilon: float) -> float:
    """AS17's ε-DP rate for FTRL over tree-aggregated losses, constant 1: √(T ln N) + N ln N log₂²T/ε."""
    n, T = _check(n, T)
    return math.sqrt(T * math.log(n)) + n * math.log(n) * math.log2(max(T, 2)) ** 2 / check_epsilon(epsilon)


def private_experts_report(n: int, T: int, epsilon: float, delta: float) -> ExpertsBoundReport:
    """Every row of the module docstring at (N, T, ε, δ)."""
    n, T = _check(n, T)
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta, positive=True)
    rows: list[tuple[str, str, float, str]] = []
    v: dict[str, float] = {}

    def add(stage: str, q: str, value: float, formula: str) -> None:
        rows.append((stage, q, value, formula))
        v[f"{stage}: {q}"] = value

    eta_h = math.sqrt(8.0 * max(math.log(n), 1e-12) / T)
    add("Hedge (non-private, proven)", "regret bound", hedge_regret(n, T, eta_h), "√(T ln N/2)  (η = √(8 ln N/T))")
    add("Thm E.11 / JT14 (quoted)", "regret, adaptive", theorem_e11_rate(n, T, eps, dlt), "√(T ln(1/δ)) ln N/ε")
    eta = private_hedge_eta(n, T, eps, dlt)
    add("PrivateHedge (proven)", "rate η", eta, "largest η with claim ≤ (ε, δ), ≤ √(8 ln N/T)")
    add(
        "PrivateHedge (proven)",
        "claim ε",
        private_hedge_privacy(eta, T, dlt)[0],
        "min(2η(T−1), 2η√(2(T−1) ln(1/δ)) + 2η(T−1)(e^{2η}−1))",
    )
    add("PrivateHedge (proven)", "regret, adaptive", private_hedge_bound(n, T, eps, dlt), "ln N/η + ηT/8")
    add("AS17 (quoted)", "regret, adaptive, ε-DP", as17_rate(n, T, eps), "√(T ln N) + N ln N log₂²T/ε")
    add(
        "TreeAggregationHedge, block=1 (proven)",
        "regret, adaptive, ε-DP",
        tree_hedge_bound(n, T, eps, 1),
        "2√(T ln N (1/8 + Ē)) + 1, Ē = L²N ln(8T²N)/ε",
    )
    B0 = theory_block(n, T, eps)
    add(
        "TreeAggregationHedge, theory block (proven)",
        f"regret (B₀ = {B0})",
        tree_hedge_bound(n, T, eps, B0),
        "2√(T ln N (1/8 + Ē + B₀ − 1)) + 1",
    )
    add(
        "Thm E.12 / AKLT24 (quoted)",
        "regret, oblivious",
        theorem_e12_rate(n, T, eps, dlt),
        "√(T ln N) + T^{1/3} ln N ln(T/δ)/ε^{2/3}",
    )
    B = theory_batch(n, T, eps, dlt)
    add(
        "BatchedPrivateHedge (proven)",
        f"regret, oblivious (B = {B})",
        batched_hedge_bound(n, T, B, eps, dlt),
        "ln N/η + ηKB²/8, K = ⌈T/B⌉",
    )
    return ExpertsBoundReport(
        title="Private prediction from experts (LWY25 Thms E.11–E.12)",
        parameters={"N": n, "T": T, "ε": eps, "δ": dlt},
        entries=tuple(rows),
        values=v,
    )
