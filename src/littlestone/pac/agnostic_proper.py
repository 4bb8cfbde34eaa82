"""Agnostic proper private learner (GGKM21 Cor. 6.5) through LWY25 App. D, Algorithm 4 (Lemma D.3, Claims D.5–D.6),
with the explicit constants derived in docs/derivations.md ("Agnostic GGKM21 via LWY25 Algorithm 4").

On a sample S of n examples:

1. I ⊆ [n] uniform of size m = ⌈ε₀·n⌉ (secret: drawn from the learner's own randomness);
2. R = one hypothesis per labelling of x_I realizable by H (the lowest-index row of each pattern);
3. q(S, h) = min_{f ∈ H} {dis_{S^I}(h, f) + err_S(f)} (sensitivity 1/n);
4. h₀ ∈ R by the exponential mechanism with ε₀ and sensitivity Δ = 1/n;
5. D = x_I relabelled by h₀ (realizable by H);
6. output A′(D): n_A indices drawn uniformly *with replacement* from D, then PolyPriPropLearn (ε_A, δ_A) on them
   (the empirical learner of LWY25 Lemma A.10's kind: on the uniform distribution over D, labelled by h₀ ∈ H, the
   PAC guarantee gives dis_{S^I}(A′(D), h₀) ≤ α).

Privacy (derivation in docs/derivations.md): A′ is (ε′, δ′)-DP under replace-one on D with
ε′ = ln E[e^{ε_A K}] − ln E[e^{−ε_A K}], δ′ = (1 + e^{ε′})·δ_A·(E[e^{ε_A K}] − 1)/(e^{ε_A} − 1), K ~ Bin(n_A, 1/m)
(group privacy over the copies of the changed record); with ε′ ≤ 1, 1/n ≤ ε₀ ≤ 0.1, Claim D.5's proof gives
(ln(e^{ε₀} + 24e³ε₀), 4e²·δ′·m/n) under replace-one on S. These are checked for every setting (a clear error
otherwise); the learner's claim is computed from the parts in :func:`agnostic_parts`.

Accuracy (Claim D.6 with our constants, α, β per step): w.p. ≥ 1 − 4β,
err_P(output) ≤ min_{h∈H} err_P(h) + 7α — hence the defaults α = α_target/7, β = β_target/4.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator
from .._search import least_true
from ..bounds.ggkm21 import ProperPlan, polypriproplearn_plan, uniform_size
from ..classes.base import Hypothesis, HypothesisClass
from ..errors import InsufficientSampleError, LittlestoneError, PrivacyParameterError
from ..privacy import ExponentialMechanism, PrivacyBudget, PrivacyClaim, secret_generator
from ..privacy.accountant import charge_fit, contained
from ..privacy.backends import Backend
from ..privacy.partition import DataSplit, Part
from ._sklearn import LittlestoneClassifier
from .blm20 import resolve_backend
from .result import PrivateFitResult
from .polyprilearn import check_privacy, resolve_d
from .proper import ProperResult, candidates_bound, explicit_class, polypriproplearn, proper_privacy
from .sources import ArraySource, ExampleSource

#: Claim D.5 needs ε₀ ≤ 0.1 (its proof uses ε₀ ≤ 1/3 and m/(n − m) ≤ 6ε₀)
EPS0_MAX = 0.1


# --------------------------------------------------------------------------------------------------------------------
# Privacy accounting (pure functions of the parameters)
# --------------------------------------------------------------------------------------------------------------------


def _log_mgf(s: float, n_draws: int, m: int) -> float:
    """ln E[e^{sK}] for K ~ Bin(n_draws, 1/m)."""
    return n_draws * math.log1p(math.expm1(s) / m)


def _mgf_minus_one(s: float, n_draws: int, m: int) -> float:
    """E[e^{sK}] − 1 (inf when it overflows)."""
    v = _log_mgf(s, n_draws, m)
    return math.expm1(v) if v < 700 else math.inf


def resampling_privacy(eps_a: float, delta_a: float, n_draws: int, m: int) -> tuple[float, float]:
    """(ε′, δ′) of A′: n_draws uniform draws with replacement from a dataset of m records, then an (ε_A, δ_A)-DP
    algorithm (replace-one). Exact in the binomial moments (docs/derivations.md)."""
    eps_p = _log_mgf(eps_a, n_draws, m) - _log_mgf(-eps_a, n_draws, m)
    if eps_p > 700:
        return eps_p, math.inf
    e_delta = delta_a * _mgf_minus_one(eps_a, n_draws, m) / math.expm1(eps_a)
    return eps_p, (1.0 + math.exp(eps_p)) * e_delta


def algorithm4_privacy(eps0: float, inner_delta: float, m: int, n: int) -> tuple[float, float]:
    """Claim D.5's constants: (ln(e^{ε₀} + 24e³ε₀), 4e²·δ′·m/n), valid when A′ is (1, δ′)-DP, 1/n ≤ ε₀ ≤ 0.1."""
    return math.log(math.exp(eps0) + 24 * math.e**3 * eps0), 4 * math.e**2 * inner_delta * m / n


