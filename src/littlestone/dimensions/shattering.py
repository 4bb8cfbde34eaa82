"""Checking that a mistake tree is shattered by a class (BLM20 §3.2): every root-to-leaf path is realized."""

from __future__ import annotations

from typing import Any

from .._random import SeedLike, as_generator
from ..classes.base import VersionSpace
from ..errors import LittlestoneError
from ..classes.resolve import as_version_space
from .trees import TreeMethods

#: exhaustive checks visit every leaf; beyond this many, ask for a sampled check
MAX_EXHAUSTIVE_LEAVES = 1 << 22


def is_shattered(tree: TreeMethods, H: Any, *, sample: int | None = None, seed: SeedLike = None) -> bool:
    """True iff ``tree`` is complete to its depth and every root-to-leaf path (x_1,y_1)…(x_d,y_d) is realized by
    some h ∈ H, i.e. the version space restricted along the path is nonempty (BLM20 §3.2).

    ``H`` is a hypothesis class, a version space or a 0/1 matrix. The default check is exhaustive (up to
    2^22 leaves). For larger trees (e.g. the depth-60 witness of ``Thresholds(2**60)``) pass ``sample=k``: the
    leftmost, the rightmost and k random paths (from ``seed``) are checked — a Monte-Carlo test, exact only in the
    exhaustive mode. Points outside the domain raise :class:`~littlestone.errors.DomainError`.
    """
    if not isinstance(tree, TreeMethods):
        raise LittlestoneError(
            f"is_shattered needs a mistake tree (MistakeTree or LazyMistakeTree, e.g. from "
            f"ldim(H, witness=True)), got {type(tree).__name__}"
        )
    V = as_version_space(H)
    depth = tree.depth
    if sample is None:
        if depth >= 0 and (1 << depth) > MAX_EXHAUSTIVE_LEAVES:
            raise LittlestoneError(
                f"the tree has 2^{depth} leaves, too many to check exhaustively; "
                f"pass sample=k to check k random root-to-leaf paths"
            )
        return _check(tree, V, depth)
    if sample < 0:
        raise LittlestoneError(f"sample must be a nonnegative number of paths, got {sample}")
    rng = as_generator(seed)
    walks = [[0] * depth, [1] * depth] + rng.integers(0, 2, size=(int(sample), depth)).tolist()
    return all(_check_path(tree, V, labels) for labels in walks)


def _check(node: TreeMethods, V: VersionSpace, d: int) -> bool:
    if V.is_empty():
        return False
    if d == 0:
        return node.is_leaf
    if node.is_leaf:
        return False
    x = V.hclass.validate_point(node.point)
    return _check(node.child(0), V.restrict(x, 0), d - 1) and _check(node.child(1), V.restrict(x, 1), d - 1)


def _check_path(tree: TreeMethods, V: VersionSpace, labels: list[int]) -> bool:
    node = tree
    for y in labels:
        if node.is_leaf:
            return False  # a leaf above the tree's depth: not complete
        x = V.hclass.validate_point(node.point)
        V = V.restrict(x, y)
        if V.is_empty():
            return False
        node = node.child(y)
    return node.is_leaf and not V.is_empty()
