"""The core abstraction: hypotheses, version spaces and hypothesis classes.

A *hypothesis class* exposes version spaces (restrict by an example), their Littlestone dimension, the SOA classifier
of a version space (GGKM21 Def 4.2, ties → 0) and a point where two hypotheses disagree. Explicit finite
classes implement it with bitsets (:mod:`littlestone.classes.finite`); structured classes in closed form.
"""

from __future__ import annotations

import math
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Iterator, Sequence

import numpy as np

from ..errors import DomainError

if TYPE_CHECKING:
    from .empirical import EmpiricalErrors

#: a domain point: a hashable value whose type is the class's (ints for thresholds, tuples for conjunctions and
#: affine subspaces, any hashable for points) — hence Any for the type checker; classes validate their own points
Point = Any


def point_key(x: Any) -> tuple:
    """A total order on heterogeneous hashable points (used to canonicalize patch sets)."""
    if isinstance(x, (bool, np.bool_)):
        return ("int", int(x))
    if isinstance(x, (int, np.integer)):
        return ("int", int(x))
    if isinstance(x, (float, np.floating)):
        return ("float", float(x))
    if isinstance(x, tuple):
        return ("tuple", tuple(point_key(v) for v in x))
    if isinstance(x, str):
        return ("str", x)
    return (type(x).__name__, repr(x))


def as_python_point(x: Any) -> Any:
    """numpy scalars → Python scalars, arrays/lists → tuples (so points are hashable and compare by value)."""
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return tuple(as_python_point(v) for v in x.tolist()) if x.ndim else x.item()
    if isinstance(x, list):
        return tuple(as_python_point(v) for v in x)
    return x


# --------------------------------------------------------------------------------------------------------------------
# Hypotheses
# --------------------------------------------------------------------------------------------------------------------


class Hypothesis(ABC):
    """A function X → {0,1} as a hashable, totally ordered value.

    Subclasses define :meth:`key` (a tuple that identifies the function within its representation) and evaluation.
    Equality, hashing and ordering use ``(type name, key)``, so the same function computed twice compares equal.
    """

    __slots__ = ()

    @abstractmethod
    def key(self) -> tuple:
        """A hashable, orderable identification of this hypothesis."""

    @abstractmethod
    def __call__(self, x: Point) -> int:
        """The label (0 or 1) at one point."""

    def predict(self, X: Sequence[Point] | np.ndarray) -> np.ndarray:
        """Vectorized evaluation: int8 array of labels. Subclasses override with NumPy code."""
        return np.fromiter((self(as_python_point(x)) for x in X), dtype=np.int8, count=len(X))

    def _order_key(self) -> tuple:
        return (type(self).__name__, self.key())

    def absorb_patches(self, patches: list[tuple[Point, int]]) -> "Hypothesis | None":
        """The canonical hypothesis equal to self overwritten by ``patches`` (points where it differs from self),
        when this representation has one; None keeps a :class:`PatchedHypothesis`. Used by :func:`patch`."""
        return None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hypothesis) and self._order_key() == other._order_key()

    def __hash__(self) -> int:
        return hash(self._order_key())

    def __lt__(self, other: "Hypothesis") -> bool:
        return sortable_key(self._order_key()) < sortable_key(other._order_key())

    def __le__(self, other: "Hypothesis") -> bool:
        return self == other or self < other

    def __gt__(self, other: "Hypothesis") -> bool:
        return other < self

    def __ge__(self, other: "Hypothesis") -> bool:
        return self == other or other < self

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self.key()!r}"


def sortable_key(k: Any) -> Any:
    """A hypothesis order key made comparable across point types (the total order of hypotheses)."""
    if isinstance(k, tuple):
        return tuple(sortable_key(v) for v in k)
    return point_key(k)


