"""Issue 19: the experts learners' claims are bound to the code that earns them.

* calibration: every noise scale recomputed from the claimed (ε, δ) and the sensitivity (one round's loss vector in
  [0,1]^N replaced), every draw counted against the composition (a RecordingBackend logs each draw);
* the law of the vectorized exponential-mechanism draws (a halved scale moves the frequencies);
* outputs pinned for a fixed seed;
* leak 4: ``distribution()`` of PrivateHedge is a diagnostic, BatchedPrivateHedge's is its drawn expert, the tree
  learner's is computed from the noisy prefix sums only;
* leak 6: tree aggregation in discrete mode takes fractional losses (grid rounding, sensitivity N·L·g).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone.errors import LittlestoneError
from littlestone.experts import BatchedPrivateHedge, PrivateHedge, TreeAggregationHedge
from littlestone.privacy import ExponentialMechanism, advanced_composition, exponential_probabilities, tree_levels
from littlestone.testing import RecordingBackend


def _losses(T, N, seed):
    return np.random.default_rng(seed).random((T, N))


# ------------------------------------------------------------------------------------------------ PrivateHedge
@pytest.mark.parametrize("eps,delta", [(1.0, 0.0), (2.0, 1e-6)])
def test_private_hedge_step_and_claim_recomputed_from_epsilon(eps, delta):
    T, N = 400, 5
    ph = PrivateHedge(N, T, eps, delta, backend="seeded", seed=0)
    # one round: the exponential mechanism with score −L (Δ = 1) at ε₀ = 2η, i.e. Gumbel/softmin scale 1/η
    assert isinstance(ph.step, ExponentialMechanism) and ph.step.sensitivity == 1.0
    assert ph.step.epsilon == pytest.approx(2 * ph.eta) and ph.step.scale == pytest.approx(1 / ph.eta)
    # the claim: T − 1 data-reading runs of it, basic or advanced (slack δ), recomputed by hand
    basic = 2 * ph.eta * (T - 1)
    expect = min(basic, advanced_composition(2 * ph.eta, 0.0, T - 1, delta)[0]) if delta else basic
    c = ph.privacy()
    assert c.epsilon == pytest.approx(expect) and c.epsilon <= eps * (1 + 1e-9) and c.delta <= delta
    assert c.relation == "replace-one-round"


@pytest.mark.parametrize("vectorized", [True, False])
def test_private_hedge_one_draw_per_round_on_the_play_state(vectorized):
    T, N = 60, 4
    L = _losses(T, N, 1)
    b = RecordingBackend(7)
    ph = PrivateHedge(N, T, 1.0, backend=b, seed=0)
    if vectorized:
        ph.run([L[:25], L[25:]])
    else:
        for row in L:
            ph.predict_one()
            ph.learn_one(row)
    # one inverse-CDF uniform per round: T runs of the step (round 1's on L_0 = 0 reads no loss)
    assert b.values("uniform") == T and b.scales() == {}


def test_private_hedge_draws_follow_the_exponential_mechanism_law():
    """The frequencies of the vectorized draws match P(i) ∝ exp(−η L(i)) at the step's ε: halving the scale (or
    doubling ε) moves them far outside the tolerance."""
    N, k = 4, 40_000
    ph = PrivateHedge(N, 2, 5.0, backend="seeded", seed=0, eta=0.5)
    L = np.array([0.0, 1.0, 2.0, 4.0])
    draws = ph.step.sample_rows(-np.tile(L, (k, 1)), backend=ph.backend)
    freq = np.bincount(draws, minlength=N) / k
    exact = exponential_probabilities(-L, ph.step.epsilon, sensitivity=1.0)
    assert np.allclose(exact, np.exp(-0.5 * L) / np.exp(-0.5 * L).sum())
    assert np.abs(freq - exact).max() < 0.012


def test_private_hedge_pinned_for_a_fixed_seed():
    run = PrivateHedge(5, 200, 1.0, 1e-6, backend="seeded", seed=11).run(_losses(200, 5, 3))
    assert run.choices[:12].tolist() == PINNED_PRIVATE_HEDGE
    assert run.expected_loss == pytest.approx(PINNED_PRIVATE_HEDGE_EXPECTED, rel=1e-6)


PINNED_PRIVATE_HEDGE = [4, 2, 2, 3, 1, 1, 4, 4, 3, 1, 0, 0]
PINNED_PRIVATE_HEDGE_EXPECTED = 98.86460095643997


def test_private_hedge_distribution_is_a_diagnostic():
    ph = PrivateHedge(3, 10, 1.0, backend="seeded", seed=0)
    ph.learn_one([1.0, 0.0, 0.0])
    with pytest.raises(LittlestoneError, match="diagnostics=True"):
        ph.distribution()
    assert not hasattr(ph, "cumulative")
    diag = PrivateHedge(3, 10, 1.0, backend="seeded", seed=0, diagnostics=True)
    diag.learn_one([1.0, 0.0, 0.0])
    p = diag.distribution()
    assert p[0] < p[1] == pytest.approx(p[2])


# ------------------------------------------------------------------------------------------------ batched
@pytest.mark.parametrize("eps,delta", [(1.0, 0.0), (1.0, 1e-6)])
def test_batched_hedge_draws_counted_and_calibrated(eps, delta):
    T, N, B = 100, 3, 7
    b = RecordingBackend(3)
    bh = BatchedPrivateHedge(N, T, eps, delta, batch=B, backend=b, seed=0)
    L = _losses(T, N, 2)
    run = bh.run(L)
    assert np.allclose(bh._cumulative, L.sum(axis=0))  # every round counted once (no round read by two draws)
    assert run.realized_loss == pytest.approx(L[np.arange(T), run.choices].sum())
    K = math.ceil(T / B)
    # one exponential-mechanism draw per batch, Gumbel scale 2Δ/ε₀ = 1/η, nothing else
    assert b.calls("noisy_argmax:gumbel") == [(pytest.approx(1 / bh.eta), N)] * K
    assert sum(b.scales().values()) == K
    basic = 2 * bh.eta * K
    expect = min(basic, advanced_composition(2 * bh.eta, 0.0, K, delta)[0]) if delta else basic
    assert bh.privacy().epsilon == pytest.approx(expect) and expect <= eps * (1 + 1e-9)


def test_batched_distribution_is_the_drawn_expert_and_no_draw_past_the_horizon():
    bh = BatchedPrivateHedge(3, 4, 1.0, batch=2, backend="seeded", seed=0)
    p = bh.distribution()
    assert p.tolist().count(1.0) == 1 and p.sum() == 1.0 and int(np.argmax(p)) == bh.predict_one()
    with pytest.raises(LittlestoneError, match="diagnostics=True"):
        bh.draw_distribution()
    for _ in range(4):
        bh.learn_one([0.0, 1.0, 1.0])
    with pytest.raises(LittlestoneError, match="exhausted"):
        bh.distribution()  # a draw here would be a run the claim does not count


# ------------------------------------------------------------------------------------------------ tree
@pytest.mark.parametrize("discrete,grid", [(True, 1), (True, 4), (False, 1)])
def test_tree_noise_scale_recomputed_from_epsilon_and_sensitivity(discrete, grid):
    T, N, eps, B0 = 50, 3, 2.0, 4
    b = RecordingBackend(0)
    tree = TreeAggregationHedge(N, T, eps, block=B0, backend=b, seed=0, discrete=discrete, grid=grid)
    L = _losses(T, N, 4)
    if discrete and grid == 1:
        L = (L > 0.5).astype(float)
    run = tree.run(L)
    assert run.realized_loss == pytest.approx(L[np.arange(T), run.choices].sum())
    if grid == 1:  # every round counted once into the node sums (a round in two blocks would break Δ)
        assert np.allclose(tree._cumulative, L.sum(axis=0))
    K = math.ceil(T / B0)
    levels = tree_levels(K)
    sampler = "discrete_laplace" if discrete else "laplace"
    # node family L1 sensitivity N·L·g (units of 1/g), one (ε, 0) release: scale N·L·g/ε
    scale = N * levels * grid / eps
    assert list(b.scales()) == [pytest.approx(scale)]
    assert all(s == pytest.approx(scale) for s, _ in b.calls(sampler))
    assert b.values(sampler) == K * N  # one N-vector per block node, nothing dropped or extra
    assert tree.noise_scale == pytest.approx(N * levels / eps)  # the same noise in loss units
    assert tree.privacy().pair == (eps, 0.0)
    # the noise is in what is released: L̃ − L is the sum of the nodes covering the K blocks (pinned for the seed)
    noise = np.asarray(tree.noisy_cumulative(), dtype=float) - tree._cumulative / grid
    assert np.round(noise, 6).tolist() == PINNED_TREE_NOISE[(discrete, grid)]


PINNED_TREE_NOISE = {
    (True, 1): [14.0, -3.0, 3.0],
    (True, 4): [14.75, -3.25, 3.25],
    (False, 1): [13.25289, 13.395654, 20.835143],  # issue 34's seeded Laplace sampler (same law, other draws)
}


def test_tree_fractional_losses_in_discrete_mode_on_the_secure_backend():
    """Leak 6: the protocol promises losses in [0, 1]; discrete mode (the secure backend's) takes them."""
    tree = TreeAggregationHedge(3, 8, 1.0, block=2, grid=8)
    assert tree.discrete and tree.backend.floating_point_safe
    for _ in range(8):
        tree.predict_one()
        tree.learn_one([0.25, 0.5, 1.0])
    assert tree.t == 8 and np.isfinite(tree.distribution()).all()


def test_tree_grid_rounding_is_unbiased_and_exact_on_the_grid():
    tree = TreeAggregationHedge(2, 4000, 1.0, block=1, backend="seeded", seed=1, discrete=True, grid=4)
    for _ in range(4000):
        tree.learn_one([0.3, 0.75])
    total = tree._cumulative / 4.0
    assert total[1] == 3000.0  # 0.75 is on the grid of 1/4: counted exactly
    assert abs(total[0] - 1200.0) < 4 * math.sqrt(4000 * 0.2 * 0.8) / 4  # 0.3 → 0.25 or 0.5, mean 0.3


def test_tree_distribution_reads_only_the_noisy_prefix_sums():
    tree = TreeAggregationHedge(3, 16, 1.0, block=1, backend="seeded", seed=2, discrete=False)
    for row in _losses(16, 3, 0)[:9]:
        tree.learn_one(row)
    p = tree.distribution()
    noisy = tree.noisy_cumulative()
    w = np.exp(-tree.eta * (noisy - noisy.min()))
    assert np.allclose(p, w / w.sum())
    tree._cumulative = tree._cumulative + 100.0  # the exact losses are not read
    tree._p = None
    assert np.allclose(tree.distribution(), p)
