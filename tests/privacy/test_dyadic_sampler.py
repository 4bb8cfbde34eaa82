"""The secure backend's dyadic discrete Laplace (littlestone.privacy.exact_sampling.discrete_laplace_dyadic, issue 27)
and AboveThreshold's integer path that draws it: the parameter is rounded the safe way (q ≥ e^(−1/b), checked with
exact rational bounds on exp), the kernel's byte semantics by hand, the exact joint law of its draws on every byte
stream of a small alphabet read in blocks that cut draws, a goodness-of-fit test over OS randomness, and the
AboveThreshold on integer queries: unit grid, noise scales c·Δ/ε (halving one turns the calibration test red), non-
integer values refused."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from littlestone.errors import DomainError, PrivacyParameterError
from littlestone.privacy import (
    AboveThreshold,
    MonotoneAboveThreshold,
    SecureBackend,
    SeededBackend,
    StepAboveThreshold,
)
from littlestone.privacy import exact_sampling as es


def _exp_bounds(x: Fraction, terms: int = 40) -> tuple[Fraction, Fraction]:
    """Rational lower and upper bounds on exp(x), x ≤ 0: exp(x) = exp(x/n)^n with |x/n| ≤ 1/2, whose Taylor partial
    sums alternate around it (odd-length sums below, even-length above)."""
    n = max(1, math.ceil(2 * abs(x)))
    y = x / n
    partial, term, sums = Fraction(0), Fraction(1), []
    for k in range(terms):
        partial += term
        sums.append(partial)
        term = term * y / (k + 1)
    lo, hi = sums[-1], sums[-2]
    if lo > hi:
        lo, hi = hi, lo
    return lo**n, hi**n


@pytest.mark.parametrize("scale", [0.25, 1.0, 1 / 0.3, 2.0, 4.0, 10.0, 64.0])
def test_dyadic_parameter_is_rounded_up_by_at_most_two_units(scale):
    Q = es.dyadic_parameter(scale)
    lo, hi = _exp_bounds(-1 / Fraction(scale))
    assert hi <= Fraction(Q, 2**32), "q must be ≥ exp(−1/b): rounding down would spend more than the claim"
    assert Fraction(Q - 2, 2**32) < lo, "q is ⌈e^(−1/b)·2^32⌉ + 1"


def test_dyadic_parameter_refuses_a_scale_it_cannot_represent():
    with pytest.raises(PrivacyParameterError):
        es.dyadic_parameter(1e12)
    with pytest.raises(PrivacyParameterError):
        es.discrete_laplace_dyadic(0, 5)
    with pytest.raises(PrivacyParameterError):
        es.discrete_laplace_dyadic(2**32, 5)


def _bytes_source(data: list[int]):
    """A word source replaying the given bytes (padded with 0xFF to whole words), then failing."""
    raw = np.array(data + [0xFF] * (-len(data) % 8), dtype=np.uint8)
    words = raw.view(np.uint64)
    state = {"pos": 0}

    def source(n: int) -> np.ndarray:
        out = words[state["pos"] : state["pos"] + n]
        if out.size < n:
            raise EOFError
        state["pos"] += n
        return out

    return source


@pytest.mark.parametrize("compiled", [True, False], ids=["numba", "python"])
def test_kernel_reads_bytes_as_documented(compiled):
    Q = 0x5A3C_0000_0000 >> 16  # q = 0x5A3C0000 / 2^32, m = 32: bytes 5A 3C 00 00
    draw = lambda data, n=1: es.discrete_laplace_dyadic(  # noqa: E731
        Q, n, _bytes_source(data), block=1, compiled=compiled
    ).tolist()
    # success (0x10 < 0x5A), success (0x59 < 0x5A), failure (0xC0 > 0x5A), sign 0x00 (+): +2
    assert draw([0x10, 0x59, 0xC0, 0x00]) == [2]
    # the same with a negative sign (top bit set): −2
    assert draw([0x10, 0x59, 0xC0, 0x80]) == [-2]
    # equal first byte, then below (0x5A 0x3B: U < Q), then failure 0x5B, sign +: +1
    assert draw([0x5A, 0x3B, 0x5B, 0x7F]) == [1]
    # equal on every byte: U = Q, a failure; then sign +: 0
    assert draw([0x5A, 0x3C, 0x00, 0x00, 0x01]) == [0]
    # equal on three bytes, then 0x01 > 0x00: failure; sign +: 0
    assert draw([0x5A, 0x3C, 0x00, 0x01, 0x00]) == [0]
    # (−, 0) is rejected and the draw restarts: failure, sign −; then success, failure, sign −: −1
    assert draw([0xFF, 0x80, 0x00, 0xFF, 0x80]) == [-1]
    # two draws back to back
    assert draw([0xFF, 0x00, 0x00, 0x00, 0xFF, 0x81], 2) == [0, -2]


def test_compiled_kernel_equals_its_python_source_on_os_words():
    words = es.os_words(512)
    Q = es.dyadic_parameter(1.7)
    a = es.discrete_laplace_dyadic(Q, 300, _replay_words(words), block=3, compiled=True)
    b = es.discrete_laplace_dyadic(Q, 300, _replay_words(words), block=3, compiled=False)
    assert a.tolist() == b.tolist()


def _replay_words(words: np.ndarray):
    state = {"pos": 0}

    def source(n: int) -> np.ndarray:
        out = words[state["pos"] : state["pos"] + n]
        state["pos"] += n
        return out

    return source


def test_draws_have_the_exact_joint_law_on_every_stream_cut_into_blocks():
    # m = 8 (one byte per Bernoulli(q) trial, q = Q/256) over a 4-letter alphabet whose letters stand for the byte
    # classes that matter — below Q, equal to Q, above Q below 128, 128 and above — weighted by their exact
    # probabilities. Every stream of 8 letters is fed to the kernel in blocks of 3 bytes (so draws cross block
    # boundaries) and the first two draws are compared with the exact law: P(z1, z2 and both decided within 8 bytes)
    # = Σ over the rejections (k) before each draw of r^k·a(z) products, r = (1 − q)/2 the rejection probability
    # and a(z) = (1 − q)q^|z|/2 (z ≠ 0), (1 − q)/2 (z = 0).
    Q = 96
    letters = {0: Fraction(96, 256), 96: Fraction(1, 256), 100: Fraction(31, 256), 200: Fraction(128, 256)}
    length, block = 8, 3
    kernel = es._compiled_dyadic()
    law: dict[tuple[int, int], Fraction] = {}
    for stream in itertools.product(letters, repeat=length):
        out, state, filled = np.zeros(2, dtype=np.int64), np.zeros(3, dtype=np.int64), 0
        data = np.array(stream, dtype=np.uint8)
        for start in range(0, length, block):
            filled = kernel(data[start : start + block], Q, 8, out, filled, state)
        if filled < 2:
            continue
        weight = Fraction(1)
        for letter in stream:
            weight *= letters[letter]
        z1, z2 = out.tolist()
        law[z1, z2] = law.get((z1, z2), Fraction(0)) + weight
    q = Fraction(Q, 256)
    r = (1 - q) / 2

    def accepted(z: int) -> Fraction:
        return (1 - q) * q ** abs(z) / 2

    def cost(z: int) -> int:  # bytes of an accepted draw z: |z| successes, a failure, a sign
        return abs(z) + 2

    expected: dict[tuple[int, int], Fraction] = {}
    for z1 in range(-6, 7):
        for z2 in range(-6, 7):
            total = Fraction(0)
            for k1 in range(5):
                for k2 in range(5):
                    if 2 * (k1 + k2) + cost(z1) + cost(z2) <= length:
                        total += r ** (k1 + k2) * accepted(z1) * accepted(z2)
            if total:
                expected[z1, z2] = total
    assert law == expected


@pytest.mark.parametrize("scale", [1.0, 2.0, 1 / 0.3, 40.0])
@pytest.mark.parametrize("block", [1, None])
def test_dyadic_draws_fit_the_exact_pmf(scale, block):
    Q = es.dyadic_parameter(scale)
    n = 40_000
    z = es.discrete_laplace_dyadic(Q, n, block=block)
    top = int(8 * scale) + 2
    support = np.arange(-top, top + 1)
    pmf = np.array([float(es.dyadic_pmf(Q, k)) for k in support])
    observed = np.array([np.sum(z == k) for k in support] + [np.sum(np.abs(z) > top)])
    expected = np.concatenate([pmf, [1 - pmf.sum()]]) * n
    keep = expected > 5
    chi2 = stats.chisquare(observed[keep], expected[keep] * observed[keep].sum() / expected[keep].sum())
    assert chi2.pvalue > 1e-4, chi2


def test_halved_scale_fails_the_fit():
    # the same χ² test rejects DLap(1/2) draws as DLap(1): the test has the power to see a halved scale
    z = es.discrete_laplace_dyadic(es.dyadic_parameter(0.5), 40_000)
    Q = es.dyadic_parameter(1.0)
    support = np.arange(-10, 11)
    pmf = np.array([float(es.dyadic_pmf(Q, k)) for k in support])
    observed = np.array([np.sum(z == k) for k in support])
    assert stats.chisquare(observed, pmf / pmf.sum() * observed.sum()).pvalue < 1e-6


def test_at_least_dispatch_and_backend():
    z = es.discrete_laplace_at_least(2.0, 10)  # pooled
    assert z.dtype == np.int64 and z.shape == (10,)
    assert es.discrete_laplace_at_least(2.0, 5000).shape == (5000,)
    assert es.discrete_laplace_at_least(1000.0, 7).shape == (7,)  # above 64: the exact DLap
    b = SecureBackend("native")
    assert np.asarray(b.discrete_laplace_at_least(1.0, (2, 3))).shape == (2, 3)
    assert np.asarray(SecureBackend("opendp").discrete_laplace_at_least(1.0, 4)).shape == (4,)
    assert np.asarray(SeededBackend(1).discrete_laplace_at_least(1.0, 4)).shape == (4,)


# ------------------------------------------------------------------ AboveThreshold on integer queries


class _FakeSecure(SeededBackend):
    """A seeded backend that says it is floating-point safe (so AboveThreshold takes its integer path) and records
    the scales of its discrete draws: for checking scales and the vectorised path, never for privacy."""

    floating_point_safe = True

    def __init__(self, seed):
        super().__init__(seed)
        self.scales: list[float] = []

    def discrete_laplace_at_least(self, scale, size=None):
        self.scales.append(float(scale))
        return super().discrete_laplace(scale, size)


@pytest.mark.parametrize(
    "cls, threshold_scale, query_scale",
    [(AboveThreshold, 2.0, 4.0), (MonotoneAboveThreshold, 2.0, 2.0), (StepAboveThreshold, 1.0, 1.0)],
)
def test_integer_path_draws_at_c_delta_over_epsilon(cls, threshold_scale, query_scale):
    backend = _FakeSecure(1)
    at = cls(5.0, 0.5, sensitivity=2.0, backend=backend, integer_queries=True, threshold_batch=1, noise_batch=8)
    at.first_above(np.arange(0, 400, 2.0))
    assert backend.scales[0] == threshold_scale * 2.0 / 0.5  # the threshold noise, Δ = 2 units (no 2^10 grid)
    assert set(backend.scales[1:]) == {query_scale * 2.0 / 0.5}
    assert at._grid == 1.0 and at._units == 2


def test_integer_path_refuses_non_integers():
    at = StepAboveThreshold(5.0, 1.0, backend=SecureBackend(), integer_queries=True)
    with pytest.raises(DomainError, match="not an integer"):
        at.test(2.5)
    with pytest.raises(DomainError, match="not an integer"):
        at.first_above([1.0, 2.0, 2.5])
    with pytest.raises(PrivacyParameterError, match="integer sensitivity"):
        StepAboveThreshold(5.0, 1.0, sensitivity=0.5, backend=SecureBackend(), integer_queries=True)
    # on the seeded backend the flag checks the values too
    with pytest.raises(DomainError):
        StepAboveThreshold(5.0, 1.0, backend=SeededBackend(0), integer_queries=True).test(0.5)


@pytest.mark.parametrize("cls", [AboveThreshold, MonotoneAboveThreshold, StepAboveThreshold])
@pytest.mark.parametrize("secure", [True, False], ids=["integer-path", "seeded-path"])
def test_first_above_releases_what_test_releases(cls, secure):
    # values flat 3 below the threshold for 3000 rounds, then far above: the first ⊤ falls in the flat part, at a
    # round decided by the noise alone — so the vectorised path must add the same noise values in the same order as
    # test() (a dropped or shifted noise term moves it, or pushes it past the flat part)
    values = np.concatenate([np.full(3000, 37.0), np.full(100, 1000.0)])
    firsts = []
    for seed in range(5):
        make = lambda: cls(  # noqa: E731
            40.0,
            1.0,
            backend=_FakeSecure(seed) if secure else SeededBackend(seed),
            integer_queries=True,
            noise_batch=64,
        )
        a, b = make(), make()
        i = a.first_above(values)
        j = next((k for k, v in enumerate(values) if b.test(v)), -1)
        assert i == j, (seed, i, j)
        firsts.append(i)
    assert all(0 <= i < 3000 for i in firsts) and len(set(firsts)) > 1


def _dlap_difference_tail(a: int, q: float, top: int = 400) -> float:
    """P[ν − ρ ≥ a] for ν, ρ i.i.d. with P(z) ∝ q^|z| (a the gap below the threshold)."""
    z = np.arange(-top, top + 1)
    p = (1 - q) / (1 + q) * q ** np.abs(z)
    tail = np.cumsum(p[::-1])[::-1]  # tail[i] = P(ν ≥ z[i])
    idx = np.clip(z + a + top, 0, 2 * top)  # P(ν ≥ a + ρ)
    return float(np.sum(p * np.where(z + a > top, 0.0, tail[idx])))


@pytest.mark.parametrize("cls, scale", [(StepAboveThreshold, 1.0), (MonotoneAboveThreshold, 2.0)])
def test_secure_integer_path_calibration(cls, scale):
    # one integer query a = 4 below the threshold, a fresh run each time, on the real secure backend: P[⊤] =
    # P[ν − ρ ≥ 4] with both noises of parameter e^(−1/scale) (step ≈ 0.0224; halving either scale ≈ 0.007,
    # monotone ≈ 0.13 — all far outside the band)
    runs, a = 20_000, 4
    at = cls(0.0, 1.0, backend=SecureBackend(), integer_queries=True, threshold_batch=64)
    hits = 0
    for _ in range(runs):
        hits += at.test(-float(a))
        at.restart()
    expected = runs * _dlap_difference_tail(a, math.exp(-1.0 / scale))
    assert abs(hits - expected) < 5 * math.sqrt(expected), (hits, expected)
    halved = runs * _dlap_difference_tail(a, math.exp(-2.0 / scale))
    assert abs(halved - expected) > 10 * math.sqrt(expected)


def test_integer_accuracy_is_the_continuous_one_times_the_rounded_parameter():
    # no rounding on the unit grid (⌈τ⌉ is exact for integer values): only the factor 1 + 2^-20 of the rounded-up q
    seeded = StepAboveThreshold(3.0, 1.0, backend=SeededBackend(0), integer_queries=True).accuracy(1000, 0.05)
    secure = StepAboveThreshold(3.0, 1.0, backend=SecureBackend(), integer_queries=True).accuracy(1000, 0.05)
    assert secure == pytest.approx(seeded * (1 + 2**-20), rel=1e-12)


def test_integer_threshold_is_the_ceiling():
    # threshold 2.5: a count of 3 with zero noise is ⊤ (3 ≥ 2.5), a count of 2 is not — with round(2.5) = 2 it would be
    at = StepAboveThreshold(2.5, 1.0, backend=_FakeSecure(0), integer_queries=True)
    assert at._noisy_threshold - int(at._t_buffer[at._t_pos - 1]) == 3
