"""The optional closed forms of the class protocol (VersionSpace.online_run / chain / threshold_interval,
HypothesisClass.spec / soa_is_proper / mistake_counts / empirical_errors): a subclass of Thresholds keeps every fast
path (no type tests), other structured classes offer them too, each gives what the generic computation gives, and
the contract check catches a closed form that lies."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from littlestone import SOA, Halving, Points, Thresholds
from littlestone.classes import FiniteClass
from littlestone.classes.empirical import ChainVersionSpace, ThresholdEmpirical, empirical_errors
from littlestone.classes.thresholds import ThresholdsVersionSpace
from littlestone.dimensions.irreducibility import irreducibility, reducing_array
from littlestone.pac.candidates import candidate_list
from littlestone.pac.global_stable import GlobalStableLearner, run_batches
from littlestone.pac.proper import candidates_bound
from littlestone.pac.sources import ArraySource, RealizableStream, UniformIntegers
from littlestone.pac.tournament import sample_tournament
from littlestone.pac.sources import Cursor
from littlestone.testing import check_hypothesis_class, oracle


class MyThresholds(Thresholds):
    """A subclass that changes nothing: it must get every closed form plain Thresholds gets."""


class _GenericVersionSpace(ThresholdsVersionSpace):
    """Thresholds with the tournament's interval form hidden: the generic (per-block NumPy/Python) path."""

    def threshold_interval(self):
        return None

    def restrict(self, x, y):
        W = super().restrict(x, y)
        return _GenericVersionSpace(W.hclass, W.lo, W.hi)

    def restrict_sample(self, X, y):
        W, k = super().restrict_sample(X, y)
        return (W if W is self else _GenericVersionSpace(W.hclass, W.lo, W.hi)), k


class GenericThresholds(Thresholds):
    def version_space(self):
        return _GenericVersionSpace(self, 0, self.n)


