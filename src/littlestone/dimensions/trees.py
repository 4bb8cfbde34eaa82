"""Mistake trees (BLM20 §3.2, Figure 1): binary trees whose internal nodes are domain points.

A root-to-leaf path is a labelled sequence (x_1, y_1), …, (x_d, y_d): y_i = 1 when the path goes to the child drawn on
the right ("one"), 0 for the left child ("zero") — the paper's ±1 with −1 ↦ 0. A tree is *shattered* by H when every
path is realized by some h ∈ H; Ldim(H) is the depth of the deepest complete shattered tree.

:class:`MistakeTree` is an explicit frozen value; :class:`LazyMistakeTree` expands its children on demand from a
version space (for witnesses too large to build, e.g. the depth-60 tree of ``Thresholds(2**60)``). Both share the
reading, drawing and path methods of :class:`TreeMethods`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterator

from ..classes.base import Hypothesis, Point, VersionSpace
from ..errors import LittlestoneError

Path = tuple[tuple[Point, int], ...]


class TreeMethods(ABC):
    """Behaviour shared by explicit and lazy mistake trees (needs ``point``, ``hypothesis``, ``child(y)``)."""

    point: Point | None
    hypothesis: Hypothesis | None

    @abstractmethod
    def child(self, y: int) -> "TreeMethods":
        """The subtree reached by label y (0 = left, 1 = right)."""

    @property
    def is_leaf(self) -> bool:
        return self.point is None

    @property
    def children(self) -> tuple["TreeMethods", "TreeMethods"] | None:
        """(label-0 child, label-1 child), or None at a leaf."""
        return None if self.is_leaf else (self.child(0), self.child(1))

    @property
    def depth(self) -> int:
        """Length of the longest root-to-leaf path (0 for a leaf)."""
        if self.is_leaf:
            return 0
        return 1 + max(self.child(0).depth, self.child(1).depth)

    def is_complete(self) -> bool:
        """Every leaf is at depth ``self.depth`` (the trees in the definition of Ldim are complete)."""
        return self._complete_to(self.depth)

    def _complete_to(self, d: int) -> bool:
        if self.is_leaf:
            return d == 0
        return d > 0 and self.child(0)._complete_to(d - 1) and self.child(1)._complete_to(d - 1)

    def n_leaves(self) -> int:
        return 1 if self.is_leaf else self.child(0).n_leaves() + self.child(1).n_leaves()

    def leaves(self, prefix: Path = ()) -> Iterator[tuple[Path, "TreeMethods"]]:
        """(path, leaf) for every leaf, left to right."""
        if self.is_leaf:
            yield prefix, self
            return
        for y in (0, 1):
            yield from self.child(y).leaves(prefix + ((self.point, y),))

    def paths(self) -> Iterator[Path]:
        """Every root-to-leaf path as a tuple of labelled examples (x_i, y_i), left to right."""
        for path, _ in self.leaves():
            yield path

    def follow(self, labels: Any) -> tuple[Path, "TreeMethods"]:
        """Walk from the root taking child labels[i] at depth i (stops at a leaf); returns (path, node reached)."""
        node, path = self, []
        for y in labels:
            if node.is_leaf:
                break
            path.append((node.point, int(y)))
            node = node.child(int(y))
        return tuple(path), node

    def to_text(self, max_depth: int | None = None) -> str:
        """ASCII drawing, root first, label-0 child above the label-1 child."""
        from .draw import tree_to_text

        return tree_to_text(self, max_depth=max_depth)

    def __str__(self) -> str:
        return self.to_text(max_depth=6)

    def to_png(
        self,
        path: Any,
        *,
        max_depth: int | None = 6,
        leaf_label: Any = None,
        title: str | None = None,
        point_label: Any = None,
    ) -> Any:
        """Draw the tree like a textbook figure (nodes = points, edges 0/1, leaves = a consistent hypothesis)."""
        from .draw import tree_to_png

        return tree_to_png(self, path, max_depth=max_depth, leaf_label=leaf_label, title=title, point_label=point_label)


@dataclass(frozen=True)
class MistakeTree(TreeMethods):
    """An explicit mistake tree: a leaf (``point`` None, optional consistent ``hypothesis``) or a node with a point and
    children ``zero`` (label 0, drawn left) and ``one`` (label 1, drawn right)."""

    point: Point | None = None
    zero: "MistakeTree | None" = None
    one: "MistakeTree | None" = None
    hypothesis: Hypothesis | None = None

    def __post_init__(self) -> None:
        if self.point is None:
            if self.zero is not None or self.one is not None:
                raise LittlestoneError("a mistake-tree leaf (point None) cannot have children")
        elif not (isinstance(self.zero, MistakeTree) and isinstance(self.one, MistakeTree)):
            raise LittlestoneError(f"mistake-tree node at point {self.point!r} needs two MistakeTree children")

    @classmethod
    def leaf(cls, hypothesis: Hypothesis | None = None) -> "MistakeTree":
        return cls(hypothesis=hypothesis)

    @classmethod
    def node(cls, point: Point, zero: "MistakeTree", one: "MistakeTree") -> "MistakeTree":
        return cls(point=point, zero=zero, one=one)

    def child(self, y: int) -> "MistakeTree":
        if self.is_leaf:
            raise LittlestoneError("a leaf has no children")
        return self.one if y else self.zero  # type: ignore[return-value]

    @cached_property
    def depth(self) -> int:  # type: ignore[override]
        return 0 if self.is_leaf else 1 + max(self.zero.depth, self.one.depth)  # type: ignore[union-attr]

    def replace_point(self, labels: Any, new_point: Point) -> "MistakeTree":
        """A copy with the node reached by following `labels` relabelled to `new_point` (used to corrupt witnesses)."""
        labels = list(labels)
        if not labels:
            if self.is_leaf:
                raise LittlestoneError("cannot give a point to a leaf")
            return MistakeTree(new_point, self.zero, self.one)
        y, rest = int(labels[0]), labels[1:]
        if y:
            return MistakeTree(self.point, self.zero, self.one.replace_point(rest, new_point))  # type: ignore[union-attr]
        return MistakeTree(self.point, self.zero.replace_point(rest, new_point), self.one)  # type: ignore[union-attr]


class LazyMistakeTree(TreeMethods):
    """A complete tree of depth ``depth`` shattered by the version space V, expanded on demand: the root is
    ``V.split_point()`` (both children keep Ldim ≥ depth − 1), children are the restricted version spaces."""

    __slots__ = ("version_space", "_depth", "_point", "_children")

    def __init__(self, version_space: VersionSpace, depth: int):
        if depth < 0:
            raise LittlestoneError(f"tree depth must be ≥ 0, got {depth}")
        self.version_space = version_space
        self._depth = int(depth)
        self._point: Any = ... if depth > 0 else None
        self._children: tuple["LazyMistakeTree", "LazyMistakeTree"] | None = None

    @property
    def point(self) -> Point | None:  # type: ignore[override]
        if self._point is ...:
            x = self.version_space.split_point()
            if x is None:
                raise LittlestoneError(f"version space has Ldim < {self._depth}: no tree of that depth")
            self._point = x
        return self._point

    @property
    def hypothesis(self) -> Hypothesis | None:  # type: ignore[override]
        if self._depth:
            return None
        try:
            return next(iter(self.version_space.hypotheses()))
        except (TypeError, StopIteration):
            return None

    @property
    def is_leaf(self) -> bool:
        return self._depth == 0

    @property
    def depth(self) -> int:  # type: ignore[override]
        return self._depth

    def is_complete(self) -> bool:
        return True  # by construction (every child has depth − 1)

    def child(self, y: int) -> "LazyMistakeTree":
        if self._depth == 0:
            raise LittlestoneError("a leaf has no children")
        if self._children is None:
            x = self.point
            V = self.version_space
            self._children = (
                LazyMistakeTree(V.restrict(x, 0), self._depth - 1),
                LazyMistakeTree(V.restrict(x, 1), self._depth - 1),
            )
        return self._children[1 if y else 0]

    def materialize(self) -> MistakeTree:
        """The explicit :class:`MistakeTree` (2^depth leaves: only for small depths)."""
        if self._depth > 22:
            raise LittlestoneError(f"refusing to build a tree with 2^{self._depth} leaves explicitly")
        if self._depth == 0:
            return MistakeTree.leaf(self.hypothesis)
        return MistakeTree.node(self.point, self.child(0).materialize(), self.child(1).materialize())

    def n_leaves(self) -> int:
        return 1 << self._depth

    def __repr__(self) -> str:
        return f"LazyMistakeTree(depth={self._depth}, version_space={self.version_space!r})"
