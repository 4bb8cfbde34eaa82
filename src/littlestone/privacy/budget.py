"""Privacy budget: mechanisms and learners charge it; it refuses a charge that would overspend (basic composition)."""

from __future__ import annotations

import math
from dataclasses import dataclass

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


class PrivacyBudget:
    """An (ε, δ) budget with a ledger; charges add up by basic composition (Dwork–Roth Thm 3.16).

    ``PrivacyBudget(math.inf)`` is a pure tracker that never refuses a charge.
    """

    def __init__(self, epsilon: float, delta: float = 0.0):
        eps = _as_float(epsilon, "budget epsilon")
        if not eps > 0:
            raise PrivacyParameterError(f"budget epsilon must be > 0, got {epsilon!r}")
        self.epsilon: float = eps
        self.delta: float = check_delta(delta, "budget delta")
        self._ledger: list[Charge] = []
        self._eps_spent = 0.0
        self._delta_spent = 0.0

    def can_afford(self, epsilon: float, delta: float = 0.0) -> bool:
        """Whether a charge of (epsilon, delta) fits in what remains."""
        eps_ok = self._eps_spent + epsilon <= self.epsilon * (1 + _SLACK) + 1e-15
        delta_ok = self._delta_spent + delta <= self.delta * (1 + _SLACK) + 1e-300
        return eps_ok and delta_ok

    def charge(self, epsilon: float, delta: float = 0.0, what: str = "unnamed mechanism") -> Charge:
        """Record a charge; raises BudgetExceededError (spending nothing) if it would exceed the budget."""
        eps = _as_float(epsilon, "charged epsilon")
        if eps < 0 or math.isinf(eps):
            raise PrivacyParameterError(f"charged epsilon must be finite and >= 0, got {epsilon!r}")
        dlt = check_delta(delta, "charged delta")
        if not self.can_afford(eps, dlt):
            rem_e, rem_d = self.remaining
            raise BudgetExceededError(
                f"{what} needs (epsilon={eps:.6g}, delta={dlt:.3g}) but only "
                f"(epsilon={rem_e:.6g}, delta={rem_d:.3g}) remains of the budget "
                f"(epsilon={self.epsilon:.6g}, delta={self.delta:.3g})"
            )
        entry = Charge(eps, dlt, what)
        self._ledger.append(entry)
        self._eps_spent += eps
        self._delta_spent += dlt
        return entry

    @property
    def spent(self) -> tuple[float, float]:
        """(ε, δ) spent so far."""
        return (self._eps_spent, self._delta_spent)

    @property
    def remaining(self) -> tuple[float, float]:
        """(ε, δ) still available (never negative)."""
        return (max(self.epsilon - self._eps_spent, 0.0), max(self.delta - self._delta_spent, 0.0))

    @property
    def ledger(self) -> list[Charge]:
        """A copy of the list of charges, in order."""
        return list(self._ledger)

    def __repr__(self) -> str:
        e, d = self.spent
        return f"PrivacyBudget(epsilon={self.epsilon:g}, delta={self.delta:g}; spent=({e:.6g}, {d:.3g}), {len(self._ledger)} charges)"


def charge_if(budget: PrivacyBudget | None, epsilon: float, delta: float, what: str) -> None:
    """Charge ``budget`` if one is given (mechanisms call this before touching the data)."""
    if budget is None:
        return
    if not isinstance(budget, PrivacyBudget):
        raise PrivacyParameterError(f"budget must be a PrivacyBudget or None, not {type(budget).__name__}")
    budget.charge(epsilon, delta, what)
