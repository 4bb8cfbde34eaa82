"""Private prediction from experts: regret within the computed bounds, reproducibility, audits with broken twins."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.audit import audit_mechanism
from littlestone.errors import LittlestoneError
from littlestone.experts import BatchedPrivateHedge, Hedge, TreeAggregationHedge


def _losses(T, N, seed):
    rng = np.random.default_rng(seed)
    means = rng.uniform(0.2, 0.8, N)
    return (rng.random((T, N)) < means).astype(float)


@pytest.mark.parametrize("seed", range(5))
def test_hedge_regret_within_bound(seed):
    L = _losses(3000, 20, seed)
    h = Hedge(20, 3000, seed=seed)
    assert h.run(L).expected_regret <= h.regret_bound()


def test_hedge_bound_can_fail_with_a_wrong_rate():
    # the adversarial two-expert sequence: a rate far from the theory one exceeds ln N/η* + η*T/8
    T = 2000
    L = np.array([[0.0, 1.0] if t % 2 else [1.0, 0.0] for t in range(T)])
    L[0] = [0.5, 0.0]
    theory = Hedge(2, T).regret_bound()
    assert Hedge(2, T, eta=50.0, seed=0).run(L).expected_regret > theory


@pytest.mark.parametrize("seed", range(5))
def test_tree_hedge_regret_within_nonvacuous_bound(seed):
    T, N = 4000, 4
    L = _losses(T, N, seed)
    learner = TreeAggregationHedge(N, T, epsilon=50.0, block=[1, 4, "theory"][seed % 3], backend="seeded", seed=seed)
    bound = learner.regret_bound()
    assert bound < T  # the check below can fail
    run = learner.run(L)
    assert run.expected_regret <= bound
    assert run.rounds == T


@pytest.mark.parametrize("seed", range(5))
def test_batched_hedge_regret_within_bound(seed):
    T, N = 5000, 10
    L = _losses(T, N, seed)
    learner = BatchedPrivateHedge(N, T, epsilon=1.0, delta=1e-6, backend="seeded", seed=seed)
    bound = learner.regret_bound()
    assert bound < T
    assert learner.run(L).expected_regret <= bound
    eps, delta = learner.privacy()
    assert learner.privacy().relation == "replace-one-round"
    assert eps <= 1.0 + 1e-9 and delta <= 1e-6


def test_tree_noisy_prefix_matches_streaming_and_exact_sums():
    T, N = 37, 3
    L = _losses(T, N, 1)
    a = TreeAggregationHedge(N, T, 1.0, block=1, backend="seeded", seed=3)
    for t in range(T):
        a.predict_one()
        a.learn_one(L[t])
    assert np.allclose(a._cumulative, L.sum(axis=0))
    # the noise part is a sum of ≤ L Laplace nodes: its size is of the node scale, not of t·scale
    assert np.all(np.abs(a.noisy_cumulative() - a._cumulative) <= a.noise_bound)


@pytest.mark.parametrize(
    "cls,kw",
    [
        (Hedge, {}),
        (TreeAggregationHedge, {"epsilon": 1.0, "backend": "seeded"}),
        (BatchedPrivateHedge, {"epsilon": 1.0, "delta": 1e-6, "backend": "seeded"}),
    ],
)
def test_same_seed_same_stream(cls, kw):
    L = _losses(500, 8, 2)
    r1 = cls(8, 500, seed=11, **kw).run(L)
    r2 = cls(8, 500, seed=11, **kw).run(L)
    r3 = cls(8, 500, seed=12, **kw).run(L)
    assert np.array_equal(r1.choices, r2.choices)
    assert not np.array_equal(r1.choices, r3.choices)


def test_streaming_equals_run():
    L = _losses(300, 5, 4)
    a = Hedge(5, 300, seed=5)
    choices = []
    for t in range(300):
        choices.append(a.predict_one())
        a.learn_one(L[t])
    assert np.array_equal(np.array(choices), Hedge(5, 300, seed=5).run([L[:100], L[100:]]).choices)
    b = BatchedPrivateHedge(5, 300, 1.0, 1e-6, backend="seeded", seed=5)
    c = BatchedPrivateHedge(5, 300, 1.0, 1e-6, backend="seeded", seed=5)
    stream = []
    for t in range(300):
        stream.append(b.predict_one())
        b.learn_one(L[t])
    assert np.array_equal(np.array(stream), c.run([L[:77], L[77:]]).choices)


def test_secure_backend_is_the_default_and_runs():
    L = _losses(200, 4, 0)
    t = TreeAggregationHedge(4, 200, 1.0)
    assert t.backend.floating_point_safe and t.discrete  # OpenDP noise, exact integer node sums on 0/1 losses
    assert t.run(L).rounds == 200
    assert BatchedPrivateHedge(4, 200, 1.0, 1e-6).run(L).rounds == 200


@pytest.mark.parametrize(
    "bad",
    [
        dict(horizon=None),
        dict(horizon=0),
        dict(epsilon=0.0),
        dict(epsilon=-1),
        dict(epsilon=float("nan")),
        dict(n_experts=0),
    ],
)
def test_bad_input(bad):
    kw = dict(n_experts=3, horizon=10, epsilon=1.0) | bad
    with pytest.raises(LittlestoneError):
        TreeAggregationHedge(kw["n_experts"], kw["horizon"], kw["epsilon"])
    with pytest.raises(LittlestoneError):
        BatchedPrivateHedge(kw["n_experts"], kw["horizon"], kw["epsilon"])


def test_bad_losses_and_batch():
    with pytest.raises(LittlestoneError, match="batch"):
        BatchedPrivateHedge(3, 10, 1.0, batch=0)
    with pytest.raises(LittlestoneError, match=r"\[0, 1\]"):
        Hedge(3, 10).learn_one([0.0, 2.0, 0.0])
    with pytest.raises(LittlestoneError, match="shape"):
        Hedge(3, 10).learn_one([0.0, 1.0])
    with pytest.raises(LittlestoneError, match="horizon"):
        Hedge(3, 2).run(np.zeros((3, 3)))
    with pytest.raises(LittlestoneError, match="grid"):
        TreeAggregationHedge(3, 10, 1.0, discrete=True, grid=0)


# ------------------------------------------------------------------------------------------------ privacy audits
N_A, T_A = 8, 8
D = np.zeros((T_A, N_A))
D_PRIME = D.copy()
D_PRIME[0] = 1.0  # one round's loss vector replaced


class _ForgotSensitivity(TreeAggregationHedge):
    """Broken twin: node noise Lap(1/ε) — forgot the L1 sensitivity N·L of the node family."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.noise_scale = 1.0 / self.epsilon


