"""Combinatorial dimensions: exact Littlestone dimension with shattered-tree witnesses, mistake trees (text / PNG),
VC dimension, dual dimensions and the threshold dimension."""

from .dual import dual_class, dual_ldim, dual_vc_dim
from .generalized_trees import GeneralizedTree
from .irreducibility import (
    ReducingArray,
    check_reducing_array,
    dominant_label,
    irreducibility,
    is_irreducible,
    reducing_array,
)
from .ldim import ldim, ldim_mask
from .naive import naive_ldim
from .shattering import is_shattered
from .threshold_dim import threshold_dim
from .trees import LazyMistakeTree, MistakeTree
from .vc import is_vc_shattered, vc_dim

__all__ = [
    "ldim",
    "ldim_mask",
    "naive_ldim",
    "is_shattered",
    "MistakeTree",
    "LazyMistakeTree",
    "vc_dim",
    "is_vc_shattered",
    "dual_class",
    "dual_ldim",
    "dual_vc_dim",
    "threshold_dim",
    "GeneralizedTree",
    "ReducingArray",
    "check_reducing_array",
    "dominant_label",
    "irreducibility",
    "is_irreducible",
    "reducing_array",
]
