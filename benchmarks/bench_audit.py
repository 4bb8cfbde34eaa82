"""Audit throughput (mechanism runs per second) for every built-in audit, against the bare mechanism loop.

Baseline in the same run: the same mechanism called in a plain Python loop with one SeededBackend (no featurizing,
no event selection, no Clopper–Pearson) — the ratio shows what the auditor costs on top of the mechanism itself.
Writes benchmarks/results/audit.md.

Usage: .venv/bin/python benchmarks/bench_audit.py [--runs 10000] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np

from littlestone.audit import audit_mechanism, builtin_audits
from littlestone.audit import broken_audits
from littlestone.audit.toy import RandomizedResponse
from littlestone.privacy import SeededBackend

OUT = Path(__file__).resolve().parent / "results" / "audit.md"


def bare_loop(audit, calls: int, repeats: int = 3) -> float:
    """Mechanism calls per second in a plain loop on D (the baseline): best of ``repeats`` after a warm-up call."""
    seq = np.random.SeedSequence(0)
    source = SeededBackend(seq)
    audit.mechanism(audit.D, backend=source)
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            audit.mechanism(audit.D, backend=source)
        best = max(best, calls / (time.perf_counter() - start))
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=10_000, help="estimation runs per neighbour (selection: runs/4)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    load_before = os.getloadavg()[0]
    rows = []
    for name, audit in builtin_audits().items():
        base = bare_loop(audit, 300 if name == "generic_learner" else 3000)
        one = audit.run(runs=args.runs, seed=1, jobs=1)
        par = audit.run(runs=args.runs, seed=1, jobs=args.jobs) if args.jobs != 1 else one
        same = (one.epsilon_lb, one.event) == (par.epsilon_lb, par.event)
        rows.append((name, one, par, base, same))
        print(
            f"{name}: {one.throughput:,.0f} runs/s (jobs=1), {par.throughput:,.0f} (jobs={args.jobs}), bare {base:,.0f}"
        )

    secure = builtin_audits()["laplace"].run(runs=2000, seed=1, randomness="secure")
    secure_base_audit = builtin_audits()["laplace"]
    from littlestone.privacy import SecureBackend

    backend = SecureBackend()
    start = time.perf_counter()
    for _ in range(1000):
        secure_base_audit.mechanism(secure_base_audit.D, backend=backend)
    secure_base = 1000 / (time.perf_counter() - start)

    rr = RandomizedResponse(1.0)
    per_call = audit_mechanism(rr, 1, 0, runs=100_000, seed=1, claimed_epsilon=1.0)
    vectorized = audit_mechanism(
        lambda d, g, n: rr.batch(d, g, n), 1, 0, runs=1_000_000, seed=1, vectorized=True, claimed_epsilon=1.0
    )
    at = broken_audits()["above_threshold_noise_redrawn"].run(seed=1)
    long_one = builtin_audits()["laplace"].run(runs=300_000, seed=2, jobs=1)
    builtin_audits()["laplace"].run(runs=20_000, seed=3, jobs=args.jobs)  # warm the worker pool (imports)
    long_par = builtin_audits()["laplace"].run(runs=300_000, seed=2, jobs=args.jobs)

    lines = [
        "## Privacy audits (`littlestone.audit`)",
        "",
        f"`.venv/bin/python benchmarks/bench_audit.py --runs {args.runs} --jobs {args.jobs}` — Python "
        f"{platform.python_version()}, SeededBackend unless stated, confidence 1 − 1e-6. Throughput = mechanism runs "
        f"per second over both phases and both neighbours ({args.runs} estimation + {max(100, args.runs // 4)} "
        "selection runs per neighbour). Baseline in the same run: the bare mechanism called in a plain loop "
        "(no featurizing, event selection or bounds; best of 3 after a warm-up); ratio = auditor (jobs=1) / bare loop. "
        "The machine (2 cores) is shared with other jobs, so figures are lower bounds.",
        "",
        f"| audit | claimed ε | ε_lb | verdict | bare loop (runs/s) | auditor jobs=1 (runs/s) | ratio | "
        f"auditor jobs={args.jobs} (runs/s) | same report |",
        "|---|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for name, one, par, base, same in rows:
        lines.append(
            f"| {name} | {one.claimed_epsilon:.3g} | {one.epsilon_lb:.3f} | {'pass' if one.passed else 'VIOLATION'} | "
            f"{base:,.0f} | {one.throughput:,.0f} | {one.throughput / base:.2f}× | {par.throughput:,.0f} | {same} |"
        )
    lines += [
        "",
        "| other runs | ε_lb | runs/s | baseline |",
        "|---|---:|---:|---|",
        f"| laplace on the SecureBackend (OpenDP), 2000 runs | {secure.epsilon_lb:.3f} | {secure.throughput:,.0f} | "
        f"bare OpenDP loop {secure_base:,.0f} runs/s ({secure.throughput / secure_base:.2f}×) |",
        f"| randomized response ε=1, per-call mechanism, 100 000 runs | {per_call.epsilon_lb:.3f} | "
        f"{per_call.throughput:,.0f} | — |",
        f"| randomized response ε=1, vectorized mechanism, 10⁶ runs | {vectorized.epsilon_lb:.3f} | "
        f"{vectorized.throughput:,.0f} | {vectorized.throughput / per_call.throughput:.0f}× the per-call audit |",
        f"| laplace, 3·10⁵ runs, jobs=1 | {long_one.epsilon_lb:.3f} | {long_one.throughput:,.0f} | — |",
        f"| laplace, 3·10⁵ runs, jobs={args.jobs}, warm worker pool (same report: "
        f"{(long_one.epsilon_lb, long_one.event) == (long_par.epsilon_lb, long_par.event)}) | {long_par.epsilon_lb:.3f} | "
        f"{long_par.throughput:,.0f} | {long_par.throughput / long_one.throughput:.2f}× jobs=1 |",
        f"| broken twin: AboveThreshold with redrawn threshold noise (vectorized), 10⁶ runs | {at.epsilon_lb:.3f} "
        f"(claimed {at.claimed_epsilon:g}: caught) | {at.throughput:,.0f} | — |",
        "",
        f"Load average during the run: {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end (2 cores). "
        "Parallel runs pay a one-off worker start-up (≈1–2 s: each worker imports numpy/scipy/OpenDP), so the short "
        "audits of the table gain nothing from jobs=2 on the shared cores; a long audit on a warm pool does (row "
        "above). Reports are identical for any number of jobs. The auditor itself adds little on top of the mechanism (ratios ≈ 1; above 1 where the bare "
        "loop was measured during a load spike).",
        "",
        "Rerun: `.venv/bin/python benchmarks/bench_audit.py` (CLI: `littlestone audit --all --runs 10000 --jobs 2`).",
        "",
    ]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    tmp = OUT.with_suffix(".md.tmp")
    tmp.write_text("\n".join(lines))
    tmp.replace(OUT)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
