"""Learner-level noise tests (issue 34 item 4): each practical private online learner's own noise, checked at the
learner — not only at the AboveThreshold mechanism — so that halving the noise the learner draws, or drawing its
AboveThreshold at a budget its claim does not split to it, turns a test red.

Three checks per learner (one :class:`LearnerCase` each; a new learner joins by appending its case to ``CASES``):

* **calibration of the first ⊤ time** (the learner end to end): on a stream where the first released hypothesis errs
  every round (its segment's running mistake count is t at round t), the first ⊤ falls at the first t with
  t + ν_t ≥ τ + ρ, ρ ~ Lap(c_ρ/ε_AT), ν_t ~ Lap(c_ν/ε_AT) — the law of T₁ follows from the claimed τ, ε_AT and the
  AboveThreshold kind alone (:func:`first_top_law`, exact up to quadrature). Its empirical law over ``runs`` seeded
  learners is compared with it by a χ² test (false alarm 1e-6). The first ⊤ comes before any decision the learner
  takes at a ⊤, so the test does not depend on what the learner does afterwards (moves, stays, selections);
* **the split**: the mechanism objects of each segment kind compose to the learner's ε (Σ ε_part = ε) and the
  learner's claim is ε;
* **the scales drawn**: every noise call the learner's code makes draws at a scale one of its mechanism objects
  claims (an AboveThreshold: c·Δ/ε_AT; a Laplace / discrete Laplace: Δ/ε; an exponential mechanism: 2Δ/ε).

``test_*_catch_*`` run the runtime mutation of :func:`littlestone.testing.noise_mutation.noise_under` — every noise
call made while the learner's module is on the stack draws at half its scale (or at the scale a whole-ε
AboveThreshold would draw) — and assert the checks above go red under it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest
from scipy import stats

from littlestone import Thresholds
from littlestone.bounds.segment_learners import AT_SCALES
from littlestone.classes.intervals import Intervals
from littlestone.classes.points import Points
from littlestone.classes.spec import parse_class_spec
from littlestone.privacy import AboveThresholdRun
from littlestone.private_online.bisect_at import BisectAT
from littlestone.private_online.intervals_at import IntervalsAT
from littlestone.private_online.list_at import ListAT
from littlestone.private_online.points_at import PointsAT
from littlestone.private_online.segments import AT_KINDS
from littlestone.testing.noise_mutation import noise_under

#: a χ² p-value below this fails the calibration (a false alarm at most this often on a correct learner)
FALSE_ALARM = 1e-6


@dataclass(frozen=True)
class LearnerCase:
    """How to test one learner: a seeded factory, a point (the stream repeats (point, 1 − h₁(point)), so the first
    released hypothesis errs every round), the AboveThreshold mechanism object of its first segment, and the
    mechanism objects each segment kind runs (composed within the segment)."""

    name: str
    module: str
    make: Callable[[int], Any]
    point: Any
    first_at: Callable[[Any], AboveThresholdRun]
    groups: Callable[[Any], list[list[Any]]]
    #: random points for the play after the first ⊤ are drawn from 0 … domain − 1
    domain: int = 2**10
    runs: int = 1500


CASES = [
    LearnerCase(
        "ListAT",
        "littlestone.private_online.list_at",
        lambda s: ListAT(parse_class_spec("thresholds:8"), T=1000, epsilon=1.0, backend="seeded", seed=s),
        3,
        lambda L: L.at_mechanism,
        lambda L: [[L.at_mechanism]],
        domain=8,
    ),
    LearnerCase(
        "BisectAT",
        "littlestone.private_online.bisect_at",
        lambda s: BisectAT(Thresholds(2**20), T=1000, epsilon=1.0, backend="seeded", seed=s),
        3,
        lambda L: L.at_mechanism,
        lambda L: [[L.at_mechanism, L.sign_mechanism]],
    ),
    LearnerCase(
        "PointsAT",
        "littlestone.private_online.points_at",
        lambda s: PointsAT(Points(2**20), T=1000, epsilon=1.0, backend="seeded", seed=s),
        3,
        lambda L: L.at_zero,
        lambda L: [[L.at_zero, L.selector], [L.at_point]],
        runs=1000,
    ),
    LearnerCase(
        "IntervalsAT",
        "littlestone.private_online.intervals_at",
        lambda s: IntervalsAT(Intervals(2**10), T=1000, epsilon=1.0, backend="seeded", seed=s),
        3,
        lambda L: L.at_empty,
        lambda L: [[L.at_empty, L.select_point], [L.at_bisect, L.select_move]],
        runs=1000,
    ),
]
IDS = [c.name for c in CASES]


# ------------------------------------------------------------------------------------------ the law of T₁


def at_scales(mech: AboveThresholdRun) -> tuple[float, float]:
    """(b_ρ, b_ν) the AboveThreshold mechanism object claims: c·Δ/ε for its kind's constants (derivations.md)."""
    kind = next(k for k, (_, run_cls) in AT_KINDS.items() if type(mech) is run_cls)
    c_rho, c_nu = AT_SCALES[kind]
    return c_rho * mech.sensitivity / mech.epsilon, c_nu * mech.sensitivity / mech.epsilon


