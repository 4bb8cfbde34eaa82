"""ReduceTree (GGKM21 Algorithm 1): break at t̂ ≤ d+1 on realizable data (Lemma 5.1), height ≤ Σ k_s (Lemma 5.2),
|Ĥ| ≤ Π (k_s + 1) (Lemma 5.5), per-element empirical error ≤ A when K ≥ ⌊An⌋ + 1 (Claim 5.9), bounded output on
non-realizable and empty-class data, stability across datasets."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import littlestone as ls
from littlestone.classes import FiniteClass, Points, Thresholds
from littlestone.classes.empirical import empirical_errors
from littlestone.classes.ops import random_class, to_finite
from littlestone.errors import LittlestoneError
from littlestone.pac.reduce_tree import ReduceTreeSchedule, reduce_tree


def _classes():
    yield to_finite(Thresholds(15))
    yield FiniteClass(np.vstack([np.eye(8, dtype=int), np.zeros((1, 8), int)]))
    M = [[int(a <= x <= b) for x in range(8)] for a in range(8) for b in range(a, 8)] + [[0] * 8]
    yield FiniteClass(M)
    for s in range(4):
        yield random_class(12, 6, seed=s)


def _check_invariants(res, sch, emp, realizable):
    if realizable:
        assert res.t_hat is not None and res.t_hat <= sch.d + 1
    rounds = (res.t_hat - 1) if res.t_hat is not None else len(res.d_hats)
    assert res.height <= sch.height_bound(rounds)
    assert res.n_leaves <= sch.leaf_bound(rounds)
    assert len(res.hypotheses) <= sch.leaf_bound(rounds)
    assert len(set(res.hypotheses)) == len(res.hypotheses)


@pytest.mark.parametrize("K_mode", ["one", "claim59"])
def test_invariants_on_realizable_and_noisy_data(K_mode):
    rng = np.random.default_rng(11)
    for H in _classes():
        d = ls.ldim(H)
        for rep in range(15):
            n = 60
            target = H.hypothesis(int(rng.integers(len(H))))
            X = rng.integers(0, H.n_points, size=n)
            y = target.predict(X).astype(np.int8)
            noisy = rep % 3 == 2
            if noisy:
                y[rng.random(n) < 0.3] ^= 1
            A = 0.3
            K = 1 if K_mode == "one" else int(np.floor(A * n)) + 1
            sch = ReduceTreeSchedule.theory(d, A, K)
            emp = empirical_errors(H, X, y)
            res = reduce_tree(emp, sch)
            _check_invariants(res, sch, emp, realizable=not noisy)
            if K_mode == "claim59":
                for h in res.hypotheses:  # Claim 5.9
                    assert emp.error(h) <= A + 1e-12


def test_empty_class_and_adversarial_data_give_bounded_output():
    H = to_finite(Thresholds(7))
    X = np.array([3, 3, 3, 3], dtype=np.int64)
    y = np.array([0, 1, 0, 1], dtype=np.int8)  # every threshold errs on half of the sample
    res = reduce_tree(H, ReduceTreeSchedule.theory(3, 0.2, 2), X, y)
    assert res.hypotheses == () and res.t_hat is None and res.d_hats == [-1]
    res = reduce_tree(H, ReduceTreeSchedule.theory(3, 0.6, 2), X, y)
    assert len(res.hypotheses) <= ReduceTreeSchedule.theory(3, 0.6, 2).leaf_bound()


def test_structured_and_twin_runs_agree():
    rng = np.random.default_rng(5)
    T = Thresholds(30)
    F = to_finite(T)
    for _ in range(20):
        X = rng.integers(0, 30, size=80)
        y = (X >= int(rng.integers(0, 31))).astype(np.int8)
        for K in (1, 2, 25):
            sch = ReduceTreeSchedule.theory(ls.ldim(T), 0.25, K)
            a = reduce_tree(T, sch, X, y)
            b = reduce_tree(F, sch, X, y)
            assert a.t_hat == b.t_hat
            pa = sorted(tuple(h.predict(np.arange(30)).tolist()) for h in a.hypotheses)
            pb = sorted(tuple(h.predict(np.arange(30)).tolist()) for h in b.hypotheses)
            assert pa == pb
    P = Points()
    X = rng.integers(-(2**62), 2**62, size=200)
    X[:50] = 12345
    y = (X == 12345).astype(np.int8)
    res = reduce_tree(P, ReduceTreeSchedule.theory(1, 0.1, 21), X, y)
    assert res.t_hat == 1 and res.hypotheses == (P.hypothesis(12345),) or res.hypotheses == (P.hypothesis(),)


def test_stability_most_frequent_output_in_at_least_one_over_d_plus_one():
    """Lemma 5.4 + pigeonhole (toy sizes as in the spec's reference runs: K = 1, A = 0.3, n = 60)."""
    rng = np.random.default_rng(0)
    for H in list(_classes())[:3]:
        d = ls.ldim(H)
        target = H.hypothesis(int(rng.integers(len(H))))
        sch = ReduceTreeSchedule.theory(d, 0.3, 1)
        counts: Counter = Counter()
        runs = 100
        for _ in range(runs):
            X = rng.integers(0, H.n_points, size=60)
            res = reduce_tree(H, sch, X, target.predict(X))
            counts.update(res.hypotheses)
        assert counts.most_common(1)[0][1] / runs >= 1 / (d + 1)


def test_schedule_validation_and_overrides():
    s = ReduceTreeSchedule.theory(2, 0.3, 4)
    assert s.alphas[-1] == pytest.approx(0.0) and s.orders == (4, 8, 16)
    assert s.outputs[0] == pytest.approx(0.3 - 2 * s.eta)
    assert ReduceTreeSchedule.theory(2, 0.3, 4, orders=[5, 9, 18]).orders == (5, 9, 18)
    for bad in (dict(d=-1, A=0.1, K=1), dict(d=1, A=2.0, K=1), dict(d=1, A=0.1, K=0)):
        with pytest.raises(LittlestoneError):
            ReduceTreeSchedule.theory(**bad)
    with pytest.raises(LittlestoneError, match="needs 4 levels"):
        ReduceTreeSchedule.theory(2, 0.3, 4, alphas=[0.3, 0.2])


def test_last_level_is_exactly_zero():
    """α_{d+2} = A − 4η(d+1) with η = A/(4(d+1)) is 0 in exact arithmetic; in floats it came out −1.4·10⁻¹⁷ for
    (d, A) = (10, 0.1), an empty last level. A user η equal to A/(4(d+1)) rounded in floats is accepted too."""
    for d, A in ((10, 0.1), (10, 0.05), (7, 0.3), (3, 1 / 3), (50, 0.01)):
        s = ReduceTreeSchedule.theory(d, A, 1)
        assert s.alphas[-1] == 0.0
        assert 0.0 <= ReduceTreeSchedule.theory(d, A, 1, eta=A / (4 * (d + 1))).alphas[-1] < 1e-15
        assert all(a - b >= 4 * s.eta * (1 - 1e-12) for a, b in zip(s.alphas, s.alphas[1:]))


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(eta=0.03), r"last level α_4 = -0.06 is negative .* η can be at most A/\(4\(d\+1\)\) = 0.025"),
        (dict(eta=-0.01), "level gap η must be a finite number ≥ 0"),
        (dict(eta=float("nan")), "level gap η must be a finite number ≥ 0"),
        (dict(alphas=[0.3, 0.25, 0.1, 0.0]), r"α_1 = 0.3 and α_2 = 0.25 must be at least 4η = 0.1 apart"),
        (dict(alphas=[0.3, 0.2, 0.1, -0.1]), r"every level α_t must be a number in \[0, 1\]"),
        (dict(outputs=[0.3, 0.1, 0.0]), r"output level c_1 = 0.3 must lie in \[α_2 \+ 2η, α_1 − 2η\]"),
        (dict(orders=[4, 4, 16]), r"order k_2 = 4 must be ≥ K \+ k_1 = 8"),
        (dict(orders=[4, 8, 15]), r"order k_3 = 15 must be ≥ K \+ k_1 \+ … \+ k_2 = 16"),
        (dict(orders=[3, 8, 16]), r"order k_1 = 3 must be ≥ K = 4"),
        (dict(orders=[4.0, 8, 16]), "orders k_t must be integers"),
        (dict(orders=[4, 8]), "needs 3 orders k_t, got 2"),
    ],
)
def test_user_given_schedule_is_validated(kw, message):
    with pytest.raises(LittlestoneError, match=message):
        ReduceTreeSchedule.theory(2, 0.3, 4, **kw)
