"""PolyPriLearn and PolyPriPropLearn: estimator conventions, result objects, minimax set (Lemma 6.2), claims composed
from parts, too-small samples, bad input; accuracy at theory size for d = 1 (slow)."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.classes import FiniteClass, Points, Thresholds
from littlestone.classes.ops import random_class
from littlestone.errors import InsufficientSampleError, LittlestoneError, PrivacyParameterError
from littlestone.pac import PolyPriLearnClassifier, PolyPriPropLearnClassifier
from littlestone.pac.proper import minimax_set, proper_fallback
from littlestone.pac.sources import RealizableStream, UniformIntegers

SMALL = dict(n=200, m=400, K=3, backend="seeded")


def _data(H, target, size, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, H.n if isinstance(H, Thresholds) else H.n_points, size=size)
    return X.reshape(-1, 1), target.predict(X)


def test_polyprilearn_learns_and_reports():
    H = Thresholds(6)
    X, y = _data(H, H.hypothesis(4), 80_000)
    est = PolyPriLearnClassifier(H, epsilon=2.0, delta=1e-3, random_state=1, diagnostics=True, **SMALL).fit(X, y)
    r = est.result_
    assert not r.bottom and est.score(X, y) == 1.0
    assert r.spent == (2.0, 1e-3) and (r.epsilon, r.delta, r.relation) == (2.0, 1e-3, "replace-one")
    assert est.privacy() == (2.0, 1e-3, "replace-one")
    assert r.plan.m == 400 and r.plan.n == 200 and r.examples_used == 80_000
    assert len(r.diagnostics["list_sizes"]) == 400 and r.diagnostics["selected_count"] >= 1
    assert max(r.diagnostics["list_sizes"]) <= r.plan.s
    # labels come back as given: the declared pair (issue 19 item 5: never read from the private labels)
    est2 = PolyPriLearnClassifier(H, epsilon=2.0, delta=1e-3, random_state=1, classes=(-1, 1), **SMALL).fit(
        X, np.where(y, 1, -1)
    )
    assert set(est2.predict(X)) <= {-1, 1}


def test_bottom_gives_the_documented_fallback():
    H = Thresholds(6)
    X, y = _data(H, H.hypothesis(4), 2_000)
    est = PolyPriLearnClassifier(H, epsilon=1.0, delta=1e-6, n=100, m=20, K=3, backend="seeded", random_state=0).fit(
        X, y
    )
    assert est.result_.bottom and est.hypothesis_ == H.soa()  # m/(d+1) far below the ⊥ score
    est = PolyPriPropLearnClassifier(
        H, epsilon=1.0, delta=1e-6, n=100, m=19, K=3, n_generic=100, backend="seeded", random_state=0
    ).fit(X, y)
    assert est.result_.bottom and est.hypothesis_ == proper_fallback(H)
    assert H.version_space().contains(est.hypothesis_)


def test_same_seed_same_result_any_worker_count():
    H = Thresholds(6)
    X, y = _data(H, H.hypothesis(2), 40_000, seed=3)
    y = y.copy()
    y[::7] ^= 1  # noisy: lists differ across datasets
    a = PolyPriLearnClassifier(
        H, epsilon=1.0, delta=1e-2, n=100, m=400, K=2, A=0.3, backend="seeded", random_state=5, diagnostics=True
    ).fit(X, y)
    b = PolyPriLearnClassifier(
        H,
        epsilon=1.0,
        delta=1e-2,
        n=100,
        m=400,
        K=2,
        A=0.3,
        backend="seeded",
        random_state=5,
        diagnostics=True,
        n_jobs=2,
    ).fit(X, y)
    assert a.hypothesis_ == b.hypothesis_
    assert a.result_.diagnostics["list_sizes"] == b.result_.diagnostics["list_sizes"]


def test_minimax_set_lp_for_improper_f():
    F = FiniteClass(np.eye(5, dtype=int))
    f = F.soa()  # the all-zero function, not in H
    assert not F.version_space().contains(f)
    mm = minimax_set(F, f, 0.1)
    assert mm.value == pytest.approx(0.2) and len(mm.candidates) == 5
    assert minimax_set(F, f, 0.1) == mm  # deterministic in (f, H)
    H = random_class(25, 7, seed=4)
    rng = np.random.default_rng(0)
    for _ in range(10):
        f = H.version_space().restrict(int(rng.integers(7)), 1).soa()
        mm = minimax_set(H, f, 0.1)
        assert all(H.version_space().contains(h) for h in mm.candidates)
        assert len(mm.candidates) <= 7 + 1
        # Lemma 6.2: under every distribution Q on X some h ∈ 𝒦 disagrees with f on at most τ*
        fv = f.as_array()
        dis = np.array([h.as_array() != fv for h in mm.candidates], dtype=float)
        for _ in range(50):
            Q = rng.dirichlet(np.ones(7) * 0.3)
            assert (dis @ Q).min() <= mm.value + 1e-9
    P = Points(include_zero=False)
    mm = minimax_set(P, Points().hypothesis(), 0.1)
    assert len(mm.candidates) == 10 and mm.value == pytest.approx(0.1)


def test_proper_learner_output_is_in_the_class():
    H = random_class(20, 6, seed=2)
    target = H.hypothesis(5)
    rng = np.random.default_rng(1)
    X = rng.integers(0, 6, size=90_000)
    est = PolyPriPropLearnClassifier(
        H, epsilon=2.0, delta=1e-3, n=100, m=800, K=4, n_generic=2_000, backend="seeded", random_state=0
    ).fit(X.reshape(-1, 1), target.predict(X))
    assert H.version_space().contains(est.hypothesis_)
    assert est.privacy() == (2.0, 1e-3, "replace-one")
    assert "PolyPriPropLearn" in est.result_.summary()


def test_too_small_sample_says_how_many():
    H = Thresholds(2)
    X, y = _data(H, H.hypothesis(1), 500)
    with pytest.raises(InsufficientSampleError, match=r"needs [\d,]+ examples.*m=[\d,]+ datasets of n=[\d,]+"):
        PolyPriLearnClassifier(H).fit(X, y)
    with pytest.raises(InsufficientSampleError, match=r"n′=[\d,]+"):
        PolyPriPropLearnClassifier(H).fit(X, y)


@pytest.mark.parametrize("bad", [dict(epsilon=0), dict(delta=0.0), dict(delta=1.5), dict(epsilon=float("nan"))])
def test_bad_privacy_parameters(bad):
    H = Thresholds(2)
    X, y = _data(H, H.hypothesis(1), 500)
    with pytest.raises(PrivacyParameterError):
        PolyPriLearnClassifier(H, **{**SMALL, **bad}).fit(X, y)


def test_unrealizable_data_still_gives_a_bounded_output():
    H = Thresholds(6)
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, size=40_000)
    y = rng.integers(0, 2, size=40_000)  # pure noise: ReduceTree classes are mostly empty → ⊥ or some element
    est = PolyPriLearnClassifier(
        H, epsilon=1.0, delta=1e-3, n=100, m=400, K=3, backend="seeded", random_state=0, diagnostics=True
    ).fit(X.reshape(-1, 1), y)
    assert max(est.result_.diagnostics["list_sizes"]) <= est.result_.plan.s


def test_uncomputable_class_is_a_clear_error():
    from littlestone.classes import Intervals

    H = Intervals(10**9)
    X = np.arange(3000, dtype=np.int64).reshape(-1, 1)
    with pytest.raises(LittlestoneError, match="intervals"):
        PolyPriLearnClassifier(H, n=100, m=30, K=3, backend="seeded", ldim=2).fit(X, np.zeros(3000, int))


@pytest.mark.slow
def test_accuracy_at_theory_size_d1():
    """Theorem 5.7 at its own sizes for thresholds(2) (d = 1; α = 0.3 so it runs in about a minute): the output
    has error ≤ α on the distribution, and is not the ⊥ fallback."""
    from littlestone.bounds.ggkm21 import polyprilearn_plan
    from littlestone.classes.ops import to_finite

    H = to_finite(Thresholds(2))
    target = H.hypothesis(1)
    plan = polyprilearn_plan(1, 0.3, 1.0, 1e-6, 0.05)
    src = RealizableStream(target, UniformIntegers(0, 2), plan.total, seed=3)
    est = PolyPriLearnClassifier(
        H, epsilon=1.0, delta=1e-6, alpha=0.3, beta=0.05, backend="seeded", random_state=0, n_jobs=2
    ).fit_source(src)
    assert est.result_.plan.theory and not est.result_.bottom
    err = float(np.mean(est.hypothesis_.predict(np.arange(2)) != target.predict(np.arange(2))))  # uniform on X
    assert err <= 0.3
