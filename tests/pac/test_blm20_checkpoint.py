"""Checkpointed, resumable BLM20 stage 1 (littlestone.pac.checkpoint): a resumed run equals an uninterrupted one
byte for byte (seeded backend); a different run — other data of the same length, another ε or δ, seed, sizes — is
refused; hostile, truncated, changed, unrecorded or old pickled chunks are refused in one line without running
anything or deleting anything (issue 26 hole 1); the checkpoint holds no examples; cleanup only after success; the
path rules of every output; on an external Dask scheduler and workers started as separate processes, with one worker
killed mid-run, the result is unchanged."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from littlestone import Thresholds, _progress
from littlestone.errors import LittlestoneError
from littlestone.pac import checkpoint as ckpt
from littlestone.pac.blm20 import blm20_learn
from littlestone.pac.sources import ArraySource, RealizableStream, UniformIntegers

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
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"chunk_{j:05d}.json" for j in range(5)] + ["manifest.json"]
    # interrupted after chunk 2: the later chunks are missing; the rerun computes exactly those
    for j in (3, 4):
        (tmp_path / f"chunk_{j:05d}.json").unlink()
    ran = []
    real = ckpt.map_ordered
    monkeypatch.setattr(ckpt, "map_ordered", lambda fn, items, **kw: ran.append(items[0][-1]) or real(fn, items, **kw))
    notes: list[str] = []
    with _progress.noting(notes.append):
        resumed = blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=64, **KW)
    assert ran == [192, 256]  # first batch index of each recomputed chunk
    assert pickle.dumps(resumed) == pickle.dumps(plain)
    assert notes[0] == f"resumed: 3 of 5 chunks read from {tmp_path}"
    assert "as sensitive as the data" in notes[-1]


def test_a_different_run_is_refused(tmp_path):
    blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)
    before = _listing(tmp_path)
    for change in ({"seed": 6}, {"n_batches": 301}, {"aux_size": 5}, {"epsilon": 2.0}, {"delta": 1e-5}):
        with pytest.raises(ckpt.CheckpointError, match="different run") as err:
            blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **{**KW, **change})
        assert "\n" not in str(err.value)
    with pytest.raises(ckpt.CheckpointError, match=r"different run \(ε, δ, α or β differ\)"):
        blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **{**KW, "epsilon": 1.5})
    with pytest.raises(ckpt.CheckpointError, match="different run"):
        blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=50, **KW)
    other = RealizableStream(H.hypothesis(3), UniformIntegers(0, 6), 10**6, seed=2)  # same length, other examples
    with pytest.raises(ckpt.CheckpointError, match=r"the data differ\): resume with the same data"):
        blm20_learn(H, other, checkpoint=tmp_path, checkpoint_every=100, **KW)
    with pytest.raises(LittlestoneError, match="checkpoint_every"):
        blm20_learn(H, SRC, checkpoint=tmp_path / "new", checkpoint_every=0, **KW)
    assert _listing(tmp_path) == before  # a refusal writes and deletes nothing


def test_other_labels_of_the_same_length_are_refused(tmp_path):
    # issue 26 hole 2: dataset B (same points, one label changed) must not reuse dataset A's G outputs
    X, y = SRC.batch(0, 14_000)
    a = blm20_learn(H, ArraySource(X, y), checkpoint=tmp_path, checkpoint_every=100, **KW)
    y_b = y.copy()
    y_b[7] ^= 1  # inside G's first batch
    before = _listing(tmp_path)
    with pytest.raises(ckpt.CheckpointError, match=r"the data differ"):
        blm20_learn(H, ArraySource(X, y_b), checkpoint=tmp_path, checkpoint_every=100, **KW)
    assert _listing(tmp_path) == before
    # the same data as numbers of another dtype is the same data only if read the same: resuming A works
    again = blm20_learn(H, ArraySource(X, y), checkpoint=tmp_path, checkpoint_every=100, **KW)
    assert pickle.dumps(again) == pickle.dumps(a)
    # and a fresh directory for B gives B's own G outputs
    b = blm20_learn(H, ArraySource(X, y_b), checkpoint=tmp_path / "b", checkpoint_every=100, **KW)
    assert pickle.dumps(b) == pickle.dumps(blm20_learn(H, ArraySource(X, y_b), **KW))


def _listing(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.is_file()}


def _rerecord(path: Path, j: int) -> None:
    """What a forger with write access does: record chunk j's current bytes in the manifest."""
    man = json.loads((path / "manifest.json").read_text())
    blob = (path / f"chunk_{j:05d}.json").read_bytes()
    man["chunks"][str(j)] = {"sha256": hashlib.sha256(blob).hexdigest(), "bytes": len(blob)}
    (path / "manifest.json").write_text(json.dumps(man))


