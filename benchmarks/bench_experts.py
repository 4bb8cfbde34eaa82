"""Private prediction from experts at N = 10⁴ experts, T = 10⁵ rounds (issue 13's target: ≤ 1 min on one core,
the per-round tree included), against non-private Hedge on the same losses in the same run. Losses are Bernoulli(μ_i)
with μ_i ∈ [0.3, 0.7], generated in chunks (T·N = 10⁹ entries never sit in memory); generation time is excluded.
Every figure is the learner's wall time and its CPU time (process_time: the machine may be shared).
The secure backend (OpenDP, one exact sample per call) is timed on a few rounds and extrapolated.

Usage: .venv/bin/python benchmarks/bench_experts.py [--quick] [--n N] [--T T] [--no-secure]
Writes benchmarks/results/experts.md.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np

from littlestone.experts import BatchedPrivateHedge, Hedge, PrivateHedge, TreeAggregationHedge

HERE = Path(__file__).resolve().parent
CHUNK = 500


def chunks(N, T, seed):
    rng = np.random.default_rng(seed)
    mu = np.linspace(0.3, 0.7, N)
    for start in range(0, T, CHUNK):
        k = min(CHUNK, T - start)
        yield (rng.random((k, N)) < mu).astype(float)


def timed(learner, N, T, seed=0):
    """Run over pre-generated chunks one at a time; only learner time counts (wall, CPU)."""
    wall = cpu = 0.0
    realized, expected, cum = 0.0, 0.0, np.zeros(N)
    for c in chunks(N, T, seed):
        t0, c0 = time.perf_counter(), time.process_time()
        ch, r, e = learner._run_chunk(c)
        wall += time.perf_counter() - t0
        cpu += time.process_time() - c0
        realized += r
        expected += e
        cum += c.sum(axis=0)
    return wall, cpu, expected - cum.min(), realized - cum.min()


def secure_rate(make, N, rounds, seed=0):
    """Seconds per round on the secure backend (OpenDP samplers), from ``rounds`` rounds."""
    learner = make()
    c = next(chunks(N, rounds, seed))
    t0 = time.perf_counter()
    learner._run_chunk(c)
    return (time.perf_counter() - t0) / rounds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--T", type=int, default=100_000)
    ap.add_argument("--no-secure", action="store_true")
    a = ap.parse_args()
    N, T = (1000, 10_000) if a.quick else (a.n, a.T)
    eps, dlt = 1.0, 1e-6
    rows = []
    for name, learner in [
        ("Hedge (non-private baseline)", Hedge(N, T, seed=0)),
        ("PrivateHedge ε=1, δ=1e-6 (adaptive; Thm E.11 rate)", PrivateHedge(N, T, eps, dlt, backend="seeded", seed=0)),
        (
            "TreeAggregationHedge ε=1, block=1 (per-round tree; adaptive)",
            TreeAggregationHedge(N, T, eps, block=1, backend="seeded", seed=0),
        ),
        (
            'TreeAggregationHedge ε=1, block="theory" (adaptive)',
            TreeAggregationHedge(N, T, eps, backend="seeded", seed=0),
        ),
        ("BatchedPrivateHedge ε=1, δ=1e-6 (oblivious)", BatchedPrivateHedge(N, T, eps, dlt, backend="seeded", seed=0)),
    ]:
        wall, cpu, exp_reg, reg = timed(learner, N, T)
        rows.append((name, wall, cpu, exp_reg, learner.regret_bound()))
        print(
            f"{name}: {wall:.1f} s wall, {cpu:.1f} s CPU, expected regret {exp_reg:.0f}, "
            f"bound {learner.regret_bound():.3g}",
            flush=True,
        )
    base_cpu = rows[0][2]
    lines = [
        f"## Private prediction from experts (N = {N:,}, T = {T:,})",
        "",
        f"`.venv/bin/python benchmarks/bench_experts.py{' --quick' if a.quick else ''}` — "
        f"{platform.python_version()}, numpy {np.__version__}, one process; learner time only (loss generation "
        "excluded); seeded backend (NumPy noise from the caller's seed).",
        "",
        "| learner | wall s | CPU s | × Hedge (CPU) | expected regret | regret bound |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, wall, cpu, er, b in rows:
        lines.append(f"| {name} | {wall:.1f} | {cpu:.1f} | {cpu / base_cpu:.2f} | {er:,.0f} | {b:,.3g} |")
    if not a.no_secure:
        r_tree = secure_rate(lambda: TreeAggregationHedge(N, T, eps, block=1, chunk=20), N, 20)
        r_ph = secure_rate(lambda: PrivateHedge(N, T, eps, dlt), N, 50)
        lines += [
            "",
            "Secure backend (OpenDP; exact samplers, nothing from the seed), extrapolated from a few rounds:",
            "",
            "| learner | s / round | extrapolated to T (s) |",
            "|---|---:|---:|",
            f"| TreeAggregationHedge block=1 (N discrete-Laplace node noises per round) | {r_tree:.3g} | "
            f"{r_tree * T:,.0f} |",
            f"| PrivateHedge (one OpenDP Gumbel noisy-max over N scores per round) | {r_ph:.3g} | {r_ph * T:,.0f} |",
        ]
        print(lines[-2], lines[-1], sep="\n")
    secure_note = ""
    if not a.no_secure:
        secure_note = (
            f" On the secure backend OpenDP draws exact samples through a Python list (here "
            f"{r_tree / N * 1e6:.1f} µs per discrete-Laplace node coordinate), so the per-round tree "
            f"(N·T = {N * T:.0e} node coordinates) takes hours there; PrivateHedge needs one noisy-max "
            f"per round and takes {r_ph * T / 60:.0f} min."
        )
    lines += [
        "",
        "Why the seeded per-round tree now fits: the k node noises of a chunk (data-independent) are drawn in "
        "one call, the binary counter's prefixes follow in log₂k vectorized waves, prefix sums go row by row "
        "(np.cumsum(axis=0) on a 500 × 10⁴ chunk measured ~6× slower), and the softmin's exponentials run in "
        "float32 (NumPy's float64 exp measured ~20× slower per element on this CPU). The remaining floor is the "
        "N·T Laplace draws (~15 ns each). Wall time above CPU time means the shared machine was busy. The same float32/row-wise changes made non-private Hedge the fast baseline it should "
        "be." + secure_note,
        "",
        "Bounds: PrivateHedge's is ln N/η + ηT/8 at the privacy-calibrated η (Thm E.11's rate with constant √8); "
        "the tree learner's proven bound is vacuous at this N (Laplace node noise scales with N·log T/ε); "
        "`littlestone.bounds.private_experts` lists them beside the quoted Thms E.11–E.12.",
        "",
    ]
    out = HERE / "results" / "experts.md"
    out.write_text("\n".join(lines))
    print(out.read_text())


if __name__ == "__main__":
    main()
