"""Issue 19 leaks 1, 2, 5, 6 in the GGKM21 estimators: what a fitted estimator releases (result_, summary(), model
JSON) holds nothing the claim does not cover; secret randomness never follows random_state; labels are declared."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from littlestone.classes import Thresholds
from littlestone.classes.ops import to_finite
from littlestone.errors import FallbackLikelyWarning, LabelError, PrivacyLeakWarning
from littlestone.pac import AgnosticPolyPriPropLearnClassifier, PolyPriLearnClassifier, PolyPriPropLearnClassifier
from littlestone.privacy.partition import DataSplit

H = to_finite(Thresholds(6))
AGN = dict(epsilon=3.0, delta=1e-3, n=200, n_inner=1, m=1, K=1, n_generic=1)


def _data(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 6, size=n)
    return X.reshape(-1, 1), (X >= 3).astype(int)


def _estimators(**kw):
    return [
        PolyPriLearnClassifier("thresholds:6", epsilon=2.0, delta=1e-3, n=20, m=10, K=1, **kw),
        PolyPriPropLearnClassifier("thresholds:6", epsilon=2.0, delta=1e-3, n=20, m=5, K=1, n_generic=20, **kw),
        AgnosticPolyPriPropLearnClassifier(H, **AGN, **kw),
    ]


def test_agnostic_proper_never_releases_the_number_of_labellings():
    """Leak 1: |R| (labellings of H on the secret subsample) is a diagnostic, never in result_/summary/JSON."""
    X, y = _data()
    est = AgnosticPolyPriPropLearnClassifier(H, **AGN, backend="seeded", random_state=0).fit(X, y)
    assert not hasattr(est.result_, "n_patterns") and est.result_.diagnostics is None
    assert "|R|" not in est.result_.summary() and "n_patterns" not in est.to_json()
    diag = AgnosticPolyPriPropLearnClassifier(H, **AGN, backend="seeded", random_state=0, diagnostics=True).fit(X, y)
    assert diag.result_.diagnostics["n_patterns"] >= 1 and "non-private" in diag.result_.summary()
    assert "n_patterns" not in diag.to_json() and "wall_time" not in diag.to_json()


def _subsamples(monkeypatch, backend, random_state=0, fits=2):
    seen = []
    real = DataSplit.subsample

    def spy(self, m, rng, name, within=None):
        part = real(self, m, rng, name, within)
        seen.append(tuple(part.indices.tolist()))
        return part

    monkeypatch.setattr(DataSplit, "subsample", spy)
    X, y = _data()
    for _ in range(fits):
        AgnosticPolyPriPropLearnClassifier(H, **AGN, backend=backend, random_state=random_state).fit(X, y)
    return seen


def test_agnostic_proper_secret_subsample_does_not_follow_random_state(monkeypatch):
    """Leak 2: on the secure backend the subsample I comes from the OS CSPRNG, whatever random_state (saved in the
    model file) says; on the seeded backend (not private) it is reproducible."""
    secure = _subsamples(monkeypatch, "secure", fits=3)
    assert len(set(secure)) == 3  # 8 of 200: three equal draws have probability < 1e-25
    seeded = _subsamples(monkeypatch, "seeded", fits=2)
    assert seeded[-1] == seeded[-2]


@pytest.mark.parametrize("est", _estimators(backend="seeded", random_state=0), ids=lambda e: type(e).__name__)
def test_labels_are_declared_never_read_from_the_data(est):
    """Leak 5: classes=(0, 1) by default; one-label data fits (no data-dependent failure); classes=None warns."""
    X, y = _data()
    est.fit(X, np.zeros_like(y))  # every label equal: same outcome kind as any other data
    assert list(est.classes_) == [0, 1]
    with pytest.raises(LabelError, match="declared binary classes"):
        est.fit(X, np.where(y, 1, -1))
    est.set_params(classes=(-1, 1)).fit(X, np.where(y, 1, -1))
    assert set(est.predict(X)) <= {-1, 1}
    with pytest.warns(PrivacyLeakWarning):
        est.set_params(classes=None).fit(X, y)


@pytest.mark.parametrize("est", _estimators(backend="seeded", random_state=0), ids=lambda e: type(e).__name__)
def test_no_timing_outside_diagnostics(est):
    """Leak 6: wall_time only in diagnostics (diagnostics=True), never in a result field, a summary or the JSON."""
    X, y = _data()
    est.fit(X, y)
    saved = json.dumps(json.loads(est.to_json())["result"])
    assert "wall_time" not in saved and "diagnostics" not in saved
    assert not hasattr(est.result_, "wall_time") and est.result_.diagnostics is None
    est.set_params(diagnostics=True).fit(X, y)
    assert est.result_.diagnostics["wall_time"] >= 0
    saved = json.dumps(json.loads(est.to_json())["result"])
    assert "wall_time" not in saved and "diagnostics" not in saved


@pytest.mark.parametrize("est", _estimators(backend="seeded", random_state=0), ids=lambda e: type(e).__name__)
def test_result_claim_is_privacy(est):
    """The claim a fit reports is the estimator's privacy() (the same composition of the same mechanisms)."""
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", FallbackLikelyWarning)  # computed from public sizes only (issue 28)
        est.fit(X, y)
    r = est.result_
    assert (r.epsilon, r.delta, r.relation) == est.privacy() == (*r.claim.pair, r.claim.relation)
