"""CLI end to end in-process (typer's runner): every verb, bad input → one line and exit code 2."""

from __future__ import annotations

import json

import pytest


def test_help_lists_every_verb(run):
    r = run("--help")
    assert r.exit_code == 0
    for verb in ("ldim", "tree", "play", "learn", "predict", "bounds", "audit", "experiment", "demo"):
        assert verb in r.output


@pytest.mark.parametrize(
    "verb",
    [
        "ldim",
        "tree",
        "play",
        "learn",
        "predict",
        "audit",
        "experiment",
        "demo",
        "bounds",
        "bounds generic",
        "bounds blm20",
    ],
)
def test_every_verb_has_help_with_examples(run, verb):
    r = run(*verb.split(), "--help")
    assert r.exit_code == 0, r.output
    assert "Examples" in r.output


def test_ldim_thresholds(run):
    r = run("ldim", "--class", "thresholds:1000")
    assert r.exit_code == 0
    assert "= 9" in r.output  # ⌊log2 1001⌋


def test_ldim_tree_png_written(run, tmp_path):
    png = tmp_path / "tree.png"
    r = run("ldim", "--class", "thresholds:15", "--tree", png)
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["tree.png"]


def test_ldim_from_matrix_csv(run, tmp_path):
    m = tmp_path / "matrix.csv"
    m.write_text("0,0,0\n1,0,0\n1,1,0\n1,1,1\n")  # 4 nested sets: a chain, Ldim ⌊log2 4⌋ = 2
    r = run("ldim", "--class", m)
    assert r.exit_code == 0, r.output
    assert "= 2" in r.output


def test_tree_text(run):
    r = run("tree", "--class", "thresholds:7")
    assert r.exit_code == 0
    assert "Ldim(thresholds(7)) = 3" in r.output
    assert r.output.count("*") == 8  # 2^3 leaves


def test_play_soa_against_tree_makes_exactly_ldim_mistakes(run):
    r = run("play", "--class", "thresholds:1000", "--learner", "soa", "--adversary", "tree", "--show", "0")
    assert r.exit_code == 0, r.output
    assert "9 mistakes" in r.output and "respected" in r.output


def test_learn_predict_round_trip(run, train_csv, tmp_path):
    model = tmp_path / "model.json"
    r = run(
        "learn",
        train_csv,
        "--class",
        "thresholds:100",
        "--learner",
        "generic",
        "--epsilon",
        "1",
        "--out",
        model,
        "--seed",
        "3",
        "--backend",
        "seeded",
        "--classes",
        "ham,spam",
    )
    assert r.exit_code == 0, r.output
    assert "privacy budget spent: ε = 1, δ = 0" in r.output
    saved = json.loads(model.read_text())
    assert saved["classes"] == ["ham", "spam"] and saved["cli"]["features"] == ["x"]
    assert "not private: seeded backend" in r.output  # issue 9 item 6
    assert saved["result"]["privacy_note"] == "not private: seeded backend"
    preds = tmp_path / "pred.csv"
    r = run("predict", model, train_csv, "--out", preds)
    assert r.exit_code == 0, r.output
    lines = preds.read_text().splitlines()
    assert lines[0] == "x,prediction" and len(lines) == 301
    assert {ln.split(",")[1] for ln in lines[1:]} <= {"ham", "spam"}


def test_learn_is_reproducible_with_seeded_backend(run, train_csv, tmp_path):
    outs = []
    for i in range(2):
        path = tmp_path / f"m{i}.json"
        assert (
            run(
                "learn",
                train_csv,
                "--class",
                "thresholds:100",
                "--out",
                path,
                "--seed",
                "5",
                "--backend",
                "seeded",
                "--classes",
                "ham,spam",
            ).exit_code
            == 0
        )
        outs.append(json.loads(path.read_text())["hypothesis"])
    assert outs[0] == outs[1]


def test_learn_erm_and_soa_are_marked_non_private(run, train_csv, tmp_path):
    for learner in ("erm", "soa"):
        r = run("learn", train_csv, "--class", "thresholds:100", "--learner", learner, "--out", tmp_path / "m.json")
        assert r.exit_code == 0, r.output
        assert "no privacy" in r.output


