"""Noise backends: exact samplers (default, floating-point safe) and a seeded NumPy backend (reproducible).

A mechanism receives its backend explicitly and draws every random number from it; no mechanism ever falls back to
another backend. The SecureBackend's discrete Laplace (and the raw ``laplace`` built on it) comes from
:mod:`.exact_sampling` by default (``sampler="native"``: OpenDP's law, exact integer arithmetic over ``os.urandom``,
vectorised — OpenDP's per-call cost of 6–8 µs per draw made per-round learners slow); ``SecureBackend("opendp")`` or
``LITTLESTONE_SECURE_SAMPLER=opendp`` draws them in OpenDP, the vetted reference. What each SecureBackend call maps
to in OpenDP 0.16 (with ``sampler="opendp"``; the native sampler draws the same law for the discrete calls):

* ``laplace(b)``            -> ``make_laplace`` on ``vector_domain(atom_domain(float))`` applied to a zero vector
                               (native: 2^k · discrete Laplace(b/2^k) with k = ⌈log₂ b⌉ − 50 — OpenDP's own
                               construction, on a grid relative to b instead of OpenDP's 2^-60, rounded to float)
* ``add_laplace(v, b)``     -> the same measurement applied to ``v`` itself
* ``discrete_laplace(b)``   -> ``make_laplace`` on ``vector_domain(atom_domain(i64))`` (OpenDP's discrete Laplace,
                               P(z) ∝ exp(-|z|/b)) applied to a zero vector; ``add_discrete_laplace`` applies it to ints
* ``discrete_laplace_at_least(b)`` -> the same as ``discrete_laplace(b)`` with ``sampler="opendp"``; native: for
                               b ≤ 64 P(z) ∝ q^|z| with q = e^(-1/b) rounded UP to a multiple of 2^-32 (at least the
                               privacy of DLap(b) for every integer shift; exact in integers, ~20× cheaper per draw;
                               AboveThreshold's unit grid for integer queries), else the exact DLap(b)
* ``noisy_argmax(s, b, "gumbel")``      -> ``make_noisy_max`` with the zCDP output measure (Gumbel(b) noise, exact)
* ``noisy_argmax(s, b, "exponential")`` -> ``make_noisy_max`` with ``max_divergence`` (Exponential(b) noise, i.e.
                               permute-and-flip)
* ``uniform``               -> OpenDP exposes no raw uniform sampler: the OS CSPRNG (os.urandom), 53 random bits.
                               For data-independent random choices only (never added to data).
* ``gumbel``                -> refused: an inverse-CDF Gumbel in floats is not floating-point safe; use
                               ``noisy_argmax`` (OpenDP's exact Gumbel-max) instead.

Floating-point safety on the SecureBackend: no mechanism adds noise to data in float arithmetic. Noise reaches data
only inside OpenDP (``add_laplace``: OpenDP's float Laplace on its 2^k grid; ``noisy_argmax``) or in exact integer
arithmetic (``add_discrete_laplace``; AboveThreshold's integer grid). ``laplace(b)`` returns raw noise samples: adding
them to data in floats yourself reintroduces Mironov's attack — use ``add_laplace``.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from .._random import SeedLike, as_generator, spawn_seeds
from ..errors import PrivacyParameterError
from .exact_sampling import discrete_laplace_at_least as exact_discrete_laplace_at_least
from .exact_sampling import discrete_laplace_draws as exact_discrete_laplace
from .exact_sampling import laplace_on_grid
from .params import check_scale

Size = int | tuple[int, ...] | None
NoiseKind = Literal["gumbel", "exponential"]


def _count(size: Size) -> int:
    if size is None:
        return 1
    return int(np.prod(size)) if isinstance(size, tuple) else int(size)


def _shape(values: np.ndarray, size: Size) -> Any:
    if size is None:
        return values[0].item()
    return values.reshape(size)


def _check_scores(scores: Any) -> np.ndarray:
    try:
        arr = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise PrivacyParameterError(f"scores must be a 1-D list of numbers, got {str(scores)[:60]!r}") from None
    if arr.ndim > 1:
        raise PrivacyParameterError(f"scores must be a 1-D list of numbers (one per candidate), got shape {arr.shape}")
    arr = arr.ravel()
    if arr.size == 0:
        from ..errors import EmptyDataError

        raise EmptyDataError("no candidates: the score list is empty")
    if np.isnan(arr).any():
        raise PrivacyParameterError(f"score {int(np.flatnonzero(np.isnan(arr))[0])} is NaN")
    if np.isinf(arr).any():
        raise PrivacyParameterError(f"score {int(np.flatnonzero(np.isinf(arr))[0])} is infinite")
    return arr


class Backend(ABC):
    """Source of all noise of a mechanism. ``floating_point_safe`` says whether the samplers resist the
    floating-point attacks on textbook Laplace (Mironov 2012)."""

    name: str
    floating_point_safe: bool

    @abstractmethod
    def laplace(self, scale: float, size: Size = None) -> Any:
        """Laplace(0, scale) noise: density exp(-|z|/scale)/(2 scale)."""

    @abstractmethod
    def discrete_laplace(self, scale: float, size: Size = None) -> Any:
        """Discrete Laplace noise on the integers: P(z) ∝ exp(-|z|/scale)."""

    def discrete_laplace_at_least(self, scale: float, size: Size = None) -> Any:
        """Integer noise with P(z) ∝ q^|z| for some q with exp(−1/scale) ≤ q < 1: every integer shift s changes a
        probability by a factor ≤ e^(|s|/scale), as DLap(scale)'s — what AboveThreshold's proof uses. Default: the
        exact DLap(scale) (:meth:`discrete_laplace`); the secure native sampler draws a dyadic q (cheaper)."""
        return self.discrete_laplace(scale, size)

    @abstractmethod
    def gumbel(self, scale: float, size: Size = None) -> Any:
        """Gumbel(0, scale) noise (CDF exp(-exp(-z/scale)))."""

    @abstractmethod
    def uniform(self, size: Size = None) -> Any:
        """Uniform[0, 1) numbers."""

    @abstractmethod
    def noisy_argmax(self, scores: Any, scale: float, noise: NoiseKind = "gumbel") -> int:
        """Index of max(scores + i.i.d. noise); Gumbel noise gives P(i) ∝ exp(score_i/scale)."""

    @abstractmethod
    def spawn(self, n: int) -> list["Backend"]:
        """n independent backends of the same kind (for parallel workers)."""

    def add_laplace(self, values: Any, scale: float) -> np.ndarray:
        """values + i.i.d. Laplace(scale), as a float array."""
        v = np.asarray(values, dtype=float)
        return v + np.asarray(self.laplace(scale, v.shape if v.ndim else None), dtype=float)

    def add_discrete_laplace(self, values: Any, scale: float) -> np.ndarray:
        """integer values + i.i.d. discrete Laplace(scale), as an int64 array."""
        v = np.asarray(values, dtype=np.int64)
        return v + np.asarray(self.discrete_laplace(scale, v.shape if v.ndim else None), dtype=np.int64)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, floating_point_safe={self.floating_point_safe})"


# --------------------------------------------------------------------------------------------- OpenDP backend


@lru_cache(maxsize=1)
def _dp() -> Any:
    """OpenDP's core modules under the names of ``opendp.prelude`` (``dp.vector_domain``, ``dp.m.make_laplace``, ...).
    Not the prelude itself: it also imports OpenDP's extras (scikit-learn, SciPy, Polars), 0.6 s more at first use."""
    from types import SimpleNamespace

    import opendp.domains
    import opendp.measurements
    import opendp.measures
    import opendp.metrics
    import opendp.mod

    opendp.mod.enable_features("contrib")
    return SimpleNamespace(
        vector_domain=opendp.domains.vector_domain,
        atom_domain=opendp.domains.atom_domain,
        l1_distance=opendp.metrics.l1_distance,
        linf_distance=opendp.metrics.linf_distance,
        max_divergence=opendp.measures.max_divergence,
        zero_concentrated_divergence=opendp.measures.zero_concentrated_divergence,
        m=opendp.measurements,
    )


