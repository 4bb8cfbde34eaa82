"""Sample sizes of Bun–Livni–Moran (BLM20): Theorem 10 (G), Theorem 17 (M), Theorem 1 and Corollary 2.

Every constant is written out with its one-line derivation; the learner's "theory" defaults come from these
functions, so the calculators and :class:`littlestone.pac.blm20.BLM20Classifier` always agree.

Derivation: docs/derivations.md, "BLM20 sample sizes".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .._search import least_true
from ..errors import LittlestoneError, PrivacyParameterError


@dataclass(frozen=True)
class BoundReport:
    """Stage-by-stage sizes: ``rows()`` → (stage, quantity, value, formula); ``total`` = examples needed."""

    title: str
    parameters: dict
    entries: tuple[tuple[str, str, float, str], ...]
    total: int
    values: dict = field(default_factory=dict)

    def rows(self) -> list[tuple[str, str, float, str]]:
        return list(self.entries)

    def __getitem__(self, name: str):
        return self.values[name]

    def as_text(self) -> str:
        head = f"{self.title}  (" + ", ".join(f"{k}={v}" for k, v in self.parameters.items()) + ")"
        w1 = max(len(r[0]) for r in self.entries)
        w2 = max(len(r[1]) for r in self.entries)
        lines = [head]
        for stage, q, v, formula in self.entries:
            vs = f"{v:,}" if isinstance(v, int) else f"{v:.6g}"
            lines.append(f"  {stage:<{w1}}  {q:<{w2}}  {vs:>18}   {formula}")
        lines.append(f"  {'total':<{w1}}  {'examples':<{w2}}  {self.total:>18,}")
        return "\n".join(lines)

    __str__ = as_text


# ------------------------------------------------------------------------------------------------- parameter checks


#: the largest d for which η = 2^-(d+1)/(d+1) is a normal float (full precision)
_MAX_FLOAT_D = 1010


def _check_d(d: Any) -> int:
    if isinstance(d, bool) or not isinstance(d, (int,)) and not hasattr(d, "__index__"):
        raise LittlestoneError(f"the Littlestone dimension d must be an integer ≥ 1, got {d!r}")
    d = int(d)
    if d < 1:
        raise LittlestoneError(f"the Littlestone dimension d must be ≥ 1 (BLM20 Theorem 10), got {d}")
    if d > _MAX_FLOAT_D:  # every bound is built on η = 2^-(d+1)/(d+1), which would be 0 or lose its precision
        raise LittlestoneError(
            f"the BLM20 bounds are computed for d ≤ {_MAX_FLOAT_D}, got d = {d}: their stability η = 2^-(d+1)/(d+1) "
            "is then below the smallest normal floating-point number"
        )
    return d


def _check_unit(name: str, v: float, *, upper: float = 1.0) -> float:
    v = float(v)
    if not (0.0 < v < upper) or math.isnan(v):
        raise LittlestoneError(f"{name} must lie in (0, {upper}), got {v}")
    return v


def _check_eps_delta(epsilon: float, delta: float) -> tuple[float, float]:
    epsilon, delta = float(epsilon), float(delta)
    if not epsilon > 0 or math.isinf(epsilon) or math.isnan(epsilon):
        raise PrivacyParameterError(f"epsilon must be a finite number > 0, got {epsilon}")
    if not 0.0 < delta < 1.0:
        raise PrivacyParameterError(f"delta must lie in (0, 1) for the BLM20 learner (stable histogram), got {delta}")
    return epsilon, delta


# ---------------------------------------------------------------------------------------------------- Theorem 10


def stability(d: int) -> float:
    """η = 2^{-(d+1)}/(d+1): G's stability (BLM20 Theorem 10 / proof, Markov on Lemma 14)."""
    d = _check_d(d)
    return math.ldexp(1.0 / (d + 1), -(d + 1))


def aux_size(d: int, alpha: float) -> int:
    """n = ⌈d/α⌉, the auxiliary sample size of D_k (BLM20 §IV-C2, Algorithm G step 1; Lemma 13 ⇒ loss ≤ d/n ≤ α)."""
    return math.ceil(_check_d(d) / _check_unit("alpha", alpha))


