"""Experiment: ReduceTree is stable (GGKM21 Lemma 5.4 + pigeonhole) — over independent datasets, the most frequent
element of Ĥ appears in at least 1/(d+1) of the sets, and every element has empirical error ≤ A (Claim 5.9)."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np

from .. import _progress
from ..classes.finite import FiniteClass
from ..classes.ops import to_finite
from ..classes.thresholds import Thresholds
from ..pac.reduce_tree import ReduceTreeSchedule
from ._blm20_common import ExperimentResult, UniformOn, new_figure, out_path, save_figure, write_table
from ._ggkm21_common import intervals_class, reduce_tree_runs


def _classes() -> list[FiniteClass]:
    eye = np.vstack([np.eye(8, dtype=np.uint8), np.zeros((1, 8), dtype=np.uint8)])
    return [to_finite(Thresholds(15)), FiniteClass(eye, name="points(8)"), intervals_class(8)]


def run(
    n: int = 60,
    A: float = 0.3,
    runs: int = 300,
    K: int | None = None,
    *,
    seed: Any = 0,
    jobs: int = 1,
    out_dir: Any = None,
) -> ExperimentResult:
    """Frequency of ReduceTree's most frequent output over ``runs`` datasets of n examples, per class."""
    rows = []
    ss = np.random.SeedSequence(seed)
    classes = _classes()
    for i, H in enumerate(classes):
        d = H.ldim()
        target = H.hypothesis(H.n_hypotheses // 2)
        KK = math.floor(A * n) + 1 if K is None else int(K)
        sch = ReduceTreeSchedule.theory(d, A, KK)
        res = reduce_tree_runs(H, target, UniformOn(H.n_points), n, runs, sch, ss.spawn(1)[0], jobs)
        counts = Counter(h for r in res for h in r.hypotheses)
        top, c = counts.most_common(1)[0] if counts else (None, 0)
        rows.append(
            {
                "class": H.name,
                "d": d,
                "n": n,
                "A": A,
                "K": KK,
                "runs": runs,
                "top_frequency": c / runs,
                "bound": 1 / (d + 1),
                "meets_bound": bool(c / runs >= 1 / (d + 1)),
                "top_is_target": bool(top == target),
                "distinct_outputs": len(counts),
                "empty_sets": sum(1 for r in res if not r.hypotheses),
                "break_rounds": " ".join(
                    f"{k}:{v}" for k, v in sorted(Counter(r.t_hat for r in res).items(), key=lambda kv: str(kv[0]))
                ),
            }
        )
        _progress.report("classes", i + 1, len(classes))
    out = out_path(out_dir)
    table = write_table(rows, out / "ggkm21_stability.csv")
    fig, ax = new_figure()
    xs = np.arange(len(rows))
    ax.bar(xs - 0.2, [r["top_frequency"] for r in rows], 0.4, label="most frequent element of Ĥ")
    ax.bar(xs + 0.2, [r["bound"] for r in rows], 0.4, color="tab:red", label="1/(d+1) (Lemma 5.4 + pigeonhole)")
    ax.set_xticks(xs, [f"{r['class']}\nd={r['d']}" for r in rows])
    ax.set_ylabel("fraction of datasets")
    ax.set_ylim(0, 1.15)
    ax.set_title(
        f"ReduceTree stability: {runs} datasets of n={n}, A={A}, K=⌊An⌋+1"
        if K is None
        else f"ReduceTree stability: {runs} datasets of n={n}, A={A}, K={K}"
    )
    ax.legend(fontsize=8)
    fig_path = save_figure(fig, out / "ggkm21_stability.png")
    ok = all(r["meets_bound"] for r in rows)
    return ExperimentResult(
        "ggkm21_stability",
        rows,
        table,
        [fig_path],
        f"stability {'holds' if ok else 'NOT observed'} for every class: top frequencies "
        + ", ".join(f"{r['top_frequency']:.2f}≥{r['bound']:.2f}" for r in rows),
    )
