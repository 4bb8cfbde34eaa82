"""Built-in audits: every mechanism of littlestone.privacy on its adversarial neighbouring pair, with its claimed (ε, δ)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import LittlestoneError
from ..privacy import LaplaceMechanism
from .auditor import AuditReport, audit_mechanism

Claim = Callable[[str], tuple[float, float]]


@dataclass(frozen=True)
class BuiltinAudit:
    """A mechanism, an adversarial neighbouring pair (D, D′) and the (ε, δ) it claims (which may depend on the backend)."""

    name: str
    description: str
    mechanism: Callable[[Any, Any], Any]
    D: Any
    D_prime: Any
    claim: Claim
    featurize: Callable[[Any], Any] | None = None
    runs: int = 10_000
    randomness: str = "seeded"
    vectorized: bool = False
    events: Sequence[Any] | None = None
    extra: dict = field(default_factory=dict)
    #: a deliberately broken twin (expected verdict: caught), in the one registry (littlestone.audit.registry)
    broken: bool = False

    def run(
        self,
        *,
        runs: int | None = None,
        seed: Any = None,
        jobs: int = 1,
        randomness: str | None = None,
        confidence: float = 1 - 1e-6,
    ) -> AuditReport:
        """Audit with δ = the claimed δ; ``.passed`` says whether ε_lb ≤ the claimed ε. An audit of floating-point
        safety (``extra["secure_only"]``) always runs on the secure backend, whatever ``randomness`` says."""
        kind = self.randomness if randomness is None or self.extra.get("secure_only") else randomness
        source: Any = kind
        if kind in ("seeded", "secure") and self.extra.get("needs_generator"):
            source = partial(_backend_and_generator, kind)
        epsilon, delta = self.claim(kind)
        return audit_mechanism(
            self.mechanism,
            self.D,
            self.D_prime,
            runs=self.runs if runs is None else runs,
            seed=seed,
            jobs=jobs,
            confidence=confidence,
            delta=delta,
            events=self.events,
            featurize=self.featurize,
            claimed_epsilon=epsilon,
            claimed_delta=delta,
            randomness=source if callable(source) else kind,
            vectorized=self.vectorized,
            name=self.name,
        )


def _backend_and_generator(kind: str, seq: np.random.SeedSequence) -> tuple[Any, np.random.Generator]:
    """A privacy backend plus a numpy Generator (for subsampling indices), both from one SeedSequence."""
    from ..privacy import make_backend

    noise_seq, index_seq = seq.spawn(2)
    backend = make_backend("seeded", seed=noise_seq) if kind == "seeded" else make_backend("secure")
    return backend, np.random.default_rng(index_seq)


def _fixed(epsilon: float, delta: float = 0.0) -> Claim:
    return lambda kind: (epsilon, delta)


def _claim_of(mechanism: Any) -> Claim:
    """The claim read from a littlestone.privacy Mechanism object (the same for every backend)."""
    return lambda kind: mechanism.privacy().pair


class CountLaplace(LaplaceMechanism):
    """The Laplace mechanism (a Mechanism object) releasing the count of a 0/1 dataset (sensitivity 1)."""

    def __call__(self, data: Any, *, backend: Any) -> Any:
        return super().__call__(float(np.sum(data)), backend=backend)


def count_laplace(epsilon: float) -> CountLaplace:
    return CountLaplace(epsilon)


# ------------------------------------------------------------------------------------------ mechanisms under audit


def laplace_count(data: Sequence[int], backend: Any, *, epsilon: float) -> float:
    """Counting query (sensitivity 1) released by the library's Laplace mechanism."""
    from ..privacy import laplace_mechanism

    return laplace_mechanism(float(np.sum(data)), 1.0, epsilon, backend=backend)


def exponential_choice(scores: Sequence[float], backend: Any, *, epsilon: float) -> int:
    from ..privacy import exponential_mechanism

    return exponential_mechanism(scores, epsilon, backend=backend)


def noisy_max_choice(scores: Sequence[float], backend: Any, *, epsilon: float) -> int:
    from ..privacy import report_noisy_max

    return report_noisy_max(scores, epsilon, backend=backend)


def stable_histogram_release(items: Sequence[Any], backend: Any, *, epsilon: float, delta: float) -> Any:
    from ..privacy import stable_histogram

    return stable_histogram(items, epsilon, delta, backend=backend)


def bounded_histogram_release(items: Sequence[Any], backend: Any, *, epsilon: float, delta: float) -> Any:
    from ..privacy import bounded_histogram

    return bounded_histogram(items, epsilon, delta, backend=backend)


