"""Warn, at fit time, when an estimator's sizes make its data-independent output near certain.

Computed from public parameters only — ε, δ, the class's Littlestone dimension through the estimator's own size
planner (:func:`littlestone.pac.blm20.plan_sizes`, :func:`littlestone.bounds.ggkm21.polyprilearn_plan`) and the
sizes the user declared — never from the data. (The number of examples n is public under the library's replace-one
relation, docs/derivations.md; it only enters the "n needed" the message names.) The bounds are upper bounds on the
probability of *not* falling back that hold for every dataset:

* BLM20 (stable histogram, BLM20 Thm 17 step 2): a hypothesis becomes a candidate only if its noisy count passes
  the threshold τ; an item of true count c ≤ k passes with probability p(c) = P[c + Z > τ] (the noise of
  :class:`~littlestone.privacy.StableHistogram`, the larger of the Laplace and discrete-Laplace values), and at most
  k items are present, so P[no fallback] ≤ k·p(k).
* PolyPriLearn (sparse selection, GGKM21 Prop 5.6): ⊥ has weight e^{ε_s B}; each of the m lists holds ≤ s elements,
  so Σ_u e^{ε_s c(u)} ≤ s(e^{ε_s m} − 1) + m·s (convexity, c(u) ≤ m, Σ c(u) ≤ m·s), and
  P[not ⊥] ≤ (s(e^{ε_s m} − 1) + m·s)·e^{−ε_s B}.

AgnosticBLM20Classifier gets the BLM20 check on its inner run (ε_M, δ_M = δ/q at the declared subsample size).
A warning is issued when the bound is below :data:`NEAR_CERTAIN` = 5% (so a fallback has probability ≥ 95%), once
per fit, naming the smallest batch/dataset count — and the n it takes at the same per-unit sizes — for which the bound
reaches 5% (a necessary condition, not a sufficient one).
"""

from __future__ import annotations

import functools
import math
import os
import sys
import warnings
from typing import Any

from ..errors import FallbackLikelyWarning, LittlestoneError
from ..privacy.stable_histogram import calibrated_threshold, count_one_release_probability

#: the warning fires when P[no fallback] is provably below this
NEAR_CERTAIN = 0.05


def blm20_success_bound(k: int, epsilon: float, delta: float) -> float:
    """Upper bound on P[BLM20 keeps a candidate] with k batches at (ε, δ) (its histogram runs at (ε/2, δ))."""
    eps_h = epsilon / 2.0
    p = 0.0
    for discrete in (False, True):
        tau = calibrated_threshold(eps_h, delta, discrete=discrete)[0]
        p = max(p, count_one_release_probability(eps_h, tau - (k - 1), discrete=discrete))  # count k ⇔ τ shifted
    return min(1.0, k * p)


def polyprilearn_success_bound(m: int, s: int, epsilon: float, bottom_score: float) -> float:
    """Upper bound on P[sparse selection returns an element, not ⊥] with m lists of ≤ s elements (ε_s = ε/2)."""
    eps_s = epsilon / 2.0
    log_mass = math.log(s) + max(eps_s * m, math.log(m)) + math.log(2.0)  # ≥ log(s(e^{ε_s m} − 1) + m·s)
    return min(1.0, math.exp(min(0.0, log_mass - eps_s * bottom_score)))


def _least(f: Any, lo: int) -> int:
    """Least integer x ≥ lo with f(x) ≥ NEAR_CERTAIN (f nondecreasing): doubling, then bisection."""
    hi = max(lo, 1)
    while f(hi) < NEAR_CERTAIN:
        hi *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        if f(mid) >= NEAR_CERTAIN:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _quiet(check: Any) -> Any:
    """A fit-time check that never raises: bad parameters are the learner's to refuse, with its own message."""

    @functools.wraps(check)
    def run(*args: Any, **kwargs: Any) -> bool:
        try:
            return check(*args, **kwargs)
        except (LittlestoneError, TypeError, ValueError, OverflowError):
            return False

    return run


