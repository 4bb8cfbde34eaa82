"""PolyPriPropLearn (GGKM21 §6, Algorithm 3, Theorem 6.4): a *proper* (ε, δ)-DP learner.

1. f = PolyPriLearn(α/4, β/3, ε, δ, K_req) on the first m·n examples (K_req from Lemma 6.1, so f = SOA_G with G
   K_req-irreducible and some h ∈ G is α'-close to f under every distribution, α' = α/8).
2. 𝒦 = the minimax set of Lemma 6.2: the support of an optimal *basic* solution of the LP
   min τ s.t. Σ_h p_h·1[h(x) ≠ f(x)] ≤ τ for every x, p a distribution on H (scipy HiGHS dual simplex) — a
   deterministic function of f and H only (post-processing of the released f). Averaging over p,
   min_{h∈𝒦} err_P(h) ≤ err_P(f) + τ* ≤ err_P(f) + α' for every distribution P. Closed forms: 𝒦 = {f} when f ∈ H
   (thresholds, points with the zero function); point functions without 0 and f = 0: ⌈1/α'⌉ point functions.
3. The generic learner (exponential mechanism, score −mistakes, sensitivity 1, ε) over 𝒦 on n′ fresh examples.

Privacy: steps 1 and 3 read disjoint examples, step 2 post-processes f: (ε, δ) under replace-one for every setting.
If PolyPriLearn returns ⊥ the output is a fixed hypothesis of H (:func:`proper_fallback`), reported as ``bottom``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator
from ..bounds.ggkm21 import ProperPlan, polypriproplearn_plan
from ..classes.base import Hypothesis, HypothesisClass
from ..classes.finite import FiniteClass
from ..classes.points import Points, ZERO
from ..errors import InsufficientSampleError, LittlestoneError, PrivacyParameterError
from ..privacy import ExponentialMechanism, PrivacyBudget, PrivacyClaim
from ..privacy.accountant import charge_fit, contained
from ..privacy.backends import Backend
from ..privacy.partition import DataSplit, Part
from ._sklearn import LittlestoneClassifier
from .blm20 import resolve_backend
from .fallback_warning import check_polyprilearn_fit
from .result import PrivateFitResult
from .polyprilearn import (
    PolyPriLearnResult,
    SourceFitMixin,
    check_privacy,
    polyprilearn,
    polyprilearn_claim,
    polyprilearn_mechanism,
    polyprilearn_split,
    resolve_d,
)
from .sources import ArraySource, ExampleSource

#: explicit LPs are built for classes with at most this many hypothesis × point entries
LP_LIMIT = 1 << 24


POLYPRILEARN = "PolyPriLearn (step 1)"
GENERIC = "generic learner over 𝒦 (step 3)"


def proper_split(plan: ProperPlan, n_records: int, source: Any = None) -> tuple[DataSplit, Part, Part]:
    """The data use of Algorithm 3, declared once: S₁ (the first m·n records) feeds PolyPriLearn, S₂ (the next n′)
    the generic learner; step 2 post-processes f. Sizes only: no data is read; with ``source`` the split is bound to
    it (each step then reads its part through its reader only)."""
    split = DataSplit(n_records, "PolyPriPropLearn's sample", source=source)
    s1 = split.feed(split.block(plan.inner.total, "S₁"), POLYPRILEARN)
    s2 = split.feed(split.block(plan.n_generic, "S₂"), GENERIC)
    return split, s1, s2


def proper_claim(split: DataSplit, inner: PrivacyClaim, generic: ExponentialMechanism) -> PrivacyClaim:
    """The claim of a run: the split's composition of PolyPriLearn's claim and the generic learner's mechanism."""
    return split.compose({POLYPRILEARN: inner, GENERIC: generic}, what="PolyPriPropLearn (GGKM21 Alg. 3)")


def proper_privacy(epsilon: float, delta: float, plan: ProperPlan) -> PrivacyClaim:
    """The claim at these parameters (no data): the composition of the mechanisms a run constructs."""
    inner_split = polyprilearn_split(plan.inner, plan.inner.total)[0]
    inner = polyprilearn_claim(inner_split, polyprilearn_mechanism(epsilon, delta, plan.inner))
    return proper_claim(proper_split(plan, plan.total)[0], inner, ExponentialMechanism(epsilon, 1.0))


def proper_fallback(hclass: HypothesisClass) -> Hypothesis:
    """A fixed hypothesis of H (data-independent): the class's SOA if it lies in H, else its first hypothesis."""
    V = hclass.version_space()
    soa = hclass.soa()
    if V.contains(soa):
        return soa
    if isinstance(hclass, Points):
        return hclass.hypothesis(hclass._some_point())
    try:
        return min(V.hypotheses())
    except TypeError:
        raise LittlestoneError(f"no fixed proper fallback for {hclass.name}") from None


