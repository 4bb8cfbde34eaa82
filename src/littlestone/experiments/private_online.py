"""Experiment: mistakes of private online learners against T — LWY25 (adaptive-adversary learner), GL21 DP-SOA
(oblivious), GL21 re-initialised every round (Thm 4.2) and the non-private SOA — under an oblivious and an adaptive
adversary, d = 1 (thresholds(2)) and d = 2 (thresholds(4)), several seeds; fitted growth a + b·ln T against
a + b·√T (least squares, the better fit by residual).

Adversaries (both realizable):
* oblivious: x_t uniform on the domain, labels of the threshold 0 (SOA(∅) errs on a constant fraction);
* adaptive ("released-hypothesis adversary", LWY25 Def. 2.4's view): it sees the released h_t and picks a point x
  where 1 − h_t(x) is still realizable by the examples so far, labelled 1 − h_t(x); when none is left, a point where
  h_t disagrees with the (then unique) consistent hypothesis; when h_t is that hypothesis, a uniform point.
  Against GL21 this is also the attack on its shared randomness: the released h_t reveals which tournament winners
  are frequent, and the adversary keeps steering the labels against exactly that hypothesis.

Every learner runs its practical setting (labelled in the table); GL21 Thm 4.2 costs O(T²) and runs up to
``adaptive_T_max`` rounds, GL21 DP-SOA (a Python loop over rounds) up to ``slow_T_max``. Privacy noise from the seeded backend by default (reproducible).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..parallel import map_seeded
from ..classes.thresholds import Thresholds
from ..online import SOA, Adversary, play
from ..private_online import GL21, LWY25, GL21Adaptive
from ._blm20_common import ExperimentResult, out_path, save_figure, write_table

LEARNERS = ("lwy25", "gl21", "gl21-adaptive", "soa")


class ReleasedHypothesisAdversary(Adversary):
    """Adaptive and realizable: labels against the learner's released hypothesis while the version space allows it."""

    def __init__(self, H: Thresholds, learner: Any):
        self.H, self.learner = H, learner
        self.start(np.random.default_rng(0))

    def start(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.V = self.H.version_space()

    def _released(self) -> Any:
        return self.learner.hypothesis()

    def propose(self, t: int) -> Any:
        h = self._released()
        pts = list(range(self.H.n))
        for x in pts:
            if not self.V.restrict(x, 1 - h(x)).is_empty():
                self._y = 1 - h(x)
                return x
        f = next(iter(self.V.hypotheses()))
        bad = [x for x in pts if h(x) != f(x)]
        x = bad[0] if bad else int(self.rng.integers(0, self.H.n))
        self._y = f(x)
        return x

    def reveal(self, t: int, x: Any, prediction: int) -> int:
        self.V = self.V.restrict(x, self._y)
        return self._y


def _make(learner: str, H: Thresholds, T: int, epsilon: float, delta: float, backend: str, seed: Any) -> Any:
    if learner == "soa":
        return SOA(H)
    kw = {"backend": "seeded", "seed": seed} if backend == "seeded" else {"backend": "secure"}
    cls = {"lwy25": LWY25, "gl21": GL21, "gl21-adaptive": GL21Adaptive}[learner]
    return cls(H, T=T, epsilon=epsilon, delta=delta, **kw)


def _one(task: tuple, seed: np.random.SeedSequence) -> dict:
    learner, adversary, d, T, epsilon, delta, backend = task
    H = Thresholds({1: 2, 2: 4}[d])
    s_learn, s_data = seed.spawn(2)
    lrn = _make(learner, H, T, epsilon, delta, backend, s_learn)
    if adversary == "oblivious":
        X = np.random.default_rng(s_data).integers(0, H.n, T)
        y = (X >= 0).astype(np.int8)
        if learner == "soa":
            mistakes = soa_mistakes(H, X, y)
        else:
            mistakes = lrn.run(X, y).mistakes
    else:
        mistakes = play(lrn, ReleasedHypothesisAdversary(H, lrn), T, seed=s_data).mistakes
    setting = getattr(lrn, "setting", "") or "non-private"
    return {
        "learner": learner,
        "adversary": adversary,
        "d": d,
        "T": T,
        "mistakes": int(mistakes),
        "mistake_rate": mistakes / T,
        "setting": setting,
        "epsilon": epsilon if learner != "soa" else math.inf,
        "delta": delta if learner != "soa" else 0.0,
    }


def soa_mistakes(H: Thresholds, X: np.ndarray, y: np.ndarray, block: int = 1 << 16) -> int:
    """The non-private SOA over a fixed stream, vectorized: predict a block with SOA(V), restrict at the first
    mistake (the same predictions as ``SOA.predict_one``/``learn_one`` round by round)."""
    V = H.version_space()
    mistakes, pos, n = 0, 0, len(y)
    while pos < n:
        end = min(n, pos + block)
        wrong = np.flatnonzero(V.soa().predict(X[pos:end]) != y[pos:end])
        if wrong.size == 0:
            pos = end
            continue
        t = pos + int(wrong[0])
        mistakes += 1
        V = V.restrict(int(X[t]), int(y[t]))
        pos = t + 1
    return mistakes


def fit_growth(Ts: np.ndarray, m: np.ndarray) -> dict:
    """Least-squares fits m ≈ a + b·ln T and m ≈ a + b·√T; the better one by residual sum of squares ("flat" when
    the curve moves by at most 1 + 2% of its maximum, "linear" when the mistake rate at the largest T is still at least
    half the rate at the smallest: the learner has not converged in the range)."""
    out: dict = {}
    for name, f in (("log", np.log), ("sqrt", np.sqrt)):
        A = np.column_stack([np.ones_like(Ts, dtype=float), f(Ts.astype(float))])
        coef, *_ = np.linalg.lstsq(A, m.astype(float), rcond=None)
        rss = float(np.sum((A @ coef - m) ** 2))
        out[name] = (float(coef[0]), float(coef[1]), rss)
    best = min(out, key=lambda k: out[k][2])
    if float(m.max() - m.min()) <= 1 + 0.02 * float(m.max()):
        best = "flat"
    elif m[-1] / Ts[-1] >= 0.5 * m[0] / Ts[0]:
        best = "linear"
    return {"best": best, **{f"{k}_b": v[1] for k, v in out.items()}, **{f"{k}_rss": v[2] for k, v in out.items()}}


def run(
    Ts: tuple = (1_000, 10_000, 100_000, 1_000_000),
    ds: tuple = (1, 2),
    seeds: int = 3,
    epsilon: float = 1.0,
    delta: float = 1e-6,
    adaptive_T_max: int = 1_000,
    slow_T_max: int = 1_000_000,
    learners: tuple = LEARNERS,
    *,
    seed: Any = 0,
    jobs: int = 1,
    out_dir: Any = None,
    backend: str = "seeded",
) -> ExperimentResult:
    """Mistakes against T for LWY25, GL21 (oblivious), GL21 Thm 4.2 and the SOA, oblivious and adaptive adversaries."""
    for name in learners:
        if name not in LEARNERS:
            raise ValueError(f"unknown learner {name!r} (choose among {', '.join(LEARNERS)})")
    if backend not in ("seeded", "secure"):
        raise ValueError(f"backend must be 'seeded' or 'secure', got {backend!r}")
    tasks = []
    for learner in learners:
        for adversary in ("oblivious", "adaptive"):
            for d in ds:
                for T in Ts:
                    T = int(T)
                    if learner == "gl21-adaptive" and T > adaptive_T_max:
                        continue
                    if T > slow_T_max and learner == "gl21":  # GL21's forest is updated round by round
                        continue
                    for r in range(int(seeds)):
                        tasks.append((learner, adversary, d, T, epsilon, delta, backend))
    rows = map_seeded(_one, tasks, seed=seed, n_jobs=jobs, progress="games")  # game i: child i of seed
    out = out_path(out_dir)
    table = write_table(rows, out / "private_online_runs.csv")
    summary, fig_path, verdict = summarize(rows, out, epsilon=epsilon, delta=delta)
    return ExperimentResult("private_online", summary, table, [fig_path], verdict)


def summarize(rows: list[dict], out: Any, *, epsilon: float, delta: float) -> tuple[list[dict], Any, str]:
    """Mean mistakes per (learner, adversary, d, T), the fitted growth of each curve, the CSV and the PNG."""
    learners = [ln for ln in LEARNERS if any(r["learner"] == ln for r in rows)]
    ds = sorted({int(r["d"]) for r in rows})
    seeds = max(
        sum(1 for r in rows if (r["learner"], r["adversary"], r["d"], r["T"]) == key)
        for key in {(r["learner"], r["adversary"], r["d"], r["T"]) for r in rows}
    )
    out = out_path(out)
    # summary rows: mean mistakes per (learner, adversary, d, T) and the fitted growth per curve
    summary: list[dict] = []
    fits: dict[tuple, dict] = {}
    for learner in learners:
        for adversary in ("oblivious", "adaptive"):
            for d in ds:
                sel = [r for r in rows if (r["learner"], r["adversary"], r["d"]) == (learner, adversary, d)]
                if not sel:
                    continue
                Tgrid = sorted({r["T"] for r in sel})
                means = np.array([np.mean([r["mistakes"] for r in sel if r["T"] == T]) for T in Tgrid])
                fit = fit_growth(np.array(Tgrid), means) if len(Tgrid) >= 3 else {"best": "n/a"}
                fits[(learner, adversary, d)] = {"T": Tgrid, "mean": means, **fit}
                for T, m in zip(Tgrid, means):
                    summary.append(
                        {
                            "learner": learner,
                            "adversary": adversary,
                            "d": d,
                            "T": T,
                            "mean_mistakes": float(m),
                            "seeds": int(seeds),
                            "fitted_growth": fit["best"],
                            "setting": sel[0]["setting"],
                        }
                    )
    write_table(summary, out / "private_online.csv")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    styles = {"lwy25": "tab:blue", "gl21": "tab:orange", "gl21-adaptive": "tab:red", "soa": "tab:gray"}
    marks = {1: "o-", 2: "s--"}
    for ax, adversary in zip(axes, ("oblivious", "adaptive")):
        for (learner, adv, d), f in fits.items():
            if adv != adversary:
                continue
            ax.plot(
                f["T"],
                np.maximum(f["mean"], 0.5),
                marks[d],
                color=styles[learner],
                ms=4,
                label=f"{learner} d={d} ({f['best']})",
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("T (rounds)")
        ax.set_title(f"{adversary} adversary, ε={epsilon:g}, δ={delta:g}")
        ax.legend(fontsize=7)
    axes[0].set_ylabel(f"mistakes (mean of {seeds} seeds; 0 drawn at 0.5)")
    fig_path = save_figure(fig, out / "private_online.png")
    lw = [f for (ln, adv, d), f in fits.items() if ln == "lwy25" and adv == "adaptive"]
    verdict = (
        "LWY25 against the adaptive adversary: fitted growth "
        + ", ".join(f"{f['best']}" for f in lw)
        + f" (d = {', '.join(str(d) for d in ds)}); practical settings"
    )
    return summary, fig_path, verdict
