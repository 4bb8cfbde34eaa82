"""LWY25 Algorithm 3 (§4.1, Thm 4.1, Cor 4.3) on thresholds over a huge ordered domain (e.g. ``Thresholds(2**60)``):
the same learner as :class:`~littlestone.agnostic_online.Algorithm3`, with structured parts so that nothing is dense
over X — cost polylog(|X|) per synthetic point.

Batches of B rounds; inside batch b round t draws i_t uniformly from [B] and predicts with h_t ~ A(S_{i_t}^b) (the B
learners are frozen during the batch). At the end of the batch the H^label sanitizer for thresholds
(:class:`~littlestone.sanitizers.threshold_label.ThresholdLabelSanitizer`, (ε, 0)-DP, α = 3Ψ/B) runs on the batch's
B labelled examples; its B synthetic examples are randomly permuted and the i-th goes to subsequence i, so each
subsequence gets exactly one synthetic point per batch. The data are read only by the sanitizer, on disjoint batches:
the learner's claim is the sanitizer's (post-processing and parallel composition, Thm 4.1's proof).

A (``learner=``), both proper and both in closed form:
  * "hedge" (default) — exponential weights over the n+1 thresholds, uniform prior, η = √(8 ln(n+1)/τ), τ = ⌊T/B⌋:
    a randomized proper learner with expected regret R(τ) = √(τ ln(n+1)/2), the R of Thm 4.1. A learner's loss is
    piecewise constant between its (sorted) synthetic points, so sampling h_t is sampling one of ≤ b+1 segments and a
    uniform threshold inside it (all learners at once: they hold exactly b points each after b batches).
  * "soa" — the SOA of the threshold version space {t : lo ≤ t ≤ hi} of the synthetic examples consistent with it
    (contradicting ones are skipped), vectorized over the B learners; every output is checked to lie in the class
    (0 ≤ t ≤ n and lo ≤ t ≤ hi; LittlestoneError otherwise). Its guarantee is the realizable one only.

``batch="theory"`` (default) is the B minimizing Thm 4.1's bound with constants for this sanitizer and Hedge
(:func:`littlestone.bounds.threshold_label.algorithm3_thresholds_batch`) — Cor 4.3's trade-off of B·R(T/B) against
αT, with α(B) = 3Ψ/B (this sanitizer's rate is 1/B, not the 1/√B of the generic Thm 4.2 sanitizer Cor 4.3 uses);
``batch="cor4.3"`` is Cor 4.3's Õ formula B = ⌈(T d⁵ √d*/ε)^{1/2}⌉ with constants and logarithms set to 1, d = Ldim,
d* = dual Ldim (≥ T on 2^60 points: one batch); or an integer.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator, spawn_seeds
from ..bounds.lwy25_agnostic import corollary43_batch_size
from ..bounds.threshold_label import algorithm3_thresholds_batch, algorithm3_thresholds_bound, tree_depth
from ..classes import Thresholds
from ..errors import LittlestoneError
from ..experts.base import check_horizon
from ..privacy import PrivacyClaim, check_epsilon
from ..sanitizers.threshold_label import ThresholdLabelSanitizer
from .algorithm3 import BatchSplit, PrivateAlgorithm3Base, check_batch_size


class _ThresholdHedgePool:
    """B Hedge learners over the thresholds {0..n}, each holding the same number b of synthetic points."""

    def __init__(self, B: int, n: int, eta: float):
        self.B, self.n, self.eta = B, n, eta
        self.X = np.zeros((B, 0), dtype=np.int64)
        self.Y = np.zeros((B, 0), dtype=np.int8)
        self._prepare()

    def _prepare(self) -> None:
        """Segments of t between sorted points: segment k = [x_(k)+1, x_(k+1)] (x_(0) = −1, x_(b+1) = n); its loss
        #{label 1 among the first k} + #{label 0 among the rest}; probabilities ∝ length·e^{−η·loss}."""
        B, b = self.X.shape
        order = np.argsort(self.X, axis=1, kind="stable")
        xs = np.take_along_axis(self.X, order, axis=1)
        ys = np.take_along_axis(self.Y, order, axis=1).astype(np.int64)
        ones = np.concatenate([np.zeros((B, 1), np.int64), np.cumsum(ys, axis=1)], axis=1)  # (B, b+1)
        zeros_before = np.arange(b + 1)[None, :] - ones
        loss = ones + ((b - ones[:, -1:]) - zeros_before)
        edges = np.concatenate([np.full((B, 1), -1, np.int64), xs, np.full((B, 1), self.n, np.int64)], axis=1)
        self.start = edges[:, :-1] + 1
        self.length = edges[:, 1:] - edges[:, :-1]  # ≥ 0
        with np.errstate(divide="ignore"):
            logm = np.log(self.length.astype(float)) - self.eta * (loss - loss.min(axis=1, keepdims=True))
        w = np.exp(logm - logm.max(axis=1, keepdims=True))
        cum = np.cumsum(w, axis=1)
        self.cum = cum / cum[:, -1:]

    def sample(self, learners: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """A threshold t ~ Hedge(learner) for each entry, from two uniforms each (segment, place inside it)."""
        seg = (self.cum[learners] < u[:, None]).sum(axis=1)
        seg = np.minimum(seg, self.cum.shape[1] - 1)
        ln = self.length[learners, seg]
        off = np.floor(v * ln).astype(np.int64)
        return self.start[learners, seg] + np.minimum(off, np.maximum(ln - 1, 0))

    def update(self, x: np.ndarray, y: np.ndarray) -> None:
        self.X = np.concatenate([self.X, x[:, None]], axis=1)
        self.Y = np.concatenate([self.Y, y[:, None].astype(np.int8)], axis=1)
        self._prepare()


def _bit_length(v: np.ndarray) -> np.ndarray:
    """bit_length of non-negative int64 values (exact; 63 shifts)."""
    out = np.zeros(v.shape, dtype=np.int64)
    for k in range(63):
        out += (v >> k) > 0
    return out


class _ThresholdSOAPool:
    """B SOA learners on threshold version spaces [lo, hi] (closed form, vectorized), outputs checked proper."""

    def __init__(self, B: int, H: Thresholds):
        self.H, self.n = H, H.n
        self.lo = np.zeros(B, dtype=np.int64)
        self.hi = np.full(B, H.n, dtype=np.int64)
        self._soa()
        ref = H.version_space().soa().t  # the class's own closed-form SOA agrees with the vectorized one
        if int(self.t[0]) != ref:
            raise LittlestoneError(f"vectorized SOA gave t={int(self.t[0])}, the class's SOA t={ref}")

    def _predict(self, x: np.ndarray) -> np.ndarray:
        n1 = np.maximum(0, np.minimum(self.hi, x) - self.lo + 1)
        n0 = np.maximum(0, self.hi - np.maximum(self.lo, x + 1) + 1)
        return _bit_length(n1) > _bit_length(n0)

    def _soa(self) -> None:
        """Smallest x with SOA(x) = 1 (monotone in x), by a vectorized binary search; then the properness check."""
        a = np.maximum(self.lo - 1, -1)
        b = self.hi.copy()
        while True:
            open_ = b - a > 1
            if not open_.any():
                break
            mid = (a + b) // 2
            one = self._predict(mid)
            b = np.where(open_ & one, mid, b)
            a = np.where(open_ & ~one, mid, a)
        t = np.minimum(b, self.n)
        bad = (t < 0) | (t > self.n) | (t < self.lo) | (t > self.hi)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise LittlestoneError(
                f"the SOA is not proper on {self.H.name}: learner {i} output threshold {int(t[i])}, "
                f"outside its version space [{int(self.lo[i])}, {int(self.hi[i])}] (Algorithm 3 "
                "needs a proper learner)"
            )
        self.t = t

    def sample(self, learners: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.t[learners]

    def update(self, x: np.ndarray, y: np.ndarray) -> None:
        one = y == 1
        new_hi = np.where(one, np.minimum(self.hi, x), self.hi)
        new_lo = np.where(one, self.lo, np.maximum(self.lo, x + 1))
        ok = new_lo <= new_hi  # skip examples that contradict the version space
        self.lo = np.where(ok, new_lo, self.lo)
        self.hi = np.where(ok, new_hi, self.hi)
        self._soa()


class ThresholdsAlgorithm3(PrivateAlgorithm3Base):
    """(ε, 0)-DP proper online learner for ``Thresholds(n)``, n ≤ 2^62 (LWY25 Alg 3 with the thresholds H^label
    sanitizer); river-style ``predict_one``/``learn_one`` and a vectorized ``run(X, y)``. ``subsequence_sizes_``
    counts the synthetic points each subsequence received; ``hypothesis_`` is the threshold behind the last
    prediction. Labels: the declared pair ``labels`` ((0, 1) by default, or (-1, 1)); ``mistakes`` with
    ``diagnostics=True``."""

    def __init__(
        self,
        hypothesis_class: Thresholds,
        horizon: int,
        epsilon: float,
        *,
        batch: Any = "theory",
        learner: str = "hedge",
        backend: Any = "secure",
        seed: SeedLike = None,
        labels: tuple[int, int] | None = (0, 1),
        diagnostics: bool = False,
        accountant: Any = None,
    ):
        if not isinstance(hypothesis_class, Thresholds):
            raise LittlestoneError(
                f"ThresholdsAlgorithm3 needs a Thresholds(n) class, got "
                f"{getattr(hypothesis_class, 'name', type(hypothesis_class).__name__)} (use "
                "Algorithm3 for finite classes)"
            )
        super().__init__(hypothesis_class, labels=labels, diagnostics=diagnostics, accountant=accountant)
        H = self._thresholds = hypothesis_class
        self.n = H.n
        tree_depth(self.n)  # n ≤ 2^62
        self.horizon = check_horizon(horizon)
        if self.horizon < 2:
            raise LittlestoneError("Algorithm 3 needs a horizon T >= 2 (batches of B >= 2 rounds)")
        self.epsilon = check_epsilon(epsilon)
        if isinstance(batch, str):
            if batch == "theory":
                batch = algorithm3_thresholds_batch(self.horizon, self.n, self.epsilon)
            elif batch == "cor4.3":
                d, d_star = H.version_space().ldim(), H.dual_closed_form()[0]
                batch = corollary43_batch_size(self.horizon, max(1, d), max(1, d_star), self.epsilon)
            else:
                raise LittlestoneError(f"batch must be an integer, 'theory' or 'cor4.3', got {batch!r}")
        self.batch = check_batch_size(batch, self.horizon)
        self.split = BatchSplit(self.horizon, self.batch)
        if learner not in ("hedge", "soa"):
            raise LittlestoneError(
                f"learner must be 'hedge' or 'soa' (proper learners over thresholds), got {learner!r}"
            )
        self.learner = learner
        self.beta = 1.0 / (self.horizon * self.horizon)
        self.backend = backend
        s_rounds, s_perm, s_san = spawn_seeds(seed, 3)
        self._rng = as_generator(s_rounds)
        self._perm_rng = as_generator(s_perm)
        self._san_seeds = s_san
        tau = max(1, self.horizon // self.batch)
        if learner == "hedge":
            self._pool: Any = _ThresholdHedgePool(self.batch, self.n, math.sqrt(8.0 * math.log(self.n + 1) / tau))
        else:
            self._pool = _ThresholdSOAPool(self.batch, H)
        self.subsequence_sizes_ = np.zeros(self.batch, dtype=np.int64)
        self._n_batches = 0
        self._round_hyp: tuple[int, int] | None = None
        self._draws: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.hypothesis_: Any = None

    # ------------------------------------------------------------------ claim and bound (parameters only)
    def _sanitizer(self, run: int) -> ThresholdLabelSanitizer:
        seed = np.random.SeedSequence(self._san_seeds.entropy, spawn_key=(*self._san_seeds.spawn_key, run))
        return ThresholdLabelSanitizer(self.n, self.epsilon, beta=self.beta, backend=self.backend, seed=seed)

    def privacy(self) -> PrivacyClaim:
        """The sanitizer runs alone read the data, one per batch of :attr:`split` (disjoint): the parallel
        composition of their claims (LWY25 Thm 4.1)."""
        return self.split.privacy([self._sanitizer(0).privacy()] * max(1, self.split.n_batches))

    def regret_bound(self) -> float:
        """Thm 4.1's expected-regret bound with constants (Hedge; :func:`algorithm3_thresholds_bound`)."""
        if self.learner != "hedge":
            raise LittlestoneError("the Thm 4.1 bound needs a learner with a regret bound: learner='hedge'")
        return algorithm3_thresholds_bound(self.horizon, self.batch, self.n, self.epsilon)

    # ------------------------------------------------------------------ online protocol
    def _hypotheses(self, start: int, end: int) -> np.ndarray:
        """h_t for the rounds start..end−1 of the current batch (offsets in it): i_t uniform in [B] and the learner's
        two uniforms, drawn for the whole batch at its first round, so ``run`` and the river path agree."""
        if self._draws is None:
            self._draws = (
                self._rng.integers(self.batch, size=self.batch),
                self._rng.random(self.batch),
                self._rng.random(self.batch),
            )
        i, u, v = (a[start:end] for a in self._draws)
        return self._pool.sample(i, u, v)

    def _last_hypothesis(self) -> Any:
        return self.hypothesis_

    def _predict01(self, x: Any) -> int:
        if self._round_hyp is None or self._round_hyp[0] != self.n_learned:
            k = self.split.pending
            self._round_hyp = (self.n_learned, int(self._hypotheses(k, k + 1)[0]))
        self.hypothesis_ = self._thresholds.hypothesis(self._round_hyp[1])
        return int(int(x) >= self._round_hyp[1])

    def _learn01(self, x: Any, y: int) -> None:
        self._charge_accountant()  # (already charged by learn_one / learn_many / run: idempotent)
        if self.n_learned >= self.horizon:
            raise LittlestoneError(f"the horizon T={self.horizon} is exhausted")
        self.split.record(int(x), int(y))
        if self.split.pending == self.batch:
            self._end_batch()

    def _end_batch(self) -> None:
        b = self._n_batches
        xs, ys = self.split.read(b)
        X, Y = np.array(xs, dtype=np.int64), np.array(ys, dtype=np.int8)
        san = self._sanitizer(b)
        self._check_run(san.privacy(), self._sanitizer(0).privacy(), b)
        self._fit_sanitizer(san.fit_arrays, X, Y)
        Xs, Ys = san.synthetic_arrays(self.batch)
        if Xs.size != self.batch:
            raise LittlestoneError(f"the sanitizer returned {Xs.size} synthetic points for a batch of {self.batch}")
        perm = self._perm_rng.permutation(self.batch)
        self._pool.update(Xs[perm], Ys[perm])
        self.subsequence_sizes_ += 1
        self._n_batches += 1
        self._draws = None

    def run(self, X: Any, y: Any) -> np.ndarray:
        """Play the rounds (X[t], y[t]) in order; returns the 0/1 predictions (mistakes counted as in learn_one)."""
        self._charge_accountant()
        y01 = self._run_labels(y)
        if len(X) != len(y01):
            raise LittlestoneError(f"{len(X)} points but {len(y01)} labels")
        if self.n_learned + len(y01) > self.horizon:
            raise LittlestoneError(f"{self.n_learned + len(y01)} rounds for a horizon of T={self.horizon}")
        pts = np.asarray(self.hypothesis_class.validate_points(X), dtype=np.int64)
        preds = np.empty(len(y01), dtype=np.int8)
        pos = 0
        while pos < len(y01):
            end = min(len(y01), pos + self.batch - self.split.pending)
            k = self.split.pending
            hyps = self._hypotheses(k, k + end - pos)
            preds[pos:end] = pts[pos:end] >= hyps
            self.split.record_many(pts[pos:end].tolist(), y01[pos:end].tolist())
            self.n_learned += end - pos
            if self.split.pending == self.batch:
                self._end_batch()
            pos = end
        self.mistakes += int((preds != y01).sum())
        self._round_hyp = None
        return preds


def best_threshold_mistakes(X: Any, y: Any) -> int:
    """min_t #{i : 1[x_i ≥ t] ≠ y_i} over all thresholds (exact, O(m log m): the count changes only at t = x + 1)."""
    X = np.asarray(X)
    order = np.argsort(X, kind="stable")
    xs = X[order]
    ys = np.asarray(y)[order].astype(np.int64)
    ones_before = np.concatenate([[0], np.cumsum(ys)])
    zeros_after = (len(ys) - ys.sum()) - (np.arange(len(ys) + 1) - ones_before)
    cost = ones_before + zeros_after
    # a cut between equal points is not a threshold: keep k = 0, m and the k with x_(k) < x_(k+1)
    ok = np.concatenate([[True], xs[1:] != xs[:-1], [True]])
    return int(cost[ok].min())
