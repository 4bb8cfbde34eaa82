"""The sanitizers charge the accountant of the process that pickled them (issue 32's rule for estimators, extended):
fitted in joblib's process workers with ``accountant=None`` they charge the parent's default, not a fresh default of
the worker's own (a copy of a started DyadicSanitizer is charged again: tests/sanitizers/
test_sanitizers_privacy_calibration.py)."""

from __future__ import annotations

import numpy as np
import pytest
from joblib import Parallel, delayed

from littlestone.classes import Thresholds
from littlestone.errors import BudgetExceededError
from littlestone.privacy import BudgetAccountant
from littlestone.sanitizers.mwem import MWEM
from littlestone.sanitizers.threshold_label import ThresholdLabelSanitizer

X = np.arange(16).repeat(4)


def _fit(san, data):
    try:
        san.fit(data)
        return "fitted"
    except BudgetExceededError:
        return "refused"


@pytest.mark.parametrize(
    "make, data",
    [
        (lambda: MWEM(Thresholds(16), epsilon=0.3, backend="seeded", seed=0), X),
        (lambda: ThresholdLabelSanitizer(16, 0.3, backend="seeded", seed=0), list(zip(X.tolist(), (X >= 5).tolist()))),
    ],
    ids=["MWEM", "ThresholdLabelSanitizer"],
)
def test_sanitizers_fitted_in_worker_processes_charge_the_parents_default(make, data):
    with BudgetAccountant(0.5) as acc:
        out = Parallel(n_jobs=2, backend="loky")(delayed(_fit)(make(), data) for _ in range(3))
    assert sorted(out) == ["fitted", "refused", "refused"]  # one charge fits the parent's 0.5, two are refused there
    assert [c.epsilon for c in acc.ledger] == [0.3]
