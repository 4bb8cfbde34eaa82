"""PrivateGridSearchCV as a user meets it (issue 32 item 9): the estimator's accountant is the one charged (a
conflicting pair refused), Pipelines of public maps accepted and data-fitted steps refused, hypothesis classes
shared by clones (not deep-copied), the warning for grids of report-only parameters, and the claim still ε (audited
with a pipeline)."""

from __future__ import annotations

import copy
import dataclasses
import math
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.compose import ColumnTransformer, make_column_selector
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, KBinsDiscretizer, Normalizer, StandardScaler

from littlestone.classes import FiniteClass, Thresholds
from littlestone.errors import LittlestoneError
from littlestone.pac import (
    BLM20Classifier,
    GenericLearnerClassifier,
    GridDiscretizer,
    IdenticalCandidatesWarning,
    PrivateGridSearchCV,
    SelectColumns,
    grid_stumps,
)
from littlestone.privacy import BudgetAccountant


pytestmark = pytest.mark.usefixtures("fresh_default_accountant")  # tests/conftest.py


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 16, size=(n, 1))
    y = (X[:, 0] >= 9).astype(int)
    return X, np.where(rng.random(n) < 0.05, 1 - y, y)


CLASSES = {"hypothesis_class": ["thresholds:16", "thresholds:17"]}  # a grid that changes the model


def _sel(est, grid, **kw):
    return PrivateGridSearchCV(est, grid, **({"backend": "seeded", "random_state": 0, "epsilon": 0.6} | kw))


class _Untouchable:
    shape = (500, 2)

    def __len__(self):
        return 500

    def __array__(self, *a, **k):
        raise AssertionError("the data was read")


# ---------------------------------------------------------------------------------------------------- accountant
def test_the_estimators_accountant_is_charged_not_the_default():
    X, y = _data()
    acc = BudgetAccountant(5.0)
    sel = _sel(GenericLearnerClassifier(accountant=acc), CLASSES).fit(X, y)
    assert acc.spent == (pytest.approx(0.6), 0.0) and len(acc.ledger) == 1
    assert "PrivateGridSearchCV" in acc.ledger[0].what
    assert BudgetAccountant.default().ledger == []  # the global default is not charged
    assert sel.best_estimator_.accountant is acc  # the chosen model keeps the user's accountant
    # inside a pipeline: the private step's accountant
    acc2 = BudgetAccountant(5.0)
    pipe = make_pipeline(SelectColumns([0]), GenericLearnerClassifier(accountant=acc2))
    _sel(pipe, {"genericlearnerclassifier__hypothesis_class": ["thresholds:16", "thresholds:17"]}).fit(X, y)
    assert acc2.spent == (pytest.approx(0.6), 0.0) and BudgetAccountant.default().ledger == []
    # the same accountant on both: one charge
    acc3 = BudgetAccountant(5.0)
    _sel(GenericLearnerClassifier(accountant=acc3), CLASSES, accountant=acc3).fit(X, y)
    assert len(acc3.ledger) == 1
    # neither: the default accountant
    _sel(GenericLearnerClassifier(), CLASSES).fit(X, y)
    assert BudgetAccountant.default().spent == (pytest.approx(0.6), 0.0)


def test_two_different_accountants_are_refused_before_any_charge():
    mine, theirs = BudgetAccountant(5.0), BudgetAccountant(5.0)
    sel = _sel(GenericLearnerClassifier(accountant=theirs), CLASSES, accountant=mine)
    with pytest.raises(LittlestoneError, match="different accountants") as info:
        sel.fit(_Untouchable(), _Untouchable())
    assert "\n" not in str(info.value)
    assert mine.ledger == [] and theirs.ledger == [] and BudgetAccountant.default().ledger == []


def test_the_estimators_budget_is_enforced():
    from littlestone.errors import BudgetExceededError

    acc = BudgetAccountant(0.5)
    with pytest.raises(BudgetExceededError, match="PrivateGridSearchCV"):
        _sel(GenericLearnerClassifier(accountant=acc), CLASSES).fit(_Untouchable(), _Untouchable())
    assert acc.ledger == []


# ---------------------------------------------------------------------------------------------------- pipelines
def _breast_pipeline(bins=8):
    return make_pipeline(
        SelectColumns([22, 27]),
        GridDiscretizer([(50.41, 251.2), (0.0, 0.291)], bins),
        GenericLearnerClassifier(grid_stumps(bins, 2)),
    )


