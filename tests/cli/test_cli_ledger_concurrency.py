"""Concurrent CLI runs on one ``--ledger`` (issue 32 item 1): six ``learn`` processes started together on a ledger
with budget 1 (0.01 spent) each claiming ε = 0.3 — at most three are charged, the others are refused with one line
(exit 2), and the file records exactly the calls that were charged (read → check → write under a file lock)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import littlestone

EXE = shutil.which("littlestone", path=str(Path(sys.executable).parent)) or shutil.which("littlestone")
pytestmark = pytest.mark.skipif(EXE is None, reason="console script not installed")
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        [str(Path(littlestone.__file__).resolve().parents[1]), *filter(None, [os.environ.get("PYTHONPATH")])]
    ),
}
TRAIN = Path(__file__).resolve().parents[2] / "examples" / "train.csv"


def _learn(ledger: Path, out: Path, eps: str, *extra: str) -> list[str]:
    return [EXE, "learn", str(TRAIN), "-c", "thresholds:100", "-l", "generic", "-e", eps, "-o", str(out),
            "--ledger", str(ledger), *extra]  # fmt: skip


def test_six_concurrent_runs_never_overspend_and_the_ledger_records_exactly_the_charged_ones(tmp_path):
    from littlestone.cli.ledger import open_ledger

    ledger = tmp_path / "R.json"
    open_ledger(ledger, "1", TRAIN).charge("learn", "learn --learner generic (ε = 0.01)", 0.01, 0.0)
    procs = [
        subprocess.Popen(
            _learn(ledger, tmp_path / f"m{i + 1}.json", "0.3"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        for i in range(6)
    ]
    results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    ok = [r for r in results if r[0] == 0]
    refused = [r for r in results if r[0] != 0]
    assert 1 <= len(ok) <= 3, [r[2] for r in results]
    for code, _, err in refused:
        assert code == 2 and len(err.strip().splitlines()) == 1 and "needs (epsilon=0.3" in err, err
    book = json.loads(ledger.read_text())
    assert [c["epsilon"] for c in book["claims"]] == [0.01] + [0.3] * len(ok)
    assert book["spent"]["epsilon"] == pytest.approx(0.01 + 0.3 * len(ok)) and book["spent"]["epsilon"] <= 1.0


def _charge_slowly(ledger: str, barrier, results) -> None:
    """One call: open the ledger, then charge it with a write that takes 0.2 s (a wide race window)."""
    import time

    import littlestone.cli.ledger as L
    from littlestone.errors import BudgetExceededError

    write = L.atomic_write_json

    def slow_write(*a, **k):
        time.sleep(0.2)
        return write(*a, **k)

    L.atomic_write_json = slow_write
    book = L.open_ledger(Path(ledger), None, TRAIN)
    barrier.wait()
    try:
        book.charge("learn", "learn --learner generic (ε = 0.3)", 0.3, 0.0)
        results.put(0)
    except BudgetExceededError:
        results.put(2)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_the_lock_spans_read_check_write_even_with_a_slow_write(tmp_path):
    import multiprocessing as mp

    from littlestone.cli.ledger import open_ledger

    ledger = tmp_path / "R.json"
    open_ledger(ledger, "1", TRAIN).charge("learn", "first", 0.01, 0.0)
    ctx = mp.get_context("fork")
    barrier, results = ctx.Barrier(6), ctx.Queue()
    procs = [ctx.Process(target=_charge_slowly, args=(str(ledger), barrier, results)) for _ in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    codes = sorted(results.get(timeout=10) for _ in procs)
    assert codes == [0, 0, 0, 2, 2, 2]
    assert [c["epsilon"] for c in json.loads(ledger.read_text())["claims"]] == [0.01, 0.3, 0.3, 0.3]