def explicit_class(hclass: HypothesisClass, why: str = "the minimax set of Lemma 6.2") -> FiniteClass:
    """H itself if explicit, else its explicit twin (small domains), else a clear error naming the class."""
    if isinstance(hclass, FiniteClass):
        return hclass
    from ..classes.ops import to_finite

    try:
        return to_finite(hclass)
    except (TypeError, LittlestoneError) as exc:
        raise LittlestoneError(f"{why} needs a closed form or an explicit twin of {hclass.name}: {exc}") from None


def candidates_bound(hclass: HypothesisClass, alpha_prime: float) -> int:
    """A data-independent bound on |𝒦| for this class (sizes n′ of the generic stage)."""
    if hclass.soa_is_proper():  # f = SOA_G ∈ H, so 𝒦 = {f} (thresholds, points with the zero function, …)
        return 1
    if isinstance(hclass, Points):  # f ∈ H or f = 0: at most ⌈1/α'⌉ point functions (minimax_set)
        return max(1, math.ceil(1 / alpha_prime))
    F = explicit_class(hclass)
    return int(min(F.n_hypotheses, F.n_points + 1))


@dataclass(frozen=True)
class MinimaxSet:
    """𝒦 (sorted), the LP value τ* = max_x Pr_{h∼p}[h(x) ≠ f(x)], and how it was found."""

    candidates: tuple
    value: float
    method: str


def minimax_set(hclass: HypothesisClass, f: Hypothesis, alpha_prime: float) -> MinimaxSet:
    """Lemma 6.2's set 𝒦 for f (deterministic in f and H; see the module docstring)."""
    V = hclass.version_space()
    if V.contains(f):
        return MinimaxSet((f,), 0.0, "f ∈ H")
    if isinstance(hclass, Points) and f == ZERO:
        r = max(1, math.ceil(1 / alpha_prime))
        dom = hclass.domain
        pts = list(dom.finite[:r]) if dom.finite is not None else []
        i = 0
        while len(pts) < r and dom.finite is None:
            if i in dom:
                pts.append(i)
            i += 1
        return MinimaxSet(tuple(sorted(hclass.hypothesis(p) for p in pts)), 1.0 / len(pts), "closed form (points)")
    F = explicit_class(hclass)
    if F.n_hypotheses * F.n_points > LP_LIMIT:
        raise LittlestoneError(
            f"the minimax LP for {hclass.name} would have {F.n_hypotheses} × {F.n_points} "
            f"entries (more than {LP_LIMIT})"
        )
    from scipy.optimize import linprog

    pts = F.domain_points()
    fv = np.asarray(
        f.predict(F.validate_points(pts) if F.domain._index is not None else np.arange(F.n_points)), dtype=np.uint8
    )
    Dm = (F.matrix != fv[None, :]).astype(float)  # |H| × |X|: 1[h(x) ≠ f(x)]
    nh, nx = Dm.shape
    c = np.zeros(nh + 1)
    c[-1] = 1.0  # minimise τ
    A_ub = np.hstack([Dm.T, -np.ones((nx, 1))])  # Σ_h p_h D[h,x] − τ ≤ 0
    A_eq = np.hstack([np.ones((1, nh)), np.zeros((1, 1))])
    res = linprog(
        c, A_ub=A_ub, b_ub=np.zeros(nx), A_eq=A_eq, b_eq=[1.0], bounds=[(0, None)] * (nh + 1), method="highs-ds"
    )
    if res.status != 0:
        raise LittlestoneError(f"the minimax LP failed: {res.message}")
    p = res.x[:nh]
    rows = np.flatnonzero(p > 1e-9)
    cands = tuple(sorted(F.hypothesis(int(r)) for r in rows))
    return MinimaxSet(cands, float(res.x[-1]), "LP (HiGHS dual simplex, basic solution)")


