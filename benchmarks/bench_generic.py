"""Generic learner and CLI: vectorized error counts vs a per-hypothesis loop; end-to-end fit; CLI start-up; demo.

Writes benchmarks/results/generic_cli.md.  Run: .venv/bin/python benchmarks/bench_generic.py
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from littlestone import FiniteClass, Thresholds
from littlestone.io import atomic_write_text
from littlestone.pac import GenericLearnerClassifier
from littlestone.pac.candidates import candidate_list

HERE = Path(__file__).resolve().parent


def best_of(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def naive_errors(hyps, X, y):
    """Baseline: evaluate each hypothesis on the sample and count mistakes."""
    return np.array([int(np.count_nonzero(h.predict(X) != y)) for h in hyps])


def main() -> None:
    rng = np.random.default_rng(0)
    rows = []
    # explicit finite class: 2000 random hypotheses on 1000 points, n = 20 000
    M = rng.integers(0, 2, size=(2000, 1000), dtype=np.uint8)
    H = FiniteClass(M)
    X = rng.integers(0, 1000, size=20_000)
    y = rng.integers(0, 2, size=20_000)
    cands = candidate_list(H)
    assert (cands.errors(X, y) == naive_errors(cands.hypotheses, X, y)).all()
    fast = best_of(lambda: cands.errors(X, y))
    slow = best_of(lambda: naive_errors(cands.hypotheses, X, y), 1)
    rows.append(("error counts, FiniteClass 2000×1000, n=20 000", fast, slow))
    # thresholds: 100 001 hypotheses, n = 100 000 (sorted counts vs loop)
    T = Thresholds(100_000)
    ct = candidate_list(T)
    x = rng.integers(0, 100_000, size=100_000)
    yt = (x >= 31_337).astype(np.int8)
    fast = best_of(lambda: ct.errors(x, yt))
    sub = ct.hypotheses[:500]  # the loop baseline on 500 of the 100 001 thresholds, scaled up
    slow = best_of(lambda: naive_errors(sub, x, yt), 1) * len(ct) / len(sub)
    rows.append(("error counts, thresholds(10^5), n=10^5 (loop time extrapolated from 500 hyps)", fast, slow))
    fit = best_of(lambda: GenericLearnerClassifier(T, epsilon=1.0, backend="secure").fit(x.reshape(-1, 1), yt))
    exe = str(Path(sys.executable).parent / "littlestone")
    startup = best_of(lambda: subprocess.run([exe, "--version"], check=True, capture_output=True))
    ldim_cli = best_of(
        lambda: subprocess.run([exe, "ldim", "--class", "thresholds:2^60"], check=True, capture_output=True)
    )
    demo = best_of(
        lambda: subprocess.run(
            [exe, "demo", "--out", "/tmp/littlestone-bench-report", "--jobs", "2"], check=True, capture_output=True
        ),
        1,
    )
    lines = [
        "## Generic learner and CLI (`bench_generic.py`)",
        "",
        "| task | littlestone | baseline (per-hypothesis loop) | speed-up |",
        "|---|---|---|---|",
    ]
    for name, f, s in rows:
        lines.append(f"| {name} | {f * 1e3:.1f} ms | {s * 1e3:.0f} ms | {s / f:.0f}× |")
    lines += [
        "",
        "| end to end | time |",
        "|---|---|",
        f"| `GenericLearnerClassifier(thresholds(10^5), ε=1, OpenDP).fit` on 10^5 examples | {fit:.2f} s |",
        f"| `littlestone --version` (process start-up) | {startup:.2f} s |",
        f"| `littlestone ldim --class thresholds:2^60` | {ldim_cli:.2f} s |",
        f"| `littlestone demo --jobs 2` (full report, 20 splits × 10 ε) | {demo:.1f} s |",
        "",
    ]
    out = HERE / "results" / "generic_cli.md"
    atomic_write_text(out, "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
