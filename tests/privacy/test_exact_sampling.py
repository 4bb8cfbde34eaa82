"""The SecureBackend's native exact sampler (littlestone.privacy.exact_sampling, CKS20 Alg. 1–2) draws OpenDP's
discrete-Laplace law: exact checks of its integer steps, goodness of fit against the exact pmf, and two-sample tests
against OpenDP's own sampler (a small one here, a large one marked slow)."""

from __future__ import annotations

import multiprocessing as mp
import itertools
from fractions import Fraction
from functools import partial

import numpy as np
import pytest
from scipy import stats

from littlestone.errors import PrivacyParameterError
from littlestone.privacy import SecureBackend
from littlestone.privacy import exact_sampling as es
from littlestone.privacy.backends import SAMPLER_ENV, _int_laplace

# float scales: small, unit, non-dyadic (b = t/s with s > 1), AboveThreshold's grid scales 4·1025/ε (t up to 2^53)
SCALES = [0.3, 1.0, 2.5, 4 * 1025 / 0.45]


def _counter_words(values: np.ndarray):
    """A word source replaying the given uint64 words in order (then failing): for exact enumeration tests."""
    state = {"pos": 0}

    def words(n: int) -> np.ndarray:
        out = values[state["pos"] : state["pos"] + n]
        assert out.size == n, "enumeration exhausted"
        state["pos"] += n
        return out

    return words


@pytest.mark.parametrize("bound", [1, 3, 5, 7, 200, 255])
def test_below_is_exactly_uniform_over_every_byte(bound):
    # Every byte value exactly once: rejection keeps each of {0..bound-1} exactly 2^(8-bits) times among the kept ones.
    byte_values = np.arange(256, dtype=np.uint8)
    words = _counter_words(np.concatenate([byte_values.view(np.uint64), np.zeros(64, np.uint64)]))
    bits = max((bound - 1).bit_length(), 1)
    kept = (byte_values >> (8 - bits)).astype(np.uint64)
    kept = kept[kept < bound]
    got = es.below(bound, kept.size, words) if bound != 1 << bits else es.below(bound, 256, words)
    counts = np.bincount(got.astype(np.int64), minlength=bound)
    assert counts.size == bound and np.all(counts == counts[0])


@pytest.mark.parametrize("gamma", [Fraction(0), Fraction(3, 7), Fraction(1)])
def test_bernoulli_exp_components(gamma):
    # CKS20 Alg. 1 gives exp(-γ): the vectorised loop, the γ = 1 special case and the scalar reference
    n = 200_000
    t = gamma.denominator
    bits, stuck = es.bernoulli_exp_fraction(np.full(n, gamma.numerator, dtype=np.uint64), t)
    assert not stuck.any()
    p = np.exp(-float(gamma))
    tol = 5 * np.sqrt(p * (1 - p) / n) + 1e-12
    assert abs(bits.mean() - p) <= tol
    if gamma == 1:
        assert abs(es.bernoulli_exp1(n).mean() - p) <= tol
    ref = np.mean([es._bernoulli_exp_scalar(gamma + 1, es.os_words) for _ in range(4000)])  # γ > 1 split
    assert abs(ref - np.exp(-float(gamma) - 1)) < 5 * np.sqrt(0.25 / 4000)


def _binned_pmf(scale: float, edges: np.ndarray) -> np.ndarray:
    """P(Z ∈ [edges_i, edges_{i+1})) of the discrete Laplace, exactly from its two-sided geometric tails."""
    q = np.exp(-1.0 / scale)

    def cdf(z):  # P(Z ≤ z) for integer z
        z = np.asarray(z, dtype=float)
        with np.errstate(over="ignore"):
            return np.where(z < 0, q ** (-z) / (1 + q), 1 - q ** (z + 1) / (1 + q))

    return cdf(edges[1:] - 1) - cdf(edges[:-1] - 1)


def _edges(scale: float) -> np.ndarray:
    m = max(int(np.ceil(6 * scale)), 3)
    inner = np.unique(np.round(np.linspace(-m, m + 1, 41)).astype(np.int64))
    return np.concatenate([[-(2**62)], inner, [2**62]])


@pytest.mark.parametrize("scale", SCALES)
def test_native_discrete_laplace_fits_the_exact_pmf(scale):
    z = es.discrete_laplace(scale, 100_000)
    assert z.dtype == np.int64
    edges = _edges(scale)
    observed = np.histogram(z, bins=edges)[0]
    expected = _binned_pmf(scale, edges) * z.size
    keep = expected > 5
    chi2 = stats.chisquare(observed[keep], expected[keep] * observed[keep].sum() / expected[keep].sum())
    assert chi2.pvalue > 1e-4, chi2
    # and the symmetric law's two moments
    q = np.exp(-1.0 / scale)
    assert abs(np.abs(z).mean() - 2 * q / (1 - q * q)) < 6 * np.abs(z).std() / np.sqrt(z.size)


def _two_sample(a: np.ndarray, b: np.ndarray, scale: float) -> float:
    edges = _edges(scale)
    table = np.vstack([np.histogram(a, bins=edges)[0], np.histogram(b, bins=edges)[0]])
    table = table[:, table.sum(axis=0) >= 10]
    return stats.chi2_contingency(table).pvalue