def first_top_law(tau: float, b_rho: float, b_nu: float, horizon: int) -> np.ndarray:
    """P(T₁ = t) for t = 1 … horizon and, last, P(T₁ > horizon): T₁ = min{t : t + ν_t ≥ τ + ρ}, ρ ~ Lap(b_ρ),
    ν_t ~ Lap(b_ν) i.i.d. P(T₁ > t | ρ) = Π_{s ≤ t} P(ν < τ + ρ − s), integrated over ρ (trapezoid on ±40 b_ρ, the
    kink at 0 on a grid point)."""
    r = np.linspace(-40 * b_rho, 40 * b_rho, 16_001)
    w = stats.laplace.pdf(r, scale=b_rho)
    w[[0, -1]] *= 0.5
    w /= w.sum()
    s = np.arange(1, horizon + 1)
    log_f = stats.laplace.logcdf(tau + r[:, None] - s[None, :], scale=b_nu)
    surv = w @ np.exp(np.cumsum(log_f, axis=1))  # P(T₁ > t), t = 1 … horizon
    pmf = -np.diff(np.concatenate([[1.0], surv]))
    return np.concatenate([pmf, [surv[-1]]])


def first_top_times(case: LearnerCase, runs: int, seed0: int = 0) -> tuple[np.ndarray, Any]:
    """T₁ of ``runs`` seeded learners on the erring stream (learn_one until the second segment starts), and the
    first learner (for its parameters)."""
    out = np.empty(runs, dtype=np.int64)
    first = None
    for i in range(runs):
        L = case.make(seed0 + i)
        first = L if first is None else first
        y = 1 - int(L.hypothesis()(case.point))
        t = 0
        while L.state()["segments"] == 1:
            L.learn_one(case.point, y)
            t += 1
            if t > 100_000:
                raise AssertionError(f"{case.name}: no ⊤ in 100,000 erring rounds")
        out[i] = t
    return out, first


def chi2_pvalue(times: np.ndarray, law: np.ndarray) -> float:
    """χ² goodness of fit of the observed T₁ (1 … horizon, and > horizon) to ``law``, adjacent bins merged until
    each expects ≥ 5."""
    h = law.size - 1
    obs = np.bincount(np.minimum(times, h + 1) - 1, minlength=h + 1).astype(float)
    exp = law * times.size
    bins_o, bins_e, acc_o, acc_e = [], [], 0.0, 0.0
    for o, e in zip(obs, exp):
        acc_o, acc_e = acc_o + o, acc_e + e
        if acc_e >= 5:
            bins_o.append(acc_o)
            bins_e.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e or acc_o:
        bins_o[-1] += acc_o
        bins_e[-1] += acc_e
    bins_e = np.array(bins_e) * (sum(bins_o) / sum(bins_e))
    return float(stats.chisquare(bins_o, bins_e).pvalue)


