"""Binary (tree) mechanism for continual counting (Dwork et al. 2010; Chan–Shi–Song 2011) and the interval family
of LWY25 Fact E.6: dyadic intervals of [1, T]."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import DomainError
from .backends import Backend, check_backend
from .budget import PrivacyBudget
from .mechanism import Mechanism, PrivacyClaim
from .params import _as_float, check_epsilon, check_probability, check_sensitivity


def _check_horizon(T: int) -> int:
    if isinstance(T, bool) or int(T) != T or int(T) < 1:
        raise DomainError(f"time horizon T must be a positive integer, got {T!r}")
    return int(T)


def tree_levels(T: int) -> int:
    """⌊log2 T⌋ + 1: the number of dyadic intervals of [1, T] containing any fixed t (at most)."""
    return _check_horizon(T).bit_length()


def dyadic_intervals(T: int) -> list[tuple[int, int]]:
    """Fact E.6's family I: all (k·2^j + 1, (k+1)·2^j) ⊆ [1, T]. |I| ≤ 2T; each t lies in ≤ ⌊log2 T⌋+1 of them."""
    T = _check_horizon(T)
    out: list[tuple[int, int]] = []
    for j in range(tree_levels(T)):
        w = 1 << j
        out.extend((k * w + 1, (k + 1) * w) for k in range(T // w))
    return out


def dyadic_decomposition(left: int, right: int) -> list[tuple[int, int]]:
    """[left, right] (1-indexed, inclusive) as ≤ 2⌊log2(right-left+1)⌋+1 disjoint consecutive dyadic intervals
    (Fact E.6, third property): greedily the largest aligned block starting at the current point."""
    if not (isinstance(left, (int, np.integer)) and isinstance(right, (int, np.integer))) or not 1 <= left <= right:
        raise DomainError(f"need integers 1 <= left <= right, got ({left!r}, {right!r})")
    out = []
    t = int(left)
    while t <= right:
        offset = t - 1
        w = offset & -offset if offset else 1 << (int(right).bit_length())
        while t + w - 1 > right:
            w >>= 1
        out.append((t, t + w - 1))
        t += w
    return out


class BinaryMechanismRelease(Mechanism):
    """ε-DP continual counting (binary mechanism, Dwork et al. 2010; Chan–Shi–Song 2011) as one release: ``data`` is
    the whole stream x_1..x_T (x_t ∈ [0, Δ]; neighbours: one element changed), the output all T noisy prefix sums —
    what :class:`BinaryMechanism` answers step by step (it charges this object's claim)."""

    name = "binary mechanism"

    def __init__(self, T: int, epsilon: float, *, sensitivity: float = 1.0, discrete: bool = False):
        self.T = _check_horizon(T)
        self.discrete = bool(discrete)
        self.epsilon = check_epsilon(epsilon)
        self.sensitivity = check_sensitivity(sensitivity)
        if self.discrete and self.sensitivity != int(self.sensitivity):
            raise DomainError(f"discrete binary mechanism needs an integer sensitivity, got {sensitivity!r}")

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", f"{self.name} (T={self.T})")

    def stream(self, data: Any) -> list:
        """The stream as a list of T values (a public length: DomainError otherwise)."""
        values = list(data)
        if len(values) != self.T:
            raise DomainError(f"binary mechanism: the stream has {len(values)} values, T = {self.T}")
        return values

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> tuple:
        values = self.stream(data)
        counter = BinaryMechanism(
            self.T, self.epsilon, sensitivity=self.sensitivity, backend=backend, budget=budget, discrete=self.discrete
        )
        return tuple(counter.step(x) for x in values)


class BinaryMechanism:
    """ε-DP continual counting of a stream x_1..x_T with x_t ∈ [0, Δ] (neighbours: one element changed).

    Every dyadic interval's sum gets Lap(Δ·L/ε) noise, L = ⌊log2 T⌋+1 (each x_t is in ≤ L intervals, so the vector
    of interval sums has L1 sensitivity Δ·L). All noise is data-independent and drawn at construction in one call.
    :meth:`step` feeds x_t and returns the noisy prefix sum (a sum of ≤ L noisy intervals); :meth:`range_sum` answers
    any [l, r] already seen from ≤ 2L intervals. Charges (ε, 0) once.

    ``discrete=True`` (counting streams: integer x_t and Δ) uses discrete Laplace noise and exact integer arithmetic.
    ``discrete=False`` (real x_t) on a floating-point-safe backend (SecureBackend) releases every dyadic node through
    OpenDP's float Laplace measurement applied to the node's true sum, as soon as the node is complete; prefix and
    range sums are sums of released nodes (post-processing). No noise is ever added to data in float arithmetic on the
    SecureBackend (adding a float noise sample to a sum leaks the sum through the output's low mantissa bits,
    Mironov 2012: audit ``binary_mechanism_float_safe``). On the SeededBackend (not floating-point safe, for
    experiments) the noise is drawn at construction and added in floats."""

    def __init__(
        self,
        T: int,
        epsilon: float,
        *,
        sensitivity: float = 1.0,
        backend: Backend,
        budget: PrivacyBudget | None = None,
        discrete: bool = False,
    ):
        self.mechanism = BinaryMechanismRelease(T, epsilon, sensitivity=sensitivity, discrete=discrete)
        self.T, self.discrete = self.mechanism.T, self.mechanism.discrete
        self.epsilon, self.sensitivity = self.mechanism.epsilon, self.mechanism.sensitivity
        backend = check_backend(backend)
        self.levels = tree_levels(self.T)
        self.noise_scale = self.sensitivity * self.levels / self.epsilon
        self.mechanism.charge_to(budget)
        # level j holds T >> j intervals; one flat noise vector, level offsets in _offset
        sizes = [self.T >> j for j in range(self.levels)]
        self._offset = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        n_nodes = int(self._offset[-1])
        self._backend = backend
        # Secure + continuous: nodes are released one by one through OpenDP (_released), nothing is precomputed.
        self._release_nodes = backend.floating_point_safe and not self.discrete
        if self._release_nodes:
            self._released = np.full(n_nodes, np.nan)
            self._prefix = np.zeros(self.T + 1)
            self.t = 0
            return
        if self.discrete:
            self._noise = np.asarray(backend.discrete_laplace(self.noise_scale, n_nodes), dtype=np.int64).reshape(-1)
            self._prefix = np.zeros(self.T + 1, dtype=np.int64)
        else:
            self._noise = np.asarray(backend.laplace(self.noise_scale, n_nodes), dtype=float).reshape(-1)
            self._prefix = np.zeros(self.T + 1)
        # Noise part of every prefix sum [1, t]: its dyadic decomposition is one node per set bit j of t (node index
        # (t >> j) - 1 on level j). Data-independent, so precomputed for all t at once.
        ts = np.arange(self.T + 1, dtype=np.int64)
        self._prefix_noise = np.zeros(self.T + 1, dtype=self._noise.dtype)
        for j in range(self.levels):
            has = ((ts >> j) & 1).astype(bool)
            self._prefix_noise[has] += self._noise[self._offset[j] + (ts[has] >> j) - 1]
        self.t = 0

    def _node(self, left: int, right: int) -> float:
        w = right - left + 1
        j = w.bit_length() - 1
        if self._release_nodes:
            return float(self._released[self._offset[j] + (left - 1) // w])
        noisy = self._prefix[right] - self._prefix[left - 1] + self._noise[self._offset[j] + (left - 1) // w]
        return int(noisy) if self.discrete else float(noisy)

    def step(self, value: float) -> float:
        """Feed x_t (0 ≤ x_t ≤ Δ) and return the noisy count x_1 + … + x_t."""
        if self.t >= self.T:
            raise DomainError(f"binary mechanism: the horizon T={self.T} is exhausted")
        v = _as_float(value, "stream value")
        if not 0.0 <= v <= self.sensitivity:
            raise DomainError(f"stream value {value!r} outside [0, {self.sensitivity:g}] (the sensitivity)")
        if self.discrete and v != int(v):
            raise DomainError(f"discrete binary mechanism: stream value {value!r} is not an integer")
        self.t += 1
        self._prefix[self.t] = self._prefix[self.t - 1] + (int(v) if self.discrete else v)
        if self._release_nodes:
            self._release_completed_nodes(self.t)
        return self.prefix_sum(self.t)

    def _release_completed_nodes(self, t: int) -> None:
        """Release (through OpenDP's float Laplace, one call) every dyadic node whose right end is t."""
        levels = [j for j in range(self.levels) if t % (1 << j) == 0]
        sums = [self._prefix[t] - self._prefix[t - (1 << j)] for j in levels]
        noisy = self._backend.add_laplace(np.asarray(sums, dtype=float), self.noise_scale)
        for j, value in zip(levels, np.asarray(noisy, dtype=float).ravel()):
            self._released[self._offset[j] + (t >> j) - 1] = value

    def prefix_sum(self, t: int) -> float:
        """Noisy x_1 + … + x_t for t already fed (the sum of the ≤ L noisy dyadic nodes covering [1, t])."""
        if not 1 <= t <= self.t:
            raise DomainError(f"prefix [1, {t}] is not inside the {self.t} elements fed so far")
        if self._release_nodes:
            return float(
                sum(self._released[self._offset[j] + (t >> j) - 1] for j in range(self.levels) if (t >> j) & 1)
            )
        noisy = self._prefix[t] + self._prefix_noise[t]
        return int(noisy) if self.discrete else float(noisy)

    def range_sum(self, left: int, right: int) -> float:
        """Noisy x_left + … + x_right (1-indexed, inclusive) from the dyadic decomposition; right ≤ steps fed."""
        if not 1 <= left <= right <= self.t:
            raise DomainError(f"range [{left}, {right}] is not inside the {self.t} elements fed so far")
        return sum(self._node(a, b) for a, b in dyadic_decomposition(left, right))

    def error_bound(self, beta: float, queries: int = 1) -> float:
        """W.p. ≥ 1-β, each of ``queries`` range sums is off by ≤ u·b·ln(u·queries/β), u = 2L (union bound)."""
        u = 2 * self.levels
        return u * self.noise_scale * math.log(u * max(int(queries), 1) / check_probability(beta))

    @property
    def spent(self) -> tuple[float, float]:
        return (self.epsilon, 0.0)
