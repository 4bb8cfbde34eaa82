"""Learner M (BLM20 Theorem 17 / Theorem 1): accuracy at theory size for d = 1, budget, determinism across
workers, fallback, sklearn API, clear errors."""

from __future__ import annotations

import time

import numpy as np
import pytest

from littlestone import FiniteClass, Thresholds
from littlestone.bounds.blm20 import theorem1
from littlestone.errors import DomainError, InsufficientSampleError, LabelError, LittlestoneError, PrivacyParameterError
from littlestone.pac.blm20 import BLM20Classifier, blm20_learn
from littlestone.pac.sources import ArraySource, RealizableStream
from littlestone.pac.tournament import FAIL

SMALL = dict(n_batches=40, aux_size=3, cap=4, n_generic=50)


class SkewedPoints:
    """x = 0..K-1 with P(x) ∝ 1/(x+1) (picklable sampler)."""

    def __init__(self, K: int):
        w = 1.0 / np.arange(1, K + 1)
        self.p = w / w.sum()

    def __call__(self, rng, size):
        return rng.choice(len(self.p), size=size, p=self.p).astype(np.int64)


def _points_class(K: int) -> FiniteClass:
    """Point functions on K points plus the zero function (Ldim 1) as an explicit finite class."""
    return FiniteClass(np.vstack([np.eye(K, dtype=np.uint8), np.zeros((1, K), dtype=np.uint8)]))


def test_accuracy_at_theory_size_d1():
    K, target = 16, 3
    H = _points_class(K)
    assert H.ldim() == 1
    rep = theorem1(1, 0.1, 1.0, 1e-6, 0.05)
    sampler = SkewedPoints(K)
    src = RealizableStream(H.hypothesis(target), sampler, rep.total, seed=11)
    t0 = time.perf_counter()
    res = blm20_learn(H, src, epsilon=1.0, delta=1e-6, alpha=0.1, beta=0.05, backend="seeded", seed=4, diagnostics=True)
    elapsed = time.perf_counter() - t0
    truth = H.hypothesis(target).predict(np.arange(K))
    loss = float(sampler.p @ (res.chosen.predict(np.arange(K)) != truth))
    assert loss <= 0.1  # Theorem 1: loss ≤ α (w.p. ≥ 1 − β)
    assert res.sizes.theory and res.examples_given == rep.total and res.examples_unused == 0
    assert res.spent[0] <= 1.0 + 1e-12 and res.spent[1] <= 1e-6
    assert not res.fallback and any(h == res.chosen for h, _ in res.candidates)
    assert elapsed < 30, f"M at theory size for d=1 took {elapsed:.1f}s"


def test_budget_ledger_and_released_fail_is_never_a_candidate():
    H = Thresholds(3)
    X = np.random.default_rng(0).integers(0, 3, size=5000)
    y = (X >= 2).astype(np.int8)
    res = blm20_learn(
        H,
        ArraySource(X, y),
        epsilon=0.8,
        delta=1e-3,
        backend="seeded",
        seed=1,
        cap=3,
        aux_size=3,
        n_batches=300,
        n_generic=100,
        eta=0.05,
    )
    assert [c.what for c in res.ledger] == ["stable histogram", "exponential mechanism"]
    assert res.ledger[0].epsilon == pytest.approx(0.4) and res.ledger[1].epsilon == pytest.approx(0.4)
    assert res.spent[1] <= 1e-3
    assert all(h is not FAIL for h, _ in res.candidates)
    assert any(h is FAIL for h, _ in res.released)  # cap 3 < 2n: every k ≥ 1 run fails, Fail is released
    assert res.fail_estimate > 0.3


def test_same_seed_same_result_for_any_number_of_workers():
    H = Thresholds(7)
    X = np.random.default_rng(2).integers(0, 7, size=20_000)
    y = (X >= 3).astype(np.int8)
    kw = dict(
        epsilon=1.0,
        delta=1e-4,
        backend="seeded",
        seed=123,
        n_batches=400,
        aux_size=4,
        cap=40,
        n_generic=200,
        eta=0.05,
        diagnostics=True,
    )
    a = blm20_learn(H, ArraySource(X, y), n_jobs=1, **kw)
    b = blm20_learn(H, ArraySource(X, y), n_jobs=2, **kw)
    assert a.chosen == b.chosen and a.released == b.released and a.diagnostics == b.diagnostics


