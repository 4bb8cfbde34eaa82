"""Conjunctions of literals over n boolean variables (points are 0/1 tuples), with closed-form version spaces.

Closed-form version spaces (Ldim via minimum hitting sets) before and after a positive example; conjunctions with at
most k < n literals fall back to an explicit twin (n ≤ 6). Derivation: docs/derivations.md, "Conjunctions: closed-
form version spaces".
"""

from __future__ import annotations

import itertools
from typing import Any, Iterator

import numpy as np

from ..errors import DomainError, LittlestoneError
from .base import Hypothesis, HypothesisClass, PatchedHypothesis, Point, VersionSpace, as_python_point, point_key
from .canonical import canonical_parts, near_structure
from .finite import FiniteClass, FiniteVersionSpace
from .points import GrowingSet

#: largest n for the explicit-twin fallback (k-limited conjunctions)
FALLBACK_MAX_VARS = 6
#: search budget (subsets / branch nodes) for the exact hitting-set computations
SEARCH_BUDGET = 300_000

Literal = tuple[int, int]  # (variable, required value)


class Conjunction(Hypothesis):
    """h(x) = 1 iff x_i = v for every literal (i, v); ``literals=None`` is the contradictory (always-0) conjunction."""

    __slots__ = ("literals",)

    def __init__(self, literals: Any = ()):
        if literals is None:
            self.literals = None
            return
        lits = tuple(sorted({(int(i), int(v)) for i, v in literals}))
        variables = [i for i, _ in lits]
        self.literals = None if len(set(variables)) != len(variables) else lits

    def key(self) -> tuple:
        return ("false",) if self.literals is None else self.literals

    def _order_key(self) -> tuple:
        # the contradiction sorts as literal (−1, −1): every key is then a tuple of int pairs (a total order)
        return (type(self).__name__, ((-1, -1),) if self.literals is None else self.literals)

    def absorb_patches(self, patches: list[tuple[Point, int]]) -> Hypothesis:
        """Canonical form of this conjunction overwritten on finitely many points (one representation per function;
        BLM20's histograms count functions): the subcube c with |c| > 4·|f Δ c| plus the points where f differs
        from it, or the contradictory conjunction patched with f's 1s (:mod:`littlestone.classes.canonical`)."""
        n = len(patches[0][0])
        c0 = None if self.literals is None else self.literals
        c, diff = canonical_parts(
            c0,
            dict(patches),
            lambda c: _cube_points(c, n),
            lambda c: 2 ** (n - len(c)),
            lambda S: near_structure(
                S, _cube_of_point, _cube_join, lambda c: 2 ** (n - len(c)), _cube_contains, lambda c: c
            ),
            _cube_contains,
        )
        base = FALSE if c is None else Conjunction(c)
        if not diff:
            return base
        return PatchedHypothesis(base, tuple(sorted(diff.items(), key=lambda p: point_key(p[0]))))

    def __call__(self, x: Point) -> int:
        if self.literals is None:
            return 0
        x = as_python_point(x)
        return int(all(x[i] == v for i, v in self.literals))

    def predict(self, X: Any) -> np.ndarray:
        arr = np.asarray(X)
        if arr.ndim != 2:
            return np.fromiter((self(x) for x in X), dtype=np.int8, count=len(X))
        if self.literals is None:
            return np.zeros(arr.shape[0], dtype=np.int8)
        out = np.ones(arr.shape[0], dtype=bool)
        for i, v in self.literals:
            out &= arr[:, i] == v
        return out.astype(np.int8)

    def __repr__(self) -> str:
        if self.literals is None:
            return "Conjunction(false)"
        return "Conjunction(" + " ∧ ".join(f"{'' if v else '¬'}x{i}" for i, v in self.literals) + ")"


FALSE = Conjunction(None)


# subcubes of {0,1}^n as sorted literal tuples (the fixed coordinates), for canonical patched conjunctions
def _cube_of_point(x: tuple) -> tuple:
    return tuple(enumerate(x))


def _cube_join(c: tuple, x: tuple) -> tuple:
    return tuple((i, v) for i, v in c if x[i] == v)


def _cube_contains(c: tuple, x: tuple) -> bool:
    return all(x[i] == v for i, v in c)


