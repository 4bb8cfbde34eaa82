"""Reference twins (explicit 0/1 matrices built independently, as in shared/spec/reference/ldim.py) and a checker that
walks random restriction sequences on a structured class and on its FiniteClass twin, comparing everything."""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from littlestone.classes import FiniteClass


def brute_ldim(rows: frozenset) -> int:
    """Ldim of a set of value tuples by the recursive definition (spec §11.1); Ldim(∅) = −1."""
    return _ldim(frozenset(rows))


@lru_cache(maxsize=None)
def _ldim(H: frozenset) -> int:
    if not H:
        return -1
    n = len(next(iter(H)))
    best = 0
    for x in range(n):
        H0 = frozenset(h for h in H if h[x] == 0)
        H1 = H - H0
        if H0 and H1:
            v = 1 + min(_ldim(H0), _ldim(H1))
            best = max(best, v)
    return best


def rows_of(F) -> frozenset:
    """The hypotheses of a FiniteClass / FiniteVersionSpace as value tuples."""
    if hasattr(F, "mask"):
        return frozenset(tuple(int(v) for v in F.hclass.matrix[r]) for r in F.rows())
    return frozenset(tuple(int(v) for v in row) for row in np.asarray(F.matrix))


def points_matrix(n: int, with_zero: bool = True) -> np.ndarray:
    rows = [[int(x == a) for x in range(n)] for a in range(n)]
    return np.array(rows + ([[0] * n] if with_zero else []))


def intervals_matrix(n: int) -> np.ndarray:
    rows = [[int(a <= x <= b) for x in range(n)] for a in range(n) for b in range(a, n)]
    return np.array(rows + [[0] * n])


def allfunctions_matrix(m: int) -> np.ndarray:
    return np.array(list(itertools.product((0, 1), repeat=m)))


def cube(nv: int) -> list[tuple]:
    return list(itertools.product((0, 1), repeat=nv))


def conjunctions_matrix(nv: int, k: int | None = None, monotone: bool = False) -> np.ndarray:
    pts = cube(nv)
    rows = set()
    choices = (None, 1) if monotone else (None, 0, 1)
    for assign in itertools.product(choices, repeat=nv):
        lits = [(i, v) for i, v in enumerate(assign) if v is not None]
        if k is not None and len(lits) > k:
            continue
        rows.add(tuple(int(all(p[i] == v for i, v in lits)) for p in pts))
    if not monotone and (k is None or k >= 2):
        rows.add(tuple([0] * len(pts)))  # the contradictory conjunction x_i ∧ ¬x_i
    return np.array(sorted(rows))


def affine_matrix(q: int, n: int, dmax: int) -> np.ndarray:
    pts = list(itertools.product(range(q), repeat=n))
    subs = set()
    for dim in range(dmax + 1):
        for basis in itertools.combinations(pts, dim):
            span = {tuple([0] * n)}
            for b in basis:
                span = {tuple((s[i] + c * b[i]) % q for i in range(n)) for s in span for c in range(q)}
            if len(span) != q ** dim:
                continue
            for off in pts:
                subs.add(frozenset(tuple((off[i] + s[i]) % q for i in range(n)) for s in span))
    return np.array(sorted(tuple(int(p in S) for p in pts) for S in subs))


def check_walks(H, twin: FiniteClass, points: list, rng: np.random.Generator, walks: int = 20,
                depth: int = 4, check_split: bool = True) -> None:
    """Random restriction walks: Ldim, size, SOA value vector, split point and restrict_sample agree with the twin."""
    for _ in range(walks):
        V, W = H.version_space(), twin.version_space()
        X, Y = [], []
        for step in range(depth + 1):
            assert V.ldim() == W.ldim(), (step, X, Y, V, V.ldim(), W.ldim())
            assert V.size() == W.size(), (X, Y, V.size(), W.size())
            soa_s = np.asarray(V.soa().predict(H.validate_points(points)))
            soa_t = W.soa().as_array()
            assert np.array_equal(soa_s, soa_t), (X, Y, soa_s, soa_t)
            i = int(rng.integers(len(points)))
            assert V.soa_predict(points[i]) == soa_t[i]
            if check_split:
                x = V.split_point()
                d = W.ldim()
                if d >= 1:
                    assert x is not None
                    assert min(W.restrict(x, 0).ldim(), W.restrict(x, 1).ldim()) >= d - 1, (X, Y, x)
                else:
                    assert x is None
            if V.size() == 0 or step == depth:
                break
            x = points[int(rng.integers(len(points)))]
            # mostly consistent labels (so walks go deep), sometimes arbitrary
            hs = list(W.hypotheses())
            y = int(hs[int(rng.integers(len(hs)))](x)) if rng.random() < 0.85 else int(rng.integers(2))
            V, W = V.restrict(x, y), W.restrict(x, y)
            X.append(x)
            Y.append(y)
        if X:
            V0 = H.version_space()
            Xv = H.validate_points(X)
            Vs, k = V0.restrict_sample(Xv, np.array(Y))
            W0, kw = twin.version_space().restrict_sample(X, np.array(Y))
            assert k == kw, (X, Y, k, kw)
            assert Vs.ldim() == W0.ldim() and Vs.size() == W0.size()
