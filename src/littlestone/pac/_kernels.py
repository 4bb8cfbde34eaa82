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
def _block_space(X: np.ndarray, y: np.ndarray, a: int, b: int, lo: int, hi: int):  # pragma: no cover - compiled
    """(lo', hi') with {h_t : lo' ≤ t ≤ hi'} = {h_t : lo ≤ t ≤ hi} restricted to the block X[a:b], y[a:b]
    (empty iff lo' > hi'): hi' = min(hi, min{x : y = 1}), lo' = max(lo, max{x + 1 : y = 0})."""
    for i in range(a, b):
        x = X[i]
        if y[i] == 1:
            if x < hi:
                hi = x
        elif x + 1 > lo:
            lo = x + 1
    return lo, hi


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
        lo0, hi0 = _block_space(X, y, base, base + n, vlo, vhi)
        lo1, hi1 = _block_space(X, y, base + n, base + 2 * n, vlo, vhi)
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


@njit_cached
def _final_table(px: np.ndarray, py: np.ndarray, X: np.ndarray, y: np.ndarray, j: int):  # pragma: no cover
    """The last-wins table of the patches px/py followed by the examples X[j:], y[j:] (``tournament._merge``) as
    (points ascending, labels)."""
    m = px.shape[0] + X.shape[0] - j
    xs = np.empty(m, dtype=np.int64)
    ys = np.empty(m, dtype=np.int8)
    xs[: px.shape[0]] = px
    ys[: px.shape[0]] = py
    xs[px.shape[0] :] = X[j:]
    ys[px.shape[0] :] = y[j:]
    order = np.argsort(xs, kind="mergesort")  # stable: within one point, later entries come later
    ux = np.empty(m, dtype=np.int64)
    uy = np.empty(m, dtype=np.int8)
    u = 0
    for i in range(m):
        x = xs[order[i]]
        if u > 0 and ux[u - 1] == x:
            uy[u - 1] = ys[order[i]]  # last wins
        else:
            ux[u] = x
            uy[u] = ys[order[i]]
            u += 1
    return ux[:u], uy[:u]


@njit_cached
def _extended_function(
    lo: int, hi: int, realizable: bool, px: np.ndarray, py: np.ndarray, X: np.ndarray, y: np.ndarray, n_points: int
):  # pragma: no cover - compiled
    """SOA(S∘T) as a function, for S's SOA state (V = [lo, hi], realizable, patches px/py) and T = (X, y):
    ``SOAState.extend`` then ``SOAState.hypothesis`` as (t, patch points ascending, their labels) — the function
    x ↦ label at a patched point, else 1[x ≥ t] (BLM20 Definition 8)."""
    j = 0
    if realizable:
        out = np.empty(2, dtype=np.int64)
        j = restrict_thresholds(X, y, lo, hi, out)
        lo, hi = out[0], out[1]
        if j == X.shape[0]:  # still realizable: no patches
            return _soa_threshold(lo, hi, n_points), px[:0], py[:0]
    ux, uy = _final_table(px, py, X, y, j)
    return _soa_threshold(lo, hi, n_points), ux, uy


@njit_cached
def same_extended_soa(
    lo0: int,
    hi0: int,
    r0: int,
    px0: np.ndarray,
    py0: np.ndarray,
    X0: np.ndarray,
    y0: np.ndarray,
    lo1: int,
    hi1: int,
    r1: int,
    px1: np.ndarray,
    py1: np.ndarray,
    X1: np.ndarray,
    y1: np.ndarray,
    n_points: int,
) -> int:  # pragma: no cover - compiled
    """1 when SOA(S0∘T0) and SOA(S1∘T1) are the same function on the domain {0, …, n_points − 1} (a tournament
    round at level ≥ 2 repeats: step (iii) of BLM20 §IV-B), else 0. Each S_i is given by its SOA state (V = [lo, hi],
    realizable flag, patches in insertion order), T_i by its examples; points are integers in the domain."""
    t0, a0, b0 = _extended_function(lo0, hi0, r0 != 0, px0, py0, X0, y0, n_points)
    t1, a1, b1 = _extended_function(lo1, hi1, r1 != 0, px1, py1, X1, y1, n_points)
    # every patched point of either side: compare the two functions there (merge of two ascending tables)
    i = k = 0
    tlo, thi = min(t0, t1), min(max(t0, t1), n_points)
    inside = 0  # patched points in [tlo, thi), where the two bases differ
    while i < a0.shape[0] or k < a1.shape[0]:
        if k >= a1.shape[0] or (i < a0.shape[0] and a0[i] < a1[k]):
            x, v0 = a0[i], int(b0[i])
            v1 = 1 if x >= t1 else 0
            i += 1
        elif i >= a0.shape[0] or a1[k] < a0[i]:
            x, v1 = a1[k], int(b1[k])
            v0 = 1 if x >= t0 else 0
            k += 1
        else:
            x, v0, v1 = a0[i], int(b0[i]), int(b1[k])
            i += 1
            k += 1
        if v0 != v1:
            return 0
        if tlo <= x < thi:
            inside += 1
    # elsewhere both are their bases: they differ at every unpatched point of [tlo, thi)
    return 1 if thi - tlo <= inside else 0


