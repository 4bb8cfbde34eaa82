"""Text and PNG drawings of mistake trees, in the style of BLM20 Figure 1 (points at nodes, 0/1 on edges,
a consistent hypothesis under each leaf)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

from ..classes.base import Hypothesis


def describe_point(x: Any) -> str:
    """A short label for a point: tuples of digits written as a word (``(0, 1, 1)`` → ``011``), strings bare."""
    if isinstance(x, tuple) and x and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9 for v in x):
        return "".join(str(v) for v in x)
    return x if isinstance(x, str) else repr(x)


def _short(h: Hypothesis, ascii_only: bool) -> str:
    """Textbook-style label of a hypothesis of the library's classes (repr for anything else)."""
    kind = type(h).__name__
    empty, land, lnot, ge = ("{}", "&", "~", ">=") if ascii_only else ("∅", "∧", "¬", "≥")
    values = getattr(h, "values", None)
    if isinstance(values, bytes):
        return "".join(str(b) for b in values)
    if kind == "Threshold":
        return f"x{ge}{getattr(h, 't')}"
    if kind == "IntervalUnion":
        ivs = getattr(h, "intervals")
        return empty if not ivs else ("u" if ascii_only else "∪").join(f"[{a},{b}]" for a, b in ivs)
    if kind == "Conjunction":
        lits = getattr(h, "literals")
        if lits is None:
            return "false" if ascii_only else "⊥"
        if not lits:
            return "true" if ascii_only else "⊤"
        return land.join(f"{'' if v else lnot}x{i}" for i, v in lits)
    if kind == "FiniteSet":
        pts = getattr(h, "points")
        return empty if not pts else "{" + ",".join(describe_point(p) for p in pts) + "}"
    if kind == "CofiniteSet":
        pts = getattr(h, "points")
        return "1" if not pts else f"{lnot}" + "{" + ",".join(describe_point(p) for p in pts) + "}"
    if kind == "AffineFlat":
        off, basis = getattr(h, "offset"), getattr(h, "basis")
        if not basis:
            return "{" + describe_point(off) + "}"
        span = ",".join(describe_point(b) for b in basis)
        return f"{describe_point(off)}+<{span}>" if ascii_only else f"{describe_point(off)}+⟨{span}⟩"
    if kind == "PatchedHypothesis":
        base, patches = getattr(h, "base"), getattr(h, "patches")
        return _short(base, ascii_only) + "|" + ",".join(f"{describe_point(x)}:{y}" for x, y in patches)
    return repr(h)


def describe_hypothesis(h: Hypothesis | None, width: int = 24, ascii_only: bool = False) -> str:
    """A short label for a hypothesis: the value vector of a finite-class row, ``x≥t`` for a threshold, ``[a,b]``
    for an interval, ``x0∧¬x1`` for a conjunction, ``{p}`` / ``¬{p}`` for (negated) point functions, else repr."""
    if h is None:
        return ""
    s = _short(h, ascii_only)
    if len(s) <= width:
        return s
    return s[: width - 3] + "..." if ascii_only else s[: width - 1] + "…"


def _visible_len(label: str) -> int:
    """Printed width of a label, ignoring mathtext markup such as ``$t_{8}$``."""
    return len(re.sub(r"[$\\{}_^]", "", label))


def _labeller(f: Any, default: Callable[[Any], str]) -> Callable[[Any], str]:
    if f is None:
        return default
    if callable(f):
        return lambda v: str(f(v))
    if isinstance(f, dict):
        return lambda v: str(f.get(v, default(v)))
    raise TypeError("labels must be given as a callable or a dict")


def tree_to_text(tree: Any, max_depth: int | None = None, leaf_label: Any = None, point_label: Any = None) -> str:
    """ASCII drawing: one node per line, ``+-0-`` to the label-0 child, ``` `-1- ``` to the label-1 child."""
    leaf_text = _labeller(leaf_label, lambda h: describe_hypothesis(h, ascii_only=True))
    point_text = _labeller(point_label, describe_point)
    lines: list[str] = []

    def node_text(node: Any) -> str:
        if node.is_leaf:
            h = leaf_text(node.hypothesis)
            return f"* {h}" if h else "*"
        return f"[{point_text(node.point)}]"

    def walk(node: Any, prefix: str, level: int) -> None:
        if node.is_leaf:
            return
        for y, branch, cont in ((0, "+-0- ", "|    "), (1, "`-1- ", "     ")):
            c = node.child(y)
            if max_depth is not None and level + 1 > max_depth and not c.is_leaf:
                lines.append(prefix + branch + f"... (subtree of depth {c.depth})")
                continue
            lines.append(prefix + branch + node_text(c))
            walk(c, prefix + cont, level + 1)

    lines.append(node_text(tree))
    if max_depth is None or max_depth > 0 or tree.is_leaf:
        walk(tree, "", 0)
    else:
        lines.append(f"... (subtree of depth {tree.depth})")
    return "\n".join(lines)


