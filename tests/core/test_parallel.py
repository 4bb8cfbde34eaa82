"""littlestone.parallel: same seed ⇒ same results on every backend (sequential, loky with 1 and 2 jobs, a real Dask
LocalCluster of worker processes on 127.0.0.1), task order kept, progress reported, and a worker killed mid-run
changes nothing."""

from __future__ import annotations

import os
import signal
import sys
import time
from functools import partial

import cloudpickle
import numpy as np
import pytest

from littlestone import _progress
from littlestone.errors import LittlestoneError
from littlestone.parallel import CLUSTER_ENV, close_clusters, map_ordered, map_seeded, using_cluster

distributed = pytest.importorskip("distributed")

# the workers need no copy of this test module: its functions travel by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def draw(item: int, seed: np.random.SeedSequence) -> tuple[int, list[int]]:
    rng = np.random.default_rng(seed)
    return item, rng.integers(0, 2**62, size=3).tolist()


def slow_draw(pause: float, item: int, seed: np.random.SeedSequence) -> tuple[int, list[int]]:
    time.sleep(pause)
    return draw(item, seed)


def square(item: int) -> int:
    return item * item


def nested(item: int, seed: np.random.SeedSequence) -> list:
    """A task that itself maps (runs sequentially inside a worker): its result depends only on its seed."""
    return map_seeded(draw, range(3), seed=seed, n_jobs=2)


def fails_at_five(item: int) -> int:
    if item == 5:
        raise KeyError("task five")
    return item


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    c = distributed.Client(cluster, set_as_default=False)
    yield c
    close_clusters()  # clients this module's tests opened by address, before their scheduler goes
    c.close()
    cluster.close()


def expected(items, seed):
    children = np.random.SeedSequence(seed).spawn(len(items))
    return [draw(i, s) for i, s in zip(items, children)]


def test_child_seeds_go_by_task_index():
    items = list(range(23))
    assert map_seeded(draw, items, seed=11) == expected(items, 11)


def test_same_seed_same_results_sequential_loky_and_dask(client):
    items = list(range(37))
    want = expected(items, 2024)
    runs = {
        "sequential": map_seeded(draw, items, seed=2024, backend="sequential"),
        "loky 1 job": map_seeded(draw, items, seed=2024, backend="loky", n_jobs=1),
        "loky 2 jobs": map_seeded(draw, items, seed=2024, backend="loky", n_jobs=2),
        "loky 2 jobs, chunks of 1": map_seeded(draw, items, seed=2024, backend="loky", n_jobs=2, chunksize=1),
        "fork 1 job": map_seeded(draw, items, seed=2024, backend="fork", n_jobs=1),
        "fork 2 jobs": map_seeded(draw, items, seed=2024, backend="fork", n_jobs=2),
        "fork 3 jobs, chunks of 1": map_seeded(draw, items, seed=2024, backend="fork", n_jobs=3, chunksize=1),
        "fork 2 jobs, task 0 first": map_seeded(draw, list(range(100)), seed=2024, backend="fork", n_jobs=2)[:37],
        "dask": map_seeded(draw, items, seed=2024, cluster=client),
        "dask, chunks of 5": map_seeded(draw, items, seed=2024, backend="dask", cluster=client, chunksize=5),
    }
    for name, got in runs.items():
        assert got == want, name


def test_dask_cluster_named_by_address_and_environment(client, monkeypatch):
    items = list(range(9))
    address = client.scheduler.address
    assert address.startswith("tcp://127.0.0.1:")
    assert map_seeded(draw, items, seed=5, cluster=address) == expected(items, 5)
    monkeypatch.setenv(CLUSTER_ENV, address)
    assert map_seeded(draw, items, seed=5) == expected(items, 5)  # the environment makes dask the default
    assert map_seeded(draw, items, seed=5, backend="sequential") == expected(items, 5)
    monkeypatch.delenv(CLUSTER_ENV)
    with using_cluster(address):
        assert map_ordered(square, range(6)) == [0, 1, 4, 9, 16, 25]


def test_worker_killed_mid_run_same_result(client):
    items = list(range(40))
    pids = client.run(os.getpid)
    assert len(pids) == 2
    killed: list[int] = []

    def kill_one(done: int, total: int) -> None:
        if 0 < done < total and not killed:
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    got = map_seeded(partial(slow_draw, 0.05), items, seed=99, cluster=client, chunksize=2, progress=kill_one)
    assert killed, "no worker was killed before the end of the run"
    assert got == expected(items, 99)
    client.wait_for_workers(2, timeout=60)  # the nanny restarts the worker
    assert killed[0] not in client.run(os.getpid).values()


