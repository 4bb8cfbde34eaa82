"""Dual classes and their dimensions: the dual of H ⊆ {0,1}^X is {h ↦ h(x) : x ∈ X} over domain H."""

from __future__ import annotations

from typing import Any

from ..classes.finite import FiniteClass
from ._inputs import as_finite_class, closed_form
from .ldim import ldim
from .vc import MAX_NODES, vc_dim


def dual_class(H: Any) -> FiniteClass:
    """The dual class as a FiniteClass: the transpose of H's matrix (domain = H's hypotheses, numbered by row;
    points of X with identical columns give one dual hypothesis)."""
    cls = as_finite_class(H)
    return FiniteClass(cls.matrix.T, name=f"dual({cls.name})")


def dual_ldim(H: Any) -> int:
    """Littlestone dimension of the dual class (finite iff Ldim(H) is; Bhaskar 2017). Closed form for
    classes that provide ``dual_closed_form`` (any domain size), else exact on the explicit dual."""
    known = closed_form(H, "dual_closed_form")
    if known is not None:
        return int(known[0])
    return int(ldim(dual_class(H)))  # type: ignore[arg-type]


def dual_vc_dim(H: Any, *, max_nodes: int | None = MAX_NODES) -> int:
    """VC dimension of the dual class (Assouad 1983: dual VC < 2^(VC+1)); closed form when known, else the exact
    search of :func:`~littlestone.dimensions.vc.vc_dim` on the explicit dual, capped at ``max_nodes``."""
    known = closed_form(H, "dual_closed_form")
    if known is not None:
        return int(known[1])
    return int(vc_dim(dual_class(H), max_nodes=max_nodes))  # type: ignore[arg-type]
