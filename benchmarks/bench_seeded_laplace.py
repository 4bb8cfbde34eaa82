"""The seeded backend's Laplace sampler (issue 34 item 5): b·Exp(1)·(random sign) with packed sign bits against
NumPy's ``rng.laplace`` (inverse CDF), and what it buys the practical private online learners.

1. **Draws per second** in this process: ``Generator.laplace(0, b, n)`` (the old method's body) against
   ``SeededBackend.laplace(b, n)`` (after), for n = 1 (the scalar path), 64, 4,096 (the segments' AboveThreshold
   batch) and 65,536; CPU time (``time.process_time``), interleaved, median of ``--repeats`` rounds.
2. **Throughput** (rounds per second of the seeded vectorised ``learner.run(X, y)``) of every practical learner —
   ListAT on random:16x20, BisectAT on thresholds(2⁶⁰), PointsAT on points(2⁶⁰), IntervalsAT on intervals(2¹⁶),
   ε = 1 — on an oblivious i.i.d. realizable stream of ``--T`` rounds (one warm-up run, then the median of
   ``--repeats`` fresh learners): *before* is git ``--before-ref`` (default ``main``) exported to a temporary directory
   (``git archive``) and run in a child process with ``PYTHONPATH`` on its ``src``; *after* is this tree, in another
   child process, the same code and streams.

    PYTHONPATH=src nice -n 10 python benchmarks/bench_seeded_laplace.py              # T = 10⁶, 3 repeats
    PYTHONPATH=src python benchmarks/bench_seeded_laplace.py --T 1e5 --repeats 1 --out /tmp/x.md   # smoke
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LEARNERS = ("ListAT", "BisectAT", "PointsAT", "IntervalsAT")
SPECS = {
    "ListAT": "random:16x20:0",
    "BisectAT": "thresholds:2^60",
    "PointsAT": "points:2^60",
    "IntervalsAT": "intervals:2^16",
}


# ------------------------------------------------------------------------------------------ draws per second


def draws(repeats: int) -> list[dict]:
    """Before: the old ``SeededBackend.laplace`` body, ``rng.laplace(0, check_scale(b), size)``; after: the backend's."""
    from littlestone.privacy.backends import SeededBackend
    from littlestone.privacy.params import check_scale

    rows = []
    for n in (1, 64, 4096, 65536):
        calls = max(20, 2_000_000 // n) if n > 1 else 200_000
        rng = np.random.default_rng(1)
        be = SeededBackend(1)
        if n == 1:
            before = lambda: rng.laplace(0.0, check_scale(2.0), None)  # noqa: E731
            after = lambda: be.laplace(2.0)  # noqa: E731
        else:
            before = lambda: rng.laplace(0.0, check_scale(2.0), n)  # noqa: E731
            after = lambda: be.laplace(2.0, n)  # noqa: E731
        times: dict[str, list[float]] = {"before": [], "after": []}
        for _ in range(repeats):
            for name, fn in (("before", before), ("after", after)):
                t0 = time.process_time()
                for _ in range(calls):
                    fn()
                times[name].append(time.process_time() - t0)
        b, a = statistics.median(times["before"]), statistics.median(times["after"])
        rows.append({"n": n, "before": calls * n / b, "after": calls * n / a, "ratio": a / b})
        print(f"draws n={n}: {calls * n / b:,.0f} → {calls * n / a:,.0f} /s (cost × {a / b:.2f})", flush=True)
    return rows


# ------------------------------------------------------------------------------------------ throughput


def stream(name: str, T: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """An oblivious i.i.d. realizable stream for the learner's class (the target drawn from ``seed``)."""
    rng = np.random.default_rng(seed)
    if name == "BisectAT":
        X = rng.integers(0, 2**60, T, dtype=np.int64)
        return X, (X >= int(rng.integers(0, 2**60))).astype(np.int8)
    if name == "PointsAT":  # the target point in 5 % of the rounds
        p = int(rng.integers(0, 2**60))
        X = rng.integers(0, 2**60, T, dtype=np.int64)
        X[rng.random(T) < 0.05] = p
        return X, (X == p).astype(np.int8)
    if name == "IntervalsAT":
        a = int(rng.integers(0, 2**15))
        X = rng.integers(0, 2**16, T, dtype=np.int64)
        return X, ((X >= a) & (X <= a + 2**14)).astype(np.int8)
    from littlestone.classes.spec import parse_class_spec

    H = parse_class_spec(SPECS[name])
    pts = np.asarray(H.uniform_points())
    X = pts[rng.integers(0, len(pts), T)]
    return X, np.asarray(H.random_hypothesis(rng).predict(X)).astype(np.int8)


def make(name: str, T: int, seed: int):
    from littlestone.classes.spec import parse_class_spec
    from littlestone.private_online import BisectAT, ListAT
    from littlestone.private_online.intervals_at import IntervalsAT
    from littlestone.private_online.points_at import PointsAT

    cls = {"ListAT": ListAT, "BisectAT": BisectAT, "PointsAT": PointsAT, "IntervalsAT": IntervalsAT}[name]
    return cls(parse_class_spec(SPECS[name]), T=T, epsilon=1.0, backend="seeded", seed=seed)


def throughput_child(T: int, repeats: int) -> dict:
    """Rounds per second (CPU time) of each learner's seeded vectorised run, and its mistakes (median over seeds)."""
    out = {}
    for name in LEARNERS:
        X, y = stream(name, T, 7)
        make(name, 10_000, 99).run(X[:10_000], y[:10_000])  # warm-up (imports, caches)
        rates, mistakes = [], []
        for r in range(repeats):
            lrn = make(name, T, r)
            t0 = time.process_time()
            res = lrn.run(X, y)
            rates.append(T / (time.process_time() - t0))
            mistakes.append(res.mistakes)
        out[name] = {"rps": statistics.median(rates), "mistakes": statistics.median(mistakes)}
    return out


def run_child(src: Path, T: int, repeats: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--T", str(T), "--repeats", str(repeats)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=str(src.parent))
    return json.loads(out.stdout.strip().splitlines()[-1])


def before_tree(ref: str, where: Path) -> Path:
    """``ref``'s ``src`` exported with ``git archive`` into ``where`` (plus this tree's compiled kernels, if any)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    for so in (ROOT / "src" / "littlestone" / "pac").glob("_kernels_aot_*"):
        (where / "src" / "littlestone" / "pac" / so.name).write_bytes(so.read_bytes())
    return where / "src"


def markdown(draw_rows: list[dict], tp: dict, T: int, repeats: int, ref: str) -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "# Seeded Laplace sampler (issue 34 item 5)",
        "",
        "`SeededBackend.laplace` draws b·E·S, E ~ Exp(1) by NumPy's ziggurat `standard_exponential`, S a random sign "
        "packed 64 to a raw 64-bit word — the Laplace(0, b) law (tests/privacy/test_seeded_laplace_law.py) — instead "
        "of `Generator.laplace` (inverse CDF).",
        "",
        f"Command: `PYTHONPATH=src nice -n 10 python benchmarks/bench_seeded_laplace.py --T {T:g} --repeats {repeats}` "
        f"(load average {load:.1f} on 2 cores; CPU time, medians).",
        "",
        "## Draws per second",
        "",
        "| draws per call | `rng.laplace` (before, the old method) | `SeededBackend.laplace` (after) | cost after / before |",
        "|---:|---:|---:|---:|",
    ]
    for r in draw_rows:
        lines.append(f"| {r['n']:,} | {r['before']:,.0f} | {r['after']:,.0f} | {r['ratio']:.2f} |")
    lines += [
        "",
        f"## Throughput of the seeded vectorised run (T = {T:,}, ε = 1, median of {repeats})",
        "",
        f"Before: git `{ref}` (exported, child process); after: this tree (child process); same streams and seeds.",
        "",
        "| learner | class | rounds/s before | rounds/s after | speed-up | mistakes before / after (median) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name in LEARNERS:
        b, a = tp["before"][name], tp["after"][name]
        lines.append(
            f"| {name} | {SPECS[name]} | {b['rps']:,.0f} | {a['rps']:,.0f} | {a['rps'] / b['rps']:.2f}× | "
            f"{b['mistakes']:g} / {a['mistakes']:g} |"
        )
    lines += ["", "Mistakes differ only because the seeded noise stream changed (same law, other draws).", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--T", type=float, default=1e6)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--before-ref", default="main")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=str(HERE / "results" / "seeded_laplace.md"))
    args = ap.parse_args()
    T = int(args.T)
    if args.child:
        print(json.dumps(throughput_child(T, args.repeats)))
        return
    draw_rows = draws(args.repeats)
    with tempfile.TemporaryDirectory() as tmp:
        src_before = before_tree(args.before_ref, Path(tmp))
        tp = {"before": run_child(src_before, T, args.repeats), "after": run_child(ROOT / "src", T, args.repeats)}
    for name in LEARNERS:
        b, a = tp["before"][name]["rps"], tp["after"][name]["rps"]
        print(f"throughput {name}: {b:,.0f} → {a:,.0f} rounds/s ({a / b:.2f}×)", flush=True)
    text = markdown(draw_rows, tp, T, args.repeats, args.before_ref)
    Path(args.out).write_text(text)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
