"""Online prediction from experts (OPE), private and not (LWY25 §E.3, Thms E.11–E.12).

Thm E.11 (adaptive, (ε, δ), quoting JT14): :class:`PrivateHedge` attains its rate √(T ln(1/δ)) ln N/ε with the
constant √8. Thm E.12 (oblivious, quoting AKLT24's L2P): not implemented — :class:`BatchedPrivateHedge` is the
oblivious stand-in with its own proven bound. :class:`TreeAggregationHedge` is AS17's ε-DP private FTRL with the
bound we can prove. The quoted and proven bounds side by side: :mod:`littlestone.bounds.private_experts`.

  base.py           the protocol (predict_one / learn_one / run over a loss matrix or chunks), ExpertsRun, claims
  hedge.py          non-private Hedge (the baseline)
  private_hedge.py  exponential weights at a privacy-calibrated rate: (ε, δ)-DP, adaptive adversaries (Thm E.11's rate)
  tree_hedge.py     tree-based aggregation + entropic regularized leader: ε-DP, adaptive adversaries
  batched_hedge.py  batched private Hedge (exponential mechanism per batch): (ε, δ)-DP, oblivious adversaries
  classifier.py     any of them as a river-style classifier over a finite set of hypotheses (ExpertsClassifier)
"""

from .base import ExpertsLearner, ExpertsRun, PrivacyClaim
from .classifier import ExpertsClassifier
from .batched_hedge import BatchedPrivateHedge, batched_hedge_bound, theory_batch
from .hedge import Hedge
from .private_hedge import PrivateHedge, private_hedge_bound, private_hedge_eta, private_hedge_privacy
from .tree_hedge import TreeAggregationHedge, theory_block, tree_hedge_bound

__all__ = [
    "BatchedPrivateHedge",
    "ExpertsClassifier",
    "ExpertsLearner",
    "ExpertsRun",
    "Hedge",
    "PrivacyClaim",
    "PrivateHedge",
    "TreeAggregationHedge",
    "batched_hedge_bound",
    "private_hedge_bound",
    "private_hedge_eta",
    "private_hedge_privacy",
    "theory_batch",
    "theory_block",
    "tree_hedge_bound",
]