def test_seed_sequence_and_generator_seeds():
    ss = np.random.SeedSequence(8)
    ss.spawn(3)  # earlier spawns do not matter
    assert map_seeded(draw, range(4), seed=ss) == expected(range(4), 8)
    a = map_seeded(draw, range(4), seed=np.random.default_rng(1))
    assert a == map_seeded(draw, range(4), seed=np.random.default_rng(1), n_jobs=2)


def test_results_in_task_order_and_progress_reported():
    seen = []
    with _progress.listening(lambda *r: seen.append(r)):
        got = map_ordered(square, range(50), n_jobs=2, progress="squares")
    assert got == [i * i for i in range(50)]
    done = [d for s, d, t in seen if s == "squares"]
    assert done[0] == 0 and done[-1] == 50 and done == sorted(done) and len(done) > 2
    calls = []
    map_seeded(draw, range(10), seed=0, progress=lambda d, t: calls.append((d, t)), chunksize=3)
    assert calls[0] == (0, 10) and calls[-1] == (10, 10) and len(calls) == 1 + 4  # ⌈10 / 3⌉ chunks


def test_progress_counts_units():
    """``units``: an item counts for its units (0: left out of the count, as the demo's tree beside its splits)."""
    calls = []
    got = map_ordered(square, range(5), progress=lambda d, t: calls.append((d, t)), chunksize=1, units=[0, 1, 1, 2, 1])
    assert got == [i * i for i in range(5)]
    assert calls == [(0, 5), (0, 5), (1, 5), (2, 5), (4, 5), (5, 5)]


def test_nested_calls_run_sequentially_inside_tasks(client):
    want = map_seeded(nested, range(4), seed=3)
    assert map_seeded(nested, range(4), seed=3, n_jobs=2, backend="fork") == want
    assert map_seeded(nested, range(4), seed=3, n_jobs=2, backend="loky") == want
    assert map_seeded(nested, range(4), seed=3, cluster=client) == want


def test_task_errors_come_back_unchanged(client):
    for kwargs in ({}, {"n_jobs": 2, "backend": "fork"}, {"n_jobs": 2, "backend": "loky"}, {"cluster": client}):
        with pytest.raises(KeyError, match="task five"):
            map_ordered(fails_at_five, range(8), **kwargs)


def test_empty_input():
    assert map_seeded(draw, [], seed=0, n_jobs=2) == []
    assert map_ordered(square, []) == []


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_jobs": 0}, "n_jobs"),
        ({"n_jobs": -3}, "n_jobs"),
        ({"n_jobs": True}, "n_jobs"),
        ({"backend": "threads"}, "backend"),
        ({"backend": "dask"}, "needs a cluster"),
        ({"backend": "loky", "cluster": "local:2"}, "only used by the dask backend"),
        ({"cluster": "local:0"}, "positive number of workers"),
        ({"cluster": "udp://x"}, "tcp://host:port"),
        ({"chunksize": 0}, "chunksize"),
        ({"progress": 3}, "progress"),
        ({"units": [1, 1]}, "units"),
        ({"units": [1, -1, 1]}, "units"),
    ],
)
def test_bad_arguments_named(kwargs, message, monkeypatch):
    monkeypatch.delenv(CLUSTER_ENV, raising=False)
    with pytest.raises(LittlestoneError, match=message):
        map_ordered(square, range(3), **kwargs)


def test_unreachable_scheduler_is_a_clear_error(monkeypatch):
    monkeypatch.setattr("littlestone.parallel._connect_timeout", "1s")
    with pytest.raises(LittlestoneError, match="cannot reach the Dask scheduler"):
        map_ordered(square, range(3), cluster="tcp://127.0.0.1:9")


# --- the fork backend ---------------------------------------------------------------------------------------------


def _forked_workers() -> list:
    import multiprocessing

    return [p for p in multiprocessing.active_children() if p.name == "littlestone-worker"]


def test_fork_worker_killed_mid_run_same_result():
    items = list(range(40))
    killed: list[int] = []

    def kill_one(done: int, total: int) -> None:
        workers = _forked_workers()
        if 0 < done < total and not killed and workers:
            os.kill(workers[0].pid, signal.SIGKILL)
            killed.append(workers[0].pid)

    got = map_seeded(partial(slow_draw, 0.02), items, seed=99, backend="fork", n_jobs=3, chunksize=2, progress=kill_one)
    assert killed, "no worker was killed before the end of the run"
    assert got == expected(items, 99)
    assert not _forked_workers()  # every worker stopped at the end


def kill_self_in_worker(parent: int, item: int) -> int:
    if item == 0 and os.getpid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.02)
    return item


def test_fork_task_that_kills_every_worker_is_a_clear_error():
    with pytest.raises(LittlestoneError, match="died 3 times running tasks 0..0"):
        map_ordered(partial(kill_self_in_worker, os.getpid()), range(40), backend="fork", n_jobs=2, chunksize=1)
    assert not _forked_workers()


