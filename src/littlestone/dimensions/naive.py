"""The textbook recursion Ldim(V) = max_x 1 + min(Ldim(V_x^0), Ldim(V_x^1)) on tuples of value vectors (Lit88),
memoized and unpruned: the baseline of benchmarks/bench_ldim.py and an independent oracle for tests."""

from __future__ import annotations

import sys
from functools import lru_cache
from typing import Any

import numpy as np

Row = tuple[int, ...]


def naive_ldim(H: Any) -> int:
    """Ldim of a 0/1 matrix / FiniteClass by the plain memoized recursion (exponential; small classes only)."""
    M = np.asarray(getattr(H, "matrix", H), dtype=np.uint8)
    rows: tuple[Row, ...] = tuple(sorted(set(map(tuple, M.tolist()))))
    n = M.shape[1] if M.ndim == 2 else 0

    @lru_cache(maxsize=None)
    def rec(V: tuple[Row, ...]) -> int:
        if not V:
            return -1
        best = 0
        for x in range(n):
            V0 = tuple(h for h in V if h[x] == 0)
            V1 = tuple(h for h in V if h[x] == 1)
            if V0 and V1:
                best = max(best, 1 + min(rec(V0), rec(V1)))
        return best

    # the recursion can go |H| levels deep (e.g. on a chain, V_x^0 keeps all but one function)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100 + 2 * len(rows)))
    return rec(rows)
