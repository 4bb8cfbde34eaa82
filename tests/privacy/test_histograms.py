"""Stable histogram (BLM20 Lemma 15, BNS16 Prop 2.20) and bounded histogram (LWY25 Thm 2.6)."""

import math

import numpy as np
import pytest
from scipy import stats

from littlestone.errors import EmptyDataError, PrivacyParameterError
from littlestone.privacy import (
    SecureBackend,
    SeededBackend,
    bounded_histogram,
    bounded_histogram_error_bound,
    stable_histogram,
    stable_histogram_accuracy,
    stable_histogram_delta,
    stable_histogram_threshold,
    truncation_bound,
)
from littlestone.privacy.stable_histogram import count_one_release_probability

BACKENDS = [pytest.param(lambda: SeededBackend(21), id="seeded"), pytest.param(SecureBackend, id="opendp")]


def discrete_tail(m, b):
    """P[Z ≥ m] for discrete Laplace(b) by direct summation of the pmf."""
    t = math.exp(-1 / b)
    z = np.arange(m, m + 4000)
    return float(((1 - t) / (1 + t) * t ** np.abs(z)).sum())


def test_threshold_and_exact_delta():
    eps, delta = 0.8, 1e-5
    tau = stable_histogram_threshold(eps, delta)
    assert tau == pytest.approx(1 + (2 / eps) * math.log(2 / delta))
    assert stable_histogram_delta(eps, tau, discrete=False) == pytest.approx(delta / 4)
    d_disc = stable_histogram_delta(eps, tau, discrete=True)
    assert d_disc == pytest.approx(discrete_tail(math.floor(tau - 1) + 1, 2 / eps), rel=1e-9)
    assert d_disc <= delta
    # a huge delta: δ₁ exceeds 1 - e^{-ε/2} and the reported δ picks up the e^{ε/2} factor
    d1 = count_one_release_probability(0.1, 1.0, discrete=False)
    assert stable_histogram_delta(0.1, 1.0, discrete=False) == pytest.approx(math.exp(0.05) * d1)


@pytest.mark.parametrize("make", BACKENDS)
def test_release_fields_and_types(make):
    be = make()
    rel = stable_histogram(["x"] * 200 + ["y"] * 5 + ["z"], 1.0, 1e-6, backend=be)
    assert "x" in rel and "z" not in rel
    assert rel.n is None and rel.noise_scale == 2.0 and rel.epsilon == 1.0
    assert rel.threshold == stable_histogram_threshold(1.0, 1e-6)
    assert rel.delta <= rel.requested_delta == 1e-6
    assert rel.estimate("z") == 0.0
    assert rel.most_common(1)[0][0] == "x"
    assert rel.noise == ("discrete_laplace" if be.floating_point_safe else "laplace")
    assert "HistogramRelease" in repr(rel)


def test_numpy_items_and_rows():
    be = SeededBackend(0)
    rel = stable_histogram(np.array([3] * 100 + [4]), 1.0, 1e-6, backend=be)
    assert list(rel) == [3] and isinstance(next(iter(rel)), int)
    rel2 = stable_histogram(np.array([[0, 1]] * 100), 1.0, 1e-6, backend=be)
    assert list(rel2) == [(0, 1)]
    with pytest.raises(PrivacyParameterError, match="hashable"):
        stable_histogram([[1], [2]], 1.0, 1e-6, backend=be)
    with pytest.raises(PrivacyParameterError, match="NaN"):
        stable_histogram([1.0, float("nan")], 1.0, 1e-6, backend=be)
    with pytest.raises(EmptyDataError):
        bounded_histogram(np.array([]), 1.0, 1e-6, backend=be)