@lru_cache(maxsize=256)
def _float_laplace(scale: float) -> Any:
    dp = _dp()
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float)
    return dp.m.make_laplace(*space, scale=scale)


@lru_cache(maxsize=256)
def _float_laplace_sized(scale: float, n: int) -> Any:
    # Same Laplace on a sized domain with an explicit noise granularity 2^-60: ~3x faster sampling in OpenDP 0.16.
    # Only used on a zero vector (already on the grid), so the granularity changes nothing but the output's grid.
    dp = _dp()
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False), size=n), dp.l1_distance(T=float)
    return dp.m.make_laplace(*space, scale=scale, k=-60)


@lru_cache(maxsize=256)
def _int_laplace(scale: float) -> Any:
    dp = _dp()
    space = dp.vector_domain(dp.atom_domain(T="i64")), dp.l1_distance(T="i64")
    return dp.m.make_laplace(*space, scale=scale)


@lru_cache(maxsize=256)
def _noisy_max(scale: float, noise: str) -> Any:
    dp = _dp()
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.linf_distance(T=float)
    # OpenDP picks the noise distribution from the output measure: MaxDivergence -> Exponential (permute-and-flip),
    # ZeroConcentratedDivergence -> Gumbel. We only use the sampler; privacy is accounted by the calling mechanism.
    measure = dp.zero_concentrated_divergence() if noise == "gumbel" else dp.max_divergence()
    return dp.m.make_noisy_max(*space, measure, scale=scale)


