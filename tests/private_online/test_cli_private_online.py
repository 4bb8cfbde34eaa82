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


@pytest.mark.parametrize("learner", ["lwy25", "lwy25-paper", "gl21", "gl21-paper", "gl21-adaptive"])
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
    assert "claim: (" in r.output and "-DP" in r.output and "practical(" in r.output
    assert ("anytime restarts" in r.output) == (learner in ("lwy25", "gl21"))
    assert "public state at the end" in r.output and "diagnostics" not in r.output
    assert not any(k in r.output for k in ("'insertions'", "'agreeing_pairs'", "'merges'", "'released_frequency'"))


@pytest.mark.parametrize("learner, key", [("lwy25", "'insertions'"), ("gl21-paper", "'merges'")])
def test_play_prints_exact_counts_only_with_diagnostics(learner, key):
    """Release policy (issue 19 item 4): the exact counts of the private stream are printed only on --diagnostics,
    labelled as not private; --diagnostics is refused for a non-private learner."""
    args = ("play", "-c", "thresholds:2", "-l", learner, "-a", "iid", "-T", 40, "--backend", "seeded", "--seed", 1)
    r = _run(*args, "--show", 0, "--diagnostics")
    assert r.exit_code == 0, r.output
    assert "with non-private diagnostics" in r.output and key in r.output
    r = _run("play", "-c", "thresholds:2", "-l", "soa", "--diagnostics")
    assert r.exit_code == 2 and "--diagnostics applies only to the private learners" in r.output, r.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--epsilon", "0"], "epsilon"),
        (["--delta", "1.5"], "delta"),
        (["--beta", "0"], "beta"),
        (["--setting", "N0=64,foo=3"], "KEY one of N0, m_coef, m_exp"),
        (["--setting", "N0"], "not KEY=VALUE"),
        (["--setting", "N0=-4"], "positive integer"),
        (["--setting", "N0=2.5"], "positive integer"),
        (["--setting", "m_exp=nan"], "positive number"),
        (["--setting", "N0=6"], "multiple of 2^(d+1)"),
        (["--rounds", "99999999999999999999"], "memory"),
    ],
)
def test_play_private_bad_input(args, message):
    r = _run("play", "--class", "thresholds:2", "--learner", "lwy25", "--adversary", "iid", "--rounds", 10, *args)
    assert r.exit_code == 2 and message in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1


def test_play_seed_under_secure_is_a_note_not_an_error():
    """issue 21 item 6: like ``learn``, --seed under the secure backend prints a note (public randomness only)."""
    r = _run("play", "-c", "thresholds:2", "-l", "lwy25", "-a", "iid", "--rounds", 30, "--seed", 3, "--show", 0)
    assert r.exit_code == 0, r.output
    assert "fixes only randomness that may be public" in r.output


def test_play_cluster_with_one_private_game_warns():
    r = _run(
        "play",
        "-c",
        "thresholds:2",
        "-l",
        "lwy25",
        "-a",
        "iid",
        "--rounds",
        30,
        "--show",
        0,
        "--cluster",
        "tcp://127.0.0.1:1",
    )
    assert r.exit_code == 0, r.output
    assert "--cluster is not used" in r.output


@pytest.mark.parametrize("args", [["--epsilon", "1"], ["--delta", "1e-3"], ["--setting", "N0=64"]])
def test_play_private_options_refused_for_soa(args):
    r = _run("play", "-c", "thresholds:2", "-l", "soa", "--rounds", 5, *args)
    assert r.exit_code == 2 and "only to the private learners" in r.output, r.output


def test_play_setting_reaches_the_learner_and_large_d_names_the_n0():
    r = _run(
        "play",
        "-c",
        "thresholds:15",
        "-l",
        "lwy25",
        "-a",
        "iid",
        "--rounds",
        200,
        "--show",
        0,
        "--backend",
        "seeded",
        "--seed",
        0,
        "--setting",
        "N0=64,m_exp=2",
    )
    assert r.exit_code == 0, r.output
    assert "custom(N0=64, M_s=128·2^(-2·2^s)·N_s)" in r.output
    r = _run("play", "-c", "thresholds:15", "-l", "lwy25", "-a", "iid", "--rounds", 200)
    assert r.exit_code == 2 and "N0 = 2^(11+6(d-1)) = 536,870,912" in r.output and "2^(d+1) = 32" in r.output
    r = _run("play", "-c", "thresholds:31", "-l", "gl21", "-a", "iid", "--rounds", 200)
    assert r.exit_code == 2 and "--setting k2=" in r.output


def test_play_gl21_adaptive_says_it_cannot_release_and_warns_quadratic():
    r = _run(
        "play",
        "-c",
        "thresholds:2",
        "-l",
        "gl21-adaptive",
        "-a",
        "iid",
        "--rounds",
        2001,
        "--show",
        0,
        "--backend",
        "seeded",
        "--seed",
        0,
        "--setting",
        "k2=1,c=1",
    )
    assert r.exit_code == 0, r.output
    assert "cannot release a hypothesis learned from the data before T = 345,480" in r.output
    assert "O(T²)" in r.output


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


def test_progress_of_long_private_games_moves_by_rounds():
    """issue 21 item 10: a 10⁹-round game's bar moves every 10⁴ rounds (was every T/100 = 10⁷)."""
    from littlestone.cli.online_cmds import progress_every

    assert progress_every(10**9) == 10_000 and progress_every(5000) == 50 and progress_every(7) == 1
