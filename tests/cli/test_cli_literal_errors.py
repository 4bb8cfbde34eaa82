"""Sharp edges of a new-user trial (issue 21 items 5, 7, 11, 12, 13): huge numbers give one-line errors with exit 2
(never "internal error"), errors are printed literally (no rich markup eaten), the exact dimension searches name the
CLI option that lifts their cap, consistent messages for counts and output paths, and the default-candidates
warning recommends no data-fitted scaler."""

from __future__ import annotations

import os

import numpy as np
import pytest

from littlestone.errors import LittlestoneError

TRAIN = "x,label\n1,0\n5,1\n7,1\n2,0\n"


def _one_error_line(r, code=2, after=0):
    """The error line of a failed run (after ``after`` lines of results)."""
    assert r.exit_code == code, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == after + 1 and lines[-1].startswith("error: "), r.output
    assert "internal error" not in r.output
    return lines[-1]


# ---------------------------------------------------------------- item 5: exit 2, not "internal error"


@pytest.mark.parametrize(
    "spec", ["thresholds:2^100000", "thresholds:2^1000000000", "thresholds:2^64", "thresholds:" + "9" * 30]
)
def test_huge_class_spec_numbers_are_bad_input(run, spec):
    line = _one_error_line(run("ldim", "--class", spec))
    assert "must be at most 2^63" in line


def test_largest_accepted_spec_number(run):
    r = run("ldim", "--class", "thresholds:2^63")
    assert r.exit_code == 0 and "= 63" in r.output


@pytest.mark.parametrize("d", ["100000", "1004", "1011", str(10**30)])
def test_bounds_blm20_huge_d_is_bad_input(run, d):
    line = _one_error_line(run("bounds", "blm20", "--d", d))
    assert "d ≤ 1010" in line or "overflow a float" in line


def test_bounds_blm20_largest_d_fails_cleanly_or_answers(run):
    for theorem in ("theorem1", "theorem10", "theorem17"):
        r = run("bounds", "blm20", "--d", "1010", "--theorem", theorem)
        assert r.exit_code in (0, 2), r.output
        assert "internal error" not in r.output


def test_out_of_memory_is_one_line_exit_2(run, monkeypatch):
    import littlestone.cli.dimension_cmds as cmds

    def boom(spec):
        raise MemoryError("Unable to allocate 8.00 TiB")

    monkeypatch.setattr(cmds, "load_class", boom)
    line = _one_error_line(run("ldim", "--class", "thresholds:4"))
    assert "not enough memory" in line and "8.00 TiB" in line


# ---------------------------------------------------------------- item 7: errors printed literally


def test_bracketed_words_survive_in_errors(run, monkeypatch):
    line = _one_error_line(run("ldim", "--class", "[bold]x[/bold]"))
    assert "'[bold]x[/bold]'" in line
    import littlestone.cli.dimension_cmds as cmds

    def needs_dask(spec):
        raise LittlestoneError("the dask backend needs dask.distributed: pip install 'littlestone[dask]'")

    monkeypatch.setattr(cmds, "load_class", needs_dask)
    line = _one_error_line(run("ldim", "--class", "thresholds:4"))
    assert line.endswith("pip install 'littlestone[dask]'")


def test_bracketed_file_names_survive_in_output(run, tmp_path):
    path = tmp_path / "[bold]m.csv"
    path.write_text("0,1\n1,1\n")
    r = run("ldim", "--class", path, "--vc")
    assert r.exit_code == 0, r.output
    assert "Ldim([bold]m.csv) = 1" in r.output and "VC([bold]m.csv) = 1" in r.output


# ---------------------------------------------------------------- item 11: the search cap is a CLI option


