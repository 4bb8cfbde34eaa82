"""Issue 9 item 2: private estimators take their label set from the user, never from the private labels."""

import warnings

import numpy as np
import pytest

from littlestone.errors import LabelError, PrivacyLeakWarning
from littlestone.pac import AgnosticBLM20Classifier, BLM20Classifier, ERMClassifier, GenericLearnerClassifier

SMALL = dict(n_batches=2, aux_size=1, cap=1, n_generic=2)
PRIVATE = {
    "generic": lambda **kw: GenericLearnerClassifier(
        "thresholds:8", epsilon=1.0, backend="seeded", random_state=0, **kw
    ),
    "blm20": lambda **kw: BLM20Classifier(
        "thresholds:8", epsilon=1.0, delta=1e-3, backend="seeded", random_state=0, **SMALL, **kw
    ),
    "agnostic": lambda **kw: AgnosticBLM20Classifier(
        "thresholds:8",
        epsilon=4.0,
        delta=1e-3,
        subsample_size=6,
        inner_sizes=SMALL,
        backend="seeded",
        random_state=0,
        **kw,
    ),
}
X = np.array([[1], [2], [5], [6]] * 4)


@pytest.fixture(params=sorted(PRIVATE))
def make(request):
    return PRIVATE[request.param]


def test_label_coding_does_not_depend_on_the_labels(make):
    # before: y = (1,-1,1,1) gave classes_ [-1, 1], y = (1,1,1,1) gave [0, 1] (δ = 1 from classes_ alone)
    a = make(classes=(-1, 1)).fit(X, [1, -1, 1, 1] * 4)
    b = make(classes=(-1, 1)).fit(X, [1, 1, 1, 1] * 4)
    assert list(a.classes_) == list(b.classes_) == [-1, 1]
    assert set(a.predict(X).tolist()) <= {-1, 1} and set(b.predict(X).tolist()) <= {-1, 1}


def test_default_classes_are_zero_one_and_others_are_refused(make):
    assert list(make().fit(X, [0, 0, 1, 1] * 4).classes_) == [0, 1]
    assert list(make().fit(X, [1, 1, 1, 1] * 4).classes_) == [0, 1]
    with pytest.raises(LabelError, match="declared binary classes"):
        make().fit(X, [1, -1, 1, 1] * 4)
    with pytest.raises(LabelError, match="binary"):
        make(classes=("no", "yes")).fit(X, ["no", "yes", "maybe", "yes"] * 4)
    with pytest.raises(LabelError, match="declared binary classes"):
        make(classes=("no", "yes")).fit(X, ["no", "maybe", "no", "maybe"] * 4)


def test_string_labels_declared(make):
    est = make(classes=("no", "yes")).fit(X, np.array(["no", "no", "yes", "yes"] * 4, dtype=object))
    assert list(est.classes_) == ["no", "yes"]


def test_inferred_classes_warn(make):
    with pytest.warns(PrivacyLeakWarning, match="label set"):
        est = make(classes=None).fit(X, [1, -1, 1, 1] * 4)
    assert list(est.classes_) == [-1, 1]


def test_bad_classes_parameter():
    for bad in ((1, 1), (0, 1, 2), "ab", 3):
        with pytest.raises(LabelError):
            PRIVATE["generic"](classes=bad).fit(X, [0, 0, 1, 1] * 4)


def test_non_private_baseline_still_infers_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(ERMClassifier("thresholds:8").fit(X, ["a", "a", "b", "b"] * 4).classes_) == ["a", "b"]


def test_declared_classes_survive_json(tmp_path):
    est = PRIVATE["generic"](classes=("no", "yes")).fit(X, ["no", "no", "yes", "yes"] * 4)
    loaded = GenericLearnerClassifier.from_json(est.to_json(tmp_path / "m.json"))
    assert loaded.classes == ("no", "yes") and list(loaded.classes_) == ["no", "yes"]
