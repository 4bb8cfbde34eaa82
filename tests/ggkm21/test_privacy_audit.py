"""End-to-end privacy audits of PolyPriLearn and PolyPriPropLearn on tiny settings (littlestone.audit): neighbouring
samples differ in one example, which moves one dataset's set Ĥ_i. Broken twins are caught: datasets that overlap
(every dataset re-reads the changed example), and a minimax set computed from the data instead of from f."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.audit import audit_mechanism
from littlestone.classes import Thresholds
from littlestone.pac.polyprilearn import polyprilearn
from littlestone.pac.proper import MinimaxSet, polypriproplearn
from littlestone.pac.sources import ArraySource
from littlestone.privacy import SeededBackend

H = Thresholds(1)  # two functions on one point: d = 1
EPS, DELTA = 2.0, 0.05
N_PER, M = 1, 60
SIZES = dict(n=N_PER, m=M, K=1, A=0.5)
TOTAL = N_PER * M
X = np.zeros(TOTAL + 4, dtype=np.int64)
D = (X, np.ones(TOTAL + 4, dtype=np.int8))
D_prime = (X, np.r_[0, np.ones(TOTAL + 3)].astype(np.int8))  # the first example (dataset 0) relabelled


class OverlappingSource(ArraySource):
    """Broken on purpose: every dataset reads the first example (datasets are not disjoint)."""

    def batch(self, start, stop):
        if start < TOTAL:
            return self.X[: stop - start], self.y[: stop - start]
        return super().batch(start, stop)


def _improper(source_cls):
    def run(dataset, rng):
        res = polyprilearn(
            H, source_cls(*dataset), epsilon=EPS, delta=DELTA, backend=SeededBackend(rng), seed=rng, **SIZES
        )
        return "bottom" if res.bottom else repr(res.chosen)

    return run


def test_polyprilearn_audit_respects_claim():
    rep = audit_mechanism(
        _improper(ArraySource), D, D_prime, runs=300, seed=0, delta=DELTA, claimed_epsilon=EPS, confidence=0.99
    )
    assert rep.passed, str(rep)


def test_polyprilearn_audit_catches_overlapping_datasets():
    rep = audit_mechanism(
        _improper(OverlappingSource), D, D_prime, runs=300, seed=0, delta=DELTA, claimed_epsilon=EPS, confidence=0.99
    )
    assert not rep.passed and rep.epsilon_lb > EPS, str(rep)


def _leaky_minimax(source):
    """Broken on purpose: 𝒦 read from the data (the first example's label) instead of from f."""

    def minimax(hclass, f, alpha_prime):
        _, y = source.batch(0, 1)
        return MinimaxSet((hclass.hypothesis(0 if y[0] else 1),), 0.0, "leaky")

    return minimax


def _proper(leaky):
    def run(dataset, rng):
        src = ArraySource(*dataset)
        res = polypriproplearn(
            H,
            src,
            epsilon=EPS,
            delta=DELTA,
            backend=SeededBackend(rng),
            seed=rng,
            n_generic=4,
            minimax=_leaky_minimax(src) if leaky else None,
            **SIZES,
        )
        return "bottom" if res.bottom else repr(res.chosen)

    return run


def test_polypriproplearn_audit_respects_claim():
    rep = audit_mechanism(
        _proper(False), D, D_prime, runs=300, seed=1, delta=DELTA, claimed_epsilon=EPS, confidence=0.99
    )
    assert rep.passed, str(rep)


def test_polypriproplearn_audit_catches_a_data_dependent_minimax_set():
    rep = audit_mechanism(
        _proper(True), D, D_prime, runs=300, seed=1, delta=DELTA, claimed_epsilon=EPS, confidence=0.99
    )
    assert not rep.passed and rep.epsilon_lb > EPS, str(rep)


@pytest.mark.slow
def test_polyprilearn_audit_many_runs():
    rep = audit_mechanism(
        _improper(ArraySource), D, D_prime, runs=20_000, seed=2, delta=DELTA, claimed_epsilon=EPS, confidence=0.999
    )
    assert rep.passed, str(rep)
