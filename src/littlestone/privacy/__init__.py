"""Differential-privacy building blocks: noise backends, mechanisms, accounting.

Every mechanism takes ``backend=`` explicitly (``SecureBackend()`` = OpenDP, floating-point safe; ``SeededBackend(seed)``
= NumPy, reproducible, not floating-point safe), validates ε > 0 and 0 ≤ δ < 1, and charges an optional
``PrivacyBudget`` before it releases anything. Neighbouring datasets: replace-one unless a docstring says otherwise.

Where things are (one idea per module):
  backends.py          SecureBackend / SeededBackend / make_backend (which OpenDP call each sampler maps to)
  params.py, budget.py check_epsilon / check_delta, PrivacyBudget (basic or advanced composition) with its ledger
  composition.py       basic and advanced composition (Dwork–Roth 3.16, 3.20; DRV10 heterogeneous)
  laplace.py           Laplace mechanism
  exponential.py       exponential mechanism (Gumbel-max) and report-noisy-max (exponential noise)
  stable_histogram.py  stable histogram, exact δ per backend (seed 000 Lemma 15, spec §3)
  bounded_histogram.py histogram with a deterministic error bound (seed 004 Thm 2.6, spec §4)
  above_threshold.py   AboveThreshold with restart, SparseVector (seed 004 Thm 2.5, spec §5)
  sparse_selection.py  sparse selection with BOTTOM (GKM20 / seed 002 Prop 5.6, spec §2)
  tree_mechanism.py    binary mechanism for continual counting, dyadic intervals (seed 004 Fact E.6)
  subsampling.py       subsample, amplified_epsilon (seed 000 §1.1 "secrecy of the sample")
  mechanism.py         PrivacyClaim, Mechanism, compose, subsampled: mechanisms as objects carrying their claim
"""

from .above_threshold import AboveThreshold, RunningSumAboveThreshold, SparseVector, above_threshold_accuracy
from .backends import Backend, SecureBackend, SeededBackend, check_backend, make_backend
from .bounded_histogram import bounded_histogram, bounded_histogram_error_bound, truncation_bound
from .budget import Charge, PrivacyBudget
from .composition import advanced_composition, basic_composition, heterogeneous_advanced_composition, per_step_epsilon
from .exponential import exponential_mechanism, exponential_probabilities, report_noisy_max, selection_error_bound
from .histogram_release import HistogramRelease
from .mechanism import (
    AboveThresholdRun,
    BinaryMechanismRelease,
    BoundedHistogram,
    ExponentialMechanism,
    LaplaceMechanism,
    Mechanism,
    PrivacyClaim,
    ReportNoisyMax,
    SparseSelection,
    StableHistogram,
    claim_of,
    compose,
    subsampled,
)
from .laplace import laplace_error_bound, laplace_mechanism
from .params import check_delta, check_epsilon, check_probability, check_sensitivity
from .sparse_selection import (
    BOTTOM,
    sparse_selection,
    sparse_selection_bottom_score,
    sparse_selection_error_bound,
    sparse_selection_probabilities,
)
from .subsampling import amplified_epsilon, sampling_rate_for, secret_generator, subsample
from .tree_mechanism import BinaryMechanism, dyadic_decomposition, dyadic_intervals, tree_levels
from .stable_histogram import (
    stable_histogram,
    stable_histogram_accuracy,
    stable_histogram_delta,
    stable_histogram_sample_size,
    stable_histogram_threshold,
)

__all__ = [
    "AboveThresholdRun",
    "BinaryMechanismRelease",
    "BoundedHistogram",
    "ExponentialMechanism",
    "LaplaceMechanism",
    "Mechanism",
    "PrivacyClaim",
    "ReportNoisyMax",
    "SparseSelection",
    "StableHistogram",
    "claim_of",
    "compose",
    "subsampled",
    "AboveThreshold",
    "BOTTOM",
    "BinaryMechanism",
    "RunningSumAboveThreshold",
    "SparseVector",
    "above_threshold_accuracy",
    "advanced_composition",
    "amplified_epsilon",
    "basic_composition",
    "heterogeneous_advanced_composition",
    "dyadic_decomposition",
    "dyadic_intervals",
    "per_step_epsilon",
    "sampling_rate_for",
    "sparse_selection",
    "sparse_selection_bottom_score",
    "sparse_selection_error_bound",
    "sparse_selection_probabilities",
    "secret_generator",
    "subsample",
    "tree_levels",
    "Backend",
    "Charge",
    "HistogramRelease",
    "PrivacyBudget",
    "SecureBackend",
    "SeededBackend",
    "bounded_histogram",
    "bounded_histogram_error_bound",
    "check_backend",
    "check_delta",
    "check_epsilon",
    "check_probability",
    "check_sensitivity",
    "exponential_mechanism",
    "exponential_probabilities",
    "laplace_error_bound",
    "laplace_mechanism",
    "make_backend",
    "report_noisy_max",
    "selection_error_bound",
    "stable_histogram",
    "stable_histogram_accuracy",
    "stable_histogram_delta",
    "stable_histogram_sample_size",
    "stable_histogram_threshold",
    "truncation_bound",
]
