"""Experiment: ReduceTree's output sets are small — |Ĥ| against the Lemma 5.5 bound Π_{s<t̂}(k_s + 1) (and the
tree's leaves), for several orders K, on realizable and noisy data (the bound holds for every input)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _progress
from ..classes.ops import random_class
from ..pac.reduce_tree import ReduceTreeSchedule
from ..pac.sources import RealizableStream
from ..pac.polyprilearn import map_datasets, run_dataset
from ._blm20_common import ExperimentResult, UniformOn, new_figure, out_path, save_figure, write_table
from ._ggkm21_common import intervals_class


def run(
    n: int = 40,
    A: float = 0.3,
    Ks: Sequence[int] = (1, 2, 3, 5, 8),
    runs: int = 100,
    noise: float = 0.1,
    *,
    seed: Any = 0,
    jobs: int = 1,
    out_dir: Any = None,
) -> ExperimentResult:
    """Max and mean |Ĥ| and leaves over ``runs`` datasets per K, beside Π_{t≤d}(k_t + 1)."""
    rows = []
    ss = np.random.SeedSequence(seed)
    classes = [intervals_class(10), random_class(40, 8, seed=3)]
    cells, total = 0, len(classes) * len(Ks) * 2
    for H in classes:
        d = H.ldim()
        target = H.hypothesis(H.n_hypotheses // 3)
        for K in Ks:
            sch = ReduceTreeSchedule.theory(d, A, int(K))
            for nz in (0.0, noise):
                s = int(ss.spawn(1)[0].generate_state(1)[0])
                src = RealizableStream(target, UniformOn(H.n_points), n * runs, seed=s, noise=nz)
                res = map_datasets(run_dataset, [(H, src, i * n, (i + 1) * n, sch) for i in range(runs)], jobs)
                sizes = [len(r.hypotheses) for r in res]
                rows.append(
                    {
                        "class": H.name,
                        "d": d,
                        "K": K,
                        "noise": nz,
                        "runs": runs,
                        "n": n,
                        "max_size": max(sizes),
                        "mean_size": float(np.mean(sizes)),
                        "max_leaves": max(r.leaves for r in res),
                        "bound": sch.leaf_bound(),
                        "within_bound": bool(max(max(sizes), max(r.leaves for r in res)) <= sch.leaf_bound()),
                        "no_break": sum(r.t_hat is None for r in res),
                    }
                )
                cells += 1
                _progress.report("class × K × noise", cells, total)
    out = out_path(out_dir)
    table = write_table(rows, out / "ggkm21_list_size.csv")
    fig, ax = new_figure()
    for H in classes:
        for nz, style in ((0.0, "o-"), (noise, "s--")):
            pts = [(r["K"], r["max_size"]) for r in rows if r["class"] == H.name and r["noise"] == nz]
            ax.plot(*zip(*pts), style, label=f"{H.name}, max |Ĥ| (noise {nz:g})")
        pts = [(r["K"], r["bound"]) for r in rows if r["class"] == H.name and r["noise"] == 0.0]
        ax.plot(*zip(*pts), ":", color="gray", label=f"{H.name}: Π(k_t+1) (Lemma 5.5)")
    ax.set_yscale("log")
    ax.set_xlabel("final irreducibility order K")
    ax.set_ylabel("|Ĥ|")
    ax.set_title(f"ReduceTree output size vs Lemma 5.5 ({runs} datasets of n={n}, A={A})")
    ax.legend(fontsize=7)
    fig_path = save_figure(fig, out / "ggkm21_list_size.png")
    ok = all(r["within_bound"] for r in rows)
    return ExperimentResult(
        "ggkm21_list_size",
        rows,
        table,
        [fig_path],
        f"Lemma 5.5 {'holds' if ok else 'VIOLATED'}: max |Ĥ| "
        f"{max(r['max_size'] for r in rows)} over all runs, bounds ≥ "
        f"{min(r['bound'] for r in rows)}",
    )
