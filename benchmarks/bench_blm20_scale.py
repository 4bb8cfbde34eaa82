"""BLM20 learner M at Theorem 1's size for d = 4 (or any d) on the Dask backend, resumable, with a projection.

Stage 1 (G on k batches — all the work) runs through ``littlestone.parallel.map_ordered`` on a Dask cluster
(``--cluster local:N`` starts N single-threaded worker processes on 127.0.0.1; ``tcp://host:8786`` uses a running
scheduler) in checkpoints of ``--chunk`` batches, each saved atomically under ``--state``: rerunning the same command
resumes after the last saved checkpoint. Batch i uses the seed ``blm20_learn`` gives it (the i-th child of its G seed),
so the runs are exactly those of one uninterrupted ``blm20_learn`` call. Stages 2–3 (stable histogram, generic
learner) are then ``blm20_learn`` itself, fed the saved runs (its stage-1 call is answered from the checkpoints after
checking it asks for exactly these batches and seed).

Reported: the chosen hypothesis and its exact error on the uniform distribution (fresh data: the loss under D),
wall time, examples read by G, per-worker throughput (examples per CPU second, from each task's own CPU clock), peak
RSS per worker, and a projection of wall time for d = 4, 5 on 8, 64, 512 workers.

The same resumable stage 1 is a library feature — ``blm20_learn(..., checkpoint=DIR)`` / ``littlestone learn -l blm20
--checkpoint DIR`` (littlestone.pac.checkpoint, docs/cli.md "Theorem-size BLM20 runs on your own cluster") — whose
task function workers of an external cluster can import; this script's ``run_task`` additionally measures CPU, pid
and RSS per task, and imports only where this file is on the workers' path (``--cluster local:N``).

Usage: .venv/bin/python benchmarks/bench_blm20_scale.py --d 4 --cluster local:2 [--state DIR] [--chunk 2000]
Writes benchmarks/results/blm20_scale.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ALPHA, EPS, DELTA, BETA, SEED = 0.1, 1.0, 1e-6, 0.05, 2026


def setup(d: int):
    from littlestone import Thresholds
    from littlestone.bounds.blm20 import theorem1
    from littlestone.pac.sources import RealizableStream, UniformIntegers

    npts = 2 ** (d + 1) - 2  # the largest threshold class of Ldim d
    H = Thresholds(npts)
    target = npts // 2 + 1
    rep = theorem1(d, ALPHA, EPS, DELTA, BETA)
    src = RealizableStream(H.hypothesis(target), UniformIntegers(0, npts), rep.total, seed=SEED)
    return H, target, npts, rep, src


def g_seed_of(seed: int) -> int:
    """The G seed ``blm20_learn`` derives from its seed (first draw of its generator)."""
    from littlestone._random import as_generator

    return int(as_generator(seed).integers(0, 2**63 - 1))


def run_task(item: tuple) -> tuple:
    """One G run on batch i (seed: child i of the G seed), with this task's CPU time, worker pid and peak RSS."""
    d, i, g_seed = item
    H, _, _, rep, src = _cached_setup(d)
    G = _SETUP[d, "G"]
    m = G.m
    t0 = time.process_time()
    r = G.run(src, i * m, (i + 1) * m, np.random.SeedSequence(g_seed, spawn_key=(i,)))
    cpu = time.process_time() - t0
    return r, cpu, os.getpid(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


_SETUP: dict = {}


def learner(H, d: int):
    """G exactly as ``blm20_learn`` builds it (sizes from ``plan_sizes``)."""
    from littlestone.pac.blm20 import plan_sizes
    from littlestone.pac.global_stable import GlobalStableLearner

    sizes = plan_sizes(d, epsilon=EPS, delta=DELTA, alpha=ALPHA, beta=BETA)
    return GlobalStableLearner(H, ALPHA / 2.0, d=d, n=sizes.aux_size, cap=sizes.cap), sizes.n_batches


def _cached_setup(d: int):
    """Per worker process, once: the class, the stream (its block cache then serves consecutive batches) and G."""
    if d not in _SETUP:
        _SETUP[d] = setup(d)
        _SETUP[d, "G"] = learner(_SETUP[d][0], d)[0]
    return _SETUP[d]


def save_chunk(path: Path, H, j: int, first: int, out: list, G) -> None:
    """One chunk of task results as JSON (no pickle: the G runs in littlestone.pac.checkpoint's chunk encoding, then
    each task's CPU seconds, worker pid and peak RSS), written atomically."""
    from littlestone.io import atomic_write_text
    from littlestone.pac.checkpoint import encode_chunk

    runs = json.loads(encode_chunk(H, j, first, [r for r, *_ in out]))
    cpu, pid, rss = ([float(t[i]) if i != 2 else int(t[i]) for t in out] for i in (1, 2, 3))
    atomic_write_text(path, json.dumps({"runs": runs, "cpu": cpu, "pid": pid, "rss": rss}) + "\n")


def load_chunk(path: Path, H, j: int, first: int, stop: int, G) -> list:
    """The (G run, CPU s, pid, RSS) tuples of a chunk saved by :func:`save_chunk` (plain JSON, checked)."""
    from littlestone.pac.checkpoint import decode_chunk

    obj = json.loads(path.read_text())
    runs = decode_chunk(json.dumps(obj["runs"]).encode(), H, j, first, stop - first, G.d, G.m)
    cpu, pid, rss = obj["cpu"], obj["pid"], obj["rss"]
    if not all(isinstance(v, list) and len(v) == len(runs) for v in (cpu, pid, rss)):
        raise ValueError(f"{path}: not a chunk of this benchmark")
    return [(r, float(c), int(p), float(m)) for r, c, p, m in zip(runs, cpu, pid, rss)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--d", type=int, default=4)
    ap.add_argument("--cluster", default="local:2")
    ap.add_argument("--state", default=None, help="checkpoint directory (default: .blm20_d<d>_state here)")
    ap.add_argument("--chunk", type=int, default=2000, help="batches per checkpoint")
    ap.add_argument("--max-chunks", type=int, default=None, help="stop after this many new checkpoints")
    args = ap.parse_args()
    from littlestone import parallel
    from littlestone.pac import blm20 as blm20_mod
    from littlestone.pac.blm20 import blm20_learn

    d = args.d
    H, target, npts, rep, src = setup(d)
    G, k = learner(H, d)
    m = G.m
    g_seed = g_seed_of(SEED)
    state = Path(args.state or HERE / f".blm20_d{d}_state")
    state.mkdir(parents=True, exist_ok=True)
    if any(state.glob("chunk_*.pkl")):
        raise SystemExit(f"{state} holds pickled chunks of an older version of this script (never read): delete it")
    client = parallel.resolve_cluster(args.cluster)
    n_workers = len(client.scheduler_info()["workers"])
    chunks = [(a, min(a + args.chunk, k)) for a in range(0, k, args.chunk)]
    log = state / "log.jsonl"
    new = 0
    for j, (a, b) in enumerate(chunks):
        path = state / f"chunk_{j:05d}.json"
        if path.exists():
            continue
        if args.max_chunks is not None and new >= args.max_chunks:
            break
        t0 = time.perf_counter()
        # the task function by reference (this file imported as a module, on the workers' sys.path too), so each
        # worker keeps its setup between tasks
        import bench_blm20_scale as this

        out = parallel.map_ordered(this.run_task, [(d, i, g_seed) for i in range(a, b)], backend="dask", cluster=client)
        wall = time.perf_counter() - t0
        save_chunk(path, H, j, a, out, G)
        read = sum(r.examples_read for r, *_ in out)
        cpu = sum(c for _, c, *_ in out)
        with log.open("a") as f:
            f.write(
                json.dumps(
                    {
                        "chunk": j,
                        "batches": b - a,
                        "wall": wall,
                        "read": read,
                        "cpu": cpu,
                        "workers": n_workers,
                        "time": time.time(),
                    }
                )
                + "\n"
            )
        new += 1
        done = sum(1 for p in state.glob("chunk_*.json"))
        print(
            f"chunk {j + 1}/{len(chunks)} ({done} saved): {b - a} G runs, {read:,} examples in {wall:.1f} s wall "
            f"({read / max(cpu, 1e-9) / 1e6:.1f} M examples per CPU s)",
            flush=True,
        )
    if any(not (state / f"chunk_{j:05d}.json").exists() for j in range(len(chunks))):
        print("not finished: rerun the same command to resume")
        write_partial(d, k, m, rep, state, chunks, H, G)
        return 3

    # ---- all of stage 1 is saved: finish M with blm20_learn itself
    results = [x for j, (a, b) in enumerate(chunks) for x in load_chunk(state / f"chunk_{j:05d}.json", H, j, a, b, G)]
    runs = [r for r, *_ in results]

    def saved_runs(learner, source, batches, seed, **kw):
        spans = [(b.start, b.stop) for b in batches]  # blm20_learn hands G its batches' DataSplit readers
        assert seed == g_seed and spans == [(i * m, (i + 1) * m) for i in range(k)], "not the saved run"
        return runs

    original = blm20_mod.run_batches
    blm20_mod.run_batches = saved_runs
    try:
        t0 = time.perf_counter()
        res = blm20_learn(
            H, src, epsilon=EPS, delta=DELTA, alpha=ALPHA, beta=BETA, backend="seeded", seed=SEED, diagnostics=True
        )
        tail_wall = time.perf_counter() - t0
    finally:
        blm20_mod.run_batches = original
    X = np.arange(npts)
    loss = float(np.mean(res.chosen.predict(X) != (X >= target)))
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    wall = sum(e["wall"] for e in entries) + tail_wall
    per_pid: dict[int, list[float]] = {}
    for r, cpu, pid, rss in results:
        acc = per_pid.setdefault(pid, [0.0, 0.0, 0.0])
        acc[0] += r.examples_read
        acc[1] += cpu
        acc[2] = max(acc[2], rss)
    read = sum(r.examples_read for r in runs)
    cpu = sum(c for _, c, *_ in results)
    ns = cpu / read * 1e9
    summary = {
        "d": d,
        "n": rep.total,
        "k": k,
        "m": m,
        "read": read,
        "cpu": cpu,
        "ns_per_example": ns,
        "wall": wall,
        "chosen": repr(res.chosen),
        "loss": loss,
        "fail_rate": res.diagnostics["fail_rate"],
        "candidates": len(res.candidates),
        "per_worker": {str(p): v for p, v in per_pid.items()},
        "workers": entries[-1]["workers"],
        "chunks": len(entries),
        "chunk_walls": [e["wall"] for e in entries],
        "chunk_cpus": [e["cpu"] for e in entries],
    }
    (state / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps({k_: v for k_, v in summary.items() if k_ not in ("chunk_walls", "chunk_cpus")}, indent=1))
    write_report(summary)
    return 0


def write_partial(d: int, k: int, m: int, rep, state: Path, chunks: list, H, G) -> None:
    """Report what the saved checkpoints measured (the run has not completed): throughput and the projection."""
    saved = [j for j in range(len(chunks)) if (state / f"chunk_{j:05d}.json").exists()]
    entries = {e["chunk"]: e for e in map(json.loads, (state / "log.jsonl").read_text().splitlines())}
    results = [x for j in saved for x in load_chunk(state / f"chunk_{j:05d}.json", H, j, *chunks[j], G)]
    per_pid: dict[int, list[float]] = {}
    for r, cpu, pid, rss in results:
        acc = per_pid.setdefault(pid, [0.0, 0.0, 0.0])
        acc[0] += r.examples_read
        acc[1] += cpu
        acc[2] = max(acc[2], rss)
    read = sum(r.examples_read for r, *_ in results)
    cpu = sum(c for _, c, *_ in results)
    wall = sum(entries[j]["wall"] for j in saved if j in entries)
    s = {
        "d": d,
        "n": rep.total,
        "k": k,
        "m": m,
        "read": read,
        "cpu": cpu,
        "ns_per_example": cpu / read * 1e9,
        "wall": wall,
        "batches_done": len(results),
        "per_worker": {str(p): v for p, v in per_pid.items()},
        "workers": max(e["workers"] for e in entries.values()),
        "chunks": len(saved),
        "fails": sum(r.failed for r, *_ in results),
    }
    (state / "partial.json").write_text(json.dumps(s, indent=1))
    write_report(s, partial=True)


def write_report(s: dict, partial: bool = False) -> None:
    from littlestone.bounds.blm20 import theorem1

    done = s.get("batches_done", s["k"])
    read_frac = s["read"] / (done * s["m"])
    lines = [
        f"## BLM20 at d = {s['d']}, Theorem 1's size, on a Dask cluster (`benchmarks/bench_blm20_scale.py`)",
        "",
        f"`.venv/bin/python benchmarks/bench_blm20_scale.py --d {s['d']} --cluster local:{s['workers']}` — Python "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d', time.gmtime())}, a local Dask cluster of "
        f"{s['workers']} single-threaded worker processes on this 2-core machine (shared with other jobs). α = {ALPHA}, "
        f"ε = {EPS}, δ = {DELTA}, β = {BETA}; thresholds on {2 ** (s['d'] + 1) - 2} points (the largest threshold "
        "class of this Ldim), target in the middle, examples streamed (never materialized). Stage 1 ran in "
        f"{s['chunks']} resumable checkpoints; the error is exact under the data distribution (uniform points).",
        "",
    ]
    if partial:
        lines += [
            f"**Did not complete**: {done:,} of {s['k']:,} G batches ran ({s['chunks']} checkpoints) before the "
            "deadline; rerunning the command resumes from them. Measured so far:",
            "",
            "| n (Theorem 1) | k × m | batches done | read by G | G Fail rate (so far) | wall so far | CPU (all workers) "
            "| ns per example read | projected stage-1 wall on these workers |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
            f"| {s['n']:,} | {s['k']:,} × {s['m']:,} | {done:,} | {s['read']:,} | {s['fails'] / done:.3f} | "
            f"{fmt_t(s['wall'])} | {fmt_t(s['cpu'])} | {s['ns_per_example']:.1f} | "
            f"{fmt_t(s['wall'] * s['k'] / done)} |",
        ]
    else:
        lines += [
            "| n (Theorem 1) | k × m | read by G | G Fail rate | chosen | error | wall | CPU (all workers) | ns per example read |",
            "|---:|---:|---:|---:|---|---:|---:|---:|---:|",
            f"| {s['n']:,} | {s['k']:,} × {s['m']:,} | {s['read']:,} | {s['fail_rate']:.3f} | `{s['chosen']}` | "
            f"{s['loss']:.4f} | {s['wall'] / 60:.1f} min | {s['cpu'] / 60:.1f} min | {s['ns_per_example']:.1f} |",
        ]
    lines += [
        "",
        "Per worker (examples per CPU second of its tasks; peak RSS of the worker process):",
        "",
        "| worker pid | examples read | CPU s | M examples / CPU s | peak RSS (MiB) |",
        "|---|---:|---:|---:|---:|",
    ]
    for pid, (ex, cpu, rss) in s["per_worker"].items():
        lines.append(f"| {pid} | {ex:,.0f} | {cpu:,.0f} | {ex / cpu / 1e6:.1f} | {rss:.0f} |")
    eff = s["cpu"] / max(s["wall"], 1e-9) / s["workers"]
    lines += [
        "",
        f"Parallel efficiency in this run: CPU / (wall × workers) = {eff:.2f} (the machine was shared).",
        "",
        "Projection of stage-1 wall time from the measured cost per example read (assumes the fraction of "
        f"each batch G reads stays at this run's {read_frac:.3f}, every worker as fast as these, and ideal "
        "scaling up to k batches — tasks are whole G runs, so beyond k workers nothing more is split):",
        "",
        "| d | k batches | examples read (projected) | CPU | 8 workers | 64 workers | 512 workers |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for d in (4, 5):
        rep = theorem1(d, ALPHA, EPS, DELTA, BETA)
        kk, mm = rep["k"], rep["m"]
        reads = read_frac * kk * mm
        cpu = reads * s["ns_per_example"] / 1e9
        cells = [fmt_t(cpu / min(w, kk)) for w in (8, 64, 512)]
        lines.append(f"| {d} | {kk:,} | {reads:.2e} | {fmt_t(cpu)} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "What limits scaling: (1) the work is k independent G runs of ≤ m examples each, so k bounds the "
        "parallelism (83,853 at d = 4; 209,381 at d = 5) and one G run (≤ N examples, about "
        f"{s['m'] * read_frac * s['ns_per_example'] / 1e6:.0f} ms at d = {s['d']}) is the smallest unit; "
        "(2) scheduling: Dask's best-practices guide puts the scheduler's overhead at up to about 1 ms per "
        "task and advises ≥ 100 ms of work per task; `littlestone.parallel` sends each checkpoint as a few "
        "chunks per worker, so a checkpoint must hold enough G runs (`--chunk` ≥ 8 × workers; at 512 workers "
        "≥ 4,096) for chunks to stay well above that; results are one hypothesis and a few integers per G "
        "run, so the network is not the limit — the single scheduler and the client's bookkeeping are; "
        "(3) stages 2–3 run on the "
        "client and take seconds; (4) each worker regenerates its batches from the seed (no data moves), "
        "so memory per worker stays flat (the stream's block cache, ~9 MiB).",
        "",
    ]
    out = HERE / "results" / "blm20_scale.md"
    tmp = out.with_suffix(".md.tmp")
    tmp.write_text("\n".join(lines))
    tmp.replace(out)
    print(f"wrote {out}")


def fmt_t(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


if __name__ == "__main__":
    raise SystemExit(main())
