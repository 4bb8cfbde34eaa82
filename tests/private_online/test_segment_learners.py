"""ListAT and BisectAT (issue 27; App. F.2 / F.3): the vectorised run releases what the round-by-round protocol does,
the theory mistake bounds hold against the library's adaptive adversaries, the claim is composed from the
mechanism objects run (pure ε), bad input gets one clear error, river conventions, the release policy."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.bounds.segment_learners import bisectat_bound, listat_bound
from littlestone.classes.ops import random_class
from littlestone.classes.points import Points
from littlestone.errors import LabelError, LittlestoneError, PrivacyParameterError
from littlestone.online import make_adversary, play
from littlestone.privacy import StepAboveThreshold
from littlestone.private_online import BisectAT, ListAT
from littlestone.testing.release import ReleaseSubject, check_release

LEARNERS = {"listat": ListAT, "bisect": BisectAT}


def _hard_stream(n: int, T: int, target: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """An oblivious realizable stream for thresholds(n) with many mistakes early: points next to the target."""
    rng = np.random.default_rng(seed)
    X = np.clip(target + rng.integers(-3, 3, T), 0, n - 1)
    return X, (X >= target).astype(np.int8)


@pytest.mark.parametrize("name", ["listat", "bisect"])
@pytest.mark.parametrize("n", [8, 2**60])
def test_vectorised_run_releases_the_round_by_round_stream(name, n):
    if name == "listat" and n > 8:
        pytest.skip("ListAT does not list 2^60 + 1 hypotheses")
    H = Thresholds(n)
    X, y = _hard_stream(n, 6000, target=n // 3 + 1)
    a = LEARNERS[name](H, T=6000, epsilon=1.0, backend="seeded", seed=5, setting=3.0)
    b = LEARNERS[name](H, T=6000, epsilon=1.0, backend="seeded", seed=5, setting=3.0)
    preds = a.run(X, y).predictions
    round_by_round = []
    for x, label in zip(X.tolist(), y.tolist()):
        round_by_round.append(b.predict_one(x))
        b.learn_one(x, label)
    assert a.state() == b.state() and a.state()["segments"] > 3  # several segments crossed, in blocks
    if name == "listat":  # one step down the public list per ⊤
        assert a.state()["index"] == (a.state()["segments"] - 1) % a.k
    assert preds.tolist() == round_by_round


def test_vectorised_run_on_a_finite_class_matches():
    H = random_class(16, 20, seed=3)
    rng = np.random.default_rng(0)
    target = H.hypothesis(11)
    X = rng.integers(0, 20, 5000)
    y = target.predict(X).astype(np.int8)
    a = ListAT(H, T=5000, epsilon=1.0, backend="seeded", seed=2, setting=4.0)
    b = ListAT(H, T=5000, epsilon=1.0, backend="seeded", seed=2, setting=4.0)
    preds = a.run(X, y).predictions
    for t, (x, label) in enumerate(zip(X.tolist(), y.tolist())):
        assert b.predict_one(x) == preds[t]
        b.learn_one(x, label)
    assert a.state() == b.state() and a.state()["segments"] > 2


@pytest.mark.parametrize("adversary", ["late-commitment", "disagreement", "tree", "iid"])
@pytest.mark.parametrize("n", [2, 4, 8])
@pytest.mark.parametrize("name", ["listat", "bisect"])
def test_theory_mistake_bound_holds_against_adaptive_adversaries(name, n, adversary):
    H, T = Thresholds(n), 2000
    bound = listat_bound(n + 1, T, 1.0).mistakes if name == "listat" else bisectat_bound(n + 1, T, 1.0).mistakes
    for seed in (1, 2):
        learner = LEARNERS[name](H, T=T, epsilon=1.0, backend="seeded", seed=seed, setting="theory")
        assert learner.mistake_bound() == bound
        m = play(learner, make_adversary(adversary, H, seed=seed), T, seed=seed).mistakes
        assert m <= bound, (name, n, adversary, seed, m, bound)


def test_bounds_have_the_derived_constants():
    T, k, eps, beta = 10**6, 3, 1.0, 0.1
    b = listat_bound(k, T, eps, beta)
    assert b.A_nu == pytest.approx(math.log(2 * T / beta))  # step AboveThreshold: b_ν = 1/ε
    assert b.A_rho == pytest.approx(math.log(2 * k / beta))
    assert b.mistakes == (k - 1) * math.ceil(2 * (b.A_rho + b.A_nu))
    m = listat_bound(k, T, eps, beta, at="monotone")
    assert m.A_nu == pytest.approx(2 * b.A_nu)
    c = bisectat_bound(9, T, eps, beta)
    assert c.wrong_segments == 3
    assert c.epsilon_at + c.epsilon_sign == pytest.approx(eps)
    assert c.C == pytest.approx(2 / c.epsilon_sign * math.log(6 * 3 / beta))
    assert c.mistakes == 3 * math.ceil(c.tau + c.A_rho + c.A_nu)
    # the split minimises the per-segment bound
    for e in (c.epsilon_at - 0.05, c.epsilon_at + 0.05):
        assert bisectat_bound(9, T, eps, beta, epsilon_at=e).per_segment >= c.per_segment - 1


@pytest.mark.parametrize("name", ["listat", "bisect"])
def test_privacy_is_pure_epsilon_from_the_mechanisms_run(name):
    learner = LEARNERS[name](Thresholds(8), T=100, epsilon=0.7, backend="seeded", seed=0)
    p = learner.privacy()
    assert (p.epsilon, p.delta) == (pytest.approx(0.7), 0.0)
    assert isinstance(learner._seg._at, StepAboveThreshold)  # the running counts use the step AboveThreshold
    if name == "bisect":
        assert learner.at_mechanism.epsilon + learner.sign_mechanism.epsilon == pytest.approx(0.7)
        assert learner.sign_mechanism.sensitivity == 2
    else:
        assert learner.at_mechanism.epsilon == pytest.approx(0.7)
    for at in ("monotone", "standard"):
        assert LEARNERS[name](Thresholds(8), T=100, epsilon=0.7, at=at, backend="seeded", seed=0).privacy().epsilon == (
            pytest.approx(0.7)
        )


def test_bad_input_is_one_clear_error():
    with pytest.raises(LittlestoneError, match="BisectAT learns thresholds"):
        BisectAT(Points(8), T=10, epsilon=1.0, backend="seeded", seed=0)
    with pytest.raises(LittlestoneError, match="cannot list"):
        ListAT(Thresholds(2**60), T=10, epsilon=1.0, backend="seeded", seed=0)
    for cls in (ListAT, BisectAT):
        with pytest.raises(LittlestoneError, match="T"):
            cls(Thresholds(4), T=0, epsilon=1.0, backend="seeded", seed=0)
        with pytest.raises(PrivacyParameterError):
            cls(Thresholds(4), T=10, epsilon=0.0, backend="seeded", seed=0)
        with pytest.raises(LittlestoneError, match="setting"):
            cls(Thresholds(4), T=10, epsilon=1.0, backend="seeded", seed=0, setting="best")
        learner = cls(Thresholds(4), T=10, epsilon=1.0, backend="seeded", seed=0, labels=(-1, 1))
        with pytest.raises(LabelError):
            learner.learn_one(2, 0)
        with pytest.raises(LittlestoneError, match="seed"):
            cls(Thresholds(4), T=10, epsilon=1.0, seed=3)  # secure backend is unseeded
    with pytest.raises(LittlestoneError, match="epsilon_at"):
        BisectAT(Thresholds(4), T=10, epsilon=1.0, epsilon_at=1.0, backend="seeded", seed=0)


@pytest.mark.parametrize("name", ["listat", "bisect"])
def test_river_conventions(name):
    learner = LEARNERS[name](Thresholds(8), T=50, epsilon=1.0, backend="seeded", seed=0, labels=(-1, 1))
    assert learner.predict_one({"x": 3}) in (-1, 1)
    assert learner.learn_one({"x": 3}, -1) is None
    assert learner.learn_one(6, True) is None  # river's bool labels: True = positive
    proba = learner.predict_proba_one(5)
    assert set(proba) == {-1, 1} and sum(proba.values()) == 1.0
    assert learner.t == 2


@pytest.mark.parametrize("name", ["listat", "bisect"])
def test_state_is_public_unless_diagnostics(name):
    learner = LEARNERS[name](Thresholds(8), T=50, epsilon=1.0, backend="seeded", seed=0)
    learner.learn_one(0, 0)
    assert "segment_mistakes" not in learner.state()
    diag = LEARNERS[name](Thresholds(8), T=50, epsilon=1.0, backend="seeded", seed=0, diagnostics=True)
    diag.learn_one(0, 0)
    assert "segment_mistakes" in diag.state()


def _play(learner, data):
    for x, y in zip(*data):
        learner.predict_one(int(x))
        learner.learn_one(int(x), int(y))


@pytest.mark.parametrize("name", ["listat", "bisect"])
def test_release_policy(name):
    rng = np.random.default_rng(1)
    X = rng.integers(0, 8, 40)
    y = (X >= 4).astype(int)
    y2 = y.copy()
    y2[5] ^= 1
    make = lambda b: LEARNERS[name](Thresholds(8), T=40, epsilon=1.0, backend=b, seed=0, setting=2.0)  # noqa: E731
    # the list position / interval, the segments and the hypothesis are functions of the AboveThreshold answers
    outputs = ("hypothesis", r"^(i|backtracks) = ", r"\['(index|segments|interval|threshold|depth|backtracks)'\]")
    findings = check_release(ReleaseSubject(name, make, _play, (X, y), (X, y2), outputs=outputs))
    assert not findings, "\n".join(map(str, findings))


def _cli(*args):
    from typer.testing import CliRunner

    from littlestone.cli.main import app

    return CliRunner().invoke(app, [str(a) for a in args])


def test_cli_bounds_and_play():
    r = _cli("bounds", "listat", "--k", 3, "--T", 1000000)
    assert r.exit_code == 0 and f"{listat_bound(3, 10**6, 1.0).mistakes:,}" in r.output, r.output
    r = _cli("bounds", "bisectat", "--class", "thresholds:2^60", "--T", 1000000)
    assert r.exit_code == 0 and f"{bisectat_bound(2**60 + 1, 10**6, 1.0).mistakes:,}" in r.output, r.output
    r = _cli("play", "-l", "bisect", "--class", "thresholds:2^60", "--adversary", "late-commitment", "-T", 300)
    assert r.exit_code == 0 and "(1, 0)-DP" in r.output, r.output
    for args in (
        ("play", "-l", "bisect", "--class", "points:8", "--adversary", "iid", "-T", 10),
        ("play", "-l", "listat", "--class", "thresholds:2^60", "--adversary", "iid", "-T", 10),
        ("play", "-l", "listat", "--class", "thresholds:8", "--adversary", "iid", "-T", 10, "--epsilon", 0),
        ("play", "-l", "bisect", "--class", "thresholds:8", "--adversary", "iid", "-T", 10, "--setting", "x"),
        ("bounds", "bisectat", "--class", "points:8", "--T", 10),
    ):
        r = _cli(*args)
        assert r.exit_code == 2 and r.output.count("\n") <= 2 and "Traceback" not in r.output, (args, r.output)


@pytest.mark.parametrize("name", ["listat", "bisect"])
def test_segments_count_from_zero_with_sensitivity_one(name):
    # one round moves a running count by at most 1: the segment's AboveThreshold is calibrated for Δ = 1 (a smaller
    # Δ would shrink both noises), and every segment's count starts at 0
    learner = LEARNERS[name](Thresholds(8), T=500, epsilon=1.0, backend="seeded", seed=0, setting=3.0, diagnostics=True)
    assert learner.at_mechanism.sensitivity == 1.0 and learner._seg._at.sensitivity == 1.0
    assert learner.state()["segment_mistakes"] == 0
    h = learner.hypothesis()
    x = next(x for x in range(8) if h(x) == 1)
    while learner.state()["segments"] == 1:
        learner.learn_one(x, 0)  # a mistake of the released hypothesis every round
    assert learner.state()["segment_mistakes"] == 0  # the next segment starts from 0
    h = learner.hypothesis()
    learner.learn_one(0, h(0))  # no mistake: the count stays 0
    assert learner.state()["segment_mistakes"] == 0
