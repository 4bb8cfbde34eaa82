"""Majority classes of LWY25 App. E.2: H_{m,1/2} = {x ↦ 1[(1/m) Σ_i h_i(x) ≥ 1/2] : h_1..h_m ∈ H} and
H_{m,1/2} ⊕ H = {x ↦ maj(h_1..h_m)(x) ⊕ h(x)}, as explicit finite classes (small H), and Claim E.7's bounds.

Claim E.7 (via LWY25 Lemmas A.18–A.19) gives Ldim, dual Ldim and VC of H_{m,1/2} ⊕ H as O(m d log m),
O(m d* log m), O(m d_V log m) with unstated constants. :func:`claim_e7_bounds` prints those orders (constant 1)
beside the one bound whose constant is explicit — Dudley's counting argument for VC (a G(H_1..H_k) has at most
Π_i |Π_{H_i}(n)| ≤ (Σ_{j≤d_V} C(n, j))^k patterns on n points, Sauer's lemma) — and the dimensions computed
exactly on the explicit class.
"""

from __future__ import annotations

import math
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from ..errors import LittlestoneError
from .base import HypothesisClass
from .finite import FiniteClass
from .ops import MAX_ENTRIES, _labels_or_none, to_finite


def _check_m(m: Any) -> int:
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise LittlestoneError(f"the majority size m must be an integer >= 1, got {m!r}")
    return int(m)


def _majorities(F: FiniteClass, m: int) -> np.ndarray:
    k = F.n_hypotheses
    count = math.comb(k + m - 1, m)
    if count * F.n_points > MAX_ENTRIES:
        raise LittlestoneError(
            f"H_(m,1/2) with |H| = {k}, m = {m} has {count} majorities over {F.n_points} points "
            "(too large to build explicitly)"
        )
    M = F.matrix.astype(np.int32)
    rows = [(M[list(c)].sum(axis=0) * 2 >= m) for c in combinations_with_replacement(range(k), m)]
    return np.unique(np.asarray(rows, dtype=np.uint8), axis=0)


def majority_class(H: HypothesisClass, m: int) -> FiniteClass:
    """H_{m,1/2}: majorities (ties → 1, LWY25's '≥ 1/2') of m members of a small finite H, explicitly."""
    m = _check_m(m)
    F = to_finite(H)
    return FiniteClass(_majorities(F, m), points=_labels_or_none(F.domain_points()), name=f"maj{m}({F.name})")


def majority_xor_class(H: HypothesisClass, m: int) -> FiniteClass:
    """H_{m,1/2} ⊕ H (LWY25 Algorithm 5's class): x ↦ maj(h_1..h_m)(x) ⊕ h(x), explicitly."""
    m = _check_m(m)
    F = to_finite(H)
    maj = _majorities(F, m)
    if maj.shape[0] * F.n_hypotheses * F.n_points > MAX_ENTRIES:
        raise LittlestoneError(
            f"H_(m,1/2) ⊕ H would have {maj.shape[0] * F.n_hypotheses} rows over {F.n_points} "
            "points (too large to build explicitly)"
        )
    rows = (maj[:, None, :] ^ F.matrix[None, :, :]).reshape(-1, F.n_points)
    return FiniteClass(
        np.unique(rows, axis=0), points=_labels_or_none(F.domain_points()), name=f"maj{m}({F.name})⊕{F.name}"
    )


def dudley_vc_bound(d_vc: int, k: int) -> int:
    """Largest n with 2^n ≤ (Σ_{j≤d_V} C(n, j))^k: VC of any G(H_1..H_k) with VC(H_i) ≤ d_V (explicit constant)."""
    if d_vc <= 0:
        return 0
    n = 1
    while n * math.log(2) <= k * math.log(sum(math.comb(n, j) for j in range(d_vc + 1))):
        n += 1
    return n - 1


def claim_e7_bounds(d: int, d_star: int, d_vc: int, m: int) -> dict[str, float]:
    """Claim E.7's orders for H_{m,1/2} ⊕ H with constant 1 (m·d·log2 m, etc.; log2 m read as max(1, log2 m)) and
    the explicit Dudley VC bound with k = m + 1 functions."""
    m = _check_m(m)
    lg = max(1.0, math.log2(m))
    return {
        "Ldim order m·d·log m": m * d * lg,
        "dual Ldim order m·d*·log m": m * d_star * lg,
        "VC order m·d_V·log m": m * d_vc * lg,
        "VC bound (Dudley, explicit)": float(dudley_vc_bound(d_vc, m + 1)),
    }
