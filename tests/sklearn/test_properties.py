"""Property-based checks of the estimator base: ERM is optimal, labels round-trip, JSON preserves predictions."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from littlestone import FiniteClass
from littlestone.pac import ERMClassifier, GenericLearnerClassifier, SOAClassifier

label_pairs = st.sampled_from([(0, 1), (-1, 1), ("no", "yes"), ("a", "b")])


@st.composite
def class_and_sample(draw):
    n_h = draw(st.integers(1, 12))
    n_x = draw(st.integers(1, 10))
    M = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n_x, max_size=n_x), min_size=n_h, max_size=n_h)))
    n = draw(st.integers(2, 30))
    X = np.array(draw(st.lists(st.integers(0, n_x - 1), min_size=n, max_size=n)))
    y01 = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    return FiniteClass(M), X, y01


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=class_and_sample(), labels=label_pairs, seed=st.integers(0, 2**31))
def test_erm_generic_soa_properties(data, labels, seed):
    H, X, y01 = data
    if len(set(y01.tolist())) < 2:
        y01 = y01.copy()
        y01[0] = 1 - y01[0]
    y = np.array(labels, dtype=object)[y01] if isinstance(labels[0], str) else np.array(labels)[y01]
    X2 = X.reshape(-1, 1)
    erm = ERMClassifier(H).fit(X2, y)
    best = min(int(np.sum(H.matrix[r][X] != y01)) for r in range(H.n_hypotheses))
    assert erm.result_.training_errors == best  # ERM is optimal over the class
    assert int(np.sum(erm.predict(X2) != y)) == best
    for est in (
        erm,
        GenericLearnerClassifier(H, epsilon=1.0, backend="seeded", random_state=seed, classes=labels).fit(X2, y),
        SOAClassifier(H).fit(X2, y),
    ):
        pred = est.predict(X2)
        assert set(pred.tolist()) <= set(labels)  # labels as given
        loaded = type(est).from_json(est.to_json())
        assert (loaded.predict(X2) == pred).all()  # JSON keeps the function
    # the generic learner always returns a hypothesis of the class
    g = GenericLearnerClassifier(H, epsilon=0.5, backend="seeded", random_state=seed, classes=labels).fit(X2, y)
    assert any(g.hypothesis_ == h for h in H.hypotheses())