@pytest.mark.parametrize("make", BACKENDS)
def test_stable_histogram_utility(make):
    # BNS16 Prop 2.20: w.p. ≥ 1-β every count ≥ τ + a is released, released values within a, released counts ≥ τ - a
    be = make()
    eps, delta, beta = 1.0, 1e-6, 0.05
    counts = {"big": 0, "mid": 0}
    acc = stable_histogram_accuracy(eps, delta, n=1, beta=beta, discrete=be.floating_point_safe)
    n_big = math.ceil(acc["always_released_from"]) + 1
    items = ["big"] * n_big + [f"u{i}" for i in range(40)] + ["mid"] * 10
    acc = stable_histogram_accuracy(eps, delta, n=len(items), beta=beta, discrete=be.floating_point_safe)
    failures = 0
    runs = 200
    for _ in range(runs):
        rel = stable_histogram(items, eps, delta, backend=be)
        ok = n_big < acc["always_released_from"] or "big" in rel
        ok = ok and all(abs(rel[k] - items.count(k)) <= acc["noise_bound"] for k in rel)
        ok = ok and all(items.count(k) >= acc["never_released_below"] for k in rel)
        failures += not ok
        counts["mid"] += "mid" in rel
    assert failures / runs <= beta
    assert counts["mid"] == 0  # count 10 far below τ ≈ 30: release would need noise > 20 = 10 scales


@pytest.mark.parametrize("make", BACKENDS)
def test_count_one_items_released_at_the_derived_rate(make):
    # large δ makes the rare event visible: the empirical release rate of count-1 items matches δ₁
    be = make()
    eps, delta = 1.0, 0.4
    disc = be.floating_point_safe
    rel0 = stable_histogram(["a"], eps, delta, backend=be)
    d1 = count_one_release_probability(eps, rel0.threshold, discrete=disc)
    released, trials = 0, 0
    for _ in range(15):
        rel = stable_histogram([f"s{i}" for i in range(200)], eps, delta, backend=be)
        released += len(rel)
        trials += 200
    assert stats.binomtest(released, trials, d1).pvalue > 1e-4


# ----------------------------------------------------------------------------------------- bounded histogram


@pytest.mark.parametrize("discrete", [False, True])
def test_truncation_bound_exact_delta(discrete):
    for eps, delta in [(0.1, 1e-6), (0.5, 1e-3), (1.0, 1e-9), (3.0, 0.1)]:
        big_a, spent = truncation_bound(eps, delta, discrete=discrete)
        assert spent <= delta * (1 + 1e-9)
        if eps <= 1:
            assert 1 + 2 * big_a <= 8 * math.log(8 / delta) / eps  # LWY25 Theorem 2.6's bound
        if discrete:  # A is the least integer with P[Z = A] ≤ δ/2
            t = math.exp(-eps / 2)
            mass = lambda a: t**a / sum(t ** abs(z) for z in range(-a, a + 1))  # noqa: E731
            assert mass(int(big_a)) <= delta / 2 < (mass(int(big_a) - 1) if big_a > 1 else 1)


@pytest.mark.parametrize("make", BACKENDS)
def test_bounded_histogram_error_is_deterministic(make):
    be = make()
    eps, delta = 0.5, 1e-4
    rng = np.random.default_rng(1)
    items = list(rng.geometric(0.05, size=800))
    true = {x: items.count(x) for x in set(items)}
    for _ in range(30):
        rel = bounded_histogram(items, eps, delta, backend=be)
        bound = rel.error_bound
        assert bound == bounded_histogram_error_bound(eps, delta, discrete=be.floating_point_safe)
        assert all(abs(rel.estimate(x) - c) <= bound for x, c in true.items())
        assert all(abs(rel[x] - true[x]) <= rel.meta["truncation"] for x in rel)
        assert all(true[x] > 1 for x in rel)  # count-1 items are never released


