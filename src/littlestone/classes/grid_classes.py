"""Classes over the cells of a public :class:`~littlestone.classes.feature_grid.FeatureGrid` (issue 33): decision
stumps over k features and axis-aligned boxes. Both are explicit finite classes (:class:`FiniteClass`: bitset version
spaces, exact Ldim, SOA, disagreement points, hashable hypotheses) whose points are the grid's cells — ints for one
feature, tuples of k ints otherwise, in the lexicographic order of :meth:`FeatureGrid.all_cells` — and they carry the
grid as ``H.grid``: a private online learner given such a class reads raw feature tuples or river dicts and maps them
to cells with the grid (:class:`~littlestone.private_online.base.PrivateOnlineLearner`). ``H.describe(h)`` names a
hypothesis in the features' terms.

* :func:`grid_stumps_on` — 1[c_f ≥ t] and 1[c_f < t] for every feature f and t = 0 … bins_f (t = 0 and t = bins_f
  give the two constants, kept once): 2·Σ_f (bins_f − 1) + 2 distinct functions (the class of
  :func:`littlestone.pac.grid.grid_stumps` on a grid with per-feature bins and names).
* :class:`GridBoxes` — the empty set and every box Π_f [a_f, b_f] of cells (0 ≤ a_f ≤ b_f < bins_f):
  1 + Π_f bins_f(bins_f + 1)/2 functions. With one feature it is the class of intervals on bins_1 points
  (:class:`~littlestone.classes.Intervals`), whose Ldim it shares; its Ldim in general is computed exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import LittlestoneError
from .base import Hypothesis
from .feature_grid import FeatureGrid
from .finite import FiniteClass

#: the largest grid (cells) and matrix (hypotheses × cells) these explicit classes build
MAX_CELLS = 1 << 16
MAX_MATRIX = 1 << 26


def _check_grid(grid: Any) -> FeatureGrid:
    if not isinstance(grid, FeatureGrid):
        raise LittlestoneError(f"a grid class needs a FeatureGrid, got {type(grid).__name__}")
    if grid.n_cells > MAX_CELLS:
        raise LittlestoneError(
            f"a grid of {grid.n_cells:,} cells ({'×'.join(map(str, grid.bins))}) is too large for an explicit class "
            f"(at most {MAX_CELLS:,}): use fewer bins"
        )
    return grid


def _cell_points(grid: FeatureGrid, cells: np.ndarray) -> list | None:
    return None if grid.n_features == 1 else [tuple(r) for r in cells.tolist()]


class GridClass(FiniteClass):
    """A finite class on the cells of a grid, carrying the grid and a name for each hypothesis."""

    grid: FeatureGrid

    def __init__(self, grid: FeatureGrid, rows: np.ndarray, descriptions: list[str], name: str):
        cells = grid.all_cells()
        super().__init__(rows, points=_cell_points(grid, cells), name=name)
        self.grid = grid
        self._names: dict[bytes, str] = {}
        for r, d in zip(rows, descriptions):
            self._names.setdefault(np.asarray(r, dtype=np.uint8).tobytes(), d)

    def describe(self, h: Hypothesis) -> str:
        """h in the features' terms (e.g. ``"age ≥ cell 3 [30, 40)"`` or ``"age in cells 2–4, income in cells 0–1"``)."""
        values = getattr(h, "values", None)
        name = self._names.get(values) if isinstance(values, bytes) else None
        return name if name is not None else repr(h)

    def __reduce__(self) -> Any:
        return (type(self), (self.grid,))


class GridStumps(GridClass):
    """Decision stumps over the k features of a grid: 1[c_f ≥ t] and 1[c_f < t], t = 0 … bins_f."""

    def __init__(self, grid: FeatureGrid):
        grid = _check_grid(grid)
        cells = grid.all_cells()
        rows: list[np.ndarray] = []
        desc: list[str] = []
        for f, b in enumerate(grid.bins):
            name = grid.feature_name(f)
            for t in range(b + 1):
                above = (cells[:, f] >= t).astype(np.uint8)
                rows.extend((above, 1 - above))
                if t in (0, b):  # the constants (every feature has them; the class keeps them once)
                    desc.extend(("constant 1", "constant 0") if t == 0 else ("constant 0", "constant 1"))
                    continue
                lo = grid.cell_bounds(f, t)[0]
                desc.extend((f"{name} ≥ {lo:g} (cell ≥ {t})", f"{name} < {lo:g} (cell < {t})"))
        shape = "×".join(map(str, grid.bins))
        super().__init__(grid, np.array(rows, dtype=np.uint8), desc, f"stumps on a {shape} grid")


class GridBoxes(GridClass):
    """Axis-aligned boxes Π_f [a_f, b_f] of grid cells, and the empty set (1 + Π_f bins_f(bins_f + 1)/2 functions)."""

    def __init__(self, grid: FeatureGrid):
        grid = _check_grid(grid)
        n_hyp = 1 + int(np.prod([b * (b + 1) // 2 for b in grid.bins], dtype=object))
        if n_hyp * grid.n_cells > MAX_MATRIX:
            raise LittlestoneError(
                f"boxes on a {'×'.join(map(str, grid.bins))} grid: {n_hyp:,} hypotheses × {grid.n_cells:,} cells is "
                f"more than the {MAX_MATRIX:,} an explicit class holds: use fewer bins"
            )
        cells = grid.all_cells()
        M = np.ones((1, grid.n_cells), dtype=np.uint8)
        desc = [""]
        for f, b in enumerate(grid.bins):
            ivals = [(a, c) for a in range(b) for c in range(a, b)]
            member = np.array([(cells[:, f] >= a) & (cells[:, f] <= c) for a, c in ivals], dtype=np.uint8)
            M = (M[:, None, :] & member[None, :, :]).reshape(-1, grid.n_cells)
            name = grid.feature_name(f)
            sep = ", " if f else ""
            desc = [f"{d}{sep}{name} in cells {a}–{c}" for d in desc for a, c in ivals]
        rows = np.vstack([np.zeros((1, grid.n_cells), dtype=np.uint8), M])
        shape = "×".join(map(str, grid.bins))
        super().__init__(grid, rows, ["empty box", *desc], f"boxes on a {shape} grid")


def grid_stumps_on(grid: FeatureGrid) -> GridStumps:
    """Decision stumps over the features of ``grid`` (the class carries the grid: learners read raw points)."""
    return GridStumps(grid)


def grid_boxes(grid: FeatureGrid) -> GridBoxes:
    """Axis-aligned boxes on the cells of ``grid`` (the class carries the grid: learners read raw points)."""
    return GridBoxes(grid)


__all__ = ["GridBoxes", "GridClass", "GridStumps", "MAX_CELLS", "grid_boxes", "grid_stumps_on"]
