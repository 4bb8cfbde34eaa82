"""Threshold dimension (Shelah's order property; Hodges): the longest "half graph" inside a class.

Convention: Tdim(H) is the largest k with points x_1…x_k and hypotheses h_1…h_k of H such that
h_i(x_j) = 1 iff j ≥ i (so h_1 is 1 on all chosen points, x_1 is labelled 1 only by h_1). Shelah/Hodges:
Ldim ≥ ⌊log2 Tdim⌋ and Tdim ≥ ⌊log2 Ldim⌋, so one is finite iff the other is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.base import Hypothesis, Point
from ..errors import SearchBudgetError
from ._inputs import as_finite_class, closed_form, small_as_list


#: default cap on the number of (rows, points) states the exact search may open (tens of seconds of work)
MAX_STATES = 1_000_000


def threshold_dim(
    H: Any, witness: bool = False, *, max_states: int | None = MAX_STATES
) -> int | tuple[int, tuple[list[Point], list[Hypothesis]]]:
    """Threshold dimension of a finite class (version space, 0/1 matrix); with ``witness=True`` also
    ``(points x_1…x_k, hypotheses h_1…h_k)`` with h_i(x_j) = 1 iff j ≥ i.

    Exact branch and bound (exponential in the worst case; meant for small classes): choosing the first pair
    (h_1, x_1) with h_1(x_1) = 1 leaves the rows R' = {h ∈ R : h(x_1) = 0} and the points
    C' = {x ∈ C \\ {x_1} : h_1(x) = 1} for the remaining pairs, so Tdim(R, C) = max 1 + Tdim(R', C'); bounded by
    min(|R|, |C|), memoized on the two bitmasks; for a fixed x_1 only h_1 with an inclusion-maximal C' are tried.
    Stops with :class:`~littlestone.errors.SearchBudgetError` after ``max_states`` states (``None``: no cap).
    Structured classes that know the value (``threshold_closed_form``: thresholds, points, intervals, all functions,
    points and negations) answer in closed form on any domain.
    """
    known = closed_form(H, "threshold_closed_form")
    if known is not None:
        k, pts, hyps = known
        return (k, (small_as_list(pts), small_as_list(hyps))) if witness else k
    cls = as_finite_class(H)
    M = cls.matrix
    n_rows, n_cols = M.shape
    col_ones = [sum(1 << r for r in np.flatnonzero(M[:, j]).tolist()) for j in range(n_cols)]
    full_rows = (1 << n_rows) - 1
    col_zeros = [full_rows ^ c for c in col_ones]
    row_ones = [sum(1 << j for j in np.flatnonzero(M[r]).tolist()) for r in range(n_rows)]
    memo: dict[tuple[int, int], tuple[int, tuple[tuple[int, int], ...]]] = {}

    def bits(m: int) -> list[int]:
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def solve(R: int, C: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        """Longest chain (length, ((row, column), …)) using rows R and columns C."""
        key = (R, C)
        got = memo.get(key)
        if got is not None:
            return got
        if max_states is not None and len(memo) >= max_states:
            raise SearchBudgetError(
                f"threshold dimension of {cls.name}: the exact search opened {max_states:,} states "
                f"without finishing (it is exponential in general); in Python pass max_states=None to "
                f"keep going, or use a smaller class",
                what=f"threshold dimension of {cls.name}",
                cap=max_states,
                parameter="max_states",
            )
        best: tuple[int, tuple[tuple[int, int], ...]] = (0, ())
        cands = []
        for x in bits(C):
            hs = R & col_ones[x]
            if not hs:
                continue
            R2 = R & col_zeros[x]
            n_r2 = R2.bit_count()
            rest = C & ~(1 << x)
            options: dict[int, int] = {}
            for h in bits(hs):
                options.setdefault(rest & row_ones[h], h)
            sets = sorted(options, key=lambda c: -c.bit_count())
            maximal: list[int] = []
            for c in sets:  # drop C' contained in a larger C' (same R', fewer points: dominated)
                if not any(c & m == c for m in maximal):
                    maximal.append(c)
            for C2 in maximal:
                cands.append((min(n_r2, C2.bit_count()), options[C2], x, R2, C2))
        cands.sort(key=lambda t: -t[0])
        for bound, h, x, R2, C2 in cands:
            if 1 + bound <= best[0]:
                break
            sub = solve(R2, C2)
            if 1 + sub[0] > best[0]:
                best = (1 + sub[0], ((h, x),) + sub[1])
        memo[key] = best
        return best

    k, chain = solve(full_rows, (1 << n_cols) - 1)
    if not witness:
        return k
    return k, ([cls.domain.points[x] for _, x in chain], [cls.hypothesis(h) for h, _ in chain])
