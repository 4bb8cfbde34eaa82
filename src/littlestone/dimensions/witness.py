"""Witnesses of the Littlestone dimension: a complete mistake tree of depth Ldim(V) shattered by V (BLM20 §3.2)."""

from __future__ import annotations

from ..classes.base import VersionSpace
from ..classes.finite import FiniteClass, FiniteVersionSpace
from ..errors import LittlestoneError
from .ldim import Split, solver_for
from .trees import LazyMistakeTree, MistakeTree, TreeMethods

#: structured classes get an explicit tree up to this depth, a lazily expanded one beyond
EXPLICIT_DEPTH_LIMIT = 12


def finite_witness(cls: FiniteClass, mask: int, d: int) -> MistakeTree:
    """A complete depth-d tree shattered by the rows `mask` (they must have Ldim ≥ d); leaves carry a row of V."""
    solver = solver_for(cls)
    c0, c1 = cls.col_masks
    points = cls.domain.points

    def build(m: int, k: int, parent: list[Split] | None) -> MistakeTree:
        if k == 0:
            return MistakeTree.leaf(cls.hypothesis((m & -m).bit_length() - 1))
        found = solver.split(m, k, parent)
        if found is None:
            raise LittlestoneError(f"version space has Ldim < {k}: no shattered tree of that depth")
        j, child_parent = found
        return MistakeTree.node(points[j], build(m & c0[j], k - 1, child_parent), build(m & c1[j], k - 1, child_parent))

    return build(mask, d, None)


def witness_tree(V: VersionSpace, d: int) -> TreeMethods:
    """A complete depth-d tree shattered by V (d ≤ Ldim(V)): explicit for finite classes and small depths, otherwise
    a :class:`LazyMistakeTree` built by ``V.split_point()`` recursion."""
    if d < 0:
        raise LittlestoneError("an empty version space (Ldim −1) has no witness tree")
    if isinstance(V, FiniteVersionSpace):
        return finite_witness(V.hclass, V.mask, d)
    lazy = LazyMistakeTree(V, d)
    return lazy.materialize() if d <= EXPLICIT_DEPTH_LIMIT else lazy
