"""BudgetAccountant (issue 28 item 1): arithmetic (basic, KOV17 advanced), refusal with one line before any data is
read, the default accountant, identity under clone / deepcopy (GridSearchCV, cross_val_score charge the one
accountant), every private estimator charged exactly its own claim."""

from __future__ import annotations

import copy
import math
import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, cross_val_score

from littlestone import Thresholds
from littlestone.errors import BudgetExceededError, LittlestoneError, PrivacyParameterError
from littlestone.pac import (
    AgnosticBLM20Classifier,
    AgnosticPolyPriPropLearnClassifier,
    BLM20Classifier,
    GenericLearnerClassifier,
    PolyPriLearnClassifier,
    PolyPriPropLearnClassifier,
)
from littlestone.privacy import BudgetAccountant, heterogeneous_advanced_composition, kov_composition


# ------------------------------------------------------------------------------------------------ arithmetic


pytestmark = pytest.mark.usefixtures("fresh_default_accountant")  # tests/conftest.py


def test_basic_composition_sums_and_refuses_with_one_line():
    acc = BudgetAccountant(1.0, 1e-5)
    acc.spend(0.25, 1e-6, "first").spend(0.5, 0.0, "second")
    assert acc.spent == acc.total() == (0.75, 1e-6)
    assert acc.remaining() == (pytest.approx(0.25), pytest.approx(9e-6))
    assert acc.remaining(5) == (pytest.approx(0.05), pytest.approx(9e-6 / 5))
    assert acc.spent_budget == [(0.25, 1e-6), (0.5, 0.0)]
    assert [c.what for c in acc.ledger] == ["first", "second"]
    with pytest.raises(BudgetExceededError) as ei:
        acc.spend(0.3, 0.0, "third")
    msg = str(ei.value)
    assert "\n" not in msg and "third needs (epsilon=0.3" in msg and "only (epsilon=0.25" in msg
    assert len(acc.ledger) == 2  # nothing recorded
    acc.spend(0.25)  # exactly what remains fits (ε/4 + ε/2 + ε/4 = ε, floating-point slack)
    with pytest.raises(BudgetExceededError, match="delta"):
        BudgetAccountant(1.0).spend(0.1, 1e-9)  # a pure-DP budget refuses any δ


def test_kov_composition_is_tighter_than_drv_and_basic():
    parts = [(0.01, 0.0)] * 1000
    e, d = kov_composition(parts, 1e-6)
    drv = heterogeneous_advanced_composition(parts, 1e-6)
    assert e < drv[0] < 10.0 and d == pytest.approx(1e-6)
    # the formula, by hand: Σε·tanh(ε/2) + √(2Σε² ln(e + √(Σε²)/δ')) (the smallest of KOV17 Thm 3.5's three here)
    drift, sq = 1000 * 0.01 * math.tanh(0.005), 1000 * 1e-4
    assert e == pytest.approx(drift + math.sqrt(2 * sq * math.log(math.e + math.sqrt(sq) / 1e-6)))
    assert e < drift + math.sqrt(2 * sq * math.log(1e6)) < 10.0
    # δ: 1 − (1 − δ')∏(1 − δ_i) ≤ Σδ_i + δ'
    assert kov_composition([(0.1, 1e-3)] * 3, 1e-4)[1] == pytest.approx(1 - (1 - 1e-4) * (1 - 1e-3) ** 3)


def test_slack_accountant_allows_more_small_fits_and_stays_a_valid_bound():
    acc = BudgetAccountant(1.0, 1e-5, slack=1e-6)
    basic = BudgetAccountant(1.0, 1e-5)
    for _ in range(200):
        acc.spend(0.01)
    with pytest.raises(BudgetExceededError):
        for _ in range(200):
            basic.spend(0.01)
    assert len(basic.ledger) == 100
    e, d = acc.spent
    assert e == pytest.approx(kov_composition([(0.01, 0.0)] * 200, 1e-6)[0]) and e < 1.0 and d == pytest.approx(1e-6)
    k_left = acc.remaining(10)[0]
    for _ in range(10):
        acc.spend(k_left * (1 - 1e-6))
    assert acc.spent[0] <= 1.0 + 1e-9
    with pytest.raises(BudgetExceededError):
        acc.spend(0.05)


