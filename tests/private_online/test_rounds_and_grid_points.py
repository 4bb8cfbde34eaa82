"""Issue 33 items 6 and 1 (multi-feature points): the per-round input path of the private online learners — a point
validated once per round (predict_one then learn_one), fast paths that release exactly what the generic path does,
bad input still one clear error every time — and points made of several features on a public grid (tuples and
river dicts), for ListAT and the base class."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.classes import FiniteClass, Intervals, Points, Thresholds
from littlestone.classes.feature_grid import FeatureGrid
from littlestone.classes.grid_classes import GridBoxes, GridStumps
from littlestone.errors import DomainError, LabelError, LittlestoneError
from littlestone.pac.grid import grid_stumps
from littlestone.privacy import SeededBackend, StepAboveThreshold
from littlestone.private_online import BisectAT, ListAT
from littlestone.private_online.intervals_at import IntervalsAT
from littlestone.private_online.points_at import PointsAT

KW = dict(epsilon=1.0, backend="seeded", seed=3)
LEARNERS = {
    "bisect": lambda T: BisectAT(Thresholds(1 << 10), T=T, **KW),
    "listat": lambda T: ListAT(Thresholds(32), T=T, **KW),
    "points": lambda T: PointsAT(Points(1 << 10), T=T, **KW),
    "intervals": lambda T: IntervalsAT(Intervals(1 << 10), T=T, **KW),
}


def _noisy(n: int, T: int, seed: int = 0) -> tuple[list[int], list[int]]:
    rng = np.random.default_rng(seed)
    X = rng.integers(0, n, T)
    y = (X >= n // 3).astype(int) ^ (rng.random(T) < 0.1)
    return X.tolist(), y.astype(int).tolist()


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_one_validation_per_round(name, monkeypatch):
    L = LEARNERS[name](400)
    H = type(L.hypothesis_class)
    calls = {"validate": 0, "contains": 0}
    validate, contains = H.validate_point, H.contains_point

    def counting_validate(self, x):
        calls["validate"] += 1
        return validate(self, x)

    def counting_contains(self, x):
        calls["contains"] += 1
        return contains(self, x)

    monkeypatch.setattr(H, "validate_point", counting_validate)
    monkeypatch.setattr(H, "contains_point", counting_contains)
    X, y = _noisy(1 << 5, 400)
    for form in (lambda v: v, lambda v: {"x": v}):
        for x, yy in zip(X[:200], y[:200]):
            before = dict(calls)
            L.predict_one(form(x))
            L.learn_one(form(x), yy)
            assert sum(calls.values()) - sum(before.values()) <= 1  # validated at most once per round
        X = X[200:]


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_fast_paths_release_what_the_vectorised_run_does(name):
    X, y = _noisy(1 << 10 if name != "listat" else 32, 3000, seed=5)
    a, b, c = LEARNERS[name](3000), LEARNERS[name](3000), LEARNERS[name](3000)
    pa, pb = [], []
    for x, yy in zip(X, y):
        pa.append(a.predict_one(x))
        a.learn_one(x, yy)
        pb.append(b.predict_one({"x": np.int64(x)}))  # the generic path: a numpy scalar in a dict
        b.learn_one({"x": np.int64(x)}, bool(yy))
    assert pa == pb == c.run(np.array(X), np.array(y)).predictions.tolist()
    assert a.hypothesis() == b.hypothesis() == c.hypothesis()


def test_count_queries_answer_as_test_does():
    a = StepAboveThreshold(5.0, 1.0, backend=SeededBackend(0), integer_queries=True)
    b = StepAboveThreshold(5.0, 1.0, backend=SeededBackend(0), integer_queries=True)
    count, out_a, out_b = 0, [], []
    for i in range(3000):
        count += i % 3 == 0
        ra, rb = a.test(count), b.test_count(count)
        out_a.append(ra)
        out_b.append(rb)
        if ra:
            a.restart()
            b.restart()
            count = 0
    assert out_a == out_b and any(out_a)
    assert a.n_queries == b.n_queries


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_bad_input_is_one_clear_error_every_time(name):
    L = LEARNERS[name](100)
    L.predict_one(3)
    L.learn_one(3, 1)
    for bad, err, msg in (
        (float("nan"), DomainError, "NaN"),
        (1 << 20, DomainError, "outside the domain"),
        ({"x": -1}, DomainError, "outside the domain"),
        *([(True, DomainError, "outside the domain")] if name != "points" else []),  # Points(n) holds True == 1
    ):
        for _ in range(2):  # a bad point is never remembered: the same error on every call
            with pytest.raises(err, match=msg) as info:
                L.predict_one(bad)
            assert "\n" not in str(info.value)
            with pytest.raises(err, match=msg):
                L.learn_one(bad, 1)
    with pytest.raises(LabelError, match="not a bool, 1 or the negative label"):
        L.learn_one(3, 2)  # the point is remembered, the label is still checked
    with pytest.raises(LabelError):
        L.learn_one(3, -1)
    assert L.t == 1  # nothing bad was learned


def test_a_mutated_dict_is_read_again():
    L = ListAT(Thresholds(8), T=10, **KW)
    x = {"x": 2}
    L.predict_one(x)
    x["x"] = 99  # mutated between predict_one and learn_one: the cache is keyed by value, not by the dict
    with pytest.raises(DomainError, match="99"):
        L.learn_one(x, 1)


def test_a_one_tuple_is_the_point_of_a_one_dimensional_domain():
    L = ListAT(grid_stumps(16, 1), T=100, **KW)  # issue 33: (5,) was refused as outside the domain
    assert L.predict_one((5,)) == L.predict_one(5)
    L.learn_one((5,), 1)
    with pytest.raises(DomainError, match="outside the domain"):
        L.predict_one((16,))


# ----------------------------------------------------------------------------------------------- several features
NAMES = ("a", "b", "c")


def _three_features(T: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    V = rng.uniform(0, 1, (T, 3))
    return V, (V[:, 1] >= 0.375).astype(int)  # the stump b ≥ 0.375 = cell 6 of 16


@pytest.mark.parametrize("seed", [0, 1])
def test_listat_learns_stumps_over_three_features_from_river_dicts(seed):
    g = FeatureGrid({n: (0.0, 1.0) for n in NAMES}, bins=16)
    H = GridStumps(g)
    T = 6000
    V, y = _three_features(T, seed)
    L = ListAT(H, T=T, **dict(KW, seed=seed))
    miss = []
    for row, yy in zip(V.tolist(), y.tolist()):
        x = dict(zip(NAMES, row), unused="ignored")
        miss.append(L.predict_one(x) != yy)
        L.learn_one(x, bool(yy))
    assert H.describe(L.hypothesis()) == "b ≥ 0.375 (cell ≥ 6)"
    assert sum(miss[T // 2 :]) == 0 and sum(miss) < T // 5
    # the same stream as tuples, and vectorised: the same released stream
    M = ListAT(H, T=T, **dict(KW, seed=seed))
    assert M.run(V, y).mistakes == sum(miss)


def test_grid_given_to_the_learner_for_a_class_on_cells():
    g = FeatureGrid({n: (0.0, 1.0) for n in NAMES}, bins=4)
    L = ListAT(grid_stumps(4, 3), T=100, grid=g, **KW)  # the pac class's points are tuples of cells
    assert L.predict_one({"a": 0.9, "b": 0.1, "c": 0.5}) in (0, 1)
    assert L._point({"a": 0.9, "b": 0.1, "c": 0.5}) == (3, 0, 2)
    assert L._point((7.0, -1.0, 0.5)) == (3, 0, 2)  # clipped to the declared bounds
    with pytest.raises(LittlestoneError, match="cells are not points of"):
        ListAT(Thresholds(4), T=10, grid=FeatureGrid([(0, 1)], bins=16), **KW)
    with pytest.raises(LittlestoneError, match="not both"):
        ListAT(GridStumps(g), T=10, feature="a", **KW)
    with pytest.raises(LittlestoneError, match="differs from the grid the class carries"):
        ListAT(GridStumps(g), T=10, grid=FeatureGrid({n: (0.0, 2.0) for n in NAMES}, bins=4), **KW)


def test_one_feature_grid_for_bisect_at():
    g = FeatureGrid({"popup": (-1.0, 1.0)}, bins=64)
    L = BisectAT(Thresholds(65), T=100, grid=g, **KW)  # thresholds over the 64 cells (+ the all-ones threshold)
    assert L._point({"popup": 0.999, "other": 3}) == 63 and L._point(-5.0) == 0
    L.learn_one({"popup": 0.2}, 1)


def test_boxes_from_river_dicts_and_bad_features():
    g = FeatureGrid({"a": (0.0, 1.0), "b": (0.0, 1.0)}, bins=4)
    L = ListAT(GridBoxes(g), T=50, **KW)
    L.learn_one({"a": 0.3, "b": 0.9}, 1)
    for bad, msg in (
        ({"a": float("nan"), "b": 0.1}, "feature 'a' is nan"),
        ({"a": 0.1}, "feature 'b' of the grid is not in"),
        ({"a": "x", "b": 0.1}, "not a number"),
    ):
        with pytest.raises(DomainError, match=msg):
            L.predict_one(bad)
        with pytest.raises(DomainError, match=msg):
            L.learn_one(bad, 0)
    assert L.t == 1


def test_release_and_clone_keep_the_grid():
    g = FeatureGrid({n: (0.0, 1.0) for n in NAMES}, bins=4)
    L = ListAT(FiniteClass(grid_stumps(4, 3).matrix, points=grid_stumps(4, 3).domain.points), T=20, grid=g, **KW)
    assert L.clone().grid == g
    assert "hypothesis" in L.release()


def test_grid_false_takes_cells_already_discretized():
    g = FeatureGrid({n: (0.0, 1.0) for n in NAMES}, bins=4)
    raw = ListAT(GridStumps(g), T=10, **KW)
    cells = ListAT(GridStumps(g), T=10, grid=False, **KW)
    assert raw._point((3, 0, 2)) == (3, 0, 3)  # raw values on [0, 1]: 3 and 2 are clipped to the last cell
    assert cells._point((3, 0, 2)) == (3, 0, 2)  # a tuple of k cells
    with pytest.raises(DomainError, match="outside the domain"):
        cells.predict_one((4, 0, 0))
