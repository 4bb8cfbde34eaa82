"""Agnostic private learner of Littlestone classes (BLM20 Corollary 2) by a realizable→agnostic transformation.

Reconstructed (the construction of BNS15/ABMS20 is not restated in BLM20; constants ours): (1) keep a uniformly
random subset S0 of N0 of the N examples; (2) choose a labeling ℓ of S0's points realizable by H with the exponential
mechanism (score −#errors, ε_ℓ); (3) relabel S0 by ℓ and run the realizable BLM20 learner M with (ε_M, δ_M) at
accuracy α/4. Privacy (replace-one) is derived in full: (E0, δ_M) with E0 = ln 4 + ε_ℓ + ε_M for steps 2–3,
amplified by step 1 to (ln(1 + q(e^{E0} − 1)), q·δ_M) (BBG18 Thm 9). Accuracy is not claimed, only measured
(tests/pac/test_blm20_agnostic.py). Derivation and the two unproved accuracy steps: docs/derivations.md,
"Agnostic transformation (BLM20 Corollary 2)".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator
from ..bounds.agnostic import EPS_INNER, EPS_LABEL, agnostic_sizes, inner_epsilon
from ..classes.base import Hypothesis, HypothesisClass, VersionSpace, as_python_point
from ..errors import EmptyDataError, InsufficientSampleError, LittlestoneError, PrivacyParameterError
from ..privacy import (
    ExponentialMechanism,
    PrivacyBudget,
    PrivacyClaim,
    compose,
    sampling_rate_for,
    secret_generator,
    subsampled,
)
from ..privacy.accountant import charge_fit, contained
from ..privacy.budget import Charge
from ..privacy.partition import DataSplit
from ._sklearn import LittlestoneClassifier
from .blm20 import BLM20Result, _check_privacy, backend_is_discrete, blm20_learn, blm20_privacy, resolve_backend
from .fallback_warning import check_agnostic_blm20_fit
from .result import PrivateFitResult
from .sources import ArraySource

#: default public cap on the realizable labelings of the subsample (checked before any data is read)
MAX_LABELINGS = 1 << 20


def labelings_bound(n_points: int, vc: int) -> int:
    """Sauer–Shelah: a class of VC dimension ≤ vc realizes at most Σ_{i≤vc} C(n, i) labelings of n points."""
    total, term = 0, 1
    for i in range(min(vc, n_points) + 1):
        total += term
        term = term * (n_points - i) // (i + 1)
    return total


def agnostic_privacy(
    epsilon_label: float, epsilon_inner: float, delta_inner: float, q: float, *, discrete: bool | None = None
) -> PrivacyClaim:
    """The agnostic learner's claim, composed from its parts [REC]: the relabelling's ln 4 (one changed example
    changes the realizable extensions of a labelling by a factor ≤ 4), the exponential mechanism over labelings
    (ε_ℓ), and M (:func:`~littlestone.pac.blm20.blm20_privacy` at (ε_M, δ_M)) — basic composition gives
    (E0, δ_M), E0 = ln 4 + ε_ℓ + ε_M — amplified by the secret subsample of rate q (BBG18 Thm 9)."""
    steps = agnostic_steps(epsilon_label, epsilon_inner, delta_inner, discrete=discrete)
    return subsampled(steps, q, what=AMPLIFIED)


#: the steps that read the secret subsample S₀, and the name of their amplified claim
STEPS = "relabel + EM + M"
AMPLIFIED = "agnostic BLM20 (secret subsample of rate q) [REC]"


def agnostic_steps(
    epsilon_label: float | ExponentialMechanism,
    epsilon_inner: float,
    delta_inner: float,
    *,
    discrete: bool | None = None,
) -> PrivacyClaim:
    """Steps 2–3 on S₀ composed (basic): the relabelling's ln 4 [REC], the exponential mechanism over labelings (ε_ℓ;
    the mechanism object a run calls, or its ε) and M (:func:`~littlestone.pac.blm20.blm20_privacy`: the composition
    of the mechanisms M constructs)."""
    relabel = PrivacyClaim(math.log(4.0), 0.0, "replace-one", "relabelling to realizable extensions [REC]")
    select = epsilon_label if isinstance(epsilon_label, ExponentialMechanism) else ExponentialMechanism(epsilon_label)
    return compose([relabel, select, blm20_privacy(epsilon_inner, delta_inner, discrete=discrete)], what=STEPS)


def realizable_labelings(V: VersionSpace, points: list, max_labelings: int = MAX_LABELINGS) -> np.ndarray:
    """All labelings of ``points`` (distinct, validated) realized by V, as a (|Π|, r) uint8 array
    (:meth:`VersionSpace.labelings`: closed form for thresholds, depth-first search otherwise; a LittlestoneError
    past ``max_labelings``)."""
    return V.labelings(points, limit=max_labelings)


@dataclass(frozen=True)
class AgnosticResult(PrivateFitResult):
    """The claim (:func:`agnostic_privacy`, amplified, see module doc), sizes and the inner realizable run. No
    data-dependent counts (the number of realizable labelings of the sample is not reported)."""

    epsilon: float
    delta: float
    spent: tuple[float, float]
    claim: PrivacyClaim
    ledger: tuple
    backend: str
    inner_epsilon: float
    inner_delta_spent: float
    q: float
    n_given: int
    n_subsample: int
    max_labelings: int
    inner: BLM20Result
    chosen: Hypothesis
    reconstructed: bool = True

    def stage_sizes(self) -> dict[str, int]:
        return {"given": self.n_given, "secret subsample": self.n_subsample, **self.inner.stage_sizes()}

    def summary(self) -> str:
        return (
            f"agnostic BLM20 [REC]: {self.claim_line()} for requested ({self.epsilon:g}, {self.delta:g}); "
            f"backend {self.backend}\n  secret subsample {self.n_subsample:,} of {self.n_given:,} (q = {self.q:.4g})"
            f"\n" + self.inner.summary()
        )


def subsample_plan(
    hclass: HypothesisClass,
    N: int,
    epsilon: float,
    delta: float,
    alpha: float,
    beta: float,
    d: int | None,
    vc: int | None,
    subsample_size: int | None,
    eps_label: float = EPS_LABEL,
    eps_inner: float = EPS_INNER,
) -> tuple[int, float, int, float, float]:
    """(d, E0, N0, q, δ_inner) of the agnostic learner on N examples: public quantities only (no data read), the
    ones its claim is computed from (:meth:`AgnosticBLM20Classifier.privacy`)."""
    if N == 0:
        raise EmptyDataError("no examples given (empty data)")
    d = int(hclass.ldim() if d is None else d)
    E0 = inner_epsilon(eps_label, eps_inner)
    if subsample_size is None:
        rep = agnostic_sizes(d, alpha, epsilon, delta, beta, vc=vc, eps_label=eps_label, eps_inner=eps_inner)
        if N < rep.total:
            raise InsufficientSampleError(
                f"the agnostic BLM20 learner (d={d}) needs {rep.total:,} examples (Corollary 2, reconstructed: "
                f"subsample N0={rep['N0']:,} at rate q={rep['q']:.4g}); got {N:,}. Give more data or pass "
                "subsample_size= and inner_sizes= (privacy holds for every setting)."
            )
        N0 = rep["N0"]
    else:
        N0 = int(subsample_size)
        if not 1 <= N0 <= N:
            raise LittlestoneError(f"subsample_size must lie in [1, {N}], got {subsample_size!r}")
    q = N0 / N
    if math.log1p(q * math.expm1(E0)) > epsilon * (1 + 1e-9):
        q_max = sampling_rate_for(epsilon, E0)
        raise PrivacyParameterError(
            f"subsample_size={N0} of {N} examples gives ε = "
            f"{math.log1p(q * math.expm1(E0)):.4g} > {epsilon}; at most "
            f"{math.floor(q_max * N):,} examples may be subsampled for this ε"
        )
    delta_inner = min(delta / q, 0.999999)
    return d, E0, N0, q, delta_inner


def agnostic_learn(
    hclass: HypothesisClass,
    X: Any,
    y: Any,
    *,
    epsilon: float,
    delta: float,
    alpha: float = 0.1,
    beta: float = 0.05,
    d: int | None = None,
    vc: int | None = None,
    subsample_size: int | None = None,
    eps_label: float = EPS_LABEL,
    eps_inner: float = EPS_INNER,
    inner_sizes: dict | None = None,
    backend: Any = "secure",
    seed: SeedLike = None,
    n_jobs: int = 1,
    max_labelings: int = MAX_LABELINGS,
    accountant: Any = None,
) -> AgnosticResult:
    """Corollary 2's agnostic (ε, δ)-DP learner via the reconstructed transformation (module doc) [REC].

    Randomness: the subsample S0 and the shuffle are SECRET (the proof's "secrecy of the sample"): on the secure
    backend they come from the OS CSPRNG (:func:`~littlestone.privacy.secret_generator`), never from ``seed``, which
    is saved with a model; on the seeded backend (not private) they come from ``seed``. G's coins inside M may be
    public. ``max_labelings`` caps the realizable labelings of S0; it is checked BEFORE any data is read against the
    Sauer–Shelah bound Σ_{i≤vc} C(r, i), r = min(N0, |domain|), with vc = ``vc`` (default: the Littlestone
    dimension, an upper bound on the VC dimension), so the refusal never depends on the data. (A ``vc`` below the
    class's true VC dimension voids this and can make the enumeration raise on data.) ``accountant``: charged the
    amplified claim after the public checks, before any example is read (None: the default accountant; nothing
    inside an estimator's fit)."""
    epsilon, delta = _check_privacy(epsilon, delta)
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < float(v) < 1.0:
            raise LittlestoneError(f"{name} must lie in (0, 1), got {v!r}")
    N = len(y)
    d, E0, N0, q, delta_inner = subsample_plan(
        hclass, N, epsilon, delta, alpha, beta, d, vc, subsample_size, eps_label, eps_inner
    )
    if isinstance(max_labelings, bool) or not isinstance(max_labelings, (int, np.integer)) or max_labelings < 1:
        raise LittlestoneError(f"max_labelings must be an integer >= 1, got {max_labelings!r}")
    vc_bound = d if vc is None else int(vc)
    r_max = N0 if not math.isfinite(hclass.domain_size) else min(N0, int(hclass.domain_size))
    if labelings_bound(r_max, vc_bound) > max_labelings:  # public quantities only: no data read yet
        raise LittlestoneError(
            f"the agnostic transformation enumerates the realizable labelings of its subsample: up to "
            f"{labelings_bound(r_max, vc_bound):,} for {r_max:,} points at VC ≤ {vc_bound} (Sauer–Shelah), more than "
            f"max_labelings={max_labelings:,}. Lower subsample_size, give the class's VC dimension as vc=, or raise "
            "max_labelings (checked before reading any data)"
        )
    rng = as_generator(seed)
    noise = resolve_backend(backend, rng)
    secret = secret_generator(noise, rng)  # secret on the secure backend, reproducible on the seeded one
    # step 1: secrecy of the sample — S₀ handed out by the split, which also amplifies the claim of the steps on it
    split = DataSplit(N, "the agnostic learner's sample", source=ArraySource(X, y))  # read through its parts only
    S0 = split.feed(split.subsample(N0, secret, "S₀"), STEPS)
    select = ExponentialMechanism(eps_label, sensitivity=1.0)  # step 2's mechanism: the one the claim composes
    steps = agnostic_steps(select, eps_inner, delta_inner, discrete=noise.floating_point_safe)
    amplified = split.amplify(S0, steps, what=AMPLIFIED)
    claim = split.compose({STEPS: amplified}, what=AMPLIFIED)
    PrivacyBudget(epsilon, delta).charge(claim)  # the composed claim must fit the request, checked before any data
    charge_fit(accountant, claim, "agnostic_learn (BLM20 Cor. 2)")  # before any example is read
    XS, ys = split.reader(S0, STEPS).rows()  # the records of the secret subsample, nothing else
    pts = [as_python_point(x) for x in XS]
    distinct = sorted(set(pts), key=lambda p: (str(type(p)), p))
    pos = {p: j for j, p in enumerate(distinct)}
    col = np.fromiter((pos[p] for p in pts), dtype=np.int64, count=N0)
    ones = np.bincount(col, weights=ys, minlength=len(distinct))
    zeros = np.bincount(col, minlength=len(distinct)) - ones
    Pi = realizable_labelings(hclass.version_space(), distinct, max_labelings)  # step 2: labelings Π, EM
    errors = Pi @ zeros + (1 - Pi.astype(np.int64)) @ ones  # ℓ(x)=1 errs on label-0 examples
    j = select(-errors.astype(float), backend=noise)
    relabel = Pi[j][col].astype(np.int8)  # step 3: relabel, shuffle, run M
    order = secret.permutation(N0)
    if isinstance(XS, np.ndarray) and XS.dtype != object:
        Xs: Any = XS[order]
    else:
        Xs = np.empty(N0, dtype=object)
        Xs[:] = [pts[i] for i in order]
    with contained():  # M's claim is a part of the amplified claim above
        inner = blm20_learn(
            hclass,
            ArraySource(Xs, relabel[order]),
            epsilon=eps_inner,
            delta=delta_inner,
            alpha=alpha / 4.0,
            beta=beta / 4.0,
            d=d,
            backend=noise,
            seed=rng,
            n_jobs=n_jobs,
            **(inner_sizes or {}),
        )
    if inner.claim.pair != steps.parts[-1].pair:  # M ran with the claim the composition was computed from
        raise AssertionError("the inner BLM20 run's claim differs from the one composed into the agnostic claim")
    return AgnosticResult(
        epsilon=epsilon,
        delta=delta,
        spent=claim.pair,
        claim=claim,
        ledger=tuple(Charge(c.epsilon, c.delta, c.what) for c in steps.parts),
        backend=noise.name,
        inner_epsilon=E0,
        inner_delta_spent=inner.spent[1],
        q=q,
        n_given=N,
        n_subsample=N0,
        max_labelings=int(max_labelings),
        inner=inner,
        chosen=inner.chosen,
    )


class AgnosticBLM20Classifier(LittlestoneClassifier):
    """(ε, δ)-DP agnostic learner for a Littlestone class (BLM20 Corollary 2; transformation reconstructed).
    ``classes`` = (negative label, positive label), default (0, 1): declared, never read from the private labels.
    Randomness: on the secure backend the secret subsample and shuffle come from the OS CSPRNG, never from
    ``random_state`` (which is saved with the model and may be public); see :func:`agnostic_learn`."""

    _private = True

    def __init__(
        self,
        hypothesis_class: HypothesisClass | str | None = None,
        epsilon: float = 1.0,
        delta: float = 1e-6,
        alpha: float = 0.1,
        beta: float = 0.05,
        ldim: int | None = None,
        vc: int | None = None,
        subsample_size: int | None = None,
        inner_sizes: dict | None = None,
        backend: Any = "secure",
        random_state: Any = None,
        n_jobs: int = 1,
        classes: Any = (0, 1),
        max_labelings: int = MAX_LABELINGS,
        accountant: Any = None,
    ):
        self.hypothesis_class = hypothesis_class
        self.epsilon = epsilon
        self.delta = delta
        self.alpha = alpha
        self.beta = beta
        self.ldim = ldim
        self.vc = vc
        self.subsample_size = subsample_size
        self.inner_sizes = inner_sizes
        self.backend = backend
        self.random_state = random_state
        self.classes = classes
        self.max_labelings = max_labelings
        self.n_jobs = n_jobs
        self.accountant = accountant

    def privacy(self, n_samples: int | None = None) -> tuple[float, float, str]:
        """The claim (ε, δ, relation) of a fit on ``n_samples`` examples (public: the secret subsample's rate
        q = N0/n sets the amplification; default: the fitted n): :func:`agnostic_privacy` at the sizes the fit uses."""
        if n_samples is None:
            n_samples = getattr(getattr(self, "result_", None), "n_given", None)
            if n_samples is None:
                raise LittlestoneError(
                    "AgnosticBLM20Classifier's claim depends on the number of examples n (the secret subsample's "
                    "rate q = N0/n): give privacy(n_samples=n)"
                )
        epsilon, delta = _check_privacy(self.epsilon, self.delta)
        _, _, _, q, delta_inner = subsample_plan(
            self._the_class(),
            int(n_samples),
            epsilon,
            delta,
            self.alpha,
            self.beta,
            self.ldim,
            self.vc,
            self.subsample_size,
        )
        claim = agnostic_privacy(EPS_LABEL, EPS_INNER, delta_inner, q, discrete=backend_is_discrete(self.backend))
        return claim.epsilon, claim.delta, claim.relation

    def _fit_claim(self, n_rows: int) -> tuple[float, float, str]:
        return self.privacy(n_rows)

    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, AgnosticResult]:
        check_agnostic_blm20_fit(self, self._the_class(), len(y01))  # FallbackLikelyWarning, public sizes (issue 28)
        res = agnostic_learn(
            self._the_class(),
            points,
            y01,
            epsilon=self.epsilon,
            delta=self.delta,
            alpha=self.alpha,
            beta=self.beta,
            d=self.ldim,
            vc=self.vc,
            subsample_size=self.subsample_size,
            inner_sizes=self.inner_sizes,
            backend=self.backend,
            seed=rng,
            n_jobs=self.n_jobs,
            max_labelings=self.max_labelings,
        )
        return res.chosen, res
