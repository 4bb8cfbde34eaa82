"""Experiment: accuracy of PolyPriLearn and PolyPriPropLearn (GGKM21) against the sample size and ε, beside BLM20's
learner M on the same class and distribution (point functions, skewed points)."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .. import _progress
from ..pac.blm20 import blm20_learn, plan_sizes
from ..pac.polyprilearn import polyprilearn
from ..pac.proper import polypriproplearn
from ..pac.sources import RealizableStream
from ._blm20_common import ExperimentResult, Harmonic, exact_loss, new_figure, out_path, save_figure, write_table
from .blm20_accuracy import points_class


def run(
    points: int = 16,
    target: int = 0,
    epsilons: Sequence[float] = (0.5, 1.0, 2.0),
    totals: Sequence[int] = (20_000, 100_000, 500_000),
    per_dataset: int = 100,
    reps: int = 2,
    alpha: float = 0.1,
    delta: float = 1e-6,
    beta: float = 0.05,
    *,
    seed: Any = 0,
    jobs: int = 1,
    out_dir: Any = None,
    backend: str = "seeded",
) -> ExperimentResult:
    """Loss of the three learners with a total budget of examples (user sizes: the theorems' are far larger)."""
    H = points_class(points)
    d = H.ldim()
    sampler = Harmonic(points)
    tgt = H.hypothesis(target)
    A = alpha / 2
    K = math.floor(A * per_dataset) + 1
    rows: list[dict] = []
    ss = np.random.SeedSequence(seed)
    cells, n_cells = 0, len(epsilons) * len(totals) * reps * 3
    for eps in epsilons:
        blm = plan_sizes(d, epsilon=eps, delta=delta, alpha=alpha, beta=beta)
        for N in totals:
            n_gen = max(1, N // 10)
            for learner in ("PolyPriLearn", "PolyPriPropLearn", "BLM20"):
                losses, fallbacks = [], 0
                for _ in range(reps):
                    child = ss.spawn(1)[0]
                    src = RealizableStream(tgt, sampler, N, seed=int(child.generate_state(1)[0]))
                    if learner == "PolyPriLearn":
                        res = polyprilearn(
                            H,
                            src,
                            epsilon=eps,
                            delta=delta,
                            alpha=alpha,
                            beta=beta,
                            d=d,
                            n=per_dataset,
                            m=N // per_dataset,
                            K=K,
                            backend=backend,
                            seed=child,
                            n_jobs=jobs,
                        )
                        h, fb = res.chosen, res.bottom
                    elif learner == "PolyPriPropLearn":
                        res = polypriproplearn(
                            H,
                            src,
                            epsilon=eps,
                            delta=delta,
                            alpha=alpha,
                            beta=beta,
                            d=d,
                            n=per_dataset,
                            m=(N - n_gen) // per_dataset,
                            K=K,
                            n_generic=n_gen,
                            backend=backend,
                            seed=child,
                            n_jobs=jobs,
                        )
                        h, fb = res.chosen, res.bottom
                    else:
                        k = max(1, (N - n_gen) // blm.batch_size)
                        res = blm20_learn(
                            H,
                            src,
                            epsilon=eps,
                            delta=delta,
                            alpha=alpha,
                            beta=beta,
                            n_batches=k,
                            n_generic=n_gen,
                            backend=backend,
                            seed=child,
                            n_jobs=jobs,
                        )
                        h, fb = res.chosen, res.fallback
                    losses.append(exact_loss(h, tgt, sampler.p))
                    fallbacks += int(fb)
                    cells += 1
                    _progress.report("runs (ε × n × learner × rep)", cells, n_cells)
                rows.append(
                    {
                        "learner": learner,
                        "epsilon": eps,
                        "n": N,
                        "mean_loss": float(np.mean(losses)),
                        "max_loss": float(np.max(losses)),
                        "fallback_rate": fallbacks / reps,
                        "alpha": alpha,
                        "reps": reps,
                        "per_dataset": per_dataset,
                        "K": K,
                    }
                )
    out = out_path(out_dir)
    table = write_table(rows, out / "ggkm21_accuracy.csv")
    fig, ax = new_figure(8.0, 4.6)
    styles = {"PolyPriLearn": "o-", "PolyPriPropLearn": "s--", "BLM20": "^:"}
    # series with the same points (e.g. every learner at its fallback for every ε) are drawn once, labelled with all
    # their members, so that the legend never lists lines hidden under one another
    groups: dict[tuple, list[tuple[str, float]]] = {}
    for learner in styles:
        for eps in epsilons:
            pts = tuple(
                sorted((r["n"], r["mean_loss"]) for r in rows if r["learner"] == learner and r["epsilon"] == eps)
            )
            groups.setdefault(pts, []).append((learner, eps))
    for pts, members in groups.items():
        learners = list(dict.fromkeys(m[0] for m in members))
        if len(members) == 1:
            label = f"{members[0][0]}, ε = {members[0][1]:g}"
        else:
            label = (
                "\n".join(f"{lr}, ε = {', '.join(f'{e:g}' for m, e in members if m == lr)}" for lr in learners)
                + f"\n({len(members)} series coincide: one line)"
            )
        ax.plot(*zip(*pts), styles[learners[0]], label=label)
    ax.axhline(alpha, color="k", ls="--", lw=0.8, label=f"α = {alpha}")
    ax.set_xscale("log")
    ax.set_xlabel("total examples n")
    ax.set_ylabel("loss (exact, skewed points)")
    coinciding = sum(len(m) for m in groups.values() if len(m) > 1)
    ax.set_title(
        f"{H.name}, d={d}: GGKM21 vs BLM20 (user sizes)"
        + (
            f"\n{coinciding} of {sum(len(m) for m in groups.values())} series coincide: drawn once each group"
            if coinciding
            else ""
        ),
        fontsize=10,
    )
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig_path = save_figure(fig, out / "ggkm21_accuracy.png")
    best = {lr: min(r["mean_loss"] for r in rows if r["learner"] == lr and r["n"] == max(totals)) for lr in styles}
    return ExperimentResult(
        "ggkm21_accuracy",
        rows,
        table,
        [fig_path],
        "loss at the largest n: " + ", ".join(f"{k} {v:.3f}" for k, v in best.items()),
    )
