"""LWY25 Algorithm 3: subsequence structure, properness checks, privacy claim, bad input, reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.agnostic_online import Algorithm3, corollary43_batch_size, theorem41_bound
from littlestone.classes import Thresholds, random_class
from littlestone.errors import LittlestoneError


def _data(T, n=32, eta=0.1, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, n, T)
    y = (X >= n // 2).astype(int)
    y[rng.random(T) < eta] ^= 1
    return X, y


class _CountingSanitizer:
    """Records which synthetic points went out; a pass-through (not private) to test the plumbing only."""

    log: list = []

    def __init__(self, eps, n, i):
        self.i = i

    def privacy(self):
        return (1.0, 0.0, "replace-one")

    def fit(self, data):
        self.data = [(x, y) for x, y in data]
        return self

    def synthetic(self, size):
        out = [(x, y) for x, y in self.data]
        _CountingSanitizer.log.append((self.i, out))
        return out


@pytest.mark.parametrize("learner", ["hedge", "soa"])
def test_each_subsequence_gets_exactly_one_synthetic_point_per_batch(learner, monkeypatch):
    T, B = 120, 8
    X, y = _data(T)
    got = []
    a = Algorithm3(
        Thresholds(32), T, 1.0, batch=B, learner=learner, sanitizer=_CountingSanitizer, backend="seeded", seed=0
    )
    orig = a._pool.update

    def spy(xs, ys):
        got.append((list(xs), list(ys)))
        orig(xs, ys)

    monkeypatch.setattr(a._pool, "update", spy)
    a.run(X, y)
    assert len(got) == T // B
    for b, (xs, ys) in enumerate(got):
        assert len(xs) == B  # one point for each of the B subsequences
        batch = sorted(zip(X[b * B : (b + 1) * B].tolist(), y[b * B : (b + 1) * B].tolist()))
        pts = [int(x) for x in (xs if learner == "soa" else xs)]
        if learner == "hedge":  # indices of Thresholds(32) points are the points themselves
            pts = [int(x) for x in xs]
        assert sorted(zip(pts, [int(v) for v in ys])) == batch  # a permutation of the batch's synthetic points
    assert np.all(a.subsequence_sizes_ == T // B)


def test_streaming_protocol_and_mwem_sanitizer():
    T = 200
    X, y = _data(T)
    a = Algorithm3(Thresholds(32), T, 1.0, batch=20, backend="seeded", seed=1)
    for t in range(T):
        p = a.predict_one(int(X[t]))
        assert p in (0, 1)
        a.learn_one(int(X[t]), int(y[t]))
    assert np.all(a.subsequence_sizes_ == 10)
    assert a.privacy().pair == (1.0, 0.0) and a.privacy().relation == "replace-one"


def test_same_seed_same_predictions():
    X, y = _data(400)
    p1 = Algorithm3(Thresholds(32), 400, 1.0, batch=20, backend="seeded", seed=3).run(X, y)
    p2 = Algorithm3(Thresholds(32), 400, 1.0, batch=20, backend="seeded", seed=3).run(X, y)
    p3 = Algorithm3(Thresholds(32), 400, 1.0, batch=20, backend="seeded", seed=4).run(X, y)
    assert np.array_equal(p1, p2) and not np.array_equal(p1, p3)


def test_learns_on_clean_data():
    X, y = _data(20_000, eta=0.0, seed=5)
    a = Algorithm3(Thresholds(32), 20_000, 5.0, batch=400, backend="seeded", seed=5)
    pred = a.run(X, y)
    assert (pred[-5000:] != y[-5000:]).mean() < 0.25  # far from the 1/2 of guessing


def test_bad_input():
    with pytest.raises(LittlestoneError, match="horizon"):
        Algorithm3(Thresholds(8), None, 1.0)
    with pytest.raises(LittlestoneError, match="too small"):
        Algorithm3(Thresholds(8), 100, 1.0, batch=1)
    with pytest.raises(LittlestoneError, match="exceeds"):
        Algorithm3(Thresholds(8), 100, 1.0, batch=101)
    with pytest.raises(LittlestoneError):
        Algorithm3(Thresholds(8), 100, 0.0)
    with pytest.raises(LittlestoneError, match="proper"):
        Algorithm3(random_class(8, 6, seed=2), 100, 1.0, batch=4, learner="soa")
    with pytest.raises(LittlestoneError):
        Algorithm3(Thresholds(8), 100, 1.0, learner="perceptron")


def test_batch_formulas():
    assert corollary43_batch_size(10**6, 1, 1, 1.0) == 1000
    assert theorem41_bound(10**4, 100, 33, 32, 1.0) > 0