@dataclass(frozen=True)
class ProperResult(PrivateFitResult):
    """A fit of PolyPriPropLearn: the inner PolyPriLearn result, 𝒦, the generic stage, the claim (composed by its
    data split); ``diagnostics`` (PolyPriLearn's, and the wall time) only when asked for, never saved."""

    epsilon: float
    delta: float
    relation: str
    spent: tuple[float, float]
    plan: ProperPlan
    inner: PolyPriLearnResult
    minimax: MinimaxSet | None
    chosen: Hypothesis
    bottom: bool
    examples_given: int
    examples_used: int
    backend: str
    claim: PrivacyClaim
    diagnostics: dict | None = field(default=None)

    def summary(self) -> str:
        q = self.plan
        lines = [
            self.inner.summary(),
            f"PolyPriPropLearn (GGKM21 Alg. 3): α'={q.alpha_prime:.4g}, K_req={q.K_req:,}, |𝒦| ≤ "
            f"{q.candidates_bound:,}, n′={q.n_generic:,}",
            f"  claim (ε, δ) = ({self.epsilon:g}, {self.delta:g}) {self.relation}; spent {self.spent}",
            f"  f = {self.inner.chosen!r}; 𝒦 = {len(self.minimax.candidates) if self.minimax else 0} hypotheses"
            + (f" (LP value {self.minimax.value:.4g})" if self.minimax else ""),
            f"  chosen {self.chosen!r}" + (" (⊥: fixed fallback hypothesis of H)" if self.bottom else ""),
        ]
        return "\n".join(lines)


def require_proper_examples(hclass: HypothesisClass, d: int, plan: ProperPlan, given: int) -> None:
    """InsufficientSampleError when ``given`` examples are fewer than the plan needs (public sizes only, checked
    before any charge)."""
    if given < plan.total:
        how = "Theorem 6.4 at these (α, β, ε, δ)" if plan.theory else "the sizes you chose"
        raise InsufficientSampleError(
            f"PolyPriPropLearn on {hclass.name} (d={d}) needs {plan.total:,} examples for {how}: "
            f"m={plan.inner.m:,} datasets of n={plan.inner.n:,} for PolyPriLearn plus n′={plan.n_generic:,} for the "
            f"generic learner; got {given:,}. Give more data, or override the sizes (n=, m=, K=, n_generic=): "
            "privacy holds for every setting, the accuracy guarantee only at the theory sizes."
        )


def polypriproplearn(
    hclass: HypothesisClass,
    source: ExampleSource,
    *,
    epsilon: float,
    delta: float,
    alpha: float = 0.1,
    beta: float = 0.05,
    d: int | None = None,
    n: int | None = None,
    m: int | None = None,
    K: int | None = None,
    A: float | None = None,
    eta: float | None = None,
    n_generic: int | None = None,
    convergence: str = "additive",
    backend: Any = "secure",
    seed: SeedLike = None,
    n_jobs: int = 1,
    diagnostics: bool = False,
    minimax: Any = None,
    plan: ProperPlan | None = None,
    accountant: Any = None,
) -> ProperResult:
    """Run Algorithm 3 on a source: PolyPriLearn on the first m·n examples, the generic learner on the next n′.
    ``accountant``: charged the whole claim after the public checks, before any example is read (None: the default
    accountant; nothing inside an estimator's fit or a learner that composed this claim into its own)."""
    t0 = time.perf_counter()
    epsilon, delta = check_privacy(epsilon, delta)
    if not isinstance(backend, Backend) and backend not in ("secure", "seeded"):
        raise PrivacyParameterError(
            f"backend must be 'secure', 'seeded' or a littlestone.privacy Backend, not {backend!r}"
        )
    d = resolve_d(hclass, d, "PolyPriPropLearn")
    if plan is None:
        cb = candidates_bound(hclass, alpha / 8)
        plan = polypriproplearn_plan(
            d,
            alpha,
            epsilon,
            delta,
            beta,
            candidates_bound=cb,
            n_generic=n_generic,
            convergence=convergence,
            n=n,
            m=m,
            K=K,
            A=A,
            eta=eta,
        )
    given = len(source)
    require_proper_examples(hclass, d, plan, given)
    rng = as_generator(seed)
    noise = resolve_backend(backend, rng)
    split, s1, s2 = proper_split(plan, given, source)  # from here on, data only through the split's readers
    generic = ExponentialMechanism(epsilon, sensitivity=1.0)
    inner_claim = polyprilearn_claim(
        polyprilearn_split(plan.inner, s1.stop, s1.start)[0], polyprilearn_mechanism(epsilon, delta, plan.inner)
    )
    claim = proper_claim(split, inner_claim, generic)
    PrivacyBudget(epsilon, delta).charge(claim)  # the split's composition must fit the request, before any data
    charge_fit(accountant, claim, "polypriproplearn")  # before any example is read (inside an estimator: nothing)
    with contained():  # PolyPriLearn's claim is a part of the one charged above
        inner = polyprilearn(
            hclass,
            split.reader(s1, POLYPRILEARN),  # PolyPriLearn sees S₁ only (its own split: its m datasets inside S₁)
            epsilon=epsilon,
            delta=delta,
            d=d,
            backend=noise,
            seed=rng,
            n_jobs=n_jobs,
            diagnostics=diagnostics,
            start=s1.start,
            plan=plan.inner,
        )
    budget = PrivacyBudget(epsilon, 0.0)
    mm = None
    if inner.bottom:
        chosen = proper_fallback(hclass)
    else:
        mm = (minimax or minimax_set)(hclass, inner.chosen, plan.alpha_prime)
        X, y = split.reader(s2, GENERIC).read()
        y = np.asarray(y, dtype=np.int8)
        scores = np.array(
            [-int(np.count_nonzero(np.asarray(h.predict(X), dtype=np.int8) != y)) for h in mm.candidates], dtype=float
        )
        i = generic(scores, backend=noise, budget=budget)
        chosen = mm.candidates[int(i)]
    spent = claim.pair
    diag = None
    if diagnostics:
        diag = {**(inner.diagnostics or {}), "wall_time": time.perf_counter() - t0}
    return ProperResult(
        claim.epsilon,
        claim.delta,
        claim.relation,
        spent,
        plan,
        inner,
        mm,
        chosen,
        inner.bottom,
        given,
        plan.total,
        noise.name,
        claim,
        diag,
    )


