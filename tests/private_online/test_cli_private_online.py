"""CLI: bounds lwy25 / gl21, play --learner lwy25|gl21|gl21-adaptive, experiment private_online (small)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from littlestone.cli.main import app


def _run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_bounds_lwy25_and_gl21():
    r = _run("bounds", "lwy25", "--d", 1, "--T", 1000000, "--epsilon", 1, "--delta", 1e-6, "--beta", 0.1)
    assert r.exit_code == 0, r.output
    assert "8.484216e+16" in r.output and "smallest T" in r.output and "M_1" in r.output
    r = _run("bounds", "gl21", "--d", 1, "--T", 1000000)
    assert r.exit_code == 0 and "k2 (trees)" in r.output and "eta" in r.output


@pytest.mark.parametrize("learner", ["lwy25", "gl21", "gl21-adaptive"])
def test_play_private_learners(learner):
    r = _run(
        "play",
        "--class",
        "thresholds:2",
        "--learner",
        learner,
        "--adversary",
        "iid",
        "--rounds",
        40,
        "--backend",
        "seeded",
        "--seed",
        1,
        "--show",
        0,
    )
    assert r.exit_code == 0, r.output
    assert "claim: (" in r.output and "-DP" in r.output and "setting: practical" in r.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--epsilon", "0"], "epsilon"),
        (["--delta", "1.5"], "delta"),
        (["--beta", "0"], "beta"),
        (["--seed", "3"], "--backend seeded"),
    ],
)
def test_play_private_bad_input(args, message):
    r = _run("play", "--class", "thresholds:2", "--learner", "lwy25", "--adversary", "iid", "--rounds", 10, *args)
    assert r.exit_code == 2 and message in r.output


def test_experiment_private_online_small(tmp_path):
    from littlestone.experiments import REGISTRY

    res = REGISTRY["private_online"](
        Ts=(100, 300, 1000),
        ds=(1,),
        seeds=1,
        adaptive_T_max=100,
        learners=("lwy25", "soa", "gl21-adaptive"),
        seed=1,
        out_dir=tmp_path,
    )
    assert (tmp_path / "private_online.csv").exists() and (tmp_path / "private_online.png").exists()
    assert {r["learner"] for r in res.rows} == {"lwy25", "soa", "gl21-adaptive"}
    soa = [r for r in res.rows if r["learner"] == "soa"]
    assert all(r["mean_mistakes"] <= 1 for r in soa)  # d = 1
