"""Deliberately broken twins of the privacy mechanisms: each differs from the real one by one classic bug, keeps the
real claim, and must be caught by its audit (ε_lb > claimed ε) — the evidence that the audits have power."""

from __future__ import annotations

import math
from collections import Counter
from functools import partial
from typing import Any, Sequence

import numpy as np

from ..errors import LittlestoneError
from .auditor import AuditReport
from .builtin import (
    BuiltinAudit,
    CountLaplace,
    _fixed,
    _stable_claim,
    _bounded_claim,
    _claim_of,
    _subsample_claim,
    binary_mechanism_prefixes,
    censored_difference,
    coordinate_sum,
    exponential_choice,
    float_bits,
    key_layout,
    _stable_add_remove_claim,
    noisy_max_choice,
    released,
    shifted_streams,
    sparse_vector_answers,
    tied_scores_one_boosted,
)


def _release(counts: dict, threshold: float, scale: float, epsilon: float, delta: float, n: int, backend: Any, **meta):
    from ..privacy import HistogramRelease

    return HistogramRelease(
        counts=counts,
        threshold=threshold,
        noise_scale=scale,
        epsilon=epsilon,
        delta=delta,
        n=None,
        requested_delta=delta,
        noise="laplace",
        backend=backend.name,
        meta=meta,
    )


class HalfNoiseCountLaplace(CountLaplace):
    """The broken twin as a Mechanism subclass: overrides __call__ (sensitivity 0.5: half the noise), keeps the
    claim of the real CountLaplace."""

    def __call__(self, data: Any, *, backend: Any) -> Any:
        from ..privacy import laplace_mechanism

        return laplace_mechanism(float(np.sum(data)), 0.5, self.epsilon, backend=backend)


def half_noise_count_laplace(epsilon: float) -> HalfNoiseCountLaplace:
    return HalfNoiseCountLaplace(epsilon)


def twin_stable_histogram(
    items: Sequence[Any],
    backend: Any,
    *,
    epsilon: float,
    delta: float,
    noise_factor: float = 1.0,
    threshold_shift: float = 0.0,
) -> Any:
    """Stable histogram (spec §3) with scale noise_factor·2/ε and threshold τ + threshold_shift (correct: 1 and 0)."""
    counter = Counter(items)
    keys = list(counter)
    counts = np.array([counter[k] for k in keys], dtype=float)
    scale = noise_factor * 2.0 / epsilon
    tau = 1.0 + (2.0 / epsilon) * math.log(2.0 / delta) + threshold_shift
    noisy = counts + np.asarray(backend.laplace(scale, counts.size), dtype=float)
    out = {keys[i]: float(noisy[i]) for i in np.flatnonzero(noisy > tau)}
    return _release(out, tau, scale, epsilon, delta, len(items), backend)


def twin_bounded_histogram(
    items: Sequence[Any], backend: Any, *, epsilon: float, delta: float, noise_factor: float = 1.0
) -> Any:
    """Bounded histogram (spec §4) with truncated Laplace of scale noise_factor·2/ε on the correct support [−A, A]."""
    from ..privacy import truncation_bound

    big_a = truncation_bound(epsilon, delta, discrete=False)[0]
    counter = Counter(items)
    keys = list(counter)
    counts = np.array([counter[k] for k in keys], dtype=float)
    b = noise_factor * 2.0 / epsilon
    u = np.asarray(backend.uniform(counts.size), dtype=float)
    sign = np.asarray(backend.uniform(counts.size), dtype=float)
    mag = -b * np.log1p(-u * -math.expm1(-big_a / b))
    noisy = counts + np.where(sign < 0.5, -mag, mag).clip(-big_a, big_a)
    out = {keys[i]: float(noisy[i]) for i in np.flatnonzero(noisy > 1.0 + big_a)}
    return _release(out, 1.0 + big_a, b, epsilon, delta, len(items), backend, truncation=big_a)


def twin_above_threshold(
    stream: Sequence[float], backend: Any, size: int, *, threshold: float, epsilon: float, redraw: bool = False
) -> np.ndarray:
    """``size`` runs of AboveThreshold (Dwork–Roth Alg. 1) on a fixed stream, vectorized: index of the first ⊤
    (−1: none). ``redraw=True`` is the classic bug: fresh threshold noise for every query."""
    values = np.asarray(stream, dtype=float)
    k = values.size
    rho = np.asarray(backend.laplace(2.0 / epsilon, (size, k) if redraw else (size, 1)), dtype=float)
    nu = np.asarray(backend.laplace(4.0 / epsilon, (size, k)), dtype=float)
    top = values[None, :] + nu >= threshold + rho
    return np.where(top.any(axis=1), top.argmax(axis=1), -1)


