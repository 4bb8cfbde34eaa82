"""PointsAT and IntervalsAT (issue 27 item 1c): mistake bounds against the library's adversaries, the vectorised run
equal to the round-by-round protocol, the claim, the cell exponential mechanism's law, the release policy, the
adaptive-game audits (twins caught) and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone.audit import run_broken_audit
from littlestone.bounds.points_intervals_at import (
    POINT_GUARD,
    STAY_ODDS,
    bisection_steps,
    intervals_at_bound,
    intervals_at_practical,
    points_at_bound,
)
from littlestone.classes import Intervals, Points, Thresholds
from littlestone.classes.points import FiniteSet
from littlestone.classes.spec import parse_class_spec
from littlestone.errors import LittlestoneError
from littlestone.online import ADVERSARIES, make_adversary, play
from littlestone.privacy import make_backend
from littlestone.privacy.cell_exponential import CellExponentialMechanism
from littlestone.private_online.intervals_at import IntervalsAT, depth_cells
from littlestone.private_online.points_at import PointsAT
from littlestone.testing.release import ReleaseSubject, check_release

T = 6000


@pytest.mark.parametrize("adversary", sorted(ADVERSARIES))
def test_points_at_mistake_bound_against_every_adversary(adversary):
    """Points(2^60): at most the theory bound, and the disagreement adversary's target is learned."""
    H = parse_class_spec("points:2^60")
    for seed in (1, 2):
        learner = PointsAT(H, T=T, epsilon=1.0, backend="seeded", seed=seed)
        adv = make_adversary(adversary, H, seed=seed)
        r = play(learner, adv, T, seed=seed)
        assert r.mistakes <= learner.bound.mistake_bound, (adversary, seed, r.mistakes)
        if adversary == "disagreement":
            assert learner.hypothesis() == adv.target


@pytest.mark.parametrize("adversary", sorted(ADVERSARIES))
def test_intervals_at_mistake_bound_against_every_adversary(adversary):
    H = Intervals(64)
    for seed in (1, 2):
        learner = IntervalsAT(H, T=T, epsilon=2.0, backend="seeded", seed=seed)
        adv = make_adversary(adversary, H, seed=seed)
        r = play(learner, adv, T, seed=seed)
        assert r.mistakes <= learner.bound.mistake_bound, (adversary, seed, r.mistakes)
        if adversary == "disagreement":
            assert learner.hypothesis() == adv.target


def test_points_at_pays_about_one_zero_segment():
    """The disagreement adversary asks the target every round: the zero segment ends near τ₀, the selection is
    right, and the point segment never ends (mistakes ≈ τ₀, never the whole horizon)."""
    H = Points()
    learner = PointsAT(H, T=20_000, epsilon=1.0, backend="seeded", seed=3)
    r = play(learner, make_adversary("disagreement", H, seed=3), 20_000, seed=3)
    b = learner.bound
    assert b.tau_zero - b.a_zero - 40 <= r.mistakes <= b.mistake_bound
    assert learner.state()["selections"] == 1 and learner.state()["segment"] == "point"