def eps0_for(epsilon: float) -> float:
    """The largest ε₀ ≤ 0.1 with ln(e^{ε₀} + 24e³ε₀) ≤ ε (bisection; the map is increasing)."""
    lo, hi = 0.0, EPS0_MAX
    if algorithm4_privacy(hi, 0.0, 1, 1)[0] <= epsilon:
        return hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if algorithm4_privacy(mid, 0.0, 1, 1)[0] <= epsilon:
            lo = mid
        else:
            hi = mid
    return lo


@dataclass(frozen=True)
class AgnosticPlan:
    """Sizes and privacy split of Algorithm 4 around PolyPriPropLearn."""

    d: int
    epsilon: float
    delta: float
    alpha_step: float
    beta_step: float
    eps0: float
    n: int
    m: int
    n_draws: int
    eps_a: float
    delta_a: float
    inner: ProperPlan
    inner_privacy: tuple[float, float]
    claim: tuple[float, float]
    theory: bool

    @property
    def total(self) -> int:
        return self.n


def agnostic_plan(
    d: int,
    vc: int,
    epsilon: float,
    delta: float,
    alpha: float,
    beta: float,
    *,
    n_hypotheses: float = math.inf,
    inner_candidates: int | None = None,
    n: int | None = None,
    eps_a: float = 1.0,
    convergence: str = "relative",
    inner_sizes: dict | None = None,
) -> AgnosticPlan:
    """Theory sizes (docs/derivations.md) for target (ε, δ, α, β); ``n`` and the inner sizes may be overridden."""
    check_privacy(epsilon, delta)
    inner_sizes = dict(inner_sizes or {})
    a, b = alpha / 7.0, beta / 4.0
    eps0 = eps0_for(epsilon)
    v = max(1, vc)
    theory = n is None and not inner_sizes
    n_fixed = n
    delta_a = 0.5
    for _ in range(20):  # δ_A enters the inner sizes through logarithms: iterate to the fixed point
        q = polypriproplearn_plan(
            d, a, eps_a, delta_a, b, convergence=convergence, candidates_bound=inner_candidates, **inner_sizes
        )
        n_draws = q.total
        # |I| = m: ε′ ≤ 1 for the resampled inner learner, and dis_I ≤ α ⇒ dis_S ≤ 2α (Lemma D.1, λ=1/2, μ=α/2,
        # growth of {h1 ⊕ h2} ≤ (2em/v)^{2v}): 4(2em/v)^{2v}·e^{−αm/24} ≤ β.
        m_priv = least_true(lambda k: resampling_privacy(eps_a, 0.0, n_draws, k)[0] <= 1.0, start=2)
        m_acc = least_true(
            lambda k: math.log(4) + 2 * v * math.log(2 * math.e * k / v) - a * k / 24 <= math.log(b), start=v
        )
        if m_priv is None or m_acc is None:
            raise LittlestoneError("Algorithm 4's subsample size exceeds 2^62 at these parameters")
        m_req = max(m_priv, m_acc)
        if n_fixed is None:
            # n: |I| = ⌈ε₀n⌉ ≥ m_req; the exponential mechanism within α of the best (|R| ≤ min(|H|, (em/v)^v));
            # uniform convergence over H between S and P (additive, α)
            nn = math.ceil(m_req / eps0)
            while True:
                mm = math.ceil(eps0 * nn)
                log_r = (
                    min(math.log(n_hypotheses), v * math.log(math.e * mm / v)) if mm >= v else math.log(n_hypotheses)
                )
                new = max(nn, math.ceil(2.0 / (eps0 * a) * (math.log(1.0 / b) + log_r)), uniform_size(v, a, b))
                if new == nn:
                    break
                nn = new
        else:
            nn = int(n_fixed)
        m = math.ceil(eps0 * nn)
        if not 1.0 / nn <= eps0:
            raise PrivacyParameterError(f"Algorithm 4 needs 1/n ≤ ε₀ = {eps0:.4g}: n = {nn} examples are too few")
        eps_p, _ = resampling_privacy(eps_a, 0.0, n_draws, m)
        if eps_p > 1.0 + 1e-12:
            raise InsufficientSampleError(
                f"with n = {nn:,} examples the relabelled subsample has |I| = {m:,} records, too few for "
                f"{n_draws:,} inner draws: the resampled PolyPriPropLearn would be ({eps_p:.4g}, ·)-DP and Claim D.5 "
                f"needs ε′ ≤ 1. Use n ≥ {math.ceil(m_priv / eps0):,} (or fewer inner examples)."
            )
        # δ split: the target δ = 4e²·δ′·m/n, δ′ = (1+e^{ε′})·δ_A·(E[e^{ε_A K}]−1)/(e^{ε_A}−1)
        factor = (1.0 + math.exp(eps_p)) * _mgf_minus_one(eps_a, n_draws, m) / math.expm1(eps_a)
        new_delta = min(0.5, delta / (4 * math.e**2 * (m / nn) * factor))
        if new_delta >= delta_a:  # the inner sizes used δ_A ≤ new_delta: privacy holds with δ_A as planned
            break
        delta_a = new_delta
    n = nn
    inner_priv = resampling_privacy(eps_a, delta_a, n_draws, m)
    claim = algorithm4_privacy(eps0, inner_priv[1], m, n)
    return AgnosticPlan(
        d, float(epsilon), float(delta), a, b, eps0, n, m, n_draws, eps_a, delta_a, q, inner_priv, claim, theory
    )


