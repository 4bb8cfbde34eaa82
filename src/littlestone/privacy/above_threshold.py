"""AboveThreshold / sparse vector with adaptively chosen queries (LWY25 Theorem 2.5; DR14 §3.6, Alg. 1)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import BudgetExceededError, DomainError, PrivacyParameterError
from .backends import Backend, check_backend
from .budget import PrivacyBudget
from .mechanism import Mechanism, PrivacyClaim
from .params import _as_float, check_epsilon, check_positive_int, check_probability, check_sensitivity

_NOISE_BATCH = 64
_THRESHOLD_BATCH = 16
#: On a floating-point-safe backend queries are compared on the grid g = Δ/2^GRID_BITS in exact integers.
GRID_BITS = 10
#: ints below this in absolute value are exact in float arithmetic (test_count's fast path)
_EXACT = 1 << 52
_CLIP = 2.0**900  # |value/g| stays finite; clipping is a contraction, so it keeps the sensitivity


class AboveThreshold:
    """ε-DP answers ⊥ (False) / ⊤ (True) to adaptively chosen queries of sensitivity Δ (replace-one neighbours),
    halting at the first ⊤ (Dwork–Roth Thm 3.23). Threshold noise Lap(2Δ/ε) drawn once per run; query noise
    Lap(4Δ/ε) fresh per query. Both are drawn ahead in batches (they do not depend on the data; one OpenDP call
    serves 64 queries, or 16 runs). Charges (ε, 0) at construction and again at every :meth:`restart` (the "Sparse"
    variant, which uses a fresh threshold noise).

    Floating-point safety: on a floating-point-safe backend (SecureBackend) no noise is added in floats. Values and
    the threshold are rounded to the grid g = Δ/2^10 (integers v̄ = round(v/g)), whose sensitivity is K = 2^10 + 1
    grid units, and the test is ``v̄ + ν ≥ T̄ + ρ`` in exact integer arithmetic with OpenDP's discrete Laplace
    ρ ~ DLap(2K/ε), ν ~ DLap(4K/ε) — Dwork–Roth's proof goes through verbatim for integer shifts, so the claim
    stays (ε, 0); the accuracy loses a factor 1 + 2^-10 and 2.5·g (:meth:`accuracy`). On the
    SeededBackend (experiments) the textbook continuous version runs in floats.

    ``integer_queries=True`` declares every query value an integer and Δ an integer (running counts): on a
    floating-point-safe backend the comparison then runs on the unit grid — no rounding, so the sensitivity stays Δ
    units instead of K = 2^10 + 1 — with noise P(z) ∝ q^|z|, q ≥ exp(−ε/(cΔ)) (``Backend.discrete_laplace_at_least``:
    the dyadic sampler, ~20× cheaper per draw than the exact DLap at the 2^10 grid's scale); a non-integer value is
    refused. The proof is the same (integer shifts, ratio ≤ e^(|shift|/b); docs/derivations.md, "AboveThreshold on
    integer queries"). On the SeededBackend the flag only adds the check.

    Pass the query's true value to :meth:`test`; for LWY25's running-sum use, pass the cumulative sum.
    """

    #: threshold and query noise scales, in units of Δ/ε (DR14 Alg. 1: Lap(2Δ/ε), Lap(4Δ/ε)); subclasses with a
    #: different proof (:class:`~littlestone.privacy.MonotoneAboveThreshold`) change them
    _threshold_scale = 2.0
    _query_scale = 4.0
    #: :meth:`test_count`'s copy of the query-noise buffer as a list (re-made when the buffer is redrawn)
    _as_list: list = []
    _as_list_of: Any = None
    _list_len = 0

    def __init__(
        self,
        threshold: float,
        epsilon: float,
        *,
        sensitivity: float = 1.0,
        backend: Backend,
        budget: PrivacyBudget | None = None,
        noise_batch: int = _NOISE_BATCH,
        threshold_batch: int = _THRESHOLD_BATCH,
        integer_queries: bool = False,
    ):
        self.mechanism = self._make_mechanism(threshold, epsilon, sensitivity)
        self.threshold, self.epsilon = self.mechanism.threshold, self.mechanism.epsilon
        self._noise_batch = check_positive_int(noise_batch, "noise_batch")
        self._threshold_batch = check_positive_int(threshold_batch, "threshold_batch")
        self.sensitivity = self.mechanism.sensitivity
        self.backend = check_backend(backend)
        self.budget = budget
        self.runs = 0
        self.n_queries = 0
        self._buffer = np.empty(0)
        self._pos = 0
        self._t_buffer = np.empty(0)
        self._t_pos = 0
        self.integer_queries = bool(integer_queries)
        if self.integer_queries and not float(self.sensitivity).is_integer():
            raise PrivacyParameterError(
                f"AboveThreshold(integer_queries=True) needs an integer sensitivity, got {self.sensitivity!r}"
            )
        if not self.backend.floating_point_safe:
            self._grid: float | None = None
        elif self.integer_queries:  # integer values: the unit grid, exact, sensitivity Δ units
            self._grid, self._units = 1.0, int(self.sensitivity)
        else:
            self._grid = self.sensitivity / 2**GRID_BITS
            self._units = 2**GRID_BITS + 1  # sensitivity of round(v/g) in grid units
        self._start_run()

    def _make_mechanism(self, threshold: float, epsilon: float, sensitivity: float) -> "AboveThresholdRun":
        return AboveThresholdRun(threshold, epsilon, sensitivity=sensitivity)

    def _on_grid(self, value: float) -> int:
        assert self._grid is not None
        return round(min(max(value, -_CLIP), _CLIP) / self._grid)

    def _draw(self, scale_factor: float, n: int) -> np.ndarray:
        """n noise values of scale factor·Δ/ε: discrete (grid units) on a floating-point-safe backend."""
        if self._grid is not None:  # P(z) ∝ q^|z| with q ≥ exp(−1/scale): integer shifts cost what DLap(scale)'s do
            scale = scale_factor * self._units / self.epsilon
            return np.asarray(self.backend.discrete_laplace_at_least(scale, n), np.int64)
        return np.asarray(self.backend.laplace(scale_factor * self.sensitivity / self.epsilon, n), dtype=float)

    def _start_run(self) -> None:
        self.mechanism.charge_to(self.budget, "AboveThreshold" if self.runs == 0 else "AboveThreshold restart")
        self.runs += 1
        self.halted = False
        if self._t_pos >= self._t_buffer.size:
            self._t_buffer = self._draw(self._threshold_scale, self._threshold_batch)
            self._t_pos = 0
        rho = self._t_buffer[self._t_pos].item()
        if self._grid is None:
            self._noisy_threshold: float | int = self.threshold + rho
        elif self.integer_queries:  # v + ν − ρ ≥ τ ⟺ v + ν − ρ ≥ ⌈τ⌉ for integers: the real comparison, exactly
            self._noisy_threshold = math.ceil(min(max(self.threshold, -_CLIP), _CLIP)) + rho
        else:
            self._noisy_threshold = self._on_grid(self.threshold) + rho
        self._t_pos += 1

    def _query_noise(self) -> float | int:
        if self._pos >= self._buffer.size:
            self._buffer = self._draw(self._query_scale, self._noise_batch)
            self._pos, self._list_len = 0, 0
        z = self._buffer[self._pos].item()
        self._pos += 1
        return z

    def test(self, value: float) -> bool:
        """⊤ (True) iff value + Lap(4Δ/ε) ≥ threshold + Lap(2Δ/ε); after a ⊤ the instance halts."""
        if self.halted:
            raise BudgetExceededError(
                "AboveThreshold already answered ⊤ and halted; call restart() (charges epsilon again) to continue"
            )
        v = _as_float(value, "query value")
        if math.isinf(v):
            raise DomainError("AboveThreshold: query value is infinite")
        if self.integer_queries and not v.is_integer():
            raise DomainError(f"AboveThreshold(integer_queries=True): query value {value!r} is not an integer")
        self.n_queries += 1
        if self._grid is not None:  # exact integers (floating-point safe)
            above = bool(self._on_grid(v) + self._query_noise() >= self._noisy_threshold)
        else:
            above = bool(v + self._query_noise() >= self._noisy_threshold)
        self.halted = above
        return above

    def test_count(self, count: int) -> bool:
        """:meth:`test` for a Python ``int`` the caller computed itself (a running count of 0/1 indicators, with
        ``integer_queries=True``): the same noise, drawn in the same order, and the same comparison — an int is finite,
        integral and exact on the unit grid, so the value checks of :meth:`test` are skipped (one per round of a
        private online learner, issue 33 item 6). The query noise is read from the current batch as a list of Python
        numbers (``_as_list``, its length ``_list_len``; 0 when the batch is new or was drawn by another path)."""
        pos = self._pos
        if pos < self._list_len and type(count) is int and -_EXACT < count < _EXACT and not self.halted:
            self.n_queries += 1
            above = count + self._as_list[pos] >= self._noisy_threshold
            self._pos = pos + 1
            self.halted = above
            return above
        return self._test_count(count)

    def _test_count(self, count: int) -> bool:
        """:meth:`test_count` off its fast path: a halted instance, a value :meth:`test` must check, a new batch."""
        if self.halted:
            raise BudgetExceededError(
                "AboveThreshold already answered ⊤ and halted; call restart() (charges epsilon again) to continue"
            )
        if type(count) is not int or not self.integer_queries or abs(count) >= _EXACT:
            return self.test(count)
        self.n_queries += 1
        if self._pos >= self._buffer.size:
            self._buffer = self._draw(self._query_scale, self._noise_batch)
            self._pos = 0
        if self._as_list_of is not self._buffer:  # the buffer as Python numbers (read one per call), from its start
            self._as_list, self._as_list_of = [], self._buffer
        if self._pos >= len(self._as_list):  # converted in doubling pieces: a short segment reads few of a batch
            n = len(self._as_list)
            self._as_list += self._buffer[n : max(self._pos + 1, 2 * n, 64)].tolist()
        self._list_len = len(self._as_list)
        above = count + self._as_list[self._pos] >= self._noisy_threshold
        self._pos += 1
        self.halted = above
        return above

    def first_above(self, values: Any) -> int:
        """:meth:`test` on ``values[0], values[1], …`` until the first ⊤: its index (the instance then halts), or −1
        when every answer is ⊥. Draws exactly the noise those calls draw, in the same batches and order, so a
        vectorised caller releases what a round-by-round caller releases for the same backend state."""
        if self.halted:
            raise BudgetExceededError(
                "AboveThreshold already answered ⊤ and halted; call restart() (charges epsilon again) to continue"
            )
        v = np.asarray(values, dtype=float).ravel()
        if v.size == 0:
            return -1
        if not np.isfinite(v).all():
            raise DomainError("AboveThreshold: query value is not finite")
        if self.integer_queries and not np.array_equal(v, np.rint(v)):
            raise DomainError("AboveThreshold(integer_queries=True): a query value is not an integer")
        if self._grid is not None and float(np.abs(v).max()) / self._grid >= 2.0**52:
            for i, value in enumerate(v.tolist()):  # beyond exact int64 grid arithmetic: the scalar path
                if self.test(value):
                    return i
            return -1
        n, done = v.size, 0
        while done < n:  # batch by batch, drawing the next batch only when test() would
            if self._pos >= self._buffer.size:
                self._buffer, self._pos, self._list_len = self._draw(self._query_scale, self._noise_batch), 0, 0
            k = min(self._buffer.size - self._pos, n - done)
            seg, noise = v[done : done + k], self._buffer[self._pos : self._pos + k]
            if self._grid is not None:  # exact integers (floating-point safe)
                hit = np.rint(seg / self._grid).astype(np.int64) + noise >= self._noisy_threshold
            else:
                hit = seg + noise >= self._noisy_threshold
            tops = np.flatnonzero(hit)
            if tops.size:
                first = int(tops[0])
                self._pos += first + 1
                self.n_queries += done + first + 1
                self.halted = True
                return done + first
            self._pos += k
            done += k
        self.n_queries += n
        return -1

    def restart(self) -> None:
        """Start a fresh run (new threshold noise) after a ⊤; charges another (ε, 0)."""
        self._start_run()

    @property
    def spent(self) -> tuple[float, float]:
        """(ε, δ) spent by this instance: ε per run, by basic composition."""
        return (self.epsilon * self.runs, 0.0)

    def accuracy(self, k: int, beta: float) -> float:
        """α = 8Δ(ln k + ln(2/β))/ε: w.p. ≥ 1-β over k queries, ⊤ ⇒ value ≥ T - α and ⊥ ⇒ value ≤ T + α
        (Dwork–Roth Thm 3.24; LWY25 Thm 2.5). On the integer grid (floating-point-safe backend) Δ becomes
        K·g = Δ(1 + 2^-10), rounding adds g/2, and the discrete tails P[|Z| ≥ a] = 2t^a/(1+t) ≤ t^(a-1) one grid
        unit per noise (2.5·g in all)."""
        if self._grid is None:
            return above_threshold_accuracy(k, self.epsilon, beta, sensitivity=self.sensitivity)
        return grid_factor(self) * above_threshold_accuracy(
            k, self.epsilon, beta, sensitivity=self._units * self._grid
        ) + rounding_margin(self)


class RunningSumAboveThreshold:
    """Seed 004 Theorem 2.5's interface: receives b_t ∈ [0, Δ] (adaptively chosen) and answers whether the running
    sum b_1 + … + b_t has crossed τ — AboveThreshold on the queries Σ_{i≤t} b_i, each of sensitivity Δ under
    changing one b_i. ε-DP; charges (ε, 0) per run; after a ⊤, :meth:`restart` keeps the sum and starts a new run."""

    def __init__(
        self,
        threshold: float,
        epsilon: float,
        *,
        sensitivity: float = 1.0,
        backend: Backend,
        budget: PrivacyBudget | None = None,
    ):
        self._inner = AboveThreshold(threshold, epsilon, sensitivity=sensitivity, backend=backend, budget=budget)
        self.total = 0.0
        self.t = 0

    def add(self, b: float) -> bool:
        """Feed b_t; ⊤ (True) when the noisy running sum crosses the noisy threshold."""
        v = _as_float(b, "stream value")
        if not 0.0 <= v <= self._inner.sensitivity:
            raise DomainError(f"stream value {b!r} outside [0, {self._inner.sensitivity:g}] (the sensitivity)")
        if self._inner.halted:
            self._inner.test(0.0)  # raises the halted error without touching the sum
        self.total += v
        self.t += 1
        return self._inner.test(self.total)

    def restart(self) -> None:
        self._inner.restart()

    @property
    def halted(self) -> bool:
        return self._inner.halted

    @property
    def spent(self) -> tuple[float, float]:
        return self._inner.spent

    def accuracy(self, T: int, beta: float) -> float:
        """8Δ(ln T + ln(2/β))/ε over T rounds (LWY25 Thm 2.5)."""
        return self._inner.accuracy(T, beta)


def grid_factor(at: AboveThreshold) -> float:
    """The noise-scale factor of the discrete path's tails: 1 + 2^-20 when the noise may be the dyadic sampler's
    (its q ≤ e^(−1/b) + 2^-31 gives ln(1/q) ≥ (1 − 2^-23)/b for every b ≤ 64, so P[|ν| > a] ≤ q^a ≤ e^(−a/(b(1 + 2^-20))));
    the exact DLap's (scales above 64) is covered too; 1 on a float backend."""
    return 1.0 + 2.0**-20 if at._grid is not None else 1.0


def rounding_margin(at: AboveThreshold) -> float:
    """What the discrete path adds to the accuracy: 2.5·g on the 2^-10 grid (rounding g/2, each discrete tail one unit
    longer); 0 on the unit grid of integer queries (no rounding: v + ν ≥ ⌈τ⌉ + ρ is the real comparison, and
    P[|ν| > a] = 2q^(⌊a⌋+1)/(1 + q) ≤ q^a)."""
    if at._grid is None or at.integer_queries:
        return 0.0
    return 2.5 * at._grid


def above_threshold_accuracy(k: int, epsilon: float, beta: float, *, sensitivity: float = 1.0) -> float:
    """8Δ(ln k + ln(2/β))/ε (Dwork–Roth Thm 3.24)."""
    k = check_positive_int(k, "number of queries k")
    return (
        8.0
        * check_sensitivity(sensitivity)
        * (math.log(k) + math.log(2.0 / check_probability(beta)))
        / check_epsilon(epsilon)
    )


class SparseVector:
    """Dwork–Roth *Sparse*: ε-DP ⊤/⊥ answers to adaptively chosen queries of sensitivity Δ (replace-one neighbours)
    until c = ``max_positives`` ⊤ answers; each run is an AboveThreshold with ε/c (fresh threshold noise after every ⊤),
    so c runs compose to ε (Dwork–Roth Thm 3.25, pure-DP version). Charges ε once at construction."""

    def __init__(
        self,
        threshold: float,
        epsilon: float,
        max_positives: int,
        *,
        sensitivity: float = 1.0,
        backend: Backend,
        budget: PrivacyBudget | None = None,
    ):
        self.mechanism = SparseVectorRun(threshold, epsilon, max_positives, sensitivity=sensitivity)
        self.epsilon, self.max_positives = self.mechanism.epsilon, self.mechanism.max_positives
        self.mechanism.charge_to(budget)
        self._inner = AboveThreshold(
            threshold, self.epsilon / self.max_positives, sensitivity=sensitivity, backend=backend, budget=None
        )
        self.positives = 0

    @property
    def halted(self) -> bool:
        return self.positives >= self.max_positives

    def test(self, value: float) -> bool:
        """⊤/⊥ as AboveThreshold; after c ⊤ answers further queries raise."""
        if self.halted:
            raise BudgetExceededError(f"SparseVector already answered ⊤ {self.max_positives} times and halted")
        above = self._inner.test(value)
        if above:
            self.positives += 1
            if not self.halted:
                self._inner.restart()
        return above

    @property
    def spent(self) -> tuple[float, float]:
        return (self.epsilon, 0.0)


# ------------------------------------------------------------------------------ the mechanisms on a whole stream


class AboveThresholdRun(Mechanism):
    """ε-DP AboveThreshold (Dwork–Roth Alg. 1) as one release: ``data`` is the stream of query values (sensitivity Δ
    each, replace-one neighbours), the output the index of the first ⊤ (−1: none). :class:`AboveThreshold` (the
    interactive form) validates its parameters and charges its runs through this object."""

    name = "AboveThreshold"

    def __init__(self, threshold: float, epsilon: float, *, sensitivity: float = 1.0):
        self.threshold = _as_float(threshold, "threshold")
        if math.isinf(self.threshold):
            raise DomainError("AboveThreshold: threshold must be finite")
        self.epsilon = check_epsilon(epsilon)
        self.sensitivity = check_sensitivity(sensitivity)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", self.name)

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> int:
        at = AboveThreshold(self.threshold, self.epsilon, sensitivity=self.sensitivity, backend=backend, budget=budget)
        for i, value in enumerate(data):
            if at.test(value):
                return i
        return -1


class RunningSumAboveThresholdRun(AboveThresholdRun):
    """LWY25 Thm 2.5 as one release: ``data`` is the stream b_1, b_2, … ∈ [0, Δ], the output the round whose running
    sum first crosses τ (−1: none); ε-DP under changing one b_i (:class:`RunningSumAboveThreshold`)."""

    name = "running-sum AboveThreshold"

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> int:
        at = RunningSumAboveThreshold(
            self.threshold, self.epsilon, sensitivity=self.sensitivity, backend=backend, budget=budget
        )
        for i, value in enumerate(data):
            if at.add(value):
                return i
        return -1


class SparseVectorRun(Mechanism):
    """Dwork–Roth *Sparse* as one release: ``data`` is the stream of query values, the output the ⊤/⊥ answers until
    c = ``max_positives`` ⊤ answers or the end of the stream; ε-DP (c runs of AboveThreshold at ε/c each).
    :class:`SparseVector` (the interactive form) validates its parameters and charges through this object."""

    name = "sparse vector"

    def __init__(self, threshold: float, epsilon: float, max_positives: int, *, sensitivity: float = 1.0):
        self.epsilon = check_epsilon(epsilon)
        self.max_positives = check_positive_int(max_positives, "max_positives")
        self.run = AboveThresholdRun(threshold, self.epsilon / self.max_positives, sensitivity=sensitivity)
        self.threshold, self.sensitivity = self.run.threshold, self.run.sensitivity

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", f"{self.name} (c={self.max_positives})")

    def __call__(self, data: Any, *, backend: Any, budget: PrivacyBudget | None = None) -> tuple[bool, ...]:
        sv = SparseVector(
            self.threshold,
            self.epsilon,
            self.max_positives,
            sensitivity=self.sensitivity,
            backend=backend,
            budget=budget,
        )
        answers = []
        for value in data:
            answers.append(sv.test(value))
            if sv.halted:
                break
        return tuple(answers)
