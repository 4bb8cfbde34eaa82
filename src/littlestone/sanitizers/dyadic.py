"""Sequential sanitization over dyadic intervals (LWY25 Algorithm 5, Fact E.6, Lemma E.8).

As x_t arrives, every dyadic interval (l, t) ∈ I that ends at t (I = :func:`littlestone.privacy.dyadic_intervals`:
(k·2^j + 1, (k+1)·2^j)) is sanitized by a fresh run of the given sanitizer on x_l..x_t. Any window [l, r] is then
answered by concatenating the synthetic sets of its ≤ 2⌊log2 T⌋ + 1 dyadic pieces
(:func:`littlestone.privacy.dyadic_decomposition`). Every x_t lies in L = ⌊log2 T⌋ + 1 intervals of I, so with each
run (ε/L, δ/L)-DP the whole release is (ε, δ)-DP by basic composition (Lemma E.8 with C ln T = L).

``privacy()`` is composed from what the factory's sanitizers report, not from the request: the intervals of one level
are disjoint (parallel composition: the level's claim is the claim of its runs), the L levels compose by basic
composition. Every run's sanitizer is checked, before it reads data, to claim no more than its level declared.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import LittlestoneError, PrivacyParameterError
from ..experts.base import check_horizon
from ..privacy.accountant import contained
from ..privacy import (
    PrivacyClaim,
    check_delta,
    check_epsilon,
    compose,
    dyadic_decomposition,
    parallel_compose,
    tree_levels,
)
from ..privacy.accountant_link import ChargedPerGame, resolve_accountant

RELATION = "replace-one"

#: make(epsilon, delta, length, run_index) -> an object with fit(X) and synthetic(size)
SanitizerFactory = Callable[[float, float, int, int], Any]


class DyadicSanitizer(ChargedPerGame):
    """Algorithm 5 around any sanitizer factory; ``learn_one(x)``, ``window(l, r)`` (1-indexed, inclusive)."""

    private = True

    def __init__(self, horizon: int, epsilon: float, delta: float, make: SanitizerFactory, *, accountant: Any = None):
        self.accountant = accountant  # charged privacy() (all levels) at the first learn_one
        self._charged = False
        self.horizon = check_horizon(horizon)
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta)
        if not callable(make):
            raise LittlestoneError("make must be a callable (epsilon, delta, length, run_index) -> sanitizer")
        self.make = make
        self.levels = tree_levels(self.horizon)
        self.epsilon_run = self.epsilon / self.levels
        self.delta_run = self.delta / self.levels
        self.t = 0
        self._data: list = []
        self.synthetic_: dict[tuple[int, int], list] = {}
        self._runs = 0
        self._level_claims: dict[int, PrivacyClaim] = {}

    @staticmethod
    def first_run(width: int) -> int:
        """The run index of the first interval of ``width`` = 2^j (runs are numbered in the order learn_one makes
        them: at time t, widths 1, 2, 4, … dividing t)."""
        j = width.bit_length() - 1
        return sum((s & -s).bit_length() for s in range(1, width)) + j

    def level_claim(self, j: int) -> PrivacyClaim:
        """The claim the factory's sanitizer reports for the intervals of width 2^j (asked of the level's first run,
        once; every later run of the level is checked against it)."""
        if j not in self._level_claims:
            w = 1 << j
            made = self.make(self.epsilon_run, self.delta_run, w, self.first_run(w))
            self._level_claims[j] = sanitizer_claim(made)
        return self._level_claims[j]

    def privacy(self) -> PrivacyClaim:
        """Basic composition over the L levels of each level's claim — the intervals of one level are disjoint, so
        a level is the parallel composition of its runs (each point lies in one interval per level, Lemma E.8)."""
        levels = [
            parallel_compose([self.level_claim(j)], what=f"intervals of width {1 << j}") for j in range(self.levels)
        ]
        return compose(levels, "basic", what="dyadic sanitizer (LWY25 Alg 5, Lemma E.8)")

    def learn_one(self, x: Any) -> "DyadicSanitizer":
        if self.t >= self.horizon:
            raise LittlestoneError(f"the horizon T={self.horizon} is exhausted")
        if not self._charged:
            from ..privacy.accountant import charge_fit

            try:
                claim = self.privacy()
            except PrivacyParameterError:  # a factory without a finite claim (an exact, non-private baseline)
                if self.accountant is not None:
                    raise LittlestoneError(
                        "DyadicSanitizer: its factory's sanitizers have no finite privacy claim; an accountant refuses it"
                    ) from None
                claim = None
            if claim is not None:
                charge_fit(resolve_accountant(self), claim, f"DyadicSanitizer (T={self.horizon})")
            self._charged = True
        self._data.append(x)
        self.t += 1
        t = self.t
        w = 1
        while w <= t and t % w == 0:  # the dyadic intervals of width w = 2^j ending at t
            l = t - w + 1
            sanitizer = self.make(self.epsilon_run, self.delta_run, w, self._runs)
            claim, declared = sanitizer_claim(sanitizer), self.level_claim(w.bit_length() - 1)
            if claim.epsilon > declared.epsilon * (1 + 1e-12) or claim.delta > declared.delta * (1 + 1e-12):
                raise LittlestoneError(
                    f"run {self._runs} (width {w}) claims {claim.pair}, more than its level's {declared.pair}"
                )
            self._runs += 1
            with contained():  # each run's claim is a part of this sanitizer's, charged at its first learn_one
                sanitizer.fit(self._data[l - 1 : t])
            self.synthetic_[(l, t)] = list(sanitizer.synthetic(w))
            w <<= 1
        return self

    def window(self, left: int, right: int) -> list:
        """S′_{l,r}: the synthetic points of [l, r] (r ≤ t) from its dyadic pieces (Fact E.6)."""
        if not (isinstance(left, int) and isinstance(right, int)) or not 1 <= left <= right <= self.t:
            raise LittlestoneError(f"window [{left}, {right}] is not inside the {self.t} points seen")
        out: list = []
        for piece in dyadic_decomposition(left, right):
            out.extend(self.synthetic_[piece])
        return out


def sanitizer_claim(sanitizer: Any) -> PrivacyClaim:
    """A sanitizer's reported claim as a PrivacyClaim (``privacy()`` may return one or an (ε, δ[, relation]) tuple)."""
    report = getattr(sanitizer, "privacy", None)
    if not callable(report):
        raise LittlestoneError(f"the factory's sanitizer {type(sanitizer).__name__} reports no privacy() claim")
    out = report()
    if isinstance(out, PrivacyClaim):
        return out
    try:
        eps, dlt, *rest = out
    except (TypeError, ValueError):
        raise LittlestoneError(f"a sanitizer's privacy() must be a PrivacyClaim or (ε, δ[, relation]), got {out!r}")
    return PrivacyClaim(eps, dlt, rest[0] if rest else RELATION, type(sanitizer).__name__)