SELECT_H0 = "exponential mechanism choosing h₀ (Δ = 1/n)"
INNER = "A′: PolyPriPropLearn on n_A draws with replacement from the relabelled S^I"


def agnostic_mechanism(plan: AgnosticPlan) -> ExponentialMechanism:
    """Step 4's mechanism: the exponential mechanism with ε₀ and sensitivity 1/n."""
    return ExponentialMechanism(plan.eps0, sensitivity=1.0 / plan.n)


def agnostic_claim(plan: AgnosticPlan, select: ExponentialMechanism, inner: PrivacyClaim) -> PrivacyClaim:
    """Claim D.5 from the mechanisms a run constructs: the exponential mechanism's ε₀ and A′'s (ε′, δ′), the
    resampling bound (:func:`resampling_privacy`) of the inner PolyPriPropLearn's claim ``inner``."""
    eps_p, delta_p = resampling_privacy(inner.epsilon, inner.delta, plan.n_draws, plan.m)
    if eps_p > 1.0 + 1e-12:
        raise PrivacyParameterError(f"Claim D.5 needs A′ to be (1, δ′)-DP; it is ({eps_p:.4g}, ·)-DP")
    eps, dlt = algorithm4_privacy(select.epsilon, delta_p, plan.m, plan.n)
    return PrivacyClaim(eps, dlt, "replace-one", "LWY25 Claim D.5 (secret I of size ⌈ε₀n⌉)")


def agnostic_split(
    plan: AgnosticPlan, secret: np.random.Generator | None = None, source: Any = None
) -> tuple[DataSplit, Part, Part]:
    """The data use of Algorithm 4, declared once: the whole sample S feeds the exponential mechanism (its score reads
    err_S), the secret subsample I ⊆ S of size m feeds A′; Claim D.5 covers the two together. Without ``secret`` (the claim only,
    never used to read data) I stands as S's first m records: no index array is drawn, so n may be 10¹³. With ``source``
    the split is bound to it (each step then reads its part through its reader only)."""
    split = DataSplit(plan.n, "the agnostic learner's sample", source=source)
    S = split.feed(split.block(plan.n, "S"), SELECT_H0)
    if secret is None:  # the claim only: which m records I holds does not change it (DataSplit.claim_subsample)
        I = split.feed(split.claim_subsample(plan.m, "I", within=S), INNER)
    else:
        I = split.feed(split.subsample(plan.m, secret, "I", within=S), INNER)
    return split, S, I