class _Payload:
    """A pickle that creates a file when unpickled (stands for any code a crafted chunk could run)."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _damaged(path: Path, j: int) -> str:
    return rf"^checkpoint {re.escape(str(path))}: chunk {j} is damaged \(.+\); delete it to recompute$"


def test_hostile_chunks_are_refused_and_nothing_runs(tmp_path):
    ck, marker = tmp_path / "ck", tmp_path / "pwned"
    blm20_learn(H, SRC, checkpoint=ck, checkpoint_every=100, **KW)
    evil = pickle.dumps([_Payload(marker)])
    good = (ck / "chunk_00001.json").read_bytes()

    def refused(j: int, why: str) -> None:
        before = _listing(ck)
        with pytest.raises(ckpt.DamagedCheckpointError, match=_damaged(ck, j)) as err:
            blm20_learn(H, SRC, checkpoint=ck, checkpoint_every=100, **KW)
        assert why in str(err.value)
        assert not marker.exists()  # nothing executed
        assert _listing(ck) == before  # nothing deleted or rewritten

    # an old-format pickled chunk placed in the folder: never unpickled
    (ck / "chunk_00001.pkl").write_bytes(evil)
    refused(1, "a pickle")
    (ck / "chunk_00001.pkl").unlink()
    # the pickle under the JSON name, first as it is, then with the manifest forged to record it
    (ck / "chunk_00001.json").write_bytes(evil)
    refused(1, "truncated or replaced")
    _rerecord(ck, 1)
    refused(1, "not a JSON chunk")
    # a NumPy .npz holding an object array (allow_pickle would run it), recorded in the manifest
    buf = io.BytesIO()
    np.savez(buf, output=np.array([_Payload(marker)], dtype=object))
    (ck / "chunk_00001.json").write_bytes(buf.getvalue())
    _rerecord(ck, 1)
    refused(1, "not a JSON chunk")
    # valid JSON of unexpected types, recorded in the manifest
    obj = json.loads(good)
    rest = obj["hypotheses"][1:]  # the first hypothesis replaced, the indices kept in range
    for key, value, why in [
        ("output", [str(v) for v in obj["output"]], "indices"),
        ("output", [True] * len(obj["output"]), "indices"),
        ("output", [0.0] * len(obj["output"]), "indices"),
        ("output", obj["output"][:-1], "indices"),
        ("output", [len(obj["hypotheses"])] * len(obj["output"]), "indices"),
        ("depth", [99] * len(obj["depth"]), "depths"),
        ("hypotheses", [{"kind": "threshold", "t": "__import__('os').system('touch pwned')"}, *rest], "not decode"),
        ("hypotheses", [{"kind": "vector", "values": "0101"}, *rest], "does not decode"),
        ("hypotheses", [{"kind": "threshold", "t": 3.0}, *rest], "canonical encoding"),
        ("hypotheses", [{"kind": "pickle", "data": "gASV"}, *rest], "does not decode"),
        ("hypotheses", "x", "not model-file hypotheses"),
        ("chunk", 2, "not chunk 1"),
        ("format", "littlestone-checkpoint-chunk/1", "not a"),
    ]:
        (ck / "chunk_00001.json").write_text(json.dumps({**obj, key: value}))
        _rerecord(ck, 1)
        refused(1, why)
    (ck / "chunk_00001.json").write_text("[" * 100_000 + "]" * 100_000)  # deep nesting
    _rerecord(ck, 1)
    refused(1, "not a JSON chunk")
    # a chunk of another checkpoint (same run shape, other data) under this name
    other = RealizableStream(H.hypothesis(2), UniformIntegers(0, 6), 10**6, seed=1)
    blm20_learn(H, other, checkpoint=tmp_path / "other", checkpoint_every=100, **KW)
    (ck / "chunk_00001.json").write_bytes((tmp_path / "other" / "chunk_00001.json").read_bytes())
    refused(1, "truncated or replaced" if len(good) != len((ck / "chunk_00001.json").read_bytes()) else "SHA-256")
    # restored: the run resumes
    (ck / "chunk_00001.json").write_bytes(good)
    _rerecord(ck, 1)
    assert pickle.dumps(blm20_learn(H, SRC, checkpoint=ck, checkpoint_every=100, **KW)) == pickle.dumps(
        blm20_learn(H, SRC, **KW)
    )


def test_truncated_changed_and_unrecorded_chunks(tmp_path):
    blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)
    good = (tmp_path / "chunk_00002.json").read_bytes()
    (tmp_path / "chunk_00002.json").write_bytes(good[: len(good) // 2])  # truncated
    with pytest.raises(ckpt.DamagedCheckpointError, match=_damaged(tmp_path, 2)):
        blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)
    # the same size, valid JSON, another G output: only the manifest's hash tells
    obj = json.loads(good)
    i = next(i for i, o in enumerate(obj["output"]) if o >= 0)
    obj["output"][i] = -1 if obj["output"][i] != -1 else 0
    text = json.dumps(obj, separators=(",", ":")) + "\n"
    text = text.replace(',"output":[-1,', ',"output":[-1,', 1)
    changed = text.encode().ljust(len(good)) if len(text.encode()) < len(good) else text.encode()[: len(good)]
    (tmp_path / "chunk_00002.json").write_bytes(changed)
    assert len(changed) == len(good) and changed != good
    with pytest.raises(ckpt.DamagedCheckpointError, match="SHA-256 hash differs"):
        blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)
    (tmp_path / "chunk_00002.json").write_bytes(good)
    # a chunk file the manifest does not record (from another run or a crash)
    man = json.loads((tmp_path / "manifest.json").read_text())
    del man["chunks"]["2"]
    (tmp_path / "manifest.json").write_text(json.dumps(man))
    with pytest.raises(ckpt.DamagedCheckpointError, match="not recorded in manifest.json"):
        blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)


def test_a_changed_chunk_is_caught_by_its_hash(tmp_path):
    # a chunk rewritten with other valid content of the same size is accepted only if the hash check is gone
    blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)
    f = tmp_path / "chunk_00000.json"
    obj = json.loads(f.read_bytes())
    obj["depth"] = [1 - k if k < 2 else k for k in obj["depth"]]  # same length in digits
    blob = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
    assert len(blob) == f.stat().st_size
    f.write_bytes(blob)
    with pytest.raises(ckpt.DamagedCheckpointError, match="SHA-256 hash differs"):
        blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)


def test_old_pickled_checkpoints_are_refused(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps({"format": 1, "class": H.name}))
    with pytest.raises(ckpt.CheckpointError, match="old pickled format"):
        blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)
    (tmp_path / "chunk_00000.pkl").write_bytes(pickle.dumps([1]))
    with pytest.raises(ckpt.DamagedCheckpointError, match=_damaged(tmp_path, 0)):
        blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=100, **KW)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chunk_00000.pkl", "manifest.json"]


def test_checkpoint_holds_no_examples(tmp_path):
    blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=150, **KW)
    man = json.loads((tmp_path / "manifest.json").read_text())
    assert set(man) == {"format", "what", "binding", "chunks"}
    assert set(man["binding"]) == {"class", "run", "sizes", "examples", "g_seed_sha256", "every", "data"}
    g_seed = int(np.random.default_rng(5).integers(0, 2**63 - 1))  # as blm20_learn derives it from seed=5
    assert str(g_seed) not in (tmp_path / "manifest.json").read_text()  # only its hash
    assert man["binding"]["examples"] == len(SRC) and man["binding"]["sizes"]["n_batches"] == 300
    assert man["binding"]["data"]["kind"] == "stream"  # a lazy stream: its identity, nothing read
    for f in sorted(tmp_path.glob("chunk_*.json")):
        obj = json.loads(f.read_bytes())
        assert set(obj) == {"format", "chunk", "first_batch", "hypotheses", "output", "depth", "read"}
        # G's outputs only: thresholds, or (Definition 8) thresholds patched at a few points — the only points kept
        assert {h["kind"] for h in obj["hypotheses"]} <= {"threshold", "patched"}
        assert hashlib.sha256(f.read_bytes()).hexdigest() == man["chunks"][str(int(f.stem[6:]))]["sha256"]


def test_other_classes_round_trip(tmp_path):
    from littlestone.classes.finite import FiniteClass

    F = FiniteClass(np.tril(np.ones((7, 6), dtype=np.uint8), -1), name="thresholds(6) as a matrix")
    src = RealizableStream(F.hypothesis(3), UniformIntegers(0, 6), 10**5, seed=3)
    kw = {**KW, "n_batches": 120}
    plain = blm20_learn(F, src, **kw)
    first = blm20_learn(F, src, checkpoint=tmp_path, checkpoint_every=50, **kw)
    (tmp_path / "chunk_00001.json").unlink()
    again = blm20_learn(F, src, checkpoint=tmp_path, checkpoint_every=50, **kw)
    assert pickle.dumps(first) == pickle.dumps(again) == pickle.dumps(plain)


def test_cleanup_only_after_success(tmp_path, monkeypatch):
    ck = tmp_path / "ck"
    notes: list[str] = []
    with _progress.noting(notes.append):
        res = blm20_learn(H, SRC, checkpoint=ck, checkpoint_every=100, checkpoint_cleanup=True, **KW)
    assert not ck.exists() and notes[-1] == f"checkpoint {ck} deleted"
    assert pickle.dumps(res) == pickle.dumps(blm20_learn(H, SRC, **KW))
    # interrupted in the third chunk: the directory and the two saved chunks stay
    real, calls = ckpt.map_ordered, []

    def interrupted(fn, items, **kw):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(fn, items, **kw)

    monkeypatch.setattr(ckpt, "map_ordered", interrupted)
    with pytest.raises(KeyboardInterrupt):
        blm20_learn(H, SRC, checkpoint=ck, checkpoint_every=100, checkpoint_cleanup=True, **KW)
    assert sorted(p.name for p in ck.iterdir()) == ["chunk_00000.json", "chunk_00001.json", "manifest.json"]
    monkeypatch.setattr(ckpt, "map_ordered", real)
    (ck / "notes.txt").write_text("mine")  # not the checkpoint's: kept, and so is the directory
    blm20_learn(H, SRC, checkpoint=ck, checkpoint_every=100, checkpoint_cleanup=True, **KW)
    assert [p.name for p in ck.iterdir()] == ["notes.txt"]
    with pytest.raises(LittlestoneError, match="checkpoint_cleanup=True needs checkpoint"):
        blm20_learn(H, SRC, checkpoint_cleanup=True, **KW)


def test_bad_checkpoint_paths(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "file").write_text("x")
    cases = {
        "": "empty path",
        "-": "standard output",
        str(tmp_path / "a" / "b" / "c"): "does not exist (create it first)",
        str(fifo): "it is a FIFO",
        "/dev/null": "it is a character device",
        str(tmp_path / "file"): "it is a file, not a directory",
        "/proc/ck": "kernel's proc file system",
    }
    for path, why in cases.items():
        with pytest.raises(ckpt.CheckpointError, match=re.escape(why)):
            blm20_learn(H, SRC, checkpoint=path, **KW)
    assert not (tmp_path / "a").exists()  # no parent created


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
    ck = tmp_path / "ck"
    for i in range(2):
        out = tmp_path / f"m{i}.json"
        res = runner.invoke(app, [*args, "-o", str(out), "--checkpoint", str(ck), "--checkpoint-every", "50"])
        assert res.exit_code == 0, res.output
        assert f"checkpoint {ck} holds G's non-private outputs" in res.output
        outs.append(out.read_bytes())
        if i == 0:
            assert "resumed:" not in res.output
            (ck / "chunk_00002.json").unlink()  # recomputed on the rerun
        else:
            assert f"resumed: 3 of 4 chunks read from {ck}" in res.output
    assert outs[0] == outs[1]
    model = json.loads(outs[0])
    for key in ("checkpoint", "checkpoint_cleanup"):
        assert key not in model["params"] and key not in model["unsaved_params"]
    res = runner.invoke(app, [*args, "-o", str(tmp_path / "m2.json"), "--checkpoint", str(ck), "--checkpoint-cleanup"])
    assert res.exit_code == 2 and "different run (checkpoint_every differs)" in res.output  # default K = 2000
    res = runner.invoke(
        app, [*args, "-o", str(tmp_path / "m2.json"), "--checkpoint", str(ck), "--checkpoint-every", "50",
              "--checkpoint-cleanup"]
    )  # fmt: skip
    assert res.exit_code == 0 and f"checkpoint {ck} deleted" in res.output and not ck.exists()
    assert (tmp_path / "m2.json").read_bytes() == outs[0]
    res = runner.invoke(app, ["learn", str(data), "-c", "thresholds:6", "-l", "blm20", "-o", "-", "--checkpoint", "x"])
    assert res.exit_code == 2 and "--seed" in res.output
    res = runner.invoke(app, ["learn", str(data), "-c", "thresholds:6", "-o", "-", "--checkpoint", "x"])
    assert res.exit_code == 2 and "blm20 only" in res.output
    res = runner.invoke(app, [*args, "-o", "-", "--checkpoint-cleanup"])
    assert res.exit_code == 2 and "--checkpoint-cleanup needs --checkpoint DIR" in res.output


def test_cli_bad_checkpoint_paths_one_line_exit_2(tmp_path):
    from typer.testing import CliRunner

    from littlestone.cli import app

    data = tmp_path / "d.csv"
    data.write_text("x,label\n1,0\n4,1\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "file").write_text("x")
    runner = CliRunner()
    cases = {
        "": "empty path",
        str(tmp_path / "a" / "b"): "directory " + str(tmp_path / "a") + " does not exist",
        "/proc/ck": "/proc is on the kernel's proc file system",
        str(fifo): "it is a FIFO (named pipe), not a directory",
        "/dev/null": "it is a character device, not a directory",
        str(tmp_path / "file"): "it is a file, not a directory",
    }
    for path, why in cases.items():
        res = runner.invoke(
            app,
            ["learn", str(data), "-c", "thresholds:6", "-l", "blm20", "--seed", "1", "-o", str(tmp_path / "m.json")]
            + ["--checkpoint", path],
        )
        assert res.exit_code == 2, (path, res.output)
        lines = [line for line in res.output.splitlines() if line.strip()]
        assert len(lines) == 1 and why in lines[0], (path, res.output)
    assert not (tmp_path / "a").exists() and not (tmp_path / "m.json").exists()


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
            while not (tmp_path / "ck" / "chunk_00000.json").exists():
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
    (tmp_path / "chunk_00002.json").unlink()
    b = blm20_learn(H, SRC, checkpoint=tmp_path, checkpoint_every=64, **kw)
    assert a.diagnostics == b.diagnostics == blm20_learn(H, SRC, **kw).diagnostics


class _Own:
    """A lazy source of the user's: positions → examples of SRC (optionally with one label flipped)."""

    def __init__(self, flip: int | None = None, identity: object = None):
        self.flip, self.identity = flip, identity

    def __len__(self) -> int:
        return 20_000

    def batch(self, start, stop):
        X, y = SRC.batch(start, stop)
        if self.flip is not None and start <= self.flip < stop:
            y = y.copy()
            y[self.flip - start] ^= 1
        return X, y