class PatchedHypothesis(Hypothesis):
    """A base hypothesis overwritten on finitely many points (the local update of BLM20/001 Definition 8).

    Canonical: patches are stored sorted and only where they differ from the base; no patches ⇒ the base itself
    (use :func:`patch`, never the constructor, to build one).
    """

    __slots__ = ("base", "patches", "_table")

    def __init__(self, base: Hypothesis, patches: tuple[tuple[Point, int], ...]):
        self.base = base
        self.patches = patches
        self._table = dict(patches)

    def key(self) -> tuple:
        return (self.base._order_key(), self.patches)

    def __call__(self, x: Point) -> int:
        x = as_python_point(x)
        v = self._table.get(x)
        return self.base(x) if v is None else v

    def predict(self, X: Sequence[Point] | np.ndarray) -> np.ndarray:
        out = self.base.predict(X)
        arr = np.asarray(X)
        if arr.ndim == 1 and arr.dtype.kind in "iu" and all(isinstance(p, int) for p, _ in self.patches):
            pts = np.fromiter((p for p, _ in self.patches), dtype=np.int64, count=len(self.patches))
            vals = np.fromiter((v for _, v in self.patches), dtype=np.int8, count=len(self.patches))
            order = np.argsort(pts)
            pts, vals = pts[order], vals[order]
            pos = np.searchsorted(pts, arr)
            pos_c = np.minimum(pos, len(pts) - 1)
            hit = (pos < len(pts)) & (pts[pos_c] == arr)
            out = out.copy()
            out[hit] = vals[pos_c[hit]]
            return out
        out = out.copy()
        for i, x in enumerate(X):
            v = self._table.get(as_python_point(x))
            if v is not None:
                out[i] = v
        return out


def patch(h: Hypothesis, updates: Iterable[tuple[Point, int]]) -> Hypothesis:
    """Apply updates (x, y) in order (the last one for a point wins) to h; canonical result (BLM20 Def 8)."""
    if isinstance(h, PatchedHypothesis):
        base, table = h.base, dict(h.patches)
    else:
        base, table = h, {}
    for x, y in updates:
        table[as_python_point(x)] = int(y)
    kept = [(x, y) for x, y in table.items() if base(x) != y]
    if not kept:
        return base
    kept.sort(key=lambda p: point_key(p[0]))
    absorbed = base.absorb_patches(kept)
    return PatchedHypothesis(base, tuple(kept)) if absorbed is None else absorbed


class LazySequence(Sequence):
    """A read-only sequence of ``n`` items computed on demand by ``item(i)`` (witnesses too long to list, e.g. the
    2^60 points shattered by ``AllFunctions(2**60)``)."""

    def __init__(self, n: int, item: Any, *, cheap: bool = True):
        self._n, self._item, self._cheap = int(n), item, cheap

    def __len__(self) -> int:
        if self._n > sys.maxsize:
            raise OverflowError(f"the sequence has {self._n} items (more than len() can report); use .size")
        return self._n

    @property
    def size(self) -> int:
        return self._n

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        i = int(i)
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self._item(i)

    def __iter__(self) -> Iterator[Any]:
        i = 0
        while i < self._n:
            yield self._item(i)
            i += 1

    def __repr__(self) -> str:
        if not self._cheap:
            return f"<{self._n} items, each built when accessed>"
        head = ", ".join(repr(self._item(i)) for i in range(min(self._n, 3)))
        return f"[{head}{', …' if self._n > 3 else ''}] ({self._n} items)"


def split_patches(h: Hypothesis) -> tuple[Hypothesis, dict]:
    """(base hypothesis, {point: label} patches)."""
    if isinstance(h, PatchedHypothesis):
        return h.base, dict(h.patches)
    return h, {}


