"""The demo end to end (fast version): report with embedded images, atomic outputs, determinism."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from littlestone.cli import app
from littlestone.experiments.demo import DemoConfig, accuracy_rows, load_data, run_demo


def test_demo_data_and_class():
    data = load_data(16)
    assert data.X.shape == (569, 2) and set(data.y) == {"malignant", "benign"}
    assert data.X.min() >= 0 and data.X.max() < 16
    assert data.hclass.n_hypotheses == 62  # 2 features × 17 thresholds × 2 directions, constants merged
    assert data.hclass.ldim() == 5


def test_fast_demo_writes_self_contained_report(tmp_path):
    out = tmp_path / "report"
    path = run_demo(out, fast=True, seed=0, backend="seeded")
    assert path == out / "index.html"
    html = path.read_text()
    assert html.count("data:image/png;base64,") == 3  # tree, accuracy vs ε, G's histogram — all embedded
    for name in ("tree.png", "accuracy_vs_epsilon.png", "g_histogram.png"):
        assert (out / name).read_bytes()[:4] == b"\x89PNG"
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary files left
    assert "Littlestone dimension is <b>5</b>" in html
    rows = re.findall(r"<td>generic \(ε-DP\)</td>", html)
    assert len(rows) == len(DemoConfig.fast().epsilons)


def test_demo_accuracy_is_sensible_and_seeded():
    from littlestone.experiments.demo import _one_repeat
    from littlestone._random import spawn_seeds

    cfg = DemoConfig.fast()
    data = load_data(cfg.bins)
    s = spawn_seeds(3, 1)[0]
    a = _one_repeat(data, cfg, s, "seeded", True)
    b = _one_repeat(data, cfg, s, "seeded", True)
    assert a == b  # same seed ⇒ same result
    assert a.erm > 0.85  # one good stump separates most of the data
    assert a.generic[8.0] > 0.8  # at large ε the exponential mechanism is close to ERM
    rows = accuracy_rows(cfg, [a])
    assert {r["learner"] for r in rows} >= {"ERM (non-private)", "generic (ε-DP)"}


def test_demo_cli_fast(tmp_path):
    r = CliRunner().invoke(app, ["demo", "--fast", "--out", str(tmp_path / "r"), "--backend", "seeded",
                                 "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert "report written to" in r.output and (tmp_path / "r" / "index.html").exists()


def test_demo_same_seed_same_report_for_any_jobs(tmp_path):
    cfg = DemoConfig(epsilons=(1.0,), repeats=2, blm20_repeats=1)
    tables = []
    for jobs in (1, 2):
        html = run_demo(tmp_path / f"r{jobs}", seed=5, jobs=jobs, backend="seeded", config=cfg).read_text()
        tables.append(re.search(r"<table>.*?</table>", html, re.S).group(0))
    assert tables[0] == tables[1]