def _cube_points(c: tuple, n: int) -> Iterator[tuple]:
    fixed = dict(c)
    free = [i for i in range(n) if i not in fixed]
    point = [fixed.get(i, 0) for i in range(n)]
    for bits in itertools.product((0, 1), repeat=len(free)):
        for i, b in zip(free, bits):
            point[i] = b
        yield tuple(point)


# --------------------------------------------------------------------------------------------------------------------
# exact combinatorial helpers
# --------------------------------------------------------------------------------------------------------------------


def min_hitting_set(sets: list[frozenset]) -> tuple[int, frozenset] | None:
    """Exact minimum hitting set (size, one set) by branch and bound; None if some set is empty."""
    if any(not s for s in sets):
        return None
    best: list[Any] = [len(set().union(*sets)) + 1 if sets else 0, frozenset()]
    if not sets:
        return 0, frozenset()
    nodes = [0]

    def go(remaining: list[frozenset], chosen: frozenset) -> None:
        nodes[0] += 1
        if nodes[0] > SEARCH_BUDGET:
            raise LittlestoneError(
                "Conjunctions: the exact hitting-set search exceeded its budget "
                f"({SEARCH_BUDGET} nodes); the version space is too complex for exact Ldim"
            )
        if not remaining:
            if len(chosen) < best[0]:
                best[0], best[1] = len(chosen), chosen
            return
        if len(chosen) + 1 >= best[0]:
            return
        pivot = min(remaining, key=len)
        for lit in sorted(pivot):
            go([s for s in remaining if lit not in s], chosen | {lit})

    go(sorted(set(sets), key=len), frozenset())
    return best[0], best[1]


def min_free_pattern(negatives: Any, n: int) -> tuple[int, tuple] | None:
    """Smallest t such that some variable set S (|S| = t) has a value pattern no negative shows on S, i.e. the
    smallest codimension of a subcube free of negatives; returns (t, a point of that subcube, zeros elsewhere),
    or None if the negatives cover the whole cube. Iterative deepening over partial assignments (variables in
    increasing order, literals that remove no negative skipped) with bitsets over the negatives."""
    negs = list(negatives)
    r = len(negs)
    if r == 0:
        return 0, (0,) * n
    masks = [[0, 0] for _ in range(n)]
    for k, q in enumerate(negs):
        bit = 1 << k
        for j in range(n):
            masks[j][q[j]] |= bit
    full = (1 << r) - 1
    nodes = [0]

    def dfs(M: int, start: int, depth: int, chosen: list) -> list | None:
        nodes[0] += 1
        if nodes[0] > SEARCH_BUDGET:
            raise LittlestoneError(
                "Conjunctions: the exact pattern search exceeded its budget; the version "
                "space (many negative examples, no positive) is too complex for exact Ldim"
            )
        if depth == 1:
            for j in range(start, n):
                for v in (0, 1):
                    if M & masks[j][v] == 0:
                        return chosen + [(j, v)]
            return None
        for j in range(start, n - depth + 1):
            for v in (0, 1):
                M2 = M & masks[j][v]
                if M2 == M:
                    continue  # removes no negative: a solution using it would have a shorter one
                got = dfs(M2, j + 1, depth - 1, chosen + [(j, v)])
                if got is not None:
                    return got
        return None

    for t in range(1, n + 1):
        lits = dfs(full, 0, t, [])
        if lits is not None:
            point = [0] * n
            for j, v in lits:
                point[j] = v
            return t, tuple(point)
    return None


# --------------------------------------------------------------------------------------------------------------------
# version spaces
# --------------------------------------------------------------------------------------------------------------------


