"""Parameter checks, budget accounting, backend construction."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone.errors import BudgetExceededError, EmptyDataError, PrivacyParameterError
from littlestone.privacy import (
    PrivacyBudget,
    SecureBackend,
    SeededBackend,
    bounded_histogram,
    check_delta,
    check_epsilon,
    exponential_mechanism,
    laplace_mechanism,
    make_backend,
    report_noisy_max,
    stable_histogram,
)

BAD_EPS = [0, -1.0, float("nan"), float("inf"), "x", None, True]
BAD_DELTA = [-0.1, 1.0, 2.0, float("nan"), "x"]


@pytest.mark.parametrize("eps", BAD_EPS)
def test_bad_epsilon_rejected_everywhere(eps):
    be = SeededBackend(0)
    with pytest.raises(PrivacyParameterError, match="epsilon"):
        check_epsilon(eps)
    with pytest.raises(PrivacyParameterError, match="epsilon"):
        laplace_mechanism(1.0, 1.0, eps, backend=be)
    with pytest.raises(PrivacyParameterError, match="epsilon"):
        exponential_mechanism([1, 2], eps, backend=be)
    with pytest.raises(PrivacyParameterError, match="epsilon"):
        stable_histogram([1, 2], eps, 1e-6, backend=be)


@pytest.mark.parametrize("delta", BAD_DELTA)
def test_bad_delta_rejected(delta):
    with pytest.raises(PrivacyParameterError, match="delta"):
        check_delta(delta)
    with pytest.raises(PrivacyParameterError, match="delta"):
        stable_histogram([1, 2], 1.0, delta, backend=SeededBackend(0))


def test_histograms_need_positive_delta():
    for mech in (stable_histogram, bounded_histogram):
        with pytest.raises(PrivacyParameterError, match="delta must be > 0"):
            mech([1, 2], 1.0, 0.0, backend=SeededBackend(0))


def test_nan_and_empty_scores():
    be = SeededBackend(0)
    for mech in (exponential_mechanism, report_noisy_max):
        with pytest.raises(PrivacyParameterError, match="NaN"):
            mech([1.0, float("nan")], 1.0, backend=be)
        with pytest.raises(EmptyDataError, match="empty"):
            mech([], 1.0, backend=be)
    with pytest.raises(EmptyDataError):
        stable_histogram([], 1.0, 1e-6, backend=be)


def test_backend_required_and_no_silent_mixing():
    with pytest.raises(PrivacyParameterError, match="backend is required"):
        laplace_mechanism(1.0, 1.0, 1.0, backend=None)
    with pytest.raises(PrivacyParameterError, match="cannot be seeded"):
        make_backend("secure", seed=3)
    with pytest.raises(PrivacyParameterError, match="unknown backend"):
        make_backend("fast")
    assert make_backend("secure").floating_point_safe is True
    assert make_backend("seeded", 1).floating_point_safe is False


def test_seeded_backend_reproducible_and_spawn():
    a, b = SeededBackend(42), SeededBackend(42)
    assert np.array_equal(a.laplace(1.0, 5), b.laplace(1.0, 5))
    assert exponential_mechanism(np.arange(10), 0.5, backend=a) == exponential_mechanism(np.arange(10), 0.5, backend=b)
    kids1 = [k.laplace(1.0, 3) for k in SeededBackend(7).spawn(3)]
    kids2 = [k.laplace(1.0, 3) for k in SeededBackend(7).spawn(3)]
    assert all(np.array_equal(x, y) for x, y in zip(kids1, kids2))
    assert not np.array_equal(kids1[0], kids1[1])
    assert all(isinstance(k, SecureBackend) for k in SecureBackend().spawn(2))


def test_budget_charges_and_refuses_before_overspending():
    budget = PrivacyBudget(1.0, 1e-6)
    for _ in range(3):
        laplace_mechanism(0.0, 1.0, 1 / 3, backend=SeededBackend(0), budget=budget)
    assert budget.spent[0] == pytest.approx(1.0)
    assert [c.what for c in budget.ledger] == ["laplace mechanism"] * 3
    with pytest.raises(BudgetExceededError, match="remains"):
        exponential_mechanism([1, 2], 0.1, backend=SeededBackend(0), budget=budget)
    assert len(budget.ledger) == 3  # the refused charge spent nothing
    with pytest.raises(BudgetExceededError):
        budget.charge(0.0, 2e-6, what="too much delta")
    assert budget.remaining == (pytest.approx(0.0, abs=1e-12), 1e-6)


def test_budget_records_exact_histogram_delta():
    budget = PrivacyBudget(2.0, 1e-5)
    rel = stable_histogram(["a"] * 40 + ["b"], 1.0, 1e-6, backend=SeededBackend(1), budget=budget)
    assert budget.spent == (1.0, rel.delta)
    assert rel.delta == pytest.approx(1e-6 / 4)


def test_tracker_budget_never_refuses():
    budget = PrivacyBudget(math.inf)
    for _ in range(100):
        budget.charge(10.0, what="x")
    assert budget.spent[0] == 1000.0
    with pytest.raises(PrivacyParameterError):
        PrivacyBudget(0.0)
    with pytest.raises(PrivacyParameterError):
        PrivacyBudget(1.0, 1.0)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(min_value=1e-3, max_value=1.0), min_size=1, max_size=20))
def test_budget_sum_of_parts_fits(parts):
    budget = PrivacyBudget(math.fsum(parts))  # the correctly rounded sum: sums are compared exactly (budget.py)
    for p in parts:
        budget.charge(p)
    assert budget.spent[0] == pytest.approx(sum(parts))


# ---------------------------------------------------------------------------------- advanced composition budget


def test_advanced_budget_allows_more_small_steps_than_basic():
    from littlestone.privacy import advanced_composition

    eps0, k, dp = 0.002, 1000, 1e-6
    total, _ = advanced_composition(eps0, 0.0, k, dp)  # ≈ 0.336 < k·eps0 = 2
    basic = PrivacyBudget(1.0, 1e-5)
    adv = PrivacyBudget(1.0, 1e-5, composition="advanced", delta_prime=dp)
    for i in range(k):
        adv.charge(eps0, what=f"step {i}")
    assert adv.spent == (pytest.approx(total), pytest.approx(dp))
    with pytest.raises(BudgetExceededError):
        for _ in range(k):
            basic.charge(eps0)
    assert len(basic.ledger) == 500  # basic composition stops after 1/eps0 steps
    # the advanced budget refuses, before overspending, the step that would push the bound past ε = 1
    n = len(adv.ledger)
    with pytest.raises(BudgetExceededError, match="advanced composition"):
        for _ in range(100_000):
            adv.charge(eps0)
    assert adv.spent[0] <= 1.0 + 1e-9 and adv.spent[1] <= 1e-5
    assert len(adv.ledger) > n


def test_advanced_budget_uses_basic_when_better_and_validates():
    from littlestone.privacy import heterogeneous_advanced_composition

    adv = PrivacyBudget(2.0, 1e-5, composition="advanced", delta_prime=1e-6)
    adv.charge(0.5, 1e-7)
    adv.charge(1.0)
    assert adv.spent == (1.5, 1e-7)  # two big steps: basic composition is the better bound, no δ' spent
    e, d = heterogeneous_advanced_composition([(0.5, 1e-7), (1.0, 0.0)], 1e-6)
    assert e == pytest.approx(math.sqrt(2 * math.log(1e6) * 1.25) + 0.5 * math.expm1(0.5) + math.expm1(1.0))
    assert d == pytest.approx(1e-7 + 1e-6)
    with pytest.raises(PrivacyParameterError, match="delta_prime"):
        PrivacyBudget(1.0, 1e-5, composition="advanced")
    with pytest.raises(PrivacyParameterError, match="smaller than the budget delta"):
        PrivacyBudget(1.0, 1e-6, composition="advanced", delta_prime=1e-6)
    with pytest.raises(PrivacyParameterError, match="only used with composition='advanced'"):
        PrivacyBudget(1.0, 1e-5, delta_prime=1e-6)
    with pytest.raises(PrivacyParameterError, match="'basic' or 'advanced'"):
        PrivacyBudget(1.0, composition="rdp")
    assert "advanced composition" in repr(adv)
    tracker = PrivacyBudget(math.inf, 0.5, composition="advanced", delta_prime=0.1)
    tracker.charge(1000.0)  # huge ε: no overflow
    assert tracker.spent[0] == 1000.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(min_value=1e-3, max_value=2.0), min_size=1, max_size=30))
def test_advanced_budget_spent_is_a_valid_composition_bound(parts):
    from littlestone.privacy import basic_composition, heterogeneous_advanced_composition

    budget = PrivacyBudget(math.inf, 0.5, composition="advanced", delta_prime=1e-6)
    for p in parts:
        budget.charge(p)
    e, d = budget.spent
    bounds = [
        basic_composition([(p, 0.0) for p in parts]),
        heterogeneous_advanced_composition([(p, 0.0) for p in parts], 1e-6),
    ]
    assert any(e == pytest.approx(b[0]) and d == pytest.approx(b[1]) for b in bounds)
    assert e == pytest.approx(min(b[0] for b in bounds))


# ---------------------------------------------------------------------- bad input: a clear error, never garbage


def _bad_input_cases():
    from littlestone.privacy import (
        SparseVector,
        above_threshold_accuracy,
        laplace_error_bound,
        selection_error_bound,
        stable_histogram_accuracy,
    )

    be = SeededBackend(0)
    return [
        ("laplace on text", lambda: laplace_mechanism("abc", 1.0, 1.0, backend=be), "must be numeric"),
        ("text scores", lambda: exponential_mechanism(["a", "b"], 1.0, backend=be), "1-D list of numbers"),
        ("2-D scores", lambda: report_noisy_max([[1, 2], [3, 4]], 1.0, backend=be), r"shape \(2, 2\)"),
        ("fractional c", lambda: SparseVector(0.0, 1.0, 1.5, backend=be), "max_positives must be an integer"),
        ("text c", lambda: SparseVector(0.0, 1.0, "a", backend=be), "max_positives must be an integer"),
        ("k = 0 coordinates", lambda: laplace_error_bound(1.0, 1.0, 0.1, 0), "number of coordinates"),
        ("no candidates", lambda: selection_error_bound(0, 1.0, 0.1), "number of candidates"),
        ("negative n", lambda: stable_histogram_accuracy(1.0, 0.1, -1, 0.1), "dataset size n"),
        ("text k", lambda: above_threshold_accuracy("x", 1.0, 0.1), "number of queries k"),
        ("negative seed", lambda: make_backend("seeded", -1), "non-negative int"),
    ]


@pytest.mark.parametrize("case", range(10))
def test_bad_input_is_named(case):
    name, call, match = _bad_input_cases()[case]
    from littlestone.errors import LittlestoneError

    with pytest.raises(LittlestoneError, match=match):
        call()
