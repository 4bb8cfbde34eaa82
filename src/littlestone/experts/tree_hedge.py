"""Private OPE against adaptive adversaries, pure ε-DP: tree-based aggregation + an entropy-regularized leader.

The private-FTRL algorithm of AS17 (Agarwal–Singh 2017) for experts, i.e. the tree-aggregation family of JKT12 /
ST13 with the entropic regularizer (LWY25 Thm E.11's (ε, δ) rate is attained by
:class:`~littlestone.experts.PrivateHedge`; this learner is the ε-DP alternative): the cumulative loss vectors are released by the binary (tree) mechanism of Dwork–Naor–Pitassi–Rothblum 2010 and
Chan–Shi–Song 2011 over the dyadic intervals of [1, T] (LWY25 Fact E.6, :func:`littlestone.privacy.tree_levels`),
and the learner plays Hedge on the noisy prefix sums, p ∝ exp(−η L̃) — the regularized (entropic) leader of the
released counts. Lazy variant: the tree is built over K = ⌈T/B₀⌉ blocks of B₀ rounds (B₀ = 1 is the textbook
per-round tree) and p is refreshed at block boundaries. Everything played is post-processing of the noisy nodes.

Privacy (ε, 0), neighbours = one round's loss vector replaced. Every round lies in one block and every block in
L = ⌊log2 K⌋+1 dyadic nodes, each an N-vector, so the node family has L1 sensitivity N·L; each node coordinate gets
Lap(N·L/ε) (or discrete Laplace
on losses rounded at random to a grid of 1/g, scale g·N·L/ε in grid units). Pure-DP continual counting stays DP when the stream is chosen adaptively (Jain–Raskhodnikova–
Sivakumar–Smith 2023), so the claim holds against adaptive adversaries.

Regret (our derivation, docs/derivations.md "Private prediction from experts"): with E_t = L̃_t − L_t,
softmin is η-Lipschitz from ‖·‖∞ to ‖·‖₁, and the played p̃_t differs from exact Hedge's p_t by the noise E and by
the ≤ B₀ − 1 rounds of the current block not yet counted, so Σ_t ⟨p̃_t − p_t, ℓ_t⟩ ≤ ηT(Ē + B₀ − 1) and
    E[regret] ≤ ln N/η + ηT/8 + ηT·(Ē + B₀ − 1) + β_E·T,     Ē = L·b·ln(8·K·N/β_E)
(Ē bounds every prefix's noise coordinate w.p. 1 − β_E; b the node scale; β_E = 1/T). The theory rate
η = √(ln N/(T(1/8 + Ē + B₀ − 1))) gives 2√(T ln N (1/8 + Ē + B₀ − 1)) + 1, and the theory B₀ is the power of two
minimizing it. With Laplace noise Ē grows like N·log²K/ε, so this proven bound is weaker than AS17's
O(√(T log N) + N log N log²T/ε) (their sharper analysis of the same algorithm was not available to us; the quoted
rate is in :mod:`littlestone.bounds.private_experts`).

Speed: with B₀ = 1 a chunk of k rounds is played at once — its k node noises are drawn before the chunk is read
(they are data-independent, and are drawn in the same sizes as on the round-by-round path, so both paths read one
noise stream), the binary counter's prefixes follow in ⌊log₂k⌋+1 vectorized waves, and the softmin rows use
float32 exponentials. An adaptive adversary uses ``predict_one``/``learn_one``, which consume the same stream.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator, spawn_seeds
from ..errors import LittlestoneError
from ..privacy import (
    DiscreteLaplaceMechanism,
    LaplaceMechanism,
    check_backend,
    check_epsilon,
    make_backend,
    tree_levels,
)
from ..privacy.backends import Backend
from .base import (
    RELATION,
    ExpertsLearner,
    PrivacyClaim,
    Workspace,
    expected_losses,
    prefix_rows,
    sample_rows,
    softmin,
    softmin_rows,
)


def resolve_backend(backend: Any, seed: np.random.SeedSequence) -> Backend:
    """'secure' (OpenDP, never seeded), 'seeded' (NumPy from the caller's seed) or a Backend object."""
    if isinstance(backend, str):
        if backend == "secure":
            return make_backend("secure")
        if backend == "seeded":
            return make_backend("seeded", seed=seed)
        raise LittlestoneError(f"backend must be 'secure', 'seeded' or a littlestone.privacy Backend, not {backend!r}")
    return check_backend(backend)


def _noise_bound(n: int, K: int, epsilon: float, beta: float) -> tuple[int, float, float]:
    """(levels L, node scale b = N·L/ε, Ē = L·b·ln(8KN/β)) for a tree over K blocks."""
    levels = tree_levels(K)
    b = n * levels / epsilon
    return levels, b, levels * b * math.log(8.0 * K * n / beta)


def tree_hedge_bound(n: int, T: int, epsilon: float, block: int, eta: float | None = None) -> float:
    """ln N/η + ηT/8 + ηT(Ē + B₀ − 1) + 1 (η = the theory rate when None)."""
    K = -(-T // block)
    _, _, ebar = _noise_bound(n, K, epsilon, 1.0 / T)
    c = 0.125 + ebar + block - 1
    if eta is None:
        eta = math.sqrt(max(math.log(n), 1e-12) / (T * c))
    return math.log(n) / eta + eta * T * c + 1.0


def theory_block(n: int, T: int, epsilon: float) -> int:
    """The power of two B₀ ≤ T minimizing :func:`tree_hedge_bound` at the theory rate."""
    cands = [1 << j for j in range(T.bit_length()) if (1 << j) <= T]
    return min(cands, key=lambda b: tree_hedge_bound(n, T, epsilon, b))


class TreeAggregationHedge(ExpertsLearner):
    """ε-DP online prediction from N experts for a known horizon T, adaptive adversaries (see module docstring).

    ``block`` = B₀ ("theory", the default: the bound-minimizing power of two; 1: the textbook per-round tree).
    ``discrete`` (default: True on the secure backend) keeps the node sums as exact integers with discrete Laplace
    noise: each loss ℓ ∈ [0, 1] is rounded at random to the grid {0, 1/g, …, 1} (g = ``grid``, default 1; unbiased:
    k/g + 1/g w.p. the remainder), so 0/1 losses are kept exactly and fractional ones are counted in units of 1/g.
    One round then moves each node coordinate by ≤ g units, and the node noise has scale g·N·L/ε units (= N·L/ε in
    loss units: the claim and the noise in loss units do not depend on g; the rounding adds variance only).
    ``eta="theory"`` uses the rate minimizing the regret bound; a number overrides it (privacy depends on neither).
    The node noise is drawn through one mechanism object, :attr:`mechanism` (discrete Laplace, or Laplace on the
    seeded backend with ``discrete=False``), over the whole node family; ``privacy()`` is its claim.
    """

    private = True

    def __init__(
        self,
        n_experts: int,
        horizon: int,
        epsilon: float,
        *,
        eta: Any = "theory",
        block: Any = "theory",
        backend: Any = "secure",
        seed: SeedLike = None,
        discrete: bool | None = None,
        grid: int = 1,
        chunk: int = 256,
        accountant: Any = None,
    ):
        super().__init__(n_experts, horizon, seed=seed)
        self.accountant = accountant  # charged privacy() at the first learn_one / run
        self.epsilon = check_epsilon(epsilon)
        if block == "theory":
            block = theory_block(self.n_experts, self.horizon, self.epsilon)
        if isinstance(block, bool) or not isinstance(block, (int, np.integer)) or not 1 <= block <= self.horizon:
            raise LittlestoneError(f"block must be an integer in [1, T={self.horizon}] or 'theory', got {block!r}")
        self.block = int(block)
        self.n_blocks = -(-self.horizon // self.block)
        s_sample, s_noise = spawn_seeds(seed, 2)
        self._rng = as_generator(s_sample)
        self.backend = resolve_backend(backend, s_noise)
        self.discrete = bool(self.backend.floating_point_safe) if discrete is None else bool(discrete)
        if not self.discrete and self.backend.floating_point_safe:
            raise LittlestoneError(
                "discrete=False adds Laplace noise to loss sums in floating point, which is not "
                "floating-point safe: the secure backend refuses it (use discrete=True, which counts any "
                "losses in [0, 1] on a grid of 1/grid, or backend='seeded' for a non-private run)"
            )
        if isinstance(grid, bool) or not isinstance(grid, (int, np.integer)) or grid < 1:
            raise LittlestoneError(f"grid must be an integer >= 1 (losses counted in units of 1/grid), got {grid!r}")
        if grid != 1 and not self.discrete:
            raise LittlestoneError(
                "grid applies to discrete=True (integer node sums); discrete=False takes real losses"
            )
        self.grid = int(grid)
        self._round_rng = as_generator(s_sample.spawn(1)[0])  # randomized rounding to the grid (not privacy noise)
        self.levels, _, self.noise_bound = _noise_bound(self.n_experts, self.n_blocks, self.epsilon, 1.0 / self.horizon)
        # one round lies in L dyadic nodes, each an N-vector whose coordinates it moves by ≤ g units: L1 sensitivity
        # of the node family N·L·g (units; N·L in loss units with discrete=False)
        if self.discrete:
            self.mechanism: Any = DiscreteLaplaceMechanism(self.epsilon, self.n_experts * self.levels * self.grid)
        else:
            self.mechanism = LaplaceMechanism(self.epsilon, self.n_experts * self.levels)
        self.noise_scale = self.mechanism.scale / self.grid  # in loss units
        if eta == "theory":
            eta = math.sqrt(
                max(math.log(self.n_experts), 1e-12) / (self.horizon * (0.125 + self.noise_bound + self.block - 1))
            )
        if isinstance(eta, bool) or not isinstance(eta, (int, float)) or not 0 < eta < math.inf:
            raise LittlestoneError(f"learning rate eta must be a positive number or 'theory', got {eta!r}")
        self.eta = float(eta)
        self._chunk = max(1, int(chunk))
        dtype = np.int64 if self.discrete else float
        self._cumulative = np.zeros(self.n_experts, dtype=dtype)  # exact L_t (grid units when discrete)
        self._released_exact = np.zeros(self.n_experts, dtype=dtype)  # exact sum of the blocks closed so far
        self._node_noise = np.zeros((self.levels, self.n_experts), dtype=dtype)
        self._noise_prefix = np.zeros(self.n_experts, dtype=dtype)  # Σ noise of the nodes covering the closed blocks
        self._blocks_closed = 0
        self._buffer = np.zeros((0, self.n_experts), dtype=dtype)
        self._p: np.ndarray | None = None
        self._ws = Workspace()

    # ------------------------------------------------------------------ privacy and bounds (parameters only)
    def privacy(self) -> PrivacyClaim:
        """The claim of :attr:`mechanism`, run once on the node family (every dyadic node of the block tree, its noise
        drawn in pieces): (ε, 0) for L1 sensitivity N·L·g; everything played is post-processing."""
        return dataclasses.replace(self.mechanism.privacy(), relation=RELATION, what="tree-aggregation Hedge")

    def regret_bound(self) -> float:
        """ln N/η + ηT/8 + ηT(Ē + B₀ − 1) + 1 with Ē = L·b·ln(8KN/β_E), β_E = 1/T."""
        return tree_hedge_bound(self.n_experts, self.horizon, self.epsilon, self.block, self.eta)

    # ------------------------------------------------------------------ the released quantity
    def noisy_cumulative(self) -> np.ndarray:
        """L̃: the binary mechanism's noisy prefix sum over the closed blocks (sum of the noisy dyadic nodes), in loss
        units (integers when discrete with g = 1)."""
        noisy = self._released_exact + self._noise_prefix
        return noisy if self.grid == 1 else noisy / self.grid

    def _released_distribution(self) -> np.ndarray:
        """softmin(η L̃), a function of the binary mechanism's output: released as it is."""
        return self._distribution()

    def _distribution(self) -> np.ndarray:
        """softmin(η L̃): computed from the mechanism's output only (released as it is by ``distribution()``)."""
        if self._p is None:
            self._p = softmin(np.asarray(self.noisy_cumulative(), dtype=float), self.eta)
        return self._p

    def _refill(self) -> None:
        """Append the next rows of node noise, always in the same draw sizes (≤ ``chunk`` rows), so the per-round and
        the vectorized paths read one and the same noise stream."""
        drawn = self._blocks_closed + self._buffer.shape[0]
        k = min(self._chunk, max(1, self.n_blocks - drawn))
        z = self.mechanism.noise((k, self.n_experts), backend=self.backend)
        self._buffer = z if self._buffer.shape[0] == 0 else np.concatenate([self._buffer, z])

    def _draw_noise(self) -> np.ndarray:
        if self._buffer.shape[0] == 0:
            self._refill()
        z, self._buffer = self._buffer[0], self._buffer[1:]
        return z

    def _close_block(self) -> None:
        """Binary-counter step on the block just closed: its node replaces the nodes of the levels below."""
        b = self._blocks_closed + 1
        i = (b & -b).bit_length() - 1
        z = self._draw_noise()
        self._noise_prefix = self._noise_prefix - self._node_noise[:i].sum(axis=0) + z
        self._node_noise[:i] = 0
        self._node_noise[i] = z
        self._released_exact = self._cumulative.copy()
        self._blocks_closed = b
        self._p = None

    def _check(self, loss: np.ndarray) -> np.ndarray:
        """Losses as the node sums count them: in discrete mode integers in {0..g} (ℓ·g rounded at random, unbiased:
        ⌊ℓg⌋ + 1 with probability ℓg − ⌊ℓg⌋ — exact for losses on the grid, so 0/1 losses with g = 1 are kept)."""
        if self.discrete:
            scaled = loss * self.grid
            low = np.floor(scaled)
            frac = scaled - low
            out = low.astype(np.int64)
            if frac.any():
                out += (self._round_rng.random(frac.shape) < frac).astype(np.int64)
            return out
        return loss

    def _update(self, loss: np.ndarray) -> None:
        self._cumulative = self._cumulative + self._check(loss)
        if (self.t + 1) % self.block == 0 or self.t + 1 == self.horizon:
            self._close_block()

    def _draw_noise_rows(self, k: int) -> np.ndarray:
        """The next k node noises (rows) of the stream (data-independent, so drawing them ahead is allowed)."""
        while self._buffer.shape[0] < k:
            self._refill()
        z, self._buffer = self._buffer[:k], self._buffer[k:]
        return z

    def _run_chunk_per_round(self, chunk: np.ndarray) -> tuple[np.ndarray, float, float]:
        """block = 1, all k rounds of the chunk at once.

        Round s plays softmin(η(L_{s−1} + P(s−1))) where P(s) = P(s − lowbit(s)) + Z_s is the binary counter's noise
        on [1, s] (Z_s the noise of the dyadic node ending at s). The k node noises Z_{b+1..b+k} are drawn before the
        chunk is read — they do not depend on any loss, so an adaptive adversary gains nothing from the order — and
        the P(s) follow in ≤ log2 k + 1 vectorized waves (a node's parent is either inside the chunk, one wave
        earlier, or a prefix point of b, whose P is a suffix sum of the current level nodes)."""
        k, n = chunk.shape
        rows_ = self._check(chunk)
        b0 = self._blocks_closed
        Z = self._draw_noise_rows(k)
        suffix = np.cumsum(self._node_noise[::-1], axis=0)[::-1]  # suffix[j] = P(b0 with bits < j cleared)
        s = np.arange(b0 + 1, b0 + k + 1, dtype=np.int64)
        low = s & -s
        parent = s - low
        level = np.log2(low).astype(np.int64)
        P = np.empty_like(Z)
        inside = parent > b0
        wave = np.zeros(k, dtype=np.int64)
        for r in np.flatnonzero(inside):  # parents come first: one pass suffices
            wave[r] = wave[parent[r] - b0 - 1] + 1
        first = np.flatnonzero(~inside)
        lv = level[first] + 1
        top = np.zeros((1, n), dtype=Z.dtype)
        base = np.concatenate([suffix, top])[np.minimum(lv, self.levels)]
        P[first] = base + Z[first]
        for w in range(1, int(wave.max()) + 1 if k else 1):
            r = np.flatnonzero(wave == w)
            P[r] = P[parent[r] - b0 - 1] + Z[r]
        # new level nodes for b0 + k: level j's node ends at (b0 + k) with bits < j cleared
        b1 = b0 + k
        nodes = np.zeros_like(self._node_noise)
        for j in range(self.levels):
            if (b1 >> j) & 1:
                e = (b1 >> j) << j
                nodes[j] = Z[e - b0 - 1] if e > b0 else self._node_noise[j]
        # exact L_{s−1}, then the noisy L̃_{s−1} = L_{s−1} + P(s−1), then the softmin rows
        ws = self._ws
        incl = prefix_rows(rows_, self._cumulative, out=ws.get("L", (k, n), rows_.dtype))
        last = incl[-1].copy()
        W = ws.get("W", (k, n), np.float64)
        np.subtract(incl, rows_, out=W, casting="unsafe")
        W[0] += self._noise_prefix
        W[1:] += P[:-1]
        Pm = softmin_rows(W, self.eta / self.grid, ws.get("P", (k, n), np.float32))
        idx = sample_rows(Pm, self._rng.random(k)).astype(np.int64)
        realized = float(chunk[np.arange(k), idx].sum())
        expected = expected_losses(Pm, chunk, ws.get("S", (k, n), np.float32))
        self._cumulative = last
        self._released_exact = self._cumulative.copy()
        self._node_noise = nodes
        self._noise_prefix = P[-1].copy()
        self._blocks_closed = b1
        self.t += k
        self._p = None
        self._choice = None
        return idx, realized, expected

    def _run_chunk(self, chunk: np.ndarray) -> tuple[np.ndarray, float, float]:
        if self.block == 1:
            return self._run_chunk_per_round(chunk)
        k = chunk.shape[0]
        out = np.empty(k, dtype=np.int64)
        realized = expected = 0.0
        pos = 0
        while pos < k:
            p = self._distribution()
            end = min(k, pos + self.block - self.t % self.block)
            rows = self._check(chunk[pos:end])
            real = chunk[pos:end]
            cdf = np.cumsum(p)
            idx = np.minimum(
                np.searchsorted(cdf, self._rng.random(end - pos) * cdf[-1], side="right"), self.n_experts - 1
            )
            out[pos:end] = idx
            realized += float(real[np.arange(end - pos), idx].sum())
            expected += float(p @ real.sum(axis=0))
            self._cumulative = self._cumulative + rows.sum(axis=0)
            self.t += end - pos
            pos = end
            if self.t % self.block == 0 or self.t == self.horizon:
                self._close_block()
        self._choice = None
        return out, realized, expected