def _stream_points(n, rng):
    X = rng.integers(0, 2**60, size=n, dtype=np.int64)
    X[rng.random(n) < 0.3] = 77  # many positives: several segments
    y = (X == 77).astype(np.int8)
    y[n // 2 :] = 0  # then the target becomes the zero function (not realizable: more segments)
    return X, y


def _stream_intervals(n, rng):
    X = rng.integers(0, 2**16, size=n, dtype=np.int64)
    return X, ((X >= 100) & (X <= 30_000)).astype(np.int8)


@pytest.mark.parametrize(
    "cls,spec,stream",
    [(PointsAT, "points:2^60", _stream_points), (IntervalsAT, "intervals:2^16", _stream_intervals)],
)
def test_vectorised_run_releases_the_round_by_round_stream(cls, spec, stream):
    """Same seed, same stream: run (chunks of 2^15 rounds, segments across chunk boundaries) = learn_one."""
    H = parse_class_spec(spec)
    n = 40_000
    X, y = stream(n, np.random.default_rng(5))
    fast = cls(H, T=n, epsilon=1.0, backend="seeded", seed=9)
    res = fast.run(X, y)
    slow = cls(H, T=n, epsilon=1.0, backend="seeded", seed=9)
    preds = []
    for x, v in zip(X.tolist(), y.tolist()):
        preds.append(slow.predict_one(x))
        slow.learn_one(x, v)
    assert np.array_equal(res.predictions, np.array(preds))
    assert fast.state() == slow.state() and fast.hypothesis() == slow.hypothesis()
    assert fast.state()["segments"] >= 3


def test_claims_are_composed_from_the_mechanisms():
    p = PointsAT(Points(2**60), T=100, epsilon=0.7, backend="seeded", seed=0).privacy()
    assert (p.epsilon, p.delta) == (pytest.approx(0.7), 0.0)
    h = PointsAT(Points(), T=100, epsilon=0.7, delta=1e-6, selection="histogram", backend="seeded", seed=0)
    assert h.privacy().epsilon == pytest.approx(0.7) and 0 < h.privacy().delta <= 1e-6
    i = IntervalsAT(Intervals(2**16), T=100, epsilon=0.7, delta=1e-6, backend="seeded", seed=0).privacy()
    assert (i.epsilon, i.delta) == (pytest.approx(0.7), 0.0)


def test_segments_run_the_claimed_mechanisms():
    """Every segment's AboveThreshold has its claim object's ε, threshold and sensitivity 1 (a running count), and
    the claim objects carry the bound's split: a halved sensitivity or a doubled share turns this red."""
    H = parse_class_spec("points:2^60")
    L = PointsAT(H, T=2000, epsilon=1.0, backend="seeded", seed=1)
    b = L.bound
    assert (L.at_zero.epsilon, L.at_zero.threshold, L.at_zero.sensitivity) == (b.eps_at, b.tau_zero, 1.0)
    assert (L.at_point.epsilon, L.at_point.threshold, L.at_point.sensitivity) == (1.0, b.tau_point, 1.0)
    assert (L.selector.epsilon, L.selector.sensitivity) == (b.eps_select, 1.0)
    assert (L._at.epsilon, L._at.threshold, L._at.sensitivity) == (b.eps_at, b.tau_zero, 1.0)
    L.run(np.full(2000, 5, dtype=np.int64), np.ones(2000, dtype=np.int8))
    assert L.state()["segment"] == "point" and (L._at.epsilon, L._at.sensitivity) == (1.0, 1.0)
    for setting, params in [
        ("theory", intervals_at_bound(2**16, 2000, 1.0)),
        ("practical", intervals_at_practical(2**16, 2000, 1.0)),
    ]:
        I = IntervalsAT(Intervals(2**16), T=2000, epsilon=1.0, setting=setting, backend="seeded", seed=1)
        c = I.params
        assert (c.tau1, c.tau2, c.eps_at1, c.eps_at2) == (params.tau1, params.tau2, params.eps_at1, params.eps_at2)
        assert (I.at_empty.epsilon, I.at_empty.threshold, I.at_empty.sensitivity) == (c.eps_at1, c.tau1, 1.0)
        assert (I.at_bisect.epsilon, I.at_bisect.threshold, I.at_bisect.sensitivity) == (c.eps_at2, c.tau2, 1.0)
        assert (I.select_point.epsilon, I.select_move.epsilon) == (c.eps_select1, c.eps_select2)
        assert I.select_point.sensitivity == I.select_move.sensitivity == 1.0 == I._at.sensitivity
        assert c.eps_at1 + c.eps_select1 == pytest.approx(1.0) == c.eps_at2 + c.eps_select2


def test_intervals_practical_setting_drops_only_the_union_bound_terms():
    # practical (issue 34): AboveThreshold margin M = ln T + 3 (step, at ε′ = 1), phase-2 selection margin 4 ln(16/β)
    # (no S + 1), phase 1's 4 ln(4(N − 1)/β); each τ = max(M/ε_a, A/ε_s) = (M + A)/ε at its minimising split (the two
    # equal) — below the theory τ and below the former sum form (√A + √M)²/ε; the stay candidate's κ = (2/ε_s2) ln(5K)
    N, T, eps, beta = 2**16, 10**6, 1.0, 0.1
    p, b = intervals_at_practical(N, T, eps, beta), intervals_at_bound(N, T, eps, beta)
    margin = math.log(T) + 3.0
    A1, A2 = 4 * math.log(4 * (N - 1) / beta), 4 * math.log(16 / beta)
    for tau, e_a, e_s, A in ((p.tau1, p.eps_at1, p.eps_select1, A1), (p.tau2, p.eps_at2, p.eps_select2, A2)):
        assert tau == pytest.approx(margin / e_a) == pytest.approx(A / e_s) == pytest.approx((margin + A) / eps)
        assert tau < (math.sqrt(A) + math.sqrt(margin)) ** 2 / eps
    assert p.stay_score == pytest.approx(2 / p.eps_select2 * math.log(5 * STAY_ODDS))
    assert p.tau1 < b.tau1 and p.tau2 < 0.6 * b.tau2
    assert IntervalsAT(Intervals(N), T=T, epsilon=eps, backend="seeded", seed=0).setting_ == "practical"


@pytest.mark.parametrize("at", ["step", "monotone", "standard"])
def test_segments_run_the_step_above_threshold_by_default(at):
    """Every query of both learners is a running 0/1 count of the segment (step differences): the default runs the
    step AboveThreshold (both noises Lap(1/ε′)) and its claim object, and the bound's margins use those scales — a
    doubled or halved scale on either side turns this red."""
    from littlestone.bounds.points_intervals_at import miss_run
    from littlestone.private_online.segments import AT_KINDS
    from littlestone.privacy import StepAboveThreshold, StepAboveThresholdRun

    kw = {} if at == "step" else {"at": at}
    at_cls, run_cls = AT_KINDS[at]
    if at == "step":
        assert (at_cls, run_cls) == (StepAboveThreshold, StepAboveThresholdRun)
    L = PointsAT(Points(2**60), T=2000, epsilon=1.0, backend="seeded", seed=1, **kw)
    assert type(L._at) is at_cls and type(L.at_zero) is run_cls and type(L.at_point) is run_cls
    r, q = {"step": (1, 1), "monotone": (2, 2), "standard": (2, 4)}[at]
    assert (L._at._threshold_scale, L._at._query_scale) == (r, q)
    b, bp = L.bound, 0.1 / 12
    assert b.a_zero == pytest.approx(r / b.eps_at * math.log(1 / (2 * bp)))
    pp = bp / POINT_GUARD  # issue 34: the point segment's failure share is β′/100 (a larger τ_p)
    assert b.tau_point == pytest.approx((r * math.log(1 / (2 * pp)) + q * math.log(2000 / (2 * pp))) / 1.0)
    assert b.mistake_bound == math.ceil(b.tau_zero + b.a_zero) + miss_run(bp) - 1
    I = IntervalsAT(Intervals(2**16), T=2000, epsilon=1.0, backend="seeded", seed=1, **kw)
    assert type(I._at) is at_cls and type(I.at_empty) is run_cls and type(I.at_bisect) is run_cls
    assert I.state()["at"] == L.state()["at"] == at
    c = I.bound
    bp1 = 0.1 / 16
    A1 = 4 * math.log((2**16 - 1) / (0.1 / 4))
    a1, b1 = r * math.log(1 / (2 * bp1)), q * math.log(2000 / (2 * bp1))
    assert c.tau1 == pytest.approx(A1 / c.eps_select1 + (a1 + b1) / c.eps_at1)


def test_histogram_selection_on_a_string_domain():
    H = Points()
    learner = PointsAT(H, T=3000, epsilon=1.0, delta=1e-6, selection="histogram", backend="seeded", seed=1)
    for _ in range(3000):
        learner.learn_one("target", 1)
    assert learner.hypothesis()("target") == 1


def test_cell_exponential_mechanism_law():
    """P(cell j) ∝ |C_j|·exp(ε s_j/2): the closed form, and the seeded draws follow it (a halved noise scale —
    P ∝ exp(ε s_j) — is rejected)."""
    mech = CellExponentialMechanism(1.0)
    sizes, scores = [1, 2**60 - 1], [90.0, 0.0]
    p = mech.probabilities(sizes, scores)
    w1, w2 = math.exp(45.0), float(2**60 - 1)
    assert p[0] == pytest.approx(w1 / (w1 + w2), rel=1e-9)
    sizes, scores = [1, 3, 1], [2.0, 0.0, 1.0]
    p = mech.probabilities(sizes, scores)
    b = make_backend("seeded", seed=4)
    draws = np.bincount([mech((sizes, scores), backend=b) for _ in range(20_000)], minlength=3) / 20_000
    assert np.abs(draws - p).max() < 0.015
    halved = np.array([math.exp(2.0), 3.0, math.exp(1.0)])
    assert np.abs(draws - halved / halved.sum()).max() > 0.05


def test_depth_cells_cover_the_domain():
    from collections import Counter

    cells, sizes, depth = depth_cells(Counter({3: 1, 8: 5}), 16)
    assert sum(sizes) == 16 and cells[0] == (0, 2) and cells[-1] == (9, 15)
    assert dict(zip(cells, depth))[(8, 8)] == 5 and dict(zip(cells, depth))[(4, 7)] == 1
    assert dict(zip(cells, depth))[(0, 2)] == 0 == dict(zip(cells, depth))[(9, 15)]


@pytest.mark.parametrize("cls,H", [(PointsAT, Points(2**60)), (IntervalsAT, Intervals(64))])
def test_release_policy(cls, H):
    rng = np.random.default_rng(1)
    X = rng.integers(0, 64, size=400)
    X[::2] = 7
    y = (X == 7).astype(int) if cls is PointsAT else ((X >= 5) & (X <= 20)).astype(int)
    y2 = y.copy()
    y2[3] ^= 1

    def run(learner, data):
        for x, v in zip(*data):
            learner.predict_one(int(x))
            learner.learn_one(int(x), int(v))

    make = lambda b: cls(H, T=400, epsilon=2.0, backend=b, seed=0)  # noqa: E731
    findings = check_release(ReleaseSubject(cls.__name__, make, run, (X, y), (X, y2)))
    assert not findings, "\n".join(map(str, findings))


@pytest.mark.slow  # ~15 s each; tests/audit/test_broken.py runs every registered twin too
@pytest.mark.parametrize("twin", ["points_at_selection_first_positive", "intervals_at_point_first_positive"])
def test_adaptive_game_twins_are_caught(twin):
    rep = run_broken_audit(twin, seed=20261121)
    assert rep.passed is False and rep.epsilon_lb > rep.claimed_epsilon


@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: PointsAT(Thresholds(4), T=10, epsilon=1.0), "PointsAT learns point functions"),
        (lambda: IntervalsAT(Points(4), T=10, epsilon=1.0), "IntervalsAT learns intervals"),
        (lambda: PointsAT(Points(4), T=0, epsilon=1.0), "horizon T"),
        (lambda: IntervalsAT(Intervals(4), T=10, epsilon=0.0), "epsilon"),
        (lambda: PointsAT(Points(4), T=10, epsilon=1.0, selection="histogram"), "needs delta > 0"),
        (lambda: PointsAT(Points(4), T=10, epsilon=1.0, selection="median"), "selection must be"),
        (lambda: PointsAT(Points(lambda x: True), T=10, epsilon=1.0, selection="exponential"), "predicate"),
        (lambda: IntervalsAT(Intervals(4), T=10, epsilon=1.0, setting="fast"), "setting must be"),
    ],
)
def test_bad_parameters_one_line(make, match):
    with pytest.raises(LittlestoneError, match=match) as e:
        make()
    assert "\n" not in str(e.value)


