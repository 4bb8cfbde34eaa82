"""Issue 34 item 3: the sign-free BisectAT (two one-sided step AboveThresholds at ε/2 per segment, no sign release;
docs/derivations.md "Sign-free BisectAT")."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.classes.thresholds import Thresholds
from littlestone.errors import LittlestoneError
from littlestone.online import LateCommitment, play
from littlestone.privacy.monotone_above_threshold import StepAboveThresholdRun
from littlestone.private_online import SignFreeBisectAT
from littlestone.private_online.signfree_bisect_at import signfree_tau


def test_claim_is_two_half_budget_step_above_thresholds_per_segment():
    L = SignFreeBisectAT(Thresholds(2**60), T=10**4, epsilon=1.0, backend="seeded", seed=0)
    assert [type(m) for m in L.side_mechanisms] == [StepAboveThresholdRun] * 2
    assert [m.epsilon for m in L.side_mechanisms] == [0.5, 0.5]
    assert L.privacy().epsilon == pytest.approx(1.0) and L.privacy().delta == 0
    assert L.tau == pytest.approx(signfree_tau(1.0, 10**4, 60))
    with pytest.raises(LittlestoneError, match="theory"):
        SignFreeBisectAT(Thresholds(8), T=100, epsilon=1.0, backend="seeded", seed=0, setting="theory")


def test_moves_towards_the_side_whose_count_fires():
    # x = 0 labelled 1 errs on every threshold m > 0 with y = 1: every segment must move left
    L = SignFreeBisectAT(Thresholds(2**20), T=10**4, epsilon=1.0, backend="seeded", seed=1, setting=25.0)
    L.run(np.zeros(3000, dtype=np.int64), np.ones(3000, dtype=int))
    lo, hi = L.interval
    assert lo == 0 and hi < 2**10 and L.state()["backtracks"] == 0
    # x = 2^20 − 1 labelled 0 errs with y = 0 on every m ≤ x: right
    R = SignFreeBisectAT(Thresholds(2**20), T=10**4, epsilon=1.0, backend="seeded", seed=1, setting=25.0)
    R.run(np.full(3000, 2**20 - 1, dtype=np.int64), np.zeros(3000, dtype=int))
    assert R.interval[1] == 2**20 and R.interval[0] > 2**20 - 2**10


def test_round_by_round_equals_run_and_learns():
    H = Thresholds(2**12)
    a = SignFreeBisectAT(H, T=3000, epsilon=1.0, backend="seeded", seed=3)
    b = SignFreeBisectAT(H, T=3000, epsilon=1.0, backend="seeded", seed=3)
    X = np.random.default_rng(0).integers(0, 2**12, 3000)
    y = (X >= 1234).astype(int)
    p = a.run(X, y).predictions
    q = [b.predict_one(int(x)) or 0 for x in X[:0]]
    for x, v in zip(X.tolist(), y.tolist()):
        q.append(int(b.predict_one(x)))
        b.learn_one(x, v)
    assert np.array_equal(p, q) and a.state() == b.state()
    m = play(SignFreeBisectAT(H, T=5000, epsilon=1.0, backend="seeded", seed=4), LateCommitment(H, seed=4), 5000)
    assert 0 < m.mistakes < 5000 // 2
