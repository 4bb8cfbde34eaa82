"""Private agnostic online learning of Littlestone classes (LWY25 §4, App. E).

algorithm3.py           Algorithm 3: batches, a sanitizer for H^label, B subsequences of a proper learner
algorithm3_thresholds.py  Algorithm 3 on thresholds over huge domains (2^60): structured sanitizer, closed-form A
constructed_experts.py  Algorithms 6–7 (constructed experts, the set J) and the Thm E.10 learner over private OPE
baselines.py            non-private baselines: Ben-David–Pál–Shalev-Shwartz SOA experts, Hedge over H
"""

from ..bounds.lwy25_agnostic import corollary43_batch_size, theorem41_bound, theory_batch_size
from .algorithm3 import Algorithm3
from .algorithm3_thresholds import ThresholdsAlgorithm3
from .baselines import bdps_soa_experts, best_in_class, experts_over_class
from .constructed_experts import ConstructedExpertsLearner, ExpertTrie, SOAMajorityLearner, expert_predictions

__all__ = [
    "Algorithm3",
    "ConstructedExpertsLearner",
    "ExpertTrie",
    "SOAMajorityLearner",
    "bdps_soa_experts",
    "best_in_class",
    "corollary43_batch_size",
    "expert_predictions",
    "experts_over_class",
    "theorem41_bound",
    "theory_batch_size",
    "ThresholdsAlgorithm3",
]