def where_and_what(module: str, item: int) -> tuple[int, int, int]:
    """(pid of the process running the task, pid of the process that executed ``module``'s body, number of Numba
    signatures of a BLM20 kernel compiled or loaded before this task calls it)."""
    import importlib

    from littlestone.pac import _kernels

    loaded = len(_kernels.soa_threshold.overloads)
    _kernels.soa_threshold(0, 5, 6)
    return os.getpid(), importlib.import_module(module).IMPORTED_BY, loaded


def test_fork_workers_inherit_imports_and_compiled_kernels(tmp_path, monkeypatch):
    """Start-up overhead of the fork backend: a worker neither imports again what the caller (or the task the caller
    runs before forking) imported, nor loads or compiles a Numba kernel again."""
    (tmp_path / "ls_marker_module.py").write_text("import os\nIMPORTED_BY = os.getpid()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "ls_marker_module", raising=False)
    got = map_ordered(partial(where_and_what, "ls_marker_module"), range(80), backend="fork", n_jobs=2)
    me = os.getpid()
    assert {pid for pid, _, _ in got} - {me}, "no task ran in a forked worker"
    assert got[0] == (me, me, got[0][2])  # task 0 ran here first: it imported the module and loaded the kernel
    assert all(by == me for _, by, _ in got), "a worker imported the module again"
    assert all(loaded >= 1 for pid, _, loaded in got[1:]), "a worker loaded or compiled the kernel again"


def test_default_local_backend_is_fork_unless_another_thread_runs(monkeypatch):
    import threading

    from littlestone import parallel

    if not sys.platform.startswith("linux"):
        assert parallel._local_default() == "loky"
        return
    monkeypatch.setattr(threading, "enumerate", lambda: [threading.main_thread()])
    assert parallel._local_default() == "fork"
    other = threading.Thread(target=lambda: None, name="some-client-loop")
    monkeypatch.setattr(threading, "enumerate", lambda: [threading.main_thread(), other])
    assert parallel._local_default() == "loky"
    progress = threading.Thread(target=lambda: None, name="littlestone-progress")
    monkeypatch.setattr(threading, "enumerate", lambda: [threading.main_thread(), progress])
    assert parallel._local_default() == "fork"


def unpicklable_result(item: int):
    time.sleep(0.02)
    return lambda: item


def test_fork_unpicklable_result_is_a_clear_error():
    with pytest.raises(LittlestoneError, match="could not be sent back from the worker process"):
        map_ordered(unpicklable_result, range(8), backend="fork", n_jobs=2, chunksize=1)
    assert not _forked_workers()


@pytest.mark.parametrize("seed", [0, 12345, np.random.SeedSequence(3, spawn_key=(2, 7)), "generator"])
def test_child_seeds_are_spawn_seeds_made_lazily(seed):
    """The runner's lazy children (made where a chunk runs) are exactly ``spawn_seeds``'s, in any slice, pickled."""
    import pickle

    from littlestone._random import ChildSeeds, spawn_seeds

    def fresh():
        return np.random.default_rng(9) if seed == "generator" else seed

    eager, lazy = spawn_seeds(fresh(), 40), ChildSeeds(fresh(), 40)
    assert len(lazy) == 40
    states = [s.generate_state(4).tolist() for s in eager]
    assert [s.generate_state(4).tolist() for s in lazy] == states
    assert [s.spawn_key for s in lazy] == [s.spawn_key for s in eager]
    part = pickle.loads(pickle.dumps(lazy[5:31][::3]))
    assert [s.generate_state(4).tolist() for s in part] == states[5:31][::3]
    assert lazy[-1].generate_state(4).tolist() == states[-1]
    with pytest.raises(IndexError):
        lazy[40]


@pytest.mark.parametrize("total,workers", [(0, 2), (1, 2), (20, 2), (12578, 2), (100_000, 8), (7, 3)])
def test_guided_chunks_cover_the_tasks_largest_first(total, workers):
    """The fork backend's chunks tile 0..total in order, never grow, and end within a small floor of each other."""
    from littlestone.parallel import CHUNKS_PER_WORKER, _guided

    bounds = _guided(total, workers)
    if total == 0:
        assert bounds == []
        return
    assert [a for a, _ in bounds] == [0, *(b for _, b in bounds[:-1])]
    assert bounds[-1][1] == total
    sizes = [b - a for a, b in bounds]
    assert all(s > 0 for s in sizes) and sizes == sorted(sizes, reverse=True)
    assert sizes[-2 if len(sizes) > 1 else -1] <= max(1, -(-total // (16 * CHUNKS_PER_WORKER * workers)))
    assert len(bounds) <= 4 * workers * 16 * CHUNKS_PER_WORKER
