"""Irreducibility of a class (GGKM21 §4, Def 4.1), dominant labels, reducing arrays (Lemma 4.5).

A class H with Ldim(H) = L is *k-irreducible* when every complete X-labelled tree of depth k has a root-to-leaf path
whose restriction keeps Ldim = L. Computable form (verified against the tree definition by brute force in the tests):
H is k-irreducible iff every point x that splits H has a label y with Ldim(H|(x,y)) = L (the *dominant* label; it is
unique for nonempty 1-irreducible H) and H|(x,y) is (k−1)-irreducible. Hence

    irr(H) = +inf                               if |H| ≤ 1
           = 0                                  if some splitting x has Ldim(H|(x,0)), Ldim(H|(x,1)) < L
           = min over splitting x of 1 + irr(dominant child)        otherwise.

Explicit finite classes use this recursion on bitset version spaces, memoized per class and run with an explicit
stack (no recursion limit). Structured classes use closed forms, each checked against its explicit twin in the tests:

* a chain (thresholds, or any subset of them such as an empirical-error class) of c functions, L = ⌊log2 c⌋:
  irr = inf if c ≤ 1, 1 if c = 2^{L+1} − 1, else 0 (a split into two sides of < 2^L functions exists iff
  c ≤ 2^{L+1} − 2; for c = 2^{L+1} − 1 every dominant child is a chain of size in [2^L, c−1], hence irr 0);
* point functions: a version space with infinitely many free points is k-irreducible for every k (label 0 always
  keeps Ldim 1); f free points of a finite domain give irr = f − 2, or f − 1 with the zero function (GGKM21 §4;
  spec vectors points(n) → n−2, points(n) ∪ {0} → n−1).

Any other class with a small enumerable domain goes through its explicit twin; otherwise an
:class:`~littlestone.errors.IrreducibilityError` names the class.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable

from ..classes.base import Point, VersionSpace
from ..classes.finite import FiniteVersionSpace
from ..classes.points import PointsVersionSpace
from ..classes.resolve import as_version_space
from ..classes.thresholds import chain_ldim
from ..errors import IrreducibilityError, LittlestoneError

INF = math.inf

#: explicit twins of structured version spaces are built only for domains up to this many points
TWIN_LIMIT = 1 << 12

#: the exact recursion on a finite class scans at most this many (version space, column) pairs before giving up with
#: an IrreducibilityError (it can visit exponentially many version spaces, e.g. every subset of point functions)
SEARCH_LIMIT = 4_000_000


# --------------------------------------------------------------------------------------------------------------------
# Chains and point functions (closed forms)
# --------------------------------------------------------------------------------------------------------------------


def _chain_of(V: VersionSpace) -> tuple[int, Any] | None:
    """(size c, kth) when V is a chain ordered so that V|(kth(j), 1) = its j smallest elements
    (:meth:`VersionSpace.chain`: thresholds, empirical chains); else None."""
    return V.chain()


def chain_irreducibility(c: int) -> float:
    """irr of a chain of c functions: inf (c ≤ 1), 1 (c = 2^{L+1} − 1), else 0 (module docstring)."""
    if c <= 1:
        return INF
    L = chain_ldim(c)
    return 1 if c == (1 << (L + 1)) - 1 else 0


def _points_free(V: Any) -> tuple[float, bool, Any]:
    """(number of free point functions, zero included?, iterator of the free points in domain order)."""
    if isinstance(V, PointsVersionSpace):
        if V.size() == 0:
            return 0, False, iter(())
        if V.positive is not None:
            return 1, False, iter((V.positive,))
        free = V._free
        dom = V.hclass.domain
        pts = iter(()) if dom.finite is None else (p for p in dom.finite if p not in V.negatives)
        return free, bool(V.zero), pts
    point_set = getattr(V, "point_set", None)  # PointSetVersionSpace of littlestone.classes.empirical
    if point_set is not None:
        return len(point_set), False, iter(point_set)
    return -1, False, iter(())


def _is_points(V: Any) -> bool:
    return isinstance(V, PointsVersionSpace) or getattr(V, "point_set", None) is not None


def points_irreducibility(free: float, zero: bool) -> float:
    """irr of {h_p : p free} (∪ {0}): inf for ≤ 1 function or infinitely many free points, else f − 2 (f − 1 with 0)."""
    size = free + int(zero)
    if size <= 1 or free == INF:
        return INF
    return int(free) - (1 if zero else 2)


# --------------------------------------------------------------------------------------------------------------------
# Finite classes: bitset recursion with a memo per class
# --------------------------------------------------------------------------------------------------------------------


def _finite_children(cls: Any, mask: int) -> int | list[int]:
    """0 if some splitting column has no dominant label, else the distinct dominant children (bitmasks)."""
    from .ldim import ldim_mask

    L = ldim_mask(cls, mask)
    ones = cls.col_masks[1]
    seen: set[int] = set()
    kids: list[int] = []
    for j in range(cls.n_points):
        a = mask & ones[j]
        if a == 0 or a == mask or a in seen:
            continue
        b = mask ^ a
        seen.add(a)
        seen.add(b)
        la, lb = ldim_mask(cls, a), ldim_mask(cls, b)
        if la < L and lb < L:
            return 0
        kids.append(a if la == L else b)
    return kids


def _finite_irr(cls: Any, mask: int) -> float:
    memo = cls.__dict__.setdefault("_irr_memo", {})
    got = memo.get(mask)
    if got is not None:
        return got
    children: dict[int, int | list[int]] = {}
    stack = [mask]
    visited = 0
    while stack:
        m = stack[-1]
        if m in memo:
            stack.pop()
            continue
        if m.bit_count() <= 1:
            memo[m] = INF
            stack.pop()
            continue
        kids = children.get(m)
        if kids is None:
            visited += cls.n_points
            if visited > SEARCH_LIMIT:
                raise IrreducibilityError(
                    f"irreducibility of this version space of {cls.name} ({mask.bit_count()} hypotheses) needs more "
                    f"than {SEARCH_LIMIT // cls.n_points:,} sub-classes of exact search (the recursion is exponential on classes like "
                    "point functions); use the structured class (closed forms) or a smaller class"
                )
            kids = children[m] = _finite_children(cls, m)
        if kids == 0:
            memo[m] = 0
            stack.pop()
            continue
        assert isinstance(kids, list)
        if any(memo.get(c) == 0 for c in kids):  # the minimum possible value 1 is reached
            memo[m] = 1
            stack.pop()
            continue
        pending = [c for c in kids if c not in memo]
        if pending:
            stack.extend(pending)
            continue
        memo[m] = min((1 + memo[c] for c in kids), default=INF)
        stack.pop()
    return memo[mask]


# --------------------------------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------------------------------


def _twin(V: VersionSpace) -> FiniteVersionSpace:
    """The explicit twin of a structured version space on a small enumerable domain (same points, same functions)."""
    from ..classes.ops import restrict_to_points

    cls = V.hclass
    try:
        pts = cls.domain_points()
    except TypeError:
        pts = None
    if pts is None or len(pts) > TWIN_LIMIT:
        raise IrreducibilityError(
            f"irreducibility of {cls.name} ({type(V).__name__}) is not available: no closed form for this class and "
            f"its domain is {'infinite' if pts is None else f'too large ({len(pts)} points)'} for an explicit twin "
            f"(≤ {TWIN_LIMIT} points). Closed forms exist for finite classes, thresholds, points and their "
            "empirical-error classes."
        )
    F = restrict_to_points(V, pts, name=f"{cls.name}|V")
    return F.version_space()


def _vs(H: Any) -> VersionSpace:
    return as_version_space(H)


def irr_of(V: VersionSpace) -> float:
    """irr(V) for a version space (no input conversion)."""
    if isinstance(V, FiniteVersionSpace):
        return _finite_irr(V.hclass, V.mask)
    chain = _chain_of(V)
    if chain is not None:
        return chain_irreducibility(int(chain[0]))
    if _is_points(V):
        free, zero, _ = _points_free(V)
        return points_irreducibility(free, zero)
    if V.is_empty():
        return INF
    return irr_of(_twin(V))


def irr_at_least(V: VersionSpace, k: float) -> bool:
    """irr(V) ≥ k, with the cheap exits first: k ≤ 0 or |V| ≤ 1 (true), and irr ≤ |V| − 2 for a finite V with ≥ 2
    functions (each dominant step removes a function and a 2-function class has irr 0), before the exact value."""
    if k <= 0:
        return True
    size = V.size()
    if size <= 1:
        return True
    if size != INF and k > size - 2:
        return False
    return irr_of(V) >= k


def irreducibility(H: Any) -> float:
    """The largest k such that H is k-irreducible (GGKM21 Def 4.1); ``math.inf`` for |H| ≤ 1 and where every order
    holds (e.g. point functions over an infinite domain). H: a class, a version space, a spec string or a 0/1 matrix.

    >>> irreducibility("points:5")
    4
    """
    v = irr_of(_vs(H))
    return v if v == INF else int(v)


def is_irreducible(H: Any, k: int) -> bool:
    """Whether H is k-irreducible (GGKM21 Def 4.1). The empty class is vacuously k-irreducible for every k: test
    nonemptiness separately where it matters (ReduceTree does)."""
    if isinstance(k, bool) or not (isinstance(k, int) or k == INF) or k < 0:
        raise LittlestoneError(f"the irreducibility order k must be an integer ≥ 0, got {k!r}")
    return irr_at_least(_vs(H), k)


def dominant_label(H: Any, x: Point) -> int | None:
    """The label y with Ldim(H|(x,y)) = Ldim(H) (unique for nonempty 1-irreducible H; GGKM21 §4), or None when
    neither label keeps the dimension. For a point that does not split H it is the label every h ∈ H gives x. When
    both labels keep it (impossible for 1-irreducible H) the SOA's tie rule answers 0."""
    V = _vs(H)
    if V.is_empty():
        raise LittlestoneError("the empty class has no dominant label")
    x = V.hclass.validate_point(x)
    L = V.ldim()
    l0, l1 = V.restrict(x, 0).ldim(), V.restrict(x, 1).ldim()
    if l0 == L:
        return 0
    if l1 == L:
        return 1
    return None


