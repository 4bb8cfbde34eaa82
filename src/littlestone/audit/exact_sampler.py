"""The audit of the SecureBackend's native exact sampler (issue 26 item 2), with the broken twin of its leak class —
a sampler that is not exact because its geometric runs are cut at block boundaries:

* ``native_discrete_laplace_sampler`` — a count released with discrete Laplace(1/ε) drawn by
  :mod:`littlestone.privacy.exact_sampling` (``SecureBackend("native")``, CKS20 Alg. 1–2), ε = 1: count 1 vs 0.
* twin ``native_sampler_block_truncated_runs`` — the same count with the pre-issue-26 run extraction on a short
  window: only the runs of Bernoulli(e⁻¹) bits completed inside a block of ``WINDOW`` bits are kept, the open run at
  the block's end dropped. Its noise is then capped (|Z| ≤ WINDOW − 1 at scale 1), so an output x + WINDOW − 1 is
  possible for the count x = 1 and impossible for x = 0: the auditor sees an event of probability 0 under D′. (The
  old code's window was ≥ 16 bits for the first block, so its cap was rarely reached; the short window makes the
  leak class visible in 200 000 runs, drawn vectorised.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import LittlestoneError
from ..privacy import DiscreteLaplaceMechanism, SecureBackend
from ..privacy.exact_sampling import bernoulli_exp1, os_words
from .builtin import BuiltinAudit

#: the broken twin's block length in bits (its noise magnitude is at most WINDOW − 1)
WINDOW = 4


class NativeSamplerCount(DiscreteLaplaceMechanism):
    """The discrete Laplace mechanism on the count of a 0/1 dataset (sensitivity 1), its noise always drawn by the
    native exact sampler (``SecureBackend("native")``, whatever backend is handed: the sampler is what is audited);
    ``size`` runs at once (one noisy count per run, independent noise)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None, size: int | None = None) -> Any:
        count = int(np.sum(data))
        value = count if size is None else np.full(int(size), count, dtype=np.int64)
        return super().__call__(value, backend=SecureBackend("native"), budget=budget)


def block_truncated_runs(n: int, window: int) -> np.ndarray:
    """BROKEN (the pre-issue-26 ``_runs``): n run lengths of Bernoulli(e⁻¹) bits read in blocks of ``window`` bits,
    keeping only the runs completed inside a block (the open run at a block's end dropped) — short runs favoured,
    every run < window."""
    parts, have = [], 0
    while have < n:
        blocks = (n - have) // 2 + 8  # independent blocks, drawn together
        ends = np.flatnonzero(~bernoulli_exp1(window * blocks, os_words))
        row, col = ends // window, ends % window
        previous = np.where(np.r_[True, row[1:] != row[:-1]], -1, np.r_[-1, col[:-1]])  # -1: a block's first run
        parts.append(col - previous - 1)
        have += ends.size
    return np.concatenate(parts)[:n]


class BlockTruncatedSamplerCount(NativeSamplerCount):
    """BROKEN (issue 26 item 2): the count plus sign-magnitude noise whose magnitude is a block-truncated run
    (:func:`block_truncated_runs`, ``WINDOW`` bits) — at scale 1 (t = s = 1: U = 0 and Y = V) the native sampler's
    magnitude with the old run extraction; a fair sign, (−, 0) rejected. Claims the honest ε."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None, size: int | None = None) -> Any:
        if self.scale != 1.0:
            raise LittlestoneError("the block-truncated twin is written for scale Δ/ε = 1")
        n = 1 if size is None else int(size)
        parts, have = [], 0
        while have < n:
            magnitude = block_truncated_runs(n - have + 16, WINDOW).astype(np.int64)
            negative = (os_words(magnitude.size) >> np.uint64(63)).astype(bool)
            z = np.where(negative, -magnitude, magnitude)[~(negative & (magnitude == 0))]
            parts.append(z)
            have += z.size
        out = int(np.sum(data)) + np.concatenate(parts)[:n]
        return int(out[0]) if size is None else out


def exact_sampler_audits() -> list[tuple[BuiltinAudit, list[BuiltinAudit]]]:
    """(honest audit, its broken twins) for the native exact sampler."""
    honest = BuiltinAudit(
        "native_discrete_laplace_sampler",
        "discrete Laplace mechanism on a count, ε=1, noise from the SECURE backend's native exact sampler (CKS20 "
        "Alg. 1–2, runs carried across blocks): count 1 vs 0",
        NativeSamplerCount(1.0),
        [1],
        [0],
        randomness="secure",
        runs=200_000,
        vectorized=True,
        extra={"secure_only": True},
    )
    twin = honest.twin(
        "native_sampler_block_truncated_runs",
        f"native sampler keeping only the runs completed inside {WINDOW}-bit blocks (issue 26 item 2: the open run "
        f"dropped, so |noise| ≤ {WINDOW - 1}); claims ε=1",
        BlockTruncatedSamplerCount(1.0),
    )
    return [(honest, [twin])]
