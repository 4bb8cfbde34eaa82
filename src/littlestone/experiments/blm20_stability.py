"""Experiment: G is globally stable (seed 001 Lemma 12 / Theorem 10) — some f has Pr[G(S) = f] ≥ 2^{-(d+1)}/(d+1)
and loss ≤ α; per depth k, some k ≤ d has Pr_{S∼D̃_k,T}[SOA(S∘T) = f] ≥ 2^{-d} (Lemma 12)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from .. import _progress
from ..classes.thresholds import Thresholds
from ..pac.global_stable import GlobalStableLearner, run_batches
from ..pac.sources import RealizableStream
from ..pac.tournament import FAIL
from ._blm20_common import ExperimentResult, UniformOn, exact_loss, new_figure, out_path, save_figure, write_table


def run(points: int = 7, target: int | None = None, alpha: float = 0.5, runs: int = 2000, *, seed: Any = 0,
        jobs: int = 1,
        out_dir: Any = None) -> ExperimentResult:
    """Lemma 12 / Theorem 10: frequency and loss of G's most frequent outputs on thresholds (uniform points)."""
    H = Thresholds(points)
    d = H.ldim()
    probs = np.full(points, 1.0 / points)
    tgt = H.hypothesis(points // 2 + 1 if target is None else target)
    G = GlobalStableLearner(H, alpha)
    eta = G.eta
    total = runs * G.m * (d + 2)
    src = RealizableStream(tgt, UniformOn(points), total, seed=int(np.random.SeedSequence(seed).generate_state(1)[0]))
    rows: list[dict] = []
    ss = np.random.SeedSequence(seed).spawn(d + 2)
    per_depth: dict[Any, Counter] = {}
    for j, depth in enumerate([None, *range(d + 1)]):
        base = j * runs * G.m
        res = run_batches(G, src, [(base + i * G.m, base + (i + 1) * G.m) for i in range(runs)], ss[j],
                          n_jobs=jobs, depth=depth)
        counts = Counter(r.output for r in res)
        per_depth[depth] = counts
        _progress.report("G with k uniform, then each k", j + 1, d + 2)
        bound = eta if depth is None else 2.0 ** (-d)
        for f, c in counts.most_common(3):
            rows.append({"k": "G (k uniform)" if depth is None else depth, "output": repr(f),
                         "frequency": c / runs, "bound": bound, "meets_bound": bool(c / runs >= bound),
                         "loss": float("nan") if f is FAIL else exact_loss(f, tgt, probs), "alpha": alpha,
                         "fail_rate": counts.get(FAIL, 0) / runs, "n": G.n, "cap": G.cap, "runs": runs})
    out = out_path(out_dir)
    table = write_table(rows, out / "blm20_stability.csv")
    fig, ax = new_figure()
    labels, freqs, colors = [], [], []
    for depth, counts in per_depth.items():
        best = next(((f, c) for f, c in counts.most_common() if f is not FAIL), None)
        labels.append("G" if depth is None else f"k={depth}")
        freqs.append(0.0 if best is None else best[1] / runs)
        colors.append("tab:blue" if depth is None else "tab:gray")
    ax.bar(labels, freqs, color=colors)
    ax.axhline(eta, color="tab:red", ls="--", label=f"η = 2^-(d+1)/(d+1) = {eta:.4f} (Theorem 10)")
    ax.axhline(2.0 ** (-d), color="tab:orange", ls=":", label=f"2^-d = {2.0 ** -d:.4f} (Lemma 12)")
    ax.set_ylabel("frequency of the most frequent hypothesis (≠ Fail)")
    ax.set_ylim(0, 1.25)
    ax.set_title(f"G on thresholds({points}), d={d}, n={G.n}, N={G.cap}, {runs} runs each")
    ax.legend(fontsize=8)
    fig_path = save_figure(fig, out / "blm20_stability.png")
    g_best = [r for r in rows if r["k"] == "G (k uniform)" and r["output"] != "Fail"]
    ok = bool(g_best) and g_best[0]["frequency"] >= eta and g_best[0]["loss"] <= alpha
    return ExperimentResult("blm20_stability", rows, table, [fig_path],
                            f"Theorem 10 {'holds' if ok else 'NOT observed'}: top f has frequency "
                            f"{g_best[0]['frequency'] if g_best else 0:.3f} ≥ η={eta:.4f} and loss ≤ α={alpha}")
