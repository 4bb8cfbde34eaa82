"""Explicit finite classes from a 0/1 matrix (rows = hypotheses, columns = domain points), with bitset version spaces."""

from __future__ import annotations

from typing import Any, Hashable, Iterator, Sequence

import numpy as np

from ..errors import DomainError, LittlestoneError
from .base import Hypothesis, HypothesisClass, Point, VersionSpace, as_python_point
from .finite_ldim import ldim_mask


class FiniteDomain:
    """Points of a finite domain (labels; default 0..n-1) and their column indices."""

    __slots__ = ("points", "_index", "n")

    def __copy__(self) -> "FiniteDomain":  # an immutable value (never changed after __init__): copies share it
        return self

    def __deepcopy__(self, memo: dict) -> "FiniteDomain":
        return self

    def __init__(self, n: int, labels: Sequence[Hashable] | None = None):
        self.n = int(n)
        if labels is None:
            self.points = list(range(self.n))
            self._index = None
        else:
            pts = [as_python_point(p) for p in labels]
            if len(pts) != self.n:
                raise LittlestoneError(f"{len(pts)} point labels given for {self.n} columns")
            if len(set(pts)) != len(pts):
                raise LittlestoneError("point labels must be distinct")
            self.points = pts
            self._index = {p: i for i, p in enumerate(pts)}

    def __contains__(self, x: Any) -> bool:
        if self._index is None:
            return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and bool(0 <= x < self.n)
        try:
            return x in self._index
        except TypeError:
            return False

    def index(self, x: Point) -> int:
        if self._index is None:
            if isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= x < self.n:
                return int(x)
        else:
            i = self._index.get(x)
            if i is not None:
                return i
        raise DomainError(f"point {x!r} is outside the domain (a finite domain of {self.n} points)")

    def indices(self, X: Any) -> np.ndarray:
        if self._index is None:
            arr = np.asarray(X)
            if arr.dtype.kind in "iu" and arr.ndim == 1:
                if arr.size and (arr.min() < 0 or arr.max() >= self.n):
                    bad = arr[(arr < 0) | (arr >= self.n)][0]
                    raise DomainError(f"point {int(bad)} is outside the domain (0..{self.n - 1})")
                return arr.astype(np.intp, copy=False)
            if arr.dtype.kind == "f" and arr.size and np.isnan(arr).any():
                raise DomainError("points contain NaN")
        return np.fromiter((self.index(as_python_point(x)) for x in X), dtype=np.intp, count=len(X))


class VectorHypothesis(Hypothesis):
    """A function on a finite domain given by its value vector (equality by values)."""

    __slots__ = ("values", "domain")

    def __init__(self, values: np.ndarray | bytes, domain: FiniteDomain):
        v = np.frombuffer(values, dtype=np.uint8) if isinstance(values, bytes) else np.asarray(values, dtype=np.uint8)
        self.values = v.tobytes()
        self.domain = domain

    def key(self) -> tuple:
        return (self.values,)

    def absorb_patches(self, patches: list) -> "VectorHypothesis":
        """A patched value vector is a value vector (one representation per function)."""
        vals = bytearray(self.values)
        for x, v in patches:
            vals[self.domain.index(x)] = v
        return VectorHypothesis(bytes(vals), self.domain)

    def as_array(self) -> np.ndarray:
        return np.frombuffer(self.values, dtype=np.uint8).astype(np.int8)

    def __call__(self, x: Point) -> int:
        return self.values[self.domain.index(as_python_point(x))]

    def predict(self, X: Any) -> np.ndarray:
        return self.as_array()[self.domain.indices(X)]

    def __repr__(self) -> str:
        return "VectorHypothesis(" + "".join(str(b) for b in self.values) + ")"