def test_fallback_when_no_candidate_is_kept():
    H = Thresholds(7)
    X = np.arange(7).repeat(50)
    y = (X >= 3).astype(np.int8)
    res = blm20_learn(
        H,
        ArraySource(X, y),
        epsilon=1.0,
        delta=1e-6,
        backend="seeded",
        seed=0,
        n_batches=5,
        aux_size=2,
        cap=10,
        n_generic=10,
    )
    assert res.fallback and res.chosen == H.soa() and res.candidates == ()
    # issue 9 item 5: the reported privacy is M's claim, the same whether or not the run falls back
    # (before: (ε/2, δ_hist) on a fallback, (ε, δ_hist) otherwise — a data-dependent figure)
    from littlestone.pac.blm20 import blm20_privacy

    assert [c.what for c in res.ledger] == ["stable histogram", "exponential mechanism"]
    assert res.spent == blm20_privacy(1.0, 1e-6, discrete=False).pair and res.spent[0] == 1.0
    y2 = (X >= 3).astype(np.int8)
    ok = blm20_learn(
        H,
        ArraySource(X, y2),
        epsilon=1.0,
        delta=1e-6,
        backend="seeded",
        seed=0,
        n_batches=40,
        aux_size=2,
        cap=3,
        n_generic=10,
    )
    assert ok.spent == res.spent
    assert not hasattr(res, "wall_time")  # no timing in a result (or a saved model)


def test_sklearn_fit_predict_with_pm1_labels():
    H = Thresholds(50)
    X = np.random.default_rng(3).integers(0, 50, size=(8000, 1))
    y = np.where(X[:, 0] >= 20, 1, -1)
    clf = BLM20Classifier(
        H,
        epsilon=1.0,
        delta=1e-6,
        backend="seeded",
        random_state=0,
        n_batches=150,
        aux_size=40,
        cap=0,
        n_generic=500,
        eta=0.05,
        classes=(-1, 1),
    ).fit(X, y)
    assert set(np.unique(clf.predict(X))) <= {-1, 1}
    assert np.mean(clf.predict(X) == y) > 0.7
    assert clf.result_.spent[0] <= 1.0 + 1e-12
    assert "BLM20 M: d=5" in clf.result_.summary()


def test_too_few_examples_says_how_many():
    H = Thresholds(1)
    X, y = np.zeros((100, 1), dtype=int), np.zeros(100, dtype=int)
    need = theorem1(1, 0.1, 1.0, 1e-6, 0.05).total
    with pytest.raises(InsufficientSampleError, match=f"needs {need:,} examples") as ei:
        BLM20Classifier(H, random_state=0).fit(X, y)
    assert "n_batches=" in str(ei.value) and "got 100" in str(ei.value)
    with pytest.raises(InsufficientSampleError, match="needs 2,040 examples for the sizes you chose"):
        BLM20Classifier(H, random_state=0, n_batches=10, aux_size=4, cap=100, n_generic=0 + 1000).fit(X, y)


@pytest.mark.parametrize(
    "kw, err, msg",
    [
        (dict(delta=0.0), PrivacyParameterError, "needs δ > 0"),
        (dict(delta=1.0), PrivacyParameterError, "delta must satisfy 0 <= delta < 1"),
        (dict(epsilon=0.0), PrivacyParameterError, "epsilon must be"),
        (dict(epsilon=float("nan")), PrivacyParameterError, "epsilon is NaN"),
        (dict(alpha=1.5), LittlestoneError, "alpha must lie in"),
        (dict(backend="fast"), PrivacyParameterError, "backend must be"),
        (
            dict(ldim=0),
            LittlestoneError,
            r"ldim \(the Littlestone dimension used for the sizes\) must be an integer ≥ 1, got 0",
        ),
        (dict(ldim=2.5), LittlestoneError, "ldim .* must be an integer"),
        (dict(n_jobs=0), LittlestoneError, "n_jobs must be a nonzero integer"),
        (dict(beta=0.0), LittlestoneError, "beta must lie in"),
        (dict(eta=1.5), LittlestoneError, "eta must lie in"),
        (dict(n_batches=0), LittlestoneError, "sizes must be positive"),
    ],
)
def test_bad_parameters_are_named(kw, err, msg):
    X, y = np.zeros((400, 1), dtype=int), np.zeros(400, dtype=int)
    with pytest.raises(err, match=msg):
        BLM20Classifier(Thresholds(3), random_state=0, **{**SMALL, **kw}).fit(X, y)


