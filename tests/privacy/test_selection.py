"""Exponential mechanism, report-noisy-max, sparse selection: distributions and utility bounds."""

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from littlestone.errors import EmptyDataError, PrivacyParameterError
from littlestone.privacy import (
    BOTTOM,
    PrivacyBudget,
    SecureBackend,
    SeededBackend,
    exponential_mechanism,
    exponential_probabilities,
    report_noisy_max,
    selection_error_bound,
    sparse_selection,
    sparse_selection_bottom_score,
    sparse_selection_error_bound,
    sparse_selection_probabilities,
)

BACKENDS = [pytest.param(lambda: SeededBackend(5), id="seeded"), pytest.param(SecureBackend, id="opendp")]


@pytest.mark.parametrize("make", BACKENDS)
def test_exponential_mechanism_distribution(make):
    be = make()
    scores, eps, sens = np.array([0.0, 1.0, 3.0, 2.0]), 1.2, 1.0
    runs = 3000
    picks = np.bincount(
        [exponential_mechanism(scores, eps, sensitivity=sens, backend=be) for _ in range(runs)], minlength=4
    )
    p = exponential_probabilities(scores, eps, sensitivity=sens)
    assert p[2] == pytest.approx(math.exp(1.8) / sum(math.exp(0.6 * s) for s in scores))
    assert stats.chisquare(picks, runs * p).pvalue > 1e-4


@pytest.mark.parametrize("make", BACKENDS)
def test_report_noisy_max_permute_and_flip_law(make):
    # two candidates with scores 0 and 1, exponential noise of scale b = 2/ε: P(pick 1) = 1 - e^{-1/b}/2
    be, eps = make(), 1.0
    runs = 3000
    hits = sum(report_noisy_max([0.0, 1.0], eps, backend=be) for _ in range(runs))
    p1 = 1 - 0.5 * math.exp(-eps / 2)
    assert stats.binomtest(hits, runs, p1).pvalue > 1e-4


@pytest.mark.parametrize("mech", [exponential_mechanism, report_noisy_max])
def test_selection_utility_bound(mech):
    # Dwork–Roth Thm 3.11: score ≥ OPT - 2Δ(ln|R| + ln(1/β))/ε with prob ≥ 1-β
    be = SeededBackend(9)
    rng = np.random.default_rng(0)
    scores = rng.integers(0, 50, size=200).astype(float)
    eps, beta = 0.5, 0.1
    bound = selection_error_bound(scores.size, eps, beta)
    bad = sum(scores.max() - scores[mech(scores, eps, backend=be)] > bound for _ in range(400))
    assert bad / 400 <= beta


def test_single_candidate_and_budget():
    budget = PrivacyBudget(1.0)
    assert exponential_mechanism([4.2], 0.5, backend=SecureBackend(), budget=budget) == 0
    assert report_noisy_max([4.2], 0.5, backend=SeededBackend(0), budget=budget) == 0
    assert budget.spent == (1.0, 0.0)


# ----------------------------------------------------------------------------------------- sparse selection


def test_sparse_selection_parameters():
    assert sparse_selection_bottom_score(1.0, 1e-6, 5) == pytest.approx(10 * math.log(5e6) / 0.5)
    with pytest.raises(EmptyDataError):
        sparse_selection([], 1.0, 1e-6, backend=SeededBackend(0), max_list_size=1)
    # an over-long list is cut to its s first elements in a canonical order, never refused (that would depend on the
    # private data): element 3 can never come out
    outs = {sparse_selection([[3, 1, 2]], 50.0, 0.5, backend=SeededBackend(i), max_list_size=2) for i in range(200)}
    assert 3 not in outs and outs <= {1, 2, BOTTOM}
    probs = sparse_selection_probabilities([[3, 1, 2]], 1.0, 1e-6, max_list_size=2)
    assert 3 not in probs and set(probs) == {1, 2, BOTTOM}
    with pytest.raises(PrivacyParameterError, match="delta"):
        sparse_selection([[1]], 1.0, 0.0, backend=SeededBackend(0), max_list_size=2)
    with pytest.raises(TypeError, match="max_list_size"):  # required: a data-dependent s would void the guarantee
        sparse_selection([[1]], 1.0, 1e-6, backend=SeededBackend(0))


