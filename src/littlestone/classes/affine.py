"""Indicators of affine subspaces of F_q^n (q prime) of dimension ≤ d; points are tuples in {0,…,q−1}^n.

Closed forms (Ldim = d' − e after positives spanning a flat of dimension e, d' + 1 before, when a witness flat
exists; otherwise an explicit twin for q^n ≤ 64). Derivation: docs/derivations.md, "Affine subspaces: closed forms".
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any, Iterator

import numpy as np

from ..errors import DomainError, LittlestoneError
from .base import Hypothesis, HypothesisClass, PatchedHypothesis, Point, VersionSpace, as_python_point, point_key
from .canonical import canonical_parts, near_structure
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
    w = list(v)
    for row in basis:
        piv = next(i for i, a in enumerate(row) if a)
        c = w[piv]
        if c:
            w = [(a - c * b) % q for a, b in zip(w, row)]
    return tuple(w)


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

    def absorb_patches(self, patches: list[tuple[Point, int]]) -> Hypothesis:
        """Canonical form of this flat overwritten on finitely many points (one representation per function)."""
        return canonical_affine(self.q, self, dict(patches))

    @property
    def dim(self) -> int:
        return len(self.basis)

    @property
    def size(self) -> int:
        return self.q ** len(self.basis)

    def points(self) -> Iterator[tuple]:
        """The q^dim points of the flat."""
        for coeffs in itertools.product(range(self.q), repeat=len(self.basis)):
            x = list(self.offset)
            for c, row in zip(coeffs, self.basis):
                x = [(a + c * b) % self.q for a, b in zip(x, row)]
            yield tuple(x)

    def contains_point(self, x: tuple) -> bool:
        return not any(_reduce(self.basis, _sub(x, self.offset, self.q), self.q))

    def __call__(self, x: Point) -> int:
        return int(self.contains_point(tuple(as_python_point(x))))

    def predict(self, X: Any) -> np.ndarray:
        arr = np.asarray(X)
        if arr.ndim != 2:
            return np.fromiter((self(x) for x in X), dtype=np.int8, count=len(X))
        D: np.ndarray = (arr.astype(np.int64) - np.array(self.offset, dtype=np.int64)) % self.q
        for row in self.basis:
            piv = next(i for i, a in enumerate(row) if a)
            D = (D - np.outer(D[:, piv], np.array(row, dtype=np.int64))) % self.q
        return (~np.asarray(D.any(axis=1))).astype(np.int8)

    def __repr__(self) -> str:
        return f"AffineFlat(q={self.q}, offset={self.offset}, dim={self.dim})"


class AffinePointSet(FiniteSet):
    """The indicator of a finite set of points of F_q^n that is not near any flat (see :func:`canonical_affine`);
    equal (and equal-hashing) to the :class:`FiniteSet` of the same points. Patching it re-canonicalizes."""

    __slots__ = ("q",)

    def __init__(self, q: int, points: Iterable[Any] = ()):
        super().__init__(points)
        self.q = int(q)

    def _order_key(self) -> tuple:
        return ("FiniteSet", self.points)

    def absorb_patches(self, patches: list[tuple[Point, int]]) -> Hypothesis:
        return canonical_affine(self.q, None, dict(patches), self.points)


def _flat_join(F: AffineFlat, x: tuple) -> AffineFlat:
    nb = _add_to_basis(F.basis, _sub(x, F.offset, F.q), F.q)
    return F if nb is None else AffineFlat(F.q, F.offset, nb)


def canonical_affine(q: int, flat: AffineFlat | None, table: dict, ones: Iterable[tuple] = ()) -> Hypothesis:
    """The canonical hypothesis of a function on F_q^n given as a flat (or the finite set ``ones`` when flat is
    None) overwritten by ``table`` (points where it differs): the flat c with q^dim(c) > 4·|f Δ c| patched where f
    differs from it, else the finite set of f's 1s (:mod:`littlestone.classes.canonical`)."""
    if flat is None:
        table = {**{x: 1 for x in ones}, **table}
    c, diff = canonical_parts(
        flat,
        table,
        lambda F: F.points(),
        lambda F: F.size,
        lambda S: near_structure(
            S,
            lambda x: AffineFlat(q, x),
            _flat_join,
            lambda F: F.size,
            lambda F, x: F.contains_point(x),
            lambda F: F.key(),
        ),
        lambda F, x: F.contains_point(x),
    )
    if c is None:
        return AffinePointSet(q, diff)
    if not diff:
        return c
    return PatchedHypothesis(c, tuple(sorted(diff.items(), key=lambda p: point_key(p[0]))))


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
                if len(s[1]) + 1 >= c.q**c.n:  # every point labelled 0: no flat (never empty) is consistent
                    return AffineVersionSpace(c, ("empty",))
                return AffineVersionSpace(c, ("pre", s[1].add(x)))
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
        """A randomized search first (fast when flats are plentiful), then the exhaustive one
        (:func:`_exact_room`): None only when no such flat exists."""
        c, s = self._cls, self.state
        if s[0] == "empty":
            return None
        found = self._random_room()
        return found if found is not None else _exact_room(c, s)

    def _random_room(self) -> AffineFlat | None:
        c, s = self._cls, self.state
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
        if self.room() is None:
            why = (
                f" (an exhaustive search proved that the negatives block every flat of dimension "
                f"{min(c.d, c.n)}{' containing the positives' if s[0] == 'post' else ''})"
            )
        else:
            why = f" (only {c.q**c.n - len(s[-1])} points are not negative: too few for the closed form)"
        twin = c.twin(why)
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
            return int(self._twin_vs().size())
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
            return AffinePointSet(c.q)
        if self._closed_form():
            return AffinePointSet(c.q) if s[0] == "pre" else AffineFlat(c.q, s[1], s[2])
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


