"""Indicators of affine subspaces of F_q^n (q prime) of dimension ≤ d; points are tuples in {0,…,q−1}^n.

Closed forms (proved for this library; d' = min(d, n); checked against explicit twins in tests/classes/test_affine.py):

* Upper bounds: predicting 1 exactly on the affine hull of the positives errs only on positives outside the hull,
  each raising its dimension, so Ldim ≤ d' − e after positives spanning a flat of dimension e, and ≤ d' + 1 before.
* Lower bounds: if some flat S* of dimension d' contains the hull and avoids every negative, the flats
  hull + span(subset of d' − e independent directions of S*) shatter d' − e points, so Ldim = d' − e and the SOA is
  the indicator of the hull. Before any positive, such an S* plus one spare point (q^n > |N| + d' + 1) gives
  Ldim = d' + 1 and SOA ≡ 0. S* is searched with a fixed-seed randomized search (exact when found).
* Otherwise (e.g. the degenerate F_2^1, or negatives that block every flat) the exact algorithm runs on an
  explicit FiniteClass twin, which is only built for small domains (q^n ≤ 64); larger ones raise a clear error.
"""

from __future__ import annotations

import itertools
from typing import Any, Iterator

import numpy as np

from ..errors import DomainError, LittlestoneError
from .base import Hypothesis, HypothesisClass, Point, VersionSpace, as_python_point
from .finite import FiniteClass
from .points import FiniteSet, GrowingSet

#: largest domain (q^n points) for which the explicit twin is built
TWIN_MAX_POINTS = 64
#: attempts of the randomized search for a flat avoiding the negatives
ROOM_ATTEMPTS = 64


def _is_prime(q: int) -> bool:
    return q >= 2 and all(q % p for p in range(2, int(q**0.5) + 1))


# --------------------------------------------------------------------------------------------------------------------
# linear algebra over F_q
# --------------------------------------------------------------------------------------------------------------------


def _reduce(basis: tuple, v: tuple, q: int) -> tuple:
    """v reduced against an RREF basis (rows with leading 1s at distinct pivots)."""
    v = list(v)
    for row in basis:
        piv = next(i for i, a in enumerate(row) if a)
        c = v[piv]
        if c:
            v = [(a - c * b) % q for a, b in zip(v, row)]
    return tuple(v)


def _add_to_basis(basis: tuple, v: tuple, q: int) -> tuple | None:
    """RREF basis of span(basis ∪ {v}); None if v is already in the span."""
    r = _reduce(basis, v, q)
    piv = next((i for i, a in enumerate(r) if a), None)
    if piv is None:
        return None
    inv = pow(r[piv], q - 2, q)
    r = tuple((a * inv) % q for a in r)
    rows = []
    for row in basis:
        c = row[piv]
        rows.append(tuple((a - c * b) % q for a, b in zip(row, r)) if c else row)
    rows.append(r)
    rows.sort(key=lambda row: next(i for i, a in enumerate(row) if a))
    return tuple(rows)


def _sub(x: tuple, p: tuple, q: int) -> tuple:
    return tuple((a - b) % q for a, b in zip(x, p))


class AffineFlat(Hypothesis):
    """Indicator of the flat offset + span(basis); canonical: RREF basis and offset reduced against it."""

    __slots__ = ("q", "offset", "basis")

    def __init__(self, q: int, offset: tuple, basis: tuple = ()):
        self.q = int(q)
        self.basis = tuple(basis)
        self.offset = _reduce(self.basis, tuple(int(a) % q for a in offset), self.q)

    def key(self) -> tuple:
        return (self.q, self.offset, self.basis)

    @property
    def dim(self) -> int:
        return len(self.basis)

    def contains_point(self, x: tuple) -> bool:
        return not any(_reduce(self.basis, _sub(x, self.offset, self.q), self.q))

    def __call__(self, x: Point) -> int:
        return int(self.contains_point(tuple(as_python_point(x))))

    def predict(self, X: Any) -> np.ndarray:
        arr = np.asarray(X)
        if arr.ndim != 2:
            return np.fromiter((self(x) for x in X), dtype=np.int8, count=len(X))
        D = (arr.astype(np.int64) - np.array(self.offset, dtype=np.int64)) % self.q
        for row in self.basis:
            piv = next(i for i, a in enumerate(row) if a)
            D = (D - np.outer(D[:, piv], np.array(row, dtype=np.int64))) % self.q
        return (~D.any(axis=1)).astype(np.int8)

    def __repr__(self) -> str:
        return f"AffineFlat(q={self.q}, offset={self.offset}, dim={self.dim})"


