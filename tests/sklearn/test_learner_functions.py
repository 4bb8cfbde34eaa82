"""The learners as functions (no scikit-learn) and their estimators: same seed ⇒ same hypothesis and result, the
estimators' old import paths still work, and the function modules never load scikit-learn."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.pac import ERMClassifier, GenericLearnerClassifier, GridDiscretizer, SOAClassifier
from littlestone.pac.baselines import erm_learn, soa_learn
from littlestone.pac.generic import generic_learn
from littlestone.pac.grid import grid_cells, grid_edges, grid_stumps


def _noisy_thresholds(seed: int, n: int = 60) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 20, n)
    y = ((x >= 9) ^ (rng.random(n) < 0.15)).astype(np.int64)
    return x, y


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("epsilon", [0.3, 2.0])
def test_generic_estimator_is_the_function(seed, epsilon):
    H = Thresholds(20)
    x, y = _noisy_thresholds(seed)
    est = GenericLearnerClassifier(H, epsilon=epsilon, backend="seeded", random_state=seed).fit(x[:, None], y)
    h, res = generic_learn(H, x, y, epsilon=epsilon, backend="seeded", seed=seed)
    assert est.hypothesis_ == h
    assert est.result_ == res
    assert res.spent == (epsilon, 0.0) and res.n == len(y) and res.candidates == 21


def test_generic_function_takes_a_candidate_list_and_checks_its_parameters():
    H = Thresholds(20)
    x, y = _noisy_thresholds(3)
    cands = [H.hypothesis(t) for t in (0, 9, 20)]
    h, res = generic_learn(cands, x, y, epsilon=50.0, backend="seeded", seed=0)
    assert h == H.hypothesis(9) and res.candidates == 3  # at large ε the best candidate wins
    from littlestone.errors import LittlestoneError, PrivacyParameterError

    with pytest.raises(PrivacyParameterError):
        generic_learn(H, x, y, epsilon=-1.0)
    with pytest.raises(LittlestoneError, match="mode"):
        generic_learn(H, x, y, epsilon=1.0, mode="proper")


@pytest.mark.parametrize("seed", [0, 1])
def test_baseline_estimators_are_the_functions(seed):
    H = Thresholds(20)
    x, y = _noisy_thresholds(seed)
    erm = ERMClassifier(H).fit(x[:, None], y)
    assert (erm.hypothesis_, erm.result_) == erm_learn(H, x, y)
    assert erm.result_.training_errors == min(int(np.sum(H.hypothesis(t).predict(x) != y)) for t in range(21))
    soa = SOAClassifier(H).fit(x[:, None], y)
    h, res = soa_learn(H, x, y)
    assert np.array_equal(soa.hypothesis_.predict(np.arange(20)), h.predict(np.arange(20))) and soa.result_ == res


def test_grid_functions_are_the_discretizer():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 3, size=(50, 2))
    ranges = [(0.0, 2.0), (-1.0, 3.0)]
    grid = GridDiscretizer(ranges, bins=5).fit(X)
    edges = grid_edges(ranges, 5)
    assert all(np.array_equal(a, b) for a, b in zip(grid.edges_, edges))
    assert np.array_equal(grid.transform(X), grid_cells(X, edges))
    from littlestone.pac import grid_stumps as exported

    assert exported is grid_stumps


def test_old_estimator_paths_still_work():
    import littlestone.pac.baselines as baselines
    import littlestone.pac.generic as generic

    assert generic.GenericLearnerClassifier is GenericLearnerClassifier
    assert baselines.ERMClassifier is ERMClassifier and baselines.SOAClassifier is SOAClassifier
    with pytest.raises(AttributeError):
        generic.NoSuchThing  # noqa: B018
    # a model saved under the old module path loads
    est = GenericLearnerClassifier("thresholds:10", epsilon=1.0, backend="seeded", random_state=0)
    est.fit(np.array([[1], [8], [9], [2]]), [0, 1, 1, 0])
    text = est.to_json().replace("pac.generic_classifier.", "pac.generic.")
    assert "littlestone.pac.generic.GenericLearnerClassifier" in text
    back = GenericLearnerClassifier.from_json(text)
    assert np.array_equal(back.predict([[0], [9]]), est.predict([[0], [9]]))


def test_learner_functions_do_not_import_scikit_learn():
    code = (
        "import sys\n"
        "import numpy as np\n"
        "from littlestone import Thresholds\n"
        "from littlestone.pac import blm20_learn, erm_learn, generic_learn, soa_learn\n"
        "from littlestone.pac.grid import grid_cells, grid_edges, grid_stumps\n"
        "H = Thresholds(10); x = np.arange(10); y = (x >= 4).astype(int)\n"
        "generic_learn(H, x, y, epsilon=1.0, backend='seeded', seed=0); erm_learn(H, x, y); soa_learn(H, x, y)\n"
        "grid_cells(np.zeros((3, 1)), grid_edges([(0, 1)], 4)); grid_stumps(4)\n"
        "print('sklearn' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
