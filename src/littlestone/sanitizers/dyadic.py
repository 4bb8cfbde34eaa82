"""Sequential sanitization over dyadic intervals (LWY25 Algorithm 5, Fact E.6, Lemma E.8).

As x_t arrives, every dyadic interval (l, t) ∈ I that ends at t (I = :func:`littlestone.privacy.dyadic_intervals`:
(k·2^j + 1, (k+1)·2^j)) is sanitized by a fresh run of the given sanitizer on x_l..x_t. Any window [l, r] is then
answered by concatenating the synthetic sets of its ≤ 2⌊log2 T⌋ + 1 dyadic pieces
(:func:`littlestone.privacy.dyadic_decomposition`). Every x_t lies in L = ⌊log2 T⌋ + 1 intervals of I, so with each
run (ε/L, δ/L)-DP the whole release is (ε, δ)-DP by basic composition (Lemma E.8 with C ln T = L).
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import LittlestoneError
from ..experts.base import check_horizon
from ..privacy import check_delta, check_epsilon, dyadic_decomposition, tree_levels

RELATION = "replace-one"

#: make(epsilon, delta, length, run_index) -> an object with fit(X) and synthetic(size)
SanitizerFactory = Callable[[float, float, int, int], Any]


class DyadicSanitizer:
    """Algorithm 5 around any sanitizer factory; ``learn_one(x)``, ``window(l, r)`` (1-indexed, inclusive)."""

    private = True

    def __init__(self, horizon: int, epsilon: float, delta: float, make: SanitizerFactory):
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

    def privacy(self) -> tuple[float, float, str]:
        """(ε, δ): each point enters L intervals, each run (ε/L, δ/L)-DP (Lemma E.8)."""
        return (self.epsilon, self.delta, RELATION)

    def learn_one(self, x: Any) -> "DyadicSanitizer":
        if self.t >= self.horizon:
            raise LittlestoneError(f"the horizon T={self.horizon} is exhausted")
        self._data.append(x)
        self.t += 1
        t = self.t
        w = 1
        while w <= t and t % w == 0:  # the dyadic intervals of width w = 2^j ending at t
            l = t - w + 1
            sanitizer = self.make(self.epsilon_run, self.delta_run, w, self._runs)
            self._runs += 1
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
