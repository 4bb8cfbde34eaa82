"""Exact Littlestone dimension (Lit88) of explicit finite classes on bitset version spaces — the kernel that lives
with :class:`~littlestone.classes.finite.FiniteClass` (``littlestone.dimensions.ldim`` is its public front).

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

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..classes.finite import FiniteClass

# a split of V: (the rows of V labelled 1 at the column, the column index); both sides nonempty
Split = tuple[int, int]


class FiniteLdimSolver:
    """Memoized decision procedure for shattered mistake trees of one finite class."""

    __slots__ = ("root_splits", "bounds", "full_mask", "memo_limit", "memo_bytes", "matrix", "n_rows", "compact_min")

    #: a version space this many times smaller than the rows of the solver is searched in its own compact frame
    COMPACT_RATIO = 32
    #: ... provided it has at least this many rows (below that the bitmasks are short anyway)
    COMPACT_MIN = 256

    def __init__(self, cls: "FiniteClass", memo_bytes: int):
        self._setup(cls.matrix, cls.col_masks[1], memo_bytes)

    def _setup(self, matrix: Any, ones: list[int], memo_bytes: int) -> None:
        self.matrix = matrix
        self.compact_min = self.COMPACT_MIN
        self.n_rows = matrix.shape[0]
        self.full_mask = (1 << self.n_rows) - 1
        self.root_splits: list[Split] = [(ones[j], j) for j in range(len(ones))]
        #: mask -> (lo, hi): known bounds on Ldim of that version space (lo == hi: the exact value). A cache: it is
        #: cleared when it holds ``memo_limit`` entries, so it stays within ``memo_bytes`` (an entry is a bitmask of
        #: |H| bits plus about 120 bytes of dict slot and tuple).
        self.bounds: dict[int, tuple[int, int]] = {}
        self.memo_bytes = int(memo_bytes)
        self.memo_limit = max(1_000, self.memo_bytes // (self.n_rows // 8 + 120))

    def frame(self, mask: int, splits: list[tuple[int, int, int]]) -> "FiniteLdimSolver":
        """A solver for V = mask alone, its rows renumbered 0..|V|−1 and only its splitting columns kept.

        Bitmask operations cost in proportion to the bit length of the masks, which for a small V scattered over
        many rows is that of the whole class; in the frame they cost in proportion to |V|. The frame's memo gets a
        quarter of this solver's budget (frames nest at most log_COMPACT_RATIO |H| deep: total ≤ 4/3 of the root's).
        """
        from .finite import column_masks

        nbytes = (self.n_rows + 7) // 8
        bits = np.unpackbits(np.frombuffer(mask.to_bytes(nbytes, "little"), dtype=np.uint8), bitorder="little")
        rows = np.flatnonzero(bits[: self.n_rows])
        cols = np.fromiter((j for _, _, j in splits), dtype=np.intp, count=len(splits))
        sub = self.matrix[np.ix_(rows, cols)]
        child = FiniteLdimSolver.__new__(FiniteLdimSolver)
        child._setup(sub, column_masks(sub), self.memo_bytes // 4)
        return child

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
        if size >= self.compact_min and size * self.COMPACT_RATIO <= self.n_rows:
            frame = self.frame(mask, splits)
            found = frame.has_tree(frame.full_mask, d)
            self.bounds[mask] = (max(lo, d), hi) if found else (lo, d - 1)
            return found
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


def solver_for(cls: "FiniteClass") -> FiniteLdimSolver:
    """The solver of a finite class (created on first use; its memo lives with the class, ``cls.clear_caches()``
    drops it)."""
    s = cls._solver
    if s is None:
        s = cls._solver = FiniteLdimSolver(cls, cls.memo_bytes())
    return s


def ldim_mask(cls: "FiniteClass", mask: int) -> int:
    """Ldim of the version space `mask` of a finite class (−1 if empty): decision search with the |V| < 2^d prune."""
    solver = solver_for(cls)
    got = solver.bounds.get(mask)
    if got is not None and got[0] == got[1]:
        return got[0]
    value = solver.ldim(mask)
    if value >= 1 and len(solver.bounds) < solver.memo_limit:
        solver.bounds[mask] = (value, value)
    return value
