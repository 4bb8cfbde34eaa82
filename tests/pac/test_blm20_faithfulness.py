"""Tests that see the parts of BLM20 a wrong constant would silently change: the 3η/4 filter of M (Theorem 17,
step 2) and the uniform depth k ∼ U{0..d} of G (§IV-C2, step 2)."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.classes.thresholds import Threshold, Thresholds
from littlestone.pac.blm20 import blm20_learn
from littlestone.pac.global_stable import GlobalStableLearner, run_batches
from littlestone.pac.sources import RealizableStream, UniformIntegers
from littlestone.pac.tournament import FAIL, SOAState

H = Thresholds(16)
K = 600
SIZES = dict(
    epsilon=8.0, delta=1e-3, alpha=0.5, n_batches=K, aux_size=2, cap=2000, n_generic=50, backend="seeded", seed=3
)


def _stream():
    return RealizableStream(Threshold(9), UniformIntegers(0, 16), 2 * 10**6, seed=1)


@pytest.fixture(scope="module")
def released():
    """The released histogram (estimate / k) of one seeded run; it does not depend on η (only the filter does)."""
    r = blm20_learn(H, _stream(), eta=0.1, **SIZES)
    return [(h, c / K) for h, c in r.released if h is not FAIL]


def _run(eta):
    return blm20_learn(H, _stream(), eta=eta, **SIZES)


def test_filter_drops_an_item_between_eta_half_and_three_quarters(released):
    """Choose η so that one released item has estimate 0.625η ∈ [η/2, 3η/4): Theorem 17 drops it. Removing the
    filter, or lowering it to η/2, keeps it (this test goes red)."""
    h_star, f_star = next((h, f) for h, f in released if f < max(f for _, f in released) * 0.8)
    eta = f_star / 0.625
    r = _run(eta)
    assert [(h, c / K) for h, c in r.released if h is not FAIL] == released  # same histogram, other filter
    cands = {h for h, _ in r.candidates}
    assert h_star not in cands, "an item below 3η/4 (and above η/2) became a candidate"
    assert cands == {h for h, f in released if f >= 3 * eta / 4}
    assert cands and all(f >= 3 * eta / 4 for _, f in r.candidates)


def test_filter_keeps_an_item_just_above_three_quarters(released):
    """An item with estimate 0.76η (just above 3η/4) is a candidate: a filter raised to η (or to 0.8η) would drop it."""
    h_star, f_star = released[1]
    eta = f_star / 0.76
    r = _run(eta)
    cands = {h for h, _ in r.candidates}
    assert h_star in cands
    assert cands == {h for h, f in released if f >= 3 * eta / 4}


def test_filter_threshold_in_a_sweep(released):
    """Over a sweep of η the candidate set is exactly {estimate ≥ 3η/4}: the filter's constant is pinned down
    between η/2 and η (each alternative changes the set for some η of the sweep)."""
    freqs = sorted({f for _, f in released})
    for eta in (freqs[-1] * 1.2, freqs[-2] * 1.3, freqs[-3] * 1.5, freqs[-4] * 1.1):
        r = _run(eta)
        assert {h for h, _ in r.candidates} == {h for h, f in released if f >= 3 * eta / 4}, eta
        assert {h for h, _ in r.candidates} != {h for h, f in released if f >= eta / 2} or {
            h for h, f in released if eta / 2 <= f < 3 * eta / 4
        } == set()


# ------------------------------------------------------------------------------------------- k ∼ U{0..d} in G

RUNS = 3000


@pytest.fixture(scope="module")
def g_runs():
    G = GlobalStableLearner(H, 0.5, n=2, cap=4000)
    stream = RealizableStream(Threshold(9), UniformIntegers(0, 16), G.m * RUNS, seed=5)
    batches = [(i * G.m, (i + 1) * G.m) for i in range(RUNS)]
    return G, stream, batches, run_batches(G, stream, batches, 11)


def test_depth_is_uniform_on_zero_to_d(g_runs):
    """Every depth 0..d occurs with frequency 1/(d+1) (± 0.035, > 4.5 standard deviations at 3000 runs), none
    outside: U{0..d−1}, U{1..d}, a fixed k or a skewed law all go red."""
    G, _, _, runs = g_runs
    d = G.d
    assert d == 4
    counts = np.bincount([r.k for r in runs], minlength=d + 2)
    assert counts[d + 1 :].sum() == 0 and min(r.k for r in runs) >= 0
    freq = counts[: d + 1] / RUNS
    assert np.all(np.abs(freq - 1 / (d + 1)) < 0.035), freq
    # chi-square goodness of fit at 4 degrees of freedom: 18.47 is the 0.999 quantile
    expected = RUNS / (d + 1)
    assert float(((counts[: d + 1] - expected) ** 2 / expected).sum()) < 18.47


def test_drawn_depth_is_the_tournament_depth(g_runs):
    """The drawn k is the depth actually used: k = 0 reads exactly T (n examples) and outputs SOA(T);
    depth k reads at least (2^{k+1} − 1)·n examples (D̃_k holds 2^k − 1 contests of two n-samples each, plus T)."""
    G, stream, batches, runs = g_runs
    zero = [i for i, r in enumerate(runs) if r.k == 0]
    assert zero
    for i in zero[:50]:
        r = runs[i]
        assert r.examples_read == G.n
        X, y = stream.batch(batches[i][0], batches[i][0] + G.n)
        assert r.output == SOAState(H.version_space()).extend(X, y).hypothesis()
    for r in runs:
        if r.output is not FAIL:
            assert r.examples_read >= (2 ** (r.k + 1) - 1) * G.n, (r.k, r.examples_read)
