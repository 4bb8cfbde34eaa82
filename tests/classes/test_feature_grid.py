"""Issue 33: multi-feature points on a public grid (FeatureGrid) and the classes on its cells (GridStumps, GridBoxes):
the cell rule (the pac grid's edges, clipping or refusal beyond the declared bounds, one-line errors), bounds inferred
from data warn, Ldim of boxes (intervals for one feature, the naive recursion on small grids), hypothesis counts."""

from __future__ import annotations

import math
import pickle
import warnings

import numpy as np
import pytest

from littlestone.classes import Intervals
from littlestone.classes.feature_grid import FeatureGrid
from littlestone.classes.grid_classes import GridBoxes, GridStumps
from littlestone.dimensions.naive import naive_ldim
from littlestone.errors import DomainError, LittlestoneError, PrivacyLeakWarning
from littlestone.pac.grid import grid_cells, grid_edges


def test_cells_are_the_pac_grids_cells():
    g = FeatureGrid({"a": (0, 1), "b": (-5, 5), "c": (0, 100)}, bins=(4, 7, 16))
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.uniform(-0.5, 1.5, 500), rng.uniform(-6, 6, 500), rng.uniform(-10, 110, 500)])
    ref = np.column_stack([grid_cells(X[:, [j]], grid_edges([g.bounds[j]], g.bins[j]))[:, 0] for j in range(3)])
    assert np.array_equal(g.cells(X), ref)  # vectorised
    dicts = [dict(zip("abc", row)) for row in X.tolist()]
    assert [g.cell(d) for d in dicts] == [tuple(r) for r in ref.tolist()]  # one at a time, river dicts
    assert g.points(dicts) == [tuple(r) for r in ref.tolist()]


def test_clipping_is_the_documented_rule_and_error_mode_refuses():
    g = FeatureGrid({"age": (0, 100), "income": (0, 1e5)}, bins=10)
    assert g.cell({"age": -3, "income": 2e6}) == (0, 9)  # clipped to the end cells: depends on the point only
    assert g.cell({"age": 100, "income": 0}) == (9, 0)
    assert g.cell({"age": 37, "income": 52_000.0, "city": "Lyon"}) == (3, 5)  # other keys ignored
    strict = FeatureGrid({"age": (0, 100)}, bins=10, out_of_bounds="error")
    with pytest.raises(DomainError, match=r"feature 'age' = 101 is outside the declared bounds \[0, 100\]"):
        strict.cell({"age": 101})
    assert strict.cell({"age": 100}) == 9


@pytest.mark.parametrize(
    "x, msg",
    [
        ({"age": float("nan"), "income": 1.0}, "feature 'age' is nan"),
        ({"age": 1.0}, "feature 'income' of the grid is not in the example's features"),
        ({"age": "old", "income": 1.0}, "feature 'age' is 'old', not a number"),
        ((1.0, 2.0, 3.0), "has 3 features; the grid has 2"),
        ((1.0, math.inf), "feature 'income' is inf"),
    ],
)
def test_bad_points_are_one_line_errors(x, msg):
    g = FeatureGrid({"age": (0, 100), "income": (0, 1e5)}, bins=10)
    with pytest.raises(DomainError, match=msg) as info:
        g.cell(x)
    assert "\n" not in str(info.value)


def test_bad_grids_are_refused():
    with pytest.raises(LittlestoneError, match="finite low < high"):
        FeatureGrid([(1, 1)])
    with pytest.raises(LittlestoneError, match="bins must be"):
        FeatureGrid([(0, 1), (0, 1)], bins=(4,))
    with pytest.raises(LittlestoneError, match="out_of_bounds"):
        FeatureGrid([(0, 1)], out_of_bounds="wrap")
    with pytest.raises(DomainError, match="no feature names"):
        FeatureGrid([(0, 1), (0, 1)]).cell({"a": 0.1, "b": 0.2})


def test_inferring_bounds_warns_and_declared_bounds_do_not():
    X = np.random.default_rng(1).normal(size=(50, 2))
    with pytest.warns(PrivacyLeakWarning, match="reads the bounds of the grid from the data"):
        g = FeatureGrid.infer(X, bins=4)
    assert g.bounds[0] == (X[:, 0].min(), X[:, 0].max())
    with pytest.warns(PrivacyLeakWarning):
        FeatureGrid.infer([{"a": 1.0, "b": 2.0}, {"a": 3.0, "b": 0.0}], bins=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        FeatureGrid({"a": (0, 1), "b": (0, 1)}, bins=4).cell({"a": 0.5, "b": 0.5})


def test_grid_is_a_public_value():
    g = FeatureGrid({"a": (0, 1), "b": (0, 2)}, bins=(3, 5))
    assert g == pickle.loads(pickle.dumps(g)) and hash(g) == hash(FeatureGrid({"a": (0, 1), "b": (0, 2)}, bins=(3, 5)))
    assert g != FeatureGrid({"a": (0, 1), "b": (0, 2)}, bins=(3, 4))
    assert "a: [0, 1]/3" in repr(g)


@pytest.mark.parametrize("b", range(1, 11))
def test_boxes_on_one_feature_are_intervals(b):
    H = GridBoxes(FeatureGrid([(0, 1)], bins=b))
    assert len(H) == 1 + b * (b + 1) // 2
    assert H.ldim() == Intervals(b).ldim()


@pytest.mark.parametrize("bins", [(2, 2), (2, 3), (3, 3), (2, 2, 2)])
def test_boxes_ldim_matches_the_naive_recursion(bins):
    H = GridBoxes(FeatureGrid([(0, 1)] * len(bins), bins=bins))
    assert len(H) == 1 + math.prod(b * (b + 1) // 2 for b in bins)
    assert H.ldim() == naive_ldim(H)


def test_boxes_and_stumps_describe_their_hypotheses():
    g = FeatureGrid({"age": (0, 100), "income": (0, 10)}, bins=(4, 5))
    H = GridBoxes(g)
    names = {H.describe(h) for h in H.hypotheses()}
    assert "empty box" in names and "age in cells 1–2, income in cells 0–4" in names
    h = next(h for h in H.hypotheses() if H.describe(h) == "age in cells 1–2, income in cells 0–4")
    assert h((1, 3)) == 1 and h((3, 3)) == 0 and h((0, 0)) == 0
    S = GridStumps(g)
    assert len(S) == 2 * sum(b - 1 for b in g.bins) + 2  # t = 0 and t = bins give the two constants once
    s = next(h for h in S.hypotheses() if S.describe(h) == "income ≥ 4 (cell ≥ 2)")
    assert s((0, 2)) == 1 and s((3, 1)) == 0
    assert H.grid is g and S.grid is g


def test_too_large_grids_are_refused_with_a_way_out():
    with pytest.raises(LittlestoneError, match="use fewer bins"):
        GridStumps(FeatureGrid([(0, 1)] * 5, bins=16))
    with pytest.raises(LittlestoneError, match="use fewer bins"):
        GridBoxes(FeatureGrid([(0, 1)] * 3, bins=16))
