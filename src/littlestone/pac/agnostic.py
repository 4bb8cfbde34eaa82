"""Agnostic private learner of Littlestone classes (seed 001 Corollary 2) by a realizable→agnostic transformation.

[REC, spec §8 — the construction of BNS15/ABMS20 is not in the seeds; this is our reconstruction, constants ours]
  1. secrecy of the sample: keep a uniformly random subset S0 of N0 of the N examples (q = N0/N);
  2. Π = the labelings of S0's points realizable by H; choose ℓ ∈ Π by the exponential mechanism with ε_ℓ, score
     −#errors on S0;
  3. relabel S0 by ℓ (realizable), shuffle, and run the realizable BLM20 learner M with (ε_M, δ_M) at accuracy α/4.
Privacy (our derivation, replace-one): for S, S′ differing at index i and any labeling r of the common points, the
unnormalized EM weight of r changes by a factor in [e^{-ε_ℓ/2}/2, 2e^{ε_ℓ/2}] (r has 1 or 2 extensions to x_i), so
P[ℓ|_common = r] moves by ≤ 4e^{ε_ℓ}; given r the relabelled samples differ only at i, where M is (ε_M, δ_M)-DP.
Steps 2–3 are therefore (E0, δ_M)-DP with E0 = ln 4 + ε_ℓ + ε_M, and step 1 amplifies this to
(ln(1 + q(e^{E0} − 1)), q·δ_M) (Balle–Barthe–Gaboardi 2018 Thm 9, sampling without replacement).
Accuracy [REC — INCOMPLETE, not a proof]: the sizes make (a) uniform convergence over H at t = α/4 (VC bound), so the
chosen labeling ℓ (realized by some h_ℓ ∈ H) has err_P(h_ℓ) ≤ OPT + O(α) once (b) the EM's error gap is ≤ α/4, and
(c) M, at accuracy α/4, is run on the relabelled subsample. Two steps are NOT proved here: M's guarantee is for i.i.d.
draws, while it receives a shuffled finite sample (drawn without replacement); and M's output may be improper (an
SOA of a tournament sample, not in H), so (a) does not transfer its error from the subsample to P — this is exactly
the step for which seed 001 (Corollary 2, footnote 3) needs the improper-learner transformation of ABMS20 rather than
BNS15, and that paper is not in the seeds (spec §8: "treat all constants as unknown"). Privacy above is derived in
full; the accuracy of Corollary 2 is therefore not claimed, only measured (tests/pac/test_blm20_agnostic.py).
The order of steps also differs from the spec §8 skeleton (which relabels all N points and then subsamples m with
replacement): subsampling first keeps every record in at most one position of M's input, so M's replace-one privacy
applies as is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator
from ..bounds.agnostic import EPS_INNER, EPS_LABEL, agnostic_sizes, inner_epsilon
from ..classes.base import Hypothesis, HypothesisClass, VersionSpace, as_python_point
from ..classes.thresholds import ThresholdsVersionSpace
from ..errors import EmptyDataError, InsufficientSampleError, LittlestoneError, PrivacyParameterError
from ..privacy import PrivacyBudget, amplified_epsilon, exponential_mechanism, sampling_rate_for
from ._sklearn import LittlestoneClassifier
from .blm20 import BLM20Result, _check_privacy, blm20_learn, resolve_backend
from .sources import ArraySource

MAX_LABELINGS = 1 << 20


def realizable_labelings(V: VersionSpace, points: list) -> np.ndarray:
    """All labelings of ``points`` (distinct, validated) realized by V, as a (|Π|, r) uint8 array.
    Thresholds in closed form (monotone labelings); other classes by depth-first search over restrictions."""
    r = len(points)
    if isinstance(V, ThresholdsVersionSpace) and all(isinstance(p, int) for p in points):
        xs = np.array(points, dtype=object if V.hi > 2**62 else np.int64)
        cuts = sorted({V.lo, *[p + 1 for p in points if V.lo <= p + 1 <= V.hi]} | ({V.hi} if V.hi >= V.lo else set()))
        rows = {tuple(int(x >= t) for x in xs.tolist()) for t in cuts if V.lo <= t <= V.hi}
        return np.array(sorted(rows), dtype=np.uint8).reshape(-1, r)
    out: list[tuple] = []

    def dfs(W: VersionSpace, i: int, prefix: tuple) -> None:
        if len(out) > MAX_LABELINGS:
            raise LittlestoneError(f"more than {MAX_LABELINGS:,} realizable labelings: the class is too rich for the "
                                   "exact agnostic transformation on this sample")
        if i == r:
            out.append(prefix)
            return
        for b in (0, 1):
            W2 = W.restrict(points[i], b)
            if not W2.is_empty():
                dfs(W2, i + 1, prefix + (b,))

    dfs(V, 0, ())
    return np.array(out, dtype=np.uint8).reshape(-1, r)


@dataclass(frozen=True)
class AgnosticResult:
    """Spent budget (amplified, see module doc), sizes, the labeling stage and the inner realizable run."""

    epsilon: float
    delta: float
    spent: tuple[float, float]
    inner_epsilon: float
    inner_delta_spent: float
    q: float
    n_given: int
    n_subsample: int
    labelings: int
    inner: BLM20Result
    chosen: Hypothesis
    reconstructed: bool = True


def agnostic_learn(hclass: HypothesisClass, X: Any, y: Any, *, epsilon: float, delta: float, alpha: float = 0.1,
                   beta: float = 0.05, d: int | None = None, vc: int | None = None, subsample_size: int | None = None,
                   eps_label: float = EPS_LABEL, eps_inner: float = EPS_INNER, inner_sizes: dict | None = None,
                   backend: Any = "secure", seed: SeedLike = None, n_jobs: int = 1) -> AgnosticResult:
    """Corollary 2's agnostic (ε, δ)-DP learner via the reconstructed transformation (module doc) [REC]."""
    epsilon, delta = _check_privacy(epsilon, delta)
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < float(v) < 1.0:
            raise LittlestoneError(f"{name} must lie in (0, 1), got {v!r}")
    N = len(y)
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
                "subsample_size= and inner_sizes= (privacy holds for every setting).")
        N0 = rep["N0"]
    else:
        N0 = int(subsample_size)
        if not 1 <= N0 <= N:
            raise LittlestoneError(f"subsample_size must lie in [1, {N}], got {subsample_size!r}")
    q = N0 / N
    if math.log1p(q * math.expm1(E0)) > epsilon * (1 + 1e-9):
        q_max = sampling_rate_for(epsilon, E0)
        raise PrivacyParameterError(f"subsample_size={N0} of {N} examples gives ε = "
                                    f"{math.log1p(q * math.expm1(E0)):.4g} > {epsilon}; at most "
                                    f"{math.floor(q_max * N):,} examples may be subsampled for this ε")
    delta_inner = min(delta / q, 0.999999)
    rng = as_generator(seed)
    noise = resolve_backend(backend, rng)
    y = np.asarray(y, dtype=np.int8)
    idx = np.sort(rng.choice(N, size=N0, replace=False))                       # step 1: secrecy of the sample
    pts = [as_python_point(X[i]) for i in idx]
    ys = y[idx]
    distinct = sorted(set(pts), key=lambda p: (str(type(p)), p))
    pos = {p: j for j, p in enumerate(distinct)}
    col = np.fromiter((pos[p] for p in pts), dtype=np.int64, count=N0)
    ones = np.bincount(col, weights=ys, minlength=len(distinct))
    zeros = np.bincount(col, minlength=len(distinct)) - ones
    Pi = realizable_labelings(hclass.version_space(), distinct)                # step 2: labelings Π, EM
    errors = Pi @ zeros + (1 - Pi.astype(np.int64)) @ ones                     # ℓ(x)=1 errs on label-0 examples
    j = exponential_mechanism(-errors.astype(float), eps_label, sensitivity=1.0, backend=noise)
    relabel = Pi[j][col].astype(np.int8)                                       # step 3: relabel, shuffle, run M
    order = rng.permutation(N0)
    if isinstance(X, np.ndarray) and X.dtype != object:
        Xs: Any = X[idx][order]
    else:
        Xs = np.empty(N0, dtype=object)
        Xs[:] = [pts[i] for i in order]
    inner = blm20_learn(hclass, ArraySource(Xs, relabel[order]), epsilon=eps_inner, delta=delta_inner,
                        alpha=alpha / 4.0, beta=beta / 4.0, d=d, backend=noise, seed=rng, n_jobs=n_jobs,
                        **(inner_sizes or {}))
    eps_tot, delta_tot = amplified_epsilon(E0, inner.spent[1], q)
    budget = PrivacyBudget(epsilon, delta)
    budget.charge(eps_tot, delta_tot, "agnostic BLM20 (relabel EM + M, amplified by subsampling) [REC]")
    return AgnosticResult(epsilon=epsilon, delta=delta, spent=budget.spent, inner_epsilon=E0,
                          inner_delta_spent=inner.spent[1], q=q, n_given=N, n_subsample=N0, labelings=len(Pi),
                          inner=inner, chosen=inner.chosen)


class AgnosticBLM20Classifier(LittlestoneClassifier):
    """(ε, δ)-DP agnostic learner for a Littlestone class (seed 001 Corollary 2; transformation reconstructed)."""

    def __init__(self, hypothesis_class: HypothesisClass | str | None = None, epsilon: float = 1.0,
                 delta: float = 1e-6, alpha: float = 0.1, beta: float = 0.05, ldim: int | None = None,
                 vc: int | None = None, subsample_size: int | None = None, inner_sizes: dict | None = None,
                 backend: Any = "secure", random_state: Any = None, n_jobs: int = 1):
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
        self.n_jobs = n_jobs

    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, AgnosticResult]:
        res = agnostic_learn(self.hclass_, points, y01, epsilon=self.epsilon, delta=self.delta, alpha=self.alpha,
                             beta=self.beta, d=self.ldim, vc=self.vc, subsample_size=self.subsample_size,
                             inner_sizes=self.inner_sizes, backend=self.backend, seed=rng, n_jobs=self.n_jobs)
        return res.chosen, res
