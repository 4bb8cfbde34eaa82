"""scikit-learn's estimator checks on the GGKM21 estimators (tiny sizes): every check passes except those that feed
real-valued points outside the class's domain, which fail with the class's DomainError only, and those that feed
labels outside the declared pair classes=(0, 1), which fail with a LabelError naming it (as for BLM20)."""

from __future__ import annotations

import warnings

import pytest
from sklearn.utils.estimator_checks import check_estimator

from littlestone.errors import DomainError, LabelError
from littlestone.pac import AgnosticPolyPriPropLearnClassifier, PolyPriLearnClassifier, PolyPriPropLearnClassifier


@pytest.mark.parametrize(
    "est",
    [
        PolyPriLearnClassifier(
            "thresholds:100", epsilon=4.0, delta=1e-3, n=1, m=2, K=1, backend="seeded", random_state=0
        ),
        PolyPriPropLearnClassifier(
            "thresholds:100", epsilon=4.0, delta=1e-3, n=1, m=2, K=1, n_generic=1, backend="seeded", random_state=0
        ),
        AgnosticPolyPriPropLearnClassifier(
            "thresholds:8", epsilon=3.0, n=10, n_inner=1, m=1, K=1, n_generic=1, backend="seeded", random_state=0
        ),
    ],
    ids=["PolyPriLearn", "PolyPriPropLearn", "AgnosticPolyPriPropLearn"],
)
def test_estimator_checks_fail_only_on_the_domain(est):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(est, on_fail=None)
    passed = [r for r in results if r["status"] == "passed"]
    bad = []
    for r in results:
        if r["status"] == "failed":
            e = r["exception"]
            err = e if isinstance(e, (DomainError, LabelError)) else e.__cause__
            declared = isinstance(err, LabelError) and "declared binary classes (0, 1)" in str(err)
            if not (isinstance(err, DomainError) or declared):
                bad.append((r["check_name"], repr(e)[:200]))
    assert not bad and len(passed) > 10
