"""Privacy budget: mechanisms and learners charge it; it refuses a charge that would overspend (basic composition, or
the better of basic and advanced composition)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import BudgetExceededError, PrivacyParameterError
from .params import _as_float, check_delta

# Relative slack for floating-point sums (e.g. ε/3 charged three times must fit in ε).
_SLACK = 1e-9


@dataclass(frozen=True)
class Charge:
    """One ledger entry: a mechanism spent (epsilon, delta) on ``what``."""

    epsilon: float
    delta: float
    what: str


def _drift(eps: float) -> float:
    """ε(e^ε − 1), the per-step mean privacy loss bound of advanced composition (inf instead of an overflow)."""
    return eps * math.expm1(eps) if eps < 700.0 else math.inf


class PrivacyBudget:
    """An (ε, δ) budget with a ledger. Charges are accounted by

    * ``composition="basic"`` (default): (Σε_i, Σδ_i) (Dwork–Roth Thm 3.16);
    * ``composition="advanced"``: the better of basic composition and heterogeneous advanced composition with slack
      ``delta_prime``, (√(2 ln(1/δ')Σε_i²) + Σε_i(e^{ε_i}−1), Σδ_i + δ') (Dwork–Rothblum–Vadhan 2010 Thm III.3; Dwork–Roth
      Thm 3.20). Both are valid bounds for the same adaptive composition, so the spent (ε, δ) is whichever fits the
      budget (the smaller ε if both do). ``delta_prime`` must be < the budget's δ.

    A charge is refused (BudgetExceededError, nothing recorded) before it would make every bound exceed the budget.
    ``PrivacyBudget(math.inf)`` is a pure tracker that never refuses a charge.
    """

    def __init__(
        self, epsilon: float, delta: float = 0.0, *, composition: str = "basic", delta_prime: float | None = None
    ):
        eps = _as_float(epsilon, "budget epsilon")
        if not eps > 0:
            raise PrivacyParameterError(f"budget epsilon must be > 0, got {epsilon!r}")
        self.epsilon: float = eps
        self.delta: float = check_delta(delta, "budget delta")
        if composition not in ("basic", "advanced"):
            raise PrivacyParameterError(f"composition must be 'basic' or 'advanced', got {composition!r}")
        self.composition = composition
        if composition == "advanced":
            if delta_prime is None:
                raise PrivacyParameterError("advanced composition needs delta_prime (the slack δ' it adds to δ)")
            dp_ = check_delta(delta_prime, "delta_prime", positive=True)
            if not dp_ < self.delta:
                raise PrivacyParameterError(
                    f"delta_prime={dp_:.3g} must be smaller than the budget delta={self.delta:.3g} "
                    "(advanced composition spends it on top of the charged deltas)"
                )
            self.delta_prime: float | None = dp_
        else:
            if delta_prime is not None:
                raise PrivacyParameterError("delta_prime is only used with composition='advanced'")
            self.delta_prime = None
        self._ledger: list[Charge] = []
        self._eps_spent = 0.0
        self._delta_spent = 0.0
        self._eps_sq = 0.0
        self._eps_drift = 0.0

    def _fits(self, eps: float, delta: float) -> bool:
        return eps <= self.epsilon * (1 + _SLACK) + 1e-15 and delta <= self.delta * (1 + _SLACK) + 1e-300

    def _bounds(self, eps_sum: float, delta_sum: float, eps_sq: float, drift: float) -> list[tuple[float, float]]:
        out = [(eps_sum, delta_sum)]
        if self.composition == "advanced" and eps_sum > 0:
            assert self.delta_prime is not None
            out.append(
                (math.sqrt(2.0 * math.log(1.0 / self.delta_prime) * eps_sq) + drift, delta_sum + self.delta_prime)
            )
        return out

    def _best(self, bounds: list[tuple[float, float]]) -> tuple[float, float]:
        fitting = [b for b in bounds if self._fits(*b)]
        return min(fitting or bounds, key=lambda b: (b[0], b[1]))

    def can_afford(self, epsilon: float, delta: float = 0.0) -> bool:
        """Whether a charge of (epsilon, delta) fits in what remains (under the budget's composition rule)."""
        e = float(epsilon)
        bounds = self._bounds(
            self._eps_spent + e, self._delta_spent + delta, self._eps_sq + e * e, self._eps_drift + _drift(e)
        )
        return any(self._fits(*b) for b in bounds)

    def charge(self, epsilon: Any, delta: float = 0.0, what: str = "unnamed mechanism") -> Charge:
        """Record a charge; raises BudgetExceededError (spending nothing) if it would exceed the budget.
        ``charge(mechanism)`` (or ``charge(claim)``) charges a Mechanism's / PrivacyClaim's (ε, δ) under its name."""
        from .mechanism import Mechanism, PrivacyClaim, claim_of

        if isinstance(epsilon, (Mechanism, PrivacyClaim)):
            claim = claim_of(epsilon)
            if what == "unnamed mechanism":
                what = claim.what or type(epsilon).__name__
            epsilon, delta = claim.epsilon, claim.delta
            if epsilon == 0:
                epsilon = 0.0
        eps = _as_float(epsilon, "charged epsilon")
        if eps < 0 or math.isinf(eps):
            raise PrivacyParameterError(f"charged epsilon must be finite and >= 0, got {epsilon!r}")
        dlt = check_delta(delta, "charged delta")
        if not self.can_afford(eps, dlt):
            rem_e, rem_d = self.remaining
            raise BudgetExceededError(
                f"{what} needs (epsilon={eps:.6g}, delta={dlt:.3g}) but only "
                f"(epsilon={rem_e:.6g}, delta={rem_d:.3g}) remains of the budget "
                f"(epsilon={self.epsilon:.6g}, delta={self.delta:.3g}, {self.composition} composition)"
            )
        entry = Charge(eps, dlt, what)
        self._ledger.append(entry)
        self._eps_spent += eps
        self._delta_spent += dlt
        self._eps_sq += eps * eps
        self._eps_drift += _drift(eps)
        return entry

    @property
    def spent(self) -> tuple[float, float]:
        """(ε, δ) spent so far: the sums (basic composition), or under ``composition="advanced"`` the better bound."""
        return self._best(self._bounds(self._eps_spent, self._delta_spent, self._eps_sq, self._eps_drift))

    @property
    def remaining(self) -> tuple[float, float]:
        """(ε, δ) still available (never negative), budget minus :attr:`spent`."""
        e, d = self.spent
        return (max(self.epsilon - e, 0.0), max(self.delta - d, 0.0))

    @property
    def ledger(self) -> list[Charge]:
        """A copy of the list of charges, in order."""
        return list(self._ledger)

    def __repr__(self) -> str:
        e, d = self.spent
        how = "" if self.composition == "basic" else f", advanced composition, delta_prime={self.delta_prime:g}"
        return (
            f"PrivacyBudget(epsilon={self.epsilon:g}, delta={self.delta:g}{how}; spent=({e:.6g}, {d:.3g}), "
            f"{len(self._ledger)} charges)"
        )