def _g_digest(H, d, nb, seed, noise=0.0):
    npts = H.n
    G = GlobalStableLearner(H, 0.05, d=d)
    src = RealizableStream(H.hypothesis(npts // 2 + 1), UniformIntegers(0, npts), G.m * nb, seed=seed, noise=noise)
    runs = run_batches(G, src, [(i * G.m, (i + 1) * G.m) for i in range(nb)], seed + 1)
    text = ";".join(f"{r.output!r},{r.k},{r.examples_read}" for r in runs)
    return hashlib.sha256(text.encode()).hexdigest()[:16], sum(r.examples_read for r in runs)


def test_a_thresholds_subclass_gets_the_compiled_tournament_and_the_pinned_outputs():
    assert MyThresholds(6).version_space().threshold_interval() == (0, 6, 6)
    # the pin of tests/pac/test_blm20_kernel_pins.py::test_g_runs_pinned[args1]
    assert _g_digest(MyThresholds(6), 2, 60, 5) == ("94ec7652b3547dae", 707560)


@pytest.mark.parametrize("noise", [0.0, 0.02])
def test_the_compiled_tournament_equals_the_generic_path(noise):
    fast = _g_digest(Thresholds(6), 2, 12, 21, noise)
    assert _g_digest(GenericThresholds(6), 2, 12, 21, noise) == fast


def test_an_empirical_chain_runs_the_tournament_in_interval_form():
    H = Thresholds(30)
    rng = np.random.default_rng(3)
    X = rng.integers(0, 30, size=400)
    y = (X >= 11).astype(np.int8)
    level = empirical_errors(H, X, y).level(0.0)  # realizable sample, θ = 0: one segment, an interval
    assert isinstance(level, ChainVersionSpace)
    lo, hi, n = level.threshold_interval()
    assert (lo, hi, n) == (int(X[y == 0].max()) + 1, int(X[y == 1].min()), 30)
    assert empirical_errors(H, X, 1 - y).level(0.6).threshold_interval() is None  # two segments
    plain = ThresholdsVersionSpace(H, lo, hi)
    Xs = rng.integers(0, 30, size=20_000)
    src = ArraySource(Xs, np.where(rng.random(20_000) < 0.05, 1 - (Xs >= 12), Xs >= 12).astype(np.int8))
    for seed in range(6):
        S1 = sample_tournament(H, Cursor(src, 0, len(src)), 2, 25, np.random.default_rng(seed), V=level)
        S2 = sample_tournament(H, Cursor(src, 0, len(src)), 2, 25, np.random.default_rng(seed), V=plain)
        assert S1.segments == S2.segments and S1.state.hypothesis() == S2.state.hypothesis()


def test_a_thresholds_subclass_gets_every_other_closed_form():
    H, P = MyThresholds(2**40), Thresholds(2**40)
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2**40, size=3000)
    y = (X >= 2**39).astype(int)
    # online learners' batch path (online_run), the same predictions as the plain class
    for cls in (SOA, Halving):
        a, b = cls(H), cls(P)
        assert np.array_equal(a.learn_many(X, y), b.learn_many(X, y)) and a.mistakes == b.mistakes
        assert a.version_space.key() == b.version_space.key()
    # empirical errors in closed form (no explicit twin of a 2^40-point domain exists)
    table = empirical_errors(H, X, y)
    assert isinstance(table, ThresholdEmpirical)
    assert table.level(0.0).size() == empirical_errors(P, X, y).level(0.0).size()
    # irreducibility of the chain in closed form
    assert irreducibility(MyThresholds(6)) == irreducibility(Thresholds(6)) == 1
    assert reducing_array(MyThresholds(6)).k == reducing_array(Thresholds(6)).k
    # candidate error counts, the minimax bound, the saved model's class
    small = MyThresholds(20)
    x, yy = rng.integers(0, 20, size=40), rng.integers(0, 2, size=40)
    assert small.mistake_counts(list(small.version_space().hypotheses()), x, yy) is not None
    assert candidate_list(small).errors(x, yy).tolist() == [int(np.sum((x >= t) != yy)) for t in range(21)]
    assert candidates_bound(small, 0.1) == 1 and small.soa_is_proper()
    from littlestone.pac._sklearn import class_to_json

    assert class_to_json(small) == class_to_json(Thresholds(20)) == "thresholds:20"


def test_points_offer_the_closed_forms_too():
    rng = np.random.default_rng(2)
    for H in (Points(10), Points(range(10), include_zero=False), Points()):
        hyps = [H.hypothesis(p) for p in range(10)] + ([H.hypothesis()] if H.include_zero else [])
        X = H.validate_points(rng.integers(0, 12 if H.domain.finite is None else 10, size=50).tolist())
        y = rng.integers(0, 2, size=50)
        want = [int(np.sum(h.predict(X) != y)) for h in hyps]
        assert H.mistake_counts(hyps, X, y).tolist() == want
        assert candidate_list(H, hyps).errors(X, y).tolist() == want
        assert H.soa_is_proper() == H.include_zero
        assert candidates_bound(H, 0.1) == (1 if H.include_zero else 10)
    assert Points(4).mistake_counts([Thresholds(3).hypothesis(1)], [0, 1], [0, 1]) is None  # not its hypotheses


@pytest.mark.parametrize(
    "H, twin",
    [
        (MyThresholds(12), FiniteClass(oracle.thresholds_matrix(12))),
        (Points(9), None),
        (Points(range(9), include_zero=False), None),
    ],
)
def test_the_contract_check_passes_with_the_closed_forms(H, twin):
    check_hypothesis_class(H, twin)


def _liar(method, value):
    class LyingSpace(ThresholdsVersionSpace):
        def restrict(self, x, y):
            W = super().restrict(x, y)
            return LyingSpace(W.hclass, W.lo, W.hi)

    setattr(LyingSpace, method, value)

    class LyingThresholds(Thresholds):
        def version_space(self):
            return LyingSpace(self, 0, self.n)

    return LyingThresholds(10)


@pytest.mark.parametrize(
    "method, value, match",
    [
        ("online_run", lambda self, X, y, rule: ([0] * len(X), self, len(X)), "online_run"),
        ("chain", lambda self: (self.size(), lambda j: self.lo + j), "chain"),
        ("threshold_interval", lambda self: (self.lo, self.hi + 1, self.hclass.n), "threshold_interval"),
    ],
)
def test_the_contract_check_catches_a_lying_closed_form(method, value, match):
    with pytest.raises(AssertionError, match=match):
        check_hypothesis_class(_liar(method, value))


def test_the_contract_check_catches_lying_class_closed_forms():
    class BadCounts(Thresholds):
        def mistake_counts(self, hypotheses, X, y):
            return np.zeros(len(hypotheses), dtype=np.int64)

    class NotProper(Points):
        def soa_is_proper(self):
            return True

    with pytest.raises(AssertionError, match="mistake_counts"):
        check_hypothesis_class(BadCounts(10))
    with pytest.raises(AssertionError, match="soa_is_proper"):
        check_hypothesis_class(NotProper(range(6), include_zero=False))
