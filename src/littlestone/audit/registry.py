"""The one audit registry: every built-in audit and its broken twins, declared together (issue 10 item 1).

An entry is a :class:`~littlestone.audit.spec.BuiltinAudit`: a mechanism object (its claim is read from it), an
adversarial neighbouring pair and the audit's set-up. Each set-up is written once: a twin is
``honest.twin(name, description, broken_mechanism, **changes)`` — the honest audit's datasets, features, runs and
backend unless ``changes`` say otherwise, run with a subclass of the honest mechanism that overrides ``__call__``
and keeps the claim (``broken=True``, ``twin_of`` = the honest audit's name); the audit must catch it.
``builtin_audits()`` and ``broken_audits()`` are views of this registry.

Registration runs one way (issue 34 item 6): this module imports the audit modules and collects their
(honest, twins) pairs; no audit module imports this one (the types they need live in :mod:`.spec`, re-exported by
:mod:`.builtin`), so the package's import graph has no cycle (tests/audit/test_audit_import_graph.py). To add audits,
write ``audit/<topic>.py`` with ``def <topic>_audits() -> list[Declared]`` and add two lines at the end of
:func:`_declared`: ``from .<topic> import <topic>_audits`` and ``out.extend(<topic>_audits())``.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from ..errors import LittlestoneError
from ..privacy import (
    AboveThresholdRun,
    BinaryMechanismRelease,
    BoundedHistogram,
    ExponentialMechanism,
    ReportNoisyMax,
    RunningSumAboveThresholdRun,
    SparseSelection,
    SparseVectorRun,
    StableHistogram,
    SubsampledMechanism,
    sparse_selection_bottom_score,
    stable_histogram_threshold,
)
from . import broken as bk
from .ggkm21_release import SubsampleFromSavedSeed
from .builtin import (
    PUBLIC_SEED,
    AgnosticRefusal,
    BuiltinAudit,
    CountLaplace,
    DeclaredLabelCoding,
    GenericLearnerRun,
    censored_difference,
    coordinate_sum,
    edge_excess,
    float_bits,
    key_layout,
    moved_record,
    released,
    shifted_streams,
    tied_scores_one_boosted,
)
from .auditor import AuditReport
from .spec import Declared

_REGISTRY: dict[str, BuiltinAudit] = {}


def _declared() -> list[Declared]:
    """(honest audit, its broken twins), in registration order."""
    out: list[Declared] = []

    def declare(honest: BuiltinAudit, *twins: BuiltinAudit) -> None:
        out.append((honest, list(twins)))

    eps = 1.0
    laplace = BuiltinAudit(
        "laplace",
        "Laplace mechanism on a count, ε=1: 5 ones vs 4 ones",
        CountLaplace(eps),
        [1] * 5 + [0] * 5,
        [1] * 4 + [0] * 6,
    )
    declare(
        laplace,
        laplace.twin(
            "laplace_half_noise",
            "Laplace mechanism with sensitivity 0.5 for a count (half the noise); claims ε=1",
            bk.HalfNoiseCountLaplace(eps),
        ),
    )

    d, dp = tied_scores_one_boosted(10)
    exponential = BuiltinAudit(
        "exponential",
        "exponential mechanism, ε=1, 10 candidates: tied scores, one boosted (Δ=1)",
        ExponentialMechanism(eps),
        d,
        dp,
    )
    declare(
        exponential,
        exponential.twin(
            "exponential_score_not_halved",
            "exponential mechanism with exp(ε·score) instead of exp(ε·score/2); claims ε=1",
            bk.ExponentialScoreNotHalved(eps),
        ),
    )
    noisy_max = BuiltinAudit(
        "report_noisy_max",
        "report-noisy-max (exponential noise), ε=1, 10 candidates: tied scores, one boosted (Δ=1)",
        ReportNoisyMax(eps),
        d,
        dp,
    )
    declare(
        noisy_max,
        noisy_max.twin(
            "report_noisy_max_half_noise",
            "report-noisy-max with Exponential(Δ/ε) instead of Exponential(2Δ/ε); claims ε=1",
            bk.NoisyMaxHalfNoise(eps),
        ),
    )

    h_eps, h_delta = 1.0, 0.2
    new_item = BuiltinAudit(
        "stable_histogram_new_item",
        "stable histogram, ε=1, δ=0.2 (claimed: exact δ spent): item x with count 1 vs 0",
        StableHistogram(h_eps, h_delta),
        ["a"] * 30 + ["x"],
        ["a"] * 31,
        featurize=partial(released, item="x"),
    )
    declare(
        new_item,
        new_item.twin(
            "stable_histogram_threshold_one_too_low",
            "stable histogram with threshold τ−1; claims ε=1 and the exact δ of τ: item x with count 1 vs 0",
            bk.StableHistogramThresholdTooLow(h_eps, h_delta),
            runs=20_000,
        ),
    )
    c = math.ceil(stable_histogram_threshold(h_eps, h_delta))
    n_eps, n_delta, c_n = 2.0, 0.01, 30
    at_threshold = BuiltinAudit(
        "stable_histogram_at_threshold",
        f"stable histogram, ε=1, δ=0.2: item a with count ⌈τ⌉={c} vs {c - 1}, the record moved to item b",
        StableHistogram(h_eps, h_delta),
        *moved_record("a", c, "b", 40),
        featurize=partial(censored_difference, first="a", second="b"),
    )
    declare(
        at_threshold,
        at_threshold.twin(
            "stable_histogram_half_noise",
            "stable histogram with Lap(1/ε) instead of Lap(2/ε); claims ε=2: a record moves from item a to item b",
            bk.StableHistogramHalfNoise(n_eps, n_delta),
            **_moved(c_n, c_n + 10),
            runs=20_000,
        ),
    )
    declare(
        BuiltinAudit(
            "stable_histogram_add_remove",
            "stable histogram, add/remove-one variant, ε=1, δ=0.2 (claimed: exact δ): item x added once",
            StableHistogram(h_eps, h_delta, neighbours="add_remove"),
            ["a"] * 30 + ["x"],
            ["a"] * 30,
            featurize=partial(released, item="x"),
        )
    )
    layout = BuiltinAudit(
        "histogram_key_layout",
        "stable histogram, ε=1, δ=0.2: the first record 1.0 (then 40× 1, "
        "39× 2) replaced by 2; event: the order and objects of the released keys (issue 9 item 4: "
        "first-seen order / first-seen object leaked)",
        StableHistogram(h_eps, h_delta),
        [1.0] + [1] * 40 + [2] * 39,
        [2] + [1] * 40 + [2] * 39,
        featurize=key_layout,
        runs=2000,
    )
    declare(
        layout,
        layout.twin(
            "histogram_first_seen_keys",
            "stable histogram releasing keys in first-seen order as first-seen objects; claims (ε=1, exact δ)",
            bk.FirstSeenKeysHistogram(h_eps, h_delta),
        ),
    )
    size = BuiltinAudit(
        "histogram_size_add_remove",
        "stable histogram, add/remove-one, ε=1, δ=0.2: 40× a vs 40× a "
        "plus one b; event: the released keys and the size the release carries (issue 9 item 3: the "
        "exact n was released)",
        StableHistogram(h_eps, h_delta, neighbours="add_remove"),
        ["a"] * 40 + ["b"],
        ["a"] * 40,
        featurize=key_layout,
        runs=2000,
    )
    declare(
        size,
        size.twin(
            "histogram_exact_size",
            "stable histogram (add/remove-one) that keeps the exact dataset "
            "size n in the release; claims (ε=1, exact δ)",
            bk.ExactSizeHistogram(h_eps, h_delta, neighbours="add_remove"),
        ),
    )

    c_b = 40
    edge = BuiltinAudit(
        "bounded_histogram_at_edge",
        f"bounded histogram, ε=1, δ=0.2: a record moves from item a "
        f"({c_b}) to item b ({c_b + 5}); event: noise beyond the neighbour's truncated support",
        BoundedHistogram(h_eps, h_delta),
        *moved_record("a", c_b, "b", c_b + 5),
        featurize=partial(edge_excess, first="a", first_count=c_b, second="b", second_count=c_b + 5),
    )
    declare(
        edge,
        edge.twin(
            "bounded_histogram_half_noise",
            "bounded histogram with truncated Lap(1/ε) instead of Lap(2/ε); claims ε=2: a record moves from a to b",
            bk.BoundedHistogramHalfNoise(n_eps, n_delta),
            **_moved(c_n, c_n + 10),
            runs=20_000,
            featurize=partial(censored_difference, first="a", second="b"),
        ),
    )
    declare(
        BuiltinAudit(
            "bounded_histogram_new_item",
            "bounded histogram, ε=1, δ=0.2: item x with count 1 vs 0 (never released)",
            BoundedHistogram(h_eps, h_delta),
            ["a"] * 40 + ["x"],
            ["a"] * 41,
            featurize=partial(released, item="x"),
        )
    )

    above = BuiltinAudit(
        "above_threshold",
        "AboveThreshold, ε=1, T=0: 4 queries at −1 (D′: 0), then one at 1 (D′: 0)",
        AboveThresholdRun(0.0, eps),
        *shifted_streams(4, -1.0, 0.0),
    )
    d, dp = shifted_streams(20, -4.0, 2.0)
    declare(
        above,
        above.twin(
            "above_threshold_noise_redrawn",
            "AboveThreshold with the threshold noise redrawn for "
            "every query; claims ε=1: 20 queries at −4 (D′: −3), then one at 3 (D′: 2)",
            bk.AboveThresholdNoiseRedrawn(0.0, eps),
            D=d,
            D_prime=dp,
            runs=1_000_000,
            vectorized=True,
        ),
    )
    sv_eps, sv_c = 2.0, 30
    sparse_vector = BuiltinAudit(
        "sparse_vector",
        "SparseVector (c=2 positives), ε=1, T=0: queries −1, 2, −1, 2 vs 0, 1, 0, 1 (opposite shifts)",
        SparseVectorRun(0.0, eps, 2),
        [-1.0, 2.0, -1.0, 2.0],
        [0.0, 1.0, 0.0, 1.0],
    )
    declare(
        sparse_vector,
        sparse_vector.twin(
            "sparse_vector_epsilon_not_split",
            f"SparseVector with c={sv_c} positives giving every AboveThreshold run ε "
            f"instead of ε/c; claims ε={sv_eps:g}: {sv_c} queries at 0 (D′: −1), T=0; statistic: the number of ⊤",
            bk.SparseVectorEpsilonNotSplit(0.0, sv_eps, sv_c),
            D=[0.0] * sv_c,
            D_prime=[-1.0] * sv_c,
            featurize=sum,
        ),
    )
    rs_rounds, rs_tau = 25, 5.0
    running = BuiltinAudit(
        "running_sum_above_threshold",
        "RunningSumAboveThreshold, ε=1, τ=2: b = (1, 1, 1) vs (0, 1, 1) (every running sum shifts by 1)",
        RunningSumAboveThresholdRun(2.0, eps),
        [1.0, 1.0, 1.0],
        [0.0, 1.0, 1.0],
    )
    declare(
        running,
        running.twin(
            "running_sum_above_threshold_noise_redrawn",
            f"running-sum AboveThreshold (LWY25 Thm 2.5) with the threshold "
            f"noise redrawn every round; claims ε=1: b = (1, 0, …, 0) vs (0, …, 0), {rs_rounds} rounds, τ={rs_tau:g} "
            "(every running sum shifts by 1)",
            bk.RunningSumNoiseRedrawn(rs_tau, eps),
            D=[1.0] + [0.0] * (rs_rounds - 1),
            D_prime=[0.0] * rs_rounds,
            runs=600_000,
            vectorized=True,
        ),
    )

    ss_eps, ss_delta = 1.0, 0.1
    selection = BuiltinAudit(
        "sparse_selection_new_element",
        "sparse selection, ε=1, δ=0.1, s=1: one user's set {b} replaced by {c} (3 users hold {a})",
        SparseSelection(ss_eps, ss_delta, 1),
        [["a"]] * 3 + [["b"]],
        [["a"]] * 3 + [["c"]],
    )
    declare(
        selection,
        selection.twin(
            "sparse_selection_without_bottom",
            "sparse selection without the ⊥ weight; claims (ε=1, δ=0.1)",
            bk.SparseSelectionWithoutBottom(ss_eps, ss_delta, 1),
        ),
    )
    k = round(sparse_selection_bottom_score(ss_eps, ss_delta, 1))
    declare(
        BuiltinAudit(
            "sparse_selection_at_bottom",
            f"sparse selection, ε=1, δ=0.1, s=1: {k} users hold {{a}} (the "
            f"⊥ score B≈{k}); one user's {{b}} becomes {{a}}",
            SparseSelection(ss_eps, ss_delta, 1),
            [["a"]] * k + [["b"]],
            [["a"]] * (k + 1),
        )
    )

    t_eps = 2.0
    binary = BuiltinAudit(
        "binary_mechanism",
        "binary (tree) mechanism, ε=1, T=8: x_1 = 1 vs 0 (x_1 lies in all 4 "
        "levels); statistic: the sum of the prefix sums at t = 1, 2, 4, 8 (the 4 dyadic nodes "
        "holding x_1)",
        BinaryMechanismRelease(8, eps),
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0] * 8,
        featurize=partial(coordinate_sum, indices=(0, 1, 3, 7)),
    )
    declare(
        binary,
        binary.twin(
            "binary_mechanism_without_level_factor",
            "binary mechanism with Lap(Δ/ε) per node instead of Lap(Δ·L/ε) (L=2 levels for T=2); claims ε=2",
            bk.BinaryMechanismWithoutLevelFactor(2, t_eps),
            D=[1, 0],
            D_prime=[0, 0],
            featurize=partial(coordinate_sum, indices=(0, 1)),
            runs=20_000,
        ),
    )
    declare(
        BuiltinAudit(
            "binary_mechanism_float_safe",
            "binary mechanism (default discrete=False) on the SECURE "
            "backend, ε=1, T=1: x_1 = 1 vs 0; event: the output's binary exponent and last mantissa bit "
            "(issue 9 item 1: noise added in floats leaked ε ≥ 5)",
            BinaryMechanismRelease(1, eps),
            [1],
            [0],
            featurize=float_bits,
            randomness="secure",
            runs=20_000,
            extra={"secure_only": True},
        )
    )
    floats = BuiltinAudit(
        "laplace_float_safe",
        "Laplace mechanism on the SECURE backend, ε=1: count 1 vs 0; event: "
        "the output's binary exponent and last mantissa bit (OpenDP's float Laplace applied to the "
        "value itself)",
        CountLaplace(eps),
        [1],
        [0],
        featurize=float_bits,
        randomness="secure",
        runs=20_000,
        extra={"secure_only": True},
    )
    declare(
        floats,
        floats.twin(
            "laplace_noise_added_in_floats",
            "count + (OpenDP Laplace sample) in float arithmetic "
            "on the SECURE backend (the old binary mechanism); claims ε=1",
            bk.FloatAddedCountLaplace(eps),
        ),
    )

    sub_eps, n_sub, m_sub = 2.0, 10, 5
    public = BuiltinAudit(
        "subsample_secret_despite_public_seed",
        "SECURE backend: Laplace count (ε₀=2) on m=5 of "
        "n=10 records drawn by secret_generator with the user's seed fixed and known; claimed "
        "amplified ε: record 2 (in the seed's subsample) 1 vs 0 (issue 9 item 6)",
        SubsampledMechanism(CountLaplace(sub_eps), m_sub, n_sub, seed=PUBLIC_SEED),
        [0, 0, 1] + [0] * (n_sub - 3),
        [0] * n_sub,
        randomness="secure",
        extra={"secure_only": True},
    )
    declare(
        public,
        public.twin(
            "subsample_from_public_seed",
            "SECURE backend: the 'secret' subsample (5 of 10) drawn from the user's known seed, amplified ε claimed",
            bk.PublicSeedSubsample(CountLaplace(sub_eps), m_sub, n_sub, seed=PUBLIC_SEED),
        ),
        public.twin(
            "agnostic_subsample_from_saved_seed",
            "SECURE backend: the agnostic learners' DataSplit subsample (5 of 10) drawn from the user's seed saved "
            "in the model (issue 19 leak 2); amplified ε claimed",
            SubsampleFromSavedSeed(CountLaplace(sub_eps), m_sub, n_sub, seed=PUBLIC_SEED),
        ),
    )
    labels_x = ((1,), (2,), (5,), (6,))
    labels = BuiltinAudit(
        "private_labels_declared",
        "generic learner (thresholds:8, ε=1) with classes=(-1, 1): labels "
        "(1,-1,1,1) vs (1,1,1,1); event: the label coding classes_ it reports (issue 9 item 2)",
        DeclaredLabelCoding("thresholds:8", eps, classes=(-1, 1)),
        (labels_x, (1, -1, 1, 1)),
        (labels_x, (1, 1, 1, 1)),
        runs=300,
    )
    declare(
        labels,
        labels.twin(
            "private_labels_inferred",
            "generic learner with classes=None (label coding read from the private labels); claims ε=1",
            bk.InferredLabelCoding("thresholds:8", eps),
        ),
    )
    cap = BuiltinAudit(
        "agnostic_labelings_cap_public",
        "agnostic learner (thresholds(8) as a matrix, all 4 examples "
        "kept) with max_labelings=3: points (1, 2, 5, 6) vs (1, 1, 5, 6); event: refused or ran (issue "
        "9 item 20: the cap was a data-dependent exception)",
        AgnosticRefusal(3),
        ((1, 2, 5, 6), (0, 0, 1, 1)),
        ((1, 1, 5, 6), (0, 0, 1, 1)),
        runs=5000,
    )
    declare(
        cap,
        cap.twin(
            "labelings_cap_on_data",
            "agnostic learner refusing when the SAMPLE's realizable labelings "
            "exceed max_labelings=3; claims its (ε=4, δ=10⁻³)",
            bk.LabelingsCapOnData(3),
        ),
    )
    amplified = BuiltinAudit(
        "subsampled_laplace",
        "Laplace count with ε₀=2 on m=5 of n=10 records (q=½), claimed "
        "amplified ε=ln(1+q(e^ε₀−1)): the first record 1 vs 0",
        SubsampledMechanism(CountLaplace(sub_eps), m_sub, n_sub),
        [1] + [0] * (n_sub - 1),
        [0] * n_sub,
    )
    declare(
        amplified,
        amplified.twin(
            "subsample_not_secret",
            "'subsample' = the first 5 of 10 records (not random), amplified ε claimed",
            bk.NonSecretSubsample(CountLaplace(sub_eps), m_sub, n_sub),
        ),
    )
    X = ((1,), (2,), (5,), (6,))
    declare(
        BuiltinAudit(
            "generic_learner",
            "pure-DP generic learner (exponential mechanism over thresholds:8), ε=1: "
            "the label of one of 4 examples flipped",
            GenericLearnerRun("thresholds:8", eps),
            (X, (0, 0, 1, 1)),
            (X, (1, 0, 1, 1)),
            runs=1000,
        )
    )

    from .adaptive_game import private_online_audits  # LWY25 Def. 2.4 games of the private online learners
    from .ggkm21_release import ggkm21_release_audits  # what the GGKM21 estimators release (issue 19)
    from .online_learners import online_learner_audits  # experts learners, Algorithm 3, the dyadic sanitizer
    from .segment_learners import segment_learner_audits  # monotone / step AboveThreshold, ListAT, BisectAT (issue 27)
    from .private_selection import private_selection_audits  # PrivateGridSearchCV and the argmax twin (issue 28)
    from .threshold_label import threshold_label_audits  # the thresholds H^label sanitizer
    from .exact_sampler import exact_sampler_audits  # the native exact sampler (issue 26 item 2)

    out.extend(private_online_audits())
    out.extend(threshold_label_audits())
    out.extend(ggkm21_release_audits())
    out.extend(online_learner_audits())
    out.extend(exact_sampler_audits())
    from .integer_above_threshold import integer_above_threshold_audits  # secure fast path for counts (issue 27)

    out.extend(integer_above_threshold_audits())
    from .checkpoint_reuse import checkpoint_reuse_audits  # issue 26 hole 2: a checkpoint bound to its data

    out.extend(checkpoint_reuse_audits())
    from .points_intervals_at import points_intervals_at_audits  # PointsAT / IntervalsAT games (issue 27 item 1c)

    out.extend(points_intervals_at_audits())
    out.extend(segment_learner_audits())
    from .agnostic_segments import agnostic_segment_audits  # SegmentedEM's selections (issue 33)

    out.extend(agnostic_segment_audits())
    from .agnostic_intervals import agnostic_interval_audits  # SegmentedEM's two-stage selection on intervals

    out.extend(agnostic_interval_audits())
    from .split_reads import split_read_audits  # reads bound to the declared DataSplit (issue 26 item 3)

    out.extend(split_read_audits())
    out.extend(private_selection_audits())
    return out


def _moved(first_count: int, second_count: int) -> dict:
    """D and D′ of :func:`~littlestone.audit.builtin.moved_record` for items a and b, as audit fields."""
    d, dp = moved_record("a", first_count, "b", second_count)
    return {"D": d, "D_prime": dp}


def declared() -> list[Declared]:
    """(honest audit, its broken twins) for every audit of the registry, in registration order."""
    all_audits()
    return _DECLARED


_DECLARED: list[Declared] = []


def all_audits() -> dict[str, BuiltinAudit]:
    """Name -> audit for every built-in audit and broken twin (built once)."""
    if not _REGISTRY:
        pairs = _declared()
        entries = [h for h, _ in pairs] + [t for _, twins in pairs for t in twins]
        names = [a.name for a in entries]
        clash = {n for n in names if names.count(n) > 1}
        if clash:
            raise LittlestoneError(f"audit names must be unique; repeated: {sorted(clash)}")
        _DECLARED[:] = pairs
        _REGISTRY.update((a.name, a) for a in entries)
    return dict(_REGISTRY)


def select(*, broken: bool) -> dict[str, BuiltinAudit]:
    """The real audits (``broken=False``) or the broken twins (``broken=True``), in registration order."""
    return {n: a for n, a in all_audits().items() if a.broken == broken}


# ------------------------------------------------------------------------------------------ the public API


def builtin_audits() -> dict[str, BuiltinAudit]:
    """Name -> BuiltinAudit for every mechanism of littlestone.privacy (the real audits of the one registry)."""
    return select(broken=False)


def list_builtin_audits() -> list[str]:
    """Names of the built-in audits (one or more adversarial pairs per mechanism of littlestone.privacy)."""
    return list(builtin_audits())


def get_builtin_audit(name: str) -> BuiltinAudit:
    audits = builtin_audits()
    if name not in audits:
        raise LittlestoneError(f"unknown built-in audit {name!r} (available: {', '.join(audits)})")
    return audits[name]


def run_builtin_audit(
    name: str,
    *,
    runs: int | None = None,
    seed: Any = None,
    jobs: int = 1,
    randomness: str | None = None,
    confidence: float = 1 - 1e-6,
) -> AuditReport:
    """Run one built-in audit on the seeded backend (``randomness="secure"`` for OpenDP's samplers)."""
    return get_builtin_audit(name).run(runs=runs, seed=seed, jobs=jobs, randomness=randomness, confidence=confidence)


def broken_audits() -> dict[str, BuiltinAudit]:
    """Name -> audit of a deliberately broken twin (expected verdict: VIOLATION): the twins of the one registry."""
    return select(broken=True)


def list_broken_audits() -> list[str]:
    return list(broken_audits())


def run_broken_audit(
    name: str, *, runs: int | None = None, seed: Any = None, jobs: int = 1, confidence: float = 1 - 1e-6
) -> AuditReport:
    """Audit a broken twin (seeded backend); a report with ``passed == False`` means the bug was caught."""
    audits = broken_audits()
    if name not in audits:
        raise LittlestoneError(f"unknown broken twin {name!r} (available: {', '.join(audits)})")
    return audits[name].run(runs=runs, seed=seed, jobs=jobs, confidence=confidence)
