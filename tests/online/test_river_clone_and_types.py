"""Issue 28 item 6 (river details): every online learner has river's ``clone()`` — a fresh instance with the same
parameters, no learned state — and ``predict_one`` returns the same type for the same label convention across the
non-private, private and experts learners ((0, 1): Python ints; (-1, 1): ints; (False, True): bools)."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.agnostic_online import Algorithm3, ConstructedExpertsLearner, ThresholdsAlgorithm3
from littlestone.errors import LabelError
from littlestone.experts import ExpertsClassifier, Hedge, PrivateHedge
from littlestone.online import SOA, Halving
from littlestone.private_online import (
    GL21,
    LWY25,
    AnytimeGL21,
    AnytimeLWY25,
    GL21Adaptive,
    GL21Setting,
    LWY25Setting,
)

H = Thresholds(8)
PKW = dict(T=60, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
HYPS = list(H.version_space().hypotheses())

#: name → factory(labels) of an online learner taking river's (x, y) rounds
LEARNERS = {
    "SOA": lambda lab: SOA(H, labels=lab),
    "SOA-extended": lambda lab: SOA(H, True, labels=lab),
    "Halving": lambda lab: Halving(H, labels=lab),
    "LWY25": lambda lab: LWY25(H, setting=LWY25Setting(256, 128, 6), labels=lab, **PKW),
    "AnytimeLWY25": lambda lab: AnytimeLWY25(H, setting=LWY25Setting(256, 128, 6), labels=lab, **PKW),
    "GL21": lambda lab: GL21(H, setting=GL21Setting(16, 64, 1.0, 4), labels=lab, **PKW),
    "AnytimeGL21": lambda lab: AnytimeGL21(H, setting=GL21Setting(16, 64, 1.0, 4), labels=lab, **PKW),
    "GL21Adaptive": lambda lab: GL21Adaptive(H, setting=GL21Setting(16, 64, 1.0, 4), labels=lab, **PKW),
    "Algorithm3": lambda lab: Algorithm3(H, 12, 1.0, batch=3, labels=lab, backend="seeded", seed=0),
    "ThresholdsAlgorithm3": lambda lab: ThresholdsAlgorithm3(H, 40, 1.0, batch=4, labels=lab, backend="seeded", seed=0),
    "ExpertsClassifier(Hedge)": lambda lab: ExpertsClassifier(Hedge(len(HYPS), 60, seed=1), HYPS, labels=lab),
    "ExpertsClassifier(PrivateHedge)": lambda lab: ExpertsClassifier(
        PrivateHedge(len(HYPS), 60, epsilon=1.0, delta=1e-6, backend="seeded", seed=1), HYPS, labels=lab
    ),
}
STREAM = [(3, 0), (6, 1), (1, 0), (7, 1), (2, 0), (5, 1)]


def _play(learner, labels):
    neg, pos = labels
    for x, y in STREAM:
        learner.predict_one(x)
        learner.learn_one(x, pos if y else neg)
    return learner


def _rounds(learner):
    if isinstance(learner, ExpertsClassifier):
        return learner.learner.t
    return learner.n_learned if hasattr(learner, "n_learned") else learner.t


@pytest.mark.parametrize("name", LEARNERS)
@pytest.mark.parametrize("labels", [(0, 1), (-1, 1), (False, True)], ids=["01", "pm1", "bool"])
def test_predict_one_type_follows_the_label_convention(name, labels):
    learner = _play(LEARNERS[name](labels), labels)
    p = learner.predict_one(4)
    assert p in labels
    want = bool if isinstance(labels[0], bool) else int
    assert type(p) is want, (name, labels, type(p))


@pytest.mark.parametrize("name", LEARNERS)
def test_clone_is_fresh_with_the_same_parameters(name):
    learner = _play(LEARNERS[name]((False, True)), (False, True))
    assert _rounds(learner) == len(STREAM)
    twin = learner.clone()
    assert type(twin) is type(learner) and twin is not learner
    assert _rounds(twin) == 0  # nothing learned carried over
    fresh = LEARNERS[name]((False, True))
    # same parameters: the clone plays the stream exactly as a newly built learner does (same seed, same rounds)
    assert [twin.predict_one(x) for x, _ in STREAM[:1]] == [fresh.predict_one(x) for x, _ in STREAM[:1]]
    _play(twin, (False, True))
    _play(fresh, (False, True))
    assert [twin.predict_one(x) for x in range(8)] == [fresh.predict_one(x) for x in range(8)]
    if isinstance(learner, ExpertsClassifier):  # the learner inside is cloned, not shared
        assert twin.learner is not learner.learner and twin.learner.t == fresh.learner.t
    assert _rounds(learner) == len(STREAM)  # the original is untouched


def test_clone_new_params_and_refusals():
    L = LWY25(H, setting=LWY25Setting(256, 128, 6), **PKW)
    L.learn_one(3, 0)
    twin = L.clone({"epsilon": 2.0})
    assert twin.epsilon == 2.0 and twin.t == 0 and twin.privacy().epsilon == pytest.approx(2.0) and L.epsilon == 1.0
    with pytest.raises(TypeError, match="no parameter"):
        L.clone({"learning_rate": 1})
    with pytest.raises(TypeError, match="include_attributes"):
        L.clone(include_attributes=True)
    S = SOA(H)  # positional arguments are bound to their names
    assert S.clone({"extended": True}).extended is True


def test_constructed_experts_learner_clones():
    L = ConstructedExpertsLearner(Thresholds(2), 8, 1.0, 1e-6, ope="hedge", backend="seeded", seed=5)
    L.predict_one(1)
    L.learn_one(1, 1)
    twin = L.clone()
    assert twin.t == 0 and L.t == 1 and twin.horizon == 8


def test_bool_labels_must_be_false_true():
    with pytest.raises(LabelError):
        SOA(H, labels=(True, False))
    s = SOA(H, labels=(False, True))
    assert s.label_coding == (False, True)
    assert s.predict_many([1, 6]).dtype == np.bool_
    assert s.learn_many([1, 6], [False, True]).dtype == np.bool_
