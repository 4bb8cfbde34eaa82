"""Outputs never destroy what a path points to (issue 9 item 7): devices and FIFOs are written through, symlinks
followed, ``-`` is standard output, a missing parent directory is an error, Ctrl-C leaves nothing behind."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import threading
import time
from pathlib import Path

import pytest

from littlestone.io import OutputError, atomic_write_text, output_target, staged_directory

from test_cli_subprocess import CTRL_C_START, ENV, EXE, communicate_or_kill

needs_exe = pytest.mark.skipif(EXE is None, reason="console script not installed")

TRAIN = "x,label\n1,0\n5,1\n7,1\n2,0\n"


def _run(*args, cwd=None, timeout=120):
    return subprocess.run([EXE, *map(str, args)], capture_output=True, cwd=cwd, timeout=timeout, env=ENV)


def _learn(tmp_path: Path, out: str):
    (tmp_path / "ok.csv").write_text(TRAIN)
    return _run("learn", "ok.csv", "-c", "thresholds:10", "-o", out, "--backend", "seeded", "--seed", "1", cwd=tmp_path)


# ------------------------------------------------------------------------------------------------ the library


def test_output_target_kinds(tmp_path):
    assert output_target("-").kind == "stdout"
    assert output_target("/dev/null").kind == "stream"  # a character device: stat only, nothing written here
    fifo = tmp_path / "f.fifo"
    os.mkfifo(fifo)
    assert output_target(fifo).kind == "stream"
    real = tmp_path / "real.txt"
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    assert output_target(link).path == real.resolve() and output_target(link).kind == "file"
    with pytest.raises(OutputError, match="does not exist"):
        output_target(tmp_path / "no" / "such" / "file.txt")
    with pytest.raises(OutputError, match="is a directory"):
        output_target(tmp_path)


def test_block_devices_are_refused_without_opening_them():
    blocks = [p for p in Path("/dev").iterdir() if p.exists() and stat.S_ISBLK(os.stat(p).st_mode)]
    if not blocks:
        pytest.skip("no block device visible")
    with pytest.raises(OutputError, match="block device"):
        output_target(blocks[0])  # classification only (os.stat): never opened


def test_atomic_write_through_a_symlink_keeps_the_link(tmp_path):
    real, link = tmp_path / "real.txt", tmp_path / "link.txt"
    real.write_text("old")
    link.symlink_to(real.name)
    atomic_write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to("target.txt")
    atomic_write_text(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "target.txt").read_text() == "made"


def test_staged_directory_leaves_nothing_on_interrupt(tmp_path):
    out = tmp_path / "results"
    with pytest.raises(KeyboardInterrupt):
        with staged_directory(out) as staging:
            (staging / "table.csv").write_text("a\n1\n")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    with staged_directory(out) as staging:
        (staging / "table.csv").write_text("a\n1\n")
    assert [p.name for p in tmp_path.iterdir()] == ["results"] and (out / "table.csv").read_text() == "a\n1\n"


# ------------------------------------------------------------------------------------------------ the CLI


@needs_exe
def test_learn_to_dev_null_keeps_the_device(tmp_path):
    before = os.stat("/dev/null")
    r = _learn(tmp_path, "/dev/null")
    assert r.returncode == 0, r.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


@needs_exe
def test_learn_to_a_fifo_writes_through(tmp_path):
    fifo = tmp_path / "model.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    r = _learn(tmp_path, str(fifo))
    reader.join(timeout=30)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO, not replaced by a file
    assert json.loads(received[0])["format"] == "littlestone-model/1"


@needs_exe
def test_learn_through_a_symlink_updates_its_target(tmp_path):
    (tmp_path / "models").mkdir()
    real = tmp_path / "models" / "m.json"
    real.write_text("old")
    link = tmp_path / "current.json"
    link.symlink_to(real)
    r = _learn(tmp_path, "current.json")
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and json.loads(real.read_text())["format"] == "littlestone-model/1"


@needs_exe
def test_dash_is_standard_output(tmp_path):
    r = _learn(tmp_path, "-")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["format"] == "littlestone-model/1"  # only the model on stdout
    assert b"privacy budget spent" in r.stderr
    assert not (tmp_path / "-").exists()
    r = _run("ldim", "-c", "thresholds:7", "--tree", "-", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout[:8] == b"\x89PNG\r\n\x1a\n" and b"Ldim" in r.stderr
    assert _learn(tmp_path, "m.json").returncode == 0
    (tmp_path / "test.csv").write_text("x\n3\n8\n")
    r = _run("predict", "m.json", "test.csv", "-o", "-", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.decode().splitlines()[0] == "x,prediction"


@needs_exe
@pytest.mark.parametrize(
    "args",
    [
        ("learn", "ok.csv", "-c", "thresholds:10", "-o", "nodir/m.json"),
        ("ldim", "-c", "thresholds:7", "--tree", "nodir/t.png"),
        ("experiment", "blm20_accuracy", "-o", "nodir/sub"),
        ("demo", "--fast", "-o", "nodir/sub"),
        ("demo", "--fast", "-o", "-"),
    ],
)
def test_missing_parent_directory_is_an_error(args, tmp_path):
    (tmp_path / "ok.csv").write_text(TRAIN)
    r = _run(*args, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ok.csv"]


def _interrupt_when(cmd: list[str], cwd: Path, ready, settle: float = 1.0):
    """Start ``cmd`` in its own process group, wait for ``ready()``, then Ctrl-C the whole group (as a terminal
    does: the workers get SIGINT too)."""
    proc = subprocess.Popen(
        [EXE, *cmd], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, start_new_session=True
    )
    deadline = time.monotonic() + CTRL_C_START
    while not ready() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(settle)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)
    out, err = communicate_or_kill(proc)
    return proc.returncode, out, err


@needs_exe
@pytest.mark.parametrize(
    "cmd,glob",
    [
        (["demo", "--jobs", "2", "-o", "rep", "--backend", "seeded"], ".rep.partial-*/tree.png"),
        (["experiment", "blm20_generalization", "--jobs", "2", "-o", "exp"], ".exp.partial-*"),
    ],
)
def test_ctrl_c_with_workers_leaves_nothing_behind(cmd, glob, tmp_path):
    code, _, err = _interrupt_when(cmd, tmp_path, lambda: bool(list(tmp_path.glob(glob))))
    if code == 0:
        pytest.skip("finished before the interrupt")
    assert code == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "error: interrupted"
    assert list(tmp_path.iterdir()) == []
