"""Candidate events: feature classification, half-line grids reaching the tails, likelihood-ratio sets."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone.audit import audit_mechanism
from littlestone.audit.events import Features, candidate_events, classify, merge
from littlestone.audit.toy import LaplaceCount, RandomizedResponse
from littlestone.errors import LittlestoneError


def test_classify_kinds():
    assert classify([1, 2.5, np.float32(3)]).kind == "numeric"
    assert classify([(1, 2), (3.0, 4)]).kind == "vector"
    assert classify([True, False]).kind == "discrete"  # bools are atoms, not numbers
    assert classify(["a", None, 3]).kind == "discrete"
    assert classify([[1, "x"], [2, "y"]]).values == [(1, "x"), (2, "y")]
    with pytest.raises(LittlestoneError, match="no outputs"):
        classify([])
    with pytest.raises(LittlestoneError, match="featurize"):
        classify([{1, 2}])


def test_merge_reclassifies_mixed_chunks():
    merged = merge([classify([1.0, 2.0]), classify([None, 3.0])])
    assert merged.kind == "discrete" and merged.values == [1.0, 2.0, None, 3.0]


def test_halfline_grid_reaches_the_extreme_order_statistics():
    rng = np.random.default_rng(0)
    a, b = Features("numeric", rng.normal(size=5000)), Features("numeric", rng.normal(size=5000))
    cands = candidate_events(a, b)
    events = [cands.build(i) for i in range(len(cands.count_a))]
    cuts = sorted({e.threshold for e in events if e.kind == "above"})
    pooled = np.sort(np.concatenate([a.values, b.values]))
    assert cuts[0] == pooled[0] and cuts[-1] == pooled[-1] and pooled[-2] in cuts  # tail grid is geometric
    for i in (0, len(events) // 3, len(events) - 1):  # stored counts match the materialized events
        assert events[i].indicator(a).sum() == cands.count_a[i] and events[i].indicator(b).sum() == cands.count_b[i]


def test_likelihood_ratio_sets_are_nested_by_ratio():
    a = Features("discrete", ["x"] * 50 + ["y"] * 30 + ["z"] * 20)
    b = Features("discrete", ["x"] * 10 + ["y"] * 30 + ["z"] * 60)
    cands = candidate_events(a, b)
    first = cands.build(0)
    assert first.members == frozenset({"x"})  # the largest P_a/P_b ratio comes first
    assert cands.build(1).members == frozenset({"x", "y"})


@settings(max_examples=15, deadline=None)
@given(eps=st.floats(0.1, 3.0), seed=st.integers(0, 2**32 - 1), scale=st.floats(1.0, 3.0))
def test_valid_for_every_correct_mechanism(eps, seed, scale):
    """ε_lb ≤ ε for exactly-ε randomized response and for Laplace counts with at least the required noise."""
    rr = RandomizedResponse(eps)
    rep = audit_mechanism(lambda d, g, n: rr.batch(d, g, n), 1, 0, runs=4000, seed=seed, vectorized=True)
    assert rep.epsilon_lb <= eps
    lap = LaplaceCount(eps, scale)
    rep = audit_mechanism(lambda d, g, n: lap.batch(d, g, n), [1], [0], runs=4000, seed=seed, vectorized=True)
    assert rep.epsilon_lb <= eps / scale + 1e-12
