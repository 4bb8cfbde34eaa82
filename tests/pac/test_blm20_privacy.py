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

H = Thresholds(1)  # d = 1; G = SOA of one example (cap 0: depth 1 always fails)
EPS, DELTA = 1.0, 1e-2
K = 60
SIZES = dict(n_batches=K, aux_size=1, cap=0, n_generic=5, eta=0.1)
N = K + 5
X = np.zeros(N, dtype=np.int64)
D = (X, np.ones(N, dtype=np.int8))
D_prime = (X, np.r_[0, np.ones(N - 1)].astype(np.int8))  # one example (in batch 0) changed


class ReusingSource(ArraySource):
    """Broken on purpose: every G batch reads the first examples (batches are not disjoint)."""

    def batch(self, start, stop):
        if stop - start == 1 and start < K:
            return self.X[:1], self.y[:1]
        return super().batch(start, stop)


def _mechanism(source_cls):
    def run(dataset, rng):
        res = blm20_learn(
            H, source_cls(*dataset), epsilon=EPS, delta=DELTA, backend=SeededBackend(rng), seed=rng, **SIZES
        )
        return repr(res.chosen)

    return run


def test_audit_of_m_respects_claimed_epsilon():
    rep = audit_mechanism(
        _mechanism(ArraySource), D, D_prime, runs=500, seed=0, delta=DELTA, claimed_epsilon=EPS, confidence=0.99
    )
    assert rep.passed, str(rep)


def test_audit_catches_overlapping_batches():
    rep = audit_mechanism(
        _mechanism(ReusingSource), D, D_prime, runs=500, seed=0, delta=DELTA, claimed_epsilon=EPS, confidence=0.99
    )
    assert not rep.passed and rep.epsilon_lb > EPS, str(rep)


@pytest.mark.slow
def test_audit_of_m_many_runs():
    rep = audit_mechanism(
        _mechanism(ArraySource), D, D_prime, runs=20_000, seed=1, delta=DELTA, claimed_epsilon=EPS, confidence=0.999
    )
    assert rep.passed, str(rep)


# --- a setting where G really plays tournaments (d = 2, cap > 2n), so the changed example feeds D̃_k's contests ---
H2 = Thresholds(3)
K2, N_AUX, CAP = 100, 1, 6
M2 = N_AUX + CAP
SIZES2 = dict(n_batches=K2, aux_size=N_AUX, cap=CAP, n_generic=5, eta=0.1)
X2 = np.resize(np.array([1, 2, 0, 2, 1, 0, 2], dtype=np.int64), K2 * M2 + 5)
Y2 = (X2 >= 2).astype(np.int8)
Y2_prime = Y2.copy()
Y2_prime[0] = 1  # first example of batch 0: now non-realizable (Definition 8)


class ReusingBatches(ArraySource):
    """Broken on purpose: every G batch is a copy of batch 0."""

    def batch(self, start, stop):
        if start < K2 * M2:
            off = start % M2
            return super().batch(off, off + (stop - start))
        return super().batch(start, stop)


def _mechanism2(source_cls):
    def run(dataset, rng):
        res = blm20_learn(
            H2, source_cls(*dataset), epsilon=EPS, delta=DELTA, backend=SeededBackend(rng), seed=rng, **SIZES2
        )
        return repr(res.chosen)

    return run


def test_the_changed_example_drives_tournaments():
    """Sanity for the audit below: on batch 0, G's output law differs between D and D′, and runs with k ≥ 1
    succeed (tournament examples are played), including patched (non-realizable) outputs."""
    from collections import Counter

    from littlestone.classes.base import PatchedHypothesis
    from littlestone.pac.global_stable import GlobalStableLearner

    G = GlobalStableLearner(H2, 0.5, n=N_AUX, cap=CAP)
    runs = {lab: [G(X2[:M2], y[:M2], seed=s) for s in range(300)] for lab, y in (("D", Y2), ("D'", Y2_prime))}
    assert any(r.k >= 1 and not r.failed for r in runs["D"])
    assert any(isinstance(r.output, PatchedHypothesis) for r in runs["D"])
    law = {lab: Counter(repr(r.output) for r in rs) for lab, rs in runs.items()}
    assert law["D"] != law["D'"]


def test_audit_of_m_with_tournaments_respects_claimed_epsilon():
    rep = audit_mechanism(
        _mechanism2(ArraySource),
        (X2, Y2),
        (X2, Y2_prime),
        runs=300,
        seed=0,
        delta=DELTA,
        claimed_epsilon=EPS,
        confidence=0.99,
    )
    assert rep.passed, str(rep)


def test_audit_with_tournaments_catches_shared_batches():
    rep = audit_mechanism(
        _mechanism2(ReusingBatches),
        (X2, Y2),
        (X2, Y2_prime),
        runs=300,
        seed=0,
        delta=DELTA,
        claimed_epsilon=EPS,
        confidence=0.99,
    )
    assert not rep.passed and rep.epsilon_lb > EPS, str(rep)
