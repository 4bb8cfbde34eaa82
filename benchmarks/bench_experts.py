"""Private prediction from experts at N = 10⁴ experts, T = 10⁵ rounds (issue 13's target: ≤ 1 min), against
non-private Hedge on the same losses in the same run. Losses are Bernoulli(μ_i) with μ_i ∈ [0.3, 0.7], generated in
chunks (T·N = 10⁹ entries never sit in memory); generation time is excluded from every figure.

Usage: .venv/bin/python benchmarks/bench_experts.py [--quick] [--n N] [--T T]
Writes benchmarks/results/experts.md.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np

from littlestone.experts import BatchedPrivateHedge, Hedge, TreeAggregationHedge

HERE = Path(__file__).resolve().parent
CHUNK = 500


def chunks(N, T, seed):
    rng = np.random.default_rng(seed)
    mu = np.linspace(0.3, 0.7, N)
    for start in range(0, T, CHUNK):
        k = min(CHUNK, T - start)
        yield (rng.random((k, N)) < mu).astype(float)


def timed(learner, N, T, seed=0):
    """Run over pre-generated chunks one at a time; only learner time counts."""
    spent, res_choices, realized, expected, cum = 0.0, [], 0.0, 0.0, np.zeros(N)
    for c in chunks(N, T, seed):
        t0 = time.perf_counter()
        ch, r, e = learner._run_chunk(c)
        spent += time.perf_counter() - t0
        realized += r
        expected += e
        cum += c.sum(axis=0)
    return spent, expected - cum.min(), realized - cum.min()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--T", type=int, default=100_000)
    a = ap.parse_args()
    N, T = (1000, 10_000) if a.quick else (a.n, a.T)
    rows = []
    T1 = min(T, 10_000)
    for name, learner, TT in [
        ("Hedge (non-private baseline)", Hedge(N, T, seed=0), T),
        ("TreeAggregationHedge ε=1, block=\"theory\" (adaptive)", TreeAggregationHedge(N, T, 1.0, backend="seeded", seed=0), T),
        ("BatchedPrivateHedge ε=1, δ=1e-6 (oblivious)", BatchedPrivateHedge(N, T, 1.0, 1e-6, backend="seeded", seed=0), T),
        ("Hedge (non-private baseline)", Hedge(N, T1, seed=0), T1),
        ("TreeAggregationHedge ε=1, block=1 (per-round tree)", TreeAggregationHedge(N, T1, 1.0, block=1, backend="seeded", seed=0), T1),
    ]:
        sec, exp_reg, reg = timed(learner, N, TT)
        rows.append((name, TT, sec, exp_reg, reg, learner.regret_bound()))
        print(f"{name} T={TT}: {sec:.1f} s, expected regret {exp_reg:.0f}, bound {learner.regret_bound():.3g}", flush=True)
    base = {TT: sec for name, TT, sec, *_ in rows if name.startswith("Hedge")}
    lines = [f"## Private prediction from experts (N = {N:,}, T = {T:,})", "",
             f"`.venv/bin/python benchmarks/bench_experts.py{' --quick' if a.quick else ''}` — "
             f"{platform.python_version()}, numpy {np.__version__}; learner time only (loss generation excluded).", "",
             "| learner | T | seconds | × Hedge (same T) | expected regret | regret bound |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, TT, sec, er, r, b in rows:
        lines.append(f"| {name} | {TT:,} | {sec:.1f} | {sec / base[TT]:.2f} | {er:,.0f} | {b:,.3g} |")
    lines += ["", "The tree learner's bound is vacuous at this N (Laplace node noise scales with N·log T/ε; see "
              "`littlestone.experts.tree_hedge`); the figures here are about speed. Budget: ≤ 60 s per private run at "
              "T = 10⁵. The per-round tree (block=1) draws N fresh Laplace numbers per round (10⁹ at T = 10⁵), so it "
              "is timed at T = 10⁴; the theory block B₀ (a power of two chosen by the regret bound) builds the same "
              "tree over blocks.", ""]
    out = HERE / "results" / "experts.md"
    out.write_text("\n".join(lines))
    print(out.read_text())


if __name__ == "__main__":
    main()
