"""The estimator checks that scikit-learn cannot run on estimators over a discrete domain, redone on in-domain data.

sklearn's generic checks feed real-valued X (negative, non-integer); SOAClassifier and the BLM20 estimators need a
hypothesis class, and every class has a discrete domain, so those checks stop at the class's DomainError (listed in
docs/sklearn.md). Here the same properties are checked with integer points of thresholds:100.
"""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from littlestone.errors import DomainError, LittlestoneError
from littlestone.pac import (
    AgnosticBLM20Classifier,
    BLM20Classifier,
    ERMClassifier,
    GenericLearnerClassifier,
    SOAClassifier,
)

SMALL_BLM20 = dict(n_batches=2, aux_size=1, cap=1, n_generic=2)

ESTIMATORS = {
    "SOA": lambda: SOAClassifier("thresholds:100"),
    "ERM": lambda: ERMClassifier("thresholds:100"),
    "generic": lambda: GenericLearnerClassifier("thresholds:100", epsilon=2.0, backend="seeded", random_state=3),
    "BLM20": lambda: BLM20Classifier(
        "thresholds:100", epsilon=2.0, delta=1e-3, backend="seeded", random_state=3, **SMALL_BLM20
    ),
    "BLM20-agnostic": lambda: AgnosticBLM20Classifier(
        "thresholds:100",
        epsilon=4.0,
        delta=1e-3,
        subsample_size=20,
        inner_sizes=SMALL_BLM20,
        backend="seeded",
        random_state=3,
    ),
}


def _data(n=80, seed=0, labels=(0, 1)):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 100, size=(n, 1))
    return X, np.array(labels, dtype=object if isinstance(labels[0], str) else None)[(X[:, 0] >= 40).astype(int)]


@pytest.fixture(params=sorted(ESTIMATORS))
def make(request):
    return ESTIMATORS[request.param]


def test_fit_returns_self_and_leaves_parameters_alone(make):
    est = make()
    params = {k: repr(v) for k, v in est.get_params().items()}
    X, y = _data()
    assert est.fit(X, y) is est
    assert {k: repr(v) for k, v in est.get_params().items()} == params  # check_dont_overwrite_parameters
    assert {k for k in vars(est) if not k.endswith("_") and not k.startswith("_")} == set(params)
    assert est.n_features_in_ == 1 and list(est.classes_) == [0, 1]


def test_unfitted_predict_raises_not_fitted(make):
    with pytest.raises(NotFittedError):
        make().predict([[1]])


def test_fit_is_idempotent_and_clone_refits_the_same(make):
    X, y = _data()
    Xt = np.arange(100).reshape(-1, 1)
    est = make().fit(X, y)
    first = est.predict(Xt)
    assert (est.fit(X, y).predict(Xt) == first).all()  # check_fit_idempotent
    assert (clone(est).fit(X, y).predict(Xt) == first).all()


def test_pickle_round_trip(make):
    X, y = _data()
    est = make().fit(X, y)
    again = pickle.loads(pickle.dumps(est))
    Xt = np.arange(100).reshape(-1, 1)
    assert (again.predict(Xt) == est.predict(Xt)).all()  # check_estimators_pickle


def test_predict_is_row_wise(make):
    """check_methods_sample_order_invariance / check_methods_subset_invariance on in-domain points."""
    X, y = _data()
    est = make().fit(X, y)
    Xt = np.random.default_rng(1).integers(0, 100, size=(50, 1))
    full = est.predict(Xt)
    perm = np.random.default_rng(2).permutation(50)
    assert (est.predict(Xt[perm]) == full[perm]).all()
    assert (np.concatenate([est.predict(Xt[:17]), est.predict(Xt[17:])]) == full).all()


def test_bad_shapes_and_values_are_clear_errors(make):
    X, y = _data()
    est = make().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        est.predict(np.ones((3, 2), dtype=int))  # check_n_features_in_after_fitting
    with pytest.raises(DomainError, match="NaN"):
        make().fit(np.vstack([X, [[np.nan]]]), np.append(y, 0))  # check_estimators_nan_inf
    with pytest.raises(DomainError):
        make().fit(X + 0.5, y)  # off the integer domain: refused, never rounded silently
    with pytest.raises(LittlestoneError):
        make().fit(X, np.where(y == 1, 2, np.where(X[:, 0] < 20, 0, 1)))  # three labels


@pytest.mark.parametrize("labels", [(0, 1), (-1, 1), ("benign", "malignant")])
def test_labels_as_given_dtypes_and_2d_y(make, labels):
    X, y = _data(labels=labels)

    def declared():  # private estimators take the label pair from classes= (issue 9 item 2), never from the data
        est = make()
        return est.set_params(classes=labels) if "classes" in est.get_params() else est

    est = declared().fit(X.astype(object), y)  # check_dtype_object
    assert set(est.predict(X).tolist()) <= set(labels) and list(est.classes_) == list(labels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est2 = declared().fit(X.astype(np.float32), y.reshape(-1, 1))  # check_supervised_y_2d, check_estimators_dtypes
    assert (est2.predict(X) == est.predict(X)).all()


def test_readonly_input(make):
    X, y = _data()
    X.setflags(write=False)
    y.setflags(write=False)
    make().fit(X, y).predict(X)  # check_readonly_memmap_input