def test_bad_data_is_named():
    clf = BLM20Classifier(Thresholds(3), random_state=0, **SMALL)
    with pytest.raises(LabelError, match="binary"):
        clf.fit(np.zeros((400, 1), dtype=int), np.arange(400) % 3)
    with pytest.raises(DomainError, match="outside the domain"):
        clf.fit(np.full((400, 1), 7), np.zeros(400, dtype=int))
    with pytest.raises(LittlestoneError, match="dimension 0"):
        blm20_learn(
            FiniteClass(np.zeros((1, 3), dtype=np.uint8)),
            ArraySource(np.zeros(9, dtype=int), np.zeros(9)),
            epsilon=1,
            delta=1e-6,
            **SMALL,
        )


def test_fit_source_validates_a_lazy_stream():
    from littlestone.pac.sources import UniformIntegers

    H = Thresholds(7)
    good = RealizableStream(H.hypothesis(3), UniformIntegers(0, 7), 10_000, seed=0)
    clf = BLM20Classifier(H, backend="seeded", random_state=0, **SMALL).fit_source(good)
    assert clf.result_.examples_given == 10_000 and clf.predict(np.arange(7).reshape(-1, 1)).shape == (7,)
    bad = RealizableStream(H.hypothesis(3), UniformIntegers(0, 9), 10_000, seed=0)  # points 7, 8 outside
    with pytest.raises(DomainError, match="outside the domain"):
        BLM20Classifier(H, backend="seeded", random_state=0, **SMALL).fit_source(bad)


def test_accuracy_at_theory_size_d1_thresholds():
    """Theorem 1 at its exact size on thresholds with d = 1 (Thresholds(2): 3 functions), skewed points."""
    H = Thresholds(2)
    assert H.ldim() == 1
    rep = theorem1(1, 0.1, 1.0, 1e-6, 0.05)
    sampler = SkewedPoints(2)
    for target, seed in ((1, 3), (2, 8)):
        src = RealizableStream(H.hypothesis(target), sampler, rep.total, seed=seed)
        res = blm20_learn(H, src, epsilon=1.0, delta=1e-6, backend="seeded", seed=seed)
        X = np.arange(2)
        loss = float(sampler.p @ (res.chosen.predict(X) != H.hypothesis(target).predict(X)))
        assert loss <= 0.1 and res.sizes.theory and res.examples_g == 4193 * 1300


@pytest.mark.slow
def test_accuracy_at_theory_size_points_over_int64():
    """M learns Points (any hashable point, an infinite class of Ldim 1) from 5,456,843 streamed examples."""
    from littlestone.classes.points import FiniteSet, Points

    class Mixture:
        def __call__(self, rng, size):
            X = rng.integers(0, 2**63 - 1, size=size, dtype=np.int64)
            X[rng.random(size) < 0.3] = 2**62 + 7
            return X

    rep = theorem1(1, 0.1, 1.0, 1e-6, 0.05)
    src = RealizableStream(FiniteSet([2**62 + 7]), Mixture(), rep.total, seed=0)
    res = blm20_learn(Points(), src, epsilon=1.0, delta=1e-6, backend="seeded", seed=0, n_jobs=2)
    Xt = Mixture()(np.random.default_rng(1), 100_000)
    assert np.mean(res.chosen.predict(Xt) != (Xt == 2**62 + 7)) <= 0.1
    assert res.chosen(2**62 + 7) == 1


def test_saved_model_holds_no_timing_or_diagnostics():
    """Issue 9 item 5: no wall time or non-private diagnostics in a saved model; seeded runs are labelled."""
    import json

    X = np.arange(7).repeat(50).reshape(-1, 1)
    y = (X[:, 0] >= 3).astype(int)
    clf = BLM20Classifier(
        Thresholds(7),
        epsilon=1.0,
        delta=1e-6,
        backend="seeded",
        random_state=0,
        n_batches=40,
        aux_size=2,
        cap=3,
        n_generic=10,
        diagnostics=True,
    ).fit(X, y)
    assert clf.result_.diagnostics is not None
    saved = json.loads(clf.to_json())["result"]
    assert "wall_time" not in saved and "diagnostics" not in saved
    assert saved["privacy_note"] == "not private: seeded backend"
    assert "not private: seeded backend" in clf.result_.summary()
    assert saved["spent"] == list(clf.result_.spent) and saved["claim"]["relation"] == "replace-one"