# --------------------------------------------------------------------------------------------------------------------
# version spaces
# --------------------------------------------------------------------------------------------------------------------


class AffineVersionSpace(VersionSpace):
    """("pre", negatives) before any positive; ("post", hull offset, hull basis, negatives); ("empty",).
    Negatives are GrowingSets (cheap to extend); key() lists them sorted."""

    __slots__ = ("_cls", "state", "_room")

    def __init__(self, cls: "AffineSubspaces", state: tuple):
        self._cls = cls
        self.state = state
        self._room: Any = "unset"

    @property
    def hclass(self) -> "AffineSubspaces":
        return self._cls

    def key(self) -> tuple:
        return tuple(v.sorted() if isinstance(v, GrowingSet) else v for v in self.state)

    def is_empty(self) -> bool:
        return self.state[0] == "empty"

    def restrict(self, x: Point, y: int) -> "AffineVersionSpace":
        child = self._restrict(tuple(int(a) for a in x), y)
        star = self._room
        if child is not self and not child.is_empty() and isinstance(star, AffineFlat) and child._room == "unset":
            # the parent's witness flat stays a witness if it avoids a new negative / contains a new positive
            if star.contains_point(tuple(int(a) for a in x)) == bool(y):
                child._room = star
        return child

    def _restrict(self, x: tuple, y: int) -> "AffineVersionSpace":
        s, c = self.state, self._cls
        if s[0] == "empty":
            return self
        if s[0] == "pre":
            if not y:
                if x in s[1]:
                    return self
                negs = s[1].add(x)
                if len(negs) >= c.q ** c.n:  # every point negative: no flat (not even a point) is left
                    return AffineVersionSpace(c, ("empty",))
                return AffineVersionSpace(c, ("pre", negs))
            if x in s[1]:
                return AffineVersionSpace(c, ("empty",))
            return AffineVersionSpace(c, ("post", x, (), s[1]))
        _, p, basis, negs = s
        hull = AffineFlat(c.q, p, basis)
        inside = hull.contains_point(x)
        if not y:
            if inside:
                return AffineVersionSpace(c, ("empty",))
            return self if x in negs else AffineVersionSpace(c, ("post", p, basis, negs.add(x)))
        if inside:
            return self
        nb = _add_to_basis(basis, _sub(x, p, c.q), c.q)
        assert nb is not None
        if len(nb) > c.d:
            return AffineVersionSpace(c, ("empty",))
        new = AffineFlat(c.q, p, nb)
        if any(new.contains_point(z) for z in negs):
            return AffineVersionSpace(c, ("empty",))
        return AffineVersionSpace(c, ("post", new.offset, nb, negs))

    # ------------------------------------------------------------------------------------------ closed forms
    def room(self) -> AffineFlat | None:
        """A flat of dimension d' containing the hull (if any) and avoiding every negative, or None if not found."""
        if self._room == "unset":
            self._room = self._find_room()
        return self._room

    def _find_room(self) -> AffineFlat | None:
        c, s = self._cls, self.state
        if s[0] == "empty":
            return None
        dprime = min(c.d, c.n)
        negs = s[-1]
        rng = np.random.default_rng(0)  # a deterministic search; its result is verified exactly
        for _ in range(ROOM_ATTEMPTS):
            if s[0] == "pre":
                p = tuple(int(a) for a in rng.integers(0, c.q, c.n))
                if p in negs:
                    continue
                basis: tuple = ()
            else:
                p, basis = s[1], s[2]
            while len(basis) < dprime:
                nb = _add_to_basis(basis, tuple(int(a) for a in rng.integers(0, c.q, c.n)), c.q)
                if nb is not None:
                    basis = nb
            flat = AffineFlat(c.q, p, basis)
            if not any(flat.contains_point(z) for z in negs):
                return flat
        return None

    def _closed_form(self) -> bool:
        s, c = self.state, self._cls
        if s[0] == "empty":
            return True
        if self.room() is None:
            return False
        if s[0] == "pre":
            return c.q**c.n > len(s[1]) + min(c.d, c.n) + 1
        return True

    def _twin_vs(self) -> VersionSpace:
        c, s = self._cls, self.state
        twin = c.twin()
        W = twin.version_space()
        if s[0] == "post":
            W = W.restrict(s[1], 1)
            hull = AffineFlat(c.q, s[1], s[2])
            for x in twin.domain_points():
                if hull.contains_point(x):
                    W = W.restrict(x, 1)
        for z in s[-1]:
            W = W.restrict(z, 0)
        return W

    def ldim(self) -> int:
        s, c = self.state, self._cls
        if s[0] == "empty":
            return -1
        if self._closed_form():
            dprime = min(c.d, c.n)
            return dprime + 1 if s[0] == "pre" else dprime - len(s[2])
        return self._twin_vs().ldim()

    def size(self) -> int:
        if self.is_empty():
            return 0
        if self._cls.q**self._cls.n <= TWIN_MAX_POINTS:
            return self._twin_vs().size()
        raise TypeError("size of an affine-subspace version space is only computed for small domains")

    def contains(self, h: Hypothesis) -> bool:
        c, s = self._cls, self.state
        if not isinstance(h, AffineFlat) or h.q != c.q or len(h.offset) != c.n or h.dim > c.d or s[0] == "empty":
            return False
        if any(h.contains_point(z) for z in s[-1]):
            return False
        if s[0] == "pre":
            return True
        return h.contains_point(s[1]) and all(_add_to_basis(h.basis, b, c.q) is None for b in s[2])

    def hypotheses(self) -> Iterator[Hypothesis]:
        c = self._cls
        for h in c.all_flats():
            if self.contains(h):
                yield h

    def soa(self) -> Hypothesis:
        s, c = self.state, self._cls
        if s[0] == "empty":
            return FiniteSet(())
        if self._closed_form():
            return FiniteSet(()) if s[0] == "pre" else AffineFlat(c.q, s[1], s[2])
        W = self._twin_vs()
        return c.canonical(W.soa().as_array())  # type: ignore[attr-defined]

    def soa_predict(self, x: Point) -> int:
        return self.soa()(x)

    def soa_predict_many(self, X: Any) -> np.ndarray:
        return self.soa().predict(X)

    def split_point(self) -> Point | None:
        d = self.ldim()
        if d <= 0:
            return None
        s, c = self.state, self._cls
        if not self._closed_form():
            return self._twin_vs().split_point()
        star = self.room()
        assert star is not None
        if s[0] == "pre":
            return star.offset
        hull_basis = s[2]
        v = next(b for b in star.basis if _add_to_basis(hull_basis, b, c.q) is not None)
        return tuple((a + b) % c.q for a, b in zip(s[1], v))


