"""One release policy (issue 19 item 4), checked by littlestone.testing.release over every private estimator of pac/
and the online learners: an honest estimator shows nothing that differs on neighbours when every mechanism output
agrees, no timing, no diagnostic by default, and no secret randomness that follows the saved seed. The checker
catches the twins of leaks 1, 2, 5 and 6."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from littlestone.classes import Thresholds
from littlestone.classes.ops import to_finite
from littlestone.pac import (
    AgnosticBLM20Classifier,
    AgnosticPolyPriPropLearnClassifier,
    BLM20Classifier,
    GenericLearnerClassifier,
    PolyPriLearnClassifier,
    PolyPriPropLearnClassifier,
)
from littlestone.testing.release import ReleaseSubject, check_release

H6 = to_finite(Thresholds(6))
_rng = np.random.default_rng(0)
X = _rng.integers(1, 6, size=200).reshape(-1, 1)
Y = np.ones(200, dtype=int)
Y[0] = -1  # D: one −1 label, the others +1
D = (X, Y)
D_PRIME = (X, np.ones(200, dtype=int))  # D′: that label turned into +1 (a label read from the data shows)


def _moved_in_subsample(make):
    """D′ for a learner with a secret subsample: the record moved from its point to 0 is one the seeded run puts in
    the subsample (the worst-case neighbour for this seed), so a statistic of the subsample shows."""
    from littlestone.testing.release import record_secret_parts

    with record_secret_parts() as parts:
        _fit(make("seeded"), D)
    i = parts[0][0]
    Xp = X.copy()
    Xp[i, 0] = 0
    return (Xp, Y.copy() if i else np.ones(200, dtype=int))


def _fit(est, data):
    return est.fit(*data)


def _estimator(cls, **params):
    def make(backend):
        return cls(backend=backend, random_state=0, classes=(-1, 1), **params)

    return make


GGKM = dict(epsilon=2.0, delta=1e-3)
AGN = dict(hypothesis_class=H6, epsilon=3.0, delta=1e-3, n=200, n_inner=1, m=1, K=1, n_generic=1)
PAC = {
    "GenericLearnerClassifier": _estimator(GenericLearnerClassifier, hypothesis_class="thresholds:6", epsilon=1.0),
    "BLM20Classifier": _estimator(
        BLM20Classifier, hypothesis_class="thresholds:6", n_batches=4, aux_size=1, cap=1, n_generic=20, **GGKM
    ),
    "AgnosticBLM20Classifier": _estimator(
        AgnosticBLM20Classifier,
        hypothesis_class="thresholds:6",
        epsilon=4.0,
        delta=1e-3,
        subsample_size=20,
        inner_sizes=dict(n_batches=2, aux_size=1, cap=1, n_generic=2),
    ),
    "PolyPriLearnClassifier": _estimator(
        PolyPriLearnClassifier, hypothesis_class="thresholds:6", n=20, m=10, K=1, **GGKM
    ),
    "PolyPriPropLearnClassifier": _estimator(
        PolyPriPropLearnClassifier, hypothesis_class="thresholds:6", n=20, m=5, K=1, n_generic=20, **GGKM
    ),
    "AgnosticPolyPriPropLearnClassifier": _estimator(AgnosticPolyPriPropLearnClassifier, **AGN),
}
SECRET = {"AgnosticBLM20Classifier", "AgnosticPolyPriPropLearnClassifier"}


@pytest.mark.parametrize("name", list(PAC))
def test_private_estimators_follow_the_release_policy(name):
    d_prime = _moved_in_subsample(PAC[name]) if name in SECRET else D_PRIME
    findings = check_release(ReleaseSubject(name, PAC[name], _fit, D, d_prime, secret=name in SECRET))
    assert not findings, "\n".join(map(str, findings))


# ------------------------------------------------------------------------------------------ the twins


class LabellingCountTwin(AgnosticPolyPriPropLearnClassifier):
    """Leak 1: |R| released as a fitted attribute (the old result_.n_patterns)."""

    def _fit01(self, points, y01, rng):
        self.diagnostics = True
        h, res = super()._fit01(points, y01, rng)
        self.diagnostics = False
        self.n_patterns_ = res.diagnostics["n_patterns"]
        return h, dataclasses.replace(res, diagnostics=None)


class SavedSeedTwin(AgnosticPolyPriPropLearnClassifier):
    """Leak 2: the secret subsample drawn from random_state on every backend."""

    def _fit01(self, points, y01, rng):
        import littlestone.pac.agnostic_proper as ap

        real = ap.secret_generator
        ap.secret_generator = lambda noise, public: public
        try:
            return super()._fit01(points, y01, rng)
        finally:
            ap.secret_generator = real


class InferredLabelsTwin(PolyPriLearnClassifier):
    """Leak 5: the label pair read from the private labels."""

    def _encode_labels(self, y):
        from littlestone._labels import encode_labels

        return encode_labels(y, allow_any_pair=True)


class WallTimeTwin(PolyPriPropLearnClassifier):
    """Leak 6: the wall time in the result without diagnostics=True."""

    def _learn(self, hclass, source, rng):
        import time

        t0 = time.perf_counter()
        h, res = super()._learn(hclass, source, rng)
        return h, dataclasses.replace(res, diagnostics={"wall_time": time.perf_counter() - t0})


TWINS = {
    "leak 1 (|R| released)": (_estimator(LabellingCountTwin, **AGN), "n_patterns_", False),
    "leak 2 (secret subsample from the saved seed)": (_estimator(SavedSeedTwin, **AGN), "<secret>", True),
    "leak 5 (labels read from the data)": (
        _estimator(InferredLabelsTwin, hypothesis_class="thresholds:6", n=20, m=10, K=1, **GGKM),
        "classes_",
        False,
    ),
    "leak 6 (wall time in the result)": (
        _estimator(WallTimeTwin, hypothesis_class="thresholds:6", n=20, m=5, K=1, n_generic=20, **GGKM),
        "wall_time",
        False,
    ),
}


@pytest.mark.parametrize("leak", list(TWINS))
def test_the_checker_catches_each_twin(leak):
    make, where, secret = TWINS[leak]
    d_prime = _moved_in_subsample(make) if "leak 1" in leak else D_PRIME
    findings = check_release(ReleaseSubject(leak, make, _fit, D, d_prime, secret=secret))
    assert any(where in f.path for f in findings), "\n".join(map(str, findings)) or "nothing found"


# ------------------------------------------------------------------------------------------ online learners
# Owned by other modules (private_online/, experts/, agnostic_online/), fixed in parallel: the ones that leak today
# are strict xfails naming the leak, for the lead to flip after merging.

T_ONLINE = 40
_orng = np.random.default_rng(1)
XS = _orng.integers(0, 8, size=T_ONLINE)
YS = (XS >= 4).astype(int)
YS2 = YS.copy()
YS2[5] ^= 1  # one round's label replaced
LOSSES = _orng.random((T_ONLINE, 4)).round(2)
LOSSES2 = LOSSES.copy()
LOSSES2[5] = 1.0 - LOSSES2[5]  # one round's loss vector replaced


def _play_examples(learner, data):
    for x, y in zip(*data):
        learner.predict_one(int(x))
        learner.learn_one(int(x), int(y))


def _play_losses(learner, losses):
    for row in losses:
        learner.predict_one()
        learner.learn_one(row)


def _online(name):
    from littlestone.classes import Thresholds

    H = Thresholds(8)
    if name in ("LWY25", "GL21"):
        import littlestone.private_online as po

        cls = getattr(po, name)
        make = lambda b: cls(H, T=T_ONLINE, epsilon=2.0, delta=1e-3, backend=b, seed=0)  # noqa: E731
        return make, _play_examples, (XS, YS), (XS, YS2)
    if name == "Algorithm3":
        from littlestone.agnostic_online import Algorithm3

        make = lambda b: Algorithm3(H, T_ONLINE, 2.0, backend=b, seed=0, labels=(0, 1))  # noqa: E731
        return make, _play_examples, (XS, YS), (XS, YS2)
    import littlestone.experts as ex

    cls = getattr(ex, name)
    extra = {} if name == "TreeAggregationHedge" else {"delta": 1e-3}
    make = lambda b: cls(4, T_ONLINE, 2.0, backend=b, seed=0, **extra)  # noqa: E731
    return make, _play_losses, LOSSES, LOSSES2


def _xfail(reason):
    return pytest.mark.xfail(strict=True, reason=reason)


_EXACT_LOSSES = "the public attribute `cumulative` (exact cumulative losses) and distribution() (their softmin)"
ONLINE = [
    pytest.param("LWY25", marks=pytest.mark.slow),  # slow: constructing LWY25 takes ~15 s on a loaded machine (4×)
    "GL21",
    "PrivateHedge",
    "BatchedPrivateHedge",
    pytest.param(
        "TreeAggregationHedge",
        marks=_xfail(
            "checker limitation: the tree draws node noise through DiscreteLaplaceMechanism.noise() and releases "
            "prefix sums + that noise (the binary mechanism's output), so equal recorded draws do not mean equal "
            "mechanism outputs; its release is audited by tree_hedge_* in littlestone.audit instead"
        ),
    ),
    "Algorithm3",
]


@pytest.mark.parametrize("name", ONLINE)
def test_online_learners_follow_the_release_policy(name):
    make, play, d, d_prime = _online(name)
    findings = check_release(ReleaseSubject(name, make, play, d, d_prime))
    assert not findings, "\n".join(map(str, findings))


def test_the_checker_catches_an_online_learner_showing_an_exact_count():
    """The online twin: GL21 whose state() shows the forest's merge count without diagnostics=True (the twin keeps
    the count: since issue 26 GL21 does not even count merges without diagnostics)."""
    from littlestone.private_online import GL21

    class MergesShownTwin(GL21):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._forest.merges = 0

        def _public_state(self):
            return {**super()._public_state(), "merges": self._forest.merges}

    make = lambda b: MergesShownTwin(Thresholds(8), T=T_ONLINE, epsilon=2.0, delta=1e-3, backend=b, seed=0)  # noqa: E731
    findings = check_release(ReleaseSubject("GL21 twin", make, _play_examples, (XS, YS), (XS, YS2)))
    assert any("merges" in f.path for f in findings), "\n".join(map(str, findings)) or "nothing found"