def test_bounded_histogram_noise_law_seeded():
    # truncated Laplace: KS test of the noise on one big count against the truncated law
    be = SeededBackend(8)
    eps, delta = 2.0, 0.2
    big_a, _ = truncation_bound(eps, delta, discrete=False)
    b = 2 / eps
    noise = np.array([bounded_histogram(["a"] * 100, eps, delta, backend=be)["a"] - 100 for _ in range(1500)])
    assert np.abs(noise).max() <= big_a
    norm = 1 - math.exp(-big_a / b)

    def cdf(z):
        z = np.clip(z, -big_a, big_a)
        tail = 0.5 * (np.exp(-np.abs(z) / b) - math.exp(-big_a / b)) / norm
        return np.where(z < 0, tail, 1 - tail)

    assert stats.kstest(noise, cdf).pvalue > 1e-4


@pytest.mark.parametrize("discrete", [False, True])
def test_add_remove_variant(discrete):
    eps, delta = 0.7, 1e-4
    tau = stable_histogram_threshold(eps, delta, "add_remove")
    assert tau == pytest.approx(1 + math.log(1 / (2 * delta)) / eps)
    d = stable_histogram_delta(eps, tau, discrete=discrete, neighbours="add_remove")
    if discrete:
        assert d == pytest.approx(discrete_tail(math.floor(tau - 1) + 1, 1 / eps), rel=1e-9)
    else:
        assert d == pytest.approx(delta)
    rel = stable_histogram(["a"] * 60, eps, delta, backend=SeededBackend(0), discrete=discrete, neighbours="add_remove")
    assert rel.noise_scale == pytest.approx(1 / eps) and rel.meta["neighbours"] == "add_remove"
    assert rel.spent == (eps, d)
    with pytest.raises(PrivacyParameterError, match="neighbours"):
        stable_histogram(["a"], eps, delta, backend=SeededBackend(0), neighbours="swap")


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 12), min_size=1, max_size=300),
    st.floats(0.05, 5.0),
    st.floats(1e-9, 0.9),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_histogram_invariants(items, eps, delta, discrete, seed):
    true = {x: items.count(x) for x in set(items)}
    for neighbours in ("replace", "add_remove"):
        rel = stable_histogram(items, eps, delta, backend=SeededBackend(seed), discrete=discrete, neighbours=neighbours)
        assert set(rel) <= set(true)
        assert 0 < rel.delta <= delta * (1 + 1e-9)
        assert all(v > rel.threshold for v in rel.values())
    bounded = bounded_histogram(items, eps, delta, backend=SeededBackend(seed), discrete=discrete)
    assert 0 < bounded.delta <= delta * (1 + 1e-9)
    assert all(abs(bounded.estimate(x) - c) <= bounded.error_bound for x, c in true.items())
    assert all(true[x] >= 2 for x in bounded)


def test_threshold_raised_when_discrete_delta_would_exceed_request():
    # add/remove, discrete, ε = 0.5, δ = 0.375: the spec τ = 1.575 gives P[Z ≥ 1] = t/(1+t) ≈ 0.3775 > δ
    from littlestone.privacy.stable_histogram import calibrated_threshold

    tau, spent = calibrated_threshold(0.5, 0.375, discrete=True, neighbours="add_remove")
    assert tau == 2.0 and spent == pytest.approx(math.exp(-1.0) / (1 + math.exp(-0.5)))
    assert spent <= 0.375
    rel = stable_histogram([0], 0.5, 0.375, backend=SeededBackend(0), discrete=True, neighbours="add_remove")
    assert rel.threshold == 2.0 and rel.delta == spent


# ------------------------------------------------------------------- BLM20 Lemma 15 (frequency form, constants)


