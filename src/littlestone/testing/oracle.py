"""The one brute-force oracle for tests: classes as frozensets of value tuples over points 0..n−1, the Littlestone
dimension by its recursive definition, VC dimension, the SOA (ties → 0), the extended SOA step by step, GGKM21's
irreducibility order, reducing arrays and ReduceTree (Algorithm 1) in their plainest form, and reference twins of the
structured classes built independently as explicit 0/1 matrices.

Exponential time by design — for classes of a few dozen hypotheses; it shares no code with the library's algorithms,
so agreement is evidence. The recursion is the definition of Lit88 (Ldim(∅) = −1; a point splits V when both
restrictions are nonempty) and the SOA is BLM20's (predict 1 iff Ldim(V|(x,1)) > Ldim(V|(x,0))).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

__all__ = [
    "rows",
    "matrix",
    "restrict",
    "brute_ldim",
    "brute_vc",
    "brute_soa",
    "soa_vector",
    "naive_extended_soa_run",
    "brute_irr",
    "brute_reducing_array",
    "ReduceTreeRun",
    "reduce_tree_reference",
    "thresholds_matrix",
    "points_matrix",
    "intervals_matrix",
    "allfunctions_matrix",
    "conjunctions_matrix",
    "affine_matrix",
    "cube",
]


def rows(H: Any) -> frozenset:
    """The hypotheses of a 0/1 matrix, a FiniteClass or a FiniteVersionSpace, as a frozenset of value tuples."""
    if hasattr(H, "mask") and hasattr(H, "rows"):  # a FiniteVersionSpace
        return frozenset(tuple(int(v) for v in H.hclass.matrix[r]) for r in H.rows())
    M = H.matrix if hasattr(H, "matrix") else H
    return frozenset(tuple(int(v) for v in row) for row in np.asarray(M))


def matrix(H: frozenset) -> np.ndarray:
    """The rows of H as a uint8 matrix in lexicographic order."""
    return np.array(sorted(H), dtype=np.uint8)


def restrict(H: frozenset, x: int, y: int) -> frozenset:
    return frozenset(h for h in H if h[x] == y)


def brute_ldim(H: Any) -> int:
    """Ldim by the recursive definition: −1 for ∅, else max over splitting x of 1 + min(Ldim(H0), Ldim(H1))."""
    return _ldim(frozenset(H))


@lru_cache(maxsize=None)
def _ldim(H: frozenset) -> int:
    if not H:
        return -1
    n = len(next(iter(H)))
    best = 0
    for x in range(n):
        H0, H1 = restrict(H, x, 0), restrict(H, x, 1)
        if H0 and H1:
            if 1 + (min(len(H0), len(H1)).bit_length() - 1) <= best:  # Ldim(G) ≤ log2|G|: cannot beat best
                continue
            best = max(best, 1 + min(_ldim(H0), _ldim(H1)))
    return best


def brute_vc(H: frozenset) -> int:
    """VC dimension: the largest k such that some k points are shattered."""
    n = len(next(iter(H)))
    best = 0
    for k in range(1, n + 1):
        if any(len({tuple(h[i] for i in S) for h in H}) == 2**k for S in itertools.combinations(range(n), k)):
            best = k
        else:
            break
    return best


def brute_soa(H: frozenset, x: int) -> int:
    """The SOA's prediction at x (ties → 0)."""
    return int(brute_ldim(restrict(H, x, 1)) > brute_ldim(restrict(H, x, 0)))


def soa_vector(H: frozenset, n: int) -> tuple[int, ...]:
    return tuple(brute_soa(H, x) for x in range(n))


def naive_extended_soa_run(H: frozenset, n: int, X: Sequence[int], y: Sequence[int]) -> tuple[list[int], tuple]:
    """The extended SOA (BLM20 Def 8) step by step: predictions before each example, and the final predictor."""
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


# --- GGKM21: irreducibility, reducing arrays and ReduceTree (Algorithm 1), written from the definitions -----------


