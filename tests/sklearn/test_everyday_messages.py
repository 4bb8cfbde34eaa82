"""Issue 28 item 6: one clear LittlestoneError for a string feature under the default class and for NaN labels (no
bare ValueError, no RuntimeWarning); ``delta=`` on the pure-DP generic learner accepted (unused, claim (ε, 0))."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV

from littlestone.errors import DomainError, LabelError, PrivacyParameterError
from littlestone.pac import BLM20Classifier, ERMClassifier, GenericLearnerClassifier, PolyPriLearnClassifier

X_STR = np.array([[1.0, "a"], [2.0, "b"], [0.5, "a"], [3.0, "b"]], dtype=object)
Y4 = [0, 1, 0, 1]


@pytest.mark.parametrize("cls", [GenericLearnerClassifier, ERMClassifier, BLM20Classifier, PolyPriLearnClassifier])
def test_string_feature_with_the_default_class_names_the_feature(cls):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(DomainError, match=r"^feature 1 holds a non-numeric value \(a str\).*needs numbers"):
            cls(random_state=0).fit(X_STR, Y4)


def test_string_feature_error_uses_the_column_name():
    est = GenericLearnerClassifier(random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(np.zeros((4, 2)), Y4)
    est.feature_names_in_ = np.array(["age", "city"], dtype=object)  # as validate_data sets it for a DataFrame
    with pytest.raises(DomainError, match=r"feature 1 \('city'\)"):
        est._validated_points(X_STR)


def test_string_points_of_an_explicit_class_still_work():
    # a class over string points is not the default grid: strings stay valid points
    from littlestone.classes import FiniteClass

    H = FiniteClass(np.array([[0, 1], [1, 0]], dtype=np.uint8), points=["a", "b"])
    est = ERMClassifier(H).fit(np.array([["a"], ["b"]], dtype=object), [0, 1])
    assert list(est.predict(np.array([["a"], ["b"]], dtype=object))) == [0, 1]


@pytest.mark.parametrize("bad", [np.nan, np.inf, None])
@pytest.mark.parametrize("cls", [GenericLearnerClassifier, ERMClassifier, BLM20Classifier])
def test_missing_labels_one_error_no_warning(cls, bad):
    X = np.random.default_rng(0).normal(size=(20, 1))
    y = np.r_[np.zeros(10), np.ones(9), 0.0].astype(object if bad is None else float)
    y[-1] = bad
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(LabelError, match=r"^y has 1 missing or infinite label\(s\).*first at row 19"):
            cls(random_state=0).fit(X, y)
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]


def test_generic_learner_accepts_delta_and_spends_none():
    X = np.random.default_rng(1).normal(size=(200, 1))
    y = (X[:, 0] > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = GenericLearnerClassifier(epsilon=1.0, delta=1e-5, backend="seeded", random_state=3).fit(X, y)
        b = GenericLearnerClassifier(epsilon=1.0, backend="seeded", random_state=3).fit(X, y)
        assert a.result_.spent == (1.0, 0.0)  # pure DP: the δ actually spent is 0
        np.testing.assert_array_equal(a.predict(X), b.predict(X))  # δ changes nothing
        assert clone(a).get_params()["delta"] == 1e-5
        search = GridSearchCV(GenericLearnerClassifier(backend="seeded", random_state=0), {"delta": [0.0, 1e-6]}, cv=2)
        search.fit(X, y)
        for bad in (-0.1, 1.0, "x"):
            with pytest.raises(PrivacyParameterError, match="delta"):
                GenericLearnerClassifier(delta=bad, backend="seeded").fit(X, y)