def test_bad_data_one_line():
    learner = PointsAT(Points(), T=10, epsilon=1.0, backend="seeded", seed=0)
    with pytest.raises(LittlestoneError, match="64-bit integers"):
        learner.learn_one("a string", 1)
    with pytest.raises(LittlestoneError, match="label 2"):
        learner.learn_one(3, 2)  # one clear line naming the label
    learner = IntervalsAT(Intervals(8), T=10, epsilon=1.0, backend="seeded", seed=0)
    with pytest.raises(LittlestoneError, match="outside the domain"):
        learner.learn_one(9, 1)
    with pytest.raises(LittlestoneError, match="declared labels"):
        learner.run(np.array([1, 2]), np.array([0, 5]))


def test_bounds_match_the_learners_parameters():
    b = points_at_bound(2**60, 10**6, 1.0)
    assert b.eps_at + b.eps_select == pytest.approx(1.0) and b.tau_zero > b.c_min and b.mistake_bound < 500
    i = intervals_at_bound(2**16, 10**6, 1.0)
    # S = max_m ⌊log₂(m + 1)⌋ + ⌊log₂(N − m)⌋ = 30 at N = 2¹⁶ (issue 34: was 2⌊log₂ N⌋ = 32), bound 4,854 (was 5,166)
    assert i.steps == 30 and i.mistake_bound == i.phase1_mistakes + 30 * i.step_mistakes == 4854
    for N in range(1, 200):
        assert bisection_steps(N) == max((m + 1).bit_length() + (N - m).bit_length() - 2 for m in range(N))