def brute_irr(H: Any) -> float:
    """The irreducibility order sup{k : H is k-irreducible} (GGKM21 Def 4.1), math.inf for |H| ≤ 1.

    H is k-irreducible iff every point x has a label y with Ldim(H|(x,y)) = Ldim(H) and H|(x,y) (k−1)-irreducible
    (x at the root of a depth-k tree, any depth-(k−1) tree below it); a point on which H does not split only asks
    H itself to be (k−1)-irreducible, so it imposes nothing; a splitting point with no child of full dimension makes
    the order 0."""
    return _irr(frozenset(H))


@lru_cache(maxsize=None)
def _irr(H: frozenset) -> float:
    if len(H) <= 1:
        return math.inf
    L = _ldim(H)
    order = math.inf
    for x in range(len(next(iter(H)))):
        kids = [restrict(H, x, 0), restrict(H, x, 1)]
        if not kids[0] or not kids[1]:
            continue
        full = [G for G in kids if _ldim(G) == L]
        if not full:
            return 0
        order = min(order, 1 + _irr(full[0]))  # at most one child keeps Ldim L (else Ldim(H) ≥ L + 1)
    return order


def brute_reducing_array(H: Any, k: int) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """GGKM21 Lemma 4.5 for H with irr(H) = k − 1: points x_1..x_k and rows Y_1..Y_{k+1} (Y_j follows the spine on
    its first j − 1 coordinates and leaves it at coordinate j; Y_{k+1} is the spine), every row class nonempty with
    Ldim < Ldim(H). Points are scanned in the order 0..n−1 and the first that fits is taken at every depth."""
    H = frozenset(H)
    L = _ldim(H)
    for x in range(len(next(iter(H)))):
        H0, H1 = restrict(H, x, 0), restrict(H, x, 1)
        if not H0 or not H1:
            continue
        if _ldim(H0) < L and _ldim(H1) < L:
            return (x,), [(0,), (1,)]
        ystar = 0 if _ldim(H0) == L else 1
        D = H0 if ystar == 0 else H1
        if k >= 2 and _irr(D) == k - 2:
            xs, rws = brute_reducing_array(D, k - 1)
            return (x,) + xs, [(1 - ystar,)] + [(ystar,) + r for r in rws]
    raise ValueError(f"no reducing array of order {k}: irr(H) = {_irr(H)}")


@dataclass(frozen=True)
class ReduceTreeRun:
    """What :func:`reduce_tree_reference` returns: Ĥ as sorted value vectors, the break round t̂ (1-based, None: no
    break), the d̂_t of every round played, and the leaves' ancestor sets S(v) (lists of (x, y)) at the end."""

    hypotheses: tuple[tuple[int, ...], ...]
    t_hat: int | None
    d_hats: tuple[int, ...]
    leaves: tuple[tuple[tuple[int, int], ...], ...]


def reduce_tree_reference(
    H: Any,
    X: Sequence[int],
    y: Sequence[int],
    alphas: Sequence[float],
    outputs: Sequence[float],
    orders: Sequence[int],
    K: int,
) -> ReduceTreeRun:
    """GGKM21 Algorithm 1 on the class H (value tuples over 0..n−1) and the sample (X, y), straight from its
    statement: levels α_1..α_{d+2}, output levels c_1..c_{d+1}, break orders k_1..k_{d+1}, final order K.

    Round t: G_a(v) = {h : err(h) ≤ α_t} | S(v), G_b(v) = {h : err(h) ≤ α_{t+1}} | S(v) for every leaf v;
    d̂_t = max Ldim G_a(v); break (t̂ = t) if some G_b(v) has Ldim d̂_t and is k_t-irreducible (Ldim d̂_t ≥ 0 makes it
    nonempty); else each leaf whose G_b(v) keeps Ldim d̂_t gets the reducing array of order irr(G_b(v)) + 1 and k + 1
    children. If every G_a(v) is empty there is nothing to expand and the run ends without a break. Output after a
    break: the SOAs of the nonempty, K-irreducible classes {h : err(h) ≤ c_t̂} | S(v), one per distinct value."""
    H = frozenset(H)
    X = [int(v) for v in X]
    y = [int(v) for v in y]
    n = len(X)

    def level(theta: float) -> frozenset:
        return frozenset(h for h in H if sum(h[x] != lab for x, lab in zip(X, y)) <= theta * n + 1e-9)

    def below(G: frozenset, path: tuple) -> frozenset:
        return frozenset(h for h in G if all(h[x] == lab for x, lab in path))

    leaves: list[tuple] = [()]
    d_hats: list[int] = []
    for t in range(len(orders)):
        upper, lower = level(alphas[t]), level(alphas[t + 1])
        d_hat = max(_ldim(below(upper, p)) for p in leaves)
        d_hats.append(d_hat)
        if d_hat < 0:
            break
        if any(_ldim(below(lower, p)) == d_hat and _irr(below(lower, p)) >= orders[t] for p in leaves):
            c = level(outputs[t])
            out = set()
            for p in leaves:
                G = below(c, p)
                if G and _irr(G) >= K:
                    out.add(soa_vector(G, len(next(iter(G)))))
            return ReduceTreeRun(tuple(sorted(out)), t + 1, tuple(d_hats), tuple(leaves))
        grown = []
        for p in leaves:
            G = below(lower, p)
            if _ldim(G) < d_hat:
                grown.append(p)
                continue
            xs, rws = brute_reducing_array(G, int(_irr(G)) + 1)
            grown += [p + tuple(zip(xs, row)) for row in rws]
        leaves = grown
    return ReduceTreeRun((), None, tuple(d_hats), tuple(leaves))


