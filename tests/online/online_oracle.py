"""Brute-force oracles for the online tests (logic of shared/spec/reference/ldim.py): classes as frozensets of
value tuples over range(n)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np


def restrict(H: frozenset, x: int, y: int) -> frozenset:
    return frozenset(h for h in H if h[x] == y)


@lru_cache(maxsize=None)
def ldim(H: frozenset) -> int:
    """Plain decision recursion; Ldim(∅) = −1."""
    if not H:
        return -1
    n = len(next(iter(H)))
    best = 0
    for x in range(n):
        H0, H1 = restrict(H, x, 0), restrict(H, x, 1)
        if H0 and H1:
            best = max(best, 1 + min(ldim(H0), ldim(H1)))
    return best


def soa(H: frozenset, x: int) -> int:
    """Seed 002 Def 4.2 with ties → 0."""
    return int(ldim(restrict(H, x, 1)) > ldim(restrict(H, x, 0)))


def soa_vector(H: frozenset, n: int) -> tuple[int, ...]:
    return tuple(soa(H, x) for x in range(n))


def naive_extended_soa_run(H: frozenset, n: int, X, y) -> tuple[list[int], tuple[int, ...]]:
    """Seed 000 Def 8 step by step: predictions before each example, and the final predictor as a value vector."""
    V = H
    h = list(soa_vector(V, n))
    realizable = True
    preds = []
    for x, lab in zip(X, y):
        preds.append(h[x])
        if realizable and restrict(V, x, lab):
            V = restrict(V, x, lab)
            h = list(soa_vector(V, n))
        else:
            realizable = False
            h[x] = lab
    return preds, tuple(h)


def as_rows(M: np.ndarray) -> frozenset:
    return frozenset(tuple(int(v) for v in r) for r in np.asarray(M))