def above_threshold_first_top(stream: Sequence[float], backend: Any, *, threshold: float, epsilon: float) -> int:
    """Index of the first ⊤ of the library's AboveThreshold on the query values ``stream`` (−1: no ⊤)."""
    from ..privacy import AboveThreshold

    at = AboveThreshold(threshold, epsilon, backend=backend)
    for i, value in enumerate(stream):
        if at.test(value):
            return i
    return -1


def sparse_vector_answers(
    stream: Sequence[float], backend: Any, *, threshold: float, epsilon: float, positives: int, epsilon_factor: float = 1.0
) -> tuple[bool, ...]:
    """The ⊤/⊥ answers of the library's SparseVector (c = ``positives``) until it halts or the stream ends
    (``epsilon_factor`` ≠ 1 only in the broken twin)."""
    from ..privacy import SparseVector

    sv = SparseVector(threshold, epsilon * epsilon_factor, positives, backend=backend)
    answers = []
    for value in stream:
        answers.append(sv.test(value))
        if sv.halted:
            break
    return tuple(answers)


def running_sum_first_top(stream: Sequence[float], backend: Any, *, threshold: float, epsilon: float) -> int:
    """Round of the first ⊤ of the library's RunningSumAboveThreshold fed b_1, b_2, … (−1: no ⊤)."""
    from ..privacy import RunningSumAboveThreshold

    at = RunningSumAboveThreshold(threshold, epsilon, backend=backend)
    for i, value in enumerate(stream):
        if at.add(value):
            return i
    return -1


def stable_histogram_add_remove(items: Sequence[Any], backend: Any, *, epsilon: float, delta: float) -> Any:
    from ..privacy import stable_histogram

    return stable_histogram(items, epsilon, delta, backend=backend, neighbours="add_remove")


def sparse_selection_choice(lists: Sequence[Sequence[Any]], backend: Any, *, epsilon: float, delta: float, s: int) -> Any:
    from ..privacy import sparse_selection

    return sparse_selection(lists, epsilon, delta, backend=backend, max_list_size=s)


def binary_mechanism_prefixes(stream: Sequence[int], backend: Any, *, epsilon: float, scale_epsilon: float = 1.0) -> tuple:
    """All noisy prefix sums of the library's BinaryMechanism (``scale_epsilon`` ≠ 1 only in the broken twin)."""
    from ..privacy import BinaryMechanism

    bm = BinaryMechanism(len(stream), epsilon * scale_epsilon, backend=backend)
    return tuple(bm.step(x) for x in stream)


def subsampled_laplace(data: Sequence[int], source: tuple[Any, np.random.Generator], *, m: int, epsilon: float) -> float:
    """Laplace count (ε₀ = epsilon) on m records subsampled without replacement by the library's ``subsample``."""
    from ..privacy import laplace_mechanism, subsample

    backend, rng = source
    sub = subsample(list(data), m, rng)
    return laplace_mechanism(float(np.sum(sub)), 1.0, epsilon, backend=backend)


#: the public seed a user passed (saved with a model): secret randomness must not follow it
PUBLIC_SEED = 0


def subsample_with_public_seed(data: Sequence[int], source: tuple[Any, np.random.Generator], *, m: int,
                               epsilon: float) -> float:
    """Laplace count (ε₀) on a subsample drawn by ``secret_generator(backend, PUBLIC_SEED)``: on the secure backend
    the subsample stays secret although the user's seed is known (issue 9 item 6)."""
    from ..privacy import laplace_mechanism, secret_generator, subsample

    backend, _ = source
    sub = subsample(list(data), m, secret_generator(backend, np.random.default_rng(PUBLIC_SEED)))
    return laplace_mechanism(float(np.sum(sub)), 1.0, epsilon, backend=backend)


def declared_label_coding(data: tuple, backend: Any, *, spec: str, epsilon: float, classes: Any) -> str:
    """The label coding (``classes_``) a private estimator reports after fitting (X, y) (issue 9 item 2)."""
    import warnings

    from ..pac.generic import GenericLearnerClassifier

    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = GenericLearnerClassifier(_class_from_spec(spec), epsilon=epsilon, backend=backend, classes=classes)
        est.fit(np.asarray(X), np.asarray(y))
    return repr([c.item() if isinstance(c, np.generic) else c for c in est.classes_])


