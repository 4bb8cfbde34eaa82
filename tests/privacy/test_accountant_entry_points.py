"""Every private entry point charges, function forms included, and public checks come first (issue 32 items 5, 6):
``polyprilearn``, ``polypriproplearn`` and both ``agnostic_learn`` charge their claim to ``accountant=`` (None: the
default) and charge nothing when called inside an estimator's fit; a fit refused for its public sizes
(InsufficientSampleError) charges nothing."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.classes.ops import to_finite
from littlestone.errors import BudgetExceededError, InsufficientSampleError
from littlestone.pac import BLM20Classifier, PolyPriLearnClassifier, PolyPriPropLearnClassifier
from littlestone.pac.agnostic_proper import AgnosticPolyPriPropLearnClassifier
from littlestone.pac.sources import ArraySource
from littlestone.privacy import BudgetAccountant


pytestmark = pytest.mark.usefixtures("fresh_default_accountant")  # tests/conftest.py


def _src(n, seed=0):
    X = np.random.default_rng(seed).integers(0, 6, n)
    return ArraySource(X, (X >= 3).astype(np.int8))


def _polyprilearn(acc):
    from littlestone.pac.polyprilearn import polyprilearn

    return polyprilearn(Thresholds(6), _src(400), epsilon=2.0, delta=1e-3, n=20, m=10, K=1, backend="seeded",
                        seed=0, accountant=acc)  # fmt: skip


def _proper(acc):
    from littlestone.pac.proper import polypriproplearn

    return polypriproplearn(Thresholds(6), _src(1000), epsilon=8.0, delta=1e-3, n=20, m=40, K=1, n_generic=20,
                            backend="seeded", seed=0, accountant=acc)  # fmt: skip


def _agnostic_blm20(acc):
    from littlestone.pac.agnostic import agnostic_learn

    src = _src(5000)
    X, y = src.batch(0, len(src))
    inner = {"n_batches": 40, "aux_size": 3, "cap": 3, "n_generic": 30, "eta": 0.05}
    return agnostic_learn(Thresholds(6), X, y, epsilon=1.0, delta=1e-3, subsample_size=280, vc=1,
                          inner_sizes=inner, backend="seeded", seed=0, accountant=acc)  # fmt: skip


def _agnostic_proper(acc):
    from littlestone.pac.agnostic_proper import agnostic_learn

    inner = {"n": 1, "m": 1, "K": 1, "n_generic": 1}
    return agnostic_learn(to_finite(Thresholds(6)), _src(400), epsilon=4.0, delta=1e-3, n=200, inner_sizes=inner,
                          backend="seeded", seed=0, accountant=acc)  # fmt: skip


@pytest.mark.parametrize("learn", [_polyprilearn, _proper, _agnostic_blm20, _agnostic_proper])
def test_function_forms_charge_their_claim_once(learn):
    acc = BudgetAccountant(20.0, 0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = learn(acc)
        assert len(acc.ledger) == 1  # the whole claim, once (the inner learners it composes charge nothing)
        assert acc.spent == (pytest.approx(res.claim.epsilon), pytest.approx(res.claim.delta))
        learn(None)  # None: the default accountant
    assert len(BudgetAccountant.default().ledger) == 1
    tight = BudgetAccountant(res.claim.epsilon / 2, 0.5)
    with pytest.raises(BudgetExceededError):
        learn(tight)
    assert tight.ledger == []


def test_too_few_rows_for_the_public_sizes_charges_nothing():
    acc = BudgetAccountant(50.0, 0.5)
    X = np.random.default_rng(0).integers(0, 8, size=(30, 1))
    y = (X[:, 0] >= 4).astype(int)
    for est in (
        BLM20Classifier("thresholds:10", epsilon=1.0, delta=1e-6, accountant=acc),
        PolyPriLearnClassifier("thresholds:10", epsilon=4.0, delta=1e-6, n=10, m=10, K=1, accountant=acc),
        PolyPriPropLearnClassifier(
            "thresholds:10", epsilon=4.0, delta=1e-6, n=10, m=2, K=1, n_generic=50, accountant=acc
        ),  # fmt: skip
        AgnosticPolyPriPropLearnClassifier(
            "thresholds:8", epsilon=3.0, delta=1e-6, n=200, n_inner=1, m=1, K=1, n_generic=1, accountant=acc
        ),  # fmt: skip
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(InsufficientSampleError):
                est.fit(X, y)
        assert acc.ledger == [], type(est).__name__
    from littlestone.pac.blm20 import blm20_learn

    with pytest.raises(InsufficientSampleError):
        blm20_learn(Thresholds(10), _src(30), epsilon=1.0, delta=1e-6, accountant=acc)
    assert acc.ledger == []