class _Declared(_Own):
    def checkpoint_identity(self):
        return self.identity


def test_sources_of_ones_own(tmp_path):
    # without checkpoint_identity(): the examples of the G batches are read once and hashed
    blm20_learn(H, _Own(), checkpoint=tmp_path / "a", checkpoint_every=100, **KW)
    assert json.loads((tmp_path / "a" / "manifest.json").read_text())["binding"]["data"]["kind"] == "examples"
    with pytest.raises(ckpt.CheckpointError, match="the data differ"):
        blm20_learn(H, _Own(flip=13_000), checkpoint=tmp_path / "a", checkpoint_every=100, **KW)
    # a flip outside the G batches (in the fresh examples) does not change what a chunk means
    blm20_learn(H, _Own(flip=13_500), checkpoint=tmp_path / "a", checkpoint_every=100, **KW)
    # with checkpoint_identity(): that names the data (and nothing is read to bind them)
    blm20_learn(H, _Declared(identity={"file": "s3://bucket/a", "sha256": "ab"}), checkpoint=tmp_path / "b",
                checkpoint_every=100, **KW)  # fmt: skip
    with pytest.raises(ckpt.CheckpointError, match="the data differ"):
        blm20_learn(H, _Declared(identity={"file": "s3://bucket/b", "sha256": "cd"}), checkpoint=tmp_path / "b",
                    checkpoint_every=100, **KW)  # fmt: skip
    with pytest.raises(ckpt.CheckpointError, match="JSON value"):
        blm20_learn(H, _Declared(identity=object()), checkpoint=tmp_path / "c", checkpoint_every=100, **KW)