def calibration_pvalue(case: LearnerCase, runs: int) -> float:
    times, L = first_top_times(case, runs)
    mech = case.first_at(L)
    b_rho, b_nu = at_scales(mech)
    horizon = int(math.ceil(mech.threshold + 40 * (b_rho + b_nu))) + 1
    return chi2_pvalue(times, first_top_law(mech.threshold, b_rho, b_nu, horizon))


# ------------------------------------------------------------------------------------------ the scales drawn


def claimed_scales(L: Any, case: LearnerCase) -> set[float]:
    """Every noise scale the learner's mechanism objects claim."""
    out: set[float] = set()
    for group in case.groups(L):
        for m in group:
            if isinstance(m, AboveThresholdRun):
                out.update(at_scales(m))
            elif hasattr(m, "scale"):
                out.add(float(m.scale))
    return out


def drawn_scales(case: LearnerCase, factor: float = 1.0, seeds: range = range(6), rounds: int = 700) -> tuple:
    """(claimed scales, scales the learner's code drew, hits): each seeded learner plays its erring stream, then a
    stream on random points labelled by its first hypothesis's complement — ⊤s, selections, moves all happen."""
    claimed: set[float] = set()
    with noise_under(case.module, factor) as log:
        for s in seeds:
            L = case.make(s)
            claimed |= claimed_scales(L, case)
            h1 = L.hypothesis()
            rng = np.random.default_rng(s)
            pts = [case.point] * 200 + [int(v) for v in rng.integers(0, case.domain, rounds)]
            labels = [1 - int(h1(x)) for x in pts]
            for x, y in zip(pts[:300], labels[:300]):
                L.learn_one(x, y)
            L.run(pts[300:], labels[300:])
    return claimed, set(log.scales()), log.hits


def _close(a: float, pool: set[float]) -> bool:
    return any(math.isclose(a, b, rel_tol=1e-9) for b in pool)


# ------------------------------------------------------------------------------------------ the tests


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_first_top_time_follows_the_claimed_law(case):
    p = calibration_pvalue(case, case.runs)
    assert p > FALSE_ALARM, f"{case.name}: first ⊤ times do not follow the claimed τ and scales (χ² p = {p:.3g})"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_segment_mechanisms_split_epsilon(case):
    L = case.make(0)
    for group in case.groups(L):
        parts = [m.privacy().epsilon for m in group]
        assert math.isclose(sum(parts), L.epsilon, rel_tol=1e-12), (case.name, parts, L.epsilon)
        assert all(e > 0 for e in parts)
    assert math.isclose(L.privacy().epsilon, L.epsilon, rel_tol=1e-12)
    assert L.privacy().delta == L.delta or L.delta > 0
    mech = case.first_at(L)
    assert any(mech is m for g in case.groups(L) for m in g), "the first segment's AboveThreshold is not composed"
    for group in case.groups(L):
        for m in group:
            if hasattr(m, "scale") and not isinstance(m, AboveThresholdRun):
                c = 2.0 if "Exponential" in type(m).__name__ else 1.0  # exponential mechanisms: 2Δ/ε (Gumbel)
                assert math.isclose(m.scale, c * m.sensitivity / m.epsilon, rel_tol=1e-12), (case.name, m)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_noise_drawn_is_the_claimed_noise(case):
    claimed, drawn, hits = drawn_scales(case)
    assert hits > 0
    first = at_scales(case.first_at(case.make(0)))
    assert all(_close(f, drawn) for f in first), (case.name, first, drawn)
    stray = sorted(s for s in drawn if not _close(s, claimed))
    assert not stray, f"{case.name} drew noise at scales no mechanism object claims: {stray} (claimed {claimed})"


# ------------------------------------------------------------------------------------------ the mutations


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_halved_noise_is_caught_by_the_calibration(case):
    with noise_under(case.module, 0.5) as log:
        p = calibration_pvalue(case, 400)
    assert log.hits > 0, "the mutation never fired: the test would prove nothing"
    assert p < FALSE_ALARM, f"{case.name}: halved noise not caught (χ² p = {p:.3g})"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_halved_noise_is_caught_by_the_scales_drawn(case):
    claimed, drawn, hits = drawn_scales(case, 0.5, seeds=range(2))
    assert hits > 0
    assert any(not _close(s, claimed) for s in drawn)