def _csprng_uniform(n: int) -> np.ndarray:
    bits = np.frombuffer(os.urandom(8 * n), dtype=np.uint64) >> np.uint64(11)
    return bits.astype(np.float64) * (1.0 / 2**53)


#: Environment variable choosing the SecureBackend's discrete sampler when none is passed: "native" or "opendp".
SAMPLER_ENV = "LITTLESTONE_SECURE_SAMPLER"
SAMPLERS = ("native", "opendp")


def _default_sampler() -> str:
    kind = os.environ.get(SAMPLER_ENV, "native").strip().lower() or "native"
    if kind not in SAMPLERS:
        raise PrivacyParameterError(f"{SAMPLER_ENV}={kind!r}: expected 'native' or 'opendp'")
    return kind


class SecureBackend(Backend):
    """Exact, floating-point-safe samplers over OS randomness; unseeded by design, so not reproducible.

    ``sampler="native"`` (default; or the environment variable ``LITTLESTONE_SECURE_SAMPLER``) draws discrete Laplace
    noise with :mod:`littlestone.privacy.exact_sampling` — the same law as OpenDP's, exact in integers (CKS20
    Alg. 1–2, vectorised), ~15–20× cheaper per draw — and raw ``laplace`` noise as 2^k times such a draw (OpenDP's
    grid construction with k = ⌈log₂ b⌉ − 50). ``sampler="opendp"`` draws everything through OpenDP, the vetted
    reference. ``add_laplace`` and ``noisy_argmax`` always run in OpenDP."""

    name = "opendp"
    floating_point_safe = True

    def __init__(self, sampler: str | None = None):
        if sampler is None:
            sampler = _default_sampler()
        if sampler not in SAMPLERS:
            raise PrivacyParameterError(f"sampler must be 'native' or 'opendp', got {sampler!r}")
        self.sampler = sampler

    def __repr__(self) -> str:
        return f"SecureBackend(sampler={self.sampler!r})"

    def laplace(self, scale: float, size: Size = None) -> Any:
        b = check_scale(scale)
        n = _count(size)
        if self.sampler == "native":
            z, k = laplace_on_grid(b, n)
            return _shape(np.ldexp(z.astype(np.float64), k), size)
        # Laplace noise added to the zero vector is the noise itself: OpenDP's measurement returns x + Z with Z drawn
        # independently of x (exact discrete sampling on a 2^k grid), so at x = 0 it returns Z.
        meas = _float_laplace_sized(b, n) if n >= 32 and b >= 2.0**-30 else _float_laplace(b)
        return _shape(np.asarray(meas([0.0] * n), dtype=float), size)

    def add_laplace(self, values: Any, scale: float) -> np.ndarray:
        b = check_scale(scale)
        v = np.asarray(values, dtype=float)
        out = np.asarray(_float_laplace(b)(v.ravel().tolist()), dtype=float)
        return out.reshape(v.shape)

    def discrete_laplace(self, scale: float, size: Size = None) -> Any:
        b = check_scale(scale)
        n = _count(size)
        if self.sampler == "native":
            return _shape(exact_discrete_laplace(b, n), size)
        return _shape(np.asarray(_int_laplace(b)([0] * n), dtype=np.int64), size)

    def discrete_laplace_at_least(self, scale: float, size: Size = None) -> Any:
        """The native sampler: :func:`~littlestone.privacy.exact_sampling.discrete_laplace_at_least` (q = e^(−1/b)
        rounded up to 2^-32, exact in integers, for b ≤ 64; the exact DLap(b) above); OpenDP's exact DLap(b) with
        ``sampler="opendp"``."""
        b = check_scale(scale)
        if self.sampler == "native":
            return _shape(exact_discrete_laplace_at_least(b, _count(size)), size)
        return self.discrete_laplace(b, size)

    def add_discrete_laplace(self, values: Any, scale: float) -> np.ndarray:
        b = check_scale(scale)
        v = np.asarray(values, dtype=np.int64)
        if self.sampler == "native":  # exact integer addition (OpenDP's measurement adds in integers too)
            return v + exact_discrete_laplace(b, v.size).reshape(v.shape)
        out = np.asarray(_int_laplace(b)(v.ravel().tolist()), dtype=np.int64)
        return out.reshape(v.shape)

    def gumbel(self, scale: float, size: Size = None) -> Any:
        check_scale(scale)
        raise PrivacyParameterError(
            "SecureBackend has no raw Gumbel sampler: inverse-CDF Gumbel noise in floats is not floating-point safe. "
            "Use noisy_argmax(scores, scale) (OpenDP's exact Gumbel-max) or SeededBackend for experiments"
        )

    def uniform(self, size: Size = None) -> Any:
        return _shape(_csprng_uniform(_count(size)), size)

    def noisy_argmax(self, scores: Any, scale: float, noise: NoiseKind = "gumbel") -> int:
        b = check_scale(scale)
        arr = _check_scores(scores)
        if noise not in ("gumbel", "exponential"):
            raise PrivacyParameterError(f"noise must be 'gumbel' or 'exponential', got {noise!r}")
        if arr.size == 1:
            return 0
        return int(_noisy_max(b, noise)(arr.tolist()))

    def spawn(self, n: int) -> list[Backend]:
        return [SecureBackend(self.sampler) for _ in range(int(n))]


