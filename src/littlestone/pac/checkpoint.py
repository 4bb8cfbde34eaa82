"""Checkpointed, resumable stage 1 of BLM20's learner M (G on k batches — all the work at Theorem 1's size).

``blm20_learn(..., checkpoint=DIR)`` (CLI: ``littlestone learn ... --checkpoint DIR``) runs the k G batches in
chunks of ``checkpoint_every`` batches and saves each finished chunk atomically under DIR; rerunning the same call
(same seed, parameters and data) skips the saved chunks. Batch i always gets the i-th child of G's seed, whichever
chunk, worker or run computes it, so a resumed run's G outputs — and, on the seeded backend, its whole result — are
byte-identical to an uninterrupted run's. The task function :func:`run_g_batch` is a top-level function of this
package: workers of an external Dask cluster that have littlestone installed can deserialize the task graph.

**What DIR holds** (format 2; a local file of the data owner, never a release):

* ``manifest.json`` — what the chunks mean: the class (its name and a SHA-256 hash of its model-file form), ε, δ,
  α, β, the stage sizes, the number of examples, a SHA-256 hash of G's seed, ``checkpoint_every``; the **data**
  they were computed from (a SHA-256 digest of the examples of the G batches as read — for a lazy stream, of its
  identity and seed, see :func:`data_identity`); and the SHA-256 hash and size of every saved chunk.
* ``chunk_NNNNN.json`` — for each batch of the chunk, G's output (a hypothesis of the class in the model-file
  encoding of :mod:`littlestone.pac._sklearn`, or Fail), its depth k and how many examples it read. Plain JSON:
  reading it runs no code. No examples, labels, noise or timings besides what G's outputs are made of (an output
  patched per BLM20 Definition 8 names the points it patches and their labels).

**What is refused** (one line each, :class:`CheckpointError`; exit 2 in the CLI): resuming with other data, another
ε/δ/α/β, class, sizes, seed or ``checkpoint_every`` ("belongs to a different run"); any chunk that is damaged,
truncated, unrecorded, of another checkpoint, of an older pickled format (``chunk_NNNNN.pkl``: never unpickled) or of
unexpected content (:class:`DamagedCheckpointError`: "checkpoint DIR: chunk N is damaged (…); delete it to
recompute" — nothing is executed and nothing is deleted); a path that cannot be a checkpoint directory (``''``, a
missing parent — never created silently —, a file, FIFO or device, a kernel file system such as /proc).

**What the hashes do not do.** They detect damage, truncation and mix-ups, not a forger: whoever can write DIR can
rewrite the manifest too, and so change the model (never run code). G's outputs are *not* differentially private
(only the stable histogram of them is) and the manifest holds a digest of the data: DIR is as sensitive as the data.
Keep it where only the data owner writes and reads, and delete it after the run (``checkpoint_cleanup=True``, CLI
``--checkpoint-cleanup``). The privacy claim covers the model, not DIR.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from functools import partial
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from .. import _progress
from .._random import ChildSeeds
from ..errors import LittlestoneError
from ..io import OutputError, atomic_write_bytes, atomic_write_text, check_output_dir
from ..parallel import map_ordered
from .global_stable import GlobalStableLearner, GRun, _run_one
from .sources import ArraySource, ExampleSource, RealizableStream, ValidatedSource
from .tournament import FAIL

__all__ = [
    "DEFAULT_EVERY",
    "CheckpointError",
    "DamagedCheckpointError",
    "check_checkpoint_dir",
    "cleanup_checkpoint",
    "data_identity",
    "decode_chunk",
    "encode_chunk",
    "finish_checkpoint",
    "run_batches_checkpointed",
    "run_g_batch",
]

FORMAT = 2
CHUNK_FORMAT = "littlestone-checkpoint-chunk/2"
#: G batches per saved chunk (a chunk is split into a few tasks per worker; at 512 workers use ≥ 4096)
DEFAULT_EVERY = 2000
#: the largest manifest read (a hostile file cannot make the reader allocate more)
MAX_MANIFEST_BYTES = 64 << 20
#: kernel file systems where a checkpoint directory is refused (they hold no storage)
VIRTUAL_FILE_SYSTEMS = frozenset(
    {"proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "configfs",
     "bpf", "mqueue", "pstore", "fusectl", "binfmt_misc", "efivarfs", "autofs", "rpc_pipefs", "nsfs"}
)  # fmt: skip
REMINDER = (
    "checkpoint {dir} holds G's non-private outputs and a digest of the data: as sensitive as the data — "
    "keep it private and delete it when done (--checkpoint-cleanup / checkpoint_cleanup=True deletes it after a run)"
)


class CheckpointError(LittlestoneError):
    """A checkpoint directory cannot be used: a bad path, or it belongs to a different run (other data, ε, seed…)."""


class DamagedCheckpointError(CheckpointError):
    """A saved chunk is damaged, truncated, unrecorded, foreign or of unexpected content (never executed: deleting
    the file makes the next run recompute it)."""


def run_g_batch(learner: GlobalStableLearner, source: ExampleSource, g_seed: int, k: int, item: tuple) -> GRun:
    """G on batch ``i`` (a (start, stop) range of ``source`` or a DataSplit part's reader, as :func:`run_batches`
    takes them) with the i-th child of ``g_seed`` (as :func:`run_batches` gives it)."""
    batch, i = item
    return _run_one(learner, source, None, batch, ChildSeeds(g_seed, k)[i])


# ------------------------------------------------------------------------------------------------ the directory


def _file_system(path: Path) -> str | None:
    """The file-system type of the mount holding ``path`` (Linux ``/proc/self/mountinfo``; None if unknown)."""
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    real = os.path.realpath(path)
    best, kind = "", None
    for line in lines:
        left, sep, right = line.partition(" - ")
        fields = left.split()
        if not sep or len(fields) < 5 or not right.split():
            continue
        mount = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
        inside = real == mount or real.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best):
            best, kind = mount, right.split()[0]
    return kind


def check_checkpoint_dir(path: Any) -> Path:
    """A usable checkpoint directory path, or :class:`CheckpointError` naming the problem in one line: ``''`` and
    ``-`` are refused, an existing path must be a directory (a file, FIFO, device or socket is named for what it
    is), a new one needs an existing parent (parents are never created) and no path may lie on a kernel file
    system (/proc, /sys, /dev…). Nothing is created."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise CheckpointError(f"checkpoint must be a directory path, got {type(path).__name__}")
    given = os.fspath(path)
    if not given.strip():
        raise CheckpointError("checkpoint: empty path (give a directory, e.g. ./ckpt)")
    if given == "-":
        raise CheckpointError("checkpoint: '-' (standard output) is not a directory; give a directory, e.g. ./ckpt")
    try:
        out = check_output_dir(given, "the checkpoint")
    except OutputError as exc:
        raise CheckpointError(str(exc)) from None
    where = out if out.exists() else (out.parent if str(out.parent) else Path("."))
    kind = _file_system(where)
    if kind in VIRTUAL_FILE_SYSTEMS:
        raise CheckpointError(
            f"cannot write the checkpoint to {given}: {where} is on the kernel's {kind} file system (not storage)"
        )
    return Path(given)


