"""BLM20's G at Theorem 1's size: CPU nanoseconds per example read by G against a bare NumPy draw of the same
examples, in the same process (issue 22 item 3: target ≤ 3×).

G: ``GlobalStableLearner`` on thresholds(2^(d+1) − 2) (the largest threshold class of Ldim d), target in the middle,
``batches`` consecutive Theorem-1 batches of a streamed ``RealizableStream`` (seed 3), generator seeds from
SeedSequence(5) — exactly the runs of ``bench_blm20.py``'s throughput rows. Bare draw: the stream's own recipe for the
same number of examples (per 2^14-example block: ``default_rng(SeedSequence(3, spawn_key=(j,)))``, ``integers``,
labels ``x ≥ t`` as int8), nothing else. Issue 28's baseline (the target: G within 3× of it, median): a blocked
draw by ONE generator, ``default_rng(3)``, 2^14-example blocks of ``integers`` with labels ``x ≥ t`` as int8, until
the examples G read. Also shown: the plainest draw, one ``integers`` call for all the examples
(allocation included) with their labels, and G's median ratio to it. All timed with ``time.process_time`` after a warm-up G run (imports and the
compiled kernels loaded: warm), interleaved ``--repeats`` times; best and median ratio reported with the load average.

``--before DIR`` also runs the same measurement with ``PYTHONPATH=DIR`` (another source tree, e.g. the previous
commit's ``src``) in a child process, and checks both trees give the same G outputs (digest). ``--through-split`` adds
a row where G reads each batch through its ``PartReader`` of a ``DataSplit`` (issue 26 item 3: how ``blm20_learn``
runs G, every read checked against the batch's part; the readers' creation included in the time), same digest.

Usage: .venv/bin/python benchmarks/bench_blm20_throughput.py [--d 3] [--batches 100] [--repeats 3] [--before DIR]
       [--through-split]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np


def _through_split(G, src, batches: int, seeds) -> list:
    """G on each batch through its part's reader, as ``blm20_learn`` runs it (one user-level step over the batches)."""
    from littlestone.privacy import DataSplit

    split = DataSplit(batches * G.m, "benchmark sample", source=src)
    parts = split.blocks(batches, G.m, "batch")
    split.users("hist", parts)
    readers = [split.reader(p, "hist") for p in parts]
    return [G.run(r, r.start, r.stop, seeds[i]) for i, r in enumerate(readers)]