def test_bounds_generic_and_blm20(run):
    r = run("bounds", "generic", "--class", "thresholds:1000", "--alpha", "0.1", "--epsilon", "1")
    assert r.exit_code == 0 and "total sample size" in r.output
    r = run("bounds", "blm20", "--d", "3", "--alpha", "0.1", "--epsilon", "1", "--delta", "1e-6", "--beta", "0.05")
    assert r.exit_code == 0, r.output
    assert "total sample size" in r.output


@pytest.mark.parametrize(
    "args, needle",
    [
        (("ldim", "--class", "bogus:3"), "bogus"),
        (("ldim",), "Missing option"),
        (("ldim", "--class", "thresholds:10", "--bogus"), "No such option"),
        (("learn", "missing.csv", "--class", "thresholds:100", "--out", "m.json"), "file not found"),
        (("bounds", "generic", "--hypotheses", "10", "--epsilon", "-1"), "epsilon"),
        (("bounds", "generic", "--hypotheses", "10", "--alpha", "2"), "alpha"),
        (("play", "--class", "thresholds:10", "--learner", "nope"), "nope"),
    ],
)
def test_bad_input_is_one_line_exit_2(run, args, needle):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert needle in r.output
    assert "Traceback" not in r.output
    assert len(r.stderr.strip().splitlines()) == 1


def test_bad_data_files(run, train_csv, tmp_path):
    cases = {
        "ragged.csv": "x,label\n1,0\n2\n",
        "empty.csv": "",
        "nolabels.csv": "x,label\n1,0\n2,1\n3,2\n",
        "outside.csv": "x,label\n1,0\n200,1\n",
        "nan.csv": "x,label\n1,0\nnan,1\n",
    }
    for name, text in cases.items():
        p = tmp_path / name
        p.write_text(text)
        out = tmp_path / f"{name}.json"
        r = run("learn", p, "--class", "thresholds:100", "--out", out)
        assert r.exit_code == 2, (name, r.output)
        assert "Traceback" not in r.output and "error:" in r.output
        assert not out.exists(), name  # nothing half-written
    r = run("learn", train_csv, "--class", "thresholds:100", "--label", "nope", "--out", tmp_path / "m.json")
    assert r.exit_code == 2 and "no column named 'nope'" in r.output


def test_predict_rejects_non_model(run, train_csv):
    r = run("predict", train_csv, train_csv)
    assert r.exit_code == 2
    assert "not valid JSON" in r.output or "not a littlestone model" in r.output