class ConjunctionsVersionSpace(VersionSpace):
    """("pre", negatives as a GrowingSet) — no positive yet (non-monotone: includes the contradictory conjunction);
    ("post", A, constraints) — subsets of the literal set A meeting every constraint; ("empty",)."""

    __slots__ = ("_cls", "state", "_cache")

    def __init__(self, cls: "Conjunctions", state: tuple):
        self._cls = cls
        self.state = state
        self._cache: dict[str, Any] = {}

    @property
    def hclass(self) -> "Conjunctions":
        return self._cls

    def key(self) -> tuple:
        return tuple(v.sorted() if isinstance(v, GrowingSet) else v for v in self.state)

    def is_empty(self) -> bool:
        return self.state[0] == "empty"

    @staticmethod
    def _post(cls: "Conjunctions", A: frozenset, constraints: Any) -> "ConjunctionsVersionSpace":
        cons = {frozenset(c) & A for c in constraints}
        if frozenset() in cons:
            return ConjunctionsVersionSpace(cls, ("empty",))
        minimal = [c for c in cons if not any(o < c for o in cons)]
        state = ("post", tuple(sorted(A)), tuple(sorted(tuple(sorted(c)) for c in minimal)))
        return ConjunctionsVersionSpace(cls, state)

    def restrict(self, x: Point, y: int) -> "ConjunctionsVersionSpace":
        s = self.state
        if s[0] == "empty":
            return self
        x = tuple(int(v) for v in x)
        true_lits = frozenset(enumerate(x))
        if s[0] == "pre":
            if not y:
                return self if x in s[1] else ConjunctionsVersionSpace(self._cls, ("pre", s[1].add(x)))
            cons = [frozenset((i, x[i]) for i in range(len(x)) if q[i] != x[i]) for q in s[1]]
            return self._post(self._cls, true_lits, cons)
        A = frozenset(s[1])
        cons = [frozenset(c) for c in s[2]]
        if y:
            return self._post(self._cls, A & true_lits, cons)
        return self._post(self._cls, A, cons + [A - true_lits])

    def _tau(self) -> tuple[int, frozenset] | tuple[int, tuple] | None:
        if "tau" not in self._cache:
            s = self.state
            if s[0] == "post":
                self._cache["tau"] = min_hitting_set([frozenset(c) for c in s[2]])
            else:
                self._cache["tau"] = min_free_pattern(s[1].sorted(), self._cls.n_vars)
        return self._cache["tau"]

    def ldim(self) -> int:
        s = self.state
        if s[0] == "empty":
            return -1
        t = self._tau()
        if s[0] == "post":
            return len(s[1]) - t[0]  # type: ignore[index]
        return 0 if t is None else 1 + self._cls.n_vars - t[0]

    def size(self) -> int:
        """|V| by inclusion–exclusion over the constraints (negatives), which must be few (≤ 22)."""
        s = self.state
        if s[0] == "empty":
            return 0
        items = s[2] if s[0] == "post" else s[1]
        if len(items) > 22:
            raise LittlestoneError(
                f"size of a version space with {len(items)} constraints is not computed "
                "(inclusion–exclusion over at most 22)"
            )
        total = 0
        n = self._cls.n_vars
        for r in range(len(items) + 1):
            for J in itertools.combinations(items, r):
                if s[0] == "post":  # subsets of A avoiding every constraint in J
                    total += (-1) ** r * 2 ** (len(s[1]) - len(set().union(*map(set, J))))
                else:  # consistent conjunctions satisfied by every negative in J
                    count = 1
                    for i in range(n):
                        count *= 3 if not J else (2 if len({q[i] for q in J}) == 1 else 1)
                    total += (-1) ** r * count
        return total + (1 if s[0] == "pre" else 0)

    def contains(self, h: Hypothesis) -> bool:
        if not isinstance(h, Conjunction) or self.is_empty():
            return False
        s = self.state
        if h.literals is None:
            return s[0] == "pre" and not self._cls.monotone
        if any(not 0 <= i < self._cls.n_vars for i, _ in h.literals):
            return False
        if self._cls.monotone and any(v != 1 for _, v in h.literals):
            return False
        S = frozenset(h.literals)
        if s[0] == "pre":
            return all(h(q) == 0 for q in s[1])
        return S <= frozenset(s[1]) and all(frozenset(c) & S for c in s[2])

    def hypotheses(self) -> Iterator[Conjunction]:
        s = self.state
        if s[0] == "empty":
            return
        n = self._cls.n_vars
        if n > 12:
            raise TypeError(f"refusing to enumerate conjunctions over {n} variables")
        if s[0] == "pre":
            yield FALSE
            for assign in itertools.product((None, 0, 1), repeat=n):
                h = Conjunction((i, v) for i, v in enumerate(assign) if v is not None)
                if all(h(q) == 0 for q in s[1]):
                    yield h
            return
        A, cons = s[1], [frozenset(c) for c in s[2]]
        for r in range(len(A) + 1):
            for S in itertools.combinations(A, r):
                if all(c & set(S) for c in cons):
                    yield Conjunction(S)

    def soa(self) -> Conjunction:
        s = self.state
        if s[0] == "post":
            return Conjunction(s[1])
        return FALSE

    def soa_predict(self, x: Point) -> int:
        s = self.state
        if s[0] != "post":
            return 0
        return int(all(x[i] == v for i, v in s[1]))

    def soa_predict_many(self, X: Any) -> np.ndarray:
        return self.soa().predict(X)

    def split_point(self) -> tuple | None:
        d = self.ldim()
        if d <= 0:
            return None
        s, n = self.state, self._cls.n_vars
        if s[0] == "pre":
            tau = self._tau()
            assert tau is not None and isinstance(tau[1], tuple), "the pre state's τ is a free pattern"
            return tau[1]
        A = s[1]
        _, S0 = self._tau()  # type: ignore[misc]
        j, v = next(lit for lit in A if lit not in S0)
        point = [0] * n
        for i, u in A:
            point[i] = u
        point[j] = 1 - v
        return tuple(point)


