"""Experiment: G is globally stable (BLM20 Lemma 12 / Theorem 10) — some f has Pr[G(S) = f] ≥ 2^{-(d+1)}/(d+1)
and loss ≤ α; per depth k, some k ≤ d has Pr_{S∼D̃_k,T}[SOA(S∘T) = f] ≥ 2^{-d} (Lemma 12).

Every frequency comes with a two-sided 99 % Clopper–Pearson interval. Depth k = 0 is plain SOA(T) (no tournament),
which on easy distributions is stable by itself; so the verdict also reports each depth and G restricted to the
tournament depths k ∼ U{1..d} (pooled from the per-depth runs), which is what Lemma 12 is about."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from .. import _progress
from ..audit.clopper_pearson import lower_bound, upper_bound
from ..classes.thresholds import Thresholds
from ..pac.global_stable import GlobalStableLearner, run_batches
from ..pac.sources import RealizableStream
from ..pac.tournament import FAIL
from ._blm20_common import ExperimentResult, UniformOn, exact_loss, new_figure, out_path, save_figure, write_table


def run(
    points: int = 7,
    target: int | None = None,
    alpha: float = 0.5,
    runs: int = 2000,
    *,
    seed: Any = 0,
    jobs: int = 1,
    out_dir: Any = None,
) -> ExperimentResult:
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

    def add_rows(label: Any, counts: Counter, trials: int, bound: float) -> None:
        for f, c in counts.most_common(3):
            lo, hi = _ci(c, trials)
            rows.append(
                {
                    "k": label,
                    "output": repr(f),
                    "frequency": c / trials,
                    "ci99_low": lo,
                    "ci99_high": hi,
                    "bound": bound,
                    "meets_bound": bool(c / trials >= bound),
                    "confident": bool(lo >= bound),
                    "loss": float("nan") if f is FAIL else exact_loss(f, tgt, probs),
                    "alpha": alpha,
                    "fail_rate": counts.get(FAIL, 0) / trials,
                    "n": G.n,
                    "cap": G.cap,
                    "runs": trials,
                }
            )

    for j, depth in enumerate([None, *range(d + 1)]):
        base = j * runs * G.m
        res = run_batches(
            G, src, [(base + i * G.m, base + (i + 1) * G.m) for i in range(runs)], ss[j], n_jobs=jobs, depth=depth
        )
        counts = Counter(r.output for r in res)
        per_depth[depth] = counts
        _progress.report("G with k uniform, then each k", j + 1, d + 2)
        add_rows("G (k uniform)" if depth is None else depth, counts, runs, eta if depth is None else 2.0 ** (-d))
    tournament = sum((per_depth[k] for k in range(1, d + 1)), Counter())  # k ∼ U{1..d}: equal runs per depth
    add_rows("G without k=0 (k ∼ U{1..d})", tournament, runs * d, eta)
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
    ax.axhline(2.0 ** (-d), color="tab:orange", ls=":", label=f"2^-d = {2.0**-d:.4f} (Lemma 12)")
    ax.set_ylabel("frequency of the most frequent hypothesis (≠ Fail)")
    ax.set_ylim(0, 1.25)
    ax.set_title(f"G on thresholds({points}), d={d}, n={G.n}, N={G.cap}, {runs} runs each")
    ax.legend(fontsize=8)
    fig_path = save_figure(fig, out / "blm20_stability.png")
    return ExperimentResult("blm20_stability", rows, table, [fig_path], _verdict(rows, d, eta, alpha))


def _ci(count: int, trials: int) -> tuple[float, float]:
    """Two-sided 99 % Clopper–Pearson interval for a frequency (0.5 % on each side)."""
    return float(lower_bound(count, trials, 0.005)), float(upper_bound(count, trials, 0.005))


def _verdict(rows: list[dict], d: int, eta: float, alpha: float) -> str:
    def top(label: Any) -> dict | None:
        return next((r for r in rows if r["k"] == label and r["output"] != "Fail"), None)

    def show(r: dict | None) -> str:
        if r is None:
            return "only Fail"
        return f"{r['frequency']:.3f} [{r['ci99_low']:.3f}, {r['ci99_high']:.3f}]"

    g = top("G (k uniform)")
    ok = g is not None and g["confident"] and g["loss"] <= alpha
    seen = g is not None and g["meets_bound"] and g["loss"] <= alpha
    word = "holds" if ok else ("observed, not at 99 % confidence" if seen else "NOT observed")
    depths = "; ".join(f"k={k}{' (plain SOA(T))' if k == 0 else ''} {show(top(k))}" for k in range(d + 1))
    lemma12 = [k for k in range(d + 1) if (r := top(k)) is not None and r["confident"]]
    g1 = top("G without k=0 (k ∼ U{1..d})")
    loss = "n/a" if g is None else f"{g['loss']:.3g}"
    return (
        f"Theorem 10 {word}: top f has frequency {show(g)} (99 % Clopper–Pearson) vs η={eta:.4f}, loss "
        f"{loss} ≤ α={alpha}. "
        f"Top frequency per depth vs 2^-d={2.0**-d:.4f} (Lemma 12): {depths}; Lemma 12 met with confidence at "
        f"k ∈ {{{', '.join(map(str, lemma12))}}}. Without k=0 (k ∼ U{{1..d}}): {show(g1)}."
    )
