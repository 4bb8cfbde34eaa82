"""PrivateGridSearchCV (issue 28 item 2): the total claim of each selector (EM over validation accuracy; Liu–Talwar
random stopping), the method rule, one charge before any data is read, candidates' fits covered, the refusals.
The audits (private_selection_em / _lt19, twin private_selection_argmax) are in the registry."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from littlestone.errors import BudgetExceededError, LittlestoneError, PrivacyParameterError
from littlestone.pac import BLM20Classifier, GenericLearnerClassifier, PrivateGridSearchCV
from littlestone.privacy import BudgetAccountant

#: GRID4 varies only report-only parameters (it exercises K = 4 on one model): the warning is tested in
#: tests/sklearn/test_private_grid_search.py
pytestmark = [
    pytest.mark.filterwarnings("ignore::littlestone.pac.private_selection.IdenticalCandidatesWarning"),
    pytest.mark.usefixtures("fresh_default_accountant"),  # tests/conftest.py
]


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 16, size=(n, 1))
    y = (X[:, 0] >= 9).astype(int)
    flip = rng.random(n) < 0.05
    return X, np.where(flip, 1 - y, y)


GRID4 = {"hypothesis_class": ["thresholds:16"], "mode": ["agnostic", "realizable"], "alpha": [0.1, 0.2]}


def _sel(grid, **kw):
    kw = {"backend": "seeded", "random_state": 0} | kw
    return PrivateGridSearchCV(GenericLearnerClassifier(), grid, **kw)


def test_claims_method_rule_and_one_charge():
    X, y = _data()
    for grid, method in (
        (GRID4, "lt19"),
        ({"hypothesis_class": ["thresholds:16"], "mode": ["agnostic", "realizable"]}, "em"),
    ):
        acc = BudgetAccountant(10.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sel = _sel(grid, epsilon=0.8, accountant=acc, diagnostics=True, method=method).fit(X, y)
        assert sel.method_ == method
        assert sel.spent == (pytest.approx(0.8), 0.0) and sel.privacy() == (pytest.approx(0.8), 0.0, "replace-one")
        assert acc.spent == (pytest.approx(0.8), 0.0) and len(acc.ledger) == 1  # candidates' fits are covered
        assert sel.best_params_ in list(__import__("sklearn").model_selection.ParameterGrid(grid))
        assert sel.score(X, y) > 0.8
        assert BudgetAccountant.default().ledger == []
    # the parts: LT19 = 3 × max(candidate at ε/3, Laplace score at ε/3); EM = max(candidates at ε on disjoint chunks,
    # EM at ε on the validation part)
    q = sel.claim_.parts
    assert q and all(p.epsilon <= 0.8 + 1e-12 for p in q)
    lt = _sel(GRID4, epsilon=0.9, method="lt19").fit(X, y)
    assert lt.claim_.epsilon == pytest.approx(3 * lt.claim_.parts[0].epsilon) == pytest.approx(0.9)
    assert lt.best_estimator_.epsilon == pytest.approx(0.3)  # each candidate runs at ε/3


def test_em_candidates_are_trained_on_disjoint_chunks_at_full_epsilon():
    X, y = _data(300)
    sel = _sel(
        {"hypothesis_class": ["thresholds:16"], "mode": ["agnostic", "realizable"]}, epsilon=0.5, validation_size=0.2
    ).fit(X, y)
    assert sel.best_estimator_.epsilon == 0.5 and sel.best_estimator_.result_.n == 120  # 240 training rows / 2


def test_lt19_runs_and_secret_stopping():
    X, y = _data()
    sel = _sel(GRID4, epsilon=1.0, n_iter=30, diagnostics=True, method="lt19").fit(X, y)
    assert sel.diagnostics_["runs"] >= 1 and sel.best_score_ is not None
    runs = [
        _sel(GRID4, epsilon=1.0, n_iter=10, diagnostics=True, random_state=s).fit(X, y).diagnostics_["runs"]
        for s in range(12)
    ]
    assert 2 < np.mean(runs) < 40  # geometric with mean 1/γ = 10
    assert "runs" not in vars(sel) and not hasattr(sel, "n_runs_")  # the run count is not released


def test_approximate_dp_candidates_go_to_em():
    X, y = _data(3000)
    est = BLM20Classifier("thresholds:16", delta=1e-6, n_batches=20, aux_size=2, cap=0, n_generic=100)
    grid = {"eta": [0.05, 0.1, 0.2, 0.3]}
    sel = PrivateGridSearchCV(est, grid, epsilon=1.0, backend="seeded", random_state=0)
    assert sel.privacy(3000)[:2] == (pytest.approx(1.0), pytest.approx(1e-6 / 4, rel=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel.fit(X, y)
    assert sel.method_ == "em"
    with pytest.raises(PrivacyParameterError, match="pure"):
        PrivateGridSearchCV(est, grid, epsilon=1.0, method="lt19").privacy(3000)


class _Untouchable:
    shape = (500, 1)

    def __len__(self):
        return 500

    def __array__(self, *a, **k):
        raise AssertionError("the data was read")


def test_refusals_before_any_data_is_read():
    acc = BudgetAccountant(0.5)
    with pytest.raises(BudgetExceededError, match="PrivateGridSearchCV"):
        _sel(GRID4, epsilon=1.0, accountant=acc).fit(_Untouchable(), _Untouchable())
    assert acc.ledger == []
    for bad, match in (
        (dict(param_grid={"epsilon": [0.1, 1.0]}), "may not set epsilon"),
        (dict(validation_size=1.5), "validation_size"),
        (dict(method="best"), "method"),
        (dict(epsilon=-1.0), "epsilon"),
    ):
        kw = dict(param_grid=GRID4, epsilon=1.0) | bad
        with pytest.raises(LittlestoneError, match=match):
            PrivateGridSearchCV(GenericLearnerClassifier(), **kw).fit(_Untouchable(), _Untouchable())
    with pytest.raises(LittlestoneError, match="private littlestone estimators"):
        from sklearn.tree import DecisionTreeClassifier

        PrivateGridSearchCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}).fit(_Untouchable(), _Untouchable())


def test_selection_is_clonable_and_not_double_charged_in_cross_val_score():
    from sklearn.model_selection import cross_val_score

    X, y = _data(600)
    acc = BudgetAccountant(10.0)
    scores = cross_val_score(
        _sel({"hypothesis_class": ["thresholds:16"], "mode": ["agnostic", "realizable"]}, epsilon=0.5, accountant=acc),
        X,
        y,
        cv=3,
    )
    assert len(scores) == 3 and acc.spent[0] == pytest.approx(1.5) and len(acc.ledger) == 3
    assert math.isfinite(scores.mean())


def test_noise_scales_of_both_selectors():
    """EM: P(threshold 2 | D) = e^{1.5}/(e^{1.5} + e^1) ≈ 0.622 at ε = 1 (scores 1 and 2/3, Δ = 1/3; halved noise
    gives 0.731). LT19 with one configuration and n_iter = 1 runs once: best_score_ − accuracy ~ Laplace(3/(ε n_val))."""
    from littlestone.audit.private_selection import D, SelectionRun
    from littlestone.privacy import SeededBackend

    run = SelectionRun(1.0, "em")
    picks = [run(D, backend=SeededBackend(s)) for s in range(400)]
    p = 1 - np.mean(picks)
    assert abs(p - math.exp(1.5) / (math.exp(1.5) + math.e)) < 0.07
    X, y = _data(200)
    dev = []
    for s in range(300):
        sel = _sel(
            {"hypothesis_class": ["thresholds:16"]},
            epsilon=1.5,
            method="lt19",
            n_iter=1,
            random_state=s,
            diagnostics=True,
        ).fit(X, y)
        dev.append(sel.best_score_ - sel.diagnostics_["validation_accuracies"][0])
    scale = 3 / (1.5 * 60)  # n_val = ⌊0.3 · 200⌋
    assert abs(np.mean(np.abs(dev)) - scale) < 0.2 * scale


def test_auto_rule_compares_the_two_error_proxies():
    """LT19 iff 2·ln|H|·(K − 3)/n_train > (3·ln n_iter − 2·ln K)/n_val (docs/derivations.md): never at K ≤ 3; with
    many candidates per configuration and enough validation data it wins; and "auto" follows the rule."""
    from littlestone.pac.private_selection import lt19_is_tighter

    assert not lt19_is_tighter(3, math.log(10**6), 1000, 1000, 15)
    assert lt19_is_tighter(5, math.log(400), 250, 107, 25) and not lt19_is_tighter(5, math.log(14), 87, 37, 25)
    by_hand = 2 * math.log(17) * (4 - 3) / 280 > (3 * math.log(20) - 2 * math.log(4)) / 120
    assert lt19_is_tighter(4, math.log(17), 280, 120, 20) == by_hand
    X, y = _data()
    assert _sel(GRID4, epsilon=1.0).fit(X, y).method_ == ("lt19" if by_hand else "em")  # thresholds:16: 17 functions
    big = {"candidates": [list(__import__("littlestone").Thresholds(16).version_space().hypotheses())] * 8}
    assert _sel(big, epsilon=1.0, validation_size=0.5).fit(X, y).method_ == "lt19"  # K = 8, n_val = 200