def test_pipeline_of_public_maps_is_accepted_with_step_keys():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    y = 1 - y
    grid = [
        {"griddiscretizer__bins": [b], "genericlearnerclassifier__hypothesis_class": [grid_stumps(b, 2)]}
        for b in (2, 4, 8)
    ]
    acc = BudgetAccountant(2.0)
    sel = _sel(_breast_pipeline(), grid, epsilon=1.0, accountant=acc).fit(X, y)
    assert acc.spent == (pytest.approx(1.0), 0.0) and sel.privacy(len(y)) == (pytest.approx(1.0), 0.0, "replace-one")
    best = sel.best_estimator_
    assert best.named_steps["griddiscretizer"].bins == sel.best_params_["griddiscretizer__bins"]
    assert best.named_steps["genericlearnerclassifier"].epsilon == 1.0  # EM: each candidate at ε on its chunk
    assert sel.score(X, y) > 0.8 and list(sel.classes_) == [0, 1]


@pytest.mark.parametrize(
    "step, match",
    [
        (StandardScaler(), "'standardscaler' \\(StandardScaler\\) is fitted on the data"),
        (KBinsDiscretizer(n_bins=4), "KBinsDiscretizer\\) is fitted on the data"),
        (GridDiscretizer(None, 4), "infers its ranges"),
        (FunctionTransformer(np.log1p), "arbitrary function"),
        (ColumnTransformer([("c", "passthrough", make_column_selector())]), "callable"),
        (ColumnTransformer([("s", StandardScaler(), [0])], remainder="drop"), "StandardScaler\\) is fitted"),
        (make_pipeline(SelectColumns([0]), StandardScaler()), "StandardScaler"),
    ],
)
def test_data_fitted_steps_are_refused_in_one_line_before_the_data_is_read(step, match):
    acc = BudgetAccountant(5.0)
    pipe = make_pipeline(step, GenericLearnerClassifier(accountant=acc))
    sel = _sel(pipe, {"genericlearnerclassifier__hypothesis_class": ["thresholds:16", "thresholds:17"]})
    with pytest.raises(LittlestoneError, match=match) as info:
        sel.fit(_Untouchable(), _Untouchable())
    assert "\n" not in str(info.value) and "no privacy claim covers" in str(info.value)
    assert acc.ledger == [] and BudgetAccountant.default().ledger == []


def test_public_maps_accepted_and_grid_may_not_make_a_step_data_fitted():
    X, y = _data()
    X2 = np.hstack([X, X])
    grid = {"genericlearnerclassifier__hypothesis_class": ["thresholds:16", "thresholds:17"]}
    for step in (
        SelectColumns([1]),
        ColumnTransformer([("keep", "passthrough", [0])], remainder="drop"),
        make_pipeline(FunctionTransformer(), SelectColumns([0])),  # the identity
        make_pipeline(SelectColumns([0, 1]), SelectColumns([0])),
    ):
        sel = _sel(make_pipeline(step, GenericLearnerClassifier()), grid).fit(X2, y)
        assert sel.score(X2, y) > 0.7
    assert _sel(make_pipeline(Normalizer(), GenericLearnerClassifier("thresholds:2")), {})._candidates([{}])
    bad = grid | {"griddiscretizer__ranges": [[(0, 16)], None]}
    pipe = make_pipeline(GridDiscretizer([(0, 16)], 16), GenericLearnerClassifier())
    with pytest.raises(LittlestoneError, match="infers its ranges"):
        _sel(pipe, bad).fit(_Untouchable(), _Untouchable())
    for key in ("genericlearnerclassifier__epsilon", "genericlearnerclassifier__accountant"):
        with pytest.raises(LittlestoneError, match="may not set"):
            _sel(pipe, {key: [0.1, 1.0]}).fit(_Untouchable(), _Untouchable())
    with pytest.raises(LittlestoneError, match="last step of the Pipeline is a StandardScaler"):
        _sel(make_pipeline(SelectColumns([0]), StandardScaler()), {}).fit(_Untouchable(), _Untouchable())


# ---------------------------------------------------------------------------------------------------- cost
def test_hypothesis_classes_are_shared_by_clones_not_deep_copied():
    from littlestone.classes import AllFunctions, Intervals, Points
    from littlestone.classes.label_class import LabelClass

    H = grid_stumps(4, 3)
    for cls in (H, Thresholds(16), Intervals(8), Points(5), AllFunctions(4), LabelClass(Thresholds(4))):
        assert copy.deepcopy(cls) is cls and copy.copy(cls) is cls
        assert clone(GenericLearnerClassifier(cls)).hypothesis_class is cls
    assert not H.matrix.flags.writeable  # really immutable through the class
    with pytest.raises(ValueError):
        H.matrix[0, 0] = 1 - H.matrix[0, 0]

    class Mutable(FiniteClass, immutable=False):  # a subclass adding mutable state is copied again
        pass

    M = Mutable([[0, 1], [1, 1]])
    assert copy.deepcopy(M) is not M and copy.deepcopy(LabelClass(M)).base is not M


