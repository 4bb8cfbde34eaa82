"""``--ledger FILE`` on ``learn`` and ``play --data`` (issue 28 item 1): a dataset's budget across CLI calls — the
claims add up, a call past the budget or on other data is refused with one line (exit 2) before the data is parsed,
the file holds the data's digest and the claims (never the data) and is written atomically."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _learn(run, data, ledger, tmp_path, *extra):
    return run(
        "learn",
        data,
        "--class",
        "thresholds:100",
        "--classes",
        "ham,spam",
        "-o",
        tmp_path / "m.json",
        "--ledger",
        ledger,
        *extra,
    )


def test_claims_add_up_and_a_call_past_the_budget_is_refused(run, train_csv, tmp_path):
    ledger = tmp_path / "ledger.json"
    r = _learn(run, train_csv, ledger, tmp_path, "--ledger-budget", "1.5", "-e", "0.5", "--backend", "seeded")
    assert r.exit_code == 0, r.output
    book = json.loads(ledger.read_text())
    assert book["data_sha256"] == hashlib.sha256(train_csv.read_bytes()).hexdigest()
    assert book["budget"] == {"epsilon": 1.5, "delta": 0.0} and book["spent"]["epsilon"] == 0.5
    assert len(book["claims"]) == 1 and book["claims"][0]["command"] == "learn"
    text = ledger.read_text()
    assert "ham" not in text and "spam" not in text  # nothing of the data
    assert _learn(run, train_csv, ledger, tmp_path, "-e", "0.75", "--backend", "seeded").exit_code == 0
    before = ledger.read_text()
    r = _learn(run, train_csv, ledger, tmp_path, "-e", "0.5", "--backend", "seeded")
    assert r.exit_code == 2 and "needs (epsilon=0.5" in r.output and "0.25" in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert ledger.read_text() == before  # nothing charged


def test_refused_before_the_data_is_parsed(run, train_csv, tmp_path, monkeypatch):
    ledger = tmp_path / "ledger.json"
    assert (
        _learn(run, train_csv, ledger, tmp_path, "--ledger-budget", "1", "-e", "1", "--backend", "seeded").exit_code
        == 0
    )

    def touched(*a, **k):
        raise AssertionError("the data was parsed")

    monkeypatch.setattr("littlestone.cli.learn_cmds.read_csv", touched)
    r = _learn(run, train_csv, ledger, tmp_path, "-e", "0.1")
    assert r.exit_code == 2 and "epsilon=0.1" in r.output


def test_a_ledger_belongs_to_one_dataset(run, train_csv, tmp_path):
    ledger = tmp_path / "ledger.json"
    assert _learn(run, train_csv, ledger, tmp_path, "--ledger-budget", "5", "--backend", "seeded").exit_code == 0
    other = tmp_path / "other.csv"
    other.write_text(train_csv.read_text().replace("spam", "ham", 1))
    r = _learn(run, other, ledger, tmp_path, "--backend", "seeded")
    assert r.exit_code == 2 and "belongs to other data" in r.output and len(r.output.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "extra,match",
    [
        ((), "needs --ledger-budget"),
        (("--ledger-budget", "zero"), "EPS or EPS,DELTA"),
        (("--ledger-budget", "1,2"), "DELTA must lie"),
        (("--ledger-budget", "1", "--learner", "erm"), "non-private baseline"),
    ],
)
def test_bad_ledger_use_is_one_line(run, train_csv, tmp_path, extra, match):
    r = _learn(run, train_csv, tmp_path / "new.json", tmp_path, *extra)
    assert r.exit_code == 2 and match in r.output and len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "new.json").exists() and not (tmp_path / "m.json").exists()


def test_damaged_ledger_and_fixed_budget(run, train_csv, tmp_path):
    ledger = tmp_path / "ledger.json"
    ledger.write_text("{not json")
    r = _learn(run, train_csv, ledger, tmp_path)
    assert r.exit_code == 2 and "not a usable ledger" in r.output
    ledger.unlink()
    assert _learn(run, train_csv, ledger, tmp_path, "--ledger-budget", "2", "--backend", "seeded").exit_code == 0
    r = _learn(run, train_csv, ledger, tmp_path, "--ledger-budget", "3")
    assert r.exit_code == 2 and "fixed when it is created" in r.output


def test_ledger_is_written_atomically(run, train_csv, tmp_path, monkeypatch):
    """Interrupted while the new ledger replaces the old: the old one is intact, no temporary file is left."""
    ledger = tmp_path / "ledger.json"
    assert _learn(run, train_csv, ledger, tmp_path, "--ledger-budget", "5", "--backend", "seeded").exit_code == 0
    before = ledger.read_text()
    import littlestone.io as lio
    from littlestone.cli.ledger import Ledger

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(lio.os, "replace", interrupted)
    book = Ledger.open(ledger, None)
    with pytest.raises(KeyboardInterrupt):
        book.charge("learn", "x", 0.1, 0.0)
    assert ledger.read_text() == before and sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["ledger.json", "ledger.json.lock", "m.json", "train.csv"]  # the lock file stays (removing it would race)
    )


def test_play_data_charges_runs_times_the_claim(run, tmp_path):
    seq = tmp_path / "seq.csv"
    seq.write_text("x,y\n" + "".join(f"{i % 4},{int(i % 4 >= 2)}\n" for i in range(40)))
    ledger = tmp_path / "ledger.json"
    args = ["play", "--class", "thresholds:4", "--learner", "lwy25", "--adversary", "fixed", "--data", seq]
    r = run(*args, "--runs", "2", "--backend", "seeded", "--seed", "1", "--ledger", ledger, "--ledger-budget", "5,1e-3")
    assert r.exit_code == 0, r.output
    book = json.loads(ledger.read_text())
    assert book["claims"][0]["epsilon"] == pytest.approx(2.0) and book["claims"][0]["command"] == "play"
    r = run(*args, "--runs", "4", "--ledger", ledger)
    assert r.exit_code == 2 and "needs (epsilon=4" in r.output
    r = run("play", "--class", "thresholds:4", "--adversary", "fixed", "--data", seq, "--ledger", ledger)
    assert r.exit_code == 2 and "non-private" in r.output


# ------------------------------------------------------------------------------- loading refusals (issue 32 item 8)


def _book(tmp_path, train_csv, run):
    ledger = tmp_path / "ledger.json"
    assert (
        _learn(run, train_csv, ledger, tmp_path, "--ledger-budget", "2", "-e", "0.5", "--backend", "seeded").exit_code
        == 0
    )
    return ledger


def _refused(run, train_csv, ledger, tmp_path, *words):
    r = _learn(run, train_csv, ledger, tmp_path, "-e", "0.1", "--backend", "seeded")
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    for w in words:
        assert w in r.output, r.output
    return r


@pytest.mark.parametrize(
    "edit,words",
    [
        (lambda b: b["budget"].update(epsilon=1e400), ["must be finite"]),
        (lambda b: b["budget"].update(epsilon="2"), ["JSON number"]),
        (lambda b: b["claims"][0].update(epsilon="1e-300"), ["claim 1's epsilon must be a JSON number"]),
        (lambda b: b["claims"][0].update(epsilon=-0.5), ["must be >= 0"]),
        (lambda b: b["claims"][0].update(epsilon=float("nan")), ["must be finite"]),
        (lambda b: b["claims"][0].update(delta=True), ["JSON number"]),
        (lambda b: b["claims"][0].update(delta=1.5), ["delta must lie in [0, 1)"]),
        (lambda b: b["claims"][0].update(epsilon=1e-300), ["recorded total differs"]),  # edited down
        (lambda b: b.update(claims={"a": 1}), ["claims is not a list"]),
        (lambda b: b.update(data_sha256=7), ["SHA-256"]),
    ],
)
def test_malformed_ledgers_are_refused_when_loading(run, train_csv, tmp_path, edit, words):
    ledger = _book(tmp_path, train_csv, run)
    book = json.loads(ledger.read_text())
    edit(book)
    ledger.write_text(json.dumps(book).replace("Infinity", "1e400"))  # 1e400 as written in the file
    _refused(run, train_csv, ledger, tmp_path, "is not a usable ledger", *words)


def test_a_deeply_nested_ledger_is_one_line_exit_2(run, train_csv, tmp_path):
    ledger = tmp_path / "deep.json"
    ledger.write_text("[" * 100_000 + "]" * 100_000)
    _refused(run, train_csv, ledger, tmp_path, "nested too deeply")


def test_special_files_are_named_for_what_they_are(run, train_csv, tmp_path):
    d = tmp_path / "dir.json"
    d.mkdir()
    _refused(run, train_csv, d, tmp_path, "is a directory, not a regular file")
    if os.path.exists("/dev/null"):
        _refused(run, train_csv, Path("/dev/null"), tmp_path, "is a character device, not a regular file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_ledger_is_refused_without_blocking(train_csv, tmp_path):
    fifo = tmp_path / "ledger.fifo"
    os.mkfifo(fifo)
    code = (
        "import sys; from littlestone.cli.ledger import open_ledger\n"
        "try:\n    open_ledger(sys.argv[1], None, sys.argv[2])\n"
        "except Exception as e:\n    print(e); sys.exit(2)\n"
    )
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-c", code, str(fifo), str(train_csv)], capture_output=True, text=True,
                       timeout=120, env=env)  # fmt: skip
    assert r.returncode == 2 and "is a FIFO, not a regular file" in r.stdout, r.stdout + r.stderr


def test_a_fit_refused_for_too_few_rows_charges_nothing(run, train_csv, tmp_path):
    """blm20 at Theorem 1's sizes on 300 rows: InsufficientSampleError (exit 2) and the ledger records nothing."""
    ledger = tmp_path / "I.json"
    r = run("learn", train_csv, "-c", "thresholds:100", "--classes", "ham,spam", "-l", "blm20", "-o",
            tmp_path / "m.json", "--ledger", ledger, "--ledger-budget", "5,1e-3")  # fmt: skip
    assert r.exit_code == 2 and "needs" in r.output and "examples" in r.output, r.output
    assert not ledger.exists() or json.loads(ledger.read_text())["claims"] == []
    from littlestone.cli.ledger import open_ledger

    open_ledger(ledger, "5,1e-3", train_csv).charge("learn", "x", 0.5, 0.0)
    r = run("learn", train_csv, "-c", "thresholds:100", "--classes", "ham,spam", "-l", "blm20", "-o",
            tmp_path / "m.json", "--ledger", ledger)  # fmt: skip
    assert r.exit_code == 2 and [c["epsilon"] for c in json.loads(ledger.read_text())["claims"]] == [0.5]
