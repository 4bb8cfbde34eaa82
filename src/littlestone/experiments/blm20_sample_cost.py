"""Experiment: Lemma 14 (seed 001) — examples drawn while sampling D_k: E[M_k] ≤ 4^{k+1}·n, and the Markov step
of Theorem 10: Pr[M_k > 8^{d+1}·n] ≤ 2^{-(d+1)} (the cap N turns those runs into Fail)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.thresholds import Thresholds
from ..pac.global_stable import GlobalStableLearner, run_batches
from ..pac.sources import RealizableStream
from ._blm20_common import ExperimentResult, Harmonic, new_figure, out_path, save_figure, write_table


def run(points: int = 15, target: int | None = None, n: int = 2, runs: int = 400, *, seed: Any = 0,
        jobs: int = 1,
        out_dir: Any = None) -> ExperimentResult:
    """Lemma 14: mean examples drawn by D̃_k (cap N = 8^{d+1}n) per depth k against 4^{k+1}·n."""
    H = Thresholds(points)
    d = H.ldim()
    sampler = Harmonic(points)
    tgt = H.hypothesis(points // 2 + 1 if target is None else target)
    G = GlobalStableLearner(H, 1.0, n=int(n))
    rows: list[dict] = []
    ss = np.random.SeedSequence(seed)
    for depth in range(d + 1):
        child = ss.spawn(1)[0]
        src = RealizableStream(tgt, sampler, runs * G.m, seed=int(child.generate_state(1)[0]))
        res = run_batches(G, src, [(i * G.m, (i + 1) * G.m) for i in range(runs)], child, n_jobs=jobs, depth=depth)
        drawn = np.array([r.examples_read - (0 if r.failed else G.n) for r in res], dtype=float)  # M_k (without T)
        fails = np.array([r.failed for r in res])
        rows.append({"k": depth, "n": G.n, "mean_M_k": float(drawn.mean()), "bound_4^(k+1)n": 4 ** (depth + 1) * G.n,
                     "holds": bool(drawn.mean() <= 4 ** (depth + 1) * G.n), "fail_rate": float(fails.mean()),
                     "markov_bound": 2.0 ** (-(d + 1)), "cap": G.cap, "runs": runs})
    out = out_path(out_dir)
    table = write_table(rows, out / "blm20_sample_cost.csv")
    fig, ax = new_figure()
    ks = [r["k"] for r in rows]
    ax.semilogy(ks, [r["mean_M_k"] for r in rows], "o-", label="mean M_k (measured, capped at N)")
    ax.semilogy(ks, [r["bound_4^(k+1)n"] for r in rows], "k--", label="4^(k+1)·n (Lemma 14)")
    ax.axhline(G.cap, color="tab:red", ls=":", label=f"cap N = 8^(d+1)·n = {G.cap}")
    ax.set_xlabel("depth k")
    ax.set_ylabel("examples drawn from D")
    ax.set_title(f"Lemma 14 on thresholds({points}), d={d}, n={G.n}, {runs} runs per k")
    ax.legend(fontsize=8)
    fig_path = save_figure(fig, out / "blm20_sample_cost.png")
    note = ("Lemma 14 assumes D_k well-defined; where it is not, the loop repeats until the cap (high fail rate)")
    return ExperimentResult("blm20_sample_cost", rows, table, [fig_path], note)