def test_bad_parameters_are_one_line_errors():
    for bad in (dict(epsilon=0.0), dict(epsilon=1.0, delta=1.0), dict(epsilon=1.0, delta=1e-6, slack=1e-5)):
        with pytest.raises(PrivacyParameterError):
            BudgetAccountant(**bad)
    with pytest.raises(PrivacyParameterError):
        BudgetAccountant(1.0).spend(-0.1)
    with pytest.raises(PrivacyParameterError):
        BudgetAccountant(1.0).remaining(0)


def test_default_accountant_and_context_manager():
    d = BudgetAccountant.default()
    assert d is BudgetAccountant.default() and math.isinf(d.epsilon)
    for _ in range(5):
        d.spend(5.0, 0.5)  # an infinite tracker never refuses, even past Σδ = 1
    assert d.spent == (25.0, 2.5)
    mine = BudgetAccountant(2.0)
    with mine:
        assert BudgetAccountant.default() is mine
        GenericLearnerClassifier("thresholds:10", epsilon=0.5).fit([[1], [2], [8]], [0, 0, 1])
    assert BudgetAccountant.default() is d and mine.spent == (0.5, 0.0)
    mine.set_default()
    assert BudgetAccountant.load_default(None) is mine
    with pytest.raises(LittlestoneError, match="BudgetAccountant"):
        BudgetAccountant.load_default("lots")


def test_accountant_is_shared_not_copied():
    acc = BudgetAccountant(3.0)
    assert copy.deepcopy(acc) is acc and copy.copy(acc) is acc and clone(acc, safe=False) is acc
    est = GenericLearnerClassifier("thresholds:10", accountant=acc)
    assert clone(est).accountant is acc and copy.deepcopy(est).accountant is acc
    assert pickle.loads(pickle.dumps(acc)) is acc  # a pickle is a link: in its own process, the accountant itself


# ------------------------------------------------------------------------------------------ estimators


class Untouchable:
    """An array that raises if its values are read: only its shape (public) may be looked at."""

    def __init__(self, n: int, k: int = 1):
        self.shape = (n, k)

    def __len__(self) -> int:
        return self.shape[0]

    def _touched(self, *a, **kw):
        raise AssertionError("the data was read")

    __array__ = __getitem__ = __iter__ = _touched


def test_refusal_before_any_data_is_read():
    acc = BudgetAccountant(1.0, 1e-5)
    acc.spend(0.9)
    cases = [
        GenericLearnerClassifier("thresholds:10", epsilon=0.5, accountant=acc),
        BLM20Classifier("thresholds:10", epsilon=1.0, delta=1e-6, accountant=acc),
        AgnosticBLM20Classifier("thresholds:10", epsilon=1.0, delta=1e-6, subsample_size=10, accountant=acc),
        PolyPriLearnClassifier("thresholds:100", epsilon=4.0, delta=1e-6, n=1, m=2, K=1, accountant=acc),
        PolyPriPropLearnClassifier(
            "thresholds:100", epsilon=4.0, delta=1e-6, n=1, m=2, K=1, n_generic=1, accountant=acc
        ),
        AgnosticPolyPriPropLearnClassifier(
            "thresholds:8", epsilon=3.0, delta=1e-6, n=200, n_inner=1, m=1, K=1, n_generic=1, accountant=acc
        ),
    ]
    for est in cases:
        with pytest.raises(BudgetExceededError) as ei:
            est.fit(Untouchable(1000), Untouchable(1000))
        assert "\n" not in str(ei.value) and type(est).__name__ in str(ei.value)
    assert acc.spent == (pytest.approx(0.9), 0.0)
    # lazy sources: refused from len() alone
    from littlestone.pac.sources import RealizableStream

    src = RealizableStream(Thresholds(10), Thresholds(10).hypothesis(3), 10_000, seed=0)
    src.batch = Untouchable(1)._touched
    with pytest.raises(BudgetExceededError):
        BLM20Classifier("thresholds:10", accountant=acc).fit_source(src)


