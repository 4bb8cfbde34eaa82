"""Multi-feature points on a public grid (issue 33): a point with k numeric features — a tuple, or a river dict
``{name: value}`` — mapped to one cell per feature of a grid whose bounds the user declares.

A :class:`FeatureGrid` is a public, data-independent spec: feature names, declared (low, high) bounds and a number
of equal-width bins per feature. Feature j's value v falls in cell ``c_j = #{inner edges ≤ v}`` ∈ {0, …, bins_j − 1}
(the cells of :func:`littlestone.pac.grid.grid_cells`); the point of the class is the tuple (c_1, …, c_k), or the
int c_1 for one feature. Bounds are never read from the data: a grid chosen from the private data leaks (its bounds
are a function of the data that no privacy claim covers); :meth:`FeatureGrid.infer` does read them and warns with a
:class:`~littlestone.errors.PrivacyLeakWarning`, as diffprivlib does when ``bounds`` are not given.

**Values outside the declared bounds** are clipped to the end cells (``out_of_bounds="clip"``, the default and the
standard rule: the cell depends on the point itself only), or refused with a one-line
:class:`~littlestone.errors.DomainError` (``out_of_bounds="error"``). NaN, infinities and non-numbers are always
refused with one line naming the feature. In a river dict the declared names are read and other keys are ignored
(river streams carry features a model does not use); a missing name is a one-line error.

Classes on a grid (:mod:`littlestone.classes.grid_classes`): decision stumps over the k features
(:func:`~littlestone.classes.grid_classes.grid_stumps_on`) and axis-aligned boxes
(:class:`~littlestone.classes.grid_classes.GridBoxes`); each carries its grid as ``H.grid``, so a private online
learner given such a class takes raw feature tuples or river dicts directly.
"""

from __future__ import annotations

import math
import warnings
from bisect import bisect_right
from operator import itemgetter
from typing import Any, Hashable, Mapping, Sequence

import numpy as np

from ..errors import DomainError, LittlestoneError, PrivacyLeakWarning

OUT_OF_BOUNDS = ("clip", "error")