def twin_running_sum_above_threshold(
    stream: Sequence[float], backend: Any, size: int, *, threshold: float, epsilon: float, redraw: bool = False
) -> np.ndarray:
    """Seed 004 Thm 2.5's running-sum AboveThreshold fed b_1, b_2, …, vectorized over ``size`` runs: round of the
    first ⊤ of the running sums (−1: none); ``redraw=True`` redraws the threshold noise every round."""
    return twin_above_threshold(np.cumsum(np.asarray(stream, dtype=float)), backend, size,
                                threshold=threshold, epsilon=epsilon, redraw=redraw)


def twin_sparse_selection(
    lists: Sequence[Sequence[Any]], backend: Any, *, epsilon: float, delta: float, s: int, bottom: bool = True
) -> Any:
    """Sparse selection (spec §2): P(u) ∝ exp(ε/2·c(u)), P(⊥) ∝ exp(ε/2·B); ``bottom=False`` drops the ⊥ weight."""
    from ..privacy import BOTTOM, sparse_selection_bottom_score

    counts: Counter = Counter()
    for lst in lists:
        counts.update(list(dict.fromkeys(lst)))
    keys = list(counts)
    scores = [float(counts[k]) for k in keys]
    if bottom:
        scores.append(sparse_selection_bottom_score(epsilon, delta, s))
    idx = backend.noisy_argmax(scores, 2.0 / epsilon, "gumbel")
    return BOTTOM if idx == len(keys) else keys[idx]


def first_records_laplace(data: Sequence[int], source: tuple[Any, np.random.Generator], *, m: int, epsilon: float) -> float:
    """The bug of a non-secret sample: the 'subsample' is the first m records, yet amplification is claimed."""
    from ..privacy import laplace_mechanism

    backend, _ = source
    return laplace_mechanism(float(np.sum(list(data)[:m])), 1.0, epsilon, backend=backend)


def first_seen_histogram(items: Sequence[Any], backend: Any, *, epsilon: float, delta: float, neighbours: str = "replace",
                         exact_n: bool = False) -> Any:
    """The library's stable histogram re-laid-out the old way: keys in first-seen order as the data's first-seen
    objects (and, with ``exact_n``, the exact dataset size in ``n``) — issue 9 items 3–4."""
    import dataclasses

    from ..privacy import stable_histogram

    rel = stable_histogram(items, epsilon, delta, backend=backend, neighbours=neighbours)
    first_seen = list(dict.fromkeys(items))
    counts = {k: rel[k] for k in first_seen if k in rel}
    return dataclasses.replace(rel, counts=counts, n=len(items) if exact_n else rel.n)


def subsample_from_public_seed(data: Sequence[int], source: tuple[Any, np.random.Generator], *, m: int,
                               epsilon: float) -> float:
    """The bug of issue 9 item 6: the 'secret' subsample drawn from the user's (public, saved) seed."""
    from ..privacy import laplace_mechanism, subsample
    from .builtin import PUBLIC_SEED

    backend, _ = source
    sub = subsample(list(data), m, np.random.default_rng(PUBLIC_SEED))
    return laplace_mechanism(float(np.sum(sub)), 1.0, epsilon, backend=backend)


def inferred_label_coding(data: tuple, backend: Any, *, spec: str, epsilon: float) -> str:
    """The bug of issue 9 item 2: the label coding inferred from the private labels (classes=None)."""
    from .builtin import declared_label_coding

    return declared_label_coding(data, backend, spec=spec, epsilon=epsilon, classes=None)


def labelings_cap_on_data(data: tuple, backend: Any, *, max_labelings: int) -> str:
    """The bug of issue 9 item 20: refusing when the sample's own realizable labelings exceed the cap."""
    from ..classes.base import as_python_point
    from ..errors import LittlestoneError as _Err
    from ..pac.agnostic import realizable_labelings
    from .builtin import _finite_thresholds

    X, _ = data
    H = _finite_thresholds()
    pts = sorted({as_python_point(x) for x in X})
    try:
        realizable_labelings(H.version_space(), list(H.validate_points(pts)), max_labelings)
    except _Err:
        return "refused"
    return "ran"


def float_added_laplace_count(data: Sequence[int], backend: Any, *, epsilon: float) -> float:
    """The bug of issue 9 item 1: an exactly sampled OpenDP noise value added to the count in float arithmetic."""
    return float(np.sum(data)) + float(backend.laplace(1.0 / epsilon))


