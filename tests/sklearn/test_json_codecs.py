"""Models over every structured class save and load as JSON (compact codecs, also for huge and infinite domains)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from littlestone.errors import DomainError
from littlestone.pac import ERMClassifier, GenericLearnerClassifier, SOAClassifier

SCALAR = np.array([[1], [3], [5], [7], [9], [3]])
Y_SCALAR = np.array([0, 1, 1, 0, 1, 1])
BITS = np.array([[1, 0, 1], [1, 1, 1], [0, 1, 1], [1, 1, 0]])
Y_BITS = np.array([0, 1, 0, 1])


@pytest.mark.parametrize(
    "spec,X,y,kind",
    [
        ("points", SCALAR, Y_SCALAR, "finite-set"),  # infinite domain: no value table possible; a patched
        ("pointsneg", SCALAR, Y_SCALAR, "cofinite-set"),  # point function is canonically the finite set of its 1s
        ("points:10", SCALAR, Y_SCALAR, "finite-set"),
        ("intervals:2^40", SCALAR, Y_SCALAR, None),
        ("thresholds:2^60", SCALAR, Y_SCALAR, None),
        ("conjunctions:3", BITS, Y_BITS, None),
        ("affine:2,3,1", BITS, Y_BITS, None),
        ("allfunctions:10", SCALAR, Y_SCALAR, None),
    ],
)
def test_soa_models_round_trip_over_structured_classes(spec, X, y, kind, tmp_path):
    est = SOAClassifier(spec).fit(X, y)
    text = est.to_json(tmp_path / "m.json")
    obj = json.loads(text)
    if kind is not None:
        assert obj["hypothesis"]["kind"] == kind
    assert obj["hypothesis"]["kind"] != "table" or "2^" not in spec
    loaded = SOAClassifier.from_json(tmp_path / "m.json")
    assert loaded.hypothesis_ == est.hypothesis_
    assert (loaded.predict(X) == est.predict(X)).all()
    assert (loaded.predict(X) == y).all()  # the SOA fits a realizable sample


@pytest.mark.parametrize("spec", ["points:10", "intervals:10", "conjunctions:3"])
def test_private_models_round_trip_with_structured_codecs(spec):
    X, y = (BITS, Y_BITS) if spec.startswith("conj") else (SCALAR, Y_SCALAR)
    for est in (GenericLearnerClassifier(spec, epsilon=2.0, backend="seeded", random_state=0), ERMClassifier(spec)):
        est.fit(X, y)
        obj = json.loads(est.to_json())
        assert obj["hypothesis"]["kind"] != "table"  # the class's own representation, not a value table
        loaded = type(est).from_json(est.to_json())
        assert loaded.hypothesis_ == est.hypothesis_ and (loaded.predict(X) == est.predict(X)).all()


def test_thresholds_reject_multi_column_points_with_a_clear_error():
    X = np.array([[1, 2], [3, 4], [5, 6]])
    for est in (
        SOAClassifier("thresholds:10"),
        ERMClassifier("thresholds:10"),
        GenericLearnerClassifier("thresholds:10", backend="seeded"),
    ):
        with pytest.raises(DomainError, match="single integers"):
            est.fit(X, [0, 1, 1])