def sample_cap(d: int, n: int) -> int:
    """N = 8^{d+1}·n, the cap on examples drawn by D̃_k (BLM20 §IV-C2; Markov: Pr[M_k > 2^{d+1}4^{k+1}n] ≤ 2^{-(d+1)})."""
    return 8 ** (_check_d(d) + 1) * int(n)


def theorem10(
    d: int, alpha: float, epsilon: float | None = None, delta: float | None = None, beta: float | None = None
) -> BoundReport:
    """Algorithm G: n = ⌈d/α⌉, N = 8^{d+1}n, m = N + n (BLM20 Theorem 10; G is not private, ε/δ/β unused)."""
    n = aux_size(d, alpha)
    N = sample_cap(d, n)
    m = N + n
    eta = stability(d)
    entries = (
        ("G", "aux sample n", n, "⌈d/α⌉"),
        ("G", "cap N", N, "8^(d+1)·n"),
        ("G", "sample size m", m, "N + n = (8^(d+1)+1)·⌈d/α⌉"),
        ("G", "stability η", eta, "2^-(d+1)/(d+1)"),
        ("G", "loss of frequent f", d / n, "d/n ≤ α (Lemma 13)"),
    )
    return BoundReport(
        "Theorem 10 (globally-stable G)", {"d": d, "alpha": alpha}, entries, m, {"n": n, "N": N, "m": m, "eta": eta}
    )


# ---------------------------------------------------------------------------------------------------- Theorem 17


def generalization_batches(eta: float, beta: float) -> int:
    """k ≥ 128·ln(3/β)/η: multiplicative Chernoff (BLM20 fn 5) Pr[freq ≤ (1−1/8)·η] ≤ e^{-(1/8)²kη/2} ≤ β/3."""
    k = 128.0 * math.log(3.0 / beta) / eta
    if not math.isfinite(k):
        raise LittlestoneError(
            f"the generalisation batches k ≥ 128·ln(3/β)/η overflow a float for η = {eta:.4g} (BLM20 Theorem 17): "
            "the stability η of this d is too small for any sample size"
        )
    return math.ceil(k)


#: the two readings of "Hist at accuracy (η/8, β/3)" (BLM20 Theorem 17, step 2); see the module docstring
HISTOGRAM_READINGS = ("proof", "lemma15")


def _check_reading(reading: str) -> str:
    if reading not in HISTOGRAM_READINGS:
        raise LittlestoneError(f"histogram reading must be one of {', '.join(HISTOGRAM_READINGS)}, got {reading!r}")
    return reading


def histogram_condition(reading: str = "proof") -> str:
    """The inequality :func:`histogram_batches` solves for k, as printed in the reports."""
    if _check_reading(reading) == "proof":
        return "min k: 7kη/8 ≥ τ + (4/ε)ln(6k/β), kη/8 ≥ (4/ε)ln(6k/β)  [Thm 17 proof: h* released, estimates ±η/8]"
    return "min k: kη/8 ≥ τ + (4/ε)ln(6k/β)  [Lemma 15 at (η/8, β/3): every item of freq ≥ η/8 released, ±η/8]"