def agnostic_refusal(data: tuple, backend: Any, *, max_labelings: int) -> str:
    """'refused' or 'ran': whether the agnostic learner (subsample = all, thresholds as an explicit class) refuses
    for its labelings cap — checked on public sizes before any data is read (issue 9 item 20)."""
    from ..pac.agnostic import agnostic_learn

    X, y = data
    try:
        agnostic_learn(_finite_thresholds(), np.asarray(X), np.asarray(y), epsilon=4.0, delta=1e-3,
                       subsample_size=len(y), max_labelings=max_labelings, backend=backend,
                       inner_sizes=dict(n_batches=2, aux_size=1, cap=1, n_generic=2))
    except LittlestoneError as exc:
        if "labelings" in str(exc):
            return "refused"
        raise
    return "ran"


@lru_cache(maxsize=1)
def _finite_thresholds() -> Any:
    from ..classes.finite import FiniteClass

    return FiniteClass(np.tril(np.ones((9, 8), dtype=np.uint8), -1), name="thresholds(8) as a matrix")


@lru_cache(maxsize=8)
def _class_from_spec(spec: str) -> Any:
    from ..classes.spec import parse_class_spec

    return parse_class_spec(spec)


def generic_learner_output(data: tuple, backend: Any, *, spec: str, epsilon: float) -> Any:
    """The hypothesis chosen by the pure-DP generic learner (littlestone.pac.generic) fitted on (X, y): an
    end-to-end audit of a learner rather than of a primitive."""
    from ..pac.generic import GenericLearnerClassifier

    X, y = data
    learner = GenericLearnerClassifier(_class_from_spec(spec), epsilon=epsilon, backend=backend)
    return learner.fit(np.asarray(X), np.asarray(y)).hypothesis_


# ------------------------------------------------------------------------------------------ features of releases


def released(release: Any, *, item: Any) -> bool:
    """Whether ``item`` appears in a histogram release."""
    return item in release


def censored_difference(release: Any, *, first: Any, second: Any) -> float:
    """noisy(first) − noisy(second), a suppressed item read as sitting at the release threshold."""
    return float(release.get(first, release.threshold)) - float(release.get(second, release.threshold))


def edge_excess(release: Any, *, first: Any, first_count: int, second: Any, second_count: int) -> float:
    """How far a release sits outside the support of the neighbour where ``first`` lost a record to ``second``:
    max(noisy(first) − (first_count − 1 + A), (second_count + 1 − A) − noisy(second)), A the truncation bound."""
    a = float(release.meta["truncation"])
    up = float(release.get(first, -math.inf)) - (first_count - 1 + a)
    down = (second_count + 1 - a) - float(release.get(second, math.inf))
    return max(up, down)


def key_layout(release: Any) -> str:
    """The released keys as the release lists them (order and objects: repr), with the size it carries."""
    return f"{[repr(k) for k in release]} n={getattr(release, 'n', None)}"


def float_bits(output: Any, *, index: int = 0) -> str:
    """Binary exponent and last mantissa bit of a float output (of coordinate ``index`` of a vector output): the
    event of Mironov's attack on noise added in floats (Mironov 2012) — rounding makes them depend on the data."""
    value = float(output[index]) if isinstance(output, (tuple, list, np.ndarray)) else float(output)
    exponent = math.frexp(value)[1]
    return f"exp={exponent},lsb={int(np.float64(value).view(np.uint64) & np.uint64(1))}"


def coordinate_sum(output: Sequence[float], *, indices: Sequence[int]) -> float:
    """Sum of the chosen coordinates of a vector output (e.g. the prefix sums that are single dyadic nodes)."""
    return float(sum(output[i] for i in indices))


# ------------------------------------------------------------------------------------------ claims


def _stable_claim(epsilon: float, delta: float) -> Claim:
    def claim(kind: str) -> tuple[float, float]:
        from ..privacy.stable_histogram import calibrated_threshold

        return epsilon, calibrated_threshold(epsilon, delta, discrete=(kind == "secure"))[1]

    return claim


def _stable_add_remove_claim(epsilon: float, delta: float) -> Claim:
    def claim(kind: str) -> tuple[float, float]:
        from ..privacy.stable_histogram import calibrated_threshold

        return epsilon, calibrated_threshold(epsilon, delta, discrete=(kind == "secure"), neighbours="add_remove")[1]

    return claim


def _bounded_claim(epsilon: float, delta: float) -> Claim:
    def claim(kind: str) -> tuple[float, float]:
        from ..privacy import truncation_bound

        return epsilon, truncation_bound(epsilon, delta, discrete=(kind == "secure"))[1]

    return claim