def agnostic_privacy(plan: AgnosticPlan) -> PrivacyClaim:
    """The claim at these parameters (no data): Claim D.5 of the mechanisms a run constructs, through its split."""
    split, _, _ = agnostic_split(plan)
    inner = proper_privacy(plan.eps_a, plan.delta_a, plan.inner)
    split.joint((SELECT_H0, INNER), agnostic_claim(plan, agnostic_mechanism(plan), inner))
    return split.compose({}, what="agnostic PolyPriPropLearn (LWY25 Alg. 4)")


# --------------------------------------------------------------------------------------------------------------------
# The learner (explicit finite classes; structured classes through their explicit twin)
# --------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgnosticResult(PrivateFitResult):
    """A fit of the agnostic proper learner: the plan (public sizes, privacy split), the claim, the inner fit.
    ``diagnostics`` (|R|, the number of labellings of H on the secret subsample, and the wall time) are not covered
    by the claim: only with ``diagnostics=True``, never saved."""

    epsilon: float
    delta: float
    relation: str
    plan: AgnosticPlan
    inner: ProperResult
    chosen: Hypothesis
    backend: str
    claim: PrivacyClaim
    diagnostics: dict | None = field(default=None)

    @property
    def spent(self) -> tuple[float, float]:  # type: ignore[override]
        """The claim's (ε, δ) (the one a run spends, whatever it outputs)."""
        return self.claim.pair

    def summary(self) -> str:
        p = self.plan
        return "\n".join(
            [
                f"Agnostic PolyPriPropLearn (LWY25 Alg. 4): n={p.n:,}, |I|=m={p.m:,}, ε₀={p.eps0:.4g}, inner draws "
                f"n_A={p.n_draws:,} at (ε_A, δ_A)=({p.eps_a:g}, {p.delta_a:.3g}) → A′ ({p.inner_privacy[0]:.4g}, "
                f"{p.inner_privacy[1]:.3g})",
                f"  claim (ε, δ) = ({self.epsilon:.4g}, {self.delta:.3g}) {self.relation}; backend {self.backend}"
                + (f" [{self.privacy_note}]" if self.privacy_note else ""),
                f"  chosen {self.chosen!r}",
            ]
            + (
                [f"  [non-private diagnostics] |R| = {self.diagnostics['n_patterns']}"]
                if self.diagnostics is not None
                else []
            )
        )


def require_agnostic_examples(F: HypothesisClass, d: int, plan: AgnosticPlan, given: int) -> None:
    """InsufficientSampleError when ``given`` examples are fewer than the plan needs (public sizes only, checked
    before any charge)."""
    if given < plan.n:
        how = "the theory sizes" if plan.theory else "the sizes you chose"
        raise InsufficientSampleError(
            f"the agnostic learner on {F.name} (d={d}) needs {plan.n:,} examples for {how} (|I| = {plan.m:,} "
            f"relabelled examples, {plan.n_draws:,} inner draws); got {given:,}. Give more data or set n= and the "
            "inner sizes (n_inner=, m=, K=, n_generic=): privacy holds for every setting that passes the checks."
        )