def test_sparse_selection_bottom_is_an_ordinary_output():
    be = SeededBackend(1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sparse_selection([[], [], []], 1.0, 1e-3, backend=be, max_list_size=3) is BOTTOM
        # a single user's element is essentially never output (that would break privacy)
        outs = [sparse_selection([["secret"]], 1.0, 1e-3, backend=be, max_list_size=1) for _ in range(300)]
    assert all(o is BOTTOM for o in outs)
    assert repr(BOTTOM) == "BOTTOM"


@pytest.mark.parametrize("make", BACKENDS)
def test_sparse_selection_finds_the_popular_element(make):
    be = make()
    eps, delta, s = 1.0, 1e-6, 3
    m = 400
    lists = [["popular", f"noise{i}", f"other{i % 7}"] for i in range(m)]
    outs = [sparse_selection(lists, eps, delta, backend=be, max_list_size=s) for _ in range(50)]
    assert outs.count("popular") >= 48


def test_sparse_selection_error_bound_and_support():
    # outputs are always in some list or ⊥; count error ≤ B + τ with prob ≥ 1-β (GKM20 Lemma 36)
    be = SeededBackend(11)
    rng = np.random.default_rng(3)
    eps, delta, s, beta = 2.0, 1e-3, 4, 0.1
    m = 120
    lists = [list(rng.choice(30, size=s, replace=False, p=np.r_[0.3, np.full(29, 0.7 / 29)])) for _ in range(m)]
    present = {x for lst in lists for x in lst}
    counts = {x: sum(x in lst for lst in lists) for x in present}
    opt = max(counts.values())
    bound = sparse_selection_error_bound(m, s, eps, delta, beta)
    errors = []
    for _ in range(200):
        out = sparse_selection(lists, eps, delta, backend=be, max_list_size=s)
        assert out is BOTTOM or out in present
        errors.append(opt - (0 if out is BOTTOM else counts[out]))
    assert np.mean(np.array(errors) > bound) <= beta


def test_sparse_selection_reproducible_with_seed():
    lists = [["a", "b"], ["b", "c"], ["b"]] * 30
    r1 = [sparse_selection(lists, 3.0, 1e-2, backend=SeededBackend(4), max_list_size=2) for _ in range(1)]
    r2 = [sparse_selection(lists, 3.0, 1e-2, backend=SeededBackend(4), max_list_size=2) for _ in range(1)]
    assert r1 == r2


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 9), max_size=4), min_size=1, max_size=40),
    st.floats(0.05, 20.0),
    st.floats(1e-9, 0.9),
    st.integers(0, 2**32 - 1),
)
def test_sparse_selection_output_is_held_by_someone_or_bottom(lists, eps, delta, seed):
    budget = PrivacyBudget(eps, delta)
    out = sparse_selection(lists, eps, delta, backend=SeededBackend(seed), budget=budget, max_list_size=4)
    assert out is BOTTOM or any(out in lst for lst in lists)
    assert budget.spent == (eps, delta)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=50), st.floats(1e-3, 50.0), st.integers(0, 2**32 - 1))
def test_selection_returns_valid_index(scores, eps, seed):
    be = SeededBackend(seed)
    for mech in (exponential_mechanism, report_noisy_max):
        i = mech(scores, eps, backend=be)
        assert 0 <= i < len(scores)
    p = exponential_probabilities(scores, eps)
    assert p.sum() == pytest.approx(1.0) and np.all(p >= 0)


# ---------------------------------------------------------------- sparse selection: exact privacy for every (ε, δ)


def _hockey_stick(P, Q, eps):
    return sum(max(0.0, p - math.exp(eps) * Q.get(o, 0.0)) for o, p in P.items())