@pytest.mark.parametrize("scale", [1.0, 4 * 1025 / 0.45])
def test_native_matches_opendp_small(scale):
    ours = es.discrete_laplace(scale, 40_000)
    theirs = np.asarray(_int_laplace(scale)([0] * 20_000), dtype=np.int64)
    assert _two_sample(ours, theirs, scale) > 1e-4


@pytest.mark.slow
@pytest.mark.parametrize("scale", SCALES + [0.05, 7.0, 2.0**40 / 3])
def test_native_matches_opendp_large(scale):
    ours = es.discrete_laplace(scale, 1_000_000)
    theirs = np.asarray(_int_laplace(scale)([0] * 400_000), dtype=np.int64)
    assert _two_sample(ours, theirs, scale) > 1e-5


@pytest.mark.slow
@pytest.mark.parametrize("scale", SCALES)
def test_native_fits_the_exact_pmf_large(scale):
    z = es.discrete_laplace(scale, 2_000_000)
    edges = _edges(scale)
    observed = np.histogram(z, bins=edges)[0]
    expected = _binned_pmf(scale, edges) * z.size
    keep = expected > 5
    assert stats.chisquare(observed[keep], expected[keep] * observed[keep].sum() / expected[keep].sum()).pvalue > 1e-5


def test_halved_scale_is_detected():
    # the goodness-of-fit test has power: draws at b/2 fail the test for b
    scale = 2.5
    z = es.discrete_laplace(scale / 2, 100_000)
    edges = _edges(scale)
    observed = np.histogram(z, bins=edges)[0]
    expected = _binned_pmf(scale, edges) * z.size
    keep = expected > 5
    assert stats.chisquare(observed[keep], expected[keep] * observed[keep].sum() / expected[keep].sum()).pvalue < 1e-6


def test_scalar_reference_and_huge_numerators():
    # the Python-integer path (used beyond t = 2^53 and to finish rare elements) draws the same law
    z = np.array([es.discrete_laplace_scalar(2.5) for _ in range(3000)])
    assert abs(np.abs(z).mean() - 2 * np.exp(-0.4) / (1 - np.exp(-0.8))) < 0.25
    big = 2.0**60 + 2.0**10  # t > 2^53: the scalar path
    y = es.geometric(big, 50)
    assert y.dtype == np.int64 and (y >= 0).all() and np.median(y) > big / 10


def test_native_laplace_on_grid_is_laplace():
    be = SecureBackend("native")
    for b in (0.01, 1.0, 16.0):
        x = be.laplace(b, 50_000)
        assert stats.kstest(x, stats.laplace(scale=b).cdf).pvalue > 1e-4
    z, k = es.laplace_on_grid(3.0, 10)
    assert 2**49 < 3.0 / 2.0**k <= 2**50 and z.dtype == np.int64


def test_backend_switch(monkeypatch):
    assert SecureBackend().sampler == "native"
    assert SecureBackend("opendp").sampler == "opendp"
    monkeypatch.setenv(SAMPLER_ENV, "opendp")
    be = SecureBackend()
    assert be.sampler == "opendp" and all(c.sampler == "opendp" for c in be.spawn(2))
    assert isinstance(be.discrete_laplace(2.0), int)
    monkeypatch.setenv(SAMPLER_ENV, "fast")
    with pytest.raises(PrivacyParameterError, match=SAMPLER_ENV):
        SecureBackend()
    with pytest.raises(PrivacyParameterError, match="sampler"):
        SecureBackend("numpy")


def test_native_backend_shapes_and_integer_addition():
    be = SecureBackend("native")
    assert isinstance(be.discrete_laplace(3.0), int)
    assert be.discrete_laplace(3.0, (2, 3)).shape == (2, 3)
    v = np.arange(6).reshape(2, 3)
    out = be.add_discrete_laplace(v, 1e-9)  # q = e^(-1e9): the noise is 0 with probability 1 - 1e-400000000
    assert out.dtype == np.int64 and np.array_equal(out, v)


def _child_draws(conn):
    conn.send(es.discrete_laplace_draws(1000.0, 8).tolist())
    conn.close()


def test_pool_is_not_shared_with_a_forked_child():
    if "fork" not in mp.get_all_start_methods():
        pytest.skip("no fork")
    es.discrete_laplace_draws(1000.0, 1)  # the parent's pool now holds ~4095 draws at this scale
    ctx = mp.get_context("fork")
    parent_conn, child_conn = ctx.Pipe()
    p = ctx.Process(target=_child_draws, args=(child_conn,))
    p.start()
    child = parent_conn.recv()
    p.join()
    assert child != es.discrete_laplace_draws(1000.0, 8).tolist()


# ------------------------------------------------------------------------------------------ the run extractor
# (issue 26 item 2) es._runs returns exact geometric runs whatever the block boundaries: the run still open at the end
# of a block is carried into the next. Before issue 26 the open run was dropped, so the runs completed inside a window
# were biased toward short runs and capped by the window — each test below fails on that code.