def _make_dir(path: Path) -> None:
    if path.is_dir():
        return
    try:
        path.mkdir()  # never parents: check_checkpoint_dir required the parent to exist
    except FileExistsError:
        if not path.is_dir():
            raise CheckpointError(f"cannot write the checkpoint to {path}: it exists and is not a directory") from None
    except OSError as exc:
        raise CheckpointError(f"cannot create checkpoint directory {path}: {exc.strerror or exc}") from None


# ------------------------------------------------------------------------------------------------ data identity


def _hash_block(h: Any, X: Any, y: Any) -> None:
    """Feed a block of examples (as read) to ``h``: labels as int8; points as the raw bytes of a numeric array (its
    dtype and row shape first) or one canonical JSON text per point. A source read the same way (an array whole,
    another source batch by batch) gives the same digest. No copies of contiguous arrays (memoryviews)."""
    y = np.ascontiguousarray(y, dtype=np.int8)
    h.update(b"y%d:" % len(y))
    h.update(memoryview(y).cast("B"))
    if isinstance(X, np.ndarray) and X.dtype.kind in "biuf":
        X = np.ascontiguousarray(X)
        h.update(f"X{X.dtype.str}{X.shape}".encode())
        h.update(memoryview(X).cast("B"))
        return
    from ._sklearn import point_to_json

    h.update(b"P" + "\n".join(json.dumps(point_to_json(x), sort_keys=True) for x in X).encode() + b"\n")


