"""Exact Littlestone dimension of finite classes on bitset version spaces (Lit88).

A version space of a :class:`~littlestone.classes.finite.FiniteClass` is a Python-int bitmask over its rows. The
solver answers the decision question "does V shatter a complete mistake tree of depth d?" (``has_tree``):

* prune ``|V| < 2^d`` ⇒ no; a split column needs ``min(|V_x^0|, |V_x^1|) ≥ 2^(d−1)``;
* only columns that split V, one per distinct split (identical or complementary columns on V coincide), most
  balanced first, the smaller side tried first (it is the one more likely to fail);
* every answer tightens memoized bounds ``lo ≤ Ldim(V) ≤ hi`` keyed on the bitmask (int), so later questions about
  the same V — from other paths, other depths or other callers such as the SOA — are answered without search.

``Ldim(V)`` then climbs d = 2, 3, … up to ``⌊log2 |V|⌋`` and stops at the first "no"; the recursion depth is at most
Ldim(V) ≤ log2|H|, whatever the class.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..classes.finite import FiniteClass

# a split of V: (the rows of V labelled 1 at the column, the column index); both sides nonempty
Split = tuple[int, int]


class FiniteLdimSolver:
    """Memoized decision procedure for shattered mistake trees of one finite class (Lit88)."""

    __slots__ = ("root_splits", "bounds", "full_mask", "memo_limit", "__weakref__")

    #: memory allowed for the bounds memo (bytes, roughly); the memo is a cache and is cleared when full
    MEMO_BYTES = 1 << 29

    def __init__(self, cls: "FiniteClass"):
        self.full_mask = cls.full_mask
        ones = cls.col_masks[1]
        self.root_splits: list[Split] = [(ones[j], j) for j in range(cls.n_points)]
        #: mask -> (lo, hi): known bounds on Ldim of that version space
        self.bounds: dict[int, tuple[int, int]] = {}
        self.memo_limit = max(10_000, self.MEMO_BYTES // (cls.n_hypotheses // 8 + 120))

    # ---------------------------------------------------------------------------------------------------- splits
    @staticmethod
    def splits_of(mask: int, size: int, parent: list[Split]) -> list[tuple[int, int, int]]:
        """Distinct nontrivial splits of V = mask as (balance, ones-side, column), most balanced first.

        ``parent`` must contain every split of a superset of V (duplicates on the superset stay duplicates on V).
        """
        low = mask & -mask
        seen: dict[int, Any] = {}  # popcount of the side holding the lowest row -> those sides (list, set if many)
        out: list[tuple[int, int, int]] = []
        for c, j in parent:
            a = mask & c
            if a == 0 or a == mask:
                continue
            na = a.bit_count()
            # identical and complementary columns give one split; bucket by size instead of hashing big ints
            canon, nc = (a, na) if a & low else (mask ^ a, size - na)
            bucket = seen.get(nc)
            if bucket is None:
                seen[nc] = [canon]
            elif canon in bucket:
                continue
            elif type(bucket) is list and len(bucket) < 8:
                bucket.append(canon)
            else:  # many equal sizes (e.g. singletons): hash them
                if type(bucket) is list:
                    bucket = seen[nc] = set(bucket)
                bucket.add(canon)
            out.append((min(na, size - na), a, j))
        out.sort(key=lambda t: -t[0])
        return out

    # -------------------------------------------------------------------------------------------------- decision
    def has_tree(self, mask: int, d: int, parent: list[Split] | None = None) -> bool:
        """Does V = mask shatter a complete mistake tree of depth d?"""
        size = mask.bit_count()
        if d <= 0:
            return size >= 1 or d < 0
        if size < (1 << d):
            return False
        if d == 1:  # rows are distinct, so any two differ on some column
            return True
        got = self.bounds.get(mask)
        if got is not None:
            lo, hi = got
            if d <= lo:
                return True
            if d > hi:
                return False
        else:
            lo, hi = 1, size.bit_length() - 1
        if len(self.bounds) >= self.memo_limit:
            self.bounds.clear()
        splits = self.splits_of(mask, size, self.root_splits if parent is None else parent)
        hi = min(hi, len(splits))  # a path of a shattered tree uses distinct splitting columns
        if d > hi:
            self.bounds[mask] = (lo, hi)
            return False
        child_parent = [(a, j) for _, a, j in splits]
        need = 1 << (d - 1)
        bounds = self.bounds
        for balance, a, _ in splits:
            if balance < need:
                break  # sorted by balance: no later column can split V into two halves of depth d − 1
            b = mask ^ a
            small, large = (a, b) if a.bit_count() <= b.bit_count() else (b, a)
            bs = bounds.get(small)
            if bs is not None and bs[1] < d - 1:
                continue
            bl = bounds.get(large)
            if bl is not None and bl[1] < d - 1:
                continue
            if self.has_tree(small, d - 1, child_parent) and self.has_tree(large, d - 1, child_parent):
                self.bounds[mask] = (max(lo, d), hi)
                return True
        self.bounds[mask] = (lo, d - 1)
        return False

    # ----------------------------------------------------------------------------------------------------- exact
    def ldim(self, mask: int) -> int:
        """Ldim of the version space `mask` (−1 if empty): the largest d with ``has_tree(mask, d)``."""
        size = mask.bit_count()
        if size <= 1:
            return size - 1
        got = self.bounds.get(mask)
        lo = got[0] if got is not None else 1
        while self.has_tree(mask, lo + 1):
            lo += 1
        return lo

    def split(self, mask: int, d: int, parent: list[Split] | None = None) -> tuple[int, list[Split]] | None:
        """A column whose two sides both shatter depth d − 1 (the root of a depth-d witness), or None.

        Returns (column index, splits of V to pass to the children's calls)."""
        size = mask.bit_count()
        if d <= 0 or size < (1 << d):
            return None
        splits = self.splits_of(mask, size, self.root_splits if parent is None else parent)
        child_parent = [(a, j) for _, a, j in splits]
        need = 1 << (d - 1)
        for balance, a, j in splits:
            if balance < need:
                break
            b = mask ^ a
            if self.has_tree(a, d - 1, child_parent) and self.has_tree(b, d - 1, child_parent):
                return j, child_parent
        return None


_SOLVERS: "weakref.WeakKeyDictionary[FiniteClass, FiniteLdimSolver]" = weakref.WeakKeyDictionary()


def solver_for(cls: "FiniteClass") -> FiniteLdimSolver:
    """The (cached) solver of a finite class; its memo lives as long as the class."""
    s = _SOLVERS.get(cls)
    if s is None:
        s = FiniteLdimSolver(cls)
        _SOLVERS[cls] = s
    return s


def ldim_mask(cls: "FiniteClass", mask: int) -> int:
    """Ldim of the version space `mask` of a finite class (Lit88; decision search with the |V| < 2^d prune)."""
    memo = cls._ldim_memo
    got = memo.get(mask)
    if got is not None:
        return got
    solver = solver_for(cls)
    value = solver.ldim(mask)
    if len(memo) < solver.memo_limit:  # same memory cap as the solver's bounds
        memo[mask] = value
    return value


def ldim(H: Any, witness: bool = False) -> int | tuple[int, Any]:
    """Littlestone dimension of a class, a version space, a class spec ("thresholds:100") or a 0/1 matrix (Lit88; Ldim(∅) = −1).

    Finite classes use the bitset decision search of this module; structured classes their closed-form
    ``V.ldim()``. With ``witness=True`` returns ``(d, tree)``: a complete mistake tree of depth d shattered by H
    (``None`` for an empty version space) — check it with :func:`~littlestone.dimensions.is_shattered`.
    """
    from ..classes.finite import FiniteVersionSpace
    from ..classes.resolve import as_version_space
    from .witness import witness_tree

    V = as_version_space(H)
    d = ldim_mask(V.hclass, V.mask) if isinstance(V, FiniteVersionSpace) else int(V.ldim())
    if not witness:
        return d
    return d, (None if d < 0 else witness_tree(V, d))
