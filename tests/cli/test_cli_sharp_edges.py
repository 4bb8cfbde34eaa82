"""Sharp edges found by a new-user trial (issue 9 items 11–14 and 20): the seed under the secure backend, import
without a writable home, silent acceptance of bad input, surprising defaults, Ldim of an empty matrix."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

from littlestone.cli._common import SEED_NOTE
from test_cli_subprocess import ENV

TRAIN = "x,label\n1,0\n5,1\n7,1\n2,0\n"


@pytest.fixture
def ok_csv(tmp_path):
    p = tmp_path / "ok.csv"
    p.write_text(TRAIN)
    return p


# ---------------------------------------------------------------- item 11: --seed under the secure backend


def test_seed_under_secure_backend_is_explained_once(run, ok_csv, tmp_path):
    r = run("learn", ok_csv, "-c", "thresholds:10", "-o", tmp_path / "m.json", "--seed", "3")
    assert r.exit_code == 0, r.output
    assert r.stderr.count("--seed fixes only randomness that may be public") == 1
    r = run("learn", ok_csv, "-c", "thresholds:10", "-o", tmp_path / "m.json", "--seed", "3", "--backend", "seeded")
    assert r.exit_code == 0 and "note:" not in r.stderr
    r = run("learn", ok_csv, "-c", "thresholds:10", "-o", tmp_path / "m.json")  # no seed: nothing to explain
    assert r.exit_code == 0 and "note:" not in r.stderr
    assert "OpenDP" in SEED_NOTE and "--backend seeded" in SEED_NOTE


# ---------------------------------------------------------------- item 12: import without a writable home

READ_ONLY_INSTALL = """
import sys
import numba.core.caching as c
# as for a read-only installation: numba cannot keep its cache next to the sources
c.CacheImpl._locator_classes = [k for k in c.CacheImpl._locator_classes if k is not c.InTreeCacheLocator]
from littlestone.cli.main import main
sys.argv = ["littlestone", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize("args,out", [(("--version",), "littlestone "), (("ldim", "-c", "intervals:64"), "= 10")])
def test_runs_without_a_writable_home_or_cache_dir(args, out, tmp_path):
    env = {**ENV, "HOME": "/dev/null", "NUMBA_CACHE_DIR": "/dev/null/numba"}  # unwritable, even for root
    r = subprocess.run(
        [sys.executable, "-c", READ_ONLY_INSTALL, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert out in r.stdout and "Traceback" not in r.stderr


def test_njit_cached_falls_back_to_no_cache(monkeypatch):
    import numba

    from littlestone import _numba

    real = numba.njit

    def refusing(*a, **k):
        if k.get("cache"):
            raise RuntimeError("cannot cache function 'f': no locator available for file 'x.py'")
        return real(*a, **k)

    monkeypatch.setattr(numba, "njit", refusing)

    def f(x):
        return x + 1

    assert _numba.njit_cached(f)(2) == 3


# ---------------------------------------------------------------- item 13: silent acceptance


@pytest.mark.parametrize(
    "args,needle",
    [
        (("ldim", "--class", "conjunctions:3,9"), "must be ≤ N = 3"),
        (("ldim", "--class", "{m2}"), "entry '2' in row 1 is not 0 or 1"),
        (("learn", "{ok}", "-c", "thresholds:10", "-o", "{out}", "--delta", "0.5"), "--delta does not apply"),
        (
            ("learn", "{ok}", "-c", "thresholds:10", "-o", "{out}", "-l", "soa", "--mode", "realizable"),
            "--mode applies",
        ),
    ],
)
def test_silent_acceptance_is_now_an_error(run, ok_csv, tmp_path, args, needle):
    m2 = tmp_path / "m2.csv"
    m2.write_text("1,2,0\n0,1,1\n")  # a mistyped first row, formerly read as a header (Ldim 0)
    subs = {"{m2}": str(m2), "{ok}": str(ok_csv), "{out}": str(tmp_path / "m.json")}
    r = run(*[subs.get(a, a) for a in args])
    assert r.exit_code == 2 and needle in r.stderr, r.output
    assert not (tmp_path / "m.json").exists()


def test_conjunctions_k_equal_n_still_accepted(run):
    r = run("ldim", "--class", "conjunctions:3,3")
    assert r.exit_code == 0, r.output


def test_matrix_with_a_mixed_header_still_read(run, tmp_path):
    m = tmp_path / "h.csv"
    m.write_text("x0,5,7\n0,1,1\n1,1,0\n")
    r = run("ldim", "--class", m)
    assert r.exit_code == 0 and "= 1" in r.output


def test_predict_with_foreign_labels_is_an_error(run, ok_csv, tmp_path):
    model = tmp_path / "m.json"
    assert run("learn", ok_csv, "-c", "thresholds:10", "-o", model, "--backend", "seeded", "--seed", "1").exit_code == 0
    foreign = tmp_path / "foreign.csv"
    foreign.write_text("x,label\n1,spam\n5,ham\n")
    r = run("predict", model, foreign)
    assert r.exit_code == 2 and "labels the model does not know" in r.stderr
    assert "accuracy on" not in r.output and "prediction" not in r.stdout  # nothing printed before the error
    r = run("predict", model, ok_csv)
    assert r.exit_code == 0 and "accuracy on" in r.stderr


# ---------------------------------------------------------------- item 14: defaults that surprise


def test_generic_learner_without_class_says_what_it_assumed():
    from littlestone.pac import GenericLearnerClassifier
    from littlestone.pac.generic import DefaultCandidatesWarning

    X = np.arange(40, dtype=float).reshape(-1, 1)
    y = (X[:, 0] >= 20).astype(int)
    with pytest.warns(DefaultCandidatesWarning, match="standardized features"):
        GenericLearnerClassifier(backend="seeded", random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DefaultCandidatesWarning)
        GenericLearnerClassifier("thresholds:40", backend="seeded", random_state=0).fit(X.astype(int), y)


def test_mode_default_agrees_between_estimator_and_cli():
    import inspect

    from littlestone.cli.learn_cmds import learn
    from littlestone.pac import GenericLearnerClassifier

    cli_default = inspect.signature(learn).parameters["mode"].default.default
    assert GenericLearnerClassifier().mode == getattr(cli_default, "value", cli_default) == "agnostic"


# ---------------------------------------------------------------- item 20: Ldim of an empty matrix


def test_ldim_of_a_zero_row_matrix_is_minus_one(run, tmp_path):
    from littlestone.classes import FiniteClass
    from littlestone.dimensions import ldim

    assert ldim(FiniteClass(np.zeros((0, 3), dtype=np.uint8))) == -1
    assert FiniteClass(np.zeros((0, 3))).ldim() == -1
    header_only = tmp_path / "empty.csv"
    header_only.write_text("a,b,c\n")
    r = run("ldim", "--class", header_only, "--vc")
    assert r.exit_code == 0, r.output
    assert "Ldim(empty.csv) = -1" in r.stdout and "the class is empty" in r.stdout
    r = run("tree", "--class", header_only)
    assert r.exit_code == 0 and "Ldim = −1" in r.stdout
