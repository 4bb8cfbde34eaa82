"""Private agnostic online learning of Littlestone classes (LWY25 §4, App. E).

  algorithm3.py           Algorithm 3: batches, a sanitizer for H^label, B subsequences of a proper learner
  constructed_experts.py  Algorithms 6–7 (constructed experts, the set J) and the Thm E.10 learner over private OPE
  baselines.py            non-private baselines: Ben-David–Pál–Shalev-Shwartz SOA experts, Hedge over H
"""

from .algorithm3 import Algorithm3, corollary43_batch_size, theorem41_bound, theory_batch_size

__all__ = ["Algorithm3", "corollary43_batch_size", "theorem41_bound", "theory_batch_size"]
