"""Issue 10 item 1: every mechanism is a Mechanism class holding its implementation; the module functions are thin
wrappers (same outputs for the same seed); privacy() is data-free and is exactly what the functions charge."""

import inspect
import math

import numpy as np
import pytest

import littlestone.experts as experts
from littlestone.errors import DomainError, PrivacyParameterError
from littlestone.privacy import (
    AboveThreshold,
    AboveThresholdRun,
    BinaryMechanism,
    BinaryMechanismRelease,
    BoundedHistogram,
    ExponentialMechanism,
    LaplaceMechanism,
    Mechanism,
    PrivacyBudget,
    PrivacyClaim,
    ReportNoisyMax,
    RunningSumAboveThreshold,
    RunningSumAboveThresholdRun,
    SeededBackend,
    SparseSelection,
    SparseVector,
    SparseVectorRun,
    StableHistogram,
    SubsampledMechanism,
    bounded_histogram,
    exponential_mechanism,
    laplace_mechanism,
    report_noisy_max,
    sparse_selection,
    stable_histogram,
    stable_histogram_threshold,
)
from littlestone.privacy.backends import seeded_laplace

ITEMS = ["a"] * 30 + ["b"] * 12 + ["c"]


def _function_runs():
    """(mechanism object, data, the module function called with a budget) for every function that charges."""
    return [
        (LaplaceMechanism(0.5, 1.0), 3.0, lambda b, be: laplace_mechanism(3.0, 1.0, 0.5, backend=be, budget=b)),
        (
            ExponentialMechanism(1.0),
            [0.0, 2.0],
            lambda b, be: exponential_mechanism([0.0, 2.0], 1.0, backend=be, budget=b),
        ),
        (ReportNoisyMax(1.0), [0.0, 2.0], lambda b, be: report_noisy_max([0.0, 2.0], 1.0, backend=be, budget=b)),
        (StableHistogram(1.0, 0.01), ITEMS, lambda b, be: stable_histogram(ITEMS, 1.0, 0.01, backend=be, budget=b)),
        (
            StableHistogram(1.0, 0.01, neighbours="add_remove", discrete=True),
            ITEMS,
            lambda b, be: stable_histogram(
                ITEMS, 1.0, 0.01, backend=be, budget=b, neighbours="add_remove", discrete=True
            ),
        ),
        (BoundedHistogram(1.0, 0.01), ITEMS, lambda b, be: bounded_histogram(ITEMS, 1.0, 0.01, backend=be, budget=b)),
        (
            SparseSelection(1.0, 0.01, 2),
            [["a", "b"], ["a"]],
            lambda b, be: sparse_selection([["a", "b"], ["a"]], 1.0, 0.01, backend=be, budget=b, max_list_size=2),
        ),
        (BinaryMechanismRelease(4, 1.0), [1, 0, 1, 1], lambda b, be: BinaryMechanism(4, 1.0, backend=be, budget=b)),
        (AboveThresholdRun(0.0, 1.0), [-5.0], lambda b, be: AboveThreshold(0.0, 1.0, backend=be, budget=b)),
        (
            RunningSumAboveThresholdRun(2.0, 1.0),
            [1.0],
            lambda b, be: RunningSumAboveThreshold(2.0, 1.0, backend=be, budget=b),
        ),
        (SparseVectorRun(0.0, 1.0, 3), [-5.0], lambda b, be: SparseVector(0.0, 1.0, 3, backend=be, budget=b)),
    ]


@pytest.mark.parametrize("index", range(len(_function_runs())))
def test_the_function_charges_exactly_the_objects_claim(index):
    mech, data, run = _function_runs()[index]
    budget = PrivacyBudget(math.inf, 0.5)
    run(budget, SeededBackend(0))
    claim = mech.resolve(SeededBackend(0)).privacy()
    assert [(c.epsilon, c.delta) for c in budget.ledger] == [claim.pair]
    # the object charges the same when called with a budget
    again = PrivacyBudget(math.inf, 0.5)
    mech(data, backend=SeededBackend(0), budget=again)
    assert [(c.epsilon, c.delta) for c in again.ledger] == [claim.pair]


@pytest.mark.parametrize("index", range(len(_function_runs())))
def test_privacy_is_data_free(index):
    mech, data, _ = _function_runs()[index]
    assert list(inspect.signature(type(mech).privacy).parameters) == ["self"]
    before = mech.privacy()
    mech(data, backend=SeededBackend(1))
    assert isinstance(before, PrivacyClaim) and mech.privacy() == before and isinstance(mech, Mechanism)


def test_histogram_claims_resolve_to_the_noise_the_backend_uses():
    hist = StableHistogram(1.0, 0.01)
    exact = {v: StableHistogram(1.0, 0.01, discrete=v).privacy().delta for v in (True, False)}
    assert hist.privacy().delta == max(exact.values())
    assert hist.resolve(False).privacy().delta == exact[False] and hist.resolve(True).privacy().delta == exact[True]
    assert hist.resolve(SeededBackend(0)).privacy().delta == exact[False] and hist.discrete is None
    assert stable_histogram(ITEMS, 1.0, 0.01, backend=SeededBackend(0)).delta == exact[False]


def test_wrappers_give_the_objects_outputs_for_the_same_seed():
    assert (
        laplace_mechanism([3.0, 4.0], 1.0, 0.5, backend=SeededBackend(7)).tolist()
        == LaplaceMechanism(0.5)([3.0, 4.0], backend=SeededBackend(7)).tolist()
    )
    assert dict(stable_histogram(ITEMS, 1.0, 0.01, backend=SeededBackend(7))) == dict(
        StableHistogram(1.0, 0.01)(ITEMS, backend=SeededBackend(7))
    )
    bm = BinaryMechanism(8, 1.0, backend=SeededBackend(7))
    stream = [1, 0, 1, 1, 0, 0, 1, 0]
    assert tuple(bm.step(x) for x in stream) == BinaryMechanismRelease(8, 1.0)(stream, backend=SeededBackend(7))