class AffineSubspaces(HypothesisClass):
    """Affine subspaces of F_q^n of dimension ≤ d (q prime): Ldim min(d, n) + 1 except F_2^1 (spec §11.2)."""

    def __init__(self, q: int, n: int, d: int):
        for name, v, lo in (("q", q, 2), ("n", n, 1), ("d", d, 0)):
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < lo:
                raise LittlestoneError(f"AffineSubspaces needs an integer {name} ≥ {lo}, got {v!r}")
        if not _is_prime(int(q)):
            raise LittlestoneError(f"AffineSubspaces needs a prime q (F_q), got q={q}")
        self.q, self.n, self.d = int(q), int(n), int(d)
        self.name = f"affine(F_{self.q}^{self.n}, dim ≤ {self.d})"
        self.spec = f"affine:{self.q},{self.n},{self.d}"  # rebuilds the class (littlestone.classes.spec)
        self._twin: FiniteClass | None = None

    def version_space(self) -> AffineVersionSpace:
        return AffineVersionSpace(self, ("pre", GrowingSet()))

    def contains_point(self, x: Point) -> bool:
        return isinstance(x, tuple) and len(x) == self.n and all(
            isinstance(a, (int, np.integer)) and not isinstance(a, bool) and 0 <= a < self.q for a in x)

    @property
    def domain_size(self) -> int:
        return self.q**self.n

    def domain_points(self) -> list[tuple]:
        if self.q**self.n > 1 << 20:
            raise TypeError(f"{self.name}: domain of {self.q}^{self.n} points too large to enumerate")
        return list(itertools.product(range(self.q), repeat=self.n))

    def validate_point(self, x: Any) -> Point:
        x = as_python_point(x)
        if isinstance(x, tuple) and any(isinstance(a, float) and a != a for a in x):
            raise DomainError(f"point contains NaN; {self.name} needs tuples in {{0..{self.q - 1}}}^{self.n}")
        if not self.contains_point(x):
            raise DomainError(f"point {x!r} is outside the domain of {self.name} (tuples in {{0..{self.q - 1}}}^{self.n})")
        return x

    def validate_points(self, X: Any) -> np.ndarray:
        arr = np.asarray(X)
        if arr.ndim != 2 or arr.shape[1] != self.n:
            raise DomainError(f"{self.name} needs points as rows of length {self.n} (got shape {arr.shape})")
        if arr.dtype.kind == "f":
            if np.isnan(arr).any():
                raise DomainError(f"points contain NaN; {self.name} needs entries in 0..{self.q - 1}")
            if not np.all(arr == np.floor(arr)):
                raise DomainError(f"{self.name} needs integer entries in 0..{self.q - 1}")
        if arr.size and (arr.min() < 0 or arr.max() >= self.q):
            raise DomainError(f"{self.name} needs entries in 0..{self.q - 1}")
        return arr.astype(np.int64)

    def flat(self, offset: Any, directions: Any = ()) -> AffineFlat:
        """The flat offset + span(directions) (must have dimension ≤ d)."""
        off = self.validate_point(tuple(offset))
        basis: tuple = ()
        for v in directions:
            nb = _add_to_basis(basis, tuple(int(a) % self.q for a in v), self.q)
            basis = basis if nb is None else nb
        if len(basis) > self.d:
            raise LittlestoneError(f"flat of dimension {len(basis)} > d = {self.d}")
        return AffineFlat(self.q, off, basis)

    def all_flats(self) -> Iterator[AffineFlat]:
        """Every flat of the class (small domains only)."""
        if self.q**self.n > TWIN_MAX_POINTS:
            raise TypeError(f"{self.name}: too many flats to enumerate")
        pts = self.domain_points()
        seen = set()
        for dim in range(min(self.d, self.n) + 1):
            for dirs in itertools.combinations(pts, dim):
                basis: tuple = ()
                ok = True
                for v in dirs:
                    nb = _add_to_basis(basis, v, self.q)
                    if nb is None:
                        ok = False
                        break
                    basis = nb
                if not ok:
                    continue
                for off in pts:
                    h = AffineFlat(self.q, off, basis)
                    if h.key() not in seen:
                        seen.add(h.key())
                        yield h

    def twin(self) -> FiniteClass:
        """The explicit twin (exact fallback), built lazily for q^n ≤ TWIN_MAX_POINTS."""
        if self._twin is None:
            if self.q**self.n > TWIN_MAX_POINTS:
                raise LittlestoneError(
                    f"{self.name}: this version space has no closed form here (its negatives block every flat of "
                    f"dimension {min(self.d, self.n)}) and the exact fallback needs q^n ≤ {TWIN_MAX_POINTS}")
            pts = self.domain_points()
            M = np.array([h.predict(np.array(pts)) for h in self.all_flats()], dtype=np.uint8)
            self._twin = FiniteClass(M, points=pts, name=self.name + " (explicit)")
        return self._twin

    def canonical(self, values: np.ndarray) -> Hypothesis:
        """The canonical hypothesis of a value vector on the (small) domain: a flat if the 1s form one, else a set."""
        pts = self.domain_points()
        ones = [p for p, v in zip(pts, values) if v]
        if not ones:
            return FiniteSet(())
        p0, basis = ones[0], ()
        for x in ones[1:]:
            nb = _add_to_basis(basis, _sub(x, p0, self.q), self.q)
            basis = basis if nb is None else nb
        if len(ones) == self.q ** len(basis):
            return AffineFlat(self.q, p0, basis)
        return FiniteSet(ones)

    def _ones(self, h: Hypothesis) -> Iterator[tuple]:
        """The points where h is 1 (lazily; flats have q^dim points)."""
        if isinstance(h, AffineFlat):
            for coeffs in itertools.product(range(self.q), repeat=h.dim):
                x = list(h.offset)
                for c, row in zip(coeffs, h.basis):
                    x = [(a + c * b) % self.q for a, b in zip(x, row)]
                yield tuple(x)
        elif isinstance(h, FiniteSet):
            yield from h.points
        else:
            yield from (x for x in self.domain_points() if h(x))

    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        """Every disagreement, lazily: the symmetric difference lies inside the 1-sets of h1 and h2."""
        for h, g in ((h1, h2), (h2, h1)):
            for x in self._ones(h):
                if not g(x):
                    yield x
