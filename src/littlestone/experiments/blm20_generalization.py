"""Experiment: Lemma 13 (seed 001) — every f with Pr_{S∼D_k,T∼D^n}[SOA(S∘T) = f] ≥ 2^{-d} has loss_D(f) ≤ d/n."""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import numpy as np

from .. import _progress
from ..classes.thresholds import Thresholds
from ..pac.global_stable import GlobalStableLearner, run_batches
from ..pac.sources import RealizableStream
from ..pac.tournament import FAIL
from ._blm20_common import ExperimentResult, Harmonic, exact_loss, new_figure, out_path, save_figure, write_table


def run(points: int = 15, target: int | None = None, sizes: Sequence[int] = (1, 2, 4, 8, 16, 32), runs: int = 400, *,
        seed: Any = 0, jobs: int = 1, out_dir: Any = None) -> ExperimentResult:
    """Lemma 13: loss of the frequent SOA(S∘T) outputs vs d/n, for each depth k and auxiliary size n."""
    H = Thresholds(points)
    d = H.ldim()
    sampler = Harmonic(points)
    tgt = H.hypothesis(points // 2 + 1 if target is None else target)
    rows: list[dict] = []
    ss = np.random.SeedSequence(seed)
    for n in sizes:
        G = GlobalStableLearner(H, 1.0, n=int(n))
        for depth in range(d + 1):
            child = ss.spawn(1)[0]
            src = RealizableStream(tgt, sampler, runs * G.m, seed=int(child.generate_state(1)[0]))
            res = run_batches(G, src, [(i * G.m, (i + 1) * G.m) for i in range(runs)], child, n_jobs=jobs,
                              depth=depth)
            counts = Counter(r.output for r in res)
            frequent = [(f, c / runs) for f, c in counts.items() if f is not FAIL and c / runs >= 2.0 ** (-d)]
            worst = max((exact_loss(f, tgt, sampler.p) for f, _ in frequent), default=float("nan"))
            _progress.report("cells (n × k)", len(rows) + 1, len(sizes) * (d + 1))
            rows.append({"n": int(n), "k": depth, "frequent_outputs": len(frequent), "max_loss_of_frequent": worst,
                         "bound_d_over_n": d / n, "holds": bool(not frequent or worst <= d / n + 1e-12),
                         "fail_rate": counts.get(FAIL, 0) / runs, "runs": runs})
    out = out_path(out_dir)
    table = write_table(rows, out / "blm20_generalization.csv")
    fig, ax = new_figure()
    ns = np.array(sorted(set(r["n"] for r in rows)), dtype=float)
    ax.plot(ns, d / ns, "k--", label="d/n (Lemma 13)")
    for depth in range(d + 1):
        pts = [(r["n"], r["max_loss_of_frequent"]) for r in rows if r["k"] == depth
               and not np.isnan(r["max_loss_of_frequent"])]
        if pts:
            ax.plot(*zip(*pts), "o-", label=f"k={depth}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("symlog", linthresh=1e-3)
    ax.set_xlabel("auxiliary sample size n")
    ax.set_ylabel("max loss of f with Pr ≥ 2^-d")
    ax.set_title(f"Lemma 13 on thresholds({points}), d={d}, harmonic points")
    ax.legend(fontsize=8)
    fig_path = save_figure(fig, out / "blm20_generalization.png")
    ok = all(r["holds"] for r in rows)
    return ExperimentResult("blm20_generalization", rows, table, [fig_path],
                            f"Lemma 13 {'holds in every cell' if ok else 'VIOLATED in some cell'}")