def histogram_batches(eta: float, epsilon: float, delta: float, beta: float, reading: str = "proof") -> int:
    """Batches k for the (ε/2, δ) stable histogram of M (BNS16 Prop 2.20; (discrete) Laplace tail P[|Z|>a] ≤ 2e^{-a/b},
    b = 4/ε, union over ≤ k released values: every estimate is within err = b·ln(6k/β) with probability 1 − β/3;
    an item of count c is released when c ≥ τ + err, τ = 1 + b·ln(2/δ)).

    ``reading="proof"`` (default): the smallest k with 7kη/8 ≥ τ + err and kη/8 ≥ err — what Theorem 17's proof
    uses (h*, of frequency ≥ 7η/8 after the generalization step, is released; estimates within η/8).
    ``reading="lemma15"``: the smallest k with kη/8 ≥ τ + err — Lemma 15 taken literally at accuracy (η/8, β/3):
    every item of frequency ≥ η/8 is released (and estimates are within η/8)."""
    b = 2.0 / (epsilon / 2.0)
    tau = 1.0 + b * math.log(2.0 / delta)
    share = 7.0 if _check_reading(reading) == "proof" else 1.0

    def ok(k: int) -> bool:
        err = b * math.log(6.0 * k / beta)
        return share * k * eta / 8.0 >= tau + err and k * eta / 8.0 >= err

    # ok(k) forces share·kη/8 ≥ τ; the gap then grows linearly against a logarithm (monotone)
    k = least_true(ok, max(1, math.ceil(8.0 * tau / (share * eta))))
    if k is None:  # ok(k) holds once k is large enough: only absurd parameters get here
        raise LittlestoneError(f"no number of batches k ≤ 2^62 meets the histogram's accuracy (η={eta}, τ={tau})")
    return k


def candidate_list_bound(eta: float) -> int:
    """|L| ≤ 2/η: kept estimates ≥ 3η/4 have true frequency ≥ 5η/8 (BLM20 Theorem 17 proof)."""
    return math.floor(2.0 / eta)


def generic_sample_size(list_size: int, alpha: float, epsilon: float, beta: float) -> int:
    """n′ for GenericLearner on |L| hypotheses with accuracy α (target loss α/2 ⇒ output loss α), ε, β (BLM20
    Lemma 16 proof with explicit multiplicative-Chernoff constants, a = α/2):
      (1) loss_D > 2a ⇒ loss_S > 5a/3:  e^{-(1/6)²·2an/2} ≤ β/(4|L|)  ⇒ n ≥ 36·ln(4|L|/β)/a
      (2) loss_D(h*) ≤ a ⇒ loss_S ≤ 4a/3:  e^{-(1/3)²·an/3} ≤ β/4     ⇒ n ≥ 27·ln(4/β)/a
      (3) exponential mechanism: |L|·e^{-εan/6} ≤ β/2                 ⇒ n ≥ 6·ln(2|L|/β)/(εa)."""
    a = alpha / 2.0
    L = max(1, int(list_size))
    n1 = 36.0 * math.log(4.0 * L / beta) / a
    n2 = 27.0 * math.log(4.0 / beta) / a
    n3 = 6.0 * math.log(2.0 * L / beta) / (epsilon * a)
    return math.ceil(max(n1, n2, n3))


def theorem17(
    d: int | None,
    alpha: float,
    epsilon: float,
    delta: float,
    beta: float,
    *,
    m: int | None = None,
    eta: float | None = None,
    histogram: str = "proof",
) -> BoundReport:
    """Learner M from a (m, η)-globally-stable G: k batches, (ε/2, δ) stable histogram sized by ``histogram``
    (:func:`histogram_batches`: Theorem 17's proof condition, or ``"lemma15"`` for Lemma 15 literally at
    (η/8, β/3)), generic learner with ε/2 at (α/2, β/3) on n′ fresh examples (BLM20 Theorem 17). Default G:
    Theorem 10 at α/2 for d."""
    _check_reading(histogram)
    if m is None or eta is None:
        g = theorem10(_check_d(d), _check_unit("alpha", alpha) / 2.0)
        m = g["m"] if m is None else m
        eta = g["eta"] if eta is None else eta
    alpha = _check_unit("alpha", alpha)
    beta = _check_unit("beta", beta)
    epsilon, delta = _check_eps_delta(epsilon, delta)
    if not 0.0 < eta <= 1.0:
        raise LittlestoneError(f"eta must lie in (0, 1], got {eta}")
    m = int(m)
    k_gen = generalization_batches(eta, beta)
    k_hist = histogram_batches(eta, epsilon, delta, beta, histogram)
    k = max(k_gen, k_hist)
    L = candidate_list_bound(eta)
    n_generic = generic_sample_size(L, alpha, epsilon / 2.0, beta / 3.0)
    tau = 1.0 + (4.0 / epsilon) * math.log(2.0 / delta)
    entries = (
        ("M: G batches", "k (generalization)", k_gen, "⌈128·ln(3/β)/η⌉"),
        ("M: G batches", "k (stable histogram)", k_hist, histogram_condition(histogram)),
        ("M: G batches", "k", k, "max of the two"),
        ("M: G batches", "examples k·m", k * m, "k·m"),
        ("M: histogram", "threshold τ (counts)", tau, "1 + (4/ε)·ln(2/δ)  [(ε/2,δ), Laplace(4/ε)]"),
        ("M: histogram", "keep estimate ≥", 3 * eta / 4, "3η/4"),
        ("M: generic", "|L| ≤", L, "⌊2/η⌋"),
        (
            "M: generic",
            "examples n′",
            n_generic,
            "max(36ln(4|L|/β')/a, 27ln(4/β')/a, 6ln(2|L|/β')/(ε'a)), a=α/2, ε'=ε/2, β'=β/3",
        ),
    )
    total = k * m + n_generic
    return BoundReport(
        "Theorem 17 (private learner M)",
        {"m": m, "eta": eta, "alpha": alpha, "epsilon": epsilon, "delta": delta, "beta": beta, "histogram": histogram},
        entries,
        total,
        {
            "k": k,
            "k_gen": k_gen,
            "k_hist": k_hist,
            "n_generic": n_generic,
            "list_bound": L,
            "threshold": tau,
            "m": m,
            "eta": eta,
        },
    )