class FiniteVersionSpace(VersionSpace):
    """A version space of a :class:`FiniteClass`: a bitmask over its rows (Python int)."""

    __slots__ = ("_cls", "mask")

    def __init__(self, cls: "FiniteClass", mask: int):
        self._cls = cls
        self.mask = mask

    @property
    def hclass(self) -> "FiniteClass":
        return self._cls

    def key(self) -> int:
        return self.mask

    def restrict(self, x: Point, y: int) -> "FiniteVersionSpace":
        j = self._cls.domain.index(x)
        return FiniteVersionSpace(self._cls, self.mask & self._cls.col_masks[int(y)][j])

    def restrict_index(self, j: int, y: int) -> "FiniteVersionSpace":
        return FiniteVersionSpace(self._cls, self.mask & self._cls.col_masks[int(y)][j])

    def ldim(self) -> int:
        return ldim_mask(self._cls, self.mask)

    def size(self) -> int:
        return self.mask.bit_count()

    def contains(self, h: Hypothesis) -> bool:
        r = self._cls._row_of.get(getattr(h, "values", None))
        return r is not None and (self.mask >> r) & 1 == 1

    def rows(self) -> list[int]:
        m, out = self.mask, []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def hypotheses(self) -> Iterator[VectorHypothesis]:
        for r in self.rows():
            yield self._cls.hypothesis(r)

    def soa_predict(self, x: Point) -> int:
        j = self._cls.domain.index(x)
        return self._soa_at(j)

    def _soa_at(self, j: int) -> int:
        c1, c0 = self._cls.col_masks[1][j], self._cls.col_masks[0][j]
        return int(ldim_mask(self._cls, self.mask & c1) > ldim_mask(self._cls, self.mask & c0))

    def soa_predict_many(self, X: Any) -> np.ndarray:
        idx = self._cls.domain.indices(X)
        vec = self.soa().as_array()
        return vec[idx]

    def soa(self) -> VectorHypothesis:
        cache = self._cls._soa_cache
        h = cache.get(self.mask)
        if h is None:
            vals = np.fromiter(
                (self._soa_at(j) for j in range(self._cls.n_points)), dtype=np.uint8, count=self._cls.n_points
            )
            h = VectorHypothesis(vals, self._cls.domain)
            if len(cache) >= self._cls._soa_cache_limit:
                cache.clear()
            cache[self.mask] = h
        return h

    def restrict_sample(self, X: Any, y: Any) -> tuple["FiniteVersionSpace", int]:
        idx = self._cls.domain.indices(X)
        y = np.asarray(y)
        mask = self.mask
        if mask == 0:
            return self, 0
        c0, c1 = self._cls.col_masks
        for i in range(len(idx)):
            new = mask & (c1[idx[i]] if y[i] else c0[idx[i]])
            if new == 0:
                return FiniteVersionSpace(self._cls, mask), i
            mask = new
        return FiniteVersionSpace(self._cls, mask), len(idx)


def _as_01_matrix(matrix: Any) -> np.ndarray:
    """A 2-D uint8 0/1 matrix (no copy when it already is one), or a named error."""
    try:
        M = np.asarray(matrix)
    except ValueError:
        raise LittlestoneError(
            "a finite class needs a rectangular 0/1 matrix: its rows have different lengths"
        ) from None
    if M.ndim != 2:
        raise LittlestoneError(f"a finite class needs a 2-D 0/1 matrix (rows = hypotheses), got shape {M.shape}")
    if M.dtype.kind == "f" and np.isnan(M).any():
        raise LittlestoneError("the class matrix contains NaN")
    if M.dtype.kind == "b":
        ok = True
    elif M.dtype.kind == "u":
        ok = M.size == 0 or int(M.max()) <= 1
    elif M.dtype.kind == "i":
        ok = M.size == 0 or (int(M.min()) >= 0 and int(M.max()) <= 1)
    elif M.dtype.kind == "f":
        ok = bool(((M == 0) | (M == 1)).all())
    else:
        ok = bool(np.isin(M, (0, 1)).all())
    if not ok:
        raise LittlestoneError("the class matrix must contain only 0 and 1")
    return M.astype(np.uint8, copy=False)


def column_masks(M: np.ndarray) -> list[int]:
    """Per column j, the Python int whose bit r is M[r, j] (rows packed little-endian, one int.from_bytes a column)."""
    n_rows, n_cols = M.shape
    cols = np.ascontiguousarray(np.packbits(M, axis=0, bitorder="little").T)  # (n_cols, ceil(n_rows/8))
    width = cols.shape[1]
    raw = cols.tobytes()
    return [int.from_bytes(raw[j * width : (j + 1) * width], "little") for j in range(n_cols)]


class _RowIndex:
    """Row of a hypothesis given its value bytes (one uint8 per point), looked up by its packed bits."""

    __slots__ = ("_rows", "_n")

    def __init__(self, rows: dict[bytes, int], n_points: int):
        self._rows, self._n = rows, n_points

    def get(self, values: Any, default: Any = None) -> Any:
        if values is None:
            return default
        v = np.frombuffer(values, dtype=np.uint8) if isinstance(values, (bytes, bytearray)) else np.asarray(values)
        if v.shape != (self._n,):
            return default
        return self._rows.get(np.packbits(v.astype(np.uint8, copy=False)).tobytes(), default)

    def __len__(self) -> int:
        return len(self._rows)