# --------------------------------------------------------------------------------------------- NumPy backend

_SHIFTS = np.arange(64, dtype=np.uint64)
_SIGN_BIT = np.uint64(1 << 63)
_SIGN_CHUNK = 1 << 14  # signs applied in chunks of this many draws (a multiple of 64): the masks stay in cache


def seeded_laplace(rng: np.random.Generator, b: float, n: int) -> np.ndarray:
    """n i.i.d. Laplace(0, b) draws from ``rng`` as b·Exp(1)·(random sign): ``standard_exponential(n)`` for the
    magnitudes, then ⌈n/64⌉ raw 64-bit words of the same generator for the signs (bit 63 − i of word j signs draw
    64j + i, set into the IEEE sign bit of the non-negative magnitude), then the scaling. Not floating-point safe (a
    seeded experiment sampler). The stream does not depend on the chunking (magnitudes first, then all the words)."""
    e = rng.standard_exponential(n)
    words = rng.bit_generator.random_raw((n + 63) >> 6)
    bits = e.view(np.uint64)
    for start in range(0, n, _SIGN_CHUNK):
        stop = min(n, start + _SIGN_CHUNK)
        signs = (words[start >> 6 : (stop + 63) >> 6, None] << _SHIFTS).ravel()[: stop - start]
        signs &= _SIGN_BIT
        bits[start:stop] |= signs
        e[start:stop] *= b
    return e


