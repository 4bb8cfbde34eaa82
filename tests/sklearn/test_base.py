"""The sklearn base: labels kept as given, validation through the class, JSON round-trip, atomic writes."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from littlestone import FiniteClass
from littlestone.errors import DomainError, LittlestoneError
from littlestone.io import atomic_write, atomic_write_text
from littlestone.pac import ERMClassifier, SOAClassifier
from littlestone.pac._sklearn import LittlestoneClassifier


def _threshold_data(n=120, t=37, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 100, size=(n, 1))
    return X, (X[:, 0] >= t).astype(int)


@pytest.mark.parametrize("labels", [(0, 1), (-1, 1), ("benign", "malignant"), (False, True)])
def test_labels_kept_as_given(labels):
    X, y01 = _threshold_data()
    y = np.array(labels, dtype=object)[y01] if isinstance(labels[0], str) else np.array(labels)[y01]
    est = ERMClassifier("thresholds:100").fit(X, y)
    pred = est.predict(X)
    assert set(pred.tolist()) <= set(np.asarray(labels).tolist())
    assert (pred == y).all()
    assert list(est.classes_) == sorted(set(np.asarray(y).tolist()), key=lambda v: (str(type(v)), v))


@pytest.mark.parametrize(
    "est",
    [
        ERMClassifier("thresholds:100"),
        SOAClassifier("thresholds:100"),
        ERMClassifier(),
        ERMClassifier(FiniteClass(np.triu(np.ones((101, 100), int)))),
    ],
)
def test_json_round_trip(est, tmp_path):
    X, y01 = _threshold_data()
    y = np.where(y01 == 1, "pos", "neg")
    est.fit(X, y)
    path = tmp_path / "model.json"
    est.to_json(path)
    loaded = type(est).from_json(path)
    assert loaded.hypothesis_ == est.hypothesis_
    assert (loaded.predict(X) == est.predict(X)).all()
    assert json.loads(path.read_text())["format"] == "littlestone-model/1"
    # loading through the base class works too
    assert (LittlestoneClassifier.from_json(est.to_json()).predict(X) == est.predict(X)).all()


def test_patched_hypothesis_round_trip():
    X = np.array([[5], [10], [20], [30], [7]])
    y = np.array([0, 1, 1, 0, 1])  # not realizable by thresholds: the SOA patches (BLM20 Def 8)
    est = SOAClassifier("thresholds:50").fit(X, y)
    loaded = SOAClassifier.from_json(est.to_json())
    grid = np.arange(50).reshape(-1, 1)
    assert (loaded.predict(grid) == est.predict(grid)).all()


def test_tuple_points_in_finite_class():
    pts = [(a, b) for a in range(3) for b in range(2)]
    M = np.array([[int(p[0] >= t) for p in pts] for t in range(4)])
    cls = FiniteClass(M, points=pts)
    X = np.array(pts * 3)
    y = (X[:, 0] >= 2).astype(int)
    est = ERMClassifier(cls).fit(X, y)
    assert (est.predict(X) == y).all()
    loaded = ERMClassifier.from_json(est.to_json())
    assert (loaded.predict(X) == y).all()


@pytest.mark.parametrize(
    "X, y, err",
    [
        (np.array([[1.5], [2.0]]), [0, 1], DomainError),
        (np.array([[100], [2]]), [0, 1], DomainError),
        (np.array([[np.nan], [2]]), [0, 1], DomainError),
        (np.array([[1], [2], [3]]), [0, 1, 2], LittlestoneError),
        (np.array([[1], [2]]), [0, 1, 1], LittlestoneError),
    ],
)
def test_bad_input_raises_named_errors(X, y, err):
    with pytest.raises(err):
        ERMClassifier("thresholds:100").fit(X, y)


def test_missing_class_and_bad_model_file(tmp_path):
    with pytest.raises(LittlestoneError, match="hypothesis_class"):
        SOAClassifier().fit(np.array([[1]]), [1])
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(LittlestoneError, match="not valid JSON"):
        LittlestoneClassifier.from_json(bad)
    with pytest.raises(LittlestoneError, match="cannot read"):
        LittlestoneClassifier.from_json(tmp_path / "missing.json")


def test_atomic_write_leaves_no_partial_file(tmp_path):
    target = tmp_path / "out.txt"
    atomic_write_text(target, "old")
    for exc in (RuntimeError("boom"), KeyboardInterrupt()):
        with pytest.raises(type(exc)):
            with atomic_write(target) as fh:
                fh.write("half-written")
                raise exc
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_candidate_list_without_class_round_trips():
    from littlestone.classes.thresholds import Threshold

    X, y01 = _threshold_data()
    est = ERMClassifier(candidates=[Threshold(t) for t in range(0, 101, 5)]).fit(X, y01)
    assert est.hypothesis_ == Threshold(35) or est.hypothesis_ == Threshold(40)
    loaded = ERMClassifier.from_json(est.to_json())
    assert (loaded.predict(X) == est.predict(X)).all()


@pytest.mark.parametrize("as_object", [False, True])
def test_structured_class_models_round_trip(as_object):
    from littlestone.classes.spec import parse_class_spec

    spec = "intervals:16"
    rng = np.random.default_rng(0)
    X = rng.integers(0, 16, size=(100, 1))
    y = ((X[:, 0] >= 4) & (X[:, 0] < 9)).astype(int)
    est = SOAClassifier(parse_class_spec(spec) if as_object else spec).fit(X, y)
    loaded = SOAClassifier.from_json(est.to_json())
    grid = np.arange(16).reshape(-1, 1)
    assert (loaded.predict(grid) == est.predict(grid)).all()


def test_matrix_file_class_is_stored_inline(tmp_path):
    m = tmp_path / "matrix.csv"
    m.write_text("0,0,0\n1,0,0\n1,1,0\n1,1,1\n")
    X = np.array([[0], [1], [2], [1]])
    y = np.array([1, 1, 0, 1])
    est = ERMClassifier(str(m)).fit(X, y)
    text = est.to_json()
    m.unlink()  # the model must not depend on the matrix file any more
    assert (ERMClassifier.from_json(text).predict(X) == y).all()
