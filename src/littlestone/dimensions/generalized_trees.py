"""Generalized trees (GGKM21 Def 4.4): nodes labelled by tuples of points, edges by the rows of a reducing array.

A non-leaf node v carries points (x_{v,1}, …, x_{v,k_v}) and has k_v + 1 children; the edge to child j carries the
row Y_{v,j} of a depth-k_v reducing array (:class:`~littlestone.dimensions.irreducibility.ReducingArray`). The
*ancestor set* S(v) collects, along the root path, the pairs (x_{u,i}, Y[i]) of every edge; the *height* of v sums
the row lengths along its path (duplicates counted). Drawn by expanding every node into its caterpillar (GGKM21
proof of Lemma 4.6): a binary mistake tree printed and drawn like the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ..classes.base import Hypothesis, Point
from ..errors import LittlestoneError
from .trees import MistakeTree

Examples = tuple[tuple[Point, int], ...]


@dataclass
class GeneralizedTree:
    """A node: ``points`` (None at a leaf), ``rows`` (one per child) and ``children``; ``hypothesis`` labels a leaf."""

    points: tuple | None = None
    rows: tuple[tuple[int, ...], ...] = ()
    children: list["GeneralizedTree"] = field(default_factory=list)
    hypothesis: Hypothesis | None = None

    @property
    def is_leaf(self) -> bool:
        return self.points is None

    def expand(self, points: tuple, rows: tuple[tuple[int, ...], ...]) -> list["GeneralizedTree"]:
        """Label this leaf with ``points`` and give it one new leaf per row; returns the new leaves."""
        if not self.is_leaf:
            raise LittlestoneError("only a leaf of a generalized tree can be expanded")
        k = len(points)
        if len(rows) != k + 1:
            raise LittlestoneError(f"a node with {k} points needs {k + 1} rows, got {len(rows)}")
        self.points, self.rows = tuple(points), tuple(tuple(r) for r in rows)
        self.children = [GeneralizedTree() for _ in rows]
        return list(self.children)

    def leaves(self, prefix: Examples = ()) -> Iterator[tuple[Examples, "GeneralizedTree"]]:
        """(ancestor set S(v) as the ordered examples of the root path, leaf v) for every leaf, left to right."""
        if self.is_leaf:
            yield prefix, self
            return
        for row, child in zip(self.rows, self.children):
            yield from child.leaves(prefix + tuple(zip(self.points or (), row)))

    @staticmethod
    def ancestor_set(path: Examples) -> frozenset:
        """S(v) as a set of labelled examples."""
        return frozenset(path)

    def height(self) -> int:
        """max over leaves of Σ |Y| along the root path (GGKM21 Def 4.4)."""
        if self.is_leaf:
            return 0
        return max(len(r) + c.height() for r, c in zip(self.rows, self.children))

    def n_leaves(self) -> int:
        return 1 if self.is_leaf else sum(c.n_leaves() for c in self.children)

    def n_nodes(self) -> int:
        return 1 if self.is_leaf else 1 + sum(c.n_nodes() for c in self.children)

    def to_mistake_tree(self) -> MistakeTree:
        """The binary tree obtained by expanding every node into its caterpillar (off-spine label at x_j → child j)."""
        if self.is_leaf:
            return MistakeTree.leaf(self.hypothesis)
        points = self.points or ()
        k = len(points)
        spine = self.rows[k]
        sub = [c.to_mistake_tree() for c in self.children]
        node = sub[k]  # the spine's child, below x_k
        for j in range(k - 1, -1, -1):
            on, off = node, sub[j]
            zero, one = (on, off) if spine[j] == 0 else (off, on)
            node = MistakeTree.node(points[j], zero, one)
        return node

    def to_text(self, max_depth: int | None = None) -> str:
        """ASCII drawing of the caterpillar expansion (header: nodes, leaves, height)."""
        head = (
            f"generalized tree: {self.n_nodes() - self.n_leaves()} internal nodes, {self.n_leaves()} leaves, "
            f"height {self.height()}"
        )
        return head + "\n" + self.to_mistake_tree().to_text(max_depth=max_depth)

    def __str__(self) -> str:
        return self.to_text(max_depth=8)

    def to_png(self, path: Any, *, max_depth: int | None = 8, title: str | None = None) -> Any:
        """PNG of the caterpillar expansion (see :meth:`MistakeTree.to_png`)."""
        return self.to_mistake_tree().to_png(path, max_depth=max_depth, title=title)
