"""Experiment: accuracy of the private learner M (BLM20 Theorem 1) against the sample size and ε."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _progress
from ..classes.finite import FiniteClass
from ..pac.blm20 import blm20_learn, plan_sizes
from ..pac.sources import RealizableStream
from ._blm20_common import ExperimentResult, Harmonic, exact_loss, new_figure, out_path, save_figure, write_table


def points_class(K: int) -> FiniteClass:
    """Point functions on K points plus the zero function (Ldim 1), as an explicit finite class."""
    return FiniteClass(np.vstack([np.eye(K, dtype=np.uint8), np.zeros((1, K), dtype=np.uint8)]), name=f"points({K})")


def run(
    points: int = 16,
    target: int = 0,
    epsilons: Sequence[float] = (0.5, 1.0, 2.0),
    fractions: Sequence[float] = (0.01, 0.03, 0.1, 0.3, 1.0),
    reps: int = 3,
    alpha: float = 0.1,
    delta: float = 1e-6,
    beta: float = 0.05,
    *,
    seed: Any = 0,
    jobs: int = 1,
    out_dir: Any = None,
    backend: str = "seeded",
) -> ExperimentResult:
    """M's loss vs n (a fraction of Theorem 1's k and n′) and ε, on point functions with skewed points."""
    H = points_class(points)
    d = H.ldim()
    sampler = Harmonic(points)
    tgt = H.hypothesis(target)
    rows: list[dict] = []
    ss = np.random.SeedSequence(seed)
    cells, n_cells = 0, len(epsilons) * len(fractions) * reps
    for eps in epsilons:
        theory = plan_sizes(d, epsilon=eps, delta=delta, alpha=alpha, beta=beta)
        for frac in fractions:
            k = max(1, int(round(theory.n_batches * frac)))
            n2 = max(1, int(round(theory.n_generic * frac)))
            total = k * theory.batch_size + n2
            losses, fallbacks = [], 0
            for _ in range(reps):
                child = ss.spawn(1)[0]
                src = RealizableStream(tgt, sampler, total, seed=int(child.generate_state(1)[0]))
                res = blm20_learn(
                    H,
                    src,
                    epsilon=eps,
                    delta=delta,
                    alpha=alpha,
                    beta=beta,
                    n_batches=k,
                    n_generic=n2,
                    backend=backend,
                    seed=child,
                    n_jobs=jobs,
                )
                losses.append(exact_loss(res.chosen, tgt, sampler.p))
                fallbacks += int(res.fallback)
                cells += 1
                _progress.report("M runs (ε × fraction × rep)", cells, n_cells)
            rows.append(
                {
                    "epsilon": eps,
                    "fraction_of_theory": frac,
                    "n": total,
                    "k": k,
                    "n_generic": n2,
                    "mean_loss": float(np.mean(losses)),
                    "max_loss": float(np.max(losses)),
                    "alpha": alpha,
                    "fallback_rate": fallbacks / reps,
                    "reps": reps,
                }
            )
    out = out_path(out_dir)
    table = write_table(rows, out / "blm20_accuracy.csv")
    fig, ax = new_figure()
    for eps in epsilons:
        pts = sorted((r["n"], r["mean_loss"]) for r in rows if r["epsilon"] == eps)
        ax.plot(*zip(*pts), "o-", label=f"ε = {eps:g}")
    ax.axhline(alpha, color="k", ls="--", label=f"α = {alpha}")
    ax.set_xscale("log")
    ax.set_xlabel("n (examples given to M)")
    ax.set_ylabel(f"mean loss over {reps} runs")
    ax.set_title(f"BLM20 M on points({points}) (d={d}), δ={delta:g}; rightmost point = Theorem 1 size")
    ax.legend(fontsize=8)
    fig_path = save_figure(fig, out / "blm20_accuracy.png")
    at_theory = [r for r in rows if r["fraction_of_theory"] == 1.0]
    ok = all(r["max_loss"] <= alpha for r in at_theory)
    verdict = (
        f"at Theorem 1's size every run has loss ≤ α: {ok}"
        if at_theory
        else "Theorem 1's size was not run (no fraction 1.0): no verdict on its guarantee"
    )
    return ExperimentResult("blm20_accuracy", rows, table, [fig_path], verdict)