class FeatureGrid:
    """A public grid over k numeric features: ``bins[j]`` equal-width cells over the declared ``bounds[j]``.

    ``bounds``: a list of (low, high) pairs, one per feature, or a dict ``{name: (low, high)}`` (names from its
    keys, in order); ``bins``: one int ≥ 1 for every feature or one per feature; ``names``: the features' names in a
    river dict (default: the dict's keys, else none — then only tuples are accepted); ``out_of_bounds``: "clip"
    (default) or "error".

    >>> g = FeatureGrid({"age": (0, 100), "income": (0, 1e5)}, bins=10)
    >>> g.cell({"age": 37, "income": 52_000.0, "city": "Lyon"})
    (3, 5)
    >>> g.cell((120, -5))  # clipped to the declared bounds
    (9, 0)
    """

    __slots__ = ("names", "bounds", "bins", "out_of_bounds", "_edges", "_get", "_lows", "_highs")

    def __init__(
        self,
        bounds: Sequence[tuple[float, float]] | Mapping[Hashable, tuple[float, float]],
        bins: int | Sequence[int] = 16,
        names: Sequence[Hashable] | None = None,
        out_of_bounds: str = "clip",
    ):
        if isinstance(bounds, Mapping):
            if names is not None and list(names) != list(bounds):
                raise LittlestoneError("give the feature names either as the keys of bounds or as names=, not both")
            names = list(bounds)
            bounds = [bounds[n] for n in names]
        try:
            pairs = [(float(lo), float(hi)) for lo, hi in bounds]
        except (TypeError, ValueError):
            raise LittlestoneError(
                f"bounds must be (low, high) pairs of numbers, one per feature, got {bounds!r}"
            ) from None
        if not pairs:
            raise LittlestoneError("a grid needs at least one feature: bounds is empty")
        for j, (lo, hi) in enumerate(pairs):
            if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
                raise LittlestoneError(f"feature {j}: bounds need finite low < high, got ({lo!r}, {hi!r})")
        k = len(pairs)
        if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
            bins = [int(bins)] * k
        bins = list(bins)
        if len(bins) != k or any(isinstance(b, bool) or not isinstance(b, (int, np.integer)) or b < 1 for b in bins):
            raise LittlestoneError(f"bins must be an integer ≥ 1 or one such integer per feature ({k}), got {bins!r}")
        if names is not None:
            names = list(names)
            if len(names) != k or len(set(names)) != k:
                raise LittlestoneError(f"names must be {k} distinct feature names, got {names!r}")
        if out_of_bounds not in OUT_OF_BOUNDS:
            raise LittlestoneError(f"out_of_bounds must be 'clip' or 'error', not {out_of_bounds!r}")
        self.names: tuple | None = None if names is None else tuple(names)
        self.bounds = tuple(pairs)
        self.bins = tuple(int(b) for b in bins)
        self.out_of_bounds = out_of_bounds
        # inner edges as Python floats (bisect per round), the same cut points as pac.grid.grid_edges
        self._edges = tuple(tuple(np.linspace(lo, hi, b + 1)[1:-1].tolist()) for (lo, hi), b in zip(pairs, self.bins))
        self._lows = tuple(lo for lo, _ in pairs)
        self._highs = tuple(hi for _, hi in pairs)
        self._get = None if self.names is None else itemgetter(*self.names)

    # ------------------------------------------------------------------------------------------ description
    @property
    def n_features(self) -> int:
        return len(self.bins)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.bins

    @property
    def n_cells(self) -> int:
        return math.prod(self.bins)

    def edges(self, j: int) -> tuple[float, ...]:
        """Feature j's inner cell edges (cell c holds edges[c−1] ≤ v < edges[c])."""
        return self._edges[j]

    def cell_bounds(self, j: int, c: int) -> tuple[float, float]:
        """The value range [low, high) of cell c of feature j (the declared bounds at the ends)."""
        e = (self.bounds[j][0], *self._edges[j], self.bounds[j][1])
        return e[c], e[c + 1]

    def feature_name(self, j: int) -> str:
        return f"x{j}" if self.names is None else str(self.names[j])

    def _key(self) -> tuple:
        return (self.names, self.bounds, self.bins, self.out_of_bounds)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FeatureGrid) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        feats = ", ".join(
            f"{self.feature_name(j)}: [{lo:g}, {hi:g}]/{b}"
            for j, ((lo, hi), b) in enumerate(zip(self.bounds, self.bins))
        )
        return f"FeatureGrid({feats}{'' if self.out_of_bounds == 'clip' else ', out_of_bounds=error'})"

    def __reduce__(self) -> Any:
        return (type(self), (self.bounds, self.bins, self.names, self.out_of_bounds))

    # ------------------------------------------------------------------------------------------ mapping
    def values(self, x: Any) -> Any:
        """The raw feature values of one example: the declared names' values of a river dict (a scalar for one
        feature, a tuple otherwise), or ``x`` itself (a tuple, list, array or, for one feature, a number)."""
        if type(x) is dict and self._get is not None:
            try:
                return self._get(x)
            except KeyError:
                pass  # the one-line error below
        elif type(x) is tuple:
            return x
        if isinstance(x, Mapping):
            if self._get is None:
                raise DomainError(
                    f"a feature dict {sorted(map(str, x))[:5]!r} but the grid has no feature names: declare them "
                    "with FeatureGrid({name: (low, high), …}) or names=…"
                )
            try:
                return self._get(x)
            except KeyError:
                missing = [n for n in self.names if n not in x]  # type: ignore[union-attr]
                raise DomainError(
                    f"feature {missing[0]!r} of the grid is not in the example's features {sorted(map(str, x))[:8]!r}"
                ) from None
        return x

    def cell(self, x: Any) -> int | tuple[int, ...]:
        """The class point of one example (river dict, tuple, list, array, or a number for one feature): its cell
        per feature — an int for a one-feature grid, a tuple of k ints otherwise."""
        v = self.values(x)
        k = len(self.bins)
        if self.out_of_bounds == "clip":  # fast path: Python numbers, all finite (a NaN or ±inf makes the sum one)
            if k == 1 and (type(v) is float or type(v) is int) and _finite(v):
                return bisect_right(self._edges[0], v)
            if type(v) is tuple and len(v) == k:
                for a in v:
                    if type(a) is not float and type(a) is not int:
                        break
                else:
                    if _finite(v):
                        return tuple([bisect_right(e, a) for e, a in zip(self._edges, v)])
        if k == 1:
            if isinstance(v, (tuple, list, np.ndarray)):
                if len(v) != 1:
                    raise DomainError(f"point {_short(v)} has {len(v)} features; the grid has 1")
                v = v[0]
            return self._cell(0, v)
        if isinstance(v, np.ndarray):
            v = v.tolist()
        if not isinstance(v, (tuple, list)) or len(v) != k:
            n = len(v) if isinstance(v, (tuple, list)) else 1
            raise DomainError(f"point {_short(v)} has {n} feature{'s' if n != 1 else ''}; the grid has {k}")
        return tuple([self._cell(j, v[j]) for j in range(k)])

    def _cell(self, j: int, v: Any) -> int:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise DomainError(f"{self._what(j)} is {_short(v)}, not a number")
        if isinstance(v, (int, np.integer)):
            v = min(max(int(v), -(2**1000)), 2**1000)  # beyond the floats: clipped like any value past the bounds
        elif not math.isfinite(v):
            raise DomainError(f"{self._what(j)} is {v!r}; the grid needs finite numbers")
        if self.out_of_bounds == "error" and not self._lows[j] <= v <= self._highs[j]:
            raise DomainError(
                f"{self._what(j)} = {_short(v)} is outside the declared bounds [{self._lows[j]:g}, {self._highs[j]:g}]"
            )
        return bisect_right(self._edges[j], v)  # values beyond the bounds land in the end cells: clipped

    def _what(self, j: int) -> str:
        return f"feature {j}" if self.names is None else f"feature {self.names[j]!r}"

    def cells(self, X: Any) -> np.ndarray:
        """The cells of many examples as an (n, k) int64 array: X a 2-D array / list of tuples, or a list of river
        dicts; the same rule as :meth:`cell` (vectorised for arrays)."""
        if isinstance(X, np.ndarray) and X.dtype.kind in "iuf":
            A = X.reshape(-1, 1) if X.ndim == 1 and len(self.bins) == 1 else X
            if A.ndim != 2 or A.shape[1] != len(self.bins):
                raise DomainError(f"X has shape {X.shape}; the grid has {len(self.bins)} features")
            A = A.astype(float, copy=False)
            bad = ~np.isfinite(A)
            if bad.any():
                i, j = np.argwhere(bad)[0]
                raise DomainError(f"row {i}: {self._what(int(j))} is {A[i, j]!r}; the grid needs finite numbers")
            if self.out_of_bounds == "error":
                out = (A < np.array(self._lows)) | (A > np.array(self._highs))
                if out.any():
                    i, j = np.argwhere(out)[0]
                    raise DomainError(
                        f"row {i}: {self._what(int(j))} = {A[i, j]!r} is outside the declared bounds "
                        f"[{self._lows[j]:g}, {self._highs[j]:g}]"
                    )
            cols = [
                np.searchsorted(np.asarray(e, dtype=float), A[:, j], side="right") for j, e in enumerate(self._edges)
            ]
            return np.stack(cols, axis=1).astype(np.int64)
        rows = [self.cell(x) for x in X]
        return np.array(rows, dtype=np.int64).reshape(len(rows), len(self.bins))

    def points(self, X: Any) -> list:
        """The class points of many examples (ints for one feature, tuples of ints otherwise)."""
        C = self.cells(X)
        return C[:, 0].tolist() if C.shape[1] == 1 else [tuple(r) for r in C.tolist()]

    def all_cells(self) -> np.ndarray:
        """Every cell of the grid as an (n_cells, k) array, in lexicographic order (the classes' column order)."""
        return np.indices(self.bins).reshape(len(self.bins), -1).T.astype(np.int64)

    # ------------------------------------------------------------------------------------------ inferring bounds
    @classmethod
    def infer(
        cls,
        X: Any,
        bins: int | Sequence[int] = 16,
        names: Sequence[Hashable] | None = None,
        out_of_bounds: str = "clip",
    ) -> "FeatureGrid":
        """A grid whose bounds are the data's min and max per feature — **read from the data**, which no privacy
        claim covers: warns with a :class:`~littlestone.errors.PrivacyLeakWarning` (as diffprivlib does when
        ``bounds`` are not given). Use it on public data only; declare the bounds otherwise."""
        if isinstance(X, Sequence) and len(X) and isinstance(X[0], Mapping):
            if names is None:
                names = list(X[0])
            A = np.array([[float(x[n]) for n in names] for x in X], dtype=float)
        else:
            A = np.asarray(X, dtype=float)
            A = A.reshape(-1, 1) if A.ndim == 1 else A
        if A.ndim != 2 or A.shape[0] == 0:
            raise LittlestoneError("FeatureGrid.infer needs a non-empty 2-D array or a list of feature dicts")
        warnings.warn(
            "FeatureGrid.infer reads the bounds of the grid from the data (min and max of each feature): they are not "
            "covered by any privacy claim and leak the data's range. Declare the bounds from public knowledge "
            "instead: FeatureGrid({name: (low, high), …}, bins=…)",
            PrivacyLeakWarning,
            stacklevel=2,
        )
        lows, highs = np.nanmin(A, axis=0), np.nanmax(A, axis=0)
        highs = np.where(highs > lows, highs, lows + 1.0)
        return cls(list(zip(lows.tolist(), highs.tolist())), bins, names, out_of_bounds)


def _finite(v: Any) -> bool:
    """A finite Python number, or a tuple of them (one sum: a NaN or ±inf makes it non-finite)."""
    try:
        return math.isfinite(sum(v) if type(v) is tuple else v)
    except OverflowError:  # an int beyond the floats (or a sum past them): the general path clips it
        return False


def _short(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


__all__ = ["FeatureGrid", "OUT_OF_BOUNDS"]