# --- reference twins: explicit matrices of the structured classes, built from their definitions -----------------


def thresholds_matrix(n: int, include_all_zero: bool = True) -> np.ndarray:
    """h_t(x) = 1[x ≥ t] on 0..n−1 for t = 0..n (t = n: the all-zero function)."""
    top = n + 1 if include_all_zero else n
    return (np.arange(n)[None, :] >= np.arange(top)[:, None]).astype(np.uint8)


def points_matrix(n: int, with_zero: bool = True) -> np.ndarray:
    M = np.eye(n, dtype=np.uint8)
    return np.vstack([M, np.zeros((1, n), np.uint8)]) if with_zero else M


def intervals_matrix(n: int, with_empty: bool = True) -> np.ndarray:
    out = [[1 if a <= x <= b else 0 for x in range(n)] for a in range(n) for b in range(a, n)]
    if with_empty:
        out.append([0] * n)
    return np.array(out, dtype=np.uint8)


def allfunctions_matrix(m: int) -> np.ndarray:
    return np.array(list(itertools.product((0, 1), repeat=m)), dtype=np.uint8)


def cube(nv: int) -> list[tuple]:
    return list(itertools.product((0, 1), repeat=nv))


def conjunctions_matrix(nv: int, k: int | None = None, monotone: bool = False) -> np.ndarray:
    """Conjunctions of at most k literals over {0,1}^nv (monotone: positive literals only), as value vectors on the
    cube in lexicographic order; the non-monotone class with k ≥ 2 also has the contradiction x_i ∧ ¬x_i."""
    pts = cube(nv)
    out = set()
    choices = (None, 1) if monotone else (None, 0, 1)
    for assign in itertools.product(choices, repeat=nv):
        lits = [(i, v) for i, v in enumerate(assign) if v is not None]
        if k is not None and len(lits) > k:
            continue
        out.add(tuple(int(all(p[i] == v for i, v in lits)) for p in pts))
    if not monotone and (k is None or k >= 2):
        out.add(tuple([0] * len(pts)))
    return np.array(sorted(out), dtype=np.uint8)


def affine_matrix(q: int, n: int, dmax: int) -> np.ndarray:
    """Indicators of the affine subspaces of dimension ≤ dmax of F_q^n (q prime)."""
    pts = list(itertools.product(range(q), repeat=n))
    subs = set()
    for dim in range(dmax + 1):
        for basis in itertools.combinations(pts, dim):
            span = {tuple([0] * n)}
            for b in basis:
                span = {tuple((s[i] + c * b[i]) % q for i in range(n)) for s in span for c in range(q)}
            if len(span) != q**dim:
                continue
            for off in pts:
                subs.add(frozenset(tuple((off[i] + s[i]) % q for i in range(n)) for s in span))
    return np.array(sorted(tuple(int(p in S) for p in pts) for S in subs), dtype=np.uint8)