# ----------------------------------------------------------------------------------------------------- Theorem 1


def theorem1(
    d: int, alpha: float, epsilon: float, delta: float, beta: float, *, histogram: str = "proof"
) -> BoundReport:
    """Theorem 1 = Theorem 10 at accuracy α/2 (so G's frequent f has loss ≤ α/2) + Theorem 17 (BLM20 §VI);
    ``histogram`` chooses the stable-histogram condition (:func:`histogram_batches`)."""
    d = _check_d(d)
    _check_reading(histogram)
    alpha = _check_unit("alpha", alpha)
    beta = _check_unit("beta", beta)
    epsilon, delta = _check_eps_delta(epsilon, delta)
    g = theorem10(d, alpha / 2.0)
    m17 = theorem17(d, alpha, epsilon, delta, beta, m=g["m"], eta=g["eta"], histogram=histogram)
    entries = (
        ("G (at α/2)", "aux sample n", g["n"], "⌈d/(α/2)⌉"),
        ("G (at α/2)", "cap N", g["N"], "8^(d+1)·n"),
        ("G (at α/2)", "batch size m", g["m"], "N + n"),
        ("G (at α/2)", "stability η", g["eta"], "2^-(d+1)/(d+1)"),
    ) + m17.entries
    asym = 16**d * d * d * (d + math.log(1.0 / (beta * delta))) / (alpha * epsilon)
    entries = entries + (("(paper)", "O(·) expression", asym, "16^d·d²·(d+ln(1/βδ))/(αε), constants dropped"),)
    return BoundReport(
        "Theorem 1 (BLM20 private learner)",
        {"d": d, "alpha": alpha, "epsilon": epsilon, "delta": delta, "beta": beta, "histogram": histogram},
        entries,
        m17.total,
        {**g.values, **m17.values, "total": m17.total},
    )


def corollary2(d: int, alpha: float, epsilon: float, delta: float, beta: float, vc: int | None = None) -> BoundReport:
    """Agnostic learner (BLM20 Corollary 2) via the realizable→agnostic transformation reconstructed in docs/derivations.md:
    N = ⌈N0/q⌉, N0 = max(Theorem 1 at (α/4, 1, δ/q, β/4), uniform convergence, labeling EM), q from amplification
    by subsampling (constants in :func:`littlestone.bounds.agnostic.agnostic_sizes`)."""
    from .agnostic import agnostic_sizes  # one source of truth for the reconstruction's constants

    return agnostic_sizes(d, alpha, epsilon, delta, beta, vc=vc)