def _tree_release(cls):
    def mech(data, backend):
        learner = cls(N_A, T_A, 1.0, block=1, backend=backend, discrete=False)
        total = 0.0
        for row in data:
            learner.learn_one(row)
            total += float(learner.noisy_cumulative().sum())
        return total

    return mech


@pytest.mark.slow
def test_tree_hedge_audit_passes_and_catches_broken_twin():
    good = audit_mechanism(
        _tree_release(TreeAggregationHedge), D, D_PRIME, runs=20_000, seed=0, randomness="seeded", claimed_epsilon=1.0
    )
    bad = audit_mechanism(
        _tree_release(_ForgotSensitivity), D, D_PRIME, runs=20_000, seed=0, randomness="seeded", claimed_epsilon=1.0
    )
    assert good.passed
    assert not bad.passed


class _NoiselessLeader(BatchedPrivateHedge):
    """Broken twin: follows the leader without the exponential mechanism's noise."""

    def _draw(self):
        b = self.t // self.batch
        if self._drawn_for != b:
            self._p = np.eye(self.n_experts)[int(np.argmin(self._cumulative))]
            self._current = int(np.argmin(self._cumulative))
            self._drawn_for = b


def _hedge_choices(cls):
    def mech(data, backend):
        learner = cls(2, 2, 1.0, batch=1, backend=backend)
        out = []
        for row in data:
            out.append(learner.predict_one())
            learner.learn_one(row)
        return tuple(out)

    return mech


@pytest.mark.parametrize("twin,ok", [(BatchedPrivateHedge, True), (_NoiselessLeader, False)])
def test_batched_hedge_audit(twin, ok):
    d, dp = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[1.0, 0.0], [0.0, 0.0]])
    rep = audit_mechanism(_hedge_choices(twin), d, dp, runs=20_000, seed=1, randomness="seeded", claimed_epsilon=1.0)
    assert rep.passed is ok


def test_secure_backend_refuses_float_noise_addition():
    """On the secure backend no noise is added to data in floats: discrete=False is refused, the default is discrete."""
    from littlestone.errors import LittlestoneError

    with pytest.raises(LittlestoneError, match="floating-point safe"):
        TreeAggregationHedge(4, 8, 1.0, backend="secure", discrete=False)
    assert TreeAggregationHedge(4, 8, 1.0, backend="secure").discrete