def uniform_below(rng: np.random.Generator, m: int) -> int:
    """An integer uniform in {0, …, m − 1} for any m ≥ 1 (Python ints beyond int64: rejection on random bytes)."""
    if m <= 1 << 62:
        return int(rng.integers(0, m))
    bits = (m - 1).bit_length()
    while True:
        v = int.from_bytes(rng.bytes((bits + 7) // 8), "little") & ((1 << bits) - 1)
        if v < m:
            return v


def uniform_integers(n: int) -> Callable[..., Any]:
    """A sampler of the integers 0 … n − 1: ``sample(rng)`` is one Python int, ``sample(rng, size=k)`` an int64 array
    of k draws (n ≤ 2^62; TypeError beyond) — what :meth:`HypothesisClass.uniform_points` returns for large integer domains."""

    def sample(rng: np.random.Generator, size: int | None = None) -> Any:
        if size is None:
            return uniform_below(rng, n)
        if n > 1 << 62:
            raise TypeError("points beyond int64: draw them one at a time")
        return rng.integers(0, n, size=size, dtype=np.int64)

    return sample


# --------------------------------------------------------------------------------------------------------------------
# Version spaces and classes
# --------------------------------------------------------------------------------------------------------------------


class VersionSpace(ABC):
    """A subset V ⊆ H given by the examples seen so far; an immutable, hashable value.

    Conventions: Ldim(∅) = −1, Ldim({h}) = 0; SOA ties go to label 0 (GGKM21 Def 4.2).
    """

    __slots__ = ()

    @property
    @abstractmethod
    def hclass(self) -> "HypothesisClass":
        """The class this is a version space of."""

    @abstractmethod
    def key(self) -> Hashable:
        """Small hashable identification (for memoization and equality)."""

    @abstractmethod
    def restrict(self, x: Point, y: int) -> "VersionSpace":
        """V|(x,y) = {h ∈ V : h(x) = y} (x already validated, y ∈ {0,1})."""

    @abstractmethod
    def ldim(self) -> int:
        """Littlestone dimension of V (−1 if empty)."""

    @abstractmethod
    def size(self) -> float:
        """|V| (an int, or math.inf for infinite version spaces)."""

    @abstractmethod
    def contains(self, h: Hypothesis) -> bool:
        """h ∈ V."""

    def is_empty(self) -> bool:
        return self.size() == 0

    def soa_predict(self, x: Point) -> int:
        """SOA prediction at x: 1 iff Ldim(V|(x,1)) > Ldim(V|(x,0)) (ties → 0; GGKM21 Def 4.2)."""
        return int(self.restrict(x, 1).ldim() > self.restrict(x, 0).ldim())

    def soa_predict_many(self, X: Sequence[Point]) -> np.ndarray:
        """Vectorized SOA predictions (subclasses override in closed form)."""
        return np.fromiter((self.soa_predict(as_python_point(x)) for x in X), dtype=np.int8, count=len(X))

    @abstractmethod
    def soa(self) -> Hypothesis:
        """The SOA classifier SOA_V as a hashable hypothesis (GGKM21 Def 4.2)."""

    def restrict_sample(
        self, X: Sequence[Point] | np.ndarray, y: Sequence[int] | np.ndarray
    ) -> tuple["VersionSpace", int]:
        """Restrict by the longest realizable prefix of the sample.

        Returns (V|S[:k], k) where k is the largest prefix length with V|S[:k] ≠ ∅ (k = len(S) iff S is realizable
        by V). Examples must already be validated; labels 0/1. Subclasses vectorize this.
        """
        V = self
        if V.is_empty():
            return V, 0
        for i in range(len(y)):
            W = V.restrict(as_python_point(X[i]), int(y[i]))
            if W.is_empty():
                return V, i
            V = W
        return V, len(y)

    def split_point(self) -> Point | None:
        """A point x with min(Ldim(V|(x,0)), Ldim(V|(x,1))) = Ldim(V) − 1: the root of a deepest mistake tree
        shattered by V (None if Ldim(V) ≤ 0). Generic version scans a finite domain; structured classes override."""
        d = self.ldim()
        if d <= 0:
            return None
        for x in self.hclass.domain_points():
            if min(self.restrict(x, 0).ldim(), self.restrict(x, 1).ldim()) >= d - 1:
                return x
        raise AssertionError("no split point although Ldim ≥ 1 (inconsistent ldim implementation)")

    def hypotheses(self) -> Iterator[Hypothesis]:
        """Enumerate V (finite version spaces only)."""
        raise TypeError(f"{type(self).__name__} cannot enumerate its hypotheses (infinite or not supported)")

    def labelings(self, points: Sequence[Point], *, limit: int | None = None) -> np.ndarray:
        """Every labeling of ``points`` (distinct, validated) realized by V, as a (|Π|, r) uint8 array in
        lexicographic order. Generic: depth-first search over restrictions, a LittlestoneError once more than
        ``limit`` labelings are found; structured classes may override with a closed form."""
        from ..errors import LittlestoneError

        r = len(points)
        out: list[tuple] = []

        def dfs(W: VersionSpace, i: int, prefix: tuple) -> None:
            if limit is not None and len(out) > limit:
                raise LittlestoneError(
                    f"more than {limit:,} realizable labelings: the class is too rich for an "
                    "exact enumeration on these points"
                )
            if i == r:
                out.append(prefix)
                return
            for b in (0, 1):
                W2 = W.restrict(points[i], b)
                if not W2.is_empty():
                    dfs(W2, i + 1, prefix + (b,))

        dfs(self, 0, ())
        return np.array(out, dtype=np.uint8).reshape(-1, r)

    # -------------------------------------------------------------- optional closed forms (None: "not here")
    # Algorithms ask a version space for these instead of testing its type; the defaults say "no closed form" and
    # the callers then run the generic computation. A structured class implements the ones that fit its shape;
    # littlestone.testing.check_hypothesis_class checks every closed form a class offers against the generic one.

    def online_run(self, X: list, y: list, rule: str) -> "tuple[list[int], VersionSpace, int] | None":
        """Closed-form online rounds from V on validated points X and 0/1 labels y: ``rule`` "soa" predicts
        1 iff Ldim(V|(x,1)) > Ldim(V|(x,0)) (ties → 0), "halving" 1 iff |V|(x,1)| > |V|(x,0)|; then V ← V|(x,y).
        Returns (predictions, version space after the realizable prefix, its length k), stopping before the first
        example that would empty V — the same rounds as ``soa_predict``/``restrict`` one at a time — or None when
        the class has no closed form (the default; the online learners' batch path then runs round by round)."""
        return None

    def flip_point(self, h: Hypothesis) -> "tuple[Point, int] | None":
        """The late-commitment move against a released hypothesis h: a point x and the label y = 1 − h(x) with
        V|(x,y) ≠ ∅ keeping V|(x,y) largest (by size, then Ldim; the first candidate on ties), or None when h agrees
        with every hypothesis of V on the candidates (no realizable mistake is left to force). Exact over
        :meth:`flip_candidates`; structured classes override this or the candidates in closed form."""
        best: "tuple[Point, int] | None" = None
        best_key: tuple = ()
        for x in self.flip_candidates(h):
            y = 1 - int(h(x))
            W = self.restrict(x, y)
            if W.is_empty():
                continue
            key = (W.size(), W.ldim())
            if best is None or key > best_key:
                best, best_key = (x, y), key
        return best

    def flip_candidates(self, h: Hypothesis) -> Iterable[Point]:
        """Points among which :meth:`flip_point` looks: the whole domain when it has at most 2^12 points, else the
        split point and the points where h disagrees with SOA_V and with the SOAs of V's two restrictions at the
        split point (a heuristic set: classes with a closed form override it)."""
        H = self.hclass
        if H.domain_size <= 1 << 12:
            try:
                return H.domain_points()
            except TypeError:
                pass
        out: list[Point] = []

        def disagreement(g: Hypothesis) -> None:
            try:
                out.append(H.disagreement(h, g))
            except (AttributeError, TypeError):  # h has no structure the class can search (an opaque predictor)
                pass

        x0 = self.split_point()
        if x0 is not None:
            out.append(x0)
            for b in (0, 1):
                g = self.restrict(x0, b)
                if not g.is_empty():
                    disagreement(g.soa())
        disagreement(self.soa())
        return [x for x in out if x is not None]

    def online_run_array(
        self, X: np.ndarray, y: np.ndarray, rule: str, out: np.ndarray | None = None
    ) -> "tuple[np.ndarray, VersionSpace, int] | None":
        """:meth:`online_run` on a NumPy batch (validated points, 0/1 labels), vectorized: (int8 predictions of the
        realizable prefix — written to ``out`` when given —, the version space after it, its length k), or None (the
        default) when the class has no
        vectorized closed form — callers then try :meth:`online_run` and the per-round path."""
        return None

    def halving_hypothesis(self) -> "Hypothesis | None":
        """The Halving vote x ↦ 1[|V|(x,1)| > |V|(x,0)|] as a hypothesis of the class's representation, or None
        (the default) when the class has no closed form for it."""
        return None

    def chain(self) -> "tuple[int, Callable[[int], Point]] | None":
        """(size c, kth) when V is a *chain* ordered so that V|(kth(j), 1) is exactly its j smallest elements
        (j = 1…c) — thresholds and any subset of them — else None (the default). Irreducibility and reducing
        arrays of chains have closed forms (:mod:`littlestone.dimensions.irreducibility`)."""
        return None

    def threshold_interval(self) -> "tuple[int, int, int] | None":
        """(lo, hi, n) when V = {h_t : lo ≤ t ≤ hi} of the thresholds h_t(x) = 1[x ≥ t] on {0, …, n−1}, with
        restriction, SOA and :meth:`with_threshold_interval` in that closed form (V|(x,1) keeps t ≤ x, V|(x,0) keeps
        t ≥ x + 1; SOA_V = Threshold(t*) by binary search), else None (the default). The compiled kernels of the
        BLM20 tournament (:mod:`littlestone.pac.tournament`) run on this form."""
        return None

    def with_threshold_interval(self, lo: int, hi: int) -> "VersionSpace":
        """The version space {h_t : lo ≤ t ≤ hi} of the same class and representation as V (only for version spaces
        whose :meth:`threshold_interval` is not None)."""
        raise TypeError(f"{type(self).__name__} has no threshold-interval form")

    def soa_block_keys(self, X: Any, y: Any, n: int) -> list | None:
        """For consecutive blocks of ``n`` examples (X, y of length a multiple of n): keys such that equal keys imply
        equal SOA classifiers of V restricted by the blocks, with None for a block the shortcut does not cover — or
        None when the class has no shortcut (then callers compute the SOA of each block; the default)."""
        return None

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, VersionSpace)
            and type(self) is type(other)
            and self.key() == other.key()
            and self.hclass is other.hclass
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.key()))

    def __len__(self) -> int:
        s = self.size()
        if s == math.inf:
            raise TypeError("infinite version space has no len(); use size()")
        return int(s)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.hclass!r}: size={self.size()}, key={self.key()!r}>"