def test_outputs_pinned_from_before_the_refactor():
    """Values recorded with the module functions before the classes held the implementation (seed 7); the Laplace
    draws re-derived from the seeded backend's sampler (issue 34: b·Exp(1)·sign, the first two Laplace(2) draws of
    seed 7 are z below; the values before it were 3 + 0.5759, 4 + 3.1639 with NumPy's inverse-CDF Laplace)."""
    z = seeded_laplace(np.random.default_rng(7), 2.0, 2)
    assert (
        laplace_mechanism([3.0, 4.0], 1.0, 0.5, backend=SeededBackend(7)).tolist()
        == (np.array([3.0, 4.0]) + z).tolist()
    )
    assert z.tolist() == [-1.415058511583843, -2.05040669658981]
    assert exponential_mechanism([0.0, 1.0, 2.0, 1.5], 1.0, backend=SeededBackend(7)) == 3
    # the histogram draws one Laplace(2) per distinct item (a, b, c: three draws, so other signs than z's)
    h = seeded_laplace(np.random.default_rng(7), 2.0, 3)
    assert sorted(stable_histogram(ITEMS, 1.0, 0.01, backend=SeededBackend(7)).items()) == [
        ("a", 30 + h[0]),
        ("b", 12 + h[1]),
    ]
    assert 1 + h[2] < stable_histogram_threshold(1.0, 0.01) < 12 + h[1]  # c suppressed
    assert sorted(
        bounded_histogram(["a"] * 60 + ["b"] * 12 + ["c"], 1.0, 0.01, backend=SeededBackend(7), discrete=True).items()
    ) == [("a", 61), ("b", 16)]
    bm = BinaryMechanism(8, 1.0, backend=SeededBackend(7))
    assert [bm.step(x) for x in [1, 0, 1]] == [-1.830117023167686, -1.3013310253994548, 1.972863604133551]  # issue 34


def test_ledger_labels_unchanged():
    b = PrivacyBudget(100.0, 0.5)
    laplace_mechanism(1.0, 1.0, 0.5, backend=SeededBackend(7), budget=b)
    exponential_mechanism([0.0, 1.0], 1.0, backend=SeededBackend(7), budget=b)
    report_noisy_max([0.0, 1.0], 1.0, backend=SeededBackend(7), budget=b)
    stable_histogram(["a"] * 5, 1.0, 0.01, backend=SeededBackend(7), budget=b)
    bounded_histogram(["a"] * 5, 1.0, 0.01, backend=SeededBackend(7), budget=b)
    sparse_selection([["a"]], 1.0, 0.01, backend=SeededBackend(7), max_list_size=1, budget=b)
    BinaryMechanism(4, 1.0, backend=SeededBackend(7), budget=b)
    at = AboveThreshold(0.0, 1.0, backend=SeededBackend(7), budget=b)
    at.test(50.0)
    at.restart()
    SparseVector(0.0, 1.0, 3, backend=SeededBackend(7), budget=b)
    assert [(c.epsilon, c.delta, c.what) for c in b.ledger] == [
        (0.5, 0.0, "laplace mechanism"),
        (1.0, 0.0, "exponential mechanism"),
        (1.0, 0.0, "report noisy max"),
        (1.0, 0.002500000000000001, "stable histogram"),
        (1.0, 0.009999999999999995, "bounded histogram"),
        (1.0, 0.01, "sparse selection"),
        (1.0, 0.0, "binary mechanism (T=4)"),
        (1.0, 0.0, "AboveThreshold"),
        (1.0, 0.0, "AboveThreshold restart"),
        (1.0, 0.0, "sparse vector (c=3)"),
    ]


def test_parameters_are_checked_once_at_construction():
    with pytest.raises(PrivacyParameterError):
        StableHistogram(1.0, 0.1, neighbours="swap")
    with pytest.raises(PrivacyParameterError):
        SparseSelection(1.0, 0.1, 0)
    with pytest.raises(DomainError):
        AboveThresholdRun(math.inf, 1.0)
    with pytest.raises(DomainError):
        BinaryMechanismRelease(0, 1.0)
    with pytest.raises(DomainError):
        SubsampledMechanism(LaplaceMechanism(1.0), 11, 10)


def test_subsampled_mechanism_claims_the_amplified_epsilon_and_checks_the_public_n():
    sub = SubsampledMechanism(LaplaceMechanism(2.0), 5, 10)
    assert sub.privacy().epsilon == pytest.approx(math.log1p(0.5 * math.expm1(2.0)))
    budget = PrivacyBudget(math.inf)
    sub(np.zeros(10), backend=SeededBackend(0), budget=budget)
    assert budget.ledger[0].epsilon == sub.privacy().epsilon
    with pytest.raises(DomainError, match="public n"):
        sub(np.zeros(9), backend=SeededBackend(0))


def test_one_claim_type_for_the_experts_learners():
    assert experts.PrivacyClaim is PrivacyClaim
    claim = experts.TreeAggregationHedge(4, 8, 1.0, backend="seeded", seed=0).privacy()
    assert isinstance(claim, PrivacyClaim) and claim.relation == "replace-one-round"
    eps, delta = claim
    assert (eps, delta) == (1.0, 0.0)
