"""``BudgetAccountant``: one privacy budget held across fits, learners and sanitizers (diffprivlib's conventions).

Every private estimator, online learner and sanitizer takes ``accountant=`` (None = the default accountant, which
records every spend). A fit is charged its own ``privacy()`` claim, checked *before any data is read*: a charge that
would exceed the budget raises :class:`~littlestone.errors.BudgetExceededError` with one line naming the spend and
the remainder, and nothing is recorded.

Composition (docs/derivations.md, "The budget accountant"):

* ``slack=0`` (default): basic composition (Σε_i, Σδ_i) (DR14 Thm 3.16). It holds even when each ε_i is chosen
  after seeing the previous outputs (a privacy filter, RRUV16 §4), so it is the right rule for interactive use.
* ``slack=δ' > 0``: the better of basic composition and the heterogeneous advanced composition of KOV17 Thm 3.5
  (ε̃ = min over its three bounds, δ̃ = 1 − (1 − δ')∏(1 − δ_i)), as diffprivlib does. This bound is proved for a
  sequence (ε_i, δ_i) fixed in advance (the mechanisms may be adaptive; their parameters may not): with parameters
  chosen adaptively use ``slack=0``.

Check and record are one step under a lock, so concurrent threads never overspend; sums are exact (budget.py: a
relative tolerance of one unit in the last place of the budget, no absolute one). The accountant survives
scikit-learn's ``clone`` and ``copy.deepcopy`` by identity (GridSearchCV and cross_val_score charge the one
accountant the user passed), and a pickle of it is a link to it, not a copy (:mod:`.accountant_link`): a fit in a
worker process (``n_jobs=2``, joblib's loky or multiprocessing backends) is checked and recorded by the parent's
accountant, under its lock — the explicit ``accountant=`` or, for ``accountant=None``, the parent's default.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import numbers
import threading
from typing import Any, ClassVar, Iterator

from ..errors import BudgetExceededError, LittlestoneError, PrivacyParameterError
from .budget import _ONE, Charge, PrivacyBudget, exact
from .params import _as_float, check_delta

#: a refused fit inside scikit-learn's model selection becomes NaN scores (error_score=nan) unless told otherwise
_SKLEARN_ADVICE = (
    " (in cross_val_score or GridSearchCV pass error_score='raise': by default scikit-learn turns this refusal "
    "into NaN scores)"
)

__all__ = ["BudgetAccountant", "charge_fit", "check_fit", "claim_pair", "contained", "kov_composition"]


def kov_composition(parts: list[tuple[float, float]], slack: float) -> tuple[float, float]:
    """KOV17 Thm 3.5: adaptive composition of (ε_i, δ_i)-DP mechanisms is (ε̃, 1 − (1 − δ')∏(1 − δ_i))-DP with
    ε̃ = min{Σε_i, Σε_i·tanh(ε_i/2) + √(2Σε_i² ln(e + √(Σε_i²)/δ')), Σε_i·tanh(ε_i/2) + √(2Σε_i² ln(1/δ'))}
    ((e^ε − 1)ε/(e^ε + 1) = ε·tanh(ε/2)). ``slack`` = δ' ∈ (0, 1)."""
    if not parts:
        return (0.0, 0.0)
    s = sum(e for e, _ in parts)
    sq = sum(e * e for e, _ in parts)
    drift = sum(e * math.tanh(e / 2.0) for e, _ in parts)
    keep = 1.0 - slack
    for _, d in parts:
        keep *= 1.0 - d
    eps = min(s, drift + math.sqrt(2.0 * sq * math.log(math.e + math.sqrt(sq) / slack)))
    eps = min(eps, drift + math.sqrt(2.0 * sq * math.log(1.0 / slack)))
    return (eps, 1.0 - keep)


def claim_pair(claim: Any) -> tuple[float, float]:
    """(ε, δ) of a claim in any of littlestone's forms: a PrivacyClaim / LearnerPrivacy / Mechanism (``epsilon``,
    ``delta`` attributes or ``privacy()``) or a tuple (ε, δ[, relation])."""
    if isinstance(claim, tuple):
        return float(claim[0]), float(claim[1])
    if hasattr(claim, "epsilon") and hasattr(claim, "delta") and not callable(getattr(claim, "privacy", None)):
        return float(claim.epsilon), float(claim.delta)
    if callable(getattr(claim, "privacy", None)):
        return claim_pair(claim.privacy())
    raise LittlestoneError(f"not a privacy claim: {claim!r}")


class BudgetAccountant(PrivacyBudget):
    """A privacy budget (ε, δ) with a ledger of every spend, shared across fits (diffprivlib's ``BudgetAccountant``).

    ``BudgetAccountant()`` is an infinite tracker (never refuses); ``BudgetAccountant(1.0)`` refuses any spend past
    ε = 1 (pure DP: δ = 0); ``slack`` > 0 turns on advanced composition (module doc). ``spent`` / :meth:`total` is the
    (ε, δ) spent, :meth:`remaining` what is left (for ``k`` equal further spends), :meth:`spend` records a spend,
    :meth:`check` refuses one that would not fit, ``ledger`` lists every spend with what made it. Use
    ``accountant=`` on an estimator, or make one the default (:meth:`set_default`, or ``with accountant:``).
    Check and record are one step under a lock (threads), sums are exact (:mod:`littlestone.privacy.budget`), and a
    pickle of an accountant is a link to this one (:mod:`littlestone.privacy.accountant_link`: worker processes
    charge it).
    """

    _default: ClassVar["BudgetAccountant | None"] = None

    def __init__(self, epsilon: float = math.inf, delta: float = 0.0, slack: float = 0.0):
        eps = _as_float(epsilon, "accountant epsilon")
        if not eps > 0:
            raise PrivacyParameterError(f"accountant epsilon must be > 0, got {epsilon!r}")
        dlt = _as_float(delta, "accountant delta")
        if dlt == 1.0 and math.isinf(eps):  # the unlimited tracker (diffprivlib's default (inf, 1))
            tracker = True
        else:
            tracker = False
            dlt = check_delta(delta, "accountant delta")
        slk = _as_float(slack, "slack")
        if not 0.0 <= slk < 1.0:
            raise PrivacyParameterError(f"slack must lie in [0, 1), got {slack!r}")
        if slk > 0 and not tracker and not slk <= dlt:
            raise PrivacyParameterError(
                f"slack={slk:.3g} must not exceed the accountant's delta={dlt:.3g} (advanced composition spends it)"
            )
        super().__init__(eps, 0.0)
        self.delta = dlt
        self._unlimited = tracker  # (inf, 1): records every spend, refuses none
        self.slack = slk
        self.composition = "basic" if slk == 0 else "advanced (KOV17 Thm 3.5)"

    # ------------------------------------------------------------------ composition
    def _step_drift(self, eps: float) -> float:
        return eps * math.tanh(eps / 2.0)

    def _advanced(self, e: float, d: float, k: int) -> list[tuple[float, float]]:
        """KOV17 Thm 3.5 for the recorded spends plus k of (e, d), computed in floats (module doc)."""
        if self.slack == 0:
            return []
        sq = self._eps_sq + k * e * e
        drift = self._eps_drift + k * self._step_drift(e)
        keep = self._delta_keep * (1.0 - d) ** k
        adv = drift + math.sqrt(2.0 * sq * math.log(1.0 / self.slack))
        adv = min(adv, drift + math.sqrt(2.0 * sq * math.log(math.e + math.sqrt(sq) / self.slack)))
        return [(adv, 1.0 - (1.0 - self.slack) * keep)]

    def _fits(self, eps: Any, delta: Any) -> bool:
        return self._unlimited or super()._fits(eps, delta)

    # ------------------------------------------------------------------ diffprivlib's API
    def check(self, epsilon: float, delta: float = 0.0, what: str = "this spend") -> bool:
        """True if (epsilon, delta) fits in what remains; else BudgetExceededError (one line: the spend, the
        remainder)."""
        eps, dlt = self._checked(epsilon, delta)
        with self._lock:
            if not self.can_afford(eps, dlt):
                rem_e, rem_d = self.remaining()
                raise BudgetExceededError(
                    f"{what} needs (epsilon={eps:.12g}, delta={dlt:.3g}) but the accountant has only "
                    f"(epsilon={rem_e:.12g}, delta={rem_d:.3g}) left of (epsilon={self.epsilon:.6g}, "
                    f"delta={self.delta:.3g})" + (_SKLEARN_ADVICE if ".fit" in what else "")
                )
        return True

    def spend(self, epsilon: float, delta: float = 0.0, what: str = "unnamed spend") -> "BudgetAccountant":
        """Record a spend (after :meth:`check`); returns the accountant."""
        self.charge(epsilon, delta, what)
        return self

    def charge(self, epsilon: Any, delta: float = 0.0, what: str = "unnamed mechanism") -> Charge:
        """Check and record one spend atomically (a concurrent charge waits for this one); a mechanism, claim or
        learner is charged its claim."""
        if isinstance(epsilon, bool) or not isinstance(
            epsilon, numbers.Real
        ):  # a mechanism / claim / learner: charge its claim
            what = what if what != "unnamed mechanism" else getattr(epsilon, "what", "") or type(epsilon).__name__
            epsilon, delta = claim_pair(epsilon)
        eps, dlt = self._checked(epsilon, delta)
        with self._lock:
            self.check(eps, dlt, what)
            return self._record(eps, dlt, what)

    @staticmethod
    def _checked(epsilon: Any, delta: Any) -> tuple[float, float]:
        eps = _as_float(epsilon, "spent epsilon")
        if not 0 <= eps < math.inf:
            raise PrivacyParameterError(f"spent epsilon must be finite and >= 0, got {epsilon!r}")
        return eps + 0.0, check_delta(delta, "spent delta") + 0.0

    def total(self) -> tuple[float, float]:
        """The (ε, δ) spent so far under the accountant's composition (= :attr:`spent`)."""
        return self.spent

    @property
    def spent_budget(self) -> list[tuple[float, float]]:
        """Every spend as (ε, δ), in order (diffprivlib's name; :attr:`ledger` also says what spent it)."""
        return [(c.epsilon, c.delta) for c in self.ledger]

    def remaining(self, k: int = 1) -> tuple[float, float]:  # type: ignore[override]
        """The largest (ε, δ) that ``k`` further equal spends may each have and still fit (k = 1: what is left)."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise PrivacyParameterError(f"k must be an integer >= 1, got {k!r}")
        with self._lock:
            d_left = max(exact(self.delta) - self._delta_exact, 0) / (k * _ONE)  # int / int: correctly rounded
            if math.isinf(self.epsilon):
                return (math.inf, d_left)
            if self.slack == 0:
                return (max(exact(self.epsilon) - self._eps_exact, 0) / (k * _ONE), d_left)
            d = max(self.delta - self.spent[1], 0.0) / k  # δ of each of k spends
            lo, hi = 0.0, self.epsilon

            def fits(e: float) -> bool:
                return any(self._fits(*b) for b in self._after(e, d, k))

            if not fits(0.0):
                return (0.0, 0.0)
            for _ in range(100):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if fits(mid) else (lo, mid)
            return (lo, d)

    # ------------------------------------------------------------------ the default accountant
    @classmethod
    def default(cls) -> "BudgetAccountant":
        """The default accountant (an infinite tracker, created on first use): every private fit, learner and
        sanitizer given ``accountant=None`` is charged here (in a worker process: its parent's default)."""
        with _DEFAULT_LOCK:
            if BudgetAccountant._default is None:
                BudgetAccountant._default = BudgetAccountant(math.inf, 1.0)
            return BudgetAccountant._default

    def set_default(self) -> "BudgetAccountant":
        """Make this accountant the default; returns it."""
        BudgetAccountant._default = self
        return self

    @staticmethod
    def load_default(accountant: "BudgetAccountant | None") -> "BudgetAccountant":
        """The given accountant, or the default one when None (diffprivlib's ``load_default``)."""
        if accountant is None:
            return BudgetAccountant.default()
        if not isinstance(accountant, BudgetAccountant):
            raise LittlestoneError(f"accountant must be a littlestone.privacy.BudgetAccountant, not {accountant!r}")
        return accountant

    def __enter__(self) -> "BudgetAccountant":
        self.__dict__.setdefault("_previous_defaults", []).append(BudgetAccountant._default)
        return self.set_default()

    def __exit__(self, *exc: Any) -> None:
        stack = self.__dict__.get("_previous_defaults") or [None]
        BudgetAccountant._default = stack.pop()

    # ------------------------------------------------------------------ shared, never copied
    def __sklearn_clone__(self) -> "BudgetAccountant":
        return self

    def __copy__(self) -> "BudgetAccountant":
        return self

    def __deepcopy__(self, memo: dict) -> "BudgetAccountant":
        return self

    def __reduce__(self) -> Any:
        """A pickle is a link to this accountant, not a copy: unpickled in another process it charges this one
        (:mod:`littlestone.privacy.accountant_link`); unpickled here it is this object."""
        from .accountant_link import link_to, open_link

        return (open_link, (link_to(self),))

    def __repr__(self) -> str:
        e, d = self.spent
        how = "" if self.slack == 0 else f", slack={self.slack:g}"
        return (
            f"BudgetAccountant(epsilon={self.epsilon:g}, delta={self.delta:g}{how}; spent=({e:.6g}, {d:.3g}), "
            f"{len(self.ledger)} spends)"
        )


_DEFAULT_LOCK = threading.Lock()


#: set while a learner that was charged for its whole claim runs parts it built itself (their claims are in it)
_CONTAINED: contextvars.ContextVar[bool] = contextvars.ContextVar("littlestone_contained", default=False)


@contextlib.contextmanager
def contained() -> Iterator[None]:
    """Inside, :func:`charge_fit` charges nothing: a container (a dyadic sanitizer, a constructed-experts learner)
    was charged its whole claim, which composes the claims of the parts it builds and runs."""
    token = _CONTAINED.set(True)
    try:
        yield
    finally:
        _CONTAINED.reset(token)


def check_fit(accountant: Any, claim: Any, what: str) -> None:
    """Refuse (BudgetExceededError) a claim that does not fit ``accountant`` (None = the default), recording nothing:
    the budget is checked first, then the public sizes, then :func:`charge_fit` records (nothing inside
    :func:`contained`)."""
    if not _CONTAINED.get():
        e, d = claim_pair(claim)
        BudgetAccountant.load_default(accountant).check(e, d, what)


def charge_fit(accountant: Any, claim: Any, what: str) -> BudgetAccountant | None:
    """Check and record ``claim`` on ``accountant`` (None = the default); the one call estimators, learners and
    sanitizers make before they read any data (nothing inside :func:`contained`)."""
    if _CONTAINED.get():
        return None
    acc = BudgetAccountant.load_default(accountant)
    acc.charge(claim, what=what)
    return acc
