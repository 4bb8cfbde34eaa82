"""The one parallel runner: independent tasks, seeded by task index, results in task order.

>>> from littlestone.parallel import map_seeded
>>> def draw(item, seed):
...     import numpy as np
...     return item + int(np.random.default_rng(seed).integers(10))
>>> map_seeded(draw, [0, 100, 200], seed=1) == map_seeded(draw, [0, 100, 200], seed=1, backend="sequential")
True

Task ``i`` receives the ``i``-th child of ``SeedSequence(seed).spawn(len(items))`` — never a per-worker seed — so the
same seed gives the same list whatever the backend, the number of workers or the chunking. Tasks are sent in
contiguous chunks (a few per worker) so that the per-task overhead of pickling and scheduling stays small; the fork
backend's chunks shrink towards the end (guided scheduling) so that the workers finish together.

Backends:

* ``"sequential"`` — in this process (the default when ``n_jobs == 1`` and no cluster is named);
* ``"fork"`` — worker processes forked from this one at the call (the default when ``n_jobs != 1`` on Linux; ``n_jobs=-1``
  = all cores). The workers inherit everything this process has imported, compiled and built — NumPy, Numba kernels,
  ``fn`` and the items themselves — so they start in milliseconds and nothing but results is pickled. This process is
  one of the ``n_jobs`` workers: it runs chunks too, so whatever a task loads (a compiled kernel) stays loaded for the
  next call's workers. A worker that dies has its chunks re-run by a fresh one. Workers ignore Ctrl-C; the caller
  stops them. Forking is safe only when no other thread can hold a lock the workers need, so the default falls back
  to ``"loky"`` when a thread other than the CLI's progress display is alive (e.g. a Dask client or a loky executor
  in this process); naming ``backend="fork"`` forks anyway;
* ``"loky"`` — joblib's process pool on this machine (spawned workers that import what they need; the default where
  fork is not, e.g. macOS and Windows);
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
import pickle
import signal
import sys
import threading
import warnings
from contextvars import ContextVar
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from . import _progress
from ._random import ChildSeeds, SeedLike
from .errors import LittlestoneError

__all__ = ["BACKENDS", "CLUSTER_ENV", "map_seeded", "map_ordered", "using_cluster", "resolve_cluster", "close_clusters"]

BACKENDS = ("sequential", "fork", "loky", "dask")
#: environment variable naming the Dask cluster used when no ``cluster`` argument is given
CLUSTER_ENV = "LITTLESTONE_CLUSTER"
#: chunks per worker (load balance vs. per-chunk overhead)
CHUNKS_PER_WORKER = 4
#: at most this many chunks when only progress asks for splitting (sequential backend)
PROGRESS_CHUNKS = 100
#: the fork backend runs task 0 in the calling process before forking when there are at least this many tasks
#: (one task is then a small part of the work), so that what it imports or compiles (a Numba kernel, a scikit-learn
#: module) is loaded once and inherited instead of once per worker
WARMUP_MIN_TASKS = 64


def map_seeded(
    fn: Callable[[Any, np.random.SeedSequence], Any],
    items: Iterable[Any],
    *,
    seed: SeedLike,
    n_jobs: int = 1,
    backend: str | None = None,
    cluster: Any = None,
    progress: Any = None,
    chunksize: int | None = None,
) -> list:
    """``[fn(item, child_seed_i) for i, item in enumerate(items)]``, run on the chosen backend.

    ``child_seed_i`` is the i-th child SeedSequence spawned from ``seed`` (an int, a SeedSequence — its earlier
    spawns do not matter —, a Generator, from which one integer is drawn, or None for fresh entropy).
    ``fn`` must be picklable (a top-level function or a ``functools.partial`` of one) for the process backends.
    """
    items = list(items)
    seeds = ChildSeeds(seed, len(items))  # made lazily, chunk by chunk, where the chunk runs
    return _run(
        fn, items, seeds, n_jobs=n_jobs, backend=backend, cluster=cluster, progress=progress, chunksize=chunksize
    )


def map_ordered(
    fn: Callable[[Any], Any],
    items: Iterable[Any],
    *,
    n_jobs: int = 1,
    backend: str | None = None,
    cluster: Any = None,
    progress: Any = None,
    chunksize: int | None = None,
    units: Sequence[int] | None = None,
) -> list:
    """``[fn(item) for item in items]`` on the chosen backend, for work that needs no randomness (or carries its own
    seeds in ``items``). ``units``: what each item counts for in the progress reports (default 1 each; 0 leaves an
    item out of the count, e.g. a picture drawn alongside the units a stage names)."""
    items = list(items)
    return _run(
        fn,
        items,
        None,
        n_jobs=n_jobs,
        backend=backend,
        cluster=cluster,
        progress=progress,
        chunksize=chunksize,
        units=units,
    )


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


def _run_chunk(
    fn: Callable, items: Sequence[Any], seeds: Sequence[np.random.SeedSequence] | None, nested_sequential: bool = True
) -> list:
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
        backend = "dask" if cluster is not None else ("sequential" if n_jobs == 1 else _local_default())
    if backend == "fork" and not hasattr(os, "fork"):
        backend = "loky"  # no fork on this platform: the same results from spawned workers
    if backend == "dask" and cluster is None:
        raise LittlestoneError(
            f"the dask backend needs a cluster: pass cluster='tcp://host:8786' or 'local:N', or set {CLUSTER_ENV}"
        )
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


def _guided(total: int, workers: int) -> list[tuple[int, int]]:
    """Chunks of decreasing size (guided scheduling): each is a quarter of an even share of what is left, down to a
    floor of 1/(16 · CHUNKS_PER_WORKER) of an even share of the whole, so the workers run out of work within a small
    chunk of each other — equal chunks leave one worker idle for up to a whole chunk at the end, and a worker's queued
    chunk, sized when it was sent, must stay small against what is left when it starts (BLM20 d = 3: the two
    processes finish within 0.3 s of 21.8 s). The results do not depend on it (seeds go by task index)."""
    if total == 0:
        return []
    floor = max(1, -(-total // (16 * CHUNKS_PER_WORKER * workers)))
    bounds, a = [], 0
    while a < total:
        b = min(total, a + max(floor, -(-(total - a) // (4 * workers))))
        bounds.append((a, b))
        a = b
    return bounds


def _reporter(progress: Any, total: int) -> Callable[[int], None]:
    if progress is None:
        return lambda done: None
    if isinstance(progress, str):
        return lambda done: _progress.report(progress, done, total)
    if callable(progress):
        return lambda done: progress(done, total)
    raise LittlestoneError(f"progress must be a stage name, a callable(done, total) or None, not {progress!r}")


# --- the runner ---------------------------------------------------------------------------------------------------


def _run(
    fn: Callable,
    items: list,
    seeds: Sequence[Any] | None,
    *,
    n_jobs: int,
    backend: str | None,
    cluster: Any,
    progress: Any,
    chunksize: int | None,
    units: Sequence[int] | None = None,
) -> list:
    if not callable(fn):
        raise LittlestoneError(f"fn must be callable, not {fn!r}")
    n_jobs = _check_jobs(n_jobs)
    backend, cluster = _choose_backend(backend, n_jobs, cluster)
    total = len(items)
    weight = [1] * total if units is None else [int(u) for u in units]
    if len(weight) != total or any(u < 0 for u in weight):
        raise LittlestoneError(f"units must give a count ≥ 0 for each of the {total} items, got {units!r}")
    report = _reporter(progress, sum(weight))
    wants_progress = progress is not None and (not isinstance(progress, str) or _progress.active())
    if backend == "sequential":
        n_chunks = PROGRESS_CHUNKS if wants_progress else 1
        parts: Iterator[tuple[int, int, list]] = _sequential(fn, items, seeds, _chunks(total, n_chunks, chunksize))
    elif backend == "fork":
        workers = min(_workers(n_jobs), max(1, total))
        bounds = _chunks(total, CHUNKS_PER_WORKER * workers, chunksize) if chunksize else _guided(total, workers)
        warm = workers > 1 and total >= WARMUP_MIN_TASKS and chunksize is None
        if warm:  # task 0 alone first, in this process, so that the workers inherit what it loads
            bounds = [(0, 1)] + [(a + 1, b + 1) for a, b in _guided(total - 1, workers)]
        parts = _forked(fn, items, seeds, bounds, workers, warm)
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
        done += sum(weight[a:b])
        report(done)
    return results


def _slices(items: list, seeds: Sequence[Any] | None, a: int, b: int) -> tuple[list, Sequence[Any] | None]:
    return items[a:b], None if seeds is None else seeds[a:b]


def _sequential(
    fn: Callable,
    items: list,
    seeds: Sequence[Any] | None,
    bounds: list[tuple[int, int]],
    nested_sequential: bool = False,
):
    """The chunks run here, in order; ``nested_sequential``: runner calls inside a task run sequentially too."""
    for a, b in bounds:
        yield a, b, _run_chunk(fn, *_slices(items, seeds, a, b), nested_sequential=nested_sequential)


# --- forked workers -----------------------------------------------------------------------------------------------

#: threads that may be alive when the default backend forks: the CLI's progress displays, which only draw to the
#: terminal (a forked worker never writes there: its stdout and stderr are fresh objects, its progress silenced)
_BENIGN_THREADS = ("littlestone-progress",)
_BENIGN_THREAD_TYPES = ("_RefreshThread",)  # rich.live's refresh thread
#: a chunk whose worker died this many times is not tried again
_MAX_LOSSES = 3


def _local_default() -> str:
    """``"fork"`` on Linux when no thread but the main one and the progress displays is alive, else ``"loky"``."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return "loky"
    me = threading.current_thread()
    for t in threading.enumerate():
        if t is me or t is threading.main_thread() and not t.is_alive():
            continue
        if t.name not in _BENIGN_THREADS and type(t).__name__ not in _BENIGN_THREAD_TYPES:
            return "loky"
    return "fork"


