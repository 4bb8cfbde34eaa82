"""Anytime restarts (AnytimeLWY25, AnytimeGL21), noise only through mechanism objects, calibration of every noise
scale against the claim, outputs pinned for a fixed seed (issue 19 items 2, 5; issue 20 item 2; issue 21 item 4)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.bounds.lwy25 import at_margin
from littlestone.private_online import (
    GL21,
    LWY25,
    AnytimeGL21,
    AnytimeLWY25,
    BaseLearner,
    GL21Adaptive,
    GL21Setting,
    LWY25Setting,
    SOABase,
)
from littlestone.privacy.backends import SecureBackend, SeededBackend

EPS, DELTA = 1.0, 1e-6
SRC = Path(__file__).resolve().parents[2] / "src" / "littlestone" / "private_online"


def _stream(T, target, n=2, seed=0):
    X = np.random.default_rng(seed).integers(0, n, T)
    return X, (X >= target).astype(np.int8)


# ------------------------------------------------------------------------------------------ noise via mechanisms


def test_no_backend_noise_call_in_private_online():
    """Issue 19 item 2: every draw goes through a Mechanism object of littlestone.privacy."""
    pattern = re.compile(r"\.(laplace|discrete_laplace|gumbel|noisy_argmax|add_[a-z_]+)\(")
    offenders = [
        f"{p.name}:{i}: {line.strip()}"
        for p in sorted(SRC.glob("*.py"))
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []


def test_lwy25_secure_backend_adds_no_float_noise(monkeypatch):
    """Issue 19 item 6: on the secure backend LWY25's AboveThreshold runs on the integer grid (discrete Laplace) and
    its histograms are discrete; a float-noise call would raise here."""

    def refuse(*a, **k):
        raise AssertionError("float noise drawn on the secure backend")

    monkeypatch.setattr(SecureBackend, "laplace", refuse)
    monkeypatch.setattr(SecureBackend, "add_laplace", refuse)
    monkeypatch.setattr(SecureBackend, "uniform", refuse)
    L = LWY25(Thresholds(2), T=3000, epsilon=EPS, delta=DELTA, setting=LWY25Setting(16, 128, 1.0))
    X, y = _stream(3000, 2)
    L.run(X[:1500], y[:1500])
    for x, v in zip(X[1500:], y[1500:]):
        L.learn_one(int(x), int(v))
    assert L.histograms_run >= 1 and L._at._grid is not None
    assert all(m.resolve(L._b_hist).discrete for m in L.histogram_mechanisms)


# ------------------------------------------------------------------------------------------ calibration


class _Recording(SeededBackend):
    """A seeded backend that records the scale of every Laplace draw."""

    def __init__(self, seed):
        super().__init__(seed)
        self.scales: list[float] = []

    def laplace(self, scale, size=None):
        self.scales.append(float(scale))
        return super().laplace(scale, size)


def test_lwy25_noise_scales_recomputed_from_the_claim():
    """Every AboveThreshold draw has scale 2/ε₀ (threshold) or 4/ε₀ (queries) with ε₀ the AboveThreshold part of the
    claim; ε₀ + Σ histogram ε = ε; thresholds N_s + α (LWY25 Alg. 2 lines 4, 23); histograms (ε₀/d, δ/d)."""
    T = 4000
    L = LWY25(
        Thresholds(4), T=T, epsilon=EPS, delta=DELTA, backend="seeded", seed=3, setting=LWY25Setting(64, 128, 1.0)
    )
    rec = _Recording(0)
    L._b_at = rec
    L._new_at()
    X, y = _stream(T - 10, 3, n=4)
    L.run(X, y)
    claim = L.privacy()
    at_part = [p for p in claim.parts if "AboveThreshold" in p[0]]
    assert len(at_part) == 1 and at_part[0][3] == 1
    eps0 = at_part[0][1]
    assert eps0 == EPS / 2 and claim.epsilon == pytest.approx(EPS) and claim.delta <= DELTA
    assert rec.scales and set(rec.scales) <= {2.0 / eps0, 4.0 / eps0}
    assert 2.0 / eps0 in rec.scales and 4.0 / eps0 in rec.scales
    alpha = at_margin(T, 0.1, eps0)
    assert [m.threshold for m in L.at_mechanisms] == [(64 >> s) + alpha for s in range(L.d + 1)]
    assert all(m.epsilon == eps0 for m in L.at_mechanisms)
    hist = [p for p in claim.parts if "histogram" in p[0]]
    assert sum(p[3] for p in hist) == L.d and all(p[1] == pytest.approx(eps0 / L.d) for p in hist)
    assert all(m.epsilon == eps0 / L.d and m.delta == DELTA / L.d for m in L.histogram_mechanisms)


def test_gl21_noise_scales_recomputed_from_the_claim():
    L = GL21(
        Thresholds(2), T=500, epsilon=EPS, delta=DELTA, backend="seeded", seed=0, setting=GL21Setting(4, 64, 1.0, 4)
    )
    claim = L.privacy()
    svt = L._svt
    assert svt.epsilon == EPS / 2 and svt._inner.epsilon == EPS / 8 and svt._inner.sensitivity == 1 / 64
    assert L.histogram_mechanism.epsilon == EPS / 8 and L.histogram_mechanism.delta == DELTA / 4
    assert claim.epsilon == pytest.approx(EPS) and claim.delta <= DELTA
    assert sum(n for w, e, d, n in claim.parts if "histogram" in w) == 4


def _change_points(learner, X, y):
    out, last = [], None
    for t, (x, v) in enumerate(zip(X, y)):
        h = learner.hypothesis()
        if h != last:
            out.append((t, h.key() if hasattr(h, "key") else repr(h)))
            last = h
        learner.learn_one(int(x), int(v))
    return out


def test_lwy25_outputs_pinned_for_a_fixed_seed():
    """Halving a noise scale, dropping a draw or changing a budget split moves the released stream (the AboveThreshold
    ⊤ at round 2220 (2217 before issue 34's seeded Laplace sampler: same law, other draws) and the histogram's list): pinned."""
    L = LWY25(
        Thresholds(4), T=5000, epsilon=8.0, delta=DELTA, backend="seeded", seed=11, setting=LWY25Setting(1024, 128, 6)
    )
    X, y = _stream(5000, 1, n=4, seed=5)
    assert _change_points(L, X, y) == [(0, (3,)), (2220, (1,))]
    assert L.state()["list_sizes"] == [1, 1]


def test_gl21_outputs_pinned_for_a_fixed_seed():
    L = GL21(
        Thresholds(2), T=3000, epsilon=8.0, delta=DELTA, backend="seeded", seed=11, setting=GL21Setting(4, 128, 1.0, 3)
    )
    X, y = _stream(3000, 2, seed=5)
    assert _change_points(L, X, y) == [(0, (1,)), (797, (2,))]
    assert L.state()["svt_positives"] == 2


# ------------------------------------------------------------------------------------------ GL21 Thm 4.2 claim


@pytest.mark.parametrize("eps, delta, T", [(8.0, 0.2, 6), (8.0, 0.2, 100), (1.0, 1e-6, 50), (3.0, 1e-3, 400)])
def test_gl21_adaptive_claim_never_above_the_request(eps, delta, T):
    L = GL21Adaptive(
        Thresholds(2), T=T, epsilon=eps, delta=delta, backend="seeded", seed=0, setting=GL21Setting(4, 2, 1.0, 1)
    )
    c = L.privacy()
    assert c.epsilon <= eps + 1e-12 and c.delta <= delta
    gl21_eps = eps / (2 * math.sqrt(2 * T * math.log(1 / delta)))
    assert L.eps_round <= gl21_eps and L.delta_round == delta / (2 * T)
    assert L.histogram_mechanism.epsilon == L.eps_round


# ------------------------------------------------------------------------------------------ anytime restarts


def test_anytime_lwy25_keeps_learning_where_the_paper_halts():
    """N₀ = 64 is too small for L_1 to fill: Alg. 2 halts and errs forever; the anytime learner releases exactly
    the paper's stream until then (instance 1 is LWY25 with the same seed), then fresh instances of N₀·2^{j−1}
    sequences reach one whose list fills and stop erring."""
    T = 200_000
    X, y = _stream(T, 2)
    kw = dict(T=T, epsilon=EPS, delta=DELTA, backend="seeded", seed=0, setting=LWY25Setting(64, 128, 5.5))
    paper = LWY25(Thresholds(2), **kw)
    r_paper = paper.run(X, y)
    assert paper.halted and r_paper.cumulative_mistakes[-1] - r_paper.cumulative_mistakes[-20_000] > 9000
    any_ = AnytimeLWY25(Thresholds(2), **kw)
    r = any_.run(X, y)
    assert any_.restarts >= 1 and not any_.current.halted
    assert r.cumulative_mistakes[-1] - r.cumulative_mistakes[-20_000] == 0
    assert [i.setting_.N0 for i in any_.instances] == [64 * 2**j for j in range(len(any_.instances))]
    halt = T - 1 - any_.instances[1].T  # the round at which instance 1 halted
    assert np.array_equal(r.predictions[: halt + 1], r_paper.predictions[: halt + 1])
    assert r.mistakes < r_paper.mistakes


def test_anytime_first_instance_is_the_paper_learner():
    """Same parameters and seed: the anytime learners release the papers' pinned streams (below) until they stop."""
    L = AnytimeLWY25(
        Thresholds(4), T=5000, epsilon=8.0, delta=DELTA, backend="seeded", seed=11, setting=LWY25Setting(1024, 128, 6)
    )
    X, y = _stream(5000, 1, n=4, seed=5)
    assert _change_points(L, X, y) == [(0, (3,)), (2220, (1,))] and L.restarts == 0
    G = AnytimeGL21(
        Thresholds(2), T=3000, epsilon=8.0, delta=DELTA, backend="seeded", seed=11, setting=GL21Setting(4, 128, 1.0, 3)
    )
    X, y = _stream(3000, 2, seed=5)
    assert _change_points(G, X, y) == [(0, (1,)), (797, (2,))] and G.restarts == 0


def test_anytime_claims_are_the_papers_not_halved():
    """Every instance runs the paper's full budget — AboveThreshold ε/2, histograms (ε/(2d), δ/d) (LWY25) or
    SparseVector ε/2, c histograms (ε/(2c), δ/c) (GL21) — and the claim, composed in parallel over the segments, is
    the paper instance's own claim whatever the number of restarts (no 2^{−j} split)."""
    X, y = _stream(60_000, 2)
    kw = dict(epsilon=EPS, delta=DELTA, backend="seeded", seed=0)
    a = AnytimeLWY25(Thresholds(2), T=60_000, setting=LWY25Setting(16, 128, 5.5), **kw)
    paper = LWY25(Thresholds(2), T=60_000, setting=LWY25Setting(16, 128, 5.5), **kw).privacy()
    before = a.privacy()
    a.run(X, y)
    assert a.restarts >= 2
    for c in (before, a.privacy()):
        assert (c.epsilon, c.delta) == (paper.epsilon, paper.delta) and c.relation == paper.relation
        assert c.epsilon == pytest.approx(EPS) and DELTA / 2 < c.delta <= DELTA
    for inst in a.instances:
        assert [m.epsilon for m in inst.at_mechanisms] == [EPS / 2] * (inst.d + 1)
        assert [(m.epsilon, m.delta) for m in inst.histogram_mechanisms] == [(EPS / 2 / inst.d, DELTA / inst.d)]
        assert (inst.privacy().epsilon, inst.privacy().delta) == (paper.epsilon, paper.delta)
    g = AnytimeGL21(Thresholds(2), T=3000, setting=GL21Setting(4, 8, 1.0, 1), **kw)
    g_paper = GL21(Thresholds(2), T=3000, setting=GL21Setting(4, 8, 1.0, 1), **kw).privacy()
    X, y = _stream(3000, 1)
    g.run(X, y)
    assert g.restarts >= 1 and g.guards
    c = g.privacy()
    assert (c.epsilon, c.delta) == (g_paper.epsilon, g_paper.delta) == (pytest.approx(EPS), c.delta)
    for inst in g.instances:
        assert inst._svt.epsilon == EPS / 2 and inst.histogram_mechanism.epsilon == EPS / 2
        assert inst.histogram_mechanism.delta == DELTA
    assert all(guard.at.epsilon == EPS for guard in g.guards)


def _game_view(cls, b, seed):
    """The audit game (t* = round 0: (0, 1) if b = 0, else (1, 0); then (0, 1)) on AnytimeLWY25 with N₀ = 4."""
    from littlestone.audit.adaptive_game import first_h1_then_mistakes, play_adaptive_game

    learner = cls(
        Thresholds(2), T=240, epsilon=2.0, delta=1e-3, backend="seeded", seed=seed, setting=LWY25Setting(4, 128, 6)
    )
    return learner, play_adaptive_game(learner, first_h1_then_mistakes, b, 240)


def test_restarted_instance_reads_only_its_own_segment():
    """Two worlds that differ in round 0 only (both examples are mistakes of the released h_1, so the first
    instance's AboveThreshold fires at the same round and its empty layer-1 list halts it at the same round): the
    restarted instance reads the same rounds and the same seed, so it must release the same stream. A restart that
    reads the previous segment (the audit's warm-start twin) does not."""
    from littlestone.audit.adaptive_game import AnytimeLWY25WarmStart

    leaked = 0
    for seed in range(4):
        a0, v0 = _game_view(AnytimeLWY25, 0, seed)
        a1, v1 = _game_view(AnytimeLWY25, 1, seed)
        assert a0.restarts == a1.restarts >= 1 and a0.instances[1].T == a1.instances[1].T
        assert v0 == v1
        assert a0.instances[1].base is not a0.instances[0].base  # no base learner (nor its cache) is shared
        _, w0 = _game_view(AnytimeLWY25WarmStart, 0, seed)
        _, w1 = _game_view(AnytimeLWY25WarmStart, 1, seed)
        leaked += w0 != w1
    assert leaked >= 2


@pytest.mark.parametrize("adv", ["late-commitment", "disagreement"])
def test_anytime_lwy25_no_worse_than_the_paper_on_the_same_game(adv):
    """Same adaptive adversary, same seeds: the anytime learner errs exactly as LWY25 until LWY25 halts, then less
    (LWY25 errs on every later round)."""
    from littlestone.experiments.private_online import adversary
    from littlestone.online import play

    T = 6000
    H = Thresholds(2)
    kw = dict(T=T, epsilon=EPS, delta=DELTA, backend="seeded", seed=0, setting=LWY25Setting(64, 128, 5.5))
    paper, any_ = LWY25(H, **kw), AnytimeLWY25(H, **kw)
    gp = play(paper, adversary(adv, H, seed=0), T, seed=0)
    ga = play(any_, adversary(adv, H, seed=0), T, seed=0)
    assert paper.halted and any_.restarts >= 1
    halt = T - 1 - any_.instances[1].T
    assert np.array_equal(gp.cumulative_mistakes[: halt + 1], ga.cumulative_mistakes[: halt + 1])
    assert ga.mistakes < gp.mistakes == T


def test_anytime_lwy25_run_equals_learn_one():
    T = 30_000
    X, y = _stream(T, 2)
    kw = dict(T=T, epsilon=EPS, delta=DELTA, backend="seeded", seed=4, setting=LWY25Setting(16, 128, 5.5))
    a = AnytimeLWY25(Thresholds(2), **kw)
    pa = a.run(X, y).predictions
    b = AnytimeLWY25(Thresholds(2), **kw)
    pb = []
    for x, v in zip(X, y):
        pb.append(b.predict_one(int(x)))
        b.learn_one(int(x), int(v))
    assert a.restarts >= 2 and a.restarts == b.restarts
    assert np.array_equal(pa, np.array(pb))


def test_anytime_gl21_keeps_the_aborted_hypothesis_until_its_guard_fires():
    """After an abort the last released hypothesis stays (as in GL21); the next instance (k₂·2^{j−1} trees) takes over
    only at the guard's ⊤, after the kept hypothesis has erred — never while it is right."""
    T = 3000
    kw = dict(T=T, epsilon=EPS, delta=DELTA, backend="seeded", seed=0, setting=GL21Setting(4, 8, 1.0, 1))
    X, y = _stream(T, 1)  # target Threshold(1): the stream mixes both labels
    paper = GL21(Thresholds(2), **kw)
    r_paper = paper.run(X, y)
    a = AnytimeGL21(Thresholds(2), **kw)
    r = a.run(X, y)
    assert paper.aborted and a.restarts >= 1 and len(a.guards) >= a.restarts
    assert [i.setting_.k2 for i in a.instances] == [8 * 2**j for j in range(len(a.instances))]
    assert r.mistakes < r_paper.mistakes
    for guard in a.guards[: a.restarts]:  # every guard that fired had seen its hypothesis err
        assert guard.count >= 1
    # a right hypothesis kept after the abort: no restart, the paper's stream exactly
    X, y = _stream(T, 2)  # target Threshold(2) (all labels 0)
    paper, a = GL21(Thresholds(2), **kw), AnytimeGL21(Thresholds(2), **kw)
    r_paper, r = paper.run(X, y), a.run(X, y)
    assert paper.aborted and a.state()["guarding"] and a.restarts == 0
    assert np.array_equal(r.predictions, r_paper.predictions)


# ------------------------------------------------------------------------------------------ issue 21 item 4


class LazySOA(BaseLearner):
    """A deterministic mistake-bounded learner that keeps its output after every other mistake (mistake bound 2d)."""

    name = "lazy SOA"

    def __init__(self, H):
        self.inner = SOABase(H)
        self.hypothesis_class = self.inner.hypothesis_class

    def start(self):
        return (self.inner.start(), self.inner.start(), 0)

    def step(self, state, x, y):
        from littlestone.private_online import BOT

        if state is BOT:
            return BOT
        shown, full, k = state
        full = self.inner.step(full, x, y)
        if full is BOT:
            return BOT
        k += 1
        return (full if k % 2 == 0 else shown, full, k)

    def output(self, state):
        from littlestone.private_online import BOT

        return BOT if state is BOT else self.inner.output(state[0])

    def mistake_bound(self):
        return 2 * self.inner.mistake_bound()


def test_vectorised_run_equals_learn_one_for_a_base_that_keeps_agreeing():
    """Issue 21 item 4: with a base learner whose output survives a mistake, a pair may take several insertions in
    one block; ``run`` replays them in order and releases exactly what ``learn_one`` does."""
    H = Thresholds(4)
    T = 600
    X, y = _stream(T, 1, n=4, seed=2)
    kw = dict(T=T, epsilon=EPS, delta=DELTA, backend="seeded", seed=1, setting=LWY25Setting(256, 128, 1.0))
    kw["diagnostics"] = True  # the insertions and sequences are read below
    a = LWY25(H, base=LazySOA(H), **kw)
    pa = a.run(X, y).predictions
    b = LWY25(H, base=LazySOA(H), **kw)
    pb = []
    for x, v in zip(X, y):
        pb.append(b.predict_one(int(x)))
        b.learn_one(int(x), int(v))
    assert np.array_equal(pa, np.array(pb))
    assert a.insertions == b.insertions and a.state()["list_sizes"] == b.state()["list_sizes"]
    assert max(len(q) for q in a.sequences() if q is not None) >= 2  # some pair took two insertions in one layer


@pytest.mark.parametrize("backend", ["seeded", "secure"])
def test_above_threshold_first_above_is_the_scalar_loop(backend):
    """The vectorised AboveThreshold test LWY25's run uses answers and consumes noise exactly as test() does."""
    from littlestone.privacy import AboveThreshold

    def make(seed):
        b = SeededBackend(np.random.SeedSequence(seed)) if backend == "seeded" else SecureBackend()
        return AboveThreshold(40.0, 0.5, backend=b, noise_batch=16, threshold_batch=1)

    vals = np.cumsum(np.random.default_rng(1).integers(0, 2, 500)).astype(float)
    for seed in range(5 if backend == "seeded" else 1):
        a, b = make(seed), make(seed)
        i = a.first_above(vals)
        j = next((k for k, v in enumerate(vals) if b.test(v)), -1)
        if backend == "seeded":
            assert i == j and a.n_queries == b.n_queries
            assert np.array_equal(a._buffer[a._pos :], b._buffer[b._pos :])  # the same noise is left
        else:
            assert a._grid is not None and a._buffer.dtype.kind == "i"