def test_cli_play_and_bounds():
    from typer.testing import CliRunner

    from littlestone.cli.main import app

    r = CliRunner().invoke(
        app,
        ["play", "--class", "points:2^60", "-l", "points-at", "--adversary", "late-commitment", "--rounds", "2000"]
        + ["--backend", "seeded", "--seed", "1", "--show", "0"],
    )
    assert r.exit_code == 0, r.output
    assert "points-at vs late-commitment" in r.output and "(1, 0)-DP" in r.output
    r = CliRunner().invoke(app, ["play", "--class", "thresholds:4", "-l", "intervals-at", "--rounds", "10"])
    assert r.exit_code == 2 and "IntervalsAT learns intervals" in r.output
    r = CliRunner().invoke(app, ["bounds", "intervals-at", "--N", "2^16", "--T", "1000000"])
    assert r.exit_code == 0 and f"mistake bound: {intervals_at_bound(2**16, 10**6, 1.0).mistake_bound}" in r.output


def test_secure_backend_learns_and_refuses_a_seed():
    learner = PointsAT(Points(2**60), T=3000, epsilon=1.0, backend="secure")
    learner.run(np.full(3000, 2**59 + 7, dtype=np.int64), np.ones(3000, dtype=np.int8))
    assert learner.hypothesis() == FiniteSet((2**59 + 7,))
    learner = IntervalsAT(Intervals(2**10), T=20_000, epsilon=1.0, backend="secure")
    X = np.random.default_rng(0).integers(0, 2**10, 20_000)
    learner.run(X, ((X >= 100) & (X <= 700)).astype(np.int8))
    assert learner.state()["phase"] == 2
    with pytest.raises(LittlestoneError, match="unseeded"):
        PointsAT(Points(4), T=10, epsilon=1.0, backend="secure", seed=1)