@dataclass(frozen=True)
class ReducingArray:
    """Points x_1..x_k and rows Y_1..Y_{k+1} (|Y_j| = min(j, k); Y_j agrees with the spine Y_{k+1} before j and
    differs at j): the caterpillar of GGKM21 Def 4.3, whose k+1 row classes partition the parent class."""

    points: tuple
    rows: tuple[tuple[int, ...], ...]

    @property
    def k(self) -> int:
        return len(self.points)

    def examples(self, j: int) -> tuple[tuple[Point, int], ...]:
        """Row j (0-based) as labelled examples (x_i, Y_j[i])."""
        return tuple(zip(self.points, self.rows[j]))

    def __str__(self) -> str:
        pts = ", ".join(map(repr, self.points))
        rows = "  ".join("".join(map(str, r)) for r in self.rows)
        return f"ReducingArray(points=({pts}); rows {rows})"


def _rows_from(spine: list[int], off: list[int], last_both: bool) -> tuple[tuple[int, ...], ...]:
    rows = [tuple(spine[:j]) + (off[j],) for j in range(len(off))]
    if last_both:
        rows += [tuple(spine) + (0,), tuple(spine) + (1,)]
    return tuple(rows)


def _chain_array(c: int, kth: Any, k: int) -> ReducingArray:
    L = chain_ldim(c)
    irr = chain_irreducibility(c)
    if irr != k - 1:
        raise LittlestoneError(f"reducing_array(H, k={k}) needs irr(H) = k − 1, but irr(H) = {irr}")
    if k == 1:  # the 2^L − 1 smallest on label 1, the rest (< 2^L of them) on label 0
        return ReducingArray((kth((1 << L) - 1),), ((0,), (1,)))
    # k = 2, c = 2^{L+1} − 1: split off the smallest (label 1); the dominant rest has c − 1 = 2^{L+1} − 2 elements
    x1 = kth(1)
    x2 = kth(1 + (1 << L) - 1)
    return ReducingArray((x1, x2), ((1,), (0, 0), (0, 1)))


