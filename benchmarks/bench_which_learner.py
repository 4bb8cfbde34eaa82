"""Which learner to use: for each private estimator of littlestone.pac, the training size n from which it stops
falling back to its data-independent output and from which it beats the majority class, at ε = 0.1, 1, 8.

Data (all offline, bundled with scikit-learn), each as one feature on a fixed grid of 4 equal cells of a *published*
range and the class of decision stumps 1[x ≥ t] / 1[x < t] on that grid (``littlestone.pac.grid.grid_stumps(4, 1)``,
the demo's class; Ldim 3):

* ``breast-cancer`` — the demo's data (littlestone.experiments.demo): feature 27 (worst concave points) on
  [0, 0.291], label 1 = malignant; 569 examples;
* ``wine`` — scikit-learn's wine, class 0 vs the rest (label 1 = class 0), feature 12 (proline) on the range
  [278, 1680] printed in the data set's description; 178 examples;
* ``digits`` — scikit-learn's 8×8 digits, digits 5–9 vs 0–4 (label 1 = 5–9), pixel 52 (row 6, column 4) on the pixel
  range [0, 16]; 1797 examples.

Splits: the demo's stratified 70/30 train/test split (``stratified_split``), one per seed. For each n on the doubling
grid 16, 32, 64, … (capped at the training-set size, which is the last grid point), a fit reads n training examples
drawn *without* replacement from the split's training set; accuracy is measured on the split's test set; the
majority baseline is the test accuracy of the constant classifier that predicts the training set's majority label.
Sizes beyond the data are never simulated (no resampling with replacement): a learner that has not stopped falling
back (or not beaten the majority) by the largest n is reported as "never (≤ N)".

Estimators, user sizes as a function of n (privacy holds for every setting; the theory sizes need far more data than
these sets hold, see ``littlestone bounds``), δ = 10⁻⁴ where the learner takes one, seeded backend:

* ``GenericLearnerClassifier`` (ε-DP; exponential mechanism over the class; no data-independent output);
* ``BLM20Classifier`` — the demo's shape: n′ = ⌊n/4⌋ fresh examples, k = ⌊(n − n′)/3⌋ batches of 3 (aux 1, cap 2),
  η = 0.1; fallback = ``result_.fallback``;
* ``AgnosticBLM20Classifier`` — subsample N₀ = ⌊q·n⌋, the largest its amplification allows at ε, inner BLM20 sized like the above for N₀; fallback =
  ``result_.inner.fallback``;
* ``PolyPriLearnClassifier`` — m = ⌊n/2⌋ datasets of 2, K = 2 (bench_practitioner's setting); fallback =
  ``result_.bottom`` (⊥);
* ``PolyPriPropLearnClassifier`` — n′ = ⌊n/4⌋, m = ⌊(n − n′)/2⌋ datasets of 2, K = 2; fallback = ``result_.bottom``;
* ``AgnosticPolyPriPropLearnClassifier`` — n examples, of which |I| = ⌈ε₀·n⌉ are relabelled; inner PolyPriPropLearn
  with m = ⌊|I|/8⌋ datasets of 2, K = 2, n′ = ⌊|I|/8⌋ (≈ 3|I|/8 draws; ε₀ = ``eps0_for(ε)``); fallback =
  ``result_.inner.bottom``.

"Stops falling back from n" = the least grid n such that at it and every larger grid n fewer than half of the fits
fell back; "beats the majority from n" = the least grid n such that at it and every larger grid n the mean test
accuracy exceeds the majority baseline's by at least 0.02 (``MARGIN``). A fit that raises (sizes the learner
refuses) counts as a fallback at the majority's accuracy, and the table says so.

Usage: .venv/bin/python benchmarks/bench_which_learner.py [--splits 3] [--quick]
Writes benchmarks/results/which_learner.md.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

HERE = Path(__file__).resolve().parent
#: "beats the majority" = mean test accuracy above the majority class's by at least this (the spread of the majority
#: baseline between splits is about 0.01 on digits, where it sits at 0.50)
MARGIN = 0.02
EPSILONS = (0.1, 1.0, 8.0)
DELTA = 1e-4
BINS = 4
ESTIMATORS = (
    "GenericLearnerClassifier",
    "BLM20Classifier",
    "AgnosticBLM20Classifier",
    "PolyPriLearnClassifier",
    "PolyPriPropLearnClassifier",
    "AgnosticPolyPriPropLearnClassifier",
)


@dataclass(frozen=True)
class Task:
    name: str
    X: np.ndarray  # (n, 1) grid cells
    y: np.ndarray  # 0/1
    what: str


def _cells(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    from littlestone.pac.grid import grid_cells, grid_edges

    return grid_cells(values.reshape(-1, 1), grid_edges([(lo, hi)], BINS)).reshape(-1, 1)


def load_tasks(names: tuple[str, ...] = ("breast-cancer", "wine", "digits")) -> list[Task]:
    """The three binary one-feature tasks of the module doc (offline)."""
    from sklearn.datasets import load_digits, load_wine

    from littlestone.experiments.demo import PUBLISHED_RANGES, read_breast_cancer

    out = []
    for name in names:
        if name == "breast-cancer":
            values, target, _ = read_breast_cancer()
            lo, hi = PUBLISHED_RANGES[27][1:]
            out.append(Task(name, _cells(values[:, 27], lo, hi), (target == 0).astype(np.int8), "f27 ∈ [0, 0.291]"))
        elif name == "wine":
            w = load_wine()
            out.append(
                Task(name, _cells(w.data[:, 12], 278.0, 1680.0), (w.target == 0).astype(np.int8), "class 0 vs rest")
            )
        elif name == "digits":
            d = load_digits()
            out.append(Task(name, _cells(d.data[:, 52], 0.0, 16.0), (d.target >= 5).astype(np.int8), "5–9 vs 0–4"))
        else:
            raise ValueError(f"unknown task {name!r}")
    return out


def make_estimator(name: str, n: int, eps: float, seed: int) -> Any:
    """The estimator ``name`` with the module doc's user sizes for n training examples."""
    from littlestone import pac
    from littlestone.pac.grid import grid_stumps

    H = grid_stumps(BINS, 1)
    common: dict[str, Any] = {"hypothesis_class": H, "epsilon": eps, "backend": "seeded", "random_state": seed}
    n_gen = max(1, n // 4)
    if name == "GenericLearnerClassifier":
        return pac.GenericLearnerClassifier(**common)
    if name == "BLM20Classifier":
        return pac.BLM20Classifier(**common, delta=DELTA, **_blm20_sizes(n))
    if name == "AgnosticBLM20Classifier":
        n0 = _agnostic_subsample(n, eps)
        return pac.AgnosticBLM20Classifier(**common, delta=DELTA, subsample_size=n0, inner_sizes=_blm20_sizes(n0))
    if name == "PolyPriLearnClassifier":
        return pac.PolyPriLearnClassifier(**common, delta=DELTA, n=2, m=max(1, n // 2), K=2)
    if name == "PolyPriPropLearnClassifier":
        return pac.PolyPriPropLearnClassifier(
            **common, delta=DELTA, n=2, m=max(1, (n - n_gen) // 2), K=2, n_generic=n_gen
        )
    if name == "AgnosticPolyPriPropLearnClassifier":
        from littlestone.pac.agnostic_proper import eps0_for

        inner = max(1, math.ceil(eps0_for(eps) * n) // 8)  # |I| = ⌈ε₀·n⌉ records; ≈ 3|I|/8 inner draws
        return pac.AgnosticPolyPriPropLearnClassifier(
            **common, delta=DELTA, n=n, n_inner=2, K=2, m=inner, n_generic=inner
        )
    raise ValueError(f"unknown estimator {name!r}")


def _agnostic_subsample(n: int, eps: float) -> int:
    """The largest subsample N₀ the agnostic BLM20 learner accepts at ε (amplification by subsampling, rate q)."""
    from littlestone.bounds.agnostic import EPS_INNER, EPS_LABEL, inner_epsilon
    from littlestone.privacy import sampling_rate_for

    return max(1, int(sampling_rate_for(eps, inner_epsilon(EPS_LABEL, EPS_INNER)) * n))


def _blm20_sizes(n: int) -> dict[str, Any]:
    n_gen = max(1, n // 4)
    return {"n_batches": max(1, (n - n_gen) // 3), "aux_size": 1, "cap": 2, "n_generic": n_gen, "eta": 0.1}


def fell_back(result: Any) -> bool:
    """Whether a fit returned its data-independent output: ``fallback`` (BLM20), ``bottom`` (GGKM21 ⊥), looked up on
    the result or its ``inner`` run (the agnostic learners); False for learners without one (generic)."""
    for r in (result, getattr(result, "inner", None)):
        for attr in ("fallback", "bottom"):
            if r is not None and hasattr(r, attr):
                return bool(getattr(r, attr))
    return False


def n_grid(n_max: int, start: int = 16) -> list[int]:
    """16, 32, 64, … below n_max, then n_max itself."""
    out, n = [], start
    while n < n_max:
        out.append(n)
        n *= 2
    return out + [n_max]


def run(
    tasks: list[Task],
    estimators: tuple[str, ...],
    epsilons: tuple[float, ...],
    n_splits: int,
    *,
    start: int = 16,
    progress: Callable[[str], None] | None = None,
) -> dict:
    """cells[(task, estimator, ε, n)] = (fallback rate, mean accuracy, error message or ''); majority[(task, n)];
    warned = the cells whose fits issued a FallbackLikelyWarning."""
    from littlestone.experiments.demo import stratified_split
    from littlestone.errors import FallbackLikelyWarning

    cells: dict[tuple, tuple[float, float, str]] = {}
    majority: dict[tuple, float] = {}
    grids: dict[str, list[int]] = {}
    out_warned: set[tuple] = set()  # cells where the estimator issued a FallbackLikelyWarning (public sizes only)
    for task in tasks:
        splits = [stratified_split(task.y, 0.3, np.random.SeedSequence(2026, spawn_key=(s,))) for s in range(n_splits)]
        grids[task.name] = grid = n_grid(min(len(tr) for tr, _ in splits), start)
        for n in grid:
            maj = []
            draws = []
            for s, (tr, te) in enumerate(splits):
                idx = np.random.default_rng([2026, s, n]).choice(tr, size=n, replace=False)  # never with replacement
                draws.append((idx, te))
                label = int(np.mean(task.y[idx]) > 0.5)
                maj.append(float(np.mean(task.y[te] == label)))
            majority[(task.name, n)] = float(np.mean(maj))
            for name in estimators:
                for eps in epsilons:
                    fb, acc, err, warned = [], [], "", False
                    for s, (idx, te) in enumerate(draws):
                        est = make_estimator(name, n, eps, seed=1000 * s + n)
                        try:
                            with warnings.catch_warnings(record=True) as rec:
                                warnings.simplefilter("always")
                                est.fit(task.X[idx], task.y[idx])
                            warned = warned or any(issubclass(w.category, FallbackLikelyWarning) for w in rec)
                            fb.append(fell_back(est.result_))
                            acc.append(float(np.mean(est.predict(task.X[te]) == task.y[te])))
                        except Exception as exc:  # noqa: BLE001 — a refused size is a result, reported as such
                            err = f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"
                            fb.append(True)
                            acc.append(maj[s])
                    cells[(task.name, name, eps, n)] = (float(np.mean(fb)), float(np.mean(acc)), err)
                    if warned:
                        out_warned.add((task.name, name, eps, n))
                    if progress:
                        progress(f"{task.name} n={n} {name} ε={eps:g}: fb {np.mean(fb):.2f} acc {np.mean(acc):.3f}")
    return {"cells": cells, "majority": majority, "grids": grids, "warned": out_warned}


def first_n(grid: list[int], ok: Callable[[int], bool]) -> int | None:
    """Least grid n such that ok holds at n and every larger grid n (None: not even at the largest)."""
    best = None
    for n in reversed(grid):
        if not ok(n):
            break
        best = n
    return best


def summary(out: dict, estimators: tuple[str, ...], epsilons: tuple[float, ...]) -> list[tuple]:
    """Rows (estimator, task, ε, stops-falling-back n or None, beats-majority n or None, N, error or '')."""
    rows = []
    for task, grid in out["grids"].items():
        for name in estimators:
            for eps in epsilons:
                c = {n: out["cells"][(task, name, eps, n)] for n in grid}
                nf = first_n(grid, lambda n: c[n][0] < 0.5)
                nm = first_n(grid, lambda n: c[n][1] >= out["majority"][(task, n)] + MARGIN)
                err = next((c[n][2] for n in grid if c[n][2]), "")
                rows.append((name, task, eps, nf, nm, grid[-1], err))
    return rows


def _fmt(n: int | None, n_max: int) -> str:
    return f"never (≤ {n_max})" if n is None else str(n)


def markdown(out: dict, estimators: tuple[str, ...], epsilons: tuple[float, ...], meta: str = "") -> str:
    rows = summary(out, estimators, epsilons)
    tasks = list(out["grids"])
    lines = [
        "# Which learner to use",
        "",
        "Generated by `benchmarks/bench_which_learner.py` (data, classes, sizes and definitions in its docstring). "
        "Each cell: *n from which the fallback rate stays < 1/2* / *n from which the mean test accuracy stays ≥ the "
        "majority class's + 0.02*; grid n = 16, 32, … up to the training-set size N, never resampled beyond it. "
        "`—` = the learner has no data-independent output.",
        "",
    ]
    if meta:
        lines += [meta, ""]
    head = "| estimator | " + " | ".join(f"{t} ε={e:g}" for t in tasks for e in epsilons) + " |"
    lines += [head, "|" + "---|" * (1 + len(tasks) * len(epsilons))]
    by = {(r[0], r[1], r[2]): r for r in rows}
    for name in estimators:
        cells = []
        for t in tasks:
            for e in epsilons:
                r = by[(name, t, e)]
                fb = "—" if name == "GenericLearnerClassifier" else _fmt(r[3], r[5])
                refused = all(out["cells"][(t, name, e, n)][2] for n in out["grids"][t])
                cells.append("refuses every n (below)" if refused else f"{fb} / {_fmt(r[4], r[5])}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    errs = [r for r in rows if r[6]]
    if errs:
        lines += ["", "Fits that raised (counted as fallbacks at the majority's accuracy; first message per ε):", ""]
        seen = set()
        for r in errs:
            if (r[0], r[2]) not in seen:
                seen.add((r[0], r[2]))
                lines.append(f"- {r[0]}, ε={r[2]:g} ({r[1]}): `{r[6]}`")
    warned = out["warned"]
    wrong = sorted(c for c in warned if out["cells"][c][0] < 1.0)
    lines += [
        "",
        f"`FallbackLikelyWarning` (computed from public sizes before any data is read): issued in {len(warned)} cells "
        f"(⚠ below); in {len(wrong)} of them some fit did not fall back"
        + (": " + ", ".join(f"{c[0]}/{c[1]}/ε={c[2]:g}/n={c[3]}" for c in wrong) if wrong else "")
        + ".",
    ]
    lines += ["", "## Cells (fallback rate, mean test accuracy; majority baseline; ⚠ = the fit warned)", ""]
    for t in tasks:
        grid = out["grids"][t]
        lines += [f"### {t}", "", "| estimator | ε | " + " | ".join(f"n={n}" for n in grid) + " |"]
        lines.append("|" + "---|" * (2 + len(grid)))
        lines.append("| majority class | | " + " | ".join(f"{out['majority'][(t, n)]:.3f}" for n in grid) + " |")
        for name in estimators:
            for e in epsilons:
                vals = [out["cells"][(t, name, e, n)] for n in grid]
                marks = ["⚠" if (t, name, e, n) in out["warned"] else "" for n in grid]
                lines.append(
                    f"| {name} | {e:g} | "
                    + " | ".join(f"{fb:.2f}, {a:.3f}{w}" for (fb, a, _), w in zip(vals, marks))
                    + " |"
                )
        lines.append("")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--splits", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="1 split")
    ap.add_argument("--out", default=str(HERE / "results" / "which_learner.md"))
    args = ap.parse_args()
    n_splits = 1 if args.quick else args.splits
    load0, c0, t0 = os.getloadavg(), time.process_time(), time.time()
    out = run(load_tasks(), ESTIMATORS, EPSILONS, n_splits, progress=lambda s: print(s, flush=True))
    meta = (
        f"{n_splits} split(s) per cell; seeded backend; {time.process_time() - c0:.0f} s CPU, "
        f"{time.time() - t0:.0f} s wall on {platform.machine()} ({os.cpu_count()} cores), load average at start "
        f"{load0[0]:.1f}. Rerun: `PYTHONPATH=src .venv/bin/python benchmarks/bench_which_learner.py --splits "
        f"{n_splits}`."
    )
    text = markdown(out, ESTIMATORS, EPSILONS, meta)
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