def _broken_audits() -> dict[str, BuiltinAudit]:
    audits: list[BuiltinAudit] = []
    eps = 1.0
    audits.append(
        BuiltinAudit(
            "laplace_half_noise",
            "Laplace mechanism with sensitivity 0.5 for a count (half the noise): a subclass of the real Mechanism "
            "object overriding __call__, keeping its claim ε=1",
            half_noise_count_laplace(eps),
            [1] * 5 + [0] * 5,
            [1] * 4 + [0] * 6,
            _claim_of(half_noise_count_laplace(eps)),
        )
    )
    d, dp = tied_scores_one_boosted(10)
    audits.append(
        BuiltinAudit(
            "exponential_score_not_halved",
            "exponential mechanism with exp(ε·score) instead of exp(ε·score/2); claims ε=1",
            partial(exponential_choice, epsilon=2 * eps),
            d,
            dp,
            _fixed(eps),
        )
    )
    audits.append(
        BuiltinAudit(
            "report_noisy_max_half_noise",
            "report-noisy-max with Exponential(Δ/ε) instead of Exponential(2Δ/ε); claims ε=1",
            partial(noisy_max_choice, epsilon=2 * eps),
            d,
            dp,
            _fixed(eps),
        )
    )
    h_eps, h_delta = 1.0, 0.2
    audits.append(
        BuiltinAudit(
            "stable_histogram_threshold_one_too_low",
            "stable histogram with threshold τ−1; claims ε=1 and the exact δ of τ: item x with count 1 vs 0",
            partial(twin_stable_histogram, epsilon=h_eps, delta=h_delta, threshold_shift=-1.0),
            ["a"] * 30 + ["x"],
            ["a"] * 31,
            _stable_claim(h_eps, h_delta),
            featurize=partial(released, item="x"),
            runs=20_000,
        )
    )
    n_eps, n_delta = 2.0, 0.01
    c = 30
    audits.append(
        BuiltinAudit(
            "stable_histogram_half_noise",
            "stable histogram with Lap(1/ε) instead of Lap(2/ε); claims ε=2: a record moves from item a to item b",
            partial(twin_stable_histogram, epsilon=n_eps, delta=n_delta, noise_factor=0.5),
            ["a"] * c + ["b"] * (c + 10),
            ["a"] * (c - 1) + ["b"] * (c + 11),
            _stable_claim(n_eps, n_delta),
            featurize=partial(censored_difference, first="a", second="b"),
            runs=20_000,
        )
    )
    audits.append(
        BuiltinAudit(
            "bounded_histogram_half_noise",
            "bounded histogram with truncated Lap(1/ε) instead of Lap(2/ε); claims ε=2: a record moves from a to b",
            partial(twin_bounded_histogram, epsilon=n_eps, delta=n_delta, noise_factor=0.5),
            ["a"] * c + ["b"] * (c + 10),
            ["a"] * (c - 1) + ["b"] * (c + 11),
            _bounded_claim(n_eps, n_delta),
            featurize=partial(censored_difference, first="a", second="b"),
            runs=20_000,
        )
    )
    d, dp = shifted_streams(20, -4.0, 2.0)
    audits.append(
        BuiltinAudit(
            "above_threshold_noise_redrawn",
            "AboveThreshold with the threshold noise redrawn for every query; claims ε=1: 20 queries at −4 "
            "(D′: −3), then one at 3 (D′: 2)",
            partial(twin_above_threshold, threshold=0.0, epsilon=eps, redraw=True),
            d,
            dp,
            _fixed(eps),
            runs=1_000_000,
            vectorized=True,
        )
    )
    rs_rounds, rs_tau = 25, 5.0
    audits.append(
        BuiltinAudit(
            "running_sum_above_threshold_noise_redrawn",
            f"running-sum AboveThreshold (seed 004 Thm 2.5) with the threshold noise redrawn every round; claims ε=1: "
            f"b = (1, 0, …, 0) vs (0, …, 0), {rs_rounds} rounds, τ={rs_tau:g} (every running sum shifts by 1)",
            partial(twin_running_sum_above_threshold, threshold=rs_tau, epsilon=eps, redraw=True),
            [1.0] + [0.0] * (rs_rounds - 1),
            [0.0] * rs_rounds,
            _fixed(eps),
            runs=600_000,
            vectorized=True,
        )
    )
    sv_eps, sv_c = 2.0, 30
    audits.append(
        BuiltinAudit(
            "sparse_vector_epsilon_not_split",
            f"SparseVector with c={sv_c} positives giving every AboveThreshold run ε instead of ε/c; claims ε={sv_eps:g}: "
            f"{sv_c} queries at 0 (D′: −1), T=0; statistic: the number of ⊤",
            partial(sparse_vector_answers, threshold=0.0, epsilon=sv_eps, positives=sv_c, epsilon_factor=float(sv_c)),
            [0.0] * sv_c,
            [-1.0] * sv_c,
            _fixed(sv_eps),
            featurize=sum,
        )
    )
    s_eps, s_delta = 1.0, 0.1
    audits.append(
        BuiltinAudit(
            "sparse_selection_without_bottom",
            "sparse selection without the ⊥ weight; claims (ε=1, δ=0.1): one user's set {b} replaced by {c}",
            partial(twin_sparse_selection, epsilon=s_eps, delta=s_delta, s=1, bottom=False),
            [["a"]] * 3 + [["b"]],
            [["a"]] * 3 + [["c"]],
            _fixed(s_eps, s_delta),
        )
    )
    t_eps = 2.0
    audits.append(
        BuiltinAudit(
            "binary_mechanism_without_level_factor",
            "binary mechanism with Lap(Δ/ε) per node instead of Lap(Δ·L/ε) (L=2 levels for T=2); claims ε=2",
            partial(binary_mechanism_prefixes, epsilon=t_eps, scale_epsilon=2.0),
            [1, 0],
            [0, 0],
            _fixed(t_eps),
            featurize=partial(coordinate_sum, indices=(0, 1)),
            runs=20_000,
        )
    )
    audits.append(
        BuiltinAudit(
            "histogram_first_seen_keys",
            "stable histogram releasing keys in first-seen order as first-seen objects; claims (ε=1, exact δ): the "
            "first record 1.0 (then 40× 1, 39× 2) replaced by 2",
            partial(first_seen_histogram, epsilon=h_eps, delta=h_delta),
            [1.0] + [1] * 40 + [2] * 39,
            [2] + [1] * 40 + [2] * 39,
            _stable_claim(h_eps, h_delta),
            featurize=key_layout,
            runs=2000,
        )
    )
    audits.append(
        BuiltinAudit(
            "histogram_exact_size",
            "stable histogram (add/remove-one) that keeps the exact dataset size n in the release; claims (ε=1, exact "
            "δ): 40× a vs 40× a plus one b",
            partial(first_seen_histogram, epsilon=h_eps, delta=h_delta, neighbours="add_remove", exact_n=True),
            ["a"] * 40 + ["b"],
            ["a"] * 40,
            _stable_add_remove_claim(h_eps, h_delta),
            featurize=key_layout,
            runs=2000,
        )
    )
    audits.append(
        BuiltinAudit(
            "laplace_noise_added_in_floats",
            "count + (OpenDP Laplace sample) in float arithmetic on the SECURE backend (the old binary mechanism); "
            "claims ε=1: count 1 vs 0; event: binary exponent and last mantissa bit",
            partial(float_added_laplace_count, epsilon=eps),
            [1],
            [0],
            _fixed(eps),
            featurize=float_bits,
            randomness="secure",
            runs=20_000,
            extra={"secure_only": True},
        )
    )
    sub_eps, n_sub, m_sub = 2.0, 10, 5
    audits.append(
        BuiltinAudit(
            "subsample_from_public_seed",
            "SECURE backend: the 'secret' subsample (5 of 10) drawn from the user's known seed, amplified ε claimed: "
            "record 2 (in that subsample) 1 vs 0",
            partial(subsample_from_public_seed, m=m_sub, epsilon=sub_eps),
            [0, 0, 1] + [0] * (n_sub - 3),
            [0] * n_sub,
            _subsample_claim(sub_eps, m_sub / n_sub),
            randomness="secure",
            extra={"needs_generator": True, "secure_only": True},
        )
    )
    audits.append(
        BuiltinAudit(
            "private_labels_inferred",
            "generic learner with classes=None (label coding read from the private labels); claims ε=1: labels "
            "(1,-1,1,1) vs (1,1,1,1); event: classes_",
            partial(inferred_label_coding, spec="thresholds:8", epsilon=eps),
            (((1,), (2,), (5,), (6,)), (1, -1, 1, 1)),
            (((1,), (2,), (5,), (6,)), (1, 1, 1, 1)),
            _fixed(eps),
            runs=300,
        )
    )
    audits.append(
        BuiltinAudit(
            "labelings_cap_on_data",
            "agnostic learner refusing when the SAMPLE's realizable labelings exceed max_labelings=3; claims ε=4: "
            "points (1, 2, 5, 6) vs (1, 1, 5, 6); event: refused or ran",
            partial(labelings_cap_on_data, max_labelings=3),
            ((1, 2, 5, 6), (0, 0, 1, 1)),
            ((1, 1, 5, 6), (0, 0, 1, 1)),
            _fixed(4.0),
            runs=5000,
        )
    )
    audits.append(
        BuiltinAudit(
            "subsample_not_secret",
            "'subsample' = the first 5 of 10 records (not random), amplified ε claimed: the first record 1 vs 0",
            partial(first_records_laplace, m=m_sub, epsilon=sub_eps),
            [1] + [0] * (n_sub - 1),
            [0] * n_sub,
            _subsample_claim(sub_eps, m_sub / n_sub),
            extra={"needs_generator": True},
        )
    )
    return {a.name: a for a in audits}


def broken_audits() -> dict[str, BuiltinAudit]:
    """Name -> audit of a deliberately broken twin (expected verdict: VIOLATION): the twins of the one registry."""
    from .registry import select

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