def reducing_array(H: Any, k: int | None = None) -> ReducingArray:
    """Lemma 4.5 of GGKM21 (constructive): for H nonempty, (k−1)- but not k-irreducible, points x_1..x_k and a depth-k
    reducing array whose every row class is nonempty with Ldim < Ldim(H). ``k`` defaults to irr(H) + 1."""
    V = _vs(H)
    if V.is_empty():
        raise LittlestoneError("reducing_array needs a nonempty class")
    r = irr_of(V)
    if r == INF:
        raise LittlestoneError("the class is k-irreducible for every k: it has no reducing array")
    if k is None:
        k = int(r) + 1
    if r != k - 1:
        raise LittlestoneError(f"reducing_array(H, k={k}) needs H (k−1)- but not k-irreducible; irr(H) = {r}")
    chain = _chain_of(V)
    if chain is not None:
        return _chain_array(int(chain[0]), chain[1], k)
    if not isinstance(V, FiniteVersionSpace) and not _is_points(V):
        V = _twin(V)
    L = V.ldim()
    spine: list[int] = []
    off: list[int] = []
    xs: list[Point] = []
    cur, kk = V, k
    while True:
        for x in _candidates(cur):
            H0, H1 = cur.restrict(x, 0), cur.restrict(x, 1)
            if H0.is_empty() or H1.is_empty():
                continue
            l0, l1 = H0.ldim(), H1.ldim()
            if l0 < L and l1 < L:
                if kk != 1:
                    raise AssertionError("no dominant label above the deepest level (irr inconsistent)")
                xs.append(x)
                return ReducingArray(tuple(xs), _rows_from(spine, off, True))
            ystar = 0 if l0 == L else 1
            D = H0 if ystar == 0 else H1
            if kk >= 2 and irr_of(D) == kk - 2:
                xs.append(x)
                off.append(1 - ystar)
                spine.append(ystar)
                cur, kk = D, kk - 1
                break
        else:
            raise AssertionError("no reducing array found although irr(H) = k − 1 (inconsistent irreducibility)")