def agnostic_learn(
    hclass: HypothesisClass,
    source: ExampleSource,
    *,
    epsilon: float,
    delta: float,
    alpha: float = 0.1,
    beta: float = 0.05,
    d: int | None = None,
    n: int | None = None,
    backend: Any = "secure",
    seed: SeedLike = None,
    n_jobs: int = 1,
    inner_sizes: dict | None = None,
    diagnostics: bool = False,
    accountant: Any = None,
) -> AgnosticResult:
    """Run Algorithm 4 on the first n examples of a source (any labels: the agnostic setting). ``accountant``: charged
    the whole claim after the public checks, before any example is read (None: the default accountant; nothing
    inside an estimator's fit).

    Randomness: the subsample I and A′'s resampling are SECRET: on the secure backend they come from the OS CSPRNG
    (:func:`~littlestone.privacy.secret_generator`), never from ``seed`` (saved with a model); on the seeded backend
    (not private) from ``seed``."""
    t0 = time.perf_counter()
    epsilon, delta = check_privacy(epsilon, delta)
    if not isinstance(backend, Backend) and backend not in ("secure", "seeded"):
        raise PrivacyParameterError(
            f"backend must be 'secure', 'seeded' or a littlestone.privacy Backend, not {backend!r}"
        )
    F = explicit_class(hclass, "the agnostic learner (it enumerates the labellings of H on a subsample)")
    d = resolve_d(F, d, "the agnostic GGKM21 learner")
    from ..dimensions import vc_dim

    vc = int(vc_dim(F))
    plan = agnostic_plan(
        d,
        vc,
        epsilon,
        delta,
        alpha,
        beta,
        n_hypotheses=F.n_hypotheses,
        inner_candidates=candidates_bound(F, alpha / 56),
        n=n,
        inner_sizes=inner_sizes,
    )
    given = len(source)
    require_agnostic_examples(F, d, plan, given)
    rng = as_generator(seed)
    noise = resolve_backend(backend, rng)
    secret = secret_generator(noise, rng)  # secret on the secure backend, reproducible on the seeded one
    # 1. the secret index set I, declared with the parts it feeds; the claim from the mechanisms this run constructs
    split, S, I_part = agnostic_split(plan, secret, source)  # from here on, data only through the split's readers
    select = agnostic_mechanism(plan)
    inner_claim = proper_privacy(plan.eps_a, plan.delta_a, plan.inner)
    split.joint((SELECT_H0, INNER), agnostic_claim(plan, select, inner_claim))
    claim = split.compose({}, what="agnostic PolyPriPropLearn (LWY25 Alg. 4)")
    PrivacyBudget(epsilon, delta * (1 + 1e-9)).charge(claim)  # the claim must fit the request, before any data
    charge_fit(accountant, claim, "agnostic_learn (LWY25 Alg. 4)")  # before any example is read
    X, y = split.reader(S, SELECT_H0).read()
    idx = F.domain.indices(X)
    y = np.asarray(y, dtype=np.int8)
    xI = F.domain.indices(split.reader(I_part, INNER).rows()[0])  # the points of the secret I, read through I
    # 2. one hypothesis per realizable labelling of x_I (lowest row index: a fixed rule)
    pts = np.unique(xI)
    patterns = F.matrix[:, pts]
    _, first = np.unique(patterns, axis=0, return_index=True)
    R = np.sort(first)
    # 3. q(S, h) = min_f dis_I(h, f) + err_S(f)
    c_I = np.bincount(xI, minlength=F.n_points).astype(np.float64)
    c0 = np.bincount(idx[y != 1], minlength=F.n_points).astype(np.float64)
    c1 = np.bincount(idx[y == 1], minlength=F.n_points).astype(np.float64)
    M = F.matrix.astype(np.float64)
    err = (M @ c0 + (1 - M) @ c1) / plan.n
    MR = M[R]
    dis = (MR @ ((1 - M) * c_I).T + (1 - MR) @ (M * c_I).T) / plan.m  # |R| × |H|
    q = (dis + err[None, :]).min(axis=1)
    # 4. exponential mechanism, ε₀, sensitivity 1/n
    j = select(-q, backend=noise)
    h0 = int(R[int(j)])
    # 5–6. relabel S^I by h₀; A′: n_A draws with replacement (secret), PolyPriPropLearn (ε_A, δ_A)
    draws = secret.integers(0, plan.m, size=plan.n_draws)
    cols = xI[draws]
    Xd = cols.astype(np.int64) if F.domain._index is None else [F.domain.points[int(c)] for c in cols]
    yd = F.matrix[h0, xI[draws]].astype(np.int8)
    with contained():  # A′'s claim is a part of the one charged above
        inner = polypriproplearn(
            F,
            ArraySource(Xd, yd),
            epsilon=plan.eps_a,
            delta=plan.delta_a,
            alpha=plan.alpha_step,
            beta=plan.beta_step,
            d=d,
            backend=noise,
            seed=rng,
            n_jobs=n_jobs,
            plan=plan.inner,
        )
    if (inner.epsilon, inner.delta) != inner_claim.pair:  # the run composed what the claim was computed from
        raise AssertionError("the inner PolyPriPropLearn ran with another claim than Claim D.5 was computed from")
    diag = {"n_patterns": int(len(R)), "wall_time": time.perf_counter() - t0} if diagnostics else None
    return AgnosticResult(
        claim.epsilon, claim.delta, claim.relation, plan, inner, inner.chosen, noise.name, claim, diag
    )


