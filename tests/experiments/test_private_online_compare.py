"""The core of benchmarks/bench_private_online_compare.py on a tiny grid: every cell kept (run, cannot be built, or
not run over the limit — never dropped), cells reproducible (so merges fill in a table), merging never replaces a run
cell by a not-run one, and the table, CSV and plot are written."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location(
        "bench_compare", ROOT / "benchmarks" / "bench_private_online_compare.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


GRID = {
    "classes": ["thresholds:2", "thresholds:2^60"],
    "learners": ["listat", "bisect", "soa"],
    "adversaries": ["late-commitment", "iid"],
    "Ts": [50, 200],
    "seeds": 1,
}


@pytest.fixture(scope="module")
def rows(bench):
    return bench.run(**GRID, limit=60.0, throughput_n=300)


def test_every_cell_is_kept(bench, rows):
    games = {bench.key(r) for r in rows if r["adversary"] != bench.THROUGHPUT}
    want = {
        (c, n, a, T, 1)
        for c in GRID["classes"]
        for n in GRID["learners"]
        for a in GRID["adversaries"]
        for T in GRID["Ts"]
    }
    assert games == want
    by = {bench.key(r): r for r in rows}
    assert by[("thresholds:2^60", "listat", "iid", 50, 1)]["status"].startswith("cannot be built: ListAT cannot list")
    for r in rows:
        if r["status"] == "run" and r["adversary"] != bench.THROUGHPUT:
            assert 0 <= r["mistakes"] <= r["T"]
            if r["learner"] == "soa":  # the SOA's mistake bound is Ldim: 1 on thresholds(2), 60 on thresholds(2^60)
                d = 1 if r["class"] == "thresholds:2" else 60
                assert r["mistakes"] <= d
                assert r["bound"] == ("vacuous" if d >= r["T"] else str(d))
            elif r["bound"] != "vacuous":  # the theory bounds (β = 0.1) hold on these seeded games
                assert r["mistakes"] <= int(r["bound"].replace(",", ""))
    thr = {(r["class"], r["learner"]): r for r in rows if r["adversary"] == bench.THROUGHPUT}
    assert thr[("thresholds:2", "bisect")]["rps_seeded"] > 0 and thr[("thresholds:2", "bisect")]["rps_secure"] > 0


def test_cells_are_reproducible_and_the_limit_marks_cells_not_run(bench, rows):
    again = bench.run(["thresholds:2"], ["bisect"], ["late-commitment"], [200], 1, 60.0)
    old = {bench.key(r): r.get("mistakes") for r in rows if r["status"] == "run"}
    assert again[0]["mistakes"] == old[bench.key(again[0])]
    over = bench.run(["thresholds:2"], ["bisect"], ["late-commitment"], [20_000, 40_000], 1, 0.01)
    assert [r["status"].split(":")[0] for r in over] == ["not run (over 0.01 s", "not run (over 0.01 s"]
    merged = bench.merge(rows, over + bench.run(["thresholds:2"], ["bisect"], ["late-commitment"], [200], 1, 1e-9))
    by = {bench.key(r): r for r in merged}
    assert by[("thresholds:2", "bisect", "late-commitment", 200, 1)]["status"] == "run"  # not overwritten
    assert by[("thresholds:2", "bisect", "late-commitment", 20_000, 1)]["status"].startswith("not run (over")


def test_outputs(bench, rows, tmp_path):
    md = bench.markdown(rows, "# head")
    assert "cannot be built" in md and "T = 10^2" in md and "rounds per second" in md.lower()
    bench.plot(rows, tmp_path / "p.png")
    assert (tmp_path / "p.png").stat().st_size > 1000
