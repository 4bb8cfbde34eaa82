"""CLI verbs of the foundation (ldim, tree, play): every help example runs, the fixed-sequence adversary, closed-form
dimensions of infinite classes, bad sequence files give one-line errors."""

from __future__ import annotations

import re
import shlex

import pytest

from littlestone.cli.dimension_cmds import LDIM_EPILOG, TREE_EPILOG
from littlestone.cli.online_cmds import PLAY_EPILOG


def _examples(epilog: str) -> list[list[str]]:
    out = []
    for line in epilog.splitlines():
        line = re.sub(r"\(.*\)\s*$", "", line).strip()
        if line.startswith("littlestone "):
            out.append(shlex.split(line)[1:])
    return out


EXAMPLES = _examples(LDIM_EPILOG) + _examples(TREE_EPILOG) + _examples(PLAY_EPILOG)


@pytest.mark.parametrize("args", EXAMPLES, ids=[" ".join(a) for a in EXAMPLES])
def test_every_help_example_runs(run, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "matrix.csv").write_text("a,b,c\n0,0,1\n0,1,1\n1,1,1\n")
    (tmp_path / "sequence.csv").write_text("x,y\n5,1\n2,0\n5,0\n3,1\n")
    args = [a for a in args if a not in ("--jobs", "2")] if "--jobs" in args else args
    r = run(*args)
    assert r.exit_code == 0, (args, r.output)
    assert "error" not in r.output.lower()


def test_ldim_vc_dual_threshold_of_infinite_and_huge_classes(run):
    r = run("ldim", "--class", "pointsneg", "--vc", "--dual", "--threshold")
    assert r.exit_code == 0, r.output
    for line in (
        "Ldim(pointsneg) = 3",
        "VC(pointsneg) = 3",
        "dual Ldim(pointsneg) = 1",
        "dual VC(pointsneg) = 1",
        "threshold dim(pointsneg) = 3",
    ):
        assert line in r.output
    r = run("ldim", "--class", "thresholds:2^60", "--vc", "--dual")
    assert r.exit_code == 0, r.output
    assert "VC(thresholds(1152921504606846976)) = 1" in r.output
    assert "dual Ldim(thresholds(1152921504606846976)) = 60" in r.output


def test_play_fixed_sequence(run, tmp_path):
    seq = tmp_path / "seq.csv"
    seq.write_text("5,1\n2,0\n4,1\n3,0\n")
    r = run("play", "--class", "thresholds:10", "--adversary", "fixed", "--data", seq)
    assert r.exit_code == 0, r.output
    assert "mistake in 4 rounds" in r.output and "respected" in r.output
    bad = tmp_path / "bad.csv"
    bad.write_text("5,1\n2,0\n5,0\n")
    r = run("play", "--class", "thresholds:10", "--adversary", "fixed", "--data", bad)
    assert r.exit_code == 2 and "not realizable" in r.output and "soa-extended" in r.output
    r = run("play", "--class", "thresholds:10", "-l", "soa-extended", "--adversary", "fixed", "--data", bad)
    assert r.exit_code == 0 and "no mistake bound applies" in r.output
    cube = tmp_path / "cube.csv"
    cube.write_text("0,1,1,1\n1,1,0,0\n")  # tuple points of {0,1}^3
    r = run("play", "--class", "conjunctions:3", "-l", "halving", "--adversary", "fixed", "--data", cube)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize(
    "content,needle",
    [
        ("5,1\n2,7\n", "labels must be binary"),
        ("5,1\n12,0\n", "outside the domain"),
        ("5,1\n2\n", "row 2 has 1 entries"),
        ("x,y\n", "no examples"),
        ("5\n", "a point and a label"),
    ],
)
def test_play_bad_sequence_files(run, tmp_path, content, needle):
    f = tmp_path / "s.csv"
    f.write_text(content)
    r = run("play", "--class", "thresholds:10", "--adversary", "fixed", "--data", f)
    assert r.exit_code == 2, r.output
    assert needle in r.output and "Traceback" not in r.output


def test_play_fixed_needs_data_and_data_needs_fixed(run, tmp_path):
    assert "--data goes with" in run("play", "--class", "thresholds:10", "--adversary", "fixed").output
    f = tmp_path / "s.csv"
    f.write_text("1,1\n")
    assert "--data goes with" in run("play", "--class", "thresholds:10", "--data", f).output
    assert (
        "does not exist" in run("play", "--class", "thresholds:10", "-a", "fixed", "--data", tmp_path / "no.csv").output
    )
