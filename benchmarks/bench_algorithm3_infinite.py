"""LWY25 Algorithm 3 on an infinite-style class: T = 10⁶ rounds on Thresholds(2^60) with the structured H^label
sanitizer (noisy dyadic label trees) and Hedge over thresholds in closed form; baseline: the same learner with the
sanitizer replaced by the identity (non-private: each subsequence gets a raw example of the batch), same data, same
run. Wall and CPU seconds per row; regret = mistakes − the best threshold's mistakes (exact).

Data: x uniform on {0..2^60 − 1}, label 1[x ≥ 2^60/3] flipped with probability η = 0.1.
Usage: .venv/bin/python benchmarks/bench_algorithm3_infinite.py [--quick]
Writes benchmarks/results/algorithm3_infinite.md.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np

from littlestone.agnostic_online import ThresholdsAlgorithm3
from littlestone.agnostic_online.algorithm3_thresholds import best_threshold_mistakes
from littlestone.classes import Thresholds

HERE = Path(__file__).resolve().parent
N = 2**60


class _Identity:
    """Non-private stand-in for the sanitizer: the batch itself (the baseline only)."""

    def fit_arrays(self, X, y):
        self.X, self.y = X, y
        return self

    def synthetic_arrays(self, size):
        return self.X, self.y


class NonPrivateAlgorithm3(ThresholdsAlgorithm3):
    private = False

    def _sanitizer(self, run):
        return _Identity()


def stream(T, seed=0, eta=0.1):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, N, T)
    y = (X >= N // 3).astype(np.int8)
    y[rng.random(T) < eta] ^= 1
    return X, y


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    T = 100_000 if a.quick else 1_000_000
    H = Thresholds(N)
    X, y = stream(T)
    best = best_threshold_mistakes(X, y)
    rows = []
    configs = [
        ("non-private baseline (identity sanitizer), B = 1000", NonPrivateAlgorithm3, 1.0, {"batch": 1000}),
        ("Algorithm 3, ε = 1, B = 1000, seeded backend", ThresholdsAlgorithm3, 1.0, {"batch": 1000}),
        (
            "Algorithm 3, ε = 1, B = 1000, secure (OpenDP) backend",
            ThresholdsAlgorithm3,
            1.0,
            {"batch": 1000, "backend": "secure"},
        ),
        (
            "Algorithm 3, ε = 1, B from Thm 4.1's bound, secure backend",
            ThresholdsAlgorithm3,
            1.0,
            {"backend": "secure"},
        ),
        ("Algorithm 3, ε = 1000, B from Thm 4.1's bound, seeded backend", ThresholdsAlgorithm3, 1000.0, {}),
        ("non-private baseline, B as in the previous row", NonPrivateAlgorithm3, 1000.0, {}),
        (
            "Algorithm 3, learner='soa', ε = 1000, B from Thm 4.1's bound",
            ThresholdsAlgorithm3,
            1000.0,
            {"learner": "soa"},
        ),
    ]
    for label, cls, eps, kw in configs:
        kw = {"backend": "seeded", **kw}
        w0, c0 = time.perf_counter(), time.process_time()
        alg = cls(H, T, eps, seed=0, **kw)
        alg.run(X, y)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        bound = alg.regret_bound() if alg.learner == "hedge" else float("nan")
        rows.append((label, alg.batch, wall, cpu, alg.mistakes - best, bound))
        print(rows[-1], flush=True)
    write(rows, T, best, a.quick)


def write(rows, T, best, quick) -> None:
    base, base_cpu = rows[0][2], rows[0][3]
    lines = [
        f"## Algorithm 3 on Thresholds(2^60), T = {T:,} (η = 0.1)",
        "",
        f"`.venv/bin/python benchmarks/bench_algorithm3_infinite.py{' --quick' if quick else ''}` — Python "
        f"{platform.python_version()}, numpy {np.__version__}; machine shared with other jobs (wall times are "
        "upper bounds). Regret = mistakes − best threshold's mistakes "
        f"({best:,}); bound = Thm 4.1 with constants (Hedge; β = 1/T² per batch).",
        "",
        "| learner | B | wall s | CPU s | × baseline wall | × baseline CPU | regret | regret / T | Thm 4.1 bound / T |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, B, wall, cpu, reg, bound in rows:
        lines.append(
            f"| {name} | {B:,} | {wall:.1f} | {cpu:.1f} | {wall / base:.2f} | {cpu / base_cpu:.2f} | {reg:,} | "
            f"{reg / T:.4f} | "
            f"{bound / T:.3f} |"
        )
    lines.append("")
    out = HERE / "results" / "algorithm3_infinite.md"
    out.write_text("\n".join(lines))
    print(out.read_text())


if __name__ == "__main__":
    main()
