"""The seeded backend's Laplace sampler (issue 34 item 5): b·Exp(1)·(random sign) with packed sign bits is the
Laplace(0, b) law. Each check is against the exact law (CDF, tails, symmetry, independence of sign and magnitude),
at several scales, on both paths (vector and scalar), with a false-alarm rate ≤ 1e-4 per check on fixed seeds; the
last tests show each check has power against the mistakes a sampler like this one can make (scale halved, a
sign shared by a word, a biased sign, magnitudes leaking into signs)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from littlestone.privacy import backends
from littlestone.privacy.backends import SeededBackend, seeded_laplace

SCALES = (0.37, 1.0, 6.5)
N = 200_000
ALPHA = 1e-4


def _draws(b: float, n: int = N, seed: int = 20261128) -> np.ndarray:
    return np.asarray(SeededBackend(seed).laplace(b, n), dtype=float)


def ks_ok(z: np.ndarray, b: float) -> bool:
    return stats.kstest(z, stats.laplace(scale=b).cdf).pvalue > ALPHA


def scale_ok(z: np.ndarray, b: float) -> bool:
    """mean |Z| = b: |Z| ~ Exp(b) has sd b, so the mean of n is within 4.5·b/√n of b w.p. > 1 − 1e-5."""
    return abs(float(np.abs(z).mean()) - b) < 4.5 * b / math.sqrt(z.size)


def tails_ok(z: np.ndarray, b: float) -> bool:
    """P(|Z| > t·b) = e^{−t} for t = 0.5, 1, 2, 4, 8 (two-sided binomial tests, Bonferroni over the t's)."""
    n = z.size
    for t in (0.5, 1.0, 2.0, 4.0, 8.0):
        k = int(np.count_nonzero(np.abs(z) > t * b))
        if stats.binomtest(k, n, math.exp(-t)).pvalue < ALPHA / 5:
            return False
    return True


def symmetric_ok(z: np.ndarray) -> bool:
    """P(Z < 0) = ½, and the two half-lines carry the same law of |Z| (two-sample KS of −Z|Z<0 vs Z|Z>0)."""
    neg = int(np.count_nonzero(z < 0))
    if stats.binomtest(neg, z.size, 0.5).pvalue < ALPHA / 2:
        return False
    return stats.ks_2samp(-z[z < 0], z[z > 0]).pvalue > ALPHA / 2


def sign_independent_ok(z: np.ndarray) -> bool:
    """sign ⟂ magnitude (χ² of sign × decile of |Z|), sign ⟂ position in its 64-bit word (χ² of sign × i mod 64)
    and consecutive signs independent (χ² of the 2×2 table of (sign_i, sign_{i+1}))."""
    neg = (z < 0).astype(int)
    dec = np.searchsorted(np.quantile(np.abs(z), np.linspace(0.1, 0.9, 9)), np.abs(z))
    tables = [
        np.array([np.bincount(dec[neg == s], minlength=10) for s in (0, 1)]),
        np.array([np.bincount((np.arange(z.size) % 64)[neg == s], minlength=64) for s in (0, 1)]),
        np.bincount(2 * neg[:-1] + neg[1:], minlength=4).reshape(2, 2),
    ]
    return all(stats.chi2_contingency(t).pvalue > ALPHA / 3 for t in tables)


@pytest.mark.parametrize("b", SCALES)
def test_vector_draws_follow_the_laplace_law(b):
    z = _draws(b)
    assert ks_ok(z, b)
    assert scale_ok(z, b)
    assert tails_ok(z, b)
    assert symmetric_ok(z)
    assert sign_independent_ok(z)


def test_scalar_draws_follow_the_laplace_law():
    be = SeededBackend(7)
    z = np.array([be.laplace(2.0) for _ in range(40_000)])
    assert all(isinstance(be.laplace(2.0), float) for _ in range(3))
    assert ks_ok(z, 2.0) and scale_ok(z, 2.0) and tails_ok(z, 2.0) and symmetric_ok(z) and sign_independent_ok(z)


def test_many_small_batches_follow_the_law():
    """Batches of 1…70 draws (partial words, the AboveThreshold batch sizes) concatenated: still Laplace(b)."""
    be = SeededBackend(11)
    z = np.concatenate([np.asarray(be.laplace(1.5, 1 + i % 70)) for i in range(6000)])
    assert ks_ok(z, 1.5) and scale_ok(z, 1.5) and symmetric_ok(z)


def test_shapes_and_reproducibility():
    a, b = SeededBackend(3), SeededBackend(3)
    x = a.laplace(1.0, (3, 50))
    assert x.shape == (3, 50) and np.array_equal(x, b.laplace(1.0, (3, 50)))
    assert a.laplace(1.0) == b.laplace(1.0)
    assert a.laplace(1.0, 0).shape == (0,) and a.laplace(1.0, (0, 4)).shape == (0, 4)
    assert np.isfinite(seeded_laplace(np.random.default_rng(0), 1e-300, 1000)).all()


# ------------------------------------------------------------------------------------------ the checks have power


def _wrong(kind: str, b: float, n: int = N, seed: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    e = rng.standard_exponential(n)
    if kind == "halved":
        return seeded_laplace(rng, b / 2, n)
    if kind == "word_sign":  # one sign per 64-bit word instead of one per draw
        s = np.repeat(rng.integers(0, 2, (n + 63) // 64), 64)[:n]
        return b * e * (1 - 2 * s)
    if kind == "biased_sign":  # P(−) = 0.51
        return b * e * np.where(rng.random(n) < 0.51, -1, 1)
    if kind == "sign_from_magnitude":  # the sign follows the magnitude's lowest mantissa bit... and its size
        return b * e * np.where((e > 1.0) & (rng.random(n) < 0.52), -1, np.where(e <= 1.0, rng.choice([-1, 1], n), 1))
    if kind == "one_sided_bits":  # sign bit only from a 63-bit word: bit 63 never set
        return np.abs(seeded_laplace(rng, b, n)) * np.where(np.arange(n) % 64 == 0, 1, np.sign(rng.random(n) - 0.5))
    raise ValueError(kind)


def test_scale_checks_catch_a_halved_scale():
    z = _wrong("halved", 2.0)
    assert not scale_ok(z, 2.0) and not ks_ok(z, 2.0) and not tails_ok(z, 2.0)


@pytest.mark.parametrize("kind", ["word_sign", "biased_sign", "sign_from_magnitude", "one_sided_bits"])
def test_sign_checks_catch_broken_signs(kind):
    z = _wrong(kind, 1.0)
    assert not (symmetric_ok(z) and sign_independent_ok(z))


def test_the_backend_itself_fails_the_checks_when_its_scale_is_halved(monkeypatch):
    """The runtime mutation the learner-level tests use: the module function draws at b/2."""
    real = backends.seeded_laplace
    monkeypatch.setattr(backends, "seeded_laplace", lambda rng, b, n: real(rng, b / 2, n))
    z = _draws(1.0)
    assert not scale_ok(z, 1.0) and not ks_ok(z, 1.0)
