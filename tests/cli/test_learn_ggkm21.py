"""`littlestone learn --learner polyprilearn|polypriproplearn|agnostic-proper` (issue 21 item 8): each fits at
reduced sizes, takes --delta and --classes, writes a model without diagnostics, and prints its claim."""

from __future__ import annotations

import json

import numpy as np
import pytest


@pytest.mark.parametrize(
    "learner, cls, params",
    [
        ("polyprilearn", "thresholds:64", ["n=20", "m=50", "K=1"]),
        ("polypriproplearn", "thresholds:64", ["n=20", "m=40", "K=1", "n_generic=100"]),
        ("agnostic-proper", "thresholds:8", ["n=400", "n_inner=1", "m=1", "K=1", "n_generic=1"]),
    ],
)
def test_learn_ggkm21_learners(run, tmp_path, learner, cls, params):
    rng = np.random.default_rng(0)
    x = rng.integers(0, 8, 1000)
    data = tmp_path / "d.csv"
    data.write_text("x,y\n" + "".join(f"{a},{1 if a >= 4 else -1}\n" for a in x))
    extra = [a for p in params for a in ("-p", p)]
    out = tmp_path / "m.json"
    args = ["learn", data, "--class", cls, "--learner", learner, "--epsilon", "3", "--delta", "1e-3", "--out", out]
    r = run(*args, "--classes", "-1,1", "--backend", "seeded", "--seed", "0", *extra)
    assert r.exit_code == 0, r.output
    assert "privacy budget spent: ε = 3" in r.output and "not private: seeded backend" in r.output
    model = json.loads(out.read_text())
    assert model["classes"] == [-1, 1] and "wall_time" not in json.dumps(model["result"])
    assert "diagnostics" not in json.dumps(model["result"]) and "n_patterns" not in json.dumps(model)
    r = run(*args, "--backend", "seeded", *extra)  # labels outside the declared default pair (0, 1)
    assert r.exit_code == 2 and "declared binary classes" in r.output