class FiniteClass(HypothesisClass, immutable=True):
    """An explicit class: rows of a 0/1 matrix are hypotheses, columns are domain points (duplicate rows removed).
    A matrix with no rows is the empty class (Ldim −1 by convention).

    ``FiniteClass([[0,0,1],[0,1,1]], points=["a","b","c"])``.
    """

    #: memory for all caches of one class together (bytes, approximate): the Ldim solver's bounds memo gets 1/2
    #: (its compact frames' memos at most 1/3 of that more: ≤ 2/3 in all), the SOA classifier cache 1/4; each is
    #: cleared when full (answers never change, only their cost).
    CACHE_BYTES = 1 << 29

    def __init__(self, matrix: Any, points: Sequence[Hashable] | None = None, name: str | None = None):
        M = _as_01_matrix(matrix)
        # duplicate rows removed, first occurrences kept in order: rows hashed by their packed bytes (|H| dict
        # lookups; no np.unique(axis=0), which sorts rows of |X| bytes)
        packed = np.packbits(M, axis=1)
        width = packed.shape[1]
        raw = packed.tobytes()
        row_of: dict[bytes, int] = {}
        for r in range(M.shape[0]):
            row_of.setdefault(raw[r * width : (r + 1) * width], r)
        if len(row_of) < M.shape[0]:
            keep = np.fromiter(row_of.values(), dtype=np.intp, count=len(row_of))
            M, packed = M[keep], packed[keep]
            row_of = {k: i for i, k in enumerate(row_of)}
        del raw
        if isinstance(matrix, np.ndarray) and matrix.flags.writeable and np.may_share_memory(M, matrix):
            M = M.copy()  # the caller could still write its array: the class keeps its own (an immutable value)
        M = M.view()  # read-only through the class (the class is an immutable value: copies share it)
        M.flags.writeable = False
        self.matrix = M
        self.n_hypotheses, self.n_points = M.shape
        self.domain = FiniteDomain(self.n_points, points)
        self.name = name or f"finite({self.n_hypotheses}x{self.n_points})"
        self.full_mask = (1 << self.n_hypotheses) - 1
        ones = column_masks(M)
        self.col_masks = ([self.full_mask ^ c for c in ones], ones)
        self._row_of = _RowIndex(row_of, self.n_points)
        self._solver: Any = None  # the Ldim solver (classes.finite_ldim), created on first use
        self._soa_cache: dict[int, VectorHypothesis] = {}
        self._soa_cache_limit = max(16, (self.CACHE_BYTES // 4) // (self.n_points + 200))

    def __setstate__(self, state: Any) -> None:
        """Unpickling: NumPy brings the matrix back writeable; the class is an immutable value, so it is read-only
        again, as after ``__init__``."""
        dict_state, slot_state = state if isinstance(state, tuple) else (state, None)
        self.__dict__.update(dict_state or {})
        for name, value in (slot_state or {}).items():
            setattr(self, name, value)
        self.matrix.flags.writeable = False

    def memo_bytes(self) -> int:
        """Bytes the Ldim solver's own memo may use (1/2 of :attr:`CACHE_BYTES`; its frames add ≤ 1/3 of that)."""
        return self.CACHE_BYTES // 2

    def clear_caches(self) -> None:
        """Forget every memoized Ldim bound and SOA classifier of this class (benchmarks use it for cold timings)."""
        self._solver = None
        self._soa_cache.clear()

    # ------------------------------------------------------------------ protocol
    def version_space(self) -> FiniteVersionSpace:
        return FiniteVersionSpace(self, self.full_mask)

    def version_space_of(self, rows: Sequence[int]) -> FiniteVersionSpace:
        mask = 0
        for r in rows:
            mask |= 1 << int(r)
        return FiniteVersionSpace(self, mask)

    def contains_point(self, x: Point) -> bool:
        return x in self.domain

    @property
    def domain_size(self) -> int:
        return self.n_points

    def domain_points(self) -> list[Point]:
        return list(self.domain.points)

    def validate_points(self, X: Any) -> Any:
        self.domain.indices(X)  # raises DomainError naming the first bad point
        return X

    def hypothesis(self, r: int) -> VectorHypothesis:
        return VectorHypothesis(self.matrix[r], self.domain)

    def hypotheses(self) -> list[VectorHypothesis]:
        return [self.hypothesis(r) for r in range(self.n_hypotheses)]

    def base_disagreements(self, h1: Hypothesis, h2: Hypothesis) -> Iterator[Point]:
        a = np.frombuffer(h1.values, dtype=np.uint8)  # type: ignore[attr-defined]
        b = np.frombuffer(h2.values, dtype=np.uint8)  # type: ignore[attr-defined]
        for j in np.flatnonzero(a != b):
            yield self.domain.points[int(j)]

    def __len__(self) -> int:
        return self.n_hypotheses
