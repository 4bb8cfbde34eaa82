"""Brute-force oracles and standard classes for the dimension tests (logic copied from spec/reference/ldim.py)."""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np


def restrict(H: frozenset, x: int, y: int) -> frozenset:
    return frozenset(h for h in H if h[x] == y)


@lru_cache(maxsize=None)
def ref_ldim(H: frozenset) -> int:
    if not H:
        return -1
    n = len(next(iter(H)))
    best = 0
    for x in range(n):
        H0, H1 = restrict(H, x, 0), restrict(H, x, 1)
        if H0 and H1:
            if 1 + int(math.log2(min(len(H0), len(H1)))) <= best:
                continue
            best = max(best, 1 + min(ref_ldim(H0), ref_ldim(H1)))
    return best


def ref_vc(H: frozenset) -> int:
    n = len(next(iter(H)))
    best = 0
    for k in range(1, n + 1):
        if any(len({tuple(h[i] for i in S) for h in H}) == 2 ** k for S in itertools.combinations(range(n), k)):
            best = k
        else:
            break
    return best


def as_set(M) -> frozenset:
    return frozenset(map(tuple, np.asarray(M).tolist()))


def matrix(H: frozenset) -> np.ndarray:
    return np.array(sorted(H), dtype=np.uint8)


def thresholds(n: int, include_all_zero: bool = True) -> np.ndarray:
    top = n + 1 if include_all_zero else n
    return (np.arange(n)[None, :] >= np.arange(top)[:, None]).astype(np.uint8)


def points(n: int, with_zero: bool = False) -> np.ndarray:
    M = np.eye(n, dtype=np.uint8)
    return np.vstack([M, np.zeros((1, n), np.uint8)]) if with_zero else M


def intervals(n: int, with_empty: bool = True) -> np.ndarray:
    rows = [[1 if a <= x <= b else 0 for x in range(n)] for a in range(n) for b in range(a, n)]
    if with_empty:
        rows.append([0] * n)
    return np.array(rows, dtype=np.uint8)


def all_functions(d: int) -> np.ndarray:
    return np.array(list(itertools.product((0, 1), repeat=d)), dtype=np.uint8)


def monotone_conjunctions(nv: int, max_lits: int | None = None) -> np.ndarray:
    pts = list(itertools.product((0, 1), repeat=nv))
    H = set()
    for r in range(nv + 1):
        if max_lits is not None and r > max_lits:
            continue
        for S in itertools.combinations(range(nv), r):
            H.add(tuple(1 if all(p[i] == 1 for i in S) else 0 for p in pts))
    return matrix(frozenset(H))


def conjunctions_of_literals(nv: int) -> np.ndarray:
    pts = list(itertools.product((0, 1), repeat=nv))
    H = set()
    for assign in itertools.product((None, 0, 1), repeat=nv):
        lits = [(i, v) for i, v in enumerate(assign) if v is not None]
        H.add(tuple(1 if all(p[i] == v for i, v in lits) else 0 for p in pts))
    H.add(tuple([0] * len(pts)))
    return matrix(frozenset(H))
