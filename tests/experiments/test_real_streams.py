"""The real-stream harness (littlestone.experiments.real_streams): river's bundled streams on declared public grids,
the best hypothesis in hindsight, follow-the-leader, the target rule, the registered experiment on a prefix."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("river")

from littlestone.errors import LittlestoneError  # noqa: E402
from littlestone.experiments import REGISTRY  # noqa: E402
from littlestone.experiments import real_streams as rs  # noqa: E402


@pytest.fixture(scope="module")
def phishing40():
    return rs.load_stream("phishing", limit=40)


def test_prefix_cell_has_every_column_and_every_learner_that_takes_the_kind(phishing40):
    s = phishing40
    assert s.T == 40 and set(np.unique(s.y)) <= {0, 1}
    for kind in rs.CLASS_KINDS:
        row = rs.evaluate_cell(s, "popup_window", kind, seeds=2)
        assert row["T"] == 40 and row["cells"] == 3
        for key in ("majority", "best", "hedge", "ftl"):
            assert 0.0 <= row[key] <= 1.0
        assert row["best"] >= row["majority"] or kind in rs.THRESHOLD_KINDS  # both constants lie in stumps/intervals
        takes = {e.name for e in rs.PRIVATE_LEARNERS if kind in e.kinds}
        assert set(row["private"]) == takes
        for name, accs in row["private"].items():
            assert isinstance(accs, np.ndarray) and accs.shape == (2,), name  # T = 40: even the experts learner runs
            assert np.all((0 <= accs) & (accs <= 1))


def test_experts_learner_says_why_it_cannot_run_at_full_size():
    from littlestone.classes import Thresholds

    entry = next(e for e in rs.PRIVATE_LEARNERS if e.name.startswith("constructed experts"))
    why = rs.private_accuracies(entry, Thresholds(3), np.zeros(1250, np.int64), np.zeros(1250, np.int8), 1.0, 1)
    assert isinstance(why, str) and "2^28" in why


def test_grids_are_declared_not_inferred(phishing40):
    """Every grid is written in the code with a source; a value's cell depends on that value and the declared grid
    only — not on the rest of the stream, its length or its range."""
    for spec in rs.STREAMS.values():
        assert spec.grids
        for g in spec.grids:
            assert g.source and g.low < g.high and g.cells >= 2
    full = rs.load_stream("bananas")
    short = rs.load_stream("bananas", limit=25)
    g = rs.STREAMS["bananas"].grids[0]
    assert (g.low, g.high) == (-4.0, 4.0)
    v = full.columns[g.feature]
    assert (v.min(), v.max()) != (g.low, g.high)  # not the stream's range
    cells = rs.stream_points(full, g.feature)
    assert np.array_equal(rs.stream_points(short, g.feature), cells[:25])
    assert all(g.cells_of([x])[0] == c for x, c in zip(v[:50], cells[:50]))
    # rescaling the rest of the stream changes nothing for the first value; out-of-range values go to the end cells
    assert g.cells_of(np.r_[v[0], 1000 * v[1:20]])[0] == cells[0]
    assert g.cells_of([-1e9, 1e9]).tolist() == [0, g.cells - 1]
    with pytest.raises(LittlestoneError, match="NaN"):
        g.cells_of([np.nan])
    with pytest.raises(LittlestoneError, match="low < high"):
        rs.PublicGrid("f", 1.0, 1.0, 4, "declared")


def test_best_in_hindsight_and_ftl_match_brute_force(phishing40):
    """Brute force on a tiny case: every hypothesis of the class evaluated point by point."""
    s = phishing40
    for feature in ("popup_window", "https"):
        cells = rs.stream_points(s, feature)
        for kind in rs.CLASS_KINDS:
            H, X = rs.class_and_points(kind, cells, 3)
            hyps = list(H.version_space().hypotheses())
            mistakes = np.array([[int(h(int(x)) != y) for h in hyps] for x, y in zip(X, s.y)])
            L = rs.loss_matrix(H, X, s.y)
            assert L.shape == (40, len(hyps))
            assert rs.best_in_hindsight(L) == mistakes.sum(axis=0).min()
            # follow-the-leader by hand: the leader is any hypothesis with the fewest past mistakes (ties: first in
            # the class's order), so its mistakes are those of the class's order (L's columns)
            total, ftl = np.zeros(L.shape[1]), 0
            for t in range(40):
                ftl += int(L[t, int(np.argmin(total))])
                total += L[t]
            assert rs.follow_the_leader(L) == ftl
            assert sorted(L.sum(axis=0).tolist()) == sorted(mistakes.sum(axis=0).tolist())


@pytest.mark.parametrize("T", [7, 13, 31])
def test_table_best_is_the_brute_force_best(T):
    """The row's "best" (what the table prints) is the brute-force best hypothesis of the class on the prefix."""
    s = rs.load_stream("phishing", limit=T)
    for feature in ("popup_window", "age_of_domain"):
        m = next(g.cells for g in s.spec.grids if g.feature == feature)
        for kind in rs.CLASS_KINDS:
            H, X = rs.class_and_points(kind, rs.stream_points(s, feature), m)
            brute = min(sum(int(h(int(x)) != y) for x, y in zip(X, s.y)) for h in H.version_space().hypotheses())
            row = rs.evaluate_cell(s, feature, kind, seeds=1, learners=[])
            assert row["best"] == pytest.approx(1 - brute / T)
            assert row["majority"] == pytest.approx(max(s.y.mean(), 1 - s.y.mean()))