def test_histogram_selection_bound_and_claim():
    """c_min = 1 + (2/ε_s)(ln(2/δ) + ln(1/(2γ))) with γ = β/2; the ε split minimises τ₀ over a grid of splits; the
    learner's δ is its stable histogram's exact δ for the δ asked."""
    from littlestone.bounds.points_intervals_at import query_margin, threshold_margin
    from littlestone.privacy.stable_histogram import StableHistogram

    b = points_at_bound(math.inf, 10**6, 1.0, 0.1, selection="histogram", delta=1e-6)
    assert b.c_min == pytest.approx(1 + 2 * (math.log(2e6) + math.log(1 / 0.1)) / b.eps_select)
    a1, b1 = threshold_margin(1.0, 0.1 / 12), query_margin(1.0, 10**6, 0.1 / 12)
    for s in np.linspace(0.05, 0.95, 19):
        tau = 1 + 2 * (math.log(2e6) + math.log(1 / 0.1)) / s + (a1 + b1) / (1 - s)
        assert b.tau_zero <= tau + 1e-9
    e = points_at_bound(2**60, 10**6, 1.0, 0.1)
    for s in np.linspace(0.05, 0.95, 19):
        assert e.tau_zero <= 2 * math.log((2**60 - 1) / 0.05) / s + (a1 + b1) / (1 - s) + 1e-9
    L = PointsAT(Points(), T=100, epsilon=1.0, delta=1e-6, selection="histogram", backend="seeded", seed=0)
    assert L.privacy().delta == StableHistogram(L.bound.eps_select, 1e-6, discrete=False).privacy().delta
    assert L.bound == points_at_bound(math.inf, 100, 1.0, 0.1, selection="histogram", delta=1e-6)
