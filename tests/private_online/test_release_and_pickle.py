"""Sealed values sealed (issue 26 item 4): without ``diagnostics=True`` no diagnostic count of the private stream is
kept in a learner (so no underscore attribute and no pickle holds it), and every online learner's ``release()`` is
exactly what its claim covers — the same whether diagnostics are on or off, and equal on neighbouring streams when
every mechanism output is equal (the release-policy checker, run on ``release()`` alone with diagnostics ON)."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.agnostic_online import Algorithm3, ThresholdsAlgorithm3
from littlestone.errors import LittlestoneError
from littlestone.experts import BatchedPrivateHedge, PrivateHedge, TreeAggregationHedge
from littlestone.private_online import GL21, LWY25, AnytimeGL21, GL21Setting, LWY25Setting
from littlestone.testing.release import ReleaseSubject, check_release

T = 40
_rng = np.random.default_rng(26)
XS = _rng.integers(0, 8, size=T)
YS = (XS >= 4).astype(int)
YS2 = YS.copy()
YS2[5] ^= 1  # one round's label replaced
LOSSES = _rng.random((T, 4)).round(2)
LOSSES2 = LOSSES.copy()
LOSSES2[5] = 1.0 - LOSSES2[5]  # one round's loss vector replaced


def _examples(learner, data):
    for x, y in zip(*data):
        learner.predict_one(int(x))
        learner.learn_one(int(x), int(y))


def _losses(learner, data):
    for row in data:
        learner.predict_one()
        learner.learn_one(row)


def _a3(cls):
    return lambda b, diagnostics: cls(
        Thresholds(8), T, 2.0, batch=4, backend=b, seed=0, labels=(0, 1), diagnostics=diagnostics
    )


def _experts(cls, **kw):
    if cls is TreeAggregationHedge:  # nothing diagnostic to turn on: it keeps no diagnostics flag
        return lambda b, diagnostics: cls(4, T, 2.0, backend=b, seed=0, **kw)
    return lambda b, diagnostics: cls(4, T, 2.0, backend=b, seed=0, diagnostics=diagnostics, **kw)


LEARNERS = {  # name -> (make(backend, diagnostics), play, D, D′)
    "GL21": (
        lambda b, diagnostics: GL21(
            Thresholds(8),
            T=T,
            epsilon=2.0,
            delta=1e-3,
            backend=b,
            seed=0,
            setting=GL21Setting(4, 64, 1.0, 3),
            diagnostics=diagnostics,
        ),
        _examples,
        (XS, YS),
        (XS, YS2),
    ),
    "AnytimeGL21": (
        lambda b, diagnostics: AnytimeGL21(
            Thresholds(8), T=T, epsilon=2.0, delta=1e-3, backend=b, seed=0, diagnostics=diagnostics
        ),
        _examples,
        (XS, YS),
        (XS, YS2),
    ),
    "ThresholdsAlgorithm3": (_a3(ThresholdsAlgorithm3), _examples, (XS, YS), (XS, YS2)),
    "Algorithm3": (_a3(Algorithm3), _examples, (XS, YS), (XS, YS2)),
    "PrivateHedge": (_experts(PrivateHedge, delta=1e-3), _losses, LOSSES, LOSSES2),
    "BatchedPrivateHedge": (_experts(BatchedPrivateHedge, delta=1e-3), _losses, LOSSES, LOSSES2),
    "TreeAggregationHedge": (_experts(TreeAggregationHedge), _losses, LOSSES, LOSSES2),
}


def _played(name, data, diagnostics, backend="seeded"):
    make, play, _, _ = LEARNERS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        learner = make(backend, diagnostics)
        play(learner, data)
    return learner


class _OnlyRelease:
    """A learner seen only through its ``release()`` (what the release-policy checker then inspects)."""

    def __init__(self, learner):
        self._learner = learner

    def release(self):
        return self._learner.release()


@pytest.mark.parametrize("name", list(LEARNERS))
def test_release_is_the_same_with_diagnostics_on_or_off(name):
    _, _, d, _ = LEARNERS[name]
    off, on = _played(name, d, False), _played(name, d, True)
    assert repr(off.release()) == repr(on.release())
    rel = off.release()
    assert rel["privacy"] == off.privacy() and rel["learner"] == name


@pytest.mark.parametrize("name", [n for n in LEARNERS if n != "TreeAggregationHedge"])
def test_release_follows_the_release_policy_even_with_diagnostics_on(name):
    # check_release plays D, D again and D′ with the same seed: with every mechanism output equal, a release that is
    # public or computed from mechanism outputs is equal too — a count of the private stream would differ.
    # (TreeAggregationHedge: the checker cannot see its mechanism outputs, see test_release_policy.py; its release
    # is the noisy-prefix softmin, covered by the tree_hedge audits.)
    make, play, d, d_prime = LEARNERS[name]
    subject = ReleaseSubject(
        name,
        lambda b: _OnlyRelease(make(b, True)),
        lambda w, data: play(w._learner, data),
        d,
        d_prime,
    )
    findings = check_release(subject)
    assert not findings, "\n".join(map(str, findings))


def test_the_release_checker_catches_a_release_carrying_the_mistakes():
    # the power of the test above: Algorithm 3 whose release() adds its exact mistake count
    class LeakyRelease(ThresholdsAlgorithm3):
        def release(self):
            return {**super().release(), "mistakes": int(self.mistakes)}

    subject = ReleaseSubject(
        "leaky",
        lambda b: _OnlyRelease(_a3(LeakyRelease)(b, True)),
        lambda w, data: _examples(w._learner, data),
        (XS, YS),
        (XS, YS2),
    )
    assert any("mistakes" in f.path for f in check_release(subject))


@pytest.mark.parametrize("cls", [ThresholdsAlgorithm3, Algorithm3])
def test_algorithm3_keeps_no_mistake_count_without_diagnostics(cls):
    learner = _played(cls.__name__, (XS, YS), False)
    sealed = learner.mistakes
    assert not hasattr(sealed, "_value") and not hasattr(sealed, "__dict__")  # the token holds no value
    assert "_mistakes" not in vars(learner)
    if cls is ThresholdsAlgorithm3:  # (Algorithm3 holds its sanitizer factory, a closure: it does not pickle)
        learner = pickle.loads(pickle.dumps(learner))  # the pickle (the owner's private file) holds no count either
        assert "_mistakes" not in vars(learner)
    learner.diagnostics = True  # turning diagnostics on afterwards cannot reveal a count that was never kept
    with pytest.raises(LittlestoneError, match="diagnostics=True"):
        int(learner.mistakes)
    with pytest.raises(LittlestoneError, match="diagnostics=True"):
        print(learner.mistakes)
    on = _played(cls.__name__, (XS, YS), True)
    assert isinstance(on.mistakes, int) and on.mistakes > 0
    if cls is ThresholdsAlgorithm3:
        assert pickle.loads(pickle.dumps(on)).mistakes == on.mistakes


def test_diagnostic_only_counts_are_not_kept_without_diagnostics():
    g = _played("GL21", (XS, YS), False)
    assert g._forest.merges is None
    assert _played("GL21", (XS, YS), True)._forest.merges > 0
    kw = dict(T=200, epsilon=1.0, delta=1e-6, backend="seeded", seed=0, setting=LWY25Setting(64, 128, 3.0))
    x = np.random.default_rng(3).integers(0, 4, 200)
    off, on = LWY25(Thresholds(4), **kw), LWY25(Thresholds(4), diagnostics=True, **kw)
    off.run(x, (x >= 2).astype(np.int8))
    on.run(x, (x >= 2).astype(np.int8))
    assert off._insertions is None and on.insertions > 0
    assert off.hypothesis() == on.hypothesis()  # the count was never part of the algorithm


def test_constructed_experts_release_is_the_same_with_diagnostics_on_or_off():
    from littlestone.agnostic_online import ConstructedExpertsLearner

    def play(diagnostics):
        c = ConstructedExpertsLearner(
            Thresholds(8), T, 2.0, 1e-3, backend="seeded", seed=0, max_flips=1, diagnostics=diagnostics
        )
        c.run(list(XS), YS)
        return c

    off, on = play(False), play(True)
    assert repr(off.release()) == repr(on.release())
    assert set(off.release()) == {"learner", "parameters", "rounds", "predictions", "experts_played", "privacy"}
    assert off.release()["predictions"] == off.predictions_ and off.release()["rounds"] == T
