"""river conventions (issue 20 item 5): ``river.evaluate.progressive_val_score`` runs on the online learners over a
real river stream of one-key feature dicts with bool labels. One parametrised case per learner: adding one (LWY25,
GL21, …) is one line in LEARNERS."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.errors import DomainError, LabelError, LittlestoneError
from littlestone.experts import ExpertsClassifier, Hedge, PrivateHedge
from littlestone.online import SOA, Halving
from littlestone.online.river_compat import feature_value, label01, proba_dict

N, T, CUT = 64, 400, 37
H = Thresholds(N)


def _stream(seed: int = 0):
    rng = np.random.default_rng(seed)
    xs = rng.integers(0, N, T)
    return [({"x": int(x)}, bool(x >= CUT)) for x in xs]


def _experts(learner_cls, **kw):
    hyps = list(H.version_space().hypotheses())
    return ExpertsClassifier(learner_cls(len(hyps), T, **kw), hyps, hypothesis_class=H, labels=(False, True))


#: name → (factory, the most mistakes a realizable stream of T rounds may cost it)
LEARNERS = {
    "SOA": (lambda: SOA(H), H.ldim()),
    "Halving": (lambda: Halving(H), H.ldim()),
    "PrivateHedge": (lambda: _experts(PrivateHedge, epsilon=5.0, delta=1e-6, backend="seeded", seed=1), T),
    "Hedge": (lambda: _experts(Hedge, seed=1), T // 4),
}


@pytest.mark.parametrize("name", list(LEARNERS))
def test_progressive_val_score(name):
    river = pytest.importorskip("river")
    from river import evaluate, metrics

    make, worst = LEARNERS[name]
    model = make()
    metric = evaluate.progressive_val_score(dataset=_stream(), model=model, metric=metrics.Accuracy())
    acc = metric.get()
    assert 0.0 <= acc <= 1.0
    assert (1 - acc) * T <= worst + 1e-9, (name, acc)
    print(f"river {river.__version__} progressive_val_score {name}: {metric}")


@pytest.mark.parametrize("make", [lambda: SOA(H), lambda: Halving(H)], ids=["SOA", "Halving"])
def test_river_surface_of_the_online_learners(make):
    learner = make()
    assert learner.learn_one({"x": 40}, True) is None
    assert learner.learn_one({"x": 3}, False) is None
    assert learner.predict_one({"x": 50}) == 1 and learner.predict_one(2) == 0
    with pytest.raises(DomainError, match="2 keys"):
        learner.predict_one({"x": 1, "z": 2})
    keyed = type(learner)(H, feature="z")
    assert keyed.predict_one({"x": 999, "z": 5}) in (0, 1)
    with pytest.raises(DomainError, match="'z' is not in"):
        keyed.predict_one({"x": 5})


def test_halving_predict_proba_is_the_vote_share():
    learner = Halving(H)
    learner.learn_one(10, 0)  # V = {h_t : 11 ≤ t ≤ 64}: 54 thresholds
    p = learner.predict_proba_one({"x": 20})
    assert p == pytest.approx({0: 44 / 54, 1: 10 / 54})
    assert learner.predict_one(20) == int(p[1] > p[0])


def test_experts_classifier_surface():
    hyps = list(H.version_space().hypotheses())
    clf = ExpertsClassifier(Hedge(len(hyps), 10, seed=0), hyps, labels=(-1, 1))
    assert clf.learn_one({"x": 5}, -1) is None
    assert clf.predict_one({"x": 5}) in (-1, 1)
    assert set(clf.predict_proba_one(5)) == {-1, 1}
    private = ExpertsClassifier(PrivateHedge(len(hyps), 10, 1.0, 1e-6, backend="seeded", seed=0), hyps)
    with pytest.raises(LittlestoneError, match="privacy claim does not cover"):
        private.predict_proba_one(5)
    with pytest.raises(LittlestoneError, match="one per expert"):
        ExpertsClassifier(Hedge(3, 10), hyps)
    assert Hedge(3, 10, seed=0).learn_one([0.0, 1.0, 0.5]) is None


def test_helpers():
    assert feature_value({"a": 3}) == 3 and feature_value(7) == 7 and feature_value({"a": 1, "b": 2}, "b") == 2
    assert label01(True) == 1 and label01(False) == 0 and label01(-1, -1) == 0
    with pytest.raises(LabelError):
        label01(2)
    assert proba_dict(0.25, (False, True)) == {False: 0.75, True: 0.25}