class _TwinVersionSpace(VersionSpace):
    """Exact fallback: a version space of the explicit twin (k-limited conjunctions, small n)."""

    __slots__ = ("_cls", "inner")

    def __init__(self, cls: "Conjunctions", inner: FiniteVersionSpace):
        self._cls, self.inner = cls, inner

    @property
    def hclass(self) -> "Conjunctions":
        return self._cls

    def key(self) -> int:
        return self.inner.mask

    def restrict(self, x: Point, y: int) -> "_TwinVersionSpace":
        return _TwinVersionSpace(self._cls, self.inner.restrict(tuple(x), y))

    def ldim(self) -> int:
        return self.inner.ldim()

    def size(self) -> int:
        return self.inner.size()

    def contains(self, h: Hypothesis) -> bool:
        pts = self._cls.domain_points()
        vals = np.asarray(h.predict(np.array(pts)), dtype=np.uint8)
        twin = self._cls._twin
        assert twin is not None, "a twin version space exists only once the twin is built"
        r = twin._row_of.get(vals.tobytes())
        return r is not None and (self.inner.mask >> r) & 1 == 1

    def soa(self) -> Hypothesis:
        return self.inner.soa()

    def soa_predict(self, x: Point) -> int:
        return self.inner.soa_predict(tuple(x))

    def split_point(self) -> Point | None:
        return self.inner.split_point()

    def hypotheses(self) -> Iterator[Hypothesis]:
        return self.inner.hypotheses()


