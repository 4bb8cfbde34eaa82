"""Integer search shared by the sample-size calculators."""

from __future__ import annotations

from typing import Callable


def least_true(ok: Callable[[int], bool], start: int = 1, *, limit: int = 2**62) -> int | None:
    """The least n ≥ ``start`` ≥ 1 with ``ok(n)``, for a predicate that stays true once true (doubling, then
    bisection); None if it is still false past ``limit``."""
    lo, hi = start - 1, start  # invariant: ok(hi), and lo < start or not ok(lo)
    while not ok(hi):
        lo, hi = hi, 2 * hi
        if hi > limit:
            return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi
