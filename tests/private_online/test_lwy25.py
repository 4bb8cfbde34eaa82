"""LWY25 realizable learner (Alg. 1 Update, Alg. 2): invariants, realizable-stream consistency, mistake accounting,
reproducibility, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.errors import LabelError, LittlestoneError, PrivacyParameterError
from littlestone.online import AdaptiveAdversary, FixedSequence, TreeAdversary, play
from littlestone.private_online import BOT, LWY25, LWY25Setting, SOABase, lwy_update

EPS, DELTA = 1.0, 1e-6


def _stream(n: int, target: int, T: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, n, T)
    return X, (X >= target).astype(np.int8)


def _learner(n=2, T=20_000, N0=256, m_exp=3.0, seed=0, **kw):
    return LWY25(
        Thresholds(n),
        T=T,
        epsilon=EPS,
        delta=DELTA,
        backend="seeded",
        seed=seed,
        setting=LWY25Setting(N0, 128, m_exp),
        **kw,
    )


# ----------------------------------------------------------------------------------------------- Alg. 1 Update


def test_update_invariants():
    H = Thresholds(8)
    base = SOABase(H)
    rng = np.random.default_rng(1)
    seqs, states, outs = [], [], []
    for i in range(64):
        if i % 7 == 3:  # a non-realizable sequence: ⊥
            ex = ((2, 1), (1, 0), (5, 0))
        else:
            ex = tuple((int(x), int(x >= t)) for x, t in zip(rng.integers(0, 8, i % 3), [int(rng.integers(0, 9))] * 3))
        s = base.run(ex)
        seqs.append(ex), states.append(s), outs.append(base.output(s))
    new_seqs, new_states, new_outs = lwy_update(seqs, states, outs, base, np.random.default_rng(2))
    assert len(new_seqs) == len(new_outs) == 32
    colliding = [
        i for i in range(32) if outs[2 * i] is not BOT and outs[2 * i + 1] is not BOT and outs[2 * i] != outs[2 * i + 1]
    ]
    made = [k for k in range(32) if new_seqs[k] is not None]
    assert len(made) == len(colliding)  # ⊥ and agreeing pairs produce ⊥ (⊥ propagation)
    assert sum(o is BOT for o in new_outs) >= 32 - len(colliding)
    perm = np.random.default_rng(2).permutation(32)  # Update's first draw: π
    for i in range(32):
        k = int(perm[i])
        if i not in colliding:
            assert new_seqs[k] is None and new_outs[k] is BOT
            continue
        seq = new_seqs[k]
        xbar, ybar = seq[-1]
        assert outs[2 * i](xbar) != outs[2 * i + 1](xbar)  # x̄ is a disagreement point
        j = 2 * i if outs[2 * i](xbar) != ybar else 2 * i + 1
        assert seq[:-1] == seqs[j]  # the wrong child, extended by exactly (x̄, ȳ)
        assert new_states[k] == base.step(states[j], xbar, ybar)
        assert new_outs[k] == base.output(new_states[k])


def test_update_rejects_odd_layers():
    base = SOABase(Thresholds(4))
    s = base.start()
    with pytest.raises(LittlestoneError, match="even"):
        lwy_update([()] * 3, [s] * 3, [base.output(s)] * 3, base, np.random.default_rng(0))


# ----------------------------------------------------------------------------------------------- Alg. 2


@pytest.mark.parametrize("n,target", [(2, 0), (4, 0), (4, 1)])
def test_realizable_stream_keeps_target_consistency(n, target):
    """Every example in every sequence is a mistake of the SOA; stream examples are consistent with the target, so a
    sequence contradicts it only through guessed tournament labels (at most s of them at layer s); the sequences are
    at most 2s + 1 long; at layer d, pairs consistent with the target output exactly the target (LWY25 Lemma B.3)."""
    T = 60_000 if n == 4 else 20_000
    X, y = _stream(n, target, T, seed=n + target)
    learner = _learner(n=n, T=T, N0=1024 if n == 4 else 512, m_exp=7.0 if n == 4 else 5.5, seed=3)
    H = Thresholds(n)
    from littlestone.classes.thresholds import Threshold

    f = Threshold(target)
    seen_layers = set()
    for t in range(T):
        learner.learn_one(int(X[t]), int(y[t]))
        s = learner.s
        if s in seen_layers and t % 997:
            continue
        seen_layers.add(s)
        seqs = learner._layer.seqs
        for seq in seqs:
            if seq is None:
                continue
            assert len(seq) <= 2 * s + 1
            wrong = sum(1 for x, lab in seq if f(x) != lab)
            assert wrong <= s
        if s == learner.d:
            outs = learner._layer.outs
            for i in range(len(outs) // 2):
                a, b = seqs[2 * i], seqs[2 * i + 1]
                if a is None or b is None or outs[2 * i] is BOT or outs[2 * i + 1] is BOT:
                    continue
                if all(f(x) == lab for x, lab in a + b) and len(a) >= learner.d and len(b) >= learner.d:
                    assert outs[2 * i] == f and outs[2 * i + 1] == f
    assert learner.s == learner.d
    assert H.version_space().contains(f)


def test_mistakes_within_lemma_b3_accounting():
    """Lemma B.3's count with the observed lists: each AboveThreshold instance of layer s stops within N_s + 2α + 1
    mistakes (event E₁, probability ≥ 1 − β/3), so mistakes ≤ Σ_s |L_s|(N_s + 2α + 1) while the learner has not
    halted; the d = 1 practical run reaches the target and stops erring."""
    T = 200_000
    X, y = _stream(2, 0, T, seed=5)
    for seed in range(3):
        learner = LWY25(Thresholds(2), T=T, epsilon=EPS, delta=DELTA, backend="seeded", seed=seed)
        r = learner.run(X, y)
        st = learner.state()
        assert not st["halted"]
        bound = sum(k * ((learner.setting_.N0 >> s) + 2 * learner.alpha + 1) for s, k in enumerate(st["list_sizes"]))
        assert r.mistakes <= bound
        assert learner.hypothesis()(0) == 1  # the target threshold 0
        assert r.cumulative_mistakes[-1] == r.cumulative_mistakes[T // 2]  # no mistakes in the second half


def test_ldim_zero_never_errs():
    H = Thresholds(1)  # functions t=0, t=1 on one point: Ldim 1; use a version space with one hypothesis
    V = H.version_space().restrict(0, 1)
    learner = LWY25(V, T=1000, epsilon=EPS, delta=DELTA, backend="seeded", seed=0)
    assert learner.d == 0 and learner.privacy().parts[1:] == ()
    assert learner.run(np.zeros(1000, dtype=np.int64), np.ones(1000, dtype=np.int8)).mistakes == 0


def test_same_seed_same_released_stream_and_fast_path_equals_protocol():
    T = 30_000
    X, y = _stream(4, 0, T, seed=1)
    a = _learner(n=4, T=T, N0=1024, m_exp=6.0, seed=7, diagnostics=True)
    b = _learner(n=4, T=T, N0=1024, m_exp=6.0, seed=7, diagnostics=True)
    released_a = []
    for t in range(T):
        released_a.append(a.hypothesis())
        a.learn_one(int(X[t]), int(y[t]))
    preds_b = b.run(X, y).predictions
    assert np.array_equal(np.array([h(int(x)) for h, x in zip(released_a, X)]), preds_b)
    assert a.state() == b.state() and a.hypothesis() == b.hypothesis()
    c = _learner(n=4, T=T, N0=1024, m_exp=6.0, seed=8, diagnostics=True)
    c.run(X, y)
    assert c.state()["insertions"] != b.state()["insertions"]  # another seed, another run


def test_vectorised_run_carries_the_abovethreshold_count_across_chunks():
    """``run`` scans the stream in chunks of 2^15 rounds; the AboveThreshold count must carry over a chunk boundary
    that no ⊤ falls on (N₀ = 2^16 ≫ the mistakes of 40,000 rounds), exactly as ``learn_one`` counts."""
    from littlestone.private_online import lwy25 as mod

    T = 40_000
    assert T > mod._CHUNK
    X, y = _stream(4, 0, T, seed=3)  # target t = 0: SOA(∅) errs on a constant share of the rounds
    a = _learner(n=4, T=T, N0=1 << 16, m_exp=6.0, seed=5)
    b = _learner(n=4, T=T, N0=1 << 16, m_exp=6.0, seed=5)
    for t in range(T):
        a.learn_one(int(X[t]), int(y[t]))
    res = b.run(X, y)
    assert res.mistakes > 1000 and b.state()["at_instances"] == 1  # no ⊤: one AboveThreshold instance throughout
    assert a._at_count == b._at_count == res.mistakes
    assert a.state() == b.state()


def test_play_against_adaptive_adversaries():
    H = Thresholds(4)
    learner = LWY25(H, T=500, epsilon=EPS, delta=DELTA, backend="seeded", seed=0, setting=LWY25Setting(64, 128, 3))
    res = play(learner, TreeAdversary(H), 500, seed=0)
    assert res.T == 500 and res.mistakes >= 2

    # an adversary that labels against the released hypothesis whenever the target allows it
    def fn(t, history, rng):
        return int(rng.integers(0, 4)), (lambda p: 1 - p if t < 50 else 1)

    learner = LWY25(H, T=300, epsilon=EPS, delta=DELTA, backend="seeded", seed=0, setting=LWY25Setting(64, 128, 3))
    res = play(learner, AdaptiveAdversary(fn), 300, seed=1)
    assert res.T == 300


def test_play_with_pm1_labels():
    learner = LWY25(Thresholds(2), T=10, epsilon=EPS, delta=DELTA, backend="seeded", seed=0, labels=(-1, 1))
    res = play(learner, FixedSequence([0, 1] * 5, [1, 1] * 5))
    assert res.T == 10
    assert learner.predict_one(1) in (-1, 1)


def test_unrealizable_stream_is_documented_behaviour():
    """Contradicting labels make sequences ⊥ (they leave their pairs); no crash, the claim is unchanged."""
    T = 20_000
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, T)
    y = rng.integers(0, 2, T).astype(np.int8)
    learner = _learner(T=T, diagnostics=True)
    claim = learner.privacy()
    learner.run(X, y)
    st = learner.state()
    assert st["insertions"] > 0
    assert learner.privacy() == claim
    assert st["halted"] or st["layer"] >= 0


def test_privacy_claim_from_parts():
    learner = _learner(n=4)
    c = learner.privacy()
    assert c.epsilon == pytest.approx(EPS)
    assert 0 < c.delta <= DELTA
    assert [p[3] for p in c.parts] == [1, 2]
    assert c.parts[1][1] == pytest.approx(EPS / 4)


def test_bad_input():
    H = Thresholds(2)
    with pytest.raises(LittlestoneError, match="horizon T"):
        LWY25(H, T=None, epsilon=1, delta=1e-6, backend="seeded", seed=0)
    for kw, err in [
        ({"epsilon": 0}, PrivacyParameterError),
        ({"epsilon": float("inf")}, PrivacyParameterError),
        ({"delta": 0}, PrivacyParameterError),
        ({"delta": 1.0}, PrivacyParameterError),
        ({"beta": 0}, PrivacyParameterError),
        ({"beta": 1.5}, PrivacyParameterError),
        ({"T": 0}, PrivacyParameterError),
        ({"T": 2.5}, PrivacyParameterError),
    ]:
        args = {"T": 10, "epsilon": 1.0, "delta": 1e-6, **kw}
        with pytest.raises(err):
            LWY25(H, backend="seeded", seed=0, **args)
    learner = LWY25(H, T=3, epsilon=1, delta=1e-6, backend="seeded", seed=0)
    for _ in range(3):
        learner.learn_one(0, 1)
    with pytest.raises(LittlestoneError, match="horizon exceeded"):
        learner.learn_one(0, 1)
    learner = LWY25(H, T=3, epsilon=1, delta=1e-6, backend="seeded", seed=0)
    with pytest.raises(LittlestoneError, match="horizon exceeded"):
        learner.run([0, 1, 0, 1], [1, 1, 1, 1])
    with pytest.raises(LabelError):
        learner.learn_one(0, -1)
    with pytest.raises(LittlestoneError, match="multiple of"):
        LWY25(H, T=3, epsilon=1, delta=1e-6, backend="seeded", seed=0, setting=LWY25Setting(6))
    with pytest.raises(LittlestoneError, match="cannot be allocated"):
        LWY25(H, T=3, epsilon=1, delta=1e-6, backend="seeded", seed=0, setting="theory")
    with pytest.raises(LittlestoneError, match="unseeded"):
        LWY25(H, T=3, epsilon=1, delta=1e-6, backend="secure", seed=0)


def test_secure_backend_runs_and_claims_discrete_histograms():
    learner = LWY25(Thresholds(2), T=200, epsilon=1.0, delta=1e-6, setting=LWY25Setting(8, 128, 6))
    X = np.zeros(200, dtype=np.int64)
    r = learner.run(X, np.ones(200, dtype=np.int8))
    assert r.predictions.shape == (200,) and learner._b_hist.floating_point_safe
    assert learner.privacy().delta <= 1e-6
