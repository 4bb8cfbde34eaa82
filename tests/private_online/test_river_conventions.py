"""river conventions for the private online learners (issue 20 item 5): learn_one returns None, dict features with one
key (or a declared key), bool labels, predict_proba_one; river's progressive_val_score runs on them."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.errors import DomainError, LabelError
from littlestone.classes import Intervals, Points
from littlestone.private_online import (
    GL21,
    LWY25,
    AnytimeGL21,
    AnytimeLWY25,
    BisectAT,
    GL21Setting,
    ListAT,
    LWY25Setting,
)
from littlestone.private_online.intervals_at import IntervalsAT
from littlestone.private_online.points_at import PointsAT

KW = dict(epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
LEARNERS = {
    "lwy25": lambda **k: LWY25(Thresholds(8), setting=LWY25Setting(256, 128, 6), **KW, **k),
    "lwy25-anytime": lambda **k: AnytimeLWY25(Thresholds(8), setting=LWY25Setting(256, 128, 6), **KW, **k),
    "gl21": lambda **k: GL21(Thresholds(8), setting=GL21Setting(16, 64, 1.0, 4), **KW, **k),
    "gl21-anytime": lambda **k: AnytimeGL21(Thresholds(8), setting=GL21Setting(16, 64, 1.0, 4), **KW, **k),
    "points-at": lambda **k: PointsAT(Points(16), **KW, **k),
    "intervals-at": lambda **k: IntervalsAT(Intervals(16), **KW, **k),
    "listat": lambda **k: ListAT(Thresholds(8), **KW, **k),
    "bisect": lambda **k: BisectAT(Thresholds(8), **KW, **k),
}


@pytest.mark.parametrize("name", LEARNERS)
def test_dict_features_bool_labels_and_proba(name):
    L = LEARNERS[name](T=50)
    assert L.learn_one({"x": 3}, True) is None
    assert L.learn_one({"x": 1}, False) is None
    p = L.predict_one({"x": 5})
    assert p in (0, 1)
    proba = L.predict_proba_one({"x": 5})
    assert set(proba) == {0, 1} and sum(proba.values()) == 1.0 and proba[p] == 1.0
    with pytest.raises(DomainError, match="take one feature"):
        L.predict_one({"x": 1, "z": 2})
    D = LEARNERS[name](T=50, feature="x", labels=(False, True))
    D.learn_one({"x": 2, "other": "ignored"}, True)
    assert D.predict_one({"x": 2, "other": 0}) in (False, True) and isinstance(D.predict_one({"x": 2}), bool)
    with pytest.raises(DomainError, match="is not in the example.s features"):
        D.predict_one({"y": 2})


def test_bad_label_pairs_are_refused():
    with pytest.raises(LabelError):
        LWY25(Thresholds(2), T=5, labels=(True, False), **KW)
    with pytest.raises(LabelError):
        LWY25(Thresholds(2), T=5, labels=(0, 2), **KW)


@pytest.mark.parametrize("name", LEARNERS)
def test_river_progressive_val_score(name):
    river = pytest.importorskip("river")
    from river import evaluate, metrics

    rng = np.random.default_rng(0)
    xs = rng.integers(0, 8, 400).tolist()
    stream = [({"x": int(x)}, bool(x >= 5)) for x in xs]
    model = LEARNERS[name](T=400)
    res = evaluate.progressive_val_score(stream, model, metrics.Accuracy())
    assert 0.0 <= res.get() <= 1.0 and model.t == 400
    assert river.__version__
