"""Privacy audit of the BLM20 learner M on neighbouring datasets (small settings), with littlestone.audit.

The audit is shown to be sensitive: a broken M whose G batches all re-use the same examples (so one changed
example changes every G output) is caught, while the real M (disjoint batches) passes at its claimed ε.
"""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.audit import audit_mechanism
from littlestone.pac.blm20 import blm20_learn
from littlestone.pac.sources import ArraySource
from littlestone.privacy import SeededBackend

H = Thresholds(1)                                   # d = 1; G = SOA of one example (cap 0: depth 1 always fails)
EPS, DELTA = 1.0, 1e-2
K = 60
SIZES = dict(n_batches=K, aux_size=1, cap=0, n_generic=5, eta=0.1)
N = K + 5
X = np.zeros(N, dtype=np.int64)
D = (X, np.ones(N, dtype=np.int8))
D_prime = (X, np.r_[0, np.ones(N - 1)].astype(np.int8))     # one example (in batch 0) changed


class ReusingSource(ArraySource):
    """Broken on purpose: every G batch reads the first examples (batches are not disjoint)."""

    def batch(self, start, stop):
        if stop - start == 1 and start < K:
            return self.X[:1], self.y[:1]
        return super().batch(start, stop)


def _mechanism(source_cls):
    def run(dataset, rng):
        res = blm20_learn(H, source_cls(*dataset), epsilon=EPS, delta=DELTA, backend=SeededBackend(rng), seed=rng,
                          **SIZES)
        return repr(res.chosen)
    return run


def test_audit_of_m_respects_claimed_epsilon():
    rep = audit_mechanism(_mechanism(ArraySource), D, D_prime, runs=500, seed=0, delta=DELTA,
                          claimed_epsilon=EPS, confidence=0.99)
    assert rep.passed, str(rep)


def test_audit_catches_overlapping_batches():
    rep = audit_mechanism(_mechanism(ReusingSource), D, D_prime, runs=500, seed=0, delta=DELTA,
                          claimed_epsilon=EPS, confidence=0.99)
    assert not rep.passed and rep.epsilon_lb > EPS, str(rep)


@pytest.mark.slow
def test_audit_of_m_many_runs():
    rep = audit_mechanism(_mechanism(ArraySource), D, D_prime, runs=20_000, seed=1, delta=DELTA,
                          claimed_epsilon=EPS, confidence=0.999)
    assert rep.passed, str(rep)