def test_multi_feature_stumps_and_boxes_on_a_prefix():
    """Stumps over the stream's declared features and boxes over two (grids coarsened by a public rule): points are
    tuples of the declared cells, the best in hindsight is the brute-force best, the learners run on the tuples."""
    s = rs.load_stream("bananas", limit=30)
    for kind in rs.MULTI_KINDS:
        H, X, names, shape = rs.multi_class_and_points(s, kind)
        assert names == "1+2" and len(X) == 30 and all(isinstance(p, tuple) and len(p) == 2 for p in X)
        assert shape == ("32×32" if kind == "stumps-k" else "16×16")
        cells = [rs.stream_points(s, f) for f in ("1", "2")]
        merge = 1 if kind == "stumps-k" else 2  # 32 declared cells, boxes on at most 16: pairs of neighbours
        assert [p for p in X] == [(a // merge, b // merge) for a, b in zip(*cells)]
        row = rs.evaluate_cell(s, "", kind, seeds=1, learners=[e for e in rs.PRIVATE_LEARNERS if e.name == "ListAT"])
        brute = min(sum(int(h(x) != y) for x, y in zip(X, s.y)) for h in H.version_space().hypotheses())
        assert row["best"] == pytest.approx(1 - brute / 30) and row["feature"] == "1+2"
        assert row["private"]["ListAT"].shape == (1,)


def test_mirrored_thresholds_are_the_other_direction(phishing40):
    cells = rs.stream_points(phishing40, "popup_window")
    H, X = rs.class_and_points("x<t", cells, 3)
    # x < t on the cells is x' ≥ 3 − t on the mirrored cells x' = 2 − x
    for t in range(4):
        assert all(int(c < t) == H.hypothesis(3 - t)(int(xm)) for c, xm in zip(cells, X))


def test_target_rule():
    assert rs.meets_target(np.array([0.75, 0.74]), best=0.755, majority=0.56)
    assert not rs.meets_target(np.array([0.75, 0.73]), best=0.755, majority=0.56)  # worst seed 2.5 points below
    assert not rs.meets_target(np.array([0.55]), best=0.56, majority=0.56)  # below the majority
    assert not rs.meets_target("cannot run", best=0.5, majority=0.5)


def test_target_halves_counts_each_half_per_learner():
    """The two halves of the target per learner: within 2 points of the best on every cell where it ran (2.0 points
    exactly counts), not below the majority on the cells whose best is the majority constant (only there); river's
    per-stream rows and a learner that could not run are not cells."""

    def row(cell, learner, worst):
        return {"stream": "s", "feature": cell, "class": "x≥t", "learner": learner, "worst": worst}

    rows = [
        row("a", "majority", "0.6"), row("a", "best in hindsight", "0.6"),  # the best is the majority constant
        row("a", "FTL", "0.6"), row("a", "L", "0.59"), row("a", "M", ""),
        row("b", "majority", "0.55"), row("b", "best in hindsight", "0.75"),
        row("b", "FTL", "0.73"), row("b", "L", "0.7299"), row("b", "M", "0.74"),
        {"stream": "s", "feature": "(all, raw)", "class": "river model", "learner": "GaussianNB", "worst": 0.9},
    ]  # fmt: skip
    got = {k["learner"]: k for k in rs.target_halves(rows)}
    assert list(got) == ["FTL", "L", "M"]
    assert got["FTL"] == {"learner": "FTL", "cells": 2, "within": 2, "majority_cells": 1, "at_majority": 1, "target": 2}
    assert got["L"] == {"learner": "L", "cells": 2, "within": 1, "majority_cells": 1, "at_majority": 0, "target": 0}
    assert got["M"] == {"learner": "M", "cells": 1, "within": 1, "majority_cells": 0, "at_majority": 0, "target": 1}
    assert rs.target_halves(rows, points=3.0)[1]["within"] == 2


def test_registered_experiment_on_a_prefix(tmp_path):
    res = REGISTRY["real_streams"](
        streams="phishing", kinds="x<t", seeds=1, limit=60, river_models=False, seed=None, jobs=1, out_dir=tmp_path
    )
    assert res.table_path.exists() and all(p.exists() for p in res.figures)
    learners = {r["learner"] for r in res.rows}
    assert {"majority", "best in hindsight", "Hedge", "FTL", "BisectAT", "ListAT"} <= learners
    assert {r["feature"] for r in res.rows} == {g.feature for g in rs.STREAMS["phishing"].grids}
    assert "meets the target" in res.verdict
    # the non-private learners' counts beside the private ones, from the same rows
    acc = {(r["feature"], r["learner"]): float(r["worst"]) for r in res.rows if r["worst"] != ""}
    features = {r["feature"] for r in res.rows}
    ftl = sum(
        rs.meets_target(np.array([acc[f, "FTL"]]), acc[f, "best in hindsight"], acc[f, "majority"]) for f in features
    )
    assert f"non-private follow-the-leader meets the target on {ftl} of {len(features)} cells" in res.verdict
    assert "non-private Hedge meets the target on" in res.verdict
    with pytest.raises(LittlestoneError, match="unknown stream"):
        rs.load_stream("no-such-stream")
    with pytest.raises(LittlestoneError, match="unknown class kind"):
        REGISTRY["real_streams"](streams="phishing", kinds="ellipses", limit=5, out_dir=tmp_path)


def test_start_here_river_example_prints_what_the_docs_say():
    """docs/private_online.md "Start here": the river Phishing example runs standalone and prints the figures its
    comments state (the accuracy SegmentedEM gets, the released stump, the claim's ε)."""
    import contextlib
    import io
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "private_online.md").read_text(encoding="utf-8")
    start = text[text.index("## Start here") :]
    code = next(b for b in re.findall(r"```python\n(.*?)```", start, re.S) if "datasets.Phishing()" in b)
    stated = [c.strip() for c in re.findall(r"^print\(.*?#(.*)$", code, re.M)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "private_online.md", "exec"), {})
    assert out.getvalue().splitlines() == stated