def _stable_repr(obj: Any) -> str | None:
    """``repr(obj)`` if it names the object's content (not a memory address), else None."""
    text = repr(obj)
    return None if re.search(r" at 0x[0-9a-fA-F]+", text) else text


def data_identity(source: ExampleSource, stop: int, *, batches: Iterable[Any] = ()) -> dict:
    """What a checkpoint binds its chunks to: the examples ``source[0:stop]`` (the G batches) as read.
    ``batches``: the G batches, DataSplit part readers (read through them) or ``(start, stop)`` ranges.

    * an in-memory :class:`ArraySource` (and what ``fit`` builds): SHA-256 of its examples;
    * a lazy :class:`RealizableStream`: its identity — target, sampler, length, seed, block size, label noise — and
      no read (its blocks are a function of these);
    * a source with a ``checkpoint_identity()`` method: that (a JSON value naming the data, e.g. file names and
      their hashes, or a generator's seed; the binding is only as good as it);
    * any other source: SHA-256 of its examples, read once batch by batch (``batches``; one pass over the data).

    A :class:`ValidatedSource` is the source it wraps (validation is a function of the class, bound separately)."""
    inner: Any = source
    while isinstance(inner, ValidatedSource):
        inner = inner.source
    if isinstance(inner, RealizableStream):
        from ._sklearn import hypothesis_to_json

        try:
            target: Any = hypothesis_to_json(inner.target)
        except LittlestoneError:
            target = _stable_repr(inner.target)
        sampler = _stable_repr(inner.sampler)
        if target is not None and sampler is not None:
            ident = {
                "stream": type(inner).__qualname__,
                "target": target,
                "sampler": sampler,
                "length": inner.length,
                "seed": inner.seed,
                "block_size": inner.block_size,
                "noise": inner.noise,
            }
            return {"kind": "stream", "sha256": _sha(json.dumps(ident, sort_keys=True))}
    own = getattr(inner, "checkpoint_identity", None)
    if callable(own):
        try:
            text = json.dumps(own(), sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise CheckpointError(f"checkpoint_identity() of the source must return a JSON value ({exc})") from None
        return {"kind": "declared", "sha256": _sha(f"{type(inner).__qualname__}:{text}")}
    h = hashlib.sha256()
    if isinstance(inner, ArraySource):
        _hash_block(h, inner.X[:stop], inner.y[:stop])
    else:
        for b in batches:
            X, y = b.read() if hasattr(b, "read") else source.batch(*b)
            _hash_block(h, X, y)
    return {"kind": "examples", "sha256": h.hexdigest()}


def _sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def _class_identity(hclass: Any) -> dict:
    from ._sklearn import class_to_json

    try:
        form: Any = class_to_json(hclass)
    except LittlestoneError:
        form = _stable_repr(hclass) or hclass.name
    return {"name": hclass.name, "sha256": _sha(json.dumps(form, sort_keys=True, default=repr))}


# ------------------------------------------------------------------------------------------------ the manifest


def _binding(
    learner: GlobalStableLearner, sizes: Any, n_examples: int, g_seed: int, every: int, run: dict, data: dict
) -> dict:
    """Everything that changes what a chunk means (compared on resume)."""
    return {
        "class": _class_identity(learner.hclass),
        "run": {k: float(v) for k, v in sorted(run.items())},
        "sizes": {
            "d": sizes.d,
            "n_batches": sizes.n_batches,
            "aux_size": sizes.aux_size,
            "cap": sizes.cap,
            "n_generic": sizes.n_generic,
            "eta": sizes.eta,
            "alpha_g": learner.alpha,
        },
        "examples": int(n_examples),
        "g_seed_sha256": _sha(str(int(g_seed))),
        "every": int(every),
        "data": data,
    }


_WHY = {
    "data": "the data differ",
    "run": "ε, δ, α or β differ",
    "class": "the class differs",
    "sizes": "the stage sizes differ",
    "examples": "the number of examples differs",
    "g_seed_sha256": "the seed differs",
    "every": "checkpoint_every differs",
}


def _read_manifest(path: Path) -> dict | None:
    man = path / "manifest.json"
    if not man.exists() and not man.is_symlink():
        return None
    if man.is_symlink():  # written through on update: it would replace whatever it points to
        raise CheckpointError(f"checkpoint {path}: manifest.json is a symbolic link; delete it to start over")
    if not man.is_file():
        raise CheckpointError(f"checkpoint {path}: manifest.json is not a regular file; delete it to start over")
    try:
        if man.stat().st_size > MAX_MANIFEST_BYTES:
            raise OSError(0, "too large to be a checkpoint manifest")
        have = json.loads(man.read_bytes().decode("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        raise CheckpointError(
            f"checkpoint {path}: unreadable manifest.json ({why}); delete the directory to start over"
        ) from None
    if not isinstance(have, dict):
        raise CheckpointError(f"checkpoint {path}: manifest.json is not a littlestone checkpoint manifest")
    if have.get("format") == 1:
        raise CheckpointError(
            f"checkpoint {path} is in the old pickled format (format 1, chunk_*.pkl: never read); "
            "delete it to recompute"
        )
    if have.get("format") != FORMAT or not isinstance(have.get("binding"), dict):
        raise CheckpointError(f"checkpoint {path}: manifest.json is not a littlestone checkpoint manifest (format 2)")
    chunks = have.get("chunks")
    if not isinstance(chunks, dict) or not all(_chunk_record_ok(k, v) for k, v in chunks.items()):
        raise CheckpointError(f"checkpoint {path}: manifest.json has a malformed chunk list; delete it to start over")
    return have


def _chunk_record_ok(key: Any, rec: Any) -> bool:
    return (
        isinstance(key, str)
        and re.fullmatch(r"[0-9]{1,9}", key) is not None
        and isinstance(rec, dict)
        and set(rec) == {"sha256", "bytes"}
        and isinstance(rec["sha256"], str)
        and re.fullmatch(r"[0-9a-f]{64}", rec["sha256"]) is not None
        and type(rec["bytes"]) is int
        and 0 < rec["bytes"] <= MAX_MANIFEST_BYTES
    )


def _write_manifest(path: Path, binding: dict, chunks: dict) -> None:
    man = {
        "format": FORMAT,
        "what": "littlestone BLM20 stage-1 checkpoint (G outputs per batch; as sensitive as the data)",
        "binding": binding,
        "chunks": {str(j): chunks[j] for j in sorted(chunks)},
    }
    atomic_write_text(path / "manifest.json", json.dumps(man, indent=1) + "\n")


def _refuse_other_run(path: Path, have: dict, want: dict) -> None:
    if have == want:
        return
    diff = [k for k in want if have.get(k) != want[k]] or sorted(set(have) - set(want))
    why = ", ".join(_WHY.get(k, f"{k} differs") for k in diff)
    if "data" in diff:
        hint = "resume with the same data, or use a new directory"
    elif "run" in diff:
        hint = "resume with the same ε, δ, α and β, or use a new directory"
    else:
        hint = "resume with the same seed, class, sizes, data and checkpoint_every, or use a new directory"
    raise CheckpointError(f"checkpoint {path} belongs to a different run ({why}): {hint}")


# ------------------------------------------------------------------------------------------------ chunks


def _chunk_name(j: int) -> str:
    return f"chunk_{j:05d}.json"


def encode_chunk(hclass: Any, j: int, first: int, part: list[GRun]) -> bytes:
    """A chunk as JSON bytes: the distinct outputs once (model-file encoding), then per batch an index (−1 = Fail),
    the depth and the examples read. Every hypothesis must come back equal, of the same type, from its encoding."""
    from ._sklearn import hypothesis_from_json, hypothesis_to_json

    index: dict[Any, int] = {}
    hyps: list[dict] = []
    outputs: list[int] = []
    for r in part:
        if r.output is FAIL:
            outputs.append(-1)
            continue
        i = index.get(r.output)
        if i is None:
            enc = hypothesis_to_json(r.output, hclass)
            back = hypothesis_from_json(json.loads(json.dumps(enc)), hclass)
            if type(back) is not type(r.output) or back != r.output or hash(back) != hash(r.output):
                raise CheckpointError(
                    f"checkpoint: G's output {r.output!r} ({type(r.output).__name__}) has no exact file encoding; "
                    "run without a checkpoint"
                )
            i = index[r.output] = len(hyps)
            hyps.append(enc)
        outputs.append(i)
    obj = {
        "format": CHUNK_FORMAT,
        "chunk": j,
        "first_batch": first,
        "hypotheses": hyps,
        "output": outputs,
        "depth": [int(r.k) for r in part],
        "read": [int(r.examples_read) for r in part],
    }
    return (json.dumps(obj, separators=(",", ":")) + "\n").encode("utf-8")


def _ints(value: Any, n: int, low: int, high: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) == n
        and all(type(v) is int and low <= v <= high for v in value)  # bool, float, str… are refused
    )


def decode_chunk(data: bytes, hclass: Any, j: int, first: int, count: int, d: int, m: int) -> list[GRun]:
    """The G runs of a chunk file, or ValueError naming what is wrong (never executes anything: plain JSON, every
    field type-checked, hypotheses through the model-file decoders and checked to be of the class)."""
    from ._sklearn import _check_hypothesis_of_class, hypothesis_from_json, hypothesis_to_json

    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValueError("not a JSON chunk: truncated or overwritten") from None
    keys = {"format", "chunk", "first_batch", "hypotheses", "output", "depth", "read"}
    if not isinstance(obj, dict) or set(obj) != keys or obj["format"] != CHUNK_FORMAT:
        raise ValueError(f"not a {CHUNK_FORMAT} file")
    if type(obj["chunk"]) is not int or obj["chunk"] != j or type(obj["first_batch"]) is not int:
        raise ValueError(f"it is chunk {obj['chunk']!r}, not chunk {j}")
    if obj["first_batch"] != first:
        raise ValueError(f"it starts at batch {obj['first_batch']}, not {first}")
    hyps = obj["hypotheses"]
    if not isinstance(hyps, list) or not all(isinstance(h, dict) for h in hyps):
        raise ValueError("its hypotheses are not model-file hypotheses")
    if not _ints(obj["output"], count, -1, len(hyps) - 1):
        raise ValueError(f"its outputs are not {count} indices into its {len(hyps)} hypotheses")
    if not _ints(obj["depth"], count, 0, d) or not _ints(obj["read"], count, 0, m):
        raise ValueError(f"its depths or example counts are not {count} integers in range")
    decoded = []
    for enc in hyps:
        try:
            h = hypothesis_from_json(enc, hclass)
            _check_hypothesis_of_class(h, hclass)
            same = json.dumps(hypothesis_to_json(h, hclass), sort_keys=True) == json.dumps(enc, sort_keys=True)
        except (LittlestoneError, KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError,
                OverflowError) as exc:  # fmt: skip
            raise ValueError(f"a hypothesis does not decode ({type(exc).__name__})") from None
        if not same:
            raise ValueError("a hypothesis is not in its canonical encoding")
        decoded.append(h)
    return [GRun(FAIL if o < 0 else decoded[o], k, r) for o, k, r in zip(obj["output"], obj["depth"], obj["read"])]


def _read_chunk(path: Path, j: int, rec: dict | None, **shape: Any) -> list[GRun]:
    """Chunk j, checked against its manifest record (size, SHA-256) and then its content; DamagedCheckpointError."""
    file = path / _chunk_name(j)

    def damaged(why: str) -> DamagedCheckpointError:
        return DamagedCheckpointError(f"checkpoint {path}: chunk {j} is damaged ({why}); delete it to recompute")

    if rec is None:
        raise damaged("not recorded in manifest.json: from another or an interrupted run")
    try:
        st = file.lstat()
        if not stat.S_ISREG(st.st_mode):
            raise damaged("not a regular file")
        if st.st_size != rec["bytes"]:
            raise damaged(f"{st.st_size} bytes, the manifest recorded {rec['bytes']}: truncated or replaced")
        data = file.read_bytes()
    except OSError as exc:
        raise damaged(f"unreadable: {exc.strerror or exc}") from None
    if hashlib.sha256(data).hexdigest() != rec["sha256"]:
        raise damaged("its SHA-256 hash differs from the manifest's: changed or replaced")
    try:
        return decode_chunk(data, j=j, **shape)
    except ValueError as exc:
        raise damaged(str(exc)) from None


def run_batches_checkpointed(
    learner: GlobalStableLearner,
    source: ExampleSource,
    batches: list,
    g_seed: int,
    sizes: Any,
    directory: Any,
    *,
    every: int = DEFAULT_EVERY,
    n_jobs: int = 1,
    run: dict | None = None,
) -> list[GRun]:
    """The G runs of :func:`~littlestone.pac.global_stable.run_batches` (same seeds, same order), computed chunk by
    chunk and saved under ``directory``; saved chunks are read back (checked) instead of recomputed. ``run`` = the
    run's parameters that change what a chunk means besides the sizes (ε, δ, α, β). Runs on the Dask cluster set by
    :func:`littlestone.parallel.using_cluster` (CLI ``--cluster``) when there is one, else with ``n_jobs``. Reports
    "resumed: k of N chunks read from DIR" through :func:`littlestone._progress.note` when it reads saved chunks."""
    every = _check_every(every)
    path = check_checkpoint_dir(directory)
    k = len(batches)
    for old in sorted(path.glob("chunk_*.pkl")) if path.is_dir() else ():
        found = re.fullmatch(r"chunk_([0-9]+)\.pkl", old.name)
        which = int(found.group(1)) if found else old.name
        raise DamagedCheckpointError(
            f"checkpoint {path}: chunk {which} is damaged (a pickle, the format of older littlestone versions: "
            "never read); delete it to recompute"
        )
    have = _read_manifest(path) if path.is_dir() else None
    stop = (batches[-1].stop if hasattr(batches[-1], "stop") else batches[-1][1]) if batches else 0
    data = data_identity(source, stop, batches=batches)
    want = _binding(learner, sizes, len(source), g_seed, every, dict(run or {}), data)
    if have is None:
        _make_dir(path)
        chunks: dict[int, dict] = {}
        _write_manifest(path, want, chunks)
    else:
        _refuse_other_run(path, have["binding"], want)
        chunks = {int(j): rec for j, rec in have["chunks"].items()}
    spans = [(a, min(a + every, k)) for a in range(0, k, every)]
    saved: dict[int, list[GRun]] = {}
    for j, (a, b) in enumerate(spans):  # every saved chunk checked before any work: a damaged one stops the run now
        file = path / _chunk_name(j)
        if file.exists() or file.is_symlink():
            saved[j] = _read_chunk(
                path, j, chunks.get(j), hclass=learner.hclass, first=a, count=b - a, d=learner.d, m=sizes.batch_size
            )
    if saved:
        _note(f"resumed: {len(saved)} of {len(spans)} chunks read from {path}")
    task = partial(run_g_batch, learner, source, int(g_seed), k)
    runs: list[GRun] = []
    for j, (a, b) in enumerate(spans):
        part = saved.get(j)
        if part is None:
            done = len(runs)
            part = map_ordered(
                task,
                [(batch, i) for i, batch in enumerate(batches[a:b], start=a)],
                n_jobs=n_jobs,
                progress=lambda x, _total, _d=done: _progress.report("G runs", _d + x, k),
            )
            blob = encode_chunk(learner.hclass, j, a, part)
            chunks[j] = {"sha256": hashlib.sha256(blob).hexdigest(), "bytes": len(blob)}
            _write_manifest(path, want, chunks)  # first: a chunk on disk is always recorded (a crash → recompute)
            atomic_write_bytes(path / _chunk_name(j), blob)
        runs.extend(part)
        _progress.report("G runs", len(runs), k)
    return runs


def _note(message: str) -> None:
    _progress.note(message)


def _check_every(every: Any) -> int:
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise LittlestoneError(f"checkpoint_every must be a positive number of G batches, got {every!r}")
    return every


def cleanup_checkpoint(directory: Any) -> bool:
    """Delete a checkpoint directory's own files (manifest.json, chunk_NNNNN.json, leftover temporary siblings of
    them) and the directory if it is then empty; other files are kept (and so is the directory). True if DIR is
    gone."""
    path = Path(directory)
    if not path.is_dir():
        return not path.exists()
    own = re.compile(r"(manifest\.json|chunk_[0-9]{5,}\.json)|\.(manifest\.json|chunk_[0-9]{5,}\.json)\..+\.tmp")
    for entry in path.iterdir():
        if own.fullmatch(entry.name) and (entry.is_file() or entry.is_symlink()):
            entry.unlink()
    try:
        path.rmdir()
    except OSError:
        return False
    return True


def finish_checkpoint(directory: Any, *, cleanup: bool) -> None:
    """The end of a successful checkpointed run: delete DIR (``cleanup``; files that are not the checkpoint's are
    kept) or remind that it is as sensitive as the data (both through :func:`littlestone._progress.note`)."""
    if cleanup:
        gone = cleanup_checkpoint(directory)
        _note(
            f"checkpoint {directory} deleted"
            if gone
            else f"checkpoint {directory}: its files deleted; the directory holds other files and was kept"
        )
    else:
        _note(REMINDER.format(dir=directory))
