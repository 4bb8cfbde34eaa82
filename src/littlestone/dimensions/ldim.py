"""Littlestone dimension (Lit88) of any class, version space, class spec or 0/1 matrix.

Explicit finite classes use the bitset decision search that lives with them
(:mod:`littlestone.classes.finite_ldim`, re-exported here); structured classes their closed-form ``V.ldim()``.
"""

from __future__ import annotations

from typing import Any

from ..classes.finite_ldim import FiniteLdimSolver, Split, ldim_mask, solver_for

__all__ = ["FiniteLdimSolver", "Split", "ldim", "ldim_mask", "solver_for"]


def ldim(H: Any, witness: bool = False) -> int | tuple[int, Any]:
    """Littlestone dimension of a class, a version space, a class spec ("thresholds:100") or a 0/1 matrix (Ldim(∅) = −1).

    Finite classes use the bitset decision search of :mod:`littlestone.classes.finite_ldim`; structured classes their
    closed-form ``V.ldim()``. With ``witness=True`` returns ``(d, tree)``: a complete mistake tree of depth d shattered
    by H (``None`` for an empty version space) — check it with :func:`~littlestone.dimensions.is_shattered`.
    """
    from ..classes.finite import FiniteVersionSpace
    from ..classes.resolve import as_version_space
    from .witness import witness_tree

    V = as_version_space(H)
    d = ldim_mask(V.hclass, V.mask) if isinstance(V, FiniteVersionSpace) else int(V.ldim())
    if not witness:
        return d
    return d, (None if d < 0 else witness_tree(V, d))
