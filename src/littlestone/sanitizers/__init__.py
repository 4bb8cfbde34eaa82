"""Private sanitizers (LWY25 Def 2.7, Def E.1): answer every counting query of a class on private data.

queries.py     counting-query families of a class over a finite domain (explicit, counting closed form, H^label)
mwem.py        MWEM (HLM12): exponential mechanism + Laplace + multiplicative weights, with its proven bound
mw_replay.py   MWEM's measurement reuse (HLM12 §3): updates replayed over past measurements on atoms (post-processing)
realizable.py  realizable sanitizer (LWY25 Lemma E.2 discriminator, Thm E.5 game against the SOA)
dyadic.py      sequential sanitizer over dyadic intervals (LWY25 Alg 5, Fact E.6, Lemma E.8)
sequential_fooling.py  Bousquet–Livni–Moran sequential-fooling sanitizer (BousquetLM20; LWY25 Thm 4.2, Lemma D.7):
               multiplicative weights over X against a discriminator built on the GGKM21 proper agnostic learner
threshold_label.py     H^label of thresholds on huge domains (2^60): noisy dyadic label trees, descent synthesis
histogram_release.py   estimates and synthetic data from a released histogram (shared by MWEM and the above)
"""

from .mwem import MWEM, mwem_error_bound, mwem_sample_size, mwem_theory_iterations
from .queries import QueryFamily, query_family
from .sequential_fooling import SequentialFoolingSanitizer, sequential_fooling_factory
from .threshold_label import DyadicLabelTree, ThresholdLabelSanitizer

__all__ = [
    "MWEM",
    "QueryFamily",
    "SequentialFoolingSanitizer",
    "mwem_error_bound",
    "mwem_sample_size",
    "mwem_theory_iterations",
    "query_family",
    "sequential_fooling_factory",
    "DyadicLabelTree",
    "ThresholdLabelSanitizer",
]
