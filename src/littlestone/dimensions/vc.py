"""Exact VC dimension of finite classes with a shattered-set witness (Lit88: VC(H) ≤ Ldim(H) ≤ log2|H|)."""

from __future__ import annotations

from typing import Any, Literal, overload

import numpy as np

from ..classes.base import Point
from ..errors import SearchBudgetError
from ._inputs import as_finite_class, closed_form, small_as_list


def _useful_columns(M: np.ndarray) -> list[int]:
    """Indices of non-constant columns, one per distinct column (a repeated column never enlarges a shattered set)."""
    keep, seen = [], set()
    for j in range(M.shape[1]):
        col = M[:, j]
        if col.min() == col.max():
            continue
        key = col.tobytes()
        if key in seen:
            continue
        seen.add(key)
        keep.append(j)
    return keep


class _Budget:
    """Counts search nodes; raises a clear error when the cap is reached."""

    def __init__(self, cap: int | None, what: str):
        self.cap, self.used, self.what = cap, 0, what

    def tick(self) -> None:
        self.used += 1
        if self.cap is not None and self.used > self.cap:
            raise SearchBudgetError(
                f"VC dimension of {self.what}: the exact search visited {self.cap:,} candidate "
                f"sets without finishing (it is exponential in the VC dimension); in Python pass "
                f"max_nodes=None to keep going, or use a smaller class",
                what=f"VC dimension of {self.what}",
                cap=self.cap,
                parameter="max_nodes",
            )


def _find_shattered(M: np.ndarray, cols: list[int], target: int, budget: _Budget) -> list[int] | None:
    """A set of `target` columns shattered by the rows of M, or None.

    Depth-first over increasing column indices; rows are coded by their pattern on the chosen columns (their cell),
    a set is shattered iff all 2^k cells are nonempty. Prune: to grow from k to `target` columns every cell must
    still hold ≥ 2^(target − k) rows, and enough columns must remain.
    """
    n_rows = M.shape[0]
    if target == 0:
        return []
    if n_rows < (1 << target) or len(cols) < target:
        return None
    colvals = [M[:, j].astype(np.int64) for j in cols]

    def dfs(start: int, codes: np.ndarray, chosen: list[int]) -> list[int] | None:
        k = len(chosen)
        for i in range(start, len(cols) - (target - k) + 1):
            budget.tick()
            new = codes * 2 + colvals[i]
            counts = np.bincount(new, minlength=1 << (k + 1))
            if counts.min() < (1 << (target - k - 1)):
                continue
            if k + 1 == target:
                return chosen + [cols[i]]
            got = dfs(i + 1, new, chosen + [cols[i]])
            if got is not None:
                return got
        return None

    return dfs(0, np.zeros(n_rows, dtype=np.int64), [])


#: default cap on candidate sets visited by the exact search (tens of seconds of work)
MAX_NODES = 5_000_000


@overload
def vc_dim(H: Any, witness: Literal[False] = False, *, max_nodes: int | None = MAX_NODES) -> int: ...


@overload
def vc_dim(H: Any, witness: Literal[True], *, max_nodes: int | None = MAX_NODES) -> tuple[int, list[Point]]: ...


def vc_dim(H: Any, witness: bool = False, *, max_nodes: int | None = MAX_NODES) -> int | tuple[int, list[Point]]:
    """VC dimension of a finite class (or version space, or 0/1 matrix); with ``witness=True`` also a shattered set
    of that size (a list of domain points). Structured classes that know their VC dimension in closed form
    (thresholds, points, intervals, all functions, points and negations: ``vc_closed_form``) answer on any domain;
    otherwise the search runs on the explicit class: it grows the target size from 1 up to ⌊log2 |H|⌋ and stops with
    :class:`~littlestone.errors.SearchBudgetError` after ``max_nodes`` candidate sets (``None``: no cap)."""
    known = closed_form(H, "vc_closed_form")
    if known is not None:
        return (known[0], small_as_list(known[1])) if witness else known[0]
    cls = as_finite_class(H)
    M = cls.matrix
    cols = _useful_columns(M)
    best: list[int] = []
    upper = min(int(M.shape[0]).bit_length() - 1, len(cols))
    budget = _Budget(max_nodes, cls.name)
    for target in range(1, upper + 1):
        found = _find_shattered(M, cols, target, budget)
        if found is None:
            break
        best = found
    if not witness:
        return len(best)
    return len(best), [cls.domain.points[j] for j in best]


def is_vc_shattered(H: Any, points: list[Point]) -> bool:
    """Do the hypotheses of H realize all 2^k labellings of these k points?"""
    cls = as_finite_class(H)
    idx = cls.domain.indices(points) if points else np.zeros(0, dtype=np.intp)
    if len(set(idx.tolist())) != len(idx):
        return False
    codes = np.zeros(cls.n_hypotheses, dtype=np.int64)
    for j in idx:
        codes = codes * 2 + cls.matrix[:, j]
    return bool(np.unique(codes).size == (1 << len(idx)))