class Conjunctions(HypothesisClass, immutable=True):
    """Conjunctions of ≤ k literals over n variables (monotone: positive literals only); points are 0/1 tuples.

    k=None (all conjunctions): closed form, n may be 60 (a 2^60-point domain); Ldim n+1 (n monotone).
    The non-monotone class with k ≥ 2 includes the contradictory (always-0) conjunction.
    """

    def hypothesis_types(self) -> tuple[type, ...]:
        return (Conjunction,)

    def __init__(self, n_vars: int, k: int | None = None, monotone: bool = False):
        if not isinstance(n_vars, (int, np.integer)) or isinstance(n_vars, bool) or n_vars < 1:
            raise LittlestoneError(f"Conjunctions needs n_vars ≥ 1, got {n_vars!r}")
        if k is not None and (not isinstance(k, (int, np.integer)) or k < 0):
            raise LittlestoneError(f"Conjunctions needs k ≥ 0 or None, got {k!r}")
        self.n_vars = int(n_vars)
        self.k = None if k is None or k >= n_vars else int(k)
        self.monotone = bool(monotone)
        self.name = (
            f"{'monotone-' if monotone else ''}conjunctions({self.n_vars}"
            + ("" if self.k is None else f", ≤{self.k}")
            + ")"
        )
        self.spec = f"{'monotone-' if monotone else ''}conjunctions:{self.n_vars}" + (
            "" if self.k is None else f",{self.k}"
        )  # rebuilds the class (littlestone.classes.spec)
        self._twin: FiniteClass | None = None
        if self.k is not None:
            if self.n_vars > FALLBACK_MAX_VARS:
                raise LittlestoneError(
                    f"{self.name}: no closed form for conjunctions of at most k < n literals; the exact fallback "
                    f"(an explicit class on {{0,1}}^n) supports n_vars ≤ {FALLBACK_MAX_VARS}"
                )
            self._twin = self._build_twin()

    def _build_twin(self) -> FiniteClass:
        pts = self.domain_points()
        rows = set()
        for assign in itertools.product((None, 1) if self.monotone else (None, 0, 1), repeat=self.n_vars):
            lits = [(i, v) for i, v in enumerate(assign) if v is not None]
            if len(lits) <= self.k:  # type: ignore[operator]
                rows.add(tuple(Conjunction(lits)(p) for p in pts))
        if not self.monotone and self.k >= 2:  # type: ignore[operator]
            rows.add((0,) * len(pts))
        return FiniteClass(np.array(sorted(rows)), points=pts, name=self.name + " (explicit)")

    def version_space(self) -> VersionSpace:
        if self._twin is not None:
            return _TwinVersionSpace(self, self._twin.version_space())
        if self.monotone:
            return ConjunctionsVersionSpace(self, ("post", tuple((i, 1) for i in range(self.n_vars)), ()))
        return ConjunctionsVersionSpace(self, ("pre", GrowingSet()))

    def contains_point(self, x: Point) -> bool:
        return (
            isinstance(x, tuple)
            and len(x) == self.n_vars
            and all(isinstance(v, (int, np.integer)) and v in (0, 1) for v in x)
        )

    @property
    def domain_size(self) -> int:
        return 2**self.n_vars

    def domain_points(self) -> list[tuple]:
        if self.n_vars > 20:
            raise TypeError(f"{self.name}: domain of 2^{self.n_vars} points too large to enumerate")
        return list(itertools.product((0, 1), repeat=self.n_vars))

    def validate_point(self, x: Any) -> Point:
        x = as_python_point(x)
        if isinstance(x, tuple):
            x = tuple(int(v) if isinstance(v, bool) else v for v in x)
            if any(isinstance(v, float) and v != v for v in x):
                raise DomainError(f"point contains NaN; {self.name} needs 0/1 tuples of length {self.n_vars}")
            if any(isinstance(v, float) and v in (0.0, 1.0) for v in x):
                x = tuple(int(v) for v in x)
        if not self.contains_point(x):
            raise DomainError(f"point {x!r} is outside the domain of {self.name} (0/1 tuples of length {self.n_vars})")
        return x

    def validate_points(self, X: Any) -> np.ndarray:
        arr = np.asarray(X)
        if arr.ndim != 2 or arr.shape[1] != self.n_vars:
            raise DomainError(f"{self.name} needs points as rows of length {self.n_vars} (got shape {arr.shape})")
        if arr.dtype.kind == "f" and np.isnan(arr).any():
            raise DomainError(f"points contain NaN; {self.name} needs 0/1 vectors")
        if arr.size and not np.isin(arr, (0, 1)).all():
            raise DomainError(f"{self.name} needs 0/1 vectors; got entries outside {{0, 1}}")
        return arr.astype(np.int8)

    def hypothesis(self, literals: Any = ()) -> Conjunction:
        """The conjunction of the literals (i, v) ("x_i = v"); ``None`` for the contradictory conjunction."""
        h = Conjunction(literals)
        if h.literals is not None and any(not 0 <= i < self.n_vars for i, _ in h.literals):
            raise LittlestoneError(f"literal variable outside 0..{self.n_vars - 1}")
        return h

    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        """Every disagreement, lazily: points satisfying one conjunction and not the other (a violating
        completion first, then all completions of the satisfied conjunction's free variables)."""
        if not (isinstance(h1, Conjunction) and isinstance(h2, Conjunction)):
            yield from (p for p in self.domain_points() if h1(p) != h2(p))
            return
        for h, g in ((h1, h2), (h2, h1)):
            if h.literals is None:
                continue
            fixed = dict(h.literals)
            free = [i for i in range(self.n_vars) if i not in fixed]
            point = [0] * self.n_vars
            for i, v in fixed.items():
                point[i] = v
            for i, v in g.literals or ():
                if i not in fixed:
                    point[i] = 1 - v
            first = tuple(point)
            if g(first) == 0:
                yield first
            for bits in itertools.product((0, 1), repeat=len(free)):
                for i, b in zip(free, bits):
                    point[i] = b
                x = tuple(point)
                if x != first and g(x) == 0:
                    yield x