def test_classifier_checkpoint_cleanup(tmp_path):
    from littlestone.pac import BLM20Classifier

    X, y = SRC.batch(0, 14_000)
    params = dict(hypothesis_class="thresholds:6", backend="seeded", random_state=5, n_batches=300, aux_size=4)
    params |= dict(cap=40, n_generic=500)
    est = BLM20Classifier(checkpoint=str(tmp_path / "ck"), checkpoint_every=100, checkpoint_cleanup=True, **params)
    est.fit(np.asarray(X).reshape(-1, 1), y)
    assert not (tmp_path / "ck").exists()
    plain = BLM20Classifier(**params).fit(np.asarray(X).reshape(-1, 1), y)
    assert est.hypothesis_ == plain.hypothesis_
    assert "checkpoint_cleanup" not in est.to_dict()["params"]


def test_cli_damaged_chunk_one_line_exit_2_nothing_run(tmp_path):
    from typer.testing import CliRunner

    from littlestone.cli import app

    data, ck, marker = tmp_path / "d.csv", tmp_path / "ck", tmp_path / "pwned"
    X, y = SRC.batch(0, 14_000)
    data.write_text("x,label\n" + "\n".join(f"{a},{b}" for a, b in zip(X, y)))
    args = ["learn", str(data), "-c", "thresholds:6", "-l", "blm20", "--backend", "seeded", "--seed", "3"]
    args += ["-p", "n_batches=300", "-p", "aux_size=4", "-p", "cap=40", "-p", "n_generic=500", "--checkpoint", str(ck)]
    args += ["--checkpoint-every", "100"]
    runner = CliRunner()
    assert runner.invoke(app, [*args, "-o", str(tmp_path / "m.json")]).exit_code == 0
    (ck / "chunk_00001.json").write_bytes(pickle.dumps([_Payload(marker)]))
    _rerecord(ck, 1)  # even with a forged manifest
    before = _listing(ck)
    res = runner.invoke(app, [*args, "-o", str(tmp_path / "m2.json")])
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert res.exit_code == 2 and len(lines) == 1, res.output
    assert f"checkpoint {ck}: chunk 1 is damaged (not a JSON chunk" in lines[0] and "delete it to recompute" in lines[0]
    assert not marker.exists() and not (tmp_path / "m2.json").exists() and _listing(ck) == before
    (ck / "manifest.json").unlink()
    (ck / "manifest.json").symlink_to(tmp_path / "m.json")
    res = runner.invoke(app, [*args, "-o", str(tmp_path / "m2.json")])
    assert res.exit_code == 2 and "manifest.json is a symbolic link" in res.output
