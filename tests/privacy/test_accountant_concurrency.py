"""One budget that holds (issue 32 items 2–4, 7): check-and-record is atomic under threads, fits in worker processes
(joblib's loky backend, ``n_jobs=2``) charge the parent's accountant — the explicit ``accountant=`` or the parent's
default — and budget comparisons are exact (no absolute slack)."""

from __future__ import annotations

import copy
import pickle
import sys
import threading
import warnings

import numpy as np
import pytest
from joblib import Parallel, delayed
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import GridSearchCV, cross_val_score

from littlestone import Thresholds
from littlestone.errors import BudgetExceededError, LittlestoneError
from littlestone.pac import GenericLearnerClassifier
from littlestone.privacy import BudgetAccountant, PrivacyBudget


pytestmark = pytest.mark.usefixtures("fresh_default_accountant")  # tests/conftest.py

X = np.random.default_rng(0).integers(0, 16, size=(200, 1))
Y = (X[:, 0] >= 8).astype(int)


@pytest.fixture
def busy_switching():
    """Switch threads every microsecond: a check-then-record race shows up in most trials."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def _race(spend, n_threads=16):
    barrier = threading.Barrier(n_threads)
    accepted = []

    def worker():
        barrier.wait()
        try:
            spend()
            accepted.append(1)
        except BudgetExceededError:
            pass

    threads = [threading.Thread(target=worker) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(accepted)


# ---------------------------------------------------------------------------------------------------- threads


def test_sixteen_threads_spending_a_tenth_of_one_are_accepted_exactly_ten_times(busy_switching):
    for _ in range(300):
        acc = BudgetAccountant(1.0)
        assert _race(lambda: acc.spend(0.1)) == 10
        assert len(acc.ledger) == 10 and acc.spent[0] == pytest.approx(1.0)


def test_privacy_budget_is_atomic_too(busy_switching):
    for _ in range(100):
        budget = PrivacyBudget(1.0)
        assert _race(lambda: budget.charge(0.1)) == 10 and len(budget.ledger) == 10


# ---------------------------------------------------------------------------------------------------- exactness


def test_no_absolute_slack_on_a_pure_budget():
    with pytest.raises(BudgetExceededError, match="1.0000000009"):
        BudgetAccountant(1.0).spend(1 + 9e-10)
    with pytest.raises(BudgetExceededError):
        BudgetAccountant(1.0, 0.0).spend(0.5, 1e-300)
    with pytest.raises(BudgetExceededError):
        PrivacyBudget(1.0).charge(1 + 9e-10)
    with pytest.raises(BudgetExceededError):
        PrivacyBudget(1.0).charge(0.5, 1e-300)
    acc = BudgetAccountant(1.0)
    acc.spend(1.0)
    accepted = 0
    for _ in range(1000):  # in floats 1.0 + 1e-17 == 1.0 (every one would pass); exactly, at most 2⁻⁵² in all
        try:
            acc.spend(1e-17)
            accepted += 1
        except BudgetExceededError:
            pass
    assert accepted == 22  # 22 × 1e-17 ≤ 2⁻⁵² = 2.2e-16 < 23 × 1e-17
    acc = BudgetAccountant(1.0, 1e-6)
    for _ in range(3):
        acc.spend(1 / 3, 1e-6 / 3)  # shares of the budget rounded to floats fit (one-ulp relative tolerance)
    with pytest.raises(BudgetExceededError):
        acc.spend(1e-15)
    assert acc.remaining()[0] < 1e-15


def test_the_tolerance_is_relative_one_ulp_and_bounds_the_total_overspend():
    acc = BudgetAccountant(1.0)
    for _ in range(10):
        acc.spend(0.1)  # 10 × fl(0.1) = 1 + 5.6e-17
    with pytest.raises(BudgetExceededError):
        acc.spend(2e-16)  # would pass 1 + 2⁻⁵²
    acc = BudgetAccountant(1e-3)
    acc.spend(1e-3)
    with pytest.raises(BudgetExceededError):
        acc.spend(1e-18)  # relative: 1e-18 is 4.6 ulps of 1e-3


# ---------------------------------------------------------------------------------------------------- processes


def test_cross_val_score_in_worker_processes_charges_the_parents_default():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        warnings.simplefilter("ignore", UserWarning)
        with BudgetAccountant(0.5) as acc:
            scores = cross_val_score(
                GenericLearnerClassifier("thresholds:16", epsilon=0.3, backend="seeded"), X, Y, cv=4, n_jobs=2
            )
    assert [c.epsilon for c in acc.ledger] == [0.3]  # one fit accepted, three refused by the parent's accountant
    assert int(np.isfinite(scores).sum()) == 1
    assert BudgetAccountant._default is None  # the with block restored the default


def test_an_explicit_accountant_in_worker_processes_is_the_parents_and_refuses_past_its_budget():
    acc = BudgetAccountant(1.0)
    est = GenericLearnerClassifier("thresholds:16", epsilon=0.3, backend="seeded", accountant=acc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = cross_val_score(est, X, Y, cv=4, n_jobs=2)
    assert len(acc.ledger) == 3 and acc.spent[0] == pytest.approx(0.9) and int(np.isfinite(scores).sum()) == 3
    with pytest.raises(BudgetExceededError, match="accountant has only"):  # the refusal itself, not a PicklingError
        cross_val_score(est, X, Y, cv=2, n_jobs=2, error_score="raise")
    assert len(acc.ledger) == 3


def test_grid_search_in_worker_processes_charges_set_default():
    acc = BudgetAccountant(10.0).set_default()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        GridSearchCV(
            GenericLearnerClassifier("thresholds:16", epsilon=0.3, backend="seeded"),
            {"alpha": [0.1, 0.2]},
            cv=3,
            n_jobs=2,
        ).fit(X, Y)
    assert len(acc.ledger) == 7 and acc.spent[0] == pytest.approx(2.1)  # 2 × 3 folds + the refit


def _spend_tenth(acc):
    try:
        acc.spend(0.1, what="worker")
        return 1
    except BudgetExceededError:
        return 0


def test_spends_from_worker_processes_are_checked_and_recorded_atomically():
    acc = BudgetAccountant(1.0)
    got = Parallel(n_jobs=2, backend="loky")(delayed(_spend_tenth)(acc) for _ in range(16))
    assert sum(got) == 10 and len(acc.ledger) == 10


def test_a_link_is_the_accountant_in_its_own_process_and_a_dead_link_refuses_in_one_line():
    acc = BudgetAccountant(1.0)
    assert pickle.loads(pickle.dumps(acc)) is acc and copy.deepcopy(acc) is acc
    from littlestone.privacy.accountant_link import LinkedAccountant

    dead = LinkedAccountant((1, "/nonexistent/littlestone-accountant", b"k" * 32, 1))
    with pytest.raises(LittlestoneError, match="cannot be reached") as ei:
        dead.spend(0.1)
    assert "\n" not in str(ei.value)


# ---------------------------------------------------------------------------------------------------- item 7


def test_a_copied_or_pickled_online_learner_that_has_started_is_charged_again():
    from littlestone.private_online import LWY25, LWY25Setting

    acc = BudgetAccountant(2.0, 1e-3)
    kw = dict(T=40, epsilon=1.0, delta=1e-4, backend="seeded", seed=0, setting=LWY25Setting(64, 128, 3.0))
    learner = LWY25(Thresholds(4), accountant=acc, **kw)
    learner.learn_one(1, 0)
    assert len(acc.ledger) == 1
    twin = copy.deepcopy(learner)
    twin.learn_one(2, 0)  # a second game: charged its whole claim again
    triplet = copy.copy(learner)
    with pytest.raises(BudgetExceededError):  # a third game does not fit: it cannot play
        triplet.learn_one(3, 1)
    learner.learn_one(3, 1)  # the original goes on under its own charge
    assert len(acc.ledger) == 2 and acc.spent[0] == pytest.approx(2.0)
    fresh = learner.clone()  # an unstarted clone: charged at its first round, as any new learner
    assert fresh._charged is False and fresh.t == 0
    # pickled (the owner's checkpoint file): the copy is charged again when it plays
    from littlestone.experts import PrivateHedge

    acc = BudgetAccountant(3.0)
    hedge = PrivateHedge(4, 40, 2.0, backend="seeded", seed=0, accountant=acc)
    hedge.predict_one()
    hedge.learn_one(np.array([0.1, 0.2, 0.3, 0.4]))
    resumed = pickle.loads(pickle.dumps(hedge))
    assert resumed.accountant is acc  # in this process the pickled accountant is the accountant itself
    with pytest.raises(BudgetExceededError):
        resumed.predict_one()
        resumed.learn_one(np.array([0.1, 0.2, 0.3, 0.4]))
    assert len(acc.ledger) == 1


def test_an_estimator_pickled_by_a_process_that_has_exited_charges_the_default_here(tmp_path):
    """joblib.dump in one program, load and fit in another: the dead owner's default is gone, this one's is used."""
    import subprocess

    path = tmp_path / "est.pkl"
    code = (
        "import pickle, sys\nfrom littlestone.pac import GenericLearnerClassifier\n"
        "open(sys.argv[1], 'wb').write(pickle.dumps(GenericLearnerClassifier('thresholds:16', epsilon=0.3)))\n"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, timeout=120)
    est = pickle.loads(path.read_bytes())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with BudgetAccountant(1.0) as acc:
            est.fit(X, Y)
    assert [c.epsilon for c in acc.ledger] == [0.3]
