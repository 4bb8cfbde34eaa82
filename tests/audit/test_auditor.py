"""The auditor on mechanisms with exactly known privacy loss: validity (ε_lb ≤ ε), power, determinism, bad input."""

import math

import numpy as np
import pytest

from littlestone.audit import AuditReport, Event, audit_mechanism
from littlestone.audit.toy import LaplaceCount, RandomizedResponse
from littlestone.errors import LittlestoneError, PrivacyParameterError


def rr_batch(eps):
    rr = RandomizedResponse(eps)
    return lambda bit, rng, n: rr.batch(bit, rng, n)


@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0])
def test_randomized_response_bound_is_valid_and_tight(eps):
    rep = audit_mechanism(rr_batch(eps), 1, 0, runs=200_000, seed=3, vectorized=True, claimed_epsilon=eps)
    assert rep.passed and rep.epsilon_lb <= eps
    assert rep.epsilon_lb >= 0.9 * eps  # the optimal event {output = 1} is found and certified
    assert rep.event in ("output > 0", "output < 1", "output ∈ {1.0}", "output ∈ {0.0}")


def test_randomized_response_per_run_calls_agree_with_vectorized_law():
    rep = audit_mechanism(RandomizedResponse(1.0), 1, 0, runs=20_000, seed=0, claimed_epsilon=1.0)
    assert rep.passed and rep.epsilon_lb > 0.6
    assert rep.p_hat == pytest.approx(math.e / (1 + math.e), abs=0.02)


def test_laplace_count_passes_and_half_noise_is_caught():
    good = audit_mechanism(LaplaceCount(1.0), [1, 1, 0], [1, 0, 0], runs=20_000, seed=1, claimed_epsilon=1.0)
    bad = audit_mechanism(LaplaceCount(1.0, scale=0.5), [1, 1, 0], [1, 0, 0], runs=20_000, seed=1, claimed_epsilon=1.0)
    assert good.passed and good.epsilon_lb > 0.5
    assert not bad.passed and bad.epsilon_lb > 1.3


def test_same_seed_same_report_for_any_number_of_jobs():
    kwargs = dict(runs=6000, seed=11, claimed_epsilon=1.0, chunk_size=1000)
    one = audit_mechanism(LaplaceCount(1.0), [1, 1], [1, 0], jobs=1, **kwargs)
    two = audit_mechanism(LaplaceCount(1.0), [1, 1], [1, 0], jobs=2, **kwargs)
    assert (one.epsilon_lb, one.event, one.p_hat, one.q_hat) == (two.epsilon_lb, two.event, two.p_hat, two.q_hat)
    other = audit_mechanism(LaplaceCount(1.0), [1, 1], [1, 0], jobs=1, **{**kwargs, "seed": 12})
    assert other.p_hat != one.p_hat


def test_delta_is_accounted_for():
    """Output the secret bit with probability δ, else 0: exactly (0, δ)-DP."""

    def leak(bit, rng, n):
        return np.where(rng.random(n) < 0.1, bit, 0)

    ok = audit_mechanism(leak, 1, 0, runs=20_000, seed=2, delta=0.1, vectorized=True, claimed_epsilon=0.0)
    assert ok.passed and ok.epsilon_lb == 0.0 and ok.delta_lb <= 0.1
    bad = audit_mechanism(leak, 1, 0, runs=20_000, seed=2, delta=0.05, vectorized=True, claimed_epsilon=1.0)
    assert not bad.passed and bad.q_hat == 0.0
    assert bad.delta_lb > 0.05


def test_custom_events_featurize_and_report_rows():
    rr = RandomizedResponse(1.0)
    rep = audit_mechanism(
        lambda d, g: {"bit": rr(d, g)},
        1,
        0,
        runs=5000,
        seed=4,
        featurize=lambda out: out["bit"],
        events=[("bit is one", lambda b: b == 1), Event("bit is zero", "custom", predicate=lambda b: b == 0)],
        claimed_epsilon=1.0,
        name="rr",
    )
    assert rep.event in ("bit is one", "bit is zero") and rep.candidates == 4
    rows = dict(rep.as_rows())
    assert rows["verdict"] == "PASS" and rows["mechanism"] == "rr"
    assert "epsilon lower bound" in str(rep)
    assert isinstance(rep, AuditReport) and rep.total_runs == 2 * (5000 + 1250)


def test_vector_and_hashable_outputs():
    def two_counts(data, rng):
        return (data[0] + rng.laplace(0, 1.0), data[1] + rng.laplace(0, 1.0))

    rep = audit_mechanism(two_counts, (0, 0), (1, 0), runs=10_000, seed=5, claimed_epsilon=1.0)
    assert rep.passed and rep.event.startswith(("output[0]", "sum(output)"))
    rep = audit_mechanism(lambda d, g: ("yes",) if RandomizedResponse(1.0)(d, g) else None, 1, 0, runs=5000, seed=5)
    assert 0.3 < rep.epsilon_lb <= 1.0 and rep.passed is None


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(runs=0), LittlestoneError, "runs"),
        (dict(confidence=1.0), LittlestoneError, "confidence"),
        (dict(delta=1.0), PrivacyParameterError, "delta"),
        (dict(delta=-0.1), PrivacyParameterError, "delta"),
        (dict(jobs=0), LittlestoneError, "jobs"),
        (dict(claimed_epsilon=-1.0), PrivacyParameterError, "claimed_epsilon"),
        (dict(randomness="quantum"), LittlestoneError, "randomness"),
        (dict(seed=-3), LittlestoneError, "seed"),
    ],
)
def test_bad_parameters_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        audit_mechanism(RandomizedResponse(1.0), 1, 0, **{"runs": 200, **kwargs})


def test_bad_mechanisms_are_named():
    with pytest.raises(LittlestoneError, match="hashable"):
        audit_mechanism(lambda d, g: {"a": 1}, 1, 0, runs=200, seed=0)
    with pytest.raises(LittlestoneError, match="vectorized mechanism must return 200"):
        audit_mechanism(lambda d, g, n: [0] * 3, 1, 0, runs=200, selection_runs=200, seed=0, vectorized=True)
    with pytest.raises(LittlestoneError, match="callable"):
        audit_mechanism("laplace", 1, 0, runs=200)


@pytest.mark.slow
def test_validity_over_many_seeds_at_modest_confidence():
    """At confidence 0.9 the bound may exceed ε in ≤ 10% of audits; at 1 − 1e-6 never in 40."""
    over_90 = [
        audit_mechanism(rr_batch(1.0), 1, 0, runs=20_000, seed=s, vectorized=True, confidence=0.9).epsilon_lb > 1.0
        for s in range(200)
    ]
    assert sum(over_90) <= 35  # binomial(200, 0.1) has mean 20
    assert all(
        audit_mechanism(rr_batch(1.0), 1, 0, runs=20_000, seed=s, vectorized=True).epsilon_lb <= 1.0 for s in range(40)
    )