def _tiny(H, n):
    X = np.random.default_rng(0).integers(0, H.n, size=(n, 1))
    return X, (X[:, 0] >= H.n // 2).astype(int)


@pytest.mark.parametrize(
    "make,n",
    [
        (lambda acc: GenericLearnerClassifier("thresholds:10", epsilon=0.7, accountant=acc), 200),
        (
            lambda acc: BLM20Classifier(
                "thresholds:10",
                epsilon=1.0,
                delta=1e-6,
                backend="seeded",
                random_state=0,
                accountant=acc,
                n_batches=5,
                aux_size=4,
                cap=0,
                n_generic=50,
            ),
            200,
        ),
        (
            lambda acc: AgnosticBLM20Classifier(
                "thresholds:8",
                epsilon=4.0,
                delta=1e-3,
                subsample_size=8,
                backend="seeded",
                random_state=0,
                inner_sizes=dict(n_batches=2, aux_size=1, cap=1, n_generic=2),
                accountant=acc,
            ),
            64,
        ),
        (
            lambda acc: PolyPriLearnClassifier(
                "thresholds:100",
                epsilon=4.0,
                delta=1e-3,
                n=1,
                m=2,
                K=1,
                backend="seeded",
                random_state=0,
                accountant=acc,
            ),
            200,
        ),
        (
            lambda acc: PolyPriPropLearnClassifier(
                "thresholds:100",
                epsilon=4.0,
                delta=1e-3,
                n=1,
                m=2,
                K=1,
                n_generic=1,
                backend="seeded",
                random_state=0,
                accountant=acc,
            ),
            200,
        ),
        (
            lambda acc: AgnosticPolyPriPropLearnClassifier(
                "thresholds:8",
                epsilon=3.0,
                n=200,
                n_inner=1,
                m=1,
                K=1,
                n_generic=1,
                backend="seeded",
                random_state=0,
                accountant=acc,
            ),
            200,
        ),
    ],
    ids=["generic", "BLM20", "AgnosticBLM20", "PolyPriLearn", "PolyPriPropLearn", "AgnosticPolyPriPropLearn"],
)
def test_each_estimator_is_charged_its_own_claim(make, n):
    acc = BudgetAccountant(100.0, 0.5)
    est = make(acc)
    X, y = _tiny(Thresholds(10 if "10" in str(est.hypothesis_class) else 8), n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, y)
    spent = est.result_.spent if hasattr(est.result_, "spent") else est.result_.claim
    assert acc.spent == (pytest.approx(spent[0]), pytest.approx(spent[1]))
    assert len(acc.ledger) == 1 and type(est).__name__ in acc.ledger[0].what
    assert "accountant" not in est.to_dict()["params"]  # never saved with a model


def test_gridsearch_and_cross_val_score_charge_the_one_accountant():
    acc = BudgetAccountant(100.0)
    X, y = _tiny(Thresholds(10), 300)
    grid = [0.1, 0.5, 1.0]
    gs = GridSearchCV(GenericLearnerClassifier("thresholds:10", accountant=acc), {"epsilon": grid}, cv=3)
    gs.fit(X, y)
    # 3 folds per ε plus the refit at the best ε: the sum of the fits' own claims
    assert acc.spent[0] == pytest.approx(3 * sum(grid) + gs.best_params_["epsilon"])
    assert len(acc.ledger) == 10 and gs.best_estimator_.accountant is acc
    before = acc.spent[0]
    cross_val_score(GenericLearnerClassifier("thresholds:10", epsilon=0.2, accountant=acc), X, y, cv=4)
    assert acc.spent[0] == pytest.approx(before + 4 * 0.2)
    small = BudgetAccountant(1.0)
    with pytest.raises(BudgetExceededError):
        GridSearchCV(
            GenericLearnerClassifier("thresholds:10", accountant=small), {"epsilon": grid}, cv=3, error_score="raise"
        ).fit(X, y)
    assert small.spent[0] <= 1.0 + 1e-9


def test_non_private_baselines_charge_nothing():
    from littlestone.pac import ERMClassifier

    acc = BudgetAccountant.default()
    ERMClassifier("thresholds:10").fit(*_tiny(Thresholds(10), 50))
    assert acc.ledger == []


# ---------------------------------------------------------------- online learners, experts, sanitizers


class _Touchy:
    """A point / loss / dataset that raises if it is looked at."""

    def __getattr__(self, name):
        raise AssertionError("the data was read")

    def __iter__(self):
        raise AssertionError("the data was read")


def test_online_learners_are_charged_their_claim_at_the_first_round():
    from littlestone.private_online import GL21, LWY25, AnytimeLWY25

    for cls in (LWY25, GL21, AnytimeLWY25):
        acc = BudgetAccountant(100.0, 0.5)
        learner = cls(Thresholds(4), T=50, epsilon=1.0, delta=1e-6, backend="seeded", seed=0, accountant=acc)
        assert acc.ledger == []  # building one charges nothing
        learner.learn_one(2, 1)
        learner.learn_one(3, 1)
        claim = learner.privacy()
        assert acc.spent == (pytest.approx(claim.epsilon), pytest.approx(claim.delta)) and len(acc.ledger) == 1
        small = BudgetAccountant(0.5, 1e-5)
        fresh = cls(Thresholds(4), T=50, epsilon=1.0, delta=1e-6, backend="seeded", seed=0, accountant=small)
        with pytest.raises(BudgetExceededError, match=cls.__name__):
            fresh.learn_one(_Touchy(), _Touchy())
        with pytest.raises(BudgetExceededError):
            fresh.run(_Touchy(), _Touchy())
        assert small.ledger == [] and fresh.t == 0


def test_private_experts_are_charged_once():
    from littlestone.experts import BatchedPrivateHedge, Hedge, PrivateHedge, TreeAggregationHedge

    acc = BudgetAccountant(100.0, 0.5)
    for learner in (
        PrivateHedge(4, 20, 1.0, 1e-6, backend="seeded", seed=0, accountant=acc),
        BatchedPrivateHedge(4, 20, 1.0, 1e-6, backend="seeded", seed=0, accountant=acc),
        TreeAggregationHedge(4, 20, 1.0, backend="seeded", seed=0, accountant=acc),
    ):
        before = acc.spent[0]
        learner.learn_one(np.zeros(4))
        learner.run(np.ones((3, 4)))
        assert acc.spent[0] == pytest.approx(before + learner.privacy().epsilon)
    n = len(acc.ledger)
    Hedge(4, 20).learn_one(np.zeros(4))  # non-private: nothing
    assert len(BudgetAccountant.default().ledger) == 0 and len(acc.ledger) == n
    with pytest.raises(BudgetExceededError):
        PrivateHedge(4, 20, 1.0, 1e-6, accountant=BudgetAccountant(0.5, 1e-3)).learn_one(_Touchy())


def test_sanitizers_are_charged_at_fit_and_dyadic_runs_inside_their_container():
    from littlestone.sanitizers import MWEM, ThresholdLabelSanitizer
    from littlestone.sanitizers.dyadic import DyadicSanitizer

    acc = BudgetAccountant(10.0)
    MWEM(Thresholds(8), 1.0, iterations=3, backend="seeded", seed=0, accountant=acc).fit([1, 2, 3, 7])
    ThresholdLabelSanitizer(8, 0.5, backend="seeded", seed=0, accountant=acc).fit([(1, 0), (5, 1)])
    assert acc.spent == (pytest.approx(1.5), 0.0) and len(acc.ledger) == 2
    with pytest.raises(BudgetExceededError, match="MWEM"):
        MWEM(Thresholds(8), 9.0, accountant=acc).fit(_Touchy())
    dy = DyadicSanitizer(
        8, 2.0, 0.0, lambda e, d, n, i: MWEM(Thresholds(4), e, iterations=2, backend="seeded"), accountant=acc
    )
    for x in (1, 2, 3, 0):
        dy.learn_one(x)
    # one charge: the dyadic claim (its runs are parts of it, not charged again to the default accountant)
    assert acc.spent[0] == pytest.approx(1.5 + dy.privacy().epsilon) and len(acc.ledger) == 3
    assert BudgetAccountant.default().ledger == []


def test_function_forms_charge_and_estimators_do_not_double_charge():
    from littlestone.pac import generic_learn

    acc = BudgetAccountant(2.0)
    H = Thresholds(10)
    X, y = _tiny(H, 50)
    generic_learn(H, H.validate_points(X[:, 0]), y, epsilon=0.5, backend="seeded", seed=0, accountant=acc)
    assert acc.spent == (0.5, 0.0)
    with pytest.raises(BudgetExceededError, match="generic_learn"):
        generic_learn(H, Untouchable(50), Untouchable(50), epsilon=1.6, accountant=acc)
    GenericLearnerClassifier("thresholds:10", epsilon=0.25, accountant=acc).fit(X, y)
    BLM20Classifier(
        "thresholds:10",
        epsilon=1.0,
        delta=1e-6,
        backend="seeded",
        random_state=0,
        n_batches=5,
        aux_size=4,
        cap=0,
        n_generic=50,
        accountant=BudgetAccountant(10, 1e-3),
    ).fit(*_tiny(H, 200))
    assert acc.spent == (0.75, 0.0) and BudgetAccountant.default().ledger == []  # inner learn functions: covered


def test_agnostic_online_learners_are_charged_their_claim_once_and_their_sanitizer_runs_are_covered():
    from littlestone.agnostic_online import Algorithm3, ThresholdsAlgorithm3
    from littlestone.agnostic_online.constructed_experts import ConstructedExpertsLearner

    H = Thresholds(8)
    X = np.arange(60) % 8
    y = (X >= 4).astype(int)
    makers = [
        lambda acc: Algorithm3(H, 60, 1.0, batch=20, backend="seeded", seed=1, accountant=acc),
        lambda acc: ThresholdsAlgorithm3(H, 60, 1.0, batch=20, backend="seeded", seed=1, accountant=acc),
        # (a small game: the constructed experts' count grows fast with T)
        lambda acc: ConstructedExpertsLearner(Thresholds(4), 24, 1.0, 1e-6, backend="seeded", seed=1, accountant=acc),
    ]
    for make in makers:
        if isinstance(make(None), ConstructedExpertsLearner):
            X, y = np.arange(24) % 4, (np.arange(24) % 4 >= 2).astype(int)
        acc = BudgetAccountant(100.0, 0.5)
        learner = make(acc)
        assert acc.ledger == []  # building one charges nothing
        learner.learn_one(int(X[0]), int(y[0]))
        learner.run(X[1:], y[1:])  # three sanitizer runs (batches) inside: covered by the one charge
        claim = learner.privacy()
        assert acc.spent == (pytest.approx(claim.epsilon), pytest.approx(claim.delta)) and len(acc.ledger) == 1
        assert BudgetAccountant.default().ledger == []  # the sanitizer runs charged nobody else
        small = BudgetAccountant(claim.epsilon / 2, 0.5)
        with pytest.raises(BudgetExceededError, match=type(learner).__name__):
            make(small).learn_one(_Touchy(), _Touchy())
        assert small.ledger == []


def test_practical_private_online_learners_are_charged_their_claim_once():
    from littlestone.classes import Intervals, Points
    from littlestone.private_online import BisectAT, ListAT
    from littlestone.private_online.intervals_at import IntervalsAT
    from littlestone.private_online.points_at import PointsAT

    kw = dict(T=50, epsilon=1.0, delta=0.0, backend="seeded", seed=0)
    for cls, H in (
        (BisectAT, Thresholds(8)),
        (ListAT, Thresholds(8)),
        (PointsAT, Points(16)),
        (IntervalsAT, Intervals(16)),
    ):
        acc = BudgetAccountant(100.0)
        learner = cls(H, **kw, accountant=acc)
        assert acc.ledger == []
        learner.learn_one(3, 1)
        learner.learn_one(4, 0)
        assert acc.spent == (pytest.approx(learner.privacy().epsilon), 0.0) and len(acc.ledger) == 1
        small = BudgetAccountant(0.5)
        with pytest.raises(BudgetExceededError, match=cls.__name__):
            cls(H, **kw, accountant=small).learn_one(_Touchy(), _Touchy())
        assert small.ledger == []
