"""The one parallel runner: independent tasks, seeded by task index, results in task order.

>>> from littlestone.parallel import map_seeded
>>> def draw(item, seed):
...     import numpy as np
...     return item + int(np.random.default_rng(seed).integers(10))
>>> map_seeded(draw, [0, 100, 200], seed=1) == map_seeded(draw, [0, 100, 200], seed=1, backend="sequential")
True

Task ``i`` receives the ``i``-th child of ``SeedSequence(seed).spawn(len(items))`` — never a per-worker seed — so the
same seed gives the same list whatever the backend, the number of workers or the chunking. Tasks are sent in
contiguous chunks (a few per worker) so that the per-task overhead of pickling and scheduling stays small.

Backends:

* ``"sequential"`` — in this process (the default when ``n_jobs == 1`` and no cluster is named);
* ``"loky"`` — joblib's process pool on this machine (the default when ``n_jobs != 1``; ``n_jobs=-1`` = all cores);
* ``"dask"`` — a ``dask.distributed`` cluster (``pip install 'littlestone[dask]'``): ``cluster="tcp://host:8786"``
  connects to a running scheduler, ``cluster="local:N"`` starts a local cluster of N single-threaded worker processes
  listening on 127.0.0.1 only, and a ``distributed.Client`` may be passed as is. Without ``cluster``, the one set by
  :func:`using_cluster` (the CLI's ``--cluster``) or else the environment variable ``LITTLESTONE_CLUSTER`` is used,
  and then ``"dask"`` is the default backend. A worker that dies mid-run has its tasks re-run elsewhere by the
  scheduler; seeds go by task index, so the result does not change.

Calls made from inside a task (e.g. G's batches inside one demo repeat) run sequentially unless they name a backend:
the outer call already keeps the workers busy.

Progress is reported from the calling process as chunks finish: ``progress="stage name"`` sends
``littlestone._progress.report(stage, done, total)`` (what the CLI's bars listen to); a callable ``progress(done,
total)`` is called directly.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
from contextvars import ContextVar
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from . import _progress
from ._random import SeedLike, spawn_seeds
from .errors import LittlestoneError

__all__ = ["BACKENDS", "CLUSTER_ENV", "map_seeded", "map_ordered", "using_cluster", "resolve_cluster",
           "close_clusters"]

BACKENDS = ("sequential", "loky", "dask")
#: environment variable naming the Dask cluster used when no ``cluster`` argument is given
CLUSTER_ENV = "LITTLESTONE_CLUSTER"
#: chunks per worker (load balance vs. per-chunk overhead)
CHUNKS_PER_WORKER = 4
#: at most this many chunks when only progress asks for splitting (sequential backend)
PROGRESS_CHUNKS = 100



def map_seeded(fn: Callable[[Any, np.random.SeedSequence], Any], items: Iterable[Any], *, seed: SeedLike,
               n_jobs: int = 1, backend: str | None = None, cluster: Any = None, progress: Any = None,
               chunksize: int | None = None) -> list:
    """``[fn(item, child_seed_i) for i, item in enumerate(items)]``, run on the chosen backend.

    ``child_seed_i`` is the i-th child SeedSequence spawned from ``seed`` (an int, a SeedSequence — its earlier
    spawns do not matter —, a Generator, from which one integer is drawn, or None for fresh entropy).
    ``fn`` must be picklable (a top-level function or a ``functools.partial`` of one) for the process backends.
    """
    items = list(items)
    seeds = spawn_seeds(seed, len(items))
    return _run(fn, items, seeds, n_jobs=n_jobs, backend=backend, cluster=cluster, progress=progress,
                chunksize=chunksize)


def map_ordered(fn: Callable[[Any], Any], items: Iterable[Any], *, n_jobs: int = 1, backend: str | None = None,
                cluster: Any = None, progress: Any = None, chunksize: int | None = None) -> list:
    """``[fn(item) for item in items]`` on the chosen backend, for work that needs no randomness (or carries its own
    seeds in ``items``)."""
    items = list(items)
    return _run(fn, items, None, n_jobs=n_jobs, backend=backend, cluster=cluster, progress=progress,
                chunksize=chunksize)


_default_cluster: ContextVar[Any] = ContextVar("littlestone_cluster", default=None)
_in_task: ContextVar[bool] = ContextVar("littlestone_in_task", default=False)


@contextlib.contextmanager
def using_cluster(cluster: Any) -> Iterator[None]:
    """Inside the block, every call that names no cluster and no backend runs on ``cluster`` (None: no change)."""
    token = _default_cluster.set(cluster) if cluster is not None else None
    try:
        yield
    finally:
        if token is not None:
            _default_cluster.reset(token)


# --- the chunk every backend runs ---------------------------------------------------------------------------------

def _run_chunk(fn: Callable, items: Sequence[Any], seeds: Sequence[np.random.SeedSequence] | None,
               nested_sequential: bool = True) -> list:
    token = _in_task.set(True) if nested_sequential else None
    try:
        if seeds is None:
            return [fn(item) for item in items]
        return [fn(item, s) for item, s in zip(items, seeds)]
    finally:
        if token is not None:
            _in_task.reset(token)


# --- argument checks ----------------------------------------------------------------------------------------------

def _check_jobs(n_jobs: Any) -> int:
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0 or n_jobs < -1:
        raise LittlestoneError(f"n_jobs must be a positive number of workers or -1 (all cores), not {n_jobs!r}")
    return int(n_jobs)


def _workers(n_jobs: int) -> int:
    return max(1, os.cpu_count() or 1) if n_jobs == -1 else n_jobs


def _choose_backend(backend: str | None, n_jobs: int, cluster: Any) -> tuple[str, Any]:
    if backend is not None and backend not in BACKENDS:
        raise LittlestoneError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend is None and _in_task.get():
        return "sequential", None
    if cluster is None and backend in (None, "dask"):
        cluster = _default_cluster.get() or os.environ.get(CLUSTER_ENV) or None
    if backend is None:
        backend = "dask" if cluster is not None else ("sequential" if n_jobs == 1 else "loky")
    if backend == "dask" and cluster is None:
        raise LittlestoneError(f"the dask backend needs a cluster: pass cluster='tcp://host:8786' or 'local:N', "
                               f"or set {CLUSTER_ENV}")
    if backend != "dask" and cluster is not None:
        raise LittlestoneError(f"a cluster ({cluster!r}) is only used by the dask backend, not {backend!r}")
    return backend, cluster


def _chunks(total: int, n_chunks: int, chunksize: int | None) -> list[tuple[int, int]]:
    if total == 0:
        return []
    if chunksize is not None:
        if isinstance(chunksize, bool) or not isinstance(chunksize, (int, np.integer)) or chunksize < 1:
            raise LittlestoneError(f"chunksize must be a positive integer, not {chunksize!r}")
        n_chunks = -(-total // int(chunksize))
    n_chunks = max(1, min(total, n_chunks))
    bounds = np.linspace(0, total, n_chunks + 1).astype(int)
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def _reporter(progress: Any, total: int) -> Callable[[int], None]:
    if progress is None:
        return lambda done: None
    if isinstance(progress, str):
        return lambda done: _progress.report(progress, done, total)
    if callable(progress):
        return lambda done: progress(done, total)
    raise LittlestoneError(f"progress must be a stage name, a callable(done, total) or None, not {progress!r}")


# --- the runner ---------------------------------------------------------------------------------------------------

def _run(fn: Callable, items: list, seeds: list | None, *, n_jobs: int, backend: str | None, cluster: Any,
         progress: Any, chunksize: int | None) -> list:
    if not callable(fn):
        raise LittlestoneError(f"fn must be callable, not {fn!r}")
    n_jobs = _check_jobs(n_jobs)
    backend, cluster = _choose_backend(backend, n_jobs, cluster)
    total = len(items)
    report = _reporter(progress, total)
    wants_progress = progress is not None and (not isinstance(progress, str) or _progress.active())
    if backend == "sequential":
        n_chunks = PROGRESS_CHUNKS if wants_progress else 1
        parts: Iterator[tuple[int, int, list]] = _sequential(fn, items, seeds, _chunks(total, n_chunks, chunksize))
    elif backend == "loky":
        workers = min(_workers(n_jobs), max(1, total))
        bounds = _chunks(total, CHUNKS_PER_WORKER * workers, chunksize)
        parts = _loky(fn, items, seeds, bounds, workers)
    else:
        client = resolve_cluster(cluster)
        workers = max(1, sum(client.nthreads().values()))
        bounds = _chunks(total, CHUNKS_PER_WORKER * workers, chunksize)
        parts = _dask(client, fn, items, seeds, bounds)
    results: list = [None] * total
    done = 0
    report(0)
    for a, b, part in parts:
        if len(part) != b - a:
            raise LittlestoneError(f"a chunk of tasks {a}..{b - 1} returned {len(part)} results")
        results[a:b] = part
        done += b - a
        report(done)
    return results


def _slices(items: list, seeds: list | None, a: int, b: int) -> tuple[list, list | None]:
    return items[a:b], None if seeds is None else seeds[a:b]


def _sequential(fn: Callable, items: list, seeds: list | None, bounds: list[tuple[int, int]]):
    for a, b in bounds:
        yield a, b, _run_chunk(fn, *_slices(items, seeds, a, b), nested_sequential=False)


def _loky(fn: Callable, items: list, seeds: list | None, bounds: list[tuple[int, int]], workers: int):
    from joblib import Parallel, delayed

    if not bounds:
        return
    # joblib reuses its loky executor between calls, so workers start once per process; results come back in
    # submission order as they finish
    out = Parallel(n_jobs=workers, backend="loky", return_as="generator")(
        delayed(_run_chunk)(fn, *_slices(items, seeds, a, b)) for a, b in bounds)
    for (a, b), part in zip(bounds, out):
        yield a, b, part


def _dask(client: Any, fn: Callable, items: list, seeds: list | None, bounds: list[tuple[int, int]]):
    from distributed import as_completed

    futures = {client.submit(_run_chunk, fn, *_slices(items, seeds, a, b), pure=False): (a, b) for a, b in bounds}
    try:
        for fut in as_completed(list(futures), loop=client.loop):
            a, b = futures[fut]
            yield a, b, fut.result()
    finally:
        for fut in futures:
            fut.cancel()


# --- Dask clusters ------------------------------------------------------------------------------------------------

_clients: dict[str, Any] = {}
_connect_timeout = "20s"
_lock = threading.Lock()


def resolve_cluster(cluster: Any) -> Any:
    """A ``distributed.Client`` for ``cluster``: a Client (returned as is), ``"tcp://host:port"`` (a running
    scheduler) or ``"local:N"`` (a local cluster of N worker processes on 127.0.0.1, started once per process and
    shut down at exit). Clients are cached by name."""
    try:
        import distributed
    except ImportError:
        raise LittlestoneError("the dask backend needs dask.distributed: pip install 'littlestone[dask]'") from None
    if isinstance(cluster, distributed.Client):
        return cluster
    if not isinstance(cluster, str) or not cluster.strip():
        raise LittlestoneError(f"cluster must be 'tcp://host:port', 'local:N' or a distributed.Client, "
                               f"not {cluster!r}")
    name = cluster.strip()
    with _lock:
        client = _clients.get(name)
        if client is not None and client.status == "running":
            return client
        if name.startswith("local:"):
            n = name.split(":", 1)[1]
            if not n.isdigit() or int(n) < 1:
                raise LittlestoneError(f"cluster 'local:N' needs a positive number of workers, not {name!r}")
            client = _start_local(int(n))
        elif name.startswith("tcp://"):
            try:
                client = distributed.Client(name, timeout=_connect_timeout, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise LittlestoneError(f"cannot reach the Dask scheduler at {name}: {exc}") from None
        else:
            raise LittlestoneError(f"cluster must be 'tcp://host:port' or 'local:N', not {name!r}")
        _clients[name] = client
        return client


def _start_local(n_workers: int) -> Any:
    import distributed

    cluster = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR)
    return distributed.Client(cluster, set_as_default=False)


def close_clusters() -> None:
    """Close every client (and local cluster) this module opened."""
    with _lock:
        clients = list(_clients.values())
        _clients.clear()
    for client in clients:
        cluster = getattr(client, "cluster", None)
        try:
            client.close()
            if cluster is not None:
                cluster.close()
        except Exception:  # noqa: BLE001 - shutting down: nothing useful to do with a failure here
            pass


atexit.register(close_clusters)
