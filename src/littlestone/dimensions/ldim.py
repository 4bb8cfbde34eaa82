"""Exact Littlestone dimension of finite classes on bitset version spaces (spec §11.1, §11.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..classes.finite import FiniteClass


def ldim_mask(cls: "FiniteClass", mask: int) -> int:
    """Ldim of the version space `mask` of a finite class: memoized decision recursion with the |V| < 2^d prune."""
    memo = cls._ldim_memo
    got = memo.get(mask)
    if got is not None:
        return got
    size = mask.bit_count()
    if size <= 1:
        return size - 1
    c0, c1 = cls.col_masks
    best = 0
    upper = size.bit_length() - 1  # ⌊log2 |V|⌋
    for j in range(cls.n_points):
        a = mask & c1[j]
        if a == 0 or a == mask:
            continue
        b = mask ^ a
        # prune: the smaller side bounds 1 + min(...) by 1 + ⌊log2 min(|a|,|b|)⌋
        small = min(a.bit_count(), b.bit_count())
        if 1 + small.bit_length() - 1 <= best:
            continue
        la = ldim_mask(cls, a)
        if 1 + la <= best:
            continue
        v = 1 + min(la, ldim_mask(cls, b))
        if v > best:
            best = v
            if best >= upper:
                break
    memo[mask] = best
    return best