class PolyPriPropLearnClassifier(SourceFitMixin, LittlestoneClassifier):
    """(ε, δ)-DP *proper* learner of any class of finite Littlestone dimension with poly(d) examples (GGKM21
    Theorem 6.4), scikit-learn style. Defaults are Theorem 6.4's sizes (``littlestone bounds ggkm21``); ``n``,
    ``m``, ``K``, ``A``, ``eta`` (the PolyPriLearn stage) and ``n_generic`` override them. ``classes`` = (negative
    label, positive label), default (0, 1): declared, never read from the private labels.
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
        m: int | None = None,
        K: int | None = None,
        A: float | None = None,
        eta: float | None = None,
        n_generic: int | None = None,
        convergence: str = "additive",
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
        self.m = m
        self.K = K
        self.A = A
        self.eta = eta
        self.n_generic = n_generic
        self.convergence = convergence
        self.backend = backend
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.diagnostics = diagnostics
        self.classes = classes
        self.accountant = accountant

    def privacy(self) -> tuple[float, float, str]:
        """The learner's claim (ε, δ, relation): its data split's composition of the mechanisms it runs
        (parameters only)."""
        eps, dlt = check_privacy(self.epsilon, self.delta)
        claim = proper_privacy(eps, dlt, self._plan())
        return claim.epsilon, claim.delta, claim.relation

    def _plan(self) -> ProperPlan:
        """The sizes of a fit at these parameters (the planner; no data read)."""
        eps, dlt = check_privacy(self.epsilon, self.delta)
        hclass = self._the_class()
        d = resolve_d(hclass, self.ldim, "PolyPriPropLearn")
        return polypriproplearn_plan(
            d,
            self.alpha,
            eps,
            dlt,
            self.beta,
            candidates_bound=candidates_bound(hclass, self.alpha / 8),
            n_generic=self.n_generic,
            convergence=self.convergence,
            n=self.n,
            m=self.m,
            K=self.K,
            A=self.A,
            eta=self.eta,
        )

    def _learn(self, hclass: HypothesisClass, source: ExampleSource, rng: Any) -> tuple[Hypothesis, ProperResult]:
        res = polypriproplearn(
            hclass,
            source,
            epsilon=self.epsilon,
            delta=self.delta,
            alpha=self.alpha,
            beta=self.beta,
            d=self.ldim,
            n=self.n,
            m=self.m,
            K=self.K,
            A=self.A,
            eta=self.eta,
            n_generic=self.n_generic,
            convergence=self.convergence,
            backend=self.backend,
            seed=rng,
            n_jobs=self.n_jobs,
            diagnostics=self.diagnostics,
        )
        return res.chosen, res

    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, ProperResult]:
        self._check_fallback(len(y01))
        return self._learn(self.hclass_, ArraySource(points, y01), rng)

    def _check_public_sizes(self, n_rows: int) -> None:
        """InsufficientSampleError from the public sizes, before the charge (nothing spent on such a refusal)."""
        hclass = self._the_class()
        require_proper_examples(hclass, resolve_d(hclass, self.ldim, "PolyPriPropLearn"), self._plan(), n_rows)

    def _check_fallback(self, n: int) -> None:
        """FallbackLikelyWarning when the public sizes make the inner ⊥ near certain (issue 28; no data read)."""
        check_polyprilearn_fit(self, n)