def _warn(message: str) -> None:
    """The warning, attributed to the first caller outside littlestone (the user's fit, fit_source or Pipeline)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frame, level = sys._getframe(0), 1
    while frame.f_back is not None and os.path.abspath(frame.f_code.co_filename).startswith(package + os.sep):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, FallbackLikelyWarning, stacklevel=level)


def warn_blm20(estimator: str, sizes: Any, epsilon: float, delta: float, of: str = "examples") -> bool:
    """Warn if BLM20's planned sizes (:class:`~littlestone.pac.blm20.BLM20Sizes`) make its SOA fallback near
    certain at (ε, δ); returns whether it warned. ``of`` names what the n needed counts."""
    k = int(sizes.n_batches)
    bound = blm20_success_bound(k, epsilon, delta)
    if bound >= NEAR_CERTAIN:
        return False
    need = _least(lambda x: blm20_success_bound(x, epsilon, delta), k + 1)
    _warn(
        f"{estimator}: with n_batches={k:,} at ε={epsilon:g}, δ={delta:g} the stable histogram keeps a candidate with "
        f"probability ≤ {bound:.2g} whatever the data, so the fit will almost surely return its data-independent "
        f"fallback (the class's SOA); it needs n_batches ≥ {need:,}, i.e. n ≥ {need * sizes.batch_size + sizes.n_generic:,} "
        f"{of} at m={sizes.batch_size} per batch and n′={sizes.n_generic:,} (or a larger ε)"
    )
    return True


def warn_polyprilearn(
    estimator: str, plan: Any, epsilon: float, delta: float, extra: int = 0, of: str = "examples"
) -> bool:
    """Warn if PolyPriLearn's plan (m datasets of n, list bound s) makes ⊥ near certain at (ε, δ); ``extra`` = the
    examples the estimator reads besides PolyPriLearn's (e.g. PolyPriPropLearn's n′); ``of`` names them."""
    from .polyprilearn import polyprilearn_mechanism

    sel = polyprilearn_mechanism(epsilon, delta, plan)
    m, s, B = int(plan.m), int(sel.max_list_size), float(sel.bottom_score)
    bound = polyprilearn_success_bound(m, s, sel.epsilon, B)
    if bound >= NEAR_CERTAIN:
        return False
    need = _least(lambda x: polyprilearn_success_bound(x, s, sel.epsilon, B), m + 1)
    _warn(
        f"{estimator}: with m={m:,} datasets at ε={epsilon:g}, δ={delta:g} sparse selection returns a hypothesis "
        f"with probability ≤ {bound:.2g} whatever the data (⊥'s score is {B:.3g}), so the fit will almost surely "
        f"return its data-independent output; it needs m ≥ {need:,}, i.e. n ≥ {need * plan.n + extra:,} {of} at "
        f"n={plan.n} per dataset (or a larger ε)"
    )
    return True


@_quiet
def check_blm20_fit(est: Any, hclass: Any, n: int) -> bool:
    """The check for a BLM20Classifier about to fit n examples (its parameters and planner; skipped when the sizes
    exceed n: the learner then refuses with the size it needs)."""
    from .blm20 import _check_privacy, plan_sizes

    eps, dlt = _check_privacy(est.epsilon, est.delta)
    d = int(hclass.ldim()) if est.ldim is None else int(est.ldim)
    if d < 1:
        return False
    sizes = plan_sizes(
        d,
        epsilon=eps,
        delta=dlt,
        alpha=est.alpha,
        beta=est.beta,
        n_batches=est.n_batches,
        aux_size=est.aux_size,
        cap=est.cap,
        n_generic=est.n_generic,
        eta=est.eta,
    )
    return sizes.total <= n and warn_blm20(type(est).__name__, sizes, eps, dlt)


@_quiet
def check_polyprilearn_fit(est: Any, n: int) -> bool:
    """The check for a GGKM21 estimator about to fit n examples, on the plan of its own planner (``est._plan()``: a
    PolyPriLearn plan, or PolyPriPropLearn's with the inner one and n′); skipped when the sizes exceed n (the learner
    then refuses with the size it needs)."""
    from .polyprilearn import check_privacy

    eps, dlt = check_privacy(est.epsilon, est.delta)
    plan = est._plan()
    inner, extra = (plan.inner, plan.n_generic) if hasattr(plan, "inner") else (plan, 0)
    return inner.total + extra <= n and warn_polyprilearn(type(est).__name__, inner, eps, dlt, extra)


@_quiet
def check_agnostic_blm20_fit(est: Any, hclass: Any, n: int) -> bool:
    """The check for an AgnosticBLM20Classifier with a declared ``subsample_size`` about to fit n examples: its inner
    BLM20 run (ε_M = EPS_INNER, δ_M = δ/q, q = N₀/n — public sizes) on the N₀ relabelled examples. Skipped at the
    theory sizes and whenever the learner itself refuses the sizes (its own error then speaks)."""
    from ..bounds.agnostic import EPS_INNER, EPS_LABEL, inner_epsilon
    from .blm20 import _check_privacy, plan_sizes

    if est.subsample_size is None or not 1 <= int(est.subsample_size) <= n:
        return False
    eps, dlt = _check_privacy(est.epsilon, est.delta)
    n0 = int(est.subsample_size)
    q = n0 / n
    if math.log1p(q * math.expm1(inner_epsilon(EPS_LABEL, EPS_INNER))) > eps * (1 + 1e-9):
        return False
    d = int(hclass.ldim()) if est.ldim is None else int(est.ldim)
    if d < 1:
        return False
    delta_m = min(dlt / q, 0.999999)
    sizes = plan_sizes(
        d, epsilon=EPS_INNER, delta=delta_m, alpha=est.alpha / 4.0, beta=est.beta / 4.0, **(est.inner_sizes or {})
    )
    of = f"subsampled examples (subsample_size; the inner BLM20 runs at ε_M = {EPS_INNER:g})"
    who = f"{type(est).__name__} (its inner BLM20 run on the subsample)"
    return sizes.total <= n0 and warn_blm20(who, sizes, EPS_INNER, delta_m, of)


@_quiet
def check_agnostic_polypriprop_fit(est: Any, n: int) -> bool:
    """The check for an AgnosticPolyPriPropLearnClassifier about to fit n examples: its inner PolyPriPropLearn run
    (LWY25 Algorithm 4: at (ε_A, δ_A) on the resampled examples — public sizes of its own plan,
    ``est._plan()``). Skipped when the plan needs more than n examples (the learner then refuses with the size it
    needs)."""
    plan = est._plan()
    if plan.n > n:
        return False
    inner = plan.inner
    of = f"resampled examples of the inner PolyPriPropLearn run (at ε_A = {plan.eps_a:g}, δ_A = {plan.delta_a:.3g})"
    who = f"{type(est).__name__} (its inner PolyPriPropLearn run)"
    return warn_polyprilearn(who, inner.inner, plan.eps_a, plan.delta_a, inner.n_generic, of)
