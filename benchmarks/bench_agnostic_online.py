"""LWY25 Algorithm 3 over T = 10⁶ rounds (issue 13's target) and the constructed-experts learner (Thm E.10) at the
largest T that fits in 5 minutes; baseline: non-private Hedge over the class on the same stream, same run.

Data: thresholds, x uniform, label 1[x ≥ n/2] flipped with probability η = 0.1.
Usage: .venv/bin/python benchmarks/bench_agnostic_online.py [--quick] [--skip-experts]
Writes benchmarks/results/agnostic_online.md.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np

from littlestone.agnostic_online import Algorithm3
from littlestone.agnostic_online.baselines import best_in_class, experts_over_class
from littlestone.classes import Thresholds

HERE = Path(__file__).resolve().parent


def stream(n, T, seed=0, eta=0.1):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, n, T)
    y = (X >= n // 2).astype(np.int8)
    y[rng.random(T) < eta] ^= 1
    return X, y


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--skip-experts", action="store_true")
    a = ap.parse_args()
    T = 50_000 if a.quick else 1_000_000
    n = 16
    H = Thresholds(n)
    X, y = stream(n, T)
    best = best_in_class(H, X, y)
    rows = []
    t0 = time.perf_counter()
    run = experts_over_class(H, X, y, seed=0)
    rows.append(("Hedge over H (non-private baseline)", T, "—", time.perf_counter() - t0, run.realized_loss - best))
    for label, kw in [
        ("Algorithm 3, B from Cor 4.3", {}),
        ("Algorithm 3, B = 1000", {"batch": 1000}),
        ("Algorithm 3, learner='soa', B = 1000", {"batch": 1000, "learner": "soa"}),
    ]:
        t0 = time.perf_counter()
        alg = Algorithm3(H, T, 1.0, backend="seeded", seed=0, **kw)
        alg.run(X, y)
        rows.append((label + " (ε = 1)", T, alg.batch, time.perf_counter() - t0, alg.mistakes - best))
        print(rows[-1], flush=True)
    if not a.skip_experts:
        from bench_experts_learner import largest_T_within  # full table: bench_experts_learner.py

        for r in largest_T_within(300.0 if not a.quick else 20.0, [16, 32, 64, 96, 128, 160, 192, 224]):
            rows.append(
                (
                    f"Thm E.10 learner, online (MWEM windows, batched OPE; N = {r['N']:,}, {r['states']} states)",
                    r["T"],
                    "—",
                    r["private_s"],
                    r["private_regret"],
                )
            )
    base = rows[0][3]
    lines = [
        f"## Private agnostic online learning (thresholds over {n} points, η = 0.1)",
        "",
        f"`.venv/bin/python benchmarks/bench_agnostic_online.py{' --quick' if a.quick else ''}` — "
        f"{platform.python_version()}, numpy {np.__version__}; regret = mistakes − best threshold's mistakes.",
        "",
        "| learner | T | B | seconds | × Hedge over H (T = 10⁶) | regret |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, TT, B, sec, reg in rows:
        lines.append(
            f"| {name} | {TT:,} | {B if isinstance(B, str) else f'{B:,}'} | {sec:.1f} | {sec / base:.2f} | {reg:,.0f} |"
        )
    if a.skip_experts:
        lines.append("")
        lines.append(
            "The Thm E.10 learner's rows (largest T within 5 min) are in the constructed-experts learner's "
            "section (`benchmarks/bench_experts_learner.py`)."
        )
    lines.append("")
    out = HERE / "results" / "agnostic_online.md"
    out.write_text("\n".join(lines))
    print(out.read_text())


if __name__ == "__main__":
    main()
