"""The agnostic_online and sanitizer_error experiments run end to end on tiny settings and write CSV + PNG."""

from __future__ import annotations

import csv
import math

from littlestone.experiments import REGISTRY
from littlestone.experiments.agnostic_online import fitted_slope


def test_fitted_slope_recovers_a_power_law():
    Ts = [10, 100, 1000]
    assert abs(fitted_slope(Ts, [3 * t**0.75 for t in Ts]) - 0.75) < 1e-9
    assert math.isnan(fitted_slope([10], [1.0]))


def test_agnostic_online_tiny(tmp_path):
    res = REGISTRY["agnostic_online"](
        T_large=(200, 400),
        T_adaptive=(100, 200),
        T_small=(8, 12),
        T_regime=(2000, 4000),
        etas=(0.2,),
        seeds=1,
        seed=0,
        out_dir=tmp_path,
    )
    assert res.table_path.exists() and all(p.exists() for p in res.figures)
    rows = list(csv.DictReader(open(res.table_path)))
    learners = {r["learner"] for r in rows}
    assert {
        "Algorithm 3 (MWEM)",
        "Algorithm 3 (sequential fooling)",
        "constructed experts (Thm E.10)",
        "BDPS SOA experts",
        "Hedge over H",
        "private OPE (tree)",
        "private OPE (batched)",
        "Algorithm 3, thresholds(2^60)",
    } <= learners
    assert {r["data"] for r in rows if r["panel"] == "C"} == {"eta=0.2", "adaptive"}
    assert {r["data"] for r in rows} == {"eta=0.2", "adaptive"}
    # judged only where the bound is below T: a slope exactly on those rows, "bound vacuous" on the others
    for r in rows:
        assert (float(r["bound"]) >= int(r["T"])) == (r["status"] == "bound vacuous")
        assert (r["slope_where_bound_below_T"] == "") == (r["status"] == "bound vacuous")
    # Algorithm 3 (MWEM) on thresholds(16) at T <= 400: Thm 4.1's bound is far above T, so nothing is claimed
    assert all(r["status"] == "bound vacuous" for r in rows if r["learner"] == "Algorithm 3 (MWEM)")
    assert "Not judged, bound vacuous: " in res.verdict and "Algorithm 3 (MWEM) [A, eta=0.2]" in res.verdict


def test_algorithm3_bound_is_below_T_on_a_tiny_class_only_at_large_T():
    from littlestone.bounds.threshold_label import algorithm3_thresholds_batch, algorithm3_thresholds_bound
    from littlestone.experiments.agnostic_online import regret_bound, smallest_useful_T

    b, src = regret_bound("D", "eta=0.05", "Algorithm 3, thresholds(4)", 10_000, 4)
    assert b == algorithm3_thresholds_bound(10_000, algorithm3_thresholds_batch(10_000, 4, 1.0), 4, 1.0) < 10_000
    assert "proven" in src
    t0 = smallest_useful_T("D", "oblivious", "Algorithm 3, thresholds(4)", 4)
    assert regret_bound("D", "x", "Algorithm 3, thresholds(4)", int(t0), 4)[0] < t0
    assert regret_bound("D", "x", "Algorithm 3, thresholds(4)", int(t0 / 1.25), 4)[0] >= t0 / 1.25


def test_sanitizer_error_tiny(tmp_path):
    res = REGISTRY["sanitizer_error"](ns=(500, 2000), epsilons=(1.0,), reps=1, domain_bits=6, seed=0, out_dir=tmp_path)
    rows = list(csv.DictReader(open(res.table_path)))
    assert len(rows) == 6 and res.figures[0].exists()
    assert "within its bound: True" in res.verdict
    blm = [r for r in rows if r["sanitizer"].startswith("sequential fooling")]
    assert len(blm) == 2 and all(0 <= float(r["max_error"]) <= 1 for r in blm)


def test_bad_settings_are_refused_before_any_work(tmp_path):
    import pytest

    from littlestone.errors import LittlestoneError

    with pytest.raises(LittlestoneError, match="T_large"):
        REGISTRY["agnostic_online"](T_large=(0,), out_dir=tmp_path)
    with pytest.raises(LittlestoneError, match="etas"):
        REGISTRY["agnostic_online"](etas=(0.7,), out_dir=tmp_path)
    with pytest.raises(LittlestoneError, match="ns"):
        REGISTRY["sanitizer_error"](ns=(0,), out_dir=tmp_path)
    assert not list(tmp_path.iterdir())


def test_agnostic_online_sanitizer_choice(tmp_path):
    import pytest

    from littlestone.errors import LittlestoneError

    res = REGISTRY["agnostic_online"](
        T_large=(200, 400),
        T_adaptive=(100,),
        T_small=(8,),
        T_regime=(),
        etas=(0.2,),
        seeds=1,
        sanitizer="sequential_fooling",
        seed=0,
        out_dir=tmp_path,
    )
    learners = {r["learner"] for r in csv.DictReader(open(res.table_path))}
    assert "Algorithm 3 (sequential fooling)" in learners and "Algorithm 3 (MWEM)" not in learners
    assert "sanitizer of H^label: sequential fooling." in res.verdict
    with pytest.raises(LittlestoneError, match="sanitizer"):
        REGISTRY["agnostic_online"](sanitizer="laplace", out_dir=tmp_path)
