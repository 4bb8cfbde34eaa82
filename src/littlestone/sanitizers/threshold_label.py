"""A private sanitizer for H^label of thresholds on a huge ordered domain (LWY25 Def 2.7 applied to H^label, §2.3;
the query release of Algorithm 3, §4.1), at polylog(|X|)·n cost — never dense over X.

Domain {0, …, n−1} (n up to 2^62, e.g. 2^60), padded to 2^L leaves, L = ⌈log2 n⌉ (at least 1). For h_t(x) = 1[x ≥ t],
t ∈ {0, …, n}, the H^label query is h_t^label(x, y) = 1[h_t(x) ≠ y], and on S = ((x_i, y_i))_{i ≤ m}

    m · err_S(t) = A_1(t) + N_0 − A_0(t),      A_y(t) = #{i : y_i = y, x_i < t},  N_0 = A_0(2^L):

two prefix counts. The mechanism (:class:`DyadicLabelTree`) releases, for each label y ∈ {0, 1}, the count of label-y
points in every dyadic interval [k·2^j, (k+1)·2^j), j = 0…L, plus discrete Laplace noise of scale b = 2(L+1)/ε.
Level j of both trees is one histogram whose L1 sensitivity under replace-one is 2 (one record leaves one node and
enters one), so it is (ε/(L+1), 0)-DP (discrete Laplace mechanism, Dwork–Roth Thm 3.6; OpenDP's exact sampler on the
secure backend, noise added in integers). The L+1 levels compose (basic composition, Dwork–Roth Thm 3.16) to (ε, 0):
:meth:`DyadicLabelTree.privacy` computes that with :func:`littlestone.privacy.compose`. The 2·(2^{L+1} − 1) node
noises are data-independent and independent, so they are drawn lazily, each the first time a node is read, and
memoized — the same joint law as drawing all of them first; only the O(L·m) nodes the release reads are ever drawn.
Everything after is post-processing.

Release (:class:`ThresholdLabelSanitizer`):
  * ``estimate(t)`` = (F̃_1(t) + F̃_0(2^L) − F̃_0(t))/m, F̃_y(t) = the sum of the noisy nodes of the dyadic
    decomposition of [0, t) (≤ L nodes; the root for t = 2^L);
  * ``estimate_interval(a, b)``: the same for intervals 1[a ≤ x ≤ b] (range counts = two prefixes; α = 5Ψ/m);
  * ``synthetic(m)``: m_1 = clip(noisy root of label 1, 0, m) points of label 1 and m_0 = m − m_1 of label 0; the k-th
    point of label y is found by descending the noisy tree of label y with rank r = k (go left if r ≤ noisy left count,
    else r −= noisy left count and go right): the points are non-decreasing in k, and a point in the padding
    (≥ n) is moved to n − 1.

Accuracy (docs/derivations.md, "Thresholds H^label sanitizer"): let Ψ bound |F̃_y(s) − A_y(s)| for every y and every
s ∈ [0, 2^L] (a sum of ≤ L node noises). Then |Est(t) − err_S(t)| ≤ 3Ψ/m and |err_{S′}(t) − err_S(t)| ≤ 3Ψ/m for
all t (5Ψ/m for every interval query). By a Chernoff bound for sums of L i.i.d. discrete Laplace(b) variables and a
union bound over the 2(2^L + 1) prefixes, Ψ = :func:`threshold_label_noise_bound` (L, ε, β) holds with probability
≥ 1 − β; so α = 3Ψ/m (:func:`threshold_label_alpha`). Ψ = O(L·(L + ln(1/β))/ε).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._random import SeedLike, spawn_seeds
from ..errors import DomainError, EmptyDataError, LittlestoneError
from ..privacy import DiscreteLaplaceMechanism, PrivacyClaim, check_epsilon, check_probability, compose
from ..privacy.mechanism import Mechanism
from ..bounds.threshold_label import threshold_label_alpha, threshold_label_noise_bound, tree_depth
from ..privacy.accountant_link import ChargesTheDefaultOfItsPickler, resolve_accountant

RELATION = "replace-one"


class NoisyDyadicTree:
    """The released noisy counts of both label trees, drawn lazily (first read) and memoized per level: level j's
    counts (both labels) are released by ``level_mechanisms[j]`` (a discrete Laplace mechanism, Δ1 = 2)."""

    def __init__(self, xs0: np.ndarray, xs1: np.ndarray, level_mechanisms: Any, backend: Any):
        self._xs = (np.sort(xs0), np.sort(xs1))
        self._mechanisms = tuple(level_mechanisms)
        self.levels, self._backend = len(self._mechanisms) - 1, backend
        self.scale = float(self._mechanisms[0].scale)
        # memo[y][j] = (sorted node indices, noisy counts)
        self._memo = [
            [(np.zeros(0, np.int64), np.zeros(0, np.int64)) for _ in range(self.levels + 1)] for _ in range(2)
        ]
        self.nodes_drawn = 0

    def _true_counts(self, y: int, j: int, ks: np.ndarray) -> np.ndarray:
        xs = self._xs[y]
        return np.searchsorted(xs, (ks + 1) << j, side="left") - np.searchsorted(xs, ks << j, side="left")

    def nodes(self, y: int, j: int, ks: Any) -> np.ndarray:
        """Noisy counts of label-y nodes [k·2^j, (k+1)·2^j) for the indices ``ks``."""
        ks = np.asarray(ks, dtype=np.int64)
        ids, vals = self._memo[y][j]
        want = np.unique(ks)
        new = want[~np.isin(want, ids, assume_unique=True)]
        if new.size:
            noisy = np.asarray(
                self._mechanisms[j](self._true_counts(y, j, new), backend=self._backend), dtype=np.int64
            ).reshape(-1)
            self.nodes_drawn += int(new.size)
            all_ids = np.concatenate([ids, new])
            order = np.argsort(all_ids, kind="stable")
            ids, vals = all_ids[order], np.concatenate([vals, noisy])[order]
            self._memo[y][j] = (ids, vals)
        return vals[np.searchsorted(ids, ks)]

    def prefix(self, y: int, t: Any) -> np.ndarray:
        """F̃_y(t): the noisy count of [0, t) from its dyadic decomposition, for integers 0 ≤ t ≤ 2^L."""
        t = np.asarray(t, dtype=np.int64)
        out = np.zeros(t.shape, dtype=np.int64)
        full = t == (1 << self.levels)
        if full.any():
            out[full] = self.nodes(y, self.levels, np.zeros(int(full.sum()), np.int64))
        part = ~full
        for j in range(self.levels):
            has = part & (((t >> j) & 1) == 1)
            if has.any():
                out[has] += self.nodes(y, j, (t[has] >> j) - 1)
        return out

    def descend(self, y: int, ranks: np.ndarray) -> np.ndarray:
        """The leaf reached by each rank r ≥ 1: at each node go left if r ≤ noisy(left child), else subtract and go
        right. Non-decreasing in the rank."""
        r = np.asarray(ranks, dtype=np.int64).copy()
        pos = np.zeros(r.size, dtype=np.int64)
        for j in range(self.levels - 1, -1, -1):
            left = 2 * pos
            c = self.nodes(y, j, left)
            right = r > c
            r = np.where(right, r - c, r)
            pos = left + right
        return pos


class DyadicLabelTree(Mechanism):
    """The noisy dyadic counts of both labels over {0..n−1} (padded to 2^L): L+1 level histograms, each
    (ε/(L+1), 0)-DP with L1 sensitivity 2 under replace-one; the claim is their basic composition."""

    name = "dyadic label tree"

    def __init__(self, domain_size: int, epsilon: float):
        self.domain_size = int(domain_size)
        self.levels = tree_depth(domain_size)
        self.epsilon = check_epsilon(epsilon)
        self.epsilon_level = self.epsilon / (self.levels + 1)
        #: level j's histogram (both labels): one record leaves one node and enters one, L1 sensitivity 2
        self.level_mechanisms = tuple(DiscreteLaplaceMechanism(self.epsilon_level, 2) for _ in range(self.levels + 1))
        self.scale = self.level_mechanisms[0].scale

    def parts(self) -> list[PrivacyClaim]:
        return [
            dataclasses.replace(m.privacy(), what=f"level {j} counts (discrete Laplace, Δ1 = 2)")
            for j, m in enumerate(self.level_mechanisms)
        ]

    def privacy(self) -> PrivacyClaim:
        return compose(self.parts(), "basic", what=self.name)

    def __call__(self, data: Any, *, backend: Any) -> NoisyDyadicTree:
        xs, ys = data
        xs = np.asarray(xs, dtype=np.int64)
        ys = np.asarray(ys, dtype=np.int8)
        return NoisyDyadicTree(xs[ys == 0], xs[ys == 1], self.level_mechanisms, backend)


class ThresholdLabelSanitizer(ChargesTheDefaultOfItsPickler):
    """(ε, 0)-DP (α, β)-sanitizer for H^label of ``Thresholds(n)``, α = 3Ψ/m (:func:`threshold_label_alpha`).

    ``fit(data)`` takes (x, y) pairs (or ``fit_arrays(X, y)``); ``estimate(t)`` answers err_S(h_t) for thresholds
    t ∈ [0, n] (vectorized); ``synthetic(m)`` returns m labelled points (m must equal the input size: Algorithm 3 feeds
    exactly one synthetic point per batch to each subsequence). Same interface as the other sanitizers (``privacy()``).
    """

    private = True

    def __init__(
        self,
        domain_size: int,
        epsilon: float,
        *,
        beta: float = 0.05,
        backend: Any = "secure",
        seed: SeedLike = None,
        accountant: Any = None,
    ):
        self.accountant = accountant  # charged privacy() at fit, before the data is read
        self.mechanism = DyadicLabelTree(domain_size, epsilon)
        self.domain_size = self.mechanism.domain_size
        self.levels = self.mechanism.levels
        self.epsilon = self.mechanism.epsilon
        self.beta = check_probability(beta)
        self.backend = backend
        self.seed = seed

    def privacy(self) -> PrivacyClaim:
        """The tree's claim: basic composition of its L+1 levels (the synthetic data are post-processing)."""
        return self.mechanism.privacy()

    def noise_bound(self) -> int:
        """Ψ (counts) for this sanitizer's (L, ε, β)."""
        return threshold_label_noise_bound(self.levels, self.epsilon, self.beta)

    def alpha(self, n_samples: int) -> float:
        return threshold_label_alpha(n_samples, self.domain_size, self.epsilon, self.beta)

    def fit(self, data: Any) -> "ThresholdLabelSanitizer":
        from ..privacy.accountant import charge_fit, contained

        charge_fit(resolve_accountant(self), self.privacy(), "ThresholdLabelSanitizer.fit")
        with contained():  # fit_arrays below: charged here already
            return self._fit_pairs(data)

    def _fit_pairs(self, data: Any) -> "ThresholdLabelSanitizer":
        pairs = list(data)
        if not pairs:
            raise EmptyDataError("a sanitizer needs a non-empty dataset")
        X = np.array([p[0] for p in pairs], dtype=np.int64)
        y = np.array([p[1] for p in pairs])
        return self.fit_arrays(X, y)

    def fit_arrays(self, X: Any, y: Any) -> "ThresholdLabelSanitizer":
        from ..experts.tree_hedge import resolve_backend
        from ..privacy.accountant import charge_fit

        charge_fit(resolve_accountant(self), self.privacy(), "ThresholdLabelSanitizer.fit_arrays")
        X = np.asarray(X)
        y = np.asarray(y)
        if X.ndim != 1 or y.ndim != 1 or X.size != y.size:
            raise LittlestoneError(f"need 1-D points and labels of one length, got shapes {X.shape} and {y.shape}")
        if X.size == 0:
            raise EmptyDataError("a sanitizer needs a non-empty dataset")
        if X.dtype.kind not in "iu" or X.min() < 0 or X.max() >= self.domain_size:
            raise DomainError(f"points must be integers in 0..{self.domain_size - 1}")
        if not np.isin(y, (0, 1)).all():
            raise LittlestoneError("labels must be 0 or 1 (H^label of thresholds)")
        backend = resolve_backend(self.backend, spawn_seeds(self.seed, 1)[0])
        self.n_ = int(X.size)
        self.tree_ = self.mechanism((X, y), backend=backend)
        return self

    def _check_fitted(self) -> NoisyDyadicTree:
        if not hasattr(self, "tree_"):
            raise LittlestoneError("call fit(data) first")
        return self.tree_

    def estimate(self, t: Any) -> np.ndarray:
        """Est(h_t) ≈ err_S(h_t) for thresholds t ∈ [0, n] (array in, array out)."""
        tree = self._check_fitted()
        t = np.asarray(t, dtype=np.int64)
        if t.size and (t.min() < 0 or t.max() > self.domain_size):
            raise DomainError(f"thresholds must lie in 0..{self.domain_size}")
        t_full = np.where(t == self.domain_size, 1 << self.levels, t)  # no point lies in the padding
        root0 = tree.nodes(0, self.levels, [0])[0]
        return (tree.prefix(1, t_full) + root0 - tree.prefix(0, t_full)) / self.n_

    def estimate_interval(self, a: Any, b: Any) -> np.ndarray:
        """Est of err_S for intervals 1[a ≤ x ≤ b] (a > b: the empty interval) from the same release; within
        5Ψ/m (:func:`~littlestone.bounds.threshold_label.interval_label_alpha`) on the same event."""
        tree = self._check_fitted()
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        if a.shape != b.shape:
            raise LittlestoneError(f"interval ends must have one shape, got {a.shape} and {b.shape}")
        if a.size and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= self.domain_size):
            raise DomainError(f"interval ends must lie in 0..{self.domain_size - 1}")
        empty = a > b
        lo, hi = np.where(empty, 0, a), np.where(empty, 0, b + 1)
        n1 = tree.nodes(1, self.levels, [0])[0]
        r1 = tree.prefix(1, hi) - tree.prefix(1, lo)
        r0 = tree.prefix(0, hi) - tree.prefix(0, lo)
        return np.where(empty, n1, n1 - r1 + r0) / self.n_

    def synthetic_arrays(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """(X′, y′) sorted by label then point: m_1 = clip(noisy root 1, 0, m) points of label 1 from the descent."""
        tree = self._check_fitted()
        if size != self.n_:
            raise LittlestoneError(
                f"the synthetic set must have the input size {self.n_} (α is stated for it), got {size!r}"
            )
        m1 = int(min(max(int(tree.nodes(1, self.levels, [0])[0]), 0), size))
        parts = []
        for y, m in ((0, size - m1), (1, m1)):
            pts = tree.descend(y, np.arange(1, m + 1, dtype=np.int64)) if m else np.zeros(0, np.int64)
            parts.append(np.minimum(pts, self.domain_size - 1))
        X = np.concatenate(parts)
        Y = np.concatenate([np.zeros(size - m1, np.int8), np.ones(m1, np.int8)])
        return X, Y

    def synthetic(self, size: int) -> list:
        X, Y = self.synthetic_arrays(size)
        return list(zip(X.tolist(), Y.tolist()))


def empirical_label_errors(X: Any, y: Any, t: Any) -> np.ndarray:
    """err_S(h_t) for thresholds t (exact; for tests and experiments): (A_1(t) + N_0 − A_0(t))/m."""
    X = np.asarray(X, dtype=np.int64)
    y = np.asarray(y)
    t = np.asarray(t, dtype=np.int64)
    x0, x1 = np.sort(X[y == 0]), np.sort(X[y == 1])
    return (np.searchsorted(x1, t) + x0.size - np.searchsorted(x0, t)) / X.size


def empirical_interval_errors(X: Any, y: Any, a: Any, b: Any) -> np.ndarray:
    """err_S(1[a ≤ x ≤ b]) (a > b: the empty interval), exact: (N_1 − #label 1 inside + #label 0 inside)/m."""
    X = np.asarray(X, dtype=np.int64)
    y = np.asarray(y)
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    x0, x1 = np.sort(X[y == 0]), np.sort(X[y == 1])
    inside1 = np.where(a > b, 0, np.searchsorted(x1, b, side="right") - np.searchsorted(x1, a))
    inside0 = np.where(a > b, 0, np.searchsorted(x0, b, side="right") - np.searchsorted(x0, a))
    return (x1.size - inside1 + inside0) / X.size
