"""Property-based checks (hypothesis) shared by the structured classes on large domains: restrict_sample equals
sequential restriction, soa_predict agrees with soa(), split points keep Ldim ≥ Ldim − 1 on both sides."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone.classes import AllFunctions, Intervals, Points, PointsAndNegations, Stumps

N = 2**60
CLASSES = {
    "points": Points(),
    "intervals": Intervals(N),
    "allfunctions": AllFunctions(N),
    "pointsneg": PointsAndNegations(),
    "stumps": Stumps(N),
}

# a few centres so that random points collide and positives/negatives interact
points = st.one_of(st.integers(0, 12), st.integers(N // 2 - 6, N // 2 + 6), st.integers(0, N - 1))
examples = st.lists(st.tuples(points, st.integers(0, 1)), max_size=10)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(CLASSES)), sample=examples, probes=st.lists(points, min_size=1, max_size=5))
def test_structured_class_invariants(name, sample, probes):
    H = CLASSES[name]
    X = np.array([x for x, _ in sample], dtype=np.int64)
    y = np.array([v for _, v in sample], dtype=np.int64)
    V, k = H.version_space().restrict_sample(X, y)
    W, j = H.version_space(), 0
    for x, v in sample:
        W2 = W.restrict(x, v)
        if W2.is_empty():
            break
        W, j = W2, j + 1
    assert (V, k) == (W, j)
    d = W.ldim()
    s = W.soa()
    for x in probes:
        assert W.soa_predict(x) == s(x)
        one, zero = W.restrict(x, 1).ldim(), W.restrict(x, 0).ldim()
        assert W.soa_predict(x) == int(one > zero)  # GGKM21 Def 4.2, ties → 0
        assert max(one, zero) <= d
    x = W.split_point()
    if d >= 1:
        assert min(W.restrict(x, 0).ldim(), W.restrict(x, 1).ldim()) >= d - 1
    else:
        assert x is None
