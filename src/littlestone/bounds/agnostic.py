"""Sizes of the agnostic BLM20 learner (BLM20 Corollary 2) by the realizable→agnostic transformation that
:mod:`littlestone.pac.agnostic` implements (its docstring has the construction and the privacy derivation) [REC]."""

from __future__ import annotations

import math

from ..errors import PrivacyParameterError
from ..privacy import sampling_rate_for
from .blm20 import BoundReport, _check_d, _check_eps_delta, _check_unit, theorem1

#: inner privacy parameters of steps 2–3 (the paper's "ε = O(1) without loss of generality")
EPS_LABEL, EPS_INNER = 1.0, 1.0


def inner_epsilon(eps_label: float, eps_inner: float) -> float:
    """E0 = ln 4 + ε_ℓ + ε_M: privacy loss of relabel-then-learn on neighbouring samples (derived in
    :mod:`littlestone.pac.agnostic`'s docstring)."""
    return math.log(4.0) + eps_label + eps_inner


def _solve(f, start: float) -> int:
    """Smallest integer N ≥ start with N ≥ f(N) (f grows logarithmically)."""
    N = max(2.0, start)
    for _ in range(200):
        nxt = f(N)
        if nxt <= N:
            break
        N = nxt
    return math.ceil(N)


def agnostic_sizes(
    d: int,
    alpha: float,
    epsilon: float,
    delta: float,
    beta: float,
    *,
    vc: int | None = None,
    eps_label: float = EPS_LABEL,
    eps_inner: float = EPS_INNER,
) -> BoundReport:
    """Sizes of the agnostic learner (BLM20 Corollary 2 via the reconstruction above) [REC]."""
    d = _check_d(d)
    alpha, beta = _check_unit("alpha", alpha), _check_unit("beta", beta)
    epsilon, delta = _check_eps_delta(epsilon, delta)
    vc = d if vc is None else int(vc)  # VC(H) ≤ Ldim(H)
    E0 = inner_epsilon(eps_label, eps_inner)
    q = sampling_rate_for(epsilon, E0)  # ln(1 + q(e^{E0} − 1)) = ε
    delta_inner = delta / q
    if not delta_inner < 1.0:
        raise PrivacyParameterError(f"delta={delta} is too large for the agnostic transformation (δ/q ≥ 1)")
    inner = theorem1(d, alpha / 4.0, eps_inner, delta_inner, beta / 4.0)
    t = alpha / 4.0
    # uniform convergence: 4(2eN/VC)^VC·e^{-N t²/8} ≤ β/4  ⇐  N ≥ 8(VC·ln(2eN/VC) + ln(16/β))/t²
    n_uc = _solve(lambda N: 8.0 * (vc * math.log(2 * math.e * N / vc) + math.log(16.0 / beta)) / t**2, 1.0)
    # EM over |Π| ≤ (eN/VC)^VC labelings: error gap ≤ 2(ln|Π| + ln(4/β))/ε_ℓ ≤ N·α/4
    n_em = _solve(lambda N: 8.0 * (vc * math.log(math.e * N / vc) + math.log(4.0 / beta)) / (eps_label * alpha), 1.0)
    N0 = max(inner.total, n_uc, n_em)
    N = math.ceil(N0 / q)
    entries = (
        ("agnostic: privacy", "E0 (steps 2–3)", E0, "ln 4 + ε_ℓ + ε_M  [REC]"),
        ("agnostic: privacy", "sampling rate q", q, "(e^ε − 1)/(e^E0 − 1)"),
        ("agnostic: privacy", "inner δ_M", delta_inner, "δ/q"),
        ("agnostic: accuracy", "uniform convergence N0 ≥", n_uc, "8(VC·ln(2eN/VC)+ln(16/β))/(α/4)²"),
        ("agnostic: accuracy", "labeling EM N0 ≥", n_em, "8(VC·ln(eN/VC)+ln(4/β))/(ε_ℓ·α)"),
        ("agnostic: realizable M", "Theorem 1 at (α/4, ε_M, δ_M, β/4)", inner.total, "see theorem1"),
        ("agnostic: subsample", "N0", N0, "max of the three"),
        ("agnostic: input", "N", N, "⌈N0/q⌉"),
    )
    return BoundReport(
        "Corollary 2 (agnostic; reconstructed transformation [REC]: privacy derived, accuracy sizes heuristic)",
        {"d": d, "alpha": alpha, "epsilon": epsilon, "delta": delta, "beta": beta, "vc": vc},
        entries,
        N,
        {
            "N": N,
            "N0": N0,
            "q": q,
            "E0": E0,
            "delta_inner": delta_inner,
            "inner": inner.total,
            "n_uc": n_uc,
            "n_em": n_em,
        },
    )
