"""Black-box privacy audit of the generic learner end to end (fit → chosen hypothesis), with a broken twin.

Worst case for the exponential mechanism: K candidates; one example is replaced so that h0's score rises by 1 while
every other score drops by 1, so P[h0] moves by a factor → e^ε as K grows (K = 30: e^{0.97ε})."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.audit import audit_mechanism
from littlestone.classes.finite import FiniteClass
from littlestone.pac import GenericLearnerClassifier

K = 30
M = np.eye(K, dtype=np.uint8)  # h_i is 1 only at point i: at point 0, h_0 says 1 and every other h says 0
H = FiniteClass(M)
X = np.array([[0]])
D, D_PRIME = (X, np.array([1])), (X, np.array([0]))
EVENT = [("chose h0", lambda o: o == 1)]


def _mechanism(epsilon):
    def run(data, backend):
        est = GenericLearnerClassifier(H, epsilon=epsilon, backend=backend).fit(*data)
        return int(est.hypothesis_ == H.hypothesis(0))

    return run


@pytest.mark.slow
def test_generic_learner_passes_the_audit():
    rep = audit_mechanism(
        _mechanism(1.0),
        D,
        D_PRIME,
        runs=10_000,
        seed=1,
        randomness="seeded",
        claimed_epsilon=1.0,
        events=EVENT,
        name="generic learner",
    )
    assert rep.passed, str(rep)
    assert rep.epsilon_lb > 0.2  # the audit has power: it certifies a real privacy loss


@pytest.mark.slow
def test_audit_catches_a_learner_that_spends_twice_its_claim():
    rep = audit_mechanism(
        _mechanism(2.0),
        D,
        D_PRIME,
        runs=10_000,
        seed=1,
        randomness="seeded",
        claimed_epsilon=1.0,
        events=EVENT,
        name="broken generic learner (2ε)",
    )
    assert not rep.passed and rep.epsilon_lb > 1.0, str(rep)
