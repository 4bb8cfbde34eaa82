"""GL21 DP-SOA (oblivious, HistSparse) and its adaptive variant (GL21 Thm 4.2)."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.classes.thresholds import Threshold
from littlestone.errors import LittlestoneError, PrivacyParameterError
from littlestone.online import TreeAdversary, play
from littlestone.private_online import BOT, GL21, GL21Adaptive, GL21Setting


def _stream(n, target, T, seed=0):
    X = np.random.default_rng(seed).integers(0, n, T)
    return X, (X >= target).astype(np.int8)


def test_forest_invariants_on_a_realizable_stream():
    """Each leaf has exactly one pertinent ancestor-or-self; a non-⊥ pertinent vertex sits at height ≤ d (the SOA
    makes a forced mistake per level); agreeing height-d siblings consistent with the target output the target."""
    H = Thresholds(4)
    T = 5000
    X, y = _stream(4, 0, T)
    learner = GL21(
        H,
        T=T,
        epsilon=1.0,
        delta=1e-6,
        backend="seeded",
        seed=0,
        setting=GL21Setting(8, 256, 0.25, 8),
        diagnostics=True,
    )
    learner.run(X, y)
    f = learner.forest
    assert f.merges > 0 and sum(f.counts.values()) == 256
    k1 = f.k1
    for i, (pert, st, out) in f.trees.items():
        for leaf in range(k1, 2 * k1):
            chain, v = [], leaf
            while v >= 1:
                chain.append(v)
                v //= 2
            assert sum(pert[v] for v in chain) == 1
        for v in range(1, 2 * k1):
            if pert[v] and out[v] is not BOT:
                height = (k1.bit_length() - 1) - (v.bit_length() - 1)
                assert height <= learner.d
        assert out[f.o[i]] is f.entry[i] or out[f.o[i]] == f.entry[i]


def test_gl21_learns_and_same_seed_same_stream():
    H = Thresholds(2)
    T = 60_000
    X, y = _stream(2, 0, T)
    a = GL21(H, T=T, epsilon=4.0, delta=1e-6, backend="seeded", seed=4, setting=GL21Setting(4, 1024, 0.25, 8))
    b = GL21(H, T=T, epsilon=4.0, delta=1e-6, backend="seeded", seed=4, setting=GL21Setting(4, 1024, 0.25, 8))
    ra, rb = a.run(X, y), b.run(X, y)
    assert np.array_equal(ra.predictions, rb.predictions)
    assert a.hypothesis() == Threshold(0)  # the target, after HistSparse switched
    assert ra.mistakes < T // 4


def test_gl21_claims():
    H = Thresholds(4)
    g = GL21(H, T=100, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
    c = g.privacy()
    assert c.epsilon == pytest.approx(1.0) and 0 < c.delta <= 1e-6
    ga = GL21Adaptive(H, T=100, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
    ca = ga.privacy()
    assert ca.epsilon <= 1.0 and ca.delta <= 1e-6
    assert ga.eps_round == pytest.approx(1.0 / (2 * np.sqrt(2 * 100 * np.log(1e6))))


def test_gl21_adaptive_reinitialises_every_round():
    H = Thresholds(2)
    g = GL21Adaptive(H, T=40, epsilon=1.0, delta=1e-6, backend="seeded", seed=0, setting=GL21Setting(4, 64, 0.25, 4))
    res = play(g, TreeAdversary(H), 40, seed=0)
    assert g.histograms_run == 41 and res.T == 40


def test_gl21_bad_input():
    H = Thresholds(2)
    with pytest.raises(LittlestoneError, match="power of two"):
        GL21(H, T=10, epsilon=1, delta=1e-6, backend="seeded", seed=0, setting=GL21Setting(3, 8, 0.25, 2))
    with pytest.raises(LittlestoneError, match="cannot be allocated"):
        GL21(H, T=10, epsilon=1, delta=1e-6, backend="seeded", seed=0, setting="theory")
    with pytest.raises(PrivacyParameterError):
        GL21Adaptive(H, T=10, epsilon=-1, delta=1e-6, backend="seeded", seed=0)
    with pytest.raises(LittlestoneError, match="eta"):
        GL21(H, T=10, epsilon=1, delta=1e-6, backend="seeded", seed=0, setting=GL21Setting(4, 8, 0.0, 2))