def measure(d: int, batches: int, repeats: int, through_split: bool = False) -> dict:
    from littlestone import Thresholds
    from littlestone.pac.blm20 import plan_sizes
    from littlestone.pac.global_stable import GlobalStableLearner
    from littlestone.pac.sources import RealizableStream, UniformIntegers

    npts = 2 ** (d + 1) - 2
    H = Thresholds(npts)
    sizes = plan_sizes(d, epsilon=1.0, delta=1e-6, alpha=0.1, beta=0.05)
    G = GlobalStableLearner(H, 0.05, d=d, n=sizes.aux_size, cap=sizes.cap)
    warm = RealizableStream(H.hypothesis(npts // 2 + 1), UniformIntegers(0, npts), G.m, seed=99)
    G.run(warm, 0, G.m, 0)
    g_ns, bare_ns, one_ns, blk_ns, digest, read = [], [], [], [], "", 0
    for _ in range(repeats):
        src = RealizableStream(H.hypothesis(npts // 2 + 1), UniformIntegers(0, npts), batches * G.m, seed=3)
        seeds = np.random.SeedSequence(5).spawn(batches)
        t0 = time.process_time()
        if through_split:
            runs = _through_split(G, src, batches, seeds)
        else:
            runs = [G.run(src, i * G.m, (i + 1) * G.m, seeds[i]) for i in range(batches)]
        cpu = time.process_time() - t0
        read = sum(r.examples_read for r in runs)
        digest = hashlib.sha256(";".join(f"{r.output!r},{r.k},{r.examples_read}" for r in runs).encode()).hexdigest()
        t0 = time.process_time()
        left, j, block, t = read, 0, 1 << 14, npts // 2 + 1
        while left > 0:
            rng = np.random.default_rng(np.random.SeedSequence(3, spawn_key=(j,)))
            X = rng.integers(0, npts, min(block, left), dtype=np.int64)
            _ = (X >= t).astype(np.int8)
            left -= block
            j += 1
        bare = time.process_time() - t0
        t0 = time.process_time()  # the plainest draw: one call for all the examples (allocation included), labels
        X1 = np.random.default_rng(3).integers(0, npts, read, dtype=np.int64)
        _ = (X1 >= t).astype(np.int8)
        one = time.process_time() - t0
        del X1, _
        t0 = time.process_time()  # issue 28's baseline: ONE generator, 2^14-example blocks, labels
        rng, left = np.random.default_rng(3), read
        while left > 0:
            Xb = rng.integers(0, npts, min(block, left), dtype=np.int64)
            _ = (Xb >= t).astype(np.int8)
            left -= block
        blocked = time.process_time() - t0
        blk_ns.append(blocked / read * 1e9)
        g_ns.append(cpu / read * 1e9)
        bare_ns.append(bare / read * 1e9)
        one_ns.append(one / read * 1e9)
    ratios = [g / b for g, b in zip(g_ns, bare_ns)]
    return {
        "d": d,
        "batches": batches,
        "read": read,
        "g_ns": min(g_ns),
        "bare_ns": min(bare_ns),
        "ratio_best": min(ratios),
        "ratio_median": statistics.median(ratios),
        "one_ns": min(one_ns),
        "ratio_one_median": statistics.median(g / o for g, o in zip(g_ns, one_ns)),
        "blk_ns": min(blk_ns),
        "ratio_blk_best": min(g / b for g, b in zip(g_ns, blk_ns)),
        "ratio_blk_median": statistics.median(g / b for g, b in zip(g_ns, blk_ns)),
        "digest": digest[:16],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--d", type=int, default=3)
    ap.add_argument("--batches", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--before", help="another source tree to measure the same way (PYTHONPATH=DIR, child process)")
    ap.add_argument("--through-split", action="store_true", help="add a row: G through DataSplit part readers")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    load = os.getloadavg()
    rows = {"this tree": measure(args.d, args.batches, args.repeats)}
    if args.through_split:
        rows["this tree, through DataSplit readers"] = measure(args.d, args.batches, args.repeats, through_split=True)
        assert rows["this tree, through DataSplit readers"]["digest"] == rows["this tree"]["digest"]
    if args.before:
        env = dict(os.environ, PYTHONPATH=args.before)
        cmd = [sys.executable, __file__, "--d", str(args.d), "--batches", str(args.batches)]
        cmd += ["--repeats", str(args.repeats), "--json"]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
        rows["before"] = json.loads(out)
        assert rows["before"]["digest"] == rows["this tree"]["digest"], "the two trees' G runs differ"
    if args.json:
        print(json.dumps(rows["this tree"]))
        return 0
    load1 = os.getloadavg()
    print(
        f"G at Theorem 1's size, d = {args.d}, {args.batches} batches, best of {args.repeats} (CPU, warm); "
        f"load average {load[0]:.1f} → {load1[0]:.1f}"
    )
    print(
        "| tree | examples read by G | G ns / example | bare NumPy draw ns / example | ratio (best) | ratio (median) | "
        "one-call draw ns / example | ratio to it (median) | blocked one-generator draw ns / example | "
        "**ratio to it (best / median)** |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in rows.items():
        print(
            f"| {name} | {r['read']:,} | {r['g_ns']:.2f} | {r['bare_ns']:.2f} | {r['ratio_best']:.2f}× | "
            f"{r['ratio_median']:.2f}× | {r.get('one_ns', float('nan')):.2f} | {r.get('ratio_one_median', float('nan')):.2f}× | "
            f"{r.get('blk_ns', float('nan')):.2f} | {r.get('ratio_blk_best', float('nan')):.2f}× / "
            f"{r.get('ratio_blk_median', float('nan')):.2f}× |"
        )
    print(f"same G outputs: {'yes' if args.before else 'n/a'} (digest {rows['this tree']['digest']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
