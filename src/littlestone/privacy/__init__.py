"""Differential-privacy building blocks: noise backends, mechanisms, accounting.

Every mechanism takes ``backend=`` explicitly (``SecureBackend()`` = exact samplers with OpenDP's law, floating-point
safe; ``SeededBackend(seed)`` = NumPy, reproducible, not floating-point safe), validates ε > 0 and 0 ≤ δ < 1, and charges an optional
``PrivacyBudget`` before it releases anything. Neighbouring datasets: replace-one unless a docstring says otherwise.

Where things are (one idea per module):
  backends.py          SecureBackend / SeededBackend / make_backend (which OpenDP call each sampler maps to)
  exact_sampling.py    the SecureBackend's native exact discrete Laplace (CKS20 Alg. 1–2, vectorised, OS randomness)
  params.py, budget.py check_epsilon / check_delta, PrivacyBudget (basic or advanced composition) with its ledger
  accountant.py        BudgetAccountant: one budget across fits (diffprivlib's API; basic or KOV17 composition)
  composition.py       basic and advanced composition (Dwork–Roth 3.16, 3.20; DRV10 heterogeneous); parallel over
                       disjoint adaptive segments (ALGORITHMS F.1)
  laplace.py           Laplace mechanism (LaplaceMechanism; laplace_mechanism builds and calls it), discrete Laplace
  exponential.py       exponential mechanism (Gumbel-max) and report-noisy-max (exponential noise)
  stable_histogram.py  stable histogram, exact δ per backend (BLM20 Lemma 15, BNS16 Prop 2.20)
  bounded_histogram.py histogram with a deterministic error bound (LWY25 Thm 2.6)
  above_threshold.py   AboveThreshold with restart, SparseVector (LWY25 Thm 2.5, DR14 §3.6)
  monotone_above_threshold.py  AboveThreshold for monotone queries (LSL17 §3) and step differences (running counts)
  sparse_selection.py  sparse selection with BOTTOM (GKM20 / GGKM21 Prop 5.6, GKM20 Lemma 36)
  tree_mechanism.py    binary mechanism for continual counting, dyadic intervals (LWY25 Fact E.6)
  subsampling.py       subsample, amplified_epsilon (BLM20 §1.1 "secrecy of the sample")
  mechanism.py         PrivacyClaim, Mechanism, compose, subsampled: mechanisms as objects carrying their claim
  partition.py         DataSplit: slices a learner's sample into parts and composes the claims of the steps they feed
Every mechanism is a Mechanism class in its module (LaplaceMechanism, DiscreteLaplaceMechanism, ExponentialMechanism, ReportNoisyMax,
StableHistogram, BoundedHistogram, SparseSelection, BinaryMechanismRelease, AboveThresholdRun, SparseVectorRun,
RunningSumAboveThresholdRun, SubsampledMechanism); the functions are thin wrappers that build the object and call it.
The names are imported from their modules on first use (``littlestone._lazy``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, tuple[str, ...]] = {
    ".above_threshold": (
        "AboveThreshold",
        "AboveThresholdRun",
        "RunningSumAboveThreshold",
        "RunningSumAboveThresholdRun",
        "SparseVector",
        "SparseVectorRun",
        "above_threshold_accuracy",
    ),
    ".monotone_above_threshold": (
        "MONOTONE_ASSUMPTION",
        "MonotoneAboveThreshold",
        "MonotoneAboveThresholdRun",
        "STEP_ASSUMPTION",
        "StepAboveThreshold",
        "StepAboveThresholdRun",
        "monotone_above_threshold_accuracy",
    ),
    ".backends": ("Backend", "SecureBackend", "SeededBackend", "check_backend", "make_backend"),
    ".bounded_histogram": (
        "BoundedHistogram",
        "bounded_histogram",
        "bounded_histogram_error_bound",
        "truncation_bound",
    ),
    ".budget": ("Charge", "PrivacyBudget"),
    ".accountant": ("BudgetAccountant", "charge_fit", "claim_pair", "contained", "kov_composition"),
    ".composition": (
        "advanced_composition",
        "basic_composition",
        "heterogeneous_advanced_composition",
        "parallel_over_segments",
        "per_step_epsilon",
    ),
    ".exponential": (
        "ExponentialMechanism",
        "ReportNoisyMax",
        "exponential_mechanism",
        "exponential_probabilities",
        "report_noisy_max",
        "selection_error_bound",
    ),
    ".histogram_release": ("HistogramRelease",),
    ".mechanism": (
        "Mechanism",
        "PrivacyClaim",
        "claim_of",
        "compose",
        "compose_repeated",
        "parallel_compose",
        "subsampled",
    ),
    ".laplace": ("DiscreteLaplaceMechanism", "LaplaceMechanism", "laplace_error_bound", "laplace_mechanism"),
    ".partition": ("DataSplit", "Part", "PartReader", "group_privacy"),
    ".params": ("check_delta", "check_epsilon", "check_probability", "check_sensitivity"),
    ".sparse_selection": (
        "BOTTOM",
        "SparseSelection",
        "sparse_selection",
        "sparse_selection_bottom_score",
        "sparse_selection_error_bound",
        "sparse_selection_probabilities",
    ),
    ".subsampling": ("SubsampledMechanism", "amplified_epsilon", "sampling_rate_for", "secret_generator", "subsample"),
    ".tree_mechanism": (
        "BinaryMechanism",
        "BinaryMechanismRelease",
        "dyadic_decomposition",
        "dyadic_intervals",
        "tree_levels",
    ),
    ".stable_histogram": (
        "StableHistogram",
        "stable_histogram",
        "stable_histogram_accuracy",
        "stable_histogram_delta",
        "stable_histogram_sample_size",
        "stable_histogram_threshold",
    ),
}
__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .above_threshold import (
        AboveThreshold,
        AboveThresholdRun,
        RunningSumAboveThreshold,
        RunningSumAboveThresholdRun,
        SparseVector,
        SparseVectorRun,
        above_threshold_accuracy,
    )
    from .monotone_above_threshold import (
        MONOTONE_ASSUMPTION,
        MonotoneAboveThreshold,
        MonotoneAboveThresholdRun,
        STEP_ASSUMPTION,
        StepAboveThreshold,
        StepAboveThresholdRun,
        monotone_above_threshold_accuracy,
    )
    from .backends import Backend, SecureBackend, SeededBackend, check_backend, make_backend
    from .bounded_histogram import BoundedHistogram, bounded_histogram, bounded_histogram_error_bound, truncation_bound
    from .budget import Charge, PrivacyBudget
    from .accountant import BudgetAccountant, charge_fit, claim_pair, contained, kov_composition
    from .composition import (
        advanced_composition,
        basic_composition,
        heterogeneous_advanced_composition,
        parallel_over_segments,
        per_step_epsilon,
    )
    from .exponential import (
        ExponentialMechanism,
        ReportNoisyMax,
        exponential_mechanism,
        exponential_probabilities,
        report_noisy_max,
        selection_error_bound,
    )
    from .histogram_release import HistogramRelease
    from .mechanism import Mechanism, PrivacyClaim, claim_of, compose, compose_repeated, parallel_compose, subsampled
    from .laplace import DiscreteLaplaceMechanism, LaplaceMechanism, laplace_error_bound, laplace_mechanism
    from .partition import DataSplit, Part, PartReader, group_privacy
    from .params import check_delta, check_epsilon, check_probability, check_sensitivity
    from .sparse_selection import (
        BOTTOM,
        SparseSelection,
        sparse_selection,
        sparse_selection_bottom_score,
        sparse_selection_error_bound,
        sparse_selection_probabilities,
    )
    from .subsampling import SubsampledMechanism, amplified_epsilon, sampling_rate_for, secret_generator, subsample
    from .tree_mechanism import (
        BinaryMechanism,
        BinaryMechanismRelease,
        dyadic_decomposition,
        dyadic_intervals,
        tree_levels,
    )
    from .stable_histogram import (
        StableHistogram,
        stable_histogram,
        stable_histogram_accuracy,
        stable_histogram_delta,
        stable_histogram_sample_size,
        stable_histogram_threshold,
    )
