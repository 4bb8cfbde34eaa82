"""Privacy budget: mechanisms and learners charge it; it refuses a charge that would overspend (basic composition, or
the better of basic and advanced composition).

Check and record are one step under a lock (a charge from another thread waits, then sees this one), and basic
composition is summed exactly: every ε_i and δ_i is a float, i.e. an exact binary fraction, and the sums Σε_i, Σδ_i
are kept exactly, as integers in units of 2⁻¹⁰⁷⁴ (every finite double is an integer multiple of it), so no rounding of
the sum can let a charge through. The comparison with the
budget allows one relative tolerance, :data:`REL_TOL` = 2⁻⁵² (one unit in the last place of the budget), never an
absolute one: a budget is a real number rounded to a float, and k shares of it each rounded to the nearest float
(ε = 1 split as 10 × 0.1, whose float is 0.1 + 5.6·10⁻¹⁸) add up to at most ε(1 + 2⁻⁵³). So 10 × 0.1 fits in
ε = 1 and an 11th does not, ε = 1 + 9·10⁻¹⁰ does not fit in 1 (it is 4·10⁶ units in the last place above), and a
budget with δ = 0 admits no δ > 0 at all (the tolerance of 0 is 0). The tolerance bounds the total overspend, however
many charges are made, by ε·2⁻⁵². Advanced composition is computed in floats (square roots, logarithms); its bound is
compared with the same relative tolerance.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any

from ..errors import BudgetExceededError, PrivacyParameterError
from .params import _as_float, check_delta

#: relative tolerance of every budget comparison: 2⁻⁵², one unit in the last place of the budget (module doc)
REL_TOL_BITS = 52
#: exact sums are integers in units of 2⁻¹⁰⁷⁴, the smallest positive double
_UNIT_BITS = 1074
_ONE = 1 << _UNIT_BITS


def exact(x: float) -> int:
    """A finite float as an exact integer number of units 2⁻¹⁰⁷⁴."""
    n, d = float(x).as_integer_ratio()  # d = 2^k with k ≤ 1074
    return n << (_UNIT_BITS + 1 - d.bit_length())


def to_float(v: int | float) -> float:
    """An exact sum (int, units 2⁻¹⁰⁷⁴) or a float, as the nearest float (int / int is correctly rounded)."""
    return v / _ONE if isinstance(v, int) else float(v)


def within(value: int | float, limit: float) -> bool:
    """``value`` (an exact sum, or a float) ≤ ``limit``·(1 + 2⁻⁵²), compared exactly (an infinite limit holds everything
    finite; a non-finite value fits nothing finite)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return value == math.inf and math.isinf(limit)  # NaN fits nothing
        value = exact(value)
    if math.isinf(limit):
        return True
    lim = exact(limit)
    return value <= lim + (lim >> REL_TOL_BITS)  # the floor: never above (1 + 2⁻⁵²)·limit


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

    * ``composition="basic"`` (default): (Σε_i, Σδ_i) (Dwork–Roth Thm 3.16), summed exactly (module doc);
    * ``composition="advanced"``: the better of basic composition and heterogeneous advanced composition with slack
      ``delta_prime``, (√(2 ln(1/δ')Σε_i²) + Σε_i(e^{ε_i}−1), Σδ_i + δ') (Dwork–Rothblum–Vadhan 2010 Thm III.3; Dwork–Roth
      Thm 3.20). Both are valid bounds for the same adaptive composition, so the spent (ε, δ) is whichever fits the
      budget (the smaller ε if both do). ``delta_prime`` must be < the budget's δ.

    A charge is refused (BudgetExceededError, nothing recorded) before it would make every bound exceed the budget;
    check and record happen under one lock (thread-safe). ``PrivacyBudget(math.inf)`` is a pure tracker that never
    refuses a charge.
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
        self._lock = threading.RLock()
        self._ledger: list[Charge] = []
        self._eps_exact = 0  # Σε_i, exact (units 2⁻¹⁰⁷⁴)
        self._delta_exact = 0  # Σδ_i, exact (units 2⁻¹⁰⁷⁴)
        self._eps_sq = 0.0
        self._eps_drift = 0.0
        self._delta_keep = 1.0  # ∏(1 − δ_i)

    # ------------------------------------------------------------------ composition
    def _after(self, e: float = 0.0, d: float = 0.0, k: int = 1) -> list[tuple[Any, Any]]:
        """Bounds on (ε, δ) of the recorded spends plus ``k`` spends of (e, d): basic composition first (exact
        integers), then the float-computed bound of the budget's advanced rule, if any."""
        eps_sum = self._eps_exact + k * exact(e)
        out: list[tuple[Any, Any]] = [(eps_sum, self._delta_exact + k * exact(d))]
        if eps_sum > 0:
            out.extend(self._advanced(e, d, k))
        return out

    def _advanced(self, e: float, d: float, k: int) -> list[tuple[float, float]]:
        if self.composition != "advanced":
            return []
        assert self.delta_prime is not None
        sq = self._eps_sq + k * e * e
        drift = self._eps_drift + k * self._step_drift(e)
        delta = to_float(self._delta_exact + k * exact(d)) + self.delta_prime
        return [(math.sqrt(2.0 * math.log(1.0 / self.delta_prime) * sq) + drift, delta)]

    def _step_drift(self, eps: float) -> float:
        """One spend's term of the advanced bound's drift (DRV10: ε(e^ε − 1))."""
        return _drift(eps)

    def _fits(self, eps: Any, delta: Any) -> bool:
        return within(eps, self.epsilon) and within(delta, self.delta)

    def _best(self, bounds: list[tuple[Any, Any]]) -> tuple[float, float]:
        as_floats = [(to_float(e), to_float(d)) for e, d in bounds]
        fitting = [f for f, b in zip(as_floats, bounds) if self._fits(*b)]
        return min(fitting or as_floats)

    def can_afford(self, epsilon: float, delta: float = 0.0) -> bool:
        """Whether a charge of (epsilon, delta) fits in what remains (under the budget's composition rule)."""
        with self._lock:
            return any(self._fits(*b) for b in self._after(float(epsilon), float(delta)))

    def _record(self, eps: float, dlt: float, what: str) -> Charge:
        """Append a charge (the caller holds the lock and has checked it)."""
        entry = Charge(eps, dlt, what)
        self._ledger.append(entry)
        self._eps_exact += exact(eps)
        self._delta_exact += exact(dlt)
        self._eps_sq += eps * eps
        self._eps_drift += self._step_drift(eps)
        self._delta_keep *= 1.0 - dlt
        return entry

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
        with self._lock:  # check and record as one step
            if not self.can_afford(eps, dlt):
                rem_e, rem_d = self.remaining
                raise BudgetExceededError(
                    f"{what} needs (epsilon={eps:.6g}, delta={dlt:.3g}) but only "
                    f"(epsilon={rem_e:.6g}, delta={rem_d:.3g}) remains of the budget "
                    f"(epsilon={self.epsilon:.6g}, delta={self.delta:.3g}, {self.composition} composition)"
                )
            return self._record(eps + 0.0, dlt + 0.0, what)

    @property
    def spent(self) -> tuple[float, float]:
        """(ε, δ) spent so far: the sums (basic composition), or under ``composition="advanced"`` the better bound."""
        with self._lock:
            return self._best(self._after(0.0, 0.0, 0))

    @property
    def remaining(self) -> tuple[float, float]:
        """(ε, δ) still available (never negative), budget minus :attr:`spent`."""
        e, d = self.spent
        return (max(self.epsilon - e, 0.0), max(self.delta - d, 0.0))

    @property
    def ledger(self) -> list[Charge]:
        """A copy of the list of charges, in order."""
        with self._lock:
            return list(self._ledger)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_lock", None)  # a lock does not pickle; a copy gets its own
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        e, d = self.spent
        how = "" if self.composition == "basic" else f", advanced composition, delta_prime={self.delta_prime:g}"
        return (
            f"PrivacyBudget(epsilon={self.epsilon:g}, delta={self.delta:g}{how}; spent=({e:.6g}, {d:.3g}), "
            f"{len(self._ledger)} charges)"
        )