@njit_cached
def level2_draw(
    X: np.ndarray,
    y: np.ndarray,
    base: int,
    n: int,
    vlo: int,
    vhi: int,
    n_points: int,
    bits: np.ndarray,
    st: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """D̃_2 of BLM20 §IV-C1 on plain thresholds, resumable over windows of the example stream: the repeated
    rounds of level 2 and every level-1 draw inside them, with the contest labels read in order from ``bits``.

    X, y: the window, at batch position ``base``; V = [vlo, vhi] the class's version space. ``st`` (int64[16]) is
    the state carried between calls: st[0] offset in the window of the next unread example (the caller draws
    st[0] examples after each call), st[1] labels used from ``bits``, st[2] stage (0: drawing S0 ∼ D̃_1, 1: drawing
    S1, 2: reading T0, T1), st[3:9] S0 = (lo, hi, realizable, tournament x, its label, batch position of its block),
    st[9:15] S1 likewise. Returns 0 when the window has no complete 2n examples left (stage and samples kept),
    1 when ``bits`` ran out (the round is redone on the next call), 2 when a level-2 round did not repeat (its T0,
    T1 are the 2n examples before st[0]; the caller plays steps (iv)–(v)), 3 on a level-1 round with a
    non-realizable block (not handled here: the caller redraws from the start)."""
    m = X.shape[0]
    pos = st[0]
    while pos + 2 * n <= m:
        if st[2] < 2:  # one level-1 round: blocks [pos, pos+n), [pos+n, pos+2n)
            lo0, hi0 = _block_space(X, y, pos, pos + n, vlo, vhi)
            lo1, hi1 = _block_space(X, y, pos + n, pos + 2 * n, vlo, vhi)
            if lo0 == lo1 and hi0 == hi1 and lo0 <= hi0:
                pos += 2 * n  # same version space: repeat
                continue
            if lo0 > hi0 or lo1 > hi1:
                st[0] = pos
                return 3
            t0 = _soa_threshold(lo0, hi0, n_points)
            t1 = _soa_threshold(lo1, hi1, n_points)
            if t0 == t1:
                pos += 2 * n
                continue
            if st[1] >= bits.shape[0]:
                st[0] = pos
                return 1
            x = min(t0, t1)  # steps (iv)–(v) in closed form, as tournament._draw_level1
            lab = bits[st[1]]
            st[1] += 1
            if (1 if x >= t0 else 0) != lab:
                blo, bhi, a = lo0, hi0, base + pos
            else:
                blo, bhi, a = lo1, hi1, base + pos + n
            nlo, nhi = (blo, min(bhi, x)) if lab == 1 else (max(blo, x + 1), bhi)
            o = 3 + 6 * st[2]
            if nlo <= nhi:
                st[o], st[o + 1], st[o + 2] = nlo, nhi, 1
            else:
                st[o], st[o + 1], st[o + 2] = blo, bhi, 0
            st[o + 3], st[o + 4], st[o + 5] = x, lab, a
            st[2] += 1
            pos += 2 * n
            continue
        # stage 2: T0 = [pos, pos+n), T1 = [pos+n, pos+2n); step (iii) as same_extended_soa
        px0 = np.full(1 - st[5], st[6], dtype=np.int64)
        py0 = np.full(1 - st[5], st[7], dtype=np.int8)
        px1 = np.full(1 - st[11], st[12], dtype=np.int64)
        py1 = np.full(1 - st[11], st[13], dtype=np.int8)
        same = same_extended_soa(
            st[3],
            st[4],
            st[5],
            px0,
            py0,
            X[pos : pos + n],
            y[pos : pos + n],
            st[9],
            st[10],
            st[11],
            px1,
            py1,
            X[pos + n : pos + 2 * n],
            y[pos + n : pos + 2 * n],
            n_points,
        )
        pos += 2 * n
        if same == 0:
            st[0] = pos
            return 2
        st[2] = 0
    st[0] = pos
    return 0
