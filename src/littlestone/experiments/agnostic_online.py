"""Experiment: regret against T (log–log) for private agnostic online learning (LWY25 §4, App. E).

Panel A (thresholds over 16 points, T up to 10⁵): Algorithm 3 (ε = 1, B = ⌈√T⌉ — Cor 4.3's T-dependence, its
d-dependent factor dropped) once per sanitizer of H^label named in ``sanitizer`` — "mwem" (MWEM, ε-DP) and
"sequential_fooling" (the Bousquet–Livni–Moran sanitizer of LWY25 Thm 4.2, δ = 10⁻⁶, α = 0.1, theory rounds,
exponential-mechanism discriminator learner; (ε, δ)-DP), each row labelled with its sanitizer —, private OPE over the class itself (TreeAggregationHedge ε = 1, BatchedPrivateHedge
ε = 1, δ = 1e-6) and non-private Hedge over H. Panel B (thresholds over 4 points, small T): the Thm E.10
constructed-experts learner (MWEM windows, batched OPE; 2ε = 2), the Ben-David–Pál–Shalev-Shwartz SOA experts with
Hedge (non-private), Hedge over H. Data: x uniform, y = 1[x ≥ n/2] flipped with probability η ∈ {0.05, 0.2}, and an
adaptive adversary (both panels, played round by round; points drawn in advance, labels adaptive) that flips the
label with probability 0.2 in the rounds right after the learner predicted correctly. Regret = mistakes − min_h mistakes(h); mean over seeds; slopes fitted by least squares
on log mean regret vs log T, to compare with the theorems' ¾ (Cor 4.3) and ½ (Thm 4.4).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from ..agnostic_online import Algorithm3, ConstructedExpertsLearner, bdps_soa_experts, best_in_class, experts_over_class
from ..agnostic_online.baselines import bdps_expert_predictions
from ..classes import LabelClass, Thresholds
from ..errors import LittlestoneError
from ..experts import BatchedPrivateHedge, Hedge, TreeAggregationHedge
from ..parallel import map_seeded
from ..sanitizers import sequential_fooling_factory
from ._blm20_common import ExperimentResult, new_figure, out_path, save_figure, write_table

PANEL_A = ("Algorithm 3", "private OPE (tree)", "private OPE (batched)", "Hedge over H")
#: Algorithm 3's sanitizer of H^label (parameter ``sanitizer``) → the learner's label in the table and figure
SANITIZER_NAMES = {"mwem": "MWEM", "sequential_fooling": "sequential fooling"}
ALG3_SANITIZERS = {k: f"Algorithm 3 ({v})" for k, v in SANITIZER_NAMES.items()}


def _algorithm3(H: Thresholds, T: int, learner: str, ss: np.random.SeedSequence, backend: str) -> Algorithm3:
    """Algorithm 3 with B = ⌈√T⌉ and the sanitizer its label names."""
    key = {v: k for k, v in ALG3_SANITIZERS.items()}[learner]
    san: Any = "mwem"
    if key == "sequential_fooling":
        san = sequential_fooling_factory(
            LabelClass(H), 1e-6, seed=ss.spawn(1)[0], alpha=0.1, learner="exponential", backend=backend
        )
    return Algorithm3(H, T, 1.0, batch=max(2, math.ceil(math.sqrt(T))), backend=backend, seed=ss, sanitizer=san)


PANEL_B = ("constructed experts (Thm E.10)", "BDPS SOA experts", "Hedge over H")
#: panel C (``infinite=True``): Algorithm 3 on Thresholds(2^60) — structured sanitizer, Hedge over thresholds, ε = 1,
#: B from Thm 4.1's bound (littlestone.agnostic_online.ThresholdsAlgorithm3); y = 1[x ≥ n/2] as in panel A
PANEL_C = ("Algorithm 3, thresholds(2^60)",)


def _noisy(n: int, T: int, eta: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X = rng.integers(0, n, T)
    y = (X >= n // 2).astype(np.int8)
    y[rng.random(T) < eta] ^= 1
    return X, y


def _adaptive(H: Thresholds, learner: str, T: int, ss: np.random.SeedSequence, backend: str) -> float:
    """Play one learner against the contrarian adversary step by step; returns its regret."""
    n = H.n
    rng = np.random.default_rng(ss.spawn(1)[0])
    X = rng.integers(0, n, T)
    target = (X >= n // 2).astype(np.int8)
    cols = np.arange(n + 1)[None, :] <= X[:, None]  # h_t(x) for all thresholds t
    y = np.empty(T, dtype=np.int8)
    mistakes, last_ok = 0, False
    P = None
    if learner in ALG3_SANITIZERS.values():
        alg = _algorithm3(H, T, learner, ss, backend)
    elif learner == "constructed experts (Thm E.10)":
        alg = ConstructedExpertsLearner(H, T, 1.0, 1e-6, backend=backend, seed=ss)  # online: sees x_t at round t
    elif learner == "BDPS SOA experts":
        P, _ = bdps_expert_predictions(H, X)
        alg = Hedge(P.shape[0], T, seed=ss)
    else:
        alg = {
            "private OPE (tree)": lambda: TreeAggregationHedge(n + 1, T, 1.0, backend=backend, seed=ss),
            "private OPE (batched)": lambda: BatchedPrivateHedge(n + 1, T, 1.0, 1e-6, backend=backend, seed=ss),
            "Hedge over H": lambda: Hedge(n + 1, T, seed=ss),
        }[learner]()
    for t in range(T):
        y[t] = target[t] ^ int(last_ok and rng.random() < 0.2)
        if learner in ALG3_SANITIZERS.values() or learner == "constructed experts (Thm E.10)":
            p = alg.predict_one(int(X[t]))
            alg.learn_one(int(X[t]), int(y[t]))
        elif P is not None:
            p = int(P[alg.predict_one(), t])
            alg.learn_one((P[:, t] != y[t]).astype(float))
        else:
            p = int(cols[t, alg.predict_one()])
            alg.learn_one((cols[t] != y[t]).astype(float))
        last_ok = p == y[t]
        mistakes += p != y[t]
    return float(mistakes - best_in_class(H, X, y))


def _infinite_cell(data: str, T: int, n: int, ss: np.random.SeedSequence, backend: str) -> float:
    """Regret of Algorithm 3 on Thresholds(n) (panel C): noisy data, or the contrarian adversary round by round."""
    from ..agnostic_online import ThresholdsAlgorithm3
    from ..agnostic_online.algorithm3_thresholds import best_threshold_mistakes

    alg = ThresholdsAlgorithm3(Thresholds(n), T, 1.0, backend=backend, seed=ss, diagnostics=True)
    rng = np.random.default_rng(ss.spawn(1)[0])
    if data != "adaptive":
        X, y = _noisy(n, T, float(data.split("=")[1]), rng)
        return float(int((alg.run(X, y) != y).sum()) - best_threshold_mistakes(X, y))
    X = rng.integers(0, n, T)
    y = np.empty(T, dtype=np.int8)
    last_ok = False
    for t in range(T):
        y[t] = int(X[t] >= n // 2) ^ int(last_ok and rng.random() < 0.2)
        last_ok = alg.predict_one(int(X[t])) == y[t]
        alg.learn_one(int(X[t]), int(y[t]))
    return float(alg.mistakes - best_threshold_mistakes(X, y))


def _cell(spec: tuple, ss: np.random.SeedSequence) -> dict:
    panel, data, learner, T, n, backend = spec
    if panel == "C":
        return {
            "panel": panel,
            "data": data,
            "learner": learner,
            "T": T,
            "regret": _infinite_cell(data, T, n, ss, backend),
        }
    H = Thresholds(n)
    if data == "adaptive":
        return {
            "panel": panel,
            "data": data,
            "learner": learner,
            "T": T,
            "regret": _adaptive(H, learner, T, ss, backend),
        }
    eta = float(data.split("=")[1])
    X, y = _noisy(n, T, eta, np.random.default_rng(ss.spawn(1)[0]))
    best = best_in_class(H, X, y)
    if learner in ALG3_SANITIZERS.values():
        alg = _algorithm3(H, T, learner, ss, backend)
        mistakes = int((alg.run(X, y) != y).sum())
    elif learner == "constructed experts (Thm E.10)":
        lrn = ConstructedExpertsLearner(H, T, 1.0, 1e-6, backend=backend, seed=ss)
        lrn.run(X, y)
        mistakes = int((np.asarray(lrn.predictions_) != y).sum())
    elif learner == "BDPS SOA experts":
        res = bdps_soa_experts(H, X, y, seed=ss)
        mistakes = res.realized_loss
    else:
        ope = {
            "private OPE (tree)": lambda: TreeAggregationHedge(n + 1, T, 1.0, backend=backend, seed=ss),
            "private OPE (batched)": lambda: BatchedPrivateHedge(n + 1, T, 1.0, 1e-6, backend=backend, seed=ss),
            "Hedge over H": lambda: Hedge(n + 1, T, seed=ss),
        }[learner]()
        mistakes = experts_over_class(H, X, y, learner=ope).realized_loss
    return {"panel": panel, "data": data, "learner": learner, "T": T, "regret": float(mistakes - best)}


def fitted_slope(Ts: Sequence[int], regrets: Sequence[float]) -> float:
    """Least-squares slope of log(regret) on log(T) over the points with positive mean regret (nan if < 2)."""
    pts = [(math.log(t), math.log(r)) for t, r in zip(Ts, regrets) if r > 0]
    if len(pts) < 2:
        return float("nan")
    x, yv = np.array(pts).T
    return float(np.polyfit(x, yv, 1)[0])


def run(
    T_large: Sequence[int] = (1000, 3000, 10_000, 30_000, 100_000),
    T_adaptive: Sequence[int] = (1000, 3000, 10_000),
    T_small: Sequence[int] = (8, 16, 32, 64, 128),
    etas: Sequence[float] = (0.05, 0.2),
    seeds: int = 3,
    n_large: int = 16,
    n_small: int = 4,
    sanitizer: Sequence[str] = ("mwem", "sequential_fooling"),
    *,
    seed: Any = 0,
    jobs: int = 1,
    out_dir: Any = None,
    backend: str = "seeded",
    infinite: bool = True,
    n_infinite: int = 2**60,
) -> ExperimentResult:
    """Regret vs T, log–log, with fitted slopes against ¾ (Algorithm 3) and ½ (Thm E.10 / OPE); Algorithm 3 runs
    once per sanitizer of H^label in ``sanitizer`` ("mwem", "sequential_fooling"); ``infinite`` adds panel C
    (Algorithm 3 on Thresholds(``n_infinite``))."""
    for name, Ts in (("T_large", T_large), ("T_adaptive", T_adaptive), ("T_small", T_small)):
        if not all(isinstance(t, (int, np.integer)) and not isinstance(t, bool) and t >= 2 for t in Ts):
            raise LittlestoneError(f"{name} must be integers >= 2 (horizons), got {list(Ts)!r}")
    if not all(isinstance(e, (int, float)) and 0 <= e < 0.5 for e in etas):
        raise LittlestoneError(f"etas must be label-noise rates in [0, 0.5), got {list(etas)!r}")
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise LittlestoneError(f"seeds must be an integer >= 1, got {seeds!r}")
    sanitizer = [sanitizer] if isinstance(sanitizer, str) else list(sanitizer)
    if not sanitizer or any(s not in ALG3_SANITIZERS for s in sanitizer):
        raise LittlestoneError(
            f"sanitizer must name Algorithm 3's sanitizers among {', '.join(ALG3_SANITIZERS)}, got {sanitizer!r}"
        )
    # Algorithm 3 with MWEM where the one "Algorithm 3" stood, any other sanitizer's runs after all the others (so
    # adding one leaves the other cells' seeds, hence their results, unchanged)
    chosen = list(dict.fromkeys(sanitizer))
    first = [ALG3_SANITIZERS["mwem"]] if "mwem" in chosen else []
    panel_a = first + [x for x in PANEL_A if x != "Algorithm 3"]
    later = [ALG3_SANITIZERS[s] for s in chosen if s != "mwem"]
    specs = []
    for eta in etas:
        specs += [("A", f"eta={eta:g}", lrn, int(T), n_large, backend) for lrn in panel_a for T in T_large]
        specs += [("B", f"eta={eta:g}", lrn, int(T), n_small, backend) for lrn in PANEL_B for T in T_small]
    specs += [("A", "adaptive", lrn, int(T), n_large, backend) for lrn in panel_a for T in T_adaptive]
    specs += [("B", "adaptive", lrn, int(T), n_small, backend) for lrn in PANEL_B for T in T_small]
    for eta in etas:
        specs += [("A", f"eta={eta:g}", lrn, int(T), n_large, backend) for lrn in later for T in T_large]
    specs += [("A", "adaptive", lrn, int(T), n_large, backend) for lrn in later for T in T_adaptive]
    if infinite:
        if isinstance(n_infinite, bool) or not isinstance(n_infinite, int) or not 2 <= n_infinite <= 2**62:
            raise LittlestoneError(f"n_infinite must be an integer in [2, 2^62], got {n_infinite!r}")
        specs += [("C", f"eta={eta:g}", PANEL_C[0], int(T), n_infinite, backend) for eta in etas for T in T_large]
        specs += [("C", "adaptive", PANEL_C[0], int(T), n_infinite, backend) for T in T_adaptive]
    cells = [(s, r) for s in specs for r in range(int(seeds))]
    raw = map_seeded(_cell, [s for s, _ in cells], seed=seed, n_jobs=jobs, progress="agnostic_online runs")
    rows: list[dict] = []
    groups: dict = {}
    for (s, r), out in zip(cells, raw):
        out["seed_index"] = r
        rows.append(out)
        groups.setdefault((out["panel"], out["data"], out["learner"]), {}).setdefault(out["T"], []).append(
            out["regret"]
        )
    table: list[dict] = []
    slopes: dict = {}
    for key, byT in groups.items():
        Ts = sorted(byT)
        means = [float(np.mean(byT[t])) for t in Ts]
        slopes[key] = fitted_slope(Ts, means)
        for t, m in zip(Ts, means):
            table.append(
                {
                    "panel": key[0],
                    "data": key[1],
                    "learner": key[2],
                    "T": t,
                    "mean_regret": m,
                    "std_regret": float(np.std(byT[t])),
                    "seeds": len(byT[t]),
                    "slope": slopes[key],
                }
            )
    out = out_path(out_dir)
    csv = write_table(table, out / "agnostic_online.csv")
    write_table(rows, out / "agnostic_online_runs.csv")
    datas = sorted({k[1] for k in groups})
    new_figure(1, 1)  # selects the Agg backend
    import matplotlib.pyplot as plt

    plt.close("all")
    fig, axes = plt.subplots(1, len(datas), figsize=(5.0 * len(datas), 4.4), squeeze=False)
    for ax, data in zip(axes[0], datas):
        for key, byT in sorted(groups.items()):
            if key[1] != data:
                continue
            Ts = sorted(byT)
            means = [max(float(np.mean(byT[t])), 0.5) for t in Ts]
            ax.loglog(Ts, means, "o-" if key[0] == "A" else "s--", label=f"{key[2]} (slope {slopes[key]:.2f})")
        for p, style in ((0.75, ":"), (0.5, "-.")):
            t0 = np.array([8, 100_000])
            ax.loglog(t0, t0**p, "k" + style, lw=0.8, label=f"T^{p:g}")
        ax.set_title(data)
        ax.set_xlabel("T")
        ax.set_ylabel("mean regret")
        ax.legend(fontsize=6)
    fig_path = save_figure(fig, out / "agnostic_online.png")
    summary = "; ".join(f"{k[2]} ({k[1]}, panel {k[0]}): {v:.2f}" for k, v in sorted(slopes.items()))
    return ExperimentResult(
        "agnostic_online",
        table,
        csv,
        [fig_path],
        verdict=f"Algorithm 3's sanitizer of H^label: "
        f"{', '.join(SANITIZER_NAMES[s] for s in dict.fromkeys(sanitizer))}; "
        f"fitted slopes (theorems: ¾ for Algorithm 3, ½ for Thm E.10 / OPE): {summary}",
    )
