"""Checkpointed, resumable stage 1 of BLM20's learner M (G on k batches — all the work at Theorem 1's size).

``blm20_learn(..., checkpoint=DIR)`` (CLI: ``littlestone learn ... --checkpoint DIR``) runs the k G batches in
chunks of ``checkpoint_every`` batches and saves each finished chunk atomically under DIR; rerunning the same call
(same seed, class, sizes and data) skips the saved chunks. Batch i always gets the i-th child of G's seed, whichever
chunk, worker or run computes it, so a resumed run's G outputs — and, on the seeded backend, its whole result — are
byte-identical to an uninterrupted run's. The task function :func:`run_g_batch` is a top-level function of this
package: workers of an external Dask cluster that have littlestone installed can deserialize the task graph.

What a checkpoint holds (a local file of the data owner, never a release): ``manifest.json`` — format, the class's
name, the stage sizes, the number of examples given, a SHA-256 hash of G's seed (to refuse resuming another run) —
and ``chunk_NNNNN.pkl`` — for each batch of the chunk, G's output (a hypothesis of the class or Fail, computed from
that batch without noise), its depth k and how many examples it read. No examples, labels, noise or timings. G's
outputs are *not* differentially private (only the stable histogram of them is), so a checkpoint is as sensitive as
the data: keep it where the data are and delete it after the run. The privacy claim covers the model, not DIR.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from functools import partial
from pathlib import Path
from typing import Any

from .. import _progress
from .._random import ChildSeeds
from ..errors import LittlestoneError
from ..io import atomic_write_bytes, atomic_write_text
from ..parallel import map_ordered
from .global_stable import GlobalStableLearner, GRun, _run_one
from .sources import ExampleSource

__all__ = ["DEFAULT_EVERY", "run_g_batch", "run_batches_checkpointed"]

FORMAT = 1
#: G batches per saved chunk (a chunk is split into a few tasks per worker; at 512 workers use ≥ 4096)
DEFAULT_EVERY = 2000


def run_g_batch(learner: GlobalStableLearner, source: ExampleSource, g_seed: int, k: int, item: tuple) -> GRun:
    """G on batch ``i`` (a (start, stop) range of ``source`` or a DataSplit part's reader, as :func:`run_batches`
    takes them) with the i-th child of ``g_seed`` (as :func:`run_batches` gives it)."""
    batch, i = item
    return _run_one(learner, source, None, batch, ChildSeeds(g_seed, k)[i])


def _manifest(learner: GlobalStableLearner, sizes: Any, n_examples: int, g_seed: int, every: int) -> dict:
    return {
        "format": FORMAT,
        "what": "littlestone BLM20 stage-1 checkpoint (G outputs per batch; as sensitive as the data)",
        "class": learner.hclass.name,
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
        "g_seed_sha256": hashlib.sha256(str(int(g_seed)).encode()).hexdigest(),
        "every": int(every),
    }


def _check_every(every: Any) -> int:
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise LittlestoneError(f"checkpoint_every must be a positive number of G batches, got {every!r}")
    return every


def open_checkpoint(
    directory: Any, learner: GlobalStableLearner, sizes: Any, n_examples: int, g_seed: int, every: int
) -> Path:
    """DIR, created with its manifest, or checked against it when it exists (a different run is refused)."""
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise LittlestoneError(f"checkpoint {path} exists and is not a directory")
    path.mkdir(parents=True, exist_ok=True)
    want = _manifest(learner, sizes, n_examples, g_seed, every)
    man = path / "manifest.json"
    if man.exists():
        try:
            have = json.loads(man.read_text())
        except (OSError, ValueError) as exc:
            raise LittlestoneError(f"checkpoint {path}: unreadable manifest.json ({exc})") from None
        if have != want:
            diff = sorted(k for k in want if have.get(k) != want[k])
            raise LittlestoneError(
                f"checkpoint {path} belongs to a different run ({', '.join(diff)} differ): resume with the same seed, "
                "class, sizes, data and checkpoint_every, or use a new directory"
            )
    else:
        atomic_write_text(man, json.dumps(want, indent=1) + "\n")
    return path


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
) -> list[GRun]:
    """The G runs of :func:`~littlestone.pac.global_stable.run_batches` (same seeds, same order), computed chunk by
    chunk and saved under ``directory``; saved chunks are read back instead of recomputed. Runs on the Dask cluster
    set by :func:`littlestone.parallel.using_cluster` (CLI ``--cluster``) when there is one, else with ``n_jobs``."""
    every = _check_every(every)
    k = len(batches)
    path = open_checkpoint(directory, learner, sizes, len(source), g_seed, every)
    task = partial(run_g_batch, learner, source, int(g_seed), k)
    runs: list[GRun] = []
    for j, a in enumerate(range(0, k, every)):
        b = min(a + every, k)
        file = path / f"chunk_{j:05d}.pkl"
        if file.exists():
            part = pickle.loads(file.read_bytes())  # the data owner's own file, written below
            if not isinstance(part, list) or len(part) != b - a or not all(isinstance(r, GRun) for r in part):
                raise LittlestoneError(f"checkpoint {file} is damaged: delete it to recompute that chunk")
        else:
            done = len(runs)
            part = map_ordered(
                task,
                [(batch, i) for i, batch in enumerate(batches[a:b], start=a)],
                n_jobs=n_jobs,
                progress=lambda x, _total, _d=done: _progress.report("G runs", _d + x, k),
            )
            atomic_write_bytes(file, pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL))
        runs.extend(part)
        _progress.report("G runs", len(runs), k)
    return runs