def test_lemma15_sample_size_has_the_lemma_rate():
    from littlestone.privacy import stable_histogram_sample_size

    ratios = []
    for eta in (0.1, 0.01, 0.001):
        for eps in (1.0, 0.1):
            for delta in (1e-6, 1e-9):
                n = stable_histogram_sample_size(eta, eps, delta, 0.05)
                ratios.append(n * eta * eps / math.log(1 / (eta * 0.05 * delta)))
                acc = stable_histogram_accuracy(eps, delta, n, 0.05)
                assert eta * n >= acc["threshold"] + acc["noise_bound"]  # the stated sufficient condition …
                acc1 = stable_histogram_accuracy(eps, delta, n - 1, 0.05)
                assert eta * (n - 1) < acc1["threshold"] + acc1["noise_bound"]  # … and n is the least such
    assert 1.0 <= min(ratios) and max(ratios) <= 4.0  # n = Θ(log(1/(ηβδ))/(ηε)), constant ≈ 2.5
    with pytest.raises(PrivacyParameterError, match="eta"):
        stable_histogram_sample_size(0.0, 1.0, 1e-6, 0.05)


@pytest.mark.parametrize("make", BACKENDS)
def test_lemma15_guarantee_holds_at_the_computed_size(make):
    """Worst case for both properties: one item at frequency exactly η, the rest singletons (n distinct-ish items)."""
    from littlestone.privacy import stable_histogram_sample_size

    be = make()
    eta, eps, delta, beta = 0.2, 1.0, 1e-3, 0.1
    n = stable_histogram_sample_size(eta, eps, delta, beta, discrete=be.floating_point_safe)
    heavy = math.ceil(eta * n)
    items = ["heavy"] * heavy + [f"s{i}" for i in range(n - heavy)]
    runs, failures = 300, 0
    for _ in range(runs):
        rel = stable_histogram(items, eps, delta, backend=be)
        freq = rel.frequencies(n)
        ok = "heavy" in freq and all(abs(f - (heavy if k == "heavy" else 1) / n) <= eta for k, f in freq.items())
        failures += not ok
    assert failures / runs <= beta


# ---------------------------------------------------------------- issue 9 items 3 and 4: what a release carries


@pytest.mark.parametrize("make", BACKENDS)
def test_release_holds_no_exact_size(make):
    rel = stable_histogram(["a"] * 60 + ["b"], 1.0, 0.01, backend=make(), neighbours="add_remove")
    assert rel.n is None and "61" not in repr(rel)
    with pytest.raises(PrivacyParameterError, match="public dataset size"):
        rel.frequencies()
    assert rel.frequencies(100)["a"] == pytest.approx(min(rel["a"] / 100, 1.0))
    assert stable_histogram(["a"] * 60, 1.0, 0.01, backend=make(), n=64).frequencies()["a"] <= 1.0


@pytest.mark.parametrize("make", BACKENDS)
@pytest.mark.parametrize("mechanism", [stable_histogram, bounded_histogram])
def test_release_keys_canonical_in_order_and_object(make, mechanism):
    first_a = ["a"] * 40 + ["b"] * 40
    first_b = ["b"] * 40 + ["a"] * 40
    assert (
        list(mechanism(first_a, 1.0, 0.01, backend=make()))
        == list(mechanism(first_b, 1.0, 0.01, backend=make()))
        == ["a", "b"]
    )
    rel = mechanism([1.0] + [1] * 40 + [np.int64(2)] * 40, 1.0, 0.01, backend=make())
    assert [type(k) for k in rel] == [int, int] and list(rel) == [1, 2]
    mixed = mechanism([(1, "x")] * 40 + [3.5] * 40 + ["z"] * 40, 1.0, 0.01, backend=make())
    assert list(mixed) == [3.5, "z", (1, "x")] or list(mixed) == [3.5, (1, "x"), "z"]


def test_most_common_ties_follow_canonical_order():
    from littlestone.privacy import HistogramRelease

    rel = HistogramRelease(
        counts={"a": 5.0, "b": 5.0},
        threshold=1.0,
        noise_scale=1.0,
        epsilon=1.0,
        delta=0.0,
        n=None,
        requested_delta=0.0,
        noise="laplace",
        backend="x",
    )
    assert [k for k, _ in rel.most_common()] == ["a", "b"]
