"""SegmentedEM and EpochEM (issue 33, App. G): the agnostic private online learners."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

from littlestone import Points, Thresholds
from littlestone.classes.conjunctions import Conjunctions
from littlestone.bounds.agnostic_segments import epoch_lengths, segmented_em_bound
from littlestone.classes.finite import FiniteClass
from littlestone.errors import LittlestoneError
from littlestone.experiments.private_online import LEARNERS
from littlestone.privacy.cell_exponential import CellExponentialMechanism
from littlestone.privacy.monotone_above_threshold import StepAboveThreshold
from littlestone.private_online import EpochEM, PrivateOnlineLearner, SegmentedEM
from littlestone.private_online.segmented_em import RHO_DENOMINATOR

CLASSES = {
    "thr16": lambda: Thresholds(2**16),
    "thr60": lambda: Thresholds(2**60),
    "points": lambda: Points(range(2**12)),
    "finite": lambda: FiniteClass(np.random.default_rng(3).integers(0, 2, size=(16, 32))),
}


def _stream(H, T, eta, seed):
    rng = np.random.default_rng(seed)
    if isinstance(H, Thresholds):
        n = H.n
        t = int(rng.integers(n // 8, n - n // 8))
        X = rng.integers(0, min(n, 2**62), T, dtype=np.int64)
        y = (X >= t).astype(np.int8)
    elif isinstance(H, Points):
        p = 17
        X = np.where(rng.random(T) < 0.3, p, rng.integers(0, 2**12, T))
        y = (X == p).astype(np.int8)
    else:
        X = rng.integers(0, 32, T)
        y = H.matrix[3][X].astype(np.int8)
    return X, y ^ (rng.random(T) < eta).astype(np.int8)


def _best_threshold(X, y, n):
    ones = np.bincount(X, weights=y, minlength=n)
    zeros = np.bincount(X, minlength=n) - ones
    return int((np.concatenate([[0], np.cumsum(ones)]) + zeros.sum() - np.concatenate([[0], np.cumsum(zeros)])).min())


@pytest.mark.parametrize("cls", [SegmentedEM, EpochEM])
@pytest.mark.parametrize("cname", list(CLASSES))
def test_vectorised_run_releases_the_round_by_round_stream(cls, cname):
    H = CLASSES[cname]()
    X, y = _stream(H, 1500, 0.2, 1)
    a = cls(H, T=1500, epsilon=1.0, backend="seeded", seed=5)
    b = cls(H, T=1500, epsilon=1.0, backend="seeded", seed=5)
    preds = a.run(X, y).predictions
    one = []
    for x, v in zip(X.tolist(), y.tolist()):
        one.append(b.predict_one(x))
        b.learn_one(x, v)
    assert np.array_equal(preds, np.asarray(one))
    assert a.state() == b.state() and a.state()["segments"] >= 4


@pytest.mark.parametrize("cls", [SegmentedEM, EpochEM])
def test_privacy_is_pure_epsilon_from_the_mechanisms_run(cls):
    learner = cls(Thresholds(2**16), T=10_000, epsilon=0.8, backend="seeded", seed=0)
    p = learner.privacy()
    assert (p.epsilon, p.delta) == (pytest.approx(0.8), 0.0)
    parts = [m for m in (learner.at_mechanism, learner.selection_mechanism, learner.error_mechanism) if m]
    assert sum(m.epsilon for m in parts) == pytest.approx(0.8)
    assert isinstance(learner.selection_mechanism, CellExponentialMechanism)
    assert learner.selection_mechanism.sensitivity == 1.0  # one round moves every hypothesis's mistakes by ≤ 1
    if cls is SegmentedEM:
        # the stay test: b·(mistakes) − a·(rounds) moves by b when one round changes: sensitivity b, noise b/ε_AT
        assert isinstance(learner._at, StepAboveThreshold)
        assert learner._at.sensitivity == RHO_DENOMINATOR == learner.at_mechanism.sensitivity
        assert learner._at.epsilon == pytest.approx(0.16)  # the practical shares 0.2 / 0.75 / 0.05 of ε = 0.8
        assert learner.selection_mechanism.epsilon == pytest.approx(0.6)
        assert learner.error_mechanism.sensitivity == 1 and learner.error_mechanism.epsilon == pytest.approx(0.04)
        theory = cls(Thresholds(2**16), T=10_000, epsilon=0.8, setting="theory", backend="seeded", seed=0)
        assert theory._at.epsilon == pytest.approx(0.4)  # the bound's shares 0.5 / 0.35 / 0.15
        assert theory.error_mechanism.epsilon == pytest.approx(0.12)
    else:
        assert learner.selection_mechanism.epsilon == pytest.approx(0.8)


def _first_selection_frequencies(runs, special):
    """The first selection (after the public segment of 4 rounds) on thresholds(2): its empirical law."""
    counts = np.zeros(3)
    for seed in range(runs):
        L = SegmentedEM(Thresholds(2), T=8, epsilon=1.0, split=(0.05, 0.9, 0.05), tau=1e9, first=4, window=False,
                        backend="seeded", seed=seed)  # fmt: skip
        for x, v in [special, (1, 1), (1, 1), (1, 1)]:
            L.learn_one(x, v)
        counts[L.hypothesis().t] += 1
    return counts / runs


def test_the_selection_draws_from_the_exponential_mechanism_at_its_epsilon():
    # halving the selection's noise (doubling its ε) or reading more than the segment moves this law
    freq = _first_selection_frequencies(3000, (0, 0))
    # mistakes on (0,0),(1,1)×3 of s = 0, 1, 2: 1, 0, 3
    law = CellExponentialMechanism(0.9, 1.0).probabilities([1, 1, 1], [-1.0, 0.0, -3.0])
    assert np.abs(freq - law).max() < 0.03, (freq, law)


def test_a_round_feeds_exactly_one_selection():
    # every selection reads the rounds of its own segment: their counts add up to the rounds of the ended segments,
    # and the public schedule is the epochs (the stay test silenced)
    H = Thresholds(2**10)
    X, y = _stream(H, 3000, 0.1, 2)
    L = SegmentedEM(H, T=3000, epsilon=1.0, tau=1e9, backend="seeded", seed=0)
    read = []
    cells = L.scores.cells

    def spy(x, yy, window=None):
        read.append(len(yy))
        return cells(x, yy, window)

    L.scores.cells = spy
    L.run(X, y)
    ended = sum(epoch_lengths(3000, L.first)[:-1])
    assert read == epoch_lengths(3000, L.first)[: len(read)] and sum(read) == ended


def test_stay_test_ends_a_segment_where_the_hypothesis_errs():
    L = SegmentedEM(Thresholds(2**16), T=100_000, epsilon=1.0, first=5000, backend="seeded", seed=0, diagnostics=True)
    x = L.hypothesis().t  # h predicts 1 there; every round a mistake
    rounds = 0
    while L.state()["tops"] == 0:
        L.learn_one(x, 0)
        rounds += 1
    # ρ₁ = ½: ⊤ once the mistakes pass rounds/2 + τ_j, τ_j = max(τ, 2(ln|H| + 1)/ε_EM) ≈ 69, up to the noise
    assert 100 < rounds < 400
    assert L.hypothesis().t > x  # the selection moved past the points labelled 0
    assert L.state()["segment_mistakes"] == 0 and L.state()["segments"] == 2


def test_regret_on_iid_noisy_thresholds_is_small():
    H = Thresholds(2**16)
    for eta in (0.1, 0.3):
        X, y = _stream(H, 30_000, eta, 7)
        M = SegmentedEM(H, T=30_000, epsilon=1.0, backend="seeded", seed=1).run(X, y).mistakes
        assert M - _best_threshold(X, y, 2**16) < 0.01 * 30_000


@pytest.mark.slow
def test_regret_against_the_adaptive_noisy_adversary():
    H = Thresholds(2**16)
    T = 100_000
    rng = np.random.default_rng(4)
    target = 41_234
    L = SegmentedEM(H, T=T, epsilon=1.0, backend="seeded", seed=3)
    flips = rng.random(T) < 0.1
    X = np.empty(T, np.int64)
    Y = np.empty(T, np.int8)
    M = 0
    for t in range(T):
        h = L.hypothesis()
        a, b = sorted((h.t, target))
        x = int(rng.integers(a, b)) if a < b else int(rng.integers(0, 2**16))
        v = int(x >= target) ^ int(flips[t])
        M += h(x) != v
        L.learn_one(x, v)
        X[t], Y[t] = x, v
    assert M - _best_threshold(X, Y, 2**16) < 0.05 * T


def test_theory_setting_regret_within_its_bound():
    H = Thresholds(2**12)
    X, y = _stream(H, 20_000, 0.2, 3)
    L = SegmentedEM(H, T=20_000, epsilon=1.0, setting="theory", backend="seeded", seed=0)
    assert not L.window and L.rho == 1.0
    M = L.run(X, y).mistakes
    bound = L.regret_bound()
    assert bound == segmented_em_bound(H, 20_000, 1.0, 0.1).regret
    assert M - _best_threshold(X, y, 2**12) <= bound
    assert L.state()["tops"] == 0  # the theory τ: no ⊤ on an i.i.d. stream (part of the bound's event)
    with pytest.raises(LittlestoneError, match="theory"):
        SegmentedEM(H, T=10, epsilon=1.0, backend="seeded", seed=0).regret_bound()


def test_bound_terms():
    b = segmented_em_bound(Thresholds(2**16), 100_000, 1.0, 0.1)
    assert b.size == 2**16 + 1 and b.epochs == tuple(epoch_lengths(100_000, 64))
    K = len(b.epochs)
    bp = 0.1 / (6 * K + 1)
    assert b.hindsight == pytest.approx(math.sqrt(2 * 100_000 * math.log(2 * (2**16 + 1) / bp)))
    assert b.regret <= 100_000 and b.regret == pytest.approx(
        min(100_000, b.first_epoch + b.selection + b.deviation + b.fresh + b.hindsight)
    )


@pytest.mark.parametrize("cls", [SegmentedEM, EpochEM])
def test_state_and_release_are_public(cls):
    H = Thresholds(2**16)
    X, y = _stream(H, 2000, 0.1, 0)
    L = cls(H, T=2000, epsilon=1.0, backend="seeded", seed=0)
    L.run(X, y)
    assert "segment_mistakes" not in L.state()
    rel = L.release()
    assert rel["hypothesis"] == L.hypothesis() and "segment_mistakes" not in rel["state"]
    D = cls(H, T=2000, epsilon=1.0, backend="seeded", seed=0, diagnostics=True)
    D.run(X, y)
    assert "segment_mistakes" in D.state()


def test_bad_input_is_one_clear_error():
    H = Thresholds(8)
    for kw, msg in (
        ({"split": (0.5, 0.5)}, "split"),
        ({"split": (0.5, 0.6, -0.1)}, "split"),
        ({"setting": "fast"}, "setting"),
        ({"first": 0}, "first"),
        ({"margin": 1.5}, "margin"),
        ({"at": "nope"}, "at must be"),
    ):
        with pytest.raises(LittlestoneError, match=msg):
            SegmentedEM(H, T=10, epsilon=1.0, backend="seeded", seed=0, **kw)
    with pytest.raises(LittlestoneError, match="no closed form for conjunctions"):
        SegmentedEM(Conjunctions(30), T=10, epsilon=1.0, backend="seeded", seed=0)


def test_labels_and_river_dicts():
    L = SegmentedEM(Thresholds(2**8), T=100, epsilon=1.0, labels=(-1, 1), backend="seeded", seed=0)
    assert L.predict_one({"x": 200}) in (-1, 1)
    L.learn_one({"x": 200}, -1)
    assert L.t == 1


def test_every_registered_private_learner_states_agnostic():
    for name, (module, cls_name) in LEARNERS.items():
        cls = getattr(importlib.import_module(module), cls_name)
        if not issubclass(cls, PrivateOnlineLearner):
            continue
        owners = [k for k in cls.__mro__ if "agnostic" in vars(k)]
        assert owners and owners[0] is not PrivateOnlineLearner, name
        assert cls.agnostic in (True, False), name
    assert LEARNERS["segment-em"][1] == "SegmentedEM" and SegmentedEM.agnostic and EpochEM.agnostic
    from littlestone.agnostic_online.algorithm3 import Algorithm3
    from littlestone.agnostic_online.constructed_experts import ConstructedExpertsLearner

    assert Algorithm3.agnostic is True and ConstructedExpertsLearner.agnostic is True


def test_cli_play_and_bounds():
    from typer.testing import CliRunner

    from littlestone.cli.main import app

    r = CliRunner().invoke(app, ["play", "-c", "thresholds:100", "-l", "segment-em", "-a", "disagreement", "-T", "300"])
    assert r.exit_code == 0 and "segment-em" in r.output, r.output
    r = CliRunner().invoke(app, ["bounds", "segment-em", "--class", "thresholds:2^16", "--T", "100000"])
    assert r.exit_code == 0 and "regret bound" in r.output, r.output
    r = CliRunner().invoke(app, ["bounds", "segment-em", "--class", "thresholds:2^16", "--T", "0"])
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_finite_class_scores_with_a_point_repeated_many_times():
    H = FiniteClass(np.random.default_rng(3).integers(0, 2, size=(16, 32)))
    X = np.full(3000, 5)
    y = np.ones(3000, dtype=np.int8)
    L = SegmentedEM(H, T=3000, epsilon=1.0, backend="seeded", seed=0)
    L.run(X, y)  # segments of up to 1,500 copies of one point: the scores stay exact (no small-integer overflow)
    sizes, mistakes, _ = L.scores.cells(X[:500], y[:500])
    assert np.array_equal(mistakes, 500.0 * (1 - H.matrix[:, 5]))


def test_point_cells_cover_the_domain_once_with_exact_scores():
    from littlestone.classes.points import ZERO, FiniteSet
    from littlestone.private_online.segment_scores import PointScores

    sc = PointScores(Points(range(6)))
    x, y = np.array([1, 1, 4]), np.array([1, 0, 1])
    sizes, mist, decode = sc.cells(x, y)
    assert sum(sizes) == 7 == sc.range_size()  # six points and the zero function, each once

    def brute(h):
        return sum(int(h(int(a)) != int(b)) for a, b in zip(x, y))

    rng = np.random.default_rng(0)
    assert [decode(j, rng) for j in range(3)] == [FiniteSet((1,)), FiniteSet((4,)), ZERO]
    assert [mist[j] for j in range(3)] == [brute(FiniteSet((1,))), brute(FiniteSet((4,))), brute(ZERO)]
    rest = {decode(3, rng).points[0] for _ in range(300)}
    assert rest == {0, 2, 3, 5} and sizes[3] == 4
    assert all(brute(FiniteSet((p,))) == mist[3] for p in rest)


@pytest.mark.parametrize("cls", [SegmentedEM, EpochEM])
def test_clone_is_a_fresh_learner_with_the_same_parameters(cls):
    H = Thresholds(2**10)
    L = cls(H, T=500, epsilon=0.5, first=32, backend="seeded", seed=2)
    X, y = _stream(H, 300, 0.1, 0)
    L.run(X, y)
    C = L.clone()
    assert type(C) is cls and C.t == 0 and C.epsilon == 0.5 and C.first == 32 and C.window == L.window
    assert C.window is (cls is SegmentedEM)


def _segment_log(L, X, y):
    """Per segment, from the learner's rounds: (start, ended by ⊤, quiet flag, window, released threshold) and the
    mechanism objects called at its end (spies on every selection mechanism and the error release)."""
    calls: list = []

    def spy(m):
        f = m.__call__

        class Spy(type(m)):
            def __call__(self, *a, **k):
                calls.append(self)
                return f(*a, **k)

        m.__class__ = Spy
        return m

    for m in [L.selection_mechanism, L.error_mechanism] + [
        L._selection_mechanism(L.selection_epsilon(a, n)) for a in (True, False) for n in (True, False)
    ]:
        if m is not None and type(m).__name__ != "Spy":
            spy(m)
    log, ends = [], []
    for x, v in zip(X.tolist(), y.tolist()):
        before, tops, start, active, window = L.segments, L.tops, L._seg_start, L._active, L._window()
        h = L.hypothesis()
        L.learn_one(x, v)
        if L.segments != before:
            log.append((start, L.tops > tops, active, window, h.t))
            ends.append(list(calls))
            calls.clear()
    return log, ends


def test_quiet_segments_spend_at_most_epsilon_per_segment():
    # every segment's rounds are read by its stay test (if it runs), the selection at its end and the error release
    # (if the next segment runs a stay test): the ε of what actually ran sums to ε — a quiet segment's selection takes
    # the shares of the mechanisms that did not run, and never more (a selection at full ε beside a stay test is red)
    H = Thresholds(2**10)
    X, y = _stream(H, 6000, 0.2, 4)
    L = SegmentedEM(H, T=6000, epsilon=1.0, backend="seeded", seed=1)
    log, ends = _segment_log(L, X, y)
    assert L.quiet_segments >= 3 and any(active for _, _, active, _, _ in log)  # both kinds of segment happened
    for k, ((start, _, active, _, _), called) in enumerate(zip(log, ends)):
        spent = active * L.epsilon_at + sum(m.epsilon for m in called)
        assert spent == pytest.approx(1.0), (start, active, [m.epsilon for m in called])
        if k + 1 < len(log):  # the error release runs iff the next segment (public start) runs a stay test
            assert (L.error_mechanism in called) == L.stay_active(log[k + 1][0])
    assert L.privacy().epsilon == pytest.approx(1.0)
    assert all(sum(m.epsilon for m in L.segment_mechanisms(a, n)) <= 1.0 + 1e-12 for a in (0, 1) for n in (0, 1))


def test_quiet_flags_and_window_are_functions_of_released_values():
    # a public replay: from the segment starts (released ends), the ⊤s and the released thresholds alone, recompute
    # which segments run the stay test (public length ≥ stay_factor·τ) and the window of every selection (none until
    # the first ⊤, then the step rule); the learner must agree — a flag or a window read from the data goes red
    H = Thresholds(2**12)
    rng = np.random.default_rng(5)
    T = 6000
    L = SegmentedEM(H, T=T, epsilon=1.0, backend="seeded", seed=2)
    # a drifting stream: the target moves, so ⊤s happen and the window engages
    t1, t2 = 1000, 3500
    X = rng.integers(0, 2**12, T, dtype=np.int64)
    y = np.where(np.arange(T) < 2500, X >= t1, X >= t2).astype(np.int8)
    y ^= (rng.random(T) < 0.05).astype(np.int8)
    log, _ = _segment_log(L, X, y)
    assert any(top for _, top, _, _, _ in log) and any(not a for _, _, a, _, _ in log)
    width, last, full = None, 0, H.n
    hs = [h for *_, h in log] + [L.hypothesis().t]
    for k, (start, top, active, window, h) in enumerate(log):
        assert active == (max(L.first, start) >= L.stay_factor * L.tau)
        expect = None if width is None else (h - width, h + width)
        assert window == expect, (k, window, expect)
        step = hs[k + 1] - h
        if top or width is not None:
            width = full if width is None else width
            if step:
                width = min(full, 2 * width) if step * last > 0 else max(4, width // 2)
                last = step


def test_theory_setting_keeps_the_bounds_schedule_and_every_stay_test():
    # the i.i.d. theorem is stated for segments that all run the stay test, from first = DEFAULT_FIRST: the practical
    # defaults (first 16, quiet segments) must not leak into the theory setting
    from littlestone.bounds.agnostic_segments import DEFAULT_FIRST
    from littlestone.private_online.segmented_em import PRACTICAL_FIRST, STAY_FACTOR

    theory = SegmentedEM(Thresholds(2**16), T=10_000, epsilon=1.0, setting="theory", backend="seeded", seed=0)
    assert theory.first == DEFAULT_FIRST and theory.stay_factor == 0.0 and theory.stay_active(0)
    practical = SegmentedEM(Thresholds(2**16), T=10_000, epsilon=1.0, backend="seeded", seed=0)
    assert practical.first == PRACTICAL_FIRST and practical.stay_factor == STAY_FACTOR
    assert not practical.stay_active(0) and practical.stay_active(int(STAY_FACTOR * practical.tau) + 1)
    assert "quiet below 4·τ" in practical.setting
    with pytest.raises(LittlestoneError, match="stay_factor"):
        SegmentedEM(Thresholds(8), T=10, epsilon=1.0, stay_factor=-1)


def test_practical_rho_starts_at_the_public_cap_and_releases_stay_below_it():
    # ρ is public: RHO_CAP before any release and after a quiet segment, and every release is capped by it
    from littlestone.private_online.segmented_em import RHO_CAP, error_level

    L = SegmentedEM(Thresholds(2**10), T=5000, epsilon=1.0, backend="seeded", seed=0)
    assert L.rho == pytest.approx(RHO_CAP, abs=1 / RHO_DENOMINATOR)
    assert error_level(10_000.0, 100, 0.05, 5000, 0.02) == RHO_CAP
    assert error_level(10.0, 10_000, 0.05, 5000, 0.02) < 0.1
    X, y = _stream(Thresholds(2**10), 5000, 0.1, 3)
    rhos = []
    for x, v in zip(X.tolist(), y.tolist()):
        L.learn_one(x, v)
        rhos.append(L.rho)
    assert max(rhos) <= RHO_CAP + 1 / RHO_DENOMINATOR and min(rhos) < 0.3  # long stationary segments: ρ near 0.1