def _replay(stream: list[int]):
    """A bit source replaying ``stream`` in order (as many bits as asked), failing when it runs out."""
    state = {"pos": 0}

    def bits(m: int) -> np.ndarray:
        out = np.asarray(stream[state["pos"] : state["pos"] + m], dtype=bool)
        if out.size < m:
            raise EOFError
        state["pos"] += m
        return out

    return bits


def test_runs_crossing_block_boundaries_by_hand():
    # blocks of 4: |1111|1011|1111|1100|1000|  runs: 5 (crosses one boundary), 8 (crosses two, through a block with
    # no failure), 0, 1, 0. The old extraction gave 1, 2, 0, 1, 0 (the open runs dropped at each boundary).
    stream = [1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0]
    got = es._runs(5, None, bits=_replay(stream), block=4)
    assert got.tolist() == [5, 8, 0, 1, 0]
    assert got.dtype == np.uint64
    # blocks of 1 (every bit its own block) and one block of everything: the same runs
    assert es._runs(5, None, bits=_replay(stream), block=1).tolist() == [5, 8, 0, 1, 0]
    assert es._runs(5, None, bits=_replay(stream + [0] * 40)).tolist() == [5, 8, 0, 1, 0]
    assert es._runs(0, None, bits=_replay([])).size == 0


def test_runs_have_the_exact_joint_law_on_every_window():
    # Enumerate every 12-bit stream of Bernoulli(9/10) bits read in blocks of 3 and weight it by its exact
    # probability: the first two runs (V1, V2) must have P(V1 = a, V2 = b) = (1 − p)² p^(a+b) exactly for every pair
    # decided within 12 bits (a + b + 2 ≤ 12) — including runs longer than a block (the old code: 0 for a ≥ 3).
    p, length, block = Fraction(9, 10), 12, 3
    law: dict[tuple[int, int], Fraction] = {}
    for stream in itertools.product((0, 1), repeat=length):
        weight = p ** sum(stream) * (1 - p) ** (length - sum(stream))
        try:
            a, b = es._runs(2, None, bits=_replay(list(stream)), block=block).tolist()
        except EOFError:  # the second failure is not among the 12 bits
            continue
        law[a, b] = law.get((a, b), Fraction(0)) + weight
    for a in range(length - 1):
        for b in range(length - 1 - a):
            assert law.get((a, b), Fraction(0)) == (1 - p) ** 2 * p ** (a + b), (a, b)


@pytest.mark.parametrize("calls", [(1,) * 8000, (4,) * 2000, (40_000,)])
def test_runs_of_a_biased_source_are_geometric(calls):
    # Bernoulli(0.9) bits in the sampler's own block sizes (a call for n runs reads blocks of 1.6n + 16 bits): mean
    # 9, P(V ≥ 22) = 0.9^22 ≈ 0.098 and a χ² fit of the whole law, for many small calls (the old extraction: a block
    # of 17 bits per run asked, mean ≈ 5.4 and P(V ≥ 22) = 0) and for one large call.
    rng = np.random.default_rng(26)
    p = 0.9
    v = np.concatenate([es._runs(k, None, bits=lambda m: rng.random(m) < p) for k in calls]).astype(np.int64)
    n = sum(calls)
    assert v.size == n
    assert abs(v.mean() - p / (1 - p)) < 6 * np.sqrt(p) / (1 - p) / np.sqrt(n)
    assert abs(np.mean(v >= 22) - p**22) < 6 * np.sqrt(p**22 * (1 - p**22) / n)
    edges = np.concatenate([np.arange(0, 60, 2), [2**62]])
    expected = (p ** edges[:-1] - np.where(edges[1:] < 2**62, p ** edges[1:].astype(float), 0.0)) * n
    observed = np.histogram(v, bins=edges)[0]
    assert stats.chisquare(observed, expected * observed.sum() / expected.sum()).pvalue > 1e-4


@pytest.mark.parametrize("scale", [1.0, 2.5, 4 * 1025 / 0.45])
@pytest.mark.parametrize("block", [3, 8])
def test_sampler_fits_the_exact_pmf_across_many_block_boundaries(monkeypatch, scale, block):
    # the whole sampler (Alg. 1, the geometric, the sign) with the run extraction forced into tiny blocks, so almost
    # every run crosses a boundary: still the exact discrete-Laplace pmf (the old extraction caps |Z| for t = s = 1
    # at block − 1 and shortens the runs everywhere)
    monkeypatch.setattr(es, "_runs", partial(es._runs, block=block))
    z = es.discrete_laplace(scale, 30_000)
    edges = _edges(scale)
    observed = np.histogram(z, bins=edges)[0]
    expected = _binned_pmf(scale, edges) * z.size
    keep = expected > 5
    chi2 = stats.chisquare(observed[keep], expected[keep] * observed[keep].sum() / expected[keep].sum())
    assert chi2.pvalue > 1e-4, chi2
    q = np.exp(-1.0 / scale)
    assert abs(np.abs(z).mean() - 2 * q / (1 - q * q)) < 6 * np.abs(z).std() / np.sqrt(z.size)