class AgnosticPolyPriPropLearnClassifier(LittlestoneClassifier):
    """(ε, δ)-DP *proper agnostic* learner (GGKM21 Cor. 6.5 via LWY25 Algorithm 4), scikit-learn style, for
    explicit finite classes (structured classes with small domains through their explicit twin).

    ``epsilon``/``delta`` are the target claim; ``n`` (examples used) and the inner PolyPriPropLearn sizes
    (``n_inner``, ``m``, ``K``, ``n_generic``) override the theory sizes; privacy is checked for every setting.
    Randomness: on the secure backend the secret subsample and resampling come from the OS CSPRNG, never from
    ``random_state`` (saved with the model). ``classes`` = (negative label, positive label), default (0, 1):
    declared, never read from the private labels. ``diagnostics=True`` adds non-private statistics to ``result_``
    (never saved).
    Without ``hypothesis_class`` the class is decision stumps on a fixed public grid of [−3, 3] per feature
    (:mod:`littlestone.pac.default_class`; rows are mapped to cells, a DefaultCandidatesWarning says so).
    """

    _private = True
    #: non-private statistics added to ``result_`` only
    _report_only_params = ("diagnostics",)
    _default_grid = True

    def __init__(
        self,
        hypothesis_class: HypothesisClass | str | None = None,
        epsilon: float = 1.0,
        delta: float = 1e-6,
        alpha: float = 0.1,
        beta: float = 0.05,
        ldim: int | None = None,
        n: int | None = None,
        n_inner: int | None = None,
        m: int | None = None,
        K: int | None = None,
        n_generic: int | None = None,
        backend: Any = "secure",
        random_state: Any = None,
        n_jobs: int = 1,
        diagnostics: bool = False,
        classes: Any = (0, 1),
        accountant: Any = None,
    ):
        self.hypothesis_class = hypothesis_class
        self.epsilon = epsilon
        self.delta = delta
        self.alpha = alpha
        self.beta = beta
        self.ldim = ldim
        self.n = n
        self.n_inner = n_inner
        self.m = m
        self.K = K
        self.n_generic = n_generic
        self.backend = backend
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.diagnostics = diagnostics
        self.classes = classes
        self.accountant = accountant

    def _inner_sizes(self) -> dict:
        out = {"n": self.n_inner, "m": self.m, "K": self.K, "n_generic": self.n_generic}
        return {k: v for k, v in out.items() if v is not None}

    def privacy(self) -> tuple[float, float, str]:
        """The claim (ε, δ, relation) of Claim D.5 at this estimator's parameters (no data read)."""
        claim = agnostic_privacy(self._plan())
        return claim.epsilon, claim.delta, claim.relation

    def _plan(self) -> "AgnosticPlan":
        """Algorithm 4's sizes and privacy split at this estimator's parameters (public: no data read)."""
        F = explicit_class(self._the_class(), "the agnostic learner")
        from ..dimensions import vc_dim

        d = resolve_d(F, self.ldim, "the agnostic GGKM21 learner")
        return agnostic_plan(
            d,
            int(vc_dim(F)),
            self.epsilon,
            self.delta,
            self.alpha,
            self.beta,
            n_hypotheses=F.n_hypotheses,
            inner_candidates=candidates_bound(F, self.alpha / 56),
            n=self.n,
            inner_sizes=self._inner_sizes(),
        )

    def _check_public_sizes(self, n_rows: int) -> None:
        """InsufficientSampleError from the public sizes, before the charge (nothing spent on such a refusal)."""
        F = explicit_class(self._the_class(), "the agnostic learner")
        require_agnostic_examples(F, resolve_d(F, self.ldim, "the agnostic GGKM21 learner"), self._plan(), n_rows)

    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, AgnosticResult]:
        from .fallback_warning import check_agnostic_polypriprop_fit

        check_agnostic_polypriprop_fit(self, len(y01))  # FallbackLikelyWarning from public sizes (issue 28)
        res = agnostic_learn(
            self._the_class(),
            ArraySource(points, y01),
            epsilon=self.epsilon,
            delta=self.delta,
            alpha=self.alpha,
            beta=self.beta,
            d=self.ldim,
            n=self.n,
            backend=self.backend,
            seed=rng,
            n_jobs=self.n_jobs,
            inner_sizes=self._inner_sizes(),
            diagnostics=self.diagnostics,
        )
        return res.chosen, res
