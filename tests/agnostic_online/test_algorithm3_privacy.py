"""Issue 19 for Algorithm 3: one label policy (leak 3), the exact mistake count a diagnostic (leak 6), the batch split
declared once (item 3: no round feeds two runs composed as disjoint), and the sanitizer's noise calibrated from the
claim (item 5)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from littlestone.agnostic_online import Algorithm3, ThresholdsAlgorithm3
from littlestone.agnostic_online.algorithm3 import BatchSplit
from littlestone.classes import Thresholds
from littlestone.errors import LabelError, LittlestoneError, PrivacyLeakWarning, SplitReadError
from littlestone.privacy import PrivacyClaim
from littlestone.testing import RecordingBackend

H8 = Thresholds(8)


def _thresholds(**kw):
    kw.setdefault("backend", "seeded")
    kw.setdefault("seed", 0)
    return ThresholdsAlgorithm3(H8, 40, 1.0, batch=4, **kw)


def _finite(**kw):
    kw.setdefault("backend", "seeded")
    kw.setdefault("seed", 0)
    return Algorithm3(Thresholds(4), 12, 1.0, batch=3, **kw)


# ------------------------------------------------------------------------------------------------ leak 3: labels
@pytest.mark.parametrize("make", [_thresholds, _finite])
def test_default_label_pair_is_declared_and_never_read_from_the_data(make):
    a = make()
    assert a.label_coding == (0, 1) and a.coding_is_set
    with pytest.raises(LabelError):
        a.learn_one(1, -1)  # a −1 is outside the declared pair: an error, not a silent change of coding
    with pytest.raises(LabelError):
        make().run([1, 2], [1, -1])  # the vectorized path checks the pair too
    b = make(labels=(-1, 1))
    assert b.predict_one(0) in (-1, 1) and b.predict_one(7 % 4) in (-1, 1)  # from round 1, before any label


@pytest.mark.parametrize("make", [_thresholds, _finite])
def test_labels_none_warns_that_it_reads_the_private_labels(make):
    with pytest.warns(PrivacyLeakWarning, match="labels=None"):
        a = make(labels=None)
    assert not a.coding_is_set
    a.learn_one(1, -1)
    assert a.label_coding == (-1, 1)  # the legacy behaviour, now announced


# ------------------------------------------------------------------------------------------------ leak 6: mistakes
@pytest.mark.parametrize("make", [_thresholds, _finite])
def test_mistakes_is_a_diagnostic(make):
    a = make()
    for x, y in [(0, 0), (3, 1), (1, 0)]:
        a.predict_one(x)
        a.learn_one(x, y)
    with pytest.raises(LittlestoneError, match="diagnostics=True"):
        int(a.mistakes)
    with pytest.raises(LittlestoneError, match="diagnostics=True"):
        print(a.mistakes)
    assert "mistakes" not in repr(a) and "n_learned=3" in repr(a)
    d = make(diagnostics=True)
    for x, y in [(0, 0), (3, 1), (1, 0)]:
        d.predict_one(x)
        d.learn_one(x, y)
    assert isinstance(d.mistakes, int) and 0 <= d.mistakes <= 3


# ------------------------------------------------------------------------------------------------ item 3: the split
def test_batch_split_slices_disjoint_batches_and_composes_them_in_parallel():
    s = BatchSplit(23, 5)
    assert s.n_batches == 4
    seen = [t for b in range(s.n_batches) for t in s.rounds(b)]
    assert seen == list(range(20))  # disjoint, in order; the trailing 3 rounds are never read
    for t in range(4):
        s.record(t, 0)
    with pytest.raises(LittlestoneError):
        s.read(0)  # batch 0 is rounds 0..4: round 4 has not been played
    s.record(4, 1)
    s.record(5, 0)
    assert s.read(0) == ([0, 1, 2, 3, 4], [0, 0, 0, 0, 1]) and s.pending == 1  # round 5 stays for batch 1
    with pytest.raises(LittlestoneError):
        s.read(0)  # its rounds left the log: a round is read by one run only
    with pytest.raises(SplitReadError, match="sanitizer\\[1\\]"):  # a run opening another batch's block
        s.data.reader(s.parts[2], "sanitizer[1]")
    c = s.privacy([PrivacyClaim(0.5, 1e-7)] * 4)
    assert c.pair == (0.5, 1e-7)  # parallel: the max over records, not the sum over batches
    s.data.feed(s.parts[0], "sanitizer[1]")  # one batch read by two runs: the split composes them sequentially
    assert s.privacy([PrivacyClaim(0.5, 1e-7)] * 4).pair == (1.0, 2e-7)


class _Recorder:
    """A sanitizer factory logging which data each run read (points are the rounds' indices)."""

    def __init__(self):
        self.reads = []

    def __call__(self, epsilon, batch, run):
        outer = self

        class San:
            def privacy(self):
                return (epsilon, 0.0)

            def fit(self, data):
                outer.reads.append([x for x, _ in data])
                self.data = list(data)
                return self

            def synthetic(self, size):
                return self.data

        return San()


@pytest.mark.parametrize("path", ["river", "run"])
def test_no_round_feeds_two_sanitizer_runs(path):
    T, B = 64, 8
    rec = _Recorder()
    a = Algorithm3(Thresholds(64), T, 1.0, batch=B, sanitizer=rec, backend="seeded", seed=0)
    X = np.arange(T)
    y = (X >= 30).astype(int)
    if path == "run":
        a.run(X[:13], y[:13])
        a.run(X[13:], y[13:])
    else:
        for x, lab in zip(X, y):
            a.predict_one(int(x))
            a.learn_one(int(x), int(lab))
    flat = [x for run in rec.reads for x in run]
    assert len(rec.reads) == T // B and sorted(flat) == list(range(T)) and len(set(flat)) == len(flat)
    assert a.privacy().pair == (1.0, 0.0) and len(a.privacy().parts) == T // B  # parallel: each round in one run


def test_a_run_claiming_more_than_declared_is_refused():
    def greedy(epsilon, batch, run):
        eps = epsilon if run == 0 else 2 * epsilon
        return type(
            "S",
            (),
            {
                "privacy": lambda self: (eps, 0.0),
                "fit": lambda self, d: self,
                "synthetic": lambda self, n: [(0, 1)] * n,
            },
        )()

    a = Algorithm3(Thresholds(8), 8, 1.0, batch=2, sanitizer=greedy, backend="seeded", seed=0)
    with pytest.raises(LittlestoneError, match="more than declared"):
        for x in range(4):
            a.learn_one(x, 1)


# ------------------------------------------------------------------------------------------------ item 5: calibration
@pytest.mark.parametrize("eps", [1.0, 0.25])
def test_thresholds_algorithm3_noise_calibrated_per_batch(eps):
    T, B = 48, 8
    b = RecordingBackend(0)
    a = ThresholdsAlgorithm3(Thresholds(1 << 20), T, eps, batch=B, backend=b, seed=0)
    rng = np.random.default_rng(0)
    X = rng.integers(0, 1 << 20, T)
    a.run(X, (X >= 1 << 19).astype(int))
    L = a._sanitizer(0).levels
    scales = b.scales()
    assert list(scales) == [pytest.approx(2 * (L + 1) / eps)]  # each batch's tree at ε: levels of ε/(L+1), Δ = 2
    c = a.privacy()
    assert c.pair == pytest.approx((eps, 0.0)) and len(c.parts) == T // B


def test_algorithm3_pinned_for_a_fixed_seed():
    rng = np.random.default_rng(5)
    X = rng.integers(0, 1 << 20, 64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the default labels raise no PrivacyLeakWarning
        a = ThresholdsAlgorithm3(Thresholds(1 << 20), 64, 2.0, batch=8, backend="seeded", seed=3)
    preds = a.run(X, (X >= 1 << 19).astype(int))
    assert preds.tolist() == PINNED


PINNED = [
    1,
    1,
    0,
    1,
    0,
    1,
    1,
    1,
    1,
    0,
    0,
    1,
    1,
    0,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    1,
    0,
    1,
    1,
    1,
    0,
    0,
    1,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    0,
    1,
    1,
    1,
    0,
    0,
    1,
    1,
    1,
    0,
]


# ------------------------------------------------------------------------------------------------ constructed experts
@pytest.mark.parametrize("ope", ["batched", "tree"])
def test_constructed_experts_draws_are_the_parts_of_its_claim(ope):
    """Thm 4.4's learner: the dyadic sanitizer's MWEM runs (ε/L each) and the OPE learner's mechanism are the only
    noise, at the scales their claims state; privacy() is their basic composition."""
    from littlestone.agnostic_online import ConstructedExpertsLearner
    from littlestone.privacy import tree_levels

    T, eps = 8, 1.0
    b = RecordingBackend(0)
    learner = ConstructedExpertsLearner(Thresholds(4), T, eps, 1e-6, ope=ope, backend=b, seed=0)
    X = np.arange(T) % 4
    learner.run(X, (X >= 2).astype(int))
    L, ope_ = tree_levels(T), learner.ope_
    assert {k for k, _, _ in b.log} <= {"noisy_argmax:gumbel", "laplace", "uniform"}
    mwem_laplace = b.calls("laplace")
    if ope == "batched":  # one exponential-mechanism draw per batch at scale 1/η (Δ = 1, ε₀ = 2η)
        k = sum(
            1 for s, n in b.calls("noisy_argmax:gumbel") if n == ope_.n_experts and s == pytest.approx(1 / ope_.eta)
        )
        assert k == ope_.n_batches
    else:  # the node noise: one Laplace release of the node family, scale N·L_K/ε (seeded: discrete=False)
        tree = [n for s, n in mwem_laplace if s == pytest.approx(ope_.mechanism.scale)]
        assert sum(tree) == ope_.n_blocks * ope_.n_experts
        mwem_laplace = [(s, n) for s, n in mwem_laplace if s != pytest.approx(ope_.mechanism.scale)]
    # every MWEM measurement at ε₀ = (ε/L)/(2·T_i): scale 1/ε₀ = 2·T_i·L/ε ≥ 2L/ε
    assert mwem_laplace and all(s >= 2 * L / eps - 1e-9 for s, _ in mwem_laplace)
    san, o = learner.sanitizer_.privacy(), ope_.privacy()
    assert learner.privacy().pair == pytest.approx((san.epsilon + o.epsilon, san.delta + o.delta))
    # each part within the (ε, δ) = (1, 1e-6) it was given (Thm 4.4: the whole within (2ε, 2δ))
    assert san.epsilon <= eps + 1e-12 and san.delta <= 1e-6 * (1 + 1e-9)
    assert o.epsilon <= eps + 1e-12 and o.delta <= 1e-6 * (1 + 1e-9)
    if ope == "batched":
        assert ope_.delta == 1e-6 and ope_.eta == pytest.approx(_batched_eta(eps, 1e-6, ope_.n_batches))


def _batched_eta(eps, delta, K):
    from littlestone.privacy import per_step_epsilon

    return per_step_epsilon(eps, K, delta) / 2