#: the exhaustive flat search visits at most this many subspaces (then a labelled give-up, never a false "none")
EXACT_ROOM_BUDGET = 50_000
#: and runs only on domains of at most this many points (it enumerates candidate directions)
EXACT_ROOM_MAX_POINTS = 1 << 12


class FlatSearchGaveUp(LittlestoneError):
    """The exhaustive search for a flat avoiding the negatives exceeded its budget: nothing is known either way."""


def _exact_room(c: "AffineSubspaces", s: tuple) -> AffineFlat | None:
    """Exhaustive search for a flat of dimension d' = min(d, n) that contains the hull (state "post") and avoids
    every negative: depth-first over subspaces (each visited once, by its RREF basis) spanned by the hull's
    directions plus added directions, keeping only spans that avoid the negatives' differences; for state "pre"
    every non-negative point is tried as the offset. Returns None only if no such flat exists; raises
    :class:`FlatSearchGaveUp` when the domain or the search is too large to decide."""
    dprime = min(c.d, c.n)
    if c.q**c.n > EXACT_ROOM_MAX_POINTS:
        raise FlatSearchGaveUp(
            f"{c.name}: the randomized search found no flat of dimension {dprime} avoiding the negatives, and the "
            f"exhaustive search runs only on domains of ≤ {EXACT_ROOM_MAX_POINTS} points: gave up (this does not "
            "mean that no such flat exists)"
        )
    negs = s[-1]
    vectors = [v for v in itertools.product(range(c.q), repeat=c.n) if any(v)]
    vectors = [v for v in vectors if next(a for a in v if a) == 1]  # one direction per line
    budget = [EXACT_ROOM_BUDGET]

    def search(p: tuple, basis: tuple, bad: list[tuple], seen: set) -> tuple | None:
        if len(basis) == dprime:
            return basis
        for v in vectors:
            nb = _add_to_basis(basis, v, c.q)
            if nb is None or nb in seen:
                continue
            seen.add(nb)
            budget[0] -= 1
            if budget[0] < 0:
                raise FlatSearchGaveUp(
                    f"{c.name}: the exhaustive search for a flat of dimension {dprime} avoiding the negatives "
                    f"visited {EXACT_ROOM_BUDGET} subspaces without deciding: gave up (this does not mean that no "
                    "such flat exists)"
                )
            if any(not any(_reduce(nb, w, c.q)) for w in bad):
                continue  # the span meets a negative's difference: every extension does too
            got = search(p, nb, bad, seen)
            if got is not None:
                return got
        return None

    if s[0] == "post":
        p, hull = s[1], s[2]
        offsets = [p]
    else:
        hull = ()
        offsets = [x for x in itertools.product(range(c.q), repeat=c.n) if x not in negs]
    for p in offsets:
        bad = [_sub(z, p, c.q) for z in negs]
        if any(not any(_reduce(hull, w, c.q)) for w in bad):
            continue
        basis = search(p, hull, bad, set())
        if basis is not None:
            return AffineFlat(c.q, p, basis)
    return None


class AffineSubspaces(HypothesisClass, immutable=True):
    """Affine subspaces of F_q^n of dimension ≤ d (q prime): Ldim min(d, n) + 1 except F_2^1."""

    def hypothesis_types(self) -> tuple[type, ...]:
        return (
            AffineFlat,
            AffinePointSet,
        )

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
        return (
            isinstance(x, tuple)
            and len(x) == self.n
            and all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) and 0 <= a < self.q for a in x)
        )

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
            raise DomainError(
                f"point {x!r} is outside the domain of {self.name} (tuples in {{0..{self.q - 1}}}^{self.n})"
            )
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

    def twin(self, reason: str = "") -> FiniteClass:
        """The explicit twin (exact fallback), built lazily for q^n ≤ TWIN_MAX_POINTS."""
        if self._twin is None:
            if self.q**self.n > TWIN_MAX_POINTS:
                raise LittlestoneError(
                    f"{self.name}: this version space has no closed form here{reason} and the exact fallback "
                    f"needs q^n ≤ {TWIN_MAX_POINTS}"
                )
            pts = self.domain_points()
            M = np.array([h.predict(np.array(pts)) for h in self.all_flats()], dtype=np.uint8)
            self._twin = FiniteClass(M, points=pts, name=self.name + " (explicit)")
        return self._twin

    def canonical(self, values: np.ndarray) -> Hypothesis:
        """The canonical hypothesis of a value vector on the (small) domain (:func:`canonical_affine`): a flat if the
        1s form one, a patched flat if they are near one, else a set."""
        pts = self.domain_points()
        return canonical_affine(self.q, None, {}, [p for p, v in zip(pts, values) if v])

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
