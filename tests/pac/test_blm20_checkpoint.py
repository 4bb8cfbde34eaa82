"""Checkpointed, resumable BLM20 stage 1 (littlestone.pac.checkpoint): a resumed run equals an uninterrupted one
byte for byte (seeded backend), a different run is refused, the checkpoint holds no examples; on an external Dask
scheduler and workers started as separate processes, with one worker killed mid-run, the result is unchanged."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.errors import LittlestoneError
from littlestone.pac import checkpoint as ckpt
from littlestone.pac.blm20 import blm20_learn
from littlestone.pac.sources import RealizableStream, UniformIntegers

H = Thresholds(6)
SRC = RealizableStream(H.hypothesis(3), UniformIntegers(0, 6), 10**6, seed=1)
KW = dict(
    epsilon=1.0,
    delta=1e-6,
    backend="seeded",
    seed=5,
    diagnostics=True,
    n_batches=300,
    aux_size=4,
    cap=40,
    n_generic=500,
)


def test_resumed_run_is_byte_identical(tmp_path, monkeypatch):
    plain = blm20_learn(H, SRC, **KW)
    full = blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=64, **KW)
    assert pickle.dumps(full) == pickle.dumps(plain)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"chunk_{j:05d}.pkl" for j in range(5)] + ["manifest.json"]
    # interrupted after chunk 2: the later chunks are missing; the rerun computes exactly those
    for j in (3, 4):
        (tmp_path / f"chunk_{j:05d}.pkl").unlink()
    ran = []
    real = ckpt.map_ordered
    monkeypatch.setattr(ckpt, "map_ordered", lambda fn, items, **kw: ran.append(items[0][-1]) or real(fn, items, **kw))
    resumed = blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=64, **KW)
    assert ran == [192, 256]  # first batch index of each recomputed chunk
    assert pickle.dumps(resumed) == pickle.dumps(plain)


def test_a_different_run_is_refused_and_damage_is_reported(tmp_path):
    blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)
    for change in ({"seed": 6}, {"n_batches": 301}, {"aux_size": 5}):
        with pytest.raises(LittlestoneError, match="different run"):
            blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **{**KW, **change})
    with pytest.raises(LittlestoneError, match="different run"):
        blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=50, **KW)
    (tmp_path / "chunk_00001.pkl").write_bytes(pickle.dumps([1, 2]))
    with pytest.raises(LittlestoneError, match="damaged"):
        blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)
    with pytest.raises(LittlestoneError, match="checkpoint_every"):
        blm20_learn(H, SRC, checkpoint=tmp_path / "new", checkpoint_every=0, **KW)


def test_checkpoint_holds_no_examples(tmp_path):
    blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=150, **KW)
    man = json.loads((tmp_path / "manifest.json").read_text())
    assert set(man) == {"format", "what", "class", "sizes", "examples", "g_seed_sha256", "every"}
    g_seed = int(np.random.default_rng(5).integers(0, 2**63 - 1))  # as blm20_learn derives it from seed=5
    assert str(g_seed) not in (tmp_path / "manifest.json").read_text()  # only its hash
    assert man["examples"] == len(SRC) and man["sizes"]["n_batches"] == 300
    for f in sorted(tmp_path.glob("chunk_*.pkl")):
        part = pickle.loads(f.read_bytes())
        assert all(type(r).__name__ == "GRun" and set(vars(r)) == {"output", "k", "examples_read"} for r in part)


def test_cli_checkpoint_and_model_without_path(tmp_path):
    from typer.testing import CliRunner

    from littlestone.cli import app

    data = tmp_path / "d.csv"
    X, y = SRC.batch(0, 20_000)
    data.write_text("x,label\n" + "\n".join(f"{a},{b}" for a, b in zip(X, y)))
    args = ["learn", str(data), "-c", "thresholds:6", "-l", "blm20", "--backend", "seeded", "--seed", "3"]
    args += ["-p", "n_batches=200", "-p", "aux_size=4", "-p", "cap=40", "-p", "n_generic=500"]
    runner = CliRunner()
    outs = []
    for i in range(2):
        out = tmp_path / f"m{i}.json"
        res = runner.invoke(app, [*args, "-o", str(out), "--checkpoint", str(tmp_path / "ck")])
        assert res.exit_code == 0, res.output
        outs.append(out.read_bytes())
        if i == 0:
            (tmp_path / "ck" / "chunk_00000.pkl").unlink()  # (one chunk of 200 batches) recomputed on the rerun
    assert outs[0] == outs[1]
    model = json.loads(outs[0])
    assert "checkpoint" not in model["params"] and "checkpoint" not in model["unsaved_params"]
    res = runner.invoke(app, ["learn", str(data), "-c", "thresholds:6", "-l", "blm20", "-o", "-", "--checkpoint", "x"])
    assert res.exit_code == 2 and "--seed" in res.output
    res = runner.invoke(app, ["learn", str(data), "-c", "thresholds:6", "-o", "-", "--checkpoint", "x"])
    assert res.exit_code == 2 and "blm20 only" in res.output


def _dask_cli() -> str:
    exe = Path(sys.executable).with_name("dask")
    if not exe.exists() or shutil.which(str(exe)) is None:
        pytest.skip("the dask command-line tool is not installed (pip install 'littlestone[dask]')")
    return str(exe)


@pytest.mark.slow
def test_external_scheduler_and_workers_with_one_worker_killed(tmp_path):
    """`dask scheduler --port 0` and two `dask worker` processes on 127.0.0.1 (littlestone importable there, nothing
    else shared); one worker is killed after the first chunk is saved; the result equals the local one."""
    from littlestone.parallel import close_clusters, resolve_cluster, using_cluster

    dask = _dask_cli()
    env = {**os.environ, "PYTHONPATH": str(Path(ckpt.__file__).parents[2])}  # this checkout's littlestone
    sched_file = tmp_path / "scheduler.json"
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"]
            + ["--scheduler-file", str(sched_file)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        for _ in range(300):
            if sched_file.exists() and sched_file.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [dask, "worker", address, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1"]
                    + ["--no-dashboard"],
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        client = resolve_cluster(address)
        client.wait_for_workers(2, timeout=120)
        kw = {**KW, "n_batches": 2000}
        want = pickle.dumps(blm20_learn(H, SRC, **kw))
        killed = []

        def kill_after_first_chunk() -> None:
            while not (tmp_path / "ck" / "chunk_00000.pkl").exists():
                time.sleep(0.01)
            procs[1].send_signal(signal.SIGKILL)
            killed.append(procs[1].pid)

        watcher = threading.Thread(target=kill_after_first_chunk, daemon=True)
        watcher.start()
        with using_cluster(address):
            got = blm20_learn(H, SRC, checkpoint=tmp_path / "ck", checkpoint_every=200, **kw)
        assert killed, "the worker was not killed before the end of the run"
        assert pickle.dumps(got) == want
    finally:
        close_clusters()
        for p in reversed(procs):
            p.kill()
            p.wait(timeout=30)


def test_secure_backend_resumes_the_same_g_runs(tmp_path):
    # on the secure backend the privacy noise is fresh on every run, but G's coins come from the seed (public
    # randomness): the resumed run's G outputs are those of the uninterrupted one
    kw = {**KW, "backend": "secure"}
    a = blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=64, **kw)
    (tmp_path / "chunk_00002.pkl").unlink()
    b = blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=64, **kw)
    assert a.diagnostics == b.diagnostics == blm20_learn(H, SRC, **kw).diagnostics
