"""Experiment: Lemma 13 (BLM20) — every f with Pr_{S∼D_k,T∼D^n}[SOA(S∘T) = f] ≥ 2^{-d} has loss_D(f) ≤ d/n.

Cells with d/n ≥ 1 are vacuous (every loss is ≤ 1) and are marked so, never counted as support. Each cell's check
is made at 99 % confidence: every output whose two-sided Clopper–Pearson interval reaches 2^{-d} ("plausibly
frequent") must have loss ≤ d/n, and an output never seen must be implausible (its upper bound 1 − 0.005^{1/runs}
below 2^{-d}), so that no frequent f can hide among the unseen."""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import numpy as np

from .. import _progress
from ..audit.clopper_pearson import lower_bound, upper_bound
from ..classes.thresholds import Thresholds
from ..pac.global_stable import GlobalStableLearner, run_batches
from ..pac.sources import RealizableStream
from ..pac.tournament import FAIL
from ._blm20_common import ExperimentResult, Harmonic, exact_loss, new_figure, out_path, save_figure, write_table


def run(
    points: int = 15,
    target: int | None = None,
    sizes: Sequence[int] = (1, 2, 4, 8, 16, 32),
    runs: int = 400,
    *,
    seed: Any = 0,
    jobs: int = 1,
    out_dir: Any = None,
) -> ExperimentResult:
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
            res = run_batches(G, src, [(i * G.m, (i + 1) * G.m) for i in range(runs)], child, n_jobs=jobs, depth=depth)
            counts = Counter(r.output for r in res)
            bar = 2.0 ** (-d)
            frequent = [(f, c / runs) for f, c in counts.items() if f is not FAIL and c / runs >= bar]
            worst = max((exact_loss(f, tgt, sampler.p) for f, _ in frequent), default=float("nan"))
            plausible = [f for f, c in counts.items() if f is not FAIL and upper_bound(c, runs, 0.005) >= bar]
            worst_plausible = max((exact_loss(f, tgt, sampler.p) for f in plausible), default=float("nan"))
            unseen = float(upper_bound(0, runs, 0.005))
            top = max((c for f, c in counts.items() if f is not FAIL), default=0)
            _progress.report("cells (n × k)", len(rows) + 1, len(sizes) * (d + 1))
            rows.append(
                {
                    "n": int(n),
                    "k": depth,
                    "frequent_outputs": len(frequent),
                    "max_loss_of_frequent": worst,
                    "bound_d_over_n": d / n,
                    "vacuous": bool(d / n >= 1),
                    "holds": bool(not frequent or worst <= d / n + 1e-12),
                    "plausibly_frequent": len(plausible),
                    "max_loss_plausibly_frequent": worst_plausible,
                    "unseen_ci99_high": unseen,
                    "holds_at_99": bool(unseen < bar and (not plausible or worst_plausible <= d / n + 1e-12)),
                    "top_frequency": top / runs,
                    "top_ci99_low": float(lower_bound(top, runs, 0.005)) if top else 0.0,
                    "top_ci99_high": float(upper_bound(top, runs, 0.005)),
                    "fail_rate": counts.get(FAIL, 0) / runs,
                    "runs": runs,
                }
            )
    out = out_path(out_dir)
    table = write_table(rows, out / "blm20_generalization.csv")
    fig, ax = new_figure()
    ns = np.array(sorted(set(r["n"] for r in rows)), dtype=float)
    ax.plot(ns, d / ns, "k--", label="d/n (Lemma 13)")
    for depth in range(d + 1):
        pts = [
            (r["n"], r["max_loss_of_frequent"])
            for r in rows
            if r["k"] == depth and not np.isnan(r["max_loss_of_frequent"])
        ]
        if pts:
            ax.plot(*zip(*pts), "o-", label=f"k={depth}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("symlog", linthresh=1e-3)
    ax.set_xlabel("auxiliary sample size n")
    ax.set_ylabel("max loss of f with Pr ≥ 2^-d")
    ax.set_title(f"Lemma 13 on thresholds({points}), d={d}, harmonic points")
    ax.legend(fontsize=8)
    fig_path = save_figure(fig, out / "blm20_generalization.png")
    return ExperimentResult("blm20_generalization", rows, table, [fig_path], _verdict(rows))


def _verdict(rows: list[dict]) -> str:
    real = [r for r in rows if not r["vacuous"]]
    vac = len(rows) - len(real)
    point = sum(r["holds"] for r in real)
    conf = sum(r["holds_at_99"] for r in real)
    if not real:
        return f"Lemma 13 not tested: all {len(rows)} cells are vacuous (d/n ≥ 1)"
    word = "holds in every non-vacuous cell" if point == len(real) else "VIOLATED in some non-vacuous cell"
    return (
        f"Lemma 13 {word}: {point} of {len(real)} cells with d/n < 1 by the observed frequencies, {conf} of "
        f"{len(real)} at 99 % confidence (every output whose Clopper–Pearson interval reaches 2^-d has loss "
        f"≤ d/n, and unseen outputs are below 2^-d); {vac} vacuous cells (d/n ≥ 1) not counted"
    )
