"""PrivateHedge (LWY25 Thm E.11's rate), the vectorized per-round tree, and the private-experts bounds report."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone.audit import audit_mechanism
from littlestone.bounds.private_experts import private_experts_report, theorem_e11_rate, theorem_e12_rate
from littlestone.errors import LittlestoneError
from littlestone.experts import Hedge, PrivateHedge, TreeAggregationHedge, private_hedge_eta, private_hedge_privacy
from littlestone.privacy import advanced_composition


def _losses(T, N, seed):
    rng = np.random.default_rng(seed)
    return (rng.random((T, N)) < rng.uniform(0.2, 0.8, N)).astype(float)


@pytest.mark.parametrize("seed", range(4))
def test_private_hedge_regret_within_bound_random_losses(seed):
    T, N = 20_000, 6
    ph = PrivateHedge(N, T, epsilon=1.0, delta=1e-6, backend="seeded", seed=seed)
    bound = ph.regret_bound()
    assert bound < T / 2  # non-vacuous, so the check can fail
    run = ph.run(_losses(T, N, seed))
    assert run.expected_regret <= bound


def test_private_hedge_regret_within_bound_adaptive_adversary():
    """The adversary puts loss 1 on the expert just played (it sees i_1..i_t before choosing ℓ_{t+1})."""
    T, N = 5000, 4
    ph = PrivateHedge(N, T, epsilon=2.0, delta=1e-6, backend="seeded", seed=3, diagnostics=True)
    cum, expected = np.zeros(N), 0.0
    for _ in range(T):
        p = ph.distribution()
        i = ph.predict_one()
        loss = np.zeros(N)
        loss[i] = 1.0
        expected += float(p @ loss)
        ph.learn_one(loss)
        cum += loss
    assert expected - cum.min() <= ph.regret_bound()


def test_private_hedge_rate_matches_theorem_e11():
    """ε ≤ 1: the proven bound is the quoted rate √(T ln(1/δ)) ln N/ε times a constant near √8 (+ lower order)."""
    for N, T, eps in [(10, 10**4, 1.0), (1000, 10**5, 0.5), (10**4, 10**6, 0.1)]:
        rep = private_experts_report(N, T, eps, 1e-6)
        proven = rep.values["PrivateHedge (proven): regret, adaptive"]
        ratio = proven / theorem_e11_rate(N, T, eps, 1e-6)
        assert math.sqrt(8) * 0.99 <= ratio <= math.sqrt(8) * 1.15, ratio


def test_private_hedge_claim_is_the_composition_of_its_draws():
    T, eps, dlt = 1000, 1.0, 1e-6
    ph = PrivateHedge(5, T, eps, dlt, backend="seeded")
    adv = advanced_composition(2 * ph.eta, 0.0, T - 1, dlt)
    claim = ph.privacy()
    assert claim.epsilon == pytest.approx(min(adv[0], 2 * ph.eta * (T - 1)))
    assert claim.epsilon <= eps * (1 + 1e-9) and claim.delta == dlt
    assert claim.relation == "replace-one-round"
    pure = PrivateHedge(5, T, eps, 0.0, backend="seeded")  # δ = 0: basic composition
    assert pure.privacy().epsilon == pytest.approx(2 * pure.eta * (T - 1)) and pure.privacy().delta == 0.0
    assert private_hedge_privacy(0.1, 1, 1e-6) == (0.0, 0.0)  # one round reads no loss


@pytest.mark.parametrize(
    "bad",
    [
        dict(epsilon=0.0),
        dict(epsilon=float("inf")),
        dict(delta=1.0),
        dict(delta=-0.1),
        dict(horizon=None),
        dict(horizon=0),
        dict(n_experts=0),
        dict(eta=-1.0),
        dict(eta="fast"),
        dict(backend="numpy"),
    ],
)
def test_private_hedge_bad_input(bad):
    kw = dict(n_experts=3, horizon=100, epsilon=1.0, delta=1e-6) | bad
    with pytest.raises(LittlestoneError):
        PrivateHedge(kw.pop("n_experts"), kw.pop("horizon"), kw.pop("epsilon"), kw.pop("delta"), **kw)


def test_private_hedge_refuses_a_rate_over_budget():
    theory = private_hedge_eta(3, 100, 1.0, 1e-6)
    with pytest.raises(LittlestoneError, match="would spend"):
        PrivateHedge(3, 100, 1.0, 1e-6, eta=10 * theory)
    assert PrivateHedge(3, 100, 1.0, 1e-6, eta=theory / 2, backend="seeded").privacy().epsilon < 1.0


def test_private_hedge_same_seed_same_stream_and_streaming_equals_run():
    L = _losses(400, 7, 1)
    a = PrivateHedge(7, 400, 1.0, 1e-6, backend="seeded", seed=9).run(L)
    b = PrivateHedge(7, 400, 1.0, 1e-6, backend="seeded", seed=9).run([L[:123], L[123:]])
    c = PrivateHedge(7, 400, 1.0, 1e-6, backend="seeded", seed=10).run(L)
    assert np.array_equal(a.choices, b.choices) and not np.array_equal(a.choices, c.choices)
    assert a.expected_loss == pytest.approx(b.expected_loss, rel=1e-6)


def test_private_hedge_secure_backend_runs():
    ph = PrivateHedge(3, 40, 1.0, 1e-6)
    assert ph.backend.floating_point_safe
    run = ph.run(_losses(40, 3, 0))
    assert run.rounds == 40 and set(run.choices.tolist()) <= {0, 1, 2}


# ------------------------------------------------------------------------------------------------ audit
class _NoiselessLeader(PrivateHedge):
    """Broken twin: follows the leader (argmin of L) instead of sampling the exponential mechanism."""

    def _sample(self, p):
        return int(np.argmin(self._cumulative))


def _choices(cls):
    def mech(data, backend):
        learner = cls(2, 2, 1.0, 0.0, backend=backend)
        out = []
        for row in data:
            out.append(learner.predict_one())
            learner.learn_one(row)
        return tuple(out)

    return mech


@pytest.mark.parametrize("twin,ok", [(PrivateHedge, True), (_NoiselessLeader, False)])
def test_private_hedge_audit(twin, ok):
    d, dp = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[1.0, 0.0], [0.0, 0.0]])
    claimed = PrivateHedge(2, 2, 1.0, 0.0, backend="seeded").privacy().epsilon
    rep = audit_mechanism(_choices(twin), d, dp, runs=20_000, seed=2, randomness="seeded", claimed_epsilon=claimed)
    assert rep.passed is ok


# ------------------------------------------------------------------------------------------------ per-round tree
@pytest.mark.parametrize("discrete", [False, True])
def test_vectorized_tree_reads_the_same_noise_stream_as_the_per_round_path(discrete):
    """Drawing the (data-independent) node noises of a chunk ahead changes nothing: after every round the noisy
    prefix sums equal those of the round-by-round path (the one an adaptive adversary drives)."""
    T, N = 700, 5
    L = _losses(T, N, 1)
    a = TreeAggregationHedge(N, T, 1.0, block=1, backend="seeded", seed=3, discrete=discrete, chunk=64)
    b = TreeAggregationHedge(N, T, 1.0, block=1, backend="seeded", seed=3, discrete=discrete, chunk=64)
    seen, expected_a = {}, 0.0
    for t in range(T):
        expected_a += float(a.distribution() @ L[t])
        a.learn_one(L[t])
        seen[t + 1] = a.noisy_cumulative().copy()
    pos, expected_b = 0, 0.0
    for k in [1, 6, 57, 64, 129, 1, 300, 142]:
        expected_b += b.run(L[pos : pos + k]).expected_loss
        pos += k
        assert np.allclose(b.noisy_cumulative(), seen[pos])
    assert pos == T and np.array_equal(a._cumulative, b._cumulative)
    assert expected_b == pytest.approx(expected_a, rel=1e-4)


def test_vectorized_tree_same_seed_same_stream():
    L = _losses(600, 9, 5)
    r1 = TreeAggregationHedge(9, 600, 1.0, block=1, backend="seeded", seed=4).run(L)
    r2 = TreeAggregationHedge(9, 600, 1.0, block=1, backend="seeded", seed=4).run([L[:250], L[250:]])
    r3 = TreeAggregationHedge(9, 600, 1.0, block=1, backend="seeded", seed=5).run(L)
    assert np.array_equal(r1.choices, r2.choices) and not np.array_equal(r1.choices, r3.choices)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_per_round_tree_regret_within_bound_statistical(seed):
    T, N = 30_000, 3
    learner = TreeAggregationHedge(N, T, epsilon=100.0, block=1, backend="seeded", seed=seed)
    assert learner.regret_bound() < T / 2
    assert learner.run(_losses(T, N, seed)).expected_regret <= learner.regret_bound()


def test_hedge_vectorized_equals_streaming_expected_loss():
    L = _losses(500, 30, 8)
    h = Hedge(30, 500, seed=1)
    exp = 0.0
    for t in range(500):
        exp += float(h.distribution() @ L[t])
        h.learn_one(L[t])
    assert Hedge(30, 500, seed=1).run(L).expected_loss == pytest.approx(exp, rel=1e-5)


# ------------------------------------------------------------------------------------------------ bounds report
def test_private_experts_report_rows_and_errors():
    rep = private_experts_report(100, 10_000, 1.0, 1e-6)
    text = rep.as_text()
    assert "Thm E.11" in text and "Thm E.12" in text and "PrivateHedge" in text
    assert (
        rep.values["Hedge (non-private, proven): regret bound"] < rep.values["PrivateHedge (proven): regret, adaptive"]
    )
    assert theorem_e12_rate(100, 10_000, 1.0, 1e-6) > math.sqrt(10_000 * math.log(100))
    for bad in [dict(n=0), dict(T=1.5), dict(epsilon=0.0), dict(delta=0.0)]:
        kw = dict(n=100, T=1000, epsilon=1.0, delta=1e-6) | bad
        with pytest.raises(LittlestoneError):
            private_experts_report(**kw)