def _candidates(V: VersionSpace) -> Iterable[Point]:
    if _is_points(V):
        return _points_free(V)[2]
    if isinstance(V, FiniteVersionSpace):
        return V.hclass.domain.points
    return V.hclass.domain_points()


def check_reducing_array(H: Any, array: ReducingArray) -> bool:
    """Raise :class:`LittlestoneError` naming the first violated property, else True: shape of a depth-k reducing
    array (GGKM21 Def 4.3), every row class nonempty with Ldim < Ldim(H) (Lemma 4.5), rows partition H."""
    V = _vs(H)
    k = array.k
    rows = array.rows
    if len(rows) != k + 1:
        raise LittlestoneError(f"a depth-{k} reducing array has {k + 1} rows, got {len(rows)}")
    spine = rows[k]
    if len(spine) != k:
        raise LittlestoneError(f"the spine (last row) must have length {k}, got {len(spine)}")
    for j in range(k):
        r = rows[j]
        if len(r) != j + 1 or tuple(r[:j]) != tuple(spine[:j]) or r[j] == spine[j]:
            raise LittlestoneError(
                f"row {j + 1} = {r} must agree with the spine {spine} before position {j + 1} and differ there"
            )
    L = V.ldim()
    for j, r in enumerate(rows):
        G = V
        for x, y in zip(array.points, r):
            G = G.restrict(x, y)
        if G.is_empty():
            raise LittlestoneError(f"row {j + 1} = {r} gives an empty class")
        if G.ldim() >= L:
            raise LittlestoneError(f"row {j + 1} = {r} keeps Ldim {G.ldim()} = Ldim(H) (not reducing)")
    if V.size() != INF:
        total: float = 0
        for r in rows:
            G = V
            for x, y in zip(array.points, r):
                G = G.restrict(x, y)
            total += G.size()
        if total != V.size():
            raise LittlestoneError(f"the row classes hold {total} hypotheses, the class {V.size()}: no partition")
    return True