def tree_to_png(
    tree: Any,
    path: Any,
    *,
    max_depth: int | None = 6,
    leaf_label: Any = None,
    title: str | None = None,
    point_label: Any = None,
) -> str:
    """Draw the tree with matplotlib (Agg) into ``path`` (PNG); subtrees below ``max_depth`` are drawn as "…"."""
    from matplotlib.figure import Figure  # no pyplot: no global state, Agg canvas for PNG

    leaf_text = _labeller(leaf_label, describe_hypothesis)
    point_text = _labeller(point_label, describe_point)

    # layout: visible leaves (true leaves or cut subtrees) evenly spaced; a node sits above the middle of its children
    nodes: list[tuple[float, int, str, Any]] = []  # (x, level, kind, payload)
    edges: list[tuple[float, int, float, int, int]] = []
    counter = [0]

    def place(node: Any, level: int) -> float:
        if node.is_leaf:
            x = float(counter[0])
            counter[0] += 1
            nodes.append((x, level, "leaf", leaf_text(node.hypothesis)))
            return x
        if max_depth is not None and level >= max_depth:
            x = float(counter[0])
            counter[0] += 1
            nodes.append((x, level, "cut", node.depth))
            return x
        x0 = place(node.child(0), level + 1)
        x1 = place(node.child(1), level + 1)
        x = (x0 + x1) / 2
        nodes.append((x, level, "node", point_text(node.point)))
        edges.append((x, level, x0, level + 1, 0))
        edges.append((x, level, x1, level + 1, 1))
        return x

    place(tree, 0)
    n_cols = max(counter[0], 1)
    levels = max(lv for _, lv, _, _ in nodes) + 1
    longest_leaf = max((_visible_len(p) for _, _, k, p in nodes if k == "leaf"), default=0)
    longest_point = max((_visible_len(p) for _, _, k, p in nodes if k == "node"), default=1)
    col_width = max(0.75, 0.1 * longest_point + 0.35) if longest_point > 3 else 0.75
    # leaf labels stay horizontal (widening the columns a little) unless they are too long for that
    col_width = max(col_width, min(0.085 * longest_leaf + 0.15, 1.0))
    rotate = 0.085 * longest_leaf + 0.05 > col_width and n_cols > 1
    width = min(max(3.0, col_width * n_cols + 1.0), 80.0)
    height = 1.0 * levels + (0.12 * longest_leaf if rotate else 0.6) + 0.8
    fig = Figure(figsize=(width, height))
    ax = fig.subplots()
    y_of = lambda level: -float(level)  # noqa: E731

    for xa, la, xb, lb, lab in edges:
        ax.plot([xa, xb], [y_of(la), y_of(lb)], color="black", lw=1.0, zorder=1)
        xm, ym = (xa + xb) / 2, (y_of(la) + y_of(lb)) / 2
        ax.text(
            xm + (-0.12 if lab == 0 else 0.12),
            ym + 0.05,
            str(lab),
            ha="right" if lab == 0 else "left",
            va="bottom",
            fontsize=10,
            style="italic",
            color="#333333",
        )
    for x, level, kind, payload in nodes:
        y = y_of(level)
        if kind == "node":
            shape = "circle,pad=0.35" if _visible_len(payload) <= 3 else "round,pad=0.35"
            ax.text(
                x,
                y,
                payload,
                ha="center",
                va="center",
                fontsize=11,
                zorder=3,
                bbox=dict(boxstyle=shape, facecolor="white", edgecolor="black", lw=1.2),
            )
        elif kind == "leaf":
            ax.plot([x], [y], marker="o", markersize=4, color="black", zorder=3)
            if payload:
                ax.text(
                    x,
                    y - 0.15,
                    payload,
                    ha="center",
                    va="top",
                    fontsize=9,
                    zorder=3,
                    rotation=90 if rotate else 0,
                    family="monospace",
                    bbox=dict(boxstyle="round,pad=0.2", facecolor="#f3f3f3", edgecolor="#999999", lw=0.6),
                )
        else:
            ax.plot([x - 0.25, x, x + 0.25, x - 0.25], [y - 0.45, y, y - 0.45, y - 0.45], color="gray", lw=0.8)
            ax.text(x, y - 0.5, f"depth {payload}", ha="center", va="top", fontsize=7, color="gray")
    ax.set_xlim(-0.8, n_cols - 0.2)
    bottom = -(levels - 1) - (0.25 + 0.09 * longest_leaf if rotate else 0.7)
    ax.set_ylim(bottom, 0.6)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=12)
    fig.tight_layout()
    from ..io import atomic_savefig  # temporary sibling + os.replace; OutputError naming the file on failure

    atomic_savefig(fig, path, format="png", dpi=120)
    return os.fspath(path)
