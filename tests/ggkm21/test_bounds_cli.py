"""GGKM21 calculators: the plan's inequalities hold at the computed sizes and fail just below them; the CLI prints
every stage and the BLM20 comparison; bad input exits 2 with one line."""

from __future__ import annotations

import math

import pytest
from typer.testing import CliRunner

from littlestone.bounds import ggkm21 as g
from littlestone.cli import app
from littlestone.privacy import sparse_selection_error_bound


@pytest.mark.parametrize("d", [1, 2, 3])
def test_plan_satisfies_its_inequalities_minimally(d):
    p = g.polyprilearn_plan(d, 0.1, 1.0, 1e-6, 0.05)
    assert p.A == 0.05 and p.eta == pytest.approx(p.A / (4 * (d + 1)))
    dev = lambda n: g.vc_deviation(n, d, 0.025 / (2 * p.m))  # noqa: E731
    assert dev(p.n) <= p.eta < dev(p.n - 1)
    assert p.K == max(d + 1, math.floor(p.A * p.n) + 1)
    assert p.s == math.prod(2 ** (t - 1) * p.K + 1 for t in range(1, d + 1))
    err = lambda m: sparse_selection_error_bound(m, p.s, 1.0, 1e-6, 0.025)  # noqa: E731
    assert p.m / (d + 1) >= err(p.m) + 1 > (p.m - 1) / (d + 1) - (err(p.m) - err(p.m - 1))
    assert p.total == p.m * p.n and p.theory


def test_relative_variant_is_smaller_and_sound():
    for d in (1, 2, 4):
        a = g.polyprilearn_plan(d, 0.1, 1.0, 1e-6, 0.05)
        r = g.polyprilearn_plan(d, 0.1, 1.0, 1e-6, 0.05, convergence="relative")
        assert r.n < a.n
        lam, mu = r.eta / (2 * r.A), r.eta / 2
        assert lam * r.A + mu <= r.eta + 1e-15  # the sandwich condition
        assert 2 * g.relative_failure(r.n, d, lam, mu) <= 0.025 / (2 * r.m)


def test_proper_plan_and_overrides():
    q = g.polypriproplearn_plan(1, 0.1, 1.0, 1e-6, 0.05)
    assert q.alpha_prime == 0.0125 and q.inner.alpha == 0.025 and q.inner.K >= q.K_req
    assert g.vc_deviation(q.K_req, 1, 0.5) <= q.alpha_prime < g.vc_deviation(q.K_req - 1, 1, 0.5)
    assert q.total == q.inner.total + q.n_generic
    o = g.polyprilearn_plan(2, 0.1, 1.0, 1e-6, 0.05, n=100, m=50, K=7)
    assert (o.n, o.m, o.K, o.theory) == (100, 50, 7, False)


def test_compare_has_a_crossover():
    rows = g.compare_blm20(list(range(1, 9)), 0.1, 1.0, 1e-6, 0.05)
    assert rows[0]["blm20"] < rows[0]["ggkm21_proper"]  # BLM20 wins at d = 1
    x = g.crossover(rows)
    assert x is not None and rows[-1]["ggkm21_proper"] < rows[-1]["blm20"]
    assert all(r["ggkm21_proper"] < r["blm20"] for r in rows if r["d"] >= x)


def test_cli_ggkm21_and_compare(tmp_path):
    runner = CliRunner()
    r = runner.invoke(app, ["bounds", "ggkm21", "--d", "2", "--alpha", "0.1"])
    assert r.exit_code == 0, r.output
    for word in ("n (per", "K", "s (list", "Err_SS", "Theorem D.2", "n′"):  # cells may fold on narrow terminals
        assert word in r.output
    assert f"{g.theorem64(2, 0.1, 1.0, 1e-6, 0.05).total:,}" in r.output
    png = tmp_path / "c.png"
    r = runner.invoke(app, ["bounds", "compare", "--d", "1..8", "--plot", str(png)])
    assert r.exit_code == 0 and "below BLM20 from d =" in r.output and png.stat().st_size > 2000
    for bad in (
        ["bounds", "compare", "--d", "1..x"],
        ["bounds", "ggkm21", "--d", "1", "--alpha", "2"],
        ["bounds", "ggkm21", "--d", "0"],
        ["bounds", "ggkm21", "--d", "1", "--delta", "0"],
    ):
        r = runner.invoke(app, bad)
        assert r.exit_code == 2, (bad, r.output)
    r = runner.invoke(app, ["bounds", "compare", "--help"])
    assert "Examples" in r.output
