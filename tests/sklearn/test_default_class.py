"""The data-independent default class of BLM20Classifier and the GGKM21 estimators (issue 21 item 8): decision stumps
on a fixed public grid of [-3, 3] per feature, with a DefaultCandidatesWarning."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_estimator

from littlestone.errors import ClassSpecError
from littlestone.pac import (
    AgnosticPolyPriPropLearnClassifier,
    BLM20Classifier,
    PolyPriLearnClassifier,
    PolyPriPropLearnClassifier,
)
from littlestone.pac.default_class import DEFAULT_SCALE, default_bins, default_grid, to_grid_points
from littlestone.pac.generic import DefaultCandidatesWarning

SMALL = {
    "PolyPriLearnClassifier": lambda **kw: PolyPriLearnClassifier(
        epsilon=4.0, delta=1e-3, n=1, m=2, K=1, backend="seeded", random_state=0, **kw
    ),
    "PolyPriPropLearnClassifier": lambda **kw: PolyPriPropLearnClassifier(
        epsilon=4.0, delta=1e-3, n=1, m=2, K=1, n_generic=1, backend="seeded", random_state=0, **kw
    ),
    "BLM20Classifier": lambda **kw: BLM20Classifier(
        backend="seeded", random_state=0, n_batches=2, aux_size=1, cap=1, n_generic=2, **kw
    ),
}
#: sklearn checks that still fail with the default class, and why (also in docs/sklearn.md)
STILL_FAILING = {
    "check_estimators_dtypes": "labels 0/1/2 outside the declared classes=(0, 1) (LabelError by design)",
    "check_classifier_data_not_an_array": "idem",
    "check_classifiers_classes": "labels 'one'/'two' outside the declared classes (LabelError by design)",
    "check_fit2d_1feature": "idem (labels outside the declared pair)",
    "check_fit2d_1sample": "wants an error naming '1 sample'; a private learner fits one sample (a DP output)",
    "check_dtype_object": "10 features: the default grid covers at most 8 (ClassSpecError)",
    "check_classifiers_train": "wants accuracy > 0.83 on blobs; at n=1, m=2 the private output is a coarse stump",
    "check_classifiers_one_label": "wants the constant prediction; a private output need not be constant",
}


def _data(n=60, k=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, k))
    return X, (X[:, 0] >= 0.0).astype(int)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_estimator_checks_without_a_class(name):
    """Before: 26 of 56 checks passed (29 failed on 'needs hypothesis_class'); now 45 pass and only the listed ones
    fail."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(SMALL[name](), on_fail=None)
    failed = {r["check_name"] for r in results if r["status"] == "failed"}
    passed = sum(r["status"] == "passed" for r in results)
    assert failed <= set(STILL_FAILING), failed - set(STILL_FAILING)
    assert passed >= 45


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("labels", [(0, 1), (-1, 1), ("no", "yes")])
def test_default_class_warns_and_keeps_labels(name, labels):
    X, y01 = _data()
    y = np.array(labels, dtype=object if isinstance(labels[0], str) else None)[y01]
    with pytest.warns(DefaultCandidatesWarning, match=r"fixed public grid.*\[-3, 3\]") as rec:
        est = SMALL[name](classes=labels).fit(X, y)
    assert not any("StandardScaler" in str(w.message) for w in rec)  # a data-fitted scaler would leak
    assert set(est.predict(X).tolist()) <= set(labels)
    assert est.hclass_.n_points == default_bins(2) ** 2 and est.hclass_.ldim() <= 5


def test_grid_is_data_independent_and_clips():
    edges, H = default_grid(3)
    assert [len(e) for e in edges] == [default_bins(3) - 1] * 3
    lo, hi = DEFAULT_SCALE
    pts = to_grid_points(np.array([[hi + 100, lo - 100, 0.0], [lo + 1e-9, hi - 1e-9, 0.99]]), edges)
    b = default_bins(3)  # 6 cells of width 1
    assert pts == [(b - 1, 0, b // 2), (0, b - 1, b // 2)]
    assert H.validate_points(pts) is not None
    assert [default_bins(k) for k in range(1, 9)] == [8, 8, 6, 4, 3, 2, 2, 2]
    with pytest.raises(ClassSpecError, match="at most 8 features"):
        default_bins(9)


def test_privacy_unchanged_and_default_needs_the_feature_count():
    X, y = _data()
    with pytest.raises(ClassSpecError, match="number of features"):
        PolyPriLearnClassifier().privacy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = SMALL["PolyPriLearnClassifier"]().fit(X, y)
    _, H = default_grid(2)
    explicit = PolyPriLearnClassifier(H, epsilon=4.0, delta=1e-3, n=1, m=2, K=1)
    assert est.privacy() == explicit.privacy()
    assert PolyPriLearnClassifier("thresholds:100").privacy()[0] == 1.0  # explicit classes: as before


def test_predict_maps_rows_like_fit_and_round_trips():
    X, y = _data(n=200)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = SMALL["PolyPriPropLearnClassifier"]().fit(X, y)
    pts = to_grid_points(X, est.grid_edges_)
    assert (est.predict(X) == est.hypothesis_.predict(est.hclass_.validate_points(pts))).all()
    loaded = PolyPriPropLearnClassifier.from_json(est.to_json())
    assert loaded.hypothesis_class is None and loaded.hclass_ is est.hclass_
    assert (loaded.predict(X) == est.predict(X)).all()


def test_agnostic_default_refuses_small_data():
    """The agnostic learner with the default class (Ldim up to 5) refuses sklearn-sized data clearly."""
    from littlestone.errors import InsufficientSampleError

    X, y = _data(n=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InsufficientSampleError):
            AgnosticPolyPriPropLearnClassifier(
                epsilon=3.0, n=40, n_inner=1, m=1, K=1, n_generic=1, backend="seeded", random_state=0
            ).fit(X, y)