def test_audit_list_and_run(run):
    r = run("audit", "--list")
    assert r.exit_code == 0 and "laplace" in r.output
    r = run("audit", "laplace", "--runs", "1000", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "consistent" in r.output
    r = run("audit", "no_such_mechanism")
    assert r.exit_code == 2 and "unknown audit" in r.output


def test_audit_violation_exits_1(run, monkeypatch):
    import littlestone.audit as audit

    real = audit.run_builtin_audit

    def broken(name, **kw):
        rep = real(name, **kw)
        import dataclasses

        return dataclasses.replace(rep, claimed_epsilon=rep.epsilon_lb / 10)  # claim far less than observed

    monkeypatch.setattr(audit, "run_builtin_audit", broken)
    r = run("audit", "laplace", "--runs", "1000", "--seed", "1")
    assert r.exit_code == 1
    assert "VIOLATION" in r.output


def test_experiment_list_and_run(run, tmp_path):
    r = run("experiment", "--list")
    assert r.exit_code == 0
    names = [ln.split()[0] for ln in r.output.splitlines() if ln.strip()]
    assert names
    r = run("experiment", "no_such_experiment")
    assert r.exit_code == 2 and "unknown experiment" in r.output


def test_learn_blm20_with_reduced_sizes_and_bad_param(run, tmp_path):
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.integers(0, 64, 3000)
    data = tmp_path / "real.csv"
    data.write_text("x,y\n" + "".join(f"{a},{int(a >= 20)}\n" for a in x))
    r = run(
        "learn",
        data,
        "--class",
        "thresholds:64",
        "--learner",
        "blm20",
        "--epsilon",
        "4",
        "--delta",
        "1e-5",
        "--out",
        tmp_path / "b.json",
        "-p",
        "n_batches=200",
        "-p",
        "aux_size=6",
        "-p",
        "cap=6",
        "-p",
        "n_generic=200",
        "--seed",
        "0",
        "--backend",
        "seeded",
    )
    assert r.exit_code == 0, r.output
    assert "privacy budget spent" in r.output and "δ = " in r.output
    r = run("learn", data, "--class", "thresholds:64", "--learner", "blm20", "--out", tmp_path / "c.json")
    assert r.exit_code == 2 and "needs" in r.output and not (tmp_path / "c.json").exists()
    r = run("learn", data, "--class", "thresholds:64", "-p", "nope=1", "--out", tmp_path / "c.json")
    assert r.exit_code == 2 and "no parameter 'nope'" in r.output


def test_audit_broken_twins_are_caught_from_the_cli(run):
    r = run("audit", "--broken", "--list")
    assert r.exit_code == 0 and "stable_histogram_threshold_one_too_low" in r.output
    r = run("audit", "--broken", "laplace_half_noise", "stable_histogram_threshold_one_too_low", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert r.output.count("caught") >= 2 and "NOT caught" not in r.output
    r = run("audit", "--broken", "laplace")
    assert r.exit_code == 2 and "unknown broken twin" in r.output
    r = run("audit", "--broken", "laplace_half_noise", "--backend", "secure")
    assert r.exit_code == 2 and "run on their own backend" in r.output


def test_audit_broken_twin_not_caught_exits_1(run, monkeypatch):
    import dataclasses

    import littlestone.audit as audit

    real = audit.run_broken_audit
    monkeypatch.setattr(
        audit, "run_broken_audit", lambda name, **kw: dataclasses.replace(real(name, **kw), claimed_epsilon=100.0)
    )
    r = run("audit", "--broken", "laplace_half_noise", "--seed", "1")
    assert r.exit_code == 1 and "NOT caught" in r.output


def test_learn_prints_the_bounds_command_for_its_theorem_size(run, train_csv, tmp_path):
    """`learn --learner generic` names the `littlestone bounds generic` command that reproduces its sample size."""
    import re

    r = run(
        "learn",
        train_csv,
        "--class",
        "thresholds:100",
        "--out",
        tmp_path / "m.json",
        "--epsilon",
        "0.5",
        "--alpha",
        "0.2",
        "--mode",
        "realizable",
        "--backend",
        "seeded",
        "--seed",
        "0",
        "--classes",
        "ham,spam",
    )
    assert r.exit_code == 0, r.output
    n = re.search(r"n ≥ ([\d,]+)", r.output).group(1)
    command = re.search(r"(littlestone bounds generic [^\n]+)", r.output).group(1)
    assert "--hypotheses 101" in command and "--mode realizable" in command
    b = run(*command.split()[1:])
    assert b.exit_code == 0 and f"total sample size: {n}" in b.output


def test_experiment_backend_and_set_handling(run, tmp_path):
    out = tmp_path / "ex"
    r = run("experiment", "blm20_stability", "--set", "seed=3", "--out", out)
    assert r.exit_code == 2 and "--seed" in r.output
    r = run("experiment", "blm20_stability", "--backend", "secure", "--out", out)
    assert r.exit_code == 2 and "no privacy noise" in r.output
    r = run(
        "experiment",
        "blm20_accuracy",
        "--set",
        "fractions=0.001",
        "--set",
        "reps=1",
        "--set",
        "epsilons=1",
        "--backend",
        "secure",
        "--out",
        out,
    )  # one value for a list parameter; OpenDP noise
    assert r.exit_code == 0, r.output
    assert "not run" in r.output and (out / "blm20_accuracy.csv").exists()