class SeededBackend(Backend):
    """NumPy samplers from one caller-given seed: reproducible and fast, NOT floating-point safe (experiments, audits)."""

    name = "numpy-seeded"
    floating_point_safe = False

    def __init__(self, seed: SeedLike = None):
        self._seed = seed
        self.rng: np.random.Generator = as_generator(seed)

    def laplace(self, scale: float, size: Size = None) -> Any:
        """Laplace(0, scale) as scale·E·S, E ~ Exp(1) (NumPy's ziggurat ``standard_exponential``) and S a uniform
        random sign, independent: |Z| ~ Exp(scale) and sign(Z) a fair coin independent of it, which is the Laplace law
        (density e^{−|z|/b}/(2b) = ½·e^{−|z|/b}/b on each half-line). The signs are packed 64 to a raw 64-bit word of
        the same generator. ≈ 0.33–0.4× the CPU cost of ``rng.laplace`` (inverse CDF, one log per draw) per draw from
        a few thousand draws per call (the segments' AboveThreshold batches of 4,096); a call of 64 draws or fewer
        pays a fixed ~2 µs more (benchmarks/bench_seeded_laplace.py)."""
        b = check_scale(scale)
        if size is None:
            e = self.rng.standard_exponential()
            return -b * e if self.rng.bit_generator.random_raw() & 1 else b * e
        return seeded_laplace(self.rng, b, _count(size)).reshape(size)

    def discrete_laplace(self, scale: float, size: Size = None) -> Any:
        b = check_scale(scale)
        p = -np.expm1(-1.0 / b)  # 1 - e^{-1/b}
        # Difference of two i.i.d. geometrics with success probability 1 - e^{-1/b} has P(z) ∝ e^{-|z|/b}.
        z = np.asarray(self.rng.geometric(p, size), dtype=np.int64) - np.asarray(
            self.rng.geometric(p, size), dtype=np.int64
        )
        return int(z) if size is None else z

    def gumbel(self, scale: float, size: Size = None) -> Any:
        return self.rng.gumbel(0.0, check_scale(scale), size)

    def uniform(self, size: Size = None) -> Any:
        return self.rng.random(size)

    def noisy_argmax(self, scores: Any, scale: float, noise: NoiseKind = "gumbel") -> int:
        b = check_scale(scale)
        arr = _check_scores(scores)
        if noise == "gumbel":
            z = self.rng.gumbel(0.0, b, arr.size)
        elif noise == "exponential":
            z = self.rng.exponential(b, arr.size)
        else:
            raise PrivacyParameterError(f"noise must be 'gumbel' or 'exponential', got {noise!r}")
        return int(np.argmax(arr + z))

    def spawn(self, n: int) -> list[Backend]:
        return [SeededBackend(np.random.default_rng(s)) for s in spawn_seeds(self.rng, int(n))]


def make_backend(kind: str = "secure", seed: SeedLike = None) -> Backend:
    """``"secure"`` (exact samplers over OS randomness, unseeded; see :class:`SecureBackend` for the OpenDP switch)
    or ``"seeded"`` (NumPy from ``seed``)."""
    if kind == "secure":
        if seed is not None:
            raise PrivacyParameterError(
                "the secure (OpenDP) backend cannot be seeded; use make_backend('seeded', seed) for reproducible runs"
            )
        return SecureBackend()
    if kind == "seeded":
        if not (seed is None or isinstance(seed, (np.random.SeedSequence, np.random.Generator))) and (
            isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0
        ):
            raise PrivacyParameterError(
                f"seed must be None, a non-negative int, a SeedSequence or a numpy Generator, got {seed!r}"
            )
        return SeededBackend(seed)
    raise PrivacyParameterError(f"unknown backend kind {kind!r}: expected 'secure' or 'seeded'")


def check_backend(backend: Any) -> Backend:
    """The backend itself, or a clear error when none (or something else) was passed."""
    if isinstance(backend, Backend):
        return backend
    if backend is None:
        raise PrivacyParameterError("a noise backend is required: pass backend=SecureBackend() or SeededBackend(seed)")
    raise PrivacyParameterError(f"backend must be a littlestone.privacy Backend, not {type(backend).__name__}")