def _adversarial_pairs(s, bottom):
    """Neighbouring inputs (one user's list replaced): k users hold a common list, the changed user holds a list
    sharing 'a' with them or entirely new elements, vs new elements / the common list / nothing."""
    for k in sorted({0, 1, 2, max(int(bottom) - 1, 0), int(bottom), int(bottom) + 1, int(bottom) + 3}):
        others = [["a"] + [f"o{j}" for j in range(s - 1)]] * k
        for mine in (["a"] + [f"x{j}" for j in range(s - 1)], [f"x{j}" for j in range(s)]):
            for theirs in ([f"y{j}" for j in range(s)], ["a"] + [f"o{j}" for j in range(s - 1)], [], ["a"]):
                yield others + [mine], others + [theirs]


@pytest.mark.parametrize("eps", [0.05, 1.0, 5.0, 20.0, 100.0])
@pytest.mark.parametrize("delta", [1e-9, 0.1, 0.5, 0.9])
@pytest.mark.parametrize("s", [1, 3])
def test_sparse_selection_exact_delta_within_claim_for_every_epsilon(eps, delta, s):
    """The exact hockey-stick divergence at ε on adversarial neighbours is ≤ δ. With the spec's B = 10 ln(s/δ)/ε_s
    alone this fails, e.g. ε = 20, δ = 0.5, s = 1: a lone user's element is output w.p. 0.96."""
    bottom = sparse_selection_bottom_score(eps, delta, s)
    for D, Dp in _adversarial_pairs(s, bottom):
        P = sparse_selection_probabilities(D, eps, delta, s)
        Q = sparse_selection_probabilities(Dp, eps, delta, s)
        assert max(_hockey_stick(P, Q, eps), _hockey_stick(Q, P, eps)) <= delta * (1 + 1e-9), (D, Dp)


def test_sparse_selection_bottom_score_keeps_the_spec_value_for_small_epsilon():
    assert sparse_selection_bottom_score(1.0, 1e-6, 5) == pytest.approx(10 * math.log(5e6) / 0.5)
    # large ε: the spec value would be 10·ln(2)/10 ≈ 0.69 — not private; the derived term takes over
    b = sparse_selection_bottom_score(20.0, 0.5, 1)
    assert b == pytest.approx(1 + (math.log(2.0) + math.log1p(math.exp(10.0))) / 10.0)
    law = sparse_selection_probabilities([["a"]], 20.0, 0.5, 1)
    assert law["a"] <= 0.5 and set(law) == {"a", BOTTOM}


def test_sparse_selection_law_matches_sampler():
    be = SeededBackend(4)
    lists = [["a", "b"]] * 5 + [["b"]] * 2 + [["c"]]
    law = sparse_selection_probabilities(lists, 2.0, 0.2, 2)
    runs = 20_000
    outs = [sparse_selection(lists, 2.0, 0.2, backend=be, max_list_size=2) for _ in range(runs)]
    for o, p in law.items():
        assert abs(outs.count(o) / runs - p) <= 5 * math.sqrt(p * (1 - p) / runs) + 1e-9, o


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"max_list_size": 1.5}, "max_list_size"),
        ({"max_list_size": "x"}, "max_list_size"),
        ({"max_list_size": 0}, "max_list_size"),
        ({"max_list_size": True}, "max_list_size"),
    ],
)
def test_sparse_selection_bad_list_size(kwargs, match):
    with pytest.raises(PrivacyParameterError, match=match):
        sparse_selection([["a"]], 1.0, 0.1, backend=SeededBackend(0), **kwargs)


def test_sparse_selection_rejects_strings_as_lists():
    with pytest.raises(PrivacyParameterError, match="not a string"):
        sparse_selection("abc", 1.0, 0.1, backend=SeededBackend(0), max_list_size=1)
    with pytest.raises(PrivacyParameterError, match="wrap it"):
        sparse_selection(["abc", "de"], 1.0, 0.1, backend=SeededBackend(0), max_list_size=3)
    with pytest.raises(PrivacyParameterError, match="number of users"):
        sparse_selection_error_bound(0, 1, 1.0, 0.1, 0.1)
