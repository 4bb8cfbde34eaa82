"""Progress when stderr is not a terminal: a plain line every few seconds (issue 9 item 10)."""

from __future__ import annotations

import io
import subprocess
import time

import pytest

from littlestone import _progress
from littlestone.cli import _common
from test_cli_subprocess import ENV, EXE


def test_plain_progress_prints_periodic_lines_with_the_reported_stages(monkeypatch):
    buf = io.StringIO()
    monkeypatch.setattr(_common.err_console, "_file", buf)
    monkeypatch.setenv("LITTLESTONE_PROGRESS_INTERVAL", "0.05")
    assert not _common.err_console.is_terminal
    with _common.tracking("fitting"):
        _progress.report("G runs", 3, 10)
        time.sleep(0.3)
    lines = buf.getvalue().splitlines()
    assert lines and all(line.startswith("[") and "fitting" in line for line in lines)
    assert any("G runs 3/10" in line for line in lines)
    assert "\x1b" not in buf.getvalue()  # plain text: no terminal control codes


def test_short_work_prints_nothing(monkeypatch):
    buf = io.StringIO()
    monkeypatch.setattr(_common.err_console, "_file", buf)
    monkeypatch.delenv("LITTLESTONE_PROGRESS_INTERVAL", raising=False)
    with _common.working("a short step"):
        pass
    assert buf.getvalue() == ""


@pytest.mark.skipif(EXE is None, reason="console script not installed")
def test_piped_experiment_reports_progress_on_stderr(tmp_path):
    # a short interval: the run takes well under a second since the kernels are compiled ahead of time
    env = {**ENV, "LITTLESTONE_PROGRESS_INTERVAL": "0.05"}
    r = subprocess.run(
        [EXE, "experiment", "blm20_sample_cost", "--set", "runs=5", "--set", "points=7", "-o", "out"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    progress = [line for line in r.stderr.splitlines() if line.startswith("[")]
    assert progress and all("running experiment blm20_sample_cost" in line for line in progress)
    assert "[" not in r.stdout.splitlines()[0]  # the results on stdout are untouched