@pytest.mark.parametrize("case", [c for c in CASES if c.name != "ListAT"], ids=IDS[1:])
def test_a_whole_epsilon_above_threshold_is_caught(case):
    """The wrong split a learner can make: its first AboveThreshold drawn at the whole ε instead of its share ε_AT
    (noise × ε_AT/ε) while the claim still splits ε."""
    L = case.make(0)
    share = case.first_at(L).epsilon / L.epsilon
    assert share < 0.9, f"{case.name}: ε_AT = {share:.2f}·ε, too close to ε for this check"
    with noise_under(case.module, share):
        p = calibration_pvalue(case, 400)
    assert p < FALSE_ALARM, f"{case.name}: AboveThreshold at the whole ε not caught (χ² p = {p:.3g})"


def test_first_top_law_matches_a_simulation():
    """The quadrature against a direct simulation of min{t : t + ν_t ≥ τ + ρ} (step and standard scales)."""
    rng = np.random.default_rng(1)
    for tau, b_rho, b_nu in ((9.9, 1.0, 1.0), (20.0, 2.0, 4.0)):
        n, h = 40_000, int(tau + 40 * (b_rho + b_nu)) + 1
        rho = rng.laplace(0, b_rho, n)
        t = np.full(n, h + 1)
        alive = np.ones(n, dtype=bool)
        for s in range(1, h + 1):
            hit = alive & (s + rng.laplace(0, b_nu, n) >= tau + rho)
            t[hit] = s
            alive &= ~hit
        law = first_top_law(tau, b_rho, b_nu, h)
        assert abs(law.sum() - 1) < 1e-9
        assert chi2_pvalue(t, law) > 1e-4
        assert chi2_pvalue(t, first_top_law(tau, b_rho / 2, b_nu / 2, h)) < 1e-12


# ------------------------------------------------------------------------------------------ parameters (mutation killers)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pure_dp_learners_keep_the_delta_given(case):
    """δ is accepted (0 ≤ δ < 1) and reported as given; the claim's δ is the mechanisms' (0 for pure ε-DP)."""
    base = case.make(0)
    L = type(base)(base.hypothesis_class, T=base.T, epsilon=base.epsilon, delta=0.6, backend="seeded", seed=0)
    assert L.delta == 0.6
    assert L.privacy().delta == 0.0 and L.privacy().epsilon == L.epsilon


@pytest.mark.parametrize("n", [7, 15, 16])
def test_bisectat_theory_parameters_are_the_calculators(n):
    """N = n + 1 candidate thresholds (a power of 2 at n = 7, 15, where ⌊log₂ N⌋ and ⌊log₂(N − 1)⌋ differ): the theory
    τ, split and mistake bound are ``bisectat_bound(N)``'s."""
    from littlestone.bounds.segment_learners import bisect_split, bisectat_bound

    L = BisectAT(Thresholds(n), T=10_000, epsilon=1.0, setting="theory", backend="seeded", seed=0)
    N = n + 1
    assert math.isclose(L.epsilon_at, bisect_split(N, 10_000, 1.0, 0.1))
    bound = bisectat_bound(N, 10_000, 1.0, 0.1, epsilon_at=L.epsilon_at)
    assert math.isclose(L.tau, bound.tau)
    assert L.mistake_bound() == bound.mistakes


def test_pointsat_uniform_point_stays_in_the_domain():
    """The point drawn for the selection's "rest of the domain" cell is uniform over the domain minus the excluded
    points — never one past either end."""
    L = PointsAT(Points(3), T=100, epsilon=1.0, backend="seeded", seed=0)
    draws = [L._uniform_outside({0}) for _ in range(300)]
    assert set(draws) == {1, 2}
    assert 100 < draws.count(1) < 200