def test_search_cap_names_the_cli_option(run):
    line = _one_error_line(run("ldim", "--class", "random:40x12", "--vc", "--max-nodes", "5"), after=1)
    assert "--max-nodes" in line and "max_nodes=None" not in line
    line = _one_error_line(run("ldim", "--class", "random:40x12", "--threshold", "--max-nodes", "5"), after=1)
    assert "--max-nodes none" in line and "max_states" not in line
    r = run("ldim", "--class", "random:40x12", "--vc", "--dual", "--threshold", "--max-nodes", "none")
    assert r.exit_code == 0, r.output
    assert "dual VC(random(40x12:0)) = 3" in r.output and "threshold dim(random(40x12:0)) = 7" in r.output
    line = _one_error_line(run("ldim", "--class", "random:40x12", "--vc", "--max-nodes", "lots"))
    assert "--max-nodes must be a positive integer or 'none', got 'lots'" in line


# ---------------------------------------------------------------- item 12: messages


@pytest.mark.parametrize("value", ["-1", "0", "1.5"])
def test_count_parameters_have_one_message(run, tmp_path, value):
    data = tmp_path / "ok.csv"
    data.write_text(TRAIN)
    args = ("learn", data, "-c", "thresholds:10", "--learner", "blm20", "-o", tmp_path / "m.json")
    line = _one_error_line(run(*args, "-p", f"n_batches={value}"))
    assert line == f"error: --param n_batches must be an integer ≥ 1, got {value}"


@pytest.mark.parametrize("spec, what", [("thresholds:-1", "N"), ("thresholds:0", "N"), ("affine:1,2,1", "Q")])
def test_spec_integers_say_which_integers(run, spec, what):
    line = _one_error_line(run("ldim", "--class", spec))
    value = spec.split(":")[1].split(",")[0]
    kind = "an integer ≥ 2" if what == "Q" else "a positive integer"
    assert f"{what} must be {kind}, got " in line and value in line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_demo_out_says_what_the_path_is(run, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    line = _one_error_line(run("demo", "--fast", "--out", fifo))
    assert "it is a FIFO (named pipe), not a directory" in line
    (tmp_path / "f.txt").write_text("x")
    os.symlink(tmp_path / "f.txt", tmp_path / "link")
    line = _one_error_line(run("demo", "--fast", "--out", tmp_path / "link"))
    assert "it is a symbolic link to a file" in line
    line = _one_error_line(run("demo", "--fast", "--out", tmp_path / "f.txt"))
    assert "it is a file, not a directory" in line


# ---------------------------------------------------------------- item 13: no data-fitted scaler advised


def test_default_candidates_warning_advises_public_bounds():
    from littlestone.pac import GenericLearnerClassifier
    from littlestone.pac.generic import DefaultCandidatesWarning

    X = np.arange(40, dtype=float).reshape(-1, 1)
    y = (X[:, 0] >= 20).astype(int)
    with pytest.warns(DefaultCandidatesWarning) as rec:
        GenericLearnerClassifier(backend="seeded", random_state=0).fit(X, y)
    text = str(rec[0].message)
    assert "public bounds" in text and "GridDiscretizer" in text
    assert "StandardScaler first" not in text and "not a StandardScaler fitted on the private data" in text
    assert "StandardScaler first" not in (GenericLearnerClassifier.__doc__ or "")


# ---------------------------------------------------------------- item 14: a model's hypothesis fits its class


def test_model_whose_hypothesis_is_not_of_its_class_is_refused(run, tmp_path):
    import json

    data = tmp_path / "ok.csv"
    data.write_text(TRAIN)
    model = tmp_path / "m.json"
    r = run("learn", data, "-c", "thresholds:10", "-o", model, "--backend", "seeded", "--seed", "1")
    assert r.exit_code == 0, r.output
    (tmp_path / "q.csv").write_text("x\n3\n8\n")
    assert run("predict", model, tmp_path / "q.csv").exit_code == 0
    m = json.loads(model.read_text())
    assert m["hypothesis"]["kind"] == "threshold"
    m["hypothesis_class"] = "allfunctions:1000000000"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(m))
    line = _one_error_line(run("predict", bad, tmp_path / "q.csv"))
    assert "is not a hypothesis of its class allfunctions(1000000000)" in line and "Threshold" in line
    m["hypothesis"] = {"kind": "finite-set", "points": [3]}
    bad.write_text(json.dumps(m))
    r = run("predict", bad, tmp_path / "q.csv")
    assert r.exit_code == 0 and "3,1" in r.output and "8,0" in r.output