@dataclass(frozen=True)
class CountingForm:
    """A class's hypotheses h_0..h_{size−1} as counting queries over its finite domain x_0..x_{domain_size−1}, in
    closed form: ``answers(w)`` = (Σ_i w_i·h_j(x_i))_j for a weight vector w over the domain, ``row(j)`` = h_j as a 0/1
    float vector, ``columns(idx)`` = (len(idx) × size) values h_j(x_i), ``index_points(X)`` = domain indices of points
    (DomainError outside), ``point(i)`` = x_i, ``hypothesis(j)`` = h_j."""

    size: int
    domain_size: int
    answers: Callable[[np.ndarray], np.ndarray]
    row: Callable[[int], np.ndarray]
    columns: Callable[[np.ndarray], np.ndarray]
    index_points: Callable[[Any], np.ndarray]
    point: Callable[[int], Any]
    hypothesis: Callable[[int], "Hypothesis"]


def _shared_copy(self: Any, memo: Any = None) -> Any:
    """``copy.copy`` / ``copy.deepcopy`` of an immutable value: the value itself."""
    return self


class HypothesisClass(ABC):
    """A hypothesis class H over a domain X (the one protocol every algorithm uses).

    ``class C(HypothesisClass, immutable=True)`` declares C's instances immutable values: nothing reassigns or
    mutates their attributes after ``__init__`` (memo caches that never change an answer may fill later). Then
    ``copy.copy``, ``copy.deepcopy`` and hence ``sklearn.clone`` share the instance instead of copying its tables (a
    grid search clones its estimator once per candidate; issue 32). A subclass that adds mutable state declares
    ``immutable=False`` and is copied again."""

    def __init_subclass__(cls, *, immutable: bool | None = None, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        if immutable is not None:
            cls.immutable = bool(immutable)
            share = _shared_copy if immutable else None  # None: copy's default protocol
            cls.__copy__ = share  # type: ignore[assignment]
            cls.__deepcopy__ = share  # type: ignore[assignment]

    #: whether instances are immutable values shared by copies (declared with ``immutable=True``; class doc)
    immutable: bool = False

    #: a short human name, e.g. ``thresholds(1000)``
    name: str = "class"
    #: a class spec string that rebuilds an equal class (:mod:`littlestone.classes.spec`, e.g. ``thresholds:1000``;
    #: saved models name their class by it), or None when the class has none
    spec: str | None = None

    @abstractmethod
    def version_space(self) -> VersionSpace:
        """The full class as a version space."""

    @abstractmethod
    def contains_point(self, x: Point) -> bool:
        """Whether x belongs to the domain."""

    @property
    def domain_size(self) -> float:
        """|X| (math.inf for infinite domains)."""
        return math.inf

    def domain_points(self) -> list[Point]:
        """All points of a finite domain, in order."""
        raise TypeError(f"{self.name} has no enumerable domain")

    def uniform_points(self) -> "Sequence[Point] | Any":
        """What a uniform draw of a domain point needs: the domain's points (a sequence), or for domains too large to
        list a callable ``rng -> point``; TypeError when the domain has no uniform distribution."""
        return self.domain_points()

    def random_hypothesis(self, rng: np.random.Generator, *, limit: int = 1_000_000) -> "Hypothesis":
        """A hypothesis of the class drawn uniformly with ``rng``. Generic: enumerate the class (a LittlestoneError
        beyond ``limit`` hypotheses); structured classes may draw in closed form."""
        from ..errors import LittlestoneError

        V = self.version_space()
        size = V.size()
        if not math.isfinite(size) or size > limit:
            raise LittlestoneError(
                f"drawing a uniform hypothesis needs a class of at most {limit:,} hypotheses; {self.name} has {size}"
            )
        hyps = list(V.hypotheses())
        return hyps[int(rng.integers(0, len(hyps)))]

    @abstractmethod
    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        """Points where two unpatched hypotheses of this class's representation disagree (may be a lazy, possibly
        infinite, iterator; empty iff they are the same function)."""

    # -------------------------------------------------------------- generic behaviour built on the abstract methods

    def validate_point(self, x: Any) -> Point:
        """x as a canonical Python point, or :class:`DomainError` naming the problem."""
        x = as_python_point(x)
        if isinstance(x, float) and math.isnan(x):
            raise DomainError(f"point is NaN; {self.name} needs points of its domain")
        try:
            ok = self.contains_point(x)
        except TypeError:
            ok = False
        if not ok:
            raise DomainError(f"point {x!r} is outside the domain of {self.name}")
        return x

    def validate_points(self, X: Any) -> np.ndarray | list:
        """Validate a batch of points (subclasses vectorize); returns points in a form predict/restrict accept."""
        return [self.validate_point(x) for x in X]

    def ldim(self) -> int:
        """Littlestone dimension of the whole class."""
        return self.version_space().ldim()

    def soa(self) -> Hypothesis:
        """The SOA classifier of the whole class."""
        return self.version_space().soa()

    def disagreement(self, h1: Hypothesis, h2: Hypothesis) -> Point | None:
        """A point where h1 and h2 disagree, or None if they are the same function (patches handled generically)."""
        b1, p1 = split_patches(h1)
        b2, p2 = split_patches(h2)
        patched = set(p1) | set(p2)
        for x in sorted(patched, key=point_key):
            if h1(x) != h2(x):
                return x
        if b1 == b2:
            return None
        for x in self.base_disagreements(b1, b2):
            if x not in patched:
                return x
            # at a patched point h1 == h2 was checked above; keep looking (at most len(patched) skips)
        return None

    # -------------------------------------------------------------- closed-form dimensions of the whole class
    # The dimension functions of littlestone.dimensions use these when a class knows them (huge and infinite
    # domains); None means "not known in closed form here": they then run the exact search on the explicit twin.

    def vc_closed_form(self) -> "tuple[int, Sequence[Point]] | None":
        """(VC dimension, a shattered set of that size), or None."""
        return None

    def dual_closed_form(self) -> "tuple[int, int] | None":
        """(dual Littlestone dimension, dual VC dimension), or None (dual class: {h ↦ h(x) : x ∈ X} on domain H)."""
        return None

    def threshold_closed_form(self) -> "tuple[int, Sequence[Point], Sequence[Hypothesis]] | None":
        """(threshold dimension k, points x_1…x_k, hypotheses h_1…h_k with h_i(x_j) = 1 iff j ≥ i), or None."""
        return None

    def counting_closed_form(self) -> "CountingForm | None":
        """The class as counting queries over its finite domain in closed form (sanitizers answer all of them in
        O(|X|) this way), or None: they then use the explicit twin's matrix."""
        return None

    # -------------------------------------------------------------- optional closed forms for learners
    # As for version spaces: the defaults say "no closed form" and callers run the generic computation.

    def hypothesis_types(self) -> "tuple[type, ...] | None":
        """The hypothesis types the class and the SOA of its version spaces are made of (a saved model's hypothesis
        is checked against them on load, patched or not; a value vector over the finite domain always fits), or
        None (the default): not declared, any hypothesis is accepted."""
        return None

    def soa_is_proper(self) -> bool:
        """True when SOA_V ∈ H for every version space V of the class (the SOA is then a proper learner and
        Lemma 6.2's minimax set of an SOA output is the output itself, GGKM21 §6); False when not known."""
        return False

    def mistake_counts(self, hypotheses: Sequence[Hypothesis], X: Any, y: Any) -> "np.ndarray | None":
        """#{i : h(x_i) ≠ y_i} for each of ``hypotheses`` (int64 array) on validated points X and 0/1 labels y, in
        closed form (vectorized over the hypotheses), or None (the default) when the class has none for these
        hypotheses — callers then evaluate each one."""
        return None

    def empirical_errors(self, batches: Iterable[tuple[Any, Any]]) -> "EmpiricalErrors | None":
        """The class's error table on a sample given block by block (validated points, labels 0/1), in closed form
        (:mod:`littlestone.classes.empirical`), or None (the default: the explicit twin is used) — returned before
        reading ``batches``, which may be a one-pass iterator."""
        return None

    def evaluate(self, h: Hypothesis, X: Any) -> np.ndarray:
        """h on a batch of domain points (validated)."""
        return h.predict(self.validate_points(X))

    def __repr__(self) -> str:
        return self.name
