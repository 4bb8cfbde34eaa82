"""GL21 DP-SOA parameters (GL21 Thm 4.1 and its HistSparse, Lemma 6.3; Thm 4.2 for adaptive adversaries).

GL21 state k₁ = Õ(2^{d+1}), k₂ = Õ(2^{8·2^d} ln(T/δ)/ε) with the logarithmic factors hidden; our sources give the
exact forms of η and c only. Written out here (our derivation; the requirements GL21 Lemma 6.3 states, with our
noise split — see :mod:`littlestone.private_online.gl21`):

  k₁ = 2^{d+1}                   leaves per tree (depth d+1: a vertex at height d+1 would need d+1 forced mistakes of
                                 the SOA, so only ⊥ gets there and the target survives as agreeing height-d siblings);
  η  = 2^{−4k₁}/(4k₁)            target frequency;           c = 4k₁/η   maximal number of histogram calls;
  (svt)  k₂ ≥ 512·c·(ln T + ln(2c/β))/(η ε)     AboveThreshold runs of ε/(2c) on frequencies of sensitivity 1/k₂
         must be accurate to η/32 (Dwork–Roth Thm 3.24 with failure β/c per run);
  (hist) k₂ ≥ (4/η)·(τ + (4c/ε)·ln(2c/β))       the stable histogram with (ε/(2c), δ/c), threshold τ, must release
         every item of frequency ≥ η/4 (noise Lap(4c/ε) below −(4c/ε)ln(2c/β) w.p. ≤ β/(2c)).
  Adaptive variant (GL21 Thm 4.2): per round (ε′, δ′) = (ε/(2√(2T ln(1/δ))), δ/(2T)) and one stable histogram per round:
  (hist′) k₂ ≥ (4/η)·(τ′ + (2/ε′)·ln(2T/β)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import LittlestoneError
from ..privacy.params import check_delta, check_epsilon, check_probability
from .._search import least_true
from ..privacy.mechanism import PrivacyClaim, compose
from ..privacy.stable_histogram import stable_histogram_threshold


@dataclass(frozen=True)
class GL21Bound:
    d: int
    T: int
    epsilon: float
    delta: float
    beta: float
    adaptive: bool
    k1: int
    eta: float
    c: float
    k2: float
    requirements: list[tuple[str, float, str]] = field(default_factory=list)
    eps_round: float | None = None
    delta_round: float | None = None

    def rows(self) -> list[tuple[str, str, str]]:
        out = [
            ("k1 (leaves per tree)", str(self.k1), "2^(d+1)"),
            ("eta", f"{self.eta:.6g}", "2^(−4k1)/(4k1)"),
            ("c", f"{self.c:.6g}", "4k1/eta"),
        ]
        if self.adaptive:
            out += [
                ("eps' per round", f"{self.eps_round:.6g}", "ε/(2√(2T ln(1/δ)))"),
                ("delta' per round", f"{self.delta_round:.6g}", "δ/(2T)"),
            ]
        out += [(f"k2 ≥ ({n})", f"{v:.6g}", f) for n, v, f in self.requirements]
        out.append(("k2 (trees)", f"{self.k2:.6g}", "max of the requirements, rounded up"))
        out.append(("forest leaves k1·k2", f"{self.k1 * self.k2:.6g}", ""))
        return out


def theorem_4_1(d: int, T: int, epsilon: float, delta: float, beta: float, *, adaptive: bool = False) -> GL21Bound:
    """k₁, η, c, k₂ of GL21 Thm 4.1 (oblivious) or Thm 4.2 (``adaptive``), our explicit requirements."""
    if isinstance(d, bool) or not isinstance(d, int) or d < 0 or d > 6:
        raise LittlestoneError(f"d must be an integer in 0..6 (2^(−4·2^d) underflows beyond), got {d!r}")
    if isinstance(T, bool) or not isinstance(T, int) or T < 2:
        raise LittlestoneError(f"the horizon T must be an integer ≥ 2, got {T!r}")
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta, positive=True)
    b = check_probability(beta)
    k1 = 2 ** (d + 1)
    eta = 2.0 ** (-4 * k1) / (4 * k1)
    c = 4 * k1 / eta
    reqs: list[tuple[str, float, str]] = []
    er = dr = None
    if not adaptive:
        reqs.append(
            ("svt", 512 * c * (math.log(T) + math.log(2 * c / b)) / (eta * eps), "512·c·(ln T + ln(2c/β))/(η ε)")
        )
        tau = stable_histogram_threshold(eps / (2 * c), dlt / c)
        reqs.append(
            ("hist", (4 / eta) * (tau + (4 * c / eps) * math.log(2 * c / b)), "(4/η)(τ(ε/2c, δ/c) + (4c/ε) ln(2c/β))")
        )
    else:
        er = eps / (2 * math.sqrt(2 * T * math.log(1 / dlt)))
        dr = dlt / (2 * T)
        tau = stable_histogram_threshold(er, dr)
        reqs.append(("hist'", (4 / eta) * (tau + (2 / er) * math.log(2 * T / b)), "(4/η)(τ(ε′, δ′) + (2/ε′) ln(2T/β))"))
    k2 = float(math.ceil(max(v for _, v, _ in reqs)))
    return GL21Bound(d, T, eps, dlt, b, adaptive, k1, eta, c, k2, reqs, er, dr)


def adaptive_round_budget(epsilon: float, delta: float, T: int) -> tuple[float, float]:
    """Per-round (ε′, δ′) of GL21 Thm 4.2: ε′ = ε/(2√(2T ln(1/δ))), δ′ = δ/(2T) — shrunk (bisection) where T stable
    histograms of ε′ would compose above ε by the better of basic and advanced composition (slack δ/2; e.g. ε = 8,
    δ = 0.2, T = 100, where GL21's ε′ composes to ≈ 22 by either). The histogram's exact δ is ≤ δ′, so the T runs
    spend ≤ δ/2 and the composed δ ≤ δ."""
    eps_r = epsilon / (2.0 * math.sqrt(2.0 * T * math.log(1.0 / delta)))
    d_r = delta / (2.0 * T)

    def total(e: float) -> float:
        return compose([PrivacyClaim(e, d_r)] * T, "best", delta / 2.0).epsilon

    if total(eps_r) > epsilon:
        lo, hi = 0.0, eps_r
        for _ in range(60):
            mid = (lo + hi) / 2.0
            lo, hi = (mid, hi) if total(mid) <= epsilon else (lo, mid)
        eps_r = lo
    return eps_r, d_r


def adaptive_min_horizon(epsilon: float, delta: float, *, limit: int = 2**62) -> int | None:
    """The least T at which GL21 Thm 4.2 (:class:`~littlestone.private_online.GL21Adaptive`) can release a
    hypothesis learned from the data, whatever its forest (k₁, k₂): a list entry other than SOA(∅) needs a tree that
    received an example, so after t rounds at most t entries differ from SOA(∅), while the stable histogram of
    (ε′, δ′) = :func:`adaptive_round_budget` releases only counts above τ(ε′, δ′) ≈ (2/ε′)ln(2/δ′); so T ≥ τ is
    necessary. (ε = 1, δ = 10⁻⁶: T = 345,480, where the per-round rebuild costs ~T²/2 ≈ 6·10¹⁰ example steps.)
    None when no T ≤ ``limit`` qualifies."""
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta, positive=True)

    def ok(T: int) -> bool:
        er, dr = adaptive_round_budget(eps, dlt, T)
        return T >= stable_histogram_threshold(er, dr)

    return least_true(ok, 1, limit=limit)