def test_search_clones_once_per_trained_candidate_and_shares_the_class(monkeypatch):
    from littlestone.pac import private_selection

    calls = []
    real_clone = private_selection.clone
    monkeypatch.setattr(private_selection, "clone", lambda e: calls.append(e) or real_clone(e))
    H = grid_stumps(16, 2)
    rng = np.random.default_rng(1)
    X = rng.integers(0, 16, size=(800, 2))
    y = (X[:, 0] >= 8).astype(int)
    est = GenericLearnerClassifier(H)
    grid = {"hypothesis_class": [H, grid_stumps(16, 2)], "classes": [(0, 1), (1, 0)]}  # K = 4
    sel = _sel(est, grid, method="em").fit(X, y)
    assert len(calls) == 4  # one per configuration: claims read from the prepared candidates, no extra clones
    assert sel.best_estimator_.hypothesis_class in (H, grid["hypothesis_class"][1])
    assert any(sel.best_estimator_.hypothesis_class is h for h in grid["hypothesis_class"])  # shared, not copied
    calls.clear()
    lt = _sel(est, grid, method="lt19", n_iter=3, diagnostics=True).fit(X, y)
    assert len(calls) == 4 + lt.diagnostics_["runs"]  # the plan's K, then one per run


# ---------------------------------------------------------------------------------------------------- warning
def test_grid_of_report_only_parameters_warns():
    X, y = _data()
    grid = {"hypothesis_class": ["thresholds:16"], "mode": ["agnostic", "realizable"], "alpha": [0.1, 0.2]}
    with pytest.warns(IdenticalCandidatesWarning, match="alpha, mode.*4 candidates would be identical.*fraction"):
        _sel(GenericLearnerClassifier(), grid).fit(X, y)
    pipe = make_pipeline(SelectColumns([0]), GenericLearnerClassifier("thresholds:16"))
    with pytest.warns(IdenticalCandidatesWarning, match="identical"):
        _sel(pipe, {"genericlearnerclassifier__mode": ["agnostic", "realizable"]}).fit(X, y)
    with pytest.warns(IdenticalCandidatesWarning, match="all the same"):
        _sel(GenericLearnerClassifier(), {"hypothesis_class": ["thresholds:16", "thresholds:16"]}).fit(X, y)
    assert "diagnostics" in BLM20Classifier._report_only_params
    with warnings.catch_warnings():
        warnings.simplefilter("error", IdenticalCandidatesWarning)
        _sel(GenericLearnerClassifier(), CLASSES | {"mode": ["agnostic", "realizable"]}).fit(X, y)
        _sel(GenericLearnerClassifier(), {"hypothesis_class": ["thresholds:16"]}).fit(X, y)  # K = 1: nothing shared
        _sel(pipe, {"genericlearnerclassifier__classes": [(0, 1), (1, 0)]}).fit(X, y)


# ---------------------------------------------------------------------------------------------------- the claim
def _piped_runs():
    """The registry's selection audit mechanisms, their estimator wrapped in a Pipeline (a public column selection
    before the learner; grid keys prefixed)."""
    from littlestone.audit.private_selection import ArgmaxSelection, SelectionRun

    class Piped:
        def selector(self, backend, *, diagnostics=False):
            sel = SelectionRun.selector(self, backend, diagnostics=diagnostics)
            grid = {f"genericlearnerclassifier__{k}": v for k, v in sel.param_grid.items()}
            return sel.set_params(estimator=make_pipeline(SelectColumns([0]), sel.estimator), param_grid=grid)

    class PipedRun(Piped, SelectionRun):
        pass

    class PipedArgmax(Piped, ArgmaxSelection):
        pass

    return PipedRun, PipedArgmax


def test_claim_is_still_epsilon_audited_through_a_pipeline():
    """The EM selector's audit through a Pipeline passes with the claim ε = 1, and its argmax twin through the same
    Pipeline is caught — the pipeline path releases what the claim covers, and the audit would see it if not."""
    from littlestone.audit import builtin_audits

    PipedRun, PipedArgmax = _piped_runs()
    base = builtin_audits()["private_selection_em"]
    piped = dataclasses.replace(base, mechanism=PipedRun(1.0, "em"), runs=150)
    assert piped.mechanism.privacy().epsilon == pytest.approx(1.0) and piped.mechanism.privacy().delta == 0
    assert piped.run(seed=7).passed
    twin = dataclasses.replace(base, mechanism=PipedArgmax(1.0, "em"), runs=150)
    rep = twin.run(seed=7)
    assert rep.passed is False and rep.epsilon_lb > 1.0 and math.isfinite(rep.claimed_epsilon)


@pytest.mark.slow
def test_claim_is_still_epsilon_audited_lt19_and_bare():
    from littlestone.audit import builtin_audits

    PipedRun, _ = _piped_runs()
    audits = builtin_audits()
    for name in ("private_selection_em", "private_selection_lt19"):
        base = audits[name]
        assert base.run(seed=7).passed
        piped = dataclasses.replace(base, mechanism=PipedRun(1.0, base.mechanism.method))
        assert piped.run(seed=7).passed