def _subsample_claim(epsilon: float, q: float) -> Claim:
    def claim(kind: str) -> tuple[float, float]:
        from ..privacy import amplified_epsilon

        return amplified_epsilon(epsilon, 0.0, q)

    return claim


# ------------------------------------------------------------------------------------------ neighbouring pairs


def tied_scores_one_boosted(n_candidates: int) -> tuple[list[float], list[float]]:
    """D: candidate 0 at 0, the others tied at 1; D′: candidate 0 boosted to 1, the others down to 0 (Δ = 1)."""
    return [0.0] + [1.0] * (n_candidates - 1), [1.0] + [0.0] * (n_candidates - 1)


def shifted_streams(k: int, low: float, high: float) -> tuple[list[float], list[float]]:
    """k queries below the threshold, shifted up by 1 in D′, then one above it, shifted down by 1 in D′."""
    return [low] * k + [high + 1.0], [low + 1.0] * k + [high]


def _stable_threshold(epsilon: float, delta: float) -> float:
    from ..privacy import stable_histogram_threshold

    return stable_histogram_threshold(epsilon, delta)


def _builtin_audits() -> dict[str, BuiltinAudit]:
    audits: list[BuiltinAudit] = []
    eps = 1.0
    audits.append(
        BuiltinAudit(
            "laplace",
            "Laplace mechanism (a Mechanism object; claim read from it) on a count, ε=1: 5 ones vs 4 ones",
            count_laplace(eps),
            [1] * 5 + [0] * 5,
            [1] * 4 + [0] * 6,
            _claim_of(count_laplace(eps)),
        )
    )
    d, dp = tied_scores_one_boosted(10)
    audits.append(
        BuiltinAudit(
            "exponential",
            "exponential mechanism, ε=1, 10 candidates: tied scores, one boosted (Δ=1)",
            partial(exponential_choice, epsilon=eps),
            d,
            dp,
            _fixed(eps),
        )
    )
    audits.append(
        BuiltinAudit(
            "report_noisy_max",
            "report-noisy-max (exponential noise), ε=1, 10 candidates: tied scores, one boosted (Δ=1)",
            partial(noisy_max_choice, epsilon=eps),
            d,
            dp,
            _fixed(eps),
        )
    )
    hist_eps, hist_delta = 1.0, 0.2
    audits.append(
        BuiltinAudit(
            "stable_histogram_new_item",
            "stable histogram, ε=1, δ=0.2 (claimed: exact δ spent): item x with count 1 vs 0",
            partial(stable_histogram_release, epsilon=hist_eps, delta=hist_delta),
            ["a"] * 30 + ["x"],
            ["a"] * 31,
            _stable_claim(hist_eps, hist_delta),
            featurize=partial(released, item="x"),
        )
    )
    tau = _stable_threshold(hist_eps, hist_delta)
    c = math.ceil(tau)
    audits.append(
        BuiltinAudit(
            "stable_histogram_at_threshold",
            f"stable histogram, ε=1, δ=0.2: item a with count ⌈τ⌉={c} vs {c - 1}, the record moved to item b",
            partial(stable_histogram_release, epsilon=hist_eps, delta=hist_delta),
            ["a"] * c + ["b"] * 40,
            ["a"] * (c - 1) + ["b"] * 41,
            _stable_claim(hist_eps, hist_delta),
            featurize=partial(censored_difference, first="a", second="b"),
        )
    )
    audits.append(
        BuiltinAudit(
            "stable_histogram_add_remove",
            "stable histogram, add/remove-one variant, ε=1, δ=0.2 (claimed: exact δ): item x added once",
            partial(stable_histogram_add_remove, epsilon=hist_eps, delta=hist_delta),
            ["a"] * 30 + ["x"],
            ["a"] * 30,
            _stable_add_remove_claim(hist_eps, hist_delta),
            featurize=partial(released, item="x"),
        )
    )
    audits.append(
        BuiltinAudit(
            "histogram_key_layout",
            "stable histogram, ε=1, δ=0.2: the first record 1.0 (then 40× 1, 39× 2) replaced by 2; event: the order "
            "and objects of the released keys (issue 9 item 4: first-seen order / first-seen object leaked)",
            partial(stable_histogram_release, epsilon=hist_eps, delta=hist_delta),
            [1.0] + [1] * 40 + [2] * 39,
            [2] + [1] * 40 + [2] * 39,
            _stable_claim(hist_eps, hist_delta),
            featurize=key_layout,
            runs=2000,
        )
    )
    audits.append(
        BuiltinAudit(
            "histogram_size_add_remove",
            "stable histogram, add/remove-one, ε=1, δ=0.2: 40× a vs 40× a plus one b; event: the released keys and "
            "the size the release carries (issue 9 item 3: the exact n was released)",
            partial(stable_histogram_add_remove, epsilon=hist_eps, delta=hist_delta),
            ["a"] * 40 + ["b"],
            ["a"] * 40,
            _stable_add_remove_claim(hist_eps, hist_delta),
            featurize=key_layout,
            runs=2000,
        )
    )
    b_eps, b_delta = 1.0, 0.2
    c_b = 40
    audits.append(
        BuiltinAudit(
            "bounded_histogram_at_edge",
            f"bounded histogram, ε=1, δ=0.2: a record moves from item a ({c_b}) to item b ({c_b + 5}); "
            "event: noise beyond the neighbour's truncated support",
            partial(bounded_histogram_release, epsilon=b_eps, delta=b_delta),
            ["a"] * c_b + ["b"] * (c_b + 5),
            ["a"] * (c_b - 1) + ["b"] * (c_b + 6),
            _bounded_claim(b_eps, b_delta),
            featurize=partial(edge_excess, first="a", first_count=c_b, second="b", second_count=c_b + 5),
        )
    )
    audits.append(
        BuiltinAudit(
            "bounded_histogram_new_item",
            "bounded histogram, ε=1, δ=0.2: item x with count 1 vs 0 (never released)",
            partial(bounded_histogram_release, epsilon=b_eps, delta=b_delta),
            ["a"] * 40 + ["x"],
            ["a"] * 41,
            _bounded_claim(b_eps, b_delta),
            featurize=partial(released, item="x"),
        )
    )
    d, dp = shifted_streams(4, -1.0, 0.0)
    audits.append(
        BuiltinAudit(
            "above_threshold",
            "AboveThreshold, ε=1, T=0: 4 queries at −1 (D′: 0), then one at 1 (D′: 0)",
            partial(above_threshold_first_top, threshold=0.0, epsilon=eps),
            d,
            dp,
            _fixed(eps),
        )
    )
    d, dp = [-1.0, 2.0, -1.0, 2.0], [0.0, 1.0, 0.0, 1.0]
    audits.append(
        BuiltinAudit(
            "sparse_vector",
            "SparseVector (c=2 positives), ε=1, T=0: queries −1, 2, −1, 2 vs 0, 1, 0, 1 (opposite shifts)",
            partial(sparse_vector_answers, threshold=0.0, epsilon=eps, positives=2),
            d,
            dp,
            _fixed(eps),
        )
    )
    audits.append(
        BuiltinAudit(
            "running_sum_above_threshold",
            "RunningSumAboveThreshold, ε=1, τ=2: b = (1, 1, 1) vs (0, 1, 1) (every running sum shifts by 1)",
            partial(running_sum_first_top, threshold=2.0, epsilon=eps),
            [1.0, 1.0, 1.0],
            [0.0, 1.0, 1.0],
            _fixed(eps),
        )
    )
    ss_eps, ss_delta = 1.0, 0.1
    from ..privacy import sparse_selection_bottom_score

    k = round(sparse_selection_bottom_score(ss_eps, ss_delta, 1))
    audits.append(
        BuiltinAudit(
            "sparse_selection_new_element",
            "sparse selection, ε=1, δ=0.1, s=1: one user's set {b} replaced by {c} (3 users hold {a})",
            partial(sparse_selection_choice, epsilon=ss_eps, delta=ss_delta, s=1),
            [["a"]] * 3 + [["b"]],
            [["a"]] * 3 + [["c"]],
            _fixed(ss_eps, ss_delta),
        )
    )
    audits.append(
        BuiltinAudit(
            "sparse_selection_at_bottom",
            f"sparse selection, ε=1, δ=0.1, s=1: {k} users hold {{a}} (the ⊥ score B≈{k}); one user's {{b}} becomes {{a}}",
            partial(sparse_selection_choice, epsilon=ss_eps, delta=ss_delta, s=1),
            [["a"]] * k + [["b"]],
            [["a"]] * (k + 1),
            _fixed(ss_eps, ss_delta),
        )
    )
    audits.append(
        BuiltinAudit(
            "binary_mechanism",
            "binary (tree) mechanism, ε=1, T=8: x_1 = 1 vs 0 (x_1 lies in all 4 levels); statistic: the sum of the "
            "prefix sums at t = 1, 2, 4, 8 (the 4 dyadic nodes holding x_1)",
            partial(binary_mechanism_prefixes, epsilon=eps),
            [1, 0, 0, 0, 0, 0, 0, 0],
            [0] * 8,
            _fixed(eps),
            featurize=partial(coordinate_sum, indices=(0, 1, 3, 7)),
        )
    )
    audits.append(
        BuiltinAudit(
            "binary_mechanism_float_safe",
            "binary mechanism (default discrete=False) on the SECURE backend, ε=1, T=1: x_1 = 1 vs 0; event: the "
            "output's binary exponent and last mantissa bit (issue 9 item 1: noise added in floats leaked ε ≥ 5)",
            partial(binary_mechanism_prefixes, epsilon=eps),
            [1],
            [0],
            _fixed(eps),
            featurize=float_bits,
            randomness="secure",
            runs=20_000,
            extra={"secure_only": True},
        )
    )
    audits.append(
        BuiltinAudit(
            "laplace_float_safe",
            "Laplace mechanism on the SECURE backend, ε=1: count 1 vs 0; event: the output's binary exponent and last "
            "mantissa bit (OpenDP's float Laplace applied to the value itself)",
            partial(laplace_count, epsilon=eps),
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
            "subsample_secret_despite_public_seed",
            "SECURE backend: Laplace count (ε₀=2) on m=5 of n=10 records drawn by secret_generator with the user's "
            "seed fixed and known; claimed amplified ε: record 2 (in the seed's subsample) 1 vs 0 (issue 9 item 6)",
            partial(subsample_with_public_seed, m=m_sub, epsilon=sub_eps),
            [0, 0, 1] + [0] * (n_sub - 3),
            [0] * n_sub,
            _subsample_claim(sub_eps, m_sub / n_sub),
            randomness="secure",
            extra={"needs_generator": True, "secure_only": True},
        )
    )
    audits.append(
        BuiltinAudit(
            "private_labels_declared",
            "generic learner (thresholds:8, ε=1) with classes=(-1, 1): labels (1,-1,1,1) vs (1,1,1,1); event: the "
            "label coding classes_ it reports (issue 9 item 2)",
            partial(declared_label_coding, spec="thresholds:8", epsilon=eps, classes=(-1, 1)),
            (((1,), (2,), (5,), (6,)), (1, -1, 1, 1)),
            (((1,), (2,), (5,), (6,)), (1, 1, 1, 1)),
            _fixed(eps),
            runs=300,
        )
    )
    audits.append(
        BuiltinAudit(
            "agnostic_labelings_cap_public",
            "agnostic learner (thresholds(8) as a matrix, all 4 examples kept) with max_labelings=3: points "
            "(1, 2, 5, 6) vs (1, 1, 5, 6); event: refused or ran (issue 9 item 20: the cap was a data-dependent "
            "exception)",
            partial(agnostic_refusal, max_labelings=3),
            ((1, 2, 5, 6), (0, 0, 1, 1)),
            ((1, 1, 5, 6), (0, 0, 1, 1)),
            _fixed(4.0),
            runs=5000,
        )
    )
    audits.append(
        BuiltinAudit(
            "subsampled_laplace",
            "Laplace count with ε₀=2 on m=5 of n=10 records (q=½), claimed amplified ε=ln(1+q(e^ε₀−1)): "
            "the first record 1 vs 0",
            partial(subsampled_laplace, m=m_sub, epsilon=sub_eps),
            [1] + [0] * (n_sub - 1),
            [0] * n_sub,
            _subsample_claim(sub_eps, m_sub / n_sub),
            extra={"needs_generator": True},
        )
    )
    X = ((1,), (2,), (5,), (6,))
    audits.append(
        BuiltinAudit(
            "generic_learner",
            "pure-DP generic learner (exponential mechanism over thresholds:8), ε=1: the label of one of 4 "
            "examples flipped",
            partial(generic_learner_output, spec="thresholds:8", epsilon=eps),
            (X, (0, 0, 1, 1)),
            (X, (1, 0, 1, 1)),
            _fixed(eps),
            runs=1000,
        )
    )
    from .adaptive_game import private_online_audits  # LWY25 Def. 2.4 games of the private online learners

    audits.extend(private_online_audits())
    return {a.name: a for a in audits}


def builtin_audits() -> dict[str, BuiltinAudit]:
    """Name -> BuiltinAudit for every mechanism of littlestone.privacy (the real audits of the one registry)."""
    from .registry import select

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