def _worker_main(
    conn: Any, fn: Callable, items: list, seeds: Sequence[Any] | None, bounds: list[tuple[int, int]], callers_ends: list
) -> None:
    """A forked worker: runs the chunks named on ``conn`` (None = stop) and sends back ``(index, ok, value)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the caller, who stops us
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    for end in callers_ends:  # the caller's ends of every worker's pipe: when the caller dies, recv() ends
        end.close()
    # locks held at the fork by another thread (a progress display writing to stderr) are never released here:
    # fresh stdio objects, no progress listener, one thread per BLAS/OpenMP pool
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - lives as long as this process
    sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
    if "threadpoolctl" in sys.modules:
        sys.modules["threadpoolctl"].threadpool_limits(1)
    with _progress.listening(None):
        while True:
            try:
                i = conn.recv()
            except (EOFError, OSError):
                return
            if i is None:
                return
            a, b = bounds[i]
            msg: tuple[int, bool, Any]
            try:
                msg = (i, True, _run_chunk(fn, *_slices(items, seeds, a, b)))
            except BaseException as exc:  # noqa: BLE001 - sent back to the caller, which raises it
                msg = (i, False, exc)
            try:
                data = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # noqa: BLE001 - an unpicklable result or exception
                data = pickle.dumps(
                    (
                        i,
                        False,
                        LittlestoneError(
                            f"tasks {a}..{b - 1}: their result could not be sent back from the worker process: {exc}"
                        ),
                    )
                )
            try:
                conn.send_bytes(data)
            except OSError:  # the caller is gone
                return


class _Worker:
    def __init__(
        self,
        ctx: Any,
        fn: Callable,
        items: list,
        seeds: Sequence[Any] | None,
        bounds: list[tuple[int, int]],
        others: list["_Worker"],
    ):
        self.conn, child = ctx.Pipe(duplex=True)
        ends = [self.conn, *(w.conn for w in others)]
        self.proc = ctx.Process(
            target=_worker_main, args=(child, fn, items, seeds, bounds, ends), daemon=True, name="littlestone-worker"
        )
        # SIGINT stays blocked from before the fork until the child ignores it: no Ctrl-C traceback from a worker
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            with warnings.catch_warnings():  # Python ≥ 3.12 warns of fork with threads: see _local_default
                warnings.filterwarnings("ignore", message=".*multi-threaded.*fork", category=DeprecationWarning)
                self.proc.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        child.close()
        self.queued: list[int] = []  # chunks sent and not yet answered, oldest first

    def send(self, i: int) -> None:
        self.conn.send(i)
        self.queued.append(i)

    def stop(self, wait: float) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)
        self.proc.join(wait)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(1.0)
        self.conn.close()


def _forked(
    fn: Callable,
    items: list,
    seeds: Sequence[Any] | None,
    bounds: list[tuple[int, int]],
    workers: int,
    warm: bool = False,
):
    """Chunks on ``workers - 1`` forked processes and this one (which runs chunk 0 before forking when ``warm``).
    Each worker keeps two chunks queued so it never waits for this process (busy with a chunk of its own) to hand
    out the next; everyone takes chunks in order, so with guided chunks (:func:`_guided`, largest first) a chunk this
    process runs is never longer than a worker's queue; results are yielded as they arrive."""
    import multiprocessing
    from multiprocessing.connection import wait

    if not bounds:
        return
    if warm:
        a, b = bounds[0]
        yield a, b, _run_chunk(fn, *_slices(items, seeds, a, b))
        yield from _forked(fn, items, seeds, bounds[1:], workers)
        return
    if workers < 2 or len(bounds) < 2:
        yield from _sequential(fn, items, seeds, bounds, nested_sequential=True)
        return
    ctx = multiprocessing.get_context("fork")
    pending = list(range(len(bounds)))  # chunk indices nobody runs yet, in order
    losses = [0] * len(bounds)
    pool: list[_Worker] = []
    ok = False
    try:
        for _ in range(min(workers - 1, len(bounds) - 1)):
            pool.append(_Worker(ctx, fn, items, seeds, bounds, pool))
        remaining = len(bounds)

        def top_up(w: _Worker) -> None:
            # a second chunk in advance only when there are enough to go round (this process takes one too)
            while pending and len(w.queued) < (2 if len(pending) >= 2 * workers else 1):
                w.send(pending.pop(0))

        for w in pool:
            top_up(w)
        while remaining:
            by_conn = {w.conn: w for w in pool}
            by_sentinel = {w.proc.sentinel: w for w in pool}
            # this process runs a chunk when it has one and no answer is waiting; else it waits for an answer
            # (waking twice a second while idle: a Ctrl-C delivered to another thread of this process still reaches
            # the main thread's handler at once instead of after the next answer — issue 26 item 5)
            ready = wait([*by_conn, *by_sentinel], timeout=0 if pending else 0.5)
            if not ready and pending:
                i = pending.pop(0)  # in order: a chunk queued to a worker is never smaller than the next one here
                a, b = bounds[i]
                yield a, b, _run_chunk(fn, *_slices(items, seeds, a, b))
                remaining -= 1
                continue
            for r in ready:
                w = by_conn.get(r) or by_sentinel[r]
                if w not in pool:
                    continue
                while w.conn.poll():
                    try:
                        i, good, value = w.conn.recv()
                    except (EOFError, OSError):
                        break
                    w.queued.remove(i)
                    if not good:
                        raise value
                    a, b = bounds[i]
                    yield a, b, value
                    remaining -= 1
                if not w.proc.is_alive():  # everything it finished was read above
                    w.proc.join(1.0)
                    pool.remove(w)
                    for i in w.queued:  # lost with the worker: run again, by a fresh one
                        losses[i] += 1
                        if losses[i] >= _MAX_LOSSES:
                            a, b = bounds[i]
                            raise LittlestoneError(
                                f"a worker process died {losses[i]} times running tasks "
                                f"{a}..{b - 1} (exit code {w.proc.exitcode})"
                            )
                    pending[:0] = w.queued
                    w.conn.close()
                    if pending:
                        pool.append(_Worker(ctx, fn, items, seeds, bounds, pool))
            for w in pool:
                top_up(w)
        ok = True
    finally:
        for w in pool:
            w.stop(5.0 if ok else 0.0)


def _loky(fn: Callable, items: list, seeds: Sequence[Any] | None, bounds: list[tuple[int, int]], workers: int):
    from joblib import Parallel, delayed

    if not bounds:
        return
    # joblib reuses its loky executor between calls, so workers start once per process; results come back in
    # submission order as they finish
    out = Parallel(n_jobs=workers, backend="loky", return_as="generator")(
        delayed(_run_chunk)(fn, *_slices(items, seeds, a, b)) for a, b in bounds
    )
    for (a, b), part in zip(bounds, out):
        yield a, b, part


def _dask(client: Any, fn: Callable, items: list, seeds: Sequence[Any] | None, bounds: list[tuple[int, int]]):
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
        raise LittlestoneError(f"cluster must be 'tcp://host:port', 'local:N' or a distributed.Client, not {cluster!r}")
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

    cluster = distributed.LocalCluster(
        n_workers=n_workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
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
