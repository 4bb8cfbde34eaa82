"""Private sanitizers (LWY25 Def 2.7, Def E.1): answer every counting query of a class on private data.

  queries.py     counting-query families of a class over a finite domain (explicit, thresholds, H^label)
  mwem.py        MWEM (HLM12): exponential mechanism + Laplace + multiplicative weights, with its proven bound
  realizable.py  realizable sanitizer (LWY25 Lemma E.2 discriminator, Thm E.5 game against the SOA)
  dyadic.py      sequential sanitizer over dyadic intervals (LWY25 Alg 5, Fact E.6, Lemma E.8)

The Bousquet–Livni–Moran sequential-fooling sanitizer (LWY25 Thm 4.2) needs the GGKM21 proper agnostic learner
and is not part of this package yet.
"""

from .mwem import MWEM, mwem_error_bound, mwem_sample_size, mwem_theory_iterations
from .queries import QueryFamily, query_family

__all__ = ["MWEM", "QueryFamily", "mwem_error_bound", "mwem_sample_size", "mwem_theory_iterations", "query_family"]
