"""Compiled (Numba) kernels of the BLM20 tournament — imported only by code that runs them (numba loads here).

These functions are the only kernel code: ``make venv`` also compiles them ahead of time (:mod:`._kernels_build`,
exports and signatures listed there), and a run uses that build — without importing Numba — while it matches this
file; after an edit the JIT runs until ``python -m littlestone.pac._kernels_build`` rebuilds."""

from __future__ import annotations

import numpy as np
from .._numba import njit_cached


@njit_cached
def _chain_ldim(size: int) -> int:  # pragma: no cover - compiled
    """⌊log2 size⌋ (−1 if size ≤ 0): Ldim of a chain of `size` thresholds (``classes.thresholds.chain_ldim``)."""
    r = -1
    while size > 0:
        size >>= 1
        r += 1
    return r


@njit_cached
def _soa_threshold(lo: int, hi: int, n_points: int) -> int:  # pragma: no cover - compiled
    """t of SOA({h_t : lo ≤ t ≤ hi}) = Threshold(t): ``ThresholdsVersionSpace.soa`` (same binary search)."""
    if lo > hi:
        return n_points
    a = max(lo - 1, -1)
    b = hi
    while b - a > 1:
        mid = a + (b - a) // 2  # = (a + b) // 2 without overflow
        n1 = max(0, min(hi, mid) - lo + 1)
        n0 = max(0, hi - max(lo, mid + 1) + 1)
        if _chain_ldim(n1) > _chain_ldim(n0):
            b = mid
        else:
            a = mid
    return min(b, n_points)


@njit_cached
def level1_first_round(
    X: np.ndarray, y: np.ndarray, n: int, R: int, start: int, vlo: int, vhi: int, n_points: int, out: np.ndarray
) -> int:  # pragma: no cover - compiled
    """First level-1 round r in [start, R) (blocks 2r, 2r+1 of n examples) whose outcome is not "repeat": a block is
    not realizable, or the SOA thresholds of the two blocks' version spaces differ; R if none.

    A block's version space is {h_t : lo ≤ t ≤ hi} with hi = min(vhi, min{x : y = 1}) and
    lo = max(vlo, max{x + 1 : y = 0}) — ``ThresholdsVersionSpace.restrict_sample`` in one pass. On return
    ``out`` = (lo0, hi0, lo1, hi1, t0, t1) of round r."""
    for r in range(start, R):
        base = 2 * n * r
        lo0, hi0 = vlo, vhi
        for i in range(base, base + n):
            x = X[i]
            if y[i] == 1:
                if x < hi0:
                    hi0 = x
            elif x + 1 > lo0:
                lo0 = x + 1
        lo1, hi1 = vlo, vhi
        for i in range(base + n, base + 2 * n):
            x = X[i]
            if y[i] == 1:
                if x < hi1:
                    hi1 = x
            elif x + 1 > lo1:
                lo1 = x + 1
        if lo0 == lo1 and hi0 == hi1 and lo0 <= hi0:
            continue  # same version space: same SOA
        out[0], out[1], out[2], out[3] = lo0, hi0, lo1, hi1
        if lo0 > hi0 or lo1 > hi1:
            return r
        t0 = _soa_threshold(lo0, hi0, n_points)
        t1 = _soa_threshold(lo1, hi1, n_points)
        if t0 != t1:
            out[4], out[5] = t0, t1
            return r
    return R


@njit_cached
def restrict_thresholds(
    X: np.ndarray, y: np.ndarray, lo: int, hi: int, out: np.ndarray
) -> int:  # pragma: no cover - compiled
    """``ThresholdsVersionSpace([lo, hi]).restrict_sample(X, y)`` in one pass: returns k, the length of the longest
    realizable prefix, and sets out = (lo, hi) of the version space after that prefix (lo ≤ hi on entry)."""
    k = X.shape[0]
    for i in range(X.shape[0]):
        x = X[i]
        if y[i] == 1:
            h = min(hi, x)
            if lo > h:
                k = i
                break
            hi = h
        else:
            lw = max(lo, x + 1)
            if lw > hi:
                k = i
                break
            lo = lw
    out[0], out[1] = lo, hi
    return k


@njit_cached
def soa_threshold(lo: int, hi: int, n_points: int) -> int:  # pragma: no cover - compiled
    """t of SOA({h_t : lo ≤ t ≤ hi}) (``ThresholdsVersionSpace.soa``)."""
    return _soa_threshold(lo, hi, n_points)
